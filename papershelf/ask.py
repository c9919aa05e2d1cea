"""`ask`: the sentences of the library that answer a question, quoted verbatim with their paper and page.

No language model writes anything here.  A hybrid search finds the best passages; their sentences
(sentences.py: offsets, so a quote is a slice of the unit's own text) are scored against the question by
the library's own embedding model (cosine of the sentence and the question), by lexical overlap (the share
of the question's content words, stemmed, the sentence holds, rarer words weighing more) and by the
passage's calibrated relevance.  The best 3-8, near-duplicates folded, are the evidence.  A unit's sentence
vectors are encoded once and kept (sentence_vectors.py: keyed by the unit's text and the space), so a warm
question costs its search and the encoding of the question alone.

`no_confident_answer` is a learned decision: a logistic regression (`REFUSAL`) over a few features of the
scored sentences (`refusal_features`), fitted on the dev half of bench/data/ask_questions.jsonl (answerable
questions against unanswerable ones, near misses included) by bench/ask_refusal_fit.py; `confidence` is its
probability that the evidence answers.
"""

from __future__ import annotations

import functools
import math
import os
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from . import ask_rank
from .ask_weights import RANKER, REFUSAL
from .embed.onnx import cache_root
from .models.discover import AskResponse, Evidence
from .search.features import stem
from .search.query import STOPWORDS
from .sentence_vectors import SentenceVectors, normalized, unit_key, vectors_for
from .sentences import sentence_spans
from .units import Unit

WEIGHTS = (0.55, 0.30, 0.15, 0.20)  # cosine, lexical overlap, passage relevance, answer type
PASSAGES = 12  # passages (search hits) whose sentences are scored
PER_PAPER = 4  # at most this many passages from one paper
PER_UNIT = 2  # at most this many pieces of evidence from one passage
_WORD = re.compile(r"\w+")
# A question asking for a quantity (how many, how narrow, how accurate, what share...; not how is / how did): its
# answer holds a number, one standing alone: the digit of a name (F0, AE100) is no quantity.
_QUANTITY = re.compile(r"\bhow (?!(?:is|are|was|were|do|does|did|can|could|should|would|will|has|have|had|to|"
                       r"they|it|the|this|these|that|those|he|she|we|you|i)\b)[a-z]+\b|"
                       r"\b(what|which) (share|fraction|percentage|proportion|number|value|rate|size|amount|"
                       r"accuracy|score|speed|dose|length|duration)\b", re.I)
_NUMBER = re.compile(r"(?<![\w.])\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|"
                     r"thirty|forty|fifty|hundreds?|thousands?|millions?|billions?|dozens?|half|twice|thrice|double|"
                     r"triple)\b", re.I)
# A number that only names a figure, table, section, equation or reference is no quantity.
_NOT_QUANTITY = re.compile(r"\b(?:fig(?:ure)?s?|tables?|tab|sec(?:tion)?s?|eqs?|equations?|appendix|step)\.?\s*"
                           r"[A-Z]?\d+(?:\.\d+)*|\[\d+(?:\s*[,–-]\s*\d+)*\]", re.I)


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


def content_terms(text: str) -> list[str]:
    return [stem(w) for w in _WORD.findall(text.lower()) if w not in STOPWORDS and len(w) > 1]


@functools.lru_cache(maxsize=8192)
def term_set(text: str) -> frozenset[str]:
    """A sentence's or a passage's content terms, kept: warm questions meet the same passages again."""
    return frozenset(content_terms(text))


@functools.lru_cache(maxsize=4096)
def answer_spans(text: str) -> tuple[tuple[int, int], ...]:
    """The sentences that could answer (a heading or a bare number is no answer); kept per text, since
    a warm question splits the same passages again."""
    return tuple((a, b) for a, b in sentence_spans(text) if len(_WORD.findall(text[a:b])) >= 4)


def lexical_scores(question: str, cands: list[Candidate]) -> None:
    """Share of the question's content terms each sentence holds, weighted by rarity among the candidates."""
    terms = set(content_terms(question))
    bags = [term_set(c.unit.text[c.start:c.end]) for c in cands]
    df = Counter(t for bag in bags for t in bag & terms)
    n = len(bags) or 1
    idf = {t: math.log(1 + n / (1 + df[t])) for t in terms}
    total = sum(idf.values()) or 1.0
    for c, bag in zip(cands, bags):
        c.lexical = sum(idf[t] for t in terms & bag) / total


def answer_type(question: str, cands: list[Candidate]) -> None:
    """A question asking for a quantity (how many, how long, what share...) is answered by a sentence
    holding a number: such sentences are marked (the answer type of classic question answering)."""
    if _QUANTITY.search(question):
        for c in cands:
            c.typed = 1.0 if holds_number(c.unit.text[c.start:c.end]) else 0.0


@functools.lru_cache(maxsize=16384)
def holds_number(sentence: str) -> bool:
    """Whether a sentence states a quantity (a figure's or a reference's number is none); kept per text."""
    return bool(_NUMBER.search(_NOT_QUANTITY.sub(" ", sentence)))


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


def embed_scores(encoder: Encoder, question: str, cands: list[Candidate]) -> None:
    """Cosine of each sentence with the question: the question encoded now, the sentences from the cache."""
    units = {c.unit.id: c.unit for c in cands}
    keys = {uid: unit_key(encoder.space, u.text) for uid, u in units.items()}
    texts = {keys[uid]: [u.text[a:b] for a, b in answer_spans(u.text)] for uid, u in units.items()}
    vectors = vectors_for(sentence_cache(), encoder.space, encoder.encode, texts)
    q = normalized(encoder.encode([question]) if encoder.question is None
                   else np.asarray(encoder.question, dtype=np.float32)[None, :])[0]
    sims = {k: neighbours(v @ q) for k, v in vectors.items()}
    index: dict[str, int] = {}
    for c in cands:  # candidates come unit by unit, sentences in order: the n-th of a unit is its row n
        n = index.get(c.unit.id, 0)
        index[c.unit.id] = n + 1
        c.cosine = float(sims[keys[c.unit.id]][n])
        c.raw = float(vectors[keys[c.unit.id]][n] @ q)
        c.vector = vectors[keys[c.unit.id]][n]


NEIGHBOUR = 0.2  # share of a sentence's cosine taken from its closer neighbour (dev: 0.15 and 0.3 tie)


def neighbours(sims: np.ndarray) -> np.ndarray:
    """A sentence read with its context: part of its cosine comes from the better of its two neighbours
    ("we have 26 tags" answers a question about the tagger the sentence before it names)."""
    if NEIGHBOUR == 0 or len(sims) < 2:
        return sims
    pad = np.concatenate([[-1.0], sims, [-1.0]])
    return (1 - NEIGHBOUR) * sims + NEIGHBOUR * np.maximum(pad[:-2], pad[2:])


def _near_duplicate(a: str, b: str) -> bool:
    x, y = set(_WORD.findall(a.lower())), set(_WORD.findall(b.lower()))
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
    for c in sorted(cands, key=lambda c: (-c.score, c.unit.id, c.start)):
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


def pool_idf(cands: list[Candidate]) -> Callable[[str], float]:
    """A term's rarity among the scored sentences, 0..1 (1: no sentence holds it): the question's specific
    words (the GPU, the sampling rate) are the rare ones, its generic ones (model, trained) common."""
    n = len(cands)
    df = Counter(t for c in cands for t in term_set(c.unit.text[c.start:c.end]))
    top = math.log(n + 1)
    return lambda t: math.log((n + 1) / (df[t] + 1)) / top


# Words of the question's form, not its content: no evidence need hold them.
_ASKING = frozenset("how what which who whom whose when where why many much did does do could would can may might "
                    "should was were is are be been being has have had long well far often kind value use used using "
                    "make made get got take taken given".split())


def specific_terms(question: str) -> set[str]:
    return {stem(w) for w in _WORD.findall(question.lower()) if w not in STOPWORDS and w not in _ASKING and len(w) > 1}


def coverage(terms: set[str], idf: Callable[[str], float], bag: frozenset[str]) -> float:
    """The rarity-weighted share of the question's terms a text holds."""
    total = sum(idf(t) for t in terms)
    return sum(idf(t) for t in terms & bag) / total if total else 1.0


def window(cands: list[Candidate], best: Candidate) -> frozenset[str]:
    """The best sentence's terms with its neighbours' in the same unit (an answer spans two sentences)."""
    near = [c for c in cands if c.unit.id == best.unit.id and abs(c.start - best.start) <= 400]
    return frozenset().union(*(term_set(c.unit.text[c.start:c.end]) for c in near))


def coverage_features(question: str, ranked: list[Candidate]) -> dict:
    """Whether the best evidence holds the question's specific content: a near miss (right paper, a detail
    it does not report) matches the question's topic words but not the rare word that names the detail."""
    terms = specific_terms(question)
    idf = pool_idf(ranked)
    best = ranked[0]
    paper = frozenset().union(*(term_set(c.unit.text[c.start:c.end]) for c in ranked
                                if c.unit.paper_id == best.unit.paper_id))
    missing = [idf(t) for t in terms - window(ranked, best)]
    top3 = [coverage(terms, idf, term_set(c.unit.text[c.start:c.end])) for c in ranked[:3]]
    unit_missing = [idf(t) for t in terms - term_set(best.unit.text)]
    return {"cover_best": coverage(terms, idf, window(ranked, best)), "cover_top3": max(top3),
            "missing_rare": max(missing, default=0.0), "unit_missing_rare": max(unit_missing, default=0.0),
            "paper_missing": 1 - coverage(terms, idf, paper),
            "paper_missing_rare": max((idf(t) for t in terms - paper), default=0.0)}


def rank_features(ranked: list[Candidate], passages: list[tuple[Unit, float]]) -> dict:
    """How the best sentence stands among this question's sentences: its z-score, and whether the words and
    the vectors agree on it (its rank by each alone, log-scaled)."""
    scores = np.array([c.score for c in ranked])
    best = ranked[0]
    by_lex = sum(c.lexical > best.lexical for c in ranked)
    by_cos = sum(c.cosine > best.cosine for c in ranked)
    rels = sorted((p for _, p in passages), reverse=True)
    share = np.exp(scores - scores[0])
    return {"z": float((scores[0] - scores.mean()) / (scores.std() + 1e-9)), "p_top": float(1 / share.sum()),
            "rank_lex": math.log1p(by_lex), "rank_cos": math.log1p(by_cos),
            "gap": best.score - rels[0], "rel_gap": rels[0] - (rels[1] if len(rels) > 1 else 0.0),
            "best_prior": best.prior}


def refusal_features(question: str, cands: list[Candidate], passages: list[tuple[Unit, float]]) -> dict:
    """What the refusal looks at: how well the best sentence answers (its score, cosine and word overlap),
    how far it stands above the next one, the search's calibrated relevance of the best passage, and the
    share of the question's content words that no passage holds at all (a near miss asks for something
    the library's passages never mention); coverage_features and rank_features add whether the best
    evidence holds the question's rare words and how it stands among the question's sentences."""
    ranked = sorted(cands, key=lambda c: -c.score)
    best, second = ranked[0], ranked[1] if len(ranked) > 1 else None
    terms = set(content_terms(question))
    seen = frozenset().union(*(term_set(u.text) for u, _ in passages)) if terms else frozenset()
    top = frozenset().union(*(term_set(u.text) for u, _ in passages[:3])) if terms else frozenset()
    quantity = bool(_QUANTITY.search(question))
    return {"best": best.score, "cosine": max(c.cosine for c in cands), "lexical": max(c.lexical for c in cands),
            "margin": best.score - (second.score if second else 0.0), "relevance": max(p for _, p in passages),
            "unseen": len(terms - seen) / len(terms) if terms else 1.0,
            "unseen_top": len(terms - top) / len(terms) if terms else 1.0,
            "best_lexical": best.lexical, "best_cosine": best.cosine,
            "quantity_miss": float(quantity and not any(c.typed for c in ranked[:3])),
            **coverage_features(question, ranked), **rank_features(ranked, passages)}


def rank_inputs(question: str, cands: list[Candidate]) -> dict:
    """What ask_rank.features reads besides the candidates: the question's specific terms and their rarity,
    each sentence's terms alone and with its neighbours', and whether it states a number."""
    bags = [term_set(c.unit.text[c.start:c.end]) for c in cands]
    windows: list[frozenset[str]] = []
    for i, c in enumerate(cands):  # candidates come unit by unit, in order: neighbours are i - 1 and i + 1
        near = [bags[j] for j in (i - 1, i + 1) if 0 <= j < len(cands) and cands[j].unit.id == c.unit.id]
        windows.append(bags[i].union(*near))
    numbers = [holds_number(c.unit.text[c.start:c.end]) for c in cands]
    return {"specific": specific_terms(question), "idf": pool_idf(cands), "bags": bags, "windows": windows,
            "numbers": numbers}


def learned_rank(question: str, cands: list[Candidate], passages: list[tuple[Unit, float]],
                 model: dict | None) -> None:
    """Score the candidates by the learned ranker (ask_weights.RANKER); without one, the hand weights stay."""
    if model is None or not cands:
        return
    x = ask_rank.features(question, cands, passages[0][0].paper_id if passages else None,
                         **rank_inputs(question, cands))
    for c, v in zip(cands, ask_rank.scores(x, model)):
        c.learned = float(v)


def probability(features: dict) -> float:
    """P(the evidence answers the question), the logistic regression of `REFUSAL`."""
    r = REFUSAL
    z = r["intercept"] + sum(c * (features[f] - m) / s
                             for f, m, s, c in zip(r["features"], r["mean"], r["scale"], r["coef"]))
    return 1 / (1 + math.exp(-max(-60.0, min(60.0, z))))


def evidence_for(question: str, passages: list[tuple[Unit, float]], papers: dict, encoder: Encoder | None,
                 limit: int, pdf_path=lambda paper_id: None, link=lambda paper_id, page: None) -> AskResponse:
    """The evidence among `passages` ((unit, calibrated relevance) best first) for the question."""
    resp = AskResponse(question)
    cands = candidates(passages)
    if not cands:
        resp.notices.append("nothing in the library answers this")
        return resp
    lexical_scores(question, cands)
    answer_type(question, cands)
    if encoder is not None:
        embed_scores(encoder, question, cands)
    else:
        resp.notices.append("no complete embedding space: sentences scored by their words alone")
        for c in cands:
            c.cosine = c.raw = c.lexical
    learned_rank(question, cands, passages, RANKER if encoder is not None else None)
    for i, c in enumerate(select(cands, limit), 1):
        paper = papers.get(c.unit.paper_id)
        quote = c.unit.text[c.start:c.end]
        page = page_of(c.unit, quote, pdf_path(c.unit.paper_id))
        before, after = context(c)
        resp.evidence.append(Evidence(f"e{i}", c.unit.paper_id, paper.title if paper else None,
                                      paper.year if paper else None, c.unit.id, c.unit.section_path, page, quote,
                                      before, after, round(c.score, 4), link(c.unit.paper_id, page)))
    resp.confidence = round(probability(refusal_features(question, cands, passages)), 4)
    resp.no_confident_answer = resp.confidence < REFUSAL["cut"]
    return resp
