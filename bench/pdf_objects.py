"""Figure and table regions and table cells of the shared PDFs, against hand-written truth.

Truth (bench/data/pdf_objects.json) was written from rendered pages and pypdfium2's page text,
never from papershelf's output: per table a few printed cell strings, per figure a word printed
inside it (or, for a picture without a text layer, a point inside it in PDF points) and a phrase
of the nearest paragraph outside it.  The files are split into a development and a test half
(bench/data/pdf_split.json, fixed before tuning); report the half you did not tune on.

* Region right: the unit has a region on the truth's page, it is not a sliver (at least 30 x 15
  points), every cell / inside string found on the page has a copy in it (the text may repeat a
  cell) and the outside phrase does not meet it.
  Positions of strings come from pypdfium2's own text search on the page, not from the parser.
* Table cells: a lexical ``--kind table`` search for the cell string puts its table in the top 3;
  also how many cells the table's table_text holds.
* Parse time per page (median of the half's papers).

    python bench/pdf_objects.py [--half test|dev|all] [--data ../shared/data] [--json] [-v]
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import tempfile
import time
from pathlib import Path

from queryset import DEFAULT_DATA, pdf_dir, print_result

from papershelf import Filters, Library, SearchOptions
from papershelf.ingest.pdf import read_pdf
from papershelf.units import build_units

ROOT = Path(__file__).resolve().parent
TRUTH = ROOT / "data" / "pdf_objects.json"
SPLIT = ROOT / "data" / "pdf_split.json"


def _find(textpage, needle: str) -> list[tuple]:
    """Boxes (left, bottom, right, top) of every occurrence of `needle` on the page."""
    searcher = textpage.search(needle, match_case=False, match_whole_word=False)
    out = []
    try:
        while (occ := searcher.get_next()) is not None:
            index, count = occ
            boxes = [textpage.get_charbox(i) for i in range(index, index + min(count, 60))]
            out.append((min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes),
                        max(b[3] for b in boxes)))
    finally:
        searcher.close()
    return out


def _inside(box, bbox, slack: float = 2.0) -> bool:
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    return bbox[0] - slack <= cx <= bbox[2] + slack and bbox[1] - slack <= cy <= bbox[3] + slack


def _meets(box, bbox) -> bool:
    return min(box[2], bbox[2]) - max(box[0], bbox[0]) > 1 and min(box[3], bbox[3]) - max(box[1], bbox[1]) > 1


def check_region(pdf, unit, item) -> tuple[bool, str]:
    """Is the unit's region right for the truth item?  (ok, reason when not)."""
    region = unit.region if unit is not None else None
    if region is None:
        return False, "no region"
    if region["page"] != item["page"]:
        return False, f"page {region['page']} not {item['page']}"
    bbox = region["bbox"]
    if bbox[2] - bbox[0] < 30 or bbox[3] - bbox[1] < 15:
        return False, "sliver"
    page = pdf[item["page"] - 1]
    tp = page.get_textpage()
    try:
        for cell in item.get("cells", []) + ([item["inside"]] if item.get("inside") else []):
            boxes = _find(tp, cell)  # a cell string may be printed in the text too: one copy must be inside
            if boxes and not any(_inside(b, bbox) for b in boxes):
                return False, f"{cell!r} outside"
        if item.get("inside_xy"):
            x, y = item["inside_xy"]
            if not _inside((x, y, x, y), bbox):
                return False, "inside point outside"
        if item.get("outside") and any(_meets(b, bbox) for b in _find(tp, item["outside"])):
            return False, "holds the neighbouring paragraph"
    finally:
        tp.close()
    return True, ""


def _norm(s: str) -> str:
    return re.sub(r"\s+", " ", s).strip().lower()


def run(data: Path, half: str, verbose: bool) -> dict:
    import pypdfium2 as pdfium

    truth = {k: v for k, v in json.loads(TRUTH.read_text()).items() if not k.startswith("_")}
    split = json.loads(SPLIT.read_text())
    files = sorted(truth) if half == "all" else [f for f in split[half] if f in truth]
    pdfs = pdf_dir(data)
    regions_ok = regions = cells_in_text = cells = 0
    per_page: list[float] = []
    failures: list[str] = []
    units_of: dict[str, dict] = {}
    for f in files:
        raw = (pdfs / f).read_bytes()
        t0 = time.perf_counter()
        doc = read_pdf(raw)
        pages = len(pdfium.PdfDocument(raw))
        per_page.append((time.perf_counter() - t0) * 1000 / pages)
        objs = {u.object_label: u for u in build_units(doc, "p") if u.kind == "object"}
        units_of[f] = objs
        pdf = pdfium.PdfDocument(raw)
        for item in truth[f]:
            unit = objs.get(item["label"])
            ok, why = check_region(pdf, unit, item)
            regions += 1
            regions_ok += ok
            if not ok:
                failures.append(f"region {f} {item['label']}: {why}")
            for cell in item.get("cells", []):
                cells += 1
                found = unit is not None and _norm(cell) in _norm(unit.table_text or "")
                cells_in_text += found
        pdf.close()
    top3, tried = _cell_search(pdfs, files, truth, failures)
    out = {"half": half, "files": len(files), "regions": regions, "regions_right": round(regions_ok / max(regions, 1), 3),
           "cells": cells, "cells_in_table_text": round(cells_in_text / max(cells, 1), 3),
           "cell_search_top3": round(top3 / max(tried, 1), 3),
           "parse_ms_per_page_median": round(statistics.median(per_page), 1) if per_page else None}
    if verbose:
        out["failures"] = failures
    return out


def _cell_search(pdfs: Path, files: list[str], truth: dict, failures: list[str]) -> tuple[int, int]:
    """Lexical --kind table searches for every cell string: is its table among the top 3?"""
    hits = tried = 0
    with tempfile.TemporaryDirectory(prefix="papershelf-objects-") as tmp, Library(str(Path(tmp) / "o.db")) as lib:
        ids = {}
        for f in files:
            res = lib.add([str(pdfs / f)])
            ids[f] = res.files[0].paper_id
        for f in files:
            for item in truth[f]:
                for cell in item.get("cells", []):
                    tried += 1
                    opts = SearchOptions(mode="lexical", limit=3, per_paper=3, snippets=False,
                                         filters=Filters(object_kind="table"))
                    got = lib.search(cell, opts).results
                    ok = any(h.object_label == item["label"] and h.paper_id == ids[f] for h in got)
                    hits += ok
                    if not ok:
                        failures.append(f"cell {f} {item['label']}: {cell!r}")
    return hits, tried


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--half", choices=("dev", "test", "all"), default="test")
    ap.add_argument("--data", default=str(DEFAULT_DATA))
    ap.add_argument("--json", action="store_true")
    ap.add_argument("-v", "--verbose", action="store_true", help="list every failure")
    args = ap.parse_args()
    out = run(Path(args.data), args.half, args.verbose)
    print_result(out, args.json, 28)


if __name__ == "__main__":
    main()
