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
from concurrent.futures import Executor

from ...models import LexicalHit
from . import bm25, forward, phrases, topk
from .tsquery import _CLAUSE, _WORD, CONFIG, words_sql

_NEAR = re.compile(r"^\s*NEAR\((.*),\s*(\d+)\)\s*$", re.S)


def _clauses(match: str) -> list[tuple[list[str], bool]]:
    return [(words, bool(star)) for phrase, star in _CLAUSE.findall(match or "") if (words := _WORD.findall(phrase))]


def _phrase_docs(query, clauses: list[tuple[list[str], bool]]) -> list[int]:
    """Units holding any of the (prefix) phrase clauses, through the GIN index."""
    params: dict = {}
    tests = " OR ".join(_clause_test(words, star, f"c{i}", params) for i, (words, star) in enumerate(clauses))
    return [r["doc_key"] for r in query(
        f"SELECT b.doc_key FROM search_docs s JOIN bm25_docs b ON b.unit_id = s.unit_id WHERE {tests}", params)]


# FTS5's NEAR over the words %(w)s: a unit (alias s) holding every one of them, the first and the
# last at most %(span)s positions apart in one column.  Every word there is tested first (cheap).
_NEAR_TERMS = (f"(SELECT array_agg(DISTINCT x.lexeme) AS terms FROM unnest(to_tsvector('{CONFIG}', "
               f"{words_sql('%(w)s')})) x) t")
_NEAR_TEST = (f"t.terms IS NOT NULL AND s.tsv @@ plainto_tsquery('{CONFIG}', {words_sql('%(w)s')}) "
              "AND papershelf_near(s.tsv, t.terms, %(span)s)")


def _near_docs(query, words: list[str], near: int) -> list[int]:
    """Units holding every word, the first and last at most `near` tokens apart (FTS5's NEAR)."""
    return [r["doc_key"] for r in query(
        f"SELECT b.doc_key FROM {_NEAR_TERMS}, search_docs s JOIN bm25_docs b ON b.unit_id = s.unit_id "
        f"WHERE {_NEAR_TEST}", {"w": " ".join(words), "span": near + 1})]


def _clause_test(words: list[str], star: bool, name: str, params: dict) -> str:
    """SQL testing a unit (alias s) against one clause by FTS5's rules: a phrase (or a word) with
    its words consecutive in one column (title A, heading B or body C: every lexeme given that
    weight), a prefix clause's last word a prefix."""
    if star:
        for w in "ABC":  # (\w+ words cannot hold a quote: each quoted word is one lexeme)
            params[f"{name}{w}"] = " <-> ".join(f"'{x}':{w}" for x in words[:-1]) + \
                (" <-> " if len(words) > 1 else "") + f"'{words[-1]}':*{w}"
        return "s.tsv @@ (" + " || ".join(f"to_tsquery('{CONFIG}', %({name}{w})s)" for w in "ABC") + ")"
    params[name] = " ".join(words)
    text = f"phraseto_tsquery('{CONFIG}', {words_sql(f'%({name})s')})::text"
    return "s.tsv @@ (" + " || ".join(f"regexp_replace({text}, '''( |$)', ''':{w}\\1', 'g')::tsquery"
                                      for w in "ABC") + ")"


def _listed(holds: str) -> str:
    """The listed units %(u)s that `holds` (SQL on their forward row f) and their tsvectors, read
    in that order (OFFSET 0 fences): the planner would rather scan the GIN index over the whole
    library for a long phrase (its estimate of the rows is 1), at a cost that grows with it, and a
    unit's tsvector costs more to read than its forward row (forward.holds_sql)."""
    return ("(SELECT s.unit_id, s.tsv FROM (SELECT b.unit_id FROM bm25_docs b JOIN bm25_forward f "
            f"ON f.doc_key = b.doc_key WHERE b.unit_id = ANY(%(u)s) AND ({holds}) OFFSET 0) h "
            "JOIN search_docs s ON s.unit_id = h.unit_id OFFSET 0)")


def matching(query, match: str, unit_ids: list[str]) -> set[str]:
    """Which of these units the safe FTS5 expression matches, by search()'s rules, checked on the
    units' own tsvectors (evidence for a ranked list: its cost is the list's, not the library's),
    only those holding every word of a clause (a prefix clause: but its last) read."""
    clauses = _clauses(match)
    if not clauses or not unit_ids:
        return set()
    near = _NEAR.match(match)
    if near:
        listed = _listed(forward.holds_sql("f.tfs", words_sql("%(w)s")))
        return {r["unit_id"] for r in query(
            f"SELECT s.unit_id FROM {_NEAR_TERMS}, {listed} s WHERE {_NEAR_TEST}",
            {"w": " ".join(w for ws, _ in clauses for w in ws), "span": int(near.group(2)) + 1, "u": unit_ids})}
    params: dict = {"u": unit_ids}
    tests = [_clause_test(words, star, f"c{i}", params) for i, (words, star) in enumerate(clauses)]
    holds = []
    for i, (words, star) in enumerate(clauses):
        params[f"h{i}"] = " ".join(words[:-1] if star else words)
        holds.append(forward.holds_sql("f.tfs", words_sql(f"%(h{i})s")))
    return {r["unit_id"] for r in query(
        f"SELECT s.unit_id FROM {_listed(' OR '.join(holds))} s WHERE {' OR '.join(tests)}", params)}


def search(query, match: str, limit: int, filters_sql: tuple[str, list],
           weights: tuple[float, float, float], pool: Executor) -> list[LexicalHit]:
    """The top `limit` units for a safe FTS5 expression; `filters_sql` is filter_sql() on alias d;
    `pool` (threads, each read on its own connection) counts the phrases at once."""
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
    # Each phrase is counted beside the plan and the other phrases (a read connection each).
    counted = [pool.submit(phrases.count, query, -i, words, topk.exact_only())
               for i, words in enumerate(exact, start=1)]
    plan = bm25.plan(query, " ".join(singles), " ".join(prefixes), " ".join(w for ws, _ in starred for w in ws),
                     (lambda: _phrase_docs(query, starred)) if starred else None)
    for i, (words, pending) in enumerate(zip(exact, counted, strict=True), start=1):
        phrase = pending.result()
        plan.phrase_rows += phrase.rows
        if phrase.df:
            plan.terms.append(bm25.Term(-i, phrase.df, bm25.idf(plan.n, phrase.df), True))
            if phrase.sampled:
                plan.sampled[-i] = words
                plan.sampled_units.update(phrase.units)
    hits = bm25.rank(query, plan, limit, filters_sql, weights)
    return _complete(query, plan, hits, weights) if plan.sampled else hits


def _complete(query, plan: bm25.Plan, hits: list[LexicalHit], weights: tuple[float, float, float]) -> list[LexicalHit]:
    """The returned units' exact scores when a phrase was sampled (phrases.py): each unit's share
    of the phrase counted in its own tsvector, in place of what the sample knew of it."""
    idf = {t.id: t.idf for t in plan.terms}
    scores = {h.unit_id: h.score for h in hits}
    for term_id, words in plan.sampled.items():
        found = phrases.complete(query, term_id, words, list(scores))
        known = {plan.sampled_units[r[1]]: r for r in plan.phrase_rows if r[0] == term_id}
        for uid in scores:
            scores[uid] += bm25.share(idf[term_id], found.get(uid), plan.avgdl, weights) - \
                bm25.share(idf[term_id], known.get(uid), plan.avgdl, weights)
    paper = {h.unit_id: h.paper_id for h in hits}
    return [LexicalHit(u, paper[u], scores[u]) for u in sorted(scores, key=lambda u: (-scores[u], u))]

