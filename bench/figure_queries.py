"""How well search finds a figure or table from a researcher's description of it.

Builds a library of the 27 shared PDFs embedded with the library's default model
(or reuses one with --keep PATH: existing papers are skipped, only missing
vectors are encoded), then runs every query of bench/data/figure_queries.jsonl

* in default search (hybrid, 10 results, the default per-paper cap), and
* restricted to objects (`Filters(sources=["object_unit"])`),

and reports hit@1, hit@5, hit@10 and MRR@10 for each, overall, per style
(visual / content / finding), per kind and for the two halves (odd / even ids),
so a ranking change can be checked on a half it was not tuned on. A hit is a
result with source object_unit, the query's paper and the query's label.

The caption-phrase check guards the other direction: for every caption (labels in
the manifest) whose parsed caption text has at least 8 words, its first 8 words
are searched in lexical mode; the object should rank first. A description-friendly
ranking must not lose the exact phrase a researcher remembers.

    python bench/figure_queries.py [--keep /tmp/fig.db] [--data ../shared/data] [--json]
"""

from __future__ import annotations

import argparse
import json
import time
from collections import defaultdict
from pathlib import Path
from typing import TypedDict

from queryset import (
    DEFAULT_DATA,
    QUERIES,
    embed_pending,
    hit_field,
    id_number,
    load_queries,
    log,
    manifest_captions,
    open_library,
    paper_objects,
    pdf_dir,
    words,
)

from papershelf import Filters, Library, SearchOptions


class Ranking(TypedDict, total=False):
    """SearchOptions fields that make a ranking other than the default one."""

    objects_per_paper: int | None
    object_lift: float
    phrase_boost: float


# The ranking before issue #10 (shared per-paper cap, no object lift, no phrase boost), run beside
# today's default in the same process so the two are compared under the same load.
BEFORE: Ranking = {"objects_per_paper": None, "object_lift": 0.0, "phrase_boost": 0.0}
CONFIGS = {
    "before": lambda: SearchOptions(**BEFORE),
    "default": lambda: SearchOptions(),
    "objects": lambda: SearchOptions(filters=Filters(sources=["object_unit"])),
}
DESCRIBE = {"before": "hybrid, 10 results, the ranking before #10",
            "default": "hybrid, 10 results, default options", "objects": "object units only"}
PHRASE_WORDS = 8


def build(lib: Library, pdfs: Path) -> dict:
    """Add every shared PDF and embed what is pending, printing progress (minutes on 2 cores)."""
    t0 = time.perf_counter()
    files = sorted(str(p) for p in pdfs.glob("*.pdf"))
    report = lib.add(files)
    log(f"{len(files)} PDFs: {report.count('added')} added, {report.count('updated')} updated, "
        f"{report.count('unchanged')} unchanged, {report.count('failed')} failed ({time.perf_counter() - t0:.1f}s)")
    added = round(time.perf_counter() - t0, 1)
    emb, seconds = embed_pending(lib, "papers")
    return {"papers": len(files), "add_seconds": added, "embed_seconds": seconds, "embedded_now": len(emb.embedded)}


def target_rank(results: list, paper_id: str, label: str) -> int | None:
    """Rank (from 1) of the first result that is the wanted object, None when absent."""
    for rank, hit in enumerate(results, start=1):
        if (hit_field(hit, "source") == "object_unit" and hit_field(hit, "paper_id") == paper_id
                and hit_field(hit, "object_label") == label):
            return rank
    return None


def paper_rank(results: list, paper_id: str) -> int | None:
    """Rank of the first result from the query's paper (any unit): tells "wrong paper" from "right paper,
    wrong unit" when the object itself is missing."""
    for rank, hit in enumerate(results, start=1):
        if hit_field(hit, "paper_id") == paper_id:
            return rank
    return None


def metrics(ranks: list[int | None]) -> dict:
    """hit@1/5/10 and MRR@10 over a list of ranks (None = not in the results)."""
    n = len(ranks)
    if not n:
        return {"n": 0}
    out: dict = {"n": n}
    for k in (1, 5, 10):
        hits = sum(1 for r in ranks if r is not None and r <= k)
        out[f"hit@{k}"] = hits
        out[f"hit@{k}_rate"] = round(hits / n, 4)
    out["mrr"] = round(sum(1 / r for r in ranks if r is not None and r <= 10) / n, 4)
    return out


def groups(rows: list[dict]) -> dict[str, list[dict]]:
    """The slices reported: overall, per style, per kind, odd/even halves."""
    out: dict[str, list[dict]] = defaultdict(list)
    for r in rows:
        out["all"].append(r)
        out[f"style:{r['style']}"].append(r)
        out[f"kind:{r['kind']}"].append(r)
        out["half:odd" if id_number(r["id"]) % 2 else "half:even"].append(r)
    return dict(sorted(out.items(), key=lambda kv: (kv[0] != "all", kv[0])))


def run_queries(lib: Library, queries: list[dict], papers: dict) -> tuple[list[dict], dict]:
    """Every query in every configuration; per-query ranks plus the modes and notices seen."""
    rows: list[dict] = []
    modes: defaultdict[str, int] = defaultdict(int)
    notices: set[str] = set()
    for q in queries:
        paper_id = papers[q["pdf"]][0] if q["pdf"] in papers else None
        row = {k: q[k] for k in ("id", "query", "pdf", "label", "kind", "style")}
        for name, make in CONFIGS.items():
            resp = lib.search(q["query"], make())
            modes[f"{name}:{resp.mode}"] += 1
            notices.update(resp.notices)
            row[name] = target_rank(resp.results, paper_id, q["label"]) if paper_id else None
            row[f"{name}_paper"] = paper_rank(resp.results, paper_id) if paper_id else None
        rows.append(row)
    return rows, {"modes": dict(modes), "notices": sorted(notices)}


def caption_phrase_check(lib: Library, papers: dict, manifest: dict, extra: Ranking | None = None) -> dict:
    """First 8 words of each long enough caption, lexical mode: how often is that object first?
    `extra`: further SearchOptions fields (BEFORE: the ranking before #10)."""
    ranks, misses = [], []
    for pdf, (paper_id, objects) in sorted(papers.items()):
        for label, obj in objects.items():
            tokens = words(obj.get("caption") or "")
            if label not in manifest.get(pdf, {}) or len(tokens) < PHRASE_WORDS:
                continue
            phrase = " ".join(tokens[:PHRASE_WORDS])
            resp = lib.search(phrase, SearchOptions(mode="lexical", **(extra or {})))
            rank = target_rank(resp.results, paper_id, label)
            ranks.append(rank)
            if rank != 1:
                top = resp.results[0] if resp.results else None
                misses.append({"pdf": pdf, "label": label, "phrase": phrase, "rank": rank,
                               "top": top and f"{hit_field(top, 'paper_id')} {hit_field(top, 'object_label') or hit_field(top, 'source')}"})
    first = sum(1 for r in ranks if r == 1)
    return {"captions": len(ranks), "first": first, "first_rate": round(first / max(1, len(ranks)), 4),
            "top10": sum(1 for r in ranks if r is not None), "misses": misses}


def report(rows: list[dict]) -> dict:
    return {name: {g: metrics([r[name] for r in rs]) for g, rs in groups(rows).items()} for name in CONFIGS}


def print_text(out: dict) -> None:
    print(f"{out['queries']} queries, {out['papers_with_queries']} papers; library {out['library']}")
    print(f"search modes used: {out['run']['modes']}")
    for notice in out["run"]["notices"]:
        print(f"notice: {notice}")
    for name, table in out["results"].items():
        print(f"\n{name} ({DESCRIBE[name]})")
        print(f"{'slice':<16}{'n':>4}{'hit@1':>8}{'hit@5':>8}{'hit@10':>8}{'MRR':>8}")
        for g, m in table.items():
            print(f"{g:<16}{m['n']:>4}{m['hit@1']:>8}{m['hit@5']:>8}{m['hit@10']:>8}{m['mrr']:>8.3f}")
    b = out["caption_phrase_before"]
    print(f"\ncaption phrase before #10: first for {b['first']}/{b['captions']} ({b['first_rate']:.1%})")
    c = out["caption_phrase"]
    print(f"\ncaption phrase (first {PHRASE_WORDS} words, lexical): first for {c['first']}/{c['captions']} "
          f"({c['first_rate']:.1%}), in top 10 for {c['top10']}")
    for m in c["misses"]:
        print(f"  rank {m['rank']}: {m['pdf']} {m['label']} \"{m['phrase']}\" (top: {m['top']})")
    for name in CONFIGS:
        lost = [r for r in out["queries_detail"] if r[name] is None]
        paper = sum(1 for r in lost if r[f"{name}_paper"] is not None)
        print(f"{name}: object not in top 10 for {len(lost)} queries; for {paper} of them its paper is there "
              f"(with another unit)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--queries", default=str(QUERIES))
    ap.add_argument("--data", default=str(DEFAULT_DATA))
    ap.add_argument("--keep", metavar="PATH", help="build into / reuse this library file")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    pdfs = pdf_dir(args.data)
    queries = [q for q in load_queries(args.queries) if "_error" not in q]
    manifest = manifest_captions(pdfs)
    with open_library(args.keep, "fig") as lib:
        built = build(lib, pdfs)
        lib.search("warm up")  # load the model and the vector matrix once
        papers = paper_objects(lib, pdfs)
        missing = sorted({q["pdf"] for q in queries} - set(papers))
        if missing:
            log(f"warning: no paper in the library for {missing}")
        rows, run = run_queries(lib, queries, papers)
        out = {"date": time.strftime("%Y-%m-%d"), "library": args.keep or "temporary", "build": built,
               "queries": len(queries), "papers_with_queries": len({q["pdf"] for q in queries}),
               "run": run, "results": report(rows), "caption_phrase": caption_phrase_check(lib, papers, manifest),
               "caption_phrase_before": caption_phrase_check(lib, papers, manifest, BEFORE),
               "queries_detail": rows}
    if args.json:
        print(json.dumps(out, indent=1, ensure_ascii=False))
    else:
        print_text(out)


if __name__ == "__main__":
    main()
