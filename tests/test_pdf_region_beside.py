"""An object set beside its caption (a caption in a side column, level with the figure or table),
and a table whose last row pdfium reads as one line just over a paragraph.  Fixtures in
tests/object_classes.py; boxes are PDF points (bottom-left origin), as units store them."""

from . import object_classes as F
from .object_fixtures import object_units
from .test_pdf_object_layouts import _center, _check, _holds


def test_a_figure_beside_its_caption_is_found_beside_it(tmp_path):
    path = tmp_path / "side.pdf"
    F.side_caption_paper(str(path))
    unit = object_units(path)["Figure 1"]
    _check(path, unit, 1, ["fraction bleached"], ["Bleached", "Shallow reefs bleached first"])
    assert unit.region["bbox"][0] > 200 and unit.region["bbox"][2] > 500, unit.region  # the chart, whole


def test_a_table_beside_its_caption_keeps_its_header_and_every_row(tmp_path):
    path = tmp_path / "side.pdf"
    F.side_caption_paper(str(path))
    unit = object_units(path)["Table 1"]
    _check(path, unit, 1, ["Depth", "Lizard Island", "Ningaloo"], ["by depth and site", "Recovery was slowest"])
    assert "Lizard Island" in (unit.table_text or "") and "Site" in (unit.table_text or "")


def test_a_short_caption_over_a_table_is_not_taken_for_a_side_caption(tmp_path):
    path = tmp_path / "side.pdf"
    F.side_caption_paper(str(path))
    unit = object_units(path)["Table 2"]
    _check(path, unit, 1, ["Orpheus Island", "Osprey Reef", "Recovered"], [])
    assert "Osprey Reef" in (unit.table_text or "")


def test_a_tables_last_row_read_as_one_line_stays_the_tables(tmp_path):
    path = tmp_path / "row.pdf"
    F.row_as_line_paper(str(path))
    unit = object_units(path)["Table 1"]
    _check(path, unit, 1, ["Lizard", "Tubbataha Reef"], ["Shallow reefs bleached"])
    assert "Tubbataha" in (unit.table_text or "")
    assert not _holds(unit.region, _center(path, 1, "Shallow reefs"))


def test_a_figure_captioned_above_under_a_page_wide_table_is_found_in_its_column(tmp_path):
    path = tmp_path / "stack.pdf"
    F.table_over_figure_paper(str(path))
    objs = object_units(path)
    _check(path, objs["Figure 2"], 1, ["colour light"], ["Moorea North", "Macrophages switch"])
    _check(path, objs["Table 2"], 1, ["Moorea North", "Kimbe Bay"], ["colour light"])


def test_a_picture_in_a_margin_column_is_its_figures(tmp_path):
    path = tmp_path / "margin.pdf"
    F.margin_picture_paper(str(path))
    region = object_units(path)["Figure 1"].region
    assert region is not None and _holds(region, (100, 575)), region  # the picture's middle
    assert region["bbox"][2] < 190, region  # not the running text
