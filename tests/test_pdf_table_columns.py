"""A table's columns from its own rows (`pdf/table_columns.py`, `pdf/rect_gaps.py`, issue #38): a row
drawn as one text object is cut at its cells' gaps, wide or (where the other rows leave the gap open)
narrow; a loose word space inside a cell is not a column; a name and its "et al." read as two pieces
are one cell.  Generated tables (truth by construction) and dev tables of bench/data/cells_hand.json."""

from pathlib import Path

import pytest

from .conftest import shared
from .object_fixtures import object_units

_ROWS = [("N schools", "1", "1", "2"), ("N parent opt out", "9", "6", "23"), ("N assented", "183", "115", "345"),
         ("Height (cm)", "165.8 (8.8)", "161.8 (7.0)", "162.6 (8.5)"),
         ("BMI z-score", "0.63 (1.2)", "0.52 (1.1)", "0.44"),
         ("Age", "13.7 (0.4)", "13.1 (0.3)", "13.2 (0.4)")]


def _row_objects_paper(path: Path, gap_em: float) -> None:
    """A page with a captioned table, each row drawn as ONE run of text (a space between two cells
    stretched to the next column by character spacing: pdfium gives it one rectangle), its columns
    `gap_em` ems past the widest cell of the column before."""
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfbase.pdfmetrics import stringWidth
    from reportlab.pdfgen import canvas

    c = canvas.Canvas(str(path), pagesize=A4)
    size, x0, y = 8.0, 72.0, 700.0
    c.setFont("Helvetica", 10)
    c.drawString(x0, y + 30, "Table 1. Descriptive characteristics of the participants in the study.")
    c.setLineWidth(0.5)
    c.line(x0, y + 20, 480, y + 20)
    starts, x = [], x0
    for k in range(4):
        starts.append(x)
        x += max(stringWidth(r[k], "Helvetica", size) for r in _ROWS) + gap_em * size
    for row in _ROWS:
        t = c.beginText(x0, y)
        t.setFont("Helvetica", size)
        t.textOut(row[0])
        at = x0 + stringWidth(row[0], "Helvetica", size)
        for k, cell in enumerate(row[1:], 1):  # a space stretched by character spacing to the column
            t.setCharSpace(starts[k] - at - stringWidth(" ", "Helvetica", size))
            t.textOut(" ")
            t.setCharSpace(0)
            t.textOut(cell)
            at = starts[k] + stringWidth(cell, "Helvetica", size)
        c.drawText(t)
        y -= 1.5 * size
    c.line(x0, y + 4, 480, y + 4)
    c.setFont("Helvetica", 10)
    for k in range(12):
        c.drawString(x0, y - 30 - 12 * k, "Running text of the paper goes on under the table, line after line.")
    c.save()


def _rows(path: Path) -> list[list[str]]:
    text = object_units(path)["Table 1"].table_text or ""
    return [row.split(" | ") for row in text.splitlines()]


@pytest.mark.parametrize("gap_em", [3.0, 1.2])
def test_a_row_drawn_as_one_text_object_is_read_cell_by_cell(tmp_path, gap_em):
    """Narrow gaps (1.2 em, no wider than a loose word space; read as one cell before) and wide ones
    (3 em: pdfium's rectangles part there, read apart before too, kept as a guard): each row comes
    out as its four cells."""
    path = tmp_path / "rows.pdf"
    _row_objects_paper(path, gap_em)
    rows = _rows(path)
    for row in _ROWS:
        assert list(row) in rows, (gap_em, rows)


def _shared_table(name: str, label: str) -> list[list[str]]:
    path = shared("pdfs-wide", name)
    units = object_units(path)
    return [row.split(" | ") for row in (units[label].table_text or "").splitlines()]


def test_dev_tables_columns_kept_apart():
    """BMJ Open (a row drawn as one object, label and value 1.5 em apart), MDPI (centred values 1-2 em
    apart), ACL (a dash and a value in tight columns): rows as printed."""
    assert ["N parent opt out", "9", "6", "23"] in _shared_table("bmj-open-2016-goactive.pdf", "Table 2")
    mdpi = _shared_table("mdpi-ijerph-2016-anf-hypertension.pdf", "Table 5")
    assert ["TC vs. TT", "co-dominant model-1", "0.73", "0.49–1.1", "0.12", "58.0%", "0.068", "RE"] in mdpi, mdpi
    acl = _shared_table("acl-2022-tableformer.pdf", "Table 3")
    assert ["Herzig et al. (2020)", "–", "48.8"] in acl and ["Model", "dev", "test"] in acl, acl


def test_a_name_and_its_et_al_are_one_cell():
    """Termedia's sideways Table I: "Kondo" and its italic "et al." (two pieces a word space apart,
    other rows' names running across that space) are one cell."""
    rows = _shared_table("termedia-aoms-2016-meta-analysis.pdf", "Table I")
    assert ["Kondo et al.", "Japan", "Asian", "1999", "ND", "ND", "IHC", "61", "ND", "41", "ND", "DFS"] in rows, rows
