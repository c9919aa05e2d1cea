"""`related`, `reading-list` and `ask` through every door: the CLI, a real `serve` on 127.0.0.1 and MCP give the
same answers; the chat endpoint is the server's configuration and a request that names one is refused."""

from __future__ import annotations

import json
import subprocess
import sys

import bibtexparser
import httpx
import pytest

from papershelf import Library
from papershelf.frontends import mcp

from .citation_fixtures import write_papers
from .servers import cli_env, make_library, running_server
from .test_ask import Chat


def embedded_citation_library(folder):
    """A library file (make_library's papers and the citation papers, embedded with the hash provider) and
    the survey's id: what the doors' tests ask about."""
    db = make_library(folder)
    write_papers(folder / "cites")
    with Library(str(db)) as lib:
        assert not lib.add([str(folder / "cites")]).failed
        from .conftest import HASH

        lib.embed(HASH)
        survey = next(s.paper.id for s in lib.papers() if "survey" in (s.paper.title or "").lower())
    return db, survey


@pytest.fixture(scope="module")
def library(tmp_path_factory):
    return embedded_citation_library(tmp_path_factory.mktemp("discover"))


def cli(db, *args: str) -> dict:
    r = subprocess.run([sys.executable, "-m", "papershelf", "-L", str(db), *args, "--json"], env=cli_env(),
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def test_the_same_answers_through_cli_http_and_mcp(library):
    db, survey = library
    by_cli = {"related": cli(db, "related", survey, "--no-server"), "reading": cli(db, "reading-list", "--no-server"),
              "ask": cli(db, "ask", "How long did coral recovery take?", "--no-server")}
    with running_server(db) as (url, _):
        by_http = {"related": httpx.get(f"{url}/api/related/{survey}").json(),
                   "reading": httpx.get(f"{url}/api/reading-list").json(),
                   "ask": httpx.get(f"{url}/api/ask", params={"question": "How long did coral recovery take?"}).json()}
        bib = httpx.get(f"{url}/api/reading-list", params={"format": "bibtex"}).json()["bibtex"]
        assert httpx.get(f"{url}/api/ask", params={"question": "x", "llm_url": "http://evil"}).status_code == 422
    with Library(str(db), create=False) as lib:
        by_mcp = {"related": mcp.call(lib, "related", {"ref": survey}).structured_content,
                  "reading": mcp.call(lib, "reading_list", {}).structured_content,
                  "ask": mcp.call(lib, "ask", {"question": "How long did coral recovery take?"}).structured_content}
        assert "llm_url" in mcp.call(lib, "ask", {"question": "x", "llm_url": "http://evil"}).content[0].text
    for name in by_cli:
        assert by_cli[name] == by_http[name] == by_mcp[name], name
    assert by_cli["related"]["results"] and by_cli["ask"]["evidence"]
    entries = bibtexparser.parse_string(bib).entries
    assert len(entries) == len(by_cli["reading"]["items"]) > 0


def test_serve_answers_ask_with_its_configured_chat_model(library):
    db, _ = library
    chat = Chat("Recovery took four to six years [e1].")
    try:
        with running_server(db, "--llm-url", chat.url, "--llm-model", "tiny") as (url, _):
            d = httpx.get(f"{url}/api/ask", params={"question": "How long did coral recovery take?"},
                          timeout=60).json()
    finally:
        chat.close()
    assert d["answer"]["model"] == "tiny" and d["answer"]["sentences"][0]["supported"] is True
    assert chat.requests and chat.requests[0]["body"]["model"] == "tiny"


def test_cli_ask_prints_evidence_cards_and_one_line_errors(library):
    db, _ = library
    r = subprocess.run([sys.executable, "-m", "papershelf", "-L", str(db), "ask", "How long did coral recovery take?",
                        "--no-server"], env=cli_env(), capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and "[e1]" in r.stdout and "p." in r.stdout or "[e1]" in r.stdout, r.stdout
    bad = subprocess.run([sys.executable, "-m", "papershelf", "-L", str(db), "ask", "coral", "-n", "9"],
                         env=cli_env(), capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1 and "Traceback" not in bad.stderr
