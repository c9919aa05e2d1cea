"""Heading classes of round heads12 (issue 38): bold read from the glyphs' strokes in fonts subset
under hashed names (no weight in name or flags), and a front-page sidebar strip beside a column
that holds a figure's small labels.  Generated papers (bench/gen_headings.py with its sixth stream,
bench/gen_traps3.py), truth by construction."""

import sys
from pathlib import Path

import pypdfium2 as pdfium
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

import gen_headings
import gen_traps3
from pdf_headings_score import score_paper

from papershelf.ingest.pdf.text import font_weight


def _score(tmp_path, seed: int) -> tuple[dict, frozenset]:
    path = str(tmp_path / f"gen-{seed}.pdf")
    truth, style = gen_headings.make(seed, path)
    return score_paper(gen_headings.blocks_without_outline(path), truth), style.traps


def test_stroke_weight_of_hashed_fonts(tmp_path):
    """Vera and Vera Bold under hashed names, no ForceBold: the bold face's stems say it is bold."""
    path = str(tmp_path / "fonts.pdf")
    fonts = gen_traps3._hashed_fonts(2)
    c = gen_traps3.HashedCanvas(path, fonts)
    for y, face in ((700, "Times-Roman"), (680, "Times-Bold"), (660, "Times-Italic"), (640, "Times-BoldItalic")):
        c.setFont(face, 10)
        c.drawString(72, y, "Materials and methods")
    c.save()
    tp = pdfium.PdfDocument(path)[0].get_textpage()
    starts = [i for i in range(tp.count_chars()) if tp.get_text_range(i, 1) == "M"]
    assert [font_weight.drawn_bold(tp.raw, i) for i in starts] == [False, True, False, True]
    assert not any(font_weight.says_weight(name.lower()) for name in fonts.values())
    assert font_weight.says_weight("timesnewromanpsmt") and font_weight.says_weight("nimbusromno9l-medi")


@pytest.mark.parametrize("seed", [30, 46, 62, 90, 102])
def test_bold_headings_in_hashed_fonts(tmp_path, seed):
    """Sections and run-in sub-headings set bold in hashed-name fonts are found (main: R 0.22-0.57)."""
    s, traps = _score(tmp_path, seed)
    assert "hashed" in traps
    assert s["recall"] == 1.0 and s["precision"] == 1.0, (s["missed"], s["spurious"])


@pytest.mark.parametrize("seed", [16, 24])
def test_sidebar_beside_a_column_with_figure_labels(tmp_path, seed):
    """A small-print sidebar ("Funding", "Competing interests" in bold) beside a column whose figure
    has small labels: the labels are no part of the strip, the strip is set apart, no label is a section."""
    s, _ = _score(tmp_path, seed)
    assert not {"Funding", "Competing interests"} & set(s["spurious"]), s["spurious"]
