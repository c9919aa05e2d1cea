"""Heading classes of round heads11 (issue 38), each read from a generated paper whose truth is what
was drawn (bench/gen_headings.py with its fifth stream, bench/gen_traps2.py): species headings in
bold ending in a roman figure citation, italic sub-headings a point below the body's size, a title
page's small-print "Abbreviations:" footnote and a heading-less reference list's italic journal
(no headings); and the shared dev papers they were seen in."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

import gen_headings
from pdf_headings_score import score_paper

from tests.wide_headings import wide_headings


def _score(tmp_path, seed: int) -> tuple[dict, frozenset]:
    path = str(tmp_path / f"gen-{seed}.pdf")
    truth, style = gen_headings.make(seed, path)
    return score_paper(gen_headings.blocks_without_outline(path), truth), style.traps


@pytest.mark.parametrize("seed", [0, 4, 8])
def test_species_headings_ending_in_a_figure_citation(tmp_path, seed):
    """"Rhabdochona floridensis Fajer-Avila et Bakenhaster, 1973 (Fig. 1)": bold italic name, bold
    authority, roman citation, on one line or broken at the column's edge, is a heading."""
    s, traps = _score(tmp_path, seed)
    assert "taxon" in traps
    assert not [m for m in s["missed"] if "(Fig" in m], s["missed"]
    assert s["spurious"] == []


@pytest.mark.parametrize("seed", [22, 28, 32])
def test_italic_sub_headings_below_the_body_size(tmp_path, seed):
    s, traps = _score(tmp_path, seed)
    assert "italic_small" in traps
    assert s["recall"] == 1.0 and s["precision"] == 1.0, (s["missed"], s["spurious"])


@pytest.mark.parametrize("seed", [4, 18, 28])
def test_footnote_label_and_an_entrys_journal_are_no_headings(tmp_path, seed):
    """A title page's "Abbreviations: …" in small print at a column's foot, and "Kristallogr." in
    italics opening an entry's second line in a list with no heading: neither is a heading."""
    s, traps = _score(tmp_path, seed)
    assert traps & {"footnote", "entries"}
    assert "Abbreviations" not in s["spurious"] and "Kristallogr" not in s["spurious"]


_wide = wide_headings


def test_shared_dev_papers():
    heads = _wide("versita-actaparasitol-2009.pdf")
    assert (2, "Philometra saltatrix Ramachandran, 1973 (Figs 4 and 5)") in heads
    assert (2, "Philometra carolinensis Moravec, de Buron et Roumillat, 2006 (Figs 1 and 2)") in heads
    assert "Abbreviations" not in [t for _, t in _wide("pnas-2000-vana-ligase.pdf")]
    assert "Kristallogr" not in [t for _, t in _wide("wiley-zaac-2008-imidazolyliden-de.pdf")]
    assert (3, "K-turn") in _wide("cshl-rna-2013-motif-recognition.pdf")
    assert (2, "Structure of VanA in Complex with ADP and Phosphinate Inhibitor") in _wide("pnas-2000-vana-ligase.pdf")


@pytest.mark.parametrize("seed", [62, 100])
def test_bold_runin_heading_that_fills_its_line(tmp_path, seed):
    """"2.2. Structure of the receptor in complex with the compound and its inhibitor." in bold on a
    line of its own, its text on the next, where the paper runs its other sub-headings in."""
    s, traps = _score(tmp_path, seed)
    assert "filled" in traps
    assert s["recall"] == 1.0 and s["precision"] == 1.0, (s["missed"], s["spurious"])
