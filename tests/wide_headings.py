"""The headings the PDF reader finds in one shared wide-corpus PDF with its outline hidden, so the tests read
what a paper without an outline would give.  Skips when the shared data is not there."""

from __future__ import annotations

import pytest

from papershelf.ingest.pdf import reader

from .conftest import shared


def wide_headings(name: str) -> list[tuple[int, str]]:
    """(level, text) of every heading the reader finds in pdfs-wide/**/name, its outline ignored."""
    path = next(shared("pdfs-wide").rglob(name), None)
    if path is None:
        pytest.skip("shared wide corpus not available")
    real = reader.read_outline
    reader.read_outline = lambda pdf: []
    try:
        blocks = reader.read_pdf(path.read_bytes()).blocks
    finally:
        reader.read_outline = real
    return [(b.level, b.text) for b in blocks if b.kind == "heading"]
