"""`papershelf search` with a server running: it asks the server and prints exactly what it
would print searching in-process; a stale discovery file is never trusted."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from papershelf.frontends import cli, cli_app

from .servers import cli_env, make_library, running_server

QUERIES = [
    ["western blot STAT3"],
    ["bleaching by depth", "--kind", "table", "--mode", "lexical"],
    ["macrophages", "--explain", "-n", "4", "--per-paper", "1"],
    ["fusion", "--year-from", "2020", "--source", "body_unit", "--fusion", "rrf"],
    ["nothing-matches-zzqx", "--mode", "lexical"],
]


@pytest.fixture(scope="module")
def library(tmp_path_factory):
    return make_library(tmp_path_factory.mktemp("cli"))


def invoke(library, args):
    result = CliRunner().invoke(cli.app, ["-L", str(library), "search", *args])
    assert result.exit_code == 0, (result.output, result.exception)
    return result.stdout


class NoLibrary:
    """Stands in for Library in the CLI process: proves an answer came from the server."""

    def __init__(self, *a, **kw):
        raise AssertionError("searched in-process although a server is running")


@pytest.mark.parametrize("args", QUERIES)
def test_output_through_the_server_is_identical(library, args, monkeypatch):
    local_text = invoke(library, [*args, "--no-server"])
    local_json = json.loads(invoke(library, [*args, "--json", "--no-server"]))
    with running_server(library):
        with monkeypatch.context() as m:
            m.setattr(cli_app, "Library", NoLibrary)
            served_text = invoke(library, args)
            served_json = json.loads(invoke(library, [*args, "--json"]))
        # --no-server really stays in this process (the server is up)
        with monkeypatch.context() as m:
            m.setattr(cli_app, "Library", NoLibrary)
            with pytest.raises(AssertionError, match="in-process"):
                CliRunner().invoke(cli.app, ["-L", str(library), "search", *args, "--no-server"],
                                   catch_exceptions=False)
    assert served_text == local_text and served_text.strip()
    assert {**served_json, "timings_ms": None} == {**local_json, "timings_ms": None}


def test_bad_arguments_exit_2_with_a_server_too(library):
    with running_server(library):
        p = subprocess.run([sys.executable, "-m", "papershelf", "-L", str(library), "search", "x", "--kind", "photo"],
                           env=cli_env(), capture_output=True, text=True, timeout=60, check=False)
    assert p.returncode == 2 and "--kind: Input should be 'figure' or 'table'" in p.stderr


def test_a_stale_discovery_file_is_ignored(library, tmp_path):
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    discovery = str(library) + ".server.json"
    for info in ({"url": "http://127.0.0.1:9", "pid": dead.pid, "library": str(library), "token": None},
                 {"url": "http://127.0.0.1:9", "pid": os.getpid(), "library": str(library), "token": None},
                 "not json"):
        with open(discovery, "w") as f:
            f.write(info if isinstance(info, str) else json.dumps(info))
        p = subprocess.run([sys.executable, "-m", "papershelf", "-L", str(library), "search", "bleaching", "--json"],
                           env=cli_env(), capture_output=True, text=True, timeout=60, check=False)
        assert p.returncode == 0 and json.loads(p.stdout)["results"], p.stderr
    os.remove(discovery)


def test_the_server_removes_its_discovery_file_on_exit(library):
    with running_server(library):
        assert os.path.exists(str(library) + ".server.json")
    assert not os.path.exists(str(library) + ".server.json")
