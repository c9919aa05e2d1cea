"""A page's /Rotate: boxes from PDF user space (y up) to the page as it is shown (y down).

A landscape table is often printed on a page turned by /Rotate 90 or 270: in user space its text
runs vertically, as shown it reads across.  Text lines (`pdf_lines`) and graphics (`pdf_graphics`)
both turn their boxes here, so figure and table regions, reading order and the stored regions
(which `render` crops from the page as shown) all use the one frame.  A page that draws its text
turned without saying /Rotate is read in the frame its characters' angle sets upright
(`text_turn`), and its regions are turned back to the page as shown (`unturned_box`).
"""

from __future__ import annotations

import math

Box = tuple[float, float, float, float]


def span(boxes: list[Box]) -> Box:
    """The box around `boxes` (x0, top, x1, bottom)."""
    x0, top, x1, bottom = zip(*boxes)
    return min(x0), min(top), max(x1), max(bottom)


def user_size(page) -> tuple[float, float]:
    """The page's width and height in user space (pdfium's page size is the shown one)."""
    width, height = page.get_size()
    return (height, width) if page.get_rotation() % 180 else (width, height)


def shown_box(rotation: int, width: float, height: float, left: float, bottom: float, right: float,
              top: float) -> Box:
    """(x0, top, x1, bottom) as shown, top-down, of a user-space box; `width`, `height`: user space."""
    rotation %= 360
    if rotation == 90:
        return bottom, left, top, right
    if rotation == 180:
        return width - right, bottom, width - left, top
    if rotation == 270:
        return height - top, width - right, height - bottom, width - left
    return left, height - top, right, height - bottom


def text_turn(textpage, rotation: int) -> int:
    """The quarter turn, on top of the page's /Rotate, that sets most of its text upright.

    An older landscape page often draws its text turned on an upright page instead of saying
    /Rotate: shown as is, its lines run vertically, so columns, rows and captions make no sense.
    The characters' own angle (pdfium's, clockwise, in user space) says which frame reads them
    upright; when at least 60 % of a sample of the page's characters agree on one, the page is
    read in that frame (the extra turn), else as shown (0)."""
    from pypdfium2 import raw

    from .bare_calls import GetCharAngle

    n = raw.FPDFText_CountChars(textpage)
    votes = [0, 0, 0, 0]
    for i in range(0, max(n, 0), max(1, n // 40)):
        angle = GetCharAngle(textpage, i)
        if angle >= 0:
            votes[round(math.degrees(angle) / 90) % 4] += 1
    best = max(range(4), key=lambda k: votes[k])
    if sum(votes) < 20 or votes[best] < 0.6 * sum(votes):
        return 0
    return ((4 - best) % 4 * 90 - rotation) % 360


def char_turn(textpage, index: int, rotation: int) -> int:
    """The quarter turn a character is set at in the frame the page is read in (`rotation`: the page's
    /Rotate plus `text_turn`): 0 upright; 90 or 270 for the text of a table set sideways on an upright page
    (90: it reads up the page)."""
    from pypdfium2 import raw

    return _turn(raw.FPDFText_GetCharAngle(textpage, index), rotation)


def _turn(angle: float, rotation: int) -> int:
    """`char_turn` of a character at pdfium's `angle` (radians; negative: none)."""
    if angle < 0:
        return 0
    return ((4 - round(math.degrees(angle) / 90) % 4) % 4 * 90 - rotation) % 360


def upright_box(box: Box, turn: int) -> Box:
    """A top-down box of text set sideways (`char_turn` 90 reads up the page: its top faces left, its
    first row is the leftmost; 270 reads down) as its own upright frame shows it."""
    x0, top, x1, bottom = box
    return (-bottom, x0, -top, x1) if turn == 90 else (top, -x1, bottom, -x0)


def sideways_box(box: Box, turn: int) -> Box:
    """`upright_box` undone."""
    x0, top, x1, bottom = box
    return (top, -x1, bottom, -x0) if turn == 90 else (-bottom, x0, -top, x1)


def piece_turns(textpage, first: int, last: int, pieces: list[list[Box]], rotation: int, char_box) -> list[int]:
    """Each piece's `char_turn`: pdfium may run upright text and a sideways table's into one line of
    its text; then each piece takes the turn most of the characters whose centre it holds are set at."""
    from .bare_calls import GetCharAngle as angle  # (imported once a line: this runs for every line of every page)

    if len(pieces) == 1:
        return [_turn(angle(textpage, first), rotation)]
    ends = _turn(angle(textpage, first), rotation), _turn(angle(textpage, last), rotation)
    if ends[0] == ends[1]:
        return [ends[0]] * len(pieces)
    votes = [[0, 0, 0, 0] for _ in pieces]
    spans = [span(p) for p in pieces]
    for i in range(first, last + 1):
        x0, top, x1, bottom = char_box(i)
        cx, cy = (x0 + x1) / 2, (top + bottom) / 2
        k = next((k for k, b in enumerate(spans) if b[0] - 1 <= cx <= b[2] + 1 and b[1] - 1 <= cy <= b[3] + 1), None)
        if k is not None:
            votes[k][_turn(angle(textpage, i), rotation) // 90] += 1
    return [max(range(4), key=lambda q: v[q]) * 90 for v in votes]


def unturned_box(turn: int, width: float, height: float, box: Box) -> Box:
    """A top-down box of a page read turned by `turn` (`width`, `height`: that turned frame) as
    (left, bottom, right, top) PDF points of the page as shown: `shown_box` undone for the turn."""
    x0, top, x1, bottom = box
    turn %= 360
    if turn == 90:
        return top, x0, bottom, x1
    if turn == 180:
        return width - x1, top, width - x0, bottom
    if turn == 270:
        return height - bottom, width - x1, height - top, width - x0
    return x0, height - bottom, x1, height - top
