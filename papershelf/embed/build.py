"""The embedding build: exactly the pending work, in parallel, one transaction per paper.

    prepare (main thread)  ->  encode (thread pool)  ->  write (main thread)

* Prepare reads one paper's snapshot, builds each unit's embedding text and
  reuses any stored vector whose unit hash is unchanged, so a changed caption
  costs one encoded text, not a paper.
* Encode runs in a pool with one provider instance per worker thread and a
  bounded number of groups in flight; small papers share a batch (a group
  fills one provider batch), since models are much faster on full batches.
  All of a paper's payloads (body, objects, fulltext) must encode before
  anything of it is written.
* Write replaces the paper's vectors in all collections and its build state
  in one transaction.  A paper whose encoding failed keeps its old vectors,
  is recorded as failed and stays pending for the next run.

Cancellation (Ctrl-C, SIGTERM, or the `cancel` event) stops taking papers,
writes the ones already encoded and returns; nothing is half-written.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass

import numpy as np

from ..errors import NotFound, PapershelfError
from ..models import UNIT_KINDS, BuildReport, Space, VectorRow, unit_kind
from ..units import RETRIEVAL_POLICY_VERSION, TEXT_FORMAT, embedding_parts
from .base import ProviderSpec, fingerprint, validate
from .windows import token_counter, windows

Event = dict
Vectors = list[np.ndarray]  # one (windows, dim) array per unit encoded


@dataclass
class _Job:
    """One paper's pending work: its rows, and the texts still to encode for them."""

    paper_id: str
    hashes: dict[str, str]  # manifest hash per kind, what the vectors are built from
    expected: dict[str, int]  # vectors per kind a complete build holds
    rows: list[VectorRow]  # one per indexable unit; vector filled by reuse or encoding
    texts: list[tuple[str, str]]  # (head, body) of each unit still to encode, kind by kind
    slots: list[int]  # rows[i] each text fills


def _prepare(store, space: Space, paper_id: str, force: bool) -> _Job | None:
    paper, manifest, units = store.paper_snapshot(paper_id)
    if paper is None or manifest is None:
        return None
    stored = {} if force else store.stored_vectors(space.id, paper_id)
    nbytes = space.dimension * 4
    job = _Job(paper_id, dict(manifest.hashes), {k.name: 0 for k in UNIT_KINDS}, [], [], [])
    todo: dict[str, list[tuple[int, tuple[str, str]]]] = {}
    for u in (u for u in units if u.indexable):
        kind = unit_kind(u.kind)
        job.expected[kind.name] += 1
        row = VectorRow(kind.collection, u.id, u.kind, u.content_hash, manifest.hashes[kind.name],
                        RETRIEVAL_POLICY_VERSION, u.token_estimate, u.section_path, u.object_kind, u.object_label)
        old = stored.get(u.id)
        if old is not None and old[0] == u.content_hash and old[1] and len(old[1]) % nbytes == 0:
            row.vector = old[1]
        else:
            todo.setdefault(kind.name, []).append((len(job.rows), embedding_parts(u, paper.title)))
        job.rows.append(row)
    for kind in UNIT_KINDS:  # payload by payload (body, objects, fulltext)
        for slot, text in todo.get(kind.name, []):
            job.slots.append(slot)
            job.texts.append(text)
    return job


class _Encoder:
    """Turns units' (head, body) texts into window vectors with a thread's own provider."""

    def __init__(self, factory: Callable[[], object], probe, dimension: int, batch_size: int, window: int | None):
        self.factory, self.dimension, self.batch_size, self.window = factory, dimension, batch_size, window
        self._spare = [probe]  # the probe serves the first worker; every other worker gets its own instance
        self._local = threading.local()
        self._lock = threading.Lock()

    def provider(self):
        p = getattr(self._local, "provider", None)
        if p is None:
            with self._lock:
                p = self._spare.pop() if self._spare else self.factory()
            self._local.provider = p
        return p

    def _encode_texts(self, texts: list[str]) -> np.ndarray:
        p = self.provider()
        parts = [validate(p.encode(texts[i:i + self.batch_size]), len(texts[i:i + self.batch_size]), self.dimension)
                 for i in range(0, len(texts), self.batch_size)]
        return np.vstack(parts)

    def units(self, parts: list[tuple[str, str]]) -> Vectors:
        """One (windows, dim) array per unit: each unit's text cut into the windows the
        model reads whole (embed/windows.py), all windows encoded in shared batches."""
        count = token_counter(self.provider())
        texts: list[str] = []
        sizes: list[int] = []
        for head, body in parts:
            w = windows(head, body, self.window, count)
            texts += w
            sizes.append(len(w))
        return np.split(self._encode_texts(texts), np.cumsum(sizes)[:-1])

    def group(self, group: list[_Job]) -> list[Vectors | BaseException]:
        """Encode a group of small papers in shared batches; if a shared batch fails, each
        paper is encoded on its own so one bad paper cannot fail its neighbours."""
        if len(group) > 1:
            try:
                allv = self.units([t for job in group for t in job.texts])
            except Exception:  # noqa: BLE001 - isolate the failing paper below
                pass
            else:
                bounds = np.cumsum([0] + [len(job.texts) for job in group])
                return [allv[a:b] for a, b in zip(bounds, bounds[1:])]
        return [self._alone(job) for job in group]

    def _alone(self, job: _Job) -> Vectors | BaseException:
        try:
            return self.units(job.texts)
        except Exception as e:  # noqa: BLE001 - reported per paper
            return e


class _Build:
    """One run of the pipeline over the selected papers of one space."""

    def __init__(self, store, space: Space, encoder: _Encoder, report: BuildReport, force: bool,
                 cancel: threading.Event, emit: Callable[[Event], None]):
        self.store, self.space, self.encoder, self.report = store, space, encoder, report
        self.force, self.cancel, self.emit = force, cancel, emit

    def write(self, job: _Job, vectors: Vectors) -> None:
        # A unit's vector blob holds its windows' vectors back to back.
        for slot, vec in zip(job.slots, vectors):
            job.rows[slot].vector = np.ascontiguousarray(vec, dtype=np.float32).tobytes()
        n_windows = sum(len(v) for v in vectors)
        if self.store.write_paper_vectors(self.space.id, job.paper_id, job.rows, job.hashes, job.expected):
            self.report.embedded.append(job.paper_id)
            self.report.units += len(job.texts)
            self.report.windows += n_windows
            self.report.reused += len(job.rows) - len(job.texts)
        self.emit({"event": "paper", "paper_id": job.paper_id, "status": "embedded", "units": len(job.texts),
                   "windows": n_windows, "reused": len(job.rows) - len(job.texts)})

    def fail(self, job: _Job, error: BaseException) -> None:
        reason = str(error) if isinstance(error, PapershelfError) else f"{type(error).__name__}: {error}"
        self.report.failed[job.paper_id] = reason
        self.store.record_embed_failure(self.space.id, job.paper_id, reason)
        self.emit({"event": "paper", "paper_id": job.paper_id, "status": "failed", "reason": reason,
                   "units": len(job.texts)})

    def next_group(self, queue: list[str]) -> list[_Job]:
        """Prepare papers until their texts fill a batch (one paper may be larger)."""
        group: list[_Job] = []
        n = 0
        while queue and n < self.encoder.batch_size and not self.cancel.is_set():
            paper_id = queue.pop()
            if not self.store.claim(self.space.id, paper_id, self.force):
                continue  # another builder has it, or finished it meanwhile
            job = _prepare(self.store, self.space, paper_id, self.force)
            if job is None:
                continue
            if not job.texts:  # everything reused, or nothing left to embed
                self.write(job, [])
                continue
            group.append(job)
            n += len(job.texts)
        return group

    def collect(self, done: set[Future], in_flight: dict[Future, list[_Job]]) -> None:
        for fut in done:
            group = in_flight.pop(fut)
            for job, result in zip(group, fut.result()):
                if isinstance(result, BaseException):
                    self.fail(job, result)
                else:
                    self.write(job, result)

    def run(self, selected: list[str], workers: int, max_in_flight: int) -> None:
        queue = list(reversed(selected))
        in_flight: dict[Future, list[_Job]] = {}
        with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="papershelf-embed") as pool:
            while queue or in_flight:
                while queue and len(in_flight) < max_in_flight and not self.cancel.is_set():
                    group = self.next_group(queue)
                    if group:
                        in_flight[pool.submit(self.encoder.group, group)] = group
                if self.cancel.is_set() and queue:
                    self.report.cancelled = True
                    queue.clear()
                if in_flight:
                    done, _ = wait(list(in_flight), timeout=0.25, return_when=FIRST_COMPLETED)
                    self.collect(done, in_flight)


def _space_for(store, spec: ProviderSpec, probe) -> Space:
    """The space the probe's vectors belong to; windowing changes the vectors, so it is
    part of the space (and its fingerprint)."""
    dimension = int(probe.dimension)
    options = dict(spec.options)
    options.pop("window_tokens", None)
    window = getattr(probe, "window_tokens", None)
    if window:
        options["window_tokens"] = int(window)
    fp = fingerprint(probe.name, probe.model, dimension, options)
    return store.ensure_space(fp, probe.name, probe.model, dimension, TEXT_FORMAT, RETRIEVAL_POLICY_VERSION, options)


def _select(store, space: Space, paper_ids: list[str] | None, force: bool) -> tuple[list[str], int]:
    """(papers to build, papers already complete) — the pending predicate decides, unless forced."""
    if paper_ids:
        known = set(store.get_papers(paper_ids))
        missing = [p for p in paper_ids if p not in known]
        if missing:
            raise NotFound(f"no paper with id {', '.join(missing)}")
    candidates = paper_ids or store.manifest_paper_ids()
    selected = candidates if force else [p for p, _ in store.pending(space.id, paper_ids)]
    return selected, max(0, len(candidates) - len(selected))


def build(store, spec: ProviderSpec, *, workers: int = 1, force: bool = False,
          paper_ids: list[str] | None = None, cancel: threading.Event | None = None,
          on_event: Callable[[Event], None] | None = None, provider_factory: Callable[[], object] | None = None,
          max_in_flight: int | None = None, batch_size: int | None = None) -> BuildReport:
    """Embed every pending paper (or `paper_ids`, or everything with `force`) into the spec's space."""
    t0 = time.perf_counter()
    emit = on_event or (lambda e: None)
    factory = provider_factory or spec.create
    workers = max(1, int(workers))
    store.acquire_lock()
    try:
        probe = factory()
        space = _space_for(store, spec, probe)
        # From now on status and `pending` describe this space, even mid-build.
        store.set_setting("embed.space_id", str(space.id))
        report = BuildReport(space)
        selected, report.skipped = _select(store, space, paper_ids, force)
        report.selected = len(selected)
        emit({"event": "start", "space_id": space.id, "provider": space.provider, "model": space.model,
              "dimension": space.dimension, "papers": len(selected), "skipped": report.skipped, "workers": workers})
        # Texts per provider call: asked for, else what the provider prefers (a local model
        # sorts a call's texts by length, so big calls pad less; an HTTP API has a request cap).
        batch = max(1, int(batch_size or dict(spec.settings).get("batch_size")
                           or getattr(probe, "preferred_batch", 64)))
        encoder = _Encoder(factory, probe, space.dimension, batch, space.window_tokens)
        _Build(store, space, encoder, report, force, cancel or threading.Event(), emit).run(
            selected, workers, max_in_flight or workers * 2)
        report.pending_after = len(store.pending(space.id))
        report.complete = report.pending_after == 0 and store.mark_complete(space.id)
        report.space = store.get_space(space.id) or space
        report.seconds = time.perf_counter() - t0
        emit({"event": "done", **report.to_dict()})
        return report
    finally:
        store.release_lock()
