"""The document info's title in place of the title read from page 1, where page 1 itself confirms it:
the page prints the info's title whole, and the title read from the page is part of it (a first line in
capitals read as a label over its subtitle, a last word dropped) or a short line printed right above it
(a label read as the title); or the page's own text spells the one word where the two differ as the
info does (`_respelled`: a word in a font whose glyphs map to other characters, "X3" for "2Q").  A
typesetter's info title that the page does not print whole ("acl07.dvi", an older draft's title, a
series' name) changes nothing."""

from __future__ import annotations

from .meta import ARTICLE_TYPE


def _letters(text: str) -> str:
    return "".join(c for c in text.casefold() if c.isalnum())


def _words(text: str) -> list[str]:
    return ["".join(c for c in w if c.isalnum()) for w in text.casefold().split()]


def info_case(read: str | None, info: str | None) -> str | None:
    """The title read, in the document info's letter case when the two are the same title and the page sets it
    (or a head of it) in capitals (`_in_capitals`): the info has the case the capitals hide."""
    if read and info and _letters(read) == _letters(info) and _in_capitals(read, info):
        return info
    return read


def _in_capitals(read: str, info: str) -> bool:
    """`read` sets in capitals words (all of them, or a head of a few) that `info`, the same words, writes in
    small letters: "GIANT CELL ARTERITIS: long-term …" for "Giant cell arteritis: long-term …"; a title
    whose words are only capitalised ("An Elementary Proof") is as printed."""
    if read.isupper():
        return True
    one, other = read.split(), info.split()
    return len(one) == len(other) and any(len(a) >= 3 and a.isupper() and not b.isupper()
                                          for a, b in zip(one, other, strict=True))


def confirmed_title(read: str | None, info: str | None, first_page: str) -> str | None:
    """`info` when page 1 prints it whole and it holds more than `read`: `read` inside it, with what the
    info adds not an article type's words alone ("Research Article" is a label, not a part of the title);
    or `read` a line of a few words printed right before it (a label taken for the title).  Else `read`."""
    if not info or not read:
        return read
    if _respelled(read, info, first_page):
        return info
    page, whole, part = _letters(first_page), _letters(info), _letters(read)
    if not part or whole == part or whole not in page:
        return read
    if part in whole:
        added = info.casefold().replace(read.casefold(), " ") if read.casefold() in info.casefold() else ""
        if added and all(w in ARTICLE_TYPE for w in _words(added) if w):
            return read
        return info
    at = page.find(whole)
    right_above = page[:at].endswith(part)  # the read line printed right before the info's title
    return info if len(read.split()) <= 4 and right_above else read


def _respelled(read: str, info: str, first_page: str) -> bool:
    """`read` is `info` word for word but one word of the same length, a code of letters and digits, which the
    page's text prints nowhere else while it prints the info's word outside the title: a title's font whose
    glyphs map to other characters ("X3: A Low Overhead …" for "2Q: …", the body's "hereafter 2Q" read
    right).  Words of letters alone are left as read: an info title one word away may be a draft's."""
    one, other = _words(read), _words(info)
    if len(one) != len(other) or len(one) < 3:
        return False
    differ = [(a, b) for a, b in zip(one, other, strict=True) if a != b]
    if len(differ) != 1 or not differ[0][0] or len(differ[0][0]) != len(differ[0][1]) \
            or all(w.isalpha() for w in differ[0]):
        return False
    wrong, right = differ[0]
    words = _words(first_page)
    return words.count(wrong) <= 1 and words.count(right) >= 1


def printed_info(info: str | None, first_page: str) -> str | None:
    """The document info's title where page 1 gave none, when the page does not contradict it: half its
    words of three letters or more are printed on page 1, or page 1 has too little text to tell (a scan).
    An info title the page's own text does not print (a template's "Paper Title Here", a journal's name, an
    older file's title) is no title of this paper: none rather than a wrong one (front17)."""
    if not info:
        return None
    words = [w for w in _words(info) if len(w) >= 3]
    page = set(_words(first_page))
    if len(_letters(first_page)) < 200 or not words:
        return info
    return info if sum(w in page for w in words) >= 0.5 * len(words) else None
