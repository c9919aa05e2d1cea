"""Related papers and what to read next, from the library's own citations and from meaning, offline.

`related` ranks the library's papers for a paper, a unit or a text by a fusion of
- meaning: the paper's own vectors — the mean of all its units and the mean of each of its largest
  top-level sections, kept as derived paper vectors (paper_vectors.py) — compared with every other paper's,
  so a paper whose Methods resemble this one's surfaces, not only one with a similar abstract ("similar
  Methods (0.71)"); a unit or words rank through the search engine as a query value (`models.Query`);
- direct citation: this paper cites it, or it cites this paper;
- bibliographic coupling: works both reference lists name, each weighted by how rare it is in the library
  (`Graph.idf`), so sharing a field's classic says little and sharing an obscure report says much;
- co-citation: other library papers citing both.
Each signal keeps a fixed scale of its own — meaning a cosine, direct 0 or 1, coupling the summed rarity of
the shared works, co-citation a count of papers — and the fused score is their weighted sum (weights in
`WEIGHTS`, fitted on the dev half of the hidden-link truth: bench/related_links.py --fit).  Fixed scales, not
scaled among each query's candidates: scaled per query, one strongly coupled paper shrank every other
paper's coupling to nothing, and a paper with no citation signal at all was pulled down by the floor it was
given; now a signal a paper lacks adds nothing and takes nothing away.  Every hit says why, in words and as
data.

`reading_list` gathers the works the library's papers cite that are not in the library, most cited first.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import numpy as np

from .document import Reference
from .graph import Graph
from .models import Filters, Hit, Paper, Query, Space
from .models.discover import Citing, ReadingItem, ReadingList, RelatedHit, RelatedResponse
from .paper_vectors import PaperVectors, section_label
from .store import Store

# search(query, filters, depth) -> hits by meaning alone, at most one per paper (Library.search)
SearchFn = Callable[[Query, Filters, int], list[Hit]]

# Fitted on the dev half of bench/data/related_links.json (bench/related_links.py --half dev --fit; 12 real
# links: every coupling weight from 0.02 to 0.05 within one rank of each other, 0.02 best): meaning is the
# scale; one rare shared work (rarity ~5 in a library of a few hundred papers) is worth ~0.1 of it.
WEIGHTS = {"meaning": 1.0, "direct": 0.6, "coupling": 0.02, "cocitation": 0.02}
DEPTH = 200  # papers kept by meaning
CANDIDATES = 1000  # papers whose sections are compared, the best by whole-paper cosine


# -- meaning -----------------------------------------------------------------------------------------------


def paper_meaning(vectors: PaperVectors, space: Space, paper_id: str, allowed: set[str] | None = None,
                  also: set[str] | None = None) -> dict[str, tuple[float, str]]:
    """paper -> (similarity, this paper's section that found it best), for the `DEPTH` best papers and the
    papers of `also` (those with a citation signal, so none of them lacks its meaning): half the whole-paper
    cosine, half the best cosine between one of this paper's largest sections and one of theirs, so a paper
    close overall or in one large section both rank.  The whole-paper cosine of every paper is one product
    over the derived paper vectors (paper_vectors.py); the section pairs are scored for its `CANDIDATES`
    best papers (and `also`) only, so the cost barely grows with the library."""
    papers, m = vectors.current(space)
    mine = papers.get(paper_id)
    if mine is None or not m.ids:
        return {}
    keep = np.ones(len(m.ids), dtype=bool) if allowed is None else np.isin(m.id_array, list(allowed))
    keep[m.id_array == paper_id] = False
    whole = np.where(keep, m.whole @ mine.whole, -np.inf)
    n = int(keep.sum())
    if n == 0:
        return {}
    cand = np.sort(np.argpartition(-whole, CANDIDATES - 1)[:CANDIDATES] if n > CANDIDATES else np.flatnonzero(keep))
    extra = np.flatnonzero(keep & np.isin(m.id_array, list(also))) if also else np.zeros(0, dtype=np.int64)
    cand = np.union1d(cand, extra)
    counts = m.counts[cand]
    starts = np.cumsum(counts) - counts  # each candidate's first row among the gathered ones
    gathered = np.repeat(m.starts[cand] - starts, counts) + np.arange(int(counts.sum()))
    pairs = m.sections[gathered] @ np.stack([v for _, v in mine.sections]).T  # (rows, this paper's sections)
    rows = pairs.max(axis=1)
    best = np.maximum.reduceat(rows, starts)
    # each candidate's first row reaching its best: which of this paper's sections matched it
    at = np.where(rows == np.repeat(best, counts), np.arange(len(rows)), len(rows))
    which = pairs.argmax(axis=1)[np.minimum.reduceat(at, starts)]
    score = 0.5 * whole[cand] + 0.5 * best
    k = min(DEPTH, len(cand))
    top = np.union1d(np.argpartition(-score, k - 1)[:k], np.searchsorted(cand, extra))
    return {m.ids[cand[j]]: (float(score[j]), mine.sections[int(which[j])][0]) for j in top}


def hit_meaning(hits: list[Hit]) -> dict[str, tuple[float, str]]:
    """paper -> (its best unit's cosine, that unit's section) from a search by meaning."""
    out: dict[str, tuple[float, str]] = {}
    for h in hits:
        if h.paper_id not in out:
            out[h.paper_id] = (h.score, section_label(h.section_path, h.object_kind))
    return out


# -- citations ---------------------------------------------------------------------------------------------


def citation_signals(graph: Graph, paper_id: str) -> dict[str, dict[str, float]]:
    """Per candidate paper: direct (1 if either cites the other), coupling (idf-weighted shared works),
    shared (how many), cocitation (library papers citing both)."""
    out: dict[str, dict[str, float]] = {}

    def put(p: str, key: str, value: float) -> None:
        if p != paper_id and p in graph.papers:
            d = out.setdefault(p, {})
            d[key] = d.get(key, 0.0) + value

    for p in graph.cited_papers(paper_id):
        put(p, "cited", 1.0)
    for p in graph.citing_papers(paper_id):
        put(p, "citing", 1.0)
    for work in graph.cites.get(paper_id, ()):
        for p in graph.citers.get(work, ()):
            put(p, "coupling", graph.idf(work))
            put(p, "shared", 1.0)
    for c in graph.citing_papers(paper_id):
        for p in graph.cited_papers(c):
            put(p, "cocitation", 1.0)
    return out


def fuse(meaning: dict[str, tuple[float, str]], cites: dict[str, dict[str, float]],
         weights: dict[str, float] | None = None) -> list[tuple[str, float, dict[str, float]]]:
    """(paper, score, signals) best first, over the papers with any signal; each signal on its fixed scale
    (see the module's docstring), a missing one counting 0."""
    w = weights or WEIGHTS
    ranked = []
    for p in set(meaning) | set(cites):
        c = cites.get(p, {})
        sig = {"meaning": meaning[p][0] if p in meaning else 0.0,
               "direct": 1.0 if c.get("cited") or c.get("citing") else 0.0,
               "coupling": c.get("coupling", 0.0), "cocitation": c.get("cocitation", 0.0)}
        ranked.append((p, sum(w[k] * v for k, v in sig.items()), sig))
    return sorted(ranked, key=lambda t: (-t[1], t[0]))


def why(meaning: tuple[float, str] | None, c: dict[str, float]) -> list[str]:
    words = []
    if c.get("cited"):
        words.append("cited by this paper")
    if c.get("citing"):
        words.append("cites this paper")
    if n := int(c.get("shared", 0)):
        words.append(f"shares {n} reference{'s' if n > 1 else ''}")
    if n := int(c.get("cocitation", 0)):
        words.append(f"cited together with it by {n} paper{'s' if n > 1 else ''}")
    if meaning is not None:
        name = "content" if meaning[1] == "paper" else meaning[1]
        words.append(f"similar {name} ({meaning[0]:.2f})")
    return words


def hits(papers: dict[str, Paper], ranked: list[tuple[str, float, dict[str, float]]],
         meaning: dict[str, tuple[float, str]], cites: dict[str, dict[str, float]]) -> list[RelatedHit]:
    return [RelatedHit(p, papers[p].title, papers[p].year, list(papers[p].authors), round(score, 4),
                       why(meaning.get(p), cites.get(p, {})), {k: round(v, 4) for k, v in sig.items()})
            for p, score, sig in ranked if p in papers]


# -- reading list ------------------------------------------------------------------------------------------


def _completeness(ref: Reference) -> tuple:
    return (bool(ref.doi), bool(ref.title), len(ref.authors), bool(ref.year), bool(ref.venue), len(ref.text))


def reading_list(store: Store, graph: Graph, scope: set[str] | None, limit: int) -> ReadingList:
    """Works cited by the papers in `scope` (all, when None) that are not library papers: most cited first,
    then cited by the most recent papers, then by the papers the library cites most (centrality)."""
    papers = store.get_papers(sorted(graph.papers))
    counts: Counter[str] = Counter()
    for work, who in graph.citers.items():
        if work in graph.work_paper:
            continue
        inside = who if scope is None else who & scope
        if inside:
            counts[work] = len(inside)

    def order(work: str) -> tuple:
        who = graph.citers[work] if scope is None else graph.citers[work] & scope
        recent = max((papers[p].year or 0 for p in who if p in papers), default=0)
        central = sum(len(graph.citing_papers(p)) for p in who)  # only the citing papers of works counted
        return (-counts[work], -recent, -central, work)

    chosen = sorted(counts, key=order)[:limit]
    lists: dict[str, dict[int, Reference]] = {}
    items = []
    for work in chosen:
        entries = [e for e in graph.entries.get(work, []) if scope is None or e.paper_id in scope]
        refs = []
        for e in entries:
            if e.paper_id not in lists:
                lists[e.paper_id] = {r.n: r for r in store.reference_list(e.paper_id)}
            if (r := lists[e.paper_id].get(e.n)) is not None:
                refs.append((e, r))
        if not refs:
            continue
        best = max((r for _, r in refs), key=_completeness)
        by = sorted({e.paper_id: e.n for e, _ in refs}.items())
        items.append(ReadingItem(work, counts[work], best, [
            Citing(p, papers[p].title if p in papers else None, papers[p].year if p in papers else None, n)
            for p, n in by]))
    return ReadingList(items, len(counts))


# -- the operation -----------------------------------------------------------------------------------------


def paper_signals(graph: Graph, vectors: PaperVectors, space: Space | None, paper_id: str,
                  allowed: set[str] | None = None) -> tuple[dict[str, tuple[float, str]], dict[str, dict[str, float]]]:
    """A paper's candidates and their signals: the `DEPTH` papers closest by meaning and every paper with
    a citation signal, each with its meaning (`paper_meaning`) and citations (`citation_signals`)."""
    cites = citation_signals(graph, paper_id)
    if allowed is not None:
        cites = {p: c for p, c in cites.items() if p in allowed}
    meaning = paper_meaning(vectors, space, paper_id, allowed, set(cites)) if space is not None else {}
    return meaning, cites


def related_to(store: Store, graph: Graph, vectors: PaperVectors, space: Space | None, query: Query, limit: int,
               filters: Filters, search: SearchFn) -> RelatedResponse:
    """Related papers for a paper, a unit or words (`query`).  A paper is ranked by its paper vectors
    (`paper_signals`) unless a kind filter asks for meaning from figures or tables; a unit, words or a
    filtered kind by a search by meaning of the same query (`search`).  Without a complete space only the
    citation signals rank (said in a notice)."""
    resp = RelatedResponse({query.kind: query.text})
    paper = query.text if query.kind == "paper" else None
    allowed = set(store.filtered_paper_ids(filters)) if filtered(filters) else None
    if space is None:
        resp.notices.append("no complete embedding space: ranked by citations alone (run `papershelf embed`)")
    if paper and not (space is not None and (filters.sources or filters.object_kind)):
        meaning, cites = paper_signals(graph, vectors, space, paper, allowed)
    else:
        meaning = hit_meaning(search(query, filters, DEPTH)) if space is not None else {}
        cites = paper_signals(graph, vectors, None, paper, allowed)[1] if paper else {}
    if query.kind == "unit" and (unit := store.get_units([query.text]).get(query.text)):
        meaning.pop(unit.paper_id, None)  # a unit's own paper is not related to it
    ranked = fuse(meaning, cites)[:limit]
    resp.results = hits(store.get_papers([p for p, _, _ in ranked]), ranked, meaning, cites)
    if not resp.results:
        resp.notices.append("no related paper found in this library")
    return resp


def filtered(filters: Filters) -> bool:
    return bool(filters.year_from is not None or filters.year_to is not None or filters.has_labels
                or filters.author or filters.sources or filters.object_kind or filters.papers)
