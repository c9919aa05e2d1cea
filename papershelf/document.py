"""The parsed form of a paper that every reader produces and `units` consumes.

Readers (Markdown, PDF, JATS, TEI, ...) differ in what they can see; they all
reduce a source to the same flat list of blocks in reading order.  Keeping this
shape tiny is what lets a new format arrive without touching unit building,
storage or search.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, fields

_YEAR = re.compile(r"\b(1[5-9]\d\d|20\d\d)\b")


def parse_year(value) -> int | None:
    """The first plausible year in a date, a string or a number (1500-2099), else None."""
    if value is None:
        return None
    m = _YEAR.search(str(value))
    return int(m.group(1)) if m else None


@dataclass
class Block:
    """One piece of a paper in reading order.

    kind is ``heading`` (with ``level``), ``text`` (a paragraph), ``caption``
    (a figure/table caption the reader recognised structurally, e.g. a JATS
    ``<fig>``), or ``table`` (cell text of a table, rows joined by newlines).
    Plain ``text`` blocks may still turn out to be captions: `units` checks them.
    """

    kind: str
    text: str
    level: int = 0
    page: int | None = None
    # For reader-recognised captions and tables: "figure"/"table" and the label.
    object_kind: str | None = None
    object_label: str | None = None
    # For a PDF caption: where its object is, {"page", "bbox", "caption_bbox"} in PDF points.
    region: dict | None = None


@dataclass(kw_only=True)
class Bibliographic:
    """The bibliographic facts of a paper, in one list: what readers find, bibliographies and
    PDF metadata supply, the library stores and front ends show."""

    title: str | None = None
    authors: list[str] = field(default_factory=list)
    year: int | None = None
    venue: str | None = None
    doi: str | None = None
    arxiv_id: str | None = None  # from a PDF's arXiv stamp: one of the keys that find the same work
    citekey: str | None = None


BIBLIOGRAPHIC_FIELDS = tuple(f.name for f in fields(Bibliographic))


@dataclass(kw_only=True)
class Reference:
    """One entry of a paper's reference list: the text as printed and what could be read from it.

    `n` is the entry's position in the list (1-based), `authors` the names as printed (surname
    first with a comma when the list writes it so), so `works.surname` finds each surname."""

    n: int
    text: str
    authors: list[str] = field(default_factory=list)
    year: int | None = None
    title: str | None = None
    venue: str | None = None
    doi: str | None = None
    arxiv_id: str | None = None

    def to_dict(self) -> dict:
        return {f.name: getattr(self, f.name) for f in fields(self)}


@dataclass(kw_only=True)
class Document(Bibliographic):
    """A paper as a reader saw it: metadata plus blocks."""

    # An identifier the source itself declares (front matter id, Zotero key, ...).
    declared_id: str | None = None
    abstract: str | None = None
    blocks: list[Block] = field(default_factory=list)
    source_format: str = "markdown"
    references: list[Reference] = field(default_factory=list)  # the reference list, kept out of the units
    # Pages read by OCR (a PDF's scanned pages): page number -> the engine, e.g. "tesseract 5.3.0 (eng)".
    ocr_pages: dict[int, str] = field(default_factory=dict)
    pages: int | None = None  # a PDF's page count (its page tree), as read; None for other formats

    @property
    def has_structure(self) -> bool:
        return any(b.kind == "heading" for b in self.blocks)
