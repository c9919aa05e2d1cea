"""Replay a real `index --json` run through the whole-`index` time-left estimate (index_eta.py).

Input: a trace of `index --json`'s lines, each with `t` (seconds since the command started: `file`
events of the add, the add's summary, the embedding's `start`/`paper`/`done`), and the files' costs
(`{path: [pages, pages without text]}`, from ingest/pdf_cost.py).  The estimate is asked every 5 s
(what a refreshed display shows); its error at t is |t + said - real end| / (real end - t).

Estimates replayed, each asked the same way:
files_rate: the add's files rate (files left x seconds per file so far), what the add's bar showed
before eta9;
before: index_eta.py of `--before-tree` (loaded from that tree's file: /tmp/before-base has eta9's,
main before eta11 eta10's), then the
embedding's own estimate (embed/eta.py, its `eta_seconds`) from the embedding's first paper on;
this: index_eta.py of this tree (told the trace's `trial` rate, the `start` event's planned windows
when the trace has them, and the last build's rate from `prior.json` beside the trace when there is
one: bench/index_trace_prior.py), fed the build's progress.

The embedding's own estimate is replayed too, both ways, fed the same way from the trace's `paper`
events (each paper's windows and units encoded at its time): `build_before` (embed/eta.py of
`--before-tree`: windows extrapolated from units) and `build_this` (this tree's: windows counted as
papers are cut).  The build cuts a group (papers until 256 units, the local model's batch) when it is
handed out, two groups in flight (one worker): groups 0 and 1 at the start, group k+2 when group k's
last paper is written.  Papers not cut yet count their planned windows (`plan.json` beside the trace:
each paper's units' token estimates, bench/eta_windows_plan.py), else the counted ones (a trace whose
units all fit in the first two groups needs none).

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

import importlib.util
import inspect

from papershelf import index_eta
from papershelf.embed import eta as embed_eta


def load_estimator(tree: Path, module: str = "index_eta"):
    """`index_eta` (or `embed/eta`) as another tree has it; its relative imports (embed/eta.py's
    `.windows`) are this tree's modules."""
    spec = importlib.util.spec_from_file_location(f"papershelf.{module.replace('/', '.')}_before",
                                                  tree / "papershelf" / f"{module}.py")
    assert spec is not None and spec.loader is not None
    loaded = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = loaded  # dataclasses look their module up
    spec.loader.exec_module(loaded)
    return loaded


def errors(said: list[tuple[float, float | None]], end: float) -> list[tuple[float, float]]:
    return [(t, abs(t + s - end) / (end - t)) for t, s in said if s is not None and t < end]


def summary(said: list[tuple[float, float | None]], end: float) -> dict:
    errs = errors(said, end)
    late = [x for tt, x in errs if tt >= 60]
    return {
        "said_at_60": next((round(s, 1) for tt, s in said if tt >= 60 and s is not None), None),
        "error_at_60": next((round(x, 3) for tt, x in errs if tt >= 60), None),
        "median_after_60": round(statistics.median(late), 3) if late else None,
        "worst_after_60": round(max(late), 3) if late else None,
        "within_20pct_after_60": round(sum(x <= 0.2 for x in late) / len(late), 2) if late else None,
        # swings: asks after 60 s whose time left rose over the previous ask's by more than 10 %
        "rises_after_60": sum(1 for (ta, a), (_, b) in zip(said, said[1:])
                              if ta >= 60 and a is not None and b is not None and b > a * 1.1 + 1),
    }


GROUP_UNITS = 256  # the local model's preferred batch: a group's units (embed/build.py next_group)


def build_said(events: list[dict], eta_module, plan: dict[str, list[int]] | None, window: int = 128) -> list:
    """The embedding's own estimate fed from the trace's paper events: [(t, seconds left, windows done,
    windows left)] after each."""
    start = next(e for e in events if e.get("event") == "start")
    papers = [e for e in events if e.get("event") == "paper"]
    clock = [start["t"]]
    eta = eta_module.Eta(start["units"], clock=lambda: clock[0])
    unit_windows = getattr(eta_module, "unit_windows", None)
    planned = {e["paper_id"]: float(sum(unit_windows(t, window) for t in plan[e["paper_id"]]))
               if plan and unit_windows and e["paper_id"] in plan else float(e["windows"]) for e in papers}
    if hasattr(eta, "plan"):
        eta.plan(start["units"], sum(planned.values()))
    groups: list[list] = [[]]
    n = 0
    for e in papers:
        if n >= GROUP_UNITS:
            groups.append([])
            n = 0
        groups[-1].append(e)
        n += e["units"]
    last = {g[-1]["paper_id"]: k for k, g in enumerate(groups)}

    def cut(k: int) -> None:
        if hasattr(eta, "cut") and k < len(groups):
            eta.cut(sum(planned[e["paper_id"]] for e in groups[k]), sum(e["windows"] for e in groups[k]))

    # Windows encoded when each paper is written: its group's windows go in batches of GROUP_UNITS,
    # and a paper is delivered after the batch that holds its last window (embed/build.py `jobs`).
    encoded_at, before = [], 0
    for g in groups:
        total, cum = sum(e["windows"] for e in g), 0
        for e in g:
            cum += e["windows"]
            encoded_at.append(before + min(total, -(-cum // GROUP_UNITS) * GROUP_UNITS))
        before += total
    eta.start()
    cut(0)
    cut(1)
    out, fed, units = [], 0, 0
    if hasattr(eta, "windows_left"):  # the build tells progress at its cut, before its first call
        out.append((start["t"], eta.seconds_left(), 0, eta.windows_left()))
    for e, at in zip(papers, encoded_at):
        clock[0] = e["t"]
        units += e["units"]
        if at > fed:
            eta.encoded(at - fed, units)
            fed, units = at, 0
        if e["paper_id"] in last:
            cut(last[e["paper_id"]] + 2)
        out.append((e["t"], eta.seconds_left(), eta.windows_done,
                    eta.windows_left() if hasattr(eta, "windows_left") else None))
    return out


def replay(trace: Path, costs_file: Path, workers: int, modules: dict, add_only: bool = False,
           builds: dict | None = None, no_trial: bool = False, trial_scale: float = 1.0,
           series: str | None = None, stored: bool = True) -> dict:
    """One trace through each estimate, asked every 5 s.  `add_only`: the add's time left against
    the add's end (its summary line), for a trace whose embedding was not run to its end."""
    events = [json.loads(line) for line in trace.read_text().splitlines()]
    if add_only:
        events = events[: next(i for i, e in enumerate(events) if "files" in e) + 1]
    raw = json.loads(costs_file.read_text())
    end = events[-1]["t"]
    files = [e for e in events if e.get("event") == "file"]
    # files that joined a paper already there (the add's summary says so; live, its FileResult does)
    joined = {f["path"] for e in events if "files" in e for f in e["files"] if f.get("joined")}
    now = [0.0]
    etas = {}
    for name, module in modules.items():
        costs = {p: module.FileCost(c[0] - c[1], c[1]) if c else module.FileCost(1, 0) for p, c in raw.items()}
        newer = "timeout" in inspect.signature(module.IndexEta).parameters  # eta10 on: timeout, parsed
        etas[name] = module.IndexEta(workers, clock=lambda: now[0], **({"timeout": 900.0} if newer else {}))
        etas[name].plan(costs)
    said: dict[str, list] = {"files_rate": [], **{name: [] for name in modules}}
    prior_file = trace.parent / "prior.json"  # the last build's rate (bench/index_trace_prior.py)
    prior = json.loads(prior_file.read_text()) if prior_file.exists() and stored else None
    if prior and "this" in etas and hasattr(etas["this"], "last_build"):
        etas["this"].last_build(prior["windows_per_second"], prior.get("per_typed"))
    plan_file = trace.parent / "plan.json"
    plan = json.loads(plan_file.read_text()) if plan_file.exists() else None
    queue = sorted(events, key=lambda e: e["t"])
    i, done = 0, 0
    builds = {} if add_only or not any(e.get("event") == "paper" for e in events) else (builds or {})
    build = {name: build_said(events, m, plan) for name, m in builds.items()}
    # `before` hands over to what the build said live when the trace was recorded before eta11 (no planned
    # windows in its `start`), else to the replayed old estimate; this, to the replayed new one.
    old_trace = not any(e.get("event") == "start" and "windows" in e for e in events)
    # `before`: the before tree fed as its CLI feeds it (the trial's rate and the start's planned windows
    # when its IndexEta takes them), then the build's own estimate (the before tree's, replayed).
    # `before_unfed`: as eta11's replay fed it (no trial, no planned windows; old traces hand over to
    # what the build said live).  `this` is not handed over: the build's progress is fed to it (`build`).
    fed = hasattr(modules["before"].IndexEta, "encoder") if "before" in modules else False
    handover = {"before": "build_before" if fed else ("recorded" if old_trace else "build_before"),
                "before_unfed": "recorded" if old_trace else "build_before"}
    if "before" in etas:
        etas["before_unfed"] = modules["before"].IndexEta(workers, clock=lambda: now[0], **(
            {"timeout": 900.0} if "timeout" in inspect.signature(modules["before"].IndexEta).parameters else {}))
        etas["before_unfed"].plan({p: modules["before"].FileCost(c[0] - c[1], c[1]) if c else
                                   modules["before"].FileCost(1, 0) for p, c in raw.items()})
        said["before_unfed"] = []
    planned_windows = (sum(embed_eta.unit_windows(x, 128) for ts in plan.values() for x in ts)
                       if plan else None)
    embed_left: dict[str, tuple[float, float | None]] = {}
    t = 5.0
    while t < end:
        while i < len(queue) and queue[i]["t"] <= t:
            e = queue[i]
            now[0] = e["t"]
            if e.get("event") == "file":
                for eta in etas.values():
                    parsed = e.get("status") in ("added", "updated")
                    if "embeds" in inspect.signature(eta.written).parameters:
                        eta.written(e["path"], e["seconds"], parsed, parsed and e["path"] not in joined)
                    elif "parsed" in inspect.signature(eta.written).parameters:
                        eta.written(e["path"], e["seconds"], parsed)
                    else:
                        eta.written(e["path"], e["seconds"])
                done += 1
            elif e.get("event") == "paper":
                for name in build:
                    embed_left[name] = next((x[0], x[1]) for x in build[name] if x[0] >= e["t"])
                embed_left["recorded"] = (e["t"], e.get("eta_seconds"))
                if "this" in etas and "build_this" in build:
                    _, _, w_done, w_left = next(x for x in build["build_this"] if x[0] >= e["t"])
                    etas["this"].build(w_done, w_left)
            elif e.get("event") == "trial" and not no_trial:
                for name in ("this", "before") if fed else ("this",):
                    if name in etas:
                        etas[name].encoder(e["windows_per_second"] * trial_scale)
            elif e.get("event") == "start":
                for name in ("before", "before_unfed"):
                    if name in etas and hasattr(etas[name], "embedding"):
                        # eta10's counts down from the start (eta9's has no such step); eta11's takes windows
                        etas[name].embedding(*([planned_windows or e.get("windows")]
                                               if name == "before" and fed else []))
                if "this" in etas:  # the windows as this tree plans them, then as its first cut counts them
                    etas["this"].embedding(planned_windows or e.get("windows"))
                    if "build_this" in build and build["build_this"] and build["build_this"][0][0] == e["t"]:
                        etas["this"].build(0, build["build_this"][0][3])
            i += 1
        now[0] = t
        said["files_rate"].append((t, (len(files) - done) * t / done if done and done < len(files) else None))
        for name, eta in etas.items():
            left = (embed_left.get(handover[name] if handover[name] in build else "recorded")
                    if name in handover else None)
            if left and left[1] is not None and not add_only:
                said[name].append((t, max(0.0, left[1] - (t - left[0]))))
            else:
                said[name].append((t, eta.add_left() if add_only else eta.seconds_left()))
        for name in [*build, "recorded"] if build else []:  # the embedding's own estimate alone
            left = embed_left.get(name)
            said.setdefault(name, []).append((t, max(0.0, left[1] - (t - left[0])) if left and left[1] is not None
                                              else None))
        t += 5.0
    if series:
        for (tt, x), (_, y) in zip(said[series], said.get("before", said[series])):
            print(f"{tt:6.0f} real {end - tt:6.0f} {series} {x if x is None else round(x)} before "
                  f"{y if y is None else round(y)}", file=sys.stderr)
    return {"trace": str(trace), "end_s": round(end, 1), "add_only": add_only, "prior": prior,
            **{name: summary(s, end) for name, s in said.items()}}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("pairs", nargs="+", type=Path, help="TRACE COSTS [TRACE COSTS ...]")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--before-tree", type=Path, default=Path("/tmp/before-base"),
                    help="a tree whose index_eta.py and embed/eta.py are replayed as `before`")
    ap.add_argument("--follow", type=float, default=None, help="FOLLOW of both estimators for this replay")
    ap.add_argument("--add-only", action="store_true", help="the add's time left against the add's end")
    ap.add_argument("--no-trial", action="store_true", help="this: ignore the trace's trial rate (the prior)")
    ap.add_argument("--trial-scale", type=float, default=1.0,
                    help="multiply the trace's trial rate (a trace recorded before the trial's padding scale)")
    ap.add_argument("--no-stored", action="store_true", help="this: ignore prior.json (the last build's rate)")
    ap.add_argument("--stored-follow", type=float, default=None, help="this: STORED_FOLLOW for this replay")
    ap.add_argument("--stored-windows", type=float, default=None, help="this: STORED_WINDOWS for this replay")
    ap.add_argument("--series", help="print this estimate's every answer (t, real left, said) to stderr")
    args = ap.parse_args()
    modules = {"before": load_estimator(args.before_tree), "this": index_eta}
    builds = {"build_before": load_estimator(args.before_tree, "embed/eta"), "build_this": embed_eta}
    if args.follow is not None:
        for module in modules.values():
            module.FOLLOW = args.follow
    if args.stored_windows is not None:
        index_eta.STORED_WINDOWS = args.stored_windows
    if args.stored_follow is not None:
        index_eta.STORED_FOLLOW = args.stored_follow
    for trace, costs in zip(args.pairs[::2], args.pairs[1::2]):
        print(json.dumps(replay(trace, costs, args.workers, modules, args.add_only, builds, args.no_trial,
                                args.trial_scale, args.series, not args.no_stored)))


if __name__ == "__main__":
    main()
