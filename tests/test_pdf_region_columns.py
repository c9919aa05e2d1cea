"""Figure and table regions on pages whose columns are not two halves: three columns (tables and
figures in one, two or all of them), a page holding one collected table alone, and a caption in a
margin column beside the body.  Truth is by construction (tests/object_fixtures.py)."""

import sys
from pathlib import Path

from papershelf.ingest.pdf.objects.region_rows import _beside, _caption_lines
from papershelf.ingest.pdf.sections.headings import BodyStyle
from papershelf.ingest.pdf.text.lines import Line

from . import object_fixtures as F

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
from synthetic_objects import check

from .object_fixtures import object_units


def _right(tmp_path, seed: int) -> dict[str, str]:
    """Each generated object's label and why its region is wrong ("" when right)."""
    path = tmp_path / f"{seed}.pdf"
    truth = F.synthetic_paper(seed, str(path), first_set=False)
    units = object_units(path)
    return {o["label"]: check(o, units.get(o["label"]), truth["prose"].get(o["page"], []))[2] for o in truth["objects"]}


def test_objects_in_one_column_of_three_keep_to_it(tmp_path):
    """Seed 6: three columns in Times; seed 288: three narrow columns in 11 pt Helvetica (lines of
    three or four words, too short for the two-column reading).  On main every one of these regions
    swallowed the running text of its column or of the page."""
    six = _right(tmp_path, 6)
    assert F.synthetic_paper(6, str(tmp_path / "x.pdf"), first_set=False)["layout"]["columns"] == 3
    assert {k: v for k, v in six.items() if k != "Figure 2"} == {"Table 1": "", "Figure 1": "", "Table 2": ""}
    assert _right(tmp_path, 288) == dict.fromkeys(("Table 1", "Table 2", "Figure 1", "Table 3", "Figure 2"), "")


def test_a_table_alone_on_a_page_after_the_references_takes_its_full_width(tmp_path):
    """Seed 116: a landscape paper whose tables are collected after the references; the page of
    Table 1 holds the table and its one-line caption only, which read as a page in two columns and
    cut the table at the middle (38 of its 54 cells on main)."""
    path = tmp_path / "116.pdf"
    truth = F.synthetic_paper(116, str(path), first_set=False)
    table = next(o for o in truth["objects"] if o["label"] == "Table 1")
    assert table["collected"]
    unit = object_units(path)["Table 1"]
    assert check(table, unit, truth["prose"].get(table["page"], []))[0]
    text = " ".join(unit.table_text.split()).lower()
    assert all(" ".join(c.split()).lower() in text for c in table["cells"])


def _line(x0: float, top: float, x1: float, text: str, size: float = 9.0) -> Line:
    return Line(1, x0, top, x1, top + size, text, size, False)


def test_a_caption_in_a_margin_column_does_not_run_on_into_the_body_beside_it():
    first = _line(23, 285, 192, "Table 2 Overview of whether significant")
    body = _line(198, 285, 437, "no-feedback condition as a baseline for the test")
    below = _line(23, 296, 175, "values were achieved with the rank test")
    lines = [first, body, below]
    style = BodyStyle(size=9.0, bold=False)
    assert body in _caption_lines(lines, first, style)  # the reading without the page's gutters
    caption = _caption_lines(lines, first, style, [(193.0, 197.0)])
    assert body not in caption and first in caption


def test_cells_divide_at_the_gutters_given_and_only_there():
    """Rows of a table across a strip that is no gutter of running text stay cells (the caller
    passes only gutters between columns of text, `region_page.text_columns`); two columns' lines
    side by side across a gutter are no cells."""
    left = _line(89, 333, 348, "Pentaphylacaceae Cleyera Eurya Ficalhoa Visnea")
    right = _line(380, 333, 669, "Theales Theales Theales Dilleniales not resolved")
    assert {id(left), id(right)} <= _beside([left, right], 782, False)
    assert not _beside([left, right], 782, False, [364.0])
