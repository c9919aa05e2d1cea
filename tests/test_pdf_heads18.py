"""Heading classes of round heads18 (issue 38): small-print headings wrapped over two or three lines,
vouched for by the paper's other small-print headings in their style."""

from __future__ import annotations

import sys
from pathlib import Path

from papershelf.ingest.pdf.sections.heading_style import BodyStyle, Para
from papershelf.ingest.pdf.sections.small_print import small_title
from papershelf.ingest.pdf.text.lines import Line

from .wide_headings import pdf_headings

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

_BODY = BodyStyle(size=10.5, bold=False)
_TEXT = ("Dose matched of before the the the studies. Reported we samples against predicts before the "
         "matched, and the cells were counted twice.")


def _line(text: str, top: float, bold: bool = True, size: float = 8.5) -> Line:
    return Line(page=1, x0=50.0, top=top, x1=250.0, bottom=top + size, text=text, size=size, bold=bold)


def _title(*rows: str, bold: bool = True) -> Para:
    lines = [_line(r, 100.0 + 11 * k, bold=bold) for k, r in enumerate(rows)]
    return Para(lines=lines, text=" ".join(rows), gap_above=2.0)


def _under() -> Para:
    return Para(lines=[_line(_TEXT, 140.0, bold=False)], text=_TEXT, gap_above=1.2)


def test_a_small_print_title_may_wrap_over_up_to_three_lines():
    two = _title("Comparison of the model with earlier", "studies of the same pathway")
    three = _title("Quantitative analysis of the cell nuclei and", "of the activated receptor in tissues from",
                   "the treated cohort")
    assert small_title(two, _under(), _BODY) and small_title(three, _under(), _BODY)


def test_a_wrapped_small_print_title_keeps_the_limits_of_one():
    four = _title("Quantitative analysis of the cell", "nuclei and of the activated", "receptor in tissues",
                  "from the treated cohort")
    sentence = _title("The cells were counted twice and", "the counts agreed within a percent.")
    mixed = Para(lines=[_line("Comparison of the model with earlier", 100.0),
                        _line("studies of the same pathway", 111.0, bold=False)],
                 text="Comparison of the model with earlier studies of the same pathway", gap_above=2.0)
    assert not small_title(four, _under(), _BODY)
    assert not small_title(sentence, _under(), _BODY)
    assert not small_title(mixed, _under(), _BODY)  # a title over its text's first line, not one title


def test_generated_wrapped_small_print_headings_are_read(tmp_path):
    """Seed 76 sets "MTS assay", a two-line and a three-line heading in 8.5 pt bold over 8.5 pt text."""
    from gen_headings import make

    path = tmp_path / "gen76.pdf"
    make(76, str(path))
    texts = [t for _, _, t in pdf_headings(path)]
    assert "MTS assay" in texts
    assert "Quantitative analysis of the cell nuclei and of the activated receptor in tissues from the treated " \
           "cohort" in texts
