"""The library's citation graph in memory: which works each paper cites, and which papers cite each work.

`related` and `reading-list` ask the same questions of every reference entry of the library (who else cites
this work? is it a library paper?), so the entries are read once into this structure and kept while the
library does not change.  It is derived and disposable: `Graph.token` is read from the library before each
use and a different token rebuilds the graph; nothing here is ever written back.

A *work* is one work however its entries are printed: entries that share a DOI, an arXiv id or a title key
(normalized title + first author's surname) are one work (union-find over those keys), and an entry that
links to a library paper (by `works.matching_paper`, the rule `refs` uses) is that paper's work.  An entry
with no key at all is a work of its own that no other entry can share.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass, field

from . import works
from .models import PaperSource
from .store import Store
from .union_find import UnionFind


@dataclass
class Entry:
    """One reference entry as the graph keeps it: the citing paper, its number, and the work it names."""

    paper_id: str
    n: int
    work: str


@dataclass
class Graph:
    token: tuple
    papers: set[str] = field(default_factory=set)
    cites: dict[str, set[str]] = field(default_factory=dict)  # library paper -> works it cites
    citers: dict[str, set[str]] = field(default_factory=dict)  # work -> library papers citing it
    work_paper: dict[str, str] = field(default_factory=dict)  # work -> the library paper it is
    paper_work: dict[str, str] = field(default_factory=dict)
    entries: dict[str, list[Entry]] = field(default_factory=dict)  # work -> the entries naming it

    def idf(self, work: str) -> float:
        """How telling a shared work is: rare works say more than the field's classics."""
        return math.log(1.0 + len(self.papers) / max(1, len(self.citers.get(work, ()))))

    def cited_papers(self, paper_id: str) -> set[str]:
        """Library papers this paper's reference list names."""
        return {self.work_paper[w] for w in self.cites.get(paper_id, ()) if w in self.work_paper} - {paper_id}

    def citing_papers(self, paper_id: str) -> set[str]:
        """Library papers naming this paper in their reference lists."""
        work = self.paper_work.get(paper_id)
        return (set(self.citers.get(work, ())) - {paper_id}) if work else set()

    def without(self, paper_id: str, work: str) -> Graph:
        """The graph with one paper's entries naming one work dropped (hidden-link evaluation)."""
        cites = dict(self.cites)
        cites[paper_id] = cites.get(paper_id, set()) - {work}
        citers = dict(self.citers)
        citers[work] = citers.get(work, set()) - {paper_id}
        return Graph(self.token, self.papers, cites, citers, self.work_paper, self.paper_work, self.entries)


def token(store: Store) -> tuple:
    """What changes when any paper, source or reference list changes (cheap: counts and the newest write)."""
    return store.graph_token()


def _index(sources: list[PaperSource]) -> dict[str, dict[str, list[PaperSource]]]:
    """Sources by DOI, arXiv id and title (the title-only key: a full key and a title-only one meet there)."""
    by: dict[str, dict[str, list[PaperSource]]] = {"doi": defaultdict(list), "arxiv_id": defaultdict(list),
                                                   "title_key": defaultdict(list)}
    near: dict[str, list[PaperSource]] = defaultdict(list)
    for s in sources:
        for f in by:
            if value := getattr(s, f):
                by[f][_indexed(f, value)].append(s)
        if opening := _opening(s.title_key):
            near[opening].append(s)
    by["near"] = near
    return by


def _opening(key: str | None) -> str | None:
    """A title key's first words and first author: what two near titles (`works.near_titles`) share."""
    if not key or "|" not in key or key.endswith("|"):
        return None
    title, first = key.split("|", 1)
    words = title.split()
    return f"{' '.join(words[:works.NEAR_TITLE_WORDS])}|{first}" if len(words) >= works.NEAR_TITLE_WORDS else None


def _indexed(field: str, value: str) -> str:
    return (works.title_only(value) or value) if field == "title_key" else value


def _link(by: dict[str, dict[str, list[PaperSource]]], probe: PaperSource) -> str | None:
    """The library paper an entry names: `citations.link`'s rule, on the sources held in memory."""
    seen: dict[str, PaperSource] = {}
    for f, index in by.items():
        value = _opening(probe.title_key) if f == "near" else getattr(probe, f)
        for s in index.get(value if f == "near" else _indexed(f, value), []) if value else []:
            seen[s.path] = s
    return works.matching_paper(probe, seen.values(), cited=True) if seen else None


def build(store: Store) -> Graph:
    """Read every reference entry's keys once and group them into works."""
    graph = Graph(token(store), set(store.paper_ids()))
    by = _index(store.sources())
    uf: UnionFind[str] = UnionFind()
    rows: list[tuple[str, int, list[str]]] = []
    for paper_id, n, doi, arxiv, tkey, year in store.reference_key_rows():
        # A title key is one work within a year (a journal version a year after the proceedings is another);
        # a two-word one only names a library paper: "Cell 107" of two entries by one Ma in 2001 (a venue read
        # as the title) may be two works.
        title = tkey and not works.short_title(tkey) and f"{tkey}:{year or '?'}"
        keys = [f"{k}:{v}" for k, v in (("d", doi), ("a", arxiv), ("t", title)) if v] or [f"e:{paper_id}:{n}"]
        target = _link(by, PaperSource(path="", paper_id="", doi=doi, arxiv_id=arxiv, title_key=tkey, year=year))
        if target and target != paper_id:
            keys.append(f"p:{target}")
        for k in keys[1:]:
            uf.union(keys[0], k)
        rows.append((paper_id, n, keys))
    for p in graph.papers:
        if f"p:{p}" in uf.parent:
            graph.paper_work[p] = uf.find(f"p:{p}")
            graph.work_paper[graph.paper_work[p]] = p
    for paper_id, n, keys in rows:
        work = uf.find(keys[0])
        if graph.work_paper.get(work) == paper_id:
            continue  # a paper citing itself (or a work merged into it) is no edge
        graph.cites.setdefault(paper_id, set()).add(work)
        graph.citers.setdefault(work, set()).add(paper_id)
        graph.entries.setdefault(work, []).append(Entry(paper_id, n, work))
    return graph


class GraphCache:
    """The graph of one library, rebuilt when its token moves (thread-safe enough: a rebuild replaces it whole)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._graph: Graph | None = None

    def get(self) -> Graph:
        current = token(self.store)
        if self._graph is None or self._graph.token != current:
            self._graph = build(self.store)
        return self._graph
