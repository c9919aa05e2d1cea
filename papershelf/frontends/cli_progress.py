"""The CLI's progress bars: `add`'s files and the embedding build's units, on stderr.

Its own module so that Rich's progress machinery is loaded only by the commands that show a bar,
never by a search (tests/test_cold_imports.py)."""

from __future__ import annotations

import sys
import threading

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


class EmbedProgress:
    """Build events as NDJSON (--json) or as a Rich bar over units that moves with every encoded
    batch (not only when a paper is written), with windows encoded, rate and time left."""

    def __init__(self, as_json: bool):
        self.as_json = as_json
        self.bar = progress_bar(err.is_terminal and not as_json,
                             TextColumn("{task.fields[windows]} windows  {task.fields[rate]}"))
        self.task: TaskID | None = None
        self.windows = 0
        self.lock = threading.Lock()

    def __call__(self, e: dict) -> None:
        if e["event"] == "encoded":  # per provider call, from worker threads: the bar only
            with self.lock:
                self.windows += e["windows"]
                if self.task is not None:
                    self.bar.update(self.task, advance=e["units"], windows=self.windows)
            return
        if self.as_json:
            dump(e)
            sys.stdout.flush()
        if e["event"] == "start":
            if not self.as_json:
                err.print(f"embedding {plural(e['papers'], 'paper')} ({plural(e.get('units') or 0, 'unit')}) with "
                          f"{e['provider']}/{e['model']} ({e['dimension']}d, {plural(e['workers'], 'worker')}); "
                          f"{e['skipped']} already embedded; lexical search already covers every paper added")
            self.task = self.bar.add_task("embedding", total=e.get("units") or e["papers"], windows=0, rate="")
        elif e["event"] == "paper" and self.task is not None:
            rate = f"{e['units_per_second']:.1f} units/s" if e.get("units_per_second") else ""
            with self.lock:  # reused units are never encoded; a failed paper's units are done with
                skipped = e.get("reused", 0) + (e.get("units", 0) if e["status"] == "failed" else 0)
                self.bar.update(self.task, advance=skipped, rate=rate)


