"""A table's cells set over several lines are read as whole cells (`pdf/table_cells.py`, issue #38):
wrapped header cells between two rules, wrapped labels in the first column, and what must stay
apart (a group label under a row of values, a note under the table).  Fixtures in
tests/object_classes.py and the generated papers' `wrapped_cells` class (truth by construction)."""

import re

from . import object_cells as OC
from . import object_classes as F
from .object_fixtures import object_units, synthetic_paper


def _rows(path) -> list[list[str]]:
    text = object_units(path)["Table 1"].table_text or ""
    return [row.split(" | ") for row in text.splitlines()]


def test_wrapped_header_cells_are_one_cell_each(tmp_path):
    path = tmp_path / "wrapped.pdf"
    F.wrapped_table_paper(str(path))
    cells = {c for row in _rows(path) for c in row}
    assert "Goals in control group" in cells and "Goals in GDT group" in cells, cells


def test_a_wrapped_label_is_one_cell_beside_its_values(tmp_path):
    path = tmp_path / "wrapped.pdf"
    F.wrapped_table_paper(str(path))
    rows = _rows(path)
    assert ["Goals met in the first week", "26/25", "30/22", "6 hrs"] in rows, rows
    assert ["Adult patients with septic shock", "31/32", "124/57", "72 hrs"] in rows, rows


def test_a_group_label_and_a_note_stay_rows_of_their_own(tmp_path):
    path = tmp_path / "wrapped.pdf"
    F.wrapped_table_paper(str(path))
    rows = _rows(path)
    assert ["Usual care", "130/133", "50/50", "24 hrs"] in rows, rows
    assert ["Study type"] in rows, rows
    assert not any("randomized" in c and len(row) > 1 for row in rows for c in row), rows


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().lower()


def test_generated_wrapped_cells_are_found_whole(tmp_path):
    """Seeds 30 and 194 draw tables of the `wrapped_cells` class; every cell's whole text is found."""
    for seed in (30, 194):
        path = tmp_path / f"{seed}.pdf"
        truth = synthetic_paper(seed, str(path), False, True)
        units = object_units(path)
        wrapped = [o for o in truth["objects"] if o["variant"] == "wrapped_cells"]
        assert wrapped
        for obj in wrapped:
            text = _norm(units[obj["label"]].table_text or "")
            missing = [c for c in obj["cells"] if _norm(c) not in text]
            assert not missing and any(len(c.split()) >= 3 for c in obj["cells"]), (seed, missing)


def test_a_row_of_cells_centred_on_a_wrapped_label_is_one_row(tmp_path):
    """Values on the middle line of a three-line label, a two-line cell centred beside them, rows set
    apart by a gap (`object_cells.centred_table_paper`): each band is one row of whole cells."""
    path = tmp_path / "centred.pdf"
    OC.centred_table_paper(str(path))
    rows = _rows(path)
    assert ["Tuchschmidt, Smith and Jones", "1992", "Adult patients with septic shock", "26/25", "57.7"] in rows, rows
    assert ["Micek, Parker and Rowe", "2006", "Adult patients with severe sepsis", "60/60", "48.1"] in rows, rows


def test_a_raised_mark_set_as_a_piece_of_its_own_stays_in_its_cell(tmp_path):
    path = tmp_path / "centred.pdf"
    OC.centred_table_paper(str(path))
    assert _rows(path)[0] == ["Study", "Year", "Population", "No.", "I^2 (%)"], _rows(path)[0]


def test_complete_rows_grouped_by_a_gap_stay_rows(tmp_path):
    path = tmp_path / "centred.pdf"
    OC.centred_table_paper(str(path))
    text = object_units(path)["Table 2"].table_text or ""
    rows = [row.split(" | ") for row in text.splitlines()]
    assert ["Heron Reef", "9 m", "96", "2%"] in rows and ["Osprey Reef", "12 m", "143", "0%"] in rows, rows


def test_generated_cell_classes_are_found(tmp_path):
    """Seeds 224 (`centred_cells`) and 254 (`script_marks`, with the fourth set drawn for every plain
    table): every cell (whole, marks written as the reader writes them) is found."""
    for seed, share, variant in ((224, OC.CELLS, "centred_cells"), (254, 1.0, "script_marks")):
        path = tmp_path / f"{seed}.pdf"
        before, OC.CELLS = OC.CELLS, share
        try:
            truth = synthetic_paper(seed, str(path), False, True)
        finally:
            OC.CELLS = before
        units = object_units(path)
        drawn = [o for o in truth["objects"] if o["variant"] == variant]
        assert drawn
        for obj in drawn:
            text = _norm(units[obj["label"]].table_text or "")
            missing = [c for c in obj["cells"] if _norm(c) not in text]
            assert not missing, (seed, missing)
