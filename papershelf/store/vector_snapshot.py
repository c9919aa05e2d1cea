"""A space's vectors laid out for search, built from the library file.

One normalized float32 row per window (a long unit has several, consecutive;
see embed/windows.py), per-unit arrays (first window, window count, paper,
kind, object kind) and the unit ids packed in one byte string, decoded only
for the hits a search returns.  Large spaces also get sign-bit codes
(`ann/binary.py`) so a search scans 48 bytes per window, not 1,536.

Large snapshots are written as derived files beside the library
(``library.db.vectors/``) so a fresh process maps them instead of reading and
normalizing every vector out of SQLite again.  The files are disposable: named
by the library's id, the space, its fingerprint and its generation, written to
a temporary folder and renamed into place whole, and never used once the
library's generation has moved on.  Deleting them loses nothing.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import shutil
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from ..ann.binary import pack_signs
from ..models import UNIT_KINDS, Space

OBJECT_KIND_CODES = {None: 0, "figure": 1, "table": 2}
KIND_CODES = {k.collection: n for n, k in enumerate(UNIT_KINDS)}
# Spaces with at least this many windows get sign codes and a shortlist search.
CODES_MIN_WINDOWS = 200_000
# Spaces with at least this many windows are kept as derived files for the next process.
FILES_MIN_WINDOWS = 20_000
_BATCH_UNITS = 4096

# One vector row as the store streams it: collection, unit id, paper id, object kind, float32 blob.
Row = tuple[str, str, str, "str | None", bytes]


@dataclass(repr=False)
class Snapshot:
    generation: int
    vectors: np.ndarray  # (windows, dim) float32, unit length; a read-only memory map for derived files
    codes: np.ndarray | None  # (windows, dim/64) uint64 sign bits, for large spaces
    starts: np.ndarray  # int64 per unit: its first window
    counts: np.ndarray  # int32 per unit: its windows
    paper: np.ndarray  # int32 per unit: index into paper_ids
    kind: np.ndarray  # uint8 per unit: index into UNIT_KINDS
    object_kind: np.ndarray  # uint8 per unit: OBJECT_KIND_CODES
    id_offsets: np.ndarray  # int64, units + 1: where each unit id starts in id_blob
    id_blob: bytes
    paper_ids: list[str]
    loaded_at: float = 0.0

    @property
    def units(self) -> int:
        return len(self.starts)

    def unit_id(self, i: int) -> str:
        return self.id_blob[self.id_offsets[i]:self.id_offsets[i + 1]].decode("utf-8", "surrogatepass")

    @functools.cached_property
    def window_unit(self) -> np.ndarray:
        """The unit of every window (int32), for mapping window hits back to units."""
        return np.repeat(np.arange(self.units, dtype=np.int32), self.counts)


# -- building ---------------------------------------------------------------------------------


class _Builder:
    """Fills a snapshot's arrays from streamed rows, batch by batch (the float32 matrix
    can run to gigabytes, so it is written where it will live, never held twice)."""

    def __init__(self, units: int, windows: int, dim: int, folder: str | None):
        self.dim = dim
        with_codes = windows >= CODES_MIN_WINDOWS
        self.vectors: np.ndarray
        self.codes: np.ndarray | None
        if folder:
            open_map = np.lib.format.open_memmap
            self.vectors = open_map(os.path.join(folder, "vectors.npy"), "w+", np.float32, (windows, dim))
            self.codes = open_map(os.path.join(folder, "codes.npy"), "w+", np.uint64,
                                  (windows, (dim + 63) // 64)) if with_codes else None
        else:
            self.vectors = np.empty((windows, dim), np.float32)
            self.codes = np.empty((windows, (dim + 63) // 64), np.uint64) if with_codes else None
        self.starts = np.empty(units, np.int64)
        self.counts = np.empty(units, np.int32)
        self.paper = np.empty(units, np.int32)
        self.kind = np.empty(units, np.uint8)
        self.object_kind = np.empty(units, np.uint8)
        self.ids: list[bytes] = []
        self.paper_index: dict[str, int] = {}
        self.unit = self.window = 0

    def add(self, batch: list[Row]) -> None:
        blob = b"".join(r[4] for r in batch)
        block = np.frombuffer(blob, dtype=np.float32).reshape(-1, self.dim).copy()
        norms = np.sqrt(np.einsum("ij,ij->i", block, block))[:, None]
        norms[norms == 0] = 1.0
        block /= norms
        end = self.window + len(block)
        self.vectors[self.window:end] = block
        if self.codes is not None:
            self.codes[self.window:end] = pack_signs(block)
        for collection, unit_id, paper_id, object_kind, vector in batch:
            n = len(vector) // (4 * self.dim)
            i = self.unit
            self.starts[i], self.counts[i] = self.window, n
            self.paper[i] = self.paper_index.setdefault(paper_id, len(self.paper_index))
            self.kind[i] = KIND_CODES[collection]
            self.object_kind[i] = OBJECT_KIND_CODES.get(object_kind, 0)
            self.ids.append(unit_id.encode("utf-8", "surrogatepass"))
            self.unit += 1
            self.window += n

    def snapshot(self, generation: int) -> Snapshot:
        offsets = np.zeros(len(self.ids) + 1, np.int64)
        np.cumsum([len(b) for b in self.ids], out=offsets[1:])
        return Snapshot(generation, self.vectors, self.codes, self.starts, self.counts, self.paper, self.kind,
                        self.object_kind, offsets, b"".join(self.ids), list(self.paper_index), time.monotonic())


def _batches(rows: Iterator[Row], size: int) -> Iterator[list[Row]]:
    batch: list[Row] = []
    for row in rows:
        batch.append(row)
        if len(batch) >= size:
            yield batch
            batch = []
    if batch:
        yield batch


def build(store, space: Space, folder: str | None = None) -> Snapshot:
    """A snapshot of the space as the library holds it now (one read transaction), in memory
    or written into `folder`."""
    with store._vector_rows_snapshot(space.id) as (generation, units, windows, rows):
        builder = _Builder(units, windows, space.dimension, folder)
        for batch in _batches(rows, _BATCH_UNITS):
            builder.add(batch)
        snap = builder.snapshot(generation)
    if folder:
        _save_units(snap, folder)
    return snap


# -- derived files ----------------------------------------------------------------------------


def _save_units(snap: Snapshot, folder: str) -> None:
    np.savez(os.path.join(folder, "units.npz"), starts=snap.starts, counts=snap.counts, paper=snap.paper,
             kind=snap.kind, object_kind=snap.object_kind, id_offsets=snap.id_offsets,
             id_blob=np.frombuffer(snap.id_blob, dtype=np.uint8))
    with open(os.path.join(folder, "papers.json"), "w", encoding="utf-8") as f:
        json.dump({"generation": snap.generation, "paper_ids": snap.paper_ids}, f)
    if isinstance(snap.vectors, np.memmap):
        snap.vectors.flush()
    if isinstance(snap.codes, np.memmap):
        snap.codes.flush()


def _load(folder: str) -> Snapshot:
    with open(os.path.join(folder, "papers.json"), encoding="utf-8") as f:
        meta = json.load(f)
    u = np.load(os.path.join(folder, "units.npz"))
    codes_path = os.path.join(folder, "codes.npy")
    return Snapshot(
        meta["generation"], np.load(os.path.join(folder, "vectors.npy"), mmap_mode="r"),
        np.load(codes_path, mmap_mode="r") if os.path.exists(codes_path) else None,
        u["starts"], u["counts"], u["paper"], u["kind"], u["object_kind"], u["id_offsets"],
        u["id_blob"].tobytes(), meta["paper_ids"], time.monotonic())


def files_root(library_path: str) -> str:
    return library_path + ".vectors"


def _name(library_id: str, space: Space, generation: int) -> str:
    return f"{library_id}-s{space.id}-{space.fingerprint}-g{generation}"


def load_files(library_path: str, library_id: str, space: Space, generation: int) -> Snapshot | None:
    """The derived files of exactly this library, space and generation, if they are there."""
    folder = os.path.join(files_root(library_path), _name(library_id, space, generation))
    try:
        return _load(folder)
    except (OSError, ValueError, KeyError):  # absent, half-deleted or foreign: rebuild from the library
        return None


def build_files(store, library_path: str, library_id: str, space: Space) -> Snapshot:
    """Build the snapshot as derived files (temporary folder renamed into place whole), drop the
    space's older generations, and map the new files."""
    root = files_root(library_path)
    os.makedirs(root, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix=".building-", dir=root)
    try:
        snap = build(store, space, tmp)
        del snap  # close the write maps before the rename
        final = os.path.join(root, _name(library_id, space, _read_generation(tmp)))
        with contextlib.suppress(OSError):
            os.replace(tmp, final)  # another process may have renamed the same generation first
        _drop_older(root, library_id, space, final)
        return _load(final)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _read_generation(folder: str) -> int:
    with open(os.path.join(folder, "papers.json"), encoding="utf-8") as f:
        return int(json.load(f)["generation"])


def _drop_older(root: str, library_id: str, space: Space, keep: str) -> None:
    prefix = f"{library_id}-s{space.id}-"
    for name in os.listdir(root):
        path = os.path.join(root, name)
        if name.startswith(prefix) and path != keep:
            shutil.rmtree(path, ignore_errors=True)
