"""The library's read operations, each declared once: search, show, passage, papers, status, verify."""

from __future__ import annotations

from typing import Any

from ..library import Library
from ..models import Filters, finite
from . import text
from .base import CliSpec, Context, Example, Format, Operation, declare
from .requests import (
    MAX_IMAGES,
    PapersParams,
    PassageParams,
    SearchParams,
    ShowParams,
    StatusParams,
    VerifyParams,
)

# -- search -------------------------------------------------------------------------------------


def run_search(lib: Library, r: SearchParams, ctx: Context) -> dict[str, Any]:
    """A search, reranked only by the door's configured reranker; hits under `min_score` left out
    (a post-filter: `no_confident_match` still describes the search before it)."""
    opts = r.options()
    d = lib.search(r.value(), ctx.reranker.apply(opts) if ctx.reranker else opts).to_dict()
    if r.min_score is not None:
        # compared as printed (rounded), so a relevance copied from one answer keeps that hit in the next
        d["results"] = [h for h in d["results"] if (finite(h["relevance"]) or 0.0) >= r.min_score]
    return d


def _search_images(r: SearchParams, d: dict[str, Any]) -> list[str]:
    return [h["unit_id"] for h in d["results"] if h["object_kind"]] if r.images else []


SEARCH = declare(Operation(
    "search", "Search the library by words and by meaning",
    "Search the researcher's library of papers by words and by meaning. Returns ranked hits "
    "(paper, section path, pages, snippet with [matched] words; figures and tables with label and caption). "
    "Use kind=figure/table to find figures or tables, paper=[id] to search inside one paper, "
    "collection, tag, author and year_from/year_to to narrow, and the hit's unit_id with `show` to read "
    "it in context. no_confident_match=true means nothing clearly answers the query.",
    SearchParams, "SearchJson", run_search, text.search,
    examples=(Example({"query": "IL-6 western blot"}, "words and meaning together (hybrid)"),
              Example({"query": "coral bleaching by depth", "kind": "table", "mode": "lexical"},
                      "only table captions, exact words"),
              Example({"query": "attention", "author": "K. Lo", "year_from": 2020}, "one author's papers since 2020"),
              Example({"like": "lo2020s2orc"}, "passages like a paper (or like a unit: a hit's unit_id)")),
    cli=CliSpec(positional=("query",), short={"mode": "-m", "limit": "-n"}, rerank=True, via_server=True),
    check=lambda r: r.options().validate(), images=_search_images))


# -- show and passage ---------------------------------------------------------------------------


def run_show(lib: Library, r: ShowParams, ctx: Context) -> dict[str, Any]:
    """`show`, plus for a unit the units of its section (`neighbours`) when asked."""
    d = lib.show(r.id).to_dict()
    if d["type"] == "unit" and r.neighbours:
        d["neighbours"] = [n.to_dict() for n in lib.neighbours(d["id"])]
    return d


SHOW = declare(Operation(
    "show", "A paper (sections, figures, tables) or one unit with its section",
    "Look at a paper (its sections, figures and tables, with unit ids) or one unit by id (its text, "
    "and with neighbours=true the whole section around it). image=true adds a figure/table's page region.",
    ShowParams, "SHOW_UNION", run_show, text.show, path="id",
    examples=(Example({"id": "okafor2024il6"}, "a paper by citekey"),
              Example({"id": "okafor2024il6:obj:figure:1"}, "one figure unit and its section")),
    cli=CliSpec(positional=("id",), defaults={"neighbours": False}),
    images=lambda r, d: [d["id"]] if r.image and d.get("object_kind") else []))


def run_passage(lib: Library, r: PassageParams, ctx: Context) -> dict[str, Any]:
    return lib.passage(r.paper_id, r.section, r.pages(), r.budget_chars, r.cursor).to_dict()


PASSAGE = declare(Operation(
    "passage", "A paper's text by section or page range, within a budget, with a cursor",
    "Read a paper's text: a section (with its subsections) or a page range, at most "
    "budget_chars characters per call. When the answer has next_cursor, call again with it to read on.",
    PassageParams, "PassageJson", run_passage, text.passage, aliases=("get_passage",),
    examples=(Example({"paper_id": "okafor2024il6", "section": "Methods"}, "one section and its subsections"),
              Example({"paper_id": "okafor2024il6", "page_from": 2, "page_to": 3, "budget_chars": 2000},
                      "two pages, 2000 characters at a time")),
    cli=CliSpec(positional=("paper_id",))))


# -- papers -------------------------------------------------------------------------------------


def run_papers(lib: Library, r: PapersParams, ctx: Context) -> dict[str, Any]:
    filters = Filters(year_from=r.year_from, year_to=r.year_to, collections=r.collection, tags=r.tag, author=r.author,
                      zotero_library=r.zotero_library)
    rows, total = lib.find_papers(filters, title=r.title, limit=r.limit)
    return {"papers": [s.to_dict() for s in rows], "total": total}


def _papers_bibtex(d: dict[str, Any]) -> str:
    from ..bibtex import bibtex  # bibtexparser: loaded only when asked for
    from ..models import Paper

    fields = set(Paper.__dataclass_fields__)
    return bibtex((Paper(**{k: v for k, v in row.items() if k in fields}), None) for row in d["papers"])


PAPERS = declare(Operation(
    "papers", "The papers, filtered by title, author, year, tag or collection",
    "List the papers in the library (id, title, authors, year, venue, DOI, unit counts), "
    "optionally filtered by title, author, year, tag or collection; total says how many match. "
    "Ids are printed whole, so they can be given to show, passage or search's paper.",
    PapersParams, "PaperList", run_papers, text.papers, aliases=("list_papers",),
    examples=(Example({"author": "lo"}, "every paper with an author named Lo"),
              Example({"collection": ["Biology/Wounds"], "year_from": 2020}, "a collection's recent papers")),
    cli=CliSpec(short={"limit": "-n"}, defaults={"limit": 50}),
    formats={"tsv": Format(lambda d: text.papers_lines(d, False), help="id, year, title: one paper a line"),
             "ids": Format(lambda d: text.papers_lines(d, True), help="one id a line"),
             "bibtex": Format(_papers_bibtex, help="the papers as BibTeX")},
    bare=lambda d: d["papers"], headers=lambda d: {"X-Total-Count": str(d["total"])}))


# -- the library itself -------------------------------------------------------------------------

STATUS = declare(Operation(
    "status", "Papers, units, vectors, pending papers and a running build",
    "How many papers the library holds, how many are still waiting to be embedded (searchable "
    "by words only until then), and whether an embedding build is running.",
    StatusParams, "StatusJson", lambda lib, r, ctx: lib.status().to_dict(), text.status,
    examples=(Example({}, "what the library holds"),)))

VERIFY = declare(Operation(
    "verify", "Check the index and every vector against its unit",
    "Check the library holds what it claims: index, manifests, and every vector against its unit "
    "(exit status 1 when something is wrong).",
    VerifyParams, "VerifyJson", lambda lib, r, ctx: lib.verify().to_dict(), text.verify, doors=("cli",),
    examples=(Example({}, "after a crash or a copy"),), exit_code=lambda d: 0 if d["ok"] else 1))

__all__ = ["MAX_IMAGES", "PAPERS", "PASSAGE", "SEARCH", "SHOW", "STATUS", "VERIFY"]
