"""Reference lists in the layouts of unseen papers (issue #38, refs8), read by the list's own structure:
lines after the list that no statement word opens, a heading in words the reader does not know, a figure
and its caption where the list goes on, biographies after the list, an index line under each entry, and a
two-column paper whose list goes on at the next column's top above the heading.  PDFs made with reportlab."""

from __future__ import annotations

from reportlab.lib.pagesizes import letter
from reportlab.pdfgen import canvas

from .pdf_fixtures import headed_page, read_references

W, H = letter
SURNAMES = ["Abebe", "Brandt", "Chen", "Dubois", "Engel", "Fischer", "Garcia", "Haddad", "Ivanova", "Jansen",
            "Kaplan", "Larsen", "Mbeki", "Nguyen", "Okafor", "Patel"]


def _entry(k: int, numbered: bool) -> list[str]:
    name = SURNAMES[k % len(SURNAMES)]
    if numbered:
        return [f"{k + 1}. A. {name}, K. Rossi. Sediment transport in coastal {k} systems and their",
                f"thermal response. J. Mol. Biol. {k + 3}, 10-20 ({1990 + k})."]
    return [f"{name}, A., & Rossi, K. ({1990 + k}). Sediment transport in coastal systems {k} and",
            f"their thermal response. J. Mol. Biol. {k + 3}, 10-20."]


def _list(c: canvas.Canvas, y: float, n: int, numbered: bool, x: float = 72, extra: list[str] | None = None
          ) -> float:
    """`n` entries with a hanging indent (numbered: the label in the gutter); `extra`: a line of its
    own under each entry."""
    c.setFont("Times-Roman", 8.5)
    for k in range(n):
        for i, ln in enumerate(_entry(k, numbered) + (extra or [])):
            c.drawString(x + (12 if i else 0), y, ln)
            y -= 10.5
        y -= 1
    return y


def test_plain_lines_after_a_list_are_no_entries(tmp_path):
    for numbered in (True, False):
        path = tmp_path / f"plain-{numbered}.pdf"
        c, y = headed_page(path)
        y = _list(c, y, 8, numbered)
        c.setFont("Times-Roman", 8.5)
        c.drawString(72, y - 14, "(Accepted March 27, 2009)")
        c.drawString(72, y - 26, "Handling editor: Kari Larsen")
        refs = read_references(path, c)
        assert len(refs) == 8, numbered
        assert "Accepted" not in refs[-1].text and "editor" not in refs[-1].text
        assert refs[-1].text.endswith("10-20 (1997).") or refs[-1].text.endswith("10-20.")


def test_biographies_after_a_list_in_the_body_size_are_no_entries(tmp_path):
    path = tmp_path / "bios.pdf"
    c, y = headed_page(path)
    y = _list(c, y, 9, False) - 16
    c.setFont("Times-Roman", 10)
    for ln in ["Mariam Okafor received the B.S. degree in physics from the University of Lagos in 2009 and",
               "the Ph.D. degree from Aix University in 2015. Her research interests include sediment",
               "transport and the statistics of sparse observations."]:
        c.drawString(72, y, ln)
        y -= 12
    refs = read_references(path, c)
    assert len(refs) == 9
    assert not any("Okafor" in r.text for r in refs)


def test_a_list_under_a_heading_in_unknown_words_is_found_by_its_entries(tmp_path):
    path = tmp_path / "kaynakca.pdf"
    c, y = headed_page(path, "Kaynakça")
    _list(c, y, 7, False)
    refs = read_references(path, c)
    assert len(refs) == 7
    assert refs[0].text.startswith("Abebe, A.") and refs[0].year == 1990


def test_a_figure_and_its_caption_inside_a_list_hold_none_of_its_lines(tmp_path):
    path = tmp_path / "figure.pdf"
    c, y = headed_page(path)
    _list(c, y, 6, True)
    c.showPage()
    c.rect(72, H - 180, 300, 100, stroke=1, fill=0)
    c.setFont("Times-Roman", 8)
    c.drawString(90, H - 130, "0.5")
    c.setFont("Times-Roman", 9)
    c.drawString(72, H - 196, "Figure 3. Seasonal counts at the two sites; bars show one standard error.")
    c.setFont("Times-Roman", 8.5)
    y = H - 222
    for k in range(6, 12):
        for i, ln in enumerate(_entry(k, True)):
            c.drawString(72 + (12 if i else 0), y, ln)
            y -= 10.5
    refs = read_references(path, c)
    assert len(refs) == 12
    assert not any("Seasonal" in r.text or "0.5" in r.text for r in refs)


def test_an_index_line_under_each_entry_is_no_key(tmp_path):
    path = tmp_path / "index.pdf"
    c, y = headed_page(path, paragraphs=2)
    _list(c, y, 8, False, extra=["[PubMed] [CrossRef] [Google Scholar]"])
    refs = read_references(path, c)
    assert len(refs) == 8
    assert all(r.text.startswith(SURNAMES[k]) and r.text.endswith("[Google Scholar]") for k, r in enumerate(refs))


def test_a_list_mid_column_goes_on_at_the_next_columns_top(tmp_path):
    path = tmp_path / "two-column.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    c.setFont("Times-Bold", 15)
    c.drawCentredString(W / 2, H - 80, "Observations on Coastal Sediment")
    c.setFont("Times-Roman", 10)
    y = H - 120
    for _ in range(24):
        c.drawString(72, y, "The measurements reported here were taken over")
        y -= 12
    c.setFont("Times-Bold", 11)
    c.drawString(72, y - 14, "References")
    y = y - 34
    c.setFont("Times-Roman", 8.5)
    k = 0
    while y > 90:
        for i, ln in enumerate(_entry(k, True)):
            c.drawString(72 + (12 if i else 0), y, ln[:48] if i == 0 else ln[-44:])
            y -= 10.5
        k += 1
    c.drawString(330, H - 120, f"{k + 1}. A. Pieter, K. Rossi. Late entry set at the next")
    c.drawString(342, H - 130.5, "column's top. J. Mol. Biol. 3, 10-20 (2001).")
    refs = read_references(path, c)
    assert len(refs) == k + 1
    assert "Late entry" in refs[-1].text
