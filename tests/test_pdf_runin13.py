"""A bold run-in heading wrapped over whole lines (AAAS Science's "Mice lacking the receptor show … /
… in the liver. The cells …"), drawn as a generated PDF: the heading is the whole bold sentence,
not its first line, and its paragraph's text starts after it."""

from reportlab.lib.pagesizes import letter
from reportlab.pdfgen import canvas

from .pdf_fixtures import read_drawn

W, H = letter
_TEXT = ("Cells were incubated with the compound for two days before the assay and the response was measured "
         "against a control group of matched samples drawn from the same cohort while the model predicts a small "
         "effect that grows with dose as earlier studies of this pathway have reported for several tissues.")
_HEAD = "Mice lacking the insulin receptor substrate show a reduced uptake of glucose in the liver."


def _justified(c: canvas.Canvas, x: float, y: float, width: float, words: list[tuple[str, str]],
               size: float = 9) -> float:
    """Words (text, font) set in justified lines of `width` from (x, y), the last line ragged; the y
    below the paragraph."""
    space = c.stringWidth(" ", "Times-Roman", size)
    while words:
        line, used = [], 0.0
        while words and used + c.stringWidth(words[0][0], words[0][1], size) <= width:
            used += c.stringWidth(words[0][0], words[0][1], size) + space
            line.append(words.pop(0))
        gap = space + ((width - used + space) / (len(line) - 1) if words and len(line) > 1 else 0)
        at = x
        for text, font in line:
            c.setFont(font, size)
            c.drawString(at, y, text)
            at += c.stringWidth(text, font, size) + gap
        y -= 1.15 * size
    return y


def _words(text: str, font: str = "Times-Roman") -> list[tuple[str, str]]:
    return [(w, font) for w in text.split()]


def test_bold_runin_heading_wrapped_over_two_lines_is_one_heading(tmp_path):
    path = tmp_path / "runin13.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    c.setFont("Helvetica-Bold", 17)
    c.drawCentredString(W / 2, H - 70, "Starvation and the Germ Line")
    c.setFont("Helvetica", 11)
    c.drawCentredString(W / 2, H - 90, "Ada Okafor and Lena Brandt")
    for page in (1, 2):
        for x in (72, 320):
            y = H - 130 if page == 1 else H - 72
            for k in range(3):
                y = _justified(c, x, y, 220, _words(_TEXT))
                if page == 2 and x == 72 and k == 0:  # (on the title page it would be front matter)
                    y = _justified(c, x, y, 220, _words(_HEAD, "Times-Bold") + _words(_TEXT))
        c.showPage()
    blocks = read_drawn(path, c).blocks
    heads = [b.text for b in blocks if b.kind == "heading"]
    assert heads == [_HEAD.rstrip(".")]
    after = blocks[[b.text for b in blocks].index(heads[0]) + 1]
    assert after.kind == "text" and after.text.startswith("Cells were incubated")
