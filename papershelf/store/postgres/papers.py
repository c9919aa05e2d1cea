"""Full-text search in PostgreSQL (a mixin of PostgresStore): what differs from SQLite's FTS5.

Papers, units, manifests, sources and labels are SQL both backends share (`store/sql/papers.py`);
here a unit is indexed as a weighted tsvector (title A, heading B, body C), ranked by BM25
computed in SQL, and checked against its text.
"""

from __future__ import annotations

import time

from ...models import Filters, LexicalHit, Manifest, Paper
from ...units import Unit
from ..sql import SqlPapers
from .tsquery import CONFIG, query_words, tsquery_sql

# The weighted document a unit is found by: the same three columns FTS5 indexes.
TSV_SQL = (f"setweight(to_tsvector('{CONFIG}', %s), 'A') || setweight(to_tsvector('{CONFIG}', %s), 'B') || "
           f"setweight(to_tsvector('{CONFIG}', %s), 'C')")
_TSV_OF_ROW = TSV_SQL.replace("%s", "{}").format("title", "heading", "body")
HEADLINE_OPTIONS = 'StartSel=[, StopSel=], MaxWords=30, MinWords=12, MaxFragments=2, FragmentDelimiter=" … "'


def rank_weights(weights: tuple[float, float, float]) -> list[float]:
    """ts_rank's {D, C, B, A} weights (each ≤ 1) from the (title, heading, body) column weights."""
    title, heading, body = (float(w) for w in weights)
    top = max(title, heading, body) or 1.0
    return [0.0, body / top, heading / top, title / top]


class PgPapers(SqlPapers):
    """PostgreSQL's own part of papers and units: the tsvector index and BM25 in SQL."""

    _bm25_stats: tuple[float, float, float] | None = None

    def _index_units(self, db, paper: Paper, units: list[Unit]) -> None:
        clean = self.sql.clean
        title = clean(paper.title or "")
        docs = [(u.id, paper.id, u.source, u.object_kind, title, clean(u.heading()), clean(u.search_text()))
                for u in units if u.indexable]
        if docs:
            with db.cursor() as cur:
                cur.executemany(
                    "INSERT INTO search_docs(unit_id, paper_id, source, object_kind, title, heading, body, tsv) "
                    f"VALUES (%s, %s, %s, %s, %s, %s, %s, {TSV_SQL})", [d + d[4:] for d in docs])

    def _lexical_problems(self) -> list[str]:
        bad = self.query(f"SELECT count(*) AS n FROM search_docs WHERE tsv IS DISTINCT FROM ({_TSV_OF_ROW})")[0]["n"]
        return [f"full-text index: {bad} rows whose tsvector does not match their text"] if bad else []

    def paper_snapshot(self, paper_id: str) -> tuple[Paper | None, Manifest | None, list[Unit]]:
        """Paper, manifest and units read in one repeatable-read transaction: a consistent view."""
        with self.transaction() as db:
            db.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
            return self.get_paper(paper_id), self.manifest(paper_id), self.paper_units(paper_id)

    # -- lexical search ------------------------------------------------------------

    def _corpus_stats(self) -> tuple[float, float]:
        """(documents, mean tokens per document) of the index, for BM25; cached for a minute
        (a full pass over the index; a minute-old average ranks the same)."""
        cached = self._bm25_stats
        if cached is None or time.monotonic() - cached[0] > 60:
            row = self.query("SELECT count(*) AS n, coalesce(avg((SELECT sum(cardinality(x.positions)) "
                             "FROM unnest(tsv) x)), 1) AS avgdl FROM search_docs")[0]
            cached = self._bm25_stats = (time.monotonic(), float(row["n"]), max(1.0, float(row["avgdl"])))
        return cached[1], cached[2]

    def lexical_search(self, match: str, limit: int, filters: Filters,
                       weights: tuple[float, float, float] = (1.0, 1.0, 1.0)) -> list[LexicalHit]:
        """BM25 in SQL, as FTS5 computes it: per query lexeme, idf × column-weighted term frequency
        (title A, heading B, body C positions in the tsvector), k1 1.2, b 0.75; documents are those
        the tsquery matches (`match` is the safe FTS5 expression, parsed into a tsquery).  ts_rank
        breaks ties, and ranks documents matched only through a prefix."""
        tsq, tsq_params = tsquery_sql(match)
        where, params = self._filter_sql(filters, "d")
        n, avgdl = self._corpus_stats()
        title, heading, body = (float(w) for w in weights)
        rows = self.query(
            f"WITH q AS (SELECT {tsq} AS q), "
            f"terms AS (SELECT DISTINCT lexeme FROM unnest(to_tsvector('{CONFIG}', %s))), "
            "idf AS (SELECT t.lexeme, greatest(1e-6, ln((%s - c.df + 0.5) / (c.df + 0.5))) AS idf FROM terms t, "
            "  LATERAL (SELECT count(*) AS df FROM search_docs WHERE tsv @@ plainto_tsquery('simple', t.lexeme)) c), "
            f"m AS (SELECT d.unit_id, d.paper_id, d.tsv FROM search_docs d, q WHERE d.tsv @@ q.q{where}) "
            "SELECT m.unit_id, m.paper_id, coalesce((SELECT sum(i.idf * u.tf * 2.2 / (u.tf + 1.2 * (0.25 + 0.75 * "
            "  (SELECT sum(cardinality(x.positions)) FROM unnest(m.tsv) x) / %s))) FROM "
            "  (SELECT x.lexeme, (SELECT sum(CASE w WHEN 'A' THEN %s WHEN 'B' THEN %s ELSE %s END) "
            "   FROM unnest(x.weights) w) AS tf FROM unnest(m.tsv) x) u JOIN idf i ON i.lexeme = u.lexeme), 0) "
            "  + 0.001 * ts_rank(%s::float4[], m.tsv, q.q, 1) AS score "
            "FROM m, q ORDER BY score DESC, m.unit_id LIMIT %s",
            [*tsq_params, query_words(match), n, *params, avgdl, title, heading, body, rank_weights(weights), limit])
        return [LexicalHit(r["unit_id"], r["paper_id"], float(r["score"])) for r in rows]

    def snippets(self, match: str, unit_ids: list[str]) -> dict[str, str]:
        """ts_headline snippets (terms marked with [ ]) for just the units being shown."""
        if not unit_ids:
            return {}
        tsq, tsq_params = tsquery_sql(match)
        rows = self.query(
            f"SELECT d.unit_id, ts_headline('{CONFIG}', d.body, q.q, %s) AS snippet "
            f"FROM search_docs d, (SELECT {tsq} AS q) q WHERE d.unit_id = ANY(%s) AND d.tsv @@ q.q",
            [HEADLINE_OPTIONS, *tsq_params, list(unit_ids)])
        return {r["unit_id"]: r["snippet"] for r in rows}
