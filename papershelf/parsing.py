"""The files of one `add`: parsed here, or PDFs parsed ahead by worker processes and written as they finish.

With parse workers (ingest/parse_pool.py: on by default for a folder of PDFs) files are read, hashed
and handed to the workers ahead of the ones being written.  Papers are written one at a time, each
in its one transaction once its parse is done, as they finish: the writer takes the first waiting
PDF, in input order, whose worker is done, and waits only when none is; a file that needs no worker is
written at its turn in input order (PDFs overtake only PDFs).
Why not strictly in input order: the writer then waited on a slow file (a 30-page scan's OCR:
minutes) while the papers behind it sat parsed, and once the read-ahead was full the other core
idled; in a 1,000-paper add that was half the time (docs/measurements/scale7.md, scale8.md).

What stays true: a rerun after a crash or Ctrl-C finds every written paper written and parses exactly
the files that were not; a paper's id and units come from its file, not from when it was written.
A tie (two different papers deriving the same readable id; two equally good files of one work) goes
to the file earlier in input order whatever order the parses finish in (ties.py: a paper written
ahead of an earlier file it ties with is written again after it).  At most `AHEAD` files per worker and `AHEAD_BYTES`
of their bytes wait parsed or parsing: what waits in memory stays bounded whatever the folder's size.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .document import Document
from .ingest import SourceFile, parse_source
from .ingest.metadata import Meta
from .ingest.parse_pool import InProcess, ParsePool, configured_workers
from .models import AddReport, FileResult, SourceRecord
from .ties import Ties

if TYPE_CHECKING:
    from .importer import Importer

AHEAD = 16  # files begun ahead of the one being written, per worker
AHEAD_BYTES = 128 * 2**20  # and at most this many bytes of them (one file more may pass it)


@dataclass
class FileJob:
    """One file `add` is to add: `problem` when discovery already knows it fails."""

    path: str
    problem: str | None = None
    meta: Meta | None = None
    keep_id: str | None = None
    force: bool = False


@dataclass
class _Begun:
    """A file read and hashed that needs parsing, with what its write needs to know."""

    path: str
    src: SourceFile
    meta: Meta | None
    keep_id: str | None
    known: SourceRecord | None


class Parser:
    """Runs an `add`'s file jobs, writing each paper as it is ready; owns the parse workers while open."""

    def __init__(self, importer: Importer, retry_failed: bool, max_bytes: int | None, workers: int | None = None,
                 pdfs: int = 0):
        """`pdfs`: how many PDFs the `add` holds, for the default number of workers."""
        self.importer, self.retry_failed, self.max_bytes = importer, retry_failed, max_bytes
        self.workers = configured_workers(pdfs) if workers is None else workers
        self.pool = ParsePool(self.workers) if self.workers > 0 else None

    def __enter__(self) -> Parser:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.pool is not None:
            self.pool.close()

    def _begin(self, job: FileJob) -> FileResult | _Begun:
        if job.problem:
            return FileResult(job.path, "failed", reason=job.problem)
        return self.importer._begin(job.path, self.retry_failed, self.max_bytes, job.meta, job.keep_id, job.force)

    def _parsed(self, step: _Begun, ticket: int | None, got: list[Document]) -> Callable[[], Document]:
        """How to get the file's Document: from its worker, else (no worker, or none could start) here;
        kept in `got` (its page count is the file event's)."""
        def get() -> Document:
            doc = None
            if ticket is not None and self.pool is not None:
                try:
                    doc = self.pool.result(ticket)
                except InProcess:
                    pass
            got.append(doc if doc is not None else parse_source(step.src))
            return got[-1]
        return get

    def run(self, jobs: list[FileJob], report: AddReport, progress: Callable[[FileResult], None] | None) -> None:
        """Each job's result appended to `report` (and told to `progress`) as its paper is written,
        in the order the papers finish (`_next_ready`).
        Only PDFs are read ahead (for the workers); any other file is read at its turn, as without
        workers."""
        ahead: list[tuple[FileJob, FileResult | _Begun | None, int | None]] = []
        todo = iter(jobs)
        limit = AHEAD * self.workers + 1 if self.pool is not None else 1

        def held() -> int:
            return sum(len(s.src.data) for _, s, _ in ahead if isinstance(s, _Begun) and s.src.data)

        def fill() -> None:
            while len(ahead) < limit and held() < AHEAD_BYTES and (job := next(todo, None)) is not None:
                if self.pool is None or job.problem or not job.path.lower().endswith(".pdf"):
                    ahead.append((job, None, None))
                    continue
                step = self._begin(job)
                ticket = self.pool.submit(step.src) if isinstance(step, _Begun) else None
                ahead.append((job, step, ticket))

        ties = Ties(self.importer.store, jobs)
        fill()
        while ahead:
            job, step, ticket = ahead.pop(self._next_ready(ahead))
            began, got = time.monotonic(), list[Document]()
            step = step or self._begin(job)
            result = step if isinstance(step, FileResult) else \
                self.importer._finish(step, self._parsed(step, ticket, got), ties.make_way(job))
            in_worker = self.pool.seconds.pop(ticket, 0.0) if self.pool is not None and ticket is not None else 0.0
            result.seconds = round(time.monotonic() - began + in_worker, 3)
            if result.status in ("added", "updated") and got:
                result.pages = got[0].pages
            self._record(result, job, ties, report, progress)
            fill()

    def _record(self, result: FileResult, job: FileJob, ties: Ties, report: AddReport,
                progress: Callable[[FileResult], None] | None) -> None:
        """The result reported; then the papers it displaced (`Ties`) written again after it, in input
        order, each replacing its earlier report (and told to `progress` once more)."""
        report.files.append(result)
        if progress:
            progress(result)
        ties.written(job, result)
        for again in ties.displaced():
            began, got = time.monotonic(), list[Document]()
            step = self._begin(again)
            redone = step if isinstance(step, FileResult) else \
                self.importer._finish(step, self._parsed(step, None, got), ties.make_way(again))
            redone.seconds = round(time.monotonic() - began, 3)
            if redone.status in ("added", "updated") and got:
                redone.pages = got[0].pages
            report.files = [f for f in report.files if f.path != redone.path]
            self._record(redone, again, ties, report, progress)

    def _next_ready(self, ahead: list[tuple[FileJob, FileResult | _Begun | None, int | None]]) -> int:
        """Which waiting file to write next: the first PDF whose parse finished, else the first whose
        worker finishes, waiting for it. A file that needs no worker (read here, or known already) is
        written at its turn in input order and no file passes it: PDFs overtake only PDFs, so a
        folder's TEI or S2ORC twins still join the PDFs written before them, as without workers."""
        pool = self.pool
        if pool is None:
            return 0
        tickets = []
        for _, _, ticket in ahead:
            if ticket is None:
                break
            tickets.append(ticket)
        if not tickets:
            return 0
        ready = next((i for i, t in enumerate(tickets) if pool.finished(t)), None)
        return ready if ready is not None else tickets.index(pool.first_done(tickets))
