"""`watch` with real files in a temp dir: the library follows as files appear, change and go."""

import json
import os
import queue
import shutil
import signal
import sqlite3
import subprocess
import sys
import threading
import time

import pytest

from papershelf import Library
from papershelf.watch import Watcher, WatchEvent

from .conftest import HASH, paper_text
from .test_works import md
from .zotero_fixture import build_library

DEBOUNCE = 0.3
WAIT = 15.0  # seconds before a wait gives up (each normally takes well under a second)


def wait_for(condition, what: str, timeout: float = WAIT):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


class Running:
    """A watcher in a thread, its events collected; stopped (and joined) on exit."""

    def __init__(self, lib: Library, paths: list[str], **kw):
        self.events: list[WatchEvent] = []
        self.watcher = Watcher(lib, paths, debounce=DEBOUNCE, spec=HASH, log=self.events.append, **kw)
        self.thread = threading.Thread(target=self.watcher.run, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.watcher.stop.set()
        self.watcher.cancel.set()
        self.thread.join(WAIT)
        assert not self.thread.is_alive(), "the watcher did not stop"

    def lines(self, path=None) -> list[str]:
        return [e.line() for e in self.events if path is None or e.path == str(path)]

    def wait_line(self, text: str) -> None:
        wait_for(lambda: any(text in line for line in self.lines()), repr(text))


def titles(lib):
    return sorted(s.paper.title for s in lib.papers())


def test_files_added_changed_duplicated_and_deleted_are_followed_and_embedded(lib, write):
    a = write("a.md", paper_text(key="alpha", title="Alpha Paper"))
    with Running(lib, [str(write.root)]) as w:
        w.wait_line("added a.md -> alpha")
        w.wait_line("embedded 1 papers")
        b = write("sub/b.md", md(body="Zymosan uptake by macrophages."))
        w.wait_line("added b.md")
        wait_for(lambda: not lib.pending() and len(lib.papers()) == 2, "b embedded")

        a.write_text(paper_text(key="alpha", title="Alpha Paper", intro="Quokkas hop at dawn."), encoding="utf-8")
        w.wait_line("updated a.md -> alpha")
        wait_for(lambda: lib.search("quokkas", mode="lexical").results, "the new text searchable")
        wait_for(lambda: not lib.pending(), "a re-embedded")

        c = write("sub/c.txt", md(body="A text copy of the same paper."))  # another source of b's paper
        w.wait_line("added c.txt")
        assert "another source" in w.lines(c)[0] and len(lib.papers()) == 2
        b.unlink()
        w.wait_line("removed b.md")
        paper = wait_for(lambda: [s.paper for s in lib.papers() if s.paper.source_path == str(c)], "c provides")[0]
        assert "its other sources remain" in w.lines(b)[-1]
        shutil.rmtree(write.root / "sub")
        w.wait_line(f"removed c.txt -> {paper.id} (paper removed)")
        assert titles(lib) == ["Alpha Paper"]

        write("empty.md", "")
        w.wait_line("failed empty.md: empty file")
    assert lib.verify().ok and not lib.pending()


def test_a_file_written_in_pieces_is_read_once_whole(lib, write):
    with Running(lib, [str(write.root)]) as w:
        assert w.watcher.caught_up.wait(WAIT)
        path = write.root / "slow.md"
        text = md(body="Written slowly. " * 50)
        with open(path, "w", encoding="utf-8") as f:
            for i in range(0, len(text), len(text) // 5):
                f.write(text[i:i + len(text) // 5])
                f.flush()
                time.sleep(DEBOUNCE / 3)  # each piece lands before the file has settled
        w.wait_line("added slow.md")
        time.sleep(DEBOUNCE * 3)
        assert w.lines(path) == [f"added slow.md -> {lib.papers()[0].paper.id}"]  # once, not added + updated
    assert "Written slowly" in lib.store.paper_units(lib.papers()[0].paper.id)[0].text


def test_changes_made_while_not_watching_are_caught_up(lib, write):
    a, b = write("a.md", paper_text(key="alpha")), write("b.md", paper_text(key="beta"))
    lib.add([str(write.root)])
    b.unlink()
    write("c.md", paper_text(key="gamma"))
    with Running(lib, [str(write.root)], embed=False) as w:
        w.wait_line("removed b.md -> beta (paper removed)")
        w.wait_line("added c.md -> gamma")
    assert sorted(p.paper.id for p in lib.papers()) == ["alpha", "gamma"]
    assert not any("a.md" in line for line in w.lines())  # unchanged: not logged
    assert a.exists()


def test_a_zotero_data_directory_is_followed_through_its_database(lib, tmp_path):
    zdir = build_library(tmp_path / "Zotero")
    with Running(lib, [str(zdir)], embed=False) as w:
        w.wait_line("added paper.pdf -> JOUR1")
        w.wait_line("added paper.pdf -> okafor2021")
        time.sleep(0.05)  # a later write gets a later mtime even on coarse clocks
        db = sqlite3.connect(zdir / "zotero.sqlite")
        db.execute("UPDATE tags SET name='read' WHERE name='to read'")
        db.commit()
        db.close()
        w.wait_line("updated paper.pdf -> JOUR1")
        assert lib.show("JOUR1").paper.tags == ["macrophages", "read"]
        shutil.rmtree(zdir / "storage" / "ATT2")  # the item deleted in Zotero: its folder goes with it
        db = sqlite3.connect(zdir / "zotero.sqlite")
        db.execute("DELETE FROM items WHERE key IN ('CONF1', 'ATT2')")
        db.commit()
        db.close()
        w.wait_line("removed paper.pdf -> okafor2021 (paper removed)")
    assert sorted(p.paper.id for p in lib.papers()) == ["JOUR1"]


def test_event_lines():
    assert WatchEvent("added", "/x/a.pdf", "a1").line() == "added a.pdf -> a1"
    assert WatchEvent("failed", "/x/a.pdf", detail="bad").line() == "failed a.pdf: bad"
    assert WatchEvent("embedded", detail="3 papers").line() == "embedded 3 papers"


def _reader(stream, out: queue.Queue):
    for line in stream:
        out.put(line)


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child process")
def test_cli_watch_follows_a_folder_and_ctrl_c_exits_130_with_the_library_consistent(tmp_path, write):
    write("a.md", paper_text(key="alpha"))
    db = tmp_path / "lib.db"
    env = dict(os.environ, PAPERSHELF_LIBRARY=str(db))
    proc = subprocess.Popen([sys.executable, "-m", "papershelf", "watch", str(write.root), "--debounce",
                             str(DEBOUNCE), "--provider", "hash", "--json"], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    lines: queue.Queue = queue.Queue()
    threading.Thread(target=_reader, args=(proc.stdout, lines), daemon=True).start()
    seen: list[dict] = []

    def expect(event: str, paper_id: str | None = None) -> None:
        deadline = time.monotonic() + WAIT
        while not any(e["event"] == event and paper_id in (None, e.get("paper_id")) for e in seen):
            seen.append(json.loads(lines.get(timeout=max(0.01, deadline - time.monotonic()))))

    try:
        expect("added", "alpha")
        expect("embedded")
        write("b.md", paper_text(key="beta"))
        expect("added", "beta")
        os.unlink(write.root / "a.md")
        expect("removed", "alpha")
        proc.send_signal(signal.SIGINT)
        assert proc.wait(WAIT) == 130
    finally:
        proc.kill() if proc.poll() is None else None
    assert "Traceback" not in proc.stderr.read()
    with Library(str(db)) as lib:
        assert [p.paper.id for p in lib.papers()] == ["beta"]
        assert lib.verify().ok


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child process")
def test_ctrl_c_during_embedding_stops_the_build_between_papers(tmp_path, write):
    db = tmp_path / "lib.db"
    env = dict(os.environ, PAPERSHELF_LIBRARY=str(db))
    write("p0.md", paper_text(key="p0"))
    for args in (("add", str(write.root)), ("embed", "--provider", "hash", "--batch-size", "1")):
        subprocess.run([sys.executable, "-m", "papershelf", *args], env=env, check=True, capture_output=True)
    for i in range(1, 9):
        write(f"p{i}.md", paper_text(key=f"p{i}", intro=f"Paper number {i}."))
    env["PAPERSHELF_HASH_DELAY"] = "0.4"  # per provider call, one text per call: seconds of work in all
    proc = subprocess.Popen([sys.executable, "-m", "papershelf", "watch", str(write.root), "--json"], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    lines: queue.Queue = queue.Queue()
    threading.Thread(target=_reader, args=(proc.stdout, lines), daemon=True).start()
    try:
        added = [json.loads(lines.get(timeout=WAIT)) for _ in range(8)]
        assert {e["event"] for e in added} == {"added"}
        with Library(str(db)) as lib:  # a second reader of the library, as any process may be
            wait_for(lambda: len(lib.pending()) < 8, "the first paper embedded")
        proc.send_signal(signal.SIGINT)
        assert proc.wait(WAIT) == 130
    finally:
        proc.kill() if proc.poll() is None else None
    with Library(str(db)) as lib:
        assert 0 < len(lib.pending()) < 8  # stopped part way: what was encoded is written, the rest pending
        assert lib.verify().ok
