"""The reader's section headings graded against hand-read truth on wide-corpus PDFs without an outline.

bench/pdf_outline_headings.py grades the layout heading rules only where a PDF carries an outline,
which on the wide corpus's dev half is 15 PDFs, mostly LaTeX-made: too few and too alike to say
how the rules do on the PDFs that need them most.  bench/data/wide_headings_dev.json holds the
headings of dev-half PDFs with no outline and no structured twin, read by a person from the
rendered pages (never from papershelf's output, so the truth does not inherit the reader's
mistakes).  Scoring is the outline bench's (bench/pdf_headings_score.py: number and title, case,
punctuation and spacing ignored; precision, recall, level accuracy).  As there, entries a reader
may fairly leave in the text are optional (neither rewarded nor penalised): run-in headings
("Purification and Crystallization. The ..."), entries marked optional (Keywords, structured
abstract labels), and levels below 2 unless --deep.

bench/data/zotero_headings_dev.json holds the same kind of truth for the shared Zotero library's dev-half
PDFs (keys are paths under zotero/storage); several carry an outline, which --no-outline hides so
that the layout rules are graded, as bench/pdf_outline_headings.py does.

    python bench/wide_headings.py DIR [--truth bench/data/wide_headings_dev.json] [--deep] [--no-outline] [--json] [-v]
    python bench/wide_headings.py ../shared/data/zotero/storage --truth bench/data/zotero_headings_dev.json --no-outline
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

from pdf_headings_score import score_paper, split_number, sum_scores
from pdf_outline_headings import layout_blocks

from papershelf.ingest.pdf import reader as pdf_reader

TRUTH = Path(__file__).parent / "data" / "wide_headings_dev.json"


def truth_entries(headings: list[dict], deep: bool = False) -> list[dict]:
    """A PDF's hand-read headings as pdf_headings_score truth entries."""
    entries = []
    for h in headings:
        number, title = split_number(h["text"])
        optional = h["runin"] or bool(h.get("optional")) or (h["level"] > 2 and not deep)
        entries.append({"level": h["level"], "number": number, "title": title, "page": h["page"],
                        "optional": optional})
    return entries


def grade(folder: Path, truth: dict, deep: bool = False, verbose: bool = False, outline: bool = True) -> dict:
    """Scores per publisher and overall; PDFs missing from the folder are counted, not graded."""
    by_publisher: dict[str, list[dict]] = defaultdict(list)
    absent = []
    for name, paper in sorted(truth.items()):
        if name.startswith("_"):
            continue
        path = folder / name
        if not path.exists():
            absent.append(name)
            continue
        blocks = pdf_reader.read_pdf(path.read_bytes()).blocks if outline else layout_blocks(path.read_bytes())
        s = score_paper(blocks, truth_entries(paper["headings"], deep))
        by_publisher[paper["publisher"]].append(s)
        if verbose:
            print(f"{name}: P {s['precision']} R {s['recall']}  missed {s['missed'][:6]}  "
                  f"spurious {s['spurious'][:6]}", file=sys.stderr)
    everything = [s for scores in by_publisher.values() for s in scores]
    return {"all": sum_scores(everything), "absent": absent,
            "by_publisher": {p: sum_scores(scores) for p, scores in sorted(by_publisher.items())}}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folder", type=Path, help="the pdfs-wide folder")
    ap.add_argument("--truth", type=Path, default=TRUTH)
    ap.add_argument("--deep", action="store_true", help="grade level-3 headings too")
    ap.add_argument("--no-outline", action="store_true", help="hide each PDF's outline: grade the layout rules")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("-v", action="store_true", help="per PDF: missed and spurious headings")
    args = ap.parse_args()
    result = grade(args.folder, json.loads(args.truth.read_text()), args.deep, args.v, not args.no_outline)
    if args.json:
        print(json.dumps(result, indent=1))
        return 0
    for name, s in [("ALL", result["all"]), *result["by_publisher"].items()]:
        print(f"{name[:40]:40s} pdfs {s['papers']:2d} truth {s['truth']:3d}  P {s['precision']:.3f}  "
              f"R {s['recall']:.3f}  levels {s['level_accuracy']:.3f}")
    if result["absent"]:
        print(f"absent from {args.folder}: {len(result['absent'])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
