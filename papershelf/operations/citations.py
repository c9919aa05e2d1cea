"""The citation graph's operations, one word per direction in every door: a paper's `refs` (the
papers it cites: "references") and the papers `citing` it; `cited-by` (the command, route and MCP
tool `cited_by` of earlier versions: the citing papers in the old JSON) and `citations` (the MCP
tool of earlier versions that answered both) still answer, unlisted."""

from __future__ import annotations

from typing import Any

from ..library import Library
from . import text
from .base import CliSpec, Context, Example, Format, Operation, declare
from .requests import CitationsParams, CitingParams, RefsParams


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
    RefsParams, "ReferencesJson", run_refs, text.refs, path="paper_id",
    examples=(Example({"paper_id": "lo2020s2orc"}, "the reference list with its links"),
              Example({"paper_id": "lo2020s2orc", "missing": True, "format": "bibtex"},
                      "what the library lacks, as BibTeX")),
    cli=CliSpec(positional=("paper_id",)),
    formats={"bibtex": Format(lambda d: d.get("bibtex") or "", {"format": "bibtex"}, "the references as BibTeX")}))


def old_citing(d: dict[str, Any]) -> dict[str, Any]:
    """`citing`'s answer as `cited-by` gave it: the list under "cited_by"."""
    return {"paper_id": d["paper_id"], "cited_by": d["citing"]}


CITING = declare(Operation(
    "citing", "The library papers citing a paper",
    "The papers of the library citing this paper (whose reference lists name it), each with the number of "
    "its first entry naming it. The other direction, the papers this one cites, is refs.",
    CitingParams, "CitingJson", lambda lib, r, ctx: lib.citing(r.paper_id).to_dict(), text.citing,
    path="paper_id", examples=(Example({"paper_id": "vaswani2017attention"}, "who in the library cites it"),),
    cli=CliSpec(positional=("paper_id",))))

CITED_BY = declare(Operation(
    "cited-by", "The old name of citing (its JSON: cited_by)", "The old name of citing.",
    CitingParams, "CitedByJson", lambda lib, r, ctx: old_citing(lib.citing(r.paper_id).to_dict()),
    lambda d: text.citing(d), path="paper_id", cli=CliSpec(positional=("paper_id",)), hidden=True))


def run_citations(lib: Library, r: CitationsParams, ctx: Context) -> dict[str, Any]:
    if r.direction == "cited_by":
        return CITED_BY.run(lib, CitingParams(paper_id=r.paper_id), ctx)
    return run_refs(lib, RefsParams(paper_id=r.paper_id, missing=r.missing, format=r.format), ctx)


def _citations_text(d: dict[str, Any]) -> str:
    if "cited_by" in d:
        return text.citing(d)
    return d["bibtex"] or "no references" if d.get("bibtex") is not None else text.refs(d)


CITATIONS = declare(Operation(
    "citations", "refs or cited-by by direction (the MCP tool of earlier versions)",
    "A paper's reference list, or with direction=cited_by the library papers that cite it.",
    CitationsParams, "ReferencesJson | CitedByJson", run_citations, _citations_text,
    doors=("mcp",), hidden=True))
