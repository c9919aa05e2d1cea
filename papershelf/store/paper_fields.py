"""A paper's metadata as a searchable field, and the author filter, for both backends.

Every unit's `title` field in the lexical index (search_docs.title: FTS5's first column, the
tsvector's weight A in PostgreSQL) holds the paper's title, each author's full name, the venue
and the year, one per line.  A query naming an author ("Mooney", "Raymond J. Mooney") or a venue
then matches every unit of that person's papers through a short field, which outranks the odd
body mention of the name in someone else's paper; a surname alone matches because each name is
tokenized into its words.  These are paper-level facts repeated on each unit, as the title
already was, so a paper's units still rank among themselves by their own text.

The author filter (`Filters.author`) is decided with the collection and tag filters in
filter_plan.py, the same rule on both backends (name_fold.py).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from ..models import Paper


def indexed_title(title: str | None, authors: Iterable[str], venue: str | None, year: int | None) -> str:
    """What the index's title field holds for a paper: title, authors, venue, year, one per line."""
    parts = [title or "", "; ".join(a for a in authors if a), venue or "", str(year) if year else ""]
    return "\n".join(p.strip() for p in parts if p and p.strip())


def paper_index_title(paper: Paper) -> str:
    return indexed_title(paper.title, paper.authors, paper.venue, paper.year)


def index_titles(rows: Iterable[Any]) -> list[tuple[str, str]]:
    """(indexed title, paper id) from (id, title, authors JSON, venue, year) rows: the migration backfill."""
    return [(indexed_title(r[1], json.loads(r[2] or "[]"), r[3], r[4]), r[0]) for r in rows]
