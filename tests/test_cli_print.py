"""What the terminal shows for a paper: every author accounted for, a caption that was not read said so."""

from __future__ import annotations

from rich.console import Console

from papershelf.frontends import cli_print


def _shown(monkeypatch, authors: list[str], objects: list[dict]) -> str:
    console = Console(record=True, width=200)
    monkeypatch.setattr(cli_print, "out", console)
    cli_print.print_show({"type": "paper", "id": "p2016", "title": "A Title", "authors": authors, "year": 2016,
                          "venue": None, "source_path": "/x.pdf", "sources": [], "sections": [],
                          "objects": objects})
    return console.export_text()


def test_a_long_author_list_says_how_many_more(monkeypatch):
    seven = [f"Author {c}" for c in "ABCDEFG"]
    text = _shown(monkeypatch, seven, [])
    assert "Author E and 2 more" in text and "Author F" not in text
    assert "Author A, Author B, Author C" in _shown(monkeypatch, seven[:3], [])


def test_an_unread_caption_is_said_in_words(monkeypatch):
    text = _shown(monkeypatch, ["A"], [{"label": "Table I", "caption": "", "veto_reason": "empty_caption",
                                        "pages": "3"}])
    assert "no caption text read" in text and "empty_caption" not in text
