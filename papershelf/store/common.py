"""What every backend shares: the column lists, the one pending predicate, rows to models,
and the index checks of `verify`.

A paper is pending in a space when it has indexable units and no build state
there ("new"), when its manifest hashes differ from the hashes its vectors were
built from ("changed"), or when the vectors stored per collection differ from
the counts the build recorded ("damaged").  Build, status and verify all ask
this one query; each backend only fills in its parameter style and collation.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

from ..models import UNIT_KINDS, Filters, Manifest, Paper, PaperSource, PaperSummary, UnitKind
from ..units import Unit

_UNIT_COMMON = ["id", "paper_id", "ordinal", "text", "section_path", "section_title", "section_level",
                "page_start", "page_end", "token_estimate", "indexable", "veto_reason", "content_hash",
                "ocr_engine"]
# The columns of each kind's unit table (`UnitKind.table`).
UNIT_COLUMNS = {
    "body": _UNIT_COMMON + ["part"],
    "object": _UNIT_COMMON + ["object_kind", "object_label", "caption_text", "nearby_body_text", "table_text",
               "region"],
    "chunk": _UNIT_COMMON,
}
PAPER_COLUMNS = ["id", "title", "authors", "year", "venue", "doi", "citekey", "source_path",
                 "source_hash", "source_format", "source_size"]
# paper_sources columns and the PaperSource fields they hold, in the same order.
SOURCE_COLUMNS = ["source_path", "paper_id", "source_format", "source_hash", "source_size", "source_mtime",
                  "priority", "doi", "arxiv_id", "title_key", "year", "added_at"]
SOURCE_FIELDS = ["path", "paper_id", "format", "hash", "size", "mtime", "priority", "doi", "arxiv_id", "title_key",
                 "year", "added_at"]


def unit_tables_v1(real: str) -> str:
    """The unit tables and manifests as both backends' first migration creates them (`real`: the
    backend's float type).  Frozen: a change to these tables is a new migration, not an edit here."""
    unit = """
        id TEXT PRIMARY KEY,
        paper_id TEXT NOT NULL REFERENCES papers(id) ON DELETE CASCADE,
        ordinal INTEGER NOT NULL,
        text TEXT NOT NULL,
        section_path TEXT NOT NULL DEFAULT '',
        section_title TEXT NOT NULL DEFAULT '',
        section_level INTEGER NOT NULL DEFAULT 0,
        page_start INTEGER,
        page_end INTEGER,
        token_estimate INTEGER NOT NULL,
        indexable INTEGER NOT NULL DEFAULT 1,
        veto_reason TEXT,
        content_hash TEXT NOT NULL"""
    return f"""
    CREATE TABLE body_units ({unit}, part INTEGER NOT NULL DEFAULT 0);
    CREATE INDEX body_units_paper ON body_units(paper_id, ordinal);
    CREATE TABLE object_units ({unit}, object_kind TEXT NOT NULL, object_label TEXT NOT NULL,
        caption_text TEXT NOT NULL DEFAULT '', nearby_body_text TEXT, table_text TEXT);
    CREATE INDEX object_units_paper ON object_units(paper_id, ordinal);
    CREATE TABLE fulltext_chunks ({unit});
    CREATE INDEX fulltext_chunks_paper ON fulltext_chunks(paper_id, ordinal);
    CREATE TABLE manifests (
        paper_id TEXT PRIMARY KEY REFERENCES papers(id) ON DELETE CASCADE,
        body_count INTEGER NOT NULL, object_count INTEGER NOT NULL, chunk_count INTEGER NOT NULL,
        body_indexable INTEGER NOT NULL, object_indexable INTEGER NOT NULL, chunk_indexable INTEGER NOT NULL,
        body_hash TEXT NOT NULL, objects_hash TEXT NOT NULL, fulltext_hash TEXT NOT NULL,
        policy_version INTEGER NOT NULL, updated_at {real} NOT NULL);
"""


_PENDING = """
WITH live AS (
    SELECT paper_id,
           count(*) FILTER (WHERE collection = 'body') AS n_body,
           count(*) FILTER (WHERE collection = 'objects') AS n_objects,
           count(*) FILTER (WHERE collection = 'fulltext') AS n_fulltext
    FROM vectors WHERE space_id = {space} GROUP BY paper_id
)
SELECT m.paper_id,
       CASE
         WHEN st.paper_id IS NULL THEN 'new'
         WHEN st.body_hash <> m.body_hash OR st.objects_hash <> m.objects_hash
              OR st.fulltext_hash <> m.fulltext_hash THEN 'changed'
         ELSE 'damaged'
       END AS reason
FROM manifests m
LEFT JOIN embed_state st ON st.space_id = {space} AND st.paper_id = m.paper_id
LEFT JOIN live ON live.paper_id = m.paper_id
WHERE {{papers}}
  CASE WHEN st.paper_id IS NULL
    THEN m.body_indexable + m.object_indexable + m.chunk_indexable > 0 OR live.paper_id IS NOT NULL
    ELSE st.body_hash <> m.body_hash OR st.objects_hash <> m.objects_hash OR st.fulltext_hash <> m.fulltext_hash
      OR st.body_expected <> coalesce(live.n_body, 0)
      OR st.objects_expected <> coalesce(live.n_objects, 0)
      OR st.fulltext_expected <> coalesce(live.n_fulltext, 0)
  END
ORDER BY m.paper_id{collate}
"""


def pending_sql(space_param: str, collate: str = "") -> str:
    """The predicate for a backend: its named-parameter form for the space (`:space`,
    `%(space)s`) and a collation that orders ids the same way everywhere.  `{papers}` is left
    for an optional `m.paper_id IN (...) AND` restriction."""
    return _PENDING.format(space=space_param, collate=f" COLLATE {collate}" if collate else "")


def manifest_columns(kind: UnitKind) -> tuple[str, str, str]:
    """A kind's count, indexable and hash columns in `manifests` (the schema names hashes by collection)."""
    return f"{kind.name}_count", f"{kind.name}_indexable", f"{kind.collection}_hash"


def manifest_row(paper_id: str, manifest: Manifest, now: float) -> tuple[list[str], list[object]]:
    """The `manifests` row of a paper as (columns, values), the reverse of `manifest_from_row`."""
    columns = ["paper_id", *(c for k in UNIT_KINDS for c in manifest_columns(k)), "policy_version", "updated_at"]
    values: list[object] = [paper_id]
    for k in UNIT_KINDS:
        values += [manifest.counts[k.name], manifest.indexable[k.name], manifest.hashes[k.name]]
    return columns, [*values, manifest.policy_version, now]


def manifest_from_row(row: Any) -> Manifest:
    """A manifest from its row (any mapping by column name: sqlite3.Row, a psycopg dict row)."""
    m = Manifest(policy_version=row["policy_version"])
    for k in UNIT_KINDS:
        count, indexable, hash_ = manifest_columns(k)
        m.counts[k.name], m.indexable[k.name], m.hashes[k.name] = row[count], row[indexable], row[hash_]
    return m


def paper_summaries(papers: Sequence[Paper], rows: Sequence[Any]) -> list[PaperSummary]:
    """`papers` listing entries: each paper with its unit counts from the joined manifest columns."""
    return [PaperSummary(p, {k.name: r[manifest_columns(k)[0]] or 0 for k in UNIT_KINDS})
            for p, r in zip(papers, rows)]


# Migration 4 on either backend: every paper that came from a file gets that file as its first
# source, ranked as works.py ranks formats (structured full text 2, PDF or plain text 1).
SOURCES_BACKFILL_SQL = """
INSERT INTO paper_sources(source_path, paper_id, source_format, source_hash, source_size, priority, doi,
                          year, added_at)
    SELECT source_path, id, source_format, source_hash, source_size,
           CASE WHEN source_format IN ('jats', 'tei', 's2orc', 'markdown') THEN 2
                WHEN source_format IN ('pdf', 'text') THEN 1 ELSE 0 END,
           lower(doi), year, added_at
    FROM papers WHERE source_path IS NOT NULL;
"""


def refolded_keys(sources: Iterable[Any], references: Iterable[Any]) -> tuple[list[tuple], list[tuple]]:
    """The title keys to write again once normalized_title folds accents instead of dropping them
    ("mller" -> "muller"): (key, source path) from (source_path, title, authors) rows of a source
    and its paper, and (key, paper id, n) from (paper_id, n, title, authors) reference rows; only
    rows with a letter beyond ASCII change (an ASCII title gives the same key as before)."""
    from ..works import title_key

    def changed(title: str | None, authors: str | None) -> bool:
        return not (title or "").isascii() or not (authors or "").isascii()

    source_keys = [(title_key(r[1], json.loads(r[2] or "[]")), r[0]) for r in sources if changed(r[1], r[2])]
    reference_keys = [(title_key(r[2], json.loads(r[3] or "[]")), r[0], r[1]) for r in references
                      if changed(r[2], r[3])]
    return source_keys, reference_keys


def rekeyed(sources: Iterable[Any], references: Iterable[Any]) -> tuple[list[tuple], list[tuple]]:
    """The title keys to write again once a title with no author has a title-only key ("title|", a
    long title naming a work alone for a citation): (key, source path) from (source_path, title,
    authors, title_key) rows of a source and its paper, (key, paper id, n) from (paper_id, n, title,
    authors, title_key) reference rows; only the rows whose key changes."""
    from ..works import title_key

    source_keys = [(k, r[0]) for r in sources if (k := title_key(r[1], json.loads(r[2] or "[]"))) != r[3]]
    reference_keys = [(k, r[0], r[1]) for r in references if (k := title_key(r[2], json.loads(r[3] or "[]"))) != r[4]]
    return source_keys, reference_keys


def title_keys(rows: Iterable[Any]) -> list[tuple[str | None, str]]:
    """(title key, source path) for migration 4's backfill, from (source_path, title, authors) rows."""
    from ..works import title_key

    return [(title_key(r[1], json.loads(r[2] or "[]")), r[0]) for r in rows]


# -- rows to models (any mapping by column name: sqlite3.Row, a psycopg dict row) ---------------


def paper_from_row(row: Any) -> Paper:
    d = {c: row[c] for c in PAPER_COLUMNS + ["added_at", "updated_at"]}
    d["authors"] = json.loads(d.get("authors") or "[]")
    return Paper(**d)


def unit_from_row(kind: UnitKind, row: Any) -> Unit:
    d = dict(row)
    d["indexable"] = bool(d["indexable"])
    if d.get("region"):
        d["region"] = json.loads(d["region"])
    return Unit(kind=kind.name, **d)


def unit_values(unit: Unit, columns: Sequence[str]) -> list[Any]:
    """A unit's row for its table: the region (a dict) is stored as JSON text."""
    return [json.dumps(unit.region) if c == "region" and unit.region is not None else getattr(unit, c)
            for c in columns]


def source_from_row(row: Any) -> PaperSource:
    return PaperSource(*(row[c] for c in SOURCE_COLUMNS))


def sources_from_rows(rows: Iterable[Any]) -> list[PaperSource]:
    """Sources from rows that also carry `provides` (this file is the one the paper's units come from)."""
    out = []
    for r in rows:
        src = source_from_row(r)
        src.provides = bool(r["provides"])
        out.append(src)
    return out


def year_bounds(filters: Filters) -> tuple[int, int] | None:
    """(from, to) for a `year BETWEEN ? AND ?` clause, open ends made wide; None without a year filter."""
    if filters.year_from is None and filters.year_to is None:
        return None
    return (filters.year_from if filters.year_from is not None else -10**6,
            filters.year_to if filters.year_to is not None else 10**6)


# -- verify -------------------------------------------------------------------------------------


def index_problems(counts: dict[str, dict[str, tuple[int, int]]], manifests: Iterable[Any],
                   indexed: dict[str, int], orphans: int) -> list[str]:
    """What `verify` finds wrong with a library's index, from the facts a backend gathered:
    `counts` (paper -> kind -> (units, indexable units)), the manifest rows, `indexed` (paper ->
    rows in the search index) and `orphans` (search rows of no paper)."""
    problems: list[str] = []
    for m in manifests:
        got = counts.get(m["paper_id"], {})
        for kind in UNIT_KINDS:
            count, indexable, _ = manifest_columns(kind)
            total, live = got.get(kind.name, (0, 0))
            if (total, live) != (m[count], m[indexable]):
                problems.append(f"{m['paper_id']}: manifest says {m[count]} {kind.name} units, "
                                f"the library holds {total}")
    for pid, kinds in counts.items():
        live = sum(v[1] or 0 for v in kinds.values())
        if indexed.get(pid, 0) != live:
            problems.append(f"{pid}: {live} indexable units but {indexed.get(pid, 0)} rows in the search index")
    if orphans:
        problems.append(f"{orphans} search index rows belong to no paper")
    return problems


def like_escape(text: str) -> str:
    """`text` matched literally by LIKE ... ESCAPE '\\' (its wildcards and the escape escaped)."""
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
