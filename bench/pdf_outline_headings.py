"""The layout heading rules graded against the authors' own outlines, on PDFs nobody hand-read.

Many PDFs carry an outline (bookmarks) written by the typesetting system from the document's
sectioning commands.  papershelf uses it as the authority when it exists; here it is truth for
the *other* path: each PDF is read with its outline hidden, and the headings the layout rules find
are scored against the outline (bench/pdf_headings_score.py's matching: number and title, case,
punctuation and spacing ignored).  That measures the rules that decide for the many PDFs without
an outline, on any folder of PDFs, with no hand-made truth.

Truth is the outline's entries of levels 1-2 whose title is printed on the entry's page
(levels counted from the sections: an outline whose only top entries are the paper's title, with
every other entry below them, has its sections one level down; the title entries are optional)
(an entry the page does not show, "Title page", "Cover", cannot be found by layout); deeper
entries, entries for figures and tables ("Fig 1"), and the standard front and back matter names an
outline leaves out (Abstract, References, Acknowledgements, Contents …) are optional (neither
rewarded nor penalised).  A found heading that matches no entry
counts against precision, so precision is a lower bound where an outline leaves headings out.
PDFs are split by the parity of sha1(file name) into dev and test halves.

The truth is read from each outline through papershelf's own outline code, so a change to that code
moves the denominator between rounds.  --truth-out FILE freezes the dev half's truth in a file (never
the test half's); --truth-in FILE grades against such a file instead, so rounds compare on one truth.
bench/data/outline_headings_dev.json is the wide corpus's dev half frozen at c3ac2c4 (heads16: 15 PDFs, 305).
Corrected by heads17 where the rendered page shows the outline wrong (295 required): cacm-1974's
author line and its nine list items ("1. Its owner.") are no headings; pomacs-2022 prints no "Abstract"
(the word was found in "Abstracting with credit"); arxiv-2015's five unnumbered level-3 headings under
A.2, which the outline leaves out, are listed as optional.

    python bench/pdf_outline_headings.py DIR [--half dev|test|all] [--split bench/data/wide_split.json] [--json] [-v]
    python bench/pdf_outline_headings.py DIR --split bench/data/wide_split.json --half dev --truth-out /tmp/dev-truth.json
    python bench/pdf_outline_headings.py DIR --split bench/data/wide_split.json --half dev --truth-in /tmp/dev-truth.json
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import re
import sys
from pathlib import Path

import pypdfium2 as pdfium
from pdf_headings_score import plain, score_paper, split_number, sum_scores

from papershelf.ingest.pdf import reader as pdf_reader
from papershelf.ingest.pdf.sections.outline import read_outline


def half_of(name: str) -> str:
    return "dev" if hashlib.sha1(name.encode()).digest()[0] % 2 == 0 else "test"


def outline_truth(data: bytes) -> list[dict]:
    """The outline's entries as truth entries; [] when the PDF has no usable outline."""
    pdf = pdfium.PdfDocument(data)
    try:
        entries = read_outline(pdf)
        pages = {e.page for e in entries if e.page}
        shown = {p: plain(pdf[p - 1].get_textpage().get_text_range()) for p in pages if 0 < p <= len(pdf)}
    finally:
        pdf.close()
    truth: list[dict] = []
    listed: set[str] = set()
    wrappers = _wrappers(entries)
    for k, e in enumerate(entries):
        if k < wrappers:  # the paper's title holding every section: no section itself
            truth.append({"level": 1, "number": "", "title": e.title, "page": e.page, "optional": True})
            continue
        e = dataclasses.replace(e, level=e.level - 1) if wrappers else e
        number, title = split_number(e.title)
        listed.add(plain(title))
        printed = bool(plain(title)) and plain(title) in shown.get(e.page or 0, "")
        truth.append({"level": e.level, "number": number, "title": title, "page": e.page,
                      "optional": e.level > 2 or not printed or bool(_OBJECT.match(title))})
    truth += [{"level": 1, "number": "", "title": name, "page": None, "optional": True}
              for name in _UNLISTED if plain(name) not in listed]
    return truth if sum(not t["optional"] for t in truth) >= 3 else []


def _wrappers(entries) -> int:
    """How many level-1 entries open the outline as the paper's title over all of it (one entry, or
    a title cut in two), with every other entry below them: their children are the sections, one
    level up.  0 when level 1 holds the sections themselves."""
    k = 0
    while k < len(entries) and entries[k].level == 1:
        k += 1
    rest = entries[k:]
    return k if 0 < k <= 2 and rest and all(e.level > 1 for e in rest) else 0


# An outline's entries for figures and tables are objects, not sections; and many outlines leave out
# the front and back matter a paper prints as headings: found, those neither count nor are wrong.
_OBJECT = re.compile(r"^(?:fig(?:ure)?|table|scheme|plate)\.?\s*\d", re.IGNORECASE)
_UNLISTED = ("Abstract", "Contents", "Keywords", "Acknowledgements", "Acknowledgments", "Acknowledgement",
             "Acknowledgment", "References", "Bibliography", "Appendix")


def layout_blocks(data: bytes):
    """The PDF's blocks as the reader makes them when the PDF has no outline."""
    real = pdf_reader.read_outline
    pdf_reader.read_outline = lambda pdf: []
    try:
        return pdf_reader.read_pdf(data).blocks
    finally:
        pdf_reader.read_outline = real


def _args() -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folder", type=Path)
    ap.add_argument("--half", choices=("dev", "test", "all"), default="dev")
    ap.add_argument("--split", type=Path, help="halves from this JSON (file -> {half, family}), e.g. "
                    "bench/data/wide_split.json (by publisher), instead of the file name's hash")
    ap.add_argument("--truth-out", type=Path, help="write the truth read from the outlines here (dev half only)")
    ap.add_argument("--truth-in", type=Path, help="grade against truth written by --truth-out, not the outlines")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("-v", action="store_true", help="per PDF: missed and spurious headings")
    args = ap.parse_args()
    if args.truth_out and args.half != "dev":
        ap.error("--truth-out writes the dev half's truth only")
    return args


def _truth(path: Path, data: bytes, frozen: dict | None) -> list[dict]:
    """The PDF's truth: from a frozen file when given (absent there: none), else from its outline."""
    if frozen is not None:
        return frozen.get(path.name, [])
    return outline_truth(data)


def main() -> int:
    args = _args()
    scores, skipped = [], 0
    split = json.loads(args.split.read_text()) if args.split else None
    frozen = json.loads(args.truth_in.read_text()) if args.truth_in else None
    written: dict[str, list[dict]] = {}
    for path in sorted(args.folder.rglob("*.pdf")):
        half = split.get(path.name, {}).get("half") if split is not None else half_of(path.name)
        if args.half != "all" and half != args.half:
            continue
        data = path.read_bytes()
        try:
            truth = _truth(path, data, frozen)
            blocks = layout_blocks(data) if truth else None
        except Exception:  # noqa: BLE001 — a PDF the reader refuses has no score here
            blocks = None
        if not truth or blocks is None:
            skipped += 1
            continue
        written[path.name] = truth
        s = score_paper(blocks, truth)
        scores.append(s)
        if args.v:
            print(f"{path.name}: P {s['precision']} R {s['recall']}  missed {s['missed'][:5]}  "
                  f"spurious {s['spurious'][:5]}", file=sys.stderr)
    if args.truth_out:
        args.truth_out.write_text(json.dumps(written, indent=1, ensure_ascii=False) + "\n")
    total = {"half": args.half, "pdfs": len(scores), "without_outline_or_unreadable": skipped, **sum_scores(scores)}
    print(json.dumps(total, indent=1) if args.json else
          f"{total['pdfs']} PDFs with an outline ({args.half}): " +
          ", ".join(f"{k} {v}" for k, v in total.items() if k not in ("half", "pdfs")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
