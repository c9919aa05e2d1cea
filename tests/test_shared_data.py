"""Real full texts from ../shared/data (skipped cleanly when the folder is absent)."""

import re
from pathlib import Path

import pytest

from papershelf import Filters

from .conftest import shared


def _caption_labels(text: str) -> set[str]:
    """Distinct "Figure N"/"Table N" captions, read independently of the parser: lines that start with the label."""
    labels = set()
    for m in re.finditer(r"^(Figure|Fig\.|Table)\s+(\d+)[.:]", text, re.M):
        labels.add(("Table " if m.group(1) == "Table" else "Figure ") + m.group(2))
    return labels


def test_docling_markdown_yields_one_object_per_caption(lib):
    folder = shared("fulltext", "docling-md")
    report = lib.add([str(folder)])
    assert report.count("added") == 4 and not report.failed
    for f in report.files:
        expected = _caption_labels(Path(f.path).read_text(encoding="utf-8"))
        got = [u.object_label for u in lib.store.paper_units(f.paper_id) if u.kind == "object"]
        assert sorted(got) == sorted(expected), f.path
        assert len(got) == len(set(got))


@pytest.mark.parametrize("phrase,label", [
    ("Distribution of DocLayNet pages across document categories", "Figure 2"),
    ("Corpus Conversion Service annotation user interface", "Figure 3"),
    ("Frequency of tokens in HTML and OTSL as they appear in PubTabNet", "Figure 2"),
    ("Example of a table with multi-line header", "Figure 8"),
    ("Cell Bounding Box detection results on PubTabNet", "Table 3"),
])
def test_caption_phrase_returns_that_object_first(lib, phrase, label):
    lib.add([str(shared("fulltext", "docling-md"))])
    top = lib.search(phrase, mode="lexical").results[0]
    assert top.source == "object_unit" and top.object_label == label
    assert phrase.lower()[:30] in top.caption.lower()


def test_docling_pages_and_tables(lib):
    lib.add([str(shared("fulltext", "docling-md"))])
    hits = lib.search("enc-layers dec-layers TEDs", mode="lexical", filters=Filters(object_kind="table"),
                      per_paper=5).results
    assert hits and hits[0].object_label == "Table 1"
