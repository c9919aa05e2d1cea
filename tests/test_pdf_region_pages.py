"""Objects on real layouts (helper regions11, issue #38), from generated papers of the fifth set
(`object_pages`): text wrapped beside an object, a table continued overleaf with no repeated caption,
a caption whose label is set larger, running text set smaller past the first page, a running foot
turned up a turned page's margin.  Each generated object is checked as bench/synthetic_objects.py
checks it: its region on its page holds the centre of every piece of its own text, meets no line of
the page's running text, and covers the drawn object; a table's cells are in its text."""

from __future__ import annotations

from .object_fixtures import inside, meets, norm_text, object_units, synthetic_paper


def _iou(a, b) -> float:
    w, h = min(a[2], b[2]) - max(a[0], b[0]), min(a[3], b[3]) - max(a[1], b[1])
    if w <= 0 or h <= 0:
        return 0.0
    return w * h / ((a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - w * h)


def _check(tmp_path, seed: int, label: str, kind: str, sixth: bool = False) -> None:
    path = tmp_path / f"{seed}.pdf"
    truth = synthetic_paper(seed, str(path), False, True, fourth_set=True, fifth_set=True, sixth_set=sixth)
    obj = next(o for o in truth["objects"] if o["label"] == label)
    assert kind in (obj.get("fifth"), truth["layout"].get("fifth"), obj.get("variant"), truth["layout"].get("fourth"))
    unit = object_units(path)[label]
    region = unit.region
    assert region is not None and region["page"] == obj["page"], (seed, label)
    assert all(inside(b, region["bbox"]) for b in obj["inside"]), (seed, label, region)
    assert not any(meets(b, region["bbox"]) for b in truth["prose"].get(obj["page"], [])), (seed, label, region)
    assert _iou(region["bbox"], obj["bbox"]) >= 0.5, (seed, label, region)
    text = norm_text(unit.table_text or "")
    assert not [c for c in obj["cells"] if norm_text(c) not in text], (seed, label)


def test_an_object_with_text_wrapped_beside_it_keeps_to_its_side(tmp_path):
    """Seed 54: a table over its caption at a column's right, running text wrapped at its left (the
    reader took the wrapped lines for an object beside the caption); seed 76: a chart likewise (no
    region: the walk stopped at the wrapped text at once)."""
    _check(tmp_path, 54, "Table 2", "wrap_text")
    _check(tmp_path, 76, "Figure 1", "wrap_text")


def test_a_table_continued_overleaf_keeps_its_rows(tmp_path):
    """Seed 72: a table under its caption runs past the page's foot and goes on at the next page's
    top, with no caption or header repeated: every row's cells are the table's."""
    _check(tmp_path, 72, "Table 2", "continued")


def test_a_caption_with_a_larger_label_goes_on(tmp_path):
    """Seed 54: "Fig. 1." set larger and bold, the caption's short second line in its own size: the
    caption goes on into it, and the picture under it is the figure's."""
    _check(tmp_path, 54, "Figure 1", "label_caption")


def test_a_table_header_in_bold_beside_smaller_running_text(tmp_path):
    """Seed 40: running text set 1.5 pt smaller past page 1 (read as that page's body size); a table's
    bold header of words, in about that size, stays the table's (a guard: the first reading of the
    smaller body took it for a paragraph's line and lost it)."""
    _check(tmp_path, 40, "Table 2", "small_text")


def _doc(name: str):
    from papershelf.ingest.pdf import read_pdf

    from .conftest import shared

    return read_pdf(shared("pdfs-wide", name).read_bytes())


def _caption(doc, page: int, start: str):
    i = next(i for i, b in enumerate(doc.blocks) if b.page == page and b.region and b.text.startswith(start))
    after = doc.blocks[i + 1] if i + 1 < len(doc.blocks) and doc.blocks[i + 1].kind == "table" else None
    return doc.blocks[i], after.text if after is not None else ""


def test_dev_pages_read_faithfully():
    """The dev-half pages read10 listed (shared data; rendered and read): a figure over its caption on
    a page whose text is set smaller than the paper's; a table's cells beside text wrapped round it;
    a table's rows under a head row pdfium reads as one spread line; a table run on overleaf; a
    caption's smaller lines after its label's; a landscape table without its turned running foot."""
    cshl = _doc("cshl-rna-2013-motif-recognition.pdf")
    fig5, _ = _caption(cshl, 8, "FIGURE 5")
    assert fig5.region["bbox"][1] > fig5.region["caption_bbox"][3]  # above its caption, not over the text
    _, cells = _caption(cshl, 3, "TABLE 1")
    assert "0.971" in cells and "isostericity" not in cells
    fig1, _ = _caption(cshl, 4, "FIGURE 1")
    assert fig1.region["bbox"][0] > 200 and fig1.text.endswith("protein L22.")
    _, cells = _caption(_doc("tandf-aehm-2008-saginaw-bay-currents.pdf"), 3, "Table 1")
    assert "44.2805" in cells and "6-93B" in cells
    _, cells = _caption(_doc("rsc-advances-2016-esi-polyimidization.pdf"), 3, "Table S2")
    assert "S42" in cells and "darkened immediately" in cells
    fig4, _ = _caption(_doc("versita-actaparasitol-2009.pdf"), 6, "Fig. 4.")
    assert fig4.text.endswith("500 µm (G)")
    table3, cells = _caption(_doc("bmj-open-2016-goactive.pdf"), 5, "Table 3")
    assert table3.text.endswith("supporting information") and cells.startswith("Intervention")
