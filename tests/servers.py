"""A real `papershelf serve` for tests: a subprocess on 127.0.0.1, any free port, bounded in time.

The server stops by itself after `stop_after` seconds even if a test dies; the
fixture terminates it earlier.  Its URL comes from the discovery file it writes
beside the library, the same file the CLI reads.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

from papershelf import Library

from .conftest import EXAMPLES, HASH
from .pdf_fixtures import two_column_paper

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = Path(os.environ.get("PAPERSHELF_TEST_ARTIFACTS", ROOT / "test-artifacts"))


def make_library(folder: Path) -> Path:
    """Examples (Markdown, text) plus a two-column PDF with figures and tables, embedded with the hash provider."""
    papers = folder / "papers"
    papers.mkdir(parents=True, exist_ok=True)
    two_column_paper(str(papers / "okafor-wounds.pdf"))
    db = folder / "library.db"
    with Library(str(db)) as lib:
        report = lib.add([str(EXAMPLES), str(papers)])
        assert not report.failed, report.to_dict()
        lib.embed(HASH)
    return db


def cli_env(**extra: str) -> dict[str, str]:
    env = dict(os.environ, HF_HUB_OFFLINE="1", PYTHONPATH=str(ROOT))
    env.update(extra)
    return env


@contextmanager
def running_server(db: Path, *args: str, stop_after: float = 180, env: dict | None = None):
    """Yield (url, discovery dict) of a real server on `db`; stop it afterwards."""
    discovery = Path(str(db) + ".server.json")
    discovery.unlink(missing_ok=True)
    log = open(Path(str(db) + ".server.log"), "w")  # noqa: SIM115 - closed below
    proc = subprocess.Popen([sys.executable, "-m", "papershelf", "-L", str(db), "serve", "--port", "0",
                             "--stop-after", str(stop_after), *args], env=env or cli_env(), stdout=log, stderr=log)
    try:
        deadline = time.monotonic() + 60
        while not discovery.exists():
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"server did not start: {Path(log.name).read_text()}")
            time.sleep(0.05)
        info = json.loads(discovery.read_text())
        yield info["url"], info
    finally:
        proc.terminate()
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()


def make_citing_library(folder: Path) -> tuple[Path, dict[str, str]]:
    """`make_library` plus four Markdown papers that cite each other (citation_fixtures); their ids by
    a word of their titles (survey, attention, sparse, dimensionality), and the PDF paper's (pdf)."""
    from .citation_fixtures import write_papers

    db = make_library(folder)
    write_papers(folder / "cites")
    with Library(str(db)) as lib:
        assert not lib.add([str(folder / "cites")]).failed
        ids = {w: next(s.paper.id for s in lib.papers() if w in (s.paper.title or "").lower())
               for w in ("survey", "attention", "sparse", "dimensionality")}
        ids["pdf"] = next(s.paper.id for s in lib.papers() if s.paper.source_format == "pdf")
    return db, ids
