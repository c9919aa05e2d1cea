"""Pictures of figures and tables: the object's region of its PDF page, as PNG.

A figure or table unit from a PDF parsed by this version knows its region (the object and its
caption, found from the page's layout by `ingest.pdf.regions`): the crop is exactly that, with a
small margin.  A unit parsed before regions existed knows only its page and caption, so the
caption's label is looked up in the page's text (pypdfium2's text search) and the crop takes the
caption plus the part of the page where the object usually sits (above a figure's caption, below
a table's).  When the label is not on the page the whole page is returned.
PDFium is not thread-safe, so rendering is serialized; results are cached.
"""

from __future__ import annotations

import functools
import io
import os
import threading

import pypdfium2 as pdfium

_LOCK = threading.Lock()
REACH = 0.45  # how far from its caption an object may extend, as a fraction of the page height


MARGIN = 4.0  # points of page kept around a region


def page_image(pdf_path: str, page: int, label: str | None = None, kind: str | None = None,
               width: int = 900, region: dict | None = None) -> bytes:
    """PNG of `page` (1-based) of `pdf_path`, cropped to `region` (the object plus its caption)
    when given, else to the object labelled `label` if found."""
    mtime = os.stat(pdf_path).st_mtime_ns
    box = region_box(region) if region else None
    return _render(pdf_path, mtime, page, label, kind, width, box)


def region_box(region: dict) -> tuple[float, float, float, float]:
    """(left, bottom, right, top) in PDF points: the object's bbox joined with its caption's."""
    boxes = [region["bbox"]] + ([region["caption_bbox"]] if region.get("caption_bbox") else [])
    return (min(b[0] for b in boxes) - MARGIN, min(b[1] for b in boxes) - MARGIN,
            max(b[2] for b in boxes) + MARGIN, max(b[3] for b in boxes) + MARGIN)


@functools.lru_cache(maxsize=256)
def _render(pdf_path: str, mtime: int, page: int, label: str | None, kind: str | None, width: int,
            region: tuple[float, float, float, float] | None = None) -> bytes:
    with _LOCK:
        pdf = pdfium.PdfDocument(pdf_path)
        try:
            if not 1 <= page <= len(pdf):
                raise ValueError(f"page {page} is outside the document (1-{len(pdf)})")
            pg = pdf[page - 1]
            w, h = pg.get_size()
            box = region or (_object_box(pg, label, kind, h) if label else None)
            left, bottom, right, top = box or (0, 0, w, h)
            left, bottom, right, top = max(0.0, left), max(0.0, bottom), min(w, right), min(h, top)
            # a region is drawn at the asked width (up to 4x), the page or a band of it at page width
            scale = min(width / max(right - left, 1.0), 4.0) if region else width / w
            # crop is (left, bottom, right, top) margins to cut away, in PDF points
            image = pg.render(scale=scale, crop=(left, bottom, w - right, h - top)).to_pil()
        finally:
            pdf.close()
    buf = io.BytesIO()
    image.save(buf, format="PNG", optimize=True)
    return buf.getvalue()


def _object_box(pg, label: str, kind: str | None, height: float) -> tuple[float, float, float, float] | None:
    """(left, bottom, right, top) in PDF points around the caption `label`, or None if not on the page."""
    textpage = pg.get_textpage()
    try:
        found = _find_caption(textpage, label)
        if found is None:
            return None
        _, cap_bottom, _, cap_top = found
    finally:
        textpage.close()
    w = pg.get_size()[0]
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
