"""A reference list headed in words the reader does not know, followed by many headed parts (refs15, issue #38):
the list is the last section of the paper's back half whose text reads as references, however many headings
follow it.  PDFs made with reportlab."""

from __future__ import annotations

from reportlab.lib.pagesizes import letter

from .pdf_fixtures import BODY, _wrap, headed_page, read_references

W, H = letter
SURNAMES = ["Abebe", "Brandt", "Chen", "Dubois", "Engel", "Fischer", "Garcia", "Haddad", "Ivanova", "Jansen"]
BACK = ["Appendix A", "Appendix B", "Author contributions", "Funding", "Data availability", "Ethics approval",
        "How to cite"]


def _paper(path, heading: str, numbered: bool):
    """A page of body, then on the next page the list under `heading` and seven headed parts after it."""
    c, _ = headed_page(path, "Methods", paragraphs=4)
    c.showPage()
    y = H - 80
    c.setFont("Times-Bold", 11)
    c.drawString(72, y, heading)
    y -= 20
    c.setFont("Times-Roman", 8.5)
    for k, name in enumerate(SURNAMES):
        text = (f"[{k + 1}] A. {name}, Sediment transport in coastal systems {k}. J. Mol. Biol. 3, 10-20 "
                f"({1990 + k}).") if numbered else \
            f"{name}, A. ({1990 + k}). Sediment transport in coastal systems {k}. J. Mol. Biol. 3, 10-20."
        c.drawString(72, y, text)
        y -= 10.5
    for part in BACK:
        if y < 120:
            c.showPage()
            y = H - 80
        y -= 14
        c.setFont("Times-Bold", 11)
        c.drawString(72, y, part)
        y -= 16
        c.setFont("Times-Roman", 10)
        for ln in _wrap(BODY, 95)[:3]:
            c.drawString(72, y, ln)
            y -= 12
    return read_references(path, c)


def test_an_author_year_list_under_an_unknown_heading_before_many_headed_parts_is_found(tmp_path):
    refs = _paper(tmp_path / "irodalom.pdf", "Irodalom", numbered=False)
    assert len(refs) == 10
    assert [r.year for r in refs] == [1990 + k for k in range(10)]
    assert refs[-1].text.endswith("10-20.")  # the back matter's prose is none of the list


def test_a_numbered_list_under_an_unknown_heading_before_many_headed_parts_is_found(tmp_path):
    refs = _paper(tmp_path / "bibliografie.pdf", "Bibliografie", numbered=True)
    assert len(refs) == 10 and refs[-1].text.endswith("(1999).")
