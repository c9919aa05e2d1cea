"""Long sub-section titles wrapped onto two or three lines of a narrow column (issue 38, round heads10),
drawn as generated PDFs: a fifteen-word bold title over three lines (FASEB's way) and an italic one
(the Plant Journal's) are read whole, at their one-line siblings' level; three short bold labels
stacked in a column (no line broken at the column's edge) and a bold sentence are no title."""

from reportlab.lib.pagesizes import letter
from reportlab.pdfgen import canvas

from .test_pdf_heading_styles import _headings, _para, _title

W, H = letter
_COLUMN = 230.0  # a narrow column: a long title wraps


def _wrapped(c: canvas.Canvas, y: float, text: str, font: str, size: float = 10) -> float:
    """`text` broken where the column ends, flush left, in one font; the y below it."""
    words, line = text.split(), ""
    c.setFont(font, size)
    while words:
        while words and c.stringWidth(f"{line} {words[0]}".strip(), font, size) <= _COLUMN:
            line = f"{line} {words.pop(0)}".strip()
        c.drawString(72, y, line)
        line, y = "", y - 1.2 * size
    return y - 6


def _paper(path, middle) -> None:
    c = canvas.Canvas(str(path), pagesize=letter)
    y = _wrapped(c, _title(c) - 10, "RESULTS", "Times-Bold") - 4
    y = _wrapped(c, y, "Cell viability", "Times-Bold")
    y = _para(c, 72, y, _COLUMN) - 14
    y = middle(c, y)
    y = _wrapped(c, y - 10, "DISCUSSION", "Times-Bold")
    _para(c, 72, y, _COLUMN)
    c.save()


_LONG = "Effects of SIN-1 in nitration and hyperphosphorylation of tau and cell viability in rat hippocampus"


def test_bold_title_wrapped_onto_three_lines_is_one_heading(tmp_path):
    path = tmp_path / "wrapped.pdf"
    _paper(path, lambda c, y: _para(c, 72, _wrapped(c, y, _LONG, "Times-Bold"), _COLUMN) - 14)
    assert _headings(path) == [("RESULTS", 1), ("Cell viability", 2), (_LONG, 2), ("DISCUSSION", 1)]


def test_italic_title_wrapped_onto_three_lines_is_one_heading(tmp_path):
    path = tmp_path / "italic.pdf"
    title = ("Protein extraction, gel electrophoresis, Western blot analysis, tissue prints and ascorbate oxidase"
             " determinations")

    def middle(c, y):
        y = _para(c, 72, _wrapped(c, y, "Plant growth conditions", "Times-Italic"), _COLUMN) - 14
        return _para(c, 72, _wrapped(c, y, title, "Times-Italic"), _COLUMN) - 14

    _paper(path, middle)
    # (italics under the bold "Cell viability": a level below it, the one-line sibling and the wrapped one alike)
    assert _headings(path) == [("RESULTS", 1), ("Cell viability", 2), ("Plant growth conditions", 3), (title, 3),
                               ("DISCUSSION", 1)]


def test_stacked_labels_and_a_bold_sentence_are_no_wrapped_title(tmp_path):
    path = tmp_path / "labels.pdf"

    def middle(c, y):
        c.setFont("Times-Bold", 10)
        for k, label in enumerate(("Treated cohort", "Control cohort", "Matched samples")):
            c.drawString(72, y - 12 * k, label)
        y = _para(c, 72, y - 42, _COLUMN) - 14
        y = _wrapped(c, y, "The cells were incubated with the compound for two days before the assay and then"
                           " measured against a control group.", "Times-Bold")
        return _para(c, 72, y, _COLUMN) - 14

    _paper(path, middle)
    assert _headings(path) == [("RESULTS", 1), ("Cell viability", 2), ("DISCUSSION", 1)]
