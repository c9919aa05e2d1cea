"""Small text helpers every layer shares, each written once: sentences, slugs,
hashes, token estimates and batches.

They live together because two versions of any of them drift apart (two
sentence splitters once disagreed about "Fig. 2"), and a change to one of them
changes content hashes, so it must be made in one place.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import re
import unicodedata
from collections.abc import Iterator, Sequence
from typing import TypeVar

from .index_text import CJK_CHAR

T = TypeVar("T")

# A sentence ends at . ! ? before a capital (perhaps after an opening bracket or quote), or at a
# line break; not before a digit or lowercase word ("Fig. 2", "vs. 4.1", "e.g. this").
# Chinese and Japanese sentences end in a full-width mark with no space after it.
# Spaces a pattern may begin with: from the first space of a run, or none at all.  An unanchored
# search for "\s*X" otherwise scans a run of n spaces from each of them, n^2/2 steps (issue #43).
LEADING_SPACE = r"(?:(?<!\s)\s*|(?!\s))"
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[\"'(\[]?[A-Z])|(?<=[。！？])\s*(?=\S)|" + LEADING_SPACE + r"\n\s*")
_WORD = re.compile(r"\S+")
_CJK = re.compile(CJK_CHAR)


def fold(text: str) -> str:
    """Lower case without diacritics (FTS5's remove_diacritics): how relevance features and
    author names compare words."""
    if text.isascii():
        return text.lower()
    decomposed = unicodedata.normalize("NFKD", text.lower())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


# Letters NFKD does not take apart: a stroke or a ligature is part of the letter's shape, yet a
# title typed on an English keyboard writes the plain letter ("Lukasz", "Orsted").
_UNSTROKED = str.maketrans({"ł": "l", "ø": "o", "đ": "d", "ħ": "h", "ı": "i", "æ": "ae", "œ": "oe", "þ": "th"})


def normalized_title(title: str | None) -> str:
    """Letters and digits only, case and accents folded ("Müller" -> "muller", "Ørsted" -> "orsted"),
    each word kept whatever its script (Greek, Cyrillic, Chinese): the same title typed, exported or
    extracted alike.  Folding, not dropping: "Müller" once became "mller", and a reference that
    printed "Muller" no longer matched the library paper its twin had typed with the accent."""
    text = fold((title or "").casefold()).translate(_UNSTROKED)
    return " ".join(re.sub(r"[\W_]+", " ", text).split())


def split_sentences(text: str, keep_lines: bool = True) -> list[str]:
    """Sentences of `text`.  With `keep_lines` a line break also ends a sentence (for text
    whose lines are meaningful); without, the text is first joined into one line."""
    if not keep_lines:
        text = " ".join(text.split())
    return [s.strip() for s in _SENTENCE_END.split(text) if s and s.strip()]


def slug(text: str, limit: int | None = None) -> str:
    """Lower-case ASCII words joined by hyphens: for ids made from names and labels."""
    s = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return s[:limit] if limit else s


def sha256_hex(*parts: str | bytes) -> str:
    """sha256 over the parts, each followed by a separator, so ("ab", "c") != ("a", "bc")."""
    h = hashlib.sha256()
    for p in parts:
        h.update(p if isinstance(p, bytes) else p.encode("utf-8", "surrogatepass"))
        h.update(b"\x1f")
    return h.hexdigest()


def estimate_tokens(text: str) -> int:
    """Roughly what a subword tokenizer makes of English prose: 4 tokens per 3 words; and one
    token per Chinese or Japanese character, written without spaces (BERT-style vocabularies
    hold CJK characters one by one)."""
    if not text.strip():
        return 0
    cjk = 0 if text.isascii() else len(_CJK.findall(text))  # (no CJK character is ASCII)
    return max(1, (len(_WORD.findall(_CJK.sub(" ", text) if cjk else text)) * 4 + 2) // 3 + cjk)


def batched(items: Sequence[T], size: int) -> Iterator[Sequence[T]]:
    """Consecutive slices of at most `size` items (e.g. ids for one `IN (...)` query)."""
    for i in range(0, len(items), size):
        yield items[i:i + size]


def repaired(text: str) -> str:
    """`text` with each lone surrogate (half of a UTF-16 pair: YAML's "\\ud83d", JSON's "\\ud800") made
    U+FFFD, and a pair written as two escapes joined into its character.  No UTF-8 file, database or
    terminal can hold a lone surrogate: one in a title aborted the whole `add` (issue #43)."""
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")


@functools.cache
def _field_names(kind: type) -> tuple[str, ...]:
    """A dataclass's field names (its fields are fixed with the class: asked once per class)."""
    return tuple(f.name for f in dataclasses.fields(kind))


_SCALARS = frozenset((int, float, bool, type(None)))  # hold no string: `repaired_all` passes them by


def repaired_all(value):
    """`repaired` over every string in `value`: lists and dicts (rebuilt), dataclasses (fields set in place)."""
    if type(value) in _SCALARS:  # (most of a document's values: asked first)
        return value
    if isinstance(value, str):
        return repaired(value)
    if isinstance(value, list):
        return [repaired_all(v) for v in value]
    if isinstance(value, tuple):
        return tuple(repaired_all(v) for v in value)
    if isinstance(value, dict):
        return {repaired_all(k): repaired_all(v) for k, v in value.items()}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for name in _field_names(type(value)):
            field_value = getattr(value, name)
            if type(field_value) not in _SCALARS:
                object.__setattr__(value, name, repaired_all(field_value))
    return value
