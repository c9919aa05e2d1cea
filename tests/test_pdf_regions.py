"""Where figures and tables are on their page, their cells, and the way they reach users."""

import io
import json

import pypdfium2 as pdfium
import pytest
from PIL import Image

from papershelf import Filters, Library, SearchOptions
from papershelf.frontends.render import page_image, region_box
from papershelf.ingest.pdf import read_pdf
from papershelf.units import build_units

from .pdf_fixtures import objects_paper, read_drawn


@pytest.fixture
def objects_pdf(tmp_path):
    path = tmp_path / "reef.pdf"
    objects_paper(str(path))
    return path


def _box_of(pdf_path, page: int, text: str):
    """(left, bottom, right, top) of `text` on the page, from pdfium's own text search."""
    pdf = pdfium.PdfDocument(str(pdf_path))
    tp = pdf[page - 1].get_textpage()
    index, count = tp.search(text).get_next()
    boxes = [tp.get_charbox(i) for i in range(index, index + count)]
    return min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes)


def _inside(box, bbox) -> bool:
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    return bbox[0] <= cx <= bbox[2] and bbox[1] <= cy <= bbox[3]


def test_table_region_holds_its_cells_and_not_the_paragraphs_around_it(objects_pdf):
    units = build_units(read_pdf(objects_pdf.read_bytes()), "p")
    table = next(u for u in units if u.object_label == "Table 1")
    region = table.region
    assert region["page"] == 1
    for cell in ("Lizard Island", "Heron Reef", "37%", "Bleached"):
        assert _inside(_box_of(objects_pdf, 1, cell), region["bbox"]), cell
    for prose in ("Shallow reefs bleached first", "Bleaching by depth is summarised"):
        assert not _inside(_box_of(objects_pdf, 1, prose), region["bbox"]), prose
    # the caption sits above the table, outside the object's own box
    assert region["caption_bbox"][1] >= region["bbox"][3] - 1
    assert table.table_text.splitlines() == ["Site | Depth | Bleached", "Lizard Island | 4 m | 37%",
                                             "Heron Reef | 9 m | 12%", "Ningaloo | 15 m | 3%"]
    body = " ".join(u.text for u in units if u.kind == "body")
    assert "Lizard Island" not in body and "Heron Reef" not in body  # the cells left the body text
    assert "Shallow reefs bleached first" in body


def test_figure_region_is_the_drawing_above_its_caption(objects_pdf):
    units = build_units(read_pdf(objects_pdf.read_bytes()), "p")
    fig = next(u for u in units if u.object_label == "Figure 1")
    bbox = fig.region["bbox"]
    assert _inside(_box_of(objects_pdf, 1, "fraction bleached"), bbox)
    assert not _inside(_box_of(objects_pdf, 1, "Shallow reefs bleached first"), bbox)
    assert fig.region["caption_bbox"][3] <= bbox[1] + 1  # caption below the chart
    assert bbox[3] - bbox[1] > 60 and fig.table_text is None


def test_regions_reach_show_search_and_the_cropped_image(objects_pdf, tmp_path):
    with Library(str(tmp_path / "lib.db")) as lib:
        lib.add([str(objects_pdf)])
        hits = lib.search("Heron Reef", SearchOptions(mode="lexical", filters=Filters(object_kind="table"))).results
        assert hits and hits[0].object_label == "Table 1"
        assert hits[0].to_dict()["region"]["page"] == 1
        shown = lib.show(hits[0].unit_id).to_dict()
        assert shown["region"] == hits[0].region and shown["table_text"].startswith("Site | Depth")
        paper = lib.show(hits[0].paper_id).to_dict()
        assert {o["label"]: o["region"] is not None for o in paper["objects"]} == {"Table 1": True, "Figure 1": True}
        assert json.loads(json.dumps(paper))["objects"][0]["region"]["bbox"]
    full = page_image(str(objects_pdf), 1, width=600)
    crop = page_image(str(objects_pdf), 1, "Table 1", "table", width=600, region=hits[0].region)
    w, h = Image.open(io.BytesIO(crop)).size
    left, bottom, right, top = region_box(hits[0].region)
    assert h < Image.open(io.BytesIO(full)).size[1] / 3  # the table, not a band of the page
    assert abs(h / w - (top - bottom) / (right - left)) < 0.05


def _outlined_pdf(path, outline: bool, anchors: int = 0):
    """One page: a boxed sidebar whose bold line reads like a heading, and two numbered sections;
    `anchors`: an outline of that many reference anchors ("_ENREF_1") instead, none of them printed."""
    from reportlab.lib.pagesizes import letter
    from reportlab.pdfgen import canvas

    from .pdf_fixtures import BODY, _wrap

    c = canvas.Canvas(str(path), pagesize=letter)
    c.setFont("Helvetica-Bold", 18)
    c.drawString(72, 720, "Signals That Persist in Wound Macrophages")
    y = 680
    for title in ("1 Introduction", "Funding", "2 Results"):
        c.bookmarkPage(title)
        c.setFont("Helvetica-Bold", 12)
        c.drawString(72, y, title)
        y -= 18
        c.setFont("Times-Roman", 10)
        for line in _wrap(BODY, 90):
            c.drawString(72, y, line)
            y -= 12.5
        y -= 14
    if outline:
        c.addOutlineEntry("1 Introduction", "1 Introduction", level=0)
        c.addOutlineEntry("2 Results", "2 Results", level=0)
        c.bookmarkPage("2.1")
        c.addOutlineEntry("2.1 Not printed", "2.1", level=1)
    for k in range(1, anchors + 1):
        c.bookmarkPage(f"_ENREF_{k}")
        c.addOutlineEntry(f"_ENREF_{k}", f"_ENREF_{k}", level=0)
    c.save()


def test_the_outline_decides_which_lines_are_headings(tmp_path):
    plain, outlined = tmp_path / "plain.pdf", tmp_path / "outlined.pdf"
    _outlined_pdf(plain, outline=False)
    _outlined_pdf(outlined, outline=True)
    heads = lambda p: [(b.text, b.level) for b in read_pdf(p.read_bytes()).blocks if b.kind == "heading"]  # noqa: E731
    assert ("Funding", 1) in heads(plain)  # layout rules alone take the sidebar's line
    assert heads(outlined) == [("1 Introduction", 1), ("2 Results", 1)]  # an entry never printed adds nothing


def _accented(path, font: str, before: str, letter_: str, after: str, mark: str, raise_by: float) -> str:
    """The text read from a page whose line `before + letter_ + after` has the spacing accent `mark`
    set on its own, centred over `letter_` and raised by `raise_by`, as TeX sets accents."""
    from reportlab.lib.pagesizes import letter
    from reportlab.pdfgen import canvas

    c = canvas.Canvas(str(path), pagesize=letter)
    c.setFont(font, 10)
    for k in range(30):
        c.drawString(72, 700 - 12 * k, "Body text of a paper that runs on for a while to give the page text.")
    c.drawString(72, 330, before + letter_ + after)
    width = lambda s: c.stringWidth(s, font, 10)  # noqa: E731
    c.drawString(72 + width(before) + (width(letter_) - width(mark)) / 2, 330 + raise_by, mark)
    return " ".join(b.text for b in read_drawn(path, c).blocks)


def test_a_spacing_accent_joins_the_letter_it_is_printed_over(tmp_path):
    text = _accented(tmp_path / "accent.pdf", "Times-Roman", "Nicolas Andr", "e", " wrote this", "\u00b4", 3)
    assert "Nicolas Andr\u00e9 wrote this" in text and "\u00b4" not in text


def test_an_accent_over_a_dotless_i_is_the_accented_i(tmp_path):
    """TeX writes \\'{\\i} as a spacing acute over a dotless i; the reader gives the one letter í."""
    import os

    import reportlab
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    pdfmetrics.registerFont(TTFont("Vera", os.path.join(os.path.dirname(reportlab.__file__), "fonts", "Vera.ttf")))
    text = _accented(tmp_path / "dotless.pdf", "Vera", "Cap", "\u0131", "tulo uno", "\u00b4", 2)
    assert "Cap\u00edtulo uno" in text and "\u0131" not in text and "\u00b4" not in text


def test_a_modifier_circumflex_joins_its_letter(tmp_path):
    """ˆ (U+02C6) and ˇ are letters to Unicode (modifier letters): the accent is not its own base."""
    text = _accented(tmp_path / "circumflex.pdf", "Times-Roman", "M", "e", "s e ano", "\u02c6", 2)
    assert "M\u00eas e ano" in text and "\u02c6" not in text


def test_a_footnote_mark_after_the_title_is_not_part_of_it(tmp_path):
    from reportlab.lib.pagesizes import letter
    from reportlab.pdfgen import canvas

    from .pdf_fixtures import BODY, _wrap

    def paper(path, title, mark):
        c = canvas.Canvas(str(path), pagesize=letter)
        c.setFont("Helvetica-Bold", 18)
        c.drawString(100, 720, title)
        c.setFont("Helvetica-Bold", 10)
        c.drawString(100 + c.stringWidth(title, "Helvetica-Bold", 18) + 1, 728, mark)  # raised, small
        c.setFont("Times-Roman", 10)
        for k, line in enumerate(_wrap(BODY * 3, 90)[:40]):
            c.drawString(72, 680 - 12 * k, line)
        return read_drawn(path, c).title

    assert paper(tmp_path / "a.pdf", "Probabilistic XML via Markov Chains", "*\u2020") == \
        "Probabilistic XML via Markov Chains"
    assert paper(tmp_path / "b.pdf", "Deep Networks", "1") == "Deep Networks"
    assert paper(tmp_path / "c.pdf", "Regression in R", "2") == "Regression in R^2"  # a symbol's power stays


def test_printed_authors_with_marks_not_affiliations_or_the_info_field(tmp_path):
    from reportlab.lib.pagesizes import letter
    from reportlab.pdfgen import canvas

    from papershelf.ingest import load_source, parse_source

    from .pdf_fixtures import BODY, _wrap

    path = tmp_path / "marks.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    c.setAuthor("IT Department")
    c.setFont("Times-Roman", 8)
    c.drawString(20, 700, "Academic editor")  # a sidebar beside the title block
    c.drawString(20, 690, "James Procter")
    c.setFont("Helvetica-Bold", 18)
    c.drawString(150, 720, "Fragment-Based Design of Selective Inhibitors")
    x = 150
    c.setFont("Helvetica", 11)
    for name, mark in (("Ross G. DOUGLAS", "*1"), (", Rajni K. SHARMA", "\u20201"), (" and Kelly CHIBALE", "\u2020")):
        c.setFont("Helvetica", 11)
        c.drawString(x, 690, name)
        x += c.stringWidth(name, "Helvetica", 11)
        c.setFont("Helvetica", 7)
        c.drawString(x, 694, mark)
        x += c.stringWidth(mark, "Helvetica", 7)
    c.setFont("Helvetica", 8)
    c.drawString(150, 672, "*Institute of Infectious Disease and Molecular Medicine, University of Cape Town,")
    c.drawString(150, 662, "South Africa")
    c.setFont("Helvetica-Bold", 12)
    c.drawString(150, 630, "Abstract")
    c.setFont("Times-Roman", 10)
    for k, line in enumerate(_wrap(BODY * 2, 80)):
        c.drawString(150, 612 - 12.5 * k, line)
    c.save()
    doc = parse_source(load_source(str(path)))
    assert doc.authors == ["Ross G. Douglas", "Rajni K. Sharma", "Kelly Chibale"]


def test_a_new_pdf_reader_parses_again_and_re_embeds_only_changed_papers(objects_pdf, tmp_path, monkeypatch):
    """The reader version is part of a PDF's source hash: `add` reads the file again; a paper whose
    units come out the same stays embedded, so nothing is encoded twice."""
    from papershelf import ingest

    from .conftest import HASH

    with Library(str(tmp_path / "lib.db")) as lib:
        assert lib.add([str(objects_pdf)]).files[0].status == "added"
        lib.embed(HASH)
        assert lib.pending() == []
        assert lib.add([str(objects_pdf)]).files[0].status == "unchanged"
        monkeypatch.setattr(ingest, "PDF_READER", "pdf-reader/next")
        assert lib.add([str(objects_pdf)]).files[0].status == "updated"
        assert lib.pending() == []  # same units, same hashes: the vectors stand


def test_letter_spaced_headings_read_as_words_and_spaced_cells_stay_apart(tmp_path):
    """Tracked capitals ("A B S T R A C T" as pdfium writes them) are words again; the word space
    inside a tracked heading stays; one-letter table cells far apart are not joined."""
    from reportlab.lib.pagesizes import letter
    from reportlab.pdfgen import canvas

    from .pdf_fixtures import BODY, _wrap

    path = tmp_path / "tracked.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    y = 720
    for heading, body in (("ABSTRACT", BODY), ("LIST OF FIGURES", BODY)):
        c.setFont("Helvetica-Bold", 11)
        x = 72.0
        for ch in heading:  # each letter placed apart, as TeX's letter-spacing packages set them
            if ch != " ":
                c.drawString(x, y, ch)
            x += c.stringWidth(ch, "Helvetica-Bold", 11) + 2.5
        c.setFont("Times-Roman", 10)
        for k, line in enumerate(_wrap(body, 90)[:12]):
            c.drawString(72, y - 20 - 12 * k, line)
        y -= 190
    c.setFont("Times-Roman", 10)
    for k, cell in enumerate("VWXYZ"):
        c.drawString(72 + 60 * k, y, cell)
    doc = read_drawn(path, c)
    assert [b.text for b in doc.blocks if b.kind == "heading"][:2] == ["ABSTRACT", "LIST OF FIGURES"]
    assert "V W X Y Z" in " ".join(b.text for b in doc.blocks)


def test_an_outline_deeper_than_the_reader_uses_prints_nothing(tmp_path):
    """pypdfium2 warns (on stderr) when an outline is deeper than asked for; the reader does not
    use those levels and the user's terminal must not get a stray line for them."""
    from reportlab.lib.pagesizes import letter
    from reportlab.pdfgen import canvas

    from .pdf_fixtures import BODY, _wrap

    path = tmp_path / "deep.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    c.setFont("Times-Roman", 10)
    for k, line in enumerate(_wrap(BODY * 3, 90)[:40]):
        c.drawString(72, 700 - 12 * k, line)
    for level in range(9):
        c.bookmarkPage(f"b{level}")
        c.addOutlineEntry(f"Level {level}", f"b{level}", level=level)
    c.save()
    import subprocess
    import sys

    # A child process: pytest's own logging capture would hide the stray line in this one.
    code = "import sys; from papershelf.ingest.pdf import read_pdf; read_pdf(open(sys.argv[1], 'rb').read())"
    run = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0 and run.stderr == ""


def test_an_accent_belongs_to_a_letter_of_its_own_line():
    """pdfium may join two visual lines into one run; a letter of the line above at the same x
    (here an f over the accented ı) is not the accent's letter (boxes y-down: left, top, right, bottom)."""
    from papershelf.ingest.pdf.text.glyphs import _sits_on

    acute = (330.2, 589.5, 332.0, 591.4)
    dotless_i = (329.6, 592.1, 331.7, 596.5)
    f_above = (329.4, 577.5, 332.7, 584.5)
    assert _sits_on(acute, dotless_i, below=False)
    assert not _sits_on(acute, f_above, below=False)
    cedilla, c_letter = (100.0, 598.0, 102.0, 600.0), (99.5, 592.0, 103.0, 597.5)
    assert _sits_on(cedilla, c_letter, below=True) and not _sits_on(cedilla, c_letter, below=False)


def test_a_title_hyphenated_over_two_lines_reads_as_one_word(tmp_path):
    from reportlab.lib.pagesizes import letter
    from reportlab.pdfgen import canvas

    from .pdf_fixtures import BODY, _wrap

    path = tmp_path / "hyphen.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    c.setFont("Helvetica-Bold", 18)
    c.drawString(100, 720, "Proceedings of the symposia spon-")
    c.drawString(100, 698, "sored by the association")
    c.setFont("Times-Roman", 10)
    for k, line in enumerate(_wrap(BODY * 3, 90)[:40]):
        c.drawString(72, 660 - 12 * k, line)
    assert read_drawn(path, c).title == "Proceedings of the symposia sponsored by the association"


def test_an_outline_of_anchors_leaves_the_layout_headings(tmp_path):
    """A Word export's outline lists its reference anchors ("_ENREF_1"): none of them is printed, so
    the headings the layout shows stay (they were all demoted to text before)."""
    plain, anchored = tmp_path / "plain.pdf", tmp_path / "anchored.pdf"
    _outlined_pdf(plain, outline=False)
    _outlined_pdf(anchored, outline=False, anchors=5)
    heads = [(b.text, b.level) for b in read_pdf(anchored.read_bytes()).blocks if b.kind == "heading"]
    assert ("1 Introduction", 1) in heads and ("2 Results", 1) in heads
    assert heads == [(b.text, b.level) for b in read_pdf(plain.read_bytes()).blocks if b.kind == "heading"]
