"""What a hit holds of the query's words: the evidence relevance reads besides BM25 and cosine.

Raw BM25 says how well a unit matches relative to other units, and it grows with the library
and the query's length; for a two-word query or an author's name it says little about
whether the hit is *the* answer.  Two features that mean the same in any library do:

* `coverage`: the share of the query's content words (stemmed as FTS5's Porter tokenizer
  stems them, diacritics folded) that the hit holds anywhere: its paper's title field (title,
  authors, venue, year), its heading, its text;
* `field_match`: 1 when every content word is in a short field that names the hit: the paper's
  title field, or the object's label (a query naming a figure/table whose label the hit
  carries counts its label words matched; words like "paper" are left out).

And `bm25_norm`: BM25 divided by the query's content words and by the largest IDF the library
can give (a term in one unit: ln((N - 0.5) / 1.5) for N indexed units), so a score reads as
"how much of the best possible match" whatever the library's size.
"""

from __future__ import annotations

import math

from ..captions import query_labels
from ..text import fold
from ..units import Unit
from .labels import FILLER, NamedObject, title_share
from .query import STOPWORDS, query_terms
from .stems import stem, stems


def content_words(query: str) -> list[str]:
    """The query's words that carry meaning, folded, in order, once each."""
    return list(dict.fromkeys(w for w in query_terms(fold(query)) if w not in STOPWORDS))


def idf_max(indexed_units: int) -> float:
    """The largest IDF BM25 gives in a library of this many units (a term found in one unit), at least 1."""
    return max(1.0, math.log(max(indexed_units - 0.5, 1.0) / 1.5))


def bm25_norm(bm25: float, content_terms: int, indexed_units: int) -> float:
    return bm25 / (max(1, content_terms) * idf_max(indexed_units))


def bm25_idf(bm25: float, indexed_units: int) -> float:
    """BM25 over the largest IDF, not per word: it grows with the query's length, as evidence does."""
    return bm25 / idf_max(indexed_units)


def evidence_words(words: list[str], title_field: str, named: NamedObject | None) -> list[str]:
    """The query's content words that are evidence for a hit of this paper: all of them, unless the
    query names an object of a paper ("Table 3 of the X paper") by words this paper does not hold
    (less than half of them in its title field: the test by which labels.named_objects tells the
    paper named).  Then only those words count: every paper has a Table 3, so the label's words
    say nothing about whether this is the paper meant, and a hit holding only them (another
    paper's Table 3, a passage citing "Table 3") must not read as a confident match."""
    if named is None or not named.paper_words or title_share(named.paper_words, title_field) >= 0.5:
        return words
    return named.paper_words


def coverage(words: list[str], title_field: str, unit: Unit) -> float:
    """Share of `words` the hit holds in its title field, heading or text (0 for no words)."""
    if not words:
        return 0.0
    held = stems(title_field) | stems(unit.heading()) | stems(unit.search_text() or unit.text)
    return sum(stem(w) in held for w in words) / len(words)


def field_match(words: list[str], title_field: str, unit: Unit, named: NamedObject | None) -> float:
    """1.0 when every content word is in the hit's title field or label (see the module docstring)."""
    label = unit.object_label if unit.kind == "object" else None
    if named is not None and label and any(lab.key == named.label.key for lab, _ in query_labels(label)):
        words = named.paper_words
    words = [w for w in words if w not in FILLER]
    if not words:
        return 1.0 if named is not None and label else 0.0
    held = stems(title_field) | (stems(label) if label else set())
    return float(all(stem(w) in held for w in words))
