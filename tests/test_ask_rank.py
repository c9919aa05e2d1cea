"""`ask`'s learned sentence ranker (ask_rank.py, weights in ask_weights.py, fitted by bench/ask_learn.py): the
features read each sentence against the question's other sentences, the shipped weights name known features,
the learned score orders the evidence, and the listwise fit learns a separating column deterministically."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

from papershelf import ask as A
from papershelf import ask_rank as R
from papershelf import ask_weights as W
from papershelf.units import Unit

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

import ask_learn as L


def _cands() -> tuple[list[A.Candidate], list[tuple[Unit, float]]]:
    text = ("This paper studies coral reefs across the Pacific. Recovery took four to six years after bleaching. "
            "The reefs were surveyed by divers every spring.")
    other = "Coral reefs in the Atlantic were also studied by others. Their recovery was not measured at all."
    u1, u2 = Unit("u1", "p1", "body", 0, text, page_start=1, page_end=1), Unit("u2", "p2", "body", 0, other)
    cands = A.candidates([(u1, 0.9), (u2, 0.4)])
    for c, cos in zip(cands, (0.6, 0.5, 0.3, 0.55, 0.4)):
        c.cosine = c.raw = cos
    A.lexical_scores("How many years did recovery take after bleaching?", cands)
    A.answer_type("How many years did recovery take after bleaching?", cands)
    return cands, [(u1, 0.9), (u2, 0.4)]


def test_features_read_each_sentence_against_the_pool():
    cands, passages = _cands()
    question = "How many years did recovery take after bleaching?"
    x = R.features(question, cands, "p1", **A.rank_inputs(question, cands))
    col = {n: x[:, i] for i, n in enumerate(R.FEATURES)}
    assert x.shape == (5, len(R.FEATURES)) and np.isfinite(x).all()
    assert col["cos_gap"][0] == 0 and col["cos_rank"][0] == 0 and col["cos_gap"][2] < 0
    assert list(col["best_paper"]) == [1, 1, 1, 0, 0] and list(col["first"]) == [1, 0, 0, 1, 0]
    assert col["summary"][0] == 1 and col["number"][1] == 1 and col["typed"][1] == 1 and col["number"][2] == 0
    assert col["unit_margin"][0] > 0 > col["unit_margin"][2]
    assert col["rare"][1] > col["rare"][2]  # "recovery", "bleaching" are the question's specific words


def test_the_learned_score_orders_the_evidence():
    cands, passages = _cands()
    model = {"features": ["number", "summary"], "mean": [0.0, 0.0], "scale": [1.0, 1.0], "coef": [2.0, -1.0]}
    A.learned_rank("How many years did recovery take after bleaching?", cands, passages, model)
    assert [c.learned for c in cands] == [-1.0, 2.0, 0.0, 0.0, 0.0]
    assert "four to six years" in A.select(cands, 3)[0].unit.text[A.select(cands, 3)[0].start:]
    A.learned_rank("q", cands, passages, None)  # no model: the scores stay
    assert cands[1].score == 2.0


def test_the_shipped_weights_name_known_features():
    if W.RANKER is not None:
        assert set(W.RANKER["features"]) <= set(R.FEATURES)
        assert all(len(W.RANKER[k]) == len(W.RANKER["features"]) for k in ("mean", "scale", "coef"))
    cands, passages = _cands()
    assert set(W.REFUSAL["features"]) <= set(A.refusal_features("How many years?", cands, passages))


def test_the_listwise_fit_learns_the_separating_column_deterministically():
    rng = np.random.default_rng(0)
    xs, ys = [], []
    for _ in range(30):
        x = rng.normal(size=(12, len(R.FEATURES)))
        y = np.zeros(12)
        y[int(np.argmax(x[:, 3]))] = 1.0
        xs.append(x)
        ys.append(y)
    a, b = L.fit_ranker(xs, ys, names=R.FEATURES), L.fit_ranker(xs, ys, names=R.FEATURES)
    assert a == b and int(np.argmax(np.abs(a["coef"]))) == 3 and a["coef"][3] > 0


def test_the_pool_reads_each_sentence_as_its_own_words_would():
    """ask_pool.Pool's postings give what each sentence's own words give, for hand-made candidates too."""
    from papershelf.ask_pool import Pool, sentence_marks, term_set

    cands, _ = _cands()
    odd = A.Candidate(cands[0].unit, 0, 27, 0.9)  # "This paper studies coral reefs": no sentence of the split
    pool = Pool([*cands, odd])
    terms = ["coral", "recoveri", "reef", "bleach", "studi"]
    held = pool.holds(terms)
    for i, c in enumerate([*cands, odd]):
        words = term_set(c.unit.text[c.start:c.end])
        assert list(held[i]) == [t in words for t in terms]
        assert list(pool.marks[i]) == [float(v) for v in sentence_marks(c.unit.text[c.start:c.end])]
    assert list(pool.group) == [0, 0, 0, 1, 1, 0] and list(pool.paper) == [0, 0, 0, 1, 1, 0]
    assert set(pool.odd) == {5}


def test_the_focus_is_what_the_question_asks_for():
    from papershelf.ask_refusal import focus_terms

    assert focus_terms("Which GPU model was used to train the tagger?") == ["gpu", "model"]
    assert focus_terms("What was the BLEU score of the paraphrase system?") == ["bleu", "score"]
    assert focus_terms("How many people answered the survey?") == ["peopl"]
    assert focus_terms("How long does training take?") == []  # asks for a duration, names no thing
    cands, _ = _cands()
    question = "How many years did recovery take after bleaching?"
    x = R.features(question, cands, "p1", **A.rank_inputs(question, cands))
    assert list(x[:, R.FEATURES.index("focus")]) == [0, 1, 0, 0, 0]  # only the second sentence says "years"


def test_a_sentence_stating_the_kind_of_detail_asked_for_is_marked():
    """ask_kinds: "On what hardware...?" is answered by "two RTX A6000 GPUs", which shares no word with it; the
    `kind` column marks that sentence, and the refusal sees a kind question whose best paper states none."""
    from papershelf.ask_kinds import question_kind, sentence_kinds
    from papershelf.ask_refusal import kind_features

    assert question_kind("On what hardware were the models fine-tuned?") == "compute"
    assert question_kind("Which deep learning framework was it implemented in?") == "software"
    assert question_kind("Which grant funded the work?") == "funding"
    assert question_kind("How many years did recovery take?") is None
    assert sentence_kinds("The models are trained on two RTX A6000 GPUs.")[0]
    assert not any(sentence_kinds("The reefs were surveyed by divers every spring."))
    text = "We fine-tune the summarizers for six epochs. Training ran on two RTX A6000 GPUs with 48 GB each."
    u1, u2 = Unit("u1", "p1", "body", 0, text), Unit("u2", "p2", "body", 0, "The lawsuits are long documents.")
    cands = A.candidates([(u1, 0.9), (u2, 0.5)])
    question = "On what hardware were the summarizers fine-tuned?"
    x = R.features(question, cands, "p1", **A.rank_inputs(question, cands))
    assert list(x[:, R.FEATURES.index("kind")]) == [0, 1, 0]
    pool = A.Pool(cands)
    assert kind_features(question, pool, np.array([1, 0, 2]), "p1") == \
        {"kind_miss": 0.0, "kind_best_miss": 0.0, "kind_paper_miss": 0.0}
    assert kind_features(question, pool, np.array([2, 0, 1]), "p2")["kind_paper_miss"] == 1.0
    assert kind_features("How long are the lawsuits?", pool, np.array([2, 0, 1]), "p2")["kind_miss"] == 0.0


def test_a_quantity_with_its_unit_or_what_it_counts_is_marked():
    """ask_pool._MEASURE: a detail states a quantity with what it measures or counts (`measure` column); a bare
    number, a year, or a figure's, table's or reference's number does not."""
    from papershelf.ask_pool import MARKS, sentence_marks

    m = MARKS.index("measure")
    for s in ("Training took 12 hours on one machine.", "The error fell to 3.2% on the held-out set.",
              "We recruited 1,200 participants online.", "Each image is 481 px wide and weighs 4 GB in total.",
              "Doses of 5 mg were given twice."):
        assert sentence_marks(s)[m], s
    for s in ("Results are shown in Table 3 and Figure 2.", "As reported in 2019 by others [12].",
              "This paper studies coral reefs across the Pacific."):
        assert not sentence_marks(s)[m], s
    text = "This paper studies coral reefs across the Pacific. Each reef was surveyed over 6 days by two divers."
    cands = A.candidates([(Unit("u1", "p1", "body", 0, text), 0.9)])
    question = "How long did the survey of a reef take?"
    x = R.features(question, cands, "p1", **A.rank_inputs(question, cands))
    assert list(x[:, R.FEATURES.index("measure")]) == [0, 1]
