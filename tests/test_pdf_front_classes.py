"""Front-matter classes of issue #38 that unseen publishers set and the reader misread: a title centred
in a column right of a sidebar high on the page, names beside a logo's words, a sidebar of fields
without colons begun above the byline, an institute named after a person in a one-style byline, a
three-word title over a byline set large, a label in the title's own style, a typesetter's slug in
0.5 pt glued to a title and a note's star set apart after it.  PDFs are made here with reportlab."""

from __future__ import annotations

from reportlab.lib.pagesizes import letter
from reportlab.pdfgen import canvas

from .pdf_fixtures import BODY, _wrap, read_drawn

W, H = letter
NAMES = ["Anna Berg", "Carl Dahl", "Eva Fors"]
BYLINE = "Anna Berg, Carl Dahl and Eva Fors"


def _body(c: canvas.Canvas, left: float, y: float, width: int = 80) -> None:
    c.setFont("Helvetica-Bold", 11)
    c.drawString(left, y, "Abstract")
    c.setFont("Times-Roman", 10)
    for k, text in enumerate(_wrap(" ".join([BODY] * 8), width)[:30]):
        c.drawString(left, y - 16 - 12 * k, text)



def _side(c: canvas.Canvas, x: float, top: float, lines: list[str], size: float = 7) -> None:
    c.setFont("Helvetica", size)
    for k, text in enumerate(lines):
        c.drawString(x, top - 1.3 * size * k, text)


def test_a_title_centred_right_of_a_sidebar_high_on_the_page_is_no_corner_header(tmp_path):
    """A short title centred over the column right of a sidebar, in the top margin and starting right
    of the page's middle, heads the byline centred under it: it is the title."""
    c = canvas.Canvas(str(tmp_path / "corner.pdf"), pagesize=letter)
    _side(c, 60, H - 45, ["Vol. 12, No. 3 (2021)", "pp. 211-224", "ISSN 1234-5678", "", "OPEN ACCESS"])
    middle = (230 + W - 60) / 2
    c.setFont("Helvetica-Bold", 16)
    c.drawCentredString(middle, H - 50, "Rounds at Dawn")
    c.setFont("Helvetica", 11)
    c.drawCentredString(middle, H - 72, BYLINE)
    _body(c, 230, H - 110, 60)
    doc = read_drawn(tmp_path / "corner.pdf", c)
    assert (doc.title, doc.authors) == ("Rounds at Dawn", NAMES)


def test_a_running_header_in_the_top_right_corner_is_still_no_title(tmp_path):
    """A journal's header of two lines set large in the top right corner, over nothing smaller
    centred under it, stays a corner header: the title is the one further down."""
    c = canvas.Canvas(str(tmp_path / "header.pdf"), pagesize=letter)
    c.setFont("Helvetica", 19)
    c.drawString(W - 230, H - 40, "Annals of Rounds")
    c.drawString(W - 230, H - 62, "Tokyo, Japan")
    c.setFont("Helvetica-Bold", 18)
    c.drawString(72, H - 120, "A Trial of Ward Rounds at Dawn and Dusk")
    c.setFont("Helvetica", 11)
    c.drawString(72, H - 142, BYLINE)
    _body(c, 72, H - 180)
    doc = read_drawn(tmp_path / "header.pdf", c)
    assert (doc.title, doc.authors) == ("A Trial of Ward Rounds at Dawn and Dusk", NAMES)


def test_names_beside_a_logos_words_in_their_size_are_all_read(tmp_path):
    """A logo's words ("Health Research", bold, the names' size) in a column left of the title and
    byline, on the byline's first row: the row is no row of affiliations, and the names are all read."""
    c = canvas.Canvas(str(tmp_path / "logo.pdf"), pagesize=letter)
    c.setFont("Helvetica-Bold", 11)
    c.drawString(80, H - 100, "Annals of Rural")
    c.drawString(80, H - 114, "Health Research")
    c.setFont("Helvetica", 18)
    c.drawString(240, H - 92, "Cell Rounds after Dawn")
    c.setFont("Helvetica", 11)
    c.drawString(240, H - 114, "Anna Berg, Carl Dahl,")
    c.drawString(240, H - 128, "Eva Fors and Gus Holm")
    _body(c, 240, H - 170, 60)
    doc = read_drawn(tmp_path / "logo.pdf", c)
    assert (doc.title, doc.authors) == ("Cell Rounds after Dawn", [*NAMES, "Gus Holm"])


def test_a_right_sidebar_begun_above_the_byline_gives_no_author(tmp_path):
    """Fields without colons ("Edited by" over a name) in a column right of the byline that starts
    above it, its last lines on the affiliations' rows in their size: no name of it is an author."""
    c = canvas.Canvas(str(tmp_path / "right.pdf"), pagesize=letter)
    c.setFont("Helvetica-Bold", 18)
    c.drawString(72, H - 80, "Levels of Care in Rural Wards")
    _side(c, 440, H - 92, ["Edited by", "Maria Ek", "University of Oslo", "", "Reviewed by", "Rui Pihl",
                           "Lund University"], 8.5)
    c.setFont("Helvetica", 11)
    c.drawString(72, H - 112, BYLINE)
    c.setFont("Helvetica", 8)
    for k, aff in enumerate(("1 Department of Physics, University of Bergen", "2 Institute of Health, Oslo")):
        c.drawString(72, H - 140 - 11 * k, aff)
    _body(c, 72, H - 200, 60)
    doc = read_drawn(tmp_path / "right.pdf", c)
    assert doc.authors == NAMES


def test_an_institute_named_after_a_person_or_a_place_in_a_one_style_byline_is_no_author(tmp_path):
    """Names each over their affiliation, all in one style: "Max Planck Institute for Biology" is an
    affiliation, not the author "Max Planck" followed by an institution; "Santa Cruz, California" over
    the next name is a place, not a name and the start of one broken off ("California Carl Dahl")."""
    for name, place in (("planck.pdf", ("Max Planck Institute for Biology", "Tübingen, Germany")),
                        ("place.pdf", ("University of California", "Santa Cruz, California"))):
        c = canvas.Canvas(str(tmp_path / name), pagesize=letter)
        c.setFont("Helvetica-Bold", 18)
        c.drawString(72, H - 80, "Levels of Care in Rural Wards")
        c.setFont("Helvetica", 11)
        y = H - 110
        for text in ("Anna Berg", *place, "Carl Dahl", "University of Lund, Sweden"):
            c.drawString(72, y, text)
            y -= 14
        _body(c, 72, y - 20)
        assert read_drawn(tmp_path / name, c).authors == ["Anna Berg", "Carl Dahl"], name


def test_a_three_word_title_over_a_byline_set_large_is_the_title(tmp_path):
    """A title of three words (a "label" by its length) over a byline of names alone set above the body:
    the names are no title, the three words are."""
    c = canvas.Canvas(str(tmp_path / "three.pdf"), pagesize=letter)
    c.setFont("Helvetica", 24)
    c.drawString(72, H - 80, "Arteritis in Adults")
    c.setFont("Helvetica", 12)
    c.drawString(72, H - 108, BYLINE)
    _body(c, 72, H - 150)
    doc = read_drawn(tmp_path / "three.pdf", c)
    assert (doc.title, doc.authors) == ("Arteritis in Adults", NAMES)


def test_a_label_in_the_titles_style_set_off_by_more_than_its_leading_is_no_part_of_it(tmp_path):
    """"Technical Advance" (words of no article-type list) in the title's size and weight, with more room
    under it than the title's own lines have between them: a label, not the title's first line."""
    c = canvas.Canvas(str(tmp_path / "label.pdf"), pagesize=letter)
    c.setFont("Helvetica-Bold", 18)
    c.drawString(72, H - 70, "Technical Advance")
    for k, text in enumerate(("Ward Rounds at Dawn and Dusk in Small", "Rural Hospitals")):
        c.drawString(72, H - 104 - 21.6 * k, text)
    c.setFont("Helvetica", 11)
    c.drawString(72, H - 150, BYLINE)
    _body(c, 72, H - 190)
    doc = read_drawn(tmp_path / "label.pdf", c)
    assert doc.title == "Ward Rounds at Dawn and Dusk in Small Rural Hospitals"
    assert doc.authors == NAMES


def test_a_slug_in_half_a_point_and_a_notes_star_set_apart_are_no_part_of_the_title(tmp_path):
    c = canvas.Canvas(str(tmp_path / "slug.pdf"), pagesize=letter)
    c.setFont("Helvetica-Bold", 18)
    c.drawString(72, H - 80, "Ward Rounds at Dawn in Queensland")
    c.setFont("Helvetica-Bold", 0.5)
    c.drawString(72 + c.stringWidth("Ward Rounds at Dawn in Queensland", "Helvetica-Bold", 18), H - 80,
                 "aen_759 221..233")
    c.setFont("Helvetica", 11)
    c.drawString(72, H - 104, BYLINE)
    _body(c, 72, H - 140)
    assert read_drawn(tmp_path / "slug.pdf", c).title == "Ward Rounds at Dawn in Queensland"
    c = canvas.Canvas(str(tmp_path / "star.pdf"), pagesize=letter)
    c.setFont("Helvetica-Bold", 18)
    c.drawString(72, H - 80, "A Low Overhead Buffer Algorithm *")
    c.setFont("Helvetica", 11)
    c.drawString(72, H - 104, BYLINE)
    _body(c, 72, H - 140)
    assert read_drawn(tmp_path / "star.pdf", c).title == "A Low Overhead Buffer Algorithm"


def test_degrees_after_names_without_a_comma_and_a_badge_on_the_names_row_leave_the_names(tmp_path):
    """"Anna Berg MD, Carl Dahl PhD, and Eva Fors MSc": the degrees are no part of the names; an "OPEN
    ACCESS" badge in the names' size at the end of their row does not make it a row of affiliations."""
    c = canvas.Canvas(str(tmp_path / "degrees.pdf"), pagesize=letter)
    c.setFont("Times-Bold", 16)
    c.drawString(72, H - 80, "Ward Rounds at Dawn and Dusk")
    c.setFont("Times-Roman", 11)
    c.drawString(72, H - 100, "Anna Berg MD, Carl Dahl PhD, and Eva Fors MSc")
    c.setFont("Times-Bold", 11)
    c.drawString(460, H - 100, "OPEN ACCESS")
    _body(c, 72, H - 140)
    assert read_drawn(tmp_path / "degrees.pdf", c).authors == NAMES


def test_a_sidebars_heading_on_the_names_row_does_not_end_the_byline(tmp_path):
    """"ARTICLE INFO", a right sidebar's heading, on the byline's first row beside the names: the block
    ends at a heading under the title, not at one beside it."""
    c = canvas.Canvas(str(tmp_path / "info.pdf"), pagesize=letter)
    c.setFont("Helvetica-Bold", 16)
    c.drawString(72, H - 80, "Ward Rounds at Dawn and Dusk")
    c.setFont("Helvetica", 12)
    c.drawString(72, H - 104, "Anna Berg, Carl Dahl")
    c.drawString(72, H - 120, "and Eva Fors")
    _side(c, 440, H - 104, ["ARTICLE INFO", "", "Edited by", "Maria Ek", "University of Oslo"], 8.5)
    _body(c, 72, H - 170, 60)
    assert read_drawn(tmp_path / "info.pdf", c).authors == NAMES


def test_names_with_their_mail_in_parentheses_or_set_surname_first_in_capitals_are_read_given_name_first(tmp_path):
    """"Anna Berg (anna@lu.se), Carl Dahl (carl@uio.no)" is a byline, not an e-mail line; "BERG Anna,
    DAHL Carl, FORS Eva C." names given first; "Carl Dahl III" keeps its numeral."""
    bylines = {"mail.pdf": ("Anna Berg (anna@lu.se), Carl Dahl (carl@uio.no)", ["Anna Berg", "Carl Dahl"]),
               "caps.pdf": ("BERG Anna, DAHL Carl and FORS Eva C.", ["Anna Berg", "Carl Dahl", "Eva C. Fors"]),
               "third.pdf": ("Anna Berg and Carl Dahl III", ["Anna Berg", "Carl Dahl III"])}
    for name, (byline, authors) in bylines.items():
        c = canvas.Canvas(str(tmp_path / name), pagesize=letter)
        c.setFont("Helvetica-Bold", 16)
        c.drawString(72, H - 80, "Ward Rounds at Dawn and Dusk")
        c.setFont("Times-Roman", 11)
        c.drawString(72, H - 100, byline)
        _body(c, 72, H - 140)
        assert read_drawn(tmp_path / name, c).authors == authors, name
