"""A label cited in a running sentence and wrapped to the start of a justified line ("…shown in
Supplemental / Figure S2. The numbers of motifs…") is no caption: it made a figure of its own with the
paragraph as its caption, and a table's region took the paragraph's lines as its cells.  A generated
page (truth by construction) and the shared RNA paper (cshl-rna-2013, dev half) where it was seen."""

from __future__ import annotations

from reportlab.lib.pagesizes import letter
from reportlab.pdfgen import canvas

from papershelf.ingest.pdf import read_pdf
from papershelf.units import build_units

from .conftest import shared
from .object_fixtures import object_units

_W, _H = letter
_X, _WIDTH, _SIZE = 72.0, 300.0, 10.0


def _justified(c: canvas.Canvas, y: float, text: str, last: bool = False) -> None:
    """One line set flush left and (unless it ends its paragraph) flush right, by its word spaces."""
    words = text.split()
    t = c.beginText(_X, y)
    t.setFont("Times-Roman", _SIZE)
    if not last and len(words) > 1:
        spare = _WIDTH - c.stringWidth(text, "Times-Roman", _SIZE)
        t.setWordSpace(spare / (len(words) - 1))
    t.textOut(text)
    c.drawText(t)


_PARAGRAPH = [
    "The query motifs were selected from the reference set, and the",
    "instances of every type were aligned to the first motif shown in",
    "Supplemental Figure S2. The numbers of motifs in the query set and the",
    "test set are listed together, with the distances between them and the",
    "candidates generated from each query in the order of the algorithm in",
    "Table 3. Then each candidate is superimposed on the query motif and a",
    "distance is computed for the pair, which decides whether it is kept.",
]


def cited_labels_paper(path: str) -> None:
    """A paragraph whose lines 3 and 6 open with a cited label, then a drawn figure and its caption."""
    c = canvas.Canvas(path, pagesize=letter)
    c.setFont("Times-Bold", 16)
    c.drawString(_X, _H - 80, "Motif Recognition by Least Squares")
    y = _H - 130
    for i, line in enumerate(_PARAGRAPH):
        _justified(c, y, line, last=i == len(_PARAGRAPH) - 1)
        y -= 12
    y -= 20
    c.rect(_X + 40, y - 150, 200, 150)
    c.line(_X + 50, y - 140, _X + 230, y - 20)
    c.setFont("Helvetica", 7)
    c.drawString(_X + 120, y - 147, "distance (k)")
    y -= 172
    c.setFont("Times-Roman", 9)
    c.drawString(_X, y, "Figure 1. Least-squares distance against the number of nucleotides.")
    c.showPage()
    c.save()


def test_a_label_cited_mid_sentence_at_a_line_start_is_no_caption(tmp_path):
    path = tmp_path / "cited.pdf"
    cited_labels_paper(str(path))
    units = build_units(read_pdf(path.read_bytes()), "p")
    labels = sorted(u.object_label for u in units if u.kind == "object")
    assert labels == ["Figure 1"], labels
    body = " ".join(u.text for u in units if u.kind != "object")
    assert "Supplemental Figure S2. The numbers of motifs" in body, body
    assert "in Table 3. Then each candidate" in body, body


def test_the_rna_paper_cites_its_supplement_in_sentences_not_as_objects():
    data = shared("pdfs-wide", "cshl-rna-2013-motif-recognition.pdf").read_bytes()
    units = build_units(read_pdf(data), "p")
    labels = sorted(u.object_label for u in units if u.kind == "object")
    assert labels == ["Figure 1", "Figure 2", "Figure 3", "Figure 4", "Figure 5", "Table 1"], labels
    body = " ".join(u.text for u in units if u.kind != "object")
    assert "Figure S1. The rest of the instances" in body
    assert "Given a query motif and a cutoff threshold" in body  # no table's cells


def test_a_table_printed_under_its_label_alone_is_found_by_its_cells():
    from .test_units import _units

    units = _units("# R\n\nText.\n\nTable 3.\n\n| base | yield |\n|---|---|\n| DABCO | 0 |\n\nFigure 3.\n")
    objs = {u.object_label: u for u in units if u.kind == "object"}
    assert objs["Table 3"].indexable and objs["Table 3"].veto_reason is None, objs["Table 3"]
    assert "DABCO" in (objs["Table 3"].table_text or "")
    assert not objs["Figure 3"].indexable and objs["Figure 3"].veto_reason == "empty_caption"


def test_the_rsc_supplement_table_under_its_label_alone_is_searchable():
    data = shared("pdfs-wide", "rsc-advances-2016-esi-polyimidization.pdf").read_bytes()
    objs = object_units(data)
    table = objs["Table S2"]
    assert table.indexable and "DIPEA (3.00)" in (table.table_text or ""), table


def test_a_german_schema_is_a_scheme():
    from papershelf.captions import parse_caption

    cap = parse_caption("Schema 2. Synthese von 7")
    assert cap is not None and (cap.label, cap.object_kind, cap.text) == ("Scheme 2", "figure", "Synthese von 7")
    assert parse_caption("Schema 1 zeigt die Synthese") is None  # a sentence citing it
    data = shared("pdfs-wide", "wiley-zaac-2008-imidazolyliden-de.pdf").read_bytes()
    objs = object_units(data)
    assert sorted(objs) == ["Figure 1", "Scheme 1"] and objs["Scheme 1"].page_start == 1, sorted(objs)


def facing_footers_paper(path: str) -> None:
    """Five pages of prose whose foot alternates: even pages "822 | www.example.org", odd pages
    "Example Journal | vol. 9 | 821" (the first page's differs), so each stands on two pages."""
    c = canvas.Canvas(path, pagesize=letter)
    for page in range(1, 6):
        y = _H - 80
        for n in range(30):
            c.setFont("Times-Roman", _SIZE)
            c.drawString(_X, y, f"Page {page} line {n} of the running text about reef bleaching and its depth.")
            y -= 12
        c.setFont("Times-Roman", 7)
        foot = f"{820 + page} | www.example.org" if page % 2 == 0 else f"Example Journal | vol. 9 | {820 + page}"
        c.drawString(_X, 40, foot if page > 1 else "Example Journal | vol. 9 | 821-825")
        c.showPage()
    c.save()


def test_running_feet_of_facing_pages_are_no_text(tmp_path):
    path = tmp_path / "facing.pdf"
    facing_footers_paper(str(path))
    text = " ".join(b.text for b in read_pdf(path.read_bytes()).blocks)
    assert "www.example.org" not in text and "Example Journal | vol. 9 | 823" not in text, text[-400:]
    assert "Page 5 line 29 of the running text" in text
