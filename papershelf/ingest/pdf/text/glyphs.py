"""Glyphs whose text pdfium cannot give as printed: spacing accents, ligatures and symbols that a font
maps to no letter, repaired from the page's own geometry, the font's own encoding and the document's words.

* A spacing accent set as a glyph of its own over a letter (TeX's ``\\'e``) is joined to that letter.
* A font without a usable ToUnicode map makes pdfium give a glyph's bare code: a control character,
  a private-use one, or an ASCII ``_`` / ``^`` where a 1990s PostScript font put its ``fi`` ligature or
  an accent (``_gure``, ``m^esons``).  TeX's own fonts say by name which encoding they use (OT1 text,
  math italic, math symbols; Symbol's private-use letters), so those codes are read from the
  encoding.  Any other such glyph inside a word becomes `UNKNOWN` when it is about as wide as two
  letters (a ligature), else it is dropped; `repair_words` then decides each `UNKNOWN` once the
  whole document is read: the reading among fi, fl, ff, ffi, ffl that the document's own
  letter statistics (character trigrams of its clean words) find likeliest.  A bare code outside a
  word is dropped, so no artefact is indexed as part of a word.

Every repair here keeps the text's length in UTF-16 units, pdfium's positions: a glyph becomes one
character, or `GONE` (taken out later by `lines.clean`).
"""

from __future__ import annotations

import bisect
import functools
import json
import math
import re
import unicodedata
from collections import Counter
from pathlib import Path
from typing import Protocol

from pypdfium2 import raw

from .glyph_apart import drawn_code
from .glyph_codes import decode, has_marks, mark, without_marked_words

GONE = "\u200b"  # stands in (one UTF-16 unit, so positions hold) for text taken out of a word
UNKNOWN = "\ue000"  # a ligature-wide glyph inside a word that the font maps to no letter: `repair_words` decides
UNKNOWN3 = "\ue001"  # the same, three letters wide (ffi, ffl)
# A superscript or subscript opened inside a word whose scripted part is a lowercase word's rest
# ("t_safe", "f_accum", an accent's empty glyph raising "m^esons"): `repair_words` decides.
# (Unicode noncharacters: no font's text holds them, and `expand` keeps them for `repair_words`.)
SCRIPT_IN_WORD = {"^": "\ufdd0", "_": "\ufdd1"}

# Spacing accents that typesetting systems (TeX above all) set as glyphs of their own over a letter,
# and the combining marks they stand for.
_ACCENTS = {"´": "\u0301", "`": "\u0300", "¨": "\u0308", "ˆ": "\u0302", "˜": "\u0303", "¸": "\u0327",
            "ˇ": "\u030c", "˘": "\u0306", "˙": "\u0307", "˚": "\u030a", "˝": "\u030b", "¯": "\u0304"}
SPACING_ACCENT = re.compile("[" + "".join(_ACCENTS) + "]")
# TeX sets an accent over i or j on the dotless letter (\'{\i}): under an accent it is the plain one.
_DOTTED = {"ı": "i", "ȷ": "j", "õ": "i"}  # (õ: StandardEncoding's dotless i read as Latin-1, see below)

# A bare glyph code: C0/C1 controls (not pdfium's own \x02 hyphen mark, nor tabs and line ends),
# private use, the replacement character; `_` and `^` are suspects checked by their place and box.
_STRAY = re.compile("[\x00\x01\x03-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ue002-\uf8ff\ufffd]")
SUSPECT = re.compile("[\x00\x01\x03-\x08\x0b-\x1f\x7f-\x9f\ue000-\uf8ff\ufffd_^®¯ÁÂÃÄÅÆÇÈÊËÍÏ]")
# A PostScript font in Adobe's StandardEncoding read as Latin-1 (no ToUnicode map): its fi and fl
# ligatures come out as ® and ¯ inside words ("speci®c", "¯ow"), its accents as capitals with an
# accent (Â is the acute) set small over the letter before them ("MartõÂnez", õ its dotless i).
_STANDARD_LIGATURES = "®¯"
_STANDARD_ACCENTS = dict(zip("ÁÂÃÄÅÆÇÈÊËÍÏ", "`´ˆ˜¯˘˙¨˚¸˝ˇ", strict=True))
LIGATURES = {"\ufb00": "ff", "\ufb01": "fi", "\ufb02": "fl", "\ufb03": "ffi", "\ufb04": "ffl", "\ufb05": "st",
             "\ufb06": "st"}

_GREEK_UPPER = "ΓΔΘΛΞΠΣΥΦΨΩ"  # codes 0-10 of TeX's text and math italic fonts
# TeX's fonts by name (after a subset prefix) and what their low codes are.
_OT1 = _GREEK_UPPER + "\ufb00\ufb01\ufb02\ufb03\ufb04ıȷ`´ˇ˘¯˚¸ßæœøÆŒØ"
_OML = _GREEK_UPPER + "αβγδϵζηθικλμνξπρστυϕχψωεϑϖϱςφ"
_OMS = "−·×∗÷⋄±∓⊕⊖⊗⊘⊙◯∘•≍≡⊆⊇≤≥⪯⪰∼≈⊂⊃≪≫≺≻"
_TEX_FONTS = [(re.compile(r"^cmmib?\d"), _OML), (re.compile(r"^cmb?sy\d"), _OMS),
              (re.compile(r"^cm(?!mi|sy|bsy|ex|tt|itt|sltt|tex)[a-z]*\d"), _OT1)]
# The Symbol font's letters as Windows puts them in private use (U+F041 "A" ... U+F07A "z").
_SYMBOL = dict(zip(range(0xF041, 0xF05B), "ΑΒΧΔΕΦΓΗΙϑΚΛΜΝΟΠΘΡΣΤΥςΩΞΨΖ", strict=True)) | \
    dict(zip(range(0xF061, 0xF07B), "αβχδεφγηιϕκλμνοπθρστυϖωξψζ", strict=True))


class GlyphPage(Protocol):
    def char_index(self, text_index: int) -> int: ...
    def char_box(self, index: int) -> tuple[float, float, float, float]: ...
    def font_size(self, idx: int) -> float: ...
    def baseline(self, index: int) -> float: ...
    def font_name(self, idx: int) -> str: ...
    def fixed_pitch(self, idx: int) -> bool: ...


def u16(text: str) -> int:
    """Length in UTF-16 code units, the unit of pdfium's text positions."""
    if text.isascii():
        return len(text)
    return len(text.encode("utf-16-le")) // 2


def place_accents(tp: GlyphPage, text: str, lead16: int) -> str:
    """Each spacing accent joined to the letter it is printed over ("Andre´" -> "André",
    "Gy ´ ongyi" -> "Gyóngyi", "t´ıtulo" -> "título"), found by position, not by text order.  The
    string keeps its length in UTF-16 units (pdfium's positions): the accent becomes `GONE`, and so do the spaces
    pdfium put around it inside a word; a letter is replaced only by its one-unit composed form."""
    chars = list(text)
    offsets, o = [], lead16
    for ch in chars:
        offsets.append(o)
        o += u16(ch)
    boxes = {i: tp.char_box(tp.char_index(offsets[i])) for i, ch in enumerate(chars) if not ch.isspace()}
    for i, ch in enumerate(chars):
        mark = _ACCENTS.get(ch)
        if mark is None or i not in boxes:
            continue
        cx = (boxes[i][0] + boxes[i][2]) / 2
        # (ˆ and ˇ are modifier letters to Unicode, so an accent is excluded from its own letters)
        under = [j for j, b in boxes.items() if chars[j].isalpha() and chars[j] not in _ACCENTS
                 and b[0] - 1 <= cx <= b[2] + 1 and _sits_on(boxes[i], b, below=ch == "¸")]
        if not under:
            continue
        j = min(under, key=lambda j: abs((boxes[j][0] + boxes[j][2]) / 2 - cx))
        composed = unicodedata.normalize("NFC", _DOTTED.get(chars[j], chars[j]) + mark)
        if len(composed) != 1 or u16(composed) != 1:
            continue
        chars[j], chars[i] = composed, GONE
        _close_gap(chars, boxes, i)
    return "".join(chars)


def _sits_on(mark: tuple, letter: tuple, below: bool) -> bool:
    """The accent is set on this letter's own line: just above it (a cedilla: just below), not on
    a letter of the line above or below that pdfium joined into the same run (boxes y-down)."""
    height = letter[3] - letter[1]
    if below:
        return mark[1] >= letter[1] and mark[1] <= letter[3] + height
    return mark[3] <= letter[3] and mark[3] >= letter[1] - height


def _close_gap(chars: list[str], boxes: dict, i: int) -> None:
    """Drop the spaces around a removed accent when the letters on both sides touch (one word)."""
    a = i - 1
    while a >= 0 and chars[a].isspace():
        a -= 1
    b = i + 1
    while b < len(chars) and chars[b].isspace():
        b += 1
    if a < 0 or b >= len(chars) or a not in boxes or b not in boxes:
        return
    if boxes[b][0] - boxes[a][2] < 0.3 * max(1.0, boxes[a][3] - boxes[a][1]):
        for k in range(a + 1, b):
            if chars[k].isspace():
                chars[k] = GONE


def with_gaps(textpage, text: str, positions: list[int]) -> tuple[str, list[int] | None]:
    """pdfium leaves out of a page's text a glyph whose code maps to a control character (the
    ``ffi`` of "di?cult" in a font without a ToUnicode map), though it counts it among the page's
    characters: such glyphs are put back where they stand, as their bare codes, for `repair_glyphs`
    to read.  Returns the text and, when it changed, each UTF-16 position's character index
    (`positions`: pdfium's own, `text_index.char_indices`)."""
    n = raw.FPDFText_CountChars(textpage)
    if n <= u16(text):
        return text, None
    before: dict[int, list[tuple[str, int]]] = {}
    for at, c in _left_out(textpage, n, positions):
        code = raw.FPDFText_GetUnicode(textpage, c)
        if 0 < code < 0x20 or 0x7F <= code < 0xA0 or 0xE000 <= code <= 0xF8FF:
            before.setdefault(at, []).append((chr(code) if code != 2 else "\ufffd", c))  # (\x02: pdfium's hyphen)
    if not before:
        return text, _realigned(textpage, text, n)
    out: list[str] = []
    index: list[int] = []
    pos = 0
    for ch in text:
        for gap, c in before.get(pos, ()):
            out.append(gap)
            index.append(c)
        out.append(ch)
        step = 1 if ch < "\U00010000" else 2  # (`u16` of one character, without the call)
        index.extend(positions[pos:pos + step])
        pos += step
    return "".join(out), index


def _left_out(textpage, n: int, positions: list[int]) -> list[tuple[int, int]]:
    """(text position of the next character in the text, character index) of each of the page's `n`
    characters that pdfium leaves out of its text and that some character in the text follows.
    `positions` already holds the text's characters (`FPDFText_GetTextIndexFromCharIndex` is their
    inverse map): only the others are asked, whether pdfium places them past the text's end."""
    kept = [c for c in positions if c >= 0]
    others = sorted(set(range(n)).difference(kept))
    past = [(c, at) for c in others if (at := raw.FPDFText_GetTextIndexFromCharIndex(textpage, c)) >= 0]
    past_chars = [c for c, _ in past]
    out = []
    for c in others:
        k, j = bisect.bisect_left(kept, c), bisect.bisect_left(past_chars, c)
        if j < len(past) and past[j][0] == c:
            continue  # in the text after all (past `positions`)
        if k < len(kept) and (j == len(past) or kept[k] < past[j][0]):
            out.append((k, c))
        elif j < len(past):
            out.append((past[j][1], c))
    return out


def _realigned(textpage, text: str, n: int) -> list[int] | None:
    """Each UTF-16 position's character index when pdfium's own mapping has slipped (its text leaves
    out characters it counts, and the mapping goes on as if it did not: a math font's letters beyond
    the BMP), found by matching the text to the characters' codes in order; None when the mapping
    holds.  A slipped mapping gives every later glyph another's size and place (words read as
    subscripts, "_define")."""
    units = [int.from_bytes(b, "little") for b in _pairs(text.encode("utf-16-le"))]
    codes = [raw.FPDFText_GetUnicode(textpage, c) for c in range(n)]
    step = max(1, len(units) // 200)
    if sum(units[k] != codes[raw.FPDFText_GetCharIndexFromTextIndex(textpage, k)] for k in range(0, len(units), step)
           if units[k] > 32) <= 2:
        return None
    index, c = [], 0
    for unit in units:
        j = next((j for j in range(c, min(n, c + 64)) if codes[j] == unit), -1)
        if j >= 0:
            c = j + 1
        index.append(j if j >= 0 else max(c - 1, 0))
    return index


def _pairs(data: bytes) -> list[bytes]:
    return [data[k:k + 2] for k in range(0, len(data) - 1, 2)]


def _in_word(chars: list[str], i: int) -> bool:
    """A letter on both sides, or the glyph opens a word of lowercase letters ("_gure")."""
    before = chars[i - 1] if i else " "
    after = "".join(chars[i + 1:i + 3])
    if (before.isalpha() or has_marks(before)) and after[:1].isalpha():  # a code read just before is a letter
        return True
    return not before.isalnum() and before not in "_^\\" and len(after) == 2 and after.isalpha() and after.islower()


def _encoded(font: str, code: int) -> str | None:
    """What a bare code means in a font whose encoding its name gives (TeX's fonts, Symbol)."""
    if code in _SYMBOL and "symbol" in font:
        return _SYMBOL[code]
    for pattern, table in _TEX_FONTS:
        if code < len(table) and pattern.match(font):
            return table[code]
    return None


def repair_glyphs(tp: GlyphPage, text: str, lead16: int) -> str:
    """The text with each bare glyph code read from its font's encoding, made `UNKNOWN` (a ligature
    inside a word) or dropped; a real ``_`` (a low, flat glyph) or one in a fixed-pitch font (code)
    is kept.  Same length in UTF-16 units."""
    chars = list(text)
    offset = lead16
    for i, ch in enumerate(chars):
        at, offset = offset, offset + u16(ch)
        if not SUSPECT.match(ch):
            continue
        idx = tp.char_index(at)
        if idx < 0:
            continue
        word = _in_word(chars, i)
        letters = _letters_beside(tp, chars, i, at)
        lettered = word or i > 0 and (chars[i - 1].isalpha() or has_marks(chars[i - 1]))  # in or ending a word
        if ch == "\r" and not lettered:
            continue  # a line end, not a glyph
        if ch in "_^":
            if word and not tp.fixed_pitch(idx) and not _flat_mark(tp, idx, ch):
                chars[i] = _ligature(tp, idx, letters) if ch == "_" else GONE
            continue
        if ch in _STANDARD_LIGATURES:  # a letter-high glyph inside a word; a thin mark is a macron
            if word and not _flat_mark(tp, idx, ch):
                chars[i] = _ligature(tp, idx, letters)
            continue
        if ch in _STANDARD_ACCENTS:
            before = tp.char_index(at - u16(chars[i - 1])) if i else -1
            if before >= 0 and _over(tp.char_box(idx), tp.char_box(before), tp.font_size(before)):
                chars[i] = _STANDARD_ACCENTS[ch]
            continue
        known = _encoded(tp.font_name(idx), ord(ch))
        if known is not None and u16(known) == 1:
            chars[i] = known
        elif not lettered and (ch < " " or ch == "\ufffd") and (drawn := drawn_code(tp, idx, ch)):
            chars[i] = drawn  # a symbol font's glyph at a control code ("823\x04824": an en dash)
        else:  # a code a broken font gives for a letter is read once for the document (`glyph_codes`)
            code = mark(ch) if lettered and _em_width(tp, idx, letters) >= 0.2 else None
            chars[i] = code or (_ligature(tp, idx, letters) if word else GONE)
    return "".join(chars)


def _over(mark: tuple, letter: tuple, size: float) -> bool:
    """A glyph struck over the letter before it (an accent), not a capital beside it: its middle
    within the letter's width, its foot no lower than the letter's (boxes y-down)."""
    cx = (mark[0] + mark[2]) / 2
    return letter[0] - 0.05 * size <= cx <= letter[2] + 0.05 * size and mark[3] <= letter[3] + 0.1 * size


def _flat_mark(tp: GlyphPage, idx: int, ch: str) -> bool:
    """A true underscore is a flat rule on or below the baseline; a true caret a small mark up high:
    a glyph of letter height in their place is something else the font could not name."""
    _, top, _, bottom = tp.char_box(idx)
    return bottom - top < 0.3 * max(1.0, tp.font_size(idx))


def _ligature(tp: GlyphPage, idx: int, letters: list[int]) -> str:
    """`UNKNOWN` for a glyph about as wide as two letters (fi, fl, ff: about 0.55 em), `UNKNOWN3` for
    three (ffi, ffl: about 0.83 em), `GONE` for a thin accent or stray mark."""
    width = _em_width(tp, idx, letters)
    return GONE if width < 0.42 else UNKNOWN if width < 0.72 else UNKNOWN3


def _letters_beside(tp: GlyphPage, chars: list[str], i: int, at: int) -> list[int]:
    """The pdfium indices of the letters right before and after character `i` (at UTF-16 offset `at`)."""
    near = []
    if i and chars[i - 1].isalpha():
        near.append(tp.char_index(at - u16(chars[i - 1])))
    if i + 1 < len(chars) and chars[i + 1].isalpha():
        near.append(tp.char_index(at + u16(chars[i])))
    return [j for j in near if j >= 0]


def _em_width(tp: GlyphPage, idx: int, letters: list[int]) -> float:
    """The glyph's width in ems.  The em is its font size, unless the letters beside it are far too
    short for that size: pdfium can give a font's nominal size where a text matrix scales it (104 pt
    for a byline's 10 pt letters), and every glyph then looked a thin stray mark, its letter lost
    ("Gerla\rh" read as "Gerlah").  The em is then twice the taller letter's height (a lowercase
    letter stands about half an em, a capital or ascender about 0.7)."""
    x0, _, x1, _ = tp.char_box(idx)
    size = max(1.0, tp.font_size(idx))
    font = tp.font_name(idx)
    # letters of its own font at its own size only: a math glyph beside text is measured by its own size
    kin = [j for j in letters if tp.font_name(j) == font and abs(tp.font_size(j) - size) < 0.05 * size]
    tallest = max((tp.char_box(j)[3] - tp.char_box(j)[1] for j in kin), default=0.0)
    if tallest > 0 and size > 4 * tallest:
        size = max(1.0, 2 * tallest)
    return (x1 - x0) / size


_CANDIDATES = {UNKNOWN: ("fi", "fl", "ff"), UNKNOWN3: ("ffi", "ffl"), **{v: (k,) for k, v in SCRIPT_IN_WORD.items()}}
_WORDS = re.compile(r"[^\W\d_]+")


class _Trigrams:
    """Letter statistics: the document's own trigrams (of its clean words, lowercase) on top of a
    prior learned from scientific English (trigrams.json, `scripts/train_trigrams.py`), which
    speaks when the document never prints a ligature's letters cleanly."""

    def __init__(self, texts: list[str]) -> None:
        self.tri: Counter[str] = Counter(_prior())
        words: Counter[str] = Counter()  # (each word's trigrams counted once, times the word's count)
        for text in texts:
            if not (_UNKNOWN_GLYPH.search(text) or has_marks(text)):
                words.update(_WORDS.findall(text.lower()))
        for word, n in words.items():
            w = f"<<{word}>"
            for k in range(len(w) - 2):
                self.tri[w[k:k + 3]] += n
        self.bi: Counter[str] = Counter()
        for t, n in self.tri.items():
            self.bi[t[:2]] += n

    def score(self, word: str) -> float:
        """Log-likelihood of the word under the trigram model (smoothed over ~30 letters)."""
        w = f"<<{word.lower()}>"
        return sum(math.log((self.tri[w[k:k + 3]] + 0.1) / (self.bi[w[k:k + 2]] + 3.0)) for k in range(len(w) - 2))


@functools.cache
def _prior() -> dict[str, int]:
    path = Path(__file__).with_name("trigrams.json")
    try:
        return json.loads(path.read_text(encoding="utf-8"))["trigrams"]
    except (OSError, ValueError, KeyError):  # a broken install: the document's own statistics alone
        return {}


# (from a word's start only, so a long run of letters is read once, not again from each of its letters)
_UNKNOWN_WORD = re.compile(r"(?<![^\W\d_\ue000\ue001\ufdd0\ufdd1])"
                           r"[^\W\d_]*[\ue000\ue001\ufdd0\ufdd1][^\W\d_\ue000\ue001\ufdd0\ufdd1]*"
                           r"(?:[\ue000\ue001\ufdd0\ufdd1][^\W\d_\ue000\ue001\ufdd0\ufdd1]*)*")
_UNKNOWN_GLYPH = re.compile("([\ue000\ue001\ufdd0\ufdd1])")


def repair_words(texts: list[str]) -> list[str]:
    """Each unknown glyph in the texts decided by the document itself: the reading the document
    prints intact elsewhere ("_gure" is "figure" where "figure" or "figures" stands in a clean line;
    "s_pectrum" is "spectrum"), else the likeliest ligature of its width by the document's letter
    statistics, per word.  A script opened inside a word (`SCRIPT_IN_WORD`) is read as nothing where
    the document prints the word joined ("tsafe"), else it stays a script ("x^th").  Texts without
    one come back unchanged."""
    if not any(_UNKNOWN_GLYPH.search(t) or has_marks(t) for t in texts):
        return texts
    model = _Trigrams(texts)
    vocabulary = _vocabulary(texts)
    if any(has_marks(t) for t in texts):  # read a broken font's letters first: their words are then printed
        texts = decode(texts, model.score, lambda w: vocabulary.get(w, 0))
        vocabulary = _vocabulary(texts)

    def best(m: re.Match) -> str:
        parts = _UNKNOWN_GLYPH.split(m.group(0))
        readings = [(parts[0], 0)]  # (reading, glyphs read as nothing: a stray mark rather than a ligature)
        for glyph, part in zip(parts[1::2], parts[2::2], strict=True):
            readings = [(r + c + part, n + (not c)) for r, n in readings for c in (*_CANDIDATES[glyph], "")][:64]
        printed = [(r, n) for r, n in readings if vocabulary.get(r.lower())]
        if printed:
            return min(printed, key=lambda rn: (rn[1], -vocabulary[rn[0].lower()]))[0]
        word = parts[0]
        for glyph, part in zip(parts[1::2], parts[2::2], strict=True):
            word = max((word + c + part for c in _CANDIDATES[glyph]), key=model.score)
        return word

    return [_UNKNOWN_WORD.sub(best, t) if _UNKNOWN_GLYPH.search(t) else t for t in texts]


def _vocabulary(texts: list[str]) -> Counter[str]:
    """The document's words printed intact (lowercase, four letters or more), with their counts: the
    words of a text are counted but for the pieces an unknown glyph cuts out of one."""
    words: Counter[str] = Counter()
    for text in texts:
        whole = without_marked_words(_UNKNOWN_WORD.sub(" ", text) if _UNKNOWN_GLYPH.search(text) else text)
        words.update(w for w in _WORDS.findall(whole.lower()) if len(w) >= 4)
    return words


def expand(text: str) -> str:
    """Ligature characters as their letters (a search for "figure" finds "ﬁgure"), stray codes dropped."""
    for lig, letters in LIGATURES.items():
        if lig in text:
            text = text.replace(lig, letters)
    return _STRAY.sub("", text)


def unknown_glyph(text: str) -> bool:
    """Does the text hold a glyph `repair_words` has yet to decide?"""
    return _UNKNOWN_GLYPH.search(text) is not None or has_marks(text)


def _low_word(glyphs: list[tuple[str, bool, float]], places: list[str], i: int) -> int:
    """The length of the word starting at `i` when all of it is set low and it is a lowercase word of
    four letters or more, else 0.  A subscript hangs from the glyph before it ("x_ij", "∑ _i,j" as
    pdfium spaces a limit); a whole word set low after a space has nothing to hang from (a word whose
    glyphs pdfium sizes and places wrongly: "We _define")."""
    j = i
    while j < len(glyphs) and not glyphs[j][0].isspace():
        j += 1
    word = "".join(g[0] for g in glyphs[i:j])
    low = all(p == "_" for p in places[i:j])
    return j - i if low and len(word) >= 4 and word.isalpha() and word.islower() else 0


def _rest_of_word(glyphs: list[tuple[str, bool, float]], places: list[str], i: int) -> bool:
    """Does a script opening at `i` hold the rest of a word: a letter before it, then three lowercase
    letters or more in the script's place up to the word's end?"""
    if i == 0 or not glyphs[i - 1][0].isalpha():
        return False
    j = i
    while j < len(glyphs) and places[j] == places[i] and glyphs[j][0].isalpha() and glyphs[j][0].islower():
        j += 1
    return j - i >= 3 and (j == len(glyphs) or not glyphs[j][0].isalnum())


def marked(tp: GlyphPage, chars: list[tuple[str, int]], size: float) -> str:
    """Characters (with their pdfium indices) written with ``^``/``_`` before raised/lowered small
    glyphs.  The baseline is the median of where the full-size glyphs stand (their origins: a
    descender's box reaches below it, and a "g" in a smaller font is no subscript)."""
    # a glyph taken out (`GONE`: an accent joined to its letter) has no place: it neither opens nor ends a script
    glyphs = [(ch, False, 0.0) if idx < 0 or ch == GONE else (ch, tp.font_size(idx) < 0.85 * size, tp.baseline(idx))
              for ch, idx in chars]
    bottoms = sorted(g[2] for g in glyphs if not g[1] and not g[0].isspace() and g[0] != GONE)
    if not bottoms:
        return "".join(ch for ch, _ in chars)
    base = bottoms[len(bottoms) // 2]
    places = ["" if ch.isspace() else "^" if small and bottom < base - 0.25 * size else
              "_" if small and bottom > base + 0.08 * size else "" for ch, small, bottom in glyphs]
    out, mode = [], ""
    loose = 0  # glyphs left of a word set low after a space: no subscript
    for i, (ch, _, _) in enumerate(glyphs):
        # a glyph the font maps to no character (a control or private-use code) opens no script ("3^")
        new = mode if ch.isspace() or ch == GONE or _STRAY.match(ch) else places[i]
        if new == "_" and mode != "_" and not loose and (i == 0 or glyphs[i - 1][0].isspace()):
            loose = _low_word(glyphs, places, i)
        if loose:
            new, loose = "", loose - 1
        if new != mode:
            out.append(SCRIPT_IN_WORD[new] if new and _rest_of_word(glyphs, places, i) else new)
            mode = new
        out.append(ch)
    return "".join(out)
