"""Symbols a font sets at an ASCII letter's code, read from the glyph's drawing where it stands apart.

Mathematical fonts without a ToUnicode map put their symbols at ordinary codes: PNAS's
MathematicalPi-Three sets "/" at "y" ("10.1073ypnas…", so no DOI is found), Advent 3B2 fonts set a prime
at "9" ("49,69-diamidino"), "=" at "5", "°" at "u", "µ" at "m" (some flagged *non*-symbolic), and
MathematicalPi-One a minus at the control code 4 (dropped: "823824").  A code in a text font is the
letter it claims, and checking every glyph of a page would cost more than reading it, so only a glyph
that stands apart is looked at: the character at the middle of a text object of its own (pdfium starts
a new text rectangle for each object) no wider than a glyph or two, set upright, as a symbol font's
glyph between text of another font is.  A font that sets the line's wider objects (its words) is a text
font; so is one whose first letters are drawn as the letters they claim; neither is looked at again
in the document.  TeX's own fonts are left to their known encodings (`glyphs`).  Any other code is
read once per document and font (`glyph_shapes`' drawings, plus where the ink stands on the
baseline), and replaced only when a symbol's drawing is near, clearly nearer than any other symbol's,
and far nearer than every usual drawing of the letter the code claims (roman, italic, bold, sans,
serif, fixed).  A document spends at most `_READS` renders and `_SECONDS` on it.
"""

from __future__ import annotations

import ctypes
import functools
import math
import re
import time
import weakref
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np
from pypdfium2 import raw

from . import bare_calls as pdfium
from .glyph_shapes import ASPECT, SIZE, Drawing, glyph_drawing, standard_glyph

# Symbols a font may set at a letter's code, as pdfium's standard fonts draw them (`glyph_shapes.drawings`:
# a text font for those WinAnsi has, Symbol for the rest), and how each is written.  No Greek letter that
# looks like a Latin one (ο, ν, κ, ι, ρ, χ, υ and the capitals): its drawing cannot tell them apart.
_SYMBOLS = "=+−×±÷<>≤≥∼~≈°′″→←↔⇒∞∝∂∇∑∏∫√∈⊂∩∪∀∃⋅•†‡§©®–—/|αβγδεζηθλµξπστφψω∆ΓΘΛΞΠΣΦΨ"
_WRITTEN = {"⋅": "·", "∆": "Δ", "~": "∼", "–": "−", "—": "−"}  # (drawn as Symbol or a text font has them)
# Symbols one may stand for another: the nearest must be clearly nearer than any symbol but these.  (A
# symbol font's dash is its minus: "823–824" and "−75 °C" are one glyph.)
_KIN = {"–": "−", "—": "−", "~": "∼"}
# The drawings a claimed letter is weighed by: a text font's glyph may be any of these styles.
_LETTER_FONTS = (b"Helvetica", b"Helvetica-Bold", b"Helvetica-Oblique", b"Times-Roman", b"Times-Bold",
                 b"Times-Italic", b"Courier")
# What a bare control code may stand for besides a symbol (a broken text font's letter or ligature).
_LETTERS = [*"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", "fi", "fl", "ff", "ffi", "ffl"]
_MATCH = 2.0  # a symbol's drawing must be at most this far from the glyph …
_MARGIN = 1.5  # … and this much nearer than the nearest drawing of the letter the code claims
_OWN = 1.5  # a glyph this near its claimed letter's drawing is that letter
# In a font that sets symbols at letters' codes (a code of it read so, none as its own letter): the margin,
# and how far the claimed letter must be.  A bare code outside a word, else dropped: the margin.
_MARGIN_IN_SYMBOLS, _OWN_IN_SYMBOLS = 0.75, 1.0
_MARGIN_CODE = 1.0
_CLEAR = 0.1  # the nearest symbol must be this much nearer than any other (but its kin)
_TEXT_FONT = 2  # a font whose first this-many letters or digits read as themselves is a text font
_OWN_AT_ONCE = 0.4  # … or whose first is drawn this near its own
# A document's bound: renders (what decides, so a file reads the same on a busy machine), and time spent
# reading (only against a hostile font whose glyphs take long to draw: 80 renders take about 0.3 s)
_READS, _SECONDS = 80, 4.0
_PLACE = 2.0  # a distance's weight on the ink's foot and head (ems)
_NARROW = 1.2  # a text object at most this many ems wide holds a glyph or two
# TeX's own fonts, whose encodings are known by name (`glyphs`): their codes are not guessed from drawings
# (cmsy's prime at "0" is drawn large, a slash's shape).
_KNOWN = re.compile(r"(?:cm|msam|msbm|eufm|eusm|rsfs|wasy|lasy|stmary)[a-z]*\d")
_CLAIMS = frozenset(map(chr, range(0x21, 0x7F))) | set("‘’“”")


class Seen(NamedTuple):
    """A glyph's drawing, and where its ink starts and ends above the baseline in ems (None when not
    known)."""

    drawn: Drawing
    place: tuple[float, float] | None


def _standard(ch: str, fonts: tuple[bytes, ...]) -> tuple[Seen, ...]:
    glyphs = (standard_glyph(ch, font) for font in fonts)
    return tuple(Seen(g[0], (g[1], g[2])) for g in glyphs if g is not None)


@functools.cache
def _letter(ch: str) -> tuple[Seen, ...]:
    """A letter (or ligature) as the standard text fonts draw it, in every style."""
    return _standard(ch, _LETTER_FONTS)


@functools.cache
def _symbol(ch: str) -> tuple[Seen, ...]:
    """A symbol as the standard fonts draw it: the text fonts those WinAnsi has, Symbol the rest
    (and those both have)."""
    try:
        ch.encode("cp1252")
        return _standard(ch, (b"Helvetica", b"Times-Roman", b"Symbol"))
    except UnicodeEncodeError:
        return _standard(ch, (b"Symbol",))


@dataclass(frozen=True)
class _Bank:
    """Drawings stacked, so that a glyph is weighed against all of them at once: `glyph_shapes.distance`,
    plus how far the ink's foot and head stand from theirs (a prime is a small stroke set high, a
    slash a long one through the baseline)."""

    names: tuple[str, ...]
    near: np.ndarray  # per drawing, each cell's distance to its ink
    ink: np.ndarray  # per drawing, 1 at the cells holding its ink
    count: np.ndarray  # per drawing, how many cells hold ink
    aspect: np.ndarray  # per drawing, the log of its aspect
    place: np.ndarray  # per drawing, its ink's foot and head above the baseline (ems)

    @classmethod
    def of(cls, named: list[tuple[str, Seen]]) -> _Bank:
        ink = np.zeros((len(named), SIZE * SIZE))
        for k, (_, seen) in enumerate(named):
            ink[k, seen.drawn.cells] = 1.0
        return cls(tuple(n for n, _ in named), np.array([s.drawn.near for _, s in named]), ink, ink.sum(1),
                   np.log([s.drawn.aspect for _, s in named]), np.array([s.place or (0.0, 0.0) for _, s in named]))

    def nearest(self, seen: Seen, leave: str = "") -> tuple[float, str]:
        """The nearest drawing's distance and name (none named `leave`)."""
        far, name, _ = self.two_nearest(seen, leave)
        return far, name

    def two_nearest(self, seen: Seen, leave: str = "") -> tuple[float, str, float]:
        """The nearest drawing's distance and name (none named `leave`), and the distance of the
        nearest drawing named otherwise."""
        drawn = seen.drawn
        far = (self.near[:, drawn.cells].mean(1) + self.ink @ drawn.near / self.count) / 2 \
            + ASPECT * np.abs(self.aspect - math.log(drawn.aspect))
        if seen.place is not None:
            far += _PLACE * np.abs(self.place - np.array(seen.place)).sum(1)
        if leave:
            far[[n == leave for n in self.names]] = np.inf
        k = int(np.argmin(far))
        kin = _KIN.get(self.names[k], self.names[k])
        other = min((f for f, n in zip(far.tolist(), self.names) if _KIN.get(n, n) != kin), default=math.inf)
        return float(far[k]), self.names[k], other


@functools.cache
def _symbols() -> _Bank:
    return _Bank.of([(c, seen) for c in _SYMBOLS for seen in _symbol(c)])


@functools.cache
def _letters(claimed: str) -> _Bank | None:
    """The claimed letter's drawings (a bare code's: every letter's and ligature's)."""
    named = [(c, seen) for c in ([claimed] if claimed in _CLAIMS else _LETTERS) for seen in _letter(c)]
    return _Bank.of(named) if named else None


def _own(seen: Seen, claimed: str) -> float:
    bank = _letters(claimed)
    return math.inf if bank is None else bank.nearest(seen)[0]


def read_claim(seen: Seen, claimed: str, symbol_font: bool = False) -> tuple[str | None, float]:
    """The symbol a glyph shows instead of the `claimed` letter (or None), and how far it is from that
    letter's drawings.  In a font known to set symbols at letters' codes (`symbol_font`) a nearer symbol
    needs less of a margin (it still must be far from the letter)."""
    own = _own(seen, claimed)
    far, symbol, other = _symbols().two_nearest(seen, leave=claimed)
    margin = _MARGIN_IN_SYMBOLS if symbol_font and own > _OWN_IN_SYMBOLS else _MARGIN
    if far <= _MATCH and own - far >= margin and other - far >= _CLEAR:
        return _WRITTEN.get(symbol, symbol), own
    return None, own


def read_code(seen: Seen) -> str | None:
    """The symbol a glyph at a bare control code draws (a code outside any word, else dropped), when
    it is clearly no letter nor ligature."""
    far, symbol, other = _symbols().two_nearest(seen)
    letter = _own(seen, "")
    clear = far <= _MATCH and letter - far >= _MARGIN_CODE and other - far >= _CLEAR
    return _WRITTEN.get(symbol, symbol) if clear else None


@dataclass
class _Document:
    """What a document's fonts were read as: per font, its codes' readings and how many letters
    read as themselves; the renders and time spent."""

    codes: dict[tuple[bytes, str], str | None] = field(default_factory=dict)
    own: dict[bytes, int] = field(default_factory=dict)
    symbols: dict[bytes, int] = field(default_factory=dict)
    reads: int = 0
    seconds: float = 0.0

    def spent(self) -> bool:
        return self.reads >= _READS or self.seconds >= _SECONDS

    def text_font(self, font: bytes) -> bool:
        return not self.symbols.get(font) and self.own.get(font, 0) >= _TEXT_FONT


_DOCUMENTS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _state(tp) -> _Document:
    return _DOCUMENTS.setdefault(tp.page.pdf, _Document())


def _upright(tp, idx: int) -> bool:
    """Is character `idx` set upright (not turned, slanted nor mirrored)?  A turned glyph's drawing is
    turned too: a margin's vertical "Downloaded from …" would read as dashes."""
    m = raw.FS_MATRIX()
    return bool(raw.FPDFText_GetMatrix(tp.raw, idx, ctypes.byref(m))) and m.a > 0 and m.d > 0 \
        and abs(m.b) + abs(m.c) <= 0.01 * m.a


def _glyph(tp, idx: int) -> Seen | None:
    """Character `idx` (upright) as its page draws it, and where it stands on its baseline."""
    box = [ctypes.c_double() for _ in range(4)]
    raw.FPDFText_GetCharBox(tp.raw, idx, *(ctypes.byref(v) for v in box))
    left, right, bottom, top = (v.value for v in box)
    drawn = glyph_drawing(tp.page, tp.raw, idx, (left, bottom, right, top))
    if drawn is None:
        return None
    x, y = ctypes.c_double(), ctypes.c_double()
    size = tp.font_size(idx)
    if size <= 0 or not raw.FPDFText_GetCharOrigin(tp.raw, idx, ctypes.byref(x), ctypes.byref(y)):
        return Seen(drawn, None)
    return Seen(drawn, ((bottom - y.value) / size, (top - y.value) / size))


def _read(tp, doc: _Document, idx: int, ch: str) -> str | None:
    """The symbol at character `idx` (claiming `ch`), read once per document and (font, code)."""
    font = tp._font(idx)
    key = (font, ch)
    if key in doc.codes:
        return doc.codes[key]
    if doc.text_font(font) or doc.spent() or _KNOWN.match(tp.font_name(idx)) or not _upright(tp, idx):
        return None
    _symbols(), _letters(ch)  # the standard fonts' drawings, made once per process, are no document's time
    start = time.perf_counter()
    seen = _glyph(tp, idx)
    symbol, own = None, math.inf
    if seen is not None:
        known = bool(doc.symbols.get(font)) and not doc.own.get(font)
        symbol, own = read_claim(seen, ch, known) if ch in _CLAIMS else (read_code(seen), math.inf)
    doc.reads += 1
    doc.seconds += time.perf_counter() - start
    doc.codes[key] = symbol
    if symbol:
        doc.symbols[font] = doc.symbols.get(font, 0) + 1
    elif own <= _OWN and ch.isalnum():  # a letter drawn as its own (very near: says it at once)
        doc.own[font] = doc.own.get(font, 0) + (_TEXT_FONT if own <= _OWN_AT_ONCE else 1)
    return symbol


def drawn_code(tp, idx: int, ch: str) -> str | None:
    """The symbol a glyph at a bare control code (pdfium's text leaves it out) draws, or None."""
    return _read(tp, _state(tp), idx, ch)


def read_apart(tp, text: str, lead16: int, rects: list[tuple[float, float, float, float]], size: float) -> str:
    """`text` (a line of `tp` from UTF-16 offset `lead16`, its text rectangles `rects` in page space:
    left, top, right, bottom) with each glyph that stands apart read as the symbol it draws (same length)."""
    narrow = [r for r in rects if r[2] - r[0] <= _NARROW * size and r[1] - r[3] <= 2 * _NARROW * size]
    if not narrow or 2 * len(narrow) > len(rects) + 6:
        return text  # no glyph apart, or a page that sets every glyph alone (nothing stands apart)
    doc = _state(tp)
    if doc.spent() and not any(doc.codes.values()):
        return text  # nothing read so far, nothing more to read: every glyph stays as it is
    found: dict[int, str] = {}
    wordy: set[bytes] | None = None  # the fonts of the line's wider text objects (set lazily)
    for left, top, right, bottom in narrow:
        k = raw.FPDFText_GetCharIndexAtPos(tp.raw, (left + right) / 2, (top + bottom) / 2, 0.5, 0.5)
        ch = chr(pdfium.GetUnicode(tp.raw, k)) if k >= 0 else ""
        if ch not in _CLAIMS or doc.text_font(font := tp._font(k)):
            continue
        if (font, ch) not in doc.codes:
            wordy = _wordy(tp, rects, narrow) if wordy is None else wordy
            if font in wordy:  # a font that sets the line's words is a text font
                doc.own[font] = _TEXT_FONT
                continue
        symbol = _read(tp, doc, k, ch)
        if symbol:
            found[k] = symbol
    if not found:
        return text
    tp.read_apart.update(found)
    return _written(tp, text, lead16, found)


def with_read(textpage, text: str, found: dict[int, str]) -> str:
    """A page's pdfium `text` with the characters read as symbols (by index) written as those (a page
    whose text leaves the BMP, where positions are UTF-16 units, as it is)."""
    if len(text.encode("utf-16-le")) != 2 * len(text):
        return text
    chars = list(text)
    for idx, symbol in found.items():
        at = raw.FPDFText_GetTextIndexFromCharIndex(textpage, idx)
        if 0 <= at < len(chars):
            chars[at] = symbol
    return "".join(chars)


def _wordy(tp, rects: list[tuple[float, float, float, float]], narrow: list) -> set[bytes]:
    """The fonts of the line's text objects wider than a glyph or two (they set its words)."""
    fonts = set()
    apart = set(narrow)
    for left, top, right, bottom in rects:
        if (left, top, right, bottom) not in apart:
            idx = raw.FPDFText_GetCharIndexAtPos(tp.raw, left + 0.5, (top + bottom) / 2, 1.0, 1.0)
            if idx >= 0:
                fonts.add(tp._font(idx))
    return fonts


def _written(tp, text: str, lead16: int, found: dict[int, str]) -> str:
    chars = list(text)
    at = lead16
    for i, ch in enumerate(chars):
        if ch in _CLAIMS:
            symbol = found.get(tp.char_index(at))
            if symbol is not None and len(symbol) == 1 and symbol <= "\uffff":
                chars[i] = symbol
        at += 1 if ch < "\U00010000" else 2
    return "".join(chars)
