"""A caption read to its end (helper captions14): cases seen on real dev PDFs, as lines."""

from __future__ import annotations

from papershelf.ingest.pdf.objects.caption_gaps import caption_wraps
from papershelf.ingest.pdf.objects.region_rows import _caption_lines
from papershelf.ingest.pdf.sections.headings import BodyStyle
from papershelf.ingest.pdf.text.lines import Line

_STYLE = BodyStyle(size=9.0, bold=False)


def _line(x0: float, top: float, x1: float, text: str, size: float = 9.0, tall: float | None = None) -> Line:
    return Line(1, x0, top, x1, top + (tall or size), text, size, False)


def test_a_caption_in_a_font_the_pdf_sizes_wrong_goes_on_at_its_line_pitch():
    # pdfium says 5.2 for 9-point lines 9 points tall (a scaling text matrix); the next lines say 9.0
    first = _line(317, 392, 556, "Figure 2. State machine describing the major activities of Trace-", 5.2, 9)
    rows = [_line(317, 403, 556, "Monkey and the conditions that cause transitions to a new activ-", 5.2, 9),
            _line(317, 413, 556, "ity. In the dark box, TM executes JS as compiled traces. In the", 9.0, 8),
            _line(317, 423, 420, "light gray boxes, TM executes JS.", 9.0, 8)]
    body = _line(317, 450, 556, "The next paragraph of the body starts after a gap of its own.", 9.0, 8)
    assert _caption_lines([first, *rows, body], first, _STYLE) == [first, *rows]


def test_a_stray_mark_between_a_captions_rows_does_not_end_it():
    first = _line(87, 463, 525, "Figure 16: A quantum circuit representation of the weights for a percep-", 10)
    mark = _line(175, 472, 178, "", 10, 2)
    rest = _line(87, 475, 300, "tron and the dashed box of the training.", 10)
    assert rest in _caption_lines([first, mark, rest], first, _STYLE)


def test_a_centred_caption_goes_on_from_its_own_left_edge_not_the_columns():
    body = [_line(127, 100 + 12 * i, 485, "A line of running text set across the whole column of the page.", 10)
            for i in range(6)]
    first = _line(163, 216, 449, "Figure 11. The complex on the left is pure, while the one on", 10)
    rest = _line(163, 228, 230, "the right is not.", 10)
    at_edge = _line(127, 228, 230, "the right is not.", 10)
    assert rest in _caption_lines([*body, first, rest], first, _STYLE)
    assert at_edge not in _caption_lines([*body, first, at_edge], first, _STYLE)


def test_a_captions_first_line_wraps_into_smaller_text_but_a_whole_one_line_caption_does_not():
    first = _line(309, 135, 545, "Figure 8: (Left) Generating hybrid motions (See the video [24]). We", 9)
    rest = _line(309, 144, 545, "demonstrate flexibility of S-RNN by generating a hybrid motion", 8)
    assert caption_wraps([first], rest, 545, set())
    assert not caption_wraps([first], rest, 545, {id(first)})  # a label cited mid-sentence opens no caption
    short = _line(309, 135, 420, "Table 4: Model size comparison.", 9)
    row = _line(309, 144, 545, "Model Parameters Layers Hidden size", 8)
    assert not caption_wraps([short], row, 545, set())
    side = _line(37, 223, 150, "Fig. 4. (A and B) Whole-animal", 9)  # a side caption beside a wider body column
    assert caption_wraps([side], _line(37, 233, 150, "DAPI staining revealed that ced-", 9), 203, set())
    assert not caption_wraps([side], _line(37, 233, 150, "Fig. 5. Another caption", 9), 203, set())


def test_a_label_in_a_phrase_set_in_capitals_cites_nothing():
    from papershelf.captions import cited_labels

    assert cited_labels("a help example for something like ASK-FOR POLITELY TABLE 2 PERSON will be formed") == set()
    assert cited_labels("as TABLE 2 and FIGURE 3 show") == {"Table 2", "Figure 3"}
    assert cited_labels("(TABLE 2) and Table 3") == {"Table 2", "Table 3"}


def test_an_indented_line_after_a_caption_and_a_caption_joined_by_its_region_take_nothing_more():
    first = _line(53, 445, 277, "Figure 2: Zipf input comparison with parameter 0.8", 9.8)
    indented = _line(61, 457, 281, "As a reference point, we included the hit rate of", 9.8)
    assert not caption_wraps([first], indented, 281, set())
    joined = Line(1, 49, 445, 281, 504, "Figure 2: Zipf input comparison with parameter 0.8 fice", 9.8, False)
    assert not caption_wraps([joined], _line(49, 507, 281, "the A0 algorithm replaces the page", 9.8), 281, set())
