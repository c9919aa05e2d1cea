"""The citation graph's operations: a paper's references (`refs`) and the library papers citing it
(`cited-by`), and `citations`, the MCP tool of earlier versions that answered both."""

from __future__ import annotations

from typing import Any

from ..library import Library
from ..models import shapes
from . import text
from .base import CliSpec, Context, Example, Format, Operation, declare
from .requests import CitationsParams, CitedByParams, RefsParams


def run_refs(lib: Library, r: RefsParams, ctx: Context) -> dict[str, Any]:
    listing = lib.references(r.paper_id)
    if r.missing:
        listing.references = [x for x in listing.references if x.paper_id is None]
    d = listing.to_dict()
    if r.format == "bibtex":
        from ..bibtex import bibtex  # bibtexparser: loaded only when asked for

        d["bibtex"] = bibtex((x.ref, x.ref.text) for x in listing.references)
    return d


REFS = declare(Operation(
    "refs", "A paper's references, each linked to the library paper it names",
    "The citation graph inside the library: a paper's reference list, each entry with its parsed authors, "
    "year, title, venue, DOI and the paper_id of the library paper it names (linked by DOI, arXiv id, or "
    "title + first author + year), or null. missing=true keeps the references the library lacks; "
    "format=bibtex adds them as BibTeX.",
    RefsParams, shapes.ReferencesJson, run_refs, text.refs, path="paper_id",
    examples=(Example({"paper_id": "lo2020s2orc"}, "the reference list with its links"),
              Example({"paper_id": "lo2020s2orc", "missing": True, "format": "bibtex"},
                      "what the library lacks, as BibTeX")),
    cli=CliSpec(positional=("paper_id",)),
    formats={"bibtex": Format(lambda d: d.get("bibtex") or "", {"format": "bibtex"}, "the references as BibTeX")}))


CITED_BY = declare(Operation(
    "cited-by", "The library papers citing a paper",
    "The papers of the library whose reference lists name this paper, each with the number of its first "
    "entry naming it.",
    CitedByParams, shapes.CitedByJson, lambda lib, r, ctx: lib.cited_by(r.paper_id).to_dict(), text.cited_by,
    path="paper_id", examples=(Example({"paper_id": "vaswani2017attention"}, "who in the library cites it"),),
    cli=CliSpec(positional=("paper_id",))))


def run_citations(lib: Library, r: CitationsParams, ctx: Context) -> dict[str, Any]:
    if r.direction == "cited_by":
        return CITED_BY.run(lib, CitedByParams(paper_id=r.paper_id), ctx)
    return run_refs(lib, RefsParams(paper_id=r.paper_id, missing=r.missing, format=r.format), ctx)


def _citations_text(d: dict[str, Any]) -> str:
    if "cited_by" in d:
        return text.cited_by(d)
    return d["bibtex"] or "no references" if d.get("bibtex") is not None else text.refs(d)


CITATIONS = declare(Operation(
    "citations", "refs or cited-by by direction (the MCP tool of earlier versions)",
    "A paper's reference list, or with direction=cited_by the library papers that cite it.",
    CitationsParams, shapes.ReferencesJson | shapes.CitedByJson, run_citations, _citations_text,
    doors=("mcp",), hidden=True))
