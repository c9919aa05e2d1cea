"""Turning text into body, object and chunk units."""

import pytest

from papershelf.ingest.captions import cited_labels, parse_caption
from papershelf.ingest.markdown import parse_markdown
from papershelf.units import BODY_TOKEN_CAP, build_units, estimate_tokens, make_manifest

from .conftest import paper_text


@pytest.mark.parametrize("line,kind,label,text", [
    ("Figure 3. Western blot of STAT3.", "figure", "Figure 3", "Western blot of STAT3."),
    ("Fig. 3: Western blot.", "figure", "Figure 3", "Western blot."),
    ("FIGURE 3 Distribution of sites", "figure", "Figure 3", "Distribution of sites"),
    ("Table 2 | Baseline characteristics", "table", "Table 2", "Baseline characteristics"),
    ("Table IV: Ablation results", "table", "Table IV", "Ablation results"),
    ("TABLE 1. Summary", "table", "Table 1", "Summary"),
    ("Supplementary Figure S1: Gating strategy", "figure", "Supplementary Figure S1", "Gating strategy"),
    ("Fig. 2b — panel detail", "figure", "Figure 2", "panel detail"),
    ("**Figure 5.** Bold caption from a converter", "figure", "Figure 5", "Bold caption from a converter"),
    ("Table 3.", "table", "Table 3", ""),
    # chapter-numbered (theses, books, IACR): the number with its dot is one label
    ("Figure 2.1. The network in one round.", "figure", "Figure 2.1", "The network in one round."),
    ("Table 3.12: Running times", "table", "Table 3.12", "Running times"),
    ("FIGURE 4.2 Accuracy per class", "figure", "Figure 4.2", "Accuracy per class"),
    ("Fig. 2.1a. The first panel", "figure", "Figure 2.1", "The first panel"),
    ("Figure 2. 1,000 runs of the solver", "figure", "Figure 2", "1,000 runs of the solver"),
    ("Figure 2.The network", "figure", "Figure 2", "The network"),
])
def test_caption_forms(line, kind, label, text):
    cap = parse_caption(line)
    assert cap is not None, line
    assert (cap.object_kind, cap.label, cap.text) == (kind, label, text)


@pytest.mark.parametrize("line", [
    "Table 1 shows the overall frequency of the labels.",
    "Figure 7 illustrates the distribution.",
    "In Figure 2 we show the results.",
    "Tables are ubiquitous in documents.",
    "TableFormer uses ResNet-18.",
    "Figures and tables were redrawn.",
    "Table 3.2 shows the running times.",
    "Figure 2.1 illustrates the protocol.",
])
def test_sentences_mentioning_figures_are_not_captions(line):
    assert parse_caption(line) is None


def test_cited_labels_handles_panels_lists_and_ranges():
    assert cited_labels("as shown in Fig. 3b and Table 2") == {"Figure 3", "Table 2"}
    assert cited_labels("see Figures 2-4") == {"Figure 2", "Figure 3", "Figure 4"}
    assert cited_labels("(Figs. 1 and 5)") == {"Figure 1", "Figure 5"}
    assert cited_labels("Supplementary Figure S2 has more") == {"Supplementary Figure S2"}
    assert cited_labels("as Figures 2.1–2.3 and Table 4.2 show. See Figure 3.") == {
        "Figure 2.1", "Figure 2.2", "Figure 2.3", "Table 4.2", "Figure 3"}


def _units(text, pid="p"):
    return build_units(parse_markdown(text), pid)


def test_body_units_follow_sections_and_exclude_references():
    units = _units(paper_text())
    body = [u for u in units if u.kind == "body"]
    assert [u.section_path for u in body] == ["Introduction", "Results"]
    assert all("must not be indexed" not in u.text for u in units)
    assert all(u.id == f"p:body:{n}" for n, u in enumerate(body))


def test_object_units_carry_label_caption_citing_sentences_and_cells():
    objs = {u.object_label: u for u in _units(paper_text()) if u.kind == "object"}
    assert set(objs) == {"Figure 1", "Table 1"}
    fig = objs["Figure 1"]
    assert fig.id == "p:obj:figure:1"
    assert fig.object_kind == "figure" and fig.caption_text == "Western blot of the signal."
    assert "As Fig. 1b shows, the signal persists." in fig.nearby_body_text
    assert fig.section_path == "Results"
    table = objs["Table 1"]
    assert table.object_kind == "table" and "alpha | 2" in table.table_text
    assert "summarised in Table 1" in table.nearby_body_text


def test_nested_sections_and_numbered_headings():
    text = "# Title\n\n## 5 Experiments\n\nIntro.\n\n## 5.1 Setup\n\nSetup text.\n\n### Details\n\nMore.\n"
    doc = parse_markdown(text)
    assert doc.title == "Title"
    paths = [u.section_path for u in build_units(doc, "x") if u.kind == "body"]
    assert paths == ["5 Experiments", "5 Experiments > 5.1 Setup", "5 Experiments > 5.1 Setup > Details"]


def test_long_sections_split_at_paragraph_boundaries_with_parts():
    para = " ".join(["word"] * 300)
    text = "# Methods\n\n" + "\n\n".join(f"Paragraph {i}. {para}" for i in range(8))
    body = [u for u in _units(text) if u.kind == "body"]
    assert len(body) > 1
    assert [u.part for u in body] == list(range(len(body)))
    assert all(u.token_estimate <= BODY_TOKEN_CAP + 50 for u in body)
    assert all(u.text.startswith("Paragraph") for u in body)  # split between paragraphs
    one_giant = "# M\n\n" + " ".join(["token"] * 5000)
    assert all(u.token_estimate <= BODY_TOKEN_CAP + 50 for u in _units(one_giant) if u.kind == "body")


def test_page_markers_and_form_feeds_give_pages():
    text = "# Results\n\n<!-- page 3 -->\n\nOn page three.\n\n<!-- page 4 -->\n\nOn page four.\n\nFigure 1: A figure.\n"
    units = _units(text)
    body = [u for u in units if u.kind == "body"][0]
    assert (body.page_start, body.page_end) == (3, 4)
    assert [u.page_start for u in units if u.kind == "object"] == [4]
    ff = "# Methods\n\nPage one text.\f\n# Results\n\nPage two text.\n"
    assert [(u.section_path, u.page_start) for u in _units(ff) if u.kind == "body"] == [("Methods", 1), ("Results", 2)]


def test_text_without_headings_becomes_fulltext_chunks():
    units = _units("Just some notes.\n\nAnother paragraph with Figure 2: a caption-like line.\n")
    kinds = {u.kind for u in units}
    assert kinds == {"chunk"}
    assert units[0].id == "p:chunk:0"


def test_empty_caption_is_stored_but_vetoed():
    units = _units("# R\n\nText.\n\nFigure 3.\n")
    obj = [u for u in units if u.kind == "object"][0]
    assert obj.object_label == "Figure 3"
    assert not obj.indexable and obj.veto_reason == "empty_caption"


def test_duplicate_labels_make_one_unit_and_image_alt_captions_count():
    text = ("# R\n\nTable 2: First part.\n\n| a |\n|---|\n| 1 |\n\nTable 2: (continued)\n\n| b |\n|---|\n| 2 |\n\n"
            "![Figure 4: Map of the sites.](map.png)\n")
    objs = [u for u in _units(text) if u.kind == "object"]
    assert [o.object_label for o in objs] == ["Table 2", "Figure 4"]
    assert objs[0].table_text == "a\n1\nb\n2"
    assert objs[1].caption_text == "Map of the sites."


def test_ids_and_hashes_are_deterministic_and_track_content():
    a = _units(paper_text())
    b = _units(paper_text())
    assert [(u.id, u.content_hash) for u in a] == [(u.id, u.content_hash) for u in b]
    changed = _units(paper_text(fig_caption="Northern blot instead."))
    ha, hc = make_manifest(a).hashes, make_manifest(changed).hashes
    assert ha["object"] != hc["object"] and ha["body"] == hc["body"]
    diff = {u.id for u, v in zip(a, changed) if u.content_hash != v.content_hash}
    assert diff == {"p:obj:figure:1"}


def test_token_estimate():
    assert estimate_tokens("") == 0
    assert estimate_tokens("one two three") == 4


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_LINES = st.sampled_from([
    "# Introduction", "## 2.1 Methods", "### Details", "Plain sentence about cells.", "",
    "Figure 1: A caption.", "Table 2 | Numbers.", "Fig. 3.", "| a | b |", "|---|---|", "| 1 | 2 |",
    "<!-- page 4 -->", "\f", "# References", "Smith J. A cited work. 2001.", "As shown in Figure 1, it works.",
    "![Figure 5: Map.](m.png)", "```", "---", "Title\n=====", "Table IV: Roman.", "Supplementary Figure S2: More.",
])


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(_LINES, st.text(max_size=40)), max_size=40))
def test_any_markdown_gives_unique_deterministic_units(lines):
    text = "\n".join(lines)
    a = build_units(parse_markdown(text), "p")
    b = build_units(parse_markdown(text), "p")
    assert [(u.id, u.content_hash) for u in a] == [(u.id, u.content_hash) for u in b]
    assert len({u.id for u in a}) == len(a)
    for u in a:
        assert u.kind in ("body", "object", "chunk")
        assert u.indexable == (u.veto_reason is None)
        assert u.token_estimate >= 0
        if u.kind == "object":
            assert u.object_label and u.object_kind in ("figure", "table")


def test_a_list_of_figures_names_objects_but_is_not_their_caption():
    """A thesis lists its figures with their pages up front: the unit is the figure where it is printed,
    its page that page (it spanned from the list to the figure, 11-96, before).  A figure only the list
    names (its own caption not read, or every heading after the list missed) keeps the list's entry."""
    text = ("# A Thesis on Pipelines\n\n# List of Figures\n\n"
            "Figure 1: Architecture of the pipeline 84\n\nFigure 2: Path growth 90\n\n"
            "# 1 Introduction\n\nBody text.\n\n# 4 Method\n\nFigure 1: Architecture of the pipeline\n\n"
            "More text about it.\n")
    objects = [u for u in _units(text) if u.kind == "object"]
    assert sorted((u.object_label, u.section_path, u.caption_text) for u in objects) == [
        ("Figure 1", "4 Method", "Architecture of the pipeline"), ("Figure 2", "List of Figures", "Path growth 90")]
