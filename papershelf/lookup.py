"""Looking things up in a library: a paper or unit shown whole, a unit's context.

Read-only, over the `Store` contract; `Library` delegates here.  Which paper or unit a reference
names is resolve.py's (one resolver for every door).
"""

from __future__ import annotations

from .errors import NotFound
from .models import Neighbour, ObjectView, PaperView, SectionView, UnitView
from .resolve import resolve_item, resolve_unit
from .search.snippets import pages_of
from .store import Store


def show(store: Store, item_id: str) -> PaperView | UnitView:
    """A paper with its sections and objects, or a single unit, named in any form resolve.py takes."""
    what, found = resolve_item(store, item_id)
    if what == "unit":
        unit = store.get_units([found])[found]
        return UnitView(unit, store.get_paper(unit.paper_id))
    paper = store.get_paper(found)
    if paper is None:
        raise NotFound(f"no paper with id {found!r}")
    units = store.paper_units(paper.id)
    sections = [SectionView(u.id, u.source, u.section_path, u.part, pages_of(u), u.token_estimate)
                for u in units if u.kind != "object"]
    objects = [ObjectView(u.id, u.object_kind, u.object_label, u.caption_text, pages_of(u), u.section_path,
                          u.indexable, u.veto_reason, u.nearby_body_text, u.table_text, u.region)
               for u in units if u.kind == "object"]
    from . import citations  # the works matcher: only `show` of a paper counts its citations

    sources = sorted(store.sources(paper.id), key=lambda s: not s.provides)
    return PaperView(paper, store.manifest(paper.id), sections, objects, sources,
                     citations.counts(store, paper.id))


def neighbours(store: Store, unit_id: str) -> list[Neighbour]:
    """The text units of a unit's section in reading order (for an object, the section
    it sits in), the unit itself marked: the context a hit is read in."""
    unit_id = resolve_unit(store, unit_id)
    unit = store.get_units([unit_id])[unit_id]
    same = [u for u in store.paper_units(unit.paper_id)
            if u.kind != "object" and u.section_path == unit.section_path]
    return [Neighbour(u.id, u.source, u.section_path, u.part, pages_of(u), u.text, u.id == unit_id)
            for u in same]
