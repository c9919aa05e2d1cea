"""bench/wide_text.py's reference-count truth: hand counts per half (the test half's file only when it
exists), a JATS twin over a hand count over the numbered-label guess."""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import wide_text  # noqa: E402


def test_each_half_reads_its_own_hand_counts_and_the_test_file_only_when_present(tmp_path, monkeypatch):
    dev, test = tmp_path / "dev.json", tmp_path / "test.json"
    dev.write_text(json.dumps({"_about": "x", "a.pdf": 12, "none.pdf": 0}))
    monkeypatch.setattr(wide_text, "REFCOUNTS", {"dev": dev, "test": test})
    assert wide_text.hand_refcounts("dev") == {"a.pdf": 12, "none.pdf": 0}
    assert wide_text.hand_refcounts("test") == {}
    test.write_text(json.dumps({"b.pdf": 30}))
    assert wide_text.hand_refcounts("test") == {"b.pdf": 30}
    assert wide_text.hand_refcounts("all") == {"a.pdf": 12, "none.pdf": 0, "b.pdf": 30}


def test_a_twin_outranks_a_hand_count_which_outranks_the_numbered_guess():
    assert wide_text.ref_truth({"twin": {"refs": 40}, "numbered": 3}, 41) == 40
    assert wide_text.ref_truth({"numbered": 127}, 4) == 4
    assert wide_text.ref_truth({"numbered": None}, 0) == 0  # a paper with no list is scored too
    assert wide_text.ref_truth({"numbered": 22}, None) == 22
    assert wide_text.ref_truth({}, None) is None


def test_the_dev_counts_cover_only_dev_papers():
    split = json.loads((ROOT / "bench" / "data" / "wide_split.json").read_text())
    counts = wide_text.hand_refcounts("dev")
    assert len(counts) >= 30 and all(split[name]["half"] == "dev" for name in counts)
