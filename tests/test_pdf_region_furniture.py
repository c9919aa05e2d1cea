"""Regions on pages whose furniture misleads a walk from the caption: text blocks set on filled
panels, a stamp running up the margin, a stroke drawn through two stacked figures, a page of running
text set larger than the paper's body.  Fixtures in tests/region_fixtures.py; boxes are PDF points
(bottom-left origin), as units store them."""

from . import region_fixtures as F
from .test_pdf_object_layouts import _center, _holds, _objects


def _region(path, label: str) -> dict:
    unit = _objects(path).get(label)
    assert unit is not None and unit.region is not None and unit.region["page"] >= 1, label
    return unit.region


def test_running_text_set_on_filled_panels_stays_out_of_the_figure_over_it(tmp_path):
    path = tmp_path / "panels.pdf"
    F.panel_paper(str(path))
    region = _region(path, "Figure 1")
    assert _holds(region, (305, 600))  # the picture's middle
    assert region["bbox"][1] > 440, region  # nothing under the caption (the panels' text)


def test_a_stamp_in_the_margin_does_not_widen_a_figure_over_the_paragraph_above(tmp_path):
    path = tmp_path / "stamp.pdf"
    F.margin_stamp_paper(str(path))
    region = _region(path, "Figure 1")
    assert _holds(region, _center(path, 1, "2002"))
    assert region["bbox"][0] > 60 and region["bbox"][3] < 430, region  # not the margin, not the text above


def test_a_stroke_through_two_stacked_figures_leaves_each_its_own(tmp_path):
    path = tmp_path / "stroke.pdf"
    F.stroke_through_paper(str(path))
    objs = _objects(path)
    upper, lower = _center(path, 1, "Upper chart"), _center(path, 1, "Lower chart")
    assert _holds(objs["Figure 5"].region, upper) and not _holds(objs["Figure 5"].region, lower)
    assert _holds(objs["Figure 6"].region, lower) and not _holds(objs["Figure 6"].region, upper)


def test_running_text_larger_than_the_papers_body_ends_a_figure(tmp_path):
    path = tmp_path / "larger.pdf"
    F.larger_text_page_paper(str(path))
    region = _region(path, "Figure 2")
    assert region["page"] == 2 and _holds(region, (210, 620))
    assert region["bbox"][1] > 490, region  # the 10 pt text under the caption is not the figure's


def test_a_figure_in_a_column_of_three_keeps_out_of_the_text_above_and_beside_it(tmp_path):
    path = tmp_path / "three.pdf"
    F.three_column_paper(str(path))
    region = _region(path, "Figure 3")
    assert _holds(region, (130, 244))  # the picture's middle
    assert region["bbox"][3] < 345 and region["bbox"][2] < 220, region  # not the column's text, not the next column
