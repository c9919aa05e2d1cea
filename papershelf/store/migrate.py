"""`papershelf migrate SRC DST`: copy a library between backends (SQLite ⇄ PostgreSQL).

Everything goes through the `Store` contract on both sides, so any pair of
backends works.  Papers (with their labels and source files), units and
manifests are copied paper by paper (one transaction each, as `add` writes
them); for every embedding space the vectors
of each paper that is complete in the source are copied with their build state
— nothing is re-embedded, and the copy's pending predicate agrees with the
source's.  A paper pending in the source is copied without vectors and stays
pending, so `embed` on the copy does exactly the work the source still owed.
The destination must be empty: a migration never merges two libraries.  While it runs the
destination carries a `migrate.partial` mark (`verify` reports it: a copy cut short is not a
library that holds what it says); rerunning the same migration starts that copy over.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, field

from ..errors import BadArgument
from ..models import UNIT_KINDS, Space, VectorRow
from . import Store, open_store

COPIED_SETTINGS = ("embed.spec",)
PARTIAL = "migrate.partial"  # set on the destination while a migration runs: the source's location


@dataclass
class MigrateReport:
    source: str
    destination: str
    papers: int = 0
    vectors: dict[int, int] = field(default_factory=dict)  # destination space id -> vector rows copied
    pending: dict[int, int] = field(default_factory=dict)  # destination space id -> papers left pending

    def to_dict(self) -> dict:
        return asdict(self)


def _copy_papers(src: Store, dst: Store, paper_ids: list[str], progress: Callable[[str], None] | None) -> int:
    n = 0
    for paper_id in paper_ids:
        paper, manifest, units = src.paper_snapshot(paper_id)
        if paper is None or manifest is None:  # removed while copying
            continue
        # with its tags, collections, Zotero attachment and reference list
        # every file of the work, and what was applied to each: in the paper's one transaction
        sources = src.sources(paper_id)
        remembered = {s.path: meta for s in sources if (meta := src.remembered_metadata(s.path)) is not None}
        dst.write_paper(paper, units, manifest, src.reference_list(paper_id), sources, remembered)
        n += 1
        if progress:
            progress(paper_id)
    return n


def _paper_vectors(src: Store, space_id: int, paper_id: str) -> list[VectorRow]:
    """A paper's vector rows with their windows, read back from the source."""
    blobs = src.stored_vectors(space_id, paper_id)
    rows = src.vector_rows(space_id, paper_id)
    for r in rows:
        r.vector, r.nbytes = blobs[r.unit_id].vector, None
    return rows


def _copy_vectors(src: Store, dst: Store, space: Space, target: Space, paper_ids: list[str]) -> int:
    """The vectors and build state of each of `paper_ids` that is complete in the source space."""
    pending = {p for p, _ in src.pending(space.id, paper_ids)}
    copied = 0
    for paper_id in paper_ids:
        manifest = src.manifest(paper_id)
        if paper_id in pending or manifest is None:
            continue
        rows = _paper_vectors(src, space.id, paper_id)
        expected = {k.name: sum(r.unit_kind == k.name for r in rows) for k in UNIT_KINDS}
        if dst.write_paper_vectors(target.id, paper_id, rows, dict(manifest.hashes), expected):
            copied += len(rows)
    return copied


def _copy_batch(src: Store, dst: Store, spaces: list[Space], targets: dict[int, Space], paper_ids: list[str],
                report: MigrateReport, progress: Callable[[str], None] | None) -> None:
    """Papers, then their vectors in every space."""
    report.papers += _copy_papers(src, dst, paper_ids, progress)
    for s in spaces:
        target = targets[s.id].id
        report.vectors[target] = report.vectors.get(target, 0) + _copy_vectors(src, dst, s, targets[s.id], paper_ids)


def migrate_stores(src: Store, dst: Store, progress: Callable[[str], None] | None = None) -> MigrateReport:
    """Copy everything from `src` into the empty `dst`.

    A space that is complete in the source is complete in the copy, even when papers were
    added after its build: papers complete in every complete space go first, the spaces are
    marked complete (in the source's order, so search answers from the same space), then the
    papers still owed work follow, pending as they were.
    """
    _start_clean(src, dst)
    dst.set_setting(PARTIAL, src.location)  # until the end: a copy cut short says so, and a rerun starts over
    report = MigrateReport(src.location, dst.location)
    spaces = sorted(src.spaces(), key=lambda s: (s.completed_at is not None, s.completed_at or 0, s.id))
    targets = {s.id: dst.ensure_space(s.fingerprint, s.provider, s.model, s.dimension, s.text_format,
                                      s.policy_version, dict(s.options)) for s in spaces}
    owed = {p for s in spaces if s.complete for p, _ in src.pending(s.id)}
    everything = src.paper_ids()
    _copy_batch(src, dst, spaces, targets, [p for p in everything if p not in owed], report, progress)
    for s in spaces:
        if s.complete:
            dst.mark_complete(targets[s.id].id)
    _copy_batch(src, dst, spaces, targets, [p for p in everything if p in owed], report, progress)
    for s in spaces:
        for failure in src.embed_failures(s.id):
            dst.record_embed_failure(targets[s.id].id, failure.paper_id, failure.reason)
        report.pending[targets[s.id].id] = len(dst.pending(targets[s.id].id))
    _copy_settings(src, dst, {sid: t.id for sid, t in targets.items()})
    dst.set_setting(PARTIAL, "")
    return report


def _start_clean(src: Store, dst: Store) -> None:
    """The destination must be empty — or what a cut-short migration from this same source left,
    which is removed so the rerun copies everything again (a copy never merges two libraries)."""
    if not dst.count_papers():
        return
    if dst.get_setting(PARTIAL) != src.location:
        raise BadArgument(f"{dst.location} already holds papers: migrate into an empty library")
    for paper_id in dst.paper_ids():
        dst.remove_paper(paper_id)


def _copy_settings(src: Store, dst: Store, space_ids: dict[int, int]) -> None:
    for key in COPIED_SETTINGS:
        value = src.get_setting(key)
        if value is not None:
            dst.set_setting(key, value)
    target = src.get_setting("embed.space_id")
    if target is not None and int(target) in space_ids:
        dst.set_setting("embed.space_id", str(space_ids[int(target)]))


def migrate(source: str, destination: str, progress: Callable[[str], None] | None = None) -> MigrateReport:
    """Open both libraries by location (path or URL) and copy `source` into `destination`."""
    if source == destination:
        raise BadArgument("source and destination are the same library")
    src = open_store(source, create=False)
    try:
        dst = open_store(destination, create=True)
        try:
            return migrate_stores(src, dst, progress)
        finally:
            dst.close()
    finally:
        src.close()
