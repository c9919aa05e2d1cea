"""Truth for the wide corpus, derived from its structured twins (JATS/NLM) and aligned to the PDFs.

Regenerates bench/data/wide_twins.json.  Each twin is read by papershelf's own JATS reader; only
what the PDF itself prints is kept, so an aligner's miss leaves an item out of the truth rather than
counting against the PDF reader:

* captions: a numbered caption whose first words pdfium's text search finds on a page
  (its label, kind and page);
* tables: up to five printed cell values per table, each found by pdfium's search on the caption's
  page or the next one, distinct within the table, of at least three letters or digits;
* headings: the twin's section titles whose letters occur in the PDF's text, with number and level
  (the format bench/pdf_headings_score.py scores);
* authors: the twin's names when every surname is printed on the first two pages (else none);
* references: the twin's count;
* outside: per page, the first words of the twin's paragraphs that pdfium finds there (a region that
  meets one holds running text: it is overgrown).

    python bench/wide_truth.py [--data ../shared/data]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pdf_headings_score import plain, split_number
from queryset import DEFAULT_DATA

from papershelf.ingest import read_xml
from papershelf.ingest.captions import parse_caption

ROOT = Path(__file__).resolve().parent
OUT = ROOT / "data" / "wide_twins.json"
MAX_CELLS = 5
PHRASE_WORDS = 5


def wide_dir(data: str | Path) -> Path:
    return Path(data) / "pdfs-wide"


def wide_parser(doc: str | None) -> argparse.ArgumentParser:
    """The arguments every wide-corpus bench takes: which half, and where the shared data is."""
    ap = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--half", choices=("dev", "test", "all"), default="dev")
    ap.add_argument("--data", default=str(DEFAULT_DATA))
    return ap


def text_layer_pdfs(data: str | Path, half: str) -> list[str]:
    """The wide corpus's PDFs of one half ("all": both) that carry a text layer, by name."""
    wide = wide_dir(data)
    records = {r["file"]: r for r in json.loads((wide / "manifest.json").read_text())}
    split = json.loads((Path(__file__).resolve().parent / "data" / "wide_split.json").read_text())
    return [n for n in sorted(records) if (half == "all" or split[n]["half"] == half)
            and records[n].get("text_layer") != "none"]


def each_page(path: Path, read: Callable[[Any, int], Any]) -> list:
    """`read(page, n)` of each page of a PDF (n from 0), pdfium's page and document closed after."""
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(str(path))
    try:
        out = []
        for n in range(len(pdf)):
            page = pdf[n]
            try:
                out.append(read(page, n))
            finally:
                page.close()
        return out
    finally:
        pdf.close()


def each_paper(doc: str | None, shown: str, read: Callable[[Path], Any]) -> tuple[argparse.Namespace, list] | None:
    """A per-paper wide bench's command line (`wide_parser`'s, --show listing `shown`, --json) and
    (name, `read(path)`) for each text-layer PDF of the half that `read` gives a result for (not None);
    None when the corpus is missing."""
    ap = wide_parser(doc)
    ap.add_argument("--show", action="store_true", help=f"print the {shown}, one line each")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    if corpus_missing(args.data):
        return None
    wide = wide_dir(args.data)
    got = [(name, read(wide / name)) for name in text_layer_pdfs(args.data, args.half)]
    return args, [(name, r) for name, r in got if r is not None]


def print_summary(result: dict, as_json: bool, lines: list[str]) -> int:
    """A wide bench's result: the JSON line, or its `lines` for a reader."""
    print(json.dumps(result) if as_json else "\n".join(lines))
    return 0


def corpus_missing(data: str | Path) -> bool:
    """True (and said on stderr) when the wide corpus is not there: the bench skips cleanly."""
    if (wide_dir(data) / "manifest.json").exists():
        return False
    print(f"no wide corpus under {data}: nothing to measure", file=sys.stderr)
    return True


def _pages_found(pdf, needle: str, pages: range | None = None) -> list[int]:
    """1-based pages on which pdfium's text search finds `needle`."""
    out = []
    for n in pages if pages is not None else range(len(pdf)):
        if not 0 <= n < len(pdf):
            continue
        tp = pdf[n].get_textpage()
        try:
            searcher = tp.search(needle, match_case=False, match_whole_word=False)
            try:
                if searcher.get_next() is not None:
                    out.append(n + 1)
            finally:
                searcher.close()
        finally:
            tp.close()
    return out


def _words(text: str, n: int) -> str:
    return " ".join(re.sub(r"\s+", " ", text).split(" ")[:n]).strip()


def _cells(table_text: str) -> list[str]:
    """The table's cell values in reading order, each once."""
    seen: set[str] = set()
    out = []
    for row in table_text.split("\n"):
        for cell in row.split(" | "):
            cell = re.sub(r"\s+", " ", cell).strip()
            if len(re.sub(r"\W", "", cell)) >= 3 and len(cell) <= 40 and plain(cell) not in seen:
                seen.add(plain(cell))
                out.append(cell)
    return out


def _spread(values: list[str], k: int) -> list[str]:
    """`k` values spread over the list (header and body rows alike)."""
    if len(values) <= k:
        return values
    step = len(values) / k
    return [values[int(i * step)] for i in range(k)]


def _objects(doc, pdf) -> tuple[list[dict], list[dict]]:
    captions, tables = [], []
    blocks = doc.blocks
    for i, b in enumerate(blocks):
        if b.kind != "caption" or not b.object_label or not re.search(r"\d", b.object_label):
            continue
        cap = parse_caption(b.text)
        head = _words(cap.text if cap else b.text, PHRASE_WORDS)
        pages = _pages_found(pdf, head) if len(head) >= 12 else []
        if not pages:
            continue  # the caption is not printed as the twin writes it: no truth
        page = pages[0]
        captions.append({"label": b.object_label, "kind": b.object_kind, "page": page})
        nxt = blocks[i + 1] if i + 1 < len(blocks) else None
        if b.object_kind != "table" or nxt is None or nxt.kind != "table":
            continue
        found = [c for c in _cells(nxt.text) if _pages_found(pdf, c, range(page - 1, page + 1))]
        if found:
            tables.append({"label": b.object_label, "page": page, "cells": _spread(found, MAX_CELLS)})
    return captions, tables


# Back matter a JATS twin keeps outside its sections (ref-list, ack, fn-group): printed as headings
# in the PDF, they are optional entries (neither rewarded nor penalised).
_BACK = ("References", "Acknowledgments", "Acknowledgements", "Author Contributions", "Conflicts of Interest",
         "Conflict of Interest", "Competing Interests", "Funding", "Data Availability", "Supplementary Material",
         "Abbreviations", "Author Information", "Abstract", "Keywords")


def _headings(doc, full: str) -> list[dict]:
    out: list[dict[str, Any]] = [{"level": 1, "number": "", "title": t, "optional": True} for t in _BACK if plain(t) in full]
    for b in doc.blocks:
        if b.kind != "heading":
            continue
        number, title = split_number(b.text)
        out = [e for e in out if plain(e["title"]) != plain(title)]
        if plain(title) and plain(title) in full:
            out.append({"level": b.level, "number": number, "title": title})
    return out


def _outside(doc, pdf) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for b in doc.blocks:
        if b.kind != "text" or len(b.text) < 200:
            continue
        phrase = _words(b.text, PHRASE_WORDS)
        pages = _pages_found(pdf, phrase)
        if len(pages) == 1:
            out.setdefault(str(pages[0]), []).append(phrase)
    return out


def twin_truth(pdf_path: Path, xml_path: Path) -> dict:
    import pypdfium2 as pdfium

    doc = read_xml(xml_path.read_bytes())
    pdf = pdfium.PdfDocument(pdf_path.read_bytes())
    try:
        texts = [pdf[n].get_textpage().get_text_range() for n in range(len(pdf))]
        full = plain(" ".join(texts))
        front = plain(" ".join(texts[:2]))
        surnames = [plain(a.split()[-1]) for a in doc.authors if a.split()]
        authors = doc.authors if surnames and all(s and s in front for s in surnames) else []
        captions, tables = _objects(doc, pdf)
        return {"captions": captions, "tables": tables, "headings": _headings(doc, full), "authors": authors,
                "references": len(doc.references), "outside": _outside(doc, pdf)}
    finally:
        pdf.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default=str(DEFAULT_DATA))
    args = ap.parse_args()
    wide = wide_dir(args.data)
    manifest = json.loads((wide / "manifest.json").read_text())
    truth: dict = {"_about": "derived by bench/wide_truth.py from the JATS twins, aligned to the PDFs' text"}
    for rec in manifest:
        if rec.get("xml_twin"):
            truth[rec["file"]] = twin_truth(wide / rec["file"], wide / "xml" / rec["xml_twin"])
    OUT.write_text(json.dumps(truth, indent=1, ensure_ascii=False) + "\n")
    for f, t in truth.items():
        if not f.startswith("_"):
            print(f"{f:45s} captions {len(t['captions']):2d} tables {len(t['tables']):2d} "
                  f"headings {len(t['headings']):2d} authors {len(t['authors']):2d} refs {t['references']}")


if __name__ == "__main__":
    main()
