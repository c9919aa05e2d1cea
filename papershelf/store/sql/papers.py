"""Papers, units, manifests, sources, labels and ingest failures: the SQL both backends run.

Every paper is written or removed in one transaction.  A backend supplies its lexical index
(`_index_units`, `_unindex_paper`, `_lexical_problems`) and its size on disk; the rest is here.
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ...document import Reference
from ...models import (
    UNIT_KINDS,
    Filters,
    IndexCheck,
    IngestFailure,
    LibraryStatus,
    Manifest,
    Paper,
    PaperSource,
    PaperSummary,
    SourceRecord,
)
from ...units import Unit
from .. import filter_plan
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
    unit_values,
    year_bounds,
)
from ..reference_rows import REFERENCE_COLUMNS, reference_from_row, reference_rows
from .dialect import SqlConnection

LABEL_TABLES = ("paper_tags", "paper_collections", "paper_zotero")
PAPER_TABLES = (*LABEL_TABLES, "paper_references")  # rows a paper's rewrite replaces besides its units
FAILURE_COLUMNS = ("source_path", "source_hash", "reason", "failed_at")


class SqlPapers(SqlConnection):
    """The papers half of the `Store` contract, in SQL both backends run."""

    # -- what a backend provides -----------------------------------------------------

    def _index_units(self, db: Any, paper: Paper, units: list[Unit]) -> None:
        """Add the paper's indexable units to the lexical index (inside its transaction)."""
        raise NotImplementedError

    def _unindex_paper(self, db: Any, paper_id: str) -> None:
        """Remove the paper from the lexical index before its search_docs rows go."""

    def _lexical_problems(self) -> list[str]:
        raise NotImplementedError

    def _size_bytes(self) -> int:
        raise NotImplementedError

    if TYPE_CHECKING:  # the backend's, or the shared embedding half's
        @property
        def display_location(self) -> str: ...
        @property
        def schema_version(self) -> int: ...
        def _delete_vectors(self, db: Any, paper_id: str, space_id: int | None = None) -> None: ...

    # -- settings ----------------------------------------------------------------

    def get_setting(self, key: str, default: str | None = None) -> str | None:
        rows = self.query(f"SELECT value FROM settings WHERE key={self.sql.mark}", (key,))
        return rows[0]["value"] if rows else default

    def set_setting(self, key: str, value: str) -> None:
        with self.transaction() as db:
            db.execute(self.sql.upsert("settings", ("key", "value"), ("key",)), (key, value))

    # -- sources: the files of one work ------------------------------------------

    def source_record(self, source_path: str) -> SourceRecord | None:
        """(paper id, content hash) of a file that is a source of a paper, providing or not."""
        rows = self.query(f"SELECT paper_id, source_hash FROM paper_sources WHERE source_path={self.sql.mark}",
                          (self.sql.clean(source_path),))
        return SourceRecord(rows[0]["paper_id"], rows[0]["source_hash"]) if rows else None

    def sources(self, paper_id: str | None = None) -> list[PaperSource]:
        """A paper's source files (every paper's, when None), the best first; `provides` marks the
        one whose units the paper holds."""
        where, params = (f"WHERE s.paper_id={self.sql.mark}", (paper_id,)) if paper_id else ("", ())
        c = self.sql.collate
        rows = self.query("SELECT s.*, p.source_path = s.source_path AS provides "
                          f"FROM paper_sources s JOIN papers p ON p.id = s.paper_id {where} "
                          f"ORDER BY {c('s.paper_id')}, s.priority DESC, coalesce(s.source_mtime, 0) DESC, "
                          f"{c('s.source_path')}", params)
        return sources_from_rows(rows)

    def find_sources(self, doi: str | None, arxiv_id: str | None, title_key: str | None,
                     title_prefixes: Sequence[str] = ()) -> list[PaperSource]:
        """Sources that share the DOI, the arXiv id or the title key (lowercase) with a new file, or whose
        title key starts with one of `title_prefixes` (title-only keys, ``"title|"``: a citation's)."""
        m, clean = self.sql.mark, self.sql.clean
        where, params = self._prefixes(title_prefixes)
        rows = self.query(f"SELECT * FROM paper_sources WHERE doi={m} OR arxiv_id={m} OR title_key={m}{where} "
                          f"ORDER BY {self.sql.collate('source_path')}",
                          (clean(doi), clean(arxiv_id), clean(title_key), *params))
        return [source_from_row(r) for r in rows]

    def _prefixes(self, prefixes: Sequence[str]) -> tuple[str, list[str]]:
        """" OR title_key starts with P" for each title-only key P (``"title|"``), as a range over the
        code points (indexed in SQLite; '}' follows '|')."""
        m, key = self.sql.mark, self.sql.collate("title_key")
        sql = "".join(f" OR ({key} >= {m} AND {key} < {m})" for _ in prefixes)
        return sql, [v for p in prefixes for v in (self.sql.clean(p), self.sql.clean(p[:-1] + "}"))]

    def save_source(self, source: PaperSource) -> None:
        """Record (or replace) one source file of an existing paper (a file that joins a paper without
        providing its units; the providing file is recorded by `write_paper`, in the paper's transaction)."""
        with self.transaction() as db:
            self._save_source_row(db, source)

    def _save_source_row(self, db: Any, source: PaperSource) -> None:
        values = [self.sql.clean(getattr(source, c)) for c in SOURCE_FIELDS]
        db.execute(self.sql.upsert("paper_sources", SOURCE_COLUMNS, ("source_path",)), values)

    def _remember_metadata_row(self, db: Any, source_path: str, meta_json: str) -> None:
        db.execute(self.sql.upsert("source_metadata", ("source_path", "meta"), ("source_path",)),
                   (self.sql.clean(source_path), self.sql.clean(meta_json)))

    def drop_source(self, source_path: str) -> PaperSource | None:
        """Forget one source file (the paper stays: removing it is the caller's decision)."""
        where, params = f"WHERE source_path={self.sql.mark}", (self.sql.clean(source_path),)
        with self.transaction() as db:
            row = db.execute(f"SELECT * FROM paper_sources {where}", params).fetchone()
            if row is None:
                return None
            db.execute(f"DELETE FROM paper_sources {where}", params)
            return source_from_row(row)

    def remember_metadata(self, source_path: str, meta_json: str) -> None:
        with self.transaction() as db:
            self._remember_metadata_row(db, source_path, meta_json)

    def remembered_metadata(self, source_path: str) -> str | None:
        rows = self.query(f"SELECT meta FROM source_metadata WHERE source_path={self.sql.mark}",
                          (self.sql.clean(source_path),))
        return rows[0]["meta"] if rows else None

    # -- papers ------------------------------------------------------------------

    def paper_refs(self) -> list[tuple[str, str | None, str | None]]:
        """(id, citekey, doi) of every paper: what a user may name a paper by."""
        return [(r["id"], r["citekey"], r["doi"])
                for r in self.query(f"SELECT id, citekey, doi FROM papers ORDER BY {self.sql.collate('id')}")]

    def zotero_refs(self) -> list[tuple[str, str]]:
        """(paper id, key) for each Zotero attachment key and item key a paper is known by (the keys
        remembered for each of its source files; a PDF kept apart from its item, `Meta.apart_id`, not by the item's)."""
        item_key, file_key, apart = (self.sql.json_text("m.meta", "meta", k)
                                     for k in ("zotero_key", "attachment_key", "apart_id"))
        sources = "FROM source_metadata m JOIN paper_sources s ON s.source_path = m.source_path"
        return [(r["paper_id"], r["zkey"]) for r in self.query(
            "SELECT paper_id, attachment_key AS zkey FROM paper_zotero UNION "
            f"SELECT s.paper_id, {file_key} AS zkey {sources} WHERE {file_key} IS NOT NULL UNION "
            f"SELECT s.paper_id, {item_key} AS zkey {sources} WHERE {item_key} IS NOT NULL "
            f"AND ({apart} IS NULL OR {apart} <> s.paper_id)")]

    def paper_ids(self) -> list[str]:
        return [r["id"] for r in self.query(f"SELECT id FROM papers ORDER BY {self.sql.collate('id')}")]

    def count_papers(self) -> int:
        return self.query("SELECT count(*) AS n FROM papers")[0]["n"]

    def manifest_paper_ids(self, with_indexable_units: bool = False) -> list[str]:
        """Papers that have a manifest (all papers), or only those with something to embed."""
        where = " WHERE body_indexable + object_indexable + chunk_indexable > 0" if with_indexable_units else ""
        return [r["paper_id"] for r in
                self.query(f"SELECT paper_id FROM manifests{where} ORDER BY {self.sql.collate('paper_id')}")]

    def _delete_paper_rows(self, db: Any, paper_id: str, keep_paper: bool) -> None:
        m = self.sql.mark
        self._unindex_paper(db, paper_id)
        db.execute(f"DELETE FROM search_docs WHERE paper_id={m}", (paper_id,))
        for kind in UNIT_KINDS:
            db.execute(f"DELETE FROM {kind.table} WHERE paper_id={m}", (paper_id,))
        db.execute(f"DELETE FROM manifests WHERE paper_id={m}", (paper_id,))
        for table in PAPER_TABLES:
            db.execute(f"DELETE FROM {table} WHERE paper_id={m}", (paper_id,))
        if not keep_paper:
            db.execute(f"DELETE FROM papers WHERE id={m}", (paper_id,))

    def _upsert_paper(self, db: Any, paper: Paper, now: float) -> None:
        values = [self.sql.clean(getattr(paper, c)) for c in PAPER_COLUMNS]
        values[2] = self.sql.clean(json.dumps(paper.authors, ensure_ascii=False))
        columns = [*PAPER_COLUMNS, "added_at", "updated_at"]
        update = [c for c in columns if c not in ("id", "added_at")]  # a paper keeps the time it was added
        db.execute(self.sql.upsert("papers", columns, ("id",), update), values + [now, now])

    def _write_labels(self, db: Any, paper: Paper) -> None:
        """Tags, collections and Zotero attachment, in the paper's own transaction."""
        clean = self.sql.clean
        self.sql.executemany(db, self.sql.upsert("paper_tags", ("paper_id", "tag"), ("paper_id", "tag"), ()),
                             [(paper.id, clean(t)) for t in paper.tags])
        self.sql.executemany(db, self.sql.upsert("paper_collections", ("paper_id", "path"), ("paper_id", "path"), ()),
                             [(paper.id, clean(c)) for c in paper.collections])
        if paper.zotero_attachment:
            db.execute(f"INSERT INTO paper_zotero VALUES ({self.sql.marks(2)})",
                       (paper.id, clean(paper.zotero_attachment)))

    def _with_labels(self, papers: list[Paper]) -> list[Paper]:
        """Each paper with its tags, collections and Zotero attachment key, read in one query (a
        search reads them for its hits: one round trip, not three)."""
        by_id = {p.id: p for p in papers}
        for part in self.sql.batches(list(by_id)):
            where, params = self.sql.any("paper_id", part)
            for r in self.query(f"SELECT * FROM (SELECT paper_id, 0 AS k, tag AS v FROM paper_tags WHERE {where} "
                                f"UNION ALL SELECT paper_id, 1, path FROM paper_collections WHERE {where} "
                                f"UNION ALL SELECT paper_id, 2, attachment_key FROM paper_zotero WHERE {where}) l "
                                f"ORDER BY k, {self.sql.collate('l.v')}", params * 3):
                paper = by_id[r["paper_id"]]
                if r["k"] == 0:
                    paper.tags.append(r["v"])
                elif r["k"] == 1:
                    paper.collections.append(r["v"])
                else:
                    paper.zotero_attachment = r["v"]
        return papers

    def write_paper(self, paper: Paper, units: list[Unit], manifest: Manifest,
                    references: list[Reference] | None = None, sources: Sequence[PaperSource] = (),
                    remembered: Mapping[str, str] | None = None) -> None:
        """Replace a paper, its units, manifest, index rows and reference list in one transaction,
        with its source files' rows (`sources`) and the metadata remembered for them (`remembered`,
        path -> JSON).  One transaction: a crash leaves the paper whole or as it was, never a paper
        without the source row that tells a rerun the file is already in (a rerun would then add it
        again under a new id) nor a source row without its remembered metadata.

        Vectors are not touched: the manifest hashes now differ from the build
        state, which is exactly what makes the paper pending for `embed`.
        """
        now, m, clean = time.time(), self.sql.mark, self.sql.clean
        with self.transaction() as db:
            if paper.source_path:
                # The file used to be another paper (its declared id changed): that one goes.
                for row in db.execute(f"SELECT id FROM papers WHERE source_path={m} AND id<>{m}",
                                      (clean(paper.source_path), paper.id)).fetchall():
                    self._delete_paper_rows(db, row["id"], keep_paper=False)
                    self._delete_vectors(db, row["id"])
            self._delete_paper_rows(db, paper.id, keep_paper=True)
            self._upsert_paper(db, paper, now)
            self._write_labels(db, paper)
            for kind in UNIT_KINDS:
                columns = UNIT_COLUMNS[kind.name]
                rows = [[clean(v) for v in unit_values(u, columns)] for u in units if u.kind == kind.name]
                self.sql.executemany(db, f"INSERT INTO {kind.table}({', '.join(columns)}) "
                                         f"VALUES ({self.sql.marks(len(columns))})", rows)
            self._index_units(db, paper, units)
            cols, values = manifest_row(paper.id, manifest, now)
            db.execute(f"INSERT INTO manifests({', '.join(cols)}) VALUES ({self.sql.marks(len(cols))})", values)
            self.sql.executemany(db, f"INSERT INTO paper_references({', '.join(REFERENCE_COLUMNS)}) "
                                     f"VALUES ({self.sql.marks(len(REFERENCE_COLUMNS))})",
                                 reference_rows(paper.id, references or [], clean))
            if paper.source_path:
                db.execute(f"DELETE FROM ingest_failures WHERE source_path={m}", (clean(paper.source_path),))
            for source in sources:
                self._save_source_row(db, source)
            for path, meta_json in (remembered or {}).items():
                self._remember_metadata_row(db, path, meta_json)

    def reference_list(self, paper_id: str) -> list[Reference]:
        return [reference_from_row(r) for r in
                self.query(f"SELECT * FROM paper_references WHERE paper_id={self.sql.mark} ORDER BY n", (paper_id,))]

    def references_to(self, dois: list[str], arxiv_ids: list[str], title_keys: list[str],
                      title_prefixes: Sequence[str] = ()) -> list[tuple[str, Reference]]:
        """(citing paper id, entry) for every entry with one of these keys, or whose title key starts
        with one of `title_prefixes` (title-only keys, ``"title|"``)."""
        clauses, params = [], []
        for column, values in (("doi", dois), ("arxiv_id", arxiv_ids), ("title_key", title_keys)):
            if values:
                sql, more = self.sql.any(column, values)
                clauses.append(sql)
                params += more
        if title_prefixes:
            sql, more = self._prefixes(title_prefixes)
            clauses.append(sql.removeprefix(" OR "))
            params += more
        if not clauses:
            return []
        rows = self.query(f"SELECT * FROM paper_references WHERE {' OR '.join(clauses)} "
                          f"ORDER BY {self.sql.collate('paper_id')}, n", params)
        return [(r["paper_id"], reference_from_row(r)) for r in rows]

    def reference_key_rows(self) -> list[tuple[str, int, str | None, str | None, str | None, int | None]]:
        """(paper, n, DOI, arXiv id, title key, year) of every reference entry: the citation graph's input."""
        rows = self.query("SELECT paper_id, n, doi, arxiv_id, title_key, year FROM paper_references "
                          f"ORDER BY {self.sql.collate('paper_id')}, n")
        return [(r["paper_id"], r["n"], r["doi"], r["arxiv_id"], r["title_key"], r["year"]) for r in rows]

    def filtered_paper_ids(self, filters: Filters) -> list[str]:
        """The papers with an indexed unit passing the filters (what a filtered search could return)."""
        where, params = self._filter_sql(filters)
        rows = self.query(f"SELECT DISTINCT d.paper_id FROM search_docs d WHERE 1 = 1{where}", params)
        return sorted(r["paper_id"] for r in rows)

    def graph_token(self) -> tuple:
        """What moves whenever a paper, one of its files or its reference list is written or removed."""
        r = self.query("SELECT (SELECT count(*) FROM papers) AS papers, (SELECT max(updated_at) FROM papers) AS at, "
                       "(SELECT count(*) FROM paper_sources) AS sources, "
                       "(SELECT count(*) FROM paper_references) AS refs")[0]
        return (r["papers"], r["at"], r["sources"], r["refs"])

    def remove_paper(self, paper_id: str) -> bool:
        """Remove a paper and everything derived from it (vectors in every space too)."""
        with self.transaction() as db:
            if not db.execute(f"SELECT 1 FROM papers WHERE id={self.sql.mark}", (paper_id,)).fetchone():
                return False
            self._delete_paper_rows(db, paper_id, keep_paper=False)
            self._delete_vectors(db, paper_id)
            return True

    def get_paper(self, paper_id: str) -> Paper | None:
        rows = self.query(f"SELECT * FROM papers WHERE id={self.sql.mark}", (paper_id,))
        return self._with_labels([paper_from_row(rows[0])])[0] if rows else None

    def get_papers(self, paper_ids: list[str]) -> dict[str, Paper]:
        out: dict[str, Paper] = {}
        for part in self.sql.batches(list(dict.fromkeys(paper_ids))):
            where, params = self.sql.any("id", part)
            for row in self.query(f"SELECT * FROM papers WHERE {where}", params):
                out[row["id"]] = paper_from_row(row)
        self._with_labels(list(out.values()))
        return out

    def list_papers(self, limit: int | None = None, filters: Filters | None = None) -> list[PaperSummary]:
        """The papers in id order, with their unit counts; with `filters`, those passing its paper-level
        filters (`_paper_filter`, as search applies them)."""
        counts = ", ".join(f"m.{manifest_columns(k)[0]}" for k in UNIT_KINDS)
        clauses, params = self._paper_filter(filters, "p.id") if filters else ([], [])
        where = f"WHERE {' AND '.join(clauses)} " if clauses else ""
        sql = (f"SELECT p.*, {counts} FROM papers p LEFT JOIN manifests m ON m.paper_id = p.id {where}"
               f"ORDER BY {self.sql.collate('p.id')}")
        if limit:
            sql += f" LIMIT {int(limit)}"
        rows = self.query(sql, params)
        return paper_summaries(self._with_labels([paper_from_row(r) for r in rows]), rows)

    def manifest(self, paper_id: str) -> Manifest | None:
        rows = self.query(f"SELECT * FROM manifests WHERE paper_id={self.sql.mark}", (paper_id,))
        return manifest_from_row(rows[0]) if rows else None

    def paper_units(self, paper_id: str) -> list[Unit]:
        out: list[Unit] = []
        for kind in UNIT_KINDS:
            out += [unit_from_row(kind, r) for r in self.query(
                f"SELECT * FROM {kind.table} WHERE paper_id={self.sql.mark} ORDER BY ordinal", (paper_id,))]
        return out

    def get_units(self, unit_ids: list[str]) -> dict[str, Unit]:
        """Units by id.  A unit id names its kind (`paper:body:3`, `paper:obj:...`): a kind's table
        is read only for the ids naming it, and an id naming two (a declared paper id may itself
        hold such a part) in both."""
        out: dict[str, Unit] = {}
        ids = list(dict.fromkeys(unit_ids))
        for kind in UNIT_KINDS:
            for part in self.sql.batches([u for u in ids if kind.id_part in u]):
                where, params = self.sql.any("id", part)
                for r in self.query(f"SELECT * FROM {kind.table} WHERE {where}", params):
                    out[r["id"]] = unit_from_row(kind, r)
        return out

    # -- ingest failures -----------------------------------------------------------

    def record_failure(self, source_path: str, source_hash: str | None, reason: str) -> None:
        with self.transaction() as db:
            db.execute(self.sql.upsert("ingest_failures", FAILURE_COLUMNS, ("source_path",)),
                       (self.sql.clean(source_path), source_hash, self.sql.clean(reason), time.time()))

    def failure(self, source_path: str) -> IngestFailure | None:
        rows = self.query(f"SELECT {', '.join(FAILURE_COLUMNS)} FROM ingest_failures WHERE source_path={self.sql.mark}",
                          (self.sql.clean(source_path),))
        return IngestFailure(**dict(rows[0])) if rows else None

    # -- filters -------------------------------------------------------------------

    def _filter_sql(self, filters: Filters, alias: str = "d") -> tuple[str, list]:
        """Filters as SQL on a table with paper_id, source and object_kind columns."""
        clauses, params = self._paper_filter(filters, f"{alias}.paper_id")
        if filters.sources:
            sql, more = self.sql.any(f"{alias}.source", filters.sources)
            clauses.append(sql)
            params += more
        if filters.object_kind:
            clauses.append(f"{alias}.object_kind = {self.sql.mark}")
            params.append(filters.object_kind)
        return (" AND " + " AND ".join(clauses)) if clauses else "", params

    def _paper_filter(self, filters: Filters, paper_id: str) -> tuple[list[str], list]:
        """The paper-level filters (papers, citation scope, years, and the papers the author,
        collection and tag filters name: filter_plan.py) as SQL clauses on the column `paper_id`:
        the one plan search, `papers` and the vector mask apply."""
        filters = self.resolve_filters(filters)
        clauses: list[str] = []
        params: list[object] = []
        if filters.papers:
            sql, more = self.sql.any(paper_id, filters.papers)
            clauses.append(sql)
            params += more
        for scope in (filters.citation_scope, filters.paper_scope):  # resolved into papers (None: no such filter)
            if scope is not None:
                sql, more = self.sql.in_list(paper_id, scope) if scope else ("1 = 0", [])
                clauses.append(sql)
                params += more
        if (years := year_bounds(filters)) is not None:
            clauses.append(f"{paper_id} IN (SELECT id FROM papers WHERE year BETWEEN {self.sql.mark} "
                           f"AND {self.sql.mark})")
            params += list(years)
        return clauses, params

    def resolve_filters(self, filters: Filters) -> Filters:
        """`filters` with author, collections and tags replaced by the papers they name (filter_plan.py)."""
        return filter_plan.resolve(filters, self.query)

    # -- what label queries and relevance ask of the index (search/labels.py, search/features.py) ------

    def index_size(self) -> int:
        """How many units the lexical index holds (the N of BM25's IDF)."""
        return int(self.query("SELECT count(*) AS n FROM search_docs")[0]["n"])

    def objects_named(self, labels: list[str], filters: Filters) -> list[tuple[str, str]]:
        """(unit id, paper id) of the indexed figures/tables printed with one of `labels`, within the filters."""
        if not labels:
            return []
        where, params = self._filter_sql(filters)
        named, more = self.sql.any("o.object_label", labels)
        rows = self.query("SELECT d.unit_id, d.paper_id FROM search_docs d JOIN object_units o ON o.id = d.unit_id "
                          f"WHERE {named}{where} ORDER BY {self.sql.collate('d.unit_id')}", [*more, *params])
        return [(r["unit_id"], r["paper_id"]) for r in rows]

    def labelled_paper_ids(self, filters: Filters) -> list[str]:
        """Papers that pass the collection, tag and Zotero library filters (every paper when there are none)."""
        if not filters.has_labels:
            return self.paper_ids()
        labels = Filters(collections=filters.collections, tags=filters.tags, zotero_library=filters.zotero_library)
        return list(self.resolve_filters(labels).paper_scope or [])

    # -- checks and status -----------------------------------------------------------

    def verify_index(self) -> IndexCheck:
        """The lexical index's own check, manifests against unit tables, index rows against indexable units."""
        problems = self._lexical_problems()
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

    def stats(self) -> LibraryStatus:
        """Papers, units per kind and veto reasons (the embedding part is the library's to add)."""
        units = {}
        for kind in UNIT_KINDS:
            row = self.query(f"SELECT count(*) AS n, coalesce(sum(indexable), 0) AS live FROM {kind.table}")[0]
            units[kind.name] = {"total": row["n"], "indexable": int(row["live"]), "vetoed": row["n"] - int(row["live"])}
        every_unit = " UNION ALL ".join(f"SELECT veto_reason FROM {k.table}" for k in UNIT_KINDS)
        vetoes = {r["veto_reason"]: r["n"] for r in self.query(
            f"SELECT veto_reason, count(*) AS n FROM ({every_unit}) u WHERE veto_reason IS NOT NULL "
            "GROUP BY veto_reason")}
        failed = self.query("SELECT count(*) AS n FROM ingest_failures")[0]["n"]
        return LibraryStatus(library=self.display_location, size_bytes=self._size_bytes(),
                             schema_version=self.schema_version, papers=self.count_papers(), units=units,
                             veto_reasons=vetoes, failed_files=failed)
