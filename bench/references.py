"""Reference lists read from the shared PDFs and structured texts, against hand-written truth.

    python bench/references.py --half dev            # tune on this
    python bench/references.py --half test           # report this, once
    python bench/references.py --half all --links    # + in-library links (builds a library of every file)
    python bench/references.py --timing              # what reading references adds to `add` (wall and CPU)

Counts: an entry count is right within max(1, 5 %) of the printed list.  Entries: each transcribed
entry is looked up among the parsed ones by title (normalized, similarity >= 0.9); its first
author (surname) and year are then checked on that entry.  Links: every reference of every paper
linked to a paper of the library, compared at the level of works with the truth's citing -> cited pairs.
Truth: bench/data/references_truth.json; split: bench/data/references_split.json.
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from papershelf import ingest
from papershelf.ingest.metadata import normalized_title
from papershelf.works import surname

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "..", "shared", "data")


def data_root() -> str:
    return os.environ.get("PAPERSHELF_SHARED_DATA", DATA)


def path_of(key: str) -> str:
    return os.path.join(data_root(), key if key.startswith("pdfs/") else os.path.join("fulltext", key))


def half_keys(truth: dict, half: str) -> list[str]:
    split = json.load(open(os.path.join(HERE, "data", "references_split.json")))
    keys = [f"pdfs/{n}.pdf" for n in split["pdfs"].get(half, [])] + list(split["fulltext"].get(half, []))
    if half == "all":
        keys = sorted(truth["papers"])
    return [k for k in keys if k in truth["papers"]]


def similar(a: str | None, b: str | None) -> float:
    a, b = normalized_title(a), normalized_title(b)
    if not a or not b:
        return 0.0
    return difflib.SequenceMatcher(None, a, b).ratio()


def same_author(truth: str | None, authors: list[str]) -> bool:
    if not truth:
        return True
    got = surname(authors[0]) if authors else ""
    want = normalized_title(truth).replace(" ", "")
    return bool(got) and (got == want or got in want or want in got)


def score_paper(key: str, refs, truth: dict) -> dict:
    count, want = len(refs), truth["count"]
    row = {"paper": key, "count": count, "truth": want, "count_ok": abs(count - want) <= max(1, 0.05 * want),
           "entries": 0, "title_ok": 0, "author_year_ok": 0, "misses": []}
    for e in truth["entries"]:
        row["entries"] += 1
        best = max(refs, key=lambda r: similar(r.title, e["title"]), default=None)
        if best is None or similar(best.title, e["title"]) < 0.9:
            best = max(refs, key=lambda r: similar(r.text, e["title"]) if e["title"].lower()[:20] in r.text.lower()
                       else 0, default=None)
            row["misses"].append({"want": e["title"], "got": best.title if best else None})
        else:
            row["title_ok"] += 1
        if best is not None and same_author(e["first_author"], best.authors) and \
                (e["year"] is None or best.year == e["year"]):
            row["author_year_ok"] += 1
        elif best is not None:
            row["misses"].append({"author_year": [e["first_author"], e["year"]], "got": [best.authors[:1], best.year]})
    return row


def read(key: str):
    src = ingest.load_source(path_of(key), None)
    return ingest.parse_source(src)


def run_quality(truth: dict, keys: list[str], verbose: bool) -> dict:
    rows = [score_paper(k, read(k).references, truth["papers"][k]) for k in keys]
    n = len(rows)
    entries = sum(r["entries"] for r in rows)
    out = {"papers": n, "count_ok": sum(r["count_ok"] for r in rows),
           "entries": entries, "title_ok": sum(r["title_ok"] for r in rows),
           "author_year_ok": sum(r["author_year_ok"] for r in rows)}
    out["count_rate"] = round(out["count_ok"] / max(1, n), 3)
    out["title_rate"] = round(out["title_ok"] / max(1, entries), 3)
    out["author_year_rate"] = round(out["author_year_ok"] / max(1, entries), 3)
    if verbose:
        out["rows"] = rows
    return out


def run_links(truth: dict) -> dict:
    """A library of every file; its links against the truth's pairs, as works (file -> paper id)."""
    from papershelf import Library

    with tempfile.TemporaryDirectory() as tmp, Library(os.path.join(tmp, "lib.db")) as lib:
        paper_of = {}
        for key in sorted(truth["papers"]):
            result = lib.add_file(path_of(key))
            paper_of[key] = result.paper_id
        found = set()
        for pid in sorted({p for p in paper_of.values() if p}):
            for ref in lib.references(pid).references:
                if ref.paper_id and ref.paper_id != pid:
                    found.add((pid, ref.paper_id))
        want = {(paper_of[a], paper_of[b]) for a, b in truth["links"]}
        hits = found & want
        return {"links_found": len(found), "links_truth": len(want), "correct": len(hits),
                "recall": round(len(hits) / max(1, len(want)), 3), "precision": round(len(hits) / max(1, len(found)), 3),
                "wrong": sorted(found - want), "missed": sorted(want - found)}


def run_timing(rounds: int) -> dict:
    """`add` of every shared PDF with reference reading on and off (alternating, fresh libraries)."""
    from papershelf import Library
    from papershelf.ingest.pdf import reader as pdf_module

    pdfs = sorted(os.path.join(data_root(), "pdfs", f) for f in os.listdir(os.path.join(data_root(), "pdfs"))
                  if f.endswith(".pdf"))
    real = pdf_module.pdf_references
    times: dict[str, list[float]] = {"with": [], "without": []}
    cpu: dict[str, list[float]] = {"with": [], "without": []}
    for _ in range(rounds):
        for mode in ("without", "with"):
            pdf_module.pdf_references = real if mode == "with" else (lambda *a, **k: [])
            with tempfile.TemporaryDirectory() as tmp, Library(os.path.join(tmp, "lib.db")) as lib:
                start, start_cpu = time.perf_counter(), time.process_time()
                for p in pdfs:
                    lib.add_file(p)
                times[mode].append(time.perf_counter() - start)
                cpu[mode].append(time.process_time() - start_cpu)
    pdf_module.pdf_references = real
    med = {k: statistics.median(v) for k, v in times.items()}
    med_cpu = {k: statistics.median(v) for k, v in cpu.items()}
    return {"pdfs": len(pdfs), "rounds": rounds, "median_with_s": round(med["with"], 3),
            "median_without_s": round(med["without"], 3), "added": round(med["with"] / med["without"] - 1, 3),
            "cpu_with_s": round(med_cpu["with"], 3), "cpu_without_s": round(med_cpu["without"], 3),
            "cpu_added": round(med_cpu["with"] / med_cpu["without"] - 1, 3)}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--half", default="dev", choices=("dev", "test", "all"))
    ap.add_argument("--links", action="store_true")
    ap.add_argument("--timing", action="store_true")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    if not os.path.isdir(data_root()):
        sys.exit(f"shared data not found at {data_root()}")
    truth = json.load(open(os.path.join(HERE, "data", "references_truth.json")))
    out: dict = {"half": args.half, **run_quality(truth, half_keys(truth, args.half), args.verbose)}
    if args.links:
        out["links"] = run_links(truth)
    if args.timing:
        out["timing"] = run_timing(args.rounds)
    print(json.dumps(out, indent=1, ensure_ascii=False))


if __name__ == "__main__":
    main()
