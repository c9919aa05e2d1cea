"""Running heads set below the page's top margin (a thesis, a journal with wide margins) are dropped like
the ones in the margin, so they do not cut sentences in two; a chapter's heading at the top of its page,
larger than the body, and the first page's title, which the running head repeats, stay."""

from __future__ import annotations

from reportlab.lib.pagesizes import letter
from reportlab.pdfgen import canvas

from papershelf.ingest.pdf import read_pdf
from papershelf.units import build_units

W, H = letter
TITLE = "Quantifying Telomerase Activity in Hepatoma Cells"
SENTENCE = ("The levels of telomerase activity were correlated with tumour stage and prognosis in every "
            "cohort we examined over the twelve years of the study")


def _page(c: canvas.Canvas, n: int, head: str | None, top_text: list[str], chapter: str | None) -> None:
    y = H - 84  # a running head 10.6 % below the page's top: outside a 9 % margin
    if head:
        c.setFont("Times-Italic", 10)
        c.drawString(72, y, f"{head}   {n}")
    y -= 40
    if chapter:
        c.setFont("Times-Bold", 16)
        c.drawString(72, y, chapter)
        y -= 30
    c.setFont("Times-Roman", 10)
    for line in top_text:
        c.drawString(72, y, line)
        y -= 13


def _lines(words: list[str], per: int = 12) -> list[str]:
    return [" ".join(words[i:i + per]) for i in range(0, len(words), per)]


def running_heads_pdf(path) -> None:
    c = canvas.Canvas(str(path), pagesize=letter)
    c.setFont("Times-Bold", 18)
    c.drawString(72, H - 84, TITLE)  # the first page's top row: the title, which the running head repeats
    c.setFont("Times-Roman", 10)
    filler = ("Cells were grown in culture and extracts prepared on ice before the assay was run in "
              "triplicate with a quantification standard in each lane of the gel. ")
    body = (filler * 18).split()
    _page(c, 1, None, ["Ann Author and Ben Writer"] + _lines(body[:150]) + _lines(SENTENCE.split()[:8]), None)
    for n in range(2, 9):
        c.showPage()
        head = TITLE if n % 2 else "Author and Writer"
        start = _lines(SENTENCE.split()[8:]) + ["."] if n == 2 else []
        _page(c, n, head, start + _lines(body[:130]), f"Chapter {n}" if n in (3, 4, 5) else None)
    c.save()


def test_running_heads_below_the_margin_are_dropped_and_chapters_and_title_stay(tmp_path):
    path = tmp_path / "heads.pdf"
    running_heads_pdf(path)
    doc = read_pdf(path.read_bytes())
    assert doc.title == TITLE
    text = "\n".join(u.text for u in build_units(doc, "p") if u.kind in ("body", "chunk"))
    assert "Author and Writer" not in text.replace("Ann Author and Ben Writer", "")
    assert TITLE not in text
    assert "correlated with tumour stage" in " ".join(text.split())  # the sentence goes on across the page
    assert {"Chapter 3", "Chapter 4", "Chapter 5"} <= {b.text for b in doc.blocks}  # larger than the body
