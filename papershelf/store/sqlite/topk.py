"""Exact BM25 top-k on FTS5 without scoring every unit a common word matches.

FTS5's `bm25()` over an OR query scores every row that matches any of its words, then sorts them: a
word found in most units (at 10,000 papers, 300,000 units) costs ~200 ms of CPU for a top 100 that
the rarer words of the query decide (the synthetic 10k library; docs/measurements/warm10k.md).

BM25 is a sum over the query's words, and FTS5 bounds each word's share below idf x (k1 + 1)
(`fts5_aux.c`: idf = log((N - n + 0.5) / (n + 0.5)), 1e-6 when not positive; k1 = 1.2).  So the
words are split by document frequency (read from an `fts5vocab` table, kept per library state): the
common ones C, whose bounds sum to B, and the rest E.  Two FTS5 queries rank only the units holding
an E word: `(E) AND (C)`, whose bm25 is the OR query's (every word appears once), and E alone, whose
bm25 is the OR query's for a unit without a C word (`_without_common`).  A unit holding C words
alone scores below B; when the k-th score found is at least B, no such unit enters the top k, and the
two lists merged are the OR query's top k.  Otherwise the caller runs the OR query (`None`).
The E query never counts a common word's units (FTS5 counts each word's units for its idf, by
reading the word's whole list: ~8 ms for a word in 300,000 units), the AND query once.

Only queries of plain ASCII words are split (the FTS5 tokenizer's porter stem of those is
`stems.stem`, so the vocabulary lookup names the indexed term); phrases, prefixes and other text
take the OR query unchanged.  `PAPERSHELF_SQLITE_EXACT_LEXICAL=1` turns the split off.
"""

from __future__ import annotations

import math
import os
import re
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass

from ...search.stems import stem

K1 = 1.2  # FTS5's bm25 k1
COMMON = 0.02  # a word in more than this share of units is a candidate for C
_WORD = re.compile(r'^"([A-Za-z]+)"$')
Ranked = Callable[[str], list[sqlite3.Row]]  # an FTS5 expression -> its top rows (score ascending)


@dataclass(frozen=True)
class Split:
    rare: list[str]  # E: the clauses ranked
    common: list[str]  # C: the clauses whose shares are bounded
    bound: float  # B: above any score a unit holding only C words can have
    common_first: bool  # the OR query's first word is in C


class Stats:
    """What search reads of the lexical index for one state of the library (the store drops it when
    the library changes): its unit count and its words' document frequencies.  The frequencies come
    from an `fts5vocab` table in the connection's temp schema, read a word at a time and kept."""

    def __init__(self, state: tuple[int, int], query: Callable[..., list[sqlite3.Row]]):
        self.state = state
        self._query = query
        self._units: int | None = None
        self._fts_units: int | None = None
        self._df: dict[str, int] = {}

    @property
    def units(self) -> int:
        """The indexed units (`index_size`), counted once per state."""
        if self._units is None:
            self._units = int(self._query("SELECT count(*) AS n FROM search_docs")[0]["n"])
        return self._units

    @property
    def fts_units(self) -> int:
        """N as FTS5's bm25 reads it (the same count, from FTS5's own record)."""
        if self._fts_units is None:
            self._fts_units = _row_count(self._query)
        return self._fts_units

    def df(self, term: str) -> int:
        if not self._df:
            self._query("CREATE VIRTUAL TABLE IF NOT EXISTS temp.search_vocab USING fts5vocab(main, search_fts, row)")
        if term not in self._df:
            rows = self._query("SELECT doc FROM temp.search_vocab WHERE term = ?", (term,))
            self._df[term] = int(rows[0][0]) if rows else 0
        return self._df[term]


def _row_count(query: Callable[..., list[sqlite3.Row]]) -> int:
    """N as FTS5's bm25 reads it: the first varint of the index's averages record (id 1)."""
    rows = query("SELECT block FROM search_fts_data WHERE id = 1")
    if not rows or not rows[0][0]:
        return 0
    blob, n = bytes(rows[0][0]), 0
    for i, b in enumerate(blob[:9]):  # SQLite's varint: 7 bits a byte, big-endian, a 9th byte of 8
        if i == 8:
            return (n << 8) | b
        n = (n << 7) | (b & 0x7F)
        if b < 0x80:
            return n
    return n


def enabled() -> bool:
    return os.environ.get("PAPERSHELF_SQLITE_EXACT_LEXICAL", "") not in ("1", "true", "yes")


def index_term(word: str) -> str:
    """The term FTS5's `porter unicode61` tokenizer indexes for an ASCII word (porter leaves words
    under 3 or over 64 characters as they are)."""
    low = word.lower()
    return stem(low) if 3 <= len(low) <= 64 else low


def idf(units: int, df: int) -> float:
    """FTS5's idf (fts5_aux.c), floored as it floors it."""
    value = math.log((units - df + 0.5) / (df + 0.5))
    return value if value > 0 else 1e-6


def split(match: str, units: int, limit: int, df: Callable[[str], int]) -> Split | None:
    """E and C for an OR query of plain words, or None when it has other clauses or no common word
    worth leaving out (then the OR query costs what the split would).  A word goes to C only while
    the words left in E can still fill the top `limit` and C's bound stays below the k-th score
    they are expected to give (`_kth_score`)."""
    clauses = match.split(" OR ")
    words = [_WORD.match(c) for c in clauses]
    if units <= 0 or len(clauses) < 2 or not all(words):
        return None
    freq = {c: df(index_term(m.group(1))) for c, m in zip(clauses, words, strict=True) if m}
    order = sorted(clauses, key=lambda c: -freq[c])  # commonest first
    common: list[str] = []
    bound = 0.0
    for c in order[:-1]:  # E keeps at least the rarest word
        share = idf(units, freq[c]) * (K1 + 1)
        kth = _kth_score(units, [freq[e] for e in order[len(common) + 1:]], limit)
        if freq[c] <= COMMON * units or kth is None or bound + share >= kth:
            break
        common.append(c)
        bound += share
    if not common:
        return None
    # 1e-9 relative margin: the bound must not fall below FTS5's double arithmetic
    return Split([c for c in clauses if c not in common], [c for c in clauses if c in common],
                 bound * (1 + 1e-9) + 1e-12, clauses[0] in common)


def _kth_score(units: int, freqs: list[int], limit: int) -> float | None:
    """About the k-th score the E words give: the idf of the rarest word that, with the rarer ones,
    is in `limit` units (a unit holding it once, at the mean length, scores its idf); None when
    all of them together are in fewer units."""
    held = 0
    for n in sorted(freqs):
        held += n
        if held >= limit:
            return idf(units, n)
    return None


def top(plan: Split, limit: int, ranked: Ranked) -> list[sqlite3.Row] | None:
    """The OR query's top `limit` rows, from the top of `(E) AND (C)` (exact scores) and of E alone
    (its own scores, exact for a unit without a C word), or None when they cannot prove it."""
    rare, common = " OR ".join(plan.rare), " OR ".join(plan.common)
    # FTS5 sums the words' shares in the expression's order: the order of the OR query's words kept
    # where C is its head or its tail (then every score is the OR query's to the last bit)
    both = ranked(f"({common}) AND ({rare})" if plan.common_first else f"({rare}) AND ({common})")
    rows = both + _without_common(both, ranked(rare), limit)
    if len(rows) < limit:
        return None
    rows.sort(key=lambda r: r["score"])
    rows = rows[:limit]
    return rows if -rows[-1]["score"] >= plan.bound else None


def _without_common(both: list[sqlite3.Row], alone: list[sqlite3.Row], limit: int) -> list[sqlite3.Row]:
    """The units of E's own top that hold no C word and may enter the top `limit`.  A unit of E's top
    that `both` does not list either holds no C word, or holds one and scores at most `both`'s
    last (when `both` is full); so one that scores above that last holds none, and its E score is
    its whole score.  A unit of E with no C word in the top `limit` is in E's own top `limit`: each
    unit above it there is above it in the OR query too.  One tied with `both`'s last is left out
    (a tie at the k-th place falls either way in FTS5's own sort too)."""
    listed = {r["unit_id"] for r in both}
    floor = -both[-1]["score"] if len(both) >= limit else None
    out = []
    for r in alone:
        if r["unit_id"] in listed:
            continue
        if floor is not None and -r["score"] <= floor:
            break
        out.append(r)
    return out
