"""Metadata a PDF states about itself (papershelf.ingest.pdf.front.meta) against ../shared/data/pdfs/manifest.json.

The year is the one the whole PDF reading path gives (`pdf_year.checked_year`: the printed year
within the bounds the reference list and the creation date set, or the creation date the
references pin down); DOI and venue are `read_pdf_meta`'s.
Truth, from the manifest's ``venue`` field: the year is the 4-digit year it names
(else the YYMM of the arXiv id it names); the DOI is the ``doi:`` it lists (else none
is expected: a DOI returned then counts as wrong); the venue is right when the venue
found names the manifest venue's acronym or its expansion.  Per field: right, wrong
(a value that differs, or a value where none is expected), empty.

The PDFs are those of bench/data/pdf_split.json's half (tune on dev, report test; default all).

    python bench/pdf_metadata.py [--half dev|test|all] [--data ../shared/data] [--json]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from pathlib import Path

from papershelf.ingest import load_source, parse_source
from papershelf.ingest.pdf.front.meta import read_pdf_meta
from papershelf.ingest.pdf.front.year import checked_year

ROOT = Path(__file__).resolve().parent.parent
SPLIT = ROOT / "bench" / "data" / "pdf_split.json"

# Expansions of the acronyms the manifest uses, to recognise a venue written out in full.
EXPANSIONS = {
    "ACL": "Computational Linguistics", "EACL": "European Chapter of the Association",
    "EMNLP": "Empirical Methods in Natural Language", "NAACL": "North American Chapter",
    "CoNLL": "Computational Natural Language Learning", "ICML": "International Conference on Machine Learning",
    "NIPS": "Neural Information Processing", "NeurIPS": "Neural Information Processing", "OSDI": "OSDI",
    "VLDB": "Very Large Data Bases", "PVLDB": "VLDB", "BMC": "BMC", "arXiv": "arXiv",
    "PeerJ": "PeerJ", "Clinical": "Clinical Science", "Psychogeriatrics": "Psychogeriatrics",
}


def truth(venue: str) -> dict:
    year = re.search(r"\b((?:19|20)\d\d)\b", venue)
    arxiv = re.search(r"arXiv:(\d\d)\d\d\.", venue)
    doi = re.search(r"doi:(10\.\S+)", venue)
    return {"year": int(year.group(1)) if year else (2000 + int(arxiv.group(1)) if arxiv else None),
            "doi": doi.group(1).rstrip(",") if doi else None,
            "venue": [w for w in re.findall(r"[A-Za-z]+", venue) if w in EXPANSIONS]}


def venue_right(found: str, acronyms: list[str]) -> bool:
    low = found.lower()
    return any(a.lower() in low or EXPANSIONS[a].lower() in low for a in acronyms)


def grade(value, expected, same) -> str:
    if value in (None, ""):
        return "empty"
    return "right" if expected not in (None, []) and same(value, expected) else "wrong"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default=str(ROOT.parent / "shared" / "data"))
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--half", choices=("dev", "test", "all"), default="all")
    args = ap.parse_args()
    manifest = Path(args.data) / "pdfs" / "manifest.json"
    if not manifest.exists():
        print(f"no manifest at {manifest}", file=sys.stderr)
        return 2
    rows, t0 = [], time.perf_counter()
    half = None if args.half == "all" else set(json.loads(SPLIT.read_text())[args.half])
    for entry in json.loads(manifest.read_text()):
        if half is not None and Path(entry["file"]).name not in half:
            continue
        path = Path(args.data) / entry["file"]
        meta = read_pdf_meta(path.read_bytes(), str(path))
        refs = parse_source(load_source(str(path))).references
        year, rule = checked_year(meta.year, refs, meta.created)
        meta.year = year
        if rule:
            meta.evidence["year"] = rule
        t = truth(entry["venue"])
        rows.append({
            "file": path.name, "expected": t, "year": meta.year, "doi": meta.doi, "venue": meta.venue,
            "evidence": meta.evidence,
            "grades": {"year": grade(meta.year, t["year"], lambda a, b: a == b),
                       "doi": grade(meta.doi, t["doi"], lambda a, b: a.lower() == b.lower()),
                       "venue": grade(meta.venue, t["venue"], venue_right)}})
    elapsed = time.perf_counter() - t0
    totals = {f: {g: sum(r["grades"][f] == g for r in rows) for g in ("right", "wrong", "empty")}
              for f in ("year", "doi", "venue")}
    if args.json:
        print(json.dumps({"papers": len(rows), "totals": totals, "seconds": elapsed, "rows": rows}, indent=1))
        return 0
    for r in rows:
        g = r["grades"]
        print(f"{r['file'][:44]:44} year {r['year']!s:5} {g['year']:5} | doi {g['doi']:5} | "
              f"venue {g['venue']:5} {str(r['venue'])[:50]}")
    print(f"\n{len(rows)} PDFs in {elapsed:.2f} s")
    for f, t in totals.items():
        print(f"{f:6} right {t['right']:2}  wrong {t['wrong']:2}  empty {t['empty']:2}  "
              f"({100 * t['right'] / len(rows):.1f} % right)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
