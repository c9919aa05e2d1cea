"""The structure papershelf reads from a scanned copy of a paper, against what it reads from the paper itself.

Each dev PDF (pdfs-wide's dev half, bench/data/wide_split.json; pdfs/'s dev half, bench/data/pdf_split.json;
born-digital files only) is cut to its first `--pages` pages and its last `--last` (the reference list's end),
and that excerpt is printed and scanned: rendered grey at `--dpi`, turned by a slight skew (±`--skew` degrees)
and speckled with noise (`--noise`: the share of pixels flipped), the seed fixed per file, saved as an
image-only PDF under /tmp/scan15/scans.  papershelf reads the excerpt twice through `ingest.parse_source`
(the indexer's path): from its text layer (the truth) and from the scan (OCR, ingest/pdf/scan/ocr.py).

Truth: the born-digital read, where it agrees with the hand truth in bench/data (titles, authors, headings,
objects, reference counts, years): a field the hand truth contradicts is left out of the measure, so a reader
error on the digital page is not counted against the scan; a field no hand truth covers is kept and counted
apart as unchecked ("all" beside "checked").  Measures, scan against truth:

* title: the same title (letters and digits, case folded); authors: the same list (surnames); year;
* headings: precision and recall of the digital read's headings (text compared with OCR's errors allowed:
  a similarity of 0.85, or one a prefix of the other), and the share of matched ones at the same level; a
  scan's heading that repeats a digital one the hand truth rejects is the reader's error on both pages,
  counted apart (shared), not against the scan;
* captions: the digital read's captions (label, page) found on the scan; regions: of those with a region on
  both sides, the share whose boxes overlap by half (intersection over union);
* references: the share of excerpts whose entry count is within max(1, 5 %) of the digital read's;
* seconds per OCR'd page (wall and Tesseract's CPU), and the layout's own seconds per page beside them.

Tesseract's hOCR of each page image can be kept under /tmp/scan15/hocr (`--hocr-cache`): a rerun then
measures the reader's structure without OCR's minutes; its "tesseract" seconds are then the stored first
reads', and its "wall" the rest of the scan's read (render, hOCR to lines, layout) beside "digital_wall".

    python bench/scan_structure.py --half dev --hocr-cache
    python bench/scan_structure.py --half test --hocr-cache --every 6   # report this, once
    python bench/scan_structure.py --half dev --hocr-cache --show headings   # per-file differences
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import os
import random
import re
import resource
import sys
import time
from collections.abc import Callable
from difflib import SequenceMatcher
from pathlib import Path
from typing import Any

import pypdfium2 as pdfium

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
SHARED = Path(os.environ.get("PAPERSHELF_SHARED_DATA", ROOT.parent / "shared" / "data"))
DATA = ROOT / "bench" / "data"
CACHE = Path("/tmp/scan15")

from queryset import iou  # noqa: E402

from papershelf.captions import parse_caption  # noqa: E402
from papershelf.document import Document  # noqa: E402
from papershelf.errors import IngestError  # noqa: E402
from papershelf.ingest import SourceFile, parse_source  # noqa: E402
from papershelf.ingest.pdf.scan import ocr  # noqa: E402
from papershelf.works import surname  # noqa: E402

FIELDS = ("title", "authors", "year", "headings", "captions", "regions", "refs")


def half_files(half: str = "dev") -> list[Path]:
    """The born-digital PDFs of one half of both corpora (tune on dev; the test half is read once)."""
    split = json.loads((DATA / "wide_split.json").read_text())
    manifest = {r["file"]: r for r in json.loads((SHARED / "pdfs-wide" / "manifest.json").read_text())}
    wide = [SHARED / "pdfs-wide" / f for f, v in split.items()
            if v.get("half") == half and manifest.get(f, {}).get("text_layer") == "digital"]
    own = [SHARED / "pdfs" / f for f in json.loads((DATA / "pdf_split.json").read_text())[half]]
    return sorted(wide) + sorted(own)


def excerpt_pages(n_pages: int, first: int, last: int) -> list[int]:
    return sorted(set(range(min(first, n_pages))) | set(range(max(0, n_pages - last), n_pages)))


def excerpt(data: bytes, pages: list[int]) -> bytes:
    src = pdfium.PdfDocument(data)
    out = pdfium.PdfDocument.new()
    out.import_pages(src, pages)
    buf = io.BytesIO()
    out.save(buf)
    return buf.getvalue()


def scanned(data: bytes, dpi: int, skew: float, noise: float, seed: str):
    """The excerpt printed and scanned: grey, turned a little, speckled; an image-only PDF."""
    import numpy as np
    from PIL import Image

    rng = random.Random(seed)
    pdf = pdfium.PdfDocument(data)
    images = []
    for i in range(len(pdf)):
        img = pdf[i].render(scale=dpi / 72, grayscale=True).to_pil().convert("L")
        if skew:
            img = img.rotate(rng.uniform(-skew, skew), resample=Image.Resampling.BICUBIC, fillcolor=255)
        if noise:
            arr = np.array(img)
            gen = np.random.default_rng(rng.randrange(2**32))
            flip = gen.random(arr.shape) < noise
            arr[flip] = 255 - arr[flip]
            img = Image.fromarray(arr)
        images.append(img)
    buf = io.BytesIO()
    images[0].save(buf, "PDF", resolution=dpi, save_all=True, append_images=images[1:])
    return buf.getvalue()


def cached_scan(path: Path, pages: list[int], a) -> tuple[bytes, bytes]:
    original = excerpt(path.read_bytes(), pages)
    key = f"{path.stem}-p{a.pages}l{a.last}-d{a.dpi}-s{a.skew}-n{a.noise}"
    where = CACHE / "scans" / f"{key}.pdf"
    if not where.exists():
        where.parent.mkdir(parents=True, exist_ok=True)
        where.write_bytes(scanned(original, a.dpi, a.skew, a.noise, path.name))
    return original, where.read_bytes()


_OCR_SECONDS: list[float] = []


def keep_hocr() -> None:
    """Tesseract's reads kept by the image's hash and languages (with the seconds the first read took)."""
    real = ocr._read

    def read(pytesseract, image, langs: str, number: int) -> bytes:
        key = hashlib.sha1(image.tobytes() + langs.encode() + repr(image.size).encode()).hexdigest()
        where = CACHE / "hocr" / f"{key}.hocr"
        if where.exists():
            seconds, _, hocr = where.read_bytes().partition(b"\n")
            _OCR_SECONDS.append(float(seconds))
            return hocr
        t = time.perf_counter()
        hocr = real(pytesseract, image, langs, number)
        _OCR_SECONDS.append(time.perf_counter() - t)
        where.parent.mkdir(parents=True, exist_ok=True)
        where.write_bytes(f"{_OCR_SECONDS[-1]:.3f}\n".encode() + hocr)
        return hocr

    ocr._read = read


def letters(text: str | None) -> str:
    return re.sub(r"[\W_]+", " ", (text or "").casefold()).strip()


def similar(a: str, b: str) -> bool:
    """The same text as OCR may read it: a letter or two misread, or one cut where the other goes on
    ("Yang Z" for "Yang Z. 2007", a lead-in read one word shorter)."""
    a, b = letters(a), letters(b)
    if not a or not b:
        return a == b
    return a == b or SequenceMatcher(None, a, b).ratio() >= 0.85 or (min(len(a), len(b)) >= 4 and (
        a.startswith(b) or b.startswith(a)))


class Truth:
    """The hand truth of bench/data, by file name, for the fields it covers."""

    def __init__(self) -> None:
        def load(name: str) -> dict:
            return {k: v for k, v in json.loads((DATA / name).read_text()).items() if not k.startswith("_")}

        manifest = {r["file"]: r for r in json.loads((SHARED / "pdfs-wide" / "manifest.json").read_text())}
        self.titles = {f: r["title"] for f, r in manifest.items()} | load("wide_titles.json") | load("pdf_titles.json") | load(
            "wide_titles_test.json")
        self.years = {f: r["year"] for f, r in manifest.items() if r.get("year")}
        self.authors = load("wide_authors.json") | load("pdf_authors.json") | load("wide_authors_test.json")
        self.headings: dict[str, list[tuple[str, int]]] = {}
        for f, v in load("wide_headings_dev.json").items():
            self.headings[f] = [(h["text"], h["page"]) for h in v["headings"]]
        for f, v in load("pdf_headings.json").items():
            self.headings[f] = [(f"{h.get('number') or ''} {h['title']}", h["page"]) for h in v]
        self.objects = {f: {(o["label"], o["page"]) for o in v} for f, v in load("pdf_objects.json").items()}
        for f, v in load("wide_tagged.json").items():
            self.objects[f] = {(o["label"], o["page"]) for o in v["objects"]}
        self.refcounts = load("wide_refcounts.json") | load("wide_refcounts_test.json")


def headings_of(doc: Document) -> list[tuple[str, int, int]]:
    return [(b.text, b.level, b.page or 0) for b in doc.blocks if b.kind == "heading"]


def captions_of(doc: Document) -> dict[tuple[str, int], dict | None]:
    """The captions as the units read them (a text block that parses as one), by (label, page), with
    the region the reader gave its object."""
    out: dict[tuple[str, int], dict | None] = {}
    for b in doc.blocks:
        cap = parse_caption(b.text) if b.kind == "text" else None
        if cap is not None:
            out.setdefault((cap.label, b.page or 0), b.region)
    return out


class Tally:
    """Counts per measure: "all" over every truth item, "checked" over those the hand truth confirms."""

    def __init__(self) -> None:
        self.n: dict[str, int] = {}

    def add(self, name: str, value: int = 1) -> None:
        self.n[name] = self.n.get(name, 0) + value

    def ratio(self, hit: str, total: str) -> float | None:
        return round(self.n.get(hit, 0) / self.n[total], 3) if self.n.get(total) else None


def _same_authors(a: list[str], b: list[str]) -> bool:
    """The same names in the same order, each surname as OCR may misread a letter of it."""
    return len(a) == len(b) and all(similar(surname(x), surname(y)) for x, y in zip(a, b))


def compare_front(name: str, digital: Document, scan: Document, truth: Truth, t: Tally, diffs: list) -> None:
    """Title, authors and year: the digital read's, where the hand truth agrees (or has nothing)."""
    checks: tuple[tuple[str, Any, Any, Any, Callable[[Any, Any], bool]], ...] = (
              ("title", digital.title, scan.title, truth.titles.get(name), lambda a, b: letters(a) == letters(b)),
              ("authors", digital.authors, scan.authors, truth.authors.get(name), _same_authors),
              ("year", digital.year, scan.year, truth.years.get(name), lambda a, b: a == b))
    for field, want, got, hand, same in checks:
        if not want or (hand is not None and not same(want, hand)):
            continue  # the digital read has none, or the hand truth contradicts it: no truth here
        kind = "checked" if hand is not None else "unchecked"
        t.add(f"{field}.{kind}")
        if same(want, got):
            t.add(f"{field}.{kind}.right")
        else:
            diffs.append((field, name, want, got))


def compare_headings(name: str, digital: Document, scan: Document, truth: Truth, pages: list[int],
                     t: Tally, diffs: list) -> None:
    """Recall of the digital headings (on the page they stand), precision of the scan's, levels of pairs."""
    orig = {k + 1: p + 1 for k, p in enumerate(pages)}
    hand = truth.headings.get(name)
    want = [(x, lv, orig.get(p, 0)) for x, lv, p in headings_of(digital)]
    allowed, shared = list(want), []
    if hand is not None:
        on = [(x, p) for x, p in hand if p in orig.values()]
        read = want
        want = [w for w in read if any(p == w[2] and similar(x, w[0]) for x, p in on)]
        shared = [w for w in read if w not in want]  # the digital read's own errors, which the hand truth rejects
        allowed = want + [(x, 0, p) for x, p in on]
    kind = "checked" if hand is not None else "unchecked"
    got = [(x, lv, orig.get(p, 0)) for x, lv, p in headings_of(scan)]
    for x, lv, p in want:
        t.add(f"headings.{kind}")
        match = next((g for g in got if g[2] == p and similar(g[0], x)), None)
        if match:
            t.add(f"headings.{kind}.right")
            t.add(f"levels.{kind}")
            t.add(f"levels.{kind}.right", match[1] == lv)
        else:
            diffs.append(("heading missed", name, f"p{p} L{lv} {x}", None))
    for x, lv, p in got:
        if any(a[2] == p and similar(a[0], x) for a in shared):
            t.add("scan_headings.shared")  # the same error on the digital page: no scan's error, nor a right one
            continue
        t.add(f"scan_headings.{kind}")
        if any(a[2] == p and similar(a[0], x) for a in allowed):
            t.add(f"scan_headings.{kind}.right")
        else:
            diffs.append(("heading extra", name, None, f"p{p} L{lv} {x}"))


def compare_objects(name: str, digital: Document, scan: Document, truth: Truth, pages: list[int],
                    t: Tally, diffs: list) -> None:
    """Captions (label, page) of the digital read found on the scan; their regions' overlap."""
    orig = {k + 1: p + 1 for k, p in enumerate(pages)}
    want = {(lab, orig.get(p, 0)): r for (lab, p), r in captions_of(digital).items()}
    got = {(lab, orig.get(p, 0)): r for (lab, p), r in captions_of(scan).items()}
    hand = truth.objects.get(name)
    allowed = set(want)
    if hand is not None:
        on = {(lab, p) for lab, p in hand if p in orig.values()}
        want = {k: r for k, r in want.items() if k in on}
        allowed = set(want) | on
    kind = "checked" if hand is not None else "unchecked"
    for key, region in want.items():
        t.add(f"captions.{kind}")
        if key not in got:
            diffs.append(("caption missed", name, f"p{key[1]} {key[0]}", None))
            continue
        t.add(f"captions.{kind}.right")
        if region and got[key]:
            t.add(f"regions.{kind}")
            seen = got[key] or {}
            right = iou(region["bbox"], seen["bbox"]) >= 0.5
            t.add(f"regions.{kind}.right", right)
            if not right:
                diffs.append(("region", name, f"p{key[1]} {key[0]} {region['bbox']}", seen["bbox"]))
    for key in got:
        t.add(f"scan_captions.{kind}")
        if key in allowed:
            t.add(f"scan_captions.{kind}.right")
        else:
            diffs.append(("caption extra", name, None, f"p{key[1]} {key[0]}"))


def compare_refs(name: str, digital: Document, scan: Document, truth: Truth, whole: bool, t: Tally,
                 diffs: list) -> None:
    want, got = len(digital.references), len(scan.references)
    if not want and not got:
        return
    hand = truth.refcounts.get(name) if whole else None
    if hand is not None and abs(want - hand) > max(1, 0.05 * hand):
        return  # the digital read miscounts this list: no truth
    kind = "checked" if hand is not None else "unchecked"
    t.add(f"refs.{kind}")
    if abs(want - got) <= max(1, 0.05 * want):
        t.add(f"refs.{kind}.right")
    else:
        diffs.append(("refs", name, want, got))


def read(path: Path, data: bytes) -> Document:
    return parse_source(SourceFile(str(path), data, hashlib.sha256(data).hexdigest()))


def measure(path: Path, a, truth: Truth, t: Tally, diffs: list) -> None:
    """One file: the excerpt read from its text and from its scan, compared."""
    n_pages = len(pdfium.PdfDocument(str(path)))
    pages = excerpt_pages(n_pages, a.pages, a.last)
    original, scan_pdf = cached_scan(path, pages, a)
    wall = time.perf_counter()
    digital = read(path, original)
    t.add("ms.digital", round(1000 * (time.perf_counter() - wall)))
    before = len(_OCR_SECONDS)
    wall, cpu = time.perf_counter(), resource.getrusage(resource.RUSAGE_CHILDREN)
    with ocr.settings(ocr.OcrSettings(mode="auto")):
        scan = read(path, scan_pdf)
    wall = time.perf_counter() - wall
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    ocr_s = sum(_OCR_SECONDS[before:])
    t.add("pages", len(scan.ocr_pages))
    t.add("ms.wall", round(1000 * wall))
    t.add("ms.cpu", round(1000 * (after.ru_utime + after.ru_stime - cpu.ru_utime - cpu.ru_stime)))
    t.add("ms.tesseract", round(1000 * ocr_s))
    name = path.name
    compare_front(name, digital, scan, truth, t, diffs)
    compare_headings(name, digital, scan, truth, pages, t, diffs)
    compare_objects(name, digital, scan, truth, pages, t, diffs)
    compare_refs(name, digital, scan, truth, n_pages == len(pages), t, diffs)


def report(t: Tally, a, files: int) -> dict:
    out: dict = {"files": files, "pages": t.n.get("pages", 0), "dpi": a.dpi, "skew": a.skew, "noise": a.noise}
    for kind in ("checked", "unchecked"):
        row = {}
        for f in ("title", "authors", "year", "headings", "levels", "captions", "regions", "refs"):
            row[f] = [t.n.get(f"{f}.{kind}.right", 0), t.n.get(f"{f}.{kind}", 0)]
        row["headings_precision"] = [t.n.get(f"scan_headings.{kind}.right", 0), t.n.get(f"scan_headings.{kind}", 0)]
        row["captions_precision"] = [t.n.get(f"scan_captions.{kind}.right", 0), t.n.get(f"scan_captions.{kind}", 0)]
        out[kind] = row
    both = {f: [out["checked"][f][i] + out["unchecked"][f][i] for i in (0, 1)] for f in out["checked"]}
    out["all"] = {f: round(r / n, 3) if n else None for f, (r, n) in both.items()}
    pages = max(1, t.n.get("pages", 0))
    # wall: the scan's whole read (render, OCR, layout); with --hocr-cache a page Tesseract read before costs
    # no OCR, so wall is then the rest of the read, and tesseract the stored first reads' seconds.
    out["s_per_page"] = {"wall": round(t.n.get("ms.wall", 0) / pages / 1000, 3),
                         "tesseract": round(t.n.get("ms.tesseract", 0) / pages / 1000, 2),
                         "digital_wall": round(t.n.get("ms.digital", 0) / pages / 1000, 3)}
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--half", choices=("dev", "test"), default="dev", help="tune on dev; the test half is read once")
    ap.add_argument("--pages", type=int, default=2, help="the first N pages of each PDF")
    ap.add_argument("--last", type=int, default=1, help="and its last N pages")
    ap.add_argument("--dpi", type=int, default=300)
    ap.add_argument("--skew", type=float, default=0.4, help="degrees, at most, either way")
    ap.add_argument("--noise", type=float, default=0.002, help="share of pixels flipped")
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--every", type=int, default=1, help="every Nth file only (sorted by name)")
    ap.add_argument("--start", type=int, default=0, help="with --every: from the Nth file (0: the first)")
    ap.add_argument("--only", default=None, help="files whose name holds this")
    ap.add_argument("--hocr-cache", action="store_true", help="keep Tesseract's reads under /tmp/scan15/hocr")
    ap.add_argument("--show", default=None, help="print the differences of one measure (title, heading, ...)")
    ap.add_argument("--out", default=None, help="write the report and every difference as JSON here")
    a = ap.parse_args()
    if a.hocr_cache:
        keep_hocr()
    files = [p for p in half_files(a.half)[a.start::a.every] if not a.only or a.only in p.name][:a.limit]
    truth, t = Truth(), Tally()
    diffs: list[tuple] = []
    for path in files:
        try:
            measure(path, a, truth, t, diffs)
        except IngestError as e:
            print(f"{path.name}: {e}", file=sys.stderr)
            t.add("failed")
        print(f"{path.name} done", file=sys.stderr, flush=True)
    out = report(t, a, len(files))
    out["failed"] = t.n.get("failed", 0)
    out["scan_headings_shared"] = t.n.get("scan_headings.shared", 0)
    if a.out:
        Path(a.out).write_text(json.dumps({"report": out, "diffs": diffs}, indent=1, default=str))
    for kind, name, want, got in diffs:
        if a.show and a.show in kind:
            print(f"{kind:15} {name:50} want={want!r} got={got!r}")
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
