"""Lexical search on PostgreSQL: the safe FTS5 expression from `search/query.py`, answered
from the BM25 statistics (`bm25.py`) with FTS5's matching rules.

* A word clause ``"macro"`` matches the units holding its lexeme; a prefix clause
  ``"macro"*`` the units holding any of the lexemes it begins (its 50 most frequent).
* A phrase clause ``"il 6"`` matches the units holding the phrase (the GIN index over the
  tsvectors finds them) and is scored as one term, as FTS5 does (phrases.py); a prefix phrase
  ``"il 6"*`` matches through the GIN index, its words adding to the score of the units it matches.
* ``NEAR("a" "b" "c", N)`` matches the units holding every word within N tokens between the
  first and the last, in one column (as FTS5); such units are scored by BM25 of its words.

Units are ranked by BM25 with FTS5's constants and column weights; ties by unit id.
"""

from __future__ import annotations

import re

from ...models import LexicalHit
from . import bm25, phrases
from .tsquery import _CLAUSE, _WORD, CONFIG, tsquery_sql, words_sql

_NEAR = re.compile(r"^\s*NEAR\((.*),\s*(\d+)\)\s*$", re.S)


def _clauses(match: str) -> list[tuple[list[str], bool]]:
    return [(words, bool(star)) for phrase, star in _CLAUSE.findall(match or "") if (words := _WORD.findall(phrase))]


def _phrase_docs(query, clauses: list[tuple[list[str], bool]]) -> list[int]:
    """Units holding any of the phrase clauses, through the GIN index."""
    expr = " OR ".join('"' + " ".join(words) + '"' + ("*" if star else "") for words, star in clauses)
    tsq, params = tsquery_sql(expr)
    return [r["doc_key"] for r in query(
        f"SELECT b.doc_key FROM search_docs s JOIN bm25_docs b ON b.unit_id = s.unit_id WHERE s.tsv @@ {tsq}",
        params)]


def _near_docs(query, words: list[str], near: int) -> list[int]:
    """Units holding every word, the first and last at most `near` tokens apart (FTS5's NEAR)."""
    return [r["doc_key"] for r in query(
        "WITH t AS (SELECT array_agg(DISTINCT x.lexeme) AS terms "
        f"FROM unnest(to_tsvector('{CONFIG}', {words_sql('%(w)s')})) x) "
        "SELECT b.doc_key FROM t, search_docs s JOIN bm25_docs b ON b.unit_id = s.unit_id "
        f"WHERE t.terms IS NOT NULL AND s.tsv @@ plainto_tsquery('{CONFIG}', {words_sql('%(w)s')}) "
        "AND papershelf_near(s.tsv, t.terms, %(span)s)", {"w": " ".join(words), "span": near + 1})]


def search(query, match: str, limit: int, filters_sql: tuple[str, list],
           weights: tuple[float, float, float]) -> list[LexicalHit]:
    """The top `limit` units for a safe FTS5 expression; `filters_sql` is filter_sql() on alias d."""
    clauses = _clauses(match)
    if not clauses:
        return []
    near = _NEAR.match(match)
    if near:
        words = [w for ws, _ in clauses for w in ws]
        docs = _near_docs(query, words, int(near.group(2)))
        if not docs:
            return []
        plan = bm25.plan(query, "", "", " ".join(words), lambda: docs)
        return bm25.rank(query, plan, limit, filters_sql, weights, only_extra=True)
    singles = [ws[0] for ws, star in clauses if len(ws) == 1 and not star]
    prefixes = [ws[0] for ws, star in clauses if len(ws) == 1 and star]
    exact = [ws for ws, star in clauses if len(ws) > 1 and not star]  # scored as FTS5 does (phrases.py)
    starred: list[tuple[list[str], bool]] = [(ws, star) for ws, star in clauses if len(ws) > 1 and star]
    plan = bm25.plan(query, " ".join(singles), " ".join(prefixes), " ".join(w for ws, _ in starred for w in ws),
                     (lambda: _phrase_docs(query, starred)) if starred else None)
    if exact:
        plan.phrase_rows = phrases.postings(query, exact)
        for i in range(1, len(exact) + 1):
            df = len({r[1] for r in plan.phrase_rows if r[0] == -i})
            if df:
                plan.terms.append(bm25.Term(-i, df, bm25.idf(plan.n, df), True))
    return bm25.rank(query, plan, limit, filters_sql, weights)

