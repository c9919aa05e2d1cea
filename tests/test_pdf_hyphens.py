"""A hyphen at a line's end: a word the line broke is whole again, a compound keeps its hyphen."""

from __future__ import annotations

from reportlab.lib.pagesizes import letter
from reportlab.pdfgen import canvas

from papershelf.ingest.pdf import read_pdf
from papershelf.ingest.pdf.bibliography.references import _join
from papershelf.ingest.pdf.text.hyphens import document_words, keep_hyphen, model_keep, words_of
from papershelf.ingest.pdf.text.lines import join_lines
from papershelf.units import build_units

from .pdf_fixtures import BODY, _wrap


def test_the_documents_words_decide_first():
    assert not keep_hyphen("the prox", "imal tubule", {"proximal": 2})
    assert keep_hyphen("a high", "level view", {"high-level": 1})
    assert keep_hyphen("a high", "level view", {"high-level": 1, "highlevel": 1})  # a tie keeps what is printed
    assert not keep_hyphen("a high", "level view", {"high-level": 1, "highlevel": 3})


def test_the_learned_fallback_joins_a_broken_word_and_keeps_a_compound_of_two_words():
    assert not model_keep("struc", "ture", {})
    assert not model_keep("methodol", "ogy", {})
    assert model_keep("well", "defined", {"well": 4, "defined": 3})


def test_a_hyphen_after_no_letter_stays():
    assert keep_hyphen("pages 12 ", "and on", {"12and": 1})


def test_the_fragments_of_a_broken_word_are_no_words_of_the_document():
    words = words_of(["the prox-", "imal tubule and a high-level", "view of the kidney\ufffe", "s"])
    assert words["high-level"] == 1 and words["tubule"] == 1
    assert "prox" not in words and "imal" not in words and "kidney" not in words and "s" not in words


def test_paragraph_and_reference_joins_take_the_same_decision():
    with document_words(["proximal parts, a high-level view"]):
        joined = join_lines(["the prox-", "imal part of a high-", "level view"])
        assert joined == "the proximal part of a high-level view"
        assert join_lines(["the prox\ufffe", "imal part"]) == "the proximal part"
        assert _join(["A high-", "level view of prox\ufffe", "imal parts."]) == "A high-level view of proximal parts."


def _two_columns(path: str) -> None:
    """A page of two columns; the first ends in "prox-", the second breaks "high-level" at its hyphen."""
    c = canvas.Canvas(path, pagesize=letter)
    c.setFont("Times-Roman", 10)
    filler = _wrap(BODY + " " + BODY, 48)
    left = ["We study the proximal tubule with a high-level model", *filler,
            "and we describe how its cells change along the prox-"]
    right = ["imal segment, where the model keeps a high-", "level view of transport in every nephron.", *filler]
    for x, lines in ((54, left), (320, right)):
        for i, text in enumerate(lines):
            c.drawString(x, 700 - 12 * i, text)
    c.save()


def test_a_word_broken_at_a_columns_end_is_whole_and_a_compound_keeps_its_hyphen(tmp_path):
    path = tmp_path / "hyphens.pdf"
    _two_columns(str(path))
    text = " ".join(u.text for u in build_units(read_pdf(path.read_bytes()), "p"))
    assert "along the proximal segment" in text
    assert "keeps a high-level view" in text
    assert "prox-imal" not in text and "highlevel" not in text
