"""Heading classes of round heads15 (issue 38), read on the Zotero library's dev-half PDFs: outlines
whose top entries wrap the paper (its title, its authors), sub-headings each section repeats taken
for running heads, headings a ruled table or a drawn frame swallowed or produced, IEEE's centred
two-line small-capital titles, numbered titles named like standards ("3.5. P.563"), and bold numbered
sub-headings set a little smaller than the body under larger unnumbered sections."""

from __future__ import annotations

import pytest

from papershelf.ingest.pdf.layout.frames import drawn_frames, framed_lines
from papershelf.ingest.pdf.layout.sheets import repeated_texts
from papershelf.ingest.pdf.sections.heading_cues import lettered_heading
from papershelf.ingest.pdf.sections.outline import Entry, unwrapped
from papershelf.ingest.pdf.text.lines import Line

from .conftest import shared
from .wide_headings import pdf_headings


def test_outline_title_and_author_entries_unwrapped():
    """A chapter's outline: its title, under it its authors' line, under that the sections."""
    entries = [Entry("Autoencoders", 1, 1), Entry("Dor Bank, Noam Koenigstein, Raja Giryes", 2, 1),
               Entry("1 Autoencoders", 3, 1), Entry("2.1 Sparse Autoencoders", 4, 3), Entry("References", 3, 19)]
    assert [(e.title, e.level) for e in unwrapped(entries)] == [
        ("1 Autoencoders", 1), ("2.1 Sparse Autoencoders", 2), ("References", 1)]
    survey = [Entry("VoIP: A comprehensive survey", 1, 1), Entry("Introduction", 2, 1), Entry("QoS", 2, 3),
              Entry("Delay", 3, 3)]
    assert [e.level for e in unwrapped(survey)] == [1, 1, 2]


def test_outline_sections_kept():
    """Top entries that are sections, or a numbered first chapter holding all, stay as they are."""
    flat = [Entry("I. Introduction", 1, 1), Entry("A. Data", 2, 3), Entry("II. Results", 1, 4)]
    assert unwrapped(flat) == flat
    chapter = [Entry("1 Introduction", 1, 1), Entry("1.1 Scope", 2, 1), Entry("1.2 Plan", 2, 2)]
    assert unwrapped(chapter) == chapter
    late = [Entry("Appendix", 1, 9), Entry("A.1 Proofs", 2, 3)]  # points past the first section: no title
    assert unwrapped(late) == late


def test_repeated_sub_headings_are_no_running_heads():
    """ "8.2.2. Call stages" under each protocol stands wherever its section reaches; a running head
    stands in one place on every page."""
    subs = [("8.2.3. Call stages", 18, 300.0), ("8.3.3. Call stages", 20, 612.0), ("8.4.2. Call stages", 21, 180.0)]
    assert not repeated_texts(subs)
    heads = [("2 JEAN BOURGAIN AND JELANI NELSON", p, 40.0 + (p % 2)) for p in (2, 4, 6)]
    assert repeated_texts(heads) == {"# JEAN BOURGAIN AND JELANI NELSON"}


def _line(top: float, text: str, x0: float = 320.0, x1: float = 560.0) -> Line:
    return Line(page=4, x0=x0, top=top, x1=x1, bottom=top + 10, text=text, size=10.0, bold=False)


def _rules(x0: float, y0: float, x1: float, y1: float, closed: bool = True) -> list[tuple[float, float, float, float]]:
    sides = [(x0, y0, x1, y0 + 0.5), (x0, y1, x1, y1 + 0.5), (x0, y0, x0 + 0.5, y1)]
    return sides + ([(x1, y0, x1 + 0.5, (y0 + y1) / 2), (x1, (y0 + y1) / 2, x1 + 0.5, y1)] if closed else [])


def test_a_frame_of_four_rules_holds_its_lines():
    """An algorithm's box drawn as separate rules (pieces on one side) is a frame; three sides are not."""
    assert drawn_frames(_rules(310, 54, 573, 347)) == [(310, 54, 573.5, 347.5)]
    assert drawn_frames(_rules(310, 54, 573, 347, closed=False)) == []
    page = [_line(60, "Algorithm: Stacked Autoencoder"), _line(80, "Input: Si = signal data"),
            _line(100, "Train the stack autoencoder"), _line(130, "Output:")]
    page += [_line(400 + 12 * i, "running text of the column beside it, a line of prose", 40, 290) for i in range(30)]
    held = framed_lines(page, _rules(310, 54, 573, 347))
    assert held == {id(ln) for ln in page[:4]}
    assert not framed_lines(page, _rules(30, 54, 573, 790))  # a frame round the page holds no few lines


def test_lettered_heading_line():
    assert lettered_heading(_line(0, "IV. EXPERIMENTAL RESULTS"))
    italic = _line(0, "E. AIRS-Parallel")
    italic.italic = True
    assert lettered_heading(italic) and not lettered_heading(_line(0, "E. AIRS-Parallel"))
    assert not lettered_heading(_line(0, "A. The first of the items, as a sentence goes on."))


def _zotero(key: str, outline: bool = False) -> list[tuple[int, int, str]]:
    folder = shared("zotero", "storage", key)
    path = next(folder.glob("*.pdf"), None)
    if path is None:
        pytest.skip("Zotero PDF not available")
    return pdf_headings(path, outline)


def test_zotero_dev_ieee_tables_frames_and_capitals():
    heads = [(level, text) for _, level, text in _zotero("AMWUMNBB")]
    assert (2, "E. AIRS-Parallel") in heads and (1, "IV. EXPERIMENTAL RESULTS") in heads  # under ruled tables
    assert (1, "V. COMPARATIVE ANALYSIS OF FEATURE SELECTION TECHNIQUES BASED ON QUALITY METRICS") in heads
    assert not any(text.startswith("Algorithm:") for _, text in heads)  # a bold label inside a drawn frame


def test_zotero_dev_survey_sub_headings():
    heads = [(level, text) for _, level, text in _zotero("HD83JIGV")]
    assert (2, "3.5. P.563") in heads and (2, "8.6. MeGaCo/H.248") in heads
    assert (2, "8.8. Comparison of signaling protocols") in heads
    assert sum(text.endswith("Call stages") for _, text in heads) == 5  # a sub-heading each protocol repeats


def test_zotero_dev_small_bold_numbered_sub_headings():
    heads = [(level, text) for _, level, text in _zotero("FSHL949L")]
    assert (1, "Methodology and Setup") in heads
    assert (2, "I. Website Data Scraping: Accessing Source and Target Audio Tracks") in heads
    assert (2, "II. Acoustical Feature Preprocessing") in heads and (1, "Bibliography") in heads


def test_zotero_dev_outline_levels():
    chapter = [(level, text) for _, level, text in _zotero("NF9EX6ZY", outline=True)]
    assert chapter[0] == (1, "1 Autoencoders") and (2, "2.1 Sparse Autoencoders") in chapter
    assert not any(text == "Autoencoders" for _, text in chapter)
    ieee = [(level, text) for _, level, text in _zotero("ZAXRILBS", outline=True)]
    assert (2, "A. Problem Statement") in ieee and (1, "II. PRELIMINARIES") in ieee


def test_zotero_truth_holds_dev_half_pdfs_only():
    """bench/data/zotero_headings_dev.json: keys are paths under zotero/storage of dev-half attachments
    (bench/pdf_authors_zotero.half_of), each with a publisher and headings in reading order."""
    import hashlib
    import json
    from pathlib import Path

    path = Path(__file__).resolve().parent.parent / "bench" / "data" / "zotero_headings_dev.json"
    truth = json.loads(path.read_text())
    assert truth.pop("_readme").strip() and len(truth) >= 5
    for name, paper in truth.items():
        key = name.split("/")[0]
        assert name.endswith(".pdf") and int(hashlib.sha1(key.encode()).hexdigest()[:8], 16) % 2 == 0, name
        assert paper["publisher"] and paper["headings"], name
        pages = [h["page"] for h in paper["headings"]]
        assert pages == sorted(pages) and all(h["level"] in (1, 2, 3) for h in paper["headings"]), name


def test_small_bold_number_in_another_size_than_its_depth_is_no_heading():
    """mdpi-ijerph-2016 repeats page 21's "4. Discussion" hidden at 8 pt at page 20's foot; its numbered
    sections are 10 pt bold, so the small copy opens no section."""
    from tests.wide_headings import wide_headings

    heads = wide_headings("mdpi-ijerph-2016-anf-hypertension.pdf")
    assert [t for _, t in heads].count("4. Discussion") == 1
