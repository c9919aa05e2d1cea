"""bench/wide_text.py grades each half's printed authors on that half's own hand-read truth: the dev
file for the dev half, the test file (written apart, possibly absent) for the test half."""

import json
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "bench"
sys.path.insert(0, str(BENCH))


def _truth(path: Path, rows: dict) -> Path:
    path.write_text(json.dumps({"_about": "who read what", **rows}))
    return path


def test_each_half_is_graded_on_its_own_file_and_the_test_half_on_twins_alone_without_one(tmp_path):
    from wide_text import hand_truth

    dev = _truth(tmp_path / "dev.json", {"a.pdf": ["Ann Lee"]})
    test = tmp_path / "test.json"
    assert hand_truth("dev", dev, test) == {"a.pdf": ["Ann Lee"]}
    assert hand_truth("test", dev, test) == {}  # no test file yet: twins only, never the dev file
    _truth(test, {"b.pdf": ["Bo Ek", "Cy Fu"], "c.pdf": []})
    assert hand_truth("test", dev, test) == {"b.pdf": ["Bo Ek", "Cy Fu"], "c.pdf": []}
    assert hand_truth("all", dev, test) == {"a.pdf": ["Ann Lee"], "b.pdf": ["Bo Ek", "Cy Fu"], "c.pdf": []}


def test_the_shipped_dev_truth_covers_only_dev_half_pdfs():
    from wide_text import HAND, SPLIT, hand_truth

    split = json.loads(SPLIT.read_text())
    dev = hand_truth("dev")
    assert "_about" in json.loads(HAND.read_text())
    assert dev and all(split[name]["half"] == "dev" for name in dev)
    for names in dev.values():
        assert isinstance(names, list) and all(isinstance(n, str) and n.strip() for n in names)
