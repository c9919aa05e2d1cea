"""Captions in the paper's no-separator style whose text opens in lower case (`caption_gaps`)."""

from __future__ import annotations

from papershelf.document import Block, Document
from papershelf.ingest.pdf.objects.caption_gaps import lower_case_captions
from papershelf.units import build_units

_LONG = "Figure 6 shows the interpreter's running rate for every call of the retrieve loop, " * 3


def _blocks(*texts: str) -> list[Block]:
    return [Block("text", t, page=1) for t in texts]


def test_a_lower_case_caption_in_the_papers_own_style_is_a_caption():
    blocks = _blocks("Figure 4 Code coverage for tr.c", "Figure 5 Path growth for tr.c", "Some running text.",
                     "Figure 8 struct definition for stack element", _LONG, "Figure 7 is drawn from the logs.")
    lower_case_captions(blocks)
    assert [(b.kind, b.object_label) for b in blocks] == [
        ("text", None), ("text", None), ("text", None), ("caption", "Figure 8"), ("text", None), ("text", None)]
    doc = Document(source_format="pdf", blocks=blocks)
    assert {u.object_label for u in build_units(doc, "p") if u.kind == "object"} == {"Figure 4", "Figure 5", "Figure 8"}


def test_no_lower_case_caption_without_the_style_or_for_a_label_captioned_already():
    one = _blocks("Figure 4 Code coverage for tr.c", "Figure 8 struct definition for stack element")
    punctuated = _blocks("Figure 1. Code coverage", "Figure 2. Path growth", "Figure 3 struct definition")
    again = _blocks("Figure 4 Code coverage", "Figure 5 Path growth", "Figure 5 was drawn from the logs")
    for blocks in (one, punctuated, again):
        lower_case_captions(blocks)
        assert all(b.kind == "text" for b in blocks)
