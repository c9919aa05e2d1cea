"""PDFs parsed by worker processes (PAPERSHELF_PARSE_WORKERS, ingest/parse_pool.py): a worker that
dies or runs over its time fails its file in one line and is replaced, never a hang; papers are
written as their parses finish, with the same ids and units as without workers (a slow first file
holds up no other paper); Ctrl-C stops `add` cleanly.

The whole reliability suite also runs with the workers on: ``PAPERSHELF_PARSE_WORKERS=2 python -m
pytest tests/reliability`` (docs/measurements/pool3.md).
"""

from __future__ import annotations

import json
import os
import signal
import time

import pytest

from papershelf import Library
from papershelf.errors import IngestError, LibraryFileError
from papershelf.ingest import load_source
from papershelf.ingest.parse_pool import ParsePool

from .common import cli, lined_pdf, slack, start, write_papers


def _pdf(title: str, pages: int = 1) -> bytes:
    return lined_pdf(title, pages)


def _write(folder, n: int, pages: int = 1) -> list[str]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for i in range(n):
        p = folder / f"paper{i:02d}.pdf"
        p.write_bytes(_pdf(f"Word{i} signals in paper number {i}", pages))
        paths.append(str(p))
    return paths


def _wait_busy(pool: ParsePool, ticket: int, timeout: float = 60) -> int:
    """The pid of the worker parsing `ticket`, once one has it."""
    end = time.monotonic() + timeout * slack()
    while time.monotonic() < end:
        pool._step()
        for w in pool._pool:
            if w.ticket == ticket:
                return w.process.pid
    raise AssertionError("no worker took the file")


def test_a_killed_worker_fails_its_file_in_one_line_and_is_replaced(tmp_path):
    big, small = _write(tmp_path / "big", 1, pages=60)[0], _write(tmp_path / "small", 1)[0]
    with ParsePool(1) as pool:
        ticket = pool.submit(load_source(big))
        os.kill(_wait_busy(pool, ticket), signal.SIGKILL)
        with pytest.raises(IngestError, match="crashed on this file .killed by SIGKILL") as e:
            pool.result(ticket)
        assert "\n" not in str(e.value)
        assert "Word0" in pool.result(pool.submit(load_source(small))).title  # a new worker took over


def test_a_worker_over_its_time_is_stopped_and_the_next_file_parses(tmp_path):
    big, small = _write(tmp_path / "big", 1, pages=60)[0], _write(tmp_path / "small", 1)[0]
    with ParsePool(1, timeout=0.05) as pool:
        t0 = time.monotonic()
        with pytest.raises(IngestError, match="took longer than 0 s"):
            pool.result(pool.submit(load_source(big)))
        assert time.monotonic() - t0 < 30 * slack()
        pool.timeout = 120
        assert "Word0" in pool.result(pool.submit(load_source(small))).title


def test_results_in_any_order_and_an_idle_worker_only(tmp_path):
    paths = _write(tmp_path / "in", 5)
    with ParsePool(2) as pool:
        tickets = [pool.submit(load_source(p)) for p in paths]
        assert sum(w.ticket is not None for w in pool._pool) <= 2  # never more files out than workers
        titles = [pool.result(t).title for t in reversed(tickets)]
    assert [t.split()[0] for t in titles] == [f"Word{i}" for i in reversed(range(5))]
    assert not pool._pool  # closed: every worker stopped


def test_add_with_workers_writes_the_same_library_in_any_order(tmp_path, monkeypatch):
    """Papers are written as their parses finish: the reports may come in another order, the
    library (ids, units) is the same as without workers."""
    folder = tmp_path / "in"
    _write(folder, 6)
    write_papers(folder, 2)
    (folder / "broken.pdf").write_bytes(b"%PDF-1.7\n" + os.urandom(3000))
    reports = {}
    for workers in ("0", "2"):
        monkeypatch.setenv("PAPERSHELF_PARSE_WORKERS", workers)
        with Library(str(tmp_path / f"lib{workers}.db")) as lib:
            seen: list[str] = []
            report = lib.add([str(folder)], progress=lambda r, seen=seen: seen.append(r.path))
            reports[workers] = (sorted([f.to_dict() for f in report.files], key=lambda d: d["path"]),
                                lib.store.paper_ids(), [(p, lib.store.paper_units(p)) for p in lib.store.paper_ids()])
            assert seen == [f.path for f in report.files] and len(seen) == 9
            assert lib.verify().ok
    assert reports["2"] == reports["0"]
    failed = [f for f in reports["2"][0] if f["status"] == "failed"]
    assert [os.path.basename(f["path"]) for f in failed] == ["broken.pdf"]


def _children(pid: int) -> list[int]:
    """Processes whose parent is `pid` (Linux /proc; elsewhere none are found)."""
    out = []
    for entry in os.listdir("/proc") if os.path.isdir("/proc") else []:
        try:
            with open(f"/proc/{entry}/stat") as f:
                if int(f.read().rsplit(")", 1)[1].split()[1]) == pid:
                    out.append(int(entry))
        except (OSError, ValueError, IndexError):
            continue
    return out


def _gone(pids: list[int], timeout: float) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if not [p for p in pids if os.path.exists(f"/proc/{p}")]:
            return True
        time.sleep(0.1)
    return False


def _papers(db) -> int:
    """Papers written so far; 0 while `add` is still creating the library's file."""
    try:
        with Library(str(db), create=False) as lib:
            return lib.store.count_papers()
    except LibraryFileError:
        return 0


def test_ctrl_c_stops_add_with_workers_and_a_rerun_adds_the_rest(tmp_path):
    folder = tmp_path / "in"
    _write(folder, 16, pages=20)
    db = tmp_path / "lib.db"
    proc = start(db, "add", str(folder), PAPERSHELF_PARSE_WORKERS="2")
    deadline = time.monotonic() + 120 * slack()
    while time.monotonic() < deadline and proc.poll() is None:  # wait until some paper is written
        if db.exists() and _papers(db) >= 2:
            break
        time.sleep(0.2)
    workers = _children(proc.pid)
    assert workers or not os.path.isdir("/proc")  # the parse workers (and multiprocessing's helper)
    proc.send_signal(signal.SIGINT)
    proc.wait(timeout=30 * slack())
    assert _gone(workers, 10 * slack()), workers  # no worker outlives the command
    _, stderr = proc.communicate()
    assert "Traceback" not in stderr, stderr[-2000:]
    assert proc.returncode not in (0, None), proc.returncode  # interrupted, not finished
    with Library(str(db), create=False) as lib:
        assert lib.verify().ok
        before = lib.store.count_papers()
    assert 2 <= before < 16
    report = json.loads(cli(db, "add", str(folder), "--json", PAPERSHELF_PARSE_WORKERS="2").stdout)
    statuses = [f["status"] for f in report["files"]]
    assert statuses.count("unchanged") == before and statuses.count("added") == 16 - before, statuses


def test_workers_end_with_a_parent_killed_outright(tmp_path):
    """kill -9 of `add` runs no cleanup: each worker notices its parent is gone and exits, mid-file too."""
    folder = tmp_path / "in"
    _write(folder, 6, pages=150)  # a file takes a worker many seconds: it is mid-file when killed
    proc = start(tmp_path / "lib.db", "add", str(folder), PAPERSHELF_PARSE_WORKERS="2")
    deadline = time.monotonic() + 60 * slack()
    workers: list[int] = []
    while time.monotonic() < deadline and proc.poll() is None and len(workers) < 3:
        workers = _children(proc.pid)  # two workers and multiprocessing's resource tracker
        time.sleep(0.2)
    assert proc.poll() is None and (workers or not os.path.isdir("/proc"))
    time.sleep(1.0)  # let them take files
    proc.kill()
    proc.wait(timeout=30)
    assert _gone(workers, 5.0 * slack()), workers  # within a second or so when idle, not when the file is done


def test_workers_are_on_by_default_for_a_folder_of_pdfs_on_two_cores(tmp_path, monkeypatch):
    """Unset PAPERSHELF_PARSE_WORKERS: AUTO_MIN_PDFS PDFs on two cores parse in workers (the library
    the same as parsed in this process); fewer PDFs, or one core, or `0`, parse in this process."""
    from papershelf import parsing
    from papershelf.ingest import parse_pool

    folder = tmp_path / "in"
    _write(folder, parse_pool.AUTO_MIN_PDFS)
    small = tmp_path / "small"
    _write(small, parse_pool.AUTO_MIN_PDFS - 1)
    used: list[int] = []
    real_enter = parsing.Parser.__enter__

    def spy(self):
        used.append(self.workers)
        return real_enter(self)

    monkeypatch.setattr(parsing.Parser, "__enter__", spy)
    monkeypatch.delenv("PAPERSHELF_PARSE_WORKERS", raising=False)
    monkeypatch.setattr(parse_pool, "cores", lambda: 2)
    libraries = {}
    for name, path, env in (("on", folder, None), ("small", small, None), ("off", folder, "0")):
        if env is not None:
            monkeypatch.setenv("PAPERSHELF_PARSE_WORKERS", env)
        with Library(str(tmp_path / f"{name}.db")) as lib:
            report = lib.add([str(path)])
            assert not report.failed
            libraries[name] = [(p, lib.store.paper_units(p)) for p in lib.store.paper_ids()]
    assert used == [2, 0, 0]
    assert libraries["on"] == libraries["off"] and len(libraries["on"]) == parse_pool.AUTO_MIN_PDFS
    monkeypatch.delenv("PAPERSHELF_PARSE_WORKERS")
    monkeypatch.setattr(parse_pool, "cores", lambda: 1)
    assert parse_pool.configured_workers(1000) == 0
    monkeypatch.setenv("PAPERSHELF_PARSE_WORKERS", "auto")
    assert parse_pool.configured_workers(0) == 1


def test_a_slow_first_file_holds_up_no_other_paper(tmp_path, monkeypatch):
    """Papers are written as their parses finish: while one worker spends long on the first file (a
    long PDF here, a scan's OCR in a real folder), the other parses and the writer writes the ten
    small ones after it, each searchable (another connection finds it) before the slow one is
    written.  In input order (before scale8) the slow file was written first and the others
    waited for it."""
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "a-slow.pdf").write_bytes(_pdf("Slow signals in a long paper", pages=300))
    for i in range(10):
        (folder / f"b{i:02d}.pdf").write_bytes(_pdf(f"Word{i} signals in paper number {i}"))
    monkeypatch.setenv("PAPERSHELF_PARSE_WORKERS", "2")
    db = str(tmp_path / "lib.db")
    found_before_slow: list[int] = []

    def progress(result) -> None:
        if os.path.basename(result.path) == "a-slow.pdf":
            with Library(db) as other:
                found_before_slow.extend(i for i in range(10) if other.search(f"Word{i}", mode="lexical").results)

    with Library(db) as lib:
        report = lib.add([str(folder)], progress=progress)
        assert not report.failed and len(lib.store.paper_ids()) == 11
    names = [os.path.basename(f.path) for f in report.files]
    assert names[-1] == "a-slow.pdf", names
    assert found_before_slow == list(range(10)), found_before_slow


def test_ctrl_c_while_a_slow_first_file_parses_loses_nothing_written(tmp_path):
    """Written out of input order, the papers after a slow first file are in the library when Ctrl-C
    comes; the rerun keeps them (unchanged) and parses exactly the slow one."""
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "a-slow.pdf").write_bytes(_pdf("Slow signals in a long paper", pages=300))
    for i in range(6):
        (folder / f"b{i:02d}.pdf").write_bytes(_pdf(f"Word{i} signals in paper number {i}"))
    db = tmp_path / "lib.db"
    proc = start(db, "add", str(folder), PAPERSHELF_PARSE_WORKERS="2")
    deadline = time.monotonic() + 120 * slack()
    while time.monotonic() < deadline and proc.poll() is None and not (db.exists() and _papers(db) >= 6):
        time.sleep(0.2)
    proc.send_signal(signal.SIGINT)
    proc.wait(timeout=30 * slack())
    with Library(str(db), create=False) as lib:
        assert lib.verify().ok
        assert lib.store.count_papers() == 6
    report = json.loads(cli(db, "add", str(folder), "--json", PAPERSHELF_PARSE_WORKERS="2").stdout)
    status = {os.path.basename(f["path"]): f["status"] for f in report["files"]}
    assert status == {"a-slow.pdf": "added", **{f"b{i:02d}.pdf": "unchanged" for i in range(6)}}, status
