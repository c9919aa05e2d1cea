"""Authors, headings and year read from PDFs nobody tuned on: papers typeset with publishers' LaTeX
classes (bench/latex_papers.py, truth by construction) and the template sample PDFs TeX Live ships
(bench/data/pdf_authors_texdocs.json, read by hand from rendered pages: authors, year, and the
headings of page 1, against which only the headings found on page 1 are graded).

The whole reading path, as `add` reads a loose PDF (`load_source`/`parse_source`, as
bench/pdf_authors.py does), graded with bench/pdf_authors.py's `grade` (first surname right, count
right, non-authors) and bench/pdf_headings_score.py's `score_paper` (heading precision/recall; a
class's own labels such as "Abstract" are optional).  A year is right, wrong or empty where the page
prints one; where it prints none a found year is counted apart ("unprinted"); a texdocs PDF whose
printed year is ambiguous has none in the truth and is not graded for it.  Halves fixed before
anything ran: generated papers by seed parity (dev = even), texdocs PDFs by sha1 of their path
(the JSON's "split").  Tune on dev; the test half is for the final report.

    python bench/pdf_authors_latex.py [--half dev|test|all] [--source latex|texdocs|all] [--json] [-v]
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from collections import defaultdict
from pathlib import Path

from latex_papers import papers
from pdf_authors import grade
from pdf_headings_score import score_paper, sum_scores

from papershelf.errors import IngestError
from papershelf.ingest import load_source, parse_source

TEXDOCS_TRUTH = Path(__file__).resolve().parent / "data" / "pdf_authors_texdocs.json"
TEXDOCS = Path("/usr/share/doc/texlive-doc/latex")


def _cases(half: str, source: str) -> list[dict]:
    """(pdf, class, truth) for the chosen half: generated papers, then the texdocs samples."""
    out = []
    if source in ("latex", "all") and shutil.which("pdflatex"):
        for pdf, t, _ in papers(half):
            out.append({"pdf": pdf, "name": f"seed {t['seed']}", "class": t["class"], **t})
    if source in ("texdocs", "all") and TEXDOCS_TRUTH.exists():
        truth = json.loads(TEXDOCS_TRUTH.read_text(encoding="utf-8"))
        for rel in sorted(truth["papers"]):
            if (half == "all" or rel in truth["split"][half]) and (TEXDOCS / rel).exists():
                t = truth["papers"][rel]
                out.append({"pdf": TEXDOCS / rel, "name": rel, "class": "texdocs/" + rel.split("/")[0],
                            "authors": t["authors"], "headings": t.get("headings"),
                            "year": t.get("year", "unchecked"), "pages": truth.get("headings_pages")})
    return out


def _grade(case: dict) -> dict:
    row = {"name": case["name"], "class": case["class"], "truth": case["authors"]}
    if case["pdf"] is None:
        return row | {"error": "did not compile"}
    try:
        doc = parse_source(load_source(str(case["pdf"])))
    except IngestError as e:
        return row | {"error": str(e)}
    row |= {"found": doc.authors, **grade(doc.authors, case["authors"])}
    if case.get("headings"):  # truth for the first pages only grades the headings found there
        limit = case.get("pages")
        blocks = [b for b in doc.blocks if limit is None or (b.page or 1) <= limit]
        row["headings"] = score_paper(blocks, case["headings"])
    printed = case.get("year")
    row["found_year"] = doc.year
    row["year"] = "unchecked" if printed == "unchecked" else \
        ("unprinted" if doc.year else "none") if printed is None else \
        ("empty" if doc.year is None else "right" if doc.year == printed else "wrong")
    return row


def summarize(rows: list[dict]) -> dict:
    read = [r for r in rows if "error" not in r]
    n = max(1, len(read))
    heads = sum_scores([r["headings"] for r in read if "headings" in r])
    years = {k: sum(r["year"] == k for r in read) for k in ("right", "wrong", "empty", "unprinted")}
    return {"papers": len(rows), "unreadable": len(rows) - len(read),
            "first_and_count_right": round(sum(r["first"] and r["count"] for r in read) / n, 3),
            "first_right": round(sum(r["first"] for r in read) / n, 3),
            "count_right": round(sum(r["count"] for r in read) / n, 3),
            "non_authors": sum(len(r["non_authors"]) for r in read),
            "papers_with_non_authors": sum(bool(r["non_authors"]) for r in read),
            "headings": {k: heads[k] for k in ("papers", "truth", "tp", "fp", "precision", "recall")},
            "year": years}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--half", choices=("dev", "test", "all"), default="dev")
    ap.add_argument("--source", choices=("latex", "texdocs", "all"), default="all")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    if args.source != "texdocs" and not shutil.which("pdflatex"):
        print("pdflatex not found: generated papers skipped", file=sys.stderr)
    rows = [_grade(c) for c in _cases(args.half, args.source)]
    if not rows:
        print("nothing to grade (no pdflatex, no texdocs PDFs)")
        return 0
    by_class: dict[str, list[dict]] = defaultdict(list)
    for r in rows:
        by_class[r["class"]].append(r)
    out = {"half": args.half, "source": args.source,
           "latex": summarize([r for r in rows if not r["class"].startswith("texdocs/")]),
           "texdocs": summarize([r for r in rows if r["class"].startswith("texdocs/")]),
           "all": summarize(rows), "per_class": {k: summarize(v) for k, v in sorted(by_class.items())}}
    if args.verbose:
        out["per_paper"] = rows
    if args.json:
        print(json.dumps(out, indent=1, ensure_ascii=False, default=str))
        return 0
    _print(out)
    return 0


def _line(name: str, s: dict) -> str:
    h = s["headings"]
    heads = f"headings P {h['precision']:.3f} R {h['recall']:.3f} ({h['tp']}/{h['truth']}, fp {h['fp']})" \
        if h["papers"] else "headings -"
    y = s["year"]
    return (f"{name:28s} {s['papers']:3d}  first+count {s['first_and_count_right']:.3f}  first {s['first_right']:.3f}"
            f"  non-authors {s['non_authors']:2d}  {heads}  year {y['right']}/{y['wrong']}/{y['empty']}"
            f" (+{y['unprinted']} unprinted)")


def _print(out: dict) -> None:
    print(f"half {out['half']}   papers  (year right/wrong/empty)")
    for name, s in out["per_class"].items():
        print(_line(name, s))
    for name in ("latex", "texdocs", "all"):
        if out[name]["papers"]:
            print(_line(f"== {name}", out[name]))
    for r in out.get("per_paper", []):
        if "error" in r:
            print(f"  {r['name']} ({r['class']}): {r['error']}")
            continue
        mark = "ok " if r["first"] and r["count"] and not r["non_authors"] else "BAD"
        print(f"  {mark} {r['name']} ({r['class']}): found {r['found']} | truth {r['truth']}"
              f" | year {r['found_year']} {r['year']}")
        if "headings" in r and (r["headings"]["missed"] or r["headings"]["spurious"]):
            print(f"      headings missed {r['headings']['missed']} spurious {r['headings']['spurious']}")


if __name__ == "__main__":
    sys.exit(main())
