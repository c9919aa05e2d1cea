"""`ask` against bench/data/ask_questions.jsonl: questions in our own words over the shared PDFs and the
shared Zotero library's PDFs, each with the page and a phrase of the answering sentence, and unanswerable ones
(near misses included).

Right evidence in the top 3: a quote holding the phrase (letters and digits compared, so hyphenation and
spacing do not matter) from the right paper (its source file) on the right page — or on one of the `also`
places, where a duplicate copy of the paper prints the same sentence.  Unanswerable questions should come
back `no_confident_answer`; answerable ones should not.  `--features` writes each question's refusal
features (what ask.probability sees) for bench/ask_refusal_fit.py.  Warm latency is the median of the
questions' second asking; `--profile` prints where the warm asks spend their time.

    python bench/ask_eval.py LIBRARY.db --half dev [--features dev.jsonl] [--profile]
    python bench/ask_eval.py LIBRARY.db --half test      # once, at the end
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import statistics
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from papershelf import Library  # noqa: E402
from papershelf import ask as A  # noqa: E402

QUESTIONS = ROOT / "bench" / "data" / "ask_questions.jsonl"


def letters(text: str) -> str:
    return "".join(ch for ch in text.lower() if ch.isalnum())


def right(lib: Library, q: dict, evidence: list) -> bool:
    places = {(q["file"], q["page"])} | {(a["file"], a["page"]) for a in q.get("also", [])}
    for e in evidence[:3]:
        paper = lib.store.get_paper(e.paper_id)
        if paper and (os.path.basename(paper.source_path or ""), e.page) in places \
                and letters(q["phrase"]) in letters(e.quote):
            return True
    return False


def questions(half: str) -> list[dict]:
    qs = [json.loads(line) for line in QUESTIONS.read_text().splitlines() if line.strip()]
    return [q for q in qs if half == "all" or q["half"] == half]


@contextmanager
def capture() -> Iterator[dict]:
    """What the last ask scored, while the block runs (ask's own functions wrapped, then put back):
    "passages" as evidence_for was given them, "cands" the scored candidate sentences select was given."""
    seen: dict = {}
    inner_evidence, inner_select = A.evidence_for, A.select

    def evidence_for(question, passages, *args, **kw):
        seen["passages"] = list(passages)
        return inner_evidence(question, passages, *args, **kw)

    def select(cands, limit):
        seen["cands"] = list(cands)
        return inner_select(cands, limit)

    A.evidence_for, A.select = evidence_for, select
    try:
        yield seen
    finally:
        A.evidence_for, A.select = inner_evidence, inner_select


def record_features(sink: list) -> None:
    """Keep what ask.probability is given, question by question (the refusal fit's input)."""
    if not hasattr(A, "probability"):  # an ask before the learned refusal
        return
    inner = A.probability

    def recording(features: dict) -> float:
        sink.append(dict(features))
        return inner(features)

    A.probability = recording


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("library")
    ap.add_argument("--half", choices=("dev", "test", "all"), default="dev")
    ap.add_argument("--features", help="write each question's refusal features here (jsonl)")
    ap.add_argument("--profile", action="store_true")
    ap.add_argument("-v", action="store_true")
    args = ap.parse_args()
    qs = questions(args.half)
    sink: list[dict] = []
    record_features(sink)
    prof = cProfile.Profile() if args.profile else None
    found, verbatim = 0, 0
    refused_ans: list[bool] = []
    refused_un: list[bool] = []
    warm: list[float] = []
    rows: list[dict] = []
    with Library(args.library, create=False) as lib:
        for q in qs:
            resp = lib.ask(q["question"], limit=8)
            feats = sink[-1] if sink else {}
            t = time.perf_counter()
            if prof:
                prof.enable()
            lib.ask(q["question"], limit=8)
            if prof:
                prof.disable()
            warm.append(time.perf_counter() - t)
            units = lib.store.get_units([e.unit_id for e in resp.evidence])
            verbatim += all(e.quote in units[e.unit_id].text for e in resp.evidence)
            ok = q["answerable"] and right(lib, q, resp.evidence)
            found += ok
            (refused_ans if q["answerable"] else refused_un).append(resp.no_confident_answer)
            rows.append({"id": q["id"], "answerable": q["answerable"], "right": ok, **feats})
            if args.v and q["answerable"] and not ok:
                print("MISS", q["id"], q["question"], [(e.paper_id, e.page, e.quote[:70]) for e in resp.evidence[:3]])
    if args.features:
        Path(args.features).write_text("".join(json.dumps(r) + "\n" for r in rows))
    n_ans, n_un = len(refused_ans), len(refused_un)
    out = {"half": args.half, "answerable": n_ans, "unanswerable": n_un,
           "right_top3": round(found / max(1, n_ans), 3),
           "unanswerable_flagged": round(sum(refused_un) / max(1, n_un), 3),
           "answerable_flagged": round(sum(refused_ans) / max(1, n_ans), 3),
           "verbatim": f"{verbatim}/{len(qs)}",
           "warm_p50_ms": round(1000 * statistics.median(warm), 1) if warm else None}
    print(json.dumps(out))
    if prof:
        pstats.Stats(prof).sort_stats("cumulative").print_stats(35)


if __name__ == "__main__":
    main()
