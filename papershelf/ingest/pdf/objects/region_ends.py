"""Where a region walk (`regions._walk`) ends: running text, told from an object's own lines.

A line of running body text (`prose`) stops a walk once the line beyond it is a paragraph's too; a
paragraph's short lines taken just before it are given back, and a walk never ends on
paragraph-like lines.  `pg` is the walk's page (`regions._Page`)."""

from __future__ import annotations

import re
import statistics
from typing import TYPE_CHECKING

from ...captions import CAPTION_RE
from ..sections.heading_cues import lettered_heading, lettered_section, names_section
from ..text.lines import Line
from .graphics import Box
from .region_page import in_span
from .region_rows import prose_words

if TYPE_CHECKING:
    from .regions import _Page

_NUMBER = re.compile(r"^[(\[]?[-+−±]?\d[\d.,]*%?[)\]]?[,;]?$")


def letter_pitch(lines: list[Line]) -> float:
    """The page's usual advance per character, in ems, along lines of words (0 when none is long)."""
    pitches = [(ln.x1 - ln.x0) / len(ln.text) / ln.size for ln in lines if len(ln.text) >= 40 and ln.size > 0
               and prose_words(ln.text)[1] >= 0.7 * prose_words(ln.text)[0]]
    return statistics.median(pitches) if len(pitches) >= 3 else 0.0


def sparse(ln: Line, pitch: float) -> bool:
    """A row of a table's cells read as one line ("T = top VACM, Sensor Latitude Longitude Start
    Date &"): its words spread far wider apart than a line of text ever is, stretched or not."""
    words = len(ln.text.split())
    return pitch > 0 and words >= 5 and len(ln.text) >= 25 and ln.size > 0 \
        and (ln.x1 - ln.x0) / len(ln.text) / ln.size > 1.4 * pitch


def _prose(ln: Line, pg: _Page) -> bool:
    """`_is_prose`, once per line of the page (every walk asks about the same lines)."""
    known = pg.prose.get(id(ln))
    if known is None:
        known = pg.prose[id(ln)] = _is_prose(ln, pg)
    return known


def _is_prose(ln: Line, pg: _Page) -> bool:
    """A line of running body text: alone on its baseline, in the body size and weight, filling its column.
    Its words are mostly words of prose, not counting the numbers and units a results sentence
    holds ("were 3.0 m s⁻¹ for the SAR wind"); a table's row of numbers shares its baseline anyway."""
    count, wordy = prose_words(ln.text)
    if not pg.alone(ln) or not pg.body_sized(ln) or count < 3 or ln.bold and not pg.body.bold \
            or wordy < 0.4 * count or sparse(ln, pg.pitch):
        return False  # the cheap tests first: every line of a page is asked once
    words = ln.text.split()
    measures = sum(1 for w in words if _NUMBER.match(w) or len(w.strip(".,;:()")) == 1)
    if wordy < 0.6 * (len(words) - measures):
        return False
    if pg.cell_like(ln) and sum(1 for w in words if w[0].islower()) < 2:
        return False  # a table's row read as one line ("Heron Reef 97% 94.2 42.2"): no sentence has no small words
    sentence = len(words) >= 6 and ln.text.rstrip().endswith((".", "?", "!")) and wordy >= 0.8 * len(words)
    if len(words) < 5:  # a narrow column's full line (three columns in a large type) holds three or four
        return wordy == len(words) and ln.x1 - ln.x0 >= 0.8 * pg.column_width(ln) and pg.column_width(ln) < 30 * ln.size
    return sentence or ln.x1 - ln.x0 >= 0.7 * pg.column_width(ln)


def _text_edge(pg: _Page, span: tuple[float, float]) -> float | None:
    """Where the running text of the span starts: the leftmost start of its prose lines."""
    edges = [ln.x0 for ln in pg.lines if in_span((ln.x0, ln.top, ln.x1, ln.bottom), span) and _prose(ln, pg)]
    return min(edges) if edges else None


def _paragraph_like(ln: Line, pg: _Page, left: float | None, art: Box | None) -> bool:
    """A line as a paragraph sets it, short or long: alone on its baseline, in the body size,
    mostly words, starting at the column's text edge or a paragraph's indent from it, and not
    inside a drawing."""
    if left is None:
        return False
    words = ln.text.split()
    wordy = prose_words(ln.text)[1]
    inside = art is not None and ln.top >= art[1] - 1 and ln.bottom <= art[3] + 1 and ln.x0 >= art[0] - 1 \
        and ln.x1 <= art[2] + 1
    return not (inside or pg.cell_like(ln) or not pg.body_sized(ln) or not words
                or ln.bold and not pg.body.bold or wordy < 0.6 * len(words) or not -1 <= ln.x0 - left < 2.5 * ln.size)


def _trim_paragraph(taken: list[tuple[Box, Line | None]], pg: _Page, left: float | None, art: Box | None) -> None:
    """An object ends with its own evidence (a graphic, a row of cells, a label inside a drawing),
    never with running text: paragraph-like lines at the far end of the walk are a paragraph set
    close to the object, however short it is."""
    while len(taken) > 1 and (ln := taken[-1][1]) is not None and _paragraph_like(ln, pg, left, art):
        taken.pop()


def _ends_object(pg: _Page, ln: Line, rest, taken: list[tuple[Box, Line | None]], where: tuple) -> bool:
    """Does the walk stop at `ln` (a line outside the drawing taken so far)?  At a heading, another
    caption, running text right next to the caption (no object on this side), or a paragraph
    (whose short end lines already taken are given back)."""
    stops, left, art, up = where
    # not a glyph mis-sized, nor a table row smaller than the body that opens with a number
    # (a lettered one alone on its baseline: a table row's label has cells beside it)
    heading = pg.body.size - 0.3 <= ln.size < 1.6 * pg.body.size \
        and (names_section(ln.text) or pg.alone(ln) and (lettered_heading(ln) or lettered_section(ln, pg.body)))
    if heading or ln in stops or CAPTION_RE.match(ln.text):
        return True
    if all(t is not None and not pg.cell_like(t) for _, t in taken) and _paragraph_like(ln, pg, left, art):
        return True  # running text next to the caption: the object is not on this side

    def para(other: Line) -> bool:
        return _prose(other, pg) or _paragraph_like(other, pg, left, art)
    if _prose(ln, pg) and (leading := _prose_follows(rest, ln, up, para)) is not None:
        _drop_paragraph_end(taken, ln, leading or 0.3 * ln.size, pg)
        return True
    return False


def _drop_paragraph_end(taken: list[tuple[Box, Line | None]], prose: Line, leading: float, pg: _Page) -> None:
    """Lines taken just before reaching a paragraph that are that paragraph's own short last (or
    first) lines: set at its line gap, size and left edge, alone on their baselines."""
    while taken and (ln := taken[-1][1]) is not None:
        gap = max(ln.top - prose.bottom, prose.top - ln.bottom)
        if not (pg.alone(ln) and gap < leading + 1.0 and abs(ln.size - prose.size) < 0.6
                and abs(ln.x0 - prose.x0) < 2.5 * prose.size):
            break
        taken.pop()
        prose = ln


def _prose_follows(rest, ln: Line, up: bool, para) -> float | None:
    """A prose-like line is a paragraph's when the next line beyond it is a paragraph's line too
    (`para`: prose, or a paragraph's short last line), or none is near: a single wide label inside
    a figure is not.  Returns the paragraph's line gap (0 when unknown), or None when the line is
    not a paragraph's."""
    for _, _, _b, other in rest:
        if other is None or min(other.x1, ln.x1) - max(other.x0, ln.x0) <= 0:
            continue  # a graphic, or a line of another column
        gap = (ln.top - other.bottom) if up else (other.top - ln.bottom)
        if gap > 1.2 * ln.size:
            return 0.0
        if gap > -0.5 * ln.height:
            return max(gap, 0.0) if para(other) else None
    return 0.0
