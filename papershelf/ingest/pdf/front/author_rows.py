"""The author block's rows as `authors.printed_authors` reads them: each visual row's pieces that touch
joined into one line (pdfium cuts a line at a raised ordinal or an accent set apart), without the values
of labelled fields ("To appear in:", "Journal:")."""

from __future__ import annotations

from dataclasses import replace

from ..text.lines import Line, visual_rows


def block_rows(lines: list[Line]) -> list[list[Line]]:
    """The lines' visual rows (pdf_lines.visual_rows), pieces that touch joined into one line,
    and without the values of labelled fields: what follows "To appear in:" or "Journal:" on its
    row is a venue, a date or an identifier of a cover sheet, never an author."""
    out: list[list[Line]] = []
    for row in visual_rows(lines, by_middle=True):
        joined: list[Line] = []
        for ln in row:
            if ln.text.rstrip().endswith(":"):
                break
            if joined and ln.x0 - joined[-1].x1 < 0.6 * max(ln.size, joined[-1].size):
                joined[-1] = join_pieces(joined[-1], ln)
            else:
                joined.append(ln)
        if joined:
            out.append(joined)
    return out


def join_pieces(a: Line, b: Line) -> Line:
    """Two touching pieces of one row as one line ("1" + "st Xu Li", "Núñez-Garc" + "ía, and"),
    in the style of the longer: pdfium cuts a line at a raised ordinal or an accent set apart.
    A short raised piece is a mark and written as the line reader writes one ("André^a")."""
    small = b.size < 0.8 * a.size or b.height < 0.6 * a.height  # pdfium may give a mark the line's size
    raised = len(b.text) <= 4 and small and b.bottom < a.bottom - 0.15 * a.height
    gap = "^" if raised else "" if b.x0 - a.x1 < 0.15 * b.size or b.text[:1] in ",;" else " "
    style = a if len(a.text) >= len(b.text) else b
    return replace(style, x0=a.x0, x1=b.x1, top=min(a.top, b.top), bottom=max(a.bottom, b.bottom),
                   text=a.text + gap + b.text)
