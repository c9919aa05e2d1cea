"""Standing suite: the PostgreSQL backend losing its connection (every backend of the library's
database terminated by the server, as in a restart) under `embed`, `serve` and `mcp`, and one
of two builders killed mid-build (issue #27).  Real server, real commands."""

from __future__ import annotations

import json
import signal
import time
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import pytest

from tests import pg
from tests.conftest import BACKENDS
from tests.test_mcp import session_run

from .common import cli, read_event, start, write_papers

pytestmark = pytest.mark.skipif("postgres" not in BACKENDS, reason="PostgreSQL backend not available")


@pytest.fixture
def pglib(tmp_path):
    location = pg.fresh_database()
    write_papers(tmp_path / "papers", 12)
    cli(location, "add", str(tmp_path / "papers"))
    yield location
    pg.drop_database(location)


def drop_connections(location: str) -> int:
    """What a server restart does to every client of this database: their connections end."""
    import psycopg

    name = urlsplit(location).path.lstrip("/")
    with psycopg.connect(pg.admin_url(), autocommit=True) as admin:
        rows = admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s "
                             "AND pid <> pg_backend_pid()", (name,)).fetchall()
    return len(rows)


def _served_url(location: str, proc) -> str:
    """The URL a `serve` on a PostgreSQL library advertises (its discovery file is per user)."""
    from papershelf.frontends.client import discovery_path

    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            info = json.loads(Path(discovery_path(location)).read_text())
            if info["pid"] == proc.pid:
                return info["url"]
        except (OSError, ValueError):
            pass
        time.sleep(0.05)
    raise AssertionError(f"serve did not start: {proc.stderr.read() if proc.poll() is not None else ''}")


def _embed(location: str, delay: str = "0.15", *extra: str):
    return start(location, "embed", "--provider", "hash", "--dimension", "32", "--batch-size", "1", "--json",
                 *extra, PAPERSHELF_HASH_DELAY=delay)


def test_connection_lost_mid_embed_is_one_line_and_resumable(pglib):
    proc = _embed(pglib)
    read_event(proc, "paper")
    # A connection dropped while idle is re-opened by the next read, so one drop may go unnoticed;
    # a server that keeps dropping them (a restart loop) must end the build in one line.
    dropped, deadline = 0, time.monotonic() + 60
    while proc.poll() is None and time.monotonic() < deadline:
        dropped += drop_connections(pglib)
        time.sleep(0.05)
    assert dropped >= 1
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 1, (out[-500:], err[-2000:])
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    assert "lost the connection" in err and "run the command again" in err
    cli(pglib, "verify", ok=(0, 1))  # papers not yet embedded are pending, none half written
    verify = json.loads(cli(pglib, "verify", "--json", ok=(0, 1)).stdout)
    assert not any(s[k] for s in verify["spaces"] for k in s if k.endswith("_vectors")), verify
    rerun = cli(pglib, "embed", "--provider", "hash", "--dimension", "32", "--json")
    assert json.loads(rerun.stdout.strip().splitlines()[-1])["pending_after"] == 0
    assert cli(pglib, "verify").returncode == 0


def test_serve_and_mcp_recover_from_a_lost_connection(pglib):
    cli(pglib, "embed", "--provider", "hash", "--dimension", "32")
    proc = start(pglib, "serve", "--port", "0", "--stop-after", "120")
    try:
        url = _served_url(pglib, proc)
        for _ in range(3):
            assert httpx.get(f"{url}/api/search", params={"query": "topic3", "mode": "lexical"}).status_code == 200
            assert drop_connections(pglib) >= 1
        r = httpx.get(f"{url}/api/search", params={"query": "topic3", "mode": "lexical"})
        assert r.status_code == 200 and r.json()["results"][0]["paper_id"] == "p003"
        assert httpx.get(f"{url}/api/status").status_code == 200
        found = cli(pglib, "search", "topic3", "--mode", "lexical", "--json")  # through the server it found
        assert json.loads(found.stdout)["results"][0]["paper_id"] == "p003"
    finally:
        proc.terminate()
        proc.wait(15)

    async def script(s):
        first = await s.call_tool("search", {"query": "topic5", "mode": "lexical"})
        drop_connections(pglib)
        return first, await s.call_tool("search", {"query": "topic5", "mode": "lexical"})

    first, second = session_run(pglib, script)
    assert not first.is_error and not second.is_error, second.content[0].text
    assert second.structured_content["results"][0]["paper_id"] == "p005"


def test_the_survivor_of_two_builders_takes_over_the_dead_ones_papers(pglib):
    a, b = _embed(pglib, "0.3"), _embed(pglib, "0.3")
    for _ in range(2):
        read_event(b, "paper")  # b has come past papers a held
    a.send_signal(signal.SIGKILL)
    a.wait(10)
    t0 = time.monotonic()
    out, err = b.communicate(timeout=120)
    assert b.returncode == 0, err[-2000:]
    summary = json.loads(out.strip().splitlines()[-1])
    assert summary["pending_after"] == 0 and summary["complete"], summary
    assert time.monotonic() - t0 < 60
    assert cli(pglib, "verify").returncode == 0
