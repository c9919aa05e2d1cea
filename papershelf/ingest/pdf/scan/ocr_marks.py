"""Raised marks on an OCR'd page, written as a text layer's line reader writes them: ``Kordower,^1*``.

A text layer sets an affiliation mark, a footnote mark or a citation number in a smaller size on a raised
baseline, and the line reader writes it after a ``^`` (lines.py), so the author reader can cut a name from its
marks.  Tesseract reads the mark as part of the word before it, and often misreads it, being small:
"Kordower,'*", "Chu,’", "Aebischer”®", "Smithl".  The image still shows the mark raised: the bottom of its ink
stands well above the line's baseline, where no letter's does (a comma and a descender go below it).

`raised_tail` finds the ink at a word's end that stands above the baseline and tall enough to be a mark (a
quote or an apostrophe is raised too, but short), and writes the characters it holds after a ``^``.
"""

from __future__ import annotations

import re

INK = 128  # grey level under which a pixel is ink (as ocr_style.INK)
# A column is raised when its lowest ink stands this share of the size above the baseline: a superscript's
# baseline is raised about a third of the em, a letter's ink reaches the baseline (a comma or g below it).
RAISED = 0.2
# A raised run is a mark when its ink is this tall (a superscript digit is about 0.45 em, an asterisk 0.3; a
# quote or an apostrophe 0.2-0.25) ...
TALL = 0.3
# ... or when Tesseract read it as a mark character (then any height but a hyphen's: flatter than this).
FLAT = 0.15
# A run opening a word must be taller,
# being read from its image alone: a degree sign ("°C") is about 0.3 em.
LEAD_TALL = 0.36
_LEAD = re.compile(r"[A-ZÀ-Þ][a-zß-ÿ.]")  # a name's initial or a capitalised word after a raised mark
_MARK_CHARS = re.compile(r"[\d*∗†‡§¶#]")
_TAIL = re.compile(r"[^\W_]*?([^a-zA-Z\u00c0-\u024f]+)$")  # the word's trailing run of non-letters
_BASELINE_SET = ",.;:)"  # set on the baseline before a raised mark ("Kordower,'*")
_DASHES = "-‐‑‒–—"
_SEPARATORS = ",;"  # a comma after a name's mark ("SHEIKHAHMADI^1*,"): a glyph of its own on the baseline
# A word Tesseract ran across a mark into the next name: letters, a comma or none, the mark (at most three
# signs or digits), the next word from its capital.
_INNER = re.compile(r"^([^\W\d_][^\W\d_'’.-]*+[,.]?)([^\w\s]{1,3}|\d{1,2}(?:,\d{1,2})?)\.?([A-Z][^\W\d_]++)$")


def raised_tail(text: str, box: tuple[int, int, int, int], base_y: float, size_px: float, pixels) -> str:
    """`text` (one OCR'd word, its `box` in pixels) with ``^`` before its raised marks: the glyphs at its end
    whose ink stands above `base_y` (the line's baseline under the word) after a letter's that does not;
    or a mark between two words Tesseract read as one ("Carvey,⁵ ZaoDung" read "Carvey,>.ZaoDung"),
    which is then cut after the mark."""
    if size_px <= 0 or not text or "^" in text:
        return text
    runs = _raised_runs(box, base_y, size_px, pixels)
    if not runs:
        return text
    before, chars, height = runs[0]
    if before == -2:  # a raised word: a label or mark Tesseract set apart ("6." before "T. Irisawa", "!" for "¹")
        return "^" + text if height >= LEAD_TALL * size_px else text
    if before < 0:  # the word opens raised: a reference's label ("^3M. Czerner"), an affiliation's mark
        # the mark's characters: as many as its ink may hold, up to a name's initial or a capitalised word
        lead = next((k for k in range(min(chars, len(text) - 1), 0, -1) if _LEAD.match(text[k:])
                     or not text[k:].strip(_SEPARATORS)), 0)  # (or a mark set apart before a comma: "Wang ¹,")
        if lead and height >= LEAD_TALL * size_px:
            return "^" + text
        runs = runs[1:]
        if not runs:
            return text
    after, chars, height = runs[-1]
    if after == 0 or after == 1 and text[-1] in _SEPARATORS:  # at the end, or before the comma that ends it
        cut = len(text) - after
        tail = _mark_text(text[:cut], chars, height, size_px)
        return text[:cut - len(tail)] + "^" + tail + text[cut:] if tail else text
    inner = _INNER.fullmatch(text)
    if len(runs) == 1 and inner and height >= TALL * size_px:
        return f"{inner.group(1)}^{inner.group(2)} {inner.group(3)}"
    return text


def _raised_runs(box: tuple[int, int, int, int], base_y: float, size_px: float, pixels) -> list[tuple[int, int, int]]:
    """The word's runs of raised glyphs (ink between blank columns whose lowest stroke stands `RAISED` above
    the baseline) that follow a glyph on the baseline or open the word before one, as (glyphs after it, or -1
    for the run that opens the word, -2 for a word raised throughout; characters it may hold; ink height in
    pixels)."""
    x0, y0, x1, y1 = box
    if x1 - x0 < 3 or y1 - y0 < 3:
        return []
    dark = pixels[y0:y1, x0:x1] < INK
    solid = dark[1:] & dark[:-1]  # a pixel with ink above it: a stroke, not a speck of the scan
    has = solid.any(axis=0)
    if not has.any():
        return []
    lowest = y0 + solid.shape[0] - solid[::-1].argmax(axis=0)  # the lowest stroke pixel per column
    highest = y0 + 1 + solid.argmax(axis=0)
    glyphs, k = [], 0  # (first column, last column, raised)
    while k < len(has):
        if not has[k]:
            k += 1
            continue
        first = k
        while k < len(has) and has[k]:
            k += 1
        glyphs.append((first, k - 1, bool(lowest[first:k].max() < base_y - RAISED * size_px)))
    runs: list[tuple[int, int, int]] = []
    for i, (first, _, up) in enumerate(glyphs):
        if not up or i > 0 and glyphs[i - 1][2]:
            continue  # on the baseline, or counted with the run it continues
        j = i
        while j + 1 < len(glyphs) and glyphs[j + 1][2]:
            j += 1
        cols = slice(first, glyphs[j][1] + 1)
        width, inked = glyphs[j][1] - first + 1, has[cols]
        tall = int(lowest[cols][inked].max() - highest[cols][inked].min() + 1)
        if width >= 2:  # (a raised "1" is its stem: its serifs are a pixel thin, a light face's stem two)
            # the characters it may hold: a glyph each, or by its width (a superscript digit is about a third
            # of the em wide, its comma a sixth; touching glyphs are one run of ink)
            chars = max(j - i + 1, round(width / (0.25 * size_px)))
            if i == 0 and j == len(glyphs) - 1:  # raised throughout: a mark set as a word of its own, or a quote
                runs.append((-2, chars, tall))
                break
            runs.append((-1 if i == 0 else len(glyphs) - 1 - j, chars, tall))
    return runs


def _mark_text(text: str, chars: int, height: int, size_px: float) -> str:
    """The characters of `text` the raised run holds: its trailing non-letters after any comma or period
    set on the baseline, when they read as marks or their ink is tall enough to be one."""
    found = _TAIL.search(text)
    if not found or found.start(1) == 0 or height < FLAT * size_px:
        return ""  # no mark after letters, or ink as flat as a hyphen's
    # no more characters than the run holds: "methyl-4-" ends in a raised hyphen, not a raised "-4-"
    tail = found.group(1).lstrip(_BASELINE_SET)[-chars:]
    if not tail.strip(_DASHES):
        return ""  # a hyphen or a dash is set above the baseline, and is no mark
    if _MARK_CHARS.search(tail) or height >= TALL * size_px:
        return tail
    return ""
