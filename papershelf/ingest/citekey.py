"""Readable paper ids in Better BibTeX's default style: ``zeng1994heavy``.

The first author's family name, the year and the first significant word of the title, folded to
lower-case ASCII, so a person can type an id after reading it once.  Parts are capped so an id stays
short in a table (at most 23 characters before a clash suffix).  When the source names no author, the
first two significant title words stand in; with neither, the file name does.  A clash with another
paper is settled by the caller with a letter suffix (`with_suffix`), as Better BibTeX does.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

# Function words Better BibTeX skips when it takes a title's first word (English, German, French, Spanish...).
FUNCTION_WORDS = frozenset("""
a an the some from on in to of do with for and or at by as is are via into onto upon toward towards about
der die das ein eine einer eines einem einen und im zum zur von
un une la le les l el las los al uno una unos unas de des del d du et y en
""".split())
# Letters NFKD does not take apart into a base letter and an accent.
_FOLD = str.maketrans({"ß": "ss", "ø": "o", "Ø": "o", "æ": "ae", "Æ": "ae", "œ": "oe", "Œ": "oe", "ł": "l",
                       "Ł": "l", "đ": "d", "Đ": "d", "ð": "d", "þ": "th", "ı": "i"})
# At most 23 characters before a clash suffix: 24 with one letter.
SURNAME_CHARS, KEY_CHARS = 10, 23


def ascii_fold(text: str) -> str:
    """Lower-case ASCII letters and digits only: accents dropped (Müller -> muller), the rest removed."""
    decomposed = unicodedata.normalize("NFKD", text.translate(_FOLD))
    return re.sub(r"[^a-z0-9]", "", decomposed.encode("ascii", "ignore").decode().lower())


def family_name(author: str) -> str:
    """The family name of a name written "Family, Given" or "Given Family" (particles dropped:
    "van der Berg" -> berg, as Better BibTeX's [auth])."""
    name = author.split(",")[0] if "," in author else (author.split() or [""])[-1]
    words = [w for w in re.split(r"[\s]+", name.strip()) if w]
    return ascii_fold(words[-1]) if words else ""


def title_words(title: str, n: int) -> list[str]:
    """The first `n` significant words of a title, folded (hyphenated words are cut at the hyphen)."""
    out = []
    for raw in re.split(r"[\s\-–—/:]+", title):
        word = ascii_fold(raw)
        if word and word not in FUNCTION_WORDS and not word.isdigit():
            out.append(word)
        if len(out) == n:
            break
    return out


def readable_id(authors: list[str], year: int | None, title: str | None, stem: str) -> str:
    """The id for a paper: author + year + title word; without an author, two title words; with
    neither author nor title, the file name's stem."""
    surname = next((s for s in (family_name(a) for a in authors) if s), "")[:SURNAME_CHARS]
    when = str(year) if year else ""
    room = max(KEY_CHARS - len(surname) - len(when), 1)  # the title word takes what is left
    words = title_words(title or "", 1 if surname else 2)
    words = [words[0][:room]] if surname and words else [w[:room // 2] for w in words]
    if surname and (when or words):
        key = f"{surname}{when}{''.join(words)}"
    elif words:
        key = f"{''.join(words)}{when}"
    else:
        key = (re.sub(r"[^a-z0-9]+", "", ascii_fold(stem)) or "paper")[:KEY_CHARS - len(when)] + when
    return key if key[0].isalpha() else f"p{key}"


def suffixes() -> list[str]:
    """a..z, then aa..zz: Better BibTeX's clash suffixes."""
    letters = [chr(c) for c in range(ord("a"), ord("z") + 1)]
    return letters + [x + y for x in letters for y in letters]


def with_suffix(key: str, taken: Callable[[str], bool]) -> str:
    """`key`, or `key` plus the first clash suffix not `taken`."""
    if not taken(key):
        return key
    for s in suffixes():
        if not taken(key + s):
            return key + s
    raise ValueError(f"no free id for {key!r}")
