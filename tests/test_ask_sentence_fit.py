"""The SciFact-trained sentence scorer experiment (bench/ask_sentence_fit.py, docs/measurements/ask5.md):
rationale indices land on papershelf's own sentences, the features read the pool, and the listwise fit
learns a signal that separates the rationale (deterministically)."""

import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

import ask_sentence_fit as F
import ask_sentence_model as S


def _scifact(folder: Path) -> None:
    abstract = (
        "Sleep loss is common in students. We measured sleep in 120 students over four weeks. "
        "Students who slept less than six hours scored 12% lower on exams. Sleep matters."
    )
    other = "Coffee is popular. Many adults drink coffee daily. The effect of coffee on memory is debated here."
    (folder / "corpus.jsonl").write_text(
        json.dumps({"_id": "1", "title": "t", "text": abstract})
        + "\n"
        + json.dumps({"_id": "2", "title": "u", "text": other})
        + "\n"
    )
    queries = [
        {"_id": "7", "text": "Short sleep lowers exam scores.", "metadata": {"1": [{"sentences": [2]}]}},
        {"_id": "8", "text": "No rationale here.", "metadata": {}},
        {"_id": "9", "text": "Out of range.", "metadata": {"1": [{"sentences": [9]}]}},
    ]
    (folder / "queries-train.jsonl").write_text("".join(json.dumps(q) + "\n" for q in queries))


def test_rationale_indices_name_papershelfs_sentences(tmp_path):
    _scifact(tmp_path)
    items = F.load(tmp_path)
    assert len(items) == 1  # no rationale, or an index past the last sentence: left out
    it = items[0]
    assert it["sentences"][it["rationale"][0]].startswith("Students who slept less than six hours")


def test_features_read_the_pool():
    sentences = ["The GPU was an A100 with 40 GB.", "We trained the model for long.", "Results are good here."]
    f = S.features("Which GPU trained the model?", sentences, np.array([0.2, 0.5, 0.1]))
    assert f["cos_gap"].tolist() == [-0.3, 0.0, -0.4] or np.allclose(f["cos_gap"], [-0.3, 0.0, -0.4])
    assert f["cos_rank"][1] == 0.0 < f["cos_rank"][0] < f["cos_rank"][2]
    assert f["rare"][0] > f["rare"][2]  # holds "GPU", the word no other sentence holds
    assert f["number"].tolist() == [1.0, 0.0, 0.0]
    assert f["typed"].tolist() == [0.0, 0.0, 0.0]  # "which GPU" asks for no quantity


def test_listwise_fit_learns_the_separating_signal_deterministically():
    rng = np.random.default_rng(0)
    pools = []
    for k in range(30):
        x = rng.normal(size=(8, 2))
        y = np.zeros(8)
        y[k % 8] = 1.0
        x[k % 8, 0] += 3.0  # column 0 marks the rationale, column 1 is noise
        pools.append((x, y, str(k)))
    w, mean, scale = F.fit(pools, steps=100)
    again = F.fit(pools, steps=100)
    assert np.array_equal(w, again[0])
    assert w[0] > 3 * abs(w[1])
    assert F.top1(pools, w, mean, scale) > 0.8  # chance: 1 in 8
