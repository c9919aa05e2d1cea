"""The records the store hands back across its contract, and the build's progress events.

Each used to be a tuple or a dict read by position or key; a record names its fields, so a reader
sees what the store promises and mypy checks every use.  The ones that reach JSON (a lock holder,
an embedding failure) serialize with `to_dict()` to the keys they always had.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, NamedTuple, TypedDict

from .core import JsonModel

PendingReason = Literal["new", "changed", "damaged"]
PENDING_REASONS: tuple[PendingReason, ...] = ("new", "changed", "damaged")


class SourceRecord(NamedTuple):
    """A file that is a source of a paper: which paper, and the content hash it was read with."""

    paper_id: str
    hash: str | None


class StoredVector(NamedTuple):
    """A unit's stored vector in a space: the unit hash it was built from, and its windows
    (float32, back to back)."""

    unit_hash: str
    vector: bytes


class UnitMean(NamedTuple):
    """A unit's mean window in a space (a NumPy float32 row) and where it sits: what paper vectors are
    averaged from."""

    paper_id: str
    unit_id: str
    section_path: str | None
    object_kind: str | None
    mean: Any


@dataclass(frozen=True)
class IngestFailure:
    """A file that could not be added, as recorded, so an unchanged file is not parsed again."""

    source_path: str
    source_hash: str | None
    reason: str
    failed_at: float


@dataclass(frozen=True)
class EmbedFailure(JsonModel):
    """A paper whose build failed in a space."""

    paper_id: str
    reason: str
    failed_at: float


@dataclass(frozen=True)
class LockHolder(JsonModel):
    """A builder holding the build lock (SQLite) or registered as building (PostgreSQL)."""

    pid: int
    host: str
    started_at: float
    alive: bool


class StartEvent(TypedDict):
    event: Literal["start"]
    space_id: int
    provider: str
    model: str
    dimension: int
    papers: int
    units: int
    windows: int  # planned from the units' token estimates (embed/eta.py), before any is cut
    skipped: int
    workers: int


class PaperEvent(TypedDict, total=False):
    """One paper written or failed, with the build's progress so far."""

    event: Literal["paper"]
    paper_id: str
    status: Literal["embedded", "failed"]
    units: int
    windows: int
    reused: int
    reason: str
    units_done: int
    units_total: int
    windows_done: int
    windows_left: float  # embed/eta.py: cut and not encoded, plus the corrected plan of the rest
    units_per_second: float | None
    eta_seconds: float | None


class FileEvent(TypedDict):
    """`index --json`: one file done, as its paper is written (before the add's summary)."""

    event: Literal["file"]
    path: str
    paper_id: str | None
    status: str  # a FileResult's: added, updated, unchanged, failed, metadata
    pages: int | None  # a PDF's page count
    seconds: float | None  # its parse (in a worker) and write


class EncodedEvent(TypedDict):
    """One provider call done: the windows it encoded and the units it finished (progress between papers);
    or units cut into windows before their first call (windows 0, units 0: `windows_left` counted)."""

    event: Literal["encoded"]
    windows: int
    units: int
    units_done: int  # the build's progress after it (units finished: encoded, reused or failed)
    units_total: int
    windows_done: int
    windows_left: float  # embed/eta.py: cut and not encoded, plus the corrected plan of the rest
    eta_seconds: float | None  # embed/eta.py: windows left over the recent rate


# `done` carries `BuildReport.to_dict()` besides its name.
BuildEvent = StartEvent | PaperEvent | EncodedEvent | dict[str, Any]
