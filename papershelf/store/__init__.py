"""Storage behind a small contract, so a second backend (PostgreSQL + pgvector)
can implement the same thing.

The contract is the method set of `Store`: papers with their units written
and removed one transaction per paper, lexical search, and the embedding
state (spaces, vectors, per-paper build state, the build lock).  Everything
above this package — ingestion, the build pipeline, search, the CLI —
talks only to these methods.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol


@dataclass
class Filters:
    """Restrictions applied before ranking, in every search mode."""

    papers: list[str] = field(default_factory=list)
    year_min: int | None = None
    year_max: int | None = None
    sources: list[str] = field(default_factory=list)  # body_unit / object_unit / legacy_chunk
    object_kind: str | None = None  # figure / table

    def is_empty(self) -> bool:
        return not (self.papers or self.year_min or self.year_max or self.sources or self.object_kind)


class Store(Protocol):  # pragma: no cover - a contract, implemented by SQLiteStore
    path: str

    def source_record(self, source_path: str) -> tuple[str, str] | None: ...
    def write_paper(self, paper, units, manifest) -> None: ...
    def remove_paper(self, paper_id: str) -> bool: ...
    def get_paper(self, paper_id: str) -> dict | None: ...
    def paper_units(self, paper_id: str) -> list: ...
    def get_unit(self, unit_id: str): ...
    def lexical(self, match: str, limit: int, filters: Filters, weights: tuple[float, float, float]) -> list[dict]: ...
    def stats(self) -> dict: ...


def open_store(location: str, create: bool = True):
    """Open a store by location: a file path (SQLite) for now."""
    if location.startswith(("postgres://", "postgresql://")):
        from ..errors import LibraryFileError

        raise LibraryFileError("the PostgreSQL backend is not available in this version")
    from .sqlite import SQLiteStore

    return SQLiteStore(location, create=create)
