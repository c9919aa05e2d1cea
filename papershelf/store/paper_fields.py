"""A paper's metadata as a searchable field, and the author filter, for both backends.

Every unit's `title` field in the lexical index (search_docs.title: FTS5's first column, the
tsvector's weight A in PostgreSQL) holds the paper's title, each author's full name, the venue
and the year, one per line.  A query naming an author ("Mooney", "Raymond J. Mooney") or a venue
then matches every unit of that person's papers through a short field, which outranks the odd
body mention of the name in someone else's paper; a surname alone matches because each name is
tokenized into its words.  These are paper-level facts repeated on each unit, as the title
already was, so a paper's units still rank among themselves by their own text.

The author filter (`Filters.author`) keeps papers with one author whose name holds every word of
the given name, each as the start of a word of that name ("Mooney", "R. Mooney", "Moon"),
case and diacritics folded (`name_fold`); it is SQL in both backends (a subquery over the authors JSON), so it
narrows BM25 and vector search before ranking like every other filter.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from ..models import Paper
from .common import like_escape
from .name_fold import fold_name

if TYPE_CHECKING:
    from .sql.dialect import Dialect

_NAME_WORD = re.compile(r"\w+", re.U)


def indexed_title(title: str | None, authors: Iterable[str], venue: str | None, year: int | None) -> str:
    """What the index's title field holds for a paper: title, authors, venue, year, one per line."""
    parts = [title or "", "; ".join(a for a in authors if a), venue or "", str(year) if year else ""]
    return "\n".join(p.strip() for p in parts if p and p.strip())


def paper_index_title(paper: Paper) -> str:
    return indexed_title(paper.title, paper.authors, paper.venue, paper.year)


def index_titles(rows: Iterable[Any]) -> list[tuple[str, str]]:
    """(indexed title, paper id) from (id, title, authors JSON, venue, year) rows: the migration backfill."""
    return [(indexed_title(r[1], json.loads(r[2] or "[]"), r[3], r[4]), r[0]) for r in rows]


def name_words(name: str) -> list[str]:
    """The words of an author name as the filter compares them (`name_fold.fold_name`)."""
    return _NAME_WORD.findall(fold_name(name))


def author_sql(name: str, dialect: Dialect) -> tuple[str, list]:
    """SELECT of the ids of papers with an author matching `name` (see the module docstring)."""
    words = name_words(name)
    authors, element = dialect.json_elements("p.authors", "a")
    folded, base = dialect.folded_name(element)
    clauses = [f"' ' || {folded} LIKE {dialect.mark} ESCAPE '\\'" for _ in words] or ["1=0"]
    params: list[object] = []
    for w in words:
        params += base + ["% " + like_escape(w) + "%"]
    return f"SELECT p.id FROM papers p, {authors} WHERE " + " AND ".join(clauses), params
