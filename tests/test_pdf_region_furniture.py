"""Regions on pages whose furniture misleads a walk from the caption: text blocks set on filled
panels, a stamp running up the margin, a stroke drawn through two stacked figures, a page of running
text set larger than the paper's body.  Fixtures in tests/region_fixtures.py; boxes are PDF points
(bottom-left origin), as units store them."""

from . import region_fixtures as F
from .object_fixtures import object_units
from .test_pdf_object_layouts import _center, _holds


def _region(path, label: str) -> dict:
    unit = object_units(path).get(label)
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
    objs = object_units(path)
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


def test_a_paragraph_of_measures_broken_after_exponents_stays_out_of_the_figure_under_it():
    """The lines pdfium gives for a paragraph whose last lines are full of measures ("2.5 m s^−1"),
    two of them broken into pieces right after an exponent (1.6 pt apart: one line, not two cells),
    then a chart (its frame and bars) and its caption: the chart's region starts under the paragraph."""
    from papershelf.ingest.pdf.objects.regions import find_candidates
    from papershelf.ingest.pdf.objects.sides import choose_sides
    from papershelf.ingest.pdf.sections.headings import BodyStyle
    from papershelf.ingest.pdf.text.lines import Line

    def line(x0, top, x1, text):
        return Line(1, x0, top, x1, top + 9, text, 10.0, False)

    prose = "The wind field over the coast showed a uniform pattern overall with a strong wind from the west"
    lines = [line(67.4, 200 + 12 * k, 425.9, prose) for k in range(12)] + [
        line(67.6, 354.3, 425.9, "The mean of wind speeds in Figure 6(b) was 6.3 m s^−1 whereas the wind"),
        line(67.8, 366.2, 250.1, "speeds of the patch were less than 2.5 m s^−1"),
        line(251.7, 366.2, 425.9, ". The retrieved SAR wind speed coincided"),
        line(67.4, 378.1, 395.2, "well with buoy measurements (128.90° E, 34.76° N) by a difference of 0.7 m s^−1"),
        line(396.6, 378.1, 425.8, ", which"),
        line(67.4, 390.1, 394.6, "were 3.0 m s^−1 for the SAR wind and 2.3 m s^−1 for the buoy wind, respectively."),
        line(67.0, 609.0, 427.0, "Figure 6. Distributions of wind vectors retrieved from the imagery on two days."),
    ] + [line(100 + 60 * k, 590, 110 + 60 * k, f"{127 + k}° E") for k in range(5)]
    bars = [(120.0 + 40 * k, 500.0 - 10 * k, 130.0 + 40 * k, 587.0) for k in range(6)]
    graphics = [(100.0, 423.0, 414.0, 587.0)] + bars
    regions = choose_sides(find_candidates(lines, graphics, 493.0, 703.0, BodyStyle(10.0, False)))
    assert [r.label for r in regions] == ["Figure 6"]
    assert regions[0].box[1] >= 400, regions[0].box  # not the paragraph's last lines (tops 354-390)


def test_a_page_of_one_table_in_small_type_keeps_every_row(tmp_path):
    path = tmp_path / "small_table.pdf"
    F.small_text_table_paper(str(path))
    region = _region(path, "Table 3")
    assert region["page"] == 2
    assert _holds(region, _center(path, 2, "1. demand for")) and _holds(region, _center(path, 2, "40. demand for"))
