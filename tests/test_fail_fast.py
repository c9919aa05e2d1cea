"""Issue #13: hangs, outages and odd files fail fast and clearly, through the real command.

Each test reproduces one reported defect the way it was seen (a subprocess, a real
OpenAI-compatible server on 127.0.0.1, real files and signals) and checks the fix.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time

import pytest

from papershelf import Library
from papershelf.embed.base import ProviderSpec
from papershelf.embed.openai import reset_health
from papershelf.errors import ProviderDown, ReadOnlyLibrary
from papershelf.store import sqlite as sqlite_store

from .providers import DROP, HANG, EmbeddingServer
from .reliability.common import cli, cli_env, openai_args, read_event, slack, start, write_papers


@pytest.fixture(autouse=True)
def _own_health_file(tmp_path, monkeypatch):
    """Each test remembers provider failures in its own file (the CLI subprocesses inherit it)."""
    monkeypatch.setenv("PAPERSHELF_PROVIDER_HEALTH", str(tmp_path / "health.json"))
    reset_health()


@pytest.fixture
def server():
    with EmbeddingServer(dimension=64) as s:
        yield s


@pytest.fixture
def papers(tmp_path):
    """A library of 8 papers (added in-process: the command's `add` is tested elsewhere)."""
    db = tmp_path / "lib.db"
    with Library(str(db)) as lib:
        lib.add([str(p) for p in write_papers(tmp_path / "papers", 8)])
    return db


# -- 1. Ctrl-C on a hung provider -------------------------------------------------------------

def test_ctrl_c_stops_a_build_on_a_hung_provider_within_2s_keeping_written_papers(papers, server):
    proc = start(papers, "embed", *openai_args(server.url, "--batch-size", "1"), "--json")
    read_event(proc, "paper")  # one paper written; from now on the server accepts and never answers
    server.outage = HANG
    time.sleep(0.5)
    t0 = time.monotonic()
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    stopped_in = time.monotonic() - t0
    assert proc.returncode == 130, err
    assert stopped_in < 2.0 * slack(), stopped_in
    print(f"\nCtrl-C on a hung provider: exit 130 after {stopped_in:.2f}s")
    assert "Traceback" not in err
    with Library(str(papers), create=False) as lib:
        pending = {p for p, _ in lib.pending()}
        assert 1 <= 8 - len(pending) < 8  # the paper written before the hang is kept
        assert lib.verify().ok


def test_a_second_ctrl_c_exits_at_once(papers, server):
    server.outage = HANG  # even the first request never comes back
    proc = start(papers, "embed", *openai_args(server.url), "--json")
    deadline = time.monotonic() + 60
    while not server.requests and time.monotonic() < deadline:  # the build is waiting on the server
        time.sleep(0.05)        # (a fixed sleep raced the interpreter's start-up on a loaded machine)
    assert server.requests, "the build never called the provider"
    time.sleep(0.2)
    t0 = time.monotonic()
    proc.send_signal(signal.SIGINT)
    time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130 and time.monotonic() - t0 < 2.0 * slack(), err
    assert "Traceback" not in err


# -- 2. An outage costs seconds, not 15 s per paper ---------------------------------------------

def test_an_outage_stops_the_build_in_seconds_and_reports_every_untried_paper(papers, server):
    good = (200, {}, lambda body: {"data": [{"index": i, "embedding": [0.1] * 64}
                                            for i in range(len(body["input"]))]})
    server.script = [good, good]  # enough for the first group of papers (a group fills a batch)
    server.outage = (500, {}, {"error": "down"})
    t0 = time.monotonic()
    p = cli(papers, "embed", *openai_args(server.url, "--batch-size", "4", "--dimension", "64"), "--json", ok=(1,))
    took = time.monotonic() - t0
    assert took < 12 * slack(), took
    print(f"\noutage (HTTP 500 after the first calls), default settings: exit 1 after {took:.2f}s "
          "including interpreter start-up")
    summary = json.loads(p.stdout.strip().splitlines()[-1])
    assert summary["provider_down"] and "HTTP 500" in summary["provider_down"]
    embedded = summary["embedded"]
    assert 1 <= embedded <= 3 and embedded + len(summary["failed"]) == 8, summary
    assert sum("not tried" in r for r in summary["failed"].values()) >= 3
    assert len(server.requests) <= 2 + 4 + 2  # the good ones + the 4 failures that tripped the breaker + in flight
    status = json.loads(cli(papers, "status", "--json").stdout)["embedding"]
    assert status["pending_papers"] == 8 - embedded and status["failed_papers"] == 8 - embedded


@pytest.mark.parametrize("outage", ["429", "drop", "gone"])
def test_other_outages_also_stop_the_build_fast(tmp_path, server, outage):
    with Library(str(tmp_path / "lib.db")) as lib:
        lib.add([str(p) for p in write_papers(tmp_path / "papers", 6)])
        spec = ProviderSpec("openai", "test-embed", (("dimension", 64),),
                            (("base_url", server.url), ("batch_size", 1), ("backoff", 0.05)))
        lib.embed(spec, paper_ids=["p000"])
        if outage == "429":
            server.outage = (429, {"Retry-After": "0.1"}, {"error": "slow down"})
        elif outage == "drop":
            server.outage = DROP
        else:
            server.stop()
        t0 = time.monotonic()
        report = lib.embed(spec, workers=2)
        assert time.monotonic() - t0 < 5 * slack()
        assert report.provider_down and len(report.failed) == 5 and not report.complete
        assert {p for p, _ in lib.pending()} == {f"p{i:03d}" for i in range(1, 6)}


def test_transient_errors_are_retried_and_succeed(tmp_path, server):
    server.script = [(429, {"Retry-After": "0.2"}, {"error": "slow down"}), (500, {}, {"error": "hiccup"})]
    with Library(str(tmp_path / "lib.db")) as lib:
        lib.add([str(p) for p in write_papers(tmp_path / "papers", 3)])
        spec = ProviderSpec("openai", "test-embed", (), (("base_url", server.url), ("backoff", 0.05)))
        report = lib.embed(spec)
        assert report.complete and not report.failed and not report.provider_down


# -- 3. Search falls back to lexical within a second ----------------------------------------------

def test_search_with_a_hung_provider_falls_back_within_a_second_and_remembers(papers, server):
    cli(papers, "embed", *openai_args(server.url))
    server.outage = HANG
    for attempt in range(2):
        t0 = time.monotonic()
        res = json.loads(cli(papers, "search", "topic3 signal", "--json").stdout)
        assert res["mode"] == "lexical" and res["results"]
        assert any("provider" in n for n in res["notices"])
        assert res["timings_ms"]["total_ms"] <= 1000 * slack(), res["timings_ms"]
        if attempt == 0:
            asked = len(server.requests)
        else:  # remembered: no second wait on the hung server, not even a request
            assert len(server.requests) == asked
            assert time.monotonic() - t0 < 10


def test_a_query_provider_recovers_once_the_memory_expires(tmp_path, server):
    spec = ProviderSpec("openai", "m", (), (("base_url", server.url), ("remember", 0.3)))
    q = spec.create().for_queries()
    server.script = [(503, {}, {"error": "down"})]
    with pytest.raises(ProviderDown):
        q.encode(["x"])
    with pytest.raises(ProviderDown, match="moments ago"):
        q.encode(["x"])  # remembered: no request
    assert len(server.requests) == 1
    time.sleep(0.35)
    assert q.encode(["x"]).shape == (1, 64)


# -- 4-6. Odd files: loops, non-UTF-8 names, FIFOs --------------------------------------------------

def test_loops_fifos_and_non_utf8_names_are_one_line_each_and_the_rest_is_indexed(tmp_path):
    folder = tmp_path / "papers"
    write_papers(folder, 2)
    os.symlink("b.md", folder / "a.md")
    os.symlink("a.md", folder / "b.md")
    os.symlink("missing.md", folder / "dangling.md")
    os.mkfifo(folder / "pipe.md")
    raw = os.fsencode(str(folder)) + b"/caf\xe9-notes.md"
    with open(raw, "wb") as f:
        f.write(b"# Latin-1 named\n\nA file whose name is not UTF-8 mentions zymurgy.\n")
    db = tmp_path / "lib.db"
    p = cli(db, "add", str(folder), "--json", ok=(1,), timeout=30)
    report = json.loads(p.stdout)
    reasons = {os.path.basename(f["path"]): f.get("reason") for f in report["files"] if f["status"] == "failed"}
    assert reasons == {"a.md": "symbolic link loop", "b.md": "symbolic link loop",
                       "dangling.md": "broken symbolic link", "pipe.md": "not a regular file: a named pipe (FIFO)"}
    assert report["added"] == 3
    hit = json.loads(cli(db, "search", "zymurgy", "--json").stdout)["results"][0]
    assert hit["title"] == "caf\\xe9-notes" and hit["section_path"] == "Latin-1 named"
    again = json.loads(cli(db, "add", str(folder), "--json", ok=(1,), timeout=30).stdout)
    assert again["unchanged"] == 3 and again["added"] == 0  # the stored name maps back to the same file
    human = cli(db, "add", str(folder), ok=(1,), timeout=30)
    assert human.stdout.count("failed ") == 4 + 1  # the summary line, then one line per bad file


# -- 7. Search options are validated -------------------------------------------------------------------

@pytest.mark.parametrize("args", [
    ["--year-from", "99999999999999999999999"],
    ["--fusion", "rrf", "--rrf-k", "-60"],
    ["--lexical-weight", "nan"],
    ["--vector-weight", "inf"],
    ["--year-to", "-99999"],
])
def test_bad_search_options_exit_2_with_one_line(papers, args):
    p = cli(papers, "search", "topic1", *args, "--json", ok=(2,))
    assert p.stdout == "" and len(p.stderr.strip().splitlines()) == 1, p.stderr


# -- 8. A full disk --------------------------------------------------------------------------------------

@pytest.fixture
def tiny_disk(tmp_path):
    mnt = tmp_path / "tiny"
    mnt.mkdir()
    r = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(mnt)], capture_output=True)
    if r.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {r.stderr.decode().strip()}")
    yield mnt
    subprocess.run(["umount", "-l", str(mnt)], capture_output=True)


def test_a_full_disk_is_one_line_and_the_library_stays_intact(tmp_path, tiny_disk, server):
    db = tiny_disk / "lib.db"
    write_papers(tmp_path / "first", 3, prefix="a")
    cli(db, "add", str(tmp_path / "first"))
    write_papers(tmp_path / "more", 60, prefix="b", words=3000)  # several MiB of text: cannot fit
    p = cli(db, "add", str(tmp_path / "more"), ok=(1,))
    assert "disk full or not writable" in p.stderr and len(p.stderr.strip().splitlines()) == 1, p.stderr
    assert json.loads(cli(db, "verify", "--json").stdout)["ok"]
    # the disk stays full (the WAL holds the space until a checkpoint can run): embed says the same
    p = cli(db, "embed", *openai_args(server.url), ok=(1,))
    assert "disk full or not writable" in p.stderr and len(p.stderr.strip().splitlines()) <= 2, p.stderr
    subprocess.run(["mount", "-o", "remount,size=32m", str(tiny_disk)], check=True)  # space freed
    assert json.loads(cli(db, "verify", "--json").stdout)["ok"]
    cli(db, "embed", *openai_args(server.url))
    assert json.loads(cli(db, "status", "--json").stdout)["embedding"]["pending_papers"] == 0


# -- 9. A read-only library -------------------------------------------------------------------------------

def test_a_library_on_read_only_media_is_readable_and_writes_say_so(tmp_path, tiny_disk):
    db = tiny_disk / "lib.db"
    write_papers(tmp_path / "papers", 3)
    cli(db, "add", str(tmp_path / "papers"))
    cli(db, "embed", "--provider", "hash", "--dimension", "64")
    r = subprocess.run(["mount", "-o", "remount,ro", str(tiny_disk)], capture_output=True)
    if r.returncode != 0:
        pytest.skip("cannot remount read-only")
    assert json.loads(cli(db, "search", "topic1", "--json").stdout)["results"][0]["paper_id"] == "p001"
    assert json.loads(cli(db, "status", "--json").stdout)["papers"] == 3
    assert json.loads(cli(db, "verify", "--json").stdout)["ok"]
    cli(db, "show", "p001")
    cli(db, "papers")
    write_papers(tmp_path / "new", 1, prefix="n")
    for args in (["add", str(tmp_path / "new")], ["embed", "--force"], ["remove", "p001"]):
        p = cli(db, *args, ok=(1,))
        assert "read-only" in p.stderr and len(p.stderr.strip().splitlines()) == 1, (args, p.stderr)


def test_a_library_file_without_write_permission_opens_read_only(tmp_path, monkeypatch):
    db = tmp_path / "lib.db"
    with Library(str(db)) as lib:
        lib.add([str(p) for p in write_papers(tmp_path / "papers", 2)])
    monkeypatch.setattr(sqlite_store, "_writable", lambda path: False)
    with Library(str(db), create=False) as lib:
        assert lib.store.read_only
        assert lib.search("topic1", mode="lexical").results
        with pytest.raises(ReadOnlyLibrary, match="read-only"):
            lib.remove("p000")


# -- 10. Smaller ones -----------------------------------------------------------------------------------------

def _zero_page_pdf() -> bytes:
    objs = ["<</Type/Catalog/Pages 2 0 R>>", "<</Type/Pages/Kids[]/Count 0>>"]
    out, offsets = b"%PDF-1.4\n", []
    for i, o in enumerate(objs, 1):
        offsets.append(len(out))
        out += f"{i} 0 obj\n{o}\nendobj\n".encode()
    xref = len(out)
    out += f"xref\n0 {len(objs) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{o:010d} 00000 n \n".encode() for o in offsets)
    return out + f"trailer\n<</Size {len(objs) + 1}/Root 1 0 R>>\nstartxref\n{xref}\n%%EOF\n".encode()


def test_zero_page_pdf_and_empty_bibtex_get_real_reasons(tmp_path):
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "zero.pdf").write_bytes(_zero_page_pdf())
    (folder / "refs.bib").write_text("this is not bibtex { at all\n", encoding="utf-8")
    report = json.loads(cli(tmp_path / "lib.db", "add", str(folder), "--json", ok=(1,)).stdout)
    reasons = {os.path.basename(f["path"]): f.get("reason") for f in report["files"]}
    assert reasons["zero.pdf"] == "PDF has no pages"
    assert "no BibTeX entry" in reasons["refs.bib"]


def test_a_no_op_rerun_makes_no_provider_call(papers, server):
    cli(papers, "embed", *openai_args(server.url))
    before = len(server.requests)
    p = cli(papers, "embed")
    assert "nothing to embed" in p.stdout
    assert len(server.requests) == before
    server.stop()  # and with the provider gone, a complete library still has nothing to do
    cli(papers, "embed")


def test_subprocess_env_points_at_this_worktree(tmp_path):
    out = subprocess.run([os.sys.executable, "-c", "import papershelf; print(papershelf.__file__)"],
                         env=cli_env(tmp_path / "x.db"), capture_output=True, text=True).stdout
    assert out.startswith(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
