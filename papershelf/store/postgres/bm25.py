"""BM25 on PostgreSQL from statistics kept at write time: postings, document frequencies,
unit lengths and corpus totals, maintained in the paper's own transaction.

Why: computing BM25 at query time from tsvectors costs a count over the GIN index per
query term plus an unnest of every matched unit's tsvector (729 ms per SciFact claim).
Search engines keep postings instead (FTS5, Lucene); the BM25 extensions for PostgreSQL
are not in a stock server, so this is plain SQL over four tables:

* `bm25_terms`    one row per lexeme: its id and document frequency (df);
* `bm25_docs`     one row per indexed unit: a compact key, its filter columns, its length;
* `bm25_postings` (doc, term) -> term frequency in title / heading / body, and the length,
                  indexed both ways (a term's postings by impact; a unit's terms, for writes);
* `bm25_forward`  a unit's postings in one compact row, which ranking looks up (forward.py);
* `bm25_totals`   documents and tokens, in a few shards summed at query time, so writers
                  in different processes rarely wait on one row.

The lexemes, frequencies and lengths are read from the unit's own weighted tsvector
(title A, heading B, body C), so the statistics are exactly what a recount of the
tsvectors gives (`problems()` compares them, and `verify` runs it).  A paper's df changes
are summed into one net delta per term and applied last, locking term rows in id order,
so concurrent writers wait for each other but never deadlock.

Ranking (`rank`) is exact BM25 top-k.  When the query's lists are long, MaxScore first: a
unit that holds none of the query's rarer terms can score at most the sum of the other
terms' upper bounds (idf x (k1 + 1)), so when the k-th best score among units holding a
rare term is above that sum, the common terms' long lists are never read; a candidate
looks its other terms up by (unit, term), unless even their bounds cannot lift it into the
top k.  When the bound does not hold, or the lists are short, every list is read.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from dataclasses import dataclass, field

from ...models import LexicalHit
from . import forward, phrases, topk
from .tsquery import CONFIG, words_sql

K1, B = 1.2, 0.75
SHARDS = 16
# Reading a posting in a term's list costs about 1/LOOKUP_COST of looking one up by (unit, term):
# MaxScore pays when the lists it skips are that much longer than the ones it reads, and a
# query whose lists hold FULL_MAX postings or fewer reads them all.
LOOKUP_COST, FULL_MAX = 100.0, 30000

SCHEMA = f"""
CREATE TABLE bm25_terms (id SERIAL PRIMARY KEY, term TEXT NOT NULL, df INTEGER NOT NULL DEFAULT 0);
CREATE UNIQUE INDEX bm25_terms_term ON bm25_terms(term text_pattern_ops);
CREATE TABLE bm25_docs (
    doc_key BIGSERIAL PRIMARY KEY, unit_id TEXT NOT NULL UNIQUE, paper_id TEXT NOT NULL,
    source TEXT NOT NULL, object_kind TEXT, dl INTEGER NOT NULL);
CREATE INDEX bm25_docs_paper ON bm25_docs(paper_id);
CREATE TABLE bm25_postings (
    doc_key BIGINT NOT NULL, term_id INTEGER NOT NULL, tf_title SMALLINT NOT NULL,
    tf_heading SMALLINT NOT NULL, tf_body SMALLINT NOT NULL, dl INTEGER NOT NULL,
    PRIMARY KEY (doc_key, term_id) INCLUDE (tf_title, tf_heading, tf_body, dl));
CREATE INDEX bm25_postings_term ON bm25_postings(term_id) INCLUDE (doc_key, tf_title, tf_heading, tf_body, dl);
CREATE TABLE bm25_totals (shard SMALLINT PRIMARY KEY, docs BIGINT NOT NULL, length BIGINT NOT NULL);
INSERT INTO bm25_totals SELECT g, 0, 0 FROM generate_series(0, {SHARDS - 1}) g;
-- FTS5's NEAR over single words: every lexeme within `span` positions of one another, in one column.
CREATE FUNCTION papershelf_near(doc tsvector, terms text[], span integer) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  WITH occ AS (SELECT x.lexeme, p.pos, p.w FROM unnest(doc) x,
                      unnest(x.positions, x.weights) AS p(pos, w) WHERE x.lexeme = ANY(terms))
  SELECT EXISTS (SELECT 1 FROM occ a WHERE (SELECT count(DISTINCT b.lexeme) FROM occ b
                 WHERE b.w = a.w AND b.pos BETWEEN a.pos AND a.pos + span) = cardinality(terms))
$$;
"""

IMPACTS_SCHEMA = """
CREATE TABLE IF NOT EXISTS bm25_reference (id SMALLINT PRIMARY KEY CHECK (id = 0), avgdl FLOAT8 NOT NULL);
INSERT INTO bm25_reference VALUES (0, 100) ON CONFLICT (id) DO NOTHING;
ALTER TABLE bm25_postings ADD COLUMN IF NOT EXISTS impact REAL;
DROP INDEX IF EXISTS bm25_postings_term;
"""
# A term's postings by impact, best first (topk.py reads their heads); also a term's whole list.
_IMPACT_INDEX = ("CREATE INDEX IF NOT EXISTS bm25_postings_impact ON bm25_postings(term_id, impact DESC) "
                 "INCLUDE (doc_key, tf_title, tf_heading, tf_body, dl)")
# (A unit's postings are read through its forward row; the key serves writes and the bulk fill.)
PRIMARY = "ALTER TABLE bm25_postings ADD PRIMARY KEY (doc_key, term_id)"

# A unit's length: every position of its tsvector (stopwords have none), as the old SQL BM25.
_DL = "(SELECT coalesce(sum(cardinality(x.positions)), 0) FROM unnest(s.tsv) x)"
# (array_positions, not a subquery per column: the bulk recount evaluates it for every posting)
_TF = "coalesce(cardinality(array_positions(x.weights, '{}'::text)), 0)"
# A posting's impact: its BM25 saturation with weights 1 at the reference unit length (not the
# live average, so a write never changes other rows); topk.py bounds the live score by it.
_IMPACT = (f"((q.a + q.h + q.c)::float8 * {K1 + 1}::float8 / ((q.a + q.h + q.c)::float8 + {K1}::float8 * "
           f"({1 - B}::float8 + {B}::float8 * q.dl / r.avgdl)))::real")
_POSTINGS_INTO = "INSERT INTO bm25_postings(term_id, doc_key, tf_title, tf_heading, tf_body, dl, impact) "


def _postings_of(where: str) -> str:
    """Every posting of the units `where` selects (alias s: search_docs, b: bm25_docs), counted
    from their tsvectors: (term_id, doc_key, a, h, c, dl, impact)."""
    return (f"SELECT q.*, {_IMPACT} AS impact FROM bm25_reference r, (SELECT t.id AS term_id, b.doc_key, "
            f"{_TF.format('A')} AS a, {_TF.format('B')} AS h, {_TF.format('C')} AS c, b.dl "
            "FROM search_docs s JOIN bm25_docs b ON b.unit_id = s.unit_id, "
            f"unnest(s.tsv) x JOIN bm25_terms t ON t.term = x.lexeme {where}) q")


def rebuild(db, only_new: bool = False) -> None:
    """Statistics for every unit in search_docs, in bulk (the migration's backfill, and a
    bulk-loaded benchmark library); `only_new` adds just the units not counted yet.  A full
    rebuild sets the reference length to the average and builds the postings' indexes last."""
    if not only_new:
        reset(db)
    start = db.execute("SELECT coalesce(max(doc_key), 0) AS k FROM bm25_docs").fetchone()["k"]
    count_units(db, start if only_new else None)
    db.execute(f"{_POSTINGS_INTO}{_postings_of(f'WHERE b.doc_key > {int(start)}')}")
    if not only_new:
        index_postings(db)
        forward.fill(db, "true")
        return
    forward.fill(db, f"p.doc_key > {int(start)}")
    db.execute("UPDATE bm25_terms t SET df = t.df + c.n FROM (SELECT term_id, count(*) AS n FROM bm25_postings "
               f"WHERE doc_key > {int(start)} GROUP BY term_id) c WHERE t.id = c.term_id")
    db.execute("UPDATE bm25_totals SET docs = docs + d.n, length = length + d.len FROM (SELECT count(*) AS n, "
               f"coalesce(sum(dl), 0) AS len FROM bm25_docs WHERE doc_key > {int(start)}) d WHERE shard = 0")


def reset(db) -> None:
    """Empty statistics without the postings' indexes (a bulk recount builds them last)."""
    db.execute(forward.SCHEMA)
    db.execute("TRUNCATE bm25_postings, bm25_docs, bm25_forward")
    db.execute("UPDATE bm25_terms SET df = 0")
    db.execute("UPDATE bm25_totals SET docs = 0, length = 0")
    db.execute("DROP INDEX IF EXISTS bm25_postings_impact")
    db.execute("ALTER TABLE bm25_postings DROP CONSTRAINT IF EXISTS bm25_postings_pkey")


def count_units(db, start: int | None) -> None:
    """The units not counted yet (doc keys after `start`), their lengths and their terms; after a
    reset (`start` None) also the reference length, every term's df (one pass: a tsvector holds a
    lexeme once) and the totals."""
    db.execute(f"INSERT INTO bm25_docs(unit_id, paper_id, source, object_kind, dl) "
               f"SELECT s.unit_id, s.paper_id, s.source, s.object_kind, {_DL} FROM search_docs s "
               "WHERE NOT EXISTS (SELECT 1 FROM bm25_docs b WHERE b.unit_id = s.unit_id)")
    if start is not None:
        new = f"s.unit_id IN (SELECT unit_id FROM bm25_docs WHERE doc_key > {int(start)})"
        db.execute(f"INSERT INTO bm25_terms(term) SELECT DISTINCT x.lexeme FROM search_docs s, unnest(s.tsv) x "
                   f"WHERE {new} ON CONFLICT (term) DO NOTHING")
        return
    db.execute("UPDATE bm25_reference SET avgdl = coalesce((SELECT greatest(1, avg(dl)) FROM bm25_docs), avgdl)")
    db.execute("INSERT INTO bm25_terms(term, df) SELECT x.lexeme, count(*) FROM search_docs s, unnest(s.tsv) x "
               "GROUP BY 1 ORDER BY 1 ON CONFLICT (term) DO UPDATE SET df = excluded.df")
    db.execute("UPDATE bm25_totals SET docs = d.n, length = d.len FROM (SELECT count(*) AS n, "
               "coalesce(sum(dl), 0) AS len FROM bm25_docs) d WHERE shard = 0")


def count_postings(db, lo: int, hi: int) -> None:
    """The postings of the units with lo < doc_key <= hi (a bulk recount may run ranges in
    parallel sessions: each posting is its own row)."""
    db.execute(f"{_POSTINGS_INTO}{_postings_of(f'WHERE b.doc_key > {int(lo)} AND b.doc_key <= {int(hi)}')}")


def index_postings(db) -> None:
    """The postings' two indexes, after a bulk recount (then `forward.fill` the forward rows)."""
    db.execute(PRIMARY)
    db.execute(_IMPACT_INDEX)


class Changes:
    """The net change one transaction makes to the statistics, applied once at its end."""

    def __init__(self) -> None:
        self.df: dict[int, int] = {}
        self.docs = 0
        self.length = 0

    def count(self, rows, sign: int) -> None:
        for r in rows:
            self.df[r["term_id"]] = self.df.get(r["term_id"], 0) + sign * r["n"]


def forget(db, paper_id: str, changes: Changes) -> None:
    """Remove a paper's units from the statistics (before its search_docs rows go)."""
    docs = db.execute("DELETE FROM bm25_docs WHERE paper_id=%s RETURNING doc_key, dl", (paper_id,)).fetchall()
    if not docs:
        return
    changes.docs -= len(docs)
    changes.length -= sum(r["dl"] for r in docs)
    db.execute("DELETE FROM bm25_forward WHERE doc_key = ANY(%s)", ([r["doc_key"] for r in docs],))
    changes.count(db.execute(
        "WITH p AS (DELETE FROM bm25_postings WHERE doc_key = ANY(%s) RETURNING term_id) "
        "SELECT term_id, count(*) AS n FROM p GROUP BY term_id", ([r["doc_key"] for r in docs],)).fetchall(), -1)


def index(db, paper_id: str, changes: Changes) -> None:
    """Add a paper's search_docs rows (just written) to the statistics."""
    docs = db.execute(f"INSERT INTO bm25_docs(unit_id, paper_id, source, object_kind, dl) "
                      f"SELECT s.unit_id, s.paper_id, s.source, s.object_kind, {_DL} FROM search_docs s "
                      "WHERE s.paper_id=%s RETURNING dl", (paper_id,)).fetchall()
    if not docs:
        return
    changes.docs += len(docs)
    changes.length += sum(r["dl"] for r in docs)
    # New lexemes in sorted order: two writers adding the same new terms wait, never deadlock.
    db.execute("INSERT INTO bm25_terms(term) SELECT DISTINCT x.lexeme FROM search_docs s, unnest(s.tsv) x "
               "WHERE s.paper_id=%s ORDER BY 1 ON CONFLICT (term) DO NOTHING", (paper_id,))
    changes.count(db.execute(
        f"WITH p AS ({_POSTINGS_INTO}{_postings_of('WHERE s.paper_id=%s')} RETURNING term_id) "
        "SELECT term_id, count(*) AS n FROM p GROUP BY term_id", (paper_id,)).fetchall(), +1)
    forward.fill(db, "p.doc_key IN (SELECT doc_key FROM bm25_docs WHERE paper_id=%s)", (paper_id,))


def apply(db, changes: Changes) -> None:
    """The net df and totals changes, last in the transaction: term rows locked in id order."""
    delta = sorted((t, n) for t, n in changes.df.items() if n)
    if delta:
        ids = [t for t, _ in delta]
        db.execute("SELECT id FROM bm25_terms WHERE id = ANY(%s) ORDER BY id FOR UPDATE", (ids,))
        db.execute("UPDATE bm25_terms t SET df = t.df + d.n FROM unnest(%s::int[], %s::int[]) AS d(id, n) "
                   "WHERE t.id = d.id", (ids, [n for _, n in delta]))
    if changes.docs or changes.length:
        db.execute("UPDATE bm25_totals SET docs = docs + %s, length = length + %s WHERE shard = %s",
                   (changes.docs, changes.length, os.getpid() % SHARDS))


def problems(query) -> list[str]:
    """The kept statistics against a full recount from the tsvectors (empty when exact)."""
    out: list[str] = []
    checks = {
        "units": f"SELECT s.unit_id, s.paper_id, s.source, s.object_kind, {_DL} AS dl FROM search_docs s "
                 "EXCEPT ALL SELECT unit_id, paper_id, source, object_kind, dl FROM bm25_docs",
        "stale units": f"SELECT unit_id, paper_id, source, object_kind, dl FROM bm25_docs EXCEPT ALL "
                       f"SELECT s.unit_id, s.paper_id, s.source, s.object_kind, {_DL} FROM search_docs s",
        "postings": f"(SELECT * FROM ({_postings_of('')}) r EXCEPT ALL SELECT term_id, doc_key, tf_title, "
                    "tf_heading, tf_body, dl, impact FROM bm25_postings) UNION ALL (SELECT term_id, doc_key, "
                    f"tf_title, tf_heading, tf_body, dl, impact FROM bm25_postings EXCEPT ALL SELECT * FROM "
                    f"({_postings_of('')}) r)",
        "forward rows": forward.PROBLEM,
        "document frequencies": "SELECT t.id FROM bm25_terms t LEFT JOIN (SELECT term_id, count(*) AS n FROM "
                                "bm25_postings GROUP BY term_id) c ON c.term_id = t.id WHERE t.df <> coalesce(c.n, 0)",
        "totals": "SELECT 1 FROM (SELECT sum(docs) AS n, sum(length) AS len FROM bm25_totals) k, "
                  "(SELECT count(*) AS n, coalesce(sum(dl), 0) AS len FROM bm25_docs) d "
                  "WHERE k.n <> d.n OR k.len <> d.len",
    }
    for name, sql in checks.items():
        n = query(f"SELECT count(*) AS n FROM ({sql}) bad")[0]["n"]
        if n:
            out.append(f"BM25 statistics: {n} {name} differ from a recount")
    return out


# -- ranking -----------------------------------------------------------------------


@dataclass
class Term:
    id: int
    df: int
    idf: float
    matches: bool  # a unit holding it matches the query (a word or prefix clause, not a phrase's word)

    @property
    def bound(self) -> float:
        return self.idf * (K1 + 1)  # BM25's saturation stays below k1 + 1


def idf(n: float, df: int) -> float:
    """FTS5's idf: never below 1e-6, so a term in most units still counts a little."""
    value = math.log((n - df + 0.5) / (df + 0.5)) if n > 0 else 0.0
    return value if value > 0 else 1e-6


def _contrib(alias: str) -> str:
    """One posting's BM25 share, with its term's idf (q.idf) and the column weights (%(wa)s …);
    every constant float8 (numeric arithmetic is several times slower)."""
    tf = f"(%(wa)s::float8 * {alias}.tf_title + %(wh)s::float8 * {alias}.tf_heading + %(wb)s::float8 * {alias}.tf_body)"
    return (f"q.idf * {tf} * {K1 + 1}::float8 / nullif({tf} + {K1}::float8 * ({1 - B}::float8 + "
            f"{B}::float8 * {alias}.dl / %(avgdl)s::float8), 0)")


def share(idf: float, row: tuple | None, avgdl: float, weights: tuple[float, float, float]) -> float:
    """One posting's BM25 share, as `_contrib` computes it in SQL; `row` is (term id, unit key,
    tf title, heading, body, unit length), None for none."""
    if row is None:
        return 0.0
    tf = weights[0] * row[2] + weights[1] * row[3] + weights[2] * row[4]
    return idf * tf * (K1 + 1) / (tf + K1 * (1 - B + B * row[5] / avgdl)) if tf else 0.0


def _idf_case(terms: list[Term], alias: str) -> str:
    """The idf of a posting's term as a CASE over the query's few terms: numbers this module
    computed, never user text.  (A join to a table of them hides the lists' sizes from the
    planner, which then sorts to aggregate instead of hashing.)"""
    whens = " ".join(f"WHEN {int(t.id)} THEN {float(t.idf)!r}::float8" for t in terms)
    return f"(CASE {alias}.term_id {whens} ELSE 0::float8 END)"


def _posting_share(terms: list[Term]) -> str:
    """One posting's BM25 share (alias p), its term's idf from a CASE over the query's `terms`."""
    return _contrib("p").replace("q.idf", _idf_case(terms, "p"))


def lookup_sql(terms: list[Term], key: str, ids: str, with_phrases: bool) -> str:
    """The BM25 of unit `key` over the terms named `ids` (forward.term_params): the kept terms
    looked up in its forward row, and, `with_phrases`, the query's phrase postings."""
    kept = forward.lookup_sql(_contrib("p"), key, ids)
    if not with_phrases:
        return kept
    return (f"{kept} + coalesce((SELECT sum(coalesce({_posting_share(terms)}, 0)) FROM {phrases.ROWS} "
            f"WHERE p.doc_key = {key} AND p.term_id = ANY(%({ids})s::int[])), 0)")


def _rank_sql(terms: list[Term], filter_where: str, restrict: str, lookup: bool, with_phrases: bool) -> str:
    """Top-k units by BM25.  The lists of %(read)s are read whole (`with_phrases`: the query's phrase
    postings with them); a unit is a candidate when it holds one of %(creates)s (matching terms)
    or is in %(extra)s (matched otherwise).  With `lookup`, a candidate whose score so far plus the
    bounds of the terms in %(rest)s cannot reach the k-th score so far is dropped, and the others
    look those terms up."""
    joined = "JOIN bm25_docs d ON d.doc_key = p.doc_key" if filter_where else ""
    contrib_p = _posting_share(terms)
    rest = lookup_sql(terms, "b.doc_key", "rest", with_phrases) if lookup else "0"
    postings = phrases.union_sql() if with_phrases else "bm25_postings"
    return f"""
    WITH cand AS (SELECT p.doc_key, sum(coalesce({contrib_p}, 0)) AS s,
                         bool_or(p.term_id = ANY(%(creates)s::int[])) AS hit
             FROM {postings} p {joined}
             WHERE p.term_id = ANY(%(read)s::int[]){filter_where} GROUP BY p.doc_key),
    best AS (SELECT coalesce(c.doc_key, e.doc_key) AS doc_key, coalesce(c.s, 0) AS s
             FROM cand c FULL JOIN unnest(%(extra)s::bigint[]) AS e(doc_key) ON e.doc_key = c.doc_key
             WHERE c.hit OR e.doc_key IS NOT NULL),
    lb AS (SELECT coalesce((SELECT s FROM best ORDER BY s DESC OFFSET %(k1)s LIMIT 1), 0) AS s),
    scored AS (SELECT b.doc_key, b.s + {rest} AS score FROM best b, lb WHERE b.s + %(rest_bound)s >= lb.s)
    SELECT d.unit_id, d.paper_id, sc.score FROM scored sc JOIN bm25_docs d ON d.doc_key = sc.doc_key
    {restrict} ORDER BY sc.score DESC, d.unit_id LIMIT %(k)s"""


@dataclass
class Plan:
    """What one lexical query needs: its scored terms, and the units matched without a word
    term (a phrase's), found only if the ranking needs them."""

    terms: list[Term]
    phrase_docs: Callable[[], list[int]] | None
    n: float
    avgdl: float
    ref: float = 100.0  # the reference length of the stored impacts
    phrase_rows: list[tuple[int, int, int, int, int, int]] = field(default_factory=list)  # phrases.count
    sampled: dict[int, list[str]] = field(default_factory=dict)  # phrases whose df is estimated: id -> words
    sampled_units: dict[int, str] = field(default_factory=dict)  # their rows' unit keys -> unit ids
    _extra: list[int] | None = None

    @property
    def extra(self) -> list[int]:
        if self._extra is None:
            self._extra = self.phrase_docs() if self.phrase_docs else []
        return self._extra


def rank(query, plan: Plan, limit: int, filters_sql: tuple[str, list], weights: tuple[float, float, float],
         only_extra: bool = False) -> list[LexicalHit]:
    """Exact BM25 top-`limit` of the units matched (holding a matching term, or in plan.extra;
    only the latter with `only_extra`): MaxScore first when the lists are long, every list
    when its bound does not hold.  `filters_sql` is filter_sql() on alias d (bm25_docs)."""
    matching = sorted((t for t in plan.terms if t.matches and not only_extra), key=lambda t: -t.idf)
    others = [t for t in plan.terms if not t.matches or only_extra]
    where, fparams = filters_sql
    named = {f"f{i}": v for i, v in enumerate(fparams)}
    for i in range(len(fparams)):
        where = where.replace("%s", f"%(f{i})s", 1)
    restrict = f"WHERE true{where}" if where else ""
    base = {"avgdl": plan.avgdl, "k": limit, "k1": max(0, limit - 1),
            "wa": weights[0], "wh": weights[1], "wb": weights[2], **named, **phrases.params(plan.phrase_rows)}
    if not matching and not plan.extra:
        return []
    if matching and sum(t.df for t in matching) > FULL_MAX:
        contrib = _posting_share(plan.terms)
        rescore = lookup_sql(plan.terms, "c.doc_key", "all", False)  # (phrases: from the heads)
        hits, proven = topk.top(query, plan, limit, (contrib, rescore), where, base, weights)
        if proven or (len(hits) >= limit and not topk.exact_only()):
            return hits  # (fewer: a selective filter, read whole below)
    split = _first_split(matching)
    while True:
        full = split == len(matching)
        read = matching[:split] + (others if full else [])
        rest = [] if full else matching[split:] + others
        if not matching and len(plan.extra) * LOOKUP_COST < sum(t.df for t in others):
            read, rest = [], others  # only units matched by a phrase: look their terms up
        bound = sum(t.bound for t in rest)
        creates = [t.id for t in matching[:split]]
        # A phrase's units need not be candidates before the last try: one holding no read term
        # is under the bound like every other unit left out.
        params = {**base, "creates": creates, "read": [t.id for t in read],
                  **forward.term_params("rest", [t.id for t in rest], [t.idf for t in rest]),
                  "rest_bound": bound, "extra": plan.extra if full else []}
        rows = query(_rank_sql(plan.terms, where, restrict, bool(rest), bool(plan.phrase_rows)), params)
        # A unit not among the candidates holds only `rest` terms: below `bound`.
        if full or (len(rows) >= limit and rows[-1]["score"] > bound):  # (full: always exact)
            return [LexicalHit(r["unit_id"], r["paper_id"], float(r["score"])) for r in rows]
        split = len(matching)  # (a second try would look up too many units: one pass instead)


def _first_split(matching: list[Term]) -> int:
    """How many of the rarest matching terms to read whole at first: the most whose lists,
    looked up for each of their units in the others, still cost less than reading the others'
    lists (all of them when the lists are short: then one pass is cheapest)."""
    total = sum(t.df for t in matching)
    split, read = 0, 0
    if total > FULL_MAX:
        for j, t in enumerate(matching[:-1], start=1):
            read += t.df
            if read * LOOKUP_COST >= total - read:
                break
            split = j
    # The try pays only if it can succeed: when the rare terms' bounds outweigh the others'.
    if split and sum(t.bound for t in matching[split:]) >= sum(t.bound for t in matching[:split]):
        return len(matching)
    return split or len(matching)


def plan(query, words: str, prefixes: str, scored: str, phrase_docs: Callable[[], list[int]] | None) -> Plan:
    """The query's terms with their df and idf from the kept statistics, in one round trip:
    `words` and the `prefixes` (each expanded to its 50 most frequent lexemes) match units,
    `scored` (a phrase's words) only add to the score of units matched otherwise."""
    rows = query(
        f"WITH w AS (SELECT DISTINCT x.lexeme FROM unnest(to_tsvector('{CONFIG}', {words_sql('%(words)s')})) x), "
        f"pre AS (SELECT DISTINCT x.lexeme FROM unnest(to_tsvector('{CONFIG}', {words_sql('%(prefixes)s')})) x), "
        f"sc AS (SELECT DISTINCT x.lexeme FROM unnest(to_tsvector('{CONFIG}', {words_sql('%(scored)s')})) x), "
        "k AS (SELECT sum(docs)::float8 AS n, sum(length)::float8 AS len, "
        "      (SELECT avgdl FROM bm25_reference) AS ref FROM bm25_totals), "
        "t AS (SELECT t.id, t.df, true AS matches FROM bm25_terms t JOIN w ON t.term = w.lexeme "
        "  UNION ALL SELECT e.id, e.df, true FROM pre, LATERAL (SELECT * FROM bm25_terms t WHERE t.term LIKE "
        "  replace(replace(replace(pre.lexeme, '\\', '\\\\'), '%%', '\\%%'), '_', '\\_') || '%%' "
        "  AND t.df > 0 ORDER BY t.df DESC LIMIT 50) e "
        "  UNION ALL SELECT t.id, t.df, false FROM bm25_terms t JOIN sc ON t.term = sc.lexeme) "
        "SELECT t.id, t.df, bool_or(t.matches) AS matches, k.n, k.len, k.ref FROM t, k WHERE t.df > 0 "
        "GROUP BY t.id, t.df, k.n, k.len, k.ref",
        {"words": words, "prefixes": prefixes, "scored": scored})
    if not rows:  # no word of the query is in the library (a phrase's units are counted apart)
        rows = [dict(r, id=None) for r in query("SELECT sum(docs)::float8 AS n, sum(length)::float8 AS len, "
                                                "(SELECT avgdl FROM bm25_reference) AS ref FROM bm25_totals")]
    n = float(rows[0]["n"] or 0)
    avgdl = max(1.0, float(rows[0]["len"] or 0) / n) if n else 1.0
    return Plan([Term(r["id"], r["df"], idf(n, r["df"]), r["matches"]) for r in rows if r["id"] is not None],
                phrase_docs, n, avgdl, float(rows[0]["ref"]))
