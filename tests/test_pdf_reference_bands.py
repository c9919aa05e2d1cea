"""Reference lists of refs14 (issue #38), drawn after real dev pages: a list set in a band across the foot of a
page whose two body columns stand above it (pnas-2000: the right column's body was read into entry 14), and a
justified last line whose wide word gaps cut it into pieces on one baseline (a preprint's "1-18.   Retrieved
2019,   from" opened an entry of its own).  PDFs made with reportlab."""

from __future__ import annotations

import pytest
from reportlab.lib.pagesizes import letter
from reportlab.pdfgen import canvas

from .pdf_fixtures import BODY, _wrap, headed_page, read_references, title_and_body

W, H = letter
NAMES = ["Novak", "Walsh", "Bugg", "Park", "Reynolds", "Fan", "Ellsworth", "Huyton", "Otwinowski", "Vagin",
         "Brunger", "Murshudov", "Cowtan", "Galperin", "Kobayashi", "Shi", "Lessard", "Kuzin", "Evers", "Dutka"]


def _band_page(c: canvas.Canvas, heading: str | None) -> None:
    """A page of two body columns (9 pt) over a list of 20 entries (7 pt) in two columns across its foot."""
    c.showPage()
    words = BODY.split()
    body = _wrap(" ".join(words[k % len(words)] for k in range(0, 1400, 3)), 60)  # no line repeats page 1's
    for col, x in enumerate((54, 316)):
        c.setFont("Times-Roman", 9)
        y = H - 60
        for ln in body[col * 38:(col + 1) * 38]:
            c.drawString(x, y, ln)
            y -= 10
    y0 = H - 60 - 38 * 10 - 18
    if heading:
        c.setFont("Times-Bold", 8)
        c.drawString(54, y0, heading)
        y0 -= 11
    c.setFont("Times-Roman", 7)
    for col, x in enumerate((54, 316)):
        y = y0
        for k in range(col * 10, col * 10 + 10):
            c.drawString(x, y, f"{k + 1}. {NAMES[k]}, A. B. & Knox, J. R. ({1980 + k}) Biochemistry {k + 20},")
            c.drawString(x + 10, y - 8.5, f"{100 + k}-{110 + k}.")
            y -= 17


@pytest.mark.parametrize("heading", [None, "References"])
def test_a_list_in_a_band_under_two_body_columns_takes_none_of_the_body(tmp_path, heading):
    path = tmp_path / "band.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    title_and_body(c, "Structure of a Ligase", 8)
    _band_page(c, heading)
    refs = read_references(path, c)
    assert len(refs) == 20
    assert all(r.text.startswith(f"{k + 1}. {NAMES[k]}") and r.text.endswith(f"{110 + k}.")
               for k, r in enumerate(refs))
    assert not any("wound" in r.text for r in refs)


def test_a_justified_lines_pieces_on_one_baseline_open_no_entry(tmp_path):
    path = tmp_path / "justified.pdf"
    c, y = headed_page(path, "Bibliography", 4, title="Voice Conversion With Adversarial Networks", gap=22)
    c.setFont("Times-Roman", 10)
    fit = 72 + c.stringWidth("Novak, J. (2010). Unpaired image-to-image translation using cycle-consistent",
                             "Times-Roman", 10)
    for k, name in enumerate(NAMES[:8]):
        c.drawString(72, y, f"{name}, J. ({2010 + k}). Unpaired image-to-image translation using cycle-consistent")
        if k % 2:  # a line set justified: its words stand apart, each a piece of its own
            for x, word in ((72, "networks."), (140, "Arxiv,"), (200, "1-18."), (250, "Retrieved"), (310, "2019,"),
                            (fit - c.stringWidth("from", "Times-Roman", 10), "from")):
                c.drawString(x, y - 12, word)
            c.drawString(72, y - 24, f"https://arxiv.org/pdf/1703.{10590 + k}.pdf.")
            y -= 12
        else:
            c.drawString(72, y - 12, "networks. Arxiv, 1, 1-18.")
        y -= 38
    refs = read_references(path, c)
    assert len(refs) == 8
    assert all(r.text.startswith(NAMES[k]) for k, r in enumerate(refs))


CAPITALS = ["Abebe", "Åström", "Brandt", "Chen", "Dubois", "Élie", "Fischer", "Garcia", "Haddad", "Özdemir", "Rossi",
            "Silva", "Šimek", "Tanaka", "Ødegaard", "Weber"]


@pytest.mark.parametrize("gap", [0, 6])
def test_surnames_opening_with_a_capital_outside_ascii_open_their_entries(tmp_path, gap):
    path = tmp_path / "capitals.pdf"
    c, y = headed_page(path, paragraphs=3, title="Sediment Transport in Coastal Systems")
    c.setFont("Times-Roman", 9)
    for k, name in enumerate(CAPITALS):  # flush author-year entries, one after another with no indent
        c.drawString(72, y, f"{name}, K., Rossi, A., {1990 + k}. Sediment transport in coastal systems and the thermal")
        c.drawString(72, y - 11, f"response of estuaries. J. Coast. Res. {k + 3}, 10-20.")
        y -= 22 + gap
    refs = read_references(path, c)
    assert [r.text.split(",")[0] for r in refs] == CAPITALS


def test_lines_after_the_last_entry_that_open_as_no_entry_does_are_none(tmp_path):
    path = tmp_path / "tail.pdf"
    c, y = headed_page(path, paragraphs=3, title="Sediment Transport in Coastal Systems")
    c.setFont("Times-Roman", 9)
    for k, name in enumerate(CAPITALS[:12]):  # flush entries set apart by a gap
        c.drawString(72, y, f"{name}, K., Rossi, A., {1990 + k}. Sediment transport in coastal systems and the thermal")
        c.drawString(72, y - 11, f"response of estuaries. J. Coast. Res. {k + 3}, 10-20.")
        y -= 28
    for text in ("Handling editor: Maria Rossi, University of Lisbon.", "Zitiervorschlag: Engel, K. (2021), Heft 4."):
        c.drawString(72, y, text)  # in the list's size and pitch, in words no pattern knows
        y -= 28
    refs = read_references(path, c)
    assert [r.text.split(",")[0] for r in refs] == CAPITALS[:12]
