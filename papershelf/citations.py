"""The citation graph inside a library: which library paper each reference names, who cites whom.

A reference links to a library paper by the rules one paper per work uses for a new file
(works.matching_paper, in its `cited` form): the DOI, else the arXiv id, else the normalized title
with the first author's surname and the year (another version's year allowed when one paper has the
key); a title alone links only a long one, across a side with no author (a tech report's front page).
Links are found whenever they are read, from keys stored with each entry and with each source file, so
a paper added later is cited at once and a removed paper is cited no more, on either backend, with
nothing to keep in step.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from . import works
from .document import Reference
from .errors import NotFound
from .models import PaperSource
from .store import Store
from .store.reference_rows import reference_keys


@dataclass
class LinkedReference:
    """One entry of a paper's reference list and the library paper it names (or None)."""

    ref: Reference
    paper_id: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {**self.ref.to_dict(), "paper_id": self.paper_id}


@dataclass
class ReferenceList:
    """`refs ID`: the paper's references in their printed order."""

    paper_id: str
    references: list[LinkedReference] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"paper_id": self.paper_id, "references": [r.to_dict() for r in self.references]}


@dataclass
class Citer:
    """A library paper citing another, with the number of its first entry naming it."""

    paper_id: str
    title: str | None
    year: int | None
    n: int

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


@dataclass
class Citing:
    """`citing ID`: the library papers whose reference lists name the paper (one word for this
    direction in every door: "citing"; its references are "references")."""

    paper_id: str
    citing: list[Citer] = field(default_factory=list)

    @property
    def cited_by(self) -> list[Citer]:  # the old name
        return self.citing

    def to_dict(self) -> dict[str, Any]:
        return {"paper_id": self.paper_id, "citing": [c.to_dict() for c in self.citing]}


CitedBy = Citing  # the old name


def _as_source(ref: Reference) -> PaperSource:
    doi, arxiv, key = reference_keys(ref)
    return PaperSource(path="", paper_id="", doi=doi, arxiv_id=arxiv, title_key=key, year=ref.year)


def link(store: Store, ref: Reference) -> str | None:
    """The library paper this entry names, by works.matching_paper over the sources sharing a key (a
    title-only key meets the sources with that title, and a full key the title-only source of it)."""
    probe = _as_source(ref)
    if not (probe.doi or probe.arxiv_id or probe.title_key):
        return None
    alone = works.title_only(probe.title_key)
    shorter, longer = works.near_keys(probe.title_key)
    prefixes = ([alone] if alone else []) + [works.title_only(k) or k for k in shorter] + longer
    found = store.find_sources(probe.doi, probe.arxiv_id, probe.title_key, prefixes)
    return works.matching_paper(probe, found, cited=True)


def references(store: Store, paper_id: str) -> ReferenceList:
    """The paper's reference list with each entry's link (a paper never links to itself)."""
    out = ReferenceList(paper_id)
    for ref in store.reference_list(paper_id):
        target = link(store, ref)
        out.references.append(LinkedReference(ref, target if target != paper_id else None))
    return out


def citing(store: Store, paper_id: str) -> Citing:
    """Library papers citing this one: entries sharing a key with any of its files, confirmed by `link`."""
    sources = store.sources(paper_id)
    dois, arxiv_ids = [s.doi for s in sources if s.doi], [s.arxiv_id for s in sources if s.arxiv_id]
    titles = [k for s in sources if s.title_key for k in {s.title_key, works.title_only(s.title_key)} if k]
    alone = sorted({s.title_key for s in sources if s.title_key and s.title_key.endswith("|")})
    near = [works.near_keys(s.title_key) for s in sources]  # entries citing it by a shorter or longer title
    titles += [k for shorter, _ in near for k in shorter]
    first: dict[str, int] = {}
    for citing, ref in store.references_to(dois, arxiv_ids, titles,
                                           title_prefixes=alone + [p for _, longer in near for p in longer]):
        if citing != paper_id and citing not in first and link(store, ref) == paper_id:
            first[citing] = ref.n
    papers = store.get_papers(list(first))
    citers = [Citer(p, papers[p].title, papers[p].year, n) for p, n in first.items() if p in papers]
    return Citing(paper_id, sorted(citers, key=lambda c: (c.year or 0, c.paper_id)))


def counts(store: Store, paper_id: str) -> dict[str, int]:
    """What `show` says about the paper's place in the graph."""
    refs = references(store, paper_id).references
    return {"references": len(refs), "in_library": sum(r.paper_id is not None for r in refs),
            "citing": len(citing(store, paper_id).citing)}


def citation_scope(store: Store, citing_paper: str | None, references_of: str | None) -> list[str] | None:
    """The papers a search may return under `--citing` / `--references-of` (both: papers meeting both),
    or None when neither is asked.  The backends receive the list as a paper restriction."""
    scope: set[str] | None = None
    if citing_paper:
        scope = {c.paper_id for c in citing(store, _existing(store, citing_paper)).citing}
    if references_of:
        cited = {r.paper_id for r in references(store, _existing(store, references_of)).references if r.paper_id}
        scope = cited if scope is None else scope & cited
    return None if scope is None else sorted(scope)


def _existing(store: Store, paper_id: str) -> str:
    if store.get_paper(paper_id) is None:
        raise NotFound(f"no paper with id {paper_id!r}")
    return paper_id
