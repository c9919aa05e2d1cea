"""A paper's reference list as table rows, the same for both backends.

Each row carries the match keys one paper per work uses (works.py): the normalized DOI and arXiv
id and the title key (normalized title + first author's surname), so finding which library paper
an entry names, or which entries name a paper, is an indexed lookup.
"""

from __future__ import annotations

import json

from ..document import Reference
from ..works import normalized_arxiv, normalized_doi, title_key

REFERENCE_COLUMNS = ("paper_id", "n", "text", "authors", "year", "title", "venue", "doi", "arxiv_id", "title_key")


def reference_keys(ref: Reference) -> tuple[str | None, str | None, str | None]:
    """(DOI, arXiv id, title key) as works.py normalizes them for sources."""
    return normalized_doi(ref.doi), normalized_arxiv(ref.arxiv_id), title_key(ref.title, ref.authors)


def reference_rows(paper_id: str, refs: list[Reference], clean=lambda v: v) -> list[tuple]:
    rows = []
    for r in refs:
        doi, arxiv, key = reference_keys(r)
        rows.append(tuple(clean(v) for v in (paper_id, r.n, r.text, json.dumps(r.authors, ensure_ascii=False),
                                             r.year, r.title, r.venue, doi, arxiv, key)))
    return rows


def reference_from_row(row) -> Reference:
    return Reference(n=row["n"], text=row["text"], authors=json.loads(row["authors"] or "[]"), year=row["year"],
                     title=row["title"], venue=row["venue"], doi=row["doi"], arxiv_id=row["arxiv_id"])
