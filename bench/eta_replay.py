"""Replay a real build's progress through the time-left estimator (embed/eta.py), at several settings.

Input: the `trace.jsonl` of bench/scale_build.py (each `paper` event of `index --json` with the time
it was printed: windows and units done so far).  The estimator is fed what the build fed it (the
windows and units finished between two events, at the event's time) and asked for the time left
after each event; its error at time t is |t + said - real end| / (real end - t).

A trace cut short (a build stopped before its end) is replayed as the build of the units it did
finish: the total is the last event's units done and the end its time, so the rate's real changes
under a loaded machine are what the estimator is judged on.

    python bench/eta_replay.py /tmp/scale5/p1000/trace.jsonl --half-lives default,60,120
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from papershelf.embed.eta import Eta


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def load(trace: Path) -> tuple[float, list[tuple[float, int, int]]]:
    """(embedding start time, [(time, windows_done, units_done)] per paper event) of a trace."""
    start, points = None, []
    for line in trace.read_text(encoding="utf-8").splitlines():
        e = json.loads(line)
        if e.get("event") == "start" and start is None:
            start = e["t"]
        elif e.get("event") == "paper" and start is not None:
            points.append((e["t"], e["windows_done"], e["units_done"]))
    if start is None or not points:
        raise SystemExit(f"{trace}: no embedding events")
    return start, points


def replay(start: float, points: list[tuple[float, int, int]], make) -> list[tuple[float, float | None]]:
    """(time, seconds left said) after each event, the estimator made by `make(total, clock)`."""
    clock = Clock()
    clock.now = start
    eta = make(points[-1][2], clock)
    eta.start()
    said, windows, units = [], 0, 0
    for t, w, u in points:
        clock.now = t
        if w > windows or u > units:
            eta.encoded(w - windows, u - units)
            windows, units = w, u
        said.append((t, eta.seconds_left()))
    return said


def errors(said: list[tuple[float, float | None]], end: float, times: list[float]) -> list[float | None]:
    out: list[float | None] = []
    for at in times:
        got = next(((t, s) for t, s in said if t >= at and s is not None), None)
        out.append(None if got is None or end - got[0] <= 0 else round(abs(got[0] + got[1] - end) / (end - got[0]), 3))
    return out


def estimator(name: str, total: int, clock: Clock) -> Eta:
    """`default` (the Eta as it is), or a half-life in seconds."""
    return Eta(total, clock=clock) if name == "default" else Eta(total, half_life=float(name), clock=clock)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("trace")
    ap.add_argument("--half-lives", default="20", help="comma-separated: default, or half-lives in seconds")
    args = ap.parse_args()
    start, points = load(Path(args.trace))
    end = points[-1][0]
    marks = [start + 60, start + 120, start + 300] + [start + (end - start) * k / 10 for k in range(1, 10)]
    report = {
        "embedding_start_s": start,
        "end_s": end,
        "papers": len(points),
        "units": points[-1][2],
        "windows": points[-1][1],
        "checked_at_s": [round(m, 1) for m in marks],
    }
    variants: dict[str, dict] = {}
    for name in args.half_lives.split(","):
        said = replay(start, points, lambda total, clock, name=name: estimator(name, total, clock))
        errs = errors(said, end, marks)
        after = [abs(t + s - end) / (end - t) for t, s in said if s is not None and start + 60 <= t < end - 1]
        variants[name] = {
            "errors_at_marks": errs,
            "max_after_first_minute": round(max(after), 3),
            "median_after_first_minute": round(statistics.median(after), 3),
        }
    report["variants"] = variants
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
