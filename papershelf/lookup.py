"""Looking things up in a library: which paper a reference names, a paper or unit shown whole, a unit's context.

Read-only, over the `Store` contract; `Library` delegates here.
"""

from __future__ import annotations

import re

from .errors import AmbiguousPaper, NotFound
from .models import Neighbour, ObjectView, PaperView, SectionView, UnitView
from .search.snippets import pages_of
from .store import Store


def resolve_paper(store: Store, ref: str) -> str:
    """The id of the paper `ref` names: its id, citekey, DOI, or a unique prefix of its id.

    Ids carry a hash suffix (``osdi2004-mapreduce-3fa2c1``), so people type the start;
    an ambiguous prefix is refused with the candidates listed, never guessed."""
    ref = ref.strip()
    refs = store.paper_refs()
    doi = re.sub(r"^(?:doi:\s*|https?://(?:dx\.)?doi\.org/)", "", ref, flags=re.IGNORECASE).lower()
    for matches in ([p for p, _, _ in refs if p == ref],
                    [p for p, key, _ in refs if key and key.lower() == ref.lower()],
                    [p for p, _, d in refs if d and d.lower() == doi],
                    [p for p, _, _ in refs if p.lower().startswith(ref.lower())] if ref else []):
        if len(matches) == 1:
            return matches[0]
        if len(matches) > 1:
            shown = ", ".join(matches[:10]) + (f" and {len(matches) - 10} more" if len(matches) > 10 else "")
            raise AmbiguousPaper(f"{ref!r} names {len(matches)} papers: {shown}; give more of the id")
    raise NotFound(f"no paper with id, id prefix, citekey or DOI {ref!r}")



def show(store: Store, item_id: str) -> PaperView | UnitView:
    """A paper with its sections and objects, or a single unit."""
    paper = store.get_paper(item_id)
    if paper is None and not store.get_units([item_id]):
        paper = store.get_paper(resolve_paper(store, item_id))
    if paper is None:
        unit = store.get_units([item_id]).get(item_id)
        if unit is None:
            raise NotFound(f"no paper or unit with id {item_id!r}")
        return UnitView(unit, store.get_paper(unit.paper_id))
    units = store.paper_units(paper.id)
    sections = [SectionView(u.id, u.source, u.section_path, u.part, pages_of(u), u.token_estimate)
                for u in units if u.kind != "object"]
    objects = [ObjectView(u.id, u.object_kind, u.object_label, u.caption_text, pages_of(u), u.section_path,
                          u.indexable, u.veto_reason, u.nearby_body_text, u.table_text)
               for u in units if u.kind == "object"]
    sources = sorted(store.sources(paper.id), key=lambda s: not s.provides)
    return PaperView(paper, store.manifest(paper.id), sections, objects, sources)


def neighbours(store: Store, unit_id: str) -> list[Neighbour]:
    """The text units of a unit's section in reading order (for an object, the section
    it sits in), the unit itself marked: the context a hit is read in."""
    unit = store.get_units([unit_id]).get(unit_id)
    if unit is None:
        raise NotFound(f"no unit with id {unit_id!r}")
    same = [u for u in store.paper_units(unit.paper_id)
            if u.kind != "object" and u.section_path == unit.section_path]
    return [Neighbour(u.id, u.source, u.section_path, u.part, pages_of(u), u.text, u.id == unit_id)
            for u in same]

