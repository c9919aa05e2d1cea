"""PDFs parsed in worker processes while this one writes papers (`add`, `index`): every core reads.

On by default for an `add` of `AUTO_MIN_PDFS` PDFs or more on two cores or more; `PAPERSHELF_PARSE_WORKERS`
sets the number (`0`: off; docs/reference/configuration.md).  Measured: docs/measurements/pool3.md
and scale5.md.

Why processes, started fresh (spawn), not threads or fork: the PDF reader is Python and pdfium
(not thread-safe), so only processes read two PDFs at once; a fresh interpreter inherits no lock,
no open library and no thread of this one.

How it stays bounded, whatever a file does:

* a file goes to a worker only when that worker is idle (no queue inside a worker), so a slow file
  delays nobody else's and a dead worker takes exactly one file with it;
* each worker has a wall-clock bound per file (`PAPERSHELF_PARSE_TIMEOUT`) and an address-space
  bound (`PAPERSHELF_PARSE_MEMORY_MB`, where the system has RLIMIT_AS); a worker that runs over,
  crashes or is killed is replaced and its file fails with one line saying which;
* the reader's own bounds stay as they are inside the worker (OCR's page size, pixels and its
  per-page Tesseract timeout: pdf/ocr.py);
* every wait is a poll with a timeout, so nothing here waits forever; a worker that cannot even
  start leaves its files to be parsed in this process (`InProcess`);
* Ctrl-C: workers ignore SIGINT (the terminal sends it to the whole group); this process gets it,
  and `close` stops the workers (terminate, then kill) before it propagates; a parent killed
  outright (SIGTERM, SIGKILL) is noticed by each worker within a second, and it exits.

The caller bounds what waits: it submits files ahead (a bounded number) and takes each result as
it finishes (`first_done`, then `result`), so a slow file holds up no other paper's write.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from multiprocessing import get_context
from multiprocessing.connection import Connection, wait
from typing import Any

from ..document import Document
from ..errors import IngestError
from . import SourceFile, parse_source
from .pdf.scan.ocr import OcrSettings
from .pdf.scan.ocr import current as ocr_current
from .pdf.scan.ocr import settings as ocr_settings

POLL = 0.5  # seconds: the longest any wait here lasts before looking at the clock and the workers again
START_TIMEOUT = 60.0  # seconds for a fresh worker to import the reader and say it is ready
STOP_TIMEOUT = 2.0  # seconds a stopping worker is given before it is killed
MAX_FILES_PER_WORKER = 200  # a worker is replaced after this many files: what a reader leaks stays bounded
AUTO_MIN_PDFS = 16  # PDFs in one `add` from which workers are on by default (with two cores or more)


def env_number(name: str, default: float) -> float:
    """A positive number from the environment, else `default` (a bad value is not fatal here)."""
    try:
        value = float(os.environ.get(name, ""))
    except ValueError:
        return default
    return value if value > 0 else default


def cores() -> int:
    """The cores this process may run on."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def configured_workers(pdfs: int = 0) -> int:
    """`PAPERSHELF_PARSE_WORKERS`: a number of workers, `0` for none, `auto` one per core; unset, the
    default: one per core when there are at least two cores and the `add` has at least
    `AUTO_MIN_PDFS` PDFs (`pdfs`), else none.  Why a threshold: a worker costs a fresh interpreter
    importing the reader (1-3 s on a busy machine), which a handful of PDFs does not win back
    (docs/measurements/scale5.md)."""
    raw = os.environ.get("PAPERSHELF_PARSE_WORKERS", "").strip().lower()
    if raw == "auto":
        return cores()
    if not raw:
        return cores() if cores() >= 2 and pdfs >= AUTO_MIN_PDFS else 0
    try:
        return max(0, int(raw))
    except ValueError:
        return 0


def _exit_with_parent() -> None:
    """A worker ends within a second of its parent's end, even mid-file: a parent killed (SIGTERM,
    SIGKILL: no `close`) leaves no worker parsing for nobody."""
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="papershelf-parent-watch", daemon=True).start()


def _serve(conn: Connection, ocr: tuple[str, str | None, int], memory_mb: int) -> None:
    """A worker: parse each file it is handed, answer (ticket, "ok", doc) or (ticket, "failed", reason)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    if memory_mb:
        try:
            import resource

            limit = memory_mb * 2**20
            resource.setrlimit(resource.RLIMIT_AS, (limit, resource.getrlimit(resource.RLIMIT_AS)[1]))
        except (ImportError, ValueError, OSError):
            pass  # no RLIMIT_AS here (macOS, Windows): the wall-clock bound still holds
    ticket = -1
    mode, languages, ocr_workers = ocr

    def progress(done: int, n: int) -> None:
        conn.send((ticket, "ocr", (done, n)))

    _exit_with_parent()
    conn.send((-1, "ready", os.getpid()))
    with ocr_settings(OcrSettings(mode, languages, ocr_workers, progress)):
        while True:
            try:
                job = conn.recv()
            except (EOFError, OSError):
                return  # the parent is gone
            if job is None:
                return
            ticket, path, data, sha256 = job
            try:
                answer: tuple[int, str, Any] = (ticket, "ok", parse_source(SourceFile(path, data, sha256)))
            except IngestError as e:
                answer = (ticket, "failed", str(e))
            except MemoryError:
                answer = (ticket, "failed", f"could not parse: needs more than the {memory_mb} MiB a file may use "
                                            "(PAPERSHELF_PARSE_MEMORY_MB)")
            except Exception as e:  # noqa: BLE001 - one file's failure, reported as its own line
                answer = (ticket, "failed", f"could not parse ({type(e).__name__}: {e})")
            del data, job
            try:
                conn.send(answer)
            except OSError:
                return  # the parent is gone


@dataclass
class _Worker:
    process: Any
    conn: Connection
    started: float
    ready: bool = False
    ticket: int | None = None  # the file it is parsing
    deadline: float = 0.0
    files: int = 0


@dataclass
class _Result:
    doc: Document | None = None
    reason: str | None = None


class InProcess(Exception):
    """The file could not go to a worker (none could start): parse it in this process."""


@dataclass
class ParsePool:
    """Worker processes parsing PDFs; `submit` ahead, `result` in any order the caller wants."""

    workers: int
    timeout: float = field(default_factory=lambda: env_number("PAPERSHELF_PARSE_TIMEOUT", 900.0))
    memory_mb: int = field(default_factory=lambda: int(env_number("PAPERSHELF_PARSE_MEMORY_MB", 4096)))

    def __post_init__(self) -> None:
        self._ctx = get_context("spawn")
        self._queue: deque[tuple[int, SourceFile]] = deque()
        self._done: dict[int, _Result] = {}
        self._sent: dict[int, float] = {}
        self.seconds: dict[int, float] = {}  # a finished file's time in its worker (the `file` event's)
        self._pool: list[_Worker] = []
        self._next = 0
        self._broken: str | None = None  # why no worker could start: files are parsed in this process
        settings = ocr_current()
        ocr_workers = max(1, (settings.workers or os.cpu_count() or 1) // max(1, self.workers))
        self._ocr = (settings.mode, settings.languages, ocr_workers)
        self._ocr_progress = settings.progress

    # -- the caller's side -----------------------------------------------------------------

    def submit(self, src: SourceFile) -> int:
        """Queue a file; its ticket names it to `result`.  Handed to a worker once one is idle."""
        self._next += 1
        self._queue.append((self._next, src))
        self._dispatch()
        return self._next

    def result(self, ticket: int) -> Document:
        """The file's Document, or IngestError with its one-line reason; `InProcess` when no worker
        could start.  Waits in polls of `POLL` seconds; each file's own deadline ends any wait."""
        while ticket not in self._done:
            if self._broken is not None:
                raise InProcess(self._broken)
            self._step()
        got = self._done.pop(ticket)
        if got.doc is None:
            raise IngestError(got.reason or "could not parse")
        return got.doc

    def finished(self, ticket: int) -> bool:
        """Whether the file's parse is over (its `result` will not wait)."""
        return ticket in self._done

    def first_done(self, tickets: list[int]) -> int:
        """The first of `tickets` (in the caller's order) whose file is finished, waiting in polls of
        `POLL` seconds until one is; with no worker able to start, the first (its `result` then
        raises `InProcess`).  Each file's own deadline ends any wait."""
        while True:
            done = next((t for t in tickets if t in self._done), None)
            if done is not None:
                return done
            if self._broken is not None:
                return tickets[0]
            self._step()

    def close(self) -> None:
        """Stop every worker: ask, then terminate, then kill; bounded by `STOP_TIMEOUT` each step."""
        for w in self._pool:
            try:
                w.conn.send(None)
            except (OSError, ValueError):
                pass
        for w in self._pool:
            self._stop(w, gently=True)
        self._pool.clear()

    def __enter__(self) -> ParsePool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the workers ---------------------------------------------------------------------

    def _start(self) -> _Worker:
        mine, theirs = self._ctx.Pipe()
        process = self._ctx.Process(target=_serve, args=(theirs, self._ocr, self.memory_mb),
                                    name="papershelf-parse", daemon=True)
        process.start()
        theirs.close()
        worker = _Worker(process, mine, time.monotonic())
        self._pool.append(worker)
        return worker

    def _stop(self, w: _Worker, gently: bool = False) -> None:
        if gently:
            w.process.join(STOP_TIMEOUT)
        if w.process.is_alive():
            w.process.terminate()
            w.process.join(STOP_TIMEOUT)
        if w.process.is_alive():
            w.process.kill()
            w.process.join(STOP_TIMEOUT)
        w.conn.close()

    def _dispatch(self) -> None:
        """Hand queued files to idle, ready workers; start workers up to `workers`."""
        while self._queue and self._broken is None:
            idle = next((w for w in self._pool if w.ready and w.ticket is None), None)
            if idle is None:
                if len(self._pool) < self.workers:
                    self._start()
                return
            ticket, src = self._queue.popleft()
            try:
                idle.conn.send((ticket, src.path, src.data, src.sha256))
            except (OSError, ValueError):  # it died meanwhile: the file goes back, the worker is replaced
                self._queue.appendleft((ticket, src))
                self._replace(idle, None)
                continue
            idle.ticket, idle.deadline, idle.files = ticket, time.monotonic() + self.timeout, idle.files + 1
            self._sent[ticket] = time.monotonic()

    def _step(self) -> None:
        """One poll: read what the workers sent, then check deadlines and deaths."""
        self._dispatch()
        conns = [w.conn for w in self._pool]
        if not conns:
            time.sleep(0.01)
            return
        # Wake at the nearest deadline too: a file's bound holds even when no worker speaks.
        due = [w.deadline - time.monotonic() for w in self._pool if w.ticket is not None]
        for conn in wait(conns + [w.process.sentinel for w in self._pool], timeout=max(0.0, min([POLL, *due]))):
            worker = next((w for w in self._pool if w.conn is conn), None)
            if worker is not None:
                self._receive(worker)
        now = time.monotonic()
        for w in list(self._pool):
            if w not in self._pool:
                continue
            if w.ticket is not None and now > w.deadline:
                self._replace(w, f"parsing took longer than {self.timeout:.0f} s (stopped; "
                                 "PAPERSHELF_PARSE_TIMEOUT)")
            elif not w.process.is_alive():
                self._receive(w)  # an answer it sent before it died still counts
                if w in self._pool:
                    self._replace(w, f"the PDF reader crashed on this file ({self._exit(w)})")
            elif not w.ready and now > w.started + START_TIMEOUT:
                self._replace(w, None)
        self._dispatch()

    def _receive(self, w: _Worker) -> None:
        try:
            while w.conn.poll():
                ticket, kind, value = w.conn.recv()
                if kind == "ready":
                    w.ready = True
                elif kind == "ocr":
                    if self._ocr_progress is not None:
                        self._ocr_progress(*value)
                else:
                    self._done[ticket] = _Result(value) if kind == "ok" else _Result(reason=value)
                    self.seconds[ticket] = time.monotonic() - self._sent.pop(ticket, time.monotonic())
                    w.ticket = None
                    if w.files >= MAX_FILES_PER_WORKER:
                        self._replace(w, None)
                        return
        except (EOFError, OSError):
            pass  # it died: `_step` sees it and fails its file

    @staticmethod
    def _exit(w: _Worker) -> str:
        code = w.process.exitcode
        if code is not None and code < 0:
            try:
                return f"killed by {signal.Signals(-code).name}"
            except ValueError:
                return f"killed by signal {-code}"
        return f"exit code {code}"

    def _replace(self, w: _Worker, reason: str | None) -> None:
        """Stop a worker; its file (if any) fails with `reason`.  A worker that died before it was
        ever ready means workers cannot start here: the pool gives its files back to the caller."""
        self._pool.remove(w)
        never_ready = not w.ready
        self._stop(w)
        if w.ticket is not None:
            self._done[w.ticket] = _Result(reason=reason or "the PDF reader stopped")
        if never_ready:
            self._broken = f"no parse worker could start ({self._exit(w)})"
