"""A space's vectors laid out for search, built from the library file.

One normalized float32 row per window (a long unit has several, consecutive;
see embed/windows.py), per-unit arrays (first window, window count, paper,
kind, object kind) and the unit ids packed in one byte string, decoded only
for the hits a search returns.  Large spaces also get compact codes of each
unit's mean window (normalized): sign bits (`ann/binary.py`, 48 bytes) and
int8 (`ann/scalar.py`, 384 bytes), so a search scans 14 MB for 300k units
and reads the float32 windows only of the few hundred units it re-scores —
with `os.preadv`, not through the memory map, so they do not stay resident.

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
import weakref
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from ...models import UNIT_KINDS, Space
from .ann import clusters as ann_clusters
from .ann.binary import pack_signs
from .ann.scalar import quantize

OBJECT_KIND_CODES = {None: 0, "figure": 1, "table": 2}
KIND_CODES = {k.collection: n for n, k in enumerate(UNIT_KINDS)}
# Spaces with at least this many windows get sign codes and a shortlist search.
CODES_MIN_WINDOWS = 200_000
# Spaces with at least this many windows are kept as derived files for the next process.
FILES_MIN_WINDOWS = 20_000
_BATCH_UNITS = 4096
CLUSTERS_FILE = "clusters.npz"
# Bump when the derived files' layout changes: older ones are then ignored and dropped.
FILES_FORMAT = 2

# One vector row as the store streams it: collection, unit id, paper id, object kind, float32 blob.
Row = tuple[str, str, str, "str | None", bytes]


@dataclass(repr=False)
class Snapshot:
    generation: int
    vectors: np.ndarray  # (windows, dim) float32, unit length; a read-only memory map for derived files
    codes: np.ndarray | None  # large spaces: (dim/64, units) uint64 sign bits of unit means, column-major
    starts: np.ndarray  # int64 per unit: its first window
    counts: np.ndarray  # int32 per unit: its windows
    paper: np.ndarray  # int32 per unit: index into paper_ids
    kind: np.ndarray  # uint8 per unit: index into UNIT_KINDS
    object_kind: np.ndarray  # uint8 per unit: OBJECT_KIND_CODES
    id_offsets: np.ndarray  # int64, units + 1: where each unit id starts in id_blob
    id_blob: bytes
    paper_ids: list[str]
    loaded_at: float = 0.0
    means8: np.ndarray | None = None  # large spaces: (units, dim) int8 unit means
    mean_scale: np.ndarray | None = None  # float32 per unit: means8 row * scale ≈ mean
    fd: int | None = None  # open on the vectors file of derived files, for preadv
    clusters: ann_clusters.Clusters | None = None  # large spaces: unit means in k-means clusters

    @property
    def units(self) -> int:
        return len(self.starts)

    def unit_id(self, i: int) -> str:
        return self.id_blob[self.id_offsets[i]:self.id_offsets[i + 1]].decode("utf-8", "surrogatepass")

    @functools.cached_property
    def window_unit(self) -> np.ndarray:
        """The unit of every window (int32), for mapping window hits back to units."""
        return np.repeat(np.arange(self.units, dtype=np.int32), self.counts)

    def windows_of(self, units: np.ndarray) -> np.ndarray:
        """The float32 windows of `units`, in that order, concatenated.  From derived files they
        are read with preadv, so only the compact codes stay resident, not the 2+ GB matrix."""
        counts, starts = self.counts[units], self.starts[units]
        if self.fd is None or not isinstance(self.vectors, np.memmap):
            rows = np.concatenate([np.arange(s, s + c) for s, c in zip(starts, counts)] or [np.zeros(0, np.int64)])
            return np.asarray(self.vectors[rows], dtype=np.float32).reshape(-1, self.vectors.shape[1])
        dim = self.vectors.shape[1]
        out = np.empty((int(counts.sum()), dim), np.float32)
        row_bytes, base, at = 4 * dim, self.vectors.offset, 0
        for s, c in _runs(starts, counts):
            os.preadv(self.fd, [out[at:at + c].data], base + s * row_bytes)
            at += c
        return out


def _runs(starts: np.ndarray, counts: np.ndarray) -> list[tuple[int, int]]:
    """(first window, windows) of each run of units whose windows lie end to end in the file, so one
    read fetches a run: the units a search re-scores may be neighbours (a paper's units are close in
    meaning and consecutive in the file; in the synthetic 10k library only 28 of 300 are), and each
    read is a system call."""
    if not len(starts):
        return []
    ends = starts + counts
    breaks = np.flatnonzero(starts[1:] != ends[:-1]) + 1
    first = np.concatenate([[0], breaks])
    last = np.concatenate([breaks, [len(starts)]]) - 1
    return list(zip(starts[first].tolist(), (ends[last] - starts[first]).tolist()))


# -- building ---------------------------------------------------------------------------------


class _Builder:
    """Fills a snapshot's arrays from streamed rows, batch by batch (the float32 matrix
    can run to gigabytes, so it is written where it will live, never held twice)."""

    def __init__(self, units: int, windows: int, dim: int, folder: str | None):
        self.dim = dim
        with_codes = windows >= CODES_MIN_WINDOWS
        self.vectors: np.ndarray
        if folder:
            open_map = np.lib.format.open_memmap
            self.vectors = open_map(os.path.join(folder, "vectors.npy"), "w+", np.float32, (windows, dim))
        else:
            self.vectors = np.empty((windows, dim), np.float32)
        self.codes = np.empty(((dim + 63) // 64, units), np.uint64) if with_codes else None
        self.means8 = np.empty((units, dim), np.int8) if with_codes else None
        self.mean_scale = np.empty(units, np.float32) if with_codes else None
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
            self._add_means(block, [len(r[4]) // (4 * self.dim) for r in batch])
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

    def _add_means(self, block: np.ndarray, counts: list[int]) -> None:
        """Compact codes of each unit's normalized mean window (the batch holds whole units)."""
        assert self.codes is not None and self.means8 is not None and self.mean_scale is not None
        starts = np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.int64)
        means = np.add.reduceat(block, starts, axis=0)
        norms = np.linalg.norm(means, axis=1, keepdims=True)
        means /= np.where(norms == 0, 1.0, norms)
        end = self.unit + len(counts)
        self.codes[:, self.unit:end] = pack_signs(means).T
        self.means8[self.unit:end], self.mean_scale[self.unit:end] = quantize(means)

    def snapshot(self, generation: int) -> Snapshot:
        offsets = np.zeros(len(self.ids) + 1, np.int64)
        np.cumsum([len(b) for b in self.ids], out=offsets[1:])
        return Snapshot(generation, self.vectors, self.codes, self.starts, self.counts, self.paper, self.kind,
                        self.object_kind, offsets, b"".join(self.ids), list(self.paper_index), time.monotonic(),
                        self.means8, self.mean_scale)


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
        # Clusters only for derived files (k-means: ~9 s of CPU at 300k units), which are built once
        # per generation; an in-memory snapshot (a read-only folder, or one rebuilt every few seconds
        # while a build writes) shortlists by sign codes instead.
        if snap.means8 is not None and snap.mean_scale is not None:
            snap.clusters = ann_clusters.build(snap.means8, snap.mean_scale)
        _save_units(snap, folder)
    return snap


# -- derived files ----------------------------------------------------------------------------


def _save_units(snap: Snapshot, folder: str) -> None:
    np.savez(os.path.join(folder, "units.npz"), starts=snap.starts, counts=snap.counts, paper=snap.paper,
             kind=snap.kind, object_kind=snap.object_kind, id_offsets=snap.id_offsets,
             id_blob=np.frombuffer(snap.id_blob, dtype=np.uint8))
    if snap.codes is not None and snap.means8 is not None and snap.mean_scale is not None:
        np.save(os.path.join(folder, "codes.npy"), snap.codes)
        np.save(os.path.join(folder, "means8.npy"), snap.means8)
        np.save(os.path.join(folder, "mean_scale.npy"), snap.mean_scale)
    if snap.clusters is not None:
        ann_clusters.save(snap.clusters, os.path.join(folder, CLUSTERS_FILE))
    with open(os.path.join(folder, "papers.json"), "w", encoding="utf-8") as f:
        json.dump({"generation": snap.generation, "paper_ids": snap.paper_ids}, f)
    if isinstance(snap.vectors, np.memmap):
        snap.vectors.flush()


def _load(folder: str) -> Snapshot:
    with open(os.path.join(folder, "papers.json"), encoding="utf-8") as f:
        meta = json.load(f)
    u = np.load(os.path.join(folder, "units.npz"))
    coded = os.path.exists(os.path.join(folder, "codes.npy"))

    def compact(name: str) -> np.ndarray | None:
        return np.load(os.path.join(folder, name), mmap_mode="r") if coded else None

    vectors = np.load(os.path.join(folder, "vectors.npy"), mmap_mode="r")
    snap = Snapshot(
        meta["generation"], vectors, compact("codes.npy"), u["starts"], u["counts"], u["paper"], u["kind"],
        u["object_kind"], u["id_offsets"], u["id_blob"].tobytes(), meta["paper_ids"], time.monotonic(),
        compact("means8.npy"), compact("mean_scale.npy"))
    if coded:
        snap.clusters = _clusters(folder, snap)
        # held open, so a newer process dropping this generation cannot pull the file away mid-search
        snap.fd = os.open(os.path.join(folder, "vectors.npy"), os.O_RDONLY)
        weakref.finalize(snap, os.close, snap.fd)
    return snap


def _clusters(folder: str, snap: Snapshot) -> ann_clusters.Clusters | None:
    """The folder's clusters; files written before clusters existed (same format otherwise) get
    them built now and added, so they need not be rebuilt from the library."""
    path = os.path.join(folder, CLUSTERS_FILE)
    found = ann_clusters.load(path, snap.units)
    if found is not None or snap.means8 is None or snap.mean_scale is None:
        return found
    built = ann_clusters.build(snap.means8, snap.mean_scale)
    with contextlib.suppress(OSError):  # a read-only folder: kept in memory only
        ann_clusters.save(built, path)
    return built


def files_root(library_path: str) -> str:
    return library_path + ".vectors"


def _name(library_id: str, space: Space, generation: int) -> str:
    return f"{library_id}-s{space.id}-{space.fingerprint}-f{FILES_FORMAT}-g{generation}"


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
