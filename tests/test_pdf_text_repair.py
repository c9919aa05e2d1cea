"""Glyphs, front matter and reference lists on generated PDFs: ligatures a font maps to no letter,
an article-type label over the title, a cover sheet, a year on a journal line, a list headed in
another language, a DOI on a line of its own, statements printed after the list."""

from __future__ import annotations

import re

from reportlab.lib.pagesizes import letter
from reportlab.pdfgen import canvas

from papershelf.ingest.pdf import read_pdf
from papershelf.ingest.pdf.front.meta import _dated_year
from papershelf.units import build_units

from .pdf_fixtures import BODY, _wrap, read_drawn

W, H = letter


def _bare_font_pdf(lines: list[str]) -> bytes:
    """A one-page PDF set in Times-Roman (not embedded) whose codes 1 and 2 are glyphs with names no
    table knows (no ToUnicode either), as wide as a two- and a three-letter ligature: pdfium gives
    code 1 as a control character and leaves code 2 out of the page text."""
    return _bare_font_page("BT /F1 11 Tf 14 TL 72 720 Td " + " ".join(f"({t}) '" for t in lines) + " ET")


def _bare_font_page(content: str) -> bytes:
    """A one-page PDF of a content stream set in `_bare_font_pdf`'s font (/F1)."""
    widths = [250] * 255
    widths[0], widths[1] = 556, 833  # codes 1 and 2 (FirstChar 1)
    objs = [
        "<< /Type /Catalog /Pages 2 0 R >>",
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> "
        "/Contents 4 0 R >>",
        f"<< /Length {len(content)} >>\nstream\n{content}\nendstream",
        "<< /Type /Font /Subtype /Type1 /BaseFont /Times-Roman /FirstChar 1 /LastChar 255 "
        f"/Widths [{' '.join(map(str, widths))}] /Encoding << /Type /Encoding /BaseEncoding /WinAnsiEncoding "
        "/Differences [1 /g1 2 /g2] >> >>",
    ]
    out, offsets = "%PDF-1.4\n", []
    for i, obj in enumerate(objs, 1):
        offsets.append(len(out.encode("latin-1")))
        out += f"{i} 0 obj\n{obj}\nendobj\n"
    xref = len(out.encode("latin-1"))
    out += f"xref\n0 {len(objs) + 1}\n0000000000 65535 f \n" + "".join(f"{o:010d} 00000 n \n" for o in offsets)
    out += f"trailer\n<< /Size {len(objs) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n"
    return out.encode("latin-1")


def test_ligatures_the_font_cannot_name_are_read_as_words():
    """`\\001gure` (a control character) and `di?cult` (a glyph pdfium leaves out of the text) are
    read as "figure", "different", "effect", "difficult"; no control character reaches a unit."""
    lines = ["The \\001gure shows a di\\001erent e\\001ect and a di\\002cult case in the wound.",
             *_wrap(BODY, 80)]
    doc = read_pdf(_bare_font_pdf(lines))
    text = " ".join(b.text for b in doc.blocks)
    for word in ("figure", "different", "effect", "difficult"):
        assert re.search(rf"\b{word}\b", text), (word, text[:120])
    units = build_units(doc, "p")
    assert not any(re.search("[\x00-\x08\x0e-\x1f\ue000-\uf8ff]", u.text) for u in units)


def _authors_body_read(c: canvas.Canvas, path, y: float, authors: str):
    """An author line at `y`, body text under it; the page saved and read."""
    c.setFont("Times-Roman", 11)
    c.drawString(72, y, authors)
    c.setFont("Times-Roman", 10)
    for i, ln in enumerate(_wrap(" ".join([BODY] * 5), 95)):
        c.drawString(72, y - 40 - 12 * i, ln)
    return read_drawn(path, c)


def test_a_label_above_the_title_is_not_the_title(tmp_path):
    """An article-type label set larger than the title ("Research Article") sits above it: the
    title is the longer text under it, and the label is no author."""
    c = canvas.Canvas(str(tmp_path / "label.pdf"), pagesize=letter)
    c.setFont("Helvetica-Bold", 24)
    c.drawString(72, H - 72, "Research Article")
    c.setFont("Helvetica-Bold", 16)
    c.drawString(72, H - 110, "Macrophage switching stalls in diabetic wounds")
    c.drawString(72, H - 130, "through sustained cytokine signalling")
    doc = _authors_body_read(c, tmp_path / "label.pdf", H - 160, "Ada Okafor, Kai Schmidt and Liang J. Chen")
    assert doc.title == "Macrophage switching stalls in diabetic wounds through sustained cytokine signalling"
    assert doc.authors == ["Ada Okafor", "Kai Schmidt", "Liang J. Chen"]


def test_a_sheet_before_the_paper_gives_no_front_matter(tmp_path):
    """A download's cover sheet names the first author "et al." and the title; the paper's own
    first page (page 2) sets the title large: the authors are page 2's."""
    c = canvas.Canvas(str(tmp_path / "cover.pdf"), pagesize=letter)
    c.setFont("Times-Roman", 12)
    for i, ln in enumerate(["Journal of Example Studies 12, 345 (2009);", "Ada Okafor, et al.",
                            "Macrophage Switching Stalls in Diabetic Wounds",
                            "This copy is for your personal, non-commercial use only."]):
        c.drawString(72, H - 72 - 16 * i, ln)
    c.showPage()
    c.setFont("Times-Bold", 20)
    c.drawString(72, H - 80, "Macrophage Switching Stalls in Diabetic Wounds")
    doc = _authors_body_read(c, tmp_path / "cover.pdf", H - 110, "Ada Okafor, Kai Schmidt, Liang J. Chen")
    assert doc.title == "Macrophage Switching Stalls in Diabetic Wounds"
    assert doc.authors == ["Ada Okafor", "Kai Schmidt", "Liang J. Chen"]


def test_a_dated_line_gives_the_year_and_a_download_stamp_does_not():
    assert _dated_year(["American Journal of Botany 87(4): 690–699. 2000.", "Title", "Body text"]) == 2000
    assert _dated_year(["Received 27 December 2010; accepted 3 February 2011; published online 24 February 2011"]) \
        == 2011
    assert _dated_year(["Cladistics 23 (2007) 229–254"]) == 2007
    assert _dated_year(["on March 17, 2012 www.example.org Downloaded from"]) is None
    assert _dated_year(["Barzilay & McKeown (2001), for example, reject the"]) is None
    assert _dated_year(["June 7, 2004"]) is None  # a draft's date alone on its line


def test_a_history_that_stops_before_publication_gives_no_year():
    """Received and accepted dates bound the paper's year from below: accepted in December, it may be
    published in January.  They date the paper only on a line that says it was published."""
    assert _dated_year(["Received: 2 March 2009; Accepted: 14 December 2009"]) is None
    assert _dated_year(["Submitted 16 December 2013; final version accepted 23 June 2014"]) is None
    assert _dated_year(["Received 2 March 2009; accepted 14 December 2009; published online 4 January 2010"]) \
        == 2010
    assert _dated_year(["Accepted 14 September 2006", "Cladistics 23 (2007) 229–254"]) == 2007


def _references_pdf(path, heading: str, entries: list[str], after: list[str]) -> bytes:
    c = canvas.Canvas(str(path), pagesize=letter)
    c.setFont("Times-Bold", 18)
    c.drawString(72, H - 72, "Macrophage Switching Stalls in Diabetic Wounds")
    c.setFont("Times-Roman", 10)
    y = H - 110
    for ln in _wrap(" ".join([BODY] * 4), 95):
        c.drawString(72, y, ln)
        y -= 12
    c.setFont("Times-Bold", 10)
    c.drawString(72, y - 14, heading)
    c.setFont("Times-Roman", 9)
    y -= 32
    for line in entries + after:
        indent = 84 if line.startswith(("doi:", "https://")) else 72
        c.drawString(indent, y, line)
        y -= 12
    c.save()
    return path.read_bytes()


_ENTRIES = ["1. Okafor A, Schmidt K. Macrophage states in healing wounds. J Wound Res. 2019;12:33-41.",
            "doi:10.1000/jwr.2019.033",
            "2. Chen LJ. Cytokine signalling in chronic inflammation. Immunol Rev. 2020;8:101-9.",
            "3. Ferreira T, Eriksson S. Repair phenotypes of tissue macrophages. Cell Rep. 2021;4:1-12.",
            "https://doi.org/10.1000/cr.2021.001"]


def test_a_list_headed_in_portuguese_ends_before_its_statements(tmp_path):
    doc = read_pdf(_references_pdf(tmp_path / "pt.pdf", "Referências", _ENTRIES,
                                   ["Conflict of Interest Statement: the authors declare none.",
                                    "Received: 3 March 2022; Accepted: 9 May 2022", "© 2022 The Authors."]))
    assert [r.n for r in doc.references] == [1, 2, 3]
    assert doc.references[0].doi == "10.1000/jwr.2019.033"
    assert doc.references[2].doi == "10.1000/cr.2021.001"
    assert not any("Conflict" in r.text or "Received" in r.text for r in doc.references)


def test_a_doi_on_its_own_line_continues_an_unnumbered_entry(tmp_path):
    entries = [e.split(". ", 1)[1] if e[0].isdigit() else e for e in _ENTRIES]
    doc = read_pdf(_references_pdf(tmp_path / "flush.pdf", "References", entries, []))
    assert len(doc.references) == 3
    assert [r.doi for r in doc.references] == ["10.1000/jwr.2019.033", None, "10.1000/cr.2021.001"]


def test_a_glyph_the_font_cannot_name_is_read_as_the_word_the_document_prints_intact():
    """`s\\001pectrum` and `\\001ord` read as the words the same document prints intact elsewhere
    ("spectrum": the glyph a stray mark; "fiord": the one ligature whose word the paper prints),
    not as the ligature its letter statistics alone would favour."""
    lines = ["The s\\001pectrum of the \\001ord was measured again.",
             "A spectrum of the water in the fiord was flat.", *_wrap(BODY, 80)]
    text = " ".join(b.text for b in read_pdf(_bare_font_pdf(lines)).blocks)
    assert "The spectrum of the fiord was measured" in text, text[:120]


def test_a_standard_encoded_fonts_ligatures_and_accents_read_as_latin1_are_repaired(tmp_path):
    """An old PostScript font read as Latin-1: its fi ligature comes out as ® inside a word
    ("speci®c"), its acute as a Â struck over the letter before it ("MartõÂnez", õ its dotless
    i).  They read "specific" and "Martínez"; a real ® after a word and a real Â stay."""
    path = tmp_path / "std.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    for k in range(8):
        t = c.beginText(72, 700 - 14 * k)
        t.setFont("Times-Roman", 11)
        # the Â struck back over the õ (500 of 1000 units back), as the font's accent is set
        t._code.append("[(Fernando Mart\\365) 500 (\\302) 222 (nez found a speci)] TJ")
        t.setHorizScale(70)
        t.textOut("\u00ae")
        t.setHorizScale(100)
        t.textOut("c binding in \u00c2ngstr\u00f6m units, Brand\u00ae tested in the specific assay.")
        c.drawText(t)
    text = " ".join(b.text for b in read_drawn(path, c).blocks)
    assert "Fernando Martínez found a specific binding" in text, text[:160]
    assert "Ângström" in text and "Brand®" in text


def test_a_letter_a_broken_font_gives_as_a_control_code_is_read_once_for_the_document():
    """Every "c" of a font given as U+000D ("Spee\\rh", "Introdu\\rtion", at a word's end "generi\\r"
    and its start "\\rourses"): one letter explains all its words, so each reads as printed; the
    line's own \\r\\n is no glyph."""
    words = ["speech", "introduction", "course", "courses", "structured", "generic", "constraints", "describe",
             "recognition", "accuracy", "corpus", "lesson", "practice", "sentence", "spoken", "each"]
    text = " ".join(w.replace("c", "\\015") for w in words)
    lines = [*_wrap(f"We {text} and {text}.", 80), *_wrap(BODY, 80)]
    got = " ".join(b.text for b in read_pdf(_bare_font_pdf(lines)).blocks)
    for word in words:
        assert re.search(rf"\b{word}\b", got), (word, got[:200])


def test_a_bylines_letters_a_broken_font_gives_as_codes_are_read_though_pdfium_misreads_its_size():
    """A byline set at 100 pt scaled down to 11 pt by the text matrix (pdfium reports the 100 pt:
    every glyph looked a thin stray mark then) in a font that gives its "c" as U+000D, twice in a row
    in "Ricci" and "Lucca": the names come out whole, as the body's words do."""
    words = "speech introduction course courses structured generic constraints describe recognition accuracy"
    body = _wrap(f"We {words} and {words}. " + BODY, 90)
    rows = [(18, 700, "Structured Practice for Spoken Courses", False),
            (11, 670, "Francesca Ricci and Marco Bianchi", True),
            (10, 652, "Department of Computer Science, University of Lucca", True), (12, 620, "Abstract", False),
            *((10, 600 - 12 * k, ln, False) for k, ln in enumerate(body))]
    content = "BT " + " ".join(
        f"/F1 {size * 10 if scaled else size} Tf {0.1 if scaled else 1} 0 0 {0.1 if scaled else 1} 72 {y} Tm "
        f"({text.replace('c', chr(92) + '015')}) Tj" for size, y, text, scaled in rows) + " ET"
    doc = read_pdf(_bare_font_page(content))
    assert doc.title == "Structured Practice for Spoken Courses"
    assert doc.authors == ["Francesca Ricci", "Marco Bianchi"]
    text = " ".join(b.text for b in doc.blocks)
    assert "University of Lucca" in text and "speech introduction course" in text, text[:200]
