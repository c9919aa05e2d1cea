"""The order a byline sets a name's words in: a name's word (`TOKEN`, over every Latin script folded to
Latin-1 by `latin1`), and names set surname first with the initials after them ("Berg, A. K.", "Berg A.K.",
Vancouver's "Juhl IF, Dahl A"), read initials first (`surname_first`)."""

from __future__ import annotations

import re
import unicodedata

# A name's word: capitalised (with a second capital after a prefix or a joined syllable: "McBride",
# "LeCun", "ZaoDung"), an initial, capitals, or with an apostrophe ("O'Brien").
TOKEN = re.compile(r"^(?:[A-ZÀ-ÖØ-Þ][a-zß-öø-ÿ'’\-]*(?:-[A-ZÀ-ÖØ-Þ][a-zß-öø-ÿ'’]*)?|[A-ZÀ-ÖØ-Þ]\.(?:-?[A-Z]\.)*|"
                    r"[A-ZÀ-ÖØ-Þ][a-zß-öø-ÿ]{1,3}[A-ZÀ-ÖØ-Þ][a-zß-öø-ÿ]{2,}|"
                    r"[A-ZÀ-ÖØ-Þ][A-ZÀ-ÖØ-Þ'’\-]+|[A-ZÀ-ÖØ-Þ][a-zß-öø-ÿ]*(?:['’][A-Za-zß-öø-ÿ]+)+)$")


def latin1(token: str) -> str:
    """The token with letters beyond Latin-1 folded to their base letter ("Dvořák" -> "Dvorák",
    "Łukasz" -> "Lukasz"), so that the case patterns of `TOKEN` see every Latin script."""
    if token.isascii() or all(ord(c) < 256 for c in token):
        return token
    out = []
    for c in token:
        if ord(c) >= 256:
            base = unicodedata.normalize("NFKD", c)[0]
            c = _STROKED.get(c, base if ord(base) < 256 else c)
        out.append(c)
    return "".join(out)


_STROKED = {"Ł": "L", "ł": "l", "Đ": "D", "đ": "d", "Ħ": "H", "ħ": "h", "ı": "i", "Œ": "O", "œ": "o"}


# Initials as a byline set after a surname prints them: "A", "A.", "A.K.", "A. K.", "J.-P."; two or three
# capitals without points are a surname as often ("Wei LI", "Jun WU") and are not taken for initials
_INITIALS = re.compile(r"[A-ZÀ-ÖØ-Þ](?:\.-?[A-ZÀ-ÖØ-Þ]){0,2}\.?")


def _initials_first(tokens: list[str]) -> list[str]:
    """A name set surname first with the initials after it ("Berg A. K.", "Berg A", "Ruiz-López J.-P."),
    read initials first ("A. K. Berg"); any other name as it stands."""
    if len(tokens) < 2 or len(tokens[0]) < 2 or not TOKEN.match(latin1(tokens[0])) or tokens[0].isupper() \
            or not all(_INITIALS.fullmatch(t) for t in tokens[1:]):
        return tokens
    initials = [t.rstrip(".") + "." if "-" in t else " ".join(f"{c}." for c in t if c.isalpha()) for t in tokens[1:]]
    return " ".join(initials).split() + tokens[:1]


# Vancouver's "Juhl IF": capitals without points after a surname, initials on a line where one name has a single
# one ("Juhl IF, Dahl A"); "Wei LI, Jun WU" (no single capital) stays given name first
_VANCOUVER = re.compile(r"([A-ZÀ-ÖØ-Þ]['’]?[^\W\d_]['’\w-]{0,40}) ([A-ZÀ-ÖØ-Þ]{1,3})")  # bounded: linear in any search


def surname_first(parts: list[str]) -> list[str]:
    """A line of names set surname first, "Berg, A. K., Dahl, C." (cut at its commas into surnames and
    initials) or "Berg A.K., Dahl C.", read initials first ("A. K. Berg"), when the line opens that way (a
    line ending "…, Oluwaseun H." breaks a name off: it opens given name first)."""
    def turned(k: int) -> tuple[str, int] | None:  # the name at part k, initials first, and the parts it takes
        words = parts[k].split()
        if len(words) >= 2 and _initials_first(words) != words:
            return " ".join(_initials_first(words)), 1
        tail = parts[k + 1].split() if k + 1 < len(parts) else []
        if len(words) == 1 and tail and _initials_first(words + tail) != words + tail:
            return " ".join(_initials_first(words + tail)), 2
        return None

    vancouver = [_VANCOUVER.fullmatch(p.strip()) for p in parts]
    if len(parts) >= 2 and all(vancouver) and any(len(m.group(2)) == 1 for m in vancouver if m):
        parts = [f"{m.group(1)} {'.'.join(m.group(2))}." for m in vancouver if m]  # "Juhl IF" -> "Juhl I.F."
    if not parts or turned(0) is None:
        return parts
    out, k = [], 0
    while k < len(parts):
        name, used = turned(k) or (parts[k], 1)
        out.append(name)
        k += used
    return out
