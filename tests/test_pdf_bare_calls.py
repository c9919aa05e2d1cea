"""`bare_calls` (pdfium's per-character calls without ctypes' argument types) answer what pypdfium2's
declared bindings answer, for every character and object of a drawn paper's pages: the same
booleans, indices, sizes, angles, codes, boxes (to the bit), fonts and flags."""

from __future__ import annotations

import ctypes

import pypdfium2 as pdfium
from pypdfium2 import raw

from papershelf.ingest.pdf.text import bare_calls as bare

from .pdf_fixtures import objects_paper, two_column_paper


def _doubles(n: int) -> tuple[list[ctypes.c_double], list]:
    d = [ctypes.c_double() for _ in range(n)]
    return d, [ctypes.byref(x) for x in d]


def _chars_agree(tp) -> int:
    n = raw.FPDFText_CountChars(tp)
    d, e = [ctypes.c_double() for _ in range(4)], _doubles(4)
    m1, m2, r1, r2 = raw.FS_MATRIX(), raw.FS_MATRIX(), raw.FS_RECTF(), raw.FS_RECTF()
    b1, b2, f1, f2 = ctypes.create_string_buffer(128), ctypes.create_string_buffer(128), ctypes.c_int(), ctypes.c_int()
    for i in range(-1, n + 1):
        assert raw.FPDFText_GetCharBox(tp, i, *d) == bare.GetCharBox(tp, i, *e[1])
        assert [x.value for x in d] == [x.value for x in e[0]]
        assert raw.FPDFText_GetCharOrigin(tp, i, d[0], d[1]) == bare.GetCharOrigin(tp, i, e[1][0], e[1][1])
        assert [x.value for x in d[:2]] == [x.value for x in e[0][:2]]
        assert raw.FPDFText_GetFontSize(tp, i) == bare.GetFontSize(tp, i)
        assert raw.FPDFText_GetMatrix(tp, i, m1) == bare.GetMatrix(tp, i, ctypes.byref(m2))
        assert bytes(m1) == bytes(m2)
        assert raw.FPDFText_GetLooseCharBox(tp, i, r1) == bare.GetLooseCharBox(tp, i, ctypes.byref(r2))
        assert bytes(r1) == bytes(r2)
        assert raw.FPDFText_GetFontInfo(tp, i, b1, 128, f1) == bare.GetFontInfo(tp, i, b2, 128, ctypes.byref(f2))
        assert (b1.raw, f1.value) == (b2.raw, f2.value)
        assert raw.FPDFText_GetCharAngle(tp, i) == bare.GetCharAngle(tp, i)
        assert raw.FPDFText_GetUnicode(tp, i) == bare.GetUnicode(tp, i)
        assert raw.FPDFText_GetCharIndexFromTextIndex(tp, i) == bare.GetCharIndexFromTextIndex(tp, i)
    rects = raw.FPDFText_CountRects(tp, 0, n)
    assert rects == bare.CountRects(tp, 0, n) > 0
    for r in range(rects):
        assert raw.FPDFText_GetRect(tp, r, *d) == bare.GetRect(tp, r, *e[1])
        assert [x.value for x in d] == [x.value for x in e[0]]
    return n


def _objects_agree(page) -> int:
    f1, f2 = [ctypes.c_float() for _ in range(4)], [ctypes.c_float() for _ in range(4)]
    n = raw.FPDFPage_CountObjects(page)
    for i in range(n):
        obj = raw.FPDFPage_GetObject(page, i)
        same = bare.GetPageObject(page, i)
        assert ctypes.cast(obj, ctypes.c_void_p).value == ctypes.cast(same, ctypes.c_void_p).value
        assert raw.FPDFPageObj_GetType(obj) == bare.GetObjectType(obj)
        assert raw.FPDFPageObj_GetBounds(obj, *f1) == bare.GetObjectBounds(obj, *(ctypes.byref(f) for f in f2))
        assert [f.value for f in f1] == [f.value for f in f2]
    return n


def test_bare_calls_answer_as_the_declared_bindings(tmp_path):
    chars = objects = 0
    for draw in (two_column_paper, objects_paper):
        path = str(tmp_path / f"{draw.__name__}.pdf")
        draw(path)
        pdf = pdfium.PdfDocument(path)
        for k in range(len(pdf)):
            page = pdf[k]
            tp = page.get_textpage()
            chars += _chars_agree(tp.raw)
            objects += _objects_agree(page.raw)
            tp.close()
            page.close()
        pdf.close()
    assert chars > 1000 and objects > 10
