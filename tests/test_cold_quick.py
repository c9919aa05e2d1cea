"""The quick search path (frontends/quick.py): the same answer, output and exit code as the Typer app,
for every command line it takes; everything else left to the app."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from papershelf.frontends import quick
from papershelf.operations.requests import SearchParams

from .conftest import ROOT, embedded_examples

APP = "import sys; from papershelf.frontends.cli import app; sys.argv[0] = 'papershelf'; app(prog_name='papershelf')"


@pytest.fixture(scope="module")
def library(tmp_path_factory) -> str:
    return embedded_examples(tmp_path_factory, "quick")


@pytest.mark.parametrize("argv", [
    ["search", "x"], ["-L", "l.db", "search", "x"], ["--library=l.db", "search", "x", "-n", "3"],
    ["search", "--mode", "lexical", "x", "--json"], ["search", "x", "-m", "vector", "--limit=1000"],
    ["search", "x", "--kind", "table", "--explain", "--no-server"], ["--library", "a", "search", "search"],
    ["search", "x", "--year-from", "2020", "--year-to=2024", "--author", "K. Lo", "--per-paper", "1"],
    ["search", "x", "--paper", "a", "--paper=b", "--tag", "t", "--collection", "A/B"]])
def test_the_search_lines_it_answers(argv):
    assert quick.parse(argv) is not None


@pytest.mark.parametrize("argv", [
    [], ["status"], ["search"], ["search", "--help"], ["search", "x", "y"], ["search", "x", "--mode", "fuzzy"],
    ["search", "x", "-n", "0"], ["search", "x", "-n", "1001"], ["search", "x", "-n", "-1"], ["search", "x", "-n3"],
    ["search", "x", "-n", "٣"], ["search", "x", "-n"], ["search", "x", "--json=1"], ["search", "x", "--json", "--json"],
    ["search", "x", "--year-from", "-5"], ["search", "x", "--year-from", "10000"], ["search", "x", "--author", ""],
    ["search", "x", "--per-paper", "0"], ["search", "x", "--paper", "-p"], ["search", "x", "--source", "body_unit"],
    ["search", "x", "--author", "a", "--author", "b"], ["search", "--", "-x"], ["search", "x", "--rerank-url", "http://r"],
    ["--version", "search", "x"], ["-L", "a", "-L", "b", "search", "x"], ["search", ""], ["search", "x" * 2001],
    ["search", "x", "--kind", "Figure"], ["search", "--like", "p1"]])
def test_the_lines_it_leaves_to_the_app(argv):
    assert quick.parse(argv) is None


@pytest.mark.parametrize("given", [{}, {"mode": "lexical", "limit": 3}, {"kind": "table", "explain": True},
                                   {"kind": "figure", "mode": "vector", "limit": 1000},
                                   {"year_from": 2020, "year_to": 2024, "author": "Lo", "per_paper": 5},
                                   {"paper": ["a", "b"], "tag": ["t"], "collection": ["A/B", "C"]}])
def test_its_options_are_the_request_models(given):
    args = quick.DEFAULTS | {"query": "x"} | given
    model = SearchParams(**{k: v for k, v in args.items() if k not in ("as_json", "no_server")})
    assert quick.options(args) == model.options()


def _untimed(text: str) -> str:
    """Output without the search's timings (the one thing two runs never share)."""
    if not text.startswith("{"):
        return text
    return json.dumps({k: v for k, v in json.loads(text).items() if k != "timings_ms"})


def run(code: list[str], args: list[str], **env: str) -> subprocess.CompletedProcess:
    environ = dict(os.environ, PYTHONPATH=str(ROOT), HF_HUB_OFFLINE="1", **env)
    return subprocess.run([sys.executable, *code, *args], capture_output=True, text=True, env=environ,
                          cwd=str(ROOT), timeout=120, check=False)


@pytest.mark.parametrize("extra", [["--mode", "lexical", "-n", "3"], ["-n", "2", "--explain"],
                                   ["--kind", "table", "--json"], ["--mode", "vector", "--json", "-n", "1"],
                                   ["--year-from", "2023", "--per-paper", "1", "--json"],
                                   ["--paper", "okafor2024il6", "--author", "Okafor", "-n", "2"]])
def test_it_prints_what_the_app_prints(library, extra):
    argv = ["--library", library, "search", "IL-6 western blot", *extra, "--no-server"]
    assert quick.parse(argv) is not None
    fast, app = run(["-m", "papershelf"], argv), run(["-c", APP], argv)
    assert (fast.returncode, _untimed(fast.stdout), fast.stderr) == (app.returncode, _untimed(app.stdout), app.stderr)
    assert fast.returncode == 0 and fast.stdout


@pytest.mark.parametrize("argv", [["search", "x"], ["search", "x", "--mode", "fuzzy"], ["search", "x", "-n", "0"],
                                  ["search", "x", "--paper", "nosuchpaper"]])
def test_errors_are_the_apps(tmp_path, argv):
    """No library, a bad mode, a bad count: one line and exit code, worded by the app."""
    full = ["--library", str(tmp_path / "missing.db"), *argv]
    fast, app = run(["-m", "papershelf"], full), run(["-c", APP], full)
    assert (fast.returncode, fast.stdout, fast.stderr) == (app.returncode, app.stdout, app.stderr)
    assert fast.returncode != 0 and fast.stderr


def test_a_configured_reranker_goes_to_the_app(library):
    """PAPERSHELF_RERANK_URL is the app's option: the search then fails as the app says (nothing listens)."""
    argv = ["--library", library, "search", "IL-6", "--no-server"]
    env = {"PAPERSHELF_RERANK_URL": "http://127.0.0.1:9/rerank"}
    fast, app = run(["-m", "papershelf"], argv, **env), run(["-c", APP], argv, **env)
    assert (fast.returncode, fast.stderr) == (app.returncode, app.stderr)


def test_a_live_server_is_asked_by_the_app(tmp_path):
    """A discovery file naming a live process sends the search to the app (which asks the server)."""
    path = str(tmp_path / "l.db")
    assert not quick._server_may_run(path)
    with open(path + ".server.json", "w") as f:
        json.dump({"url": "http://127.0.0.1:9", "pid": os.getpid(), "library": path}, f)
    assert quick._server_may_run(path)


def test_a_paper_it_cannot_find_is_the_apps_error(library):
    argv = ["--library", library, "search", "IL-6", "--paper", "nosuchpaper", "--no-server"]
    fast, app = run(["-m", "papershelf"], argv), run(["-c", APP], argv)
    assert (fast.returncode, fast.stdout, fast.stderr) == (app.returncode, app.stdout, app.stderr)
    assert fast.returncode != 0 and "nosuchpaper" in fast.stderr
