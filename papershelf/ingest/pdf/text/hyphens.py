"""Is a real hyphen at a line's end part of the word ("high-level", "co-locate") or only where the
line broke it ("prox-imal", "mu-sic")?  pdfium marks the hyphens a typesetter added with U+FFFE, but
many PDFs print a plain '-' for both kinds, and a word left broken cannot be found by search.

The document decides first: a word it prints whole elsewhere joins, a compound it prints inside a line
keeps its hyphen.  Otherwise a small logistic model learned from the corpus (``hyphen_model.json``,
refitted by ``bench/hyphen_fit.py``) weighs the fragments: their lengths, whether the document knows
each as a word, how often the second's first letters open a word and the first's last letters close
one.  The document's words reach `join_lines` through `document_words`, since joins happen deep in
the layout code, long after the pages were read.
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from pathlib import Path

WORDS = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")
_LETTERS = re.compile(r"[^\W\d_]+")
_MODEL = Path(__file__).with_name("hyphen_model.json")
_words: ContextVar[Mapping[str, int] | None] = ContextVar("hyphen_words", default=None)


_BROKEN_END = re.compile("(?<![^\\W\\d_])[^\\W\\d_]+[-\\x02\\ufffe\\u00ad]$")
_FIRST_WORD = re.compile(r"^[^\W\d_]+")
_HYPHENS = ("-", "\x02", "\ufffe", "\u00ad")  # what `_BROKEN_END` ends with


def words_of(lines: Iterable[str]) -> Counter[str]:
    """Lowercase words and hyphenated compounds with how often the lines (in reading order) print
    them; the two fragments of a word broken across lines are not words of their own."""
    kept = []
    broken = False
    for text in lines:
        text = text.strip()
        if broken:
            text = _FIRST_WORD.sub("", text)
        # the tail only, and only a line that ends in a hyphen: a search from every letter is slow
        end = _BROKEN_END.search(text, max(0, len(text) - 60)) if text.endswith(_HYPHENS) else None
        broken = end is not None
        kept.append(text[:end.start()] if end else text)
    return Counter(WORDS.findall("\n".join(kept).lower()))  # (no word goes on over a line break)


@contextmanager
def document_words(texts: Iterable[str]) -> Iterator[Counter[str]]:
    """The document's words, for every `keep_hyphen` asked while the block runs."""
    words = words_of(texts)
    token = _words.set(words)
    try:
        yield words
    finally:
        _words.reset(token)


def fragments(before: str, after: str) -> tuple[str, str]:
    """The letters either side of the break, lowercase: "the prox-" and "imal nerve" -> ("prox", "imal")."""
    left = _LETTERS.findall(before[-40:])
    right = _LETTERS.match(after)
    return (left[-1].lower() if left else "", right.group(0).lower() if right else "")


def keep_hyphen(before: str, after: str, words: Mapping[str, int] | None = None) -> bool:
    """Does the hyphen that ends `before` stay when the line `after` follows it?"""
    left, right = fragments(before, after)
    if not left or not right or not before[-1:].isalpha():
        return True
    words = _words.get() if words is None else words
    words = words if words is not None else {}
    joined, hyphened = words.get(left + right, 0), words.get(f"{left}-{right}", 0)
    if joined or hyphened:
        return hyphened >= joined
    return model_keep(left, right, words)


@cache
def _model() -> dict:
    return json.loads(_MODEL.read_text())


def features(left: str, right: str, words: Mapping[str, int], model: Mapping) -> list[float]:
    """What the model weighs, in the order of its weights."""
    start, end = model["start"], model["end"]
    return [1.0, min(len(left), 12) / 10, min(len(right), 12) / 10,
            float(left in words), float(right in words),
            float(len(left) <= 2), float(len(right) <= 2),
            start.get(right[:3], 0.0), end.get(left[-3:], 0.0),
            start.get(right[:2], 0.0), end.get(left[-2:], 0.0)]


def model_keep(left: str, right: str, words: Mapping[str, int]) -> bool:
    """The learned fallback: is `left-right` a compound rather than one broken word?"""
    model = _model()
    z = sum(w * x for w, x in zip(model["weights"], features(left, right, words, model)))
    return 1 / (1 + math.exp(-max(-30.0, min(30.0, z)))) >= 0.5
