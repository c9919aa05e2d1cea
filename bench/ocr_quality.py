"""OCR on scanned copies of the shared PDFs: word recall, finding the paper, seconds per page.

Each PDF's first `--pages` pages are rendered to grayscale images at `--scan-dpi` (a clean
scan) and saved as an image-only PDF, which papershelf reads through OCR (ingest/ocr.py).

* word recall: the words (``\\w+``, lower case, as a multiset) papershelf reads from the
  original pages (the same layout pipeline over the text layer) that it also reads from the
  scan;
* runs: 10 consecutive words of an original page's text layer, searched lexically in a
  library holding the scans of this split and the other split's PDFs as they are (digital):
  is the scanned paper the first hit?
* seconds per page: wall time of the OCR'd reads over pages, with the default workers
  (the cores this process may use).

Split: the PDFs sorted by name, even positions dev and odd test (`--split dev|test|all`).

    python bench/ocr_quality.py --split dev
    python bench/ocr_quality.py --split test --runs-per-page 5
"""

from __future__ import annotations

import argparse
import io
import json
import os
import random
import re
import resource
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import TypedDict

import pypdfium2 as pdfium

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
SHARED = Path(os.environ.get("PAPERSHELF_SHARED_DATA", ROOT.parent / "shared" / "data"))

from papershelf import Library, SearchOptions  # noqa: E402
from papershelf.ingest.pdf import read_pdf  # noqa: E402
from papershelf.ingest.pdf.scan import ocr  # noqa: E402
from papershelf.models import Paper  # noqa: E402

_WORD = re.compile(r"\w+")


class PdfRecall(TypedDict):
    """One PDF's line in the report's per_pdf."""

    pdf: str
    words: int
    recall: float


def pages_pdf(data: bytes, n: int) -> bytes:
    """The first n pages of a PDF, as they are."""
    src = pdfium.PdfDocument(data)
    out = pdfium.PdfDocument.new()
    out.import_pages(src, list(range(min(n, len(src)))))
    buf = io.BytesIO()
    out.save(buf)
    return buf.getvalue()


def scan(data: bytes, dpi: int) -> bytes:
    pdf = pdfium.PdfDocument(data)
    images = [pdf[i].render(scale=dpi / 72, grayscale=True).to_pil() for i in range(len(pdf))]
    buf = io.BytesIO()
    images[0].save(buf, "PDF", resolution=dpi, save_all=True, append_images=images[1:])
    return buf.getvalue()


def doc_words(doc) -> Counter:
    text = " ".join([doc.title or ""] + [b.text for b in doc.blocks])
    return Counter(w.lower() for w in _WORD.findall(text.replace("^", " ").replace("_", " ")))


def runs_of(data: bytes, k: int, rng: random.Random) -> list[str]:
    """k runs of 10 consecutive words from each page's text layer."""
    pdf = pdfium.PdfDocument(data)
    runs = []
    for i in range(len(pdf)):
        words = pdf[i].get_textpage().get_text_range().split()
        words = [w for w in words if _WORD.search(w)]
        for _ in range(k if len(words) > 40 else 0):
            start = rng.randrange(0, len(words) - 10)
            runs.append(" ".join(words[start:start + 10]))
    return runs


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--split", choices=("dev", "test", "all"), default="dev")
    ap.add_argument("--pages", type=int, default=2)
    ap.add_argument("--scan-dpi", type=int, default=200)
    ap.add_argument("--lang", default=None, help="Tesseract languages (default: papershelf's)")
    ap.add_argument("--runs-per-page", type=int, default=5)
    ap.add_argument("--limit", type=int, default=None, help="only the first N PDFs of the split")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    pdfs = sorted((SHARED / "pdfs").glob("*.pdf"))
    chosen = [p for i, p in enumerate(pdfs) if a.split == "all" or (i % 2 == 0) == (a.split == "dev")]
    others = [p for p in pdfs if p not in chosen]
    chosen = chosen[:a.limit] if a.limit else chosen
    rng = random.Random(26)
    settings = ocr.OcrSettings(languages=a.lang)
    per_pdf: list[PdfRecall] = []
    ocr_seconds, ocr_cpu, ocr_pages, engine = 0.0, 0.0, 0, ""
    scanned_docs = {}
    all_runs: list[tuple[str, str]] = []
    for p in chosen:
        original = pages_pdf(p.read_bytes(), a.pages)
        scanned = scan(original, a.scan_dpi)
        want = doc_words(read_pdf(original))
        t, cpu = time.perf_counter(), resource.getrusage(resource.RUSAGE_CHILDREN)
        with ocr.settings(settings):
            doc = read_pdf(scanned)
        ocr_seconds += time.perf_counter() - t
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        ocr_cpu += after.ru_utime + after.ru_stime - cpu.ru_utime - cpu.ru_stime
        ocr_pages += len(doc.ocr_pages)
        engine = next(iter(doc.ocr_pages.values()), engine)
        scanned_docs[p.name] = doc
        got = doc_words(doc)
        hit = sum(min(n, got[w]) for w, n in want.items())
        per_pdf.append({"pdf": p.name, "words": sum(want.values()), "recall": round(hit / max(1, sum(want.values())), 4)})
        all_runs += [(p.name, r) for r in runs_of(original, a.runs_per_page, rng)]
        print(f"{p.name}: recall {per_pdf[-1]['recall']}", file=sys.stderr)
    found = 0
    with tempfile.TemporaryDirectory() as tmp, Library(str(Path(tmp) / "lib.db")) as lib:
        lib.add([str(o) for o in others])  # the other split's papers, digital, as distractors
        for name, doc in scanned_docs.items():  # the scans as read above (not OCR'd a second time)
            lib.add_document(Paper(id="scan-" + name, title=doc.title, source_format="pdf"), doc)
        for name, run in all_runs:
            res = lib.search(run, SearchOptions(mode="lexical", limit=1, snippets=False)).results
            found += bool(res) and res[0].paper_id == "scan-" + name
    words = sum(d["words"] for d in per_pdf)
    recall = sum(d["recall"] * d["words"] for d in per_pdf) / max(1, words)
    report = {"split": a.split, "pdfs": len(per_pdf), "pages": ocr_pages, "scan_dpi": a.scan_dpi,
              "render_dpi": ocr.DPI, "engine": engine, "word_recall": round(recall, 4),
              "recall_median_pdf": sorted(d["recall"] for d in per_pdf)[len(per_pdf) // 2],
              "runs": len(all_runs), "runs_found_first": round(found / max(1, len(all_runs)), 4),
              "seconds_per_page": round(ocr_seconds / max(1, ocr_pages), 2),
              "cpu_seconds_per_page": round(ocr_cpu / max(1, ocr_pages), 2), "cores": len(os.sched_getaffinity(0)),
              "load_average": os.getloadavg()[0],
              "per_pdf": per_pdf}
    print(json.dumps(report, indent=None if a.json else 2))


if __name__ == "__main__":
    main()
