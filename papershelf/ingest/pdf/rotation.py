"""A page's /Rotate: boxes from PDF user space (y up) to the page as it is shown (y down).

A landscape table is often printed on a page turned by /Rotate 90 or 270: in user space its text
runs vertically, as shown it reads across.  Text lines (`pdf_lines`) and graphics (`pdf_graphics`)
both turn their boxes here, so figure and table regions, reading order and the stored regions
(which `render` crops from the page as shown) all use the one frame.
"""

from __future__ import annotations

Box = tuple[float, float, float, float]


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
