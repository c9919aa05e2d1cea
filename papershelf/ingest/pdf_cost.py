"""What a PDF will cost to read, known before reading it: its page count and how many of its pages
carry no text layer (those are OCR'd, seconds a page, where a typed page takes milliseconds).

Why its own module: `index --json`'s `file` events report a paper's pages, and a whole-`index` time
estimate needs each file's cost before its parse (issue 42); pdfium answers both from the file's page
tree and each page's character count, without laying out any text."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class PdfCost:
    pages: int
    scanned: int  # pages with no character in their text layer


def pdf_cost(path: str, text_layer: bool = True) -> PdfCost | None:
    """The file's pages (and, with `text_layer`, its pages without text); None when pdfium cannot
    open it (the reader reports why)."""
    import pypdfium2 as pdfium

    try:
        pdf = pdfium.PdfDocument(path)
    except (pdfium.PdfiumError, OSError, ValueError):
        return None
    try:
        pages, scanned = len(pdf), 0
        if text_layer:
            for i in range(pages):
                page = pdf[i]
                textpage = page.get_textpage()
                scanned += textpage.count_chars() == 0
                textpage.close()
                page.close()
        return PdfCost(pages, scanned)
    finally:
        pdf.close()
