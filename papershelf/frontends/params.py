"""The requests the servers accept, declared once for the HTTP API and MCP.

Each model forbids unknown fields, so a misspelt argument (``per_papr``) is an
error with its name in the message rather than silently ignored; its JSON schema
(``additionalProperties: false``) is what an MCP client sees and what OpenAPI
documents.  Descriptions are written for an agent choosing arguments.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from ..models import Filters, SearchResponse, finite
from ..search import SearchOptions


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class SearchParams(Strict):
    query: str = Field(min_length=1, max_length=2000,
                       description="What to look for: words, a \"quoted phrase\", or a question in plain language.")
    mode: Literal["hybrid", "lexical", "vector"] = Field(
        "hybrid", description="hybrid (words and meaning, best default), lexical (exact words, BM25) or vector "
                              "(meaning only).")
    limit: int = Field(10, ge=1, le=1000, description="Number of hits to return.")
    per_paper: int = Field(2, ge=1, le=10_000, description="At most this many hits per paper (ignored with `paper`).")
    paper: list[str] = Field(default_factory=list, description="Only search these paper ids (from list_papers).")
    kind: Literal["figure", "table"] | None = Field(None, description="Only figure or only table captions.")
    source: list[Literal["body_unit", "object_unit", "legacy_chunk"]] = Field(
        default_factory=list, description="Only these unit sources: body_unit (section text), object_unit "
                                          "(figure/table captions), legacy_chunk (papers without headings).")
    year_from: int | None = Field(None, ge=-9999, le=9999, description="Only papers published in or after this year.")
    year_to: int | None = Field(None, ge=-9999, le=9999, description="Only papers published in or before this year.")
    cites: str | None = Field(None, description="Only papers whose reference lists name this paper (an id).")
    cited_by: str | None = Field(None, description="Only papers named in this paper's reference list (an id).")
    author: str | None = Field(None, min_length=1, max_length=200,
                               description="Only papers with an author of this name (a surname, or more of the name).")
    min_score: float | None = Field(None, ge=0, le=1, description="Drop hits whose calibrated relevance (0-1, "
                                                                  "comparable across queries) is below this.")
    fusion: Literal["convex", "rrf"] = Field("convex", description="How hybrid mode merges the two rankings.")
    rrf_k: float = Field(60.0, gt=0, description="Reciprocal-rank fusion constant (fusion=rrf).")
    lexical_weight: float = Field(1.0, ge=0, description="Weight of the word ranking in hybrid mode.")
    vector_weight: float = Field(1.0, ge=0, description="Weight of the meaning ranking in hybrid mode.")
    explain: bool = Field(False, description="Add each hit's lexical and vector rank and score.")
    objects_per_paper: int = Field(3, ge=1, le=10_000, description="At most this many figures/tables per paper, "
                                                                    "counted apart from its text hits.")

    def options(self) -> SearchOptions:
        """The library's SearchOptions for this request (a kind implies figure/table units)."""
        sources: list[str] = list(self.source) or (["object_unit"] if self.kind else [])
        filters = Filters(papers=list(self.paper), year_from=self.year_from, year_to=self.year_to,
                          sources=sources, object_kind=self.kind, cites=self.cites, cited_by=self.cited_by,
                          author=self.author)
        return SearchOptions(mode=self.mode, limit=self.limit, per_paper=self.per_paper, filters=filters,
                             fusion=self.fusion, rrf_k=self.rrf_k, lexical_weight=self.lexical_weight,
                             vector_weight=self.vector_weight, explain=self.explain,
                             objects_per_paper=self.objects_per_paper)


def search_dict(resp: SearchResponse, min_score: float | None) -> dict[str, Any]:
    """`search --json`'s shape, hits whose relevance is under `min_score` left out (a post-filter;
    `no_confident_match` still describes the search before it)."""
    if min_score is not None:
        # compared as printed (rounded), so a relevance copied from one answer keeps that hit in the next
        resp.results = [h for h in resp.results if (finite(h.relevance) or 0.0) >= min_score]
    return resp.to_dict()


class ShowParams(Strict):
    id: str = Field(min_length=1, description="A paper id (its sections, figures and tables) or a unit id "
                                              "(e.g. a hit's unit_id: its text and the units of its section).")
    neighbours: bool = Field(True, description="For a unit: include the other units of its section, in order.")
    image: bool = Field(False, description="For a figure/table unit of a PDF: also return the page region as an "
                                           "image.")


class PassageParams(Strict):
    paper_id: str = Field(min_length=1, description="The paper to read (an id from search or list_papers).")
    section: str | None = Field(None, description="A section path as shown by `show` (e.g. \"Methods\" or "
                                                  "\"Methods > Cell culture\"); includes its subsections.")
    page_from: int | None = Field(None, ge=1, description="First page to read.")
    page_to: int | None = Field(None, ge=1, description="Last page to read.")
    budget_chars: int = Field(8000, ge=200, le=200_000, description="At most this many characters per answer.")
    cursor: str | None = Field(None, description="next_cursor from the previous answer, to read on.")

    def pages(self) -> tuple[int, int] | None:
        if self.page_from is None and self.page_to is None:
            return None
        lo, hi = self.page_from or 1, self.page_to or 1_000_000
        if lo > hi:
            from ..errors import BadArgument

            raise BadArgument(f"page_from ({lo}) is after page_to ({hi})")
        return lo, hi


class PapersParams(Strict):
    title: str | None = Field(None, description="Only papers whose title contains this (case-insensitive).")
    author: str | None = Field(None, description="Only papers with an author whose name contains this.")
    year_from: int | None = Field(None, description="Only papers from this year on.")
    year_to: int | None = Field(None, description="Only papers up to this year.")
    limit: int = Field(100, ge=1, le=10_000, description="At most this many papers.")


class StatusParams(Strict):
    pass


def filter_papers(rows: list, p: PapersParams) -> list[dict[str, Any]]:
    """`papers --json` rows matching the title/author/year filters, at most `limit`."""
    out = []
    for r in rows:
        paper = r.paper
        if p.title and p.title.lower() not in (paper.title or "").lower():
            continue
        if p.author and not any(p.author.lower() in a.lower() for a in paper.authors):
            continue
        if p.year_from is not None and (paper.year is None or paper.year < p.year_from):
            continue
        if p.year_to is not None and (paper.year is None or paper.year > p.year_to):
            continue
        out.append(r.to_dict())
        if len(out) >= p.limit:
            break
    return out


def one_line(e: Any) -> str:
    """A validation error (pydantic's, or FastAPI's for a request) as one line a person or an agent
    can act on: `field: problem; field: problem`.  FastAPI's locations start with where the value
    came from (query, path, body), which is dropped."""
    parts = []
    for err in e.errors():
        loc = list(err["loc"])
        if type(e).__name__ == "RequestValidationError" and loc and loc[0] in ("query", "path", "body"):
            loc = loc[1:]
        where = ".".join(str(x) for x in loc) or "request"
        msg = "unknown argument" if err["type"] == "extra_forbidden" else err["msg"]
        parts.append(f"{where}: {msg}")
    return "; ".join(parts)
