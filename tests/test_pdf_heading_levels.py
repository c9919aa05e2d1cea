"""Heading levels and numbered siblings from the paper's own heading styles (issue 38, round heads8),
each drawn as a generated PDF: in a paper without numbering whose standard names are centred bold
capitals, flush-left sub-headings in another face are level 2 below them (not level 1 for being the
only candidates of their kind); a numbered sub-section in the body's own roman at a page's top,
where no space above it shows, is a heading when "3.1" before it was set in that very style (heads9:
and so is one in a gap of the sequence; a lettered item that leaves its sentence open is none)."""

from reportlab.lib.pagesizes import letter
from reportlab.pdfgen import canvas

from .test_pdf_heading_styles import _headings, _para, _title

W, H = letter


def _centred_caps(c: canvas.Canvas, y: float, text: str) -> float:
    c.setFont("Helvetica-Bold", 11)
    c.drawCentredString(W / 2, y, text)
    return y - 20


def _flush(c: canvas.Canvas, y: float, text: str, font: str = "Helvetica", size: float = 10) -> float:
    c.setFont(font, size)
    c.drawString(72, y, text)
    return y - 16


def test_subheadings_below_centred_capital_sections_are_level_two(tmp_path):
    path = tmp_path / "ranked.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    y = _centred_caps(c, _title(c), "INTRODUCTION")
    y = _para(c, 72, y, 460) - 14
    y = _centred_caps(c, y, "MATERIALS AND METHODS")
    y = _flush(c, y, "Eligibility criteria")
    y = _para(c, 72, y, 460) - 14
    y = _flush(c, y, "Data collection")
    y = _para(c, 72, y, 460) - 14
    y = _centred_caps(c, y, "RESULTS")
    y = _flush(c, y, "Body mass between the two cohorts")
    y = _para(c, 72, y, 460) - 14
    y = _centred_caps(c, y, "DISCUSSION")
    _para(c, 72, y, 460)
    c.save()
    assert _headings(path) == [
        ("INTRODUCTION", 1), ("MATERIALS AND METHODS", 1), ("Eligibility criteria", 2), ("Data collection", 2),
        ("RESULTS", 1), ("Body mass between the two cohorts", 2), ("DISCUSSION", 1),
    ]


def _section(c: canvas.Canvas, y: float, title: str, font: str) -> float:
    y = _flush(c, y - 10, title, font, 12 if font.endswith("Bold") else 10) - 4
    return _para(c, 72, y, 460) - 14


def test_numbered_subsection_at_a_page_top_in_its_siblings_style(tmp_path):
    path = tmp_path / "sibling.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    y = _section(c, _title(c), "1 Introduction", "Helvetica-Bold")
    y = _section(c, y, "2 Methods", "Helvetica-Bold")
    y = _section(c, y, "3 Experimental Results", "Helvetica-Bold")
    _section(c, y, "3.1 Simulation Experiments", "Times-Roman")
    c.showPage()
    y = _flush(c, H - 72, "3.2 Experiments on Real Data", "Times-Roman") - 4
    y = _para(c, 72, y, 460) - 14
    _section(c, y, "4 Conclusion", "Helvetica-Bold")
    c.save()
    assert _headings(path) == [
        ("1 Introduction", 1), ("2 Methods", 1), ("3 Experimental Results", 1), ("3.1 Simulation Experiments", 2),
        ("3.2 Experiments on Real Data", 2), ("4 Conclusion", 1),
    ]


def _lettered(c: canvas.Canvas, y: float, label: str, lines: list[str]) -> float:
    """A lettered sub-section title: the label in roman, the title in bold italics (Royal Society)."""
    for k, line in enumerate(lines):
        x = 72
        if k == 0:
            c.setFont("Times-Roman", 10)
            c.drawString(x, y, label)
            x += c.stringWidth(label + " ", "Times-Roman", 10)
        else:
            x += c.stringWidth(label + " ", "Times-Roman", 10)
        c.setFont("Times-BoldItalic", 10)
        c.drawString(x, y, line)
        y -= 12
    return y - 4


def test_lettered_subsections_with_a_roman_label_before_a_bold_italic_title(tmp_path):
    """"(a)" in roman before a bold-italic title, one line or wrapped onto two: a sub-section of the
    numbered section above it; a paragraph that opens with "(b)" in roman is text."""
    path = tmp_path / "lettered.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    y = _section(c, _title(c), "1. INTRODUCTION", "Helvetica-Bold")
    y = _flush(c, y - 10, "2. MATERIAL AND METHODS", "Helvetica-Bold", 12) - 4
    y = _lettered(c, y - 6, "(a)", ["The contribution of individual odorants"])
    y = _para(c, 72, y, 460) - 14
    y = _lettered(c, y, "(b)", ["A mixture was more similar to a constant odorant", "than to a variable odorant"])
    y = _para(c, 72, y, 460) - 14
    y = _para(c, 72, y, 460, text="(c) the cells were washed twice and incubated again for an hour before they were "
                                   "counted under the microscope by two observers who did not know the group.") - 14
    _section(c, y, "3. RESULTS", "Helvetica-Bold")
    c.save()
    assert _headings(path) == [
        ("1. INTRODUCTION", 1), ("2. MATERIAL AND METHODS", 1), ("(a) The contribution of individual odorants", 2),
        ("(b) A mixture was more similar to a constant odorant than to a variable odorant", 2), ("3. RESULTS", 1),
    ]


def test_numbered_subsection_in_a_gap_of_its_siblings_sequence(tmp_path):
    """"3.2" set tight under a paragraph (no more space above than a paragraph) between headings
    "3.1" and "3.3" of its style fills the gap: a heading.  The same tight line with no "3.3" after
    it stays text (nothing in the sequence vouches for it)."""
    def paper(name: str, with_next: bool):
        path = tmp_path / name
        c = canvas.Canvas(str(path), pagesize=letter)
        y = _section(c, _title(c), "1 Introduction", "Helvetica-Bold")
        y = _section(c, y, "2 Methods", "Helvetica-Bold")
        y = _section(c, y, "3 Experimental Results", "Helvetica-Bold")
        y = _section(c, y, "3.1 Simulation Experiments", "Times-Roman") + 18
        y = _flush(c, y, "3.2 Experiments on Real Data", "Times-Roman") + 2
        y = _para(c, 72, y, 460) - 14
        if with_next:
            y = _section(c, y, "3.3 Ablations", "Times-Roman")
        _section(c, y, "4 Conclusion", "Helvetica-Bold")
        c.save()
        return _headings(path)

    assert paper("gap.pdf", True) == [
        ("1 Introduction", 1), ("2 Methods", 1), ("3 Experimental Results", 1), ("3.1 Simulation Experiments", 2),
        ("3.2 Experiments on Real Data", 2), ("3.3 Ablations", 2), ("4 Conclusion", 1),
    ]
    assert ("3.2 Experiments on Real Data", 2) not in paper("nogap.pdf", False)


def test_lettered_list_items_that_leave_their_sentence_open_are_no_headings(tmp_path):
    """Italic "a. If ε ≤ 1, then" / "b. If ε ≤ 1, then" lines under a lemma are list items (their
    sentence goes on in the formula below), not sub-sections; taking them as headings also broke
    the section numbering, so "3. DISCUSSION" after them was lost."""
    path = tmp_path / "items.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    y = _section(c, _title(c), "1. INTRODUCTION", "Helvetica-Bold")
    y = _section(c, y, "2. THE MAIN THEOREM", "Helvetica-Bold")
    y = _flush(c, y, "Lemma 2.2. Let k be at most d. Then", "Times-Roman") - 8
    for label in ("a.", "b."):
        y = _flush(c, y, f"{label} If e is at most 1, then", "Times-Italic") - 8
        y = _flush(c, y, "Pr[ L >= (1 + e) k / d ] <= exp( k / 2 (1 - b + ln b) )", "Times-Roman") - 8
    y = _para(c, 72, y, 460) - 14
    _section(c, y, "3. DISCUSSION", "Helvetica-Bold")
    c.save()
    assert _headings(path) == [
        ("1. INTRODUCTION", 1), ("2. THE MAIN THEOREM", 1), ("3. DISCUSSION", 1),
    ]


def test_one_style_for_sections_and_subsections_levels_by_stacking(tmp_path):
    """heads10: sections and sub-sections all in bold at the body's size, no numbers; "Introduction"
    set right over "Smartphones" shows the style serves two levels: standard names and headings set
    over another are sections, the rest sub-sections.  Without a stacked pair all stay level 1."""
    def paper(path, stacked: bool) -> None:
        c = canvas.Canvas(str(path), pagesize=letter)
        y = _title(c)
        for title, text in (("Introduction", not stacked), ("Smartphones", True), ("Physiological parameters", True),
                            ("Methods", True), ("Questionnaire", True), ("Results", True), ("Reaction time", True),
                            ("Discussion", True)):
            y = _flush(c, y - 8, title, "Times-Bold", 10)
            y = _para(c, 72, y, 460, text=" ".join(["The measured response grew with the dose."] * 3)) - 8 \
                if text else y
            if y < 150:
                c.showPage()
                y = H - 72
        c.save()

    paper(tmp_path / "flat.pdf", True)
    assert _headings(tmp_path / "flat.pdf") == [
        ("Introduction", 1), ("Smartphones", 2), ("Physiological parameters", 2), ("Methods", 1),
        ("Questionnaire", 2), ("Results", 1), ("Reaction time", 2), ("Discussion", 1)]
    paper(tmp_path / "spaced.pdf", False)
    assert {level for _, level in _headings(tmp_path / "spaced.pdf")} == {1}
