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
from typing import Any

from .document import BIBLIOGRAPHIC_FIELDS, Bibliographic

# -- unit kinds -----------------------------------------------------------------------


@dataclass(frozen=True)
class UnitKind:
    """One kind of unit and every name it goes by.

    `name` is the unit's kind (`Unit.kind`, manifest counts), `collection` the
    vector collection and manifest hash it belongs to, `source` what a search
    hit says it came from, `table` where the SQLite backend keeps it.  Adding a
    kind means adding one of these (and a reader that produces it).
    """

    name: str
    collection: str
    source: str
    table: str


BODY = UnitKind("body", "body", "body_unit", "body_units")
OBJECT = UnitKind("object", "objects", "object_unit", "object_units")
CHUNK = UnitKind("chunk", "fulltext", "legacy_chunk", "fulltext_chunks")
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
class Paper(Bibliographic):
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

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class PaperSource:
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

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class PaperSummary:
    """A paper as `papers` lists it: its record and how many units of each kind it has."""

    paper: Paper
    units: dict[str, int]

    def to_dict(self) -> dict[str, Any]:
        return {**self.paper.to_dict(), "units": dict(self.units)}


@dataclass
class Manifest:
    """Per-paper summary of its units, keyed by kind name: what a build compares against."""

    counts: dict[str, int] = field(default_factory=dict)  # total units per kind
    indexable: dict[str, int] = field(default_factory=dict)  # indexable units per kind
    hashes: dict[str, str] = field(default_factory=dict)  # sha256 over the indexable units, per kind
    policy_version: int = 0

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


# -- search filters -----------------------------------------------------------------------


@dataclass
class Filters:
    """Restrictions applied before ranking, in every search mode and every backend,
    so a filtered search never comes back empty while matches exist."""

    papers: list[str] = field(default_factory=list)
    year_min: int | None = None
    year_max: int | None = None
    sources: list[str] = field(default_factory=list)  # body_unit / object_unit / legacy_chunk
    object_kind: str | None = None  # figure / table
    # Reference-manager labels: a paper in any of `collections` (or their subcollections) and
    # carrying every one of `tags` (as selecting several tags in Zotero does); case-insensitive.
    collections: list[str] = field(default_factory=list)
    tags: list[str] = field(default_factory=list)
    # Papers with an author whose name contains each of these (case-insensitive; all of, as tags).
    authors: list[str] = field(default_factory=list)

    def is_empty(self) -> bool:
        return not (self.papers or self.sources or self.object_kind or self.collections or self.tags
                    or self.authors or self.year_min is not None or self.year_max is not None)

    @property
    def has_labels(self) -> bool:
        """Filters answered by a paper-id SELECT (labels and authors), pushed into both backends."""
        return bool(self.collections or self.tags or self.authors)

    def validate(self) -> None:
        """Raise BadArgument for a filter no paper could ever match for a silly reason."""
        from .errors import BadArgument

        bad = [s for s in self.sources if s not in SOURCES]
        if bad:
            raise BadArgument(f"unknown source {bad[0]!r}: choose from {', '.join(SOURCES)}")
        if self.object_kind is not None and self.object_kind not in OBJECT_KINDS:
            raise BadArgument(f"unknown kind {self.object_kind!r}: choose figure or table")
        for name, year in (("year_from", self.year_min), ("year_to", self.year_max)):
            if year is not None and (not isinstance(year, int) or not -9999 <= year <= 9999):
                raise BadArgument(f"{name} must be a year from -9999 to 9999, not {year}")


# -- embedding spaces -------------------------------------------------------------------


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
    def complete(self) -> bool:
        return self.completed_at is not None

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "provider": self.provider, "model": self.model, "dimension": self.dimension,
                "fingerprint": self.fingerprint, "window_tokens": self.window_tokens,
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

    def to_dict(self) -> dict[str, Any]:
        d = {k: getattr(self, k) for k in HIT_FIELDS}
        d["score"] = finite(self.score)
        d["relevance"] = finite(self.relevance)
        if self.rerank_score is not None:
            d["rerank_score"] = finite(self.rerank_score)
        if self.explain is not None:
            d["explain"] = self.explain.to_dict()
        return d


HIT_FIELDS = ("rank", "score", "relevance", "source", "paper_id", "title", "authors", "year", "unit_id", "section_path",
              "pages", "object_kind", "object_label", "caption", "snippet", "tags", "collections", "zotero_link")


@dataclass
class SearchResponse:
    query: str
    mode: str  # the mode actually used (hybrid falls back to lexical without vectors)
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
    status: str  # added | updated | unchanged | failed | metadata
    paper_id: str | None = None
    reason: str | None = None
    units: dict[str, int] = field(default_factory=dict)
    # The file is another source of a paper that already existed (the same work); when it is not
    # the best source the paper's units are unchanged.
    joined: bool = False

    def to_dict(self) -> dict[str, Any]:
        d = {k: v for k, v in asdict(self).items() if v not in (None, {}) and k != "joined"}
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


# -- status, verify, show ---------------------------------------------------------------


@dataclass
class CollectionStatus:
    stored: int
    expected: int
    pending_papers: int
    failed_papers: int

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class EmbeddingStatus:
    configured: dict[str, str]
    active_space: Space | None
    target_space: Space | None
    collections: dict[str, CollectionStatus] | None
    pending_papers: int
    failed_papers: int = 0
    stored_total: int = 0
    expected_total: int | None = None
    pending_reasons: dict[str, int] = field(default_factory=dict)
    failures: list[dict[str, Any]] = field(default_factory=list)
    build_running: dict[str, Any] | None = None  # pid, host, started_at of a live build

    def to_dict(self) -> dict[str, Any]:
        return {"configured": dict(self.configured),
                "active_space": self.active_space.to_dict() if self.active_space else None,
                "target_space": self.target_space.to_dict() if self.target_space else None,
                "collections": {k: c.to_dict() for k, c in self.collections.items()} if self.collections else None,
                "pending_papers": self.pending_papers, "failed_papers": self.failed_papers,
                "stored_total": self.stored_total, "expected_total": self.expected_total,
                "pending_reasons": dict(self.pending_reasons), "failures": list(self.failures),
                "build_running": self.build_running}


@dataclass
class LibraryStatus:
    library: str
    size_bytes: int
    schema_version: int
    papers: int
    units: dict[str, dict[str, int]]  # kind -> total / indexable / vetoed
    veto_reasons: dict[str, int]
    failed_files: int
    embedding: EmbeddingStatus | None = None

    def to_dict(self) -> dict[str, Any]:
        d = {k: getattr(self, k) for k in ("library", "size_bytes", "schema_version", "papers", "units",
                                           "veto_reasons", "failed_files")}
        d["embedding"] = self.embedding.to_dict() if self.embedding else None
        return d


@dataclass
class IndexCheck:
    ok: bool
    problems: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class SpaceCheck:
    """What `verify` found in one space, unit by unit (lists hold at most 50 unit ids)."""

    pending_papers: int
    stale_vectors: list[str] = field(default_factory=list)
    orphan_vectors: list[str] = field(default_factory=list)
    wrong_size_vectors: list[str] = field(default_factory=list)
    missing_vectors: list[str] = field(default_factory=list)
    space: Space | None = None

    @property
    def ok(self) -> bool:
        return not (self.stale_vectors or self.orphan_vectors or self.wrong_size_vectors or self.missing_vectors)

    def problems(self) -> dict[str, list[str]]:
        return {k: v for k, v in (("stale_vectors", self.stale_vectors), ("orphan_vectors", self.orphan_vectors),
                                  ("wrong_size_vectors", self.wrong_size_vectors),
                                  ("missing_vectors", self.missing_vectors)) if v}

    def to_dict(self) -> dict[str, Any]:
        s = self.space
        head = {"id": s.id, "provider": s.provider, "model": s.model, "complete": s.complete} if s else {}
        return {**head, "pending_papers": self.pending_papers, "stale_vectors": self.stale_vectors,
                "orphan_vectors": self.orphan_vectors, "wrong_size_vectors": self.wrong_size_vectors,
                "missing_vectors": self.missing_vectors, "ok": self.ok}


@dataclass
class VerifyReport:
    index: IndexCheck
    spaces: list[SpaceCheck]

    @property
    def ok(self) -> bool:
        return self.index.ok and all(s.ok for s in self.spaces)

    def to_dict(self) -> dict[str, Any]:
        return {"index": self.index.to_dict(), "spaces": [s.to_dict() for s in self.spaces], "ok": self.ok}


@dataclass
class SectionView:
    unit_id: str
    source: str
    section_path: str
    part: int
    pages: str | None
    tokens: int

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class ObjectView:
    unit_id: str
    object_kind: str | None
    label: str | None
    caption: str | None
    pages: str | None
    section_path: str
    indexable: bool
    veto_reason: str | None
    cited_by: str | None
    table_text: str | None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class PaperView:
    """A paper as `show` presents it: record, manifest, sections and figures/tables."""

    paper: Paper
    manifest: Manifest | None
    sections: list[SectionView]
    objects: list[ObjectView]
    sources: list[PaperSource] = field(default_factory=list)  # every file of this work, the provider first

    def to_dict(self) -> dict[str, Any]:
        return {"type": "paper", **self.paper.to_dict(),
                "manifest": self.manifest.to_dict() if self.manifest else None,
                "sections": [s.to_dict() for s in self.sections], "objects": [o.to_dict() for o in self.objects],
                "sources": [s.to_dict() for s in self.sources]}


@dataclass
class UnitView:
    """One unit as `show` presents it, with its paper."""

    unit: Any  # units.Unit (kept untyped here: units imports this module)
    paper: Paper | None

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self.unit)
        d["source"] = self.unit.source
        return {"type": "unit", **d, "paper": self.paper.to_dict() if self.paper else None}


@dataclass
class Neighbour:
    """One unit of a section, in reading order: what `show` of a unit adds around it,
    so a reader (or an agent) sees the passage a hit came from, not just the hit."""

    unit_id: str
    source: str
    section_path: str
    part: int
    pages: str | None
    text: str
    is_target: bool = False

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class Passage:
    """A stretch of a paper's text within a size budget, with a cursor to continue.

    `next_cursor` is None when the selection has been read to its end; pass it back
    unchanged to read on.  `sections` and `pages` say what this stretch covers.
    """

    paper_id: str
    title: str | None
    text: str
    sections: list[str]
    pages: str | None
    next_cursor: str | None
    units: int  # units (or parts of one) in this stretch

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)
