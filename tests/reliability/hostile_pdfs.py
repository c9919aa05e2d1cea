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


def big_text_page_pdf(path: str, side: float = 4300.0) -> None:
    """One `side` x `side` pt page of large print: the largest page OCR still reads (at the dpi that
    keeps it within OCR's pixel bound), with a text layer (`--ocr always` reads it anyway)."""
    c = canvas.Canvas(path, pagesize=(side, side))
    c.setFont("Times-Roman", 60)
    for i in range(12):
        c.drawString(200, side - 300 - i * 90, f"Line {i} of a very large page: {BODY[:60]}")
    c.showPage()
    c.save()


FINDING = "Bleached colonies recovered their symbionts within nine weeks when the water cooled."


def small_scan_pdf(path: str, turn: int = 0, dpi: int = 200) -> None:
    """A small page of print as a scanner gives it (an image, no text layer), turned `turn` degrees
    clockwise: an upside-down scan is `turn=180`."""
    import io

    import pypdfium2 as pdfium

    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=(420, 220))
    c.setFont("Times-Bold", 14)
    c.drawString(30, 180, "Recovery of Reef Corals")
    c.setFont("Times-Roman", 12)
    words, line, y = FINDING.split() + BODY.split()[:24], "", 150
    for w in words:
        if len(line) + len(w) > 58:
            c.drawString(30, y, line)
            line, y = "", y - 16
        line = f"{line} {w}".strip()
    c.drawString(30, y, line)
    c.showPage()
    c.save()
    image = pdfium.PdfDocument(buf.getvalue())[0].render(scale=dpi / 72, grayscale=True).to_pil()
    image.rotate(-turn, expand=True).save(path, "PDF", resolution=dpi)


def reference_list_pdf(path: str, entries: list[str]) -> None:
    """A short paper whose "References" section prints `entries` one a line (wrapped), on as many
    letter pages as they take."""
    from tests.pdf_fixtures import _wrap

    c = canvas.Canvas(path, pagesize=(612, 792))
    c.setFont("Times-Bold", 16)
    c.drawString(72, 720, "A Paper That Cites Many Others")
    c.setFont("Helvetica-Bold", 12)
    c.drawString(72, 690, "1 Introduction")
    c.setFont("Times-Roman", 10)
    y = 672
    for line in _wrap(BODY + " " + BODY, 95):
        c.drawString(72, y, line)
        y -= 12
    c.setFont("Helvetica-Bold", 12)
    c.drawString(72, y - 10, "References")
    y -= 30
    for entry in entries:
        for k, line in enumerate(_wrap(entry, 100)):
            if y < 60:
                c.showPage()
                y = 740
            c.setFont("Times-Roman", 9)
            c.drawString(72 + (12 if k else 0), y, line)
            y -= 11
    c.showPage()
    c.save()


def numbered_entries(n: int, missing: tuple[int, ...] = ()) -> list[str]:
    """`n` numbered reference entries, each of its own words (a line that repeats on every page, but
    for its digits, is a running header to the reader), without the numbers in `missing`."""
    names = ["Okafor", "Brandt", "Lima", "Park", "Ruiz", "Novak", "Haddad", "Sato", "Kowalski", "Moreau", "Ivanova",
             "Osei", "Larsen", "Mehta", "Quispe", "Fischer", "Tanaka", "Nkosi", "Silva", "Weber", "Costa"]
    words = BODY.replace(",", "").split()
    out = []
    for k in range(1, n + 1):
        if k in missing:
            continue
        title = " ".join(words[(k * 7 + j) % len(words)] for j in range(3 + k % 5)).capitalize()
        out.append(f"[{k}] {names[k % len(names)][0]}. {names[(k * 5) % len(names)]} and {names[k % 7]} B. "
                   f"{title} numbered {k}. Journal of {names[(k * 3) % len(names)]} Studies, {1990 + k % 30}.")
    return out
