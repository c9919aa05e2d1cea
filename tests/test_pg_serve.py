"""`papershelf serve` on a PostgreSQL library: the discovery file (a URL has no folder to sit
beside) lives in the user data folder, the CLI finds the server through it, the web page and the
API answer, and the CLI's output through the server is what it prints in-process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from papershelf import Library
from papershelf.frontends.client import discovery_path, library_name

from . import pg
from .conftest import BACKENDS, EXAMPLES, HASH
from .servers import cli_env

pytestmark = pytest.mark.skipif("postgres" not in BACKENDS, reason="PostgreSQL backend not available (no pgserver)")


def test_serve_and_search_through_the_server_on_a_postgresql_library(tmp_path, monkeypatch):
    pytest.importorskip("fastapi")
    location = pg.fresh_database()
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))  # the discovery file's folder (user data)
    env = cli_env(XDG_DATA_HOME=str(tmp_path / "data"))
    try:
        with Library(location) as lib:
            lib.add([str(EXAMPLES)])
            lib.embed(HASH)
        discovery = discovery_path(location)
        assert discovery.startswith(str(tmp_path / "data"))
        proc = subprocess.Popen([sys.executable, "-m", "papershelf", "-L", location, "serve", "--port", "0",
                                 "--stop-after", "120"], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        try:
            deadline = time.monotonic() + 60
            while not os.path.exists(discovery):
                assert proc.poll() is None and time.monotonic() < deadline, proc.stdout.read() if proc.stdout else ""
                time.sleep(0.05)
            info = json.loads(Path(discovery).read_text())
            assert info["library"] == library_name(location)  # as the server names it: no password
            page = httpx.get(info["url"] + "/", timeout=10)
            assert page.status_code == 200 and "<html" in page.text.lower()
            api = httpx.get(info["url"] + "/api/search", params={"query": "western blot", "mode": "lexical"},
                            timeout=30).json()
            assert api["results"]

            def cli(*extra: str) -> subprocess.CompletedProcess:
                return subprocess.run([sys.executable, "-m", "papershelf", "-L", location, "search", "western blot",
                                       "--mode", "lexical", "--json", *extra], env=env, capture_output=True,
                                      text=True, timeout=60, check=True)

            served, local = json.loads(cli().stdout), json.loads(cli("--no-server").stdout)
            assert {**served, "timings_ms": None} == {**local, "timings_ms": None}
            assert [h["unit_id"] for h in served["results"]] == [h["unit_id"] for h in api["results"]][:len(
                served["results"])]
        finally:
            proc.terminate()
            proc.wait(15)
        assert not os.path.exists(discovery)  # removed on exit
    finally:
        pg.drop_database(location)


def _with_password(location: str, password: str) -> str:
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(location)
    host = parts.netloc.rsplit("@", 1)[-1]
    return urlunsplit(parts._replace(netloc=f"{parts.username or 'postgres'}:{password}@{host}"))


def test_a_password_in_the_library_url_is_never_shown(tmp_path):
    """The server's status, the discovery file and the CLI's status name the library without the
    password its URL carries (the test server trusts local connections, so any password opens it)."""
    pytest.importorskip("fastapi")
    location = _with_password(pg.fresh_database(), "s3cret-pw")
    env = cli_env(XDG_DATA_HOME=str(tmp_path / "data"))
    try:
        status = subprocess.run([sys.executable, "-m", "papershelf", "-L", location, "status", "--json"], env=env,
                                capture_output=True, text=True, timeout=60)
        assert status.returncode == 0 and json.loads(status.stdout)["library"], status.stderr
        proc = subprocess.Popen([sys.executable, "-m", "papershelf", "-L", location, "serve", "--port", "0",
                                 "--stop-after", "60"], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        try:
            discovery = Path(str(tmp_path / "data"))
            deadline = time.monotonic() + 60
            while not list(discovery.rglob("*.server.json")):
                assert proc.poll() is None and time.monotonic() < deadline
                time.sleep(0.05)
            found = next(discovery.rglob("*.server.json")).read_text()
            url = json.loads(found)["url"]
            shown = [found, status.stdout, status.stderr] + [httpx.get(url + p, timeout=10).text
                                                             for p in ("/api/status", "/api/health")]
        finally:
            proc.terminate()
            proc.wait(15)
        assert not [s for s in shown if "s3cret-pw" in s]
    finally:
        pg.drop_database(location)
