"""A sixth random stream for bench/gen_headings.py: the heading class of heads12 (issue 38), drawn
from a stream of its own so that every earlier draw stays as it was.

* ``hashed`` (headings): the whole paper set in embedded fonts subset under hashed names
  ("AdvOT2cba4af3"), as 3B2 and other typesetting systems ship them: no font's name says "Bold",
  no ForceBold flag is set and every font declares the same stem width, so a bold heading is bold
  only in its glyphs' strokes.  The four faces are Bitstream Vera's (shipped with reportlab):
  roman, bold, italic and bold italic, standing in for the standard Times and Helvetica faces the
  other streams draw with.  The heading truth is the paper's as drawn by the other streams.

The canvas maps the standard faces' names to the hashed fonts in ``setFont`` and ``stringWidth``,
so gen_headings' drawing code is unchanged.
"""

from __future__ import annotations

import os
import random

import reportlab
from reportlab.lib.pagesizes import letter
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen import canvas

KINDS = ("hashed",)  # (new kinds go last: earlier draws stay)
_FACES = {"Vera.ttf": ("Times-Roman", "Helvetica"), "VeraBd.ttf": ("Times-Bold", "Helvetica-Bold"),
          "VeraIt.ttf": ("Times-Italic", "Helvetica-Oblique"),
          "VeraBI.ttf": ("Times-BoldItalic", "Helvetica-BoldOblique")}


def draw_kinds(seed: int) -> frozenset:
    """This seed's sixth-stream classes (the earlier streams stay as they were)."""
    rng = random.Random(seed * 49979687 + 13)
    return frozenset(k for k in KINDS if rng.random() < 0.3)


def _hashed_fonts(seed: int) -> dict[str, str]:
    """Register the four faces under names hashed from the seed; standard name -> registered name."""
    rng = random.Random(seed * 86028121 + 7)
    folder = os.path.join(os.path.dirname(reportlab.__file__), "fonts")
    out = {}
    for file, standard in _FACES.items():
        name = f"AdvOT{rng.getrandbits(32):08x}"
        font = TTFont(name, os.path.join(folder, file))
        font.face.name = name.encode()
        font.face.flags &= ~0x40000  # no ForceBold
        font.face.stemV = 80  # every face declares a text face's stem
        pdfmetrics.registerFont(font)
        out.update(dict.fromkeys(standard, name))
    return out


class HashedCanvas(canvas.Canvas):
    """A canvas that draws the standard faces in hashed-name fonts."""

    def __init__(self, path: str, fonts: dict[str, str], **kw) -> None:
        self.fonts = fonts
        super().__init__(path, **kw)

    def setFont(self, psfontname, size, leading=None):
        super().setFont(self.fonts.get(psfontname, psfontname), size, leading)

    def stringWidth(self, text, fontName=None, fontSize=None):
        return super().stringWidth(text, self.fonts.get(fontName, fontName) if fontName else None, fontSize)


def paper_canvas(seed: int, path: str, kinds: frozenset) -> canvas.Canvas:
    """The canvas the seed's paper is drawn on."""
    if "hashed" in kinds:
        return HashedCanvas(path, _hashed_fonts(seed), pagesize=letter)
    return canvas.Canvas(path, pagesize=letter)
