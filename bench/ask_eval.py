"""`ask` against bench/data/ask_questions.jsonl: questions in our own words over the shared PDFs, each with the
page and a phrase of the answering sentence, and unanswerable ones (near misses included).

Right evidence in the top 3: a quote holding the phrase (letters and digits compared, so hyphenation and
spacing do not matter) from the right paper (its source file) on the right page.  Unanswerable questions
should come back `no_confident_answer`; answerable ones should not.  `--fit` picks ask.THRESHOLD on the dev
half (the largest share of unanswerable flagged with at most 10 % of answerable flagged).  Warm latency is
the median of the questions' second asking.

    python bench/ask_eval.py LIBRARY.db --half dev [--fit]
    python bench/ask_eval.py LIBRARY.db --half test      # once, at the end
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from papershelf import Library  # noqa: E402
from papershelf import ask as A  # noqa: E402

QUESTIONS = ROOT / "bench" / "data" / "ask_questions.jsonl"


def letters(text: str) -> str:
    return "".join(ch for ch in text.lower() if ch.isalnum())


def right(lib: Library, q: dict, evidence: list) -> bool:
    for e in evidence[:3]:
        paper = lib.store.get_paper(e.paper_id)
        if paper and os.path.basename(paper.source_path or "") == q["file"] and e.page == q["page"] \
                and letters(q["phrase"]) in letters(e.quote):
            return True
    return False


def fit(conf_ans: list[float], conf_un: list[float]) -> float:
    best = (0.0, 0.0)
    for t in sorted(set(conf_ans + conf_un)) + [1.0]:
        if sum(c < t for c in conf_ans) <= 0.10 * len(conf_ans):
            best = max(best, (sum(c < t for c in conf_un) / max(1, len(conf_un)), t))
    return best[1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("library")
    ap.add_argument("--half", choices=("dev", "test", "all"), default="dev")
    ap.add_argument("--fit", action="store_true")
    ap.add_argument("-v", action="store_true")
    args = ap.parse_args()
    qs = [json.loads(line) for line in QUESTIONS.read_text().splitlines() if line.strip()]
    qs = [q for q in qs if args.half == "all" or q["half"] == args.half]
    found, conf_ans, conf_un, warm, verbatim = 0, [], [], [], 0
    with Library(args.library, create=False) as lib:
        for q in qs:
            resp = lib.ask(q["question"], limit=8)
            t = time.perf_counter()
            lib.ask(q["question"], limit=8)
            warm.append(time.perf_counter() - t)
            units = lib.store.get_units([e.unit_id for e in resp.evidence])
            verbatim += all(e.quote in units[e.unit_id].text for e in resp.evidence)
            if q["answerable"]:
                ok = right(lib, q, resp.evidence)
                found += ok
                conf_ans.append(resp.confidence)
                if args.v and not ok:
                    print("MISS", q["id"], q["question"], [(e.paper_id, e.page, e.quote[:70]) for e in resp.evidence[:3]])
            else:
                conf_un.append(resp.confidence)
    n_ans, n_un = len(conf_ans), len(conf_un)
    threshold = fit(conf_ans, conf_un) if args.fit else A.THRESHOLD
    out = {"half": args.half, "answerable": n_ans, "unanswerable": n_un,
           "right_top3": round(found / max(1, n_ans), 3),
           "unanswerable_flagged": round(sum(c < threshold for c in conf_un) / max(1, n_un), 3),
           "answerable_flagged": round(sum(c < threshold for c in conf_ans) / max(1, n_ans), 3),
           "verbatim": f"{verbatim}/{len(qs)}", "threshold": threshold,
           "warm_p50_ms": round(1000 * statistics.median(warm), 1) if warm else None}
    print(json.dumps(out))


if __name__ == "__main__":
    main()
