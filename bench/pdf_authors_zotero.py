"""Authors and year read from PDFs nobody here wrote truth for: the shared Zotero library's PDFs,
graded against the metadata Zotero holds for their items (creators in order, date).

Zotero's item metadata comes from publishers' and translators' records, not from this project,
so these PDFs are a test set for the PDF reader that no rule was written against.  Each PDF is
read alone, as `add` reads a loose PDF (no Zotero metadata): the printed author line, the
document-info field only where page 1 confirms it, the year from the page and its bounds.
Grading is `bench/pdf_authors.py`'s (first surname right, count right, non-authors); a year is
right, wrong or empty against Zotero's (Zotero's date is the record's, which may be a journal
issue a year after a preprint: a wrong year is listed so it can be read).  Halves by
int(sha1(attachment key)[:8], 16) parity: odd = test; `--half dev` is what may be looked at.

    python bench/pdf_authors_zotero.py [--half dev|test|all] [--data ../shared/data] [-v]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

from pdf_authors import grade
from queryset import DEFAULT_DATA

from papershelf.errors import IngestError
from papershelf.ingest import load_source, parse_source
from papershelf.ingest.zotero import read_zotero


def half_of(key: str) -> str:
    return "test" if int(hashlib.sha1(key.encode()).hexdigest()[:8], 16) % 2 else "dev"


def rows(data: Path, half: str) -> list[dict]:
    out: list[dict] = []
    for a in read_zotero(str(data / "zotero")):
        if not a.exists or not a.path.lower().endswith(".pdf") or (half != "all" and half_of(a.key) != half):
            continue
        try:
            doc = parse_source(load_source(a.path))
        except IngestError as e:
            out.append({"key": a.key, "error": str(e)})
            continue
        year = "empty" if doc.year is None else ("right" if doc.year == a.meta.year else "wrong")
        out.append({"key": a.key, "file": Path(a.path).name[:60], "found": doc.authors, "truth": a.meta.authors,
                    "year": year, "found_year": doc.year, "truth_year": a.meta.year,
                    **grade(doc.authors, a.meta.authors)})
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--half", choices=("dev", "test", "all"), default="dev")
    ap.add_argument("--data", default=str(DEFAULT_DATA))
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    got = rows(Path(args.data), args.half)
    read = [r for r in got if "error" not in r]
    n = len(read)
    summary = {"half": args.half, "pdfs": len(got), "unreadable": len(got) - n,
               "first_and_count_right": round(sum(r["first"] and r["count"] for r in read) / n, 3),
               "first_right": round(sum(r["first"] for r in read) / n, 3),
               "non_authors": sum(len(r["non_authors"]) for r in read),
               "year_right": sum(r["year"] == "right" for r in read), "year_wrong": sum(r["year"] == "wrong" for r in read),
               "year_empty": sum(r["year"] == "empty" for r in read)}
    print(json.dumps(summary, ensure_ascii=False))
    if args.verbose:
        for r in got:
            if "error" in r or not (r["first"] and r["count"]) or r["non_authors"] or r["year"] != "right":
                print(json.dumps(r, ensure_ascii=False), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
