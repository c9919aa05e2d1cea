"""A page of tables set across it in a smaller size, two columns of running text under the last one: the
tables' long cells cross the page's middle, so no gutter shows among all its lines, the two columns'
lines share baselines and read as rows of cells, and the last table's region took the paragraphs under
it (dove-amep-2016 p7, dev half).  The gutter is found from the lines in the body's size alone
(`region_page.body_columns`).  A generated paper (truth by construction) and the dev page."""

from __future__ import annotations

from reportlab.lib.pagesizes import letter
from reportlab.pdfgen import canvas

from .conftest import shared
from .object_fixtures import object_units

_W, _H = letter
_L, _R, _COL = 72.0, 540.0, 224.0
_WORDS = ("the study of rural practice among dental graduates was measured in each cohort and the results "
          "were compared with those of urban graduates who were asked the same questions about where "
          "they work now and why they chose it").split()


def _column_text(c: canvas.Canvas, x: float, y: float, lines: int, seed: int) -> None:
    """Justified lines of body text (10 pt) filling one column."""
    for i in range(lines):
        words = [_WORDS[(seed + i * 7 + k) % len(_WORDS)] for k in range(7)]
        gap = (_COL - sum(c.stringWidth(w, "Times-Roman", 10) for w in words)) / (len(words) - 1)
        at = x
        c.setFont("Times-Roman", 10)
        for w in words:
            c.drawString(at, y - i * 12, w)
            at += c.stringWidth(w, "Times-Roman", 10) + gap


def _paper(path) -> float:
    """The two-page paper; returns the baseline of the text's first line under the last table."""
    c = canvas.Canvas(str(path), pagesize=letter)
    c.setFont("Times-Bold", 14)
    c.drawString(_L, 720, "Strategies encouraging graduates toward rural practice")
    for col, x in enumerate((_L, _L + _COL + 20)):
        _column_text(c, x, 690, 50, col)
    c.showPage()
    c.setFont("Helvetica", 9)
    c.drawString(_L, 740, "Table 3 Potential biases and limitations in each study")
    y = 724
    for i in range(8):  # a table of long text cells, in 8 pt, crossing the page's middle
        c.setFont("Helvetica", 8)
        c.drawString(_L, y, f"Study {i + 1}")
        c.drawString(_L + 100, y, "The question used to gather information on practice settings might be subject "
                                  + "to bias " * (1 + i % 3))  # ragged: a table's cells, no justified text
        c.drawString(_L + 100, y - 10, "The questionnaire asked a respondent to report whether interest in "
                                       + "rural service " * (1 + i % 2) + "was the key factor.")
        y -= 24
    c.setFont("Helvetica", 9)
    c.drawString(_L, y - 12, "Table 4 Number of exposure and control participants in each study")
    c.line(_L, y - 18, _R, y - 18)
    y -= 30
    heads = ("Study", "Total", "Exposure", "Control", "Event", "No event")
    c.setFont("Helvetica-Bold", 8)
    for k, h in enumerate(heads):
        c.drawString(_L + 78 * k, y, h)
    c.setFont("Helvetica", 8)
    for i in range(7):
        y -= 12
        for k in range(len(heads)):
            c.drawString(_L + 78 * k, y, f"Author {i}" if k == 0 else str(100 + 37 * i + 11 * k))
    c.line(_L, y - 4, _R, y - 4)
    for col, x in enumerate((_L, _L + _COL + 20)):
        _column_text(c, x, y - 24, 8, 3 + col)
    c.save()
    return y - 24


def test_a_table_over_two_columns_of_text_stops_at_its_last_row(tmp_path):
    path = tmp_path / "tables.pdf"
    text = _paper(path)
    objs = object_units(path)
    table = objs["Table 4"]
    assert table.region is not None and table.region["page"] == 2, table.region
    assert "Author 6" in (table.table_text or "") and "rural" not in (table.table_text or ""), table.table_text
    assert table.region["bbox"][1] > text + 12, (text, table.region)  # PDF points: above the text's first line


def test_the_dental_review_table_keeps_out_the_text_under_it():
    data = shared("pdfs-wide", "dove-amep-2016.pdf").read_bytes()
    objs = object_units(data)
    table = objs["Table 4"]
    assert table.region is not None and table.region["page"] == 7
    assert "McQuistan" in (table.table_text or "") and "knowledge gaps" not in (table.table_text or "")
    assert table.region["bbox"][1] > 200, table.region  # the last row, not the text's foot (63 pt)
