"""Standing suite: the failures issue #27 found ending in a traceback, or doing the wrong thing,
each through the real command: one line and a non-zero exit, or the right behaviour."""

from __future__ import annotations

import json
import random
import signal
import socket
import sqlite3
import subprocess
import time
from pathlib import Path

import httpx
import pytest

from tests.servers import make_library, running_server

from .common import cli, library_snapshot, start, write_papers


@pytest.fixture(scope="module")
def library(tmp_path_factory):
    return make_library(tmp_path_factory.mktemp("one-line"))


def _one_line(p: subprocess.CompletedProcess, words: str) -> None:
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and words in lines[0], p.stderr[-2000:]


def test_serve_on_a_busy_port_or_an_unknown_host(library):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = str(busy.getsockname()[1])
        _one_line(cli(library, "serve", "--port", port, ok=(1,)), f"cannot listen on 127.0.0.1:{port}")
    _one_line(cli(library, "serve", "--host", "no-such-host.invalid", "--token", "t", ok=(1,)),
              "cannot listen on no-such-host.invalid")


def test_a_library_path_that_is_a_folder(tmp_path):
    for args in (["status"], ["verify"], ["search", "x"], ["papers"], ["add", str(tmp_path)], ["serve"], ["mcp"]):
        _one_line(cli(tmp_path, *args, ok=(1,)), "is a folder, not a library file")


def _damage(db: Path, at: float) -> None:
    data = bytearray(db.read_bytes())
    start_ = int(len(data) * at) // 4096 * 4096
    data[start_:start_ + 8192] = random.Random(start_).randbytes(8192)
    db.write_bytes(bytes(data))


@pytest.mark.parametrize("at", [0.3, 0.6, 0.8, 0.95])
def test_a_damaged_library_is_reported_by_verify_and_one_line_elsewhere(tmp_path, at):
    db = tmp_path / "lib.db"
    write_papers(tmp_path / "papers", 30)
    cli(db, "index", str(tmp_path / "papers"), "--provider", "hash")
    cli(db, "verify")
    _damage(db, at)
    v = cli(db, "verify", "--json", ok=(1,))  # reported, never "ok"
    report = json.loads(v.stdout) if v.stdout.strip() else None
    assert report is None or not report["ok"]
    for args in (["status"], ["search", "topic3"], ["search", "topic3", "--mode", "vector"], ["papers"]):
        cli(db, *args, ok=(0, 1))  # no traceback (cli asserts it); a part not damaged still answers


@pytest.mark.parametrize("pid", [-1, 0, 2**70, "abc", None, 1.5])
def test_a_discovery_file_with_an_odd_pid(library, pid):
    Path(str(library) + ".server.json").write_text(json.dumps({"url": "http://127.0.0.1:9", "pid": pid,
                                                               "library": str(library)}))
    try:
        assert json.loads(cli(library, "search", "wound", "--json").stdout)["results"]
    finally:
        Path(str(library) + ".server.json").unlink(missing_ok=True)


def test_serve_on_another_loopback_address_answers_its_own_host(library):
    with running_server(library, "--host", "127.0.0.2") as (url, _):
        assert url.startswith("http://127.0.0.2:")
        assert httpx.get(f"{url}/api/status").status_code == 200
        assert httpx.get(f"{url}/api/status", headers={"Host": "evil.example"}).status_code == 403


def test_a_second_serve_on_the_same_library_is_refused(library):
    with running_server(library) as (url, info):
        second = cli(library, "serve", "--port", "0", ok=(1,))
        _one_line(second, f"pid {info['pid']}")
        assert json.loads(Path(str(library) + ".server.json").read_text())["pid"] == info["pid"]
        assert httpx.get(f"{url}/api/health").status_code == 200
    assert not Path(str(library) + ".server.json").exists()


def _papers_in(db: Path) -> int:
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as c:
            return c.execute("SELECT count(*) FROM papers").fetchone()[0]
    except sqlite3.Error:
        return 0


def test_an_interrupted_migrate_is_marked_partial_and_a_rerun_starts_over(tmp_path):
    src, dst = tmp_path / "src.db", tmp_path / "dst.db"
    write_papers(tmp_path / "papers", 150)
    cli(src, "index", str(tmp_path / "papers"), "--provider", "hash")
    proc = start(src, "migrate", str(src), str(dst))
    deadline = time.monotonic() + 60
    while _papers_in(dst) < 5 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    assert proc.poll() is None, "migrate finished before it could be interrupted"
    proc.send_signal(signal.SIGKILL)
    proc.wait(10)
    verify = json.loads(cli(dst, "verify", "--json", ok=(1,)).stdout)
    assert "did not finish" in verify["index"]["problems"][0]
    cli(src, "migrate", str(src), str(dst))  # the rerun starts over
    assert cli(dst, "verify").returncode == 0
    assert library_snapshot(dst) == library_snapshot(src)
    other = tmp_path / "other.db"
    cli(other, "add", str(tmp_path / "papers" / "p000.md"))
    _one_line(cli(src, "migrate", str(src), str(other), ok=(2,)), "already holds papers")
