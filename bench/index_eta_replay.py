"""Replay a real `index --json` run through the whole-`index` time-left estimate (index_eta.py).

Input: a trace of `index --json`'s lines, each with `t` (seconds since the command started: `file`
events of the add, the add's summary, the embedding's `start`/`paper`/`done`), and the files' costs
(`{path: [pages, pages without text]}`, from ingest/pdf_cost.py).  The estimate is asked every 5 s
(what a refreshed display shows); its error at t is |t + said - real end| / (real end - t).

before: the add's files rate (files left x seconds per file so far), the only estimate an `index`
showed before (the add's bar), to the end of the whole index.
after: IndexEta during the add and until the embedding's first paper; then the embedding's own
estimate (embed/eta.py, its `eta_seconds`).

    python bench/index_eta_replay.py /tmp/eta9/trace.jsonl /tmp/eta9/costs.json [TRACE2 COSTS2 ...] --workers 2

Per trace and estimate: what it said at 60 s, its error then, the median and the worst error of the
estimates after the first minute.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from papershelf import index_eta
from papershelf.index_eta import FileCost, IndexEta


def errors(said: list[tuple[float, float | None]], end: float) -> list[tuple[float, float]]:
    return [(t, abs(t + s - end) / (end - t)) for t, s in said if s is not None and t < end]


def replay(trace: Path, costs_file: Path, workers: int) -> dict:
    """One trace through both estimates: per estimate its error at 60 s, median and worst after 60 s."""
    events = [json.loads(line) for line in trace.read_text().splitlines()]
    costs = {p: FileCost(c[0] - c[1], c[1]) if c else FileCost(1, 0)
             for p, c in json.loads(costs_file.read_text()).items()}
    end = events[-1]["t"]
    files = [e for e in events if e.get("event") == "file"]
    now = [0.0]
    eta = IndexEta(workers, clock=lambda: now[0])
    eta.plan(costs)
    before, after = [], []
    queue = sorted(events, key=lambda e: e["t"])
    i, done, embed_left = 0, 0, None
    t = 5.0
    while t < end:
        while i < len(queue) and queue[i]["t"] <= t:
            e = queue[i]
            now[0] = e["t"]
            if e.get("event") == "file":
                eta.written(e["path"], e["seconds"])
                done += 1
            elif e.get("event") == "paper":
                embed_left = (e["t"], e.get("eta_seconds"))
            i += 1
        now[0] = t
        before.append((t, (len(files) - done) * t / done if done and done < len(files) else None))
        if embed_left and embed_left[1] is not None:
            after.append((t, max(0.0, embed_left[1] - (t - embed_left[0]))))
        else:
            after.append((t, eta.seconds_left()))
        t += 5.0
    out: dict = {"trace": str(trace), "end_s": round(end, 1)}
    for name, said in (("before", before), ("after", after)):
        errs = errors(said, end)
        late = [x for tt, x in errs if tt >= 60]
        out[name] = {
            "said_at_60": next((round(s, 1) for tt, s in said if tt >= 60 and s is not None), None),
            "error_at_60": next((round(x, 3) for tt, x in errs if tt >= 60), None),
            "median_after_60": round(statistics.median(late), 3) if late else None,
            "worst_after_60": round(max(late), 3) if late else None,
            "estimates_after_60": f"{len(late)} of {int(max(0, end - 60) // 5)}",
        }
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("pairs", nargs="+", type=Path, help="TRACE COSTS [TRACE COSTS ...]")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--follow", type=float, default=None, help="index_eta.FOLLOW for this replay")
    args = ap.parse_args()
    if args.follow is not None:
        index_eta.FOLLOW = args.follow
    for trace, costs in zip(args.pairs[::2], args.pairs[1::2]):
        print(json.dumps(replay(trace, costs, args.workers)))


if __name__ == "__main__":
    main()
