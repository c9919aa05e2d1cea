"""One way to name a paper or a unit, for every door and every command.

A paper may be named by its id, a unique prefix of its id, its citekey, its DOI
(bare, ``doi:`` or a doi.org URL), or a Zotero key: the item's, or the
attachment's that every ``zotero://`` link carries (of the personal library or a
group's).  New ids are short (``zeng1994heavy``); ids made by earlier versions carry a
hash suffix (``osdi2004-mapreduce-3fa2c1``) and keep working, so people type the start;
an ambiguous prefix is refused with the candidates listed, never guessed.  A unit is named by its full
id (``PAPER:body:3``); its paper part may be any of the paper forms above.
"""

from __future__ import annotations

import re

from .errors import AmbiguousPaper, NotFound
from .store import Store

SHOWN = 10


def _doi(ref: str) -> str:
    return re.sub(r"^(?:doi:\s*|https?://(?:dx\.)?doi\.org/)", "", ref, flags=re.IGNORECASE).lower()


def _zotero_key(ref: str) -> str:
    """A bare key from a key or a zotero:// link (…/items/KEY?page=3)."""
    m = re.match(r"^zotero://[a-z-]+/(?:library|groups/\d+)/items/([A-Za-z0-9]+)", ref)
    return (m.group(1) if m else ref).upper()


def _one(ref: str, matches: list[str]) -> str | None:
    matches = sorted(set(matches))
    if len(matches) == 1:
        return matches[0]
    if len(matches) > 1:
        shown = ", ".join(matches[:SHOWN]) + (f" and {len(matches) - SHOWN} more" if len(matches) > SHOWN else "")
        raise AmbiguousPaper(f"{ref!r} names {len(matches)} papers: {shown}; give more of the id")
    return None


def resolve_paper(store: Store, ref: str) -> str:
    """The id of the paper `ref` names (forms in the module docstring); NotFound or AmbiguousPaper."""
    ref = ref.strip()
    if store.get_paper(ref) is not None:  # an id, as every hit prints it: the first rule below, without reading all
        return ref
    refs = store.paper_refs()
    doi, low = _doi(ref), ref.lower()
    for matches in ([p for p, _, _ in refs if p == ref],
                    [p for p, key, _ in refs if key and key.lower() == low],
                    [p for p, _, d in refs if d and d.lower() == doi]):
        if (found := _one(ref, matches)) is not None:
            return found
    zkey = _zotero_key(ref)
    keys = [(p, k.rsplit("/", 1)[-1].upper()) for p, k in store.zotero_refs() if k]  # a group's: groups/ID/items/KEY
    if (found := _one(ref, [p for p, k in keys if k == zkey])) is not None:
        return found
    if ref and (found := _one(ref, [p for p, _, _ in refs if p.lower().startswith(low)])) is not None:
        return found
    raise NotFound(f"no paper with id, id prefix, citekey, DOI or Zotero key {ref!r}")


def resolve_item(store: Store, ref: str) -> tuple[str, str]:
    """("unit", unit id) or ("paper", paper id) for `ref`: a unit id (its paper part in any paper form),
    else a paper in any form."""
    ref = ref.strip()
    if store.get_units([ref]):
        return "unit", ref
    m = re.match(r"^(.+?)(:(?:body|chunk|obj:[a-z]+):[^:]+)$", ref)
    if m and store.get_paper(ref) is None:
        unit_id = resolve_paper(store, m.group(1)) + m.group(2)
        if store.get_units([unit_id]):
            return "unit", unit_id
        raise NotFound(f"no unit with id {ref!r}")
    return "paper", resolve_paper(store, ref)


def resolve_unit(store: Store, ref: str) -> str:
    """The id of the unit `ref` names; NotFound when it names a paper or nothing."""
    what, found = resolve_item(store, ref)
    if what != "unit":
        raise NotFound(f"{ref!r} is a paper, not a unit: give a unit id (from `show` or a search hit)")
    return found
