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
from dataclasses import dataclass, field

import numpy as np

from ..errors import NotFound, PapershelfError, ProviderCancelled, ProviderDown
from ..units import COLLECTION_OF_KIND, RETRIEVAL_POLICY_VERSION, TEXT_FORMAT, Unit, embedding_parts
from .base import ProviderSpec, fingerprint, space_options, validate
from .windows import token_counter, windows

_HASH_KEY = {"body": "body_hash", "objects": "objects_hash", "fulltext": "fulltext_hash"}


@dataclass
class BuildReport:
    space: dict
    selected: int = 0
    embedded: list[str] = field(default_factory=list)
    failed: dict[str, str] = field(default_factory=dict)
    skipped: int = 0  # papers already complete in this space
    chunks: int = 0  # units encoded
    windows: int = 0  # texts sent to the provider (a long unit is several windows)
    reused: int = 0  # vectors kept because their unit did not change
    seconds: float = 0.0
    cancelled: bool = False
    provider_down: str | None = None  # why the build stopped taking papers, if the provider went down
    pending_after: int = 0
    complete: bool = False

    def to_dict(self) -> dict:
        return {"space": {k: self.space[k] for k in ("id", "provider", "model", "dimension", "fingerprint")},
                "selected": self.selected, "embedded": len(self.embedded), "failed": self.failed,
                "skipped": self.skipped, "chunks": self.chunks, "windows": self.windows, "reused": self.reused,
                "seconds": round(self.seconds, 3), "cancelled": self.cancelled, "provider_down": self.provider_down,
                "pending_after": self.pending_after, "complete": self.complete,
                "chunks_per_second": round(self.chunks / self.seconds, 1) if self.seconds else None}


@dataclass
class _Job:
    paper_id: str
    hashes: dict
    expected: dict
    rows: list[dict]  # one per indexable unit; "vector" filled by reuse or encoding
    texts: list[tuple[str, str]]  # (head, body) of each unit still to encode
    slots: list[int]  # rows[i] each text fills
    payloads: list[tuple[str, int, int]]  # (collection, start, end) into texts


def _prepare(store, space: dict, paper_id: str, force: bool) -> _Job | None:
    paper, manifest, units = store.paper_snapshot(paper_id)
    if paper is None or manifest is None:
        return None
    hashes = {"body": manifest["body_hash"], "objects": manifest["objects_hash"],
              "fulltext": manifest["fulltext_hash"]}
    stored = {} if force else store.stored_vectors(space["id"], paper_id)
    nbytes = space["dimension"] * 4
    rows: list[dict] = []
    by_collection: dict[str, list[tuple[int, str]]] = {}
    expected = {"body": 0, "objects": 0, "fulltext": 0}
    live: list[Unit] = [u for u in units if u.indexable]
    for u in live:
        collection = COLLECTION_OF_KIND[u.kind]
        expected[collection] += 1
        row = {"collection": collection, "unit_id": u.id, "unit_kind": u.kind, "section_path": u.section_path,
               "object_kind": u.object_kind, "object_label": u.object_label, "unit_hash": u.content_hash,
               "kind_hash": hashes[collection], "policy_version": RETRIEVAL_POLICY_VERSION,
               "token_estimate": u.token_estimate, "vector": None}
        old = stored.get(u.id)
        if old is not None and old[0] == u.content_hash and old[1] and len(old[1]) % nbytes == 0:
            row["vector"] = old[1]
        else:
            by_collection.setdefault(collection, []).append((len(rows), embedding_parts(u, paper["title"])))
        rows.append(row)
    texts, slots, payloads = [], [], []
    for collection in ("body", "objects", "fulltext"):
        items = by_collection.get(collection, [])
        if items:
            payloads.append((collection, len(texts), len(texts) + len(items)))
            slots += [i for i, _ in items]
            texts += [t for _, t in items]
    return _Job(paper_id, hashes, expected, rows, texts, slots, payloads)


CANCEL_GRACE = 1.0  # seconds a cancelled build waits for papers already being encoded


def _bind(provider, cancel: threading.Event):
    """Let a provider abandon its requests on cancel (an HTTP call to a hung server)."""
    if hasattr(provider, "bind_cancel"):
        provider.bind_cancel(cancel)
    return provider


def _known_dimension(store, name: str, model: str, options: dict) -> int | None:
    """The dimension of an existing space for this provider, model and options: a rerun
    needs no probe call (a no-op rerun makes no provider call at all)."""
    for s in reversed(store.spaces()):
        if (s["provider"], s["model"], s["text_format"], s["policy_version"]) == \
                (name, model, TEXT_FORMAT, RETRIEVAL_POLICY_VERSION) and space_options(s) == options:
            return int(s["dimension"])
    return None


def build(store, spec: ProviderSpec, *, workers: int = 1, force: bool = False,
          paper_ids: list[str] | None = None, cancel: threading.Event | None = None,
          on_event: Callable[[dict], None] | None = None, provider_factory: Callable[[], object] | None = None,
          max_in_flight: int | None = None, batch_size: int | None = None) -> BuildReport:
    """Embed every pending paper (or `paper_ids`, or everything with `force`) into the spec's space."""
    t0 = time.perf_counter()
    emit = on_event or (lambda e: None)
    cancel = cancel or threading.Event()
    factory = provider_factory or spec.create
    workers = max(1, int(workers))
    store.acquire_lock()
    try:
        probe = _bind(factory(), cancel)
        # Texts per provider call: asked for, else what the provider prefers (a local model
        # sorts a call's texts by length, so big calls pad less; an HTTP API has a request cap).
        batch_size = max(1, int(batch_size or dict(spec.settings).get("batch_size")
                                or getattr(probe, "preferred_batch", 64)))
        options = dict(spec.options)
        # Windowing changes the vectors, so it is part of the space (and its fingerprint).
        window = getattr(probe, "window_tokens", None)
        options.pop("window_tokens", None)
        if window:
            options["window_tokens"] = int(window)
        dimension = _known_dimension(store, probe.name, probe.model, options) or int(probe.dimension)
        fp = fingerprint(probe.name, probe.model, dimension, options)
        space = store.ensure_space(fp, probe.name, probe.model, dimension, TEXT_FORMAT,
                                   RETRIEVAL_POLICY_VERSION, options)
        # From now on status and `pending` describe this space, even mid-build.
        store.set_setting("embed.space_id", str(space["id"]))
        report = BuildReport(space)
        if paper_ids:
            known = set(store.get_papers(paper_ids))
            missing = [p for p in paper_ids if p not in known]
            if missing:
                raise NotFound(f"no paper with id {', '.join(missing)}")
        candidates = paper_ids or store.manifest_paper_ids()
        selected = candidates if force else [p for p, _ in store.pending(space["id"], paper_ids)]
        total_papers = len(candidates)
        report.selected = len(selected)
        report.skipped = max(0, total_papers - len(selected))
        emit({"event": "start", "space_id": space["id"], "provider": space["provider"], "model": space["model"],
              "dimension": dimension, "papers": len(selected), "skipped": report.skipped, "workers": workers})

        local = threading.local()
        providers_made = [probe]
        lock = threading.Lock()

        def provider():
            p = getattr(local, "provider", None)
            if p is None:
                with lock:
                    # The probe serves the first worker; every other worker gets its own instance.
                    p = providers_made.pop() if providers_made else _bind(factory(), cancel)
                local.provider = p
            return p

        def encode_texts(p, texts: list[str]) -> np.ndarray:
            parts = []
            for i in range(0, len(texts), batch_size):
                chunk = texts[i:i + batch_size]
                parts.append(validate(p.encode(chunk), len(chunk), dimension))
            return np.vstack(parts)

        def encode_units(p, parts: list[tuple[str, str]]) -> list[np.ndarray]:
            """One (windows, dim) array per unit: each unit's text cut into the windows
            the model reads whole (embed/windows.py), all windows encoded in shared batches."""
            count = token_counter(p)
            texts: list[str] = []
            sizes: list[int] = []
            for head, body in parts:
                w = windows(head, body, window, count)
                texts += w
                sizes.append(len(w))
            return np.split(encode_texts(p, texts), np.cumsum(sizes)[:-1])

        def encode_paper(p, job: _Job) -> list[np.ndarray]:
            # Payload by payload (body, objects, fulltext): a failure names no half-result.
            return [v for _, start, end in job.payloads for v in encode_units(p, job.texts[start:end])]

        def encode_alone(p, job: _Job) -> list[np.ndarray] | BaseException:
            try:
                return encode_paper(p, job)
            except Exception as e:  # noqa: BLE001 - reported per paper
                return e

        def encode(group: list[_Job]) -> list[list[np.ndarray] | BaseException]:
            """Encode a group of small papers in shared batches (a model is far faster on
            full batches); if a shared batch fails, each paper is encoded on its own so one
            bad paper cannot fail its neighbours."""
            p = provider()
            if len(group) > 1:
                try:
                    allv = encode_units(p, [t for job in group for t in job.texts])
                except Exception:  # noqa: BLE001 - isolate the failing paper below
                    pass
                else:
                    bounds = np.cumsum([0] + [len(job.texts) for job in group])
                    return [allv[a:b] for a, b in zip(bounds, bounds[1:])]
            return [encode_alone(p, job) for job in group]

        def write(job: _Job, vectors: list[np.ndarray]) -> None:
            # A unit's vector blob holds its windows' vectors back to back.
            for slot, vec in zip(job.slots, vectors):
                job.rows[slot]["vector"] = np.ascontiguousarray(vec, dtype=np.float32).tobytes()
            if store.write_paper_vectors(space["id"], job.paper_id, job.rows, job.hashes, job.expected):
                report.embedded.append(job.paper_id)
                report.chunks += len(job.texts)
                report.windows += sum(len(v) for v in vectors)
                report.reused += len(job.rows) - len(job.texts)
            emit({"event": "paper", "paper_id": job.paper_id, "status": "embedded", "chunks": len(job.texts),
                  "windows": sum(len(v) for v in vectors), "reused": len(job.rows) - len(job.texts)})

        def fail(job: _Job, error: BaseException) -> None:
            reason = str(error) if isinstance(error, PapershelfError) else f"{type(error).__name__}: {error}"
            report.failed[job.paper_id] = reason
            store.record_embed_failure(space["id"], job.paper_id, reason)
            emit({"event": "paper", "paper_id": job.paper_id, "status": "failed", "reason": reason,
                  "chunks": len(job.texts)})

        def stop_untried(reason: str) -> None:
            """The provider is down: every paper not yet tried stays pending, with the reason."""
            report.provider_down = reason
            while queue:
                pid = queue.pop()
                report.failed[pid] = f"not tried, still pending: {reason}"
                store.record_embed_failure(space["id"], pid, report.failed[pid])

        def next_group() -> list[_Job]:
            """Prepare papers until their texts fill a batch (one paper may be larger)."""
            group: list[_Job] = []
            n = 0
            while queue and n < batch_size and not cancel.is_set():
                job = _prepare(store, space, queue.pop(), force)
                if job is None:
                    continue
                if not job.texts:  # everything reused, or nothing left to embed
                    write(job, [])
                    continue
                group.append(job)
                n += len(job.texts)
            return group

        limit = max_in_flight or workers * 2
        queue = list(reversed(selected))
        in_flight: dict[Future, list[_Job]] = {}
        # Not `with`: leaving the block must never wait for a worker stuck in a provider call.
        pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="papershelf-embed")
        give_up_at = None
        try:
            while queue or in_flight:
                while queue and len(in_flight) < limit and not cancel.is_set():
                    group = next_group()
                    if group:
                        in_flight[pool.submit(encode, group)] = group
                if cancel.is_set():
                    report.cancelled = report.cancelled or bool(queue)
                    queue.clear()
                    give_up_at = give_up_at or time.monotonic() + CANCEL_GRACE
                    if time.monotonic() > give_up_at:  # papers still encoding stay pending
                        report.cancelled = report.cancelled or bool(in_flight)
                        break
                if not in_flight:
                    continue
                done, _ = wait(list(in_flight), timeout=0.1 if cancel.is_set() else 0.25,
                               return_when=FIRST_COMPLETED)
                for fut in done:
                    group = in_flight.pop(fut)
                    for job, result in zip(group, fut.result()):
                        if isinstance(result, ProviderDown) and report.provider_down is None:
                            stop_untried(str(result))
                        if isinstance(result, ProviderCancelled):
                            continue  # abandoned on Ctrl-C: stays pending, not a failure
                        if isinstance(result, BaseException):
                            fail(job, result)
                        else:
                            write(job, result)
        finally:
            pool.shutdown(wait=False, cancel_futures=True)
        report.pending_after = len(store.pending(space["id"]))
        report.complete = report.pending_after == 0 and store.mark_complete(space["id"])
        report.space = store.get_space(space["id"])
        report.seconds = time.perf_counter() - t0
        emit({"event": "done", **report.to_dict()})
        return report
    finally:
        store.release_lock()
