"""A table's own structure keeps its cells whole (`pdf/table_cells.py`, `table_bands.py`; issue #38,
cells18): a head spanning two columns stays one cell above its columns' heads, a value wrapped onto a
second line ("13.1" / "(0.3)") stays in its cell, a head broken at its hyphen ("MYC-" / "positive")
is one cell, a group head ("Pilot trial") is not joined to the row under it, a ruled grid's band is
one row.  Generated PDFs (truth by construction), and the dev tables that showed each class (BMJ Open,
J Cell Biol, VLDB 2017) when shared data is there."""

import pytest

from .conftest import shared
from .object_fixtures import object_units, ruled_table_page
from .pdf_fixtures import BODY


def _rows(path, label: str = "Table 1") -> list[list[str]]:
    text = object_units(path)[label].table_text or ""
    return [row.split(" | ") for row in text.splitlines()]


def _spanning_paper(path: str) -> None:
    """BMJ Open's Table 2 and 4 redrawn: a shaded-style unruled body, a spanning head with a short rule
    under its two columns, values whose bracket wraps onto a second line, a group head over indented rows."""
    c, p, y = ruled_table_page(path, "Table 1. Participants in the feasibility study and the pilot trial.")
    xs = (72, 190, 260, 330)
    c.setFont("Helvetica-Bold", 8)
    c.drawCentredString(320, y - 10, "Pilot CRCT")  # centred over its two columns
    c.line(260, y - 13, 380, y - 13)  # a rule under the spanning head's two columns only
    c.drawString(190, y - 20, "Feasibility")
    c.drawString(190, y - 30, "study")
    c.drawString(260, y - 30, "Control")
    c.drawString(330, y - 30, "Intervention")
    y -= 35
    c.line(72, y, 410, y)
    c.setFont("Helvetica", 8)
    rows = (("N schools", "1", "1", "2"), ("N assented", "183", "115", "345"),
            ("Age", "13.7 (0.4)", ["13.1", "(0.3)"], "13.2 (0.4)"),
            ("Weight (kg)", "58.7 (12.7)", ["53.0", "(10.6)"], "53.4 (10.6)"),
            ("BMI z-score", "0.63 (1.2)", ["0.52", "(1.1)"], "0.44 (1.1)"),
            ("Per cent obese", "26.9", "22.7", "24.1"))
    for row in rows:
        y -= 10
        for x, v in zip(xs, row, strict=True):
            for k, t in enumerate([v] if isinstance(v, str) else v):
                c.drawString(x, y - 10 * k, t)
        y -= 10 if any(not isinstance(v, str) for v in row) else 0
    y -= 6
    c.line(72, y, 410, y)
    p.y = y - 24
    p.caption("Table 2. Minutes of activity.")
    y = p.y - 6
    c.line(72, y, 410, y)
    c.setFont("Helvetica-Bold", 8)
    for x, head in zip(xs[1:], ("Control (SD)", "Intervention (SD)", "Difference"), strict=True):
        c.drawString(x, y - 10, head)
    y -= 14
    c.line(72, y, 410, y)
    c.setFont("Helvetica", 8)
    body = (("Feasibility study", None), ("MVPA (baseline)", ("60.7 (27.5)", "", "")),
            ("MVPA (follow-up)", ("61.3 (25.6)", "", "")), ("Pilot trial", None),
            ("MVPA (baseline)", ("48.6 (15.4)", "51.9 (15.3)", "")),
            ("MVPA (follow-up)", ("42.1 (15.0)", "49.4 (18.2)", "")),
            ("MVPA (change)", ("-6.5 (14.0)", "-2.5 (15.4)", "5.1 (1.1 to 9.2)")))
    for label, values in body:
        y -= 11
        c.drawString(72 if values is None else 80, y, label)
        for x, v in zip(xs[1:], values or ("", "", ""), strict=True):
            c.drawString(x, y, v)
    y -= 5
    c.line(72, y, 410, y)
    p.y = y - 20
    p.text(BODY, chars=70)
    c.save()


@pytest.fixture(scope="module")
def spanning(tmp_path_factory):
    path = tmp_path_factory.mktemp("spans") / "spanning.pdf"
    _spanning_paper(str(path))
    return path


def test_a_spanning_head_is_a_cell_of_its_own_above_its_columns_heads(spanning):
    rows = _rows(spanning)
    cells = {c for row in rows for c in row}
    assert {"Pilot CRCT", "Control", "Intervention", "Feasibility study"} <= cells, rows


def test_a_value_wrapped_onto_a_second_line_stays_in_its_cell(spanning):
    rows = _rows(spanning)
    assert ["Age", "13.7 (0.4)", "13.1 (0.3)", "13.2 (0.4)"] in rows, rows
    assert ["Weight (kg)", "58.7 (12.7)", "53.0 (10.6)", "53.4 (10.6)"] in rows, rows
    assert ["Per cent obese", "26.9", "22.7", "24.1"] in rows, rows


def test_a_group_head_is_not_joined_to_the_row_under_it(spanning):
    """A guard (read right before cells18 too): BMJ Table 4, below, is the case the band rule joined."""
    rows = _rows(spanning, "Table 2")
    assert ["Pilot trial"] in rows, rows
    assert ["MVPA (baseline)", "48.6 (15.4)", "51.9 (15.3)"] in rows, rows


def _read(name: str, label: str) -> list[list[str]]:
    path = shared("pdfs-wide", name)
    return _rows(path, label)


def test_dev_tables_spanning_heads_wrapped_values_and_group_heads():
    """BMJ Open Table 2 and 4 (spanning head, wrapped bracket, group head), J Cell Biol Table I (heads
    and values all wrapped: a full row of continuations)."""
    bmj = _read("bmj-open-2016-goactive.pdf", "Table 2")
    assert ["Pilot CRCT"] in bmj and ["Feasibility study", "Control", "Intervention"] in bmj, bmj
    assert ["Age", "13.7 (0.4)", "13.1 (0.3)", "13.2 (0.4)"] in bmj, bmj
    t4 = _read("bmj-open-2016-goactive.pdf", "Table 4")
    assert ["Pilot trial"] in t4, t4
    jcb = _read("rup-jcb-2000.pdf", "Table I")
    assert jcb[0][0].replace("\u2010", "-") == "MYC- positive" and len(jcb[0]) == 8, jcb
    assert jcb[1][0].startswith("100% (n") and len(jcb[1]) == 8, jcb


def test_a_ruled_grids_band_is_one_row():
    """VLDB 2017 Table 2: a rule under every row, cells of two items over two lines ("window size: 22" /
    "# candidates: 119"): each band between two rules is one row."""
    rows = _read("vldb-2017-asap-smoothing.pdf", "Table 2")
    assert ["EEG [36]", "Excerpt of electrocardiogram", "45,000", "180 sec", "window size: 22 # candidates: 119",
            "window size: 22 # candidates: 21"] in rows, rows
    assert not any(row[0].startswith("# candidates") for row in rows), rows
