"""The "last build" prior of a trace for bench/index_eta_replay.py: the encoder rate an earlier recorded
`index` run measured (windows a second after its first reported call, as the CLI's EmbedProgress keeps
it) and the seconds a typed page took in its add (index_eta.py's `per_typed` at the add's end), written
as `prior.json` beside the later trace.  For a second `index` on a library that grows, PREV is the
library's own last build; otherwise it is the last build recorded on this machine (another library).

    python bench/index_trace_prior.py bench/data/index_traces/ta bench/data/index_traces/tb
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from papershelf import index_eta


def build_rate(events: list[dict]) -> float | None:
    """Windows a second from the first report with windows done to the build's end."""
    timed = [(e["t"], e["windows_done"]) for e in events if e.get("event") == "paper" and e.get("windows_done")]
    done = next((e for e in events if e.get("event") == "done"), None)
    if done is None or not timed or done["t"] <= timed[0][0] or done["windows"] <= timed[0][1]:
        return None
    return (done["windows"] - timed[0][1]) / (done["t"] - timed[0][0])


def typed_rate(events: list[dict], costs: dict) -> float | None:
    eta = index_eta.IndexEta(2, timeout=900.0)
    eta.plan({p: index_eta.FileCost(c[0] - c[1], c[1]) if c else index_eta.FileCost(1, 0) for p, c in costs.items()})
    for e in events:
        if e.get("event") == "file":
            eta.written(e["path"], e["seconds"], e.get("status") in ("added", "updated"))
    return eta.typed_seen()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("prev", type=Path, help="the earlier trace's folder (trace.jsonl, costs.json)")
    ap.add_argument("next", type=Path, help="the later trace's folder: prior.json is written there")
    args = ap.parse_args()
    events = [json.loads(line) for line in (args.prev / "trace.jsonl").read_text().splitlines()]
    costs = json.loads((args.prev / "costs.json").read_text())
    rate, typed = build_rate(events), typed_rate(events, costs)
    if rate is None:
        sys.exit(f"{args.prev}: no finished build to take a rate from")
    prior = {"from": args.prev.name, "windows_per_second": round(rate, 3),
             "per_typed": round(typed, 5) if typed else None}
    (args.next / "prior.json").write_text(json.dumps(prior) + "\n", encoding="utf-8")
    print(json.dumps(prior))


if __name__ == "__main__":
    main()
