"""The author block of page 1 as publishers' classes set it: names side by side, each over its own
affiliation and e-mail lines (IEEE, ACM, Interspeech), two rows of such cells, names carrying
footnote marks, a title and an author line set in one size, and a cover sheet's labelled venue
line.  The authors are the names in the block's name font; affiliations, places, e-mail
addresses and venues never are.  PDFs are made here with reportlab."""

from __future__ import annotations

from reportlab.lib.pagesizes import letter
from reportlab.pdfgen import canvas

from .pdf_fixtures import BODY, _wrap, read_drawn

W, H = letter


def _two_columns(c: canvas.Canvas, y: float, lines: int = 30) -> None:
    """Body text in two columns from `y` down, opened by a run-in abstract as IEEE sets it."""
    c.setFont("Times-Bold", 9)
    c.drawString(54, y, "Abstract—")
    text = _wrap(" ".join([BODY] * 6), 58)
    c.setFont("Times-Roman", 10)
    for i, ln in enumerate(text[:lines]):
        c.drawString(54 if i < lines // 2 else W / 2 + 12, y - 12 - 12 * (i % (lines // 2)), ln)


def _cells(c: canvas.Canvas, y: float, cells: list[tuple[str, ...]], name_font=("Times-Roman", 11),
           affil_font=("Times-Italic", 9), left: float = 54, right: float = W - 54) -> None:
    """Cells side by side across [left, right]: a name line in the name font over affiliation lines."""
    step = (right - left) / len(cells)
    for i, (name, *affil) in enumerate(cells):
        x = left + step * (i + 0.5)
        c.setFont(*name_font)
        c.drawCentredString(x, y, name)
        c.setFont(*affil_font)
        for j, ln in enumerate(affil):
            c.drawCentredString(x, y - 12 - 10 * j, ln)


def _title(c: canvas.Canvas, *lines: str, font=("Times-Roman", 22), y: float = H - 72) -> float:
    c.setFont(*font)
    for ln in lines:
        c.drawCentredString(W / 2, y, ln)
        y -= font[1] + 4
    return y


def _finish(c: canvas.Canvas, path, x: float, y: float, paragraphs: int, chars: int):
    """Set `paragraphs` copies of the body text from (x, y) down, save the page and read it."""
    for i, ln in enumerate(_wrap(" ".join([BODY] * paragraphs), chars)):
        c.drawString(x, y - 12 * i, ln)
    return read_drawn(path, c)


def test_four_names_side_by_side_each_over_its_affiliation(tmp_path):
    """IEEEtran's conference block: four cells spread wider than the short title; "Mountain View,
    CA" under a name reads like a name but is set in the affiliation font."""
    path = tmp_path / "ieee.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    y = _title(c, "Sparse Speech Codes")
    _cells(c, y - 20, [("Ana Ruiz", "Dept. of Electrical Engineering", "Stanford University", "Stanford, CA, USA",
                        "ana@stanford.edu"),
                       ("Wei Zhang", "Google Research", "Mountain View, CA", "wzhang@google.com"),
                       ("Peter O'Neil", "School of Informatics", "University of Edinburgh", "Edinburgh, UK",
                        "poneil@ed.ac.uk"),
                       ("Maria Rossi", "Speech Group", "Politecnico di Milano", "Milan, Italy", "m.rossi@polimi.it")])
    _two_columns(c, y - 100)
    doc = read_drawn(path, c)
    assert doc.title == "Sparse Speech Codes"
    assert doc.authors == ["Ana Ruiz", "Wei Zhang", "Peter O'Neil", "Maria Rossi"]


def test_two_rows_of_author_cells(tmp_path):
    """Five authors as IEEE and ACM set many: three cells over two, each name over its place."""
    path = tmp_path / "rows.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    y = _title(c, "Learning to Rank Voices")
    _cells(c, y - 20, [("Lena Brandt", "Computer Science", "ETH Zurich", "Zurich, Switzerland"),
                       ("Omar Haddad", "Electrical Engineering", "KAUST", "Thuwal, Saudi Arabia"),
                       ("Sara Lindqvist", "Speech, Music and Hearing", "KTH", "Stockholm, Sweden")],
           left=54, right=W - 54)
    _cells(c, y - 80, [("Jun Park", "Naver Clova", "Seongnam, Korea"),
                       ("Eva Novak", "Brno University of Technology", "Brno, Czechia")],
           left=150, right=W - 150)
    _two_columns(c, y - 140)
    doc = read_drawn(path, c)
    assert doc.authors == ["Lena Brandt", "Omar Haddad", "Sara Lindqvist", "Jun Park", "Eva Novak"]


def _marked(c: canvas.Canvas, x: float, y: float, pieces: list[tuple[str, str]], font: str, size: float) -> None:
    """A centred line of (name, mark) pieces, each mark raised and smaller, in Times-Roman: the
    marks of a bold name line are not bold (as a symbol font sets them)."""
    widths = [c.stringWidth(n, font, size) + c.stringWidth(m, "Times-Roman", size * 0.7) for n, m in pieces]
    x -= (sum(widths) + 8 * (len(pieces) - 1)) / 2
    for (name, mark), w in zip(pieces, widths):
        c.setFont(font, size)
        c.drawString(x, y, name)
        c.setFont("Times-Roman", size * 0.7)
        c.drawString(x + c.stringWidth(name, font, size), y + 4, mark)
        x += w + 8


def test_names_with_footnote_marks_over_two_lines(tmp_path):
    """NeurIPS' block: bold names in two centred lines, each with its affiliation marks (†, ♦ set
    in a roman font), the affiliations under them keyed by the same marks, then the e-mails."""
    path = tmp_path / "marks.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    y = _title(c, "Summaries of Civil Rights Lawsuits", font=("Times-Bold", 17))
    _marked(c, W / 2, y - 14, [("Zoe Shen", "†"), ("Kyle Lo", "†"), ("Laura Yu", "‡"), ("Nathan Dahl", "")],
            "Times-Bold", 10)
    _marked(c, W / 2, y - 26, [("Margo Schlange", "‡"), ("Doug Downey", "†,‡")], "Times-Bold", 10)
    c.setFont("Times-Roman", 7)
    c.drawCentredString(W / 2, y - 40, "†Allen Institute for AI   ‡University of Michigan")
    c.setFont("Courier", 9)
    c.drawCentredString(W / 2, y - 52, "{zoes, kylel, dougd}@allenai.org")
    c.setFont("Times-Bold", 12)
    c.drawCentredString(W / 2, y - 90, "Abstract")
    c.setFont("Times-Roman", 10)
    doc = _finish(c, path, 144, y - 110, paragraphs=3, chars=80)
    assert doc.authors == ["Zoe Shen", "Kyle Lo", "Laura Yu", "Nathan Dahl", "Margo Schlange", "Doug Downey"]


def test_authors_as_large_as_a_bold_title_are_not_part_of_it(tmp_path):
    """ICASSP's block: the title in bold capitals at 12 pt, the names under it at 12 pt in roman,
    the affiliations too (one opening like a name); the names are the authors and the title stays
    the title."""
    path = tmp_path / "icassp.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    y = _title(c, "ROBUST VOICE CONVERSION BY DISENTANGLED CODES", font=("Times-Bold", 12))
    _marked(c, W / 2, y - 14, [("Tara Huang", "*"), (", Jon Lin", "*"), (", Hong Lee", "")], "Times-Roman", 12)
    c.setFont("Times-Roman", 12)
    c.drawCentredString(W / 2, y - 40, "College of Electrical Engineering, National Taiwan University, Taiwan")
    c.drawCentredString(W / 2, y - 54, "Naver Clova, Seongnam, Korea")  # opens like a name, in the names' style
    _two_columns(c, y - 80)
    doc = read_drawn(path, c)
    assert doc.title == "ROBUST VOICE CONVERSION BY DISENTANGLED CODES"
    assert doc.authors == ["Tara Huang", "Jon Lin", "Hong Lee"]


def test_a_venue_line_on_a_cover_sheet_is_not_an_author(tmp_path):
    """An accepted manuscript's cover sheet: title, authors, then labelled fields; the venue after
    "To appear in:" reads like a name ("Speech Communication") and is none."""
    path = tmp_path / "cover.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    c.setFont("Helvetica", 15)
    c.drawString(40, H - 80, "Accepted Manuscript")
    c.setFont("Helvetica", 11)
    rows = [("", "An Overview of Voice Conversion Systems"), ("", "Seyed Mohammadi, Alex Kain"),
            ("PII:", "S0167-6393(15)30069-8"), ("DOI:", "10.1016/j.specom.2017.01.008"),
            ("To appear in:", "Speech Communication"), ("Received date:", "22 November 2015")]
    for i, (label, value) in enumerate(rows):
        c.drawString(40, H - 140 - 26 * i, label)
        c.drawString(150 if label else 40, H - 140 - 26 * i, value)
    c.setFont("Times-Roman", 10)
    doc = _finish(c, path, 40, H - 320, paragraphs=3, chars=95)
    assert doc.authors == ["Seyed Mohammadi", "Alex Kain"]


def test_society_grades_and_ordinals_are_marks_not_the_end_of_the_names():
    """IEEE journals follow a name with its grade ("Member, IEEE"), the conference template
    numbers the names ("1st"): both are set between names and end nothing."""
    from papershelf.ingest.pdf.front.authors import line_names

    assert line_names("Ana Ruiz, Member, IEEE, José Núñez-García, and Jan van der Berg, Senior Member, IEEE") \
        == ["Ana Ruiz", "José Núñez-García", "Jan van der Berg"]
    assert line_names("1st Xu Li") == ["Xu Li"]
    assert line_names("Speech Group, Politecnico di Milano") is None


def test_names_beyond_latin1_footnote_letters_and_bare_marks():
    from papershelf.ingest.pdf.front.authors import line_names

    assert line_names("Jiří Dvořák, Łukasz Kaiser and Mikołaj Bińkowski") == \
        ["Jiří Dvořák", "Łukasz Kaiser", "Mikołaj Bińkowski"]
    assert line_names("Leila Haddada) and Giulia De Luca") == ["Leila Haddad", "Giulia De Luca"]  # AIP's "a)"
    assert line_names("AMIR SHEIKH^1, ∗, MOHAMMAD A. NEMAT 1, AND ARMAN SHOKRI^2,3") == \
        ["Amir Sheikh", "Mohammad A. Nemat", "Arman Shokri"]
    # affiliation letters not raised, a role in parentheses, AIP's "b)" marks, initials run together
    assert line_names("Sir J.K. Krishnana,c,∗,1 (Researcher), Han Thaneb,d") == ["J.K. Krishnan", "Han Thane"]
    assert line_names("A. Author,^1, b) B. Author,^1, c) and C. Author^2, d)") == \
        ["A. Author", "B. Author", "C. Author"]
    assert line_names("(Muso Collaboration)") is None
    for venue in ("Speech Communication", "Pattern Recognition Letters", "Neural Information Processing Systems",
                  "Original Article", "Anonymous Author(s)"):
        assert line_names(venue) is None, venue  # venues and article types are no persons


def test_a_title_no_larger_than_the_body_over_an_author_line(tmp_path):
    """amsart's first page: the title in bold capitals at the body's size, the authors in small
    capitals under it, a draft stamp in small type above; AASTeX sets it alike."""
    path = tmp_path / "amsart.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    c.setFont("Times-Roman", 8)
    c.drawString(60, H - 50, "Draft version March 7, 2008")
    _title(c, "WEAK LENSING IN THE OUTSKIRTS OF RADIO", "TRANSIENTS", font=("Times-Bold", 10), y=H - 150)
    c.setFont("Times-Roman", 8)
    c.drawCentredString(W / 2, H - 195, "KATARZYNA T. WOJCIK, MARIA JOSE DE LA CRUZ, HELGA SORENSEN,")
    c.drawCentredString(W / 2, H - 206, "AND EUN-JI JUNG")
    c.setFont("Times-Roman", 10)
    doc = _finish(c, path, 72, H - 240, paragraphs=4, chars=90)
    assert doc.title == "WEAK LENSING IN THE OUTSKIRTS OF RADIO TRANSIENTS"
    assert doc.authors == ["Katarzyna T. Wojcik", "Maria Jose de la Cruz", "Helga Sorensen", "Eun-ji Jung"]


def test_a_name_broken_over_two_lines_and_a_name_line_with_particles(tmp_path):
    """elsarticle runs a long author list on over lines, breaking a name ("Oluwaseun H." /
    "Adeyemi"); REVTeX's single name line has particles enough ("dos", "de", "and") to look like
    prose by its lower-case words."""
    path = tmp_path / "long.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    y = _title(c, "Fast and Correct Cache Coherence", font=("Times-Roman", 17))
    c.setFont("Times-Roman", 10)
    for i, ln in enumerate(["M. L. Hartmann, Javier A. Ortega, Ngozi Okonkwo, Oluwaseun H.",
                            "Adeyemi, Elena Popescu, Chloe Girard, Arjun L. Mehta, Hye-jin N.", "Choi, Raj D. Patel",
                            "Rafael dos Santos, Francesca Bianchi, and Pieter de Vries"]):
        c.drawCentredString(W / 2, y - 14 - 13 * i, ln)
    c.setFont("Times-Italic", 8)
    c.drawCentredString(W / 2, y - 80, "Instituto de Fisica, Universidade de Sao Paulo, Brazil")
    c.setFont("Times-Bold", 10)
    c.drawString(72, y - 110, "Abstract")
    c.setFont("Times-Roman", 10)
    doc = _finish(c, path, 72, y - 126, paragraphs=3, chars=90)
    assert doc.authors == ["M. L. Hartmann", "Javier A. Ortega", "Ngozi Okonkwo", "Oluwaseun H. Adeyemi",
                           "Elena Popescu", "Chloe Girard", "Arjun L. Mehta", "Hye-jin N. Choi", "Raj D. Patel",
                           "Rafael dos Santos", "Francesca Bianchi", "Pieter de Vries"]


def test_a_row_of_affiliations_in_the_names_style_gives_no_name(tmp_path):
    """A tabular author block set in one font: the row under the names holds the institutions,
    one of which ("ETH Zurich") reads like a name; the row is one of affiliations."""
    path = tmp_path / "tabular.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    y = _title(c, "Coupled Lattice Models")
    font = ("Times-Roman", 12)
    _cells(c, y - 20, [("Kai Schmidt", "ETH Zurich", "Zurich, Switzerland", "k.schmidt@ethz.ch"),
                       ("Tiago Ferreira", "Universidade de Lisboa", "Lisboa, Portugal", "t.ferreira@ulisboa.pt"),
                       ("Sven Eriksson", "Universidade de Lisboa", "Lisboa, Portugal", "s.eriksson@ulisboa.pt")],
           name_font=font, affil_font=font, left=72, right=W - 72)
    _cells(c, y - 90, [("Liang J. Chen", "Instituto de Biofisica", "Lisboa, Portugal")],
           name_font=font, affil_font=font, left=200, right=W - 200)
    _two_columns(c, y - 150)
    doc = read_drawn(path, c)
    assert doc.authors == ["Kai Schmidt", "Tiago Ferreira", "Sven Eriksson", "Liang J. Chen"]


def test_an_abstract_without_its_heading_ends_the_block(tmp_path):
    """AIAA's page 1: the abstract is a bold paragraph set smaller than the body with no heading,
    and a nomenclature list ("J  Jacobian matrix") follows; the authors are the names above it
    (placeholders whose surname is "Author")."""
    path = tmp_path / "aiaa.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    y = _title(c, "Bare-Bones Template for Conference Papers", font=("Times-Bold", 17))
    c.setFont("Times-Roman", 12)
    c.drawCentredString(W / 2, y - 16, "First A. Author and Second B. Author")
    c.setFont("Times-Roman", 10)
    c.drawCentredString(W / 2, y - 32, "Business or Academic Affiliation, City, Province, Zipcode, Country")
    c.setFont("Times-Bold", 9)
    for i, ln in enumerate(_wrap(" ".join([BODY] * 2), 100)):
        c.drawString(96, y - 60 - 11 * i, ln)
    c.setFont("Times-Bold", 12)
    c.drawCentredString(W / 2, y - 150, "Nomenclature")
    c.setFont("Times-Roman", 10)
    for i, ln in enumerate(["J Jacobian Matrix", "F Force, N", "M Mass, kg"]):
        c.drawString(72, y - 170 - 12 * i, ln)
    doc = _finish(c, path, 72, y - 220, paragraphs=3, chars=100)
    assert doc.authors == ["First A. Author", "Second B. Author"]


def test_an_affiliation_in_another_case_than_the_capital_names_before_it():
    """ACM's journal style sets each name in capitals and its affiliation after it on the same line,
    in ordinary case: a two-word affiliation there ("Inria Paris-Rocquencourt") is not a person."""
    from papershelf.ingest.pdf.front.authors import line_names

    assert line_names("VALERIE BÉRANGER, Inria Paris-Rocquencourt, France") == ["Valerie Béranger"]
    assert line_names("NOAH FISCHER and LIANG CHEN, ETH Zürich, Switzerland") == ["Noah Fischer", "Liang Chen"]
    assert line_names("Ross G. DOUGLAS, Rajni K. SHARMA and Kelly CHIBALE") == \
        ["Ross G. Douglas", "Rajni K. Sharma", "Kelly Chibale"]  # surnames in capitals, the rest not


def _abstract_beside(c: canvas.Canvas, x: float, y: float, lines: int = 14) -> None:
    """A structured abstract in a column from `x` to the right margin, opened at `y`."""
    c.setFont("Times-Roman", 9)
    for i, ln in enumerate(_wrap("Background and objectives: " + " ".join([BODY] * 3), 72)[:lines]):
        c.drawString(x, y - 12 * i, ln)


def test_authors_in_a_column_beside_the_abstract(tmp_path):
    """Dove's and some Turkish journals' page 1: under a full-width title, the names one to a line in
    a narrow left column under the title's left edge, their affiliations under them in a smaller size,
    and the abstract opening beside the first name in the wide right column."""
    path = tmp_path / "side.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    c.setFont("Times-Roman", 22)
    c.drawString(54, H - 72, "The Impact of Rural Exposure on the Intention")
    c.drawString(54, H - 98, "to Practise in Rural Areas")
    y = H - 180
    c.setFont("Times-Roman", 11)
    for i, name in enumerate(["Ana Suphanchai¹", "Nisa Cetthakrikul¹", "Alexander McBride²"]):
        c.drawString(54, y - 14 * i, name)
    c.setFont("Times-Roman", 8)
    for i, ln in enumerate(["¹International Health Policy", "Program, Nonthaburi, Thailand;", "²School of Oriental",
                            "and African Studies, London, UK"]):
        c.drawString(54, y - 50 - 10 * i, ln)
    _abstract_beside(c, 200, y + 1)
    c.setFont("Times-Roman", 10)
    doc = _finish(c, path, 200, y - 200, paragraphs=3, chars=70)
    assert doc.authors == ["Ana Suphanchai", "Nisa Cetthakrikul", "Alexander McBride"]


def test_a_later_group_of_authors_runs_on_into_its_affiliation(tmp_path):
    """Taylor & Francis' block: the first group's names on a line of their own, its affiliation
    under them in italics; the next groups' names run on into their own affiliation on one line
    ("T. Erker and W. Jaeger ✷ Department of ...").  Every group's names are authors; an
    affiliation's continuation is not."""
    path = tmp_path / "groups.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    y = _title(c, "RESVERATROL ACTS SYNERGISTICALLY WITH ARA-C", font=("Times-Bold", 11)) - 30
    rows = [("Times-Roman", "Z. Horvath, P. Saiko, and W. Bauer *"),
            ("Times-Italic", "Clinical Institute of Medical Diagnostics, General Hospital of"),
            ("Times-Italic", "Vienna, Vienna, Austria"),
            ("Times-Roman", "T. Erker and W. Jaeger * Department of Pharmaceutical Chemistry, University of"),
            ("Times-Italic", "Vienna, Vienna, Austria"),
            ("Times-Roman", "M. Fritzer-Szekeres and T. Szekeres * Clinical Institute of Medical and"),
            ("Times-Italic", "Chemical Laboratory Diagnostics, Vienna, Austria")]
    for i, (font, text) in enumerate(rows):
        c.setFont(font, 10)
        c.drawString(72, y - 13 * i, text)
    c.setFont("Times-Italic", 9)
    doc = _finish(c, path, 90, y - 120, paragraphs=3, chars=80)
    assert doc.authors == ["Z. Horvath", "P. Saiko", "W. Bauer", "T. Erker", "W. Jaeger", "M. Fritzer-Szekeres",
                           "T. Szekeres"]


def test_an_affiliation_letter_raised_in_the_names_size_is_a_mark():
    """RSC's supplement: pdfium gives the affiliation letter after the last name as a piece of its own,
    in the names' own size (only its box says it is small and raised, as the file's own lines read:
    "c" 3.8 pt tall over a 16 pt row); it is a mark, not the end of the surname ("Wangc")."""
    from papershelf.ingest.pdf.front.authors import _joined, line_names
    from papershelf.ingest.pdf.text.lines import Line

    names = Line(1, 213.7, 212.6, 378.0, 228.8, "Ming Chen, Shuanglong Wang", 12.0, False)
    letter = Line(1, 378.5, 214.5, 381.5, 218.3, "c", 12.0, False)
    assert line_names(_joined(names, letter).text) == ["Ming Chen", "Shuanglong Wang"]
    level = Line(1, 378.5, 219.0, 384.5, 228.8, "c.", 12.0, False)  # on the baseline: the text goes on
    assert _joined(names, level).text == "Ming Chen, Shuanglong Wangc."


def test_a_manuscripts_bold_title_under_roman_notes(tmp_path):
    """A chapter manuscript: "To appear in ..." and a running-head note in roman above a bold
    title set in the body's size, each name centred over its institution."""
    path = tmp_path / "manuscript.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    c.setFont("Times-Roman", 12)
    c.drawString(72, H - 80, "To appear in W. Rouse (Ed.), Organizational simulation. New York: Wiley.")
    c.drawString(72, H - 140, "Running Head: Common Ground")
    c.setFont("Times-Bold", 12)
    c.drawCentredString(W / 2, H - 240, "Common Ground and Coordination in Joint Activity")
    c.setFont("Times-Roman", 12)
    for i, (name, place) in enumerate([("Gary Klein", "Klein Associates Inc."),
                                       ("David D. Woods", "The Ohio State University")]):
        c.drawCentredString(W / 2, H - 280 - 50 * i, name)
        c.drawCentredString(W / 2, H - 294 - 50 * i, place)
    c.showPage()
    doc = _finish(c, path, 72, H - 80, paragraphs=8, chars=90)
    assert doc.title == "Common Ground and Coordination in Joint Activity"
    assert doc.authors == ["Gary Klein", "David D. Woods"]


def test_names_with_a_second_capital_and_institutions_that_read_like_names():
    """Science's byline: "Jodi McBride", "ZaoDung Ling" are names (a capital after a prefix or a
    joined syllable); "The Ohio State University" and "African Studies" are not."""
    from papershelf.ingest.pdf.front.authors import line_names

    assert line_names("Shuang Y. Ma,^1 Jodi McBride,^1 ZaoDung Ling,^5 Didier Trono^6") == [
        "Shuang Y. Ma", "Jodi McBride", "ZaoDung Ling", "Didier Trono"]
    assert line_names("The Ohio State University") is None
    assert line_names("and African Studies, London, UK") is None


def test_a_sidebar_of_labelled_fields_beside_the_abstract_names_no_author(tmp_path):
    """A journal's front-page sidebar under the byline (Citation / Editor / Received ...), not drawn
    as a box, beside the abstract and in the names' own size: its editor, named with her institution,
    is no author; the column of names beside the abstract ends at the first labelled field."""
    path = tmp_path / "sidebar.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    c.setFont("Times-Bold", 20)
    c.drawString(54, H - 72, "Macrophage Switching Stalls in Diabetic Wounds")
    c.drawString(54, H - 96, "of Aged Mice")
    c.setFont("Times-Roman", 11)
    c.drawString(54, H - 130, "Ada Okafor¹, Ben Lee²")
    c.setFont("Times-Roman", 8)
    c.drawString(54, H - 144, "¹ Dept. of Surgery, University of Lagos")
    c.drawString(54, H - 154, "² Dept. of Biology, Lund University")
    c.setFont("Times-Roman", 11)
    for i, ln in enumerate(["Citation: Okafor A, Lee B", "(2020) Macrophage switching.", "Editor:",
                            "Maria Lopez, University of", "Lisbon, PORTUGAL", "Received: May 1, 2020"]):
        c.drawString(54, H - 170 - 13 * i, ln)
    c.setFont("Times-Bold", 12)
    c.drawString(220, H - 170, "Abstract")
    _abstract_beside(c, 220, H - 186)
    c.setFont("Times-Roman", 10)
    doc = _finish(c, path, 220, H - 380, paragraphs=3, chars=60)
    assert doc.authors == ["Ada Okafor", "Ben Lee"]


def test_a_title_in_small_capitals_is_no_author_and_names_in_capitals_keep_their_marks_apart():
    """AJB's page 1: the title's later lines in small capitals ("ENDEMIC PLANT SPECIES IN
    EXPERIMENTAL") read like names but hold function words; the byline in capitals carries its
    affiliation numbers glued on ("QUINTANA-ASCENCIO2,3"), and a compound surname keeps both capitals."""
    from papershelf.ingest.pdf.front.authors import line_names

    assert line_names("ENDEMIC PLANT SPECIES IN EXPERIMENTAL") is None
    assert line_names("NEIGHBORHOODS ALONG A FIRE GRADIENT^1") is None
    assert line_names("PEDRO F. QUINTANA-ASCENCIO2,3 AND ERIC S. MENGES3") == ["Pedro F. Quintana-Ascencio",
                                                                               "Eric S. Menges"]


def test_cells_of_names_on_the_abstracts_row_beside_it(tmp_path):
    """CHI's extended abstracts: the title across the right of the page, under it two columns of
    cells (a bold name over its lab, city and e-mail) whose first names sit on the row of the
    "Abstract" heading in the column to their right."""
    path = tmp_path / "chi.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    c.setFont("Helvetica-Bold", 24)
    c.drawString(230, H - 130, "Did You Notice? Neuronal")
    c.drawString(230, H - 156, "Processing of Phone Feedback")
    for row, pair in enumerate([("Jan-Niklas Antons", "Robert Schleicher"), ("Sebastian Arndt", "Julia Seebode")]):
        for col, name in enumerate(pair):
            x, y = 150 + 120 * col, H - 215 - 60 * row
            c.setFont("Helvetica-Bold", 8.5)
            c.drawString(x, y, name)
            c.setFont("Helvetica", 8.5)
            for k, ln in enumerate(["Quality and Usability Lab", "TU Berlin", "10587 Berlin, Germany",
                                    f"{name.split()[-1].lower()}@telekom.de"]):
                c.drawString(x, y - 11 * (k + 1), ln)
    c.setFont("Helvetica-Bold", 9.5)
    c.drawString(400, H - 215, "Abstract")
    c.setFont("Helvetica", 8.5)
    doc = _finish(c, path, 400, H - 228, paragraphs=3, chars=40)
    assert doc.authors == ["Jan-Niklas Antons", "Robert Schleicher", "Sebastian Arndt", "Julia Seebode"]


def test_a_title_set_on_in_a_smaller_size_or_in_roman_keeps_its_lines(tmp_path):
    """A title whose first line is set larger than the rest (a journal's capitals), and a bold title
    with a roman subtitle at its pitch: the title is all of it, the author line under it is not."""
    path = tmp_path / "caps.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    y = _title(c, "COMPETITIVE ABILITIES OF THREE NARROWLY", font=("Times-Bold", 15))
    y = _title(c, "ENDEMIC PLANT SPECIES IN EXPERIMENTAL", "NEIGHBORHOODS ALONG A FIRE GRADIENT",
               font=("Times-Roman", 11.5), y=y + 2)
    _title(c, "PEDRO QUINTANA AND ERIC MENGES", font=("Times-Roman", 12), y=y - 12)
    c.setFont("Times-Roman", 9)
    doc = _finish(c, path, 72, y - 50, paragraphs=4, chars=95)
    assert doc.title == ("COMPETITIVE ABILITIES OF THREE NARROWLY ENDEMIC PLANT SPECIES IN EXPERIMENTAL "
                         "NEIGHBORHOODS ALONG A FIRE GRADIENT")
    path = tmp_path / "subtitle.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    y = _title(c, "Simple Testing Can Prevent Most Failures", font=("Times-Bold", 14))
    y = _title(c, "An Analysis of Production Failures in Distributed Systems", font=("Times-Roman", 14), y=y)
    _title(c, "Ding Yuan, Yu Luo, Xin Zhuang", font=("Times-Roman", 12), y=y - 2)
    c.setFont("Times-Roman", 10)
    doc = _finish(c, path, 72, y - 40, paragraphs=4, chars=90)
    assert doc.title == ("Simple Testing Can Prevent Most Failures "
                         "An Analysis of Production Failures in Distributed Systems")
    assert doc.authors == ["Ding Yuan", "Yu Luo", "Xin Zhuang"]


def test_an_article_type_label_as_large_as_the_title_is_no_title(tmp_path):
    """ "Case Report" in bold above a roman title of the same size: the title is the title (not the
    label) and no line of it is read as an author."""
    path = tmp_path / "label.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    c.setFont("Helvetica-Bold", 16)
    c.drawString(72, H - 72, "Case Report")
    y = _title(c, "Recurrent Fever in a Young Traveller", "After a Stay in the Tropics", font=("Helvetica", 16),
               y=H - 110)
    _title(c, "Maria Lopez, John Smith", font=("Times-Roman", 11), y=y - 4)
    c.setFont("Times-Roman", 10)
    doc = _finish(c, path, 72, y - 40, paragraphs=4, chars=90)
    assert doc.title == "Recurrent Fever in a Young Traveller After a Stay in the Tropics"
    assert doc.authors == ["Maria Lopez", "John Smith"]


def test_a_tiny_name_hidden_under_the_titles_first_word_is_no_part_of_it(tmp_path):
    """A publisher's name in 2 pt set under the title's first word, in the same text line: the title
    is the 18 pt text alone (the line no longer takes the 2 pt size of its first glyph)."""
    path = tmp_path / "hidden.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    t = c.beginText(72, H - 90)
    t.setFont("Times-Bold", 2)
    t.textOut("Hidden Science Press Ltd ")
    t.moveCursor(-1.5, 0)  # back under the start of the title, as the publisher's file sets it
    t.setFont("Times-Bold", 18)
    t.setTextOrigin(73, H - 90)
    t.textOut("Glacial refugia of the limber pine inferred")
    c.drawText(t)
    _title(c, "from the structure of its mitochondrial DNA", font=("Times-Bold", 18), y=H - 110)
    _title(c, "Maria Lopez and John Smith", font=("Times-Roman", 11), y=H - 140)
    c.setFont("Times-Roman", 10)
    doc = _finish(c, path, 72, H - 180, paragraphs=4, chars=90)
    assert doc.title == "Glacial refugia of the limber pine inferred from the structure of its mitochondrial DNA"
    assert doc.authors == ["Maria Lopez", "John Smith"]
    # a small word beside the text, not under it, stays (a scaled font may report any size)
    path = tmp_path / "beside.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    for k in range(8):
        t = c.beginText(72, H - 300 - 14 * k)
        t.setFont("Courier", 4)
        t.textOut("snoc")
        t.setFont("Times-Roman", 10)
        t.textOut(" and tail fold their duties into a single pseudo-constructor here.")
        c.drawText(t)
    assert "snoc and tail fold" in " ".join(b.text for b in read_drawn(path, c).blocks)


def test_a_meetings_header_in_the_top_right_corner_is_no_title(tmp_path):
    """A meeting's name, place and dates set in the top right corner, larger than the title under
    them: the title is the centred line under them."""
    path = tmp_path / "corner.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    c.setFont("Times-Roman", 16)
    for k, ln in enumerate(["Second Language Studies Workshop", "Tokyo, Japan", "September 22-24, 2010"]):
        c.drawRightString(W - 40, H - 28 - 17 * k, ln)
    _title(c, "A Multilingual Platform for Building Language Courses", font=("Times-Bold", 14), y=H - 110)
    _title(c, "Maria Lopez and John Smith", font=("Times-Roman", 11), y=H - 135)
    c.setFont("Times-Roman", 10)
    doc = _finish(c, path, 72, H - 180, paragraphs=4, chars=90)
    assert doc.title == "A Multilingual Platform for Building Language Courses"
    assert doc.authors == ["Maria Lopez", "John Smith"]


def test_a_byline_and_affiliation_letters_set_in_the_names_size_are_no_part_of_the_names(tmp_path):
    """"By Maria Lopez, …" reads as Maria Lopez; letters tying names to their affiliations set apart
    in the names' own size ("Maria Lopez a,b, John Smith b,*") are marks, not words of the names."""
    for k, line in enumerate(["By Maria Lopez, John Smith and Wei Zhang",
                              "Maria Lopez a,b, John Smith b,*, Wei Zhang c",
                              "Maria Lopez a,b John Smith b,* Wei Zhang c and Ana Ruiz a"]):
        path = tmp_path / f"byline{k}.pdf"
        c = canvas.Canvas(str(path), pagesize=letter)
        y = _title(c, "Recurrent Fever in a Young Traveller After a Stay", font=("Times-Bold", 16), y=H - 80)
        _title(c, line, font=("Times-Roman", 11), y=y - 6)
        _title(c, "Department of Medicine, University of Oslo, Oslo, Norway", font=("Times-Italic", 9), y=y - 24)
        c.setFont("Times-Roman", 10)
        doc = _finish(c, path, 72, y - 60, paragraphs=4, chars=90)
        assert doc.authors == ["Maria Lopez", "John Smith", "Wei Zhang", "Ana Ruiz"][:3 + (k == 2)], line


def test_a_thesis_title_page_gives_its_bold_title_set_in_the_bodys_size(tmp_path):
    """A thesis's title page: a few lines all centred, the title the first bold one, set no larger
    than the body of the pages after it and with no author line right under it."""
    path = tmp_path / "thesis.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    for k, (text, bold) in enumerate([("UNIVERSITY OF CALIFORNIA,", False), ("IRVINE", False), ("", False),
                                      ("EPITAXIS", True),
                                      ("A System for Syntactic and Semantic Software Queries", True),
                                      ("using Deductive Retrieval", True), ("", False),
                                      ("A dissertation submitted in partial satisfaction", False),
                                      ("of the requirements for the degree of", False),
                                      ("Doctor of Philosophy in Computer Science", False), ("", False), ("by", False),
                                      ("", False), ("James Benvenuto", True), ("", False), ("2010", False)]):
        c.setFont("Times-Bold" if bold else "Times-Roman", 12)
        c.drawCentredString(W / 2 + 18, H - 100 - 18 * k, text)
    c.showPage()
    c.setFont("Times-Roman", 12)
    for i, ln in enumerate(_wrap(" ".join([BODY] * 8), 80)[:45]):
        c.drawString(72, H - 72 - 15 * i, ln)
    doc = read_drawn(path, c)
    assert doc.title == "EPITAXIS A System for Syntactic and Semantic Software Queries using Deductive Retrieval"


def test_a_journals_name_set_large_on_every_page_is_no_title_and_no_cover_sheet(tmp_path):
    """The journal's name set larger than the title at the head of every page: page 1 is the
    paper's (no cover sheet whose title page 2 sets again), and its title is the title."""
    path = tmp_path / "journal.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    for page in range(3):
        c.setFont("Helvetica-Bold", 20)
        c.drawString(72, H - 50, "Journal of Clinical Tropical Medicine")
        c.setFont("Times-Roman", 10)
        if page == 0:
            y = _title(c, "Recurrent Fever in a Young Traveller", "After a Long Stay in the Tropics",
                       font=("Times-Bold", 16), y=H - 110)
            _title(c, "Maria Lopez, John Smith", font=("Times-Roman", 11), y=y - 4)
            c.setFont("Times-Roman", 10)
            for i, ln in enumerate(_wrap(" ".join([BODY] * 4), 90)):
                c.drawString(72, y - 40 - 12 * i, ln)
        else:
            for i, ln in enumerate(_wrap(" ".join([BODY] * 6), 90)[:45]):
                c.drawString(72, H - 100 - 13 * i, ln)
        c.showPage()
    doc = read_drawn(path, c)
    assert doc.title == "Recurrent Fever in a Young Traveller After a Long Stay in the Tropics"
    assert doc.authors == ["Maria Lopez", "John Smith"]


def test_a_journals_name_set_larger_than_the_title_on_page_one_is_no_title(tmp_path):
    """A journal's name of four words or more as page 1's logo, set larger than the title under it:
    the title is the title; a title that opens like a venue ("Journal of …") under no larger text
    is still one."""
    for k, (head, title) in enumerate([("International Journal of Clinical Tropical Medicine", None),
                                       ("Physical and Chemical Biology Letters", None),
                                       (None, ("Journal of a Long Voyage Through", "the Western Isles"))]):
        path = tmp_path / f"logo{k}.pdf"
        c = canvas.Canvas(str(path), pagesize=letter)
        if head:
            c.setFont("Helvetica", 20)
            c.drawString(72, H - 50, head)
        lines = title or ("Recurrent Fever in a Young Traveller", "After a Long Stay in the Tropics")
        y = _title(c, *lines, font=("Times-Bold", 16), y=H - 110)
        _title(c, "Maria Lopez, John Smith", font=("Times-Roman", 11), y=y - 4)
        c.setFont("Times-Roman", 10)
        doc = _finish(c, path, 72, y - 40, paragraphs=4, chars=90)
        assert doc.title == " ".join(lines), head
        assert doc.authors == ["Maria Lopez", "John Smith"]
