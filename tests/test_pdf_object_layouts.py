"""Figure and table regions on layouts other than the usual: tables above and below their captions
with the header row over the first rule, labels in other languages, tables collected after the
references, a page turned by /Rotate.  Truth is by construction (tests/object_fixtures.py); positions
come from pdfium's own text search, turned the way the page is shown."""

import pypdfium2 as pdfium
import pytest

from papershelf.ingest.captions import cited_labels, parse_caption, parse_label
from papershelf.ingest.pdf import read_pdf
from papershelf.ingest.pdf.text.rotation import shown_box, user_size
from papershelf.units import build_units

from . import object_fixtures as F
from .object_fixtures import object_units
from .pdf_fixtures import read_drawn


def _center(path, page: int, text: str) -> tuple[float, float]:
    """The middle of `text` on the page, in PDF points as the page is shown (bottom-left origin)."""
    pdf = pdfium.PdfDocument(str(path))
    pg = pdf[page - 1]
    tp = pg.get_textpage()
    found = tp.search(text, match_case=True).get_next()
    assert found is not None, text
    index, count = found
    boxes = [tp.get_charbox(i) for i in range(index, index + count)]
    left, bottom = min(b[0] for b in boxes), min(b[1] for b in boxes)
    right, top = max(b[2] for b in boxes), max(b[3] for b in boxes)
    width, height = user_size(pg)
    x0, y0, x1, y1 = shown_box(pg.get_rotation(), width, height, left, bottom, right, top)
    return (x0 + x1) / 2, pg.get_size()[1] - (y0 + y1) / 2


def _holds(region: dict, point: tuple[float, float]) -> bool:
    b = region["bbox"]
    return b[0] <= point[0] <= b[2] and b[1] <= point[1] <= b[3]


def _check(path, unit, page: int, inside: list[str], outside: list[str]) -> None:
    assert unit is not None and unit.region is not None and unit.region["page"] == page
    for text in inside:
        assert _holds(unit.region, _center(path, page, text)), f"{text!r} outside {unit.object_label}"
    for text in outside:
        assert not _holds(unit.region, _center(path, page, text)), f"{text!r} inside {unit.object_label}"


@pytest.mark.parametrize("printed,label,kind", [
    ("Figura 2. Mapa da área de estudo", "Figure 2", "figure"), ("Tabela 1 – Características", "Table 1", "table"),
    ("TABLA 3. Resultados", "Table 3", "table"), ("Abbildung 4: Die Werte", "Figure 4", "figure"),
    ("Abb. 2: Verlauf", "Figure 2", "figure"), ("Tableau 3 : Les sites", "Table 3", "table"),
    ("Quadro 1 – Categorias", "Table 1", "table"), ("Graph 2 Distribution of ages", "Graph 2", "figure"),
    ("Gráfico 1. Dados", "Graph 1", "figure"), ("Scheme 2. Synthesis of 4", "Scheme 2", "figure"),
    ("Fig. 3 The trend", "Figure 3", "figure"), ("TABLE II. RESULTS", "Table II", "table"),
    ("Supplementary Table S1. Primers", "Supplementary Table S1", "table"),
    ("Tabela 2.1 – Características", "Table 2.1", "table"), ("Abbildung 3.2: Die Werte", "Figure 3.2", "figure"),
    ("Graph 4.1 Distribution of ages", "Graph 4.1", "figure"),
    ("Table A1. Results by region", "Table A1", "table"), ("Figure B.2: Throughput", "Figure B.2", "figure"),
    ("Fig. 1A - Spectrogram", "Figure 1", "figure"), ("Figure 2B: Hash details", "Figure 2", "figure"),
    ("T ABLE II. Results", "Table II", "table"), ("F IG. 3. Setup of the probe", "Figure 3", "figure"),
    ("Plate 2. Views of the holotype", "Plate 2", "figure"), ("PLATE IV. Leaves", "Plate IV", "figure"),
])
def test_labels_in_other_languages_and_styles_are_captions(printed, label, kind):
    cap = parse_caption(printed)
    assert cap is not None and (cap.label, cap.object_kind) == (label, kind)


@pytest.mark.parametrize("sentence", ["Tabla 1 muestra los resultados", "Figura 3 mostra", "Table 1 shows the",
                                      "Graph 2 was drawn", "tabela 1 – x", "Table A1 shows the", "Table 2A shows the",
                                      "Figure 1B shows", "Plate 3 shows the", "T ABLES", "Fig. 1A.For somatic drug"])
def test_a_sentence_opening_with_a_label_is_no_caption(sentence):
    assert parse_caption(sentence) is None


def test_citations_in_other_languages_name_the_same_objects():
    assert cited_labels("como mostra a Figura 2 e a Tabela 3, e Abb. 4") == {"Figure 2", "Table 3", "Figure 4"}


@pytest.mark.parametrize("sentence,labels", [
    ("(Fig. 2, A to C)", {"Figure 2"}), ("as shown in Figure 1, 476 candidates were assessed", {"Figure 1"}),
    ("[Fig76] T. Figiel. On the moduli", set()), ("Tables II, III and IV", {"Table II", "Table III", "Table IV"}),
    ("see Fig.3 and Fig 4", {"Figure 3", "Figure 4"}), ("<FIGURE CAPTION=x/>", set()),
    ("in Fig. 1A and Table IV", {"Figure 1", "Table IV"}),
])
def test_a_citation_lists_labels_of_one_kind_of_number(sentence, labels):
    """Panel letters after a comma are no roman Figure C; a count after a label is no Figure 476."""
    assert cited_labels(sentence) == labels


def test_a_table_above_its_caption_keeps_its_header_and_not_the_paragraphs(tmp_path):
    path = tmp_path / "placement.pdf"
    F.placement_paper(str(path))
    objs = object_units(path)
    _check(path, objs.get("Table 1"), 1, ["Site", "Bleached", "Lizard Island", "3%"],
           ["depth profile of bleaching", "Shallow reefs bleached first"])
    assert objs["Table 1"].region["caption_bbox"][3] <= objs["Table 1"].region["bbox"][1] + 1  # caption below
    assert objs["Table 1"].table_text.splitlines()[0] == "Site | Depth | Bleached"
    _check(path, objs.get("Table 2"), 2, ["Recovered", "Orpheus Island", "19%"], ["Recovery was slowest"])
    assert objs["Table 2"].table_text.splitlines() == ["Site | Recovered | Lost", "Orpheus Island | 61% | 8%",
                                                       "Osprey Reef | 44% | 19%"]


def test_a_ruled_table_above_its_caption_wins_over_cells_below_it(tmp_path):
    path = tmp_path / "ruled.pdf"
    F.ruled_side_paper(str(path))
    table = object_units(path).get("Table 1")
    _check(path, table, 1, ["Lizard Island", "Bleached", "3%"], ["Colonies", "Shallow reefs bleached first"])
    assert table.table_text.splitlines()[0] == "Site | Depth | Bleached"


def test_portuguese_labels_give_a_table_with_its_cells_and_a_figure(tmp_path):
    path = tmp_path / "pt.pdf"
    F.language_paper(str(path))
    objs = object_units(path)
    _check(path, objs.get("Table 1"), 1, ["Profundidade", "Recife Garça", "12%"], ["recuperação foi mais lenta"])
    assert "Ilha Lagarto | 4 m | 37%" in objs["Table 1"].table_text
    _check(path, objs.get("Figure 1"), 1, ["fração branqueada"], ["recuperação foi mais lenta",
                                                                  "colônias profundas recuperaram"])


def test_tables_collected_after_the_references_keep_every_column(tmp_path):
    path = tmp_path / "collected.pdf"
    F.collected_paper(str(path))
    objs = object_units(path)
    _check(path, objs.get("Table 1"), 2, ["Site", "Bleached", "Ningaloo", "37%"], [])
    _check(path, objs.get("Table 2"), 3, ["Lost", "Orpheus Island", "8%"], [])
    assert objs["Table 1"].table_text.splitlines()[:2] == ["Site | Depth | Bleached", "Lizard Island | 4 m | 37%"]


def test_an_appendixs_tables_are_objects_apart_from_the_papers_own(tmp_path):
    """ "Table A1" was no label (a letter before the number): the appendix's tables were lost."""
    path = tmp_path / "appendix.pdf"
    F.collected_paper(str(path), prefix="A")
    objs = object_units(path)
    _check(path, objs.get("Table A1"), 2, ["Site", "Bleached", "Ningaloo", "37%"], [])
    _check(path, objs.get("Table A2"), 3, ["Lost", "Orpheus Island", "8%"], [])
    assert "Table 1" not in objs and parse_label("Table", "A1").key != parse_label("Table", "1.1").key


def test_a_page_turned_by_rotate_has_its_regions_as_shown(tmp_path):
    path = tmp_path / "rotated.pdf"
    F.rotated_paper(str(path))
    assert pdfium.PdfDocument(str(path))[1].get_rotation() == 90
    objs = object_units(path)
    _check(path, objs.get("Table 3"), 2, ["Site", "Bleached", "Ningaloo", "3%"],
           ["Shallow reefs bleached first", "Macrophages switch"])
    assert objs["Table 3"].table_text.splitlines()[1] == "Lizard Island | 4 m | 37%"
    fig = objs.get("Figure 2")
    _check(path, fig, 2, ["fraction bleached"], ["Shallow reefs bleached first"])
    bbox = fig.region["bbox"]
    assert bbox[3] - bbox[1] > 80 and bbox[2] - bbox[0] > 300  # the drawn chart, from the turned graphics


@pytest.mark.parametrize("rotation", [0, 90, 180, 270])
def test_turning_a_box_keeps_it_on_the_shown_page(rotation):
    width, height = 612.0, 792.0
    x0, top, x1, bottom = shown_box(rotation, width, height, 100, 200, 150, 260)
    shown_w, shown_h = (height, width) if rotation % 180 else (width, height)
    assert 0 <= x0 < x1 <= shown_w and 0 <= top < bottom <= shown_h
    assert (x1 - x0, bottom - top) == ((50, 60) if rotation % 180 == 0 else (60, 50))


def test_a_first_line_in_bold_body_size_set_flush_left_is_no_title_and_no_failure(tmp_path):
    """A page opening with a bold line in the body's size that is not centred (a supplement's
    heading over its table) has no title set that way; the file still reads."""
    from reportlab.pdfgen import canvas

    path = tmp_path / "flush.pdf"
    c = canvas.Canvas(str(path))
    c.setFont("Times-Bold", 10)
    c.drawString(72, 760, "Primers used for the assays of this supplement")
    c.setFont("Times-Roman", 10)
    for k in range(30):
        c.drawString(72, 740 - 14 * k, f"Primer pair {k} amplifies the target region in every sample tested here")
    doc = read_drawn(path, c)
    assert doc.title is None and any("Primer pair 3" in b.text for b in doc.blocks)


def test_a_series_of_its_own_gets_ids_apart_from_the_figures_and_the_library_stores_both(tmp_path):
    """"Scheme 1" beside "Figure 1" (a chemistry paper) are two objects with two unit ids."""
    from reportlab.pdfgen import canvas

    from papershelf import Library

    path = tmp_path / "scheme.pdf"
    c = canvas.Canvas(str(path))
    p = F.Page(c)
    p.text(F.BODY)
    p.chart("yield")
    p.caption("Figure 1. Yield of the reaction over time.")
    p.chart("route")
    p.caption("Scheme 1. Synthesis of the inhibitor from its precursor.")
    p.text(F.BODY)
    c.save()
    objs = object_units(path)
    assert {"Figure 1", "Scheme 1"} <= set(objs) and objs["Figure 1"].id != objs["Scheme 1"].id
    with Library(str(tmp_path / "lib.db")) as lib:
        got = lib.add([str(path)]).files[0]
        assert got.reason is None and got.units.get("object") == 2, (got.reason, got.units)


def test_a_page_with_its_content_drawn_turned_is_read_upright_and_stored_as_shown(tmp_path):
    """No /Rotate, but the text runs up the page: the table's cells read as rows and the regions
    hold their own text in the page's own (shown) coordinates."""
    path = tmp_path / "turned.pdf"
    F.turned_content_paper(str(path))
    assert pdfium.PdfDocument(str(path))[1].get_rotation() == 0
    objs = object_units(path)
    _check(path, objs.get("Table 4"), 2, ["Site", "Bleached", "Ningaloo", "3%"],
           ["Shallow reefs bleached first", "Macrophages switch"])
    assert objs["Table 4"].table_text.splitlines()[:2] == ["Site | Depth | Bleached", "Lizard Island | 4 m | 37%"]
    _check(path, objs.get("Figure 3"), 2, ["fraction bleached"], ["Shallow reefs bleached first"])
    bbox = objs["Figure 3"].region["bbox"]
    assert bbox[2] - bbox[0] > 80 and bbox[3] - bbox[1] > 300  # the chart, tall on the upright page


@pytest.mark.parametrize("caption_turned", [True, False])
def test_a_table_set_sideways_beside_upright_text_is_read_in_its_own_frame(tmp_path, caption_turned):
    """A landscape table turned a quarter on an upright page of running text (most of the page's
    characters upright, so the page is read upright): its caption (turned with it or upright above it)
    is a caption, its cells read row by row, its region holds the table and not the paragraphs."""
    path = tmp_path / "sideways.pdf"
    F.sideways_paper(str(path), caption_turned)
    objs = object_units(path)
    _check(path, objs.get("Table 2"), 2, ["Site", "Bleached", "Lizard Island", "22%"],
           ["Macrophages switch", "Deeper colonies kept"])
    assert objs["Table 2"].text == "Bleaching by depth and site, set sideways."
    assert objs["Table 2"].table_text.splitlines()[:2] == ["Site | Depth | Bleached", "Lizard Island | 4 m | 37%"]
    body = " ".join(u.text for u in build_units(read_pdf(path.read_bytes()), "p") if u.kind != "object")
    assert "Osprey Reef" not in body and "Deeper colonies kept their colour." in body


def test_a_short_caption_over_a_page_wide_table_with_its_header_above_the_rule_takes_every_column(tmp_path):
    """The caption fits in the left column and nothing ruled is near it (the first rule is under the
    header row): the header row going on past the gutter says the table is page-wide."""
    path = tmp_path / "wide.pdf"
    F.wide_header_paper(str(path))
    objs = object_units(path)
    _check(path, objs.get("Table 1"), 1, ["Site", "Recovered", "Lost", "Ningaloo", "0%"], ["Macrophages"])
    # the header's second line ("(name)", under "Site") is that cell's: the cell is read whole (`table_cells`)
    assert objs["Table 1"].table_text.splitlines()[0] == "Site (name) | Depth | Colonies | Bleached | Recovered | Lost"


def test_chapter_numbered_labels_are_read_whole_from_a_pdf(tmp_path):
    """A thesis numbers its objects by chapter: "Figure 2.1." is that figure, not "Figure 2" with a
    caption opening "1. …", and the sentence citing it is found."""
    from reportlab.pdfgen import canvas

    path = tmp_path / "thesis.pdf"
    c = canvas.Canvas(str(path))
    p = F.Page(c)
    p.text("As Figure 2.1 shows, the shallow colonies bleached first. " + F.BODY)
    p.chart("fraction bleached")
    p.caption("Figure 2.1. Bleached fraction of colonies across months.")
    p.caption("Table 2.2: Bleaching by depth and site.")
    p.table(F.ROWS)
    p.text(F.BODY)
    c.save()
    objs = object_units(path)
    assert set(objs) == {"Figure 2.1", "Table 2.2"}
    assert objs["Figure 2.1"].text == "Bleached fraction of colonies across months."
    assert "shallow colonies bleached first" in (objs["Figure 2.1"].nearby_body_text or "")
    assert objs["Table 2.2"].table_text.splitlines()[0] == "Site | Depth | Bleached"


def test_a_stamp_up_the_margin_is_still_no_text(tmp_path):
    """Vertical text in the margin that is neither a caption nor a row of a sideways table beside
    its other rows (arXiv's identifier stamp, a two-line download notice) stays out of the body."""
    from reportlab.pdfgen import canvas

    path = tmp_path / "stamp.pdf"
    c = canvas.Canvas(str(path))
    p = F.Page(c)
    for _ in range(3):
        p.text(F.BODY)
    c.saveState()
    c.translate(30, 200)
    c.rotate(90)
    c.setFont("Times-Roman", 9)
    c.drawString(0, 0, "Preprint 2101.01234 deposited 5 January 2021")
    c.drawString(0, -11, "For personal use only")  # a publisher's download notice: two lines up the margin
    c.restoreState()
    body = " ".join(u.text for u in build_units(read_drawn(path, c), "p") if u.kind != "object")
    assert "Macrophages" in body and "Preprint" not in body and "personal use" not in body


@pytest.mark.parametrize("turn", [0, 90, 180, 270])
def test_a_box_read_turned_is_stored_where_the_page_shows_it(turn):
    from papershelf.ingest.pdf.text.rotation import unturned_box

    width, height = 612.0, 792.0  # the page as shown
    turned = shown_box(turn, width, height, 100, 200, 150, 260)
    read_w, read_h = (height, width) if turn % 180 else (width, height)
    assert unturned_box(turn, read_w, read_h, turned) == (100, 200, 150, 260)


def test_short_paragraphs_set_tight_against_objects_stay_out_of_their_regions(tmp_path):
    path = tmp_path / "close.pdf"
    F.close_paragraph_paper(str(path))
    objs = object_units(path)
    _check(path, objs.get("Table 1"), 1, ["Site", "Lizard Island", "3%"], ["scene for what follows", "depth profile"])
    _check(path, objs.get("Table 2"), 1, ["Recovered", "Osprey Reef", "19%"], ["reefs we surveyed", "Recovery was"])
    _check(path, objs.get("Figure 1"), 1, ["fraction bleached"], ["Shallow colonies lost most"])
    assert "reefs we surveyed" not in objs["Table 2"].table_text


def test_a_caption_right_under_another_table_takes_the_table_under_it(tmp_path):
    path = tmp_path / "stacked.pdf"
    F.stacked_tables_paper(str(path))
    objs = object_units(path)
    _check(path, objs.get("Table 1"), 1, ["Lizard Island", "Ningaloo"], ["Orpheus Island"])
    _check(path, objs.get("Table 2"), 1, ["Orpheus Island", "Osprey Reef"], ["Ningaloo", "Heron Reef"])


def test_generated_layouts_have_their_regions_and_cells(tmp_path):
    """Twelve generated papers (development seeds): one or two columns, /Rotate and turned content,
    every rule style, captions on either side.  Main read 35 of these 45 regions right."""
    import sys

    sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parent.parent / "bench"))
    from synthetic_objects import check

    right = total = 0
    for seed in range(0, 24, 2):
        truth = F.synthetic_paper(seed, str(tmp_path / f"{seed}.pdf"))
        units = object_units(tmp_path / f"{seed}.pdf")
        for obj in truth["objects"]:
            total += 1
            right += check(obj, units.get(obj["label"]), truth["prose"].get(obj["page"], []))[0]
    assert right >= 0.9 * total, (right, total)


def test_a_number_in_a_table_row_near_the_page_foot_is_a_cell_not_a_page_number(tmp_path):
    from reportlab.pdfgen import canvas

    path = tmp_path / "foot.pdf"
    c = canvas.Canvas(str(path))
    p = F.Page(c)
    for _ in range(5):
        p.text(F.BODY)
    p.y = 0.18 * F.H  # the table's last row sits in the page's lowest sixth, above the margin
    p.caption("Table 1. Colonies counted per site.")
    p.table([["Site", "Colonies", "Tagged"], ["Heron Reef", "409", "77"], ["Ningaloo", "512", "64"]])
    c.drawString(F.W / 2, 30, "7")  # the page number, alone in the margin
    c.save()
    text = object_units(path)["Table 1"].table_text
    assert "Heron Reef | 409 | 77" in text and "Ningaloo | 512 | 64" in text
    assert "7" not in text.split()


def test_two_tables_stacked_between_their_captions_part_where_their_columns_change(tmp_path):
    path = tmp_path / "facing.pdf"
    F.facing_tables_paper(str(path))
    objs = object_units(path)
    _check(path, objs.get("Table 1"), 1, ["Lizard Island", "Ningaloo", "Bleached"], ["Outer slope", "Reef flat"])
    _check(path, objs.get("Table 2"), 1, ["Outer slope", "Reef flat", "Tagged"], ["Lizard Island", "Ningaloo"])
    assert "Outer slope" not in objs["Table 1"].table_text and "Heron Reef" not in objs["Table 2"].table_text


def test_objects_in_a_narrow_margin_column_keep_out_of_the_body_columns(tmp_path):
    from .layout_fixtures import BODY_COLUMNS, MARGIN_COLUMN, margin_column_paper

    path = tmp_path / "margin.pdf"
    margin_column_paper(str(path))
    objs = object_units(path)
    _check(path, objs.get("Table 1"), 1, ["Lizard Island", "Ningaloo", "3%"], [])
    for label in ("Table 1", "Figure 1"):
        bbox = objs[label].region["bbox"]
        assert MARGIN_COLUMN[0] - 6 <= bbox[0] and bbox[2] <= BODY_COLUMNS[0][0] - 2, (label, bbox)
    assert objs["Table 1"].table_text.splitlines()[1] == "Lizard Island | 4 m | 37%"


def test_a_table_set_double_spaced_is_found_under_its_caption(tmp_path):
    from .layout_fixtures import loose_table_paper

    path = tmp_path / "loose.pdf"
    loose_table_paper(str(path))
    table = object_units(path).get("Table 1")
    _check(path, table, 1, ["Site", "Lizard Island", "Ningaloo", "3%"], [])
    assert table.table_text.splitlines()[-1] == "Ningaloo | 15 m | 3%"


def test_a_table_under_its_caption_stacked_over_a_figure_above_its_caption_parts_where_the_drawing_starts(tmp_path):
    from .layout_fixtures import table_over_figure_paper

    path = tmp_path / "table_figure.pdf"
    table_over_figure_paper(str(path))
    objs = object_units(path)
    _check(path, objs.get("Table 1"), 1, ["Lizard Island", "Ningaloo", "lowest tide"], ["Share of colonies"])
    first_chart = _center(path, 1, "Share of colonies")
    assert _holds(objs["Figure 1"].region, first_chart)
    assert not _holds(objs["Figure 1"].region, _center(path, 1, "Ningaloo"))
    assert "Share of colonies" not in objs["Table 1"].table_text


@pytest.mark.parametrize("seed", [10, 40, 8])  # plates, a first panel's capital letter, Portuguese labels
def test_generated_label_styles_give_every_object_its_label(tmp_path, seed):
    """Generated papers of the seventh set (`object_labels`): every object found under the label it prints."""
    path = tmp_path / "labels.pdf"
    truth = F.synthetic_paper(seed, str(path), False, True, fourth_set=True, fifth_set=True, seventh_set=True)
    assert truth["layout"]["labels"] is not None
    labels = {u.object_label for u in build_units(read_pdf(path.read_bytes()), "p") if u.kind == "object"}
    assert [o["label"] for o in truth["objects"] if o["label"] not in labels] == []
