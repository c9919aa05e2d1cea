"""The typed shapes that cross layers: unit kinds, papers, spaces, hits, reports.

Storage returns these, `Library` returns these, and every front end (the CLI's
``--json``, the HTTP API, MCP) serializes them with their one ``to_dict()``,
so a field renamed here is renamed everywhere, and `tests/test_models.py`
pins the JSON shape so that such a change is deliberate.
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass, field
from typing import Any, Literal, cast, get_args

from ..document import BIBLIOGRAPHIC_FIELDS, Bibliographic
from ..errors import BadArgument

SearchMode = Literal["lexical", "vector", "hybrid"]
Fusion = Literal["convex", "rrf"]  # weighted sum of min-max normalized scores, or weighted reciprocal rank
FileStatus = Literal["added", "updated", "unchanged", "failed", "metadata"]
SEARCH_MODES: tuple[SearchMode, ...] = get_args(SearchMode)
FUSIONS: tuple[Fusion, ...] = get_args(Fusion)

class JsonModel:
    """A model whose fields are its JSON, as they are: `to_dict()` is `dataclasses.asdict`."""

    def to_dict(self) -> dict[str, Any]:
        return asdict(cast(Any, self))


# -- unit kinds -----------------------------------------------------------------------


@dataclass(frozen=True)
class UnitKind:
    """One kind of unit and every name it goes by.

    `name` is the unit's kind (`Unit.kind`, manifest counts), `collection` the
    vector collection and manifest hash it belongs to, `source` what a search
    hit says it came from, `table` where the SQLite backend keeps it, `id_part`
    what follows the paper id in its units' ids (`paper:body:3`, units.py): an id
    without it is no unit of this kind.  Adding a kind means adding one of these
    (and a reader that produces it).
    """

    name: str
    collection: str
    source: str
    table: str
    id_part: str


BODY = UnitKind("body", "body", "body_unit", "body_units", ":body:")
OBJECT = UnitKind("object", "objects", "object_unit", "object_units", ":obj:")
CHUNK = UnitKind("chunk", "fulltext", "legacy_chunk", "fulltext_chunks", ":chunk:")
UNIT_KINDS: tuple[UnitKind, ...] = (BODY, OBJECT, CHUNK)

KIND_NAMES = tuple(k.name for k in UNIT_KINDS)
COLLECTIONS = tuple(k.collection for k in UNIT_KINDS)
SOURCES = tuple(k.source for k in UNIT_KINDS)
OBJECT_KINDS = ("figure", "table")
_BY_NAME = {k.name: k for k in UNIT_KINDS}
_BY_SOURCE = {k.source: k for k in UNIT_KINDS}


def unit_kind(name: str) -> UnitKind:
    """The kind called `name` (body, object, chunk)."""
    return _BY_NAME[name]


def kind_of_source(source: str) -> UnitKind:
    return _BY_SOURCE[source]


def finite(x: float | None, digits: int = 6) -> float | None:
    """A number fit for strict JSON: rounded, and never NaN or infinity (None instead)."""
    if x is None or not math.isfinite(x):
        return None
    return round(float(x), digits)


# -- papers -----------------------------------------------------------------------------

# The bibliographic fields a paper carries (document.Bibliographic): readers, bibliographies,
# storage and front ends all go through this one list.
PAPER_META_FIELDS = BIBLIOGRAPHIC_FIELDS


@dataclass
class Paper(Bibliographic, JsonModel):
    """A paper's stored record: metadata plus where it came from."""

    id: str
    source_path: str | None = None
    source_hash: str | None = None
    source_format: str | None = None
    source_size: int | None = None
    added_at: float | None = None
    updated_at: float | None = None
    # Reference-manager facts kept with the paper (Zotero): filterable labels and the attachment key
    # that makes a zotero://open-pdf link.
    tags: list[str] = field(default_factory=list)
    collections: list[str] = field(default_factory=list)
    zotero_attachment: str | None = None


@dataclass
class PaperSource(JsonModel):
    """One file a paper comes from.  A paper (a work) may have several — the PDF, its GROBID TEI,
    an S2ORC JSON; the best (highest `priority`, then newest `mtime`) provides the units.

    `doi`, `arxiv_id`, `title_key` (normalized title + first author's surname) and `year` are
    what this file says about the work: how a file arriving later finds the paper it belongs to."""

    path: str
    paper_id: str
    format: str | None = None
    hash: str | None = None
    size: int | None = None
    mtime: float | None = None
    priority: int = 0
    doi: str | None = None
    arxiv_id: str | None = None
    title_key: str | None = None
    year: int | None = None
    added_at: float | None = None
    provides: bool = False  # set when listed with its paper: this file supplies the units


@dataclass
class PaperSummary:
    """A paper as `papers` lists it: its record and how many units of each kind it has."""

    paper: Paper
    units: dict[str, int]

    def to_dict(self) -> dict[str, Any]:
        return {**self.paper.to_dict(), "units": dict(self.units)}


@dataclass
class Manifest(JsonModel):
    """Per-paper summary of its units, keyed by kind name: what a build compares against."""

    counts: dict[str, int] = field(default_factory=dict)  # total units per kind
    indexable: dict[str, int] = field(default_factory=dict)  # indexable units per kind
    hashes: dict[str, str] = field(default_factory=dict)  # sha256 over the indexable units, per kind
    policy_version: int = 0


# -- search filters -----------------------------------------------------------------------


@dataclass(init=False)
class Filters:
    """Restrictions applied before ranking, in every search mode and every backend,
    so a filtered search never comes back empty while matches exist."""

    papers: list[str] = field(default_factory=list)
    year_from: int | None = None  # --year-from, and year_from in HTTP and MCP: one name everywhere
    year_to: int | None = None
    sources: list[str] = field(default_factory=list)  # body_unit / object_unit / legacy_chunk
    object_kind: str | None = None  # figure / table
    # Reference-manager labels: a paper in any of `collections` (or their subcollections) and
    # carrying every one of `tags` (as selecting several tags in Zotero does); case-insensitive.
    collections: list[str] = field(default_factory=list)
    tags: list[str] = field(default_factory=list)
    # The Zotero library a paper came from: "My Library" (or "personal") or a group library's name.
    zotero_library: str | None = None
    # The citation graph, one word per direction in every door: papers `citing` this paper (their
    # references name it), and the `references_of` this paper (the papers its reference list names);
    # ids as the user gave them.  The Library resolves them into `citation_scope`, the paper ids the
    # backends restrict to (an empty list: no paper qualifies).  `cites` and `cited_by` are the
    # names they had before (see docs/reference): still accepted.
    citing: str | None = None
    references_of: str | None = None
    citation_scope: list[str] | None = None
    # Papers with an author whose name holds every word of this one, each starting a word of
    # the name ("Mooney", "R. J. Mooney", "K. Lo"), case and accents folded (store/name_fold.py).
    author: str | None = None
    # The papers the author, collection and tag filters name, decided once in Python
    # (store/filter_plan.py): what the backends restrict to in their place (None: no such filter).
    paper_scope: list[str] | None = None

    def __init__(self, papers: list[str] | None = None, year_from: int | None = None, year_to: int | None = None,
                 sources: list[str] | None = None, object_kind: str | None = None,
                 collections: list[str] | None = None, tags: list[str] | None = None, *,
                 author: str | None = None, year_min: int | None = None, year_max: int | None = None,
                 citing: str | None = None, references_of: str | None = None,
                 citation_scope: list[str] | None = None, paper_scope: list[str] | None = None,
                 cites: str | None = None, cited_by: str | None = None, zotero_library: str | None = None):
        """`year_min` / `year_max` are the names these bounds had before (see docs/how-to/migrating.md's release
        notes); still accepted."""
        self.papers, self.sources = list(papers or []), list(sources or [])
        self.year_from = year_from if year_from is not None else year_min
        self.year_to = year_to if year_to is not None else year_max
        self.object_kind, self.collections, self.tags = object_kind, list(collections or []), list(tags or [])
        self.citing, self.references_of = citing or cites, references_of or cited_by
        self.citation_scope = None if citation_scope is None else list(citation_scope)
        self.author, self.zotero_library = author, zotero_library
        self.paper_scope = None if paper_scope is None else list(paper_scope)

    @property
    def cites(self) -> str | None:  # the old name of `citing`
        return self.citing

    @property
    def cited_by(self) -> str | None:  # the old name of `references_of` (papers the paper cites)
        return self.references_of

    @property
    def year_min(self) -> int | None:
        return self.year_from

    @property
    def year_max(self) -> int | None:
        return self.year_to

    def is_empty(self) -> bool:
        return not (self.papers or self.sources or self.object_kind or self.has_labels
                    or self.author or self.year_from is not None or self.year_to is not None
                    or self.citation_scope is not None or self.paper_scope is not None)

    @property
    def has_labels(self) -> bool:
        """A reference manager's labels are asked: collections, tags or the Zotero library."""
        return bool(self.collections or self.tags or self.zotero_library)

    def validate(self) -> None:
        """Raise BadArgument for a filter no paper could ever match for a silly reason."""

        bad = [s for s in self.sources if s not in SOURCES]
        if bad:
            raise BadArgument(f"unknown source {bad[0]!r}: choose from {', '.join(SOURCES)}")
        if self.object_kind is not None and self.object_kind not in OBJECT_KINDS:
            raise BadArgument(f"unknown kind {self.object_kind!r}: choose figure or table")
        if self.author is not None and (not isinstance(self.author, str) or not any(c.isalnum() for c in self.author)
                                        or len(self.author) > 200):
            raise BadArgument(f"author must be a name (up to 200 characters), not {self.author!r}")
        if self.zotero_library is not None and (not isinstance(self.zotero_library, str)
                                                or not self.zotero_library.strip() or len(self.zotero_library) > 200):
            raise BadArgument(f"zotero_library must be a library's name, not {self.zotero_library!r}")
        for name, year in (("year_from", self.year_from), ("year_to", self.year_to)):
            if year is not None and (not isinstance(year, int) or not -9999 <= year <= 9999):
                raise BadArgument(f"{name} must be a year from -9999 to 9999, not {year}")


# -- embedding spaces -------------------------------------------------------------------

# The window formats a space may name (its `window_format` option; embed/windows.py WINDOW_FORMATS says
# how each cuts): the one range the CLI bounds `--window-format` by and the embedder keys its formats on.
WINDOW_FORMAT_NUMBERS = range(1, 6)


@dataclass(frozen=True)
class Space:
    """An embedding space: provider + model + dimension + text format + policy + options
    (e.g. window size), named by their fingerprint.  Options are parsed once, here."""

    id: int
    fingerprint: str
    provider: str
    model: str
    dimension: int
    text_format: str
    policy_version: int
    options: dict[str, Any] = field(default_factory=dict, hash=False, compare=False)
    created_at: float | None = None
    completed_at: float | None = None

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> Space:
        options = row.get("options") or {}
        if isinstance(options, str):
            options = json.loads(options or "{}")
        return cls(row["id"], row["fingerprint"], row["provider"], row["model"], int(row["dimension"]),
                   row["text_format"], int(row["policy_version"]), options, row.get("created_at"),
                   row.get("completed_at"))

    @property
    def window_tokens(self) -> int | None:
        return self.options.get("window_tokens") or None

    @property
    def window_format(self) -> int:
        """How long units are cut into windows (embed/windows.py WINDOW_FORMATS); 1 when absent."""
        return int(self.options.get("window_format") or 1)

    @property
    def complete(self) -> bool:
        return self.completed_at is not None

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "provider": self.provider, "model": self.model, "dimension": self.dimension,
                "fingerprint": self.fingerprint, "window_tokens": self.window_tokens,
                "window_format": self.window_format,
                "completed_at": self.completed_at}


@dataclass
class VectorRow:
    """One unit's vectors in a space, as the build writes them: its windows back to back in
    `vector` (float32), with the unit and manifest hashes they were built from."""

    collection: str
    unit_id: str
    unit_kind: str
    unit_hash: str
    kind_hash: str
    policy_version: int
    token_estimate: int
    section_path: str | None = None
    object_kind: str | None = None
    object_label: str | None = None
    vector: bytes | None = None  # None in `vector_rows` listings, which report its size instead
    nbytes: int | None = None


@dataclass(frozen=True)
class VectorHit:
    """One unit found by vector search: its best window's cosine and which window that was."""

    unit_id: str
    paper_id: str
    score: float
    window: int = 0


@dataclass(frozen=True)
class LexicalHit:
    """One unit found by BM25 (score: higher is better)."""

    unit_id: str
    paper_id: str
    score: float


# -- search -----------------------------------------------------------------------------


@dataclass
class Explain:
    """Where a hit ranked in each list, for `--explain`."""

    lexical_rank: int | None = None
    lexical_score: float | None = None
    vector_rank: int | None = None
    vector_score: float | None = None
    vector_window: int | None = None
    # What the hit's relevance is computed from (search/relevance.py): best-window cosine and
    # raw BM25 per content word of the query (a list that missed the hit gives its lowest score).
    cosine: float | None = None
    bm25_per_term: float | None = None
    bm25: float | None = None  # raw BM25, before the phrase/proximity boost
    # BM25 per content word over the library's largest IDF, the share of content words the hit
    # holds, and whether they all stand in its title field or label (search/features.py).
    bm25_norm: float | None = None
    coverage: float | None = None
    field_match: float | None = None
    bm25_idf: float | None = None  # BM25 over the largest IDF (not per word)

    def to_dict(self) -> dict[str, Any]:
        return {k: finite(v) if isinstance(v, float) else v for k, v in asdict(self).items()}


@dataclass
class Hit:
    """One search result: the unit, its paper, and where in the paper it is."""

    rank: int
    score: float
    source: str
    paper_id: str
    title: str | None
    authors: list[str]
    year: int | None
    unit_id: str
    section_path: str
    pages: str | None
    object_kind: str | None = None
    object_label: str | None = None
    caption: str | None = None
    snippet: str | None = None
    tags: list[str] = field(default_factory=list)
    collections: list[str] = field(default_factory=list)
    zotero_link: str | None = None  # zotero://open-pdf/... at the hit's page, for a Zotero paper
    explain: Explain | None = None
    # Calibrated 0-1, comparable across queries (search/relevance.py); `score` only orders one list.
    relevance: float | None = None
    rerank_score: float | None = None  # the rerank server's score, when one reordered the list
    region: dict | None = None  # a PDF object's place: {"page", "bbox", "caption_bbox"} in PDF points
    ocr_engine: str | None = None  # the unit's text was read by OCR (may hold its errors), by this engine

    def to_dict(self) -> dict[str, Any]:
        d = {k: getattr(self, k) for k in HIT_FIELDS}
        d["ocr"], d["ocr_engine"] = self.ocr_engine is not None, self.ocr_engine
        d["score"] = finite(self.score)
        d["relevance"] = finite(self.relevance)
        if self.rerank_score is not None:
            d["rerank_score"] = finite(self.rerank_score)
        if self.explain is not None:
            d["explain"] = self.explain.to_dict()
        return d


HIT_FIELDS = ("rank", "score", "relevance", "source", "paper_id", "title", "authors", "year", "unit_id", "section_path",
              "pages", "object_kind", "object_label", "caption", "snippet", "tags", "collections", "zotero_link",
              "region")


@dataclass
class SearchResponse:
    query: str
    mode: SearchMode  # the mode actually used (hybrid falls back to lexical without vectors)
    results: list[Hit]
    notices: list[str] = field(default_factory=list)
    timings_ms: dict[str, float] = field(default_factory=dict)
    # True when no hit reaches the calibrated relevance of a confident match (search/relevance.py).
    no_confident_match: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"query": self.query, "mode": self.mode, "results": [h.to_dict() for h in self.results],
                "no_confident_match": self.no_confident_match,
                "notices": list(self.notices), "timings_ms": {k: finite(v, 2) for k, v in self.timings_ms.items()}}


# -- adding papers --------------------------------------------------------------------


@dataclass
class FileResult:
    path: str
    status: FileStatus
    paper_id: str | None = None
    reason: str | None = None
    units: dict[str, int] = field(default_factory=dict)
    # The file is another source of a paper that already existed (the same work); when it is not
    # the best source the paper's units are unchanged.
    joined: bool = False
    # Wall seconds its parse (in a worker) and write took: the `file` event's, not the report's.
    seconds: float | None = field(default=None, compare=False)
    pages: int | None = field(default=None, compare=False)  # a PDF's page count, for the same event

    def to_dict(self) -> dict[str, Any]:
        d = {k: v for k, v in asdict(self).items() if v not in (None, {}) and k not in ("joined", "seconds", "pages")}
        return {**d, "joined": True} if self.joined else d


@dataclass
class AddReport:
    files: list[FileResult] = field(default_factory=list)

    def count(self, status: str) -> int:
        return sum(f.status == status for f in self.files)

    @property
    def failed(self) -> list[FileResult]:
        return [f for f in self.files if f.status == "failed"]

    def to_dict(self) -> dict[str, Any]:
        return {"added": self.count("added"), "updated": self.count("updated"),
                "joined": sum(f.joined for f in self.files),
                "metadata_files": self.count("metadata"),
                "unchanged": self.count("unchanged"), "failed": self.count("failed"),
                "files": [f.to_dict() for f in self.files]}


# -- embedding builds -------------------------------------------------------------------


@dataclass
class BuildReport:
    space: Space
    selected: int = 0
    embedded: list[str] = field(default_factory=list)
    failed: dict[str, str] = field(default_factory=dict)
    skipped: int = 0  # papers already complete in this space
    units: int = 0  # units encoded
    windows: int = 0  # texts sent to the provider (a long unit is several windows)
    reused: int = 0  # vectors kept because their unit did not change
    seconds: float = 0.0
    cancelled: bool = False
    provider_down: str | None = None  # why the build stopped taking papers, if the provider went down
    pending_after: int = 0
    complete: bool = False

    def to_dict(self) -> dict[str, Any]:
        s = self.space
        return {"space": {"id": s.id, "provider": s.provider, "model": s.model, "dimension": s.dimension,
                          "fingerprint": s.fingerprint},
                "selected": self.selected, "embedded": len(self.embedded), "failed": dict(self.failed),
                "skipped": self.skipped, "units": self.units, "windows": self.windows, "reused": self.reused,
                "seconds": round(self.seconds, 3), "cancelled": self.cancelled, "provider_down": self.provider_down,
                "pending_after": self.pending_after, "complete": self.complete,
                "units_per_second": round(self.units / self.seconds, 1) if self.seconds else None}
