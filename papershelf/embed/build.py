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
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from queue import Empty, SimpleQueue
from typing import Any

import numpy as np

from ..errors import NotFound, PapershelfError, ProviderCancelled, ProviderDown
from ..models import (
    UNIT_KINDS,
    BuildEvent,
    BuildReport,
    EncodedEvent,
    PaperEvent,
    Space,
    StartEvent,
    VectorRow,
    unit_kind,
)
from ..units import RETRIEVAL_POLICY_VERSION, TEXT_FORMAT, embedding_parts
from .base import ProviderSpec, fingerprint
from .config import SPACE_SETTING
from .eta import Eta, unit_windows
from .provider import Provider, validate
from .windows import NEW_WINDOW_FORMAT, token_counter, windows

Vectors = list[np.ndarray]  # one (windows, dim) array per unit encoded
CANCEL_GRACE = 1.0  # seconds a cancelled build waits for papers already being encoded
TAKEOVER_POLL = 0.1  # seconds between looks at the claims of a live builder on this host
TAKEOVER_WAIT = 30.0  # at most this long for it (it claims only the papers it is encoding)


def _bind(provider: Provider, cancel: threading.Event) -> Provider:
    """Let a provider abandon its requests on cancel (an HTTP call to a hung server)."""
    provider.bind_cancel(cancel)
    return provider


@dataclass
class _Job:
    """One paper's pending work: its rows, and the texts still to encode for them."""

    paper_id: str
    hashes: dict[str, str]  # manifest hash per kind, what the vectors are built from
    expected: dict[str, int]  # vectors per kind a complete build holds
    rows: list[VectorRow]  # one per indexable unit; vector filled by reuse or encoding
    texts: list[tuple[str, str]]  # (head, body) of each unit still to encode, kind by kind
    slots: list[int]  # rows[i] each text fills
    planned: float = 0.0  # the texts' windows planned from their token estimates (embed/eta.py)
    reused: float = 0.0  # ... and the reused units' planned windows
    cut: bool = False  # its texts were cut into windows (counted once, even when encoded again alone)


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
        planned = unit_windows(u.token_estimate, space.window_tokens, space.window_format)
        if old is not None and old.unit_hash == u.content_hash and old.vector and len(old.vector) % nbytes == 0:
            row.vector = old.vector
            job.reused += planned
        else:
            job.planned += planned
            todo.setdefault(kind.name, []).append((len(job.rows), embedding_parts(u, paper.title)))
        job.rows.append(row)
    for kind in UNIT_KINDS:  # payload by payload (body, objects, fulltext)
        for slot, text in todo.get(kind.name, []):
            job.slots.append(slot)
            job.texts.append(text)
    return job


class _Encoder:
    """Turns units' (head, body) texts into window vectors with a thread's own provider."""

    def __init__(self, factory: Callable[[], Provider], probe: Provider, dimension: int, batch_size: int,
                 window: int | None, cancel: threading.Event, window_format: int = 1):
        self.factory, self.dimension, self.batch_size, self.window = factory, dimension, batch_size, window
        self.window_format = window_format  # embed/windows.py WINDOW_FORMATS: the space's own
        self.cancel = cancel
        self._spare = [probe]  # the probe serves the first worker; every other worker gets its own instance
        self._local = threading.local()
        self._lock = threading.Lock()
        # Told (windows, units finished) after each provider call: progress moves from the first
        # batch, not only when a whole paper is written.
        self.on_batch: Callable[[int, int], None] = lambda windows, units: None
        # Told (planned windows, windows counted) when jobs' units are cut, before their first batch.
        self.on_cut: Callable[[float, int], None] = lambda planned, windows: None

    def provider(self):
        p = getattr(self._local, "provider", None)
        if p is None:
            with self._lock:
                p = self._spare.pop() if self._spare else _bind(self.factory(), self.cancel)
            self._local.provider = p
        return p

    def _windows(self, parts: list[tuple[str, str]]) -> tuple[list[str], list[int]]:
        """Each unit's text cut into the windows the model reads whole (embed/windows.py): all the
        windows, and how many each unit has."""
        count = token_counter(self.provider())
        texts: list[str] = []
        sizes: list[int] = []
        for head, body in parts:
            w = windows(head, body, self.window, count, self.window_format)
            texts += w
            sizes.append(len(w))
        return texts, sizes

    def _encode(self, texts: list[str], ends: np.ndarray, ready: Callable[[np.ndarray, int], None]) -> None:
        """Encode in batches into one array; after each batch, `ready(array, windows encoded so far)`.
        `ends` are the units' last-window offsets, to count the units each batch finishes."""
        p = self.provider()
        out = np.empty((len(texts), self.dimension), dtype=np.float32)
        for i in range(0, len(texts), self.batch_size):
            batch = texts[i:i + self.batch_size]
            out[i:i + len(batch)] = validate(p.encode(batch), len(batch), self.dimension)
            self.on_batch(len(batch), int(np.count_nonzero((ends > i) & (ends <= i + len(batch)))))
            ready(out, i + len(batch))

    def jobs(self, jobs: list[_Job], deliver: Callable[[_Job, Vectors | BaseException], None]) -> None:
        """Encode the jobs' units in shared batches (one (windows, dim) array per unit); each job is
        delivered as soon as its last window is encoded, not when the whole group is."""
        texts, sizes = self._windows([t for job in jobs for t in job.texts])
        ends = np.cumsum(sizes)
        unit_bounds = np.cumsum([0] + [len(job.texts) for job in jobs])
        window_bounds = [int(ends[b - 1]) if b else 0 for b in unit_bounds]
        new = [i for i, job in enumerate(jobs) if not job.cut]
        self.on_cut(sum(jobs[i].planned for i in new), sum(window_bounds[i + 1] - window_bounds[i] for i in new))
        for i in new:
            jobs[i].cut = True
        delivered = 0

        def ready(out: np.ndarray, done: int) -> None:
            nonlocal delivered
            while delivered < len(jobs) and window_bounds[delivered + 1] <= done:
                a, b = window_bounds[delivered], window_bounds[delivered + 1]
                cuts = ends[unit_bounds[delivered]:unit_bounds[delivered + 1] - 1] - a
                deliver(jobs[delivered], np.split(out[a:b], cuts))
                delivered += 1

        self._encode(texts, ends, ready)

    def group(self, group: list[_Job], deliver: Callable[[_Job, Vectors | BaseException], None]) -> None:
        """Encode a group of small papers in shared batches, each delivered once encoded; if a shared
        batch fails, each paper not yet delivered is encoded on its own so one bad paper cannot fail
        its neighbours (a paper's failure is delivered as its result)."""
        delivered: list[_Job] = []

        def take(job: _Job, result: Vectors | BaseException) -> None:
            delivered.append(job)
            deliver(job, result)

        if len(group) > 1:
            try:
                self.jobs(group, take)
                return
            except Exception:  # noqa: BLE001 - isolate the failing paper below
                pass
        for job in group[len(delivered):]:
            try:
                self.jobs([job], deliver)
            except Exception as e:  # noqa: BLE001 - reported per paper
                deliver(job, e)


class _Build:
    """One run of the pipeline over the selected papers of one space."""

    def __init__(self, store, space: Space, encoder: _Encoder, report: BuildReport, force: bool,
                 cancel: threading.Event, emit: Callable[[BuildEvent], None]):
        self.store, self.space, self.encoder, self.report = store, space, encoder, report
        self.force, self.cancel, self.emit = force, cancel, emit
        self.started = time.perf_counter()
        self.eta = Eta(0)  # its units_total: the selected papers' indexable units (set by `build`)
        self.deferred: set[str] = set()  # papers another builder held when this one came to them
        # Papers whose every payload is encoded, from the encoding threads: written by this thread.
        self.ready: SimpleQueue[tuple[_Job, Vectors | BaseException]] = SimpleQueue()

    def progress(self) -> PaperEvent:
        """Units and windows done so far, the rate, and the time left (embed/eta.py)."""
        elapsed = time.perf_counter() - self.started
        done = min(self.eta.units_done, self.eta.units_total)
        rate = done / elapsed if elapsed > 0 and done else None
        left = self.eta.seconds_left()
        return {"units_done": done, "units_total": self.eta.units_total, "windows_done": self.eta.windows_done,
                "windows_left": round(self.eta.windows_left(), 1),
                "units_per_second": round(rate, 2) if rate else None,
                "eta_seconds": round(left, 1) if left is not None else None}

    def encoded(self, windows: int, units: int) -> None:
        """One provider call done (an encoding thread): progress moves between papers."""
        self.eta.encoded(windows, units)
        self._progressed(windows, units)

    def cut(self, planned: float, windows: int) -> None:
        """Units cut into windows (an encoding thread, before their first call): the windows left are
        known better now, so progress is told (an `encoded` event of no windows) before the call."""
        self.eta.cut(planned, windows)
        self._progressed(0, 0)

    def _progressed(self, windows: int, units: int) -> None:
        p = self.progress()
        self.emit(EncodedEvent(event="encoded", windows=windows, units=units, units_done=p["units_done"],
                               units_total=p["units_total"], windows_done=p["windows_done"],
                               windows_left=p["windows_left"],
                               eta_seconds=p["eta_seconds"]))

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
        self.eta.skipped(len(job.rows) - len(job.texts))  # the encoded ones were counted as encoded
        event: PaperEvent = {"event": "paper", "paper_id": job.paper_id, "status": "embedded", "units": len(job.texts),
                             "windows": n_windows, "reused": len(job.rows) - len(job.texts)}
        event.update(self.progress())
        self.emit(event)

    def fail(self, job: _Job, error: BaseException) -> None:
        reason = str(error) if isinstance(error, PapershelfError) else f"{type(error).__name__}: {error}"
        self.report.failed[job.paper_id] = reason
        self.store.record_embed_failure(self.space.id, job.paper_id, reason)
        self.eta.skipped(len(job.rows))
        self.eta.dropped(0.0 if job.cut else job.planned)
        event: PaperEvent = {"event": "paper", "paper_id": job.paper_id, "status": "failed", "reason": reason,
                             "units": len(job.texts)}
        event.update(self.progress())
        self.emit(event)

    def stop_untried(self, queue: list[str], reason: str) -> None:
        """The provider is down: every paper not yet tried stays pending, with the reason."""
        self.report.provider_down = reason
        while queue:
            pid = queue.pop()
            self.report.failed[pid] = f"not tried, still pending: {reason}"
            self.store.record_embed_failure(self.space.id, pid, self.report.failed[pid])

    def next_group(self, queue: list[str]) -> list[_Job]:
        """Prepare papers until their texts fill a batch (one paper may be larger)."""
        group: list[_Job] = []
        n = 0
        while queue and n < self.encoder.batch_size and not self.cancel.is_set():
            paper_id = queue.pop()
            if not self.store.claim(self.space.id, paper_id, self.force):
                self.deferred.add(paper_id)  # another builder has it, or finished it meanwhile
                continue
            job = _prepare(self.store, self.space, paper_id, self.force)
            if job is None:
                continue
            self.eta.dropped(job.reused)
            if not job.texts:  # everything reused, or nothing left to embed
                self.write(job, [])
                continue
            group.append(job)
            n += len(job.texts)
        return group

    def settle(self, job: _Job, result: Vectors | BaseException, queue: list[str]) -> None:
        """Write an encoded paper in its one transaction, or record why it failed."""
        if isinstance(result, ProviderDown) and self.report.provider_down is None:
            self.stop_untried(queue, str(result))
        if isinstance(result, ProviderCancelled):
            return  # abandoned on Ctrl-C: stays pending, not a failure
        if isinstance(result, BaseException):
            self.fail(job, result)
        else:
            self.write(job, result)

    def drain(self, queue: list[str], timeout: float = 0.0) -> None:
        """Settle every paper encoded so far, waiting up to `timeout` for the first one."""
        try:
            item = self.ready.get(timeout=timeout) if timeout else self.ready.get_nowait()
            while True:
                self.settle(*item, queue)
                item = self.ready.get_nowait()
        except Empty:
            return

    def collect(self, in_flight: dict[Future, list[_Job]], queue: list[str], timeout: float) -> None:
        """Write the papers encoded meanwhile, then forget the groups that are done (their papers were
        all delivered before they finished: the second drain writes the last of them)."""
        self.drain(queue, timeout)
        for fut in [f for f in in_flight if f.done()]:
            in_flight.pop(fut)
            fut.result()  # a group delivers its papers' failures; raising here is a bug to show
        self.drain(queue)

    def taken_over(self) -> list[str]:
        """Once its own queue is done: the papers other builders held that are still pending and
        free now (their builder died: on this host at once, elsewhere when the lease ran out).
        While another live builder process on this host still holds some, wait for it to finish
        or die, up to `TAKEOVER_WAIT` seconds; a builder elsewhere keeps its papers (its lease decides)."""
        give_up = time.monotonic() + TAKEOVER_WAIT
        while self.deferred and not self.cancel.is_set() and time.monotonic() < give_up:
            still = sorted(p for p, _ in self.store.pending(self.space.id, sorted(self.deferred)))
            held = self.store.live_claims(self.space.id, still)
            free = [p for p in still if p not in held]
            self.deferred = {p for p, here in held.items() if here}
            if free:
                return list(reversed(free))
            if self.deferred:
                self.cancel.wait(TAKEOVER_POLL)
        return []

    def _deliver(self, job: _Job, result: Vectors | BaseException) -> None:
        self.ready.put((job, result))

    def run(self, selected: list[str], workers: int, max_in_flight: int) -> None:
        queue = list(reversed(selected))
        in_flight: dict[Future, list[_Job]] = {}
        # Not `with`: leaving must never wait for a worker stuck in a provider call.
        pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="papershelf-embed")
        give_up_at: float | None = None
        self.eta.start()
        try:
            while queue or in_flight or (queue := self.taken_over()):
                while queue and len(in_flight) < max_in_flight and not self.cancel.is_set():
                    group = self.next_group(queue)
                    if group:
                        in_flight[pool.submit(self.encoder.group, group, self._deliver)] = group
                if self.cancel.is_set():
                    self.report.cancelled = self.report.cancelled or bool(queue)
                    queue.clear()
                    give_up_at = give_up_at or time.monotonic() + CANCEL_GRACE
                    if time.monotonic() > give_up_at:  # papers still encoding stay pending
                        self.report.cancelled = self.report.cancelled or bool(in_flight)
                        break
                if in_flight:
                    self.collect(in_flight, queue, 0.1 if self.cancel.is_set() else 0.25)
            self.drain(queue)  # cancelled: what was encoded before the grace ran out is written too
        finally:
            pool.shutdown(wait=False, cancel_futures=True)


def _known_dimension(store, name: str, model: str, options: dict) -> int | None:
    """The dimension of an existing space for this provider, model and options: a rerun
    needs no probe call (a no-op rerun makes no provider call at all)."""
    wanted = (name, model, TEXT_FORMAT, RETRIEVAL_POLICY_VERSION, options)
    for s in reversed(store.spaces()):
        if (s.provider, s.model, s.text_format, s.policy_version, s.options) == wanted:
            return s.dimension
    return None


def _window_format(store, name: str, model: str, options: dict, asked: object) -> int:
    """The window format of the space: as the spec asks, else the format of this library's latest
    space that differs from it in nothing else (a library keeps its windows: format 1 for a space
    made before formats existed), else the format for a new space (NEW_WINDOW_FORMAT)."""
    if asked is not None:
        return int(str(asked))
    for s in reversed(store.spaces()):
        rest = {k: v for k, v in s.options.items() if k != "window_format"}
        if (s.provider, s.model, s.text_format, s.policy_version, rest) == (
                name, model, TEXT_FORMAT, RETRIEVAL_POLICY_VERSION, options):
            return s.window_format
    return NEW_WINDOW_FORMAT


def space_options(store, spec: ProviderSpec, probe: Provider) -> dict:
    """The options of the space a build of `spec` fills: windowing (size and format) changes the
    vectors, so it is part of the space (and its fingerprint).  Format 1 is left out, so a space made
    before formats existed keeps its fingerprint."""
    options = dict(spec.options)
    options.pop("window_tokens", None)
    asked = options.pop("window_format", None)
    window = probe.window_tokens
    if window:
        options["window_tokens"] = int(window)
        fmt = _window_format(store, probe.name, probe.model, options, asked)
        if fmt != 1:
            options["window_format"] = fmt
    return options


def _space_for(store, spec: ProviderSpec, probe: Provider) -> Space:
    """The space the probe's vectors belong to (its options: `space_options`)."""
    options = space_options(store, spec, probe)
    dimension = _known_dimension(store, probe.name, probe.model, options) or int(probe.dimension)
    fp = fingerprint(probe.name, probe.model, dimension, options)
    return store.ensure_space(fp, probe.name, probe.model, dimension, TEXT_FORMAT, RETRIEVAL_POLICY_VERSION, options)


def _planned(store, paper_ids: list[str], window: int | None, window_format: int) -> tuple[int, float]:
    """How many units the selected papers hold and the windows they are planned to be cut into (from
    their token estimates): the totals the progress and its ETA count toward (embed/eta.py)."""
    tokens = [t for ts in store.unit_tokens(paper_ids).values() for t in ts]
    return len(tokens), float(sum(unit_windows(t, window, window_format) for t in tokens))


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
          on_event: Callable[[BuildEvent], None] | None = None, provider_factory: Callable[[], Provider] | None = None,
          max_in_flight: int | None = None, batch_size: int | None = None) -> BuildReport:
    """Embed every pending paper (or `paper_ids`, or everything with `force`) into the spec's space."""
    t0 = time.perf_counter()
    emit = on_event or (lambda e: None)
    factory = provider_factory or spec.create
    cancel = cancel or threading.Event()
    workers = max(1, int(workers))
    store.acquire_lock()
    try:
        probe = _bind(factory(), cancel)
        space = _space_for(store, spec, probe)
        # From now on status and `pending` describe this space, even mid-build.
        store.set_setting(SPACE_SETTING, str(space.id))
        report = BuildReport(space)
        selected, report.skipped = _select(store, space, paper_ids, force)
        report.selected = len(selected)
        units, windows = _planned(store, selected, space.window_tokens, space.window_format)
        start: StartEvent = {"event": "start", "space_id": space.id, "provider": space.provider,
                             "model": space.model, "dimension": space.dimension, "papers": len(selected),
                             "units": units, "windows": round(windows), "skipped": report.skipped, "workers": workers}
        emit(start)
        # Texts per provider call: asked for, else what the provider prefers (a local model
        # sorts a call's texts by length, so big calls pad less; an HTTP API has a request cap).
        settings: dict[str, Any] = dict(spec.settings)
        batch = max(1, int(batch_size or settings.get("batch_size") or probe.preferred_batch))
        encoder = _Encoder(factory, probe, space.dimension, batch, space.window_tokens, cancel, space.window_format)
        run = _Build(store, space, encoder, report, force, cancel, emit)
        run.eta.plan(units, windows)
        encoder.on_batch, encoder.on_cut = run.encoded, run.cut
        run.run(selected, workers, max_in_flight or workers * 2)
        report.pending_after = len(store.pending(space.id))
        report.complete = report.pending_after == 0 and store.mark_complete(space.id)
        report.space = store.get_space(space.id) or space
        report.seconds = time.perf_counter() - t0
        emit({"event": "done", **report.to_dict()})
        return report
    finally:
        store.release_lock()
