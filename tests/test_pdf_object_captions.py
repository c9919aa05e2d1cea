"""Captions recognised as captions on layouts that hid them: an outline bookmarking the figures and
tables (its "Fig 1" entry made the caption's label a section heading), and captions set side by side
under two figures (the right one was read as the left one's continuation, or pdfium ran the two
into one line when they share baselines).  Fixtures in
tests/caption_fixtures.py; positions from pdfium's own text search."""

import pytest

from papershelf.ingest.pdf import read_pdf

from . import caption_fixtures as F
from .test_pdf_object_layouts import _center, _check, _holds, _objects


@pytest.mark.parametrize("sections", [False, True])
def test_an_outline_bookmarking_figures_and_tables_leaves_their_captions_captions(tmp_path, sections):
    path = tmp_path / "outlined.pdf"
    F.outlined_objects_paper(str(path), sections)
    blocks = read_pdf(path.read_bytes()).blocks
    heads = [b.text for b in blocks if b.kind == "heading"]
    assert not any(h.startswith(("Fig", "Table", "Reference ")) for h in heads), heads
    # the sections are headings whether the outline lists them or (bookmarking only objects and
    # reference entries, which name no printed paragraph) the layout finds them
    assert "1 Introduction" in heads and "2 Results" in heads and "3 Discussion" in heads, heads
    objs = _objects(path)
    assert objs["Figure 1"].text.startswith("Fraction of colonies bleached")
    _check(path, objs.get("Figure 1"), 1, ["fraction bleached"], ["Shallow reefs bleached first"])
    _check(path, objs.get("Table 1"), 1, ["Lizard Island", "37%"], ["Recovery was slowest"])


@pytest.mark.parametrize("one_baseline", [False, True])
def test_captions_side_by_side_are_two_captions_each_under_its_own_figure(tmp_path, one_baseline):
    path = tmp_path / "side.pdf"
    F.side_by_side_paper(str(path), one_baseline)
    objs = _objects(path)
    left, right = objs.get("Figure 1"), objs.get("Figure 2")
    assert left is not None and right is not None, sorted(objs)
    assert "regained" not in left.text and "colour within" not in left.text, left.text
    assert left.text.rstrip().endswith("the three sites and during the survey of 2021."), left.text
    assert right.text.rstrip().endswith("colour within eight weeks of the peak temperature at each site."), right.text
    _check(path, left, 1, ["bleached share"], ["recovered share", "Deep colonies kept"])
    _check(path, right, 1, ["recovered share"], ["bleached share", "Deep colonies kept"])
    assert not _holds(left.region, _center(path, 1, "Fig. 2."))
