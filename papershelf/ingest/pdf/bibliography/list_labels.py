"""A numbered list's labels where the text layer puts them out of place, set back at the line they open.

Two layouts print each label where the page text does not give it at the start of its entry's first line:

- the label at the end of the line before ("… Lett. 95, 152513 2009. 3" | "M. Czerner, …"): a letter journal's
  small raised label, or a bracketed one the text layer reads after the entry before.  A number ending a line
  is the next entry's label when it is the number the list expects there, the next line prints no label of
  its own, and the next label the list prints after it is the one after (the labels' own sequence decides,
  not the number's look: a volume or page ending a line is rarely the number expected, and never with the
  next label after it);
- the label in a gutter of its own (`gutter_labels`): a scan's OCR reads each label as a line apart, in
  another size and off the baseline, and often garbles it ("PI", "[31", "I161").  A line of one short token
  at the list's left edge, beside a line of the list's text on its baseline, is that line's label.
"""

from __future__ import annotations

import re
from dataclasses import replace

from ...references import KEY, MAX_LABEL_GAP, YEAR_START, entry_label
from ..text.lines import Line

_END_LABEL = re.compile(r"\s(\[(\d{1,4})\]|\^?(\d{1,4}))$")
_BARE = re.compile(r"^\s*\^?(\d{1,4})\s*$")


def _start(text: str) -> int | None:
    """The label a line opens with, a bare number alone on its line included (a raised label set apart)."""
    if YEAR_START.match(text):
        return None
    label = entry_label(text)
    bare = _BARE.match(text)
    return label if label is not None else int(bare.group(1)) if bare else None


def _end(text: str) -> tuple[int, str] | None:
    """The number ending a line and its printed form ("[7]", "7"), or None."""
    m = _END_LABEL.search(text)
    return (int(m.group(2) or m.group(3)), m.group(1).lstrip("^")) if m else None


def end_labels_moved(runs: list[list[Line]]) -> list[list[Line]]:
    """The runs with each label printed at the end of the line before moved to the line it opens."""
    lines = [ln for run in runs for ln in run]
    if not any(_END_LABEL.search(ln.text) for ln in lines):
        return runs
    texts = [ln.text for ln in lines]
    ends = [_end(t) for t in texts]
    expect, moved = 1, False
    for i in range(len(texts)):
        label = _start(texts[i])
        if label is not None and expect <= label <= expect + MAX_LABEL_GAP:
            expect = label + 1
        end = ends[i]
        if end is None or not expect <= end[0] <= expect + MAX_LABEL_GAP or i + 1 >= len(texts) \
                or _start(texts[i + 1]) is not None:
            continue
        # a label past the one expected (one lost) only when the next the list prints is the one after it
        if _follows(texts, ends, i + 1, end[0], end[0] > expect) and texts[i + 1][:1].isupper():
            texts[i] = _END_LABEL.sub("", texts[i])
            texts[i + 1] = f"{end[1]} {texts[i + 1]}"
            moved, expect = True, end[0]
    if not moved:
        return runs
    new = iter(texts)
    return [[replace(ln, text=next(new)) for ln in run] for run in runs]


def _follows(texts: list[str], ends: list[tuple[int, str] | None], j: int, label: int, strict: bool) -> bool:
    """The next label the list prints from line `j` on (at a line's start, or a number ending a line that
    could be one) is one after `label`, a few missing at most (`strict`: the very next); or the list prints
    none after it (not when `strict`)."""
    top = label + 1 if strict else label + 1 + MAX_LABEL_GAP
    for k in range(j, len(texts)):
        start = _start(texts[k]) if k > j else None
        if start is not None:
            return label < start <= top
        end = ends[k]
        if end is not None and label < end[0] <= label + 1 + MAX_LABEL_GAP:
            return end[0] <= top
    return not strict


# A label as OCR may read it alone on its line: a short token of digits and the letters and marks digits and
# brackets are misread as ("[31", "F-31", "I161", "[l&3]", "PO1"), or two or three capitals ("PI", "WI").
_LABEL_TOKEN = re.compile(r"[\[\(]?[\dA-Za-z&\-]{1,4}[\]\)]?\.?")  # "9." set apart from ". Otwinowski"
_CAPITALS = re.compile(r"[A-Z]{2,3}")
MIN_GUTTER_LABELS = 3  # labels in a gutter of their own before lines are read so


def _token_label(text: str) -> bool:
    """The line is one token that reads as a label, garbled or not (not a year)."""
    text = text.strip()
    if not _LABEL_TOKEN.fullmatch(text) or YEAR_START.match(text):
        return False
    return any(c.isdigit() or c in "[]" for c in text) or bool(_CAPITALS.fullmatch(text))


def gutter_labels(runs: list[list[Line]]) -> list[list[Line]]:
    """The runs with each label set in a gutter of its own (a line of one label-like token beside the start
    of a line of text on its baseline) joined to that line: the line then starts at the label's edge, and
    holds the label when it reads as one ("[3]", a key "[BJ03]"), else not (a garbled "PI" is no part of the
    entry)."""
    lines = [ln for run in runs for ln in run]
    alone = [ln for ln in lines if _token_label(ln.text) and not _BARE.match(ln.text)]  # (a bare number set
    # apart is a raised label over the line below, `split_numbered`'s)
    beside = {id(label): text for label in alone if (text := _beside(label, lines)) is not None}
    if len(beside) < MIN_GUTTER_LABELS:  # but a label whose period the line beside reads again (". Vagin")
        beside = {k: text for k, text in beside.items() if _period_twice(k, alone, text)}
        if not beside:
            return runs
    joined: dict[int, Line] = {}
    for label in alone:
        text = beside.get(id(label))
        if text is None or id(text) in joined:
            continue
        token = label.text.strip()
        read = (entry_label(f"{token} A") is not None and not token[:1].isalpha()) or bool(KEY.match(f"{token} "))
        # a garbled one ("P22I") is kept, marked, for `garbled_labels` to read by the list's sequence or drop
        garbled = not read and bool(_GARBLED.match(f"{token} A"))
        rest = text.text[2:] if token.endswith(".") and text.text.startswith(". ") else text.text  # its period
        # read twice, by the label's block and the line's
        joined[id(text)] = replace(text, x0=label.x0, text=f"{token} {rest}" if read else
                                   f"{_MARK}{token} {rest}" if garbled else rest)
    gone = {id(label) for label in alone if id(beside.get(id(label), label)) in joined}
    out = [[joined.get(id(ln), ln) for ln in run if id(ln) not in gone] for run in runs]
    return [run for run in out if run]


def _period_twice(key: int, alone: list[Line], text: Line) -> bool:
    label = next(ln for ln in alone if id(ln) == key)
    return label.text.strip().endswith(".") and text.text.startswith(". ")


def _beside(label: Line, lines: list[Line]) -> Line | None:
    """The line of text a label stands beside: on its page, starting right of it within two of its sizes
    (or under its last glyph: OCR's boxes overlap), its baseline within most of a line of the label's."""
    size = max(label.size, 1.0)
    near = [ln for ln in lines if ln is not label and ln.page == label.page and len(ln.text) > 5
            and -0.5 * size <= ln.x0 - label.x1 < 2 * size and abs(ln.bottom - label.bottom) < 0.8 * ln.size]
    return min(near, key=lambda ln: abs(ln.bottom - label.bottom), default=None)


# A label OCR garbled at a line's start: digits with the letters and marks they are misread as, in or out of
# brackets ("P9I", "[141", "II7I", "[l8I", "I22l"), a digit or a bracket in it at least; or a bracketed one read
# as letters alone ("PI", "WI", "IlO" for 10); or one with a digit run into the first author's initials
# ("P22IG.B. Brandt"); or a numbered one misread with its period ("1O. Vagin", "I2. Brunger"), the period
# doubled by the scan's specks ("3... Richards", "19.. Galperin"), or its digits lost, the period kept
# (". Otoguro" for "5. Otoguro").
_GARBLED = re.compile(r"^(?:(?:(?=[^\s]*[\d\[\]])[\[\(PIl|]?[\dIlOo|]{1,3}(?:[\]\)Il1|]|\.{1,3})?|[PVWIJ][Il1|]{1,2}|"
                      r"[Il|][IlOo|]{1,2}|\.)\s+(?=[A-Z])|"
                      r"(?=[^\s]*\d)[\[\(PIl|]?[\dIlOo|]{1,3}[\]\)Il1|]?(?=[A-Z]\.))")


_MARK = "\x00"  # before a garbled label `gutter_labels` joined to its line, which no other reading takes


def garbled_labels(runs: list[list[Line]]) -> list[list[Line]]:
    """The runs with a label OCR garbled at a line's start ("P9I D. Johansson") read as the number the list
    expects there, when the line starts where the list's clean labels start and the next clean label the
    list prints comes after it (the labels' own sequence decides the number).  A garbled label from a gutter
    that is not read so is no part of its entry."""
    out = _garbled_read(_leads_read(runs))
    if not any(ln.text.startswith(_MARK) for run in out for ln in run):
        return out
    return [[replace(ln, text=ln.text.split(" ", 1)[-1]) if ln.text.startswith(_MARK) else ln for ln in run]
            for run in out]


def _garbled_read(runs: list[list[Line]]) -> list[list[Line]]:
    lines = [ln for run in runs for ln in run]
    starts = [None if YEAR_START.match(ln.text) else entry_label(ln.text) for ln in lines]
    edges = sorted(ln.x0 for ln, s in zip(lines, starts, strict=True) if s is not None)
    if len(edges) < MIN_GUTTER_LABELS or not any(_GARBLED.match(ln.text.removeprefix(_MARK)) for ln in lines):
        return runs
    # where the labels start, in each run (a column of a page) that prints a clean one, else in the list
    at: dict[int, float] = {}
    for run in runs:
        own = sorted(ln.x0 for ln in run if entry_label(ln.text) is not None and not YEAR_START.match(ln.text))
        at |= {id(ln): own[len(own) // 2] if own else edges[len(edges) // 2] for ln in run}
    texts, expect = [ln.text for ln in lines], 1
    for i, ln in enumerate(lines):
        start = starts[i]
        if start is not None:
            expect = start + 1 if expect <= start <= expect + MAX_LABEL_GAP else expect
            continue
        plain = ln.text.removeprefix(_MARK)
        m = _GARBLED.match(plain)
        if m is None or not _at_labels(ln, at[id(ln)], plain.startswith(".")):
            continue
        later = next((s for s in starts[i + 1:] if s is not None and s >= expect), None)
        if later is None or later > expect:
            texts[i], expect = f"[{expect}] {plain[m.end():]}", expect + 1
    new = iter(texts)
    return [[replace(ln, text=next(new)) for ln in run] for run in runs]


def _leads_read(runs: list[list[Line]]) -> list[list[Line]]:
    """The runs with a label that lost its first digits (`_lost_lead`) read as the number expected, when the
    next label the list prints comes after it."""
    lines = [ln for run in runs for ln in run]
    starts = [None if YEAR_START.match(ln.text) else entry_label(ln.text) for ln in lines]
    texts, expect, changed = [ln.text for ln in lines], 1, False
    for i, start in enumerate(starts):
        if start is not None and _lost_lead(start, expect) and _next_after(starts[i + 1:], expect):
            texts[i], start, changed = _LEAD.sub(f"[{expect}] ", texts[i], count=1), expect, True
        if start is not None and expect <= start <= expect + MAX_LABEL_GAP:
            expect = start + 1
    if not changed:
        return runs
    new = iter(texts)
    return [[replace(ln, text=next(new)) for ln in run] for run in runs]


_LEAD = re.compile(r"^\s*\S+\s+")  # the label a line opens with, to be replaced


def _lost_lead(start: int, expect: int) -> bool:
    """A label that reads as the number expected less its first digits ("0." for 10, "1." for 11): the
    scan lost them (OCR sets a label's digits apart and drops one)."""
    return start < expect and str(expect).endswith(str(start)) and len(str(expect)) > len(str(start))


def _next_after(later: list[int | None], expect: int) -> bool:
    """The next clean label the list prints after this line comes after `expect` (a few lost at most)."""
    nxt = next((s for s in later if s is not None and s >= expect), None)
    return nxt is not None and expect < nxt <= expect + 1 + MAX_LABEL_GAP


PERIOD_AFTER_DIGIT = (0.2, 0.75)  # where a label's period stands right of its start, in the line's size


def _at_labels(line: Line, start: float, period_only: bool) -> bool:
    """The line starts where the list's labels start (within half a size), or, for a label whose digits the
    scan lost, where a one-digit label's period stands: a digit's width right of that, short of the
    entries' hanging lines a full size in."""
    size = max(line.size, 1.0)
    if period_only:
        low, high = PERIOD_AFTER_DIGIT
        return low * size <= line.x0 - start <= high * size
    return abs(line.x0 - start) <= 0.5 * size
