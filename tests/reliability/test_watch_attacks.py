"""Standing suite: the real `papershelf watch --json` while its folder disappears and returns, and
while unreadable files appear after the catch-up (issue #27)."""

from __future__ import annotations

import json
import os
import queue
import signal
import stat
import threading
import time
from pathlib import Path

from .common import cli, start, write_papers

DEBOUNCE = "0.2"


class Watch:
    """A `watch --json` subprocess and the events it printed."""

    def __init__(self, db: Path, folder: Path):
        self.proc = start(db, "watch", str(folder), "--debounce", DEBOUNCE, "--provider", "hash", "--json")
        self.lines: queue.Queue = queue.Queue()
        self.events: list[dict] = []
        threading.Thread(target=lambda: [self.lines.put(x) for x in self.proc.stdout], daemon=True).start()

    def expect(self, event: str, count: int = 1, timeout: float = 60, **match) -> list[dict]:
        deadline = time.monotonic() + timeout
        while True:
            found = [e for e in self.events if e["event"] == event and all(e.get(k) == v for k, v in match.items())]
            if len(found) >= count:
                return found
            try:
                self.events.append(json.loads(self.lines.get(timeout=max(0.01, deadline - time.monotonic()))))
            except queue.Empty:
                raise AssertionError(f"no {count} {event!r} events {match}; got {self.events}") from None

    def quiet_for(self, seconds: float) -> list[dict]:
        """The events printed within `seconds` (the polls keep running meanwhile)."""
        got, deadline = [], time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            try:
                got.append(json.loads(self.lines.get(timeout=left)))
            except queue.Empty:
                break
        self.events += got
        return got

    def stop(self) -> str:
        self.proc.send_signal(signal.SIGINT)
        assert self.proc.wait(30) == 130
        err = self.proc.stderr.read()
        assert "Traceback" not in err, err
        return err


def _papers(db: Path) -> list[str]:
    return sorted(r["id"] for r in json.loads(cli(db, "papers", "--json").stdout))


def test_a_watched_folder_that_disappears_is_unavailable_not_deleted(tmp_path):
    folder, db = tmp_path / "synced", tmp_path / "lib.db"
    write_papers(folder, 4)
    w = Watch(db, folder)
    try:
        w.expect("added", 4)
        w.expect("embedded")
        before = json.loads(cli(db, "status", "--json").stdout)["embedding"]["stored_total"]
        for round_ in range(2):  # unmounted, then moved away and back
            folder.rename(tmp_path / f"elsewhere{round_}")
            w.expect("unavailable", round_ + 1, path=str(folder))
            assert w.quiet_for(1.5) == []  # said once, nothing removed
            assert _papers(db) == ["p000", "p001", "p002", "p003"]
            (tmp_path / f"elsewhere{round_}").rename(folder)
            w.expect("available", round_ + 1, path=str(folder))
            assert w.quiet_for(1.5) == []  # nothing re-added, nothing re-embedded
        st = json.loads(cli(db, "status", "--json").stdout)["embedding"]
        assert st["stored_total"] == before and st["pending_papers"] == 0
        write_papers(folder, 1, prefix="new")  # and it is followed again
        w.expect("added", 1, paper_id="new000")
    finally:
        w.stop()
    assert {e["event"] for e in w.events} <= {"added", "embedded", "unavailable", "available"}
    assert cli(db, "verify").returncode == 0


def test_an_emptied_mount_point_is_unavailable_not_deleted(tmp_path):
    """An unmounted drive leaves its mount point as an empty folder: its papers are kept."""
    folder, db, away = tmp_path / "drive", tmp_path / "lib.db", tmp_path / "unplugged"
    write_papers(folder, 3)
    w = Watch(db, folder)
    try:
        w.expect("added", 3)
        w.expect("embedded")
        away.mkdir()
        for f in folder.iterdir():
            f.rename(away / f.name)
        w.expect("unavailable", path=str(folder))
        assert w.quiet_for(1.0) == []
        assert _papers(db) == ["p000", "p001", "p002"]
        for f in away.iterdir():
            f.rename(folder / f.name)
        w.expect("available", path=str(folder))
        assert w.quiet_for(1.0) == []  # nothing re-added
        (folder / "p001.md").unlink()  # one file deleted while mounted is a deletion
        w.expect("removed", paper_id="p001")
    finally:
        w.stop()
    assert _papers(db) == ["p000", "p002"]


def _bad_files(folder: Path) -> dict[str, str]:
    """Unreadable files appearing after the catch-up, and the reason `add` gives each."""
    os.symlink("loop-b.md", folder / "loop-a.md")
    os.symlink("loop-a.md", folder / "loop-b.md")
    os.symlink("nowhere.md", folder / "dangling.md")
    os.mkfifo(folder / "pipe.md")
    expected = {"loop-a.md": "loop", "loop-b.md": "loop", "dangling.md": "broken symbolic link",
                "pipe.md": "named pipe"}
    if os.geteuid() == 0:  # a device node needs root
        os.mknod(folder / "device.md", 0o600 | stat.S_IFCHR, os.makedev(1, 3))
        expected["device.md"] = "a device"
    return expected


def test_unreadable_files_appearing_later_get_one_line_each(tmp_path):
    folder, db = tmp_path / "papers", tmp_path / "lib.db"
    write_papers(folder, 2)
    w = Watch(db, folder)
    try:
        w.expect("added", 2)
        w.expect("embedded")
        expected = _bad_files(folder)
        failed = w.expect("failed", len(expected))
        assert {os.path.basename(e["path"]): e["detail"] for e in failed}.keys() == expected.keys()
        for e in failed:
            assert expected[os.path.basename(e["path"])] in e["detail"], e
        assert w.quiet_for(1.5) == []  # once each, not at every poll
        write_papers(folder, 1, prefix="late")
        w.expect("added", 1, paper_id="late000")
    finally:
        w.stop()
    assert _papers(db) == ["late000", "p000", "p001"]
