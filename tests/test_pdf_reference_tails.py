"""Reference lists' classes of refs12 (issue #38): a raised label at a page's top that the page's cleaning drops
with the running heads, garbled OCR labels run into the initials, an entry's link on a line of its own in another
journal's words, a statement set straight after the list in its size and pitch, an access date that is no
year.  PDFs made with reportlab."""

from __future__ import annotations

from reportlab.lib.pagesizes import letter
from reportlab.pdfgen import canvas

from papershelf.ingest.references import parse_reference, split_numbered

from .pdf_fixtures import SURNAMES, entry_lines, headed_page, read_references, title_and_body

W, H = letter


def test_a_raised_label_at_a_pages_top_is_not_lost_with_the_running_head(tmp_path):
    path = tmp_path / "raised_top.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    y = title_and_body(c, "Observations on Coastal Sediment", 6) - 20
    for k in range(30):
        if y < 100:
            c.setFont("Times-Roman", 8)
            c.drawRightString(W - 72, 40, str(100 + c.getPageNumber()))
            c.showPage()
            c.setFont("Times-Italic", 8)
            c.drawString(72, H - 45, "Journal of Synthetic Studies 12 (2020) 101-140")
            y = H - 74  # the first entry's raised label stands in the top margin, beside its line
        c.setFont("Times-Roman", 5.5)
        c.drawString(72, y + 5.5, str(k + 1))
        c.setFont("Times-Roman", 8.5)
        for ln in entry_lines(k):
            c.drawString(77, y, ln)
            y -= 10.5
    refs = read_references(path, c)
    assert len(refs) == 30
    assert all(f"({1990 + k})" in r.text for k, r in enumerate(refs))


def test_a_bare_label_past_one_lost_resumes_the_count():
    texts = ["1", "A. Abebe. Coastal sediment. Nature 7 (1990).", "2", "B. Brandt. Thermal response (1991).",
             "C. Chen. Soil. Nature 12, 3 (1992).", "4", "D. Dubois. Soil. Nature 13, 4 (1993).", "5",
             "E. Engel. Sediment (1994)."]
    entries = split_numbered(texts)
    assert entries is not None and len(entries) == 4  # label 3 lost: entries 2 and 3 are one, 4 and 5 their own
    assert entries[2].startswith("4")


def test_garbled_labels_run_into_the_initials_are_read_by_the_sequence(tmp_path):
    path = tmp_path / "ocr_run_in.pdf"
    c, y = headed_page(path)
    garbled = {3: "P4I", 6: "IlO", 9: "[lOI"}  # "P4IA. Dubois": no space; "IlO" for [7]...
    for k in range(12):
        label = garbled.get(k, f"[{k + 1}]")
        c.setFont("Times-Roman", 8.5)
        first, second = entry_lines(k)
        c.drawString(72, y, f"{label}{first}" if k == 3 else f"{label} {first}")
        c.drawString(90, y - 10.5, second)
        y -= 23
    refs = read_references(path, c)
    assert len(refs) == 12
    assert all(r.text.endswith(f"({1990 + k}).") for k, r in enumerate(refs))


def test_a_link_on_a_line_of_its_own_goes_on_with_its_entry_and_a_statement_after_the_list_is_none(tmp_path):
    path = tmp_path / "tails.pdf"
    c, y = headed_page(path, "Referências")
    c.setFont("Times-Roman", 8.5)
    for k in range(10):
        name = SURNAMES[k]
        for ln in [f"{name}, A. ({1990 + k}). Sediment transport in coastal systems {k}. J. Mol. Biol. 3, 10-20.",
                   f"Disponível em: <https://doi.org/10.1000/x{k}>. Acesso em: 3 maio 2020."]:
            c.drawString(72, y, ln)
            y -= 10.5
    c.drawString(72, y, "Recebido em 3 de maio de 2019; aceito em 12 de agosto de 2019.")
    refs = read_references(path, c)
    assert len(refs) == 10
    assert all(r.text.endswith("Acesso em: 3 maio 2020.") for r in refs)
    assert [r.year for r in refs] == [1990 + k for k in range(10)]


def test_a_statement_at_the_labels_edge_after_a_numbered_list_ends_it(tmp_path):
    path = tmp_path / "edge.pdf"
    c, y = headed_page(path)
    c.setFont("Times-Roman", 8.5)
    for k in range(8):
        c.drawString(72, y, f"[{k + 1}]")
        for ln in entry_lines(k):
            c.drawString(90, y, ln)
            y -= 10.5
    for ln in ["The authors declare that the research was conducted in the absence of any commercial",
               "or financial relationships that could be construed as a potential conflict of interest."]:
        c.drawString(72, y, ln)
        y -= 10.5
    refs = read_references(path, c)
    assert len(refs) == 8 and refs[-1].text.endswith("(1997).")


def test_an_access_date_is_no_year():
    ref = parse_reference("[3] A. Chen. Soil. Nature 12, 3-4 (1999). Available from: https://x.org/a. "
                          "Accessed 3 May 2020.", 3)
    assert ref.year == 1999
