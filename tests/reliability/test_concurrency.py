"""Concurrency suite: readers in other processes while the library is being written.

* During a build (`embed` with an HTTP provider with latency, several workers):
  searches and `status` from several processes, all the time, never fail.
* During a re-embed into a new space with a concurrent `add` of new papers: the same.
* Throughout, a watcher reading the file on its own connection never sees half a
  paper: each paper has either no vectors in a space or all of them, and its
  index rows always match its manifest.

Short (CI): one round of each.  ``PAPERSHELF_SUITE=full``: more papers, more readers.
Run: ``python -m pytest tests/reliability/test_concurrency.py``.
"""

from __future__ import annotations

import json
import threading
import time

from papershelf import Library

from ..backends import sqlite_half_papers
from ..providers import EmbeddingServer
from .common import cli, openai_args, scale, start, write_papers

READERS = scale(1, 6)


class Readers:
    """Searches and status from other processes, plus the half-paper watcher, until stopped."""

    def __init__(self, db):
        self.db, self.runs, self.errors, self.halves = db, 0, [], []
        self.stop = threading.Event()
        self.threads = [threading.Thread(target=self._search, args=(i,)) for i in range(READERS)]
        self.threads.append(threading.Thread(target=self._watch))

    def _search(self, i: int) -> None:
        queries = ["topic3 signal", "measurement7", "Figure 1 rises", "counts"]
        while not self.stop.is_set():
            args = ["status", "--json"] if i == 0 and self.runs % 3 == 0 else \
                ["search", queries[self.runs % len(queries)], "--json"]
            try:
                p = cli(self.db, *args, timeout=60)
                json.loads(p.stdout)
                self.runs += 1
            except Exception as e:  # noqa: BLE001 - collected, asserted below
                self.errors.append(f"{args}: {e}")

    def _watch(self) -> None:
        while not self.stop.is_set():
            self.halves += sqlite_half_papers(self.db)
            time.sleep(0.05)

    def __enter__(self):
        for t in self.threads:
            t.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        for t in self.threads:
            t.join(timeout=90)


def test_readers_during_a_build_and_a_reembed_with_a_concurrent_add(tmp_path):
    db = tmp_path / "lib.db"
    write_papers(tmp_path / "papers", scale(6, 60))
    cli(db, "add", str(tmp_path / "papers"))
    with EmbeddingServer(dimension=64, delay=0.03) as server:
        with Readers(db) as readers:
            cli(db, "embed", *openai_args(server.url, "--batch-size", "2", "--workers", "3"))
        assert not readers.errors and not readers.halves, (readers.errors[:3], readers.halves[:3])
        during_build = readers.runs

        # a new space (another dimension) while new papers are added by another process
        write_papers(tmp_path / "more", scale(3, 30), prefix="q")
        with Readers(db) as readers:
            embed = start(db, "embed", *openai_args(server.url, "--batch-size", "2", "--workers", "3",
                                                    "--dimension", "64", "--model", "other-embed"))
            time.sleep(0.8)
            cli(db, "add", str(tmp_path / "more"))
            _, err = embed.communicate(timeout=120)
            assert embed.returncode == 0 and "Traceback" not in err, err
        assert not readers.errors and not readers.halves, (readers.errors[:3], readers.halves[:3])
        with Library(str(db), create=False) as lib:
            lib.embed()  # the papers added meanwhile, into the library's configured space
            assert lib.verify().ok and not lib.pending()
    print(f"\nconcurrency suite: {during_build + readers.runs} reader runs (search/status processes), "
          "0 errors, 0 half papers seen")
