"""Captions in a margin column of their own, beside the body column that holds their objects, and a
page in three columns whose third is left empty.  Fixtures in tests/object_margins.py; boxes are PDF
points (bottom-left origin), as units store them."""

from . import object_margins as F
from .object_fixtures import object_units
from .test_pdf_object_layouts import _center, _check, _holds


def test_a_table_captioned_in_a_margin_column_is_found_beside_it(tmp_path):
    path = tmp_path / "margin.pdf"
    F.margin_column_paper(str(path))
    unit = object_units(path).get("Table 1")
    _check(path, unit, 1, ["Bleached", "Lizard Island", "37%"], ["Shallow reefs bleached first"])
    assert "Lizard Island" in (unit.table_text or "") and "37%" in (unit.table_text or "")
    assert not _holds(unit.region, _center(path, 1, "by depth, site and year"))  # the caption is not the table


def test_a_figure_captioned_at_its_foot_in_a_margin_column_is_the_chart(tmp_path):
    path = tmp_path / "margin.pdf"
    F.margin_column_paper(str(path))
    region = object_units(path)["Figure 1"].region
    assert region is not None and region["bbox"][0] > 220 and region["bbox"][2] > 500, region
    _check(path, object_units(path)["Figure 1"], 1, [], ["Shallow reefs bleached first", "Recovery was slowest"])


def test_a_table_in_the_middle_column_of_three_with_the_third_empty_keeps_to_its_column(tmp_path):
    path = tmp_path / "three.pdf"
    F.empty_third_paper(str(path))
    unit = object_units(path).get("Table 1")
    _check(path, unit, 1, ["Ningaloo", "Depth", "12%"], ["Shallow reefs bleached"])
    assert unit.region["bbox"][0] > 215, unit.region  # not the first column's running text
