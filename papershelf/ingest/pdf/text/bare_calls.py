"""pdfium's calls that a page makes for each of its characters or objects, without ctypes' argument types.

pypdfium2 declares each C function's argument types, and ctypes then converts every argument
through them on every call (a `from_param` per argument): for a call a page makes thousands of times
that is about half its cost (0.8 µs of 1.7 for `FPDFText_GetCharBox`).  The same C function called
bare passes an int as a C int and a ctypes object (a handle, `ctypes.byref` of a result's place, a
buffer) as it is, so the callers here pass exactly those: an index as an int, a result's place by
`byref`, a coordinate as a float (a bare int would go as a C int).  The result type is pypdfium2's own.
"""

from __future__ import annotations

import ctypes

from pypdfium2 import raw


def _bare(declared):
    """The C function behind `declared` (a pypdfium2 binding), with its result type and no argument types."""
    fn = type(declared)(ctypes.cast(declared, ctypes.c_void_p).value)
    fn.restype = declared.restype
    return fn


GetCharBox = _bare(raw.FPDFText_GetCharBox)  # (textpage, index, byref left, right, bottom, top)
GetCharOrigin = _bare(raw.FPDFText_GetCharOrigin)  # (textpage, index, byref x, y)
GetFontSize = _bare(raw.FPDFText_GetFontSize)  # (textpage, index) -> double
GetMatrix = _bare(raw.FPDFText_GetMatrix)  # (textpage, index, byref FS_MATRIX)
GetFontInfo = _bare(raw.FPDFText_GetFontInfo)  # (textpage, index, buffer, length, byref flags)
GetLooseCharBox = _bare(raw.FPDFText_GetLooseCharBox)  # (textpage, index, byref FS_RECTF)
GetCharAngle = _bare(raw.FPDFText_GetCharAngle)  # (textpage, index) -> float
GetUnicode = _bare(raw.FPDFText_GetUnicode)  # (textpage, index)
GetCharIndexFromTextIndex = _bare(raw.FPDFText_GetCharIndexFromTextIndex)  # (textpage, text index)
CountRects = _bare(raw.FPDFText_CountRects)  # (textpage, first, count)
GetRect = _bare(raw.FPDFText_GetRect)  # (textpage, rect, byref left, top, right, bottom)
GetPageObject = _bare(raw.FPDFPage_GetObject)  # (page, index)
GetFormObject = _bare(raw.FPDFFormObj_GetObject)  # (form, index)
GetObjectType = _bare(raw.FPDFPageObj_GetType)  # (object)
GetObjectBounds = _bare(raw.FPDFPageObj_GetBounds)  # (object, byref left, bottom, right, top)
