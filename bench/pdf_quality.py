"""PDF parsing quality and speed on ../shared/data/pdfs (a script, not a timed test).

Per PDF and in total: caption recall and spurious captions against
``manifest.json`` (captions checked by reading each paper), sections found,
parse time per page; heading precision and recall against the hand-made truth set
``bench/data/pdf_headings.json`` (see `headings_score`), reported for the whole set and
for its two halves (papers by file name, alternating) so that rules fitted to some
papers show as a gap between the halves; and, for papers that also have a GROBID TEI or S2ORC
JSON parse in ../shared/data/fulltext, how well sections and captions agree
with that independent parse.

``--half dev|test`` parses only that half of bench/data/pdf_split.json (tune on dev without seeing
the test half's per-paper lines).

    python bench/pdf_quality.py [--half dev|test|all] [--data ../shared/data] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from pathlib import Path

from pdf_headings_score import score_paper, sum_scores

from papershelf.ingest.pdf import read_pdf
from papershelf.ingest.structured import read_s2orc, read_tei
from papershelf.units import build_units

ROOT = Path(__file__).resolve().parent.parent
TRUTH = ROOT / "bench" / "data" / "pdf_headings.json"
SPLIT = ROOT / "bench" / "data" / "pdf_split.json"  # issue 21's dev/test halves of the shared PDFs


def _norm_heading(text: str) -> str:
    return re.sub(r"[^a-z ]", "", re.sub(r"^[\dIVX.]+\s*", "", text.lower())).strip()


def _labels(units) -> set[str]:
    return {u.object_label for u in units if u.kind == "object"}


def _headings(doc) -> set[str]:
    return {_norm_heading(b.text) for b in doc.blocks if b.kind == "heading"} - {""}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default=str(ROOT.parent / "shared" / "data"))
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--half", choices=("dev", "test", "all"), default="all")
    args = ap.parse_args()
    pdfs = Path(args.data) / "pdfs"
    if not pdfs.exists():
        print(f"shared data not found at {pdfs}: nothing to measure", file=sys.stderr)
        return
    manifest = json.loads((pdfs / "manifest.json").read_text())
    if args.half != "all":
        half = set(json.loads(SPLIT.read_text())[args.half])
        manifest = [m for m in manifest if Path(m["file"]).name in half]
    rows, found, truth, spurious, seconds, pages = [], 0, 0, 0, 0.0, 0
    docs = {}
    for m in manifest:
        path = Path(args.data) / m["file"]
        data = path.read_bytes()
        t0 = time.perf_counter()
        doc = read_pdf(data)
        units = build_units(doc, "x")
        dt = time.perf_counter() - t0
        want = {("Figure " if c["kind"] == "figure" else "Table ") + c["number"] for c in m["captions"]}
        got = _labels(units)
        docs[path.stem] = (doc, got)
        found += len(want & got)
        truth += len(want)
        spurious += len(got - want)
        seconds += dt
        pages += m["pages"]
        rows.append({"file": path.name, "pages": m["pages"], "captions": len(want), "found": len(want & got),
                     "missed": sorted(want - got), "spurious": sorted(got - want),
                     "sections": sum(b.kind == "heading" for b in doc.blocks),
                     "ms_per_page": round(dt * 1000 / m["pages"], 1), "title": doc.title})
    headings = _heading_report(docs)
    agreement = []
    full = Path(args.data) / "fulltext"
    for stem, (doc, labels) in docs.items():
        for kind, path, reader in (("tei", full / "grobid-tei" / f"{stem}.tei.xml", read_tei),
                                   ("s2orc", full / "s2orc-json" / f"{stem}.json", read_s2orc)):
            if not path.exists():
                continue
            other = reader(path.read_bytes())
            oh, ph = _headings(other), _headings(doc)
            ol = _labels(build_units(other, "y"))
            agreement.append({"paper": stem, "against": kind, "their_sections": len(oh),
                              "sections_also_in_pdf": len(oh & ph),
                              "section_agreement": round(len(oh & ph) / len(oh), 3) if oh else None,
                              "their_captions": sorted(ol), "pdf_captions": sorted(labels),
                              "caption_agreement": round(len(ol & labels) / len(ol), 3) if ol else None})
    total = {"pdfs": len(rows), "pages": pages, "captions": truth, "found": found,
             "recall": round(found / truth, 4), "spurious": spurious,
             "spurious_rate": round(spurious / max(1, found + spurious), 4),
             "ms_per_page": round(seconds * 1000 / pages, 2)}
    result = {"date": time.strftime("%Y-%m-%d"), "machine": f"{os.cpu_count()} cores", "total": total,
              "headings": headings, "per_pdf": rows, "agreement": agreement}
    if args.json:
        print(json.dumps(result, indent=1))
        return
    for r in rows:
        print(f"{r['file'][:44]:44s} {r['found']:>3}/{r['captions']:<3} spurious {len(r['spurious'])} "
              f"sections {r['sections']:>3}  {r['ms_per_page']:5.1f} ms/page  missed {r['missed'] or ''}")
    for a in agreement:
        print(f"agreement {a['paper']} vs {a['against']}: sections {a['sections_also_in_pdf']}/{a['their_sections']}"
              f", captions {a['caption_agreement']}")
    for paper, sc in headings["per_paper"].items():
        print(f"headings {paper[:44]:44s} P {sc['precision']:.3f} R {sc['recall']:.3f} levels {sc['level_ok']}/{sc['tp']}"
              f"  missed {sc['missed'][:4]}  spurious {sc['spurious'][:4]}")
    for name in ("half_a", "half_b", "split_dev", "split_test", "all"):
        print(name, json.dumps({k: v for k, v in headings[name].items() if k != "papers"}))
    print(json.dumps(total))


def _heading_report(docs: dict) -> dict:
    """Heading precision/recall per paper, for both halves of the truth set and for all of it."""
    if not TRUTH.exists():
        return {"per_paper": {}, "half_a": {}, "half_b": {}, "all": {}}
    truth = {k: v for k, v in json.loads(TRUTH.read_text()).items() if not k.startswith("_")}
    per = {}
    for name in sorted(truth):
        stem = Path(name).stem
        if stem in docs:
            per[name] = score_paper(docs[stem][0].blocks, truth[name])
    names = sorted(per)
    split = json.loads(SPLIT.read_text()) if SPLIT.exists() else {"dev": [], "test": []}
    return {"per_paper": per, "half_a": sum_scores([per[n] for n in names[0::2]]) | {"papers": names[0::2]},
            "half_b": sum_scores([per[n] for n in names[1::2]]) | {"papers": names[1::2]},
            "split_dev": sum_scores([per[n] for n in names if n in split["dev"]]),
            "split_test": sum_scores([per[n] for n in names if n in split["test"]]),
            "all": sum_scores(list(per.values()))}


if __name__ == "__main__":
    main()
