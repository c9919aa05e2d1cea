"""PDFs with pypdfium2: text runs with font size and weight -> lines -> blocks,
in reading order, as the same `Document` every other reader produces.

The layout analysis is deliberately small and explainable:

* pdfium's text rectangles (runs of text on one line) carry position, font
  size and boldness; runs on one baseline close together form a line.
* Reading order: a page is cut into horizontal bands at every line that
  crosses the page's middle (titles, abstracts, wide figures); inside a band
  the left column is read before the right.  A one-column page is all
  full-width lines, so the same rule reads it top to bottom.
* Running headers and footers (text in the top/bottom margin that repeats on
  several pages, digits ignored) and bare page numbers are dropped.
* Lines join into blocks while the gap is small and the font stays the same;
  end-of-line hyphens are repaired.
* Headings are short lines that are numbered ("3.1 Data") or set larger or
  bold than body text; the title is the largest text at the top of page 1.
"""

from __future__ import annotations

import ctypes
import math
import re
from dataclasses import dataclass

from ..document import Block, Document
from .captions import CAPTION_RE, SECTION_NAMES

_NUMBERED = re.compile(r"^((?:\d+|[A-Z])(?:\.\d+)*)\.?\s+([A-Z][^\n]{1,90})$")
_ROMAN_HEAD = re.compile(r"^([IVX]+)\.\s+([A-Z][^\n]{1,90})$")
_DIGITS = re.compile(r"\d+")
_STAMP = re.compile(r"^arXiv:\d{4}\.\d{4,5}(v\d+)?\s*\[")
_PLAIN_HEADS = re.compile(rf"^({SECTION_NAMES})$", re.I)


@dataclass
class Line:
    page: int
    x0: float
    top: float
    x1: float
    bottom: float
    text: str
    size: float
    bold: bool

    @property
    def height(self) -> float:
        return self.bottom - self.top


def _clean(text: str) -> str:
    # pdfium marks a hyphen it dropped when joining a hyphenated word with U+FFFE
    # (or \x02): the word is whole again.  Elsewhere the mark is a real hyphen.
    text = re.sub(r"(?<=[a-z])[\ufffe\x02]\s*(?=[a-z])", "", text)
    text = text.replace("\ufffe", "-").replace("\x02", "-")
    return re.sub(r"\s+", " ", text).strip()


def _font_size(raw, textpage, idx: int, matrix) -> float:
    """The size text is shown at: the font size scaled by the text matrix (many PDFs set
    ``Tf`` to 1 and scale with ``Tm``, so the bare font size says nothing)."""
    size = raw.FPDFText_GetFontSize(textpage, idx)
    if raw.FPDFText_GetMatrix(textpage, idx, ctypes.byref(matrix)):
        scale = math.hypot(matrix.b, matrix.d) or math.hypot(matrix.a, matrix.c)
        if scale > 0:
            size *= scale
    if size < 2.0:
        # Scaled by a form's matrix that neither number shows: measure the glyph box
        # (ascent to descent is ~1.15 em for common text fonts).
        box = raw.FS_RECTF()
        if raw.FPDFText_GetLooseCharBox(textpage, idx, ctypes.byref(box)):
            size = max(size, abs(box.top - box.bottom) / 1.15)
    return size


def _bold(raw, textpage, idx: int) -> bool:
    weight = raw.FPDFText_GetFontWeight(textpage, idx)
    if weight >= 700:
        return True
    buf = ctypes.create_string_buffer(128)
    flags = ctypes.c_int()
    n = raw.FPDFText_GetFontInfo(textpage, idx, buf, 128, ctypes.byref(flags))
    name = buf.raw[:max(0, n - 1)].decode("latin-1", "replace").lower()
    return any(w in name for w in ("bold", "black", "heavy", "semibold", ".b"))


def _u16(text: str) -> int:
    """Length in UTF-16 code units, the unit of pdfium's text positions."""
    return len(text.encode("utf-16-le")) // 2


def _page_lines(page, number: int) -> tuple[list[Line], float, float]:
    """Lines of a page from pdfium's own text (which inserts spaces and line breaks),
    each with the union of its character boxes and the font of its first letter.

    A line pdfium ran across both columns (same baseline) is split where the
    horizontal gap between its character boxes is wide.
    """
    import pypdfium2.raw as raw

    width, height = page.get_size()
    rotation = page.get_rotation() % 360
    # Text boxes come in unrotated PDF space (y up); lay them out as the page is shown.
    w0, h0 = (height, width) if rotation in (90, 270) else (width, height)

    def shown(left_, top_, right_, bottom_):
        if rotation == 90:
            return bottom_, left_, top_, right_
        if rotation == 180:
            return w0 - right_, bottom_, w0 - left_, top_
        if rotation == 270:
            return h0 - top_, w0 - right_, h0 - bottom_, w0 - left_
        return left_, h0 - top_, right_, h0 - bottom_

    tp = page.get_textpage()
    matrix = raw.FS_MATRIX()
    out: list[Line] = []
    try:
        text = tp.get_text_range()
        left, bottom, right, top = (ctypes.c_double() for _ in range(4))
        # pdfium's text is UTF-16: a character outside the BMP takes two text indices,
        # so map each line's text position to pdfium's character index.
        units16 = 0
        to_char = raw.FPDFText_GetCharIndexFromTextIndex
        for chunk in text.split("\r\n"):
            start16 = units16
            units16 += _u16(chunk) + 2
            if not chunk.strip():
                continue
            stripped = chunk.strip()
            lead16 = start16 + _u16(chunk[:len(chunk) - len(chunk.lstrip())])
            first = to_char(tp.raw, lead16)
            last = to_char(tp.raw, lead16 + _u16(stripped) - 1)
            if first < 0 or last < first:
                continue
            n = raw.FPDFText_CountRects(tp.raw, first, last - first + 1)
            boxes = []
            for r in range(n):
                raw.FPDFText_GetRect(tp.raw, r, left, top, right, bottom)
                boxes.append(shown(left.value, top.value, right.value, bottom.value))
            chunk = stripped
            if not boxes:
                continue
            size = _font_size(raw, tp.raw, first, matrix)
            # Bold only when the whole line is: a run-in heading ("Training We train ...")
            # starts bold and goes on in roman.
            bold = _bold(raw, tp.raw, first) and _bold(raw, tp.raw, last)
            # Split at a wide gap between consecutive boxes (two columns on one baseline).
            pieces = [[boxes[0]]]
            for b in boxes[1:]:
                if b[0] - pieces[-1][-1][2] > max(12.0, 2.5 * size):
                    pieces.append([b])
                else:
                    pieces[-1].append(b)
            if len(pieces) == 1:
                parts = [chunk]
            else:  # assign characters to pieces by their x position
                parts = [""] * len(pieces)
                bounds = [p[0][0] for p in pieces[1:]]
                offset16 = lead16
                for ch in chunk:
                    cl, cb, cr, ct = ctypes.c_double(), ctypes.c_double(), ctypes.c_double(), ctypes.c_double()
                    raw.FPDFText_GetCharBox(tp.raw, to_char(tp.raw, offset16), cl, cr, cb, ct)
                    offset16 += _u16(ch)
                    x = shown(cl.value, ct.value, cr.value, cb.value)[0]
                    j = sum(x >= b - 1 for b in bounds)
                    parts[j] += ch
            for piece, part in zip(pieces, parts):
                if part.strip():
                    out.append(Line(number, min(b[0] for b in piece), min(b[1] for b in piece),
                                    max(b[2] for b in piece), max(b[3] for b in piece),
                                    _clean(part), round(size, 1), bold))
    finally:
        tp.close()
    return out, width, height


def _reading_order(lines: list[Line], width: float) -> list[list[Line]]:
    """Columns in reading order: a list of line runs, each one column of one band."""
    mid = width / 2
    lines = sorted(lines, key=lambda ln: (round(ln.top), ln.x0))
    columns: list[list[Line]] = []
    left: list[Line] = []
    right: list[Line] = []

    def flush():
        nonlocal left, right
        for col in (left, right):
            if col:
                columns.append(sorted(col, key=lambda ln: (ln.top, ln.x0)))
        left, right = [], []

    def full_width(ln: Line) -> bool:  # crosses the gutter
        return ln.x0 < mid - 8 and ln.x1 > mid + 8

    for ln in lines:
        if full_width(ln):
            flush()
            if columns and full_width(columns[-1][-1]):
                columns[-1].append(ln)  # consecutive full-width lines read as one run
            else:
                columns.append([ln])
        elif ln.x1 <= mid + 8:
            left.append(ln)
        else:
            right.append(ln)
    flush()
    return columns


def _repeating(pages: list[tuple[list[Line], float, float]]) -> set[str]:
    """Normalized texts of lines in the top/bottom margins that repeat on several pages."""
    seen: dict[str, set[int]] = {}
    for lines, _, height in pages:
        for ln in lines:
            if ln.top < 0.09 * height or ln.bottom > 0.92 * height:
                key = _DIGITS.sub("#", ln.text.lower())
                seen.setdefault(key, set()).add(ln.page)
    need = 2 if len(pages) <= 4 else 3
    return {k for k, v in seen.items() if len(v) >= need}


def _join(lines: list[str]) -> str:
    out = ""
    for text in lines:
        if not out:
            out = text
        elif out.endswith(("\x02", "\ufffe", "\u00ad")) and len(out) > 1 and out[-2].isalpha() \
                and text[:1].islower():
            out = out[:-1] + text  # a soft hyphen pdfium left: the word is whole again
        elif out.endswith("-") and text[:1].islower():
            out += text  # a compound broken at its own hyphen: keep the hyphen, drop the space
        else:
            out += " " + text
    return out.replace("\x02", "-").replace("\ufffe", "-").replace("\u00ad", "")


def _is_heading(text: str, size: float, bold: bool, body: float) -> int | None:
    """Heading level for a short standalone line, or None."""
    words = text.split()
    if not words or len(words) > 12 or len(text) > 100 or CAPTION_RE.match(text):
        return None
    unnumbered = re.sub(r"^(?:\d+|[A-Z]|[IVX]+)(?:\.\d+)*\.?\s+", "", text)
    if sum(c.isalpha() for c in text) < 3 or re.search(r"[.!?]\s+[A-Za-z]", unnumbered):
        return None  # a symbol, or a run-in heading followed by its paragraph
    if text.endswith((".", ",", ";")) and not _PLAIN_HEADS.match(text.rstrip(".")):
        return None
    bigger = size >= body + 0.8
    m = _NUMBERED.match(text) or _ROMAN_HEAD.match(text)
    if m and (bold or bigger) and not re.match(r"^\d+(\.\d+)*\s+\d", text):
        number = m.group(1)
        return 1 + number.count(".")
    if _PLAIN_HEADS.match(text.rstrip(".:")) and (bold or bigger or text.isupper()):
        return 1
    if (bigger or bold) and text[:1].isupper() and len(words) <= 8 and not text.endswith(":") and size >= body - 0.5:
        return 2 if not bigger else 1
    return None


_NAME = re.compile(r"^[A-Z][\w'’\-.´`¨]*(?:\s+(?:[A-Z][\w'’\-.´`¨]*|van|von|de|der|da|di|le|la)){1,3}$")
_NOT_NAME = re.compile(r"\b(universit\w*|institut\w*|department|school|college|laborator\w*|lab|research|science|"
                       r"sciences|division|center|centre|inc|corporation|google|microsoft|group|faculty|hospital|"
                       r"abstract|introduction|street|road|usa|germany|china|france|japan|india|canada|republic|kingdom|"
                       r"states|health|america|proceedings|journal|conference)\b", re.I)


def _names(text: str) -> list[str]:
    """Person names in an author line: footnote marks removed, split on commas, 'and' and marks."""
    text = re.sub(r"(?<=[a-z])[α-ωΑ-Ω\d]+", "", text)  # affiliation marks glued to a name
    parts = re.split(r"\s*(?:[,;†‡∗*♦□◦§¶♠♣♥⋆#]|\band\b|&)\s*", text)
    return [p.strip() for p in parts if _NAME.match(p.strip() or "-") and not _NOT_NAME.search(p)]


def parse_pdf_pages(pdf) -> Document:
    pages = []
    for n in range(len(pdf)):
        page = pdf[n]
        try:
            lines, width, height = _page_lines(page, n + 1)
        finally:
            page.close()
        pages.append((lines, width, height))
    chars = sum(len(ln.text) for lines, _, _ in pages for ln in lines)
    if chars < 40 * max(1, len(pages)) and chars < 400:
        from . import IngestError

        raise IngestError("no text layer: needs OCR")
    sizes: dict[float, int] = {}
    for lines, _, _ in pages:
        for ln in lines:
            sizes[ln.size] = sizes.get(ln.size, 0) + len(ln.text)
    body = max(sizes, key=sizes.get) if sizes else 10.0
    repeating = _repeating(pages)

    doc = Document(source_format="pdf")
    blocks: list[Block] = []
    for lines, width, height in pages:
        kept = []
        for ln in lines:
            vertical = (ln.bottom - ln.top) > 2 * max(1.0, ln.x1 - ln.x0)
            if (vertical and (ln.x1 < 0.12 * width or ln.x0 > 0.88 * width)) or _STAMP.match(ln.text):
                continue  # vertical margin text such as arXiv's identifier stamp
            in_margin = ln.top < 0.09 * height or ln.bottom > 0.92 * height
            if in_margin and (_DIGITS.sub("#", ln.text.lower()) in repeating or re.fullmatch(r"[\d\s\-–—|/ivx]+", ln.text)):
                continue
            if re.fullmatch(r"\d{1,4}", ln.text) and ln.bottom > 0.85 * height:
                continue
            kept.append(ln)
        if not kept:
            continue
        if not doc.title and kept[0].page == 1:
            top_half = [ln for ln in kept if ln.top < 0.5 * height and len(ln.text) > 3]
            if top_half:
                biggest = max(ln.size for ln in top_half)
                if biggest >= body + 1.5:
                    title_lines = [ln for ln in top_half if ln.size >= biggest - 0.5]
                    doc.title = " ".join(ln.text for ln in title_lines)
                    kept = [ln for ln in kept if ln not in title_lines]
        for column in _reading_order(kept, width):
            current: list[Line] = []

            def flush():
                if not current:
                    return
                text = _join([c.text for c in current])
                level = _is_heading(text, current[0].size, current[0].bold, body) if len(current) <= 2 else None
                if level:
                    blocks.append(Block("heading", text, level=level, page=current[0].page))
                else:
                    blocks.append(Block("text", text, page=current[0].page))
                current.clear()

            for ln in column:
                if current:
                    prev = current[-1]
                    # Baseline to baseline: leading is ~1.2x the font size; more is a paragraph gap.
                    pitch = ln.bottom - prev.bottom
                    new_block = (
                        pitch > 1.75 * max(prev.size, 1.0) or pitch < -2
                        or abs(ln.size - prev.size) > 0.6
                        or CAPTION_RE.match(ln.text) is not None
                        or (_is_heading(ln.text, ln.size, ln.bold, body) is not None
                            and _is_heading(prev.text, prev.size, prev.bold, body) is None)
                        or _is_heading(prev.text, prev.size, prev.bold, body) is not None and len(current) == 1
                        and ln.size <= prev.size and not prev.text.endswith(("-", "\x02"))
                    )
                    if new_block:
                        flush()
                current.append(ln)
            flush()
    # Large or bold lines between the title and the first real section heading are
    # the authors and their affiliations, not sections.
    for b in blocks:
        if b.kind == "heading" and (b.page != 1 or _PLAIN_HEADS.match(b.text.rstrip(".:"))
                                    or _NUMBERED.match(b.text) or _ROMAN_HEAD.match(b.text)):
            break
        if b.kind == "heading":
            b.kind, b.level = "text", 0
    # The first-page text before the first heading holds the authors.
    if doc.title:
        authors: list[str] = []
        for b in blocks:
            if b.kind == "heading" or b.page != 1 or len(authors) >= 12:
                break
            if len(b.text) < 160:
                authors += [a for a in _names(b.text) if a not in authors]
        doc.authors = authors[:12]
    doc.blocks = blocks
    return doc


def read_pdf(data: bytes) -> Document:
    from . import IngestError

    head = data[:1024]
    if b"%PDF" not in head:
        raise IngestError("not a PDF (no %PDF header)")
    import pypdfium2 as pdfium

    try:
        pdf = pdfium.PdfDocument(data)
    except pdfium.PdfiumError as e:
        msg = str(e)
        if "password" in msg.lower() or "security" in msg.lower():
            raise IngestError("encrypted PDF: needs a password") from None
        # PDFium refuses an empty page tree without an error of its own ("Success", or a stale one).
        if msg.rstrip(".) ").endswith("Success") or not re.search(rb"/Type\s*/Page(?!s)", data):
            raise IngestError("PDF has no pages") from None
        raise IngestError(f"damaged or truncated PDF ({msg})") from None
    try:
        if len(pdf) == 0:
            raise IngestError("PDF has no pages")
        return parse_pdf_pages(pdf)
    except pdfium.PdfiumError as e:  # a page that cannot be loaded: damaged inside, not at the header
        raise IngestError(f"damaged PDF ({e})") from None
    finally:
        pdf.close()
