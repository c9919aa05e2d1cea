"""Related papers and what to read next, from the library's own citations and from meaning, offline.

`related` ranks the library's papers for a paper, a unit or a text by a fusion of
- meaning: the paper's own vectors as queries — the mean of all its units and the mean of each of its
  largest top-level sections — so a paper whose Methods resemble this one's surfaces, not only one with a
  similar abstract ("similar Methods (0.71)");
- direct citation: this paper cites it, or it cites this paper;
- bibliographic coupling: works both reference lists name, each weighted by how rare it is in the library
  (`Graph.idf`), so sharing a field's classic says little and sharing an obscure report says much;
- co-citation: other library papers citing both.
Each signal is scaled to [0, 1] among the candidates and the fused score is their weighted sum (weights in
`WEIGHTS`, fitted on the dev half of the hidden-link truth: bench/related_links.py).  Every hit says why, in
words and as data.

`reading_list` gathers the works the library's papers cite that are not in the library, most cited first.
"""

from __future__ import annotations

import re
from collections import Counter

import numpy as np

from .document import Reference
from .graph import Graph
from .models import Filters, Paper, Space
from .models.discover import Citing, ReadingItem, ReadingList, RelatedHit, RelatedResponse
from .store import Store

# Fitted on the dev half of bench/data/related_links.json (bench/related_links.py --half dev --fit).
WEIGHTS = {"meaning": 1.0, "direct": 0.6, "coupling": 0.5, "cocitation": 0.3}
SECTIONS = 5  # query vectors per paper besides its whole-paper mean: its largest top-level sections
DEPTH = 200  # units read per query vector
_NUMBER = re.compile(r"^\s*(?:[0-9IVX]+(?:\.[0-9]+)*\.?|[A-Z]\.)\s+")












# -- meaning -----------------------------------------------------------------------------------------------


def section_label(path: str, object_kind: str | None = None) -> str:
    """The top-level section a unit sits in, its number dropped ("2. Methods > 2.1 Data" -> "Methods")."""
    if object_kind:
        return object_kind.capitalize() + "s"
    top = (path or "").split(" > ")[0].strip()
    return _NUMBER.sub("", top) or "text"


def _unit(v: np.ndarray) -> np.ndarray:
    n = float(np.linalg.norm(v))
    return v / n if n > 0 else v


def _mean(windows: bytes, space: Space) -> np.ndarray:
    """A unit's vector: the mean of its windows (stored back to back as float32)."""
    return np.frombuffer(windows, dtype=np.float32).reshape(-1, space.dimension).mean(axis=0)


def paper_queries(store: Store, space: Space, paper_id: str) -> list[tuple[str, np.ndarray]]:
    """("paper", its mean vector) and (section, mean vector) for its largest sections."""
    units = {u.id: u for u in store.paper_units(paper_id)}
    groups: dict[str, list[np.ndarray]] = {}
    for uid, stored in store.stored_vectors(space.id, paper_id).items():
        u = units.get(uid)
        if u is None or not stored.vector:
            continue
        groups.setdefault(section_label(u.section_path, u.object_kind), []).append(_mean(stored.vector, space))
    if not groups:
        return []
    whole = _unit(np.mean([v for vs in groups.values() for v in vs], axis=0))
    largest = sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0]))[:SECTIONS]
    return [("paper", whole)] + [(name, _unit(np.mean(vs, axis=0))) for name, vs in largest if len(groups) > 1]


def meaning_scores(store: Store, space: Space, queries: list[tuple[str, np.ndarray]],
                   filters: Filters) -> dict[str, tuple[float, str]]:
    """paper -> (similarity, the query section that found it best): half the whole-paper match, half the
    best section's, so a paper close overall or in one large section both rank."""
    best: dict[str, dict[str, float]] = {}
    for name, q in queries:
        for hit in store.vector_search(space, q.astype(np.float32), DEPTH, filters):
            per = best.setdefault(hit.paper_id, {})
            per[name] = max(per.get(name, 0.0), hit.score)
    out: dict[str, tuple[float, str]] = {}
    for paper, per in best.items():
        sections = {k: v for k, v in per.items() if k != "paper"} or per
        name = max(sections, key=lambda k: (sections[k], k))
        whole = per.get("paper", sections[name])
        out[paper] = (0.5 * whole + 0.5 * sections[name], name)
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
    """(paper, score, signals) best first; coupling and co-citation scaled by their largest value."""
    w = weights or WEIGHTS
    top = {k: max((s.get(k, 0.0) for s in cites.values()), default=0.0) or 1.0 for k in ("coupling", "cocitation")}
    floor = min((m for m, _ in meaning.values()), default=0.0)
    ranked = []
    for p in set(meaning) | set(cites):
        c = cites.get(p, {})
        sig = {"meaning": meaning[p][0] if p in meaning else floor,
               "direct": 1.0 if c.get("cited") or c.get("citing") else 0.0,
               "coupling": c.get("coupling", 0.0) / top["coupling"],
               "cocitation": c.get("cocitation", 0.0) / top["cocitation"]}
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


def related_to(store: Store, graph: Graph, space: Space | None, what: str, ident: str, limit: int,
               filters: Filters, text_vector=None) -> RelatedResponse:
    """Related papers for ("paper", id), ("unit", id) or ("text", words) — `text_vector(space, text)` embeds
    the text.  Without a complete space only the citation signals rank (said in a notice)."""
    resp = RelatedResponse({what: ident})
    queries: list[tuple[str, np.ndarray]] = []
    exclude = ident if what == "paper" else None
    if space is None:
        resp.notices.append("no complete embedding space: ranked by citations alone (run `papershelf embed`)")
    elif what == "paper":
        queries = paper_queries(store, space, ident)
    elif what == "unit":
        unit = store.get_units([ident]).get(ident)
        stored = store.stored_vectors(space.id, unit.paper_id).get(ident) if unit else None
        exclude = unit.paper_id if unit else None
        if stored and stored.vector:
            queries = [(section_label(unit.section_path, unit.object_kind) if unit else "text",
                        _unit(_mean(stored.vector, space)))]
    elif text_vector is not None:
        queries = [("query", np.asarray(text_vector(space, ident), dtype=np.float32))]
    meaning = meaning_scores(store, space, queries, filters) if space and queries else {}
    cites = citation_signals(graph, exclude) if exclude and what == "paper" else {}
    if cites and filtered(filters):
        allowed = set(store.filtered_paper_ids(filters))
        cites = {p: c for p, c in cites.items() if p in allowed}
    meaning.pop(exclude or "", None)
    cites.pop(exclude or "", None)
    ranked = fuse(meaning, cites)[:limit]
    resp.results = hits(store.get_papers([p for p, _, _ in ranked]), ranked, meaning, cites)
    if not resp.results:
        resp.notices.append("no related paper found in this library")
    return resp


def filtered(filters: Filters) -> bool:
    return bool(filters.year_from is not None or filters.year_to is not None or filters.has_labels
                or filters.author or filters.sources or filters.object_kind or filters.papers)
