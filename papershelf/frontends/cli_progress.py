"""The CLI's progress bars: `add`'s files and the embedding build's units, on stderr.

Its own module so that Rich's progress machinery is loaded only by the commands that show a bar,
never by a search (tests/test_cold_imports.py)."""

from __future__ import annotations

import os
import sys
import threading
import time
from typing import Any

from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from .cli_print import dump, err, plural


def progress_bar(enabled: bool, *extra) -> Progress:
    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), *extra,
                    TimeElapsedColumn(), TimeRemainingColumn(), console=err, disable=not enabled,
                    transient=True)


def time_left(seconds: float | None) -> str:
    """`3:05 left`, `1:02:09 left`; nothing until the build has a rate."""
    if seconds is None:
        return ""
    m, sec = divmod(int(round(seconds)), 60)
    h, m = divmod(m, 60)
    return (f"{h}:{m:02d}:{sec:02d}" if h else f"{m}:{sec:02d}") + " left"


class AddProgress:
    """The add's bar (files written, the file or OCR page at hand) and, in `index`, the whole index's
    time left (index_eta.py), refreshed with each file and OCR page; `events`: one `file` line (a
    FileEvent) on stdout per file written, as `index --json` streams them."""

    def __init__(self, bar: Progress, plan: Any = None, events: bool = False, trial: Any = None):
        """`plan`: makes the whole index's estimate from the files the add found (Library.index_eta);
        `trial`: told (paper id, estimate) of each paper added (index's trial encode, cli_embed.py)."""
        self.bar, self.plan, self.events, self.trial = bar, plan, events, trial
        self.eta: Any = None
        self.seen: set[str] = set()
        self.task = bar.add_task("adding", total=None)

    def found(self, files: list[tuple[str, str | None]]) -> None:
        self.bar.update(self.task, total=len(files))
        if self.plan is not None:
            self.eta = self.plan(files)

    def _left(self) -> str:
        return f"  (index: {time_left(self.eta.seconds_left())})" if self.eta is not None else ""

    def ocr_page(self, done: int, n: int) -> None:
        self.bar.update(self.task, description=f"OCR page {done}/{n}{self._left()}")

    def file(self, r: Any) -> None:
        if self.eta is not None:
            parsed = r.status in ("added", "updated")
            self.eta.written(r.path, r.seconds, parsed, parsed and not r.joined)
        again = r.path in self.seen  # a paper written again (a tie settled by input order, parsing.py)
        self.seen.add(r.path)
        self.bar.update(self.task, advance=0 if again else 1,
                        description=os.path.basename(r.path)[:40] + self._left())
        if self.events:
            dump({"event": "file", "path": r.path, "paper_id": r.paper_id, "status": r.status, "pages": r.pages,
                  "seconds": r.seconds})
            sys.stdout.flush()
        if self.trial is not None and r.paper_id and r.status in ("added", "updated"):
            self.trial(r.paper_id, self.eta)


class EmbedProgress:
    """Build events as NDJSON (--json) or as a Rich bar over units that moves with every encoded
    batch (not only when a paper is written), with windows encoded, rate and the build's own time
    left (embed/eta.py: windows left over a weighted recent rate, not Rich's units-per-second guess);
    in `index`, `before`'s instead (the whole index's estimate, told the build's planned windows and
    its progress: the trial's rate gives way to the build's as windows are encoded, index_eta.py)."""

    def __init__(self, as_json: bool, before: Any = None):
        self.as_json, self.before = as_json, before
        self.bar = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                            TextColumn("{task.fields[windows]} windows  {task.fields[rate]}"), TimeElapsedColumn(),
                            TextColumn("{task.fields[left]}"), console=err,
                            disable=not (err.is_terminal and not as_json), transient=True)
        self.task: TaskID | None = None
        self.lock = threading.Lock()
        self.timed: list[tuple[float, int]] = []  # (clock, windows done) at the first and last report

    def rate(self) -> float | None:
        """Windows a second the build encoded after its first call (which may hold the model's load)."""
        if len(self.timed) < 2 or self.timed[1][0] <= self.timed[0][0]:
            return None
        return (self.timed[1][1] - self.timed[0][1]) / (self.timed[1][0] - self.timed[0][0])

    def __call__(self, e: dict) -> None:
        if e["event"] in ("encoded", "paper") and self.task is not None:
            self._move(e)
        if e["event"] == "encoded":  # per provider call, from worker threads: the bar only
            return
        if self.as_json:
            dump(e)
            sys.stdout.flush()
        if e["event"] == "start":
            if not self.as_json:
                err.print(f"embedding {plural(e['papers'], 'paper')} ({plural(e.get('units') or 0, 'unit')}) with "
                          f"{e['provider']}/{e['model']} ({e['dimension']}d, {plural(e['workers'], 'worker')}); "
                          f"{e['skipped']} already embedded; searchable by words meanwhile")
            if self.before is not None:
                self.before.embedding(e.get("windows"))
            self.task = self.bar.add_task("embedding", total=e.get("units") or e["papers"], windows=0, rate="",
                                          left=self._left(None))

    def _left(self, seconds: float | None) -> str:
        if self.before is not None:
            seconds = self.before.seconds_left()
        return time_left(seconds)

    def _move(self, e: dict) -> None:
        """The bar at the build's own count (units finished: encoded, reused or failed) and estimate."""
        with self.lock:
            assert self.task is not None
            if e.get("windows_done"):
                self.timed[1:] = [(time.monotonic(), e["windows_done"])]
            if self.before is not None and "windows_done" in e:
                self.before.build(e["windows_done"], e.get("windows_left"))
            fields: dict[str, Any] = {"left": self._left(e.get("eta_seconds"))}
            if "windows_done" in e:
                fields["windows"] = e["windows_done"]
            if e.get("units_per_second"):
                fields["rate"] = f"{e['units_per_second']:.1f} units/s"
            self.bar.update(self.task, completed=e.get("units_done", 0), **fields)
