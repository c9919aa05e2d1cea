"""Reference lists whose labels the text layer gives out of place, and lists printed with no heading (issue #38,
refs11): a label at the end of the line before, a small raised label on a line of its own with no heading,
labels OCR set in a gutter of their own or garbled, an author-year list with no heading at the paper's end.
PDFs made with reportlab."""

from __future__ import annotations

from reportlab.lib.pagesizes import letter
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen import canvas

from papershelf.ingest.references import split_numbered

from .pdf_fixtures import SURNAMES, entry_lines, headed_page, read_references, title_and_body

W, H = letter


def test_a_label_printed_at_the_end_of_the_line_before_opens_the_next_entry(tmp_path):
    path = tmp_path / "end.pdf"
    c, y = headed_page(path)
    c.setFont("Times-Roman", 8.5)
    for k in range(9):
        lines = entry_lines(k)
        if k == 0:
            c.drawString(72, y, "[1]")
        for ln in lines:
            c.drawString(90, y, ln)
            y -= 10.5
        if k < 8:  # the next label, read at the end of this entry's last line
            c.drawString(90 + stringWidth(lines[-1] + " ", "Times-Roman", 8.5), y + 10.5, f"[{k + 2}]")
    refs = read_references(path, c)
    assert len(refs) == 9
    assert all(r.text.endswith(f"({1990 + k}).") for k, r in enumerate(refs))
    assert refs[4].year == 1994 and "Engel" in refs[4].text


def test_a_number_ending_a_line_is_no_label_unless_the_sequence_says_so():
    texts = ["[1] A. Abebe. Coastal sediment. Nature 7", "(1990).", "[2] B. Brandt. Thermal response.",
             "J. Mol. Biol. 3", "Sediment in soils (1991).", "[3] C. Chen. Soil. Nature 12, 3 (1992)."]
    assert len(split_numbered(texts)) == 3  # "Nature 7" is a volume, "Biol. 3" is followed by the printed [3]


def test_raised_labels_on_lines_of_their_own_open_a_list_with_no_heading(tmp_path):
    path = tmp_path / "raised.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    y = title_and_body(c, "Observations on Coastal Sediment", 3) - 20
    for k in range(16):
        if y < 110:
            c.showPage()
            y = H - 90
        c.setFont("Times-Roman", 5.5)
        c.drawString(72, y + 5.5, str(k + 1))  # at the column's edge, small, raised
        c.setFont("Times-Roman", 8.5)
        for ln in entry_lines(k):
            c.drawString(77, y, ln)
            y -= 10.5
    refs = read_references(path, c)
    assert len(refs) == 16
    assert refs[0].text.startswith("1 A. Abebe") or refs[0].text.startswith("A. Abebe")
    assert all(f"({1990 + k})" in r.text for k, r in enumerate(refs))


def test_ocr_labels_in_a_gutter_of_their_own_or_garbled_open_entries(tmp_path):
    path = tmp_path / "ocr.pdf"
    c, y = headed_page(path)
    garbled = {3: "PI", 4: "[51", 7: "I81", 8: "P9I", 11: "[l2]"}
    for k in range(14):
        label = garbled.get(k, f"[{k + 1}]")
        c.setFont("Times-Roman", 9)
        c.drawString(72, y + (1.5 if k % 2 else -1.5), label)
        c.setFont("Times-Roman", 8.5)
        for ln in entry_lines(k):
            c.drawString(100, y, ln)
            y -= 10.5
        y -= 2
    refs = read_references(path, c)
    assert len(refs) == 14
    assert all(r.text.endswith(f"({1990 + k}).") for k, r in enumerate(refs))
    assert not any(r.text.startswith(("PI", "P9I")) for r in refs)


def test_an_author_year_list_with_no_heading_at_the_papers_end(tmp_path):
    path = tmp_path / "unheaded.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    y = title_and_body(c, "Observations on Coastal Sediment", 4) - 20
    c.setFont("Times-Roman", 8.5)
    for k in range(10):
        name = SURNAMES[k]
        for i, ln in enumerate([f"{name}, A., & Rossi, K. ({1990 + k}). Sediment transport in coastal systems {k}",
                                f"and their thermal response. J. Mol. Biol. {k + 3}, 10-20."]):
            c.drawString(72 + (12 if i else 0), y, ln)
            y -= 10.5
    refs = read_references(path, c)
    assert len(refs) == 10
    assert refs[0].text.startswith("Abebe, A.") and refs[-1].text.endswith("12, 10-20.")


def test_a_paper_with_no_list_finds_none(tmp_path):
    path = tmp_path / "none.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    y = title_and_body(c, "Observations on Coastal Sediment", 6) - 20
    c.setFont("Times-Roman", 10)
    for ln in ["Brandt, A. (1990) showed that the counts at the two sites differ, and Chen, K. (1992) read",
               "them again. We read them a third time and found the same ranking of the sites."]:
        c.drawString(72, y, ln)
        y -= 12
    assert read_references(path, c) == []
