"""`ask`: the sentences of the library that answer a question, quoted verbatim with their paper and page.

No language model writes anything here.  A hybrid search finds the best passages; their sentences
(sentences.py: offsets, so a quote is a slice of the unit's own text) are scored against the question by
the library's own embedding model (cosine of the sentence and the question), by lexical overlap (the share
of the question's content words, stemmed, the sentence holds, rarer words weighing more) and by the
passage's calibrated relevance.  The best 3-8, near-duplicates folded, are the evidence.

`no_confident_answer` is the calibrated refusal: the best sentence's score below `THRESHOLD`, fitted on the
dev half of bench/data/ask_questions.jsonl (answerable questions against unanswerable ones, near misses
included) by bench/ask_eval.py.
"""

from __future__ import annotations

import math
import os
import re
from collections import Counter
from dataclasses import dataclass

import numpy as np

from .models.discover import AskResponse, Evidence
from .search.features import stem
from .search.query import STOPWORDS
from .sentences import sentence_spans
from .units import Unit

WEIGHTS = (0.55, 0.30, 0.15)  # cosine, lexical overlap, passage relevance
THRESHOLD = 0.40  # fitted on the dev half (bench/ask_eval.py --half dev --fit: 0.398)
CANDIDATES = 64  # sentences embedded per question, the lexically best first
_WORD = re.compile(r"\w+")










@dataclass
class Candidate:
    unit: Unit
    start: int
    end: int
    prior: float
    lexical: float = 0.0
    cosine: float = 0.0

    @property
    def score(self) -> float:
        w = WEIGHTS
        return w[0] * self.cosine + w[1] * self.lexical + w[2] * self.prior


def content_terms(text: str) -> list[str]:
    return [stem(w) for w in _WORD.findall(text.lower()) if w not in STOPWORDS and len(w) > 1]


def lexical_scores(question: str, cands: list[Candidate]) -> None:
    """Share of the question's content terms each sentence holds, weighted by rarity among the candidates."""
    terms = set(content_terms(question))
    bags = [set(content_terms(c.unit.text[c.start:c.end])) for c in cands]
    df = Counter(t for bag in bags for t in bag & terms)
    n = len(bags) or 1
    idf = {t: math.log(1 + n / (1 + df[t])) for t in terms}
    total = sum(idf.values()) or 1.0
    for c, bag in zip(cands, bags):
        c.lexical = sum(idf[t] for t in terms & bag) / total


def candidates(units: list[tuple[Unit, float]]) -> list[Candidate]:
    """Every sentence of the passages, with its passage's relevance as the prior."""
    out = []
    for unit, prior in units:
        for a, b in sentence_spans(unit.text):
            if len(_WORD.findall(unit.text[a:b])) >= 4:  # a heading or a number is no answer
                out.append(Candidate(unit, a, b, prior))
    return out


def embed_scores(encode, question: str, cands: list[Candidate]) -> None:
    vectors = np.asarray(encode([question] + [c.unit.text[c.start:c.end] for c in cands]), dtype=np.float32)
    vectors /= np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
    for c, cos in zip(cands, vectors[1:] @ vectors[0]):
        c.cosine = float(cos)


def _near_duplicate(a: str, b: str) -> bool:
    x, y = set(_WORD.findall(a.lower())), set(_WORD.findall(b.lower()))
    return bool(x and y) and len(x & y) / len(x | y) >= 0.7


def select(cands: list[Candidate], limit: int) -> list[Candidate]:
    """The best sentences, near-duplicates folded, at most two from one passage."""
    chosen: list[Candidate] = []
    per_unit: Counter[str] = Counter()
    for c in sorted(cands, key=lambda c: (-c.score, c.unit.id, c.start)):
        quote = c.unit.text[c.start:c.end]
        if per_unit[c.unit.id] >= 2 or any(_near_duplicate(quote, o.unit.text[o.start:o.end]) for o in chosen):
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


def page_of(unit: Unit, quote: str, pdf_path: str | None) -> int | None:
    """The page the quote is printed on: the unit's page, or for a unit over several pages of a PDF, the
    page whose text holds the quote's first words (letters compared, so hyphenation and spacing differ)."""
    if unit.page_start is None or unit.page_end in (None, unit.page_start) or not pdf_path:
        return unit.page_start
    probe = _letters(quote)[:48]
    try:
        import pypdfium2 as pdfium

        if not os.path.isfile(pdf_path) or os.path.getsize(pdf_path) > 200 * 2**20:
            return unit.page_start
        pdf = pdfium.PdfDocument(pdf_path)
        try:
            for page in range(unit.page_start, (unit.page_end or unit.page_start) + 1):
                if 1 <= page <= len(pdf) and probe in _letters(pdf[page - 1].get_textpage().get_text_range()):
                    return page
        finally:
            pdf.close()
    except Exception:  # noqa: BLE001 - a page is a convenience: the unit's first page is still right-ish
        return unit.page_start
    return unit.page_start


def evidence_for(question: str, passages: list[tuple[Unit, float]], papers: dict, encode, limit: int,
                 pdf_path=lambda paper_id: None, link=lambda paper_id, page: None) -> AskResponse:
    """The evidence among `passages` ((unit, calibrated relevance) best first) for the question."""
    resp = AskResponse(question)
    cands = candidates(passages)
    if not cands:
        resp.notices.append("nothing in the library answers this")
        return resp
    lexical_scores(question, cands)
    cands = sorted(cands, key=lambda c: (-(c.lexical + c.prior), c.unit.id, c.start))[:CANDIDATES]
    if encode is not None:
        embed_scores(encode, question, cands)
    else:
        resp.notices.append("no complete embedding space: sentences scored by their words alone")
        for c in cands:
            c.cosine = c.lexical
    for i, c in enumerate(select(cands, limit), 1):
        paper = papers.get(c.unit.paper_id)
        quote = c.unit.text[c.start:c.end]
        page = page_of(c.unit, quote, pdf_path(c.unit.paper_id))
        before, after = context(c)
        resp.evidence.append(Evidence(f"e{i}", c.unit.paper_id, paper.title if paper else None,
                                      paper.year if paper else None, c.unit.id, c.unit.section_path, page, quote,
                                      before, after, round(c.score, 4), link(c.unit.paper_id, page)))
    resp.confidence = max((e.score for e in resp.evidence), default=0.0)
    resp.no_confident_answer = resp.confidence < THRESHOLD
    return resp
