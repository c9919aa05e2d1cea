"""Working with the library beyond a search, each declared once: `related` (papers like a paper, a unit or some
words), `reading-list` (what the library cites but does not hold) and `ask` (the sentences that answer a
question, quoted with their pages; a configured chat model's checked answer only when the user set one)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from ..library import Library
from ..models import Filters
from . import text
from .base import CliSpec, Context, Example, Format, Operation, declare
from .requests import ZOTERO_LIBRARY, Strict

PAPER_FORMS = "a paper (id, unique id prefix, citekey, DOI or Zotero key)"


class Filtered(Strict):
    """The paper filters `related`, `reading-list` and `ask` share with search."""

    year_from: int | None = Field(None, ge=-9999, le=9999, description="Only papers published in or after this year.")
    year_to: int | None = Field(None, ge=-9999, le=9999, description="Only papers published in or before this year.")
    collection: list[str] = Field(default_factory=list, description="Only papers in this collection or one below it "
                                                                    "(\"Parent/Child\"; any of, case-insensitive).")
    tag: list[str] = Field(default_factory=list, description="Only papers carrying this tag (all of).")
    author: str | None = Field(None, min_length=1, max_length=200,
                               description="Only papers with an author of this name (a surname, or more of it).")
    zotero_library: str | None = Field(None, min_length=1, max_length=200, description=ZOTERO_LIBRARY)

    def filters(self, **more: Any) -> Filters:
        return Filters(year_from=self.year_from, year_to=self.year_to, collections=list(self.collection),
                       tags=list(self.tag), author=self.author, zotero_library=self.zotero_library, **more)


class RelatedParams(Filtered):
    ref: str = Field(min_length=1, max_length=2000,
                     description=f"What to find papers like: {PAPER_FORMS}, a unit id from a search hit, or words "
                                 "with text=true.")
    text: bool = Field(False, description="Read `ref` as words (a search at the level of papers), not as a paper.")
    limit: int = Field(10, ge=1, le=1000, description="Number of related papers to return.")
    kind: Literal["figure", "table"] | None = Field(None, description="Meaning from figures or tables only.")


class ReadingListParams(Filtered):
    limit: int = Field(20, ge=1, le=10_000, description="Number of works to return, most cited first.")
    paper: list[str] = Field(default_factory=list, description=f"Only works these papers cite: {PAPER_FORMS}.")
    query: str | None = Field(None, min_length=1, max_length=2000,
                              description="Only works cited by the papers a search for these words finds.")
    format: Literal["json", "bibtex"] = Field("json", description="bibtex: also return the works as BibTeX.")


class AskParams(Filtered):
    question: str = Field(min_length=1, max_length=2000, description="A question in plain language.")
    limit: int = Field(5, ge=1, le=8, description="Pieces of evidence to return (best first).")
    paper: list[str] = Field(default_factory=list, description=f"Only look in these papers: {PAPER_FORMS}.")


def run_related(lib: Library, r: RelatedParams, ctx: Context) -> dict[str, Any]:
    filters = r.filters(sources=["object_unit"] if r.kind else [], object_kind=r.kind)
    return lib.related(r.ref, limit=r.limit, filters=filters, text=r.text).to_dict()


def run_reading_list(lib: Library, r: ReadingListParams, ctx: Context) -> dict[str, Any]:
    papers = list(r.paper)
    if r.query:  # a search's papers: the best 50 papers for the words
        from ..search import SearchOptions

        found = lib.search(r.query, SearchOptions(limit=50, per_paper=1, filters=r.filters())).results
        papers += [h.paper_id for h in found]
        if not papers:
            return {"total": 0, "items": []}
    listing = lib.reading_list(limit=r.limit, papers=papers or None, filters=r.filters())
    d = listing.to_dict()
    if r.format == "bibtex":
        from ..bibtex import bibtex  # bibtexparser: loaded only when asked for

        d["bibtex"] = bibtex((i.reference, f"cited by {i.count} papers of the library") for i in listing.items)
    return d


def run_ask(lib: Library, r: AskParams, ctx: Context) -> dict[str, Any]:
    return lib.ask(r.question, limit=r.limit, filters=r.filters(papers=list(r.paper)), llm=ctx.llm).to_dict()


RELATED = declare(Operation(
    "related", "Papers like this one, by meaning and by citations, each saying why",
    "The library's papers most like a paper (or a unit, or some words): its own vectors as the query (the "
    "whole paper and its largest sections, so similar Methods surface too) fused with the citation graph "
    "(it cites them or they cite it, references both share weighted by how rare they are, papers the library "
    "cites together). Each hit lists why, in words and as signals. Offline; no service is asked.",
    RelatedParams, "RelatedJson", run_related, text.related, path="ref",
    examples=(Example({"ref": "lo2020s2orc"}, "papers like S2ORC, each with why"),
              Example({"ref": "graph neural networks for citation recommendation", "text": True},
                      "papers about some words")),
    cli=CliSpec(positional=("ref",), short={"limit": "-n"}, via_server=True)))

READING_LIST = declare(Operation(
    "reading-list", "Works the library cites but does not hold, most cited first",
    "What to read next: the works cited by the library's papers (or by some papers, a collection, a search's "
    "papers) that are not in the library, most cited first (ties: cited by more recent, then more central "
    "papers), each with its best-printed metadata, DOI or arXiv id and the library papers citing it. A work "
    "is one work however its entries are printed.",
    ReadingListParams, "ReadingListJson", run_reading_list, text.reading_list,
    examples=(Example({}, "the library's most cited missing works"),
              Example({"collection": ["Thesis"], "format": "bibtex"}, "a collection's missing works, as BibTeX")),
    cli=CliSpec(short={"limit": "-n"}, via_server=True),
    formats={"bibtex": Format(lambda d: d.get("bibtex") or "", {"format": "bibtex"}, "the works as BibTeX")}))

ASK = declare(Operation(
    "ask", "The sentences of the library that answer a question, quoted with paper and page",
    "Evidence for a question: sentences found by a hybrid search and scored against the question, each quoted "
    "verbatim from its paper with section, page and a link opening the PDF at that page, ids e1, e2, ... an "
    "agent can cite. no_confident_answer=true when nothing in the library answers. When the user configured "
    "a chat model (never a request's parameter), `answer` holds its short answer, every sentence checked "
    "against the evidence ids it cites.",
    AskParams, "AskJson", run_ask, text.ask,
    examples=(Example({"question": "what dose of IL-6 did they use?"}, "quoted evidence with pages"),),
    cli=CliSpec(positional=("question",), short={"limit": "-n"}, llm=True, via_server=True)))
