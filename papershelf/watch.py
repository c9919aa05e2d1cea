"""`papershelf watch`: keep the library in step with folders as files appear, change and go.

Polling, not OS notifications: it needs no dependency, works the same on every platform and on
network and synced folders (where notifications are unreliable), and a stat of every file once a
second costs little next to parsing a PDF.  A file is acted on only once it has stopped changing
for `debounce` seconds, so a PDF still being downloaded or a Zotero sync in progress is read once,
whole.  Each change goes through the same `Library` calls as `add`, `remove` and `embed`: one
transaction per paper, and embedding stops cleanly on the cancel event (Ctrl-C).

A Zotero data directory is watched through its ``zotero.sqlite`` (and ``-wal``): when Zotero
writes, the directory is added again, and papers whose attachment files are gone are removed.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from . import ingest
from .embed.base import ProviderSpec
from .errors import PapershelfError
from .ingest.zotero import is_zotero_dir
from .library import Library
from .models import FileResult


class _Stopped(Exception):
    """Raised between two files when the watcher is told to stop."""


Signature = tuple  # what a file looked like at a poll: (mtime_ns, size, inode), or per database file for Zotero


@dataclass
class WatchEvent:
    """One thing the watcher did, as one log line (`line`) or one JSON object (`to_dict`)."""

    event: str  # added | updated | removed | failed | bibliography | embedded | error | unavailable | available
    path: str | None = None
    paper_id: str | None = None
    detail: str | None = None  # a failure's reason, "another source", "paper removed", "3 papers" ...

    def line(self) -> str:
        name = os.path.basename(self.path.rstrip(os.sep)) if self.path else ""
        if self.event in ("failed", "error"):
            return f"{self.event} {name}: {self.detail}".replace(" :", ":")
        if self.event in ("unavailable", "available"):
            return f"{self.event} {self.path}: {self.detail}"
        if self.event == "embedded":
            return f"embedded {self.detail}"
        target = f" -> {self.paper_id}" if self.paper_id else ""
        return f"{self.event} {name}{target}" + (f" ({self.detail})" if self.detail else "")

    def to_dict(self) -> dict:
        return {k: v for k, v in self.__dict__.items() if v is not None}


def file_event(result: FileResult) -> WatchEvent | None:
    """The log event for one `add` result; None for a file that did not change."""
    if result.status == "unchanged":
        return None
    if result.status == "failed":
        return WatchEvent("failed", result.path, detail=result.reason)
    if result.status == "metadata":
        return WatchEvent("bibliography", result.path, detail=f"{result.units.get('entries', 0)} entries")
    return WatchEvent(result.status, result.path, result.paper_id, "another source of it" if result.joined else None)


def _lstat(path: str) -> Signature | None:
    try:
        st = os.lstat(path)
    except OSError:
        return None
    return st.st_mtime_ns, st.st_size, st.st_ino, st.st_mode


def _stat(path: str) -> Signature | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_mtime_ns, st.st_size, st.st_ino


class Watcher:
    """Polls `paths` (folders, files, Zotero data directories) and applies settled changes to `lib`.

    `run()` catches up first (adds what is new, removes sources deleted meanwhile, embeds), then
    polls until `stop` is set.  `cancel` (set together with `stop` on Ctrl-C) interrupts an embedding
    build between papers.  Every change is reported to `log` as a `WatchEvent`."""

    def __init__(self, lib: Library, paths: list[str], *, debounce: float = 2.0, embed: bool = True,
                 spec: ProviderSpec | None = None, log: Callable[[WatchEvent], None] = lambda e: None,
                 stop: threading.Event | None = None, cancel: threading.Event | None = None):
        self.lib, self.debounce, self.embed, self.spec, self.log = lib, debounce, embed, spec, log
        self.paths = [os.path.abspath(os.path.expanduser(p)) for p in paths]
        self.zotero = [p for p in self.paths if is_zotero_dir(p)]
        self.folders = [p for p in self.paths if os.path.isdir(p)]  # roots that may go missing as a whole
        self.unavailable: set[str] = set()
        self._empty_holds_files: dict[str, bool] = {}  # an empty root -> whether the library has files there
        self.stop = stop or threading.Event()
        self.caught_up = threading.Event()  # set once the first catch-up (add, prune, embed) is done
        self.cancel = cancel or threading.Event()
        self.interval = max(0.05, min(1.0, debounce / 4))
        self._seen: dict[str, Signature] = {}
        self._settling: dict[str, tuple[Signature | None, float]] = {}  # path -> (latest signature, since)
        self._scan_seconds = 0.0

    # -- what is on disk -------------------------------------------------------------

    def scan(self) -> dict[str, Signature]:
        """Every watched file with its signature; a Zotero directory is one entry (its database).
        A file that cannot be read (a loop, a FIFO, a dangling link) is there with its problem, so it
        gets its one line once; the files of a watched folder that is missing keep their last
        signatures: an unmounted or moved folder is unavailable, not emptied."""
        found: dict[str, Signature] = {}
        self._note_availability()
        for z in self.zotero:
            db = [_stat(os.path.join(z, name)) for name in ("zotero.sqlite", "zotero.sqlite-wal")]
            found[z] = tuple(db)
        plain = [p for p in self.paths if p not in self.zotero and p not in self.unavailable]
        for path, problem in ingest.discover(plain) if plain else []:
            sig = _stat(path) if problem is None else ("unreadable", problem, _lstat(path))
            if sig is not None:
                found[path] = sig
        found.update({path: sig for path, sig in self._seen.items() if self._root_unavailable(path)})
        return found

    def _note_availability(self) -> None:
        """Say once when a watched folder goes missing, and once when it is back."""
        for root in self.folders:
            missing = self._missing(root)
            if missing and root not in self.unavailable:
                self.unavailable.add(root)
                kept = sum(1 for s in self.lib.sources() if self._under(s.path, root))
                self.log(WatchEvent("unavailable", root, detail=f"{missing}; keeping its {kept} files' papers "
                                                                "until it returns"))
            elif not missing and root in self.unavailable:
                self.unavailable.discard(root)
                self.log(WatchEvent("available", root, detail="folder back; catching up"))

    def _missing(self, root: str) -> str | None:
        """Why a watched folder is not there, or None.  An unmounted drive or share often leaves
        its mount point behind as an empty folder: a folder with nothing at all in it, where the
        library holds files, is taken for that (a researcher who empties a folder on purpose
        removes its papers with `remove`), never for "every file deleted"."""
        if not os.path.isdir(root):
            return "folder missing"
        try:
            with os.scandir(root) as entries:
                if next(entries, None) is not None:
                    self._empty_holds_files.pop(root, None)
                    return None
        except OSError:
            return "folder unreadable"
        if root not in self._empty_holds_files:  # asked once while it stays empty, not at every poll
            self._empty_holds_files[root] = any(self._under(s.path, root) for s in self.lib.sources())
        return "folder empty (an unmounted drive?)" if self._empty_holds_files[root] else None

    def _root_unavailable(self, path: str) -> bool:
        return any(self._under(path, root) for root in self.unavailable)

    @staticmethod
    def _under(path: str, root: str) -> bool:
        return path == root or path.startswith(root.rstrip(os.sep) + os.sep)

    def _watched(self, path: str) -> bool:
        """Is a source file under one of the watched folders (or one of the watched files)?"""
        return any(path == p or path.startswith(p.rstrip(os.sep) + os.sep) for p in self.paths)

    # -- the loop ----------------------------------------------------------------------

    def run(self) -> None:
        """Catch up, then poll until `stop` is set; a stop ends between two files, never inside one."""
        try:
            self._seen = self.scan()  # before the catch-up: a file changing meanwhile is seen changing
            self._catch_up()
            self._embed()
            self.caught_up.set()
            while not self.stop.wait(max(self.interval, 4 * self._scan_seconds)):  # polling stays under ~20 % of a core
                if self.poll():
                    self._embed()
        except _Stopped:
            pass

    def _catch_up(self) -> None:
        """What changed while nobody watched: new and changed files, and sources whose file is gone."""
        self._note_availability()
        self._add([p for p in self.paths if p not in self.unavailable])
        gone = [s.path for s in self.lib.sources() if self._watched(s.path) and not os.path.exists(s.path)
                and not self._root_unavailable(s.path)]
        self._emit_all([self._remove(p) for p in gone])

    def poll(self) -> bool:
        """One look at the disk: apply the changes that have settled.  True when something changed."""
        now = time.monotonic()
        current = self.scan()
        self._scan_seconds = time.monotonic() - now
        ready: list[str] = []
        for path in set(current) | set(self._seen) | set(self._settling):
            sig = current.get(path)
            if sig == self._seen.get(path):
                self._settling.pop(path, None)  # unchanged, or changed back
            elif path not in self._settling or self._settling[path][0] != sig:
                self._settling[path] = (sig, now)  # (still) changing: wait until it settles
            elif now - self._settling[path][1] >= self.debounce:
                ready.append(path)
        if not ready:
            return False
        self._apply(sorted(ready))
        for path in ready:
            sig = self._settling.pop(path)[0]
            if sig is None:
                self._seen.pop(path, None)
            else:
                self._seen[path] = sig
        return True

    def _apply(self, paths: list[str]) -> None:
        """Add what exists (bibliographies first, as `add` orders them; an unreadable file gets its
        one line from there), remove what is gone."""
        present = [p for p in paths if os.path.lexists(p) and not self._root_unavailable(p)]
        if present:
            self._add(present)
        gone = [p for p in paths if p not in present and not self._root_unavailable(p) and self.lib.is_source(p)]
        for z in (p for p in present if p in self.zotero):  # items deleted in Zotero take their files along
            if os.path.isfile(os.path.join(z, "zotero.sqlite")):  # a missing database removes nothing
                gone += [s.path for s in self.lib.sources() if s.path.startswith(z + os.sep)
                         and not os.path.exists(s.path)]
        self._emit_all([self._remove(p) for p in gone])

    def _add(self, paths: list[str]) -> None:
        """`Library.add`, logging each file as it is done and stopping between files when asked."""

        def done(result: FileResult) -> None:
            if (event := file_event(result)) is not None:
                self.log(event)
            if self.stop.is_set():
                raise _Stopped

        self.lib.add(paths, progress=done)

    def _remove(self, path: str) -> WatchEvent:
        paper_id, remains = self.lib.remove_source(path)
        return WatchEvent("removed", path, paper_id, "its other sources remain" if remains else "paper removed")

    def _embed(self) -> None:
        """Embed the pending papers; a failing provider is logged and tried again after the next change."""
        if not self.embed or self.stop.is_set():
            return
        try:
            report = self.lib.embed(self.spec, cancel=self.cancel)
        except PapershelfError as e:
            self._emit_all([WatchEvent("error", None, detail=f"embedding: {e}")])
            return
        if report.embedded:
            self._emit_all([WatchEvent("embedded", detail=f"{len(report.embedded)} papers")])
        for paper_id, reason in report.failed.items():
            self._emit_all([WatchEvent("failed", None, paper_id, f"embedding {paper_id}: {reason}")])

    def _emit_all(self, events: list[WatchEvent]) -> None:
        for e in events:
            self.log(e)
