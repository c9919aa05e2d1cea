"""Letters a font gives as control codes, read once for the whole document.

A font whose encoding is broken (an old dvips or Word export without a usable ToUnicode map) can give
one of its letters as a control character: every "c" of a 2010 paper came out as U+000D ("Spee\\rh",
"Introdu\\rtion"), so its references heading read "Referen es" and no word with a "c" was findable.
Unlike a ligature, which `glyphs.repair_words` decides word by word, such a code stands for the same
glyph wherever the document uses it: it is read once, as the reading (a letter, a ligature, or
nothing) that makes the words holding it likeliest under the document's own letter statistics, with
the words the document prints intact counting most.

Each code inside a word is kept as its own Unicode noncharacter (`mark`) until the document is read:
one UTF-16 unit, as `glyphs` needs, and one per code, so two broken letters stay apart.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable

# Control codes a font may give for a letter: C0 controls but pdfium's own \x02 (hyphen mark), the
# tab and the line feed.  U+FDD2 … U+FDEF: thirty noncharacters, one per code (29 codes).
_CODES = [c for c in range(0x20) if c not in (0x02, 0x09, 0x0A)]
_MARKS = {chr(c): chr(0xFDD2 + k) for k, c in enumerate(_CODES)}
_ANY_MARK = re.compile("[\ufdd2-\ufdef]")
# (from a word's start only: tried inside a run of letters, the letters are read again at each one)
_WORD_WITH_MARK = re.compile(r"(?<![^\W\d_\ufdd2-\ufdef])[^\W\d_]*+[\ufdd2-\ufdef](?:[^\W\d_]|[\ufdd2-\ufdef])*+")
# What `str.strip` takes for spaces less the control codes a font may give for a letter or a ligature
# (\r, \x0b, \x0c, \x1c-\x1f, \x85): stripped, "\x0cgure" lost its "fi".
SPACES = "".join(c for c in map(chr, range(0x3001)) if c.isspace() and (c in " \t\n" or ord(c) > 0xA0 or c == "\xa0"))
_LETTERS = tuple("abcdefghijklmnopqrstuvwxyz")
_LIGATURES = ("fi", "fl", "ff", "ffi", "ffl")
_PRINTED = 4.0  # a reading that gives a word the document prints intact: worth this much per use


def mark(code: str) -> str | None:
    """The placeholder for a control code found inside a word, or None for a code no letter uses."""
    return _MARKS.get(code)


def has_marks(text: str) -> bool:
    return _ANY_MARK.search(text) is not None


def decode(texts: list[str], score: Callable[[str], float], printed: Callable[[str], int]) -> list[str]:
    """The texts with every code mark read: `score` is a word's log-likelihood under the document's
    letter statistics, `printed` how often the document prints a word intact."""
    uses: dict[str, list[str]] = defaultdict(list)
    for text in texts:
        for word in _WORD_WITH_MARK.findall(text):
            for m in set(_ANY_MARK.findall(word)):
                uses[m].append(word)
    if not uses:
        return texts

    def value(word: str) -> float:
        w = _ANY_MARK.sub("", word).lower()
        return score(w) / (len(w) + 1) + (_PRINTED if printed(w) else 0.0)

    letter = {m: _letter(m, words, value) for m, words in uses.items()}

    def read(match: re.Match) -> str:
        word = match.group(0)
        caps = len(word) > 2 and _ANY_MARK.sub("", word).isupper()  # "SPEE\rH" in a heading in capitals
        for m in dict.fromkeys(_ANY_MARK.findall(word)):
            r = letter.get(m) or max(_ligatures(word, m, printed), key=lambda lig: value(word.replace(m, lig)))
            word = word.replace(m, r.upper() if caps else r)
        return word

    return [_ANY_MARK.sub("", _WORD_WITH_MARK.sub(read, t)) if has_marks(t) else t for t in texts]


def _letter(m: str, words: list[str], value: Callable[[str], float]) -> str | None:
    """The one letter a code stands for, when one letter explains its words (up to 200) better than a
    ligature chosen word by word (a font's fi and ff given as one code); else None.  Each word is
    scored by its mean log-likelihood per letter pair, so no reading gains by its length alone."""
    sample = words[:200]
    best = max(_LETTERS, key=lambda r: sum(value(w.replace(m, r)) for w in sample))
    as_letter = sum(value(w.replace(m, best)) for w in sample)
    as_ligatures = sum(max(value(w.replace(m, lig)) for lig in _LIGATURES) for w in sample)
    return best if as_letter >= as_ligatures else None


def _ligatures(word: str, m: str, printed: Callable[[str], int]) -> tuple[str, ...]:
    """A ligature's readings in one word; nothing too when the word without it is printed intact
    ("s\x01pectrum": a stray mark)."""
    return _LIGATURES + (("",) if printed(_ANY_MARK.sub("", word.replace(m, "")).lower()) else ())


def without_marked_words(text: str) -> str:
    """The text with its words holding a code mark left out (they are no evidence of spelling)."""
    return _WORD_WITH_MARK.sub(" ", text) if has_marks(text) else text
