"""Text lines of one PDF page from pdfium, each with its box, font size and weight.

pdfium's own text (with its spaces and line breaks) is the starting point.  Its text
rectangles then say where that text sits: a "line" pdfium ran across both columns
(one baseline) or across two visual lines is cut where its rectangles jump, and the
characters are dealt to the pieces by position.  A superscript or subscript sits on a
raised or lowered baseline in a smaller size: it is written ``10^10`` and ``x_i`` so
that a reader still recognises it.
"""

from __future__ import annotations

import ctypes
import math
import re
import unicodedata
from dataclasses import dataclass

from pypdfium2 import raw

from ..objects.caption_cuts import caption_cuts
from ..sections.runin import _bold_lead, _first_runin, _italic_lead
from . import bare_calls as pdfium
from .font_weight import drawn_bold, says_weight
from .glyph_apart import read_apart, with_read
from .glyph_codes import SPACES
from .glyph_shapes import LATIN1, read_symbols
from .glyphs import (
    GONE,
    SPACING_ACCENT,
    SUSPECT,
    expand,
    marked,
    place_accents,
    repair_glyphs,
    repair_words,
    u16,
    unknown_glyph,
    with_gaps,
)
from .hidden_runs import hidden_lead, hidden_tail
from .hyphens import keep_hyphen
from .line_weight import after_label, after_mark, last_word_char
from .overlays import jumps_back, overlay_cut
from .rect_gaps import inner_gaps, measured
from .rotation import piece_turns, shown_box, span, text_turn, user_size
from .script_boxes import _has_script, _pieces, _stacked, nearest_all, sideways_split, text_size
from .stacked_signs import BROKEN_PAIR, PAIR, join_signs, outside
from .tex_signs import CANDIDATE as TEX_SIGN
from .tex_signs import read_tex_signs
from .text_index import char_indices
from .tracking import untracked
from .type3_codes import unmapped_share
from .word_gaps import LooseBoxes, glued, spaced

# Bold by the font's name: pdfium's weight field is unreliable (CMR10 reports 744).  Typesetting
# systems that hash their font names (Advent 3B2: "AdvTTaf7f9f4f.B") still mark the weight with a suffix.
_BOLD_NAME = re.compile(r"bold|black|heavy|demi|medi|semib|cmbx|sfbx|bx\d|(?:^|[-,+_.])b$|tb$")
# Slanted faces by name ("Times-Italic", TeX's cmti10, "…-ReguItal").
_SLANTED = r"ital|obli|slant|(?:^|[-,+_.])i$|ti$|it$|(?:cm|sf|ec|t1x)(?:ti|sl)"
_ITALIC_NAME = re.compile(_SLANTED)
# Faces that cannot mark a heading however they differ from the body: slanted, fixed-pitch, symbols and math.
_PLAIN_FACE = re.compile(_SLANTED + r"|(?:cm|sf|ec|t1x)tt|mono|courier|"
                         r"inconsolata|symbol|dingbat|math|cmmi|cmsy|cmex|msam|msbm|mtsy|mtmi|txsy|txmi|wasy|stmary|"
                         r"fontawesome")
_FIXED, _SYMBOLIC, _ITALIC = 0x1, 0x4, 0x40


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
    runin: str = ""  # the lead-in ("Training.") of a line that starts bold (or small caps) and goes on in roman
    runin_bold: bool = True  # the lead-in is set apart by weight (else by face alone)
    alone: bool = True  # no other text beside it on its baseline (table cells and chart labels have some)
    face: str = ""  # the font the whole line is set in, when one upright text face sets all of it
    italic: bool = False  # the whole line is slanted (IEEE's "A. Subsection" headings are)
    runin_italic: bool = False  # the lead-in is set apart by slant alone ("Cell culture. The cells …")
    turn: int = 0  # its characters' quarter turn in the page's frame (`rotation.char_turn`): 0 upright
    gaps: tuple[tuple[int, float, float], ...] = ()  # wide gaps between its words (`rect_gaps.inner_gaps`)
    @property
    def height(self) -> float:
        return self.bottom - self.top


def visual_rows(lines: list[Line], by_middle: bool = False) -> list[list[Line]]:
    """Lines grouped into rows that share a baseline, top to bottom, each row left to right: pieces of
    one row are read together even when their tops differ by a raised mark.  `by_middle`: a line
    joins the row when its middle falls inside the row's span so far, so a raised mark ("Wójcik,^1")
    starts no row of its own, nor does the piece after it (the author block's rows)."""
    rows: list[list[Line]] = []
    for ln in sorted(lines, key=lambda ln: ln.top):
        if rows and (((ln.top + ln.bottom) / 2 < max(r.bottom for r in rows[-1])) if by_middle
                     else ln.top < min(r.bottom for r in rows[-1]) - 0.5 * ln.height):
            rows[-1].append(ln)
        else:
            rows.append([ln])
    return [sorted(r, key=lambda ln: ln.x0) for r in rows]


_COMBINING = re.compile("[\u0300-\u036f]")
_SPACED_MARK = re.compile(r"(?<=\w)\s+(?=[\u0300-\u036f])")
_INNER_HYPHEN = re.compile(r"(?<=[a-z])[\ufffe\x02]\s*(?=[a-z])")


def clean(text: str) -> str:
    """pdfium marks a hyphen it dropped when joining a hyphenated word with U+FFFE (or \\x02):
    inside a line the word is whole again; at the end of a line the mark stays for the paragraph
    join to decide; elsewhere it is a real hyphen.  Text is Unicode NFC: a combining mark set
    apart from its letter by a space is joined to it, and what `_place_accents` took out of a
    word (a spacing accent and the spaces pdfium put around it) is gone."""
    text = expand(text.replace(GONE, ""))
    if _COMBINING.search(text):
        text = _SPACED_MARK.sub("", text)
    if not text.isascii():  # (ASCII text is NFC already)
        text = unicodedata.normalize("NFC", text)
    if "\ufffe" in text or "\x02" in text:
        text = _INNER_HYPHEN.sub("", text)
    text = " ".join(text.split())  # (`str.split` splits at what `\s` matches: runs of spaces as one)
    end = text[-1:] if text[-1:] in ("\ufffe", "\x02") else ""
    return text[:len(text) - len(end)].replace("\ufffe", "-").replace("\x02", "-") + ("\x02" if end else "")


def join_lines(lines: list[str]) -> str:
    """Lines of one paragraph (or title, or contents entry) as one text: a word pdfium hyphenated
    at a line's end is whole again, a compound broken at its own hyphen keeps it (`keep_hyphen`)."""
    out = ""
    for text in lines:
        if not out:
            out = text
        elif out.endswith(("\x02", "\ufffe", "\u00ad", "-")) and text[:1].islower():  # pdfium's mark, or a real '-'
            out = out[:-1] + ("-" if out[-1] != "\u00ad" and keep_hyphen(out[:-1], text) else "") + text
        else:
            out += " " + text
    return out.replace("\x02", "-").replace("\ufffe", "-").replace("\u00ad", "")


class _TextPage:
    """pdfium's text page with boxes turned the way the page is shown (y grows downwards)."""

    def __init__(self, page) -> None:
        self.w, self.h = user_size(page)
        # pdfium's boxes are in page space; the page shown is its crop box, which need not start at (0, 0)
        self.x0, self.y0 = page.get_bbox()[:2]
        self.tp = page.get_textpage()
        self.raw = self.tp.raw
        self.turn = text_turn(self.raw, page.get_rotation())  # text drawn turned on the page: read it upright
        self.rotation = (page.get_rotation() + self.turn) % 360
        self.matrix = raw.FS_MATRIX()
        self.matrix_ref = ctypes.byref(self.matrix)
        self.d = [ctypes.c_double() for _ in range(4)]
        self.d_refs = [ctypes.byref(d) for d in self.d]  # (`bare_calls` pass results' places by reference)
        self.bold_fonts: dict[bytes, bool] = {}
        self.faces: dict[bytes, str] = {}
        self.italic_fonts: dict[bytes, bool] = {}
        self.fixed_fonts: dict[bytes, bool] = {}
        self.index: list[int] | None = None
        self.positions: list[int] = []  # pdfium's own character index of each text position (`text_index`)
        self.font_at: dict[int, bytes] = {}
        self.sizes: dict[int, float] = {}
        self.buf = ctypes.create_string_buffer(128)
        self.flags = ctypes.c_int()
        self.flags_ref = ctypes.byref(self.flags)
        self.loose = LooseBoxes(self.raw)
        self.page = page  # `glyph_shapes.read_symbols` draws its symbols' glyphs
        self.symbolic_fonts: dict[bytes, bool] = {}
        self.page_rects: list[tuple[float, float, float, float]] = []
        self.read_apart: dict[int, str] = {}  # characters `glyph_apart` read as symbols: index -> symbol

    def shown(self, left: float, top: float, right: float, bottom: float) -> tuple[float, float, float, float]:
        # page space to the crop box shown (which need not start at (0, 0)), then turned as the page is shown
        left, right, top, bottom = left - self.x0, right - self.x0, top - self.y0, bottom - self.y0
        return shown_box(self.rotation, self.w, self.h, left, bottom, right, top)

    def rects(self, first: int, count: int) -> list[tuple[float, float, float, float]]:
        left, top, right, bottom = self.d
        textpage, get, refs = self.raw, pdfium.GetRect, self.d_refs
        page_rects = []  # as pdfium gives them (page space): `glyph_apart` finds glyphs set apart
        for r in range(pdfium.CountRects(textpage, first, count)):
            get(textpage, r, *refs)
            page_rects.append((left.value, top.value, right.value, bottom.value))
        self.page_rects = page_rects
        if self.rotation:
            return [self.shown(*r) for r in page_rects]
        x0, y0, h = self.x0, self.y0, self.h  # `shown` inlined (the same sums): this runs for every line
        return [(a - x0, h - (b - y0), c - x0, h - (d - y0)) for a, b, c, d in page_rects]

    def char_box(self, index: int) -> tuple[float, float, float, float]:
        left, right, bottom, top = self.d
        pdfium.GetCharBox(self.raw, index, *self.d_refs)
        if not self.rotation:  # `shown` inlined: this runs for most characters of a page
            return (left.value - self.x0, self.h - top.value + self.y0, right.value - self.x0,
                    self.h - bottom.value + self.y0)
        return self.shown(left.value, top.value, right.value, bottom.value)

    def centres(self, indices: list[int]) -> tuple[list[float], list[float]]:
        """The middle of each character's box as `char_box` gives it (the same sums), x and y apart:
        one loop for a cut line's characters, not a method call each."""
        if self.rotation:
            boxes = [self.char_box(i) for i in indices]
            return [(b[0] + b[2]) / 2 for b in boxes], [(b[1] + b[3]) / 2 for b in boxes]
        left, right, bottom, top = self.d
        get, textpage, refs = pdfium.GetCharBox, self.raw, self.d_refs
        x0, y0, h = self.x0, self.y0, self.h
        xs, ys = [], []
        for i in indices:
            get(textpage, i, *refs)
            xs.append((left.value - x0 + (right.value - x0)) / 2)
            ys.append((h - top.value + y0 + (h - bottom.value + y0)) / 2)
        return xs, ys

    def baseline(self, index: int) -> float:
        """Where the glyph stands (its origin, y down): a descender's box goes below it."""
        if self.rotation:
            return self.char_box(index)[3]
        y = self.d[1]
        pdfium.GetCharOrigin(self.raw, index, self.d_refs[0], self.d_refs[1])
        return self.h - y.value + self.y0

    def char_index(self, text_index: int) -> int:
        if self.index is not None:  # the page's text with the glyphs pdfium left out put back
            return self.index[text_index] if 0 <= text_index < len(self.index) else -1
        if 0 <= text_index < len(self.positions):
            return self.positions[text_index]
        return pdfium.GetCharIndexFromTextIndex(self.raw, text_index)

    def font_size(self, idx: int) -> float:
        """The size text is shown at (asked of pdfium once per character: a line's ends are asked
        about several times)."""
        size = self.sizes.get(idx)
        if size is None:
            size = self.sizes[idx] = self._font_size(idx)
        return size

    def _font_size(self, idx: int) -> float:
        """The font size scaled by the text matrix (many PDFs set ``Tf`` to 1 and scale with ``Tm``,
        so the bare font size says nothing)."""
        size = pdfium.GetFontSize(self.raw, idx)
        if pdfium.GetMatrix(self.raw, idx, self.matrix_ref):
            m = self.matrix
            scale = math.hypot(m.b, m.d) or math.hypot(m.a, m.c)
            if scale > 0:
                size *= scale
        if size < 2.0:
            # Scaled by a form's matrix that neither number shows: measure the glyph box
            # (ascent to descent is ~1.15 em for common text fonts).
            box = raw.FS_RECTF()
            if raw.FPDFText_GetLooseCharBox(self.raw, idx, ctypes.byref(box)):
                size = max(size, abs(box.top - box.bottom) / 1.15)
        return size

    def _font(self, idx: int) -> bytes:
        """The font's name at character `idx` (asked of pdfium once per character: a line's
        first and last characters are asked about several times)."""
        name = self.font_at.get(idx)
        if name is not None:
            return name
        n = pdfium.GetFontInfo(self.raw, idx, self.buf, 128, self.flags_ref)
        name = self.font_at[idx] = self.buf.raw[:n - 1 if n > 0 else 0]
        if name not in self.bold_fonts:
            text = name.decode("latin-1", "replace").lower().split("+")[-1]
            self.bold_fonts[name] = bool(_BOLD_NAME.search(text)) or bool(self.flags.value & 0x40000) \
                or (not says_weight(text) and drawn_bold(self.raw, idx))  # a hashed name: weigh the glyphs
            plain = _PLAIN_FACE.search(text) or self.flags.value & (_FIXED | _SYMBOLIC | _ITALIC)
            self.faces[name] = "" if plain else text
            self.symbolic_fonts[name] = bool(self.flags.value & _SYMBOLIC)
            self.italic_fonts[name] = bool(_ITALIC_NAME.search(text) or self.flags.value & _ITALIC)
            self.fixed_fonts[name] = bool(self.flags.value & _FIXED) or "mono" in text or "courier" in text \
                or re.search(r"^(?:cm|sf|ec|t1x)(?:i|sl)?tt", text) is not None
        return name

    def font_name(self, idx: int) -> str:
        """The font's name, lowercase, without a subset's prefix ("ABCDEF+CMR10" -> "cmr10")."""
        return self._font(idx).decode("latin-1", "replace").lower().split("+")[-1]

    def symbolic(self, idx: int) -> bool:
        return self.symbolic_fonts[self._font(idx)]

    def fixed_pitch(self, idx: int) -> bool:
        return self.fixed_fonts[self._font(idx)]

    def bold(self, idx: int) -> bool:
        return self.bold_fonts[self._font(idx)]

    def marks(self, idx: int, rest: bytes) -> bool:
        """Set apart from text in font ``rest``: bold, or an upright text face other than it."""
        name = self._font(idx)
        return self.bold_fonts[name] or (bool(self.faces[name]) and name != rest)

    def slanted(self, idx: int) -> bool:
        return self.italic_fonts[self._font(idx)]

    def italic(self, first: int, last: int) -> bool:
        return self.italic_fonts[self._font(first)] and self.italic_fonts[self._font(last)]

    def face(self, first: int, last: int) -> str:
        """The upright text face that sets both ends of a line ("" when they differ or the face
        is italic, fixed-pitch or symbols: those mark emphasis, code and math, not headings)."""
        name = self._font(first)
        return self.faces[name] if self._font(last) == name else ""

    def close(self) -> None:
        self.tp.close()


def _deal(tp: _TextPage, chunk: str, lead16: int, pieces: list[list[tuple]], size: float,
          gaps: set[int]) -> list[str]:
    """Characters of a chunk dealt to the pieces whose boxes hold them, each piece's super- and
    subscripts written as on a line of its own (``10^10`` whether or not pdfium ran the line
    into the other column's)."""
    indices = []
    offset16 = lead16
    table = tp.index if tp.index is not None else tp.positions  # (`char_index` without a call per character)
    for ch in chunk:
        idx = -1
        if not ch.isspace():
            idx = table[offset16] if 0 <= offset16 < len(table) else tp.char_index(offset16)
        offset16 += 1 if ch < "\U00010000" else 2  # its UTF-16 length
        indices.append(idx)
    xs, ys = tp.centres([idx for ch, idx in zip(chunk, indices) if not ch.isspace()])
    nearest = iter(nearest_all([span(p) for p in pieces], xs, ys))
    dealt: list[list[tuple[str, int]]] = [[] for _ in pieces]
    j = 0
    for k, (ch, idx) in enumerate(zip(chunk, indices)):
        if not ch.isspace():  # (a space goes with the piece of the character before it)
            j = next(nearest)
        dealt[j].append((ch, idx))
        if k in gaps:  # a word space pdfium left out (`word_gaps`)
            dealt[j].append((" ", -1))
    return [marked(tp, chars, size) if len(p) > 1 and _has_script(p, size) else "".join(c for c, _ in chars)
            for p, chars in zip(pieces, dealt)]


def _scripts(tp: _TextPage, chunk: str, lead16: int, size: float, gaps: set[int]) -> str:
    """The chunk with raised small glyphs written after ``^`` and lowered ones after ``_``."""
    chars = []
    offset16 = lead16
    table = tp.index if tp.index is not None else tp.positions  # (`char_index` without a call per character)
    for k, ch in enumerate(chunk):
        idx = -1
        if not ch.isspace():
            idx = table[offset16] if 0 <= offset16 < len(table) else tp.char_index(offset16)
        chars.append((ch, idx))
        offset16 += 1 if ch < "\U00010000" else 2  # its UTF-16 length
        if k in gaps:
            chars.append((" ", -1))
    return marked(tp, chars, size)


def _repaired(tp: _TextPage, text: str, lead16: int) -> tuple[str, list[tuple[float, float, float, float]]]:
    """The text with the glyphs it misnames read from the font and the page (each repair keeps the
    length in UTF-16 units), and the boxes of glyphs folded into their neighbour (`join_signs`)."""
    if LATIN1.search(text):
        text = read_symbols(tp, text, lead16)
    if SUSPECT.search(text):
        text = repair_glyphs(tp, text, lead16)
    if TEX_SIGN.search(text):  # "hz, xi" for ⟨z, x⟩ in TeX's symbol font
        text = read_tex_signs(tp, text, lead16)
    if SPACING_ACCENT.search(text):
        text = place_accents(tp, text, lead16)
    if PAIR.search(text):  # "±" drawn as "+" over "−"
        return join_signs(tp, text, lead16)
    return text, []


def _chunk_lines(tp: _TextPage, chunk: str, start16: int, number: int) -> list[Line]:
    stripped = chunk.strip(SPACES)  # not str.strip(): a control code a font gives for a glyph is no space
    lead16 = start16 + u16(chunk[:len(chunk) - len(chunk.lstrip(SPACES))])
    stripped, gone = _repaired(tp, stripped, lead16)
    stripped = untracked(stripped, lambda i: _box_at(tp, stripped, lead16, i), GONE)
    hidden = hidden_lead(tp, stripped, lead16)
    if hidden:
        lead16 += u16(stripped[:hidden])
        stripped = stripped[hidden:]
    stripped = stripped[:hidden_tail(tp, stripped, lead16)].rstrip(SPACES)
    first = tp.char_index(lead16)
    last = tp.char_index(lead16 + u16(stripped) - 1)
    if first < 0 or last < first:
        return []
    boxes = tp.rects(first, last - first + 1)
    if gone:
        boxes = outside(boxes, gone)
    if not boxes:
        return []
    rects = tp.page_rects
    size = text_size(boxes, tp.font_size(first), tp.font_size, first, stripped)
    if len(boxes) > 1 and jumps_back(boxes, size):  # an overlay's words drawn out of order into the line
        cut = overlay_cut(chunk, start16, size, tp.char_index, tp.char_box, lambda i: (tp._font(i), tp.font_size(i)))
        if cut:
            return _chunk_lines(tp, chunk[:cut], start16, number) + \
                _chunk_lines(tp, chunk[cut:], start16 + u16(chunk[:cut]), number)
    if len(boxes) > 1:
        stripped = read_apart(tp, stripped, lead16, rects, size)
    # Bold only when the whole line is: a run-in heading starts bold and goes on in roman.  A raised mark
    # opening the line (in roman beside bold names) is no part of its weight either.
    opening = first if size == tp.font_size(first) else after_mark(tp, stripped, lead16, first, last)
    opening = after_label(tp, stripped, lead16, opening, last)
    bold_first, bold_last = tp.bold(opening), tp.bold(last_word_char(tp, stripped, lead16, last, size))
    face, italic = tp.face(first, last), tp.italic(opening, last)
    words = measured(stripped, boxes, size, lambda i: _box_at(tp, stripped, lead16, i))
    pieces = _pieces(boxes, size)
    pieces, turns = sideways_split(pieces, piece_turns(tp.raw, first, last, pieces, tp.rotation, tp.char_box), size)
    gaps = set() if tp.rotation else glued(stripped, tp.char_index, tp.loose, lead16, size)
    if len(pieces) == 1:
        parts = [spaced(stripped, gaps)]
        if len(boxes) > 1 and _has_script(boxes, size):
            parts = [_scripts(tp, stripped, lead16, size, gaps)]
    else:
        parts = _deal(tp, stripped, lead16, pieces, size, gaps)
    stacked = len(pieces) > 1 and _stacked(pieces)
    runin = "" if bold_last else _first_runin(tp, stripped, lead16, last, parts, stacked)
    out: list[Line] = []
    for piece, part, turn in zip(pieces, parts, turns):
        if part.strip():
            out.append(Line(number, *span(piece), clean(part), round(size, 1), bold_first and bold_last,
                            runin=runin if not out else "", runin_bold=bool(runin) and _bold_lead(tp, runin, lead16),
                            alone=len(pieces) == 1 or stacked, face=face, italic=italic,
                            runin_italic=bool(runin) and _italic_lead(tp, runin, lead16),
                            turn=turn, gaps=inner_gaps(words, span(piece), size) if words else ()))
    return out


def _box_at(tp: _TextPage, text: str, lead16: int, i: int) -> tuple[float, float, float, float] | None:
    idx = tp.char_index(lead16 + u16(text[:i]))
    return tp.char_box(idx) if idx >= 0 else None


def page_lines(page, number: int, texts: list[str] | None = None,
               turns: list[int] | None = None, coded: list[float] | None = None) -> tuple[list[Line], float, float]:
    """Lines of a page, and the page's width and height as read.  `texts`, when given, gets the
    page's pdfium text appended (the metadata reader reads it again otherwise); `turns` the turn
    the page is read in on top of its /Rotate (`rotation.text_turn`); `coded` the share of its
    characters that a Type 3 font maps to no character (`type3_codes.unmapped_share`)."""
    width, height = page.get_size()
    tp = _TextPage(page)
    if tp.turn % 180:
        width, height = height, width
    if turns is not None:
        turns.append(tp.turn)
    out: list[Line] = []
    try:
        if coded is not None:
            coded.append(unmapped_share(tp.raw, raw.FPDFText_CountChars(tp.raw)))
        text = tp.tp.get_text_range()
        if texts is not None:
            texts.append(text)
        tp.positions = char_indices(tp.raw, u16(text))
        text, tp.index = with_gaps(tp.raw, text, tp.positions)
        # pdfium's text is UTF-16: a character outside the BMP takes two text indices.
        units16 = 0
        gutters: list[list[float]] = []  # where captions set side by side were cut apart (`caption_cuts`)
        for chunk in BROKEN_PAIR.sub("  ", text).split("\r\n"):
            start16 = units16
            units16 += u16(chunk) + 2
            if chunk.strip():
                for piece, piece16 in caption_cuts(tp, chunk, start16, gutters):
                    out.extend(_chunk_lines(tp, piece, piece16, number))
        if texts is not None and tp.read_apart:  # the metadata reader sees them too (a DOI's "/")
            texts[-1] = with_read(tp.raw, texts[-1], tp.read_apart)
    finally:
        tp.close()
    return out, width, height


def settle_glyphs(pages: list[tuple[list[Line], float, float]]) -> None:
    """Each glyph `lines` could not name inside a word decided now that the whole document is read
    (`glyphs.repair_words`: by the document's own letter statistics)."""
    lines = [ln for page, _, _ in pages for ln in page if unknown_glyph(ln.text) or unknown_glyph(ln.runin)]
    if not lines:
        return
    texts = [ln.text for page, _, _ in pages for ln in page if not unknown_glyph(ln.text)]
    fixed = repair_words(texts + [t for ln in lines for t in (ln.text, ln.runin)])[len(texts):]
    for k, ln in enumerate(lines):
        ln.text, ln.runin = fixed[2 * k], fixed[2 * k + 1]
