"""The dev / held-out split of issue 42's int8 and window-format measurements (helper space9).

Fixed before anything was measured, so a recipe is chosen on half A and read once on half B:

* SciFact train queries: half A when the first byte of sha256("space9:" + query id) is even;
* figure queries (bench/data/figure_queries.jsonl has no split field): by the paper, the first byte
  of sha256("space9:" + pdf file name) even -> A (all of a paper's queries in one half);
* short queries (bench/data/short_queries.jsonl): their own split, even ids (the "fit" half of
  bench/short_queries.py) -> A, odd ids -> B.

    python bench/space9_split.py [--data ../shared/data]   # writes bench/data/space9_split.json
"""

from __future__ import annotations

import argparse
import hashlib
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "bench" / "data" / "space9_split.json"


def half(key: str) -> str:
    return "A" if hashlib.sha256(f"space9:{key}".encode()).digest()[0] % 2 == 0 else "B"


def short_half(qid: str) -> str:
    return "A" if int("".join(c for c in qid if c.isdigit())) % 2 == 0 else "B"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default=str(ROOT.parent / "shared" / "data"))
    args = ap.parse_args()
    rows = [json.loads(x) for x in (Path(args.data) / "scifact" / "queries-train.jsonl").read_text().splitlines() if x]
    figs = [json.loads(x) for x in (ROOT / "bench/data/figure_queries.jsonl").read_text().splitlines() if x.strip()]
    shorts = [json.loads(x) for x in (ROOT / "bench/data/short_queries.jsonl").read_text().splitlines() if x.strip()]
    out: dict = {"rule": __doc__.split("\n\n")[1], "scifact": {"A": [], "B": []}, "figure_pdfs": {"A": [], "B": []},
                 "short": {"A": [], "B": []}}
    for q in rows:
        out["scifact"][half(q["_id"])].append(q["_id"])
    for pdf in sorted({q["pdf"] for q in figs}):
        out["figure_pdfs"][half(pdf)].append(pdf)
    for q in shorts:
        out["short"][short_half(q["id"])].append(q["id"])
    OUT.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    print({k: {h: len(v) for h, v in out[k].items()} for k in ("scifact", "figure_pdfs", "short")},
          "figure queries A/B:", sum(half(q["pdf"]) == "A" for q in figs), sum(half(q["pdf"]) == "B" for q in figs))


if __name__ == "__main__":
    main()
