"""Heading classes of round heads17 (issue 38): a title ending in abbreviations ("Description of
Sulfurimonas gotlandica sp. nov.") in the paper's own heading style, numbered titles too long for
one line (wrapped over up to four lines, or of more than fourteen words), a wrapped title whose
lines reach past a ragged-right column's text, and small-print headings of twelve words."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from papershelf.ingest.pdf.sections.heading_long import long_numbered_title
from papershelf.ingest.pdf.sections.heading_period import abbreviated_title
from papershelf.ingest.pdf.sections.heading_style import Para
from papershelf.ingest.pdf.text.lines import Line

from .conftest import shared
from .wide_headings import pdf_headings

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))


def _line(text: str, top: float, size: float = 10.0, bold: bool = True) -> Line:
    return Line(page=1, x0=50.0, top=top, x1=250.0, bottom=top + size, text=text, size=size, bold=bold)


def _para(text: str, top: float = 100.0, gap: float = 2.5, **kw) -> Para:
    return Para(lines=[_line(text, top, **kw)], text=text, gap_above=gap)


def test_a_title_ending_in_abbreviations_in_the_headings_style():
    styles = {(10.0, True, False)}
    body = _para("The type strain is isolated from the central Baltic Sea.", 120.0, bold=False)
    assert abbreviated_title(_para("Description of Sulfurimonas gotlandica sp. nov."), body, styles)
    assert abbreviated_title(_para("Emended description of the genus Smith et al."), body, styles)
    # a sentence's end, a second sentence, another style, no space above, nothing under it: no heading
    assert not abbreviated_title(_para("The strain was used."), body, styles)
    assert not abbreviated_title(_para("Cells were grown. Growth was fast in sp. nov."), body, styles)
    assert not abbreviated_title(_para("Description of Sulfurimonas gotlandica sp. nov.", bold=False), body, styles)
    assert not abbreviated_title(_para("Description of Sulfurimonas gotlandica sp. nov.", gap=1.0), body, styles)
    assert not abbreviated_title(_para("Description of Sulfurimonas gotlandica sp. nov."), None, styles)


def test_long_numbered_title_over_lines_of_one_style():
    title = "Protein extraction, gel electrophoresis, western blot analysis, tissue prints and oxidase determinations"
    words = title.split()
    lines = [_line(" ".join(words[k:k + 3]), 100.0 + 12 * k) for k in range(0, len(words), 3)]
    assert len(lines) == 4 and long_numbered_title(lines, title, True)
    assert not long_numbered_title(lines, title, False)  # in the body's own style: a list item may be as long
    assert not long_numbered_title(lines[:1], title, True)  # one line of 12 words is the one-line rules' case
    mixed = lines[:3] + [_line(lines[3].text, 136.0, bold=False)]
    assert not long_numbered_title(mixed, title, True)  # a title's lines and the text under it
    assert not long_numbered_title(lines, "Cells were lysed. Then the proteins were run on gels and blotted", True)


def test_taxonomic_description_headings_are_read():
    heads = pdf_headings(shared("pdfs-wide", "ijsem-2013-sulfurimonas-gotlandica.pdf"))
    texts = [(p, t) for p, _, t in heads]
    assert (6, "Emended description of the genus Sulfurimonas") in texts
    assert (6, "Description of Sulfurimonas gotlandica sp. nov.") in texts
    assert (7, "Acknowledgements") in texts and (7, "References") in texts


@pytest.mark.parametrize("seed, wanted", [
    (88, ["2.3 Protein extraction, gel electrophoresis, western blot analysis, tissue prints and oxidase "
          "determinations", "3.3 Effects of the compound on nitration and phosphorylation of the pathway and on "
          "survival in the control cohort"]),
    (16, ["Protein extraction, gel electrophoresis, western blot analysis, tissue prints and oxidase determinations"]),
    (106, ["Effects of the compound on survival of cells from the control cohort"]),
])
def test_generated_long_titles_are_read_whole(tmp_path, seed, wanted):
    """Seed 88: numbered titles on four lines and of eighteen words; seed 16: an unnumbered bold title
    wrapped in a ragged-right column; seed 106: a twelve-word heading in small print."""
    from gen_headings import make

    path = tmp_path / f"gen{seed}.pdf"
    make(seed, str(path))
    texts = [t for _, _, t in pdf_headings(path)]
    for title in wanted:
        number, _, rest = title.partition(" ")
        assert title in texts or f"{number}. {rest}" in texts, title


def test_a_heading_on_its_own_line_stands_for_the_section_not_the_abstracts_label():
    """Termedia 2016 prints "Introduction:" opening its structured abstract's paragraph (an optional
    truth entry) and "Introduction" as the section below it, both on page 1: the section's heading
    found takes the required entry, whichever the truth lists first; a run-in one takes the label."""
    from pdf_headings_score import score_paper

    from papershelf.document import Block

    truth = [{"level": 2, "number": "", "title": "Introduction:", "page": 1, "optional": True},
             {"level": 1, "number": "", "title": "Introduction", "page": 1, "optional": False}]
    own_line = [Block(kind="heading", text="Introduction", level=1, page=1),
                Block(kind="text", text="Hepatocellular carcinoma is common.", page=1)]
    s = score_paper(own_line, truth)
    assert (s["tp"], s["missed"]) == (1, [])
    run_in = [Block(kind="heading", text="Introduction:", level=2, page=1),
              Block(kind="text", text="Introduction: COX-2 is believed to matter.", page=1)]
    s = score_paper(run_in, truth)
    assert (s["tp"], s["missed"]) == (0, ["Introduction"])


def test_a_lettered_section_above_a_table_is_no_row_of_it():
    """IACR 2016 p34: "B Parameters", set bold and larger than the body as the paper's sections are,
    sits above a table whose caption is below it; the table's region stops there (its title in mixed
    case, which `lettered_heading` alone asks in capitals or italics of a body-size line)."""
    from papershelf.ingest.pdf.sections.heading_cues import lettered_section
    from papershelf.ingest.pdf.sections.heading_style import BodyStyle

    body = BodyStyle(size=10.0, bold=False)
    assert lettered_section(_line("B Parameters", 100.0, size=12.0), body)
    assert not lettered_section(_line("B Parameters", 100.0, size=10.0), body)  # a table's group row
    assert not lettered_section(_line("B Parameters", 100.0, size=12.0, bold=False), body)
    assert not lettered_section(_line("2 Parameters", 100.0, size=12.0), body)  # numbers: names_section's
    heads = pdf_headings(shared("pdfs-wide", "iacr-eprint-2016-ntru-prime.pdf"))
    assert (34, 1, "B Parameters") in heads and (29, 1, "A Avoiding rings with worrisome structure") in heads
