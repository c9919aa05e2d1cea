"""The PDF reader: pdfium's glyphs -> lines -> reading order -> blocks, headings, objects, references.

`reader.read_pdf` is the entry point; each other module is one decision of the layout (lines, headings,
regions, authors, ...), so a change to one decision is a change to one file.
"""

from .reader import read_pdf

__all__ = ["read_pdf"]
