"""Front matter (issue #38, front17): a title's head set in capitals over its subtitle, with no
document info to fall back on, is read whole ("DEEP LEARNING A survey of …"), not as its subtitle
alone; a label set smaller, a label of an article type's words, a label set apart by more than a
line's room, and a single word in capitals over the title stay labels.  A code in a title whose font
maps its glyphs to other characters ("X3" for "2Q") is spelled as the document info and the page's
text spell it.  PDFs are made here with reportlab and read as `add` reads a file."""

from __future__ import annotations

from reportlab.lib.pagesizes import letter
from reportlab.pdfgen import canvas

from papershelf.ingest.pdf import read_pdf
from papershelf.ingest.pdf.front.info_title import confirmed_title, printed_info

from .pdf_fixtures import BODY, _wrap, read_drawn

W, H = letter


def _title(path, head: str, sub: str, head_size: float, sub_size: float, room: float = 0.0,
           sub_bold: bool = True, centred: bool = True) -> str | None:
    """Page 1 with `head` over `sub` (its baseline 1.25 of `sub_size` under the head's, plus `room`),
    a byline, an affiliation and an abstract under them."""
    c = canvas.Canvas(str(path), pagesize=letter)

    def put(text: str, font: str, size: float, y: float) -> None:
        c.setFont(font, size)
        c.drawString(W / 2 - c.stringWidth(text, font, size) / 2 if centred else 72, y, text)

    y = H - 90
    put(head, "Helvetica-Bold", head_size, y)
    y -= 1.25 * sub_size + room
    put(sub, "Helvetica-Bold" if sub_bold else "Helvetica", sub_size, y)
    put("Ana Ruiz, Jane Doe and Lin Zhou", "Times-Roman", 11, y - 28)
    put("Department of Physics, University of Bergen, Norway", "Times-Italic", 9, y - 42)
    c.setFont("Times-Bold", 10)
    c.drawString(72, y - 75, "Abstract")
    c.setFont("Times-Roman", 10)
    for k, text in enumerate(_wrap(" ".join([BODY] * 6), 95)[:30]):
        c.drawString(72, y - 90 - 12 * k, text)
    return read_drawn(path, c).title


def test_a_head_in_capitals_over_its_subtitle_is_part_of_the_title(tmp_path):
    sub = "A survey of methods for sequence data"
    assert _title(tmp_path / "a.pdf", "DEEP LEARNING", sub, 22, 16) == f"DEEP LEARNING {sub}"
    sub = "Lessons from a century of clinical use"  # a roman subtitle, set smaller, flush left
    assert _title(tmp_path / "b.pdf", "PHAGE THERAPY", sub, 18, 14, sub_bold=False, centred=False) \
        == f"PHAGE THERAPY {sub}"
    sub = "How tillage changes what the ground can store"  # as large as the head, set off by its weight
    assert _title(tmp_path / "c.pdf", "SOIL CARBON", sub, 18, 18, sub_bold=False) == f"SOIL CARBON {sub}"


def test_labels_over_a_title_stay_labels(tmp_path):
    title = "Sleep duration and blood pressure in older adults"
    assert _title(tmp_path / "small.pdf", "PUBLIC HEALTH", title, 10, 18) == title  # set smaller than the title
    assert _title(tmp_path / "type.pdf", "RESEARCH ARTICLE", title, 20, 16) == title  # an article type's words
    assert _title(tmp_path / "apart.pdf", "PUBLIC HEALTH", title, 22, 18, room=30) == title  # set apart
    assert _title(tmp_path / "word.pdf", "NEUROSCIENCE", title, 22, 18) == title  # a single word
    # a head in capitals over a title in capitals: no subtitle in small letters, nothing joined
    assert _title(tmp_path / "caps.pdf", "PUBLIC HEALTH", title.upper(), 22, 18) == title.upper()


def test_the_info_title_respells_a_code_the_title_font_maps_to_other_characters():
    info = "2Q: A Low Overhead High Performance Buffer Management Replacement Algorithm"
    read = "X3: A Low Overhead High Performance Buffer Management Replacement Algorithm"
    page = f"{read} Theodore Johnson Abstract Our Two Queue algorithm (hereafter 2Q) has constant time overhead"
    assert confirmed_title(read, info, page) == info
    assert confirmed_title(read, info, page.replace("hereafter 2Q", "hereafter X3")) == read  # the page reads X3 twice
    assert confirmed_title(read, info, page.replace("hereafter 2Q", "hereafter")) == read  # the page never prints 2Q
    # words of letters alone one word apart: the info may be a draft's title, the page's is kept
    assert confirmed_title("Deep Nets for Vision", "Fast Nets for Vision", "Deep Nets for Vision. Fast nets") \
        == "Deep Nets for Vision"


def _marked_title(path, rows: list[list[tuple[str, bool]]]) -> str | None:
    """Page 1 whose centred bold title is `rows` of pieces, each (text, raised): a raised piece is set
    at 0.6 of the size, 0.4 of it up."""
    c = canvas.Canvas(str(path), pagesize=letter)
    y = H - 90
    for pieces in rows:
        x = W / 2 - sum(c.stringWidth(t, "Helvetica-Bold", 10.8 if up else 18) for t, up in pieces) / 2
        for text, up in pieces:
            c.setFont("Helvetica-Bold", 10.8 if up else 18)
            c.drawString(x, y + (7.2 if up else 0), text)
            x += c.stringWidth(text, "Helvetica-Bold", 10.8 if up else 18)
        y -= 21.6
    c.setFont("Times-Roman", 11)
    c.drawCentredString(W / 2, y - 10, "Ana Ruiz, Jane Doe and Lin Zhou")
    c.setFont("Times-Roman", 10)
    for k, text in enumerate(_wrap(" ".join([BODY] * 6), 95)[:30]):
        c.drawString(72, y - 50 - 12 * k, text)
    return read_drawn(path, c).title


def test_a_note_mark_ending_a_line_of_the_title_is_no_part_of_it(tmp_path):
    whole = "Glacial refugia of limber pine inferred from the structure of mitochondrial DNA"
    rows = [[("Glacial refugia of limber pine inferred from", False), ("a", True)],
            [("the structure of mitochondrial DNA", False)]]
    assert _marked_title(tmp_path / "letter.pdf", rows) == whole
    rows = [[("Glacial refugia of limber pine inferred from", False), ("1,2", True)],
            [("the structure of mitochondrial DNA", False)]]
    assert _marked_title(tmp_path / "digits.pdf", rows) == whole
    # a raised number opening a word is no note's mark: an isotope's mass stays
    rows = [[("The decay of ", False), ("14", True), ("C in buried soils of the", False)], [("northern plains", False)]]
    assert _marked_title(tmp_path / "isotope.pdf", rows) == "The decay of ^14C in buried soils of the northern plains"


def _covered(path, sheet: list[str]) -> tuple[str | None, list[str]]:
    """A repository's sheet (its title, one author with an employer, `sheet`'s lines) before the paper's
    own first page, whose title is set only 1.2 of its body's size: page 2 alone does not show it as a title
    page, the sheet names itself."""
    title = "Seasonal currents of a shallow bay and their effect on larval drift"
    c = canvas.Canvas(str(path), pagesize=letter)
    c.setFont("Helvetica-Bold", 14)
    c.drawString(72, 700, title)
    c.setFont("Helvetica", 10)
    c.drawString(72, 680, "Ana Ruiz, University of Somewhere")
    for k, text in enumerate(sheet):
        c.drawString(72, 600 - 12 * k, text)
    c.showPage()
    c.setFont("Times-Bold", 13)
    c.drawCentredString(W / 2, 720, title)
    c.setFont("Times-Roman", 11)
    c.drawCentredString(W / 2, 700, "Ana Ruiz and Jane Doe")
    for k, text in enumerate(_wrap(" ".join([BODY] * 8), 90)[:40]):
        c.drawString(72, 660 - 13 * k, text)
    doc = read_drawn(path, c)
    return doc.title, doc.authors


def test_a_repository_sheet_that_names_itself_is_no_first_page(tmp_path):
    paper = ("Seasonal currents of a shallow bay and their effect on larval drift", ["Ana Ruiz", "Jane Doe"])
    hal = ["HAL Id: hal-01234567", "HAL is a multi-disciplinary open access archive for the deposit and",
           "dissemination of scientific research documents, whether they are published or not."]
    assert _covered(tmp_path / "hal.pdf", hal) == paper
    commons = ["Follow this and additional works at: https://commons.example.edu/papers",
               "This Article is brought to you for free and open access by the Faculty at Commons."]
    assert _covered(tmp_path / "commons.pdf", commons) == paper
    # a sheet that names nothing is read as the first page it is (its byline: one name and an employer)
    assert _covered(tmp_path / "plain.pdf", ["Follow this and additional works at our portal."])[1] == ["Ana Ruiz"]


def test_a_title_whose_last_line_is_a_short_word_keeps_it_and_its_subtitle(tmp_path):
    c = canvas.Canvas(str(tmp_path / "short.pdf"), pagesize=letter)
    for text, font, size, y in [("IN RANDOMIZED TRIALS OF OLDER ADULTS WITH", "Times-Bold", 20, H - 80),
                                ("DNA", "Times-Bold", 20, H - 104), ("What the cohorts tell us about ageing",
                                                                    "Times-Bold", 13, H - 128)]:
        c.setFont(font, size)
        c.drawCentredString(W / 2, y, text)
    c.setFont("Times-Roman", 11)
    c.drawCentredString(W / 2, H - 155, "Ana Ruiz and Jane Doe")
    c.setFont("Times-Roman", 10)
    for k, text in enumerate(_wrap(" ".join([BODY] * 6), 95)[:30]):
        c.drawString(72, H - 200 - 12 * k, text)
    c.showPage()
    c.save()
    assert read_pdf((tmp_path / "short.pdf").read_bytes()).title == \
        "IN RANDOMIZED TRIALS OF OLDER ADULTS WITH DNA What the cohorts tell us about ageing"


def test_an_info_title_page_1_does_not_print_is_no_title_where_the_page_gave_none():
    page = " ".join(["Seasonal currents of a shallow bay and their effect on larval drift.", BODY * 3])
    assert printed_info("Seasonal Currents of a Shallow Bay", page) == "Seasonal Currents of a Shallow Bay"
    assert printed_info("Automated Statistics Collection in DB2 Stinger", page) is None  # another paper's
    assert printed_info("Paper Title Here (use Title Case)", page) is None  # a template's
    assert printed_info("Automated Statistics Collection in DB2 Stinger", "1 2") == \
        "Automated Statistics Collection in DB2 Stinger"  # a scan without text: nothing to tell it by
