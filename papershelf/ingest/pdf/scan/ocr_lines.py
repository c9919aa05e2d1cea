"""Tesseract's hOCR as the `Line`s a born-digital page gives: lines cut where a text layer's are, sizes that agree
along a font (the weight and slant of their words: ocr_style.py).

A text layer says each line's font size; hOCR gives a height per line that the layout steps after it
(paragraph cuts at a change of size, headings and titles by size relative to the body) would read as
every line in a size of its own.  This module reads sizes from the page itself:

* size: Tesseract's ``x_size`` is the line's height from ascender to descender, but the descender part is
  a guess on a line with no g, p or y in it ("1. Introduction" reads 34 px where its paragraph reads 38
  at 300 dpi).  The height its words rise above the baseline (capitals and ascenders) is the same for
  both, so a line's size is that height over `ASCENT`, the share of the em a Latin face's ascenders
  take (0.68 Times to 0.73 Helvetica): within a point of the size a text layer would give.
  Sizes read within `SAME_SIZE` of a size more of the document's letters are set in take that size
  (`settle_sizes`): a title's four lines read at 20.5, 21.5, 20.5 and 21 pt are one size again.
* pieces: a hOCR line that runs across a wide gap (a gutter, a logo beside the title) is cut there, as
  pdfium's lines are (`pieces`).
"""

from __future__ import annotations

import re
from xml.etree import ElementTree

from ..text.lines import Line
from .ocr_marks import raised_tail
from .ocr_style import Ink, line_words

# The ascender's share of the em in the text faces papers are set in (Times 0.683, Computer Modern
# 0.694, Helvetica 0.718): a line's height above its baseline over this is its font size.
ASCENT = 0.7
# Sizes read within this share of a more common one are that size misread: a line's ascenders are read to
# a pixel or two (a point in 10 at 300 dpi is 4 pixels), and a text layer sets a font at one size.
SAME_SIZE = 0.07  # a document with fewer measured words gives no body weight to compare against

SPECK = 6  # pixels: at 300 dpi a fifth of a 10-pt line; a line of such marks alone holds no text
UNSURE = 50  # Tesseract's word confidence (0-100) under which a word may be a drawing: print reads 85-96
_WCONF = re.compile(r"x_wconf (\d+)")
_BBOX = re.compile(r"bbox (\d+) (\d+) (\d+) (\d+)")
_XSIZE = re.compile(r"x_size ([\d.]+)")
_BASELINE = re.compile(r"baseline (-?[\d.]+) (-?[\d.]+)")
_UNDERSCORED = re.compile(r"^_+(?=[^\W_])")
_LINE_CLASSES = {"ocr_line", "ocr_caption", "ocr_header", "ocr_textfloat"}


def _size(title: str, box: tuple[int, int, int, int], words: list) -> float:
    """The line's font size in pixels: the height its words usually rise above the baseline (most words
    hold a capital or an ascender; the median leaves out "on" and a small-capitals heading's larger
    initials) over `ASCENT`.  hOCR's baseline is a slope and an offset from the box's bottom left, so a
    skewed scan is measured word by word; a speck read as "." is no word."""
    base = _BASELINE.search(title)
    if base:
        slope, offset = float(base.group(1)), float(base.group(2))
        lettered = [b for t, b in words if any(c.isalnum() for c in t)]  # not a speck read as "."
        heights = sorted(box[3] + offset + slope * ((b[0] + b[2]) / 2 - box[0]) - b[1] for b in lettered)
        rise = heights[len(heights) // 2] if heights else 0.0
        if rise > 0:
            return rise / ASCENT
    size = _XSIZE.search(title)
    return float(size.group(1)) if size else float(box[3] - box[1])


def hocr_lines(hocr: bytes, page_no: int, scale: float, pixels=None) -> tuple[list[Line], list[Ink]]:
    """hOCR's lines as `Line`s in points (size as `_size` reads it, to a tenth of a point), each cut
    where its words stand as far apart as a text layer's line is cut (`pieces`), and with the page's
    `pixels` (a numpy array of the image Tesseract read) each line's `Ink`.  A line cut in pieces says
    no size for each (a logo's height inflates the title's beside it): each piece is sized by its
    words' heights, at the ratio of size to word height the page's whole lines show."""
    root = ElementTree.fromstring(hocr)
    found: list[tuple[list, float]] = []
    for el in root.iter():
        if el.get("class") not in _LINE_CLASSES:
            continue
        read = [(text, _box(w), _confidence(w)) for w in el.iter()
                if w.get("class") == "ocrx_word" and (text := _text(w))]
        words = _drawn_out(read)
        title = el.get("title", "")
        box = _BBOX.search(title)
        if words and box:
            line_box: tuple[int, int, int, int] = tuple(int(v) for v in box.groups())  # type: ignore[assignment]
            size_px = _size(title, line_box, words)
            marked = _marks(title, line_box, words, size_px, pixels)
            plain = [w for w in marked if "^" not in w[0]]
            # a raised mark's box stands taller than its word's letters (a word alone measures too few letters)
            if len(marked) > len(plain) >= 2:
                size_px = _size(title, line_box, plain)
            found.append((marked, size_px))
    cut = [(words, size_px, pieces(words, 72.0 / scale)) for words, size_px in found]
    whole = [size_px / _height(words) for words, size_px, parts in cut if len(parts) == 1 and _height(words)]
    ratio = _median(whole) if whole else 1.0 / ASCENT
    lines, inks = [], []
    for _words, size_px, parts in cut:
        for piece in parts:
            if _speck(piece):
                continue
            piece_px = size_px if len(parts) == 1 else ratio * _height(piece)
            ln = _line(piece, page_no, scale, piece_px)
            lines.append(ln)
            if pixels is not None:
                inks.append(Ink(ln, line_words(piece, pixels, piece_px), _pixel_box(piece)))
    return lines, inks


def _marks(title: str, box: tuple[int, int, int, int], words: list, size_px: float, pixels) -> list:
    """The line's words with their raised marks written after a ``^`` (ocr_marks.py), each measured
    against hOCR's baseline (a slope and an offset from the line box's bottom left) under the word."""
    base = _BASELINE.search(title)
    if pixels is None or not base:
        return words
    slope, offset = float(base.group(1)), float(base.group(2))
    return [(raised_tail(t, b, box[3] + offset + slope * ((b[0] + b[2]) / 2 - box[0]), size_px, pixels), b)
            for t, b in words]


def _drawn_out(words: list) -> list:
    """The line's words as (text, box) without those that are a drawing read as letters: a word Tesseract
    is unsure of (under `UNSURE`) whose box stands over twice as tall as the line's usual word (a logo
    beside a letterhead read as "ace")."""
    usual = _median([b[3] - b[1] for _, b, _ in words])
    return [(t, b) for t, b, sure in words if sure >= UNSURE or b[3] - b[1] <= 2 * usual]


def _confidence(word) -> int:
    found = _WCONF.search(word.get("title", ""))
    return int(found.group(1)) if found else 100


def _speck(words: list) -> bool:
    """A "line" that is dust on the scan: no letter or digit, each mark under `SPECK` pixels high
    (Tesseract reads a speck as ":" or "," and gives it a line of its own)."""
    return all(not any(c.isalnum() for c in t) and b[3] - b[1] < SPECK for t, b in words)


def _box(word) -> tuple[int, int, int, int]:
    found = _BBOX.search(word.get("title", ""))
    return tuple(int(v) for v in found.groups()) if found else (0, 0, 0, 0)  # type: ignore[return-value]


def _text(word) -> str:
    """The word's text; an underscore opening it is a speck of the scan read before a letter ("_G. Rodary"):
    print sets none there."""
    return _UNDERSCORED.sub("", "".join(word.itertext()).strip())


def _height(words: list) -> float:
    """The usual height of the words' boxes, in pixels."""
    return _median([b[3] - b[1] for _, b in words])


def pieces(words: list, dpi: float) -> list[list]:
    """A hOCR line's words cut where the gap between two is wider than a text layer's line allows
    (`script_boxes._pieces`: 12 pt, or 2.5 times the size, here of its words' usual height, as a logo
    beside the text inflates the line's size): Tesseract runs a line across a gutter or from a logo into
    the title beside it."""
    limit = max(12.0 * dpi / 72.0, 2.5 * _height(words))
    out: list[list] = [[words[0]]]
    for w in words[1:]:
        if w[1][0] - out[-1][-1][1][2] > limit:
            out.append([w])
        else:
            out[-1].append(w)
    return out


def _median(values: list) -> float:
    ordered = sorted(values)
    return float(ordered[len(ordered) // 2]) if ordered else 0.0


def _pixel_box(words: list) -> tuple[int, int, int, int]:
    """The words' box in pixels, right and bottom one past (as the drawings' cells count them)."""
    return (min(b[0] for _, b in words), min(b[1] for _, b in words),
            max(b[2] for _, b in words) + 1, max(b[3] for _, b in words) + 1)


def _line(words: list, page_no: int, scale: float, size_px: float) -> Line:
    boxes = [b for _, b in words]
    text = join_words([t for t, _ in words])
    if re.search(r"[a-z]-$", text):  # hyphenated at the line's end: the paragraph join decides,
        text = text[:-1] + "\x02"  # as for the soft hyphen pdfium marks (pdf_lines.clean)
    x0, top = min(b[0] for b in boxes), min(b[1] for b in boxes)
    x1, bottom = max(b[2] for b in boxes), max(b[3] for b in boxes)
    return Line(page_no, x0 * scale, top * scale, x1 * scale, bottom * scale, text,
                round(size_px * scale, 1), bold=False)


def settle_sizes(lines: list[Line]) -> None:
    """Each line's size set to its font's: the sizes read within `SAME_SIZE` of a more common one join
    it (the most common claiming their neighbours first), and each such group takes the size half its
    letters are read under or at (a pixel's error either way cancels out)."""
    letters: dict[float, int] = {}
    for ln in lines:
        letters[ln.size] = letters.get(ln.size, 0) + len(ln.text)
    centre: dict[float, float] = {}
    for size in sorted(letters, key=lambda v: -letters[v]):
        centre[size] = next((c for c in dict.fromkeys(centre.values()) if abs(size - c) <= SAME_SIZE * c), size)
    settled = {c: _settled(centre, letters, c) for c in set(centre.values())}
    for ln in lines:
        ln.size = settled[centre[ln.size]]


def _settled(centre: dict[float, float], letters: dict[float, int], c: float) -> float:
    """The size half a group's letters are read under or at."""
    group = sorted((v, letters[v]) for v in centre if centre[v] == c)
    half, seen = sum(n for _, n in group) / 2, 0
    for value, n in group:
        seen += n
        if seen >= half:
            return value
    return c


def ocr_text(lines: list[Line]) -> str:
    """A page's OCR'd lines as the text pdfium gives a text layer: a line each, in Tesseract's order,
    a hyphen left at a line's end as printed."""
    return "\n".join(ln.text.replace("\x02", "-") for ln in lines)


def join_words(words: list[str]) -> str:
    """Words of one line: CJK words (Tesseract splits them per character) join without spaces."""
    from ....index_text import has_cjk

    out = ""
    for w in words:
        if out and not (has_cjk(out[-1]) and has_cjk(w[0])):
            out += " "
        out += w
    return out
