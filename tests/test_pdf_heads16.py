"""Heading classes of round heads16 (issue 38): a number run into its capitals title by a text layer
that dropped the narrow space ("VII.CONFLICT OF INTEREST"), section headings set just above a table
caption or right below the table (its rows taken out as a region) read as the table's text, and a
column's running text inside a drawn box taken for a sidebar (its "DISCUSSION" then no section)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from papershelf.ingest.pdf.layout.boxes import _mid_sentence, _sidebar
from papershelf.ingest.pdf.sections.heading_levels import spaced_number
from papershelf.ingest.pdf.text.lines import Line

from .conftest import shared
from .wide_headings import pdf_headings

BENCH_DATA = Path(__file__).resolve().parents[1] / "bench" / "data"


def _headings(path: Path) -> list[tuple[int, int, str]]:
    """The PDF's headings as the layout rules read them (its outline hidden)."""
    return pdf_headings(path)


def test_spaced_number():
    assert spaced_number("VII.CONFLICT OF INTEREST") == "VII. CONFLICT OF INTEREST"
    assert spaced_number("2.1.RELATED WORK") == "2.1. RELATED WORK"
    for kept in ("VI. CONCLUSION", "1.SMITH J, Jones K", "U.S. ARMY", "3.5MM", "I.E. THE", "VII.Conflict of interest"):
        assert spaced_number(kept) == kept


def test_number_run_into_its_capitals_title_opens_a_heading():
    folder = shared("zotero", "storage", "AMWUMNBB")
    path = next(folder.glob("*.pdf"), None)
    if path is None:
        pytest.skip("Zotero PDF not available")
    heads = _headings(path)
    assert (6, 1, "VII. CONFLICT OF INTEREST") in heads and (6, 1, "VI. CONCLUSION") in heads


def test_headings_around_a_table_set_below_its_caption():
    """ "Materials" over "Table S1 …" (its rows below, a region) and "General Procedures" under the table."""
    heads = _headings(shared("pdfs-wide", "rsc-advances-2016-esi-polyimidization.pdf"))
    assert [(p, text) for p, _, text in heads if p == 2] == [
        (2, "Materials"), (2, "General Procedures"), (2, "Methods")]


def test_a_box_that_opens_mid_sentence_is_no_sidebar():
    """AJB 2000 p7: a box drawn round the right column's text under a figure opens mid-sentence
    ("herbaceous species common in …", the left column's sentence going on): running text, so its
    centred "DISCUSSION" opens the section."""
    heads = _headings(shared("pdfs-wide", "bsa-ajb-2000-endemic-plants.pdf"))
    assert (7, 1, "DISCUSSION") in heads and (4, 1, "RESULTS") in heads


def test_sidebar_rules_still_hold():
    """A box of prose is a sidebar by its lines; one that opens in lowercase goes on the column's text."""
    def lines(first: str) -> list[Line]:
        texts = [first, *["the competing interests of the authors are none at all"] * 3]
        return [Line(page=1, x0=50.0, top=100.0 + 12 * k, x1=250.0, bottom=110.0 + 12 * k, text=t, size=9.0,
                     bold=False) for k, t in enumerate(texts)]
    own = lines("Competing interests: the authors declare none here")
    running = lines("herbaceous species common in the")
    assert _sidebar(own, 40) and _sidebar(running, 40)
    assert not _mid_sentence(own) and _mid_sentence(running)


def test_pdfs_heading_truth_holds_dev_half_pdfs_only():
    split = json.loads((BENCH_DATA / "pdf_split.json").read_text())
    truth = json.loads((BENCH_DATA / "pdfs_headings_dev.json").read_text())
    names = [k for k in truth if not k.startswith("_")]
    assert names and all(name in split["dev"] for name in names)
    wide = json.loads((BENCH_DATA / "wide_split.json").read_text())
    hand = json.loads((BENCH_DATA / "wide_headings_dev.json").read_text())
    assert all(wide[name]["half"] == "dev" for name in hand if not name.startswith("_"))
    outline = json.loads((BENCH_DATA / "outline_headings_dev.json").read_text())  # the frozen outline truth
    assert outline and all(wide[name]["half"] == "dev" for name in outline)
