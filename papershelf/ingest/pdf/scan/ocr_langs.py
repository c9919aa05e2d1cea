"""Which Tesseract languages read a scanned page, when the user named none (`OcrSettings.languages`).

Why not every installed language: Tesseract given ``eng+chi_sim+jpn`` tries the CJK models on
every word it reads poorly, so a Latin page costs up to 1.7x its ``eng`` read (and a noisy scan
more), and the CJK languages are installed on many machines whose scans are all Latin.  Why not
Tesseract's script detection (OSD) on every page: it costs about as much CPU as the ``eng`` read
of a page (≈ 1 s), so it would eat the saving.

So the cheap first pass is the page's read itself: each page is read first with the installed
languages that are not CJK (`Plan.first`, ``eng``).  A page of Latin print reads at 85-95 mean
word confidence; a Chinese or Japanese page read as English reads at 20-30 (measured on scans of
bench/data/cjk, docs/measurements/scale7.md).  Only a page read poorly is looked at again: one read
as gibberish (under `ocr.CJK_AS_LATIN`) is read at once with every installed language, as before;
one read merely poorly is checked with OSD (which the orientation check ran on such pages already),
and when OSD names a CJK script, or is not sure what the script is, it is read with every language
too.  The better read is kept; once a page was CJK the file's other pages start with every language
(`Plan.cjk_seen`), so a Chinese scan pays the extra first pass on its first pages only.  A poor page
OSD is sure is Latin keeps its ``eng`` read (the CJK models would add nothing but noise and minutes).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

KNOWN = ("eng", "chi_sim", "chi_tra", "jpn", "kor")  # the languages used when the user names none
CJK = frozenset({"chi_sim", "chi_tra", "jpn", "kor"})
# Tesseract's OSD script names for CJK print (a Japanese page is often called Han).
CJK_SCRIPTS = frozenset({"Han", "Japanese", "Hangul", "Hiragana", "Katakana", "Korean", "HanS", "HanT"})
MIN_SCRIPT_CONFIDENCE = 1.0  # OSD's script confidence under which its script name is not trusted


@dataclass
class Plan:
    """The languages for the pages of one file: `first` for a page's first read, `full` when the page
    may be CJK.  `first == full` when the user named the languages or no CJK language is installed."""

    first: str
    full: str
    cjk_seen: bool = False  # a page of this file was CJK: its remaining pages are read in `full` at once

    def start(self) -> str:
        return self.full if self.cjk_seen else self.first


def plan(installed: set[str], wanted: str | None) -> Plan:
    """The file's plan: the user's languages as given, else the known installed ones, Latin first."""
    if wanted:
        return Plan(wanted, wanted)
    full = "+".join(lang for lang in KNOWN if lang in installed) or "eng"
    first = "+".join(lang for lang in full.split("+") if lang not in CJK) or full
    return Plan(first, full)


@dataclass(frozen=True)
class Osd:
    """What Tesseract's OSD (``--psm 0``) says of a page."""

    turn: int  # degrees to turn the page clockwise so it reads upright
    turn_confidence: float
    script: str | None
    script_confidence: float

    def may_be_cjk(self) -> bool:
        """True unless OSD is sure the script is not CJK: an unsure answer is read as CJK, so no CJK
        page loses its CJK read."""
        return self.script is None or self.script in CJK_SCRIPTS or self.script_confidence < MIN_SCRIPT_CONFIDENCE


def parse_osd(text: str) -> Osd:
    """OSD's text output (``Rotate: 180``, ``Script: Han``, their confidences) as an `Osd`."""

    def field(name: str) -> str | None:
        m = re.search(rf"^{name}: *(\S+)", text, re.M)
        return m.group(1) if m else None

    def number(name: str) -> float:
        try:
            return float(field(name) or 0.0)
        except ValueError:
            return 0.0

    return Osd(int(number("Rotate")) % 360, number("Orientation confidence"), field("Script"),
               number("Script confidence"))
