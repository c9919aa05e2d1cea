"""One question's candidate sentences as arrays, for `ask`'s scoring (ask.py), ranker (ask_rank.py) and refusal.

What a sentence is does not depend on the question: its span, its content terms, whether it states a number, its
length, whether it says what the paper is about.  These are read once per unit text (`unit_table`, kept: a warm
process meets the same passages again) and stored as arrays and postings (term -> the unit's sentences holding
it).  A question then only asks which of its own few terms each candidate holds (`Pool.holds`: a boolean
matrix, one column per term, filled from the postings), and every word feature is a matrix product: no loop
over the candidates' words.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .ask_kinds import NAMES as KIND_NAMES
from .ask_kinds import sentence_kinds
from .search.features import stem
from .search.query import STOPWORDS
from .sentences import sentence_spans

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
# A quantity with what it measures or counts: a unit of measure (12 ms, 3.4 GHz, 4 GB, 5 mg, 80.5%, 10x) or a counted
# noun of scientific reporting (1,200 participants, 3 epochs, 50k documents).  A detail states one; a topic sentence
# ("we propose a model for ...") seldom does.
_MEASURE = re.compile(r"(?<![\w.])\d[\d.,]*\s?(?:%|percent|×|x\b|ms|s\b|sec|seconds?|min(?:utes?)?|h\b|hours?|days?|"
                      r"weeks?|months?|years?|[kMGT]?Hz|[KMGT]i?B|[kMGT]?bps|[mµnk]?[gLlmsVW]\b|mm|cm|km|nm|°C?|K\b|dB|"
                      r"epochs?|steps?|iterations?|layers?|samples?|images?|words?|tokens?|sentences?|documents?|papers?|"
                      r"participants?|subjects?|users?|pairs?|examples?|instances?)", re.I)
_SUMMARY = re.compile(r"\b(?:this (?:paper|work|article|study)|in this (?:paper|work)|we (?:propose|present|introduce|"
                      r"describe)|our (?:approach|method|system|model|framework))\b", re.I)


def asks_quantity(question: str) -> bool:
    return bool(_QUANTITY.search(question))


def content_terms(text: str) -> list[str]:
    return [stem(w) for w in _WORD.findall(text.lower()) if w not in STOPWORDS and len(w) > 1]


@functools.lru_cache(maxsize=8192)
def term_set(text: str) -> frozenset[str]:
    """A sentence's or a passage's content terms, kept: warm questions meet the same passages again."""
    return frozenset(content_terms(text))


@functools.lru_cache(maxsize=16384)
def holds_number(sentence: str) -> bool:
    """Whether a sentence states a quantity (a figure's or a reference's number is none); kept per text."""
    return bool(_NUMBER.search(_NOT_QUANTITY.sub(" ", sentence)))


@dataclass(frozen=True)
class UnitTable:
    """A unit text's answer sentences (4 words or more) and what each is, question aside."""

    spans: tuple[tuple[int, int], ...]
    postings: dict[str, np.ndarray]  # content term -> indices of the sentences holding it
    marks: np.ndarray  # per sentence: sentence_marks (MARKS)
    row: dict[int, int]  # a sentence's start -> its index


@functools.lru_cache(maxsize=4096)
def unit_table(text: str) -> UnitTable:
    spans = tuple((a, b) for a, b in sentence_spans(text) if len(_WORD.findall(text[a:b])) >= 4)
    postings: dict[str, list[int]] = {}
    for i, (a, b) in enumerate(spans):
        for t in term_set(text[a:b]):
            postings.setdefault(t, []).append(i)
    marks = np.array([sentence_marks(text[a:b]) for a, b in spans], dtype=float).reshape(-1, len(MARKS))
    return UnitTable(spans, {t: np.array(v) for t, v in postings.items()}, marks,
                     {a: i for i, (a, _) in enumerate(spans)})


# A name or a code: CamelCase, an acronym, letters mixed with digits, a file name (TensorFlow, GPU, A6000, x.pl).
_NAMED = re.compile(r"\b(?:[A-Z][a-z]+[A-Z]\w*|[A-Z]{2,}[a-z]?\b|[A-Za-z]+\d+[A-Za-z]*\w*|\w+\.(?:pl|py|sh|c|R)\b)")
MARKS = ("number", "length", "summary", "named", "measure", *KIND_NAMES)


def sentence_marks(sentence: str) -> tuple:
    """Whether a sentence states a number, its log length in words, whether it says what the paper is about,
    whether it names something (a tool, a model, a data set: _NAMED), whether it states a quantity with its unit
    (_MEASURE; a figure's or a reference's number is none), and which detail kinds it states (ask_kinds: compute,
    software, funding, license)."""
    return (holds_number(sentence), math.log(1 + len(_WORD.findall(sentence))), bool(_SUMMARY.search(sentence)),
            bool(_NAMED.search(sentence)), bool(_MEASURE.search(_NOT_QUANTITY.sub(" ", sentence))),
            *sentence_kinds(sentence))


class Pool:
    """The candidates (ask.Candidate: unit, start, end, prior) of one question, row by row: which unit (`group`,
    0..), which paper, where it starts, its prior, and the sentence marks of unit_table (`marks`: number, length,
    summary).  `values` keeps the scores the scoring steps computed as arrays (ask.lexical_scores, ...), so the
    ranker reads them without a pass over the candidates."""

    def __init__(self, cands: Sequence):
        self.n = n = len(cands)
        units = [c.unit for c in cands]
        self.start = np.array([c.start for c in cands], dtype=int)
        ends = [c.end for c in cands]
        self.prior = np.array([c.prior for c in cands], dtype=float)
        self.values: dict[str, np.ndarray] = {}
        self.tables: list[UnitTable] = []
        self.rows: list[np.ndarray] = []  # per table: its sentence -> the row holding it (-1: none)
        self.odd: dict[int, str] = {}  # rows that are no sentence of their unit's split (hand-made): their text
        self.group = np.zeros(n, dtype=int)
        self.marks = np.zeros((n, len(MARKS)))
        self._cols: dict[str, np.ndarray] = {}
        ids: dict[str, int] = {}
        cuts = [0, *(k for k in range(1, n) if units[k] is not units[k - 1]), n]
        for i, j in zip(cuts[:-1], cuts[1:]):  # runs of one unit (candidates come unit by unit, in order)
            g = ids.get(units[i].id)
            if g is None:
                g = ids[units[i].id] = len(self.tables)
                self.tables.append(unit_table(units[i].text))
                self.rows.append(np.full(len(self.tables[g].spans), -1))
            self.group[i:j] = g
            self._place(g, i, j, list(zip(self.start[i:j].tolist(), ends[i:j])), units[i].text)
        papers: dict[str, int] = {}
        self.paper = np.array([papers.setdefault(u.paper_id, len(papers)) for u in units], dtype=int)
        self.paper_ids = list(papers)

    def _place(self, g: int, i: int, j: int, spans: list[tuple[int, int]], text: str) -> None:
        """Rows i..j-1, sentences of table g: the whole split in order (the usual case), or one by one."""
        t = self.tables[g]
        if list(t.spans) == spans:
            self.rows[g][:] = np.arange(i, j)
            self.marks[i:j] = t.marks
            return
        for k, (a, b) in enumerate(spans, i):
            m = t.row.get(a, -1)
            if m >= 0 and t.spans[m][1] == b:
                self.rows[g][m] = k
                self.marks[k] = t.marks[m]
            else:
                self.odd[k] = text[a:b]
                self.marks[k] = sentence_marks(text[a:b])

    def mark(self, name: str) -> np.ndarray:
        """A sentence mark (MARKS) over the rows."""
        return self.marks[:, MARKS.index(name)]

    def holds(self, terms: Sequence[str]) -> np.ndarray:
        """Which of `terms` each row's sentence holds (rows x terms, bool); each term's column kept."""
        for term in terms:
            if term not in self._cols:
                col = np.zeros(self.n, dtype=bool)
                for t, rows in zip(self.tables, self.rows):
                    idx = t.postings.get(term)
                    if idx is not None:
                        at = rows[idx]
                        col[at[at >= 0]] = True
                for k, text in self.odd.items():
                    col[k] = term in term_set(text)
                self._cols[term] = col
        return np.stack([self._cols[t] for t in terms], axis=1) if terms else np.zeros((self.n, 0), dtype=bool)

    def same_unit_neighbours(self, held: np.ndarray) -> np.ndarray:
        """`held` with each row's previous and next rows' added when they are of the same unit."""
        out = held.copy()
        same = (self.group[1:] == self.group[:-1])[:, None]
        out[1:] |= held[:-1] & same
        out[:-1] |= held[1:] & same
        return out

    def rarity(self, held: np.ndarray) -> np.ndarray:
        """Each term's rarity among the rows, 0..1 (1: no sentence holds it)."""
        return np.log((self.n + 1) / (held.sum(axis=0) + 1)) / math.log(self.n + 1)

    def column(self, name: str, cands: Sequence) -> np.ndarray:
        """A score of the rows (cosine, raw, lexical, typed): as a scoring step left it, or read off the rows."""
        if name not in self.values:
            self.values[name] = np.array([getattr(c, name) for c in cands], dtype=float)
        return self.values[name]


def covered(held: np.ndarray, weight: np.ndarray, empty: float = 0.0) -> np.ndarray:
    """The weighted share of the terms each row holds (`empty` when the terms weigh nothing)."""
    total = float(weight.sum())
    return held @ weight / total if total else np.full(len(held), empty)
