"""Ties between two files of one `add` go by input order whatever order their parses finish in
(papershelf/ties.py): a slow first file (80 pages) and a fast second one that claims the same
readable id, or the same work, give the library input order gives, with workers as without.  Also:
a file's page count comes from its parsed Document (no second open), and the whole index's plan
from the add's own walk of the inputs (index_eta.planned)."""

from __future__ import annotations

import os

import pypdfium2 as pdfium
import pytest

from papershelf import Library

from .common import lined_pdf


def _pdf(title: str, pages: int = 1, doi: str | None = None) -> bytes:
    return lined_pdf(title, pages, doi, rows=58, top=700)


def _library(tmp_path, folder, workers: str, monkeypatch, name: str) -> tuple[dict, list[str]]:
    """{file name: (paper id, units)} of a fresh library, and the order the files were written in."""
    monkeypatch.setenv("PAPERSHELF_PARSE_WORKERS", workers)
    written: list[str] = []
    with Library(str(tmp_path / f"{name}.db")) as lib:
        report = lib.add([str(folder)], progress=lambda r: written.append(os.path.basename(r.path)))
        assert not report.failed, [f.reason for f in report.failed]
        out = {}
        for pid in lib.store.paper_ids():
            paper = lib.store.get_paper(pid)
            out[os.path.basename(paper.source_path)] = (pid, len(lib.store.paper_units(pid)))
        assert lib.verify().ok
    assert sorted({os.path.basename(f.path) for f in report.files}) == sorted(os.listdir(folder))
    return out, written


@pytest.mark.parametrize("kind", ["same readable id", "same work"])
def test_a_tie_goes_to_the_earlier_file_whatever_finishes_first(tmp_path, monkeypatch, kind):
    """`a-slow.pdf` (80 pages) is first in input order; `b-fast.pdf` (one page) finishes first with
    two workers.  Same readable id: the earlier file keeps the plain id and the later one gets the
    letter.  Same work (one DOI, equally good files: same format, same mtime): the paper's id and
    units come from the earlier file.  Before ties.py both went to whichever was written first."""
    folder = tmp_path / "in"
    folder.mkdir()
    if kind == "same readable id":  # no author or year: the id is the title's first two words
        (folder / "a-slow.pdf").write_bytes(_pdf("Quiet harbours of the northern coast", pages=80))
        (folder / "b-fast.pdf").write_bytes(_pdf("Quiet harbours in winter storms"))
    else:
        (folder / "a-slow.pdf").write_bytes(_pdf("Quiet harbours of the northern coast", 80, "10.5555/q.17"))
        (folder / "b-fast.pdf").write_bytes(_pdf("Silent ports in winter storms", 1, "10.5555/q.17"))
        for f in folder.iterdir():
            os.utime(f, (1_700_000_000, 1_700_000_000))
    for i in range(3):
        (folder / f"c{i}.pdf").write_bytes(_pdf(f"Word{i} signals in paper number {i}"))
    with_workers, order = _library(tmp_path, folder, "2", monkeypatch, "on")
    in_order, _ = _library(tmp_path, folder, "0", monkeypatch, "off")
    assert with_workers == in_order
    assert order.index("b-fast.pdf") < order.index("a-slow.pdf")  # the later file was written first...
    assert order[-1] == "b-fast.pdf" and order.count("b-fast.pdf") == 2  # ...and again after the earlier
    if kind == "same readable id":
        assert with_workers["a-slow.pdf"][0] == "quietharbours"
        assert with_workers["b-fast.pdf"][0] == "quietharboursa"
    else:
        assert set(with_workers) == {"a-slow.pdf", "c0.pdf", "c1.pdf", "c2.pdf"}  # one paper, a's units
        assert with_workers["a-slow.pdf"][0].startswith("quietharbours")
        with Library(str(tmp_path / "on.db")) as lib:
            sources = lib.store.sources(with_workers["a-slow.pdf"][0])
        assert sorted(os.path.basename(s.path) for s in sources) == ["a-slow.pdf", "b-fast.pdf"]


def test_pages_come_from_the_parse_and_the_plan_from_the_adds_own_walk(tmp_path, monkeypatch):
    """A written PDF's `pages` is its page tree's count, read by the parse (pdf_cost is never
    called after it); the whole index's estimate is planned from the files the add found, the
    inputs walked once."""
    from papershelf import importer, ingest
    from papershelf.frontends.cli_progress import AddProgress, progress_bar
    from papershelf.ingest import pdf_cost

    folder = tmp_path / "in"
    folder.mkdir()
    for i, pages in enumerate((1, 3)):
        (folder / f"p{i}.pdf").write_bytes(_pdf(f"Word{i} signals in paper number {i}", pages))
    (folder / "notes.md").write_text("# Notes\n\nSome words about harbours.\n")
    walks = []
    real = ingest.discover

    def counted(paths):
        walks.append(paths)
        return real(paths)

    monkeypatch.setattr(ingest, "discover", counted)
    monkeypatch.setattr(importer, "discover", counted)
    costs = []
    real_cost = pdf_cost.pdf_cost
    monkeypatch.setattr(pdf_cost, "pdf_cost", lambda *a, **k: costs.append(a) or real_cost(*a, **k))
    monkeypatch.setenv("PAPERSHELF_PARSE_WORKERS", "0")
    with Library(str(tmp_path / "lib.db")) as lib, progress_bar(False) as bar:
        shown = AddProgress(bar, lib.index_eta)
        report = lib.add([str(folder)], on_found=shown.found, progress=shown.file)
    assert len(walks) == 1 and len(costs) == 2  # one walk; each PDF's cost read once, by the plan
    assert shown.eta is not None and not shown.eta.left  # every planned file was written
    pages = {os.path.basename(f.path): f.pages for f in report.files}
    for name in ("p0.pdf", "p1.pdf"):
        assert pages[name] == len(pdfium.PdfDocument(str(folder / name)))
    assert pages == {"p0.pdf": 1, "p1.pdf": 3, "notes.md": None}
