"""Which file of an `add` wins a tie, whatever order the parses finish in: the earlier in input order.

Papers are written as their parses finish (parsing.py), so a file can be written before an earlier
one that is still parsing (a long scan).  Two kinds of tie went by which was written first: two
different papers that derive the same readable id (the later one gets a letter), and two equally good
files of one work (the paper's id and units come from the first).  So, before a file's paper is
written (`make_way`, told its final Document), every paper this `add` created from a file *later* in
input order that the file may tie with — its readable id or that id with a clash letter, the same
DOI, arXiv id or work (works.matching_paper) — is removed (one transaction) and its files are written
again after this one (`displaced`), in input order: the library is the one input order gives.

Why not hold a finished paper back while an earlier file is parsing: the earlier file's id is not
known before its parse, so every paper behind a long scan would wait for it (scale8.md).  A tie is
rare; it costs a second parse of the displaced files only.  A paper that existed before the `add` is
never displaced (its id is settled)."""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from . import works
from .ingest import derive_paper_id
from .ingest.citekey import suffixes

if TYPE_CHECKING:
    from .document import Document
    from .models import FileResult
    from .parsing import FileJob
    from .store import Store

SUFFIXES = frozenset(suffixes())


def _extends(pid: str, key: str) -> bool:
    """`pid` is `key` or `key` with a clash letter (derive_paper_id's `with_suffix`)."""
    return pid == key or (pid.startswith(key) and pid[len(key):] in SUFFIXES)


class Ties:
    """One `Parser.run`'s papers created so far, by the input position of the file that made each."""

    def __init__(self, store: Store, jobs: list[FileJob]):
        self.store = store
        self.order = {id(j): i for i, j in enumerate(jobs)}
        self.created: dict[str, int] = {}  # paper id -> input position of the file that created it
        self.files: dict[str, list[FileJob]] = {}  # paper id -> this run's files written to it
        self.pending: list[tuple[int, int, FileJob]] = []

    def written(self, job: FileJob, result: FileResult) -> None:
        if result.paper_id is None or result.status not in ("added", "updated") or id(job) not in self.order:
            return
        self.files.setdefault(result.paper_id, []).append(job)
        if result.status == "added" and not result.joined and result.paper_id not in self.created:
            self.created[result.paper_id] = self.order[id(job)]

    def make_way(self, job: FileJob) -> Callable[[Document, str], None]:
        def clear(doc: Document, path: str) -> None:
            at = self.order.get(id(job))
            later = [pid for pid, i in self.created.items() if at is not None and i > at]
            if later:
                self._displace(self._claimed(doc, path, later))
        return clear

    def _claimed(self, doc: Document, path: str, later: list[str]) -> set[str]:
        """Which of the `later` papers the file may tie with, and those whose ids extend theirs."""
        key = derive_paper_id(doc, path)
        new = works.source_of(doc, path, "", 0)
        hit = {pid for pid in later if _extends(pid, key) or self._same_work(new, pid)}
        grown = True
        while grown:
            more = {pid for pid in later if pid not in hit and any(_extends(pid, h) for h in hit)}
            hit |= more
            grown = bool(more)
        return hit

    def _same_work(self, new, pid: str) -> bool:
        sources = [s for s in self.store.sources(pid) if s.path != new.path]
        same = any((new.doi and s.doi == new.doi) or (new.arxiv_id and s.arxiv_id == new.arxiv_id) for s in sources)
        return same or works.matching_paper(new, sources) is not None

    def _displace(self, pids: set[str]) -> None:
        for pid in sorted(pids):
            for job in self.files.pop(pid, []):
                heapq.heappush(self.pending, (self.order[id(job)], id(job), job))
            self.created.pop(pid, None)
            self.store.remove_paper(pid)

    def displaced(self) -> Iterator[FileJob]:
        """The files of displaced papers, earliest in input order first, each once."""
        while self.pending:
            yield heapq.heappop(self.pending)[2]
