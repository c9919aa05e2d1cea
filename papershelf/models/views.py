"""What a library says about itself and its papers: status, verification, and a paper shown whole.

The JSON of every class here is pinned by `tests/test_models.py`.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from .core import JsonModel, Manifest, Paper, PaperSource, Space


@dataclass
class CollectionStatus(JsonModel):
    stored: int
    expected: int
    pending_papers: int
    failed_papers: int


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
class IndexCheck(JsonModel):
    ok: bool
    problems: list[str] = field(default_factory=list)


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
class SectionView(JsonModel):
    unit_id: str
    source: str
    section_path: str
    part: int
    pages: str | None
    tokens: int


@dataclass
class ObjectView(JsonModel):
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
class Neighbour(JsonModel):
    """One unit of a section, in reading order: what `show` of a unit adds around it,
    so a reader (or an agent) sees the passage a hit came from, not just the hit."""

    unit_id: str
    source: str
    section_path: str
    part: int
    pages: str | None
    text: str
    is_target: bool = False


@dataclass
class Passage(JsonModel):
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
