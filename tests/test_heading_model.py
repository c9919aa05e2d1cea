"""The learned heading decision (issue 38, point 4): its shipped weights match the features the reader
computes and the training script's version, fitting is deterministic, and the reader with the model
gives the same headings every time."""

import json
import sys
from pathlib import Path

import numpy as np
import pytest

from papershelf.ingest.pdf.sections import heading_model
from papershelf.ingest.pdf.sections.heading_features import NAMES

BENCH = Path(__file__).resolve().parent.parent / "bench"
sys.path.insert(0, str(BENCH))


def test_shipped_model_fits_the_reader_and_the_training_script():
    from train_headings import VERSION

    raw = json.loads(heading_model.WEIGHTS.read_text())
    assert raw["version"] == VERSION
    assert raw["features"] == list(NAMES)
    assert raw["kind"] in ("trees", "logistic")
    for nodes in raw.get("trees", []):
        for node in nodes:
            assert len(node) == 1 or (0 <= node[0] < len(NAMES) and node[2] < len(nodes) and node[3] < len(nodes))
    assert 0.0 <= raw["veto"] <= 0.5 <= raw["admit"]
    assert heading_model.load() == raw


def test_weights_for_other_features_are_not_used(tmp_path):
    """A weights file written for another feature list (an older reader's) is ignored, not misread."""
    path = tmp_path / "old.json"
    path.write_text(json.dumps({"version": 0, "features": ["size_rel"], "weights": [1.0], "adopted": True}))
    assert heading_model.load(str(path)) == {}


@pytest.mark.parametrize("kind", ["trees", "logistic"])
def test_fitting_is_deterministic_and_learns_the_cue(kind):
    from boost_headings import fit_logistic, fit_trees, predict

    fit = fit_trees if kind == "trees" else fit_logistic
    rng = np.random.default_rng(7)
    x = rng.normal(size=(400, 4))
    y = (x[:, 0] + 0.5 * x[:, 2] > 0).astype(float)
    a, b = fit(x, y, np.ones(len(y))), fit(x.copy(), y.copy(), np.ones(len(y)))
    assert json.dumps(a) == json.dumps(b)
    assert ((predict(a, x.tolist()) > 0.5) == (y > 0.5)).mean() > 0.9
    shuffled = fit(x, rng.permutation(y), np.ones(len(y)))
    assert ((predict(shuffled, x.tolist()) > 0.5) == (y > 0.5)).mean() < 0.8  # nothing to learn: it does not


@pytest.mark.parametrize("kind", ["trees", "logistic"])
def test_probability_in_the_reader_matches_the_training_script(kind):
    from boost_headings import fit_logistic, fit_trees, predict

    rng = np.random.default_rng(3)
    x = rng.normal(size=(200, len(NAMES)))
    y = (x[:, 5] - x[:, 9] > 0).astype(float)
    model = (fit_trees if kind == "trees" else fit_logistic)(x, y, np.ones(len(y)))
    probe = rng.normal(size=(20, len(NAMES))).tolist()
    assert [heading_model.probability(model, p) for p in probe] == pytest.approx(predict(model, probe).tolist())


def test_labels_keep_the_aligners_doubts_out():
    from train_headings import label

    truth = [{"level": 1, "number": "2", "title": "Methods"}, {"level": 3, "number": "2.1.1", "title": "Mice",
                                                               "optional": True}]
    assert label({"text": "2 Methods", "rule": 1}, truth) == 1
    assert label({"text": "2.1.1 Mice", "rule": 3}, truth) is None
    assert label({"text": "Received: 3 May", "rule": 2}, truth) == 0
    assert label({"text": "2.1.1.1 Cages", "rule": 4}, truth) is None  # deeper than the truth lists


@pytest.mark.parametrize("adopted", [False, True])
def test_reader_is_deterministic_with_and_without_the_model(tmp_path, monkeypatch, adopted):
    """Whether or not the shipped model is adopted, a generated paper's sections are found, the
    same every time (the model's verdicts are plain arithmetic on the cues: no randomness)."""
    from gen_headings import make

    from papershelf.ingest.pdf import read_pdf

    monkeypatch.setitem(heading_model.load(), "adopted", adopted)
    path = tmp_path / "gen.pdf"
    make(4, str(path))
    runs = [[(b.text, b.level) for b in read_pdf(path.read_bytes()).blocks if b.kind == "heading"] for _ in range(2)]
    assert runs[0] == runs[1]
    found = {t.split(" ", 1)[-1].lower() for t, _ in runs[0]}
    assert {"introduction", "results", "discussion"} <= found
