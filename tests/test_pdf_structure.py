"""A PDF's structure read as its reader reads it: generated papers, one rule each; and the
real papers of ../shared/data against the hand-made heading truth set."""

import json
from pathlib import Path

import pytest

from papershelf.ingest.pdf import read_pdf
from papershelf.units import build_units

from .conftest import ROOT, shared
from .pdf_fixtures import caps_paper, face_paper, roman_paper, runin_paper, structured_paper, wrapped_heading_paper


@pytest.fixture(scope="module")
def structured(tmp_path_factory):
    path = tmp_path_factory.mktemp("pdf") / "structured.pdf"
    structured_paper(str(path))
    return read_pdf(path.read_bytes())


def _heads(doc):
    return [(b.text, b.level) for b in doc.blocks if b.kind == "heading"]


def test_numbered_list_items_stay_in_their_section(structured):
    heads = _heads(structured)
    assert not any(t.startswith(("1. ", "2. ", "3. ", "4. ")) for t, _ in heads)
    numbered = [(t, lvl) for t, lvl in heads if t[0].isdigit()]
    assert numbered == [("1 Introduction", 1), ("2 Design", 1), ("3 Implementation", 1),
                        ("3.1 Execution Overview", 2), ("3.2 Master Data Structures", 2),
                        ("4 Performance", 1), ("5 Conclusions", 1)]
    paths = {u.section_path for u in build_units(structured, "p") if "splits the input" in u.text}
    assert paths == {"3 Implementation > 3.1 Execution Overview"}


def test_paragraph_crossing_columns_stays_one(structured):
    texts = [b.text for b in structured.blocks if b.kind == "text"]
    joined = [t for t in texts if "cluster so that the reduce workers can read them" in t]
    assert len(joined) == 1
    assert not any(t.startswith("the reduce workers") for t in texts)


def test_chart_labels_are_not_headings(structured):
    heads = [t for t, _ in _heads(structured)]
    assert "Input (MB/s)" not in heads and "Seconds" not in heads
    labels = {u.object_label for u in build_units(structured, "p") if u.kind == "object"}
    assert labels == {"Figure 1"}


def test_run_in_heading_is_offered_and_kept_in_the_text(structured):
    blocks = structured.blocks
    i = next(i for i, b in enumerate(blocks) if b.kind == "heading" and b.text == "Measurement")
    assert blocks[i].level == 3  # below 3.2
    assert blocks[i + 1].kind == "text" and blocks[i + 1].text.startswith("Measurement. We count finished tasks")


def test_superscript_is_written_as_a_power(structured):
    text = " ".join(b.text for b in structured.blocks)
    assert "about 10^10 records" in text
    assert "10 jobs per second" in text  # ordinary numbers untouched


def test_roman_and_letter_numbering(tmp_path):
    path = tmp_path / "ieee.pdf"
    roman_paper(str(path))
    heads = _heads(read_pdf(path.read_bytes()))
    assert heads == [("Abstract", 1), ("I. INTRODUCTION", 1), ("II. SENSOR DESIGN", 1), ("A. Current Reference", 2),
                     ("B. Readout", 2), ("III. RESULTS", 1), ("References", 1)]


def test_real_papers_headings_against_the_truth_set():
    """Every truth-set paper: headings found with good precision and recall (the bench reports the
    exact figures; this guards against a rule that breaks one kind of paper)."""
    import sys

    sys.path.insert(0, str(ROOT / "bench"))
    from pdf_headings_score import score_paper, sum_scores

    pdfs = shared("pdfs")
    truth = {k: v for k, v in json.loads((ROOT / "bench" / "data" / "pdf_headings.json").read_text()).items()
             if not k.startswith("_")}
    scores = [score_paper(read_pdf(Path(pdfs, name).read_bytes()).blocks, entries) for name, entries in truth.items()]
    total = sum_scores(scores)
    assert total["precision"] >= 0.9 and total["recall"] >= 0.8, total


def test_headings_in_another_face_than_the_body(tmp_path):
    """Neither bold nor much larger: the face alone sets the headings apart, even right below another
    heading or in small back matter; code and a screenshot's tiny text are no headings."""
    path = tmp_path / "face.pdf"
    face_paper(str(path))
    heads = _heads(read_pdf(path.read_bytes()))
    assert heads == [("Background", 1), ("Methods", 1), ("Study setting", 2), ("Results", 1),
                     ("Patient flow and care", 2), ("Acknowledgments", 1), ("References", 1)]


def test_heading_wrapped_onto_two_lines_stays_whole(tmp_path):
    path = tmp_path / "wrapped.pdf"
    wrapped_heading_paper(str(path))
    doc = read_pdf(path.read_bytes())
    assert _heads(doc) == [("1 Introduction", 1),
                           ("2 Unsupervised generative automated scoring with word alignment", 1),
                           ("3 Supervised Discriminative Scoring With Log-Linear Models", 1), ("APPENDIX", 1),
                           ("A. RELATED WORK", 1)]
    assert not any(b.text.startswith(("scoring with", "With Log")) for b in doc.blocks)


def test_run_in_headings_and_lead_ins_that_are_not(tmp_path):
    path = tmp_path / "runin.pdf"
    runin_paper(str(path))
    doc = read_pdf(path.read_bytes())
    assert _heads(doc) == [("Abstract", 1), ("1. Introduction", 1), ("2. Measures", 1), ("2.1. Degree", 2),
                           ("2.2. Spread of influence by seeds and their neighbours in the graph", 2),
                           ("Acknowledgements", 1), ("References", 1)]
    assert any(b.kind == "text" and b.text.startswith("Abstract. We rank the nodes") for b in doc.blocks)


def test_capitals_rank_above_mixed_case_in_one_font(tmp_path):
    path = tmp_path / "caps.pdf"
    caps_paper(str(path))
    assert _heads(read_pdf(path.read_bytes())) == [("INTRODUCTION", 1), ("MATERIALS AND METHODS", 1),
                                                   ("Modelling and synthesis", 2), ("Inhibition assays", 2),
                                                   ("RESULTS", 1)]
