"""Where a PDF page draws pictures: the boxes of its image, path, shading and form objects.

These are the layout evidence `pdf_regions` finds figures and ruled tables by.  Boxes are in
page space, top-down (y grows downwards), as `pdf_lines` gives text.
"""

from __future__ import annotations

Box = tuple[float, float, float, float]  # x0, top, x1, bottom (y grows downwards)
_IMAGE, _PATH, _SHADING, _FORM = 3, 2, 4, 5
_MAX_DEPTH = 3  # forms inside forms looked into


def page_graphics(page) -> list[Box]:
    """Boxes of a page's image, path, shading and form objects, top-down, in page space.

    A form that wraps most of the page (some typesetting pipelines put a whole page, or all of
    its pictures, in one) says nothing by its box, so its own objects are taken instead; bounds
    of nested objects are in their form's space and are carried to the page through the forms'
    matrices.  Page-sized backgrounds and frames are left out (they bound everything)."""
    if page.get_rotation() % 360:
        return []
    width, height = page.get_size()
    out: list[Box] = []
    # per nesting level: the matrix to page space of the form open at that level, and whether
    # that form is a wrapper whose objects are looked at one by one
    chain: list[tuple[tuple[float, ...], bool]] = []
    for obj in page.get_objects(max_depth=_MAX_DEPTH):
        del chain[obj.level:]
        if obj.level and not all(wrapper for _, wrapper in chain):
            continue  # a part of a picture already taken whole
        if obj.type not in (_IMAGE, _PATH, _SHADING, _FORM):
            continue
        to_page = chain[-1][0] if chain else (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
        left, bottom, right, top = _transform(to_page, obj.get_bounds())
        big = (right - left) * (top - bottom) > 0.5 * width * height
        if obj.type == _FORM:
            m = obj.get_matrix()
            chain.append((_compose(to_page, (m.a, m.b, m.c, m.d, m.e, m.f)), big and obj.level < _MAX_DEPTH))
            if big and obj.level < _MAX_DEPTH:
                continue
        if (right - left > 0.85 * width and top - bottom > 0.6 * height) or big:
            continue
        if right < 0 or left > width or top < 0 or bottom > height:
            continue
        out.append((max(0.0, left), max(0.0, height - top), min(width, right), min(height, height - bottom)))
    return out


def _compose(outer: tuple[float, ...], inner: tuple[float, ...]) -> tuple[float, ...]:
    """The matrix applying `inner` first, then `outer` (PDF matrices [a b c d e f])."""
    a, b, c, d, e, f = inner
    A, B, C, D, E, F = outer
    return (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F)


def _transform(m: tuple[float, ...], box: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
    a, b, c, d, e, f = m
    xs, ys = [], []
    for x, y in ((box[0], box[1]), (box[0], box[3]), (box[2], box[1]), (box[2], box[3])):
        xs.append(a * x + c * y + e)
        ys.append(b * x + d * y + f)
    return min(xs), min(ys), max(xs), max(ys)


def document_graphics(pdf) -> list[list[Box]]:
    """`page_graphics` of every page of an open pdfium document."""
    out = []
    for n in range(len(pdf)):
        page = pdf[n]
        try:
            out.append(page_graphics(page))
        finally:
            page.close()
    return out
