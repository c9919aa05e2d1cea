"""Pictures of figures and tables: the object's region of its PDF page, as PNG.

A figure or table unit from a PDF parsed by this version knows its region (the object and its
caption, found from the page's layout by `ingest.pdf.regions`): the crop is exactly that, with a
small margin.  A unit parsed before regions existed knows only its page and caption, so the
caption's label is looked up in the page's text (pypdfium2's text search) and the crop takes the
caption plus the part of the page where the object usually sits (above a figure's caption, below
a table's).  When the label is not on the page the whole page is returned.
PDFium is not thread-safe, so rendering is serialized; results are cached.

Every image is bounded whatever the page: at most `MAX_PIXELS` pixels, `MAX_SIDE` on a side and
`MAX_SCALE` times the page's own size (a 3 x 14400 pt strip asked at 900 px wide would otherwise be a
3.9-gigapixel bitmap), and at most `RENDERS` images are made at once; a request that cannot get a
slot within `WAIT` seconds is answered 503 (`RenderBusy`) instead of queueing without end.  The cache
keeps `CACHE_BYTES` of PNG at most.
"""

from __future__ import annotations

import io
import math
import os
import threading
from collections import OrderedDict

import pypdfium2 as pdfium

from ..errors import PapershelfError

_LOCK = threading.Lock()
MAX_PIXELS = 4_000_000  # 4 MP: a full page at 900 px wide is ~1.2 MP; a bitmap is 4 bytes a pixel
MAX_SIDE = 8192  # pixels on either side, so a strip of a page stays a picture a browser shows
MAX_SCALE = 4.0  # pixels per PDF point (288 dpi): more shows nothing new
RENDERS = 2  # images being made or encoded at once
WAIT = 5.0  # seconds a request waits for one of those slots before a 503
CACHE_BYTES = 64 * 1024 * 1024
_SLOTS = threading.BoundedSemaphore(RENDERS)
_CACHE: OrderedDict[tuple, bytes] = OrderedDict()
_CACHE_LOCK = threading.Lock()


class RenderBusy(PapershelfError):
    """Every render slot stayed taken for `WAIT` seconds: try again shortly."""

    http_status = 503
REACH = 0.45  # how far from its caption an object may extend, as a fraction of the page height


MARGIN = 4.0  # points of page kept around a region


def page_image(pdf_path: str, page: int, label: str | None = None, kind: str | None = None,
               width: int = 900, region: dict | None = None) -> bytes:
    """PNG of `page` (1-based) of `pdf_path`, cropped to `region` (the object plus its caption)
    when given, else to the object labelled `label` if found."""
    key = (pdf_path, os.stat(pdf_path).st_mtime_ns, page, label, kind, width, region_box(region) if region else None)
    with _CACHE_LOCK:
        if key in _CACHE:
            _CACHE.move_to_end(key)
            return _CACHE[key]
    if not _SLOTS.acquire(timeout=WAIT):
        raise RenderBusy(f"the server is busy drawing other images (at most {RENDERS} at once); try again")
    try:
        with _CACHE_LOCK:
            png = _CACHE.get(key)  # drawn by the request this one waited for
        png = png or _render(*key)
    finally:
        _SLOTS.release()
    with _CACHE_LOCK:
        _CACHE[key] = png
        while sum(len(v) for v in _CACHE.values()) > CACHE_BYTES and len(_CACHE) > 1:
            _CACHE.popitem(last=False)
    return png


def region_box(region: dict) -> tuple[float, float, float, float]:
    """(left, bottom, right, top) in PDF points: the object's bbox joined with its caption's."""
    boxes = [region["bbox"]] + ([region["caption_bbox"]] if region.get("caption_bbox") else [])
    return (min(b[0] for b in boxes) - MARGIN, min(b[1] for b in boxes) - MARGIN,
            max(b[2] for b in boxes) + MARGIN, max(b[3] for b in boxes) + MARGIN)


def bounded_scale(scale: float, width: float, height: float) -> float:
    """`scale` (pixels per point) lowered so that a `width` x `height` pt area makes at most
    `MAX_PIXELS` pixels, `MAX_SIDE` a side, at `MAX_SCALE` at most, whatever its size or aspect ratio."""
    width, height = max(width, 1.0), max(height, 1.0)
    return min(scale, MAX_SCALE, math.sqrt(MAX_PIXELS / (width * height)), MAX_SIDE / max(width, height))


def _render(pdf_path: str, mtime: int, page: int, label: str | None, kind: str | None, width: int,
            region: tuple[float, float, float, float] | None = None) -> bytes:
    with _LOCK:
        pdf = pdfium.PdfDocument(pdf_path)
        try:
            if not 1 <= page <= len(pdf):
                raise ValueError(f"page {page} is outside the document (1-{len(pdf)})")
            pg = pdf[page - 1]
            # Regions are stored relative to the page shown (its crop box, which need not start at
            # (0, 0)); a caption found in pdfium's text is in page space and is moved there.
            w, h = pg.get_size()
            box = region or (_object_box(pg, label, kind) if label else None)
            left, bottom, right, top = box or (0, 0, w, h)
            left, bottom = min(max(0.0, left), w - 1), min(max(0.0, bottom), h - 1)
            right, top = max(min(w, right), left + 1), max(min(h, top), bottom + 1)
            # a region is drawn at the asked width (up to 4x), the page or a band of it at page width
            scale = bounded_scale(width / max(right - left, 1.0) if region else width / w, right - left, top - bottom)
            # crop is (left, bottom, right, top) margins to cut away, in PDF points
            image = pg.render(scale=scale, crop=(left, bottom, w - right, h - top)).to_pil()
        finally:
            pdf.close()
    buf = io.BytesIO()
    image.save(buf, format="PNG", optimize=True)
    return buf.getvalue()


def _object_box(pg, label: str, kind: str | None) -> tuple[float, float, float, float] | None:
    """(left, bottom, right, top) in PDF points of the page shown, around the caption `label`, or
    None if not on the page."""
    textpage = pg.get_textpage()
    try:
        found = _find_caption(textpage, label)
        if found is None:
            return None
        _, cap_bottom, _, cap_top = found
    finally:
        textpage.close()
    x0, y0, x1, y1 = pg.get_bbox()
    w, height = x1 - x0, y1 - y0
    cap_bottom, cap_top = cap_bottom - y0, cap_top - y0
    reach = REACH * height
    if (kind or label.lower()).startswith("tab"):  # tables sit below their caption
        return 0, max(0.0, cap_bottom - reach), w, min(height, cap_top + 8)
    return 0, max(0.0, cap_bottom - 40), w, min(height, cap_top + reach)  # figures above


def _find_caption(textpage, label: str):
    """Box of the first occurrence of `label` that reads like a caption (followed by ':', '.', '|'
    or a dash), or None: an in-text mention ("see Table 1 for") says nothing about where the table is."""
    searcher = textpage.search(label, match_case=False, match_whole_word=False)
    try:
        while (occ := searcher.get_next()) is not None:
            index, count = occ
            if textpage.get_text_range(index + count, 2).strip()[:1] in (":", ".", "|", "—", "-", "–"):
                return _char_span_box(textpage, index, count)
        return None
    finally:
        searcher.close()


def _char_span_box(textpage, index: int, count: int) -> tuple[float, float, float, float]:
    boxes = [textpage.get_charbox(i) for i in range(index, index + count)]
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))
