"""The weight and slant of OCR'd words, read from the page image: bold lines, italic lines and run-in lead-ins.

A text layer names each character's font, so the layout knows a bold heading, an italic line and a
paragraph that opens with a bold or italic lead-in ("Study sites—We established …").  hOCR names no
font; the image shows both:

* weight: a bold face draws thicker strokes for the same size.  A word's mean run of ink along its rows
  (its stroke width) over its line's size gives a weight no letter count changes; the document's body
  weight (the median over its letters) sets the bar, read once every OCR'd page is in (`weights`).
* slant: an italic word's stems lean.  Its ink pixels counted per column gather into sharper peaks when
  the columns are sheared by `SLANT` (an italic face's 10-15°) than upright (`leaning`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..text.lines import Line

INK = 128  # grey level (0 black, 255 white) under which a pixel is ink
# A word is bold when its strokes are this much thicker, for their size, than the body's: a bold face's
# stems are 1.4-1.7 times its regular's (Times Bold, Helvetica Bold, CM Bold Extended).
BOLD_RATIO = 1.25
MIN_BODY_WORDS = 40  # a document with fewer measured words gives no body weight to compare against
# An italic word's rows cut its slanted stems and joins longer: on the dev scans its strokes read 1.3 times
# a roman word's of the same weight, so an italic word is bold only past this much more.
ITALIC_STROKE = 1.3
SLANT = 0.2  # the shear tried: tan 11°
# Peaks this much sharper sheared than upright: italic (italic words of the dev scans 1.13-1.49, roman
# ones 0.66-0.86).
LEANING = 1.0
MIN_INK = 20  # pixels a word needs for its slant to be read
_LEAD_NUMBER = re.compile(r"^(?:\d+(?:\.\d+)*\.?|[IVX]+\.|[A-Z]\.)$")
MAX_LEAD_WORDS = 12


@dataclass
class Word:
    text: str
    letters: int
    weight: float | None  # stroke width over the line's size
    italic: bool
    bold: bool = False


@dataclass
class Ink:
    """A line's words as measured on the image, and the line's box there (pixels, as hOCR gives its
    words; right and bottom one past the last row and column): what the drawings are found around."""

    line: Line
    words: list[Word]
    box: tuple[int, int, int, int]


def line_words(words: list[tuple[str, tuple[int, int, int, int]]], pixels, size_px: float) -> list[Word]:
    """The words of one OCR'd line (text and box in pixels) measured on the page's `pixels` at once, by
    columns of the line's band, each word owning the columns from its box's left edge to the next's:

    * weight: the word's ink over its runs of ink along the rows (the mean width of its strokes), over
      the line's size;
    * slant: the squares of its columns' ink counts summed, sheared by `SLANT` (each row shifted) and
      upright: an italic word's stems line up sheared."""
    import numpy as np

    letters = [sum(c.isalpha() for c in text) for text, _ in words]
    top, bottom = min(b[1] for _, b in words), max(b[3] for _, b in words)
    x0, x1 = min(b[0] for _, b in words), max(b[2] for _, b in words)
    dark = pixels[top:bottom, x0:x1] < INK
    height, width = dark.shape
    if not height or not width or size_px <= 0:
        return [Word(text, n, None, False) for (text, _), n in zip(words, letters)]
    ink = dark.sum(axis=0)
    starts = np.concatenate([dark[:, :1].sum(axis=0), (dark[:, 1:] & ~dark[:, :-1]).sum(axis=0)])
    shift = np.round(SLANT * np.arange(height)).astype(int)  # rows moved right the lower they are: a lean undone
    sheared = np.zeros(width + int(shift[-1]) + 1)
    for row in range(height):
        sheared[shift[row]:shift[row] + width] += dark[row]
    edges = sorted({min(max(b[0] - x0, 0), width - 1) for _, b in words})
    own = [edges.index(min(max(b[0] - x0, 0), width - 1)) for _, b in words]
    inks, runs = np.add.reduceat(ink, edges), np.add.reduceat(starts, edges)
    upright = np.add.reduceat(ink.astype(float) ** 2, edges)
    leaned = np.add.reduceat(sheared ** 2, [e + int(shift[height // 2]) for e in edges])
    out = []
    for (text, _), n, k in zip(words, letters, own):
        weight = float(inks[k] / runs[k] / size_px) if runs[k] and n >= 2 else None
        out.append(Word(text, n, weight, bool(inks[k] >= MIN_INK and leaned[k] > LEANING * upright[k])))
    return out


def weights(inks: list[Ink]) -> None:
    """Each line's weight, slant and lead-in: bold where its words' strokes are `BOLD_RATIO` times the
    body's (the weight most of the document's letters are set in), italic where its lettered words
    lean, and the `runin` of a line that opens in bold or italic words and goes on upright."""
    measured = sorted((w.weight, w.letters) for ink in inks for w in ink.words if w.weight is not None)
    if len(measured) < MIN_BODY_WORDS:
        return
    half, seen, body = sum(n for _, n in measured) / 2, 0, measured[-1][0]
    for value, n in measured:
        seen += n
        if seen >= half:
            body = value
            break
    for ink in inks:
        for w in ink.words:
            w.bold = w.weight is not None and w.weight >= BOLD_RATIO * body * (ITALIC_STROKE if w.italic else 1.0)
        _style(ink.line, ink.words)


def _style(ln: Line, words: list[Word]) -> None:
    lettered = [w for w in words if w.weight is not None]
    letters = sum(w.letters for w in lettered)
    if not letters:
        return
    ln.bold = sum(w.letters for w in lettered if w.bold) >= 0.7 * letters
    ln.runin, style = ("", "") if ln.bold else _lead_in(words)
    ln.runin_bold, ln.runin_italic = style == "bold", style == "italic"
    # a line that goes on upright after its lead-in is no italic line, though most of its letters lean
    ln.italic = not ln.runin and sum(w.letters for w in lettered if w.italic) >= 0.8 * letters


def _lead_in(words: list[Word]) -> tuple[str, str]:
    """The line's opening words set in bold or italic up to a period, a colon or a dash, the text
    going on upright after them: "Training. We …", "2.2. Closeness centrality. The …",
    "Study sites—We …" (the dash inside one OCR'd word); ("", "") when the line opens otherwise.
    One word's weight is too few pixels to go by: the lead-in is bold when most of its letters are in
    bold words and its words together draw strokes `BOLD_RATIO` times the rest of the line's (same
    size, same print)."""
    start = 1 if len(words) > 2 and _LEAD_NUMBER.match(words[0].text) else 0
    for k in range(start, min(len(words) - 1, start + MAX_LEAD_WORDS)):
        text = words[k].text
        dash = text.find("—", 1)
        inner = 0 < dash < len(text) - 1  # "sites—We": the lead-in ends inside the word
        if not (inner or text.endswith((".", ":", "—"))):
            continue
        lead, rest = words[start:k] if inner else words[start:k + 1], words[k + 1:]
        style = _set_apart(lead, rest)
        if style:
            end = " ".join(w.text for w in words[:k]) + (" " if k else "") + text[:dash + 1] if inner \
                else " ".join(w.text for w in words[:k + 1])
            return end, style
        if any(not w.italic for w in lead):
            break  # upright words before the stop: the line opens with no lead-in
    return "", ""


def _set_apart(lead: list[Word], rest: list[Word]) -> str:
    """"italic" or "bold" when the lead-in's words are so and the rest of the line is not, else ""."""
    def share(words: list[Word], italic: bool) -> float:
        letters = sum(w.letters for w in words if w.weight is not None)
        same = sum(w.letters for w in words if w.weight is not None and w.italic == italic)
        return same / letters if letters else 0.0

    def weight(words: list[Word]) -> float:
        measured = [(w.weight, w.letters) for w in words if w.weight is not None]
        total = sum(n for _, n in measured)
        return sum(v * n for v, n in measured) / total if total else 0.0

    if not lead or not any(w.weight is not None for w in rest):
        return ""
    if rest[0].weight is not None and not rest[0].italic and share(lead, True) >= 0.8 and share(rest, False) > 0.5:
        return "italic"
    bold = sum(w.letters for w in lead if w.bold) / max(1, sum(w.letters for w in lead if w.weight is not None))
    if bold >= 0.7 and weight(lead) >= BOLD_RATIO * weight(rest) > 0 and not rest[0].bold:
        return "bold"
    return ""
