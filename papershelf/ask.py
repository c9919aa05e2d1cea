"""`ask`: the sentences of the library that answer a question, quoted verbatim with their paper and page.

No language model writes anything here.  A hybrid search finds the best passages; their sentences
(sentences.py: offsets, so a quote is a slice of the unit's own text) are scored against the question by
the library's own embedding model (cosine of the sentence and the question), by lexical overlap (the share
of the question's content words, stemmed, the sentence holds, rarer words weighing more) and by the
passage's calibrated relevance.  The best 3-8, near-duplicates folded, are the evidence.  A unit's sentence
vectors are encoded once and kept (sentence_vectors.py: keyed by the unit's text and the space), so a warm
question costs its search and the encoding of the question alone.

`no_confident_answer` is a learned decision (ask_refusal.py): a logistic regression (`REFUSAL`) over a few
features of the scored sentences, fitted on the dev half of bench/data/ask_questions.jsonl (answerable questions
against unanswerable ones, near misses included) by bench/ask_learn.py; `confidence` is its probability that the
evidence answers.  With an embedding space the sentences are ordered by a learned ranker (ask_rank.py, `RANKER`).
A question's candidates are scored as arrays (ask_pool.Pool): each unit's sentences, their words and marks are
read once per text and kept, so a warm question's word features are a few matrix products.
"""

from __future__ import annotations

import functools
import os
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from . import ask_rank
from .ask_kinds import question_kind
from .ask_pool import Pool, asks_quantity, content_terms, covered, unit_table
from .ask_refusal import asks_name, focus_terms, probability, refusal_features, specific_terms
from .ask_weights import RANKER, REFUSAL
from .embed.onnx import cache_root
from .models.discover import AskResponse, Evidence
from .sentence_vectors import SentenceVectors, normalized, unit_key, vectors_for
from .units import Unit

WEIGHTS = (0.55, 0.30, 0.15, 0.20)  # cosine, lexical overlap, passage relevance, answer type
PASSAGES = 20  # passages (search hits) whose sentences are scored (dev, leave-paper-out: 12 / 20 / 30 -> 69 / 70 / 71)
PER_PAPER = 4  # at most this many passages from one paper
PER_UNIT = 2  # at most this many pieces of evidence from one passage
_WORD = re.compile(r"\w+")
# A question asking for a quantity (how many, how narrow, how accurate, what share...; not how is / how did): its
# answer holds a number, one standing alone: the digit of a name (F0, AE100) is no quantity.
@dataclass
class Candidate:
    unit: Unit
    start: int
    end: int
    prior: float
    lexical: float = 0.0
    cosine: float = 0.0
    typed: float = 0.0
    vector: np.ndarray | None = None  # the sentence's unit vector (None when scored by words alone)
    raw: float = 0.0  # the sentence's own cosine with the question (`cosine` borrows from its neighbours)
    learned: float | None = None  # the learned ranker's score (ask_rank.py), when it ranked the sentences

    @property
    def hand(self) -> float:
        """The hand-weighted score (WEIGHTS): the ranking without a learned model, and one of its features."""
        w = WEIGHTS
        return w[0] * self.cosine + w[1] * self.lexical + w[2] * self.prior + w[3] * self.typed

    @property
    def score(self) -> float:
        return self.hand if self.learned is None else self.learned


@dataclass
class Encoder:
    """The sentences' encoder, named by its space (the sentence cache's key), and the question's vector in
    that space when the caller already has it (the search ranked by it: encoded once)."""

    space: str
    encode: Callable[[list[str]], object]
    question: object = None


def answer_spans(text: str) -> tuple[tuple[int, int], ...]:
    """The sentences that could answer (a heading or a bare number is no answer); kept per text (ask_pool),
    since a warm question splits the same passages again."""
    return unit_table(text).spans


def lexical_scores(question: str, cands: list[Candidate], pool: Pool | None = None) -> None:
    """Share of the question's content terms each sentence holds, weighted by rarity among the candidates."""
    pool = pool or Pool(cands)
    held = pool.holds(sorted(set(content_terms(question))))
    idf = np.log(1 + max(1, pool.n) / (1 + held.sum(axis=0)))
    pool.values["lexical"] = lexical = covered(held, idf)
    for c, v in zip(cands, lexical.tolist()):
        c.lexical = v


def answer_type(question: str, cands: list[Candidate], pool: Pool | None = None) -> None:
    """A question asking for a quantity (how many, how long, what share...) is answered by a sentence
    holding a number: such sentences are marked (the answer type of classic question answering)."""
    if asks_quantity(question):
        pool = pool or Pool(cands)
        pool.values["typed"] = typed = pool.mark("number").copy()
        for c, v in zip(cands, typed.tolist()):
            c.typed = v


def candidates(units: list[tuple[Unit, float]]) -> list[Candidate]:
    """Every sentence of the passages (each unit once), with its passage's relevance as the prior."""
    out: list[Candidate] = []
    seen: set[str] = set()
    for unit, prior in units:
        if unit.id not in seen:
            seen.add(unit.id)
            out.extend(Candidate(unit, a, b, prior) for a, b in answer_spans(unit.text))
    return out


BEST_PAPER_PRIOR = 0.5  # the prior of the best paper's other units, as a share of the weakest passage's


def neighbours_of_best(passages: list[tuple[Unit, float]], paper_units: list[Unit]) -> list[tuple[Unit, float]]:
    """The best paper's other units (of the kinds the search returned of it), below every passage: the
    answer often sits beside the passage that matched, in a unit the search ranked lower than another
    paper's (a method named in one paragraph, its setting given in the next)."""
    best = passages[0][0].paper_id
    kinds = {u.kind for u, _ in passages if u.paper_id == best}
    have = {u.id for u, _ in passages}
    prior = BEST_PAPER_PRIOR * min(p for _, p in passages)
    return [(u, prior) for u in paper_units if u.kind in kinds and u.id not in have]


_CACHE: dict[str, SentenceVectors] = {}


def sentence_cache() -> SentenceVectors:
    """The process's sentence-vector cache, in the user cache directory (one per directory)."""
    root = str(cache_root())
    if root not in _CACHE:
        _CACHE[root] = SentenceVectors(cache_root() / "sentence-vectors.sqlite")
    return _CACHE[root]


@functools.lru_cache(maxsize=4096)
def _unit_key(space: str, text: str) -> str:
    return unit_key(space, text)


def embed_scores(encoder: Encoder, question: str, cands: list[Candidate], pool: Pool | None = None) -> None:
    """Cosine of each sentence with the question: the question encoded now, the sentences from the cache."""
    pool = pool or Pool(cands)
    units = {c.unit.id: c.unit for c in cands}
    keys = {uid: _unit_key(encoder.space, u.text) for uid, u in units.items()}
    vectors = sentence_cache().get(list(keys.values()))  # a warm process has them all: no sentence is sliced
    texts = {keys[uid]: [u.text[a:b] for a, b in answer_spans(u.text)] for uid, u in units.items()
             if keys[uid] not in vectors}
    if texts:
        vectors.update(vectors_for(sentence_cache(), encoder.space, encoder.encode, texts))
    q = normalized(encoder.encode([question]) if encoder.question is None
                   else np.asarray(encoder.question, dtype=np.float32)[None, :])[0]
    vecs = np.zeros((pool.n, len(q)), dtype=np.float32)
    raw, cos = np.zeros(pool.n), np.zeros(pool.n)
    for uid, rows in zip(units, pool.rows):  # units in first-seen order: the pool's groups
        v = vectors[keys[uid]]
        ok = rows >= 0
        vecs[rows[ok]], raw[rows[ok]] = v[ok], (v @ q)[ok]
        cos[rows[ok]] = neighbours(v @ q)[ok]
    for k, text in pool.odd.items():  # not a sentence of its unit's split (a hand-made candidate): its own vector
        vecs[k] = normalized(encoder.encode([text]))[0]
        raw[k] = cos[k] = float(vecs[k] @ q)
    pool.values["raw"], pool.values["cosine"] = raw, cos
    for c, r, s, v in zip(cands, raw.tolist(), cos.tolist(), vecs):
        c.raw, c.cosine, c.vector = r, s, v


NEIGHBOUR = 0.2  # share of a sentence's cosine taken from its closer neighbour (dev: 0.15 and 0.3 tie)


def neighbours(sims: np.ndarray) -> np.ndarray:
    """A sentence read with its context: part of its cosine comes from the better of its two neighbours
    ("we have 26 tags" answers a question about the tagger the sentence before it names)."""
    if NEIGHBOUR == 0 or len(sims) < 2:
        return sims
    pad = np.concatenate([[-1.0], sims, [-1.0]])
    return (1 - NEIGHBOUR) * sims + NEIGHBOUR * np.maximum(pad[:-2], pad[2:])


@functools.lru_cache(maxsize=4096)
def _words(text: str) -> frozenset[str]:
    return frozenset(_WORD.findall(text.lower()))


def _near_duplicate(a: str, b: str) -> bool:
    x, y = _words(a), _words(b)
    return bool(x and y) and len(x & y) / len(x | y) >= 0.7


SAME_MEANING = 0.85  # cosine of two sentences' vectors at which the second says nothing new (dev: 0.8-0.85)


def restates(c: Candidate, chosen: list[Candidate]) -> bool:
    """Whether `c` repeats a chosen piece of evidence: the same words (a near-duplicate), or the same
    meaning in other words (a paper restates its abstract in its introduction and conclusion: "We evaluate
    the system in two domains, ..." / "Experimental results in two domains, ..."), which would take a
    second place among the few quotes shown from a sentence that adds nothing."""
    quote = c.unit.text[c.start:c.end]
    return any(_near_duplicate(quote, o.unit.text[o.start:o.end])
               or (c.vector is not None and o.vector is not None and float(c.vector @ o.vector) >= SAME_MEANING)
               for o in chosen)


def select(cands: list[Candidate], limit: int) -> list[Candidate]:
    """The best sentences, near-duplicates and restatements folded, at most PER_UNIT from one passage."""
    chosen: list[Candidate] = []
    per_unit: Counter[str] = Counter()
    ids = sorted({c.unit.id for c in cands})
    rank = {u: i for i, u in enumerate(ids)}
    keys = np.array([(c.start, rank[c.unit.id], -c.score) for c in cands], dtype=float).reshape(-1, 3)
    for i in np.lexsort(keys.T).tolist():  # by score, then unit id and start (ties in a fixed order)
        c = cands[i]
        if per_unit[c.unit.id] >= PER_UNIT or restates(c, chosen):
            continue
        chosen.append(c)
        per_unit[c.unit.id] += 1
        if len(chosen) == limit:
            break
    return chosen


def context(c: Candidate, chars: int = 160) -> tuple[str, str]:
    """A little of the text before and after the quote, cut at word boundaries."""
    before = c.unit.text[max(0, c.start - chars):c.start]
    after = c.unit.text[c.end:c.end + chars]
    if c.start > chars and " " in before:
        before = "…" + before[before.index(" ") + 1:]
    if c.end + chars < len(c.unit.text) and " " in after:
        after = after[:after.rindex(" ")] + "…"
    return before.strip(), after.strip()


def _letters(text: str) -> str:
    return "".join(ch for ch in text.lower() if ch.isalnum())


@functools.lru_cache(maxsize=256)
def _page_letters(pdf_path: str, mtime_ns: int, size: int, first: int, last: int) -> tuple[str, ...]:
    """The letters of pages first..last of a PDF, kept per file version (path, mtime, size): a warm
    question must not open the same PDF again to place its quotes."""
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(pdf_path)
    try:
        return tuple(_letters(pdf[p - 1].get_textpage().get_text_range()) if 1 <= p <= len(pdf) else ""
                     for p in range(first, last + 1))
    finally:
        pdf.close()


def page_of(unit: Unit, quote: str, pdf_path: str | None) -> int | None:
    """The page the quote is printed on: the unit's page, or for a unit over several pages of a PDF, the
    page whose text holds the quote's first words (letters compared, so hyphenation and spacing differ)."""
    if unit.page_start is None or unit.page_end in (None, unit.page_start) or not pdf_path:
        return unit.page_start
    probe = _letters(quote)[:48]
    try:
        st = os.stat(pdf_path)
        if st.st_size > 200 * 2**20:
            return unit.page_start
        pages = _page_letters(pdf_path, st.st_mtime_ns, st.st_size, unit.page_start, unit.page_end or unit.page_start)
    except Exception:  # noqa: BLE001 - a page is a convenience: the unit's first page is still right-ish
        return unit.page_start
    return next((unit.page_start + i for i, text in enumerate(pages) if probe in text), unit.page_start)


def rank_inputs(question: str, cands: list[Candidate], pool: Pool | None = None) -> dict:
    """What ask_rank.features reads besides the candidates: the pool (ask_pool: its sentences' marks), and the
    rarity-weighted share of the question's specific terms each sentence holds, alone and with its neighbours."""
    pool = pool or Pool(cands)
    held = pool.holds(specific_terms(question))
    idf = pool.rarity(held)
    focus = pool.holds(focus_terms(question))
    even = np.ones(focus.shape[1])
    return {"pool": pool, "rare": covered(held, idf), "rare_window": covered(pool.same_unit_neighbours(held), idf),
            "focus": covered(focus, even), "focus_window": covered(pool.same_unit_neighbours(focus), even),
            "names": asks_name(question), "kind": question_kind(question)}


def learned_rank(question: str, cands: list[Candidate], passages: list[tuple[Unit, float]],
                 model: dict | None, pool: Pool | None = None) -> np.ndarray | None:
    """Score the candidates by the learned ranker (ask_weights.RANKER); without one, the hand weights stay.
    Gives the feature rows (None without a ranker)."""
    if model is None or not cands:
        return None
    x = ask_rank.features(question, cands, passages[0][0].paper_id if passages else None,
                         **rank_inputs(question, cands, pool))
    for c, v in zip(cands, ask_rank.scores(x, model).tolist()):
        c.learned = v
    return x


def confidence(question: str, cands: list[Candidate], passages: list[tuple[Unit, float]], pool: Pool,
               x: np.ndarray | None) -> float:
    """The refusal's probability that the evidence answers, read on the scores of its own ranker
    (REFUSAL["ranker"], the ranker without `kind`: bench/ask_learn.py) when the sentences were ranked."""
    own = REFUSAL.get("ranker")
    if x is None or own is None:
        return probability(refusal_features(question, cands, passages, pool))
    kept = [c.learned for c in cands]
    for c, v in zip(cands, ask_rank.scores(x, own).tolist()):
        c.learned = v
    try:
        return probability(refusal_features(question, cands, passages, pool))
    finally:
        for c, v in zip(cands, kept):
            c.learned = v


def evidence_for(question: str, passages: list[tuple[Unit, float]], papers: dict, encoder: Encoder | None,
                 limit: int, pdf_path=lambda paper_id: None, link=lambda paper_id, page: None) -> AskResponse:
    """The evidence among `passages` ((unit, calibrated relevance) best first) for the question."""
    resp = AskResponse(question)
    cands = candidates(passages)
    if not cands:
        resp.notices.append("nothing in the library answers this")
        return resp
    pool = Pool(cands)
    lexical_scores(question, cands, pool)
    answer_type(question, cands, pool)
    if encoder is not None:
        embed_scores(encoder, question, cands, pool)
    else:
        resp.notices.append("no complete embedding space: sentences scored by their words alone")
        for c in cands:
            c.cosine = c.raw = c.lexical
        pool.values["cosine"] = pool.values["raw"] = pool.values["lexical"]
    x = learned_rank(question, cands, passages, RANKER if encoder is not None else None, pool)
    for i, c in enumerate(select(cands, limit), 1):
        paper = papers.get(c.unit.paper_id)
        quote = c.unit.text[c.start:c.end]
        page = page_of(c.unit, quote, pdf_path(c.unit.paper_id))
        before, after = context(c)
        resp.evidence.append(Evidence(f"e{i}", c.unit.paper_id, paper.title if paper else None,
                                      paper.year if paper else None, c.unit.id, c.unit.section_path, page, quote,
                                      before, after, round(c.score, 4), link(c.unit.paper_id, page)))
    resp.confidence = round(confidence(question, cands, passages, pool, x), 4)
    resp.no_confident_answer = resp.confidence < REFUSAL["cut"]
    return resp
