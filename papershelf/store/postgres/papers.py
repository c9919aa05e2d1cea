"""Full-text search in PostgreSQL (a mixin of PostgresStore): what differs from SQLite's FTS5.

Papers, units, manifests, sources and labels are SQL both backends share (`store/sql/papers.py`);
here a unit is indexed as a weighted tsvector (title A, heading B, body C) and in the BM25
statistics kept at write time (bm25.py), which lexical search ranks from (lexical.py).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from concurrent.futures import Executor

from ...document import Reference
from ...index_text import index_text
from ...models import Filters, LexicalHit, Manifest, Paper, PaperSource
from ...units import Unit
from ..paper_fields import paper_index_title
from ..sql import SqlPapers
from . import bm25, lexical
from .tsquery import CONFIG, tsquery_sql, words_sql

# The weighted document a unit is found by: the same three columns FTS5 indexes.
TSV_SQL = " || ".join(f"setweight(to_tsvector('{CONFIG}', {words_sql('%s')}), '{w}')" for w in "ABC")
_TSV_OF_ROW = TSV_SQL.replace("%s", "{}").format("title", "heading", "body")
HEADLINE_OPTIONS = 'StartSel=[, StopSel=], MaxWords=30, MinWords=12, MaxFragments=2, FragmentDelimiter=" … "'


class PgPapers(SqlPapers):
    """PostgreSQL's own part of papers and units: the tsvector index and the BM25 statistics.

    A paper's write or removal runs in one outer transaction that collects the statistics'
    changes (`_unindex_paper`, `_index_units`) and applies them last (bm25.apply: term rows
    locked in id order, so concurrent writers never deadlock); the shared SQL's own
    transaction becomes a savepoint inside it."""

    _bm25_changes: bm25.Changes | None = None
    _workers: Executor  # (set by PostgresStore)

    def write_paper(self, paper: Paper, units: list[Unit], manifest: Manifest,
                    references: list[Reference] | None = None, sources: Sequence[PaperSource] = (),
                    remembered: Mapping[str, str] | None = None) -> None:
        with self.transaction() as db:
            self._bm25_changes = bm25.Changes()
            try:
                super().write_paper(paper, units, manifest, references, sources, remembered)
                bm25.apply(db, self._bm25_changes)
            finally:
                self._bm25_changes = None

    def remove_paper(self, paper_id: str) -> bool:
        with self.transaction() as db:
            self._bm25_changes = bm25.Changes()
            try:
                removed = super().remove_paper(paper_id)
                bm25.apply(db, self._bm25_changes)
                return removed
            finally:
                self._bm25_changes = None

    def _unindex_paper(self, db, paper_id: str) -> None:
        if self._bm25_changes is None:  # a removal outside write_paper / remove_paper
            changes = bm25.Changes()
            bm25.forget(db, paper_id, changes)
            bm25.apply(db, changes)
        else:
            bm25.forget(db, paper_id, self._bm25_changes)

    def _index_units(self, db, paper: Paper, units: list[Unit]) -> None:
        clean = self.sql.clean
        title = index_text(clean(paper_index_title(paper)))
        docs = [(u.id, paper.id, u.source, u.object_kind, title, index_text(clean(u.heading())),
                 index_text(clean(u.search_text())))
                for u in units if u.indexable]
        if docs:
            with db.cursor() as cur:
                cur.executemany(
                    "INSERT INTO search_docs(unit_id, paper_id, source, object_kind, title, heading, body, tsv) "
                    f"VALUES (%s, %s, %s, %s, %s, %s, %s, {TSV_SQL})", [d + d[4:] for d in docs])
        changes = self._bm25_changes or bm25.Changes()
        bm25.index(db, paper.id, changes)
        if self._bm25_changes is None:
            bm25.apply(db, changes)

    def _lexical_problems(self) -> list[str]:
        bad = self.query(f"SELECT count(*) AS n FROM search_docs WHERE tsv IS DISTINCT FROM ({_TSV_OF_ROW})")[0]["n"]
        problems = [f"full-text index: {bad} rows whose tsvector does not match their text"] if bad else []
        return problems + bm25.problems(self.query)

    def paper_snapshot(self, paper_id: str) -> tuple[Paper | None, Manifest | None, list[Unit]]:
        """Paper, manifest and units read in one repeatable-read transaction: a consistent view."""
        with self.transaction() as db:
            db.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
            return self.get_paper(paper_id), self.manifest(paper_id), self.paper_units(paper_id)

    # -- lexical search ------------------------------------------------------------

    def index_size(self) -> int:
        """How many units the lexical index holds, from the BM25 totals kept in each paper's
        transaction: a count over search_docs at every search cost ~60 ms at 300k units."""
        return int(self.query("SELECT coalesce(sum(docs), 0) AS n FROM bm25_totals")[0]["n"])

    def prepare_search(self) -> bool:
        """Nothing to prepare: PostgreSQL's BM25 statistics are kept in each paper's transaction."""
        return False

    def lexical_search(self, match: str, limit: int, filters: Filters,
                       weights: tuple[float, float, float] = (1.0, 1.0, 1.0)) -> list[LexicalHit]:
        """BM25 as FTS5 computes it (idf per query lexeme, column-weighted term frequency from the
        title A / heading B / body C positions, k1 1.2, b 0.75), from the statistics kept at write
        time (bm25.py); `match` is the safe FTS5 expression, matched by FTS5's rules (lexical.py).
        Filters (`_filter_sql` on bm25_docs, alias d) apply before the top k; a paper-level filter
        added there (as the author filter of issue 23) applies here too."""
        return lexical.search(self.query, match, limit, self._filter_sql(filters, "d"), weights, self._workers)

    def matching(self, match: str, unit_ids: list[str]) -> set[str]:
        """Which of these units the safe FTS5 expression matches, by FTS5's rules (lexical.py),
        checked on their own tsvectors: the cost is the units', not the library's."""
        return lexical.matching(self.query, match, unit_ids)

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
