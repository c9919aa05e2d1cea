"""The requests papershelf answers: one strict pydantic model per operation, shared by every door.

The CLI builds these from its options (each field an option, `--field-name`), the HTTP API
validates a query string against them, MCP validates a tool call's arguments against them (their
JSON schema is the tool's input schema), and the CLI sends one to a running server with
`to_query`.  Each model forbids unknown fields, so a misspelt argument (``per_papr``) is an error
naming it rather than silently ignored.  Descriptions are written for an agent choosing
arguments; they are also each option's `--help` and the reference pages' text.

A field that only one door can use (MCP's images) is listed in the model's `DOORS`; the other doors
never see it.
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    ValidationError,
    create_model,
    field_validator,
    model_validator,
)

from ..errors import BadArgument
from ..models import Filters, Query
from ..search import SearchOptions

MAX_IMAGES = 3


class Strict(BaseModel):
    # defer_build: a model builds its validator on first use, so a command builds only its own request
    # (~20 ms less for every cold CLI command; tests/test_cold_imports.py)
    model_config = ConfigDict(extra="forbid", defer_build=True)
    # field -> the doors ("cli", "http", "mcp") that offer it; a field not named here is in every door
    DOORS: ClassVar[dict[str, tuple[str, ...]]] = {}
    # an old field name -> the field it is now: still accepted, hidden from --help and the reference
    DEPRECATED: ClassVar[dict[str, str]] = {}

    def to_query(self) -> list[tuple[str, str]]:
        """The request as URL query pairs (lists repeated, booleans lower-case), defaults left out:
        what the CLI sends a running server, so the server validates exactly what was asked."""
        return [(k, str(x).lower() if isinstance(x, bool) else str(x))
                for k, v in self.model_dump(exclude_defaults=True).items()
                for x in (v if isinstance(v, list) else [v]) if x is not None]

    @classmethod
    def fields_for(cls, door: str) -> list[str]:
        """The fields this door offers, in declaration order."""
        return [n for n in cls.model_fields if door in cls.DOORS.get(n, (door,))]

    @classmethod
    def model_for(cls, door: str, without: tuple[str, ...] = ()) -> type[Strict]:
        """The request as one door takes it: its fields, less `without` (the class itself when that
        is all of them).  Validate with it, then `complete` the request."""
        names = [n for n in cls.fields_for(door) if n not in without]
        if names == list(cls.model_fields):
            return cls
        fields: Any = {n: (cls.model_fields[n].annotation, cls.model_fields[n]) for n in names}
        return create_model(f"{cls.__name__}{door.upper()}", __base__=Strict, __doc__=cls.__doc__, **fields)

    @classmethod
    def complete(cls, part: BaseModel, **more: Any) -> Any:
        """The whole request from a door's part of it (the fields it does not offer at their defaults)."""
        if type(part) is cls and not more:
            return part
        return cls.model_validate({**part.model_dump(exclude_unset=True), **more})


ZOTERO_LIBRARY = ("Only papers from this Zotero library: \"My Library\" (or \"personal\") or a group library's "
                  "name (case-insensitive).")


class SearchParams(Strict):
    DOORS: ClassVar[dict[str, tuple[str, ...]]] = {"images": ("mcp",)}
    DEPRECATED: ClassVar[dict[str, str]] = {"cites": "citing", "cited_by": "references_of"}

    query: str | None = Field(None, min_length=1, max_length=2000,
                              description="What to look for: words, a \"quoted phrase\", or a question in plain "
                                          "language (or give `like`).")
    like: list[Annotated[str, StringConstraints(min_length=1, max_length=2000)]] = Field(
        default_factory=list, max_length=20,
        description="More like this paper (id, citekey, DOI ...) or this unit (a hit's unit_id), by meaning; the "
                    "paper or unit itself is left out. Several: like all of them (their mean); with `query`: like "
                    "them, about those words.")
    mode: Literal["hybrid", "lexical", "vector"] = Field(
        "hybrid", description="hybrid (words and meaning, best default), lexical (exact words, BM25) or vector "
                              "(meaning only).")
    limit: int = Field(10, ge=1, le=1000, description="Number of hits to return.")
    per_paper: int = Field(2, ge=1, le=10_000, description="At most this many hits per paper (ignored with `paper`).")
    paper: list[str] = Field(default_factory=list, description="Only search these papers: an id, a unique id "
                                                               "prefix, citekey, DOI or Zotero key.")
    kind: Literal["figure", "table"] | None = Field(None, description="Only figure or only table captions.")
    source: list[Literal["body_unit", "object_unit", "legacy_chunk"]] = Field(
        default_factory=list, description="Only these unit sources: body_unit (section text), object_unit "
                                          "(figure/table captions), legacy_chunk (papers without headings).")
    year_from: int | None = Field(None, ge=-9999, le=9999, description="Only papers published in or after this year.")
    year_to: int | None = Field(None, ge=-9999, le=9999, description="Only papers published in or before this year.")
    citing: str | None = Field(None, description="Only papers citing this paper: whose reference lists name it "
                                                 "(an id, citekey or DOI).")
    references_of: str | None = Field(None, description="Only the references of this paper: the papers its "
                                                        "reference list names (an id, citekey or DOI).")
    cites: str | None = Field(None, description="Deprecated: citing.", json_schema_extra={"deprecated": True})
    cited_by: str | None = Field(None, description="Deprecated: references_of (the papers this one cites).",
                                 json_schema_extra={"deprecated": True})
    collection: list[str] = Field(default_factory=list, description="Only papers in this collection or one below "
                                                                    "it (\"Parent/Child\"; any of, case-insensitive).")
    tag: list[str] = Field(default_factory=list, description="Only papers carrying this tag (all of, "
                                                             "case-insensitive).")
    author: str | None = Field(None, min_length=1, max_length=200,
                               description="Only papers with an author of this name (a surname, or more of the name).")
    zotero_library: str | None = Field(None, min_length=1, max_length=200, description=ZOTERO_LIBRARY)
    min_score: float | None = Field(None, ge=0, le=1, description="Drop hits whose calibrated relevance (0-1, "
                                                                  "comparable across queries) is below this.")
    fusion: Literal["convex", "rrf"] = Field("convex", description="How hybrid mode merges the two rankings.")
    rrf_k: float = Field(60.0, gt=0, le=1e6, description="Reciprocal-rank fusion constant (fusion=rrf).")
    lexical_weight: float = Field(1.0, ge=0, le=1e6, description="Weight of the word ranking in hybrid mode.")
    vector_weight: float = Field(1.0, ge=0, le=1e6, description="Weight of the meaning ranking in hybrid mode.")
    explain: bool = Field(False, description="Add each hit's lexical and vector rank and score.")
    objects_per_paper: int = Field(3, ge=1, le=10_000, description="At most this many figures/tables per paper, "
                                                                    "counted apart from its text hits.")
    images: bool = Field(False, description=f"Attach the page region of up to {MAX_IMAGES} figure/table hits "
                                            "from PDF papers as images (set kind=figure or kind=table too).")

    @model_validator(mode="after")
    def _one_query(self) -> SearchParams:
        if self.query is None and not self.like:
            raise ValueError("give query (words) or like (a paper or unit id), or both")
        return self

    @field_validator("like", mode="before")
    @classmethod
    def _one_like(cls, value: object) -> object:
        """One paper or unit as a plain string, as `like` took before it took several."""
        return [value] if isinstance(value, str) else value

    def value(self) -> str | Query:
        """What the search ranks by: the words, the papers or units named by `like` (resolved by the Library),
        or all of them as one query."""
        likes = [Query("paper", ref) for ref in self.like]
        if not likes:
            return self.query or ""
        return Query.together(([Query.of(self.query)] if self.query is not None else []) + likes)

    def options(self) -> SearchOptions:
        """The library's SearchOptions for this request (a kind implies figure/table units)."""
        sources: list[str] = list(self.source) or (["object_unit"] if self.kind else [])
        filters = Filters(papers=list(self.paper), year_from=self.year_from, year_to=self.year_to,
                          sources=sources, object_kind=self.kind, collections=list(self.collection),
                          tags=list(self.tag), citing=self.citing or self.cites,
                          references_of=self.references_of or self.cited_by, author=self.author,
                          zotero_library=self.zotero_library)
        return SearchOptions(mode=self.mode, limit=self.limit, per_paper=self.per_paper, filters=filters,
                             fusion=self.fusion, rrf_k=self.rrf_k, lexical_weight=self.lexical_weight,
                             vector_weight=self.vector_weight, explain=self.explain,
                             objects_per_paper=self.objects_per_paper)


class ShowParams(Strict):
    DOORS: ClassVar[dict[str, tuple[str, ...]]] = {"image": ("mcp",)}

    id: str = Field(min_length=1, description="A paper (id, unique id prefix, citekey, DOI, Zotero item or "
                                              "attachment key: its sections, figures and tables) or a unit id "
                                              "(e.g. a hit's unit_id: its text and the units of its section).")
    neighbours: bool = Field(True, description="For a unit: include the other units of its section, in order.")
    image: bool = Field(False, description="For a figure/table unit of a PDF: also return the page region as an "
                                           "image.")


class PassageParams(Strict):
    paper_id: str = Field(min_length=1, description="The paper to read: an id from search or papers, a unique "
                                                    "id prefix, citekey, DOI or Zotero key.")
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
            raise BadArgument(f"page_from ({lo}) is after page_to ({hi})")
        return lo, hi


class PapersParams(Strict):
    title: str | None = Field(None, description="Only papers whose title contains this (case-insensitive).")
    author: str | None = Field(None, description="Only papers with an author of this name (a surname, or more of "
                                                 "the name; initials, case and accents as typed or not).")
    year_from: int | None = Field(None, ge=-9999, le=9999, description="Only papers from this year on.")
    year_to: int | None = Field(None, ge=-9999, le=9999, description="Only papers up to this year.")
    tag: list[str] = Field(default_factory=list, description="Only papers carrying this tag (all of).")
    collection: list[str] = Field(default_factory=list, description="Only papers in this collection or below "
                                                                    "(any of).")
    zotero_library: str | None = Field(None, min_length=1, max_length=200, description=ZOTERO_LIBRARY)
    limit: int = Field(100, ge=1, le=100_000, description="At most this many papers.")


class RefsParams(Strict):
    paper_id: str = Field(min_length=1, description="A paper (id, unique id prefix, citekey, DOI or Zotero key).")
    missing: bool = Field(False, description="Only the references the library does not hold.")
    format: Literal["json", "bibtex"] = Field("json", description="bibtex: also return the references as BibTeX.")


class CitingParams(Strict):
    paper_id: str = Field(min_length=1, description="A paper (id, unique id prefix, citekey, DOI or Zotero key).")


class CitationsParams(Strict):
    """The MCP tool `citations` of earlier versions: `refs` or `cited_by` by `direction` (kept as an alias)."""

    paper_id: str = Field(min_length=1, description="A paper (id, citekey or DOI) from search or papers.")
    direction: Literal["references", "cited_by"] = Field(
        "references", description="references: the paper's reference list; cited_by: the library papers citing it.")
    missing: bool = Field(False, description="With references: only the entries the library does not hold.")
    format: Literal["json", "bibtex"] = Field("json", description="With references: bibtex adds them as BibTeX.")


class StatusParams(Strict):
    pass


class VerifyParams(Strict):
    pass


def problems(e: ValidationError | Any) -> list[tuple[str, str]]:
    """(parameter, problem) for each error of a validation (pydantic's, or FastAPI's for a request,
    whose locations start with where the value came from: query, path, body — dropped)."""
    out = []
    for err in e.errors():
        loc = list(err["loc"])
        if type(e).__name__ == "RequestValidationError" and loc and loc[0] in ("query", "path", "body"):
            loc = loc[1:]
        loc = [x for x in loc if not isinstance(x, int)]  # the n-th value of a list parameter: the name is enough
        where = ".".join(str(x) for x in loc) or "request"
        out.append((where, "unknown argument" if err["type"] == "extra_forbidden" else err["msg"]))
    return out


def one_line(e: Any) -> str:
    """A validation error as one line a person or an agent can act on: `field: problem; field: problem`."""
    return "; ".join(f"{where}: {msg}" for where, msg in problems(e))


def build(model: type[Strict], flags: dict[str, str] | None = None, **values: Any) -> Any:
    """A request from a door's values (None: not given), validation errors raised as BadArgument; with
    `flags` (parameter -> CLI flag) they name the flag the person typed."""
    try:
        return model.model_validate({k: v for k, v in values.items() if v is not None})
    except ValidationError as e:
        flags = flags or {}
        raise BadArgument("; ".join(f"{flags.get(w, w)}: {m}" for w, m in problems(e))) from None
