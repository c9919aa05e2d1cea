"""Heading classes of round heads14 (issue 38), read on the dev half's own PDFs: an unnumbered
heading style ranked several places below the sections (no level is skipped), running heads that
carry the page's own number after the current section's title, three-line wrapped titles, and bold
run-in headings wrapped over whole lines whose lead-in closes with a colon."""



from papershelf.document import Block
from papershelf.ingest.pdf.layout.sheets import paged_heads, running_key
from papershelf.ingest.pdf.sections.heading_levels import no_skipped_levels
from papershelf.ingest.pdf.text.lines import Line
from tests.wide_headings import wide_headings


def _heads(levels: list[tuple[int, str]]) -> list[Block]:
    return [Block("heading", text, level=level, page=1) for level, text in levels]


def test_no_unnumbered_heading_skips_a_level():
    blocks = _heads([(1, "Results"), (4, "Effect of NaCl"), (4, "Dry matter"), (1, "Discussion"), (1, "Methods"),
                     (4, "Plant materials"), (5, "Seedlings")])
    no_skipped_levels(blocks, lambda text: False)
    assert [b.level for b in blocks] == [1, 2, 2, 1, 1, 2, 3]


def test_numbered_headings_keep_their_depth():
    blocks = _heads([(1, "1 Introduction"), (3, "1.1.1 Setting"), (3, "Notes")])
    no_skipped_levels(blocks, lambda text: text[:1].isdigit())
    assert [b.level for b in blocks] == [1, 3, 3]


def _line(page: int, text: str) -> Line:
    return Line(page=page, x0=80, top=70, x1=530, bottom=82, text=text, size=12.0, bold=True)


def test_running_heads_with_the_page_number():
    """A thesis's odd pages head with the section and the page's number (index − 12)."""
    lines = [_line(17, "1.6 Overview 5"), _line(21, "2.1 Streams 9"), _line(23, "2.2 Historical Notes 11"),
             _line(40, "3 Results")]
    keys = paged_heads(lines, 3)
    assert running_key("1.6 Overview 5") in keys and running_key("2.2 Historical Notes 11") in keys
    assert running_key("3 Results") not in keys
    assert not paged_heads(lines[:2], 3)  # two pages show no page numbering
    assert not paged_heads([_line(5, "Results 2"), _line(9, "Methods 3"), _line(12, "Notes 4")], 3)


_wide = wide_headings


def test_shared_dev_papers():
    jipb = _wide("wiley-jipb-2010-nacl-stress.pdf")
    assert (2, "Effect of NaCl on the photosynthetic rate of maize seedlings") in jipb
    assert (2, "Statistical analysis") in jipb and max(level for level, _ in jipb) == 2
    assert any(t.startswith("Dynamic changes of Na") and t.endswith("under NaCl stress") for _, t in jipb)
    thesis = [t for _, t in _wide("thesis-cmu-1996-okasaki.pdf")]
    assert "1.6 Overview" in thesis and "1.6 Overview 5" not in thesis and "2.1 Streams 9" not in thesis
    assert (3, "Smart Tiling Evaluation for Randomly Generated Programs") in _wide("usenix-atc-2015-spartan.pdf")


def test_shared_dev_papers_numbers_and_tails():
    """"2 2Q Algorithm Description" is section 2 (its title opens with a digit); a bare "Table 1." set
    under an unfinished sentence is its tail, and the bold title below it no table cell."""
    assert (1, "2 2Q Algorithm Description") in _wide("vldb-1994-2q-buffer.pdf")
    assert (2, "Induction of Apoptosis") in _wide("tandf-nnna-2006.pdf")
    bsa = _wide("bsa-ajb-2000-endemic-plants.pdf")
    assert (2, "Effect of experimental removal of neighbors (experiment 3)") in bsa
