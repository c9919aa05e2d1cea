"""Captions recognised as captions on layouts that hid them: an outline bookmarking the figures and
tables (its "Fig 1" entry made the caption's label a section heading), and captions set side by side
under two figures (the right one was read as the left one's continuation, or pdfium ran the two
into one line when they share baselines); and paragraphs that open by citing a panel ("Figure 1 (b)
shows …"), which were taken for captions.  Fixtures in
tests/caption_fixtures.py; positions from pdfium's own text search."""

import pytest

from papershelf.captions import parse_caption
from papershelf.ingest.pdf import read_pdf
from papershelf.units import build_units

from . import caption_fixtures as F
from .object_fixtures import object_units
from .test_pdf_object_layouts import _center, _check, _holds


@pytest.mark.parametrize("sections", [False, True, None])
def test_an_outline_bookmarking_figures_and_tables_leaves_their_captions_captions(tmp_path, sections):
    path = tmp_path / "outlined.pdf"
    F.outlined_objects_paper(str(path), sections)
    blocks = read_pdf(path.read_bytes()).blocks
    heads = [b.text for b in blocks if b.kind == "heading"]
    assert not any(h.startswith(("Fig", "Table", "Reference ")) for h in heads), heads
    # the sections are headings whether the outline lists them or (bookmarking only objects, with or
    # without reference entries, which name no printed paragraph) the layout finds them
    assert "1 Introduction" in heads and "2 Results" in heads and "3 Discussion" in heads, heads
    objs = object_units(path)
    assert objs["Figure 1"].text.startswith("Fraction of colonies bleached")
    _check(path, objs.get("Figure 1"), 1, ["fraction bleached"], ["Shallow reefs bleached first"])
    _check(path, objs.get("Table 1"), 1, ["Lizard Island", "37%"], ["Recovery was slowest"])


@pytest.mark.parametrize("one_baseline", [False, True])
def test_captions_side_by_side_are_two_captions_each_under_its_own_figure(tmp_path, one_baseline):
    path = tmp_path / "side.pdf"
    F.side_by_side_paper(str(path), one_baseline)
    objs = object_units(path)
    left, right = objs.get("Figure 1"), objs.get("Figure 2")
    assert left is not None and right is not None, sorted(objs)
    assert "regained" not in left.text and "colour within" not in left.text, left.text
    assert left.text.rstrip().endswith("the three sites and during the survey of 2021."), left.text
    assert right.text.rstrip().endswith("colour within eight weeks of the peak temperature at each site."), right.text
    _check(path, left, 1, ["bleached share"], ["recovered share", "Deep colonies kept"])
    _check(path, right, 1, ["recovered share"], ["bleached share", "Deep colonies kept"])
    assert not _holds(left.region, _center(path, 1, "Fig. 2."))


def test_a_paragraph_opening_by_citing_a_panel_is_no_caption(tmp_path):
    path = tmp_path / "panels.pdf"
    F.panel_sentence_paper(str(path))
    units = build_units(read_pdf(path.read_bytes()), "p")
    objects = [u for u in units if u.kind == "object"]
    assert [u.object_label for u in objects] == ["Figure 1"]
    assert objects[0].text.startswith("Fraction of colonies bleached")
    body = " ".join(u.text for u in units if u.kind != "object")
    assert "Figure 1 (b) shows the deep sites" in body and "Figure 1.b shows the same sites" in body


@pytest.mark.parametrize("text,label", [
    ("Figure 12 (b) shows a bug that could lead to data loss.", None), ("Fig. 5 (lines 20–22) uses join", None),
    ("Figure 1.b shows an Adya-style graph", None), ("Figure 1 (A) Schematic of the pathway", "Figure 1"),
    ("Fig. 3 (a) Spectra of the samples", "Figure 3"), ("Table 2 (continued)", "Table 2"),
    ("FIG. 1. (a) The map of the sites", "Figure 1"),
])
def test_a_panel_cited_in_a_sentence_is_told_from_a_caption_naming_its_panels(text, label):
    cap = parse_caption(text)
    assert (cap.label if cap else None) == label
