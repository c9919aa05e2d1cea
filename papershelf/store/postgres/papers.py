"""Papers, units, manifests and full-text search in PostgreSQL (a mixin of PostgresStore).

Mirrors the SQLite backend method by method; lexical search ranks a weighted
tsvector (title A, heading B, body C) with `ts_rank` instead of FTS5's BM25.
"""

from __future__ import annotations

import json
import time
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any

from ...models import (
    UNIT_KINDS,
    Filters,
    IndexCheck,
    LexicalHit,
    Manifest,
    Paper,
    PaperSource,
    PaperSummary,
)
from ...units import Unit
from ..common import (
    PAPER_COLUMNS,
    SOURCE_COLUMNS,
    SOURCE_FIELDS,
    UNIT_COLUMNS,
    index_problems,
    manifest_columns,
    manifest_from_row,
    manifest_row,
    paper_from_row,
    paper_summaries,
    source_from_row,
    sources_from_rows,
    unit_from_row,
    year_bounds,
)
from .tsquery import CONFIG, query_words, tsquery_sql

# The weighted document a unit is found by: the same three columns FTS5 indexes.
TSV_SQL = (f"setweight(to_tsvector('{CONFIG}', %s), 'A') || setweight(to_tsvector('{CONFIG}', %s), 'B') || "
           f"setweight(to_tsvector('{CONFIG}', %s), 'C')")
_TSV_OF_ROW = TSV_SQL.replace("%s", "{}").format("title", "heading", "body")
HEADLINE_OPTIONS = 'StartSel=[, StopSel=], MaxWords=30, MinWords=12, MaxFragments=2, FragmentDelimiter=" … "'


def clean(value):
    """A value as the schema stores it: PostgreSQL text cannot hold NUL characters (SQLite can),
    so they are dropped on the way in; flags are integers, as in SQLite."""
    if isinstance(value, bool):
        return int(value)
    return value.replace("\x00", "") if isinstance(value, str) else value


def filter_sql(filters: Filters, alias: str) -> tuple[str, list]:
    """Filters as SQL on a table with paper_id, source and object_kind columns."""
    clauses: list[str] = []
    params: list[object] = []
    if filters.papers:
        clauses.append(f"{alias}.paper_id = ANY(%s)")
        params.append(list(filters.papers))
    if filters.sources:
        clauses.append(f"{alias}.source = ANY(%s)")
        params.append(list(filters.sources))
    if filters.object_kind:
        clauses.append(f"{alias}.object_kind = %s")
        params.append(filters.object_kind)
    if (years := year_bounds(filters)) is not None:
        clauses.append(f"{alias}.paper_id IN (SELECT id FROM papers WHERE year BETWEEN %s AND %s)")
        params += list(years)
    if filters.has_labels:
        sql, label_params = labels_sql(filters)
        clauses.append(f"{alias}.paper_id IN ({sql})")
        params += label_params
    return (" AND " + " AND ".join(clauses)) if clauses else "", params


def _like_escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def labels_sql(filters: Filters) -> tuple[str, list]:
    """SELECT of the paper ids in any of the collections (or below them) and with all the tags,
    case-insensitive (as SQLite's NOCASE)."""
    parts: list[str] = []
    params: list[object] = []
    if filters.collections:
        ors = " OR ".join("(lower(path) = lower(%s) OR lower(path) LIKE lower(%s))" for _ in filters.collections)
        parts.append(f"SELECT paper_id FROM paper_collections WHERE {ors}")
        for c in filters.collections:
            c = clean(c.strip("/"))
            params += [c, _like_escape(c) + "/%"]
    for tag in filters.tags:
        parts.append("SELECT paper_id FROM paper_tags WHERE lower(tag) = lower(%s)")
        params.append(clean(tag))
    for author in filters.authors:
        parts.append("SELECT p.id FROM papers p WHERE EXISTS (SELECT 1 FROM "
                     "json_array_elements_text(p.authors::json) a WHERE lower(a) LIKE lower(%s))")
        params.append("%" + _like_escape(clean(author)) + "%")
    return " INTERSECT ".join(parts), params


def rank_weights(weights: tuple[float, float, float]) -> list[float]:
    """ts_rank's {D, C, B, A} weights (each ≤ 1) from the (title, heading, body) column weights."""
    title, heading, body = (float(w) for w in weights)
    top = max(title, heading, body) or 1.0
    return [0.0, body / top, heading / top, title / top]


class PgConnection:
    """What the mixins share, provided by PostgresStore: its connection, queries and transactions."""

    if TYPE_CHECKING:
        def query(self, sql: str, params: Any = None) -> list[dict]: ...
        def transaction(self) -> AbstractContextManager[Any]: ...


class PgPapers(PgConnection):
    """Papers, units, manifests, the full-text index; one transaction per paper."""

    if TYPE_CHECKING:
        def _delete_vectors(self, db: Any, paper_id: str, space_id: int | None = None) -> None: ...

    # -- settings ----------------------------------------------------------------

    def get_setting(self, key: str, default: str | None = None) -> str | None:
        rows = self.query("SELECT value FROM settings WHERE key=%s", (key,))
        return rows[0]["value"] if rows else default

    def set_setting(self, key: str, value: str) -> None:
        with self.transaction() as db:
            db.execute("INSERT INTO settings(key, value) VALUES (%s, %s) "
                       "ON CONFLICT (key) DO UPDATE SET value = excluded.value", (key, value))

    # -- papers ------------------------------------------------------------------

    def source_record(self, source_path: str) -> tuple[str, str] | None:
        """(paper id, content hash) of a file that is a source of a paper, providing or not."""
        rows = self.query("SELECT paper_id, source_hash FROM paper_sources WHERE source_path=%s",
                          (clean(source_path),))
        return (rows[0]["paper_id"], rows[0]["source_hash"]) if rows else None

    # -- sources: the files of one work ------------------------------------------

    def sources(self, paper_id: str | None = None) -> list[PaperSource]:
        """A paper's source files (every paper's, when None), the best first; `provides` marks the
        one whose units the paper holds."""
        where, params = ("WHERE s.paper_id=%s", (paper_id,)) if paper_id else ("", ())
        rows = self.query("SELECT s.*, p.source_path IS NOT DISTINCT FROM s.source_path AS provides "
                          f"FROM paper_sources s JOIN papers p ON p.id = s.paper_id {where} "
                          "ORDER BY s.paper_id COLLATE \"C\", s.priority DESC, coalesce(s.source_mtime, 0) DESC, "
                          "s.source_path COLLATE \"C\"", params)
        return sources_from_rows(rows)

    def find_sources(self, doi: str | None, arxiv_id: str | None, title_key: str | None) -> list[PaperSource]:
        """Sources that share the DOI, the arXiv id or the title key (lowercase) with a new file."""
        rows = self.query("SELECT * FROM paper_sources WHERE doi=%s OR arxiv_id=%s OR title_key=%s "
                          "ORDER BY source_path COLLATE \"C\"", (clean(doi), clean(arxiv_id), clean(title_key)))
        return [source_from_row(r) for r in rows]

    def save_source(self, source: PaperSource) -> None:
        """Record (or replace) one source file of an existing paper."""
        values = [clean(getattr(source, c)) for c in SOURCE_FIELDS]
        updates = ", ".join(f"{c}=excluded.{c}" for c in SOURCE_COLUMNS[1:])
        with self.transaction() as db:
            db.execute(f"INSERT INTO paper_sources({', '.join(SOURCE_COLUMNS)}) "
                       f"VALUES ({', '.join(['%s'] * len(values))}) "
                       f"ON CONFLICT (source_path) DO UPDATE SET {updates}", values)

    def drop_source(self, source_path: str) -> PaperSource | None:
        """Forget one source file (the paper stays: removing it is the caller's decision)."""
        with self.transaction() as db:
            row = db.execute("DELETE FROM paper_sources WHERE source_path=%s RETURNING *",
                             (clean(source_path),)).fetchone()
            return source_from_row(row) if row else None

    def remember_metadata(self, source_path: str, meta_json: str) -> None:
        with self.transaction() as db:
            db.execute("INSERT INTO source_metadata VALUES (%s, %s) "
                       "ON CONFLICT (source_path) DO UPDATE SET meta=excluded.meta",
                       (clean(source_path), clean(meta_json)))

    def remembered_metadata(self, source_path: str) -> str | None:
        rows = self.query("SELECT meta FROM source_metadata WHERE source_path=%s", (clean(source_path),))
        return rows[0]["meta"] if rows else None

    def paper_refs(self) -> list[tuple[str, str | None, str | None]]:
        """(id, citekey, doi) of every paper: what a user may name a paper by."""
        return [(r["id"], r["citekey"], r["doi"])
                for r in self.query("SELECT id, citekey, doi FROM papers ORDER BY id COLLATE \"C\"")]

    def zotero_refs(self) -> list[tuple[str, str]]:
        """(paper id, key) for each Zotero attachment key and item key a paper is known by."""
        return [(r["paper_id"], r["key"]) for r in self.query(
            "SELECT paper_id, attachment_key AS key FROM paper_zotero UNION "
            "SELECT s.paper_id, (m.meta::json)->'meta'->>'zotero_key' FROM source_metadata m "
            "JOIN paper_sources s ON s.source_path = m.source_path "
            "WHERE (m.meta::json)->'meta'->>'zotero_key' IS NOT NULL")]

    def labelled_paper_ids(self, filters: Filters) -> list[str]:
        """Papers that pass the collection and tag filters (every paper when there are none)."""
        if not filters.has_labels:
            return self.paper_ids()
        sql, params = labels_sql(filters)
        return [r["paper_id"] for r in self.query(sql, params)]

    def paper_ids(self) -> list[str]:
        return [r["id"] for r in self.query("SELECT id FROM papers ORDER BY id COLLATE \"C\"")]

    def count_papers(self) -> int:
        return self.query("SELECT count(*) AS n FROM papers")[0]["n"]

    def manifest_paper_ids(self, with_indexable_units: bool = False) -> list[str]:
        where = " WHERE body_indexable + object_indexable + chunk_indexable > 0" if with_indexable_units else ""
        return [r["paper_id"] for r in
                self.query(f"SELECT paper_id FROM manifests{where} ORDER BY paper_id COLLATE \"C\"")]

    def _delete_paper_rows(self, db, paper_id: str, keep_paper: bool) -> None:
        db.execute("DELETE FROM search_docs WHERE paper_id=%s", (paper_id,))
        for kind in UNIT_KINDS:
            db.execute(f"DELETE FROM {kind.table} WHERE paper_id=%s", (paper_id,))
        db.execute("DELETE FROM manifests WHERE paper_id=%s", (paper_id,))
        for table in ("paper_tags", "paper_collections", "paper_zotero"):
            db.execute(f"DELETE FROM {table} WHERE paper_id=%s", (paper_id,))
        if not keep_paper:
            db.execute("DELETE FROM papers WHERE id=%s", (paper_id,))

    def _upsert_paper(self, db, paper: Paper, now: float) -> None:
        values = [clean(getattr(paper, c)) for c in PAPER_COLUMNS]
        values[2] = clean(json.dumps(paper.authors, ensure_ascii=False))
        cols = ", ".join(PAPER_COLUMNS)
        updates = ", ".join(f"{c}=excluded.{c}" for c in PAPER_COLUMNS[1:])
        db.execute(f"INSERT INTO papers({cols}, added_at, updated_at) VALUES ({', '.join(['%s'] * len(values))}, "
                   f"%s, %s) ON CONFLICT (id) DO UPDATE SET {updates}, updated_at=excluded.updated_at",
                   values + [now, now])

    @staticmethod
    def _write_labels(db, paper: Paper) -> None:
        """Tags, collections and Zotero attachment, in the paper's own transaction."""
        with db.cursor() as cur:
            if paper.tags:
                cur.executemany("INSERT INTO paper_tags VALUES (%s, %s) ON CONFLICT DO NOTHING",
                                [(paper.id, clean(t)) for t in paper.tags])
            if paper.collections:
                cur.executemany("INSERT INTO paper_collections VALUES (%s, %s) ON CONFLICT DO NOTHING",
                                [(paper.id, clean(c)) for c in paper.collections])
        if paper.zotero_attachment:
            db.execute("INSERT INTO paper_zotero VALUES (%s, %s)", (paper.id, clean(paper.zotero_attachment)))

    def _with_labels(self, papers: list[Paper]) -> list[Paper]:
        """Each paper with its tags, collections and Zotero attachment key."""
        by_id = {p.id: p for p in papers}
        if not by_id:
            return papers
        ids = list(by_id)
        for r in self.query("SELECT paper_id, tag FROM paper_tags WHERE paper_id = ANY(%s) ORDER BY tag COLLATE \"C\"",
                            (ids,)):
            by_id[r["paper_id"]].tags.append(r["tag"])
        for r in self.query("SELECT paper_id, path FROM paper_collections WHERE paper_id = ANY(%s) "
                            "ORDER BY path COLLATE \"C\"", (ids,)):
            by_id[r["paper_id"]].collections.append(r["path"])
        for r in self.query("SELECT paper_id, attachment_key FROM paper_zotero WHERE paper_id = ANY(%s)", (ids,)):
            by_id[r["paper_id"]].zotero_attachment = r["attachment_key"]
        return papers

    def _insert_units(self, db, paper: Paper, units: list[Unit]) -> None:
        for kind in UNIT_KINDS:
            columns = UNIT_COLUMNS[kind.name]
            rows = [[clean(getattr(u, c)) for c in columns] for u in units if u.kind == kind.name]
            if rows:
                with db.cursor() as cur:
                    cur.executemany(f"INSERT INTO {kind.table}({', '.join(columns)}) "
                                    f"VALUES ({', '.join(['%s'] * len(columns))})", rows)
        title = clean(paper.title or "")
        docs = [(u.id, paper.id, u.source, u.object_kind, title, clean(u.heading()), clean(u.search_text()))
                for u in units if u.indexable]
        if docs:
            with db.cursor() as cur:
                cur.executemany(
                    "INSERT INTO search_docs(unit_id, paper_id, source, object_kind, title, heading, body, tsv) "
                    f"VALUES (%s, %s, %s, %s, %s, %s, %s, {TSV_SQL})", [d + d[4:] for d in docs])

    def write_paper(self, paper: Paper, units: list[Unit], manifest: Manifest) -> None:
        """Replace a paper, its units, manifest and index rows in one transaction (vectors untouched:
        the changed manifest hashes make the paper pending)."""
        now = time.time()
        with self.transaction() as db:
            if paper.source_path:
                for row in db.execute("SELECT id FROM papers WHERE source_path=%s AND id<>%s",
                                      (clean(paper.source_path), paper.id)).fetchall():
                    self._delete_paper_rows(db, row["id"], keep_paper=False)
                    self._delete_vectors(db, row["id"])
            self._delete_paper_rows(db, paper.id, keep_paper=True)
            self._upsert_paper(db, paper, now)
            self._write_labels(db, paper)
            self._insert_units(db, paper, units)
            cols, values = manifest_row(paper.id, manifest, now)
            db.execute(f"INSERT INTO manifests({', '.join(cols)}) VALUES ({', '.join(['%s'] * len(cols))})", values)
            if paper.source_path:
                db.execute("DELETE FROM ingest_failures WHERE source_path=%s", (clean(paper.source_path),))

    def remove_paper(self, paper_id: str) -> bool:
        with self.transaction() as db:
            if not db.execute("SELECT 1 FROM papers WHERE id=%s", (paper_id,)).fetchone():
                return False
            self._delete_paper_rows(db, paper_id, keep_paper=False)
            self._delete_vectors(db, paper_id)
            return True

    def get_paper(self, paper_id: str) -> Paper | None:
        rows = self.query("SELECT * FROM papers WHERE id=%s", (paper_id,))
        return self._with_labels([paper_from_row(rows[0])])[0] if rows else None

    def get_papers(self, paper_ids: list[str]) -> dict[str, Paper]:
        rows = self.query("SELECT * FROM papers WHERE id = ANY(%s)", (list(dict.fromkeys(paper_ids)),))
        out = {r["id"]: paper_from_row(r) for r in rows}
        self._with_labels(list(out.values()))
        return out

    def list_papers(self, limit: int | None = None) -> list[PaperSummary]:
        counts = ", ".join(f"m.{manifest_columns(k)[0]}" for k in UNIT_KINDS)
        sql = (f"SELECT p.*, {counts} FROM papers p LEFT JOIN manifests m ON m.paper_id = p.id "
               "ORDER BY p.id COLLATE \"C\"")
        if limit:
            sql += f" LIMIT {int(limit)}"
        rows = self.query(sql)
        return paper_summaries(self._with_labels([paper_from_row(r) for r in rows]), rows)

    def manifest(self, paper_id: str) -> Manifest | None:
        rows = self.query("SELECT * FROM manifests WHERE paper_id=%s", (paper_id,))
        return manifest_from_row(rows[0]) if rows else None

    def paper_snapshot(self, paper_id: str) -> tuple[Paper | None, Manifest | None, list[Unit]]:
        """Paper, manifest and units read in one repeatable-read transaction: a consistent view."""
        with self.transaction() as db:
            db.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
            return self.get_paper(paper_id), self.manifest(paper_id), self.paper_units(paper_id)

    def paper_units(self, paper_id: str) -> list[Unit]:
        out: list[Unit] = []
        for kind in UNIT_KINDS:
            out += [unit_from_row(kind, r) for r in
                    self.query(f"SELECT * FROM {kind.table} WHERE paper_id=%s ORDER BY ordinal", (paper_id,))]
        return out

    def get_units(self, unit_ids: list[str]) -> dict[str, Unit]:
        out: dict[str, Unit] = {}
        ids = list(dict.fromkeys(unit_ids))
        for kind in UNIT_KINDS:
            for r in self.query(f"SELECT * FROM {kind.table} WHERE id = ANY(%s)", (ids,)):
                out[r["id"]] = unit_from_row(kind, r)
        return out

    # -- ingest failures -----------------------------------------------------------

    def record_failure(self, source_path: str, source_hash: str | None, reason: str) -> None:
        with self.transaction() as db:
            db.execute("INSERT INTO ingest_failures VALUES (%s, %s, %s, %s) ON CONFLICT (source_path) DO UPDATE "
                       "SET source_hash=excluded.source_hash, reason=excluded.reason, failed_at=excluded.failed_at",
                       (clean(source_path), source_hash, clean(reason), time.time()))

    def failure(self, source_path: str) -> dict | None:
        rows = self.query("SELECT * FROM ingest_failures WHERE source_path=%s", (clean(source_path),))
        return dict(rows[0]) if rows else None

    # -- lexical search ------------------------------------------------------------

    def _corpus_stats(self) -> tuple[float, float]:
        """(documents, mean tokens per document) of the index, for BM25; cached for a minute
        (a full pass over the index; a minute-old average ranks the same)."""
        cached = getattr(self, "_bm25_stats", None)
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
        where, params = filter_sql(filters, "d")
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

    def verify_index(self) -> IndexCheck:
        """Every tsvector against its text, manifests against unit tables, index rows against units."""
        problems: list[str] = []
        bad = self.query(f"SELECT count(*) AS n FROM search_docs WHERE tsv IS DISTINCT FROM ({_TSV_OF_ROW})")[0]["n"]
        if bad:
            problems.append(f"full-text index: {bad} rows whose tsvector does not match their text")
        counts: dict[str, dict[str, tuple[int, int]]] = {}
        for kind in UNIT_KINDS:
            for r in self.query(f"SELECT paper_id, count(*) AS n, sum(indexable) AS live FROM {kind.table} "
                                "GROUP BY paper_id"):
                counts.setdefault(r["paper_id"], {})[kind.name] = (r["n"], int(r["live"] or 0))
        indexed = {r["paper_id"]: r["n"] for r in
                   self.query("SELECT paper_id, count(*) AS n FROM search_docs GROUP BY paper_id")}
        orphans = self.query("SELECT count(*) AS n FROM search_docs WHERE paper_id NOT IN "
                             "(SELECT id FROM papers)")[0]["n"]
        problems += index_problems(counts, self.query("SELECT * FROM manifests"), indexed, orphans)
        return IndexCheck(not problems, problems[:100])
