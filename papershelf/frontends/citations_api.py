"""The citation graph over HTTP and MCP: the shapes of `refs --json` and `cited-by --json`.

HTTP: ``GET /api/refs/ID?missing=&format=json|bibtex`` and ``GET /api/cited-by/ID``; MCP: the tool
`citations`.  The web page's paper view gets its "References" and "Cited by in this library"
section from ``/static/citations.js`` (``renderCitations(container, paperId)``), which reads the
same two endpoints.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from ..library import Library
from .params import Strict


class CitationsParams(Strict):
    paper_id: str = Field(min_length=1, description="A paper (id, citekey or DOI) from search or list_papers.")
    direction: Literal["references", "cited_by"] = Field(
        "references", description="references: the paper's reference list, each entry with the library paper it "
                                  "names (paper_id, or null); cited_by: the library papers that cite it.")
    missing: bool = Field(False, description="With references: only the entries the library does not hold.")
    format: Literal["json", "bibtex"] = Field("json", description="With references: bibtex adds them as BibTeX.")


def references_dict(lib: Library, paper_id: str, missing: bool = False, fmt: str = "json") -> dict[str, Any]:
    listing = lib.references(paper_id)
    if missing:
        listing.references = [r for r in listing.references if r.paper_id is None]
    d = listing.to_dict()
    if fmt == "bibtex":
        from ..bibtex import bibtex

        d["bibtex"] = bibtex((r.ref, r.ref.text) for r in listing.references)
    return d


def citations_dict(lib: Library, p: CitationsParams) -> dict[str, Any]:
    if p.direction == "cited_by":
        return lib.cited_by(p.paper_id).to_dict()
    return references_dict(lib, p.paper_id, p.missing, p.format)


def citations_text(d: dict[str, Any]) -> str:
    """The short text an agent reads beside the structured answer."""
    if "cited_by" in d:
        lines = [f"- {c['paper_id']} · {c['title']} ({c['year'] or 'n.d.'}), entry {c['n']}" for c in d["cited_by"]]
        return "\n".join([f"cited by {len(lines)} papers of this library:", *lines]) if lines else \
            f"no paper in this library cites {d['paper_id']}"
    if "bibtex" in d:
        return d["bibtex"] or "no references"
    lines = [f"[{r['n']}] {r['text']}" + (f"  -> in library: {r['paper_id']}" if r["paper_id"] else "")
             for r in d["references"]]
    return "\n".join(lines) or f"no references read for {d['paper_id']}"


def install_routes(app, lib: Library) -> None:
    @app.get("/api/refs/{paper_id:path}", summary="A paper's references with their links: `refs ID --json`")
    def refs(paper_id: str, missing: bool = False, format: Literal["json", "bibtex"] = "json") -> dict[str, Any]:
        return references_dict(lib, paper_id, missing, format)

    @app.get("/api/cited-by/{paper_id:path}", summary="The library papers citing a paper: `cited-by ID --json`")
    def cited_by(paper_id: str) -> dict[str, Any]:
        return lib.cited_by(paper_id).to_dict()
