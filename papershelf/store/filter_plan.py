"""One filter plan for both backends: the filters that compare names and labels, decided once.

`Filters` holds what a person asked (author "K. Lo", collection "Biologie/Zellen", tag "to read",
Zotero library "Reef Lab").  The author, collection, tag and Zotero library filters compare text, and
the comparison must be the same on both backends and through every command (`search --author`,
`papers --author`, /api/papers, MCP): case folded for every script, accents dropped, initials and
name punctuation understood (store/name_fold.py).  Neither SQL dialect can be trusted to fold so,
so `resolve` decides those filters here, in Python, over the papers' authors and labels read in a few small queries,
and leaves the plan as a list of paper ids (`Filters.paper_scope`) that every backend applies the
same way: as SQL (`paper_id IN …`), and as the vector mask (sqlite/vectors.py).  The Library
resolves once per request; a store given unresolved filters resolves them itself.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Iterable
from typing import Any

from ..models import Filters
from .name_fold import fold_text, name_words, names_match

Query = Callable[[str], list[Any]]


def needs_resolving(filters: Filters) -> bool:
    return bool(filters.author or filters.has_labels)


def author_ids(rows: Iterable[tuple[str, str | None]], name: str) -> set[str]:
    """Papers (id, authors JSON) with one author whose name matches `name` (`names_match`)."""
    query = name_words(name)
    out = set()
    for paper_id, authors in rows:
        for author in json.loads(authors or "[]"):
            if isinstance(author, str) and names_match(query, name_words(author)):
                out.add(paper_id)
                break
    return out


def collection_ids(rows: Iterable[tuple[str, str]], wanted: list[str]) -> set[str]:
    """Papers in any of the collections or one below it ("Parent/Child"), folded as names are."""
    keys = [fold_text(w.strip("/")) for w in wanted]
    return {pid for pid, path in rows for k in keys
            if (p := fold_text(path)) == k or p.startswith(k + "/")}


def tag_ids(rows: Iterable[tuple[str, str]], wanted: list[str]) -> set[str] | None:
    """Papers carrying every one of the tags (None: no tag asked)."""
    if not wanted:
        return None
    keys = {fold_text(t) for t in wanted}
    held: dict[str, set[str]] = {}
    for pid, tag in rows:
        held.setdefault(pid, set()).add(fold_text(tag))
    return {pid for pid, tags in held.items() if keys <= tags}


# The names the personal library answers to ("My Library" is what Zotero calls it).
PERSONAL = ("my library", "personal")
GROUP_LINK = "groups/"  # a group item's attachment key: groups/<groupID>/items/KEY (ingest/zotero.py)


def zotero_library_ids(attachments: Iterable[tuple[str, str]], collections: Iterable[tuple[str, str]],
                       name: str) -> set[str]:
    """Papers from the Zotero library `name`, given (paper, attachment key) and (paper, collection path).

    The personal library's papers have an attachment key of their own; a group's have
    `groups/<id>/items/KEY` and, as the reader roots a group item's collections at the group's name,
    the group's name among their collections (a personal collection of that name is not the group)."""
    key = fold_text(name.strip())
    grouped = {pid: link.startswith(GROUP_LINK) for pid, link in attachments}
    if key in PERSONAL:
        return {pid for pid, in_group in grouped.items() if not in_group}
    return {pid for pid, path in collections if grouped.get(pid) and fold_text(path) == key}


def resolve(filters: Filters, query: Query) -> Filters:
    """`filters` with author, collections and tags replaced by the paper ids they name, intersected
    with any paper scope already there (`query(sql)` reads rows of the library, by column name)."""
    if not needs_resolving(filters):
        return filters
    scopes: list[set[str]] = []
    if filters.author:
        rows = query("SELECT id, authors FROM papers")
        scopes.append(author_ids(((r["id"], r["authors"]) for r in rows), filters.author))
    if filters.collections:
        rows = query("SELECT paper_id, path FROM paper_collections")
        scopes.append(collection_ids(((r["paper_id"], r["path"]) for r in rows), filters.collections))
    if filters.zotero_library:
        links = query("SELECT paper_id, attachment_key FROM paper_zotero")
        paths = query("SELECT paper_id, path FROM paper_collections")
        scopes.append(zotero_library_ids(((r["paper_id"], r["attachment_key"]) for r in links),
                                         ((r["paper_id"], r["path"]) for r in paths), filters.zotero_library))
    if filters.tags:
        rows = query("SELECT paper_id, tag FROM paper_tags")
        tagged = tag_ids(((r["paper_id"], r["tag"]) for r in rows), filters.tags)
        scopes.append(tagged or set())
    if filters.paper_scope is not None:
        scopes.append(set(filters.paper_scope))
    scope = set.intersection(*scopes)
    return dataclasses.replace(filters, author=None, collections=[], tags=[], zotero_library=None,
                               paper_scope=sorted(scope))
