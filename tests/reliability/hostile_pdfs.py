"""PDFs made to cost memory and time (issue #43): pages of absurd size or shape, crop boxes away from
the origin, scans upside down.  Each is a few KB; what it would cost a reader unbounded is in the
docstring."""

from __future__ import annotations

from reportlab.pdfgen import canvas

from tests.pdf_fixtures import BODY

BIG = 14400.0  # the largest page PDF allows (200 inches): 3.6 gigapixels at 300 dpi


def strip_page_pdf(path: str, width: float = 3.0, height: float = BIG) -> None:
    """One readable letter page, then a `width` x `height` pt page holding a captioned table: its unit's
    image asked at 900 px wide would be a 900 x 4.3 M px bitmap (11 GB)."""
    c = canvas.Canvas(path, pagesize=(612, 792))
    c.setTitle("Strips of page for rendering")
    c.setFont("Times-Bold", 16)
    c.drawString(72, 720, "Strips of page for rendering")
    c.setFont("Times-Roman", 10)
    for i, y in enumerate(range(680, 300, -14)):
        c.drawString(72, y, (BODY + " ")[i * 7 % 60:][:90])
    c.showPage()
    c.setPageSize((width, height))
    c.setFont("Times-Roman", 2)
    for i in range(60):
        c.drawString(0.2, height - 40 - i * 3, f"Table 1: strip row {i} " + BODY[:60])
    c.showPage()
    c.save()


def huge_page_pdf(path: str, pages: int = 1, side: float = BIG) -> None:
    """`pages` pages of `side` x `side` pt with no text layer (one drawn box each): OCR at 300 dpi
    would render 3.6 GB a page."""
    c = canvas.Canvas(path, pagesize=(side, side))
    for _ in range(pages):
        c.rect(side * 0.1, side * 0.1, side * 0.3, side * 0.02, fill=1)
        c.showPage()
    c.save()


def offset_crop_pdf(path: str) -> None:
    """The figures-and-tables paper drawn into the upper-right quarter of a page twice its size, the
    CropBox showing just that quarter (how imposed or trimmed printer's PDFs come): boxes read from
    the page are in its own space, not the crop's, so a crop taken as if the CropBox started at
    (0, 0) lies outside the page shown."""
    import pypdfium2 as pdfium

    from tests.pdf_fixtures import objects_paper

    objects_paper(path + ".plain")
    src, out = pdfium.PdfDocument(path + ".plain"), pdfium.PdfDocument.new()
    try:
        for i in range(len(src)):
            w, h = src[i].get_size()
            page = out.new_page(2 * w, 2 * h)
            drawn = src.page_as_xobject(i, out)
            obj = drawn.as_pageobject()
            obj.transform(pdfium.PdfMatrix().translate(w, h))
            page.insert_obj(obj)
            page.gen_content()
            page.set_cropbox(w, h, 2 * w, 2 * h)
        out.save(path)
    finally:
        src.close()
        out.close()
