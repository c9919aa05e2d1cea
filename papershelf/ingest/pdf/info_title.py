"""The document info's title in place of the title read from page 1, where page 1 itself confirms it:
the page prints the info's title whole, and the title read from the page is part of it (a first line in
capitals read as a label over its subtitle, a last word dropped) or a short line printed right above it
(a label read as the title).  A typesetter's info title that the page does not print whole ("acl07.dvi",
an older draft's title, a series' name) changes nothing."""

from __future__ import annotations

from .meta import ARTICLE_TYPE


def _letters(text: str) -> str:
    return "".join(c for c in text.casefold() if c.isalnum())


def _words(text: str) -> list[str]:
    return ["".join(c for c in w if c.isalnum()) for w in text.casefold().split()]


def confirmed_title(read: str | None, info: str | None, first_page: str) -> str | None:
    """`info` when page 1 prints it whole and it holds more than `read`: `read` inside it, with what the
    info adds not an article type's words alone ("Research Article" is a label, not a part of the title);
    or `read` a line of a few words printed right before it (a label taken for the title).  Else `read`."""
    if not info or not read:
        return read
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
