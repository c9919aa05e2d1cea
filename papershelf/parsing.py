"""The files of one `add`, run in input order: parsed here, or PDFs parsed ahead by worker processes.

With parse workers (ingest/parse_pool.py: on by default for a folder of PDFs) files are read, hashed
and handed to the workers ahead of the one being written; papers are still written one at a time, in
the order of the input, each in its one transaction, so a rerun after a crash or Ctrl-C finds exactly
the files before the interruption written.  At most `AHEAD` files per worker and `AHEAD_BYTES` of
their bytes wait parsed or parsing: what waits in memory stays bounded whatever the folder's size.
Why that many: the writer waits for files in order, so while one worker spends minutes on a scan
(OCR), the others go on only as far as the read-ahead lets them (with 2 per worker, a 1,000-paper
build left a core idle through every scan: docs/measurements/scale5.md).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .document import Document
from .ingest import SourceFile, parse_source
from .ingest.metadata import Meta
from .ingest.parse_pool import InProcess, ParsePool, configured_workers
from .models import AddReport, FileResult, SourceRecord

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
    """Runs an `add`'s file jobs in order; owns the parse workers while it is open."""

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

    def _parsed(self, step: _Begun, ticket: int | None) -> Callable[[], Document]:
        """How to get the file's Document: from its worker, else (no worker, or none could start) here."""
        def get() -> Document:
            if ticket is not None and self.pool is not None:
                try:
                    return self.pool.result(ticket)
                except InProcess:
                    pass
            return parse_source(step.src)
        return get

    def run(self, jobs: list[FileJob], report: AddReport, progress: Callable[[FileResult], None] | None) -> None:
        """Each job's result appended to `report` (and told to `progress`) in the order of `jobs`.
        Only PDFs are read ahead (for the workers); any other file is read at its turn, as without
        workers."""
        ahead: deque[tuple[FileJob, FileResult | _Begun | None, int | None]] = deque()
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

        fill()
        while ahead:
            job, step, ticket = ahead.popleft()
            step = step or self._begin(job)
            result = step if isinstance(step, FileResult) else self.importer._finish(step, self._parsed(step, ticket))
            report.files.append(result)
            if progress:
                progress(result)
            fill()
