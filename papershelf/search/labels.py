"""Queries that name a figure or table: "Table 3", "fig. 2b", "table IV", "table 2 of the Bigtable paper".

A researcher who types a label wants that object, not the passages that mention "table" and
"3".  When a short query names one label (read by the caption parser's `query_labels`, so
"TABLE IV", "Table 4" and "tab. 4" are one object), the objects printed with that label within
the search's filters come first:

* with a paper filter, or with no other words, every such object in filter order of evidence
  (the fused ranking), the filtered paper's own object first;
* with words besides the label ("of the Bigtable paper", "Mooney semantic parser") and no paper
  filter, only the objects of papers those words name: at least half of them in the paper's title
  field (title, authors, venue, year), the paper holding most of them first (then by BM25 of the
  words).  Words that name no paper ("a version of Figure 4 using Pearson correlation") leave the
  query to ordinary ranking: it is a phrase that mentions a label.

A long query that happens to cite a label ("as Table 2 shows, ...") is a sentence, not a
reference, and is ranked as text: more than MAX_PAPER_WORDS other content words turn it off.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..captions import Label, make_label, query_labels
from ..models import Filters
from ..store.paper_fields import paper_index_title
from .query import STOPWORDS, fts_query, query_terms

MAX_PAPER_WORDS = 6
# No paper numbers its figures or tables past this; a larger number ("table 99999999999999999999")
# names no object, and is searched as the text it is.  Roman numerals are written up to 3999 (MMMCMXCIX).
MAX_LABEL_NUMBER = 9999
MAX_ROMAN = 3999
# Words that say "the paper" rather than which one.
FILLER = frozenset("paper article study work publication manuscript see show shows shown".split())


@dataclass(frozen=True)
class NamedObject:
    """What a query names: the label and the words that are left to name the paper."""

    label: Label
    paper_words: list[str]


def named_object(query: str) -> NamedObject | None:
    """The one object label a short query names, or None (no label, several, or a sentence)."""
    found = query_labels(query)
    if len(found) != 1:
        return None
    label, (start, end) = found[0]
    parts = label.number.lstrip("Ss").split(".")  # "2.1": chapter 2's first
    if any(p.isdigit() and (len(p) > len(str(MAX_LABEL_NUMBER)) or int(p) > MAX_LABEL_NUMBER) for p in parts):
        return None  # read before `label.key` turns it into ints: a 4300-digit number cannot be one
    rest = query[:start] + " " + query[end:]
    # single letters (an initial, the "s" of "Kendall's") name nothing
    words = [w for w in query_terms(rest) if w not in STOPWORDS and w not in FILLER and len(w) > 1]
    if len(words) > MAX_PAPER_WORDS:
        return None
    return NamedObject(label, words)


def roman(n: int) -> str:
    """4 -> "IV"; "" outside 1-`MAX_ROMAN` (no roman form is printed there): bounded whatever `n` is."""
    if not 1 <= n <= MAX_ROMAN:
        return ""
    out = ""
    for value, digits in ((1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"), (50, "L"),
                          (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")):
        count, n = divmod(n, value)
        out += digits * count
    return out


def printed_forms(label: Label) -> list[str]:
    """Every label a reader may have stored for this object (units store make_label's form)."""
    kind, supplementary, parts = label.key
    n = ".".join(map(str, parts))  # "2.1" is printed only so: a chapter's numbers have no roman form
    if supplementary:
        numbers = [f"S{n}", n]
        return [make_label(kind, x, True) for x in numbers] + [make_label(kind, f"S{n}")]
    if min(parts) <= 0:  # an appendix's "A1" (its letter a negative part), or no number read
        return [make_label(kind, label.number)]
    if len(parts) > 1:
        return [make_label(kind, n)]
    return [make_label(kind, n)] + ([make_label(kind, r)] if (r := roman(parts[0])) else [])


def named_objects(store, query: str, filters: Filters, weights: tuple[float, float, float],
                  depth: int) -> tuple[NamedObject | None, list[tuple[str, str]]]:
    """The named object (if any) and the (unit id, paper id) of the objects that answer it, best first."""
    named = named_object(query)
    if named is None:
        return None, []
    candidates = store.objects_named(printed_forms(named.label), filters)
    if not candidates or not named.paper_words or filters.papers:
        return named, candidates
    papers = store.get_papers(sorted({pid for _, pid in candidates}))
    share = {pid: title_share(named.paper_words, paper_index_title(p)) for pid, p in papers.items()}
    kept = [c for c in candidates if share.get(c[1], 0.0) >= 0.5]
    if not kept:  # the other words do not name a paper: a phrase that mentions a label ("a version of Figure 4")
        return None, []
    match = fts_query(" ".join(named.paper_words))
    scope = replace(filters, papers=sorted({pid for _, pid in kept}), sources=[], object_kind=None)
    best: dict[str, float] = {}
    for hit in store.lexical_search(match, depth, scope, weights) if match else []:
        best[hit.paper_id] = max(best.get(hit.paper_id, 0.0), hit.score)
    return named, sorted(kept, key=lambda c: (-share[c[1]], -best.get(c[1], 0.0), c[0]))


def title_share(words: list[str], title_field: str) -> float:
    """The share of `words` a paper's title field (title, authors, venue, year) holds, stemmed."""
    from .stems import stem, stems

    held = stems(title_field)
    return sum(stem(w) in held for w in words) / max(1, len(words))


def objects_first(order: list[str], named: list[tuple[str, str]], scores: dict[str, float],
                  paper_of: dict[str, str], by_ranking: bool) -> list[str]:
    """The ranked order with the named objects in front: in the order given, or (`by_ranking`, when
    no words name the paper) in the order the ranking already had them.  The named objects join
    `scores` and `paper_of` at the top score so every later step (the per-paper cap, the hit's
    score) sees them."""
    ids = [uid for uid, _ in named]
    if by_ranking:
        position = {uid: n for n, uid in enumerate(order)}
        ids.sort(key=lambda u: position.get(u, len(order)))  # stable: the given order where both are absent
    top = max(scores.values(), default=1.0)
    for uid, pid in named:
        scores[uid] = max(scores.get(uid, top), top)
        paper_of[uid] = pid
    front = set(ids)
    return ids + [u for u in order if u not in front]
