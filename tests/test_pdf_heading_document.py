"""Heading decisions that rest on the document's own structure, each drawn as a generated PDF:
the typeface of the paper's sure headings, and front matter on the title page."""

from reportlab.lib.pagesizes import letter
from reportlab.pdfgen import canvas

from .test_pdf_heading_styles import _headings, _para, _title

W, H = letter


def _body_face_paper(path, sub_font: str, sub_size: float) -> None:
    """Minion-like body at 10.5 pt, "Methods"/"Results" in Helvetica-Bold at the body size, and
    sub-headings in ``sub_font`` at ``sub_size`` (J Physiol sets them a point smaller)."""
    c = canvas.Canvas(str(path), pagesize=letter)
    y = _title(c)
    for section, subs in (("Methods", ("Slice preparation", "Data analysis")), ("Results", ("Intrinsic bursting",))):
        c.setFont("Helvetica-Bold", 10.5)
        c.drawString(72, y, section)
        y -= 20
        for sub in subs:
            c.setFont(sub_font, sub_size)
            c.drawString(72, y, sub)
            y = _para(c, 72, y - 14, 460, size=10.5) - 12
    c.save()


def test_sub_headings_a_point_smaller_in_the_face_of_the_papers_headings(tmp_path):
    """Sub-headings set a point smaller than the body, in the sans-serif of the paper's own
    "Methods" and "Results", are sub-headings; the same lines in the body's face are not."""
    path = tmp_path / "smaller.pdf"
    _body_face_paper(path, "Helvetica-Bold", 9.5)
    assert _headings(path) == [("Methods", 1), ("Slice preparation", 2), ("Data analysis", 2),
                               ("Results", 1), ("Intrinsic bursting", 2)]
    plain = tmp_path / "plain.pdf"
    _body_face_paper(plain, "Times-Roman", 9.5)
    assert _headings(plain) == [("Methods", 1), ("Results", 1)]


def test_appendix_letter_in_the_bodys_style_continues_the_numbering(tmp_path):
    """amsart sets "2. Results" and "Appendix A. Tools from probability theory" centred in the body's
    own face and size: after the numbered sections, a letter named an appendix is the next number."""
    path = tmp_path / "amsart.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    y = _title(c)
    for head in ("1. Introduction", "2. Results", "Appendix A. Tools from probability theory",
                 "Appendix B. Tools from convex analysis"):
        c.setFont("Times-Roman", 10)
        c.drawCentredString(W / 2, y, head)
        y = _para(c, 72, y - 20, 460) - 14
    c.save()
    assert _headings(path) == [("1. Introduction", 1), ("2. Results", 1),
                               ("Appendix A. Tools from probability theory", 1),
                               ("Appendix B. Tools from convex analysis", 1)]


def test_colon_labels_of_front_matter_and_fields_are_no_sections(tmp_path):
    """On the title page, small-print "Received:" / "Correspondence to:" lead-ins under the text are
    front matter, and "Gold answer: Spain" alone on its line is a field; a bold run-in "Cell
    culture." opening a paragraph stays a sub-heading, and so does "Keywords:"."""
    path = tmp_path / "labels.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    y = _title(c)
    c.setFont("Times-Bold", 10)
    c.drawString(72, y, "Methods")
    y = _para(c, 72, y - 14, 460, lead=("Cell culture.", "Times-Bold"))
    y = _para(c, 72, y - 4, 460, lead=("Gold answer:", "Times-Bold"), text="Spain, Ukraine")
    y = _para(c, 72, y - 4, 460, lead=("Keywords:", "Times-Bold"), text="cells, dose, pathway")
    for label, value in (("Received:", "7 September 2015; accepted 6 January 2016"),
                         ("Correspondence to:", "Ada Okafor, Institute of Medicine, 12 Main Street, Springfield")):
        y = _para(c, 72, y - 6, 460, lead=(label, "Times-Bold"), size=7.5, text=value)
    c.save()
    assert _headings(path) == [("Methods", 1), ("Cell culture", 2), ("Keywords", 1)]


def test_material_and_methods_in_the_bodys_capitals(tmp_path):
    """Systematic Botany centres "MATERIAL AND METHODS" (singular) in capitals of the body's face
    and size: a standard name, as "MATERIALS AND METHODS" is."""
    path = tmp_path / "material.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    y = _title(c)
    for head in ("INTRODUCTION", "MATERIAL AND METHODS", "DISCUSSION"):
        c.setFont("Times-Roman", 10)
        c.drawCentredString(W / 2, y, head)
        y = _para(c, 72, y - 20, 460) - 14
    c.save()
    assert _headings(path) == [("INTRODUCTION", 1), ("MATERIAL AND METHODS", 1), ("DISCUSSION", 1)]


def test_a_first_line_whose_sentence_goes_on_below_is_no_heading(tmp_path):
    """A scan's uneven sizes set a paragraph's first line larger than the body ("Dwork and Skeen
    [48] considered the commit prob-" / "lem in a …"): its sentence goes on below in lowercase, so
    it is no heading.  A bold title wrapped onto a lowercase second line stays one heading."""
    path = tmp_path / "scan.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    y = _title(c)
    for head in ("Introduction", "Lower bounds"):
        c.setFont("Times-Bold", 12)
        c.drawString(72, y, head)
        y = _para(c, 72, y - 18, 460) - 8
    for first in ("Dwork and Skeen considered the commit prob-", "Awerbuch proved a time and communication"):
        c.setFont("Times-Roman", 11.5)
        c.drawString(84, y, first)
        y = _para(c, 72, y - 12, 460, text="lem in a synchronous model. " + " ".join(["They proved a bound."] * 12))
        y -= 10
    c.setFont("Times-Bold", 12)
    c.drawString(72, y - 8, "Changes in Intracellular Concentrations after Treatment")
    c.drawString(72, y - 22, "with Resveratrol")
    _para(c, 72, y - 40, 460)
    c.save()
    assert [t for t, _ in _headings(path)] == [
        "Introduction", "Lower bounds", "Changes in Intracellular Concentrations after Treatment with Resveratrol"]


def _labelled_abstract(path: str, abstract: bool = False) -> None:
    """A clinical paper: a structured abstract whose bold run-in labels name the paper's sections
    (under a heading "Abstract" when `abstract`)."""
    from .pdf_fixtures import BODY, Writer

    w = Writer(path)
    w.title("Protocol-Based Care for Septic Shock", "Ada Okafor, Lena Brandt")
    if abstract:
        w.heading("Abstract")
    for label in ("Purpose", "Methods", "Results", "Conclusion"):
        w._need(40)
        w.c.setFont("Times-Bold", 10)
        w.c.drawString(w._x(), w.y, f"{label}:")
        lead = w.c.stringWidth(f"{label}: ", "Times-Bold", 10)
        w.c.setFont("Times-Roman", 10)
        w.c.drawString(w._x() + lead, w.y, "We pooled the trials that measured mortality at")
        w.y -= 12.5
        w.paragraph("twenty-eight days in adults admitted with septic shock to intensive care.")
    for head in ("1 Introduction", "2 Methods", "3 Results", "4 Discussion"):
        w.heading(head)
        w.paragraph(BODY)
    w.save()


def test_a_structured_abstracts_labels_are_no_sections(tmp_path):
    """Run-in labels of the abstract, some of which the paper uses again as its section names, label
    parts of the abstract (all of them): they were sections of their own, before the Introduction."""
    from papershelf.ingest.pdf.reader import read_pdf

    path = tmp_path / "abstract.pdf"
    _labelled_abstract(str(path))
    doc = read_pdf(path.read_bytes())
    heads = [b.text for b in doc.blocks if b.kind == "heading"]
    assert heads == ["1 Introduction", "2 Methods", "3 Results", "4 Discussion"]  # "Conclusion" is a label too
    assert any(b.text.startswith("Results: We pooled") for b in doc.blocks if b.kind == "text")


def test_a_two_line_heading_ends_where_the_body_text_begins(tmp_path):
    """A sub-heading wrapped onto two lines, half a point larger than the body in another face, with
    the body set close under it: the heading is its two lines (it ran on into the paragraph)."""
    from papershelf.ingest.pdf.reader import read_pdf

    from .pdf_fixtures import BODY, Writer

    path = tmp_path / "two_lines.pdf"
    w = Writer(str(path))
    w.title("Cyclooxygenase in Liver Cancer", "Ada Okafor, Lena Brandt")
    w.heading("1 Introduction")
    w.paragraph(BODY, size=9.5)
    for text in ("Correlation of expression with", "clinical parameters"):
        w.c.setFont("Helvetica", 10)
        w.c.drawString(w._x(), w.y, text)
        w.y -= 12
    w.paragraph("The association between the enzyme and several clinical parameters is shown in the table.",
                size=9.5)
    w.heading("2 Methods")
    w.paragraph(BODY, size=9.5)
    w.save()
    blocks = read_pdf(path.read_bytes()).blocks
    assert [b.text for b in blocks if b.kind == "heading"] == [
        "1 Introduction", "Correlation of expression with clinical parameters", "2 Methods"]
    assert any(b.kind == "text" and b.text.startswith("The association between") for b in blocks)


def test_an_abstracts_labels_under_its_heading_stay_its_parts(tmp_path):
    """Under a heading "Abstract" the labels are its sub-headings, as publishers' outlines list them
    (BMC's "Abstract > Background, Methods, Results, Conclusions")."""
    from papershelf.ingest.pdf.reader import read_pdf

    path = tmp_path / "abstract.pdf"
    _labelled_abstract(str(path), abstract=True)
    heads = [b.text for b in read_pdf(path.read_bytes()).blocks if b.kind == "heading"]
    assert heads[:1] == ["Abstract"] and "Results" in heads[:5]
    assert heads[-4:] == ["1 Introduction", "2 Methods", "3 Results", "4 Discussion"]
