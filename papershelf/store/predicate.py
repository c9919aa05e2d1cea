"""The one pending predicate, and the row-to-model steps every backend shares.

A paper is pending in a space when it has indexable units and no build state
there ("new"), when its manifest hashes differ from the hashes its vectors were
built from ("changed"), or when the vectors stored per collection differ from
the counts the build recorded ("damaged").  Build, status and verify all ask
this one query; each backend only fills in its parameter style and collation.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..models import UNIT_KINDS, Manifest, Paper, PaperSummary, UnitKind

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
