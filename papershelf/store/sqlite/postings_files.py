"""When the postings file (postings.py) answers a lexical query, and how it is kept.

The file is derived and disposable, as the vector snapshot's files are (snapshot.py): beside the
library (``library.db.lexical/``), named by the library's id, the format and the state key of the
lexical index it was built from (`postings_build.state_key`: a generation SQLite's own triggers move
in the transaction of every change to the indexed rows, and a digest of FTS5's records), written
to a temporary folder and renamed into place whole.  Deleting it loses nothing.

The index never lies: a query reads the state key in the same read transaction as the rows of its
hits, and the file answers only when its key is that key; otherwise FTS5 ranks, as it would without
the file.  So the first searches after a write are FTS5's, while one thread rebuilds the file from
the library in the background (seconds at 10,000 papers: docs/measurements/warm4.md); no rebuild
starts while a build holds the library's write lock (every paper written would stale it again).
Libraries under `MIN_UNITS` units never get a file: FTS5 ranks them in a few milliseconds.
`PAPERSHELF_SQLITE_EXACT_LEXICAL=1` (topk.py) turns the file off with the rare-word split.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import sqlite3
import tempfile
import threading
import time

from . import postings_build, topk
from .postings import FORMAT, Postings, exact_weights, load

MIN_UNITS = 20_000
FILTERED_FIRST = 256  # a filtered query checks this many best rows (at least 4 x limit) before all
_PLAIN = re.compile(r'^"([A-Za-z]+)"$')
_STALE_BUILD_SECONDS = 3600.0  # a temporary folder this old was left by a process that died


def plain_terms(match: str) -> list[str] | None:
    """The index terms of an OR query of plain ASCII words, in its order; None for anything else
    (phrases, prefixes, other scripts: FTS5 ranks those)."""
    words = [_PLAIN.match(c) for c in match.split(" OR ")]
    return [topk.index_term(m.group(1)) for m in words if m] if all(words) else None


class LexicalPostings:
    """One store's postings file: the one open, and at most one thread building the next."""

    def __init__(self, store, background: bool = True):
        self.store = store
        self.background = background  # False: a stale file is rebuilt in the searching thread
        self.current: Postings | None = None
        self._lock = threading.Lock()
        self._builder: threading.Thread | None = None

    def search(self, match: str, limit: int, where: str, params: list,
               weights: tuple[float, ...]) -> list[tuple[str, str, float]] | None:
        """(unit id, paper id, score) of the top `limit`, best first, exactly as FTS5's bm25 ranks
        them; None when FTS5 must rank (the file is absent, stale, or cannot express the query)."""
        terms = plain_terms(match) if topk.enabled() else None
        post = self.current or (self._open() if terms is not None else None)
        lists = post.lists(terms) if post is not None and terms is not None else None
        if post is None or lists is None or not exact_weights(weights, post.max_count):
            return None
        store = self.store
        with store._lock:
            own = not store.db.in_transaction
            if own:
                store.db.execute("BEGIN")
            try:
                key = postings_build.state_key(store.db)
                if key == post.key:
                    return _hits(store.db, post, lists, weights, limit, where, params)
            finally:
                if own:
                    store.db.execute("COMMIT")
        self._refresh(key)
        return None

    # -- files ------------------------------------------------------------------------------------

    def _folder(self, key: str) -> str | None:
        path = getattr(self.store, "path", None)
        if not path or self.store.read_only:
            return None
        try:
            library_id = self.store.library_id()
        except Exception:  # noqa: BLE001 - a library that cannot say its id gets no derived files
            return None
        return os.path.join(path + ".lexical", f"{library_id}-f{FORMAT}-{key}")

    def _open(self) -> Postings | None:
        if self.store.index_size() < MIN_UNITS:
            return None
        with self.store._lock:
            key = postings_build.state_key(self.store.db)
        return self._refresh(key)

    def _refresh(self, key: str) -> Postings | None:
        """The file of state `key` if one is on disk (this or another process built it); else a
        build is started (FTS5 ranks meanwhile)."""
        folder = self._folder(key)
        if folder is None:
            return None
        try:
            post = load(folder)
            if post.key == key:
                self.current = post
                return post
        except (OSError, ValueError, KeyError):
            pass  # absent, half-deleted or foreign: built again from the library
        self._start_build()
        return None

    def _start_build(self) -> None:
        with self._lock:
            if self._builder is not None and self._builder.is_alive():
                return
            if self.store.lock_holder() is not None:
                return  # papers are being written: each would stale the file again
            if not self.background:
                self.build()
                return
            self._builder = threading.Thread(target=self.build, name="papershelf-postings", daemon=True)
            self._builder.start()

    def prepare(self) -> bool:
        """The file of the library as it is now, built here and now when missing or stale (at the end
        of `add`: a one-shot search exits before a background build would finish, so without this the
        CLI never had a file).  True when a file was built; False when one was in place already or the
        library gets none (small, read-only, the file turned off)."""
        if not topk.enabled() or self.store.index_size() < MIN_UNITS:
            return False
        with self.store._lock:
            key = postings_build.state_key(self.store.db)
        folder = self._folder(key)
        if folder is None:
            return False
        with contextlib.suppress(OSError, ValueError, KeyError):
            if load(folder).key == key:
                return False
        self.wait()  # a background build of an older state first: never two builds at once
        return self.build() is not None

    def wait(self) -> None:
        """Until the build running now (if any) is done: for tests and benchmarks."""
        builder = self._builder
        if builder is not None:
            builder.join()

    def build(self) -> Postings | None:
        """Build the file of the library as it is now, put it in place, drop older ones, open it.
        A failure (full disk, a library closed under it) leaves FTS5 ranking."""
        root = self.store.path + ".lexical"
        try:
            os.makedirs(root, exist_ok=True)
            tmp = tempfile.mkdtemp(prefix=".building-", dir=root)
        except OSError:
            return None
        try:
            key = postings_build.build(self.store.path, tmp)
            _sync(tmp)
            final = self._folder(key)
            if final is None:
                return None
            with contextlib.suppress(OSError):
                os.replace(tmp, final)  # another process may have put the same state in place first
            _drop_older(root, final)
            self.current = _load_or_replace(final, tmp)
            return self.current
        except (OSError, ValueError, KeyError, sqlite3.Error):
            return None
        finally:
            shutil.rmtree(tmp, ignore_errors=True)


def _sync(folder: str) -> None:
    """On disk before the rename: a crash must leave no complete-looking folder holding empty files."""
    for name in os.listdir(folder):
        fd = os.open(os.path.join(folder, name), os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _load_or_replace(final: str, tmp: str) -> Postings:
    """The file in place, or, when what is there cannot be read (a crash or a full disk cut it
    short), the one just built instead."""
    try:
        return load(final)
    except (OSError, ValueError, KeyError):
        shutil.rmtree(final, ignore_errors=True)
        os.replace(tmp, final)
        return load(final)


def _drop_older(root: str, keep: str) -> None:
    """Every other state's file (an open one stays readable through its maps), and temporary
    folders that a process dying mid-build left behind."""
    now = time.time()
    for name in os.listdir(root):
        path = os.path.join(root, name)
        if path == keep:
            continue
        if name.startswith(".building-"):
            with contextlib.suppress(OSError):
                if now - os.path.getmtime(path) < _STALE_BUILD_SECONDS:
                    continue
        shutil.rmtree(path, ignore_errors=True)


def _hits(db: sqlite3.Connection, post: Postings, lists: list[tuple[int, int]], weights: tuple[float, ...],
          limit: int, where: str, params: list) -> list[tuple[str, str, float]] | None:
    """The top `limit` rows that pass the filters, read in the caller's transaction.  A filtered
    query checks its best rows first and all of them only when those do not fill the list."""
    first = max(4 * limit, FILTERED_FIRST) if where else limit
    rowids, scores = post.top(lists, weights, first)
    found = _rows(db, rowids, where, params)
    if where and len(found) < limit and len(rowids) == first:
        rowids, scores = post.top(lists, weights, post.units)
        found = _rows(db, rowids, where, params)
    if not where and len(found) < len(rowids):
        return None  # a row of the file is not in the library: never answer from it
    hits = [(*found[r], s) for r, s in zip(rowids.tolist(), scores.tolist()) if r in found]
    return hits[:limit]


def _rows(db: sqlite3.Connection, rowids, where: str, params: list) -> dict[int, tuple[str, str]]:
    if not len(rowids):
        return {}
    rows = db.execute("SELECT d.rowid, d.unit_id, d.paper_id FROM search_docs d "
                      f"WHERE d.rowid IN (SELECT value FROM json_each(?)){where}",
                      [json.dumps(rowids.tolist()), *params]).fetchall()
    return {r[0]: (r[1], r[2]) for r in rows}
