"""`ask`'s refusal: `no_confident_answer` is a logistic regression (`ask_weights.REFUSAL`) over a few features of
one question's scored sentences (`refusal_features`), fitted on the dev half of bench/data/ask_questions.jsonl
(answerable questions against unanswerable ones, near misses included) by bench/ask_learn.py; `probability` is
its probability that the evidence answers.

The features are read from the question's pool (ask_pool.Pool: the candidates as arrays), the best sentence
being the first by score: how well it answers, how it stands among the others, whether it and its paper hold the
question's specific (rare) words, whether it is the kind of sentence the question asks for.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

import numpy as np

from .ask_kinds import question_kind
from .ask_pool import Pool, asks_quantity, content_terms, covered, term_set
from .ask_weights import REFUSAL
from .search.features import stem
from .search.query import STOPWORDS
from .units import Unit

_WORD = re.compile(r"\w+")
# Words of the question's form, not its content: no evidence need hold them.
_ASKING = frozenset("how what which who whom whose when where why many much did does do could would can may might "
                    "should was were is are be been being has have had long well far often kind value use used using "
                    "make made get got take taken given".split())


_WH = frozenset("which what how many much".split())
_SKIP = frozenset("was were is are the a an did does do".split())
_AFTER = frozenset("under over per during after before between about across within without".split())


def focus_terms(question: str) -> list[str]:
    """What the question asks for, stemmed: the words right after its "which / what / how many / how much"
    ("Which GPU model was used" -> gpu, model; "What was the BLEU score of" -> bleu, score), up to the next
    function word, at most three.  A near miss names the right paper but a detail it lacks: its focus is absent
    from the best evidence while its topic words are there."""
    words = _WORD.findall(question.lower())
    for i, w in enumerate(words):
        if w in _WH and not (w == "how" and i + 1 < len(words) and words[i + 1] not in ("many", "much")):
            rest = words[i + 1:]
            while rest and (rest[0] in _SKIP or rest[0] in _WH):
                rest = rest[1:]
            out: list[str] = []
            for r in rest:
                if r in STOPWORDS or r in _ASKING or r in _AFTER or (r.endswith("ed") and not r.endswith("eed")) \
                        or len(out) == 3:
                    break
                out.append(stem(r))
            return sorted(set(out))
    return []


def asks_name(question: str) -> bool:
    """A "which / what X" question that asks for no quantity: its answer names something (a tool, a data set)."""
    return bool(re.search(r"\b(?:which|what)\b", question, re.I)) and not asks_quantity(question)


def specific_terms(question: str) -> list[str]:
    """The question's content terms that name what it asks about (not how it asks), stemmed, sorted."""
    return sorted({stem(w) for w in _WORD.findall(question.lower())
                   if w not in STOPWORDS and w not in _ASKING and len(w) > 1})


def coverage_features(question: str, cands: Sequence, pool: Pool, best: int, order: np.ndarray) -> dict:
    """Whether the best evidence holds the question's specific content: a near miss (right paper, a detail
    it does not report) matches the question's topic words but not the rare word that names the detail."""
    terms = specific_terms(question)
    held = pool.holds(terms)
    idf = pool.rarity(held)
    near = (pool.group == pool.group[best]) & (np.abs(pool.start - pool.start[best]) <= 400)
    window = held[near].any(axis=0)  # the best sentence with its neighbours (an answer spans two sentences)
    paper = held[pool.paper == pool.paper[best]].any(axis=0)
    unit = term_set(cands[best].unit.text)
    unit_held = np.array([t in unit for t in terms], dtype=bool)

    def rarest(missing: np.ndarray) -> float:
        return float(idf[missing].max()) if missing.any() else 0.0

    focus = [terms.index(t) for t in focus_terms(question) if t in terms]
    f_held = held[:, focus]

    def share(rows: np.ndarray) -> float:
        return float(rows.mean()) if len(focus) else 1.0

    return {**agreement(question, pool, cands, held, idf, order),
            "focus_window": share(f_held[near].any(axis=0)), "focus_top3": max(share(f_held[i]) for i in order[:3]),
            "focus_paper": share(f_held[pool.paper == pool.paper[best]].any(axis=0)),
            "cover_best": float(covered(window[None, :], idf, 1.0)[0]),
            "cover_top3": float(covered(held[order[:3]], idf, 1.0).max()),
            "missing_rare": rarest(~window), "unit_missing_rare": rarest(~unit_held),
            "paper_missing": 1 - float(covered(paper[None, :], idf, 1.0)[0]), "paper_missing_rare": rarest(~paper)}


def agreement(question: str, pool: Pool, cands: Sequence, held: np.ndarray, idf: np.ndarray, order: np.ndarray) -> dict:
    """Whether the best sentence itself says what is asked (an on-topic sentence that does not answer holds the
    topic words but not the rest), how it stands in its own passage, and whether the top sentences agree on one
    paper (an answer is found in one place; a near miss scatters over papers that each touch the topic)."""
    best, top = int(order[0]), order[:5]
    raw = pool.column("raw", cands)
    unit = pool.group == pool.group[best]
    scores = np.array([c.score for c in cands], dtype=float)
    other = scores[pool.paper != pool.paper[best]]
    return {"sent_cover": float(held[best].mean()) if held.shape[1] else 1.0,
            "sent_cover_rare": float(covered(held[best][None, :], idf, 1.0)[0]),
            "sent_unit_margin": float(raw[best] - raw[unit].mean()),
            "paper_agree": float((pool.paper[top] == pool.paper[best]).mean()),
            "paper_gap": float(scores[best] - (other.max() if len(other) else scores.min()))}


def kind_features(question: str, pool: Pool, order: np.ndarray, top_paper: str | None) -> dict:
    """When the question asks for a kind of detail (ask_kinds: the GPU, the framework, the grant, the license):
    whether none of the top 3 sentences, the best one, or any sentence of the search's best paper states one
    (a near miss names a paper that never reports it; the ranker may still lift another paper's GPU sentence)."""
    kind = question_kind(question)
    if kind is None:
        return {"kind_miss": 0.0, "kind_best_miss": 0.0, "kind_paper_miss": 0.0}
    states = pool.mark(kind) > 0
    mine = pool.paper == (pool.paper_ids.index(top_paper) if top_paper in pool.paper_ids else -1)
    return {"kind_miss": float(not states[order[:3]].any()), "kind_best_miss": float(not states[order[0]]),
            "kind_paper_miss": float(not states[mine].any())}


def rank_features(cands: Sequence, passages: list[tuple[Unit, float]], pool: Pool, scores: np.ndarray,
                  best: int) -> dict:
    """How the best sentence stands among this question's sentences: its z-score, and whether the words and
    the vectors agree on it (its rank by each alone, log-scaled)."""
    lex, cos = pool.column("lexical", cands), pool.column("cosine", cands)
    rels = sorted((p for _, p in passages), reverse=True)
    top = scores[best]
    share = np.exp(scores - top)
    return {"z": float((top - scores.mean()) / (scores.std() + 1e-9)), "p_top": float(1 / share.sum()),
            "rank_lex": math.log1p(int((lex > lex[best]).sum())), "rank_cos": math.log1p(int((cos > cos[best]).sum())),
            "gap": float(top) - rels[0], "rel_gap": rels[0] - (rels[1] if len(rels) > 1 else 0.0),
            "best_prior": cands[best].prior, "max_cosine": float(cos.max()), "max_lexical": float(lex.max())}


def unseen(terms: list[str], units: list[Unit]) -> float:
    """The share of `terms` no unit's text holds (1 without terms)."""
    bags = [term_set(u.text) for u in units]
    return sum(not any(t in b for b in bags) for t in terms) / len(terms) if terms else 1.0


def refusal_features(question: str, cands: Sequence, passages: list[tuple[Unit, float]],
                     pool: Pool | None = None) -> dict:
    """What the refusal looks at: how well the best sentence answers (its score, cosine and word overlap),
    how far it stands above the next one, the search's calibrated relevance of the best passage, and the
    share of the question's content words that no passage holds at all (a near miss asks for something
    the library's passages never mention); coverage_features and rank_features add whether the best
    evidence holds the question's rare words and how it stands among the question's sentences."""
    pool = pool or Pool(cands)
    scores = np.array([c.score for c in cands], dtype=float)
    order = np.argsort(-scores, kind="stable")
    best = int(order[0])
    second = float(scores[order[1]]) if len(order) > 1 else 0.0
    terms = sorted(set(content_terms(question)))
    ranks = rank_features(cands, passages, pool, scores, best)
    b, units = cands[best], [u for u, _ in passages]
    return {"best": b.score, "cosine": ranks.pop("max_cosine"), "lexical": ranks.pop("max_lexical"),
            "margin": b.score - second, "relevance": max(p for _, p in passages),
            "unseen": unseen(terms, units), "unseen_top": unseen(terms, units[:3]),
            "best_lexical": b.lexical, "best_cosine": b.cosine,
            "quantity_miss": float(asks_quantity(question) and not any(cands[i].typed for i in order[:3])),
            **coverage_features(question, cands, pool, best, order), **ranks,
            **kind_features(question, pool, order, passages[0][0].paper_id if passages else None)}


def probability(features: dict) -> float:
    """P(the evidence answers the question), the logistic regression of `REFUSAL`."""
    r = REFUSAL
    z = r["intercept"] + sum(c * (features[f] - m) / s
                             for f, m, s, c in zip(r["features"], r["mean"], r["scale"], r["coef"]))
    return 1 / (1 + math.exp(-max(-60.0, min(60.0, z))))
