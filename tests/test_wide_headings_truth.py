"""bench/data/wide_headings_dev.json, the hand-read headings of outline-less dev PDFs, is well formed:
dev-half PDFs only, each heading a printed text with a level, a page and a run-in flag in reading
order; and bench/wide_headings.py grades run-in and optional entries as optional."""

import json
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "bench"
sys.path.insert(0, str(BENCH))

TRUTH = BENCH / "data" / "wide_headings_dev.json"
SPLIT = BENCH / "data" / "wide_split.json"


def _papers() -> dict:
    return {k: v for k, v in json.loads(TRUTH.read_text()).items() if not k.startswith("_")}


def test_truth_covers_dev_half_pdfs_only_and_names_their_publisher():
    split = json.loads(SPLIT.read_text())
    assert json.loads(TRUTH.read_text())["_readme"].strip()
    papers = _papers()
    assert len(papers) >= 15
    for name, paper in papers.items():
        assert name.endswith(".pdf") and split[name]["half"] == "dev", name
        assert paper["publisher"] == split[name]["family"], name


def test_each_heading_is_printed_text_with_level_page_and_runin_in_reading_order():
    for name, paper in _papers().items():
        heads = paper["headings"]
        assert sum(not h["runin"] and not h.get("optional") for h in heads) >= 2, name
        assert set().union(*heads) <= {"text", "level", "page", "runin", "optional"}, name
        for h in heads:
            assert isinstance(h["text"], str) and h["text"] == h["text"].strip() and h["text"], (name, h)
            assert "\n" not in h["text"] and len(h["text"]) < 200, (name, h)
            assert h["level"] in (1, 2, 3, 4) and isinstance(h["page"], int) and h["page"] >= 1, (name, h)
            assert isinstance(h["runin"], bool) and h.get("optional", False) in (True, False), (name, h)
        pages = [h["page"] for h in heads]
        assert pages == sorted(pages), f"{name}: headings out of page order"


def test_runin_optional_and_deep_entries_are_optional_when_graded():
    from wide_headings import truth_entries

    heads = [{"text": "2.1 Methods", "level": 2, "page": 1, "runin": False},
             {"text": "Cell culture.", "level": 3, "page": 1, "runin": True},
             {"text": "Keywords", "level": 1, "page": 1, "runin": False, "optional": True},
             {"text": "Zipf Distributions", "level": 3, "page": 2, "runin": False}]
    entries = truth_entries(heads)
    assert [(e["number"], e["title"], e["optional"]) for e in entries] == [
        ("2.1", "Methods", False), ("", "Cell culture.", True), ("", "Keywords", True),
        ("", "Zipf Distributions", True)]
    assert [e["optional"] for e in truth_entries(heads, deep=True)] == [False, True, True, False]
