"""A "±" some typesetting draws as a "+" with a minus just under it (and "∓" the other way up) reads
as that one sign, in running text and in a table's cells; a "+" and a "-" set side by side stay two."""

from reportlab.pdfgen import canvas

from papershelf.ingest.pdf.text.lines import page_lines

from .pdf_fixtures import first_page

_SIZE = 10


def _stacked(c: canvas.Canvas, x: float, y: float, before: str, after: str, minus_under: bool = True) -> None:
    """`before`, then a plus with a hyphen raised or lowered (text rise) under or over it, then
    `after`: one text object on one baseline, as typesetting that builds the sign does."""
    plus = c.stringWidth("+", "Helvetica", _SIZE)
    minus = c.stringWidth("-", "Helvetica", _SIZE)
    lead = c.stringWidth(before, "Helvetica", _SIZE) + (plus - minus) / 2
    t = c.beginText(x, y)
    t.setFont("Helvetica", _SIZE)
    t.setRise(0 if minus_under else 3)
    t.textOut(before + "+")
    t.moveCursor(lead, 0)
    t.setRise(-4.2 if minus_under else 8.5)
    t.textOut("-")
    t.setRise(0)
    t.moveCursor(plus - (plus - minus) / 2, 0)
    t.textOut(after)
    c.drawText(t)


def _lines(tmp_path) -> list[str]:
    path = str(tmp_path / "signs.pdf")
    c = canvas.Canvas(path, pagesize=(612, 792))
    _stacked(c, 72, 700, "The constant was 21.03 ", " 0.27 nM in three runs.")
    for k, y in enumerate((600, 586, 572)):  # a table's rows: a row label and two cells with their errors
        c.setFont("Helvetica", _SIZE)
        c.drawString(72, y, f"Construct {k + 1}")
        _stacked(c, 200, y, f"{k + 4}.5 ", f" 0.{k + 1}")
        _stacked(c, 340, y, f"{k + 7}.25 ", f" 1.{k}")
    _stacked(c, 72, 500, "A shift of 3.0 ", " 0.2 either way.", minus_under=False)
    c.setFont("Helvetica", _SIZE)
    c.drawString(72, 450, "The ratio changed by +-5 percent, written side by side.")
    c.save()
    return [ln.text for ln in first_page(path, lambda page: page_lines(page, 1)[0])]


def test_stacked_signs_read_as_one(tmp_path):
    texts = _lines(tmp_path)
    assert "The constant was 21.03 ± 0.27 nM in three runs." in texts
    cells = [t for t in texts if "." in t and len(t) < 12]  # a table's cells are lines of their own
    assert cells == [c for k in range(3) for c in (f"{k + 4}.5 ± 0.{k + 1}", f"{k + 7}.25 ± 1.{k}")], texts
    assert not [t for t in texts if t.strip() in ("-", "- -")]  # no row of lone minus signs
    assert "A shift of 3.0 ∓ 0.2 either way." in texts
    assert "The ratio changed by +-5 percent, written side by side." in texts
