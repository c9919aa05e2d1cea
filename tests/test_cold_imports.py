"""A search loads only what a search needs: measured with `python -X importtime` in a fresh process.

A cold `papershelf search` is what a user waits for most often, and every module imported on its way
costs it (the PDF reader with pdfium, OCR, YAML, the citation matcher, the pydantic response shapes,
an HTTP client).  These tests fail when such a module creeps back onto the search path; `add`, `show`,
`serve` and the MCP door still load them when they need them.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from .conftest import EXAMPLES, ROOT, embedded_examples

# Never on a search's path: adding papers (ingest, PDF, OCR, front matter), citations and works,
# discovery, the chat endpoint, the response shapes, HTTP clients and servers, torch.
HEAVY = ("papershelf.importer", "papershelf.ingest", "papershelf.ingest.pdf", "papershelf.ingest.pdf.scan.ocr",
         "papershelf.ingest.markdown", "papershelf.citations", "papershelf.related", "papershelf.ask",
         "papershelf.graph", "papershelf.llm", "papershelf.models.shapes", "papershelf.passages",
         "pypdfium2", "yaml", "httpx", "fastapi", "uvicorn", "urllib.request", "http.client", "torch",
         "transformers", "sentence_transformers", "rich.progress")
# A CLI search takes the quick path (frontends/quick.py): not the Typer app, Click, pydantic (the
# operations' request models) nor importlib.metadata (pydantic's plugin lookup, package versions).
CLI_HEAVY = HEAVY + ("typer", "click", "pydantic", "pydantic_core", "papershelf.operations",
                     "papershelf.frontends.cli", "importlib.metadata")
# The library API (not the CLI) needs no Rich either.
API_HEAVY = CLI_HEAVY + ("rich",)


@pytest.fixture(scope="module")
def library(tmp_path_factory) -> str:
    return embedded_examples(tmp_path_factory, "cold")


def imported(args: list[str]) -> set[str]:
    """The modules a fresh `python -X importtime ARGS` imports (its stderr), after it succeeds."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), HF_HUB_OFFLINE="1")
    proc = subprocess.run([sys.executable, "-X", "importtime", *args], capture_output=True, text=True, env=env,
                          cwd=str(ROOT), timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return {line.rsplit("|", 1)[1].strip() for line in proc.stderr.splitlines() if line.startswith("import time:")}


@pytest.mark.parametrize("mode", ["lexical", "hybrid"])
def test_a_cli_search_imports_no_heavy_module(library, mode):
    loaded = imported(["-m", "papershelf", "--library", library, "search", "IL-6 western blot", "--mode", mode,
                       "-n", "3", "--no-server"])
    assert "papershelf.search.engine" in loaded  # the measurement sees the search itself
    assert sorted(loaded & set(CLI_HEAVY)) == []


def test_a_cli_search_the_quick_path_leaves_to_the_app_still_runs(library):
    """A search with a filter is the app's: it answers (and loads what it needs), heavy modules still out."""
    loaded = imported(["-m", "papershelf", "--library", library, "search", "IL-6", "--source", "body_unit",
                       "--no-server"])
    assert {"typer", "papershelf.frontends.cli"} <= loaded
    assert sorted(loaded & set(HEAVY)) == []


def test_an_api_search_imports_neither_pydantic_nor_the_cli(library):
    code = ("import sys, papershelf\n"
            f"with papershelf.Library({library!r}) as lib:\n"
            "    assert lib.search('IL-6 western blot', mode='hybrid').results\n")
    loaded = imported(["-c", code])
    assert "papershelf.search.engine" in loaded
    assert sorted(loaded & set(API_HEAVY)) == []


def test_add_still_loads_the_reader_it_needs(tmp_path):
    """The lazy names still resolve: the CLI's add reaches OCR settings and the ingest pipeline."""
    loaded = imported(["-m", "papershelf", "--library", str(tmp_path / "l.db"), "add", str(EXAMPLES), "--json"])
    assert {"papershelf.importer", "papershelf.ingest.pdf.scan.ocr"} <= loaded
