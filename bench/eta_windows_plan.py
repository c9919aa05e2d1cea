"""How well a build's windows are planned before any unit is cut (embed/eta.py `unit_windows`).

For each library: every paper (the build's order), its indexable units' token estimates (what the
build plans from) and the windows the local model's tokenizer really cuts them into (embed/windows.py,
no encoding).  Printed per library: planned ÷ counted over all papers; then, as a build cuts its papers
group by group (256 units a group), the error of the windows-left estimate |said - real| / real of
`before` (windows per unit so far × units left: embed/eta.py until eta11) and `this` (planned windows
left × counted ÷ planned so far).  `--plans DIR` writes each library's `plan.json` (paper id → token
estimates) for bench/index_eta_replay.py.

    python bench/eta_windows_plan.py /tmp/eta10/speed/lib-0-0.db /tmp/eta11/tp10/library.db
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from papershelf.embed.base import DEFAULT_MODELS, ProviderSpec
from papershelf.embed.eta import unit_windows
from papershelf.embed.windows import token_counter, windows
from papershelf.library import Library
from papershelf.units import embedding_parts

GROUP_UNITS = 256


def papers(path: str, provider) -> list[dict]:
    count, window = token_counter(provider), provider.window_tokens
    lib = Library(path)
    out = []
    for pid in lib.store.manifest_paper_ids(with_indexable_units=True):
        paper, _, units = lib.store.paper_snapshot(pid)
        units = [u for u in units if u.indexable]
        title = paper.title if paper else None
        out.append({"paper_id": pid, "tokens": [u.token_estimate for u in units],
                    "counted": sum(len(windows(*embedding_parts(u, title), window, count)) for u in units)})
    return out


def left_errors(rows: list[dict], window: int) -> dict:
    """Windows-left error after each group is cut, both estimates."""
    planned = [sum(unit_windows(t, window) for t in r["tokens"]) for r in rows]
    units = [len(r["tokens"]) for r in rows]
    counted = [r["counted"] for r in rows]
    errs: dict[str, list[float]] = {"before": [], "this": []}
    n = i = 0
    while i < len(rows):
        n += units[i]
        i += 1
        if n < GROUP_UNITS and i < len(rows):
            continue
        n = 0
        real = sum(counted[i:])
        if not real:
            break
        c, u, p = sum(counted[:i]), sum(units[:i]), sum(planned[:i])
        errs["before"].append(abs(sum(units[i:]) * c / u - real) / real)
        errs["this"].append(abs(sum(planned[i:]) * c / p - real) / real)
    return {k: {"median": round(statistics.median(v), 3), "worst": round(max(v), 3), "groups": len(v)}
            for k, v in errs.items() if v}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("libraries", nargs="+")
    ap.add_argument("--plans", type=Path, nargs="*", help="a folder per library for its plan.json")
    args = ap.parse_args()
    provider = ProviderSpec("local", DEFAULT_MODELS["local"]).create()
    window = int(provider.window_tokens or 0)
    for k, path in enumerate(args.libraries):
        rows = papers(path, provider)
        planned = sum(unit_windows(t, window) for r in rows for t in r["tokens"])
        counted = sum(r["counted"] for r in rows)
        ratios = [r["counted"] / max(1, sum(unit_windows(t, window) for t in r["tokens"])) for r in rows]
        print(json.dumps({"library": path, "papers": len(rows), "units": sum(len(r["tokens"]) for r in rows),
                          "planned": planned, "counted": counted, "counted_over_planned": round(counted / planned, 3),
                          "paper_ratio_min_max": [round(min(ratios), 2), round(max(ratios), 2)],
                          "left_error": left_errors(rows, window)}))
        if args.plans and k < len(args.plans):
            args.plans[k].mkdir(parents=True, exist_ok=True)
            (args.plans[k] / "plan.json").write_text(json.dumps({r["paper_id"]: r["tokens"] for r in rows}))


if __name__ == "__main__":
    main()
