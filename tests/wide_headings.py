"""The headings the PDF reader finds in one shared wide-corpus PDF with its outline hidden, so the tests read
what a paper without an outline would give.  Skips when the shared data is not there."""

from __future__ import annotations

from pathlib import Path

import pytest

from papershelf.ingest.pdf import reader

from .conftest import shared


def pdf_headings(path: Path, outline: bool = False) -> list[tuple[int, int, str]]:
    """(page, level, text) of every heading the reader finds in the PDF at `path`; its outline ignored
    unless `outline`, so the layout rules are what is read."""
    real = reader.read_outline
    if not outline:
        reader.read_outline = lambda pdf: []
    try:
        blocks = reader.read_pdf(path.read_bytes()).blocks
    finally:
        reader.read_outline = real
    return [(b.page or 0, b.level, b.text) for b in blocks if b.kind == "heading"]


def wide_headings(name: str) -> list[tuple[int, str]]:
    """(level, text) of every heading the reader finds in pdfs-wide/**/name, its outline ignored."""
    path = next(shared("pdfs-wide").rglob(name), None)
    if path is None:
        pytest.skip("shared wide corpus not available")
    return [(level, text) for _, level, text in pdf_headings(path)]
