"""The PDF reader: pdfium's glyphs -> lines -> reading order -> blocks, headings, objects, references.

`reader.read_pdf` is the entry point; each other module is one decision of the layout, so a change to
one decision is a change to one file, and the folders are the concerns: `text/` (glyphs repaired, the
page's lines), `layout/` (columns, boxes, sidebars, sheets), `sections/` (headings and levels),
`front/` (title, authors, year, metadata), `objects/` (captions, regions, table cells), `bibliography/`
(the reference list) and `scan/` (pages read by OCR).
"""

from .reader import read_pdf

__all__ = ["read_pdf"]
