"""Where a PDF page draws pictures: the boxes of its image, path, shading and form objects.

These are the layout evidence `pdf_regions` finds figures and ruled tables by.  Boxes are in
page space, top-down (y grows downwards), as `pdf_lines` gives text.
"""

from __future__ import annotations

import ctypes

from ..text.rotation import shown_box, user_size

Box = tuple[float, float, float, float]  # x0, top, x1, bottom (y grows downwards)
_IMAGE, _PATH, _SHADING, _FORM = 3, 2, 4, 5
_MAX_DEPTH = 3  # forms inside forms looked into
_MAX_CLIPS = 64  # paths of a clip, and points of a path, read for its bounds (a rectangle has five)


def page_graphics(page, turn: int = 0) -> list[Box]:
    """Boxes of a page's image, path, shading and form objects, top-down, as the page is shown
    (a page turned by /Rotate turns its boxes too, as its text lines are) and then turned by
    `turn` (the page's text is read in that frame: `rotation.text_turn`).

    A form that wraps most of the page (some typesetting pipelines put a whole page, or all of
    its pictures, in one) says nothing by its box, so its own objects are taken instead; bounds
    of nested objects are in their form's space and are carried to the page through the forms'
    matrices.  Page-sized backgrounds and frames are left out (they bound everything).
    The objects are read through pdfium's raw calls: a page holds thousands (every text run is
    one), and only the few pictures need more than their type; a picture's own parts are
    never visited."""
    width, height = user_size(page)
    x0, y0 = page.get_bbox()[:2]  # page space to the crop box shown, which need not start at (0, 0)
    out: list[Box] = []
    _collect(page.raw, None, 0, (1.0, 0.0, 0.0, 1.0, -x0, -y0), width, height, out)
    out = _without_strips(out, width, height)
    rotation = (page.get_rotation() + turn) % 360
    return [shown_box(rotation, width, height, b[0], height - b[3], b[2], height - b[1]) for b in out] \
        if rotation else out


def _collect(page, form, level: int, to_page: tuple[float, ...], width: float, height: float,
             out: list[Box]) -> None:
    """`page_graphics` of the objects of the page (`form` None) or of a wrapping form at `level`."""
    from pypdfium2 import PdfiumError, raw

    from ..text import bare_calls as pdfium

    n = raw.FPDFFormObj_CountObjects(form) if form else raw.FPDFPage_CountObjects(page)
    if n < 0:
        raise PdfiumError("Failed to get number of pageobjects.")
    edges = [ctypes.c_float() for _ in range(4)]
    refs = [ctypes.byref(e) for e in edges]
    holder, get = (form, pdfium.GetFormObject) if form else (page, pdfium.GetPageObject)
    for i in range(n):
        obj = get(holder, i)
        if not obj:
            raise PdfiumError("Failed to get pageobject.")
        kind = pdfium.GetObjectType(obj)
        if kind not in (_IMAGE, _PATH, _SHADING, _FORM):
            continue
        if not pdfium.GetObjectBounds(obj, *refs):
            raise PdfiumError("Failed to locate pageobject.")
        shown = _clipped(obj, (edges[0].value, edges[1].value, edges[2].value, edges[3].value), kind)
        if kind == _FORM and shown is not None:
            shown = _inked(obj, shown)
        if shown is None:
            continue  # drawn wholly outside its clip: nothing of it shows
        left, bottom, right, top = _transform(to_page, shown)
        big = (right - left) * (top - bottom) > 0.5 * width * height
        if kind == _FORM and big:  # a wrapper: its own objects are looked at one by one
            if level < _MAX_DEPTH - 1:
                _collect(page, obj, level + 1, _compose(to_page, _matrix(obj)), width, height, out)
            continue
        if (right - left > 0.85 * width and top - bottom > 0.6 * height) or big:
            continue
        if right < 0 or left > width or top < 0 or bottom > height:
            continue
        out.append((max(0.0, left), max(0.0, height - top), min(width, right), min(height, height - bottom)))


def _without_strips(boxes: list[Box], width: float, height: float) -> list[Box]:
    """The boxes but a page split into bands across its whole width: a scanned page stored as strips
    of image one above the other (a page-sized picture, which bounds everything, as a page-sized one
    is left out).  A figure set across the page lies within the text's margins, and a rule is thin."""
    strip = [b[2] - b[0] > 0.85 * width and b[3] - b[1] > 0.02 * height for b in boxes]
    if sum(b[3] - b[1] for b, s in zip(boxes, strip) if s) < 0.6 * height:
        return boxes
    return [b for b, s in zip(boxes, strip) if not s]


def _clipped(obj, box: tuple[float, float, float, float], kind: int) -> tuple[float, float, float, float] | None:
    """The part of an object's bounds its clip path lets show (None when none does).  A figure placed
    as a form often holds far more than it shows (a plot's whole canvas, a page's worth of artwork
    cropped by the including document's clip to the figure's frame): its bounds alone would spread
    the figure over the text around it.  The clip is in the same space as the bounds; the shown part
    is within every path of it.  Paths are taken as bounded (a page holds thousands of strokes)."""
    from pypdfium2 import raw

    clip = raw.FPDFPageObj_GetClipPath(obj) if kind in (_IMAGE, _FORM) else None
    if not clip:
        return box
    x, y = ctypes.c_float(), ctypes.c_float()
    left, bottom, right, top = box
    for i in range(min(raw.FPDFClipPath_CountPaths(clip), _MAX_CLIPS)):
        xs, ys = [], []
        for j in range(min(raw.FPDFClipPath_CountPathSegments(clip, i), _MAX_CLIPS)):
            seg = raw.FPDFClipPath_GetPathSegment(clip, i, j)
            if seg and raw.FPDFPathSegment_GetPoint(seg, x, y):
                xs.append(x.value)
                ys.append(y.value)
        if xs:
            left, bottom, right, top = max(left, min(xs)), max(bottom, min(ys)), min(right, max(xs)), min(top, max(ys))
    return (left, bottom, right, top) if left < right and bottom < top else None


def _inked(form, box: tuple[float, float, float, float]) -> tuple[float, float, float, float] | None:
    """The part of a form's bounds its own objects show, each within its clip (the form's /BBox
    clips them; pdfium's bounds of a form do not heed it): a chart exported with strokes running past
    its frame would otherwise reach over the text and the page's edge.  Forms holding more objects
    than `_MAX_CLIPS` keep their bounds (the cost stays bounded)."""
    from pypdfium2 import raw

    n = raw.FPDFFormObj_CountObjects(form)
    if n <= 0 or n > _MAX_CLIPS:
        return box
    edges = [ctypes.c_float() for _ in range(4)]
    parts = []
    for i in range(n):
        obj = raw.FPDFFormObj_GetObject(form, i)
        if obj and raw.FPDFPageObj_GetBounds(obj, *edges):
            part = _clipped(obj, (edges[0].value, edges[1].value, edges[2].value, edges[3].value), _FORM)  # any clip
            if part is not None:
                parts.append(_transform(_matrix(form), part))
    if not parts:
        return box
    left, bottom = min(p[0] for p in parts), min(p[1] for p in parts)
    right, top = max(p[2] for p in parts), max(p[3] for p in parts)
    left, bottom, right, top = max(left, box[0]), max(bottom, box[1]), min(right, box[2]), min(top, box[3])
    return (left, bottom, right, top) if left < right and bottom < top else box


def _matrix(obj) -> tuple[float, ...]:
    from pypdfium2 import PdfiumError, raw

    m = raw.FS_MATRIX()
    if not raw.FPDFPageObj_GetMatrix(obj, ctypes.byref(m)):
        raise PdfiumError("Failed to get matrix of pageobject.")
    return (m.a, m.b, m.c, m.d, m.e, m.f)


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
