"""Authors read from the shared PDFs (the whole reading path: page 1's author line, then the
document-info field only where page 1 confirms it) against bench/data/pdf_authors.json.

Per paper: the first author is right when its surname (accents and case ignored) is the truth's
first surname; the count is right when as many authors are found as printed; a non-author is a
found name whose surname is none of the printed authors' (an affiliation, a city, a series).
A paper printing no author line is right only when none is found.  Halves from
bench/data/pdf_split.json (tune on dev, report test).

    python bench/pdf_authors.py [--half test|dev|all] [--data ../shared/data] [--json] [-v]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import unicodedata
from pathlib import Path

from queryset import DEFAULT_DATA, pdf_dir

from papershelf.ingest import load_source, parse_source

ROOT = Path(__file__).resolve().parent
TRUTH = ROOT / "data" / "pdf_authors.json"
SPLIT = ROOT / "data" / "pdf_split.json"


def surname(name: str) -> str:
    words = [w for w in re.split(r"[\s.]+", name) if w]  # "G.Anandharaj" as Zotero may keep it
    last = words[-1] if words else ""
    return "".join(c for c in unicodedata.normalize("NFKD", last) if c.isalpha()).casefold()


def grade(found: list[str], truth: list[str]) -> dict:
    printed = {surname(n) for n in truth}
    strangers = [n for n in found if surname(n) not in printed]
    first = (not truth and not found) or bool(truth and found and surname(found[0]) == surname(truth[0]))
    return {"first": first, "count": len(found) == len(truth), "non_authors": strangers}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--half", choices=("dev", "test", "all"), default="test")
    ap.add_argument("--data", default=str(DEFAULT_DATA))
    ap.add_argument("--json", action="store_true")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    truth = {k: v for k, v in json.loads(TRUTH.read_text()).items() if not k.startswith("_")}
    split = json.loads(SPLIT.read_text())
    files = sorted(truth) if args.half == "all" else split[args.half]
    pdfs = pdf_dir(args.data)
    rows = []
    for f in files:
        doc = parse_source(load_source(str(pdfs / f)))
        rows.append({"file": f, "found": doc.authors, **grade(doc.authors, truth[f])})
    n = len(rows)
    both = sum(r["first"] and r["count"] for r in rows)
    out = {"half": args.half, "papers": n, "first_and_count_right": round(both / n, 3),
           "first_right": round(sum(r["first"] for r in rows) / n, 3),
           "count_right": round(sum(r["count"] for r in rows) / n, 3),
           "non_authors": sum(len(r["non_authors"]) for r in rows),
           "papers_with_non_authors": sum(bool(r["non_authors"]) for r in rows)}
    if args.verbose:
        out["wrong"] = [r for r in rows if not (r["first"] and r["count"]) or r["non_authors"]]
    if args.json:
        print(json.dumps(out, indent=1, ensure_ascii=False))
    else:
        for k, v in out.items():
            if k != "wrong":
                print(f"{k:24s} {v}")
        for r in out.get("wrong", []):
            print(f"  {r['file']}: {r['found']} (non-authors {r['non_authors']})", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
