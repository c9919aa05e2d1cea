"""Markdown and plain-text papers, including Markdown written by OCR tools.

Understands YAML front matter, ATX and setext headings, page markers
(``<!-- page N -->`` and form feeds), pipe tables and image captions.
Docling/Marker/MinerU output uses the same conventions, so it needs no
reader of its own.
"""

from __future__ import annotations

import html
import re

import yaml

from ..document import Block, Document, parse_year
from .captions import CAPTION_RE, SECTION_NAMES
from .structured_references import markdown_references

_FRONT_MATTER = re.compile(r"\A\s*---\s*\n(.*?)\n(?:---|\.\.\.)\s*(?:\n|\Z)", re.S)
_ATX = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_SETEXT = re.compile(r"^(=+|-+)\s*$")
_PAGE_MARK = re.compile(r"^\s*<!--\s*page[\s:=]*(\d+)\s*-->\s*$", re.I)
_COMMENT = re.compile(r"^\s*<!--.*-->\s*$")
_IMAGE = re.compile(r"!\[(?P<alt>[^\]]*)\]\((?P<src>[^)\s]*)(?:\s+\"(?P<title>[^\"]*)\")?\)")
_FENCE = re.compile(r"^\s*(```|~~~)")
_NUMBERING = re.compile(r"^((?:\d+\.)*\d+)\.?\s+\S")
_SECTION_NAME = re.compile(rf"^(?:[\dIVX.]+\s*)?({SECTION_NAMES})\b", re.I)
# "A; B" or "A and B"; a run of spaces is read from its start only (from each of its spaces: quadratic)
_AUTHOR_BREAK = re.compile(r"(?:(?<!\s)\s+)?;\s*|(?<!\s)\s+and\s+")


def _front_matter(text: str) -> tuple[dict, str]:
    m = _FRONT_MATTER.match(text)
    if not m:
        return {}, text
    try:
        data = yaml.safe_load(m.group(1))
    except yaml.YAMLError:
        return {}, text
    if not isinstance(data, dict):
        return {}, text
    return data, text[m.end():]


def _as_authors(value) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        parts = _AUTHOR_BREAK.split(value) if ";" in value or " and " in value else [value]
        return [p.strip() for p in parts if p.strip()]
    if isinstance(value, list):
        out = []
        for a in value:
            if isinstance(a, dict):
                name = " ".join(str(a.get(k, "")) for k in ("given", "family") if a.get(k)) or a.get("name", "")
                if name:
                    out.append(str(name))
            elif a:
                out.append(str(a))
        return out
    return [str(value)]


def _heading_levels(headings: list[tuple[int, str]]) -> list[int]:
    """Nesting levels for (markdown level, title) headings.

    Dotted numbering deepens a heading ("5.1 Setup" sits under "5 Results")
    even when a converter wrote every heading as ``##``; an unnumbered heading
    with more ``#`` than the one before nests below that one.
    """
    levels: list[int] = []
    prev_marks, prev_level = 0, 0
    for marks, title in headings:
        m = _NUMBERING.match(title)
        if m:
            level = marks + m.group(1).count(".")
        elif prev_marks and marks > prev_marks:
            level = prev_level + (marks - prev_marks)
        else:
            level = marks
        levels.append(level)
        prev_marks, prev_level = marks, level
    return levels


MAX_BLOCK_CHARS = 16_384  # a longer paragraph (a 5 MB line) becomes several blocks, cut at whitespace


def _bounded(text: str, limit: int = MAX_BLOCK_CHARS) -> list[str]:
    """`text` in pieces of at most `limit` characters, cut at whitespace where there is some.

    Everything downstream (unit splitting, token estimates, snippets) then works on
    bounded pieces, so one enormous line costs linear time, not quadratic."""
    if len(text) <= limit:
        return [text]
    pieces: list[str] = []
    start = 0
    while start < len(text):
        end = min(start + limit, len(text))
        if end < len(text):
            cut = max(text.rfind(" ", start, end), text.rfind("\n", start, end))
            end = cut if cut > start + limit // 2 else end
        piece = text[start:end].strip()
        if piece:
            pieces.append(piece)
        start = end
    return pieces


def _new_document(meta: dict) -> Document:
    """The bibliographic part of a Markdown paper: whatever its front matter says."""
    doc = Document(
        title=str(meta["title"]).strip() if meta.get("title") else None,
        authors=_as_authors(meta.get("authors", meta.get("author"))),
        year=parse_year(meta.get("year", meta.get("date"))),
        venue=(str(meta.get("venue") or meta.get("journal") or meta.get("booktitle") or "") or None),
        doi=(str(meta["doi"]).strip() if meta.get("doi") else None),
        citekey=(str(meta["citekey"]).strip() if meta.get("citekey") else None),
        abstract=(str(meta["abstract"]).strip() if meta.get("abstract") else None),
        source_format="markdown",
    )
    for key in ("citekey", "zotero_key", "doi", "id"):
        if meta.get(key):
            doc.declared_id = str(meta[key]).strip()
            break
    return doc


class _Blocks:
    """Turns lines into blocks: paragraphs, tables, headings, captions, with their pages."""

    def __init__(self, paged_by_form_feeds: bool):
        self.page: int | None = 1 if paged_by_form_feeds else None
        self.blocks: list[Block] = []
        self.para: list[str] = []
        self.para_page = self.page
        self.table: list[str] = []
        self.in_fence = False

    def flush_para(self) -> None:
        if self.para:
            for piece in _bounded("\n".join(self.para).strip()):
                self.blocks.append(Block("text", piece, page=self.para_page))
            self.para = []

    def flush_table(self) -> None:
        if not self.table:
            return
        rows = []
        for row in self.table:
            cells = [c.strip() for c in row.strip().strip("|").split("|")]
            if all(re.fullmatch(r":?-{1,}:?", c) or not c for c in cells):
                continue  # the |---|---| separator row
            rows.append(" | ".join(c for c in cells))
        if rows:
            for piece in _bounded("\n".join(rows)):
                self.blocks.append(Block("table", piece, page=self.para_page))
        self.table = []

    def flush(self) -> None:
        self.flush_para()
        self.flush_table()

    def add_to_para(self, line: str) -> None:
        if not self.para:
            self.para_page = self.page
        self.para.append(line)

    def form_feeds(self, raw: str) -> None:
        """Form feeds may sit anywhere in a line: every one starts a new page."""
        for n, piece in enumerate(raw.split("\f")):
            if n > 0:
                self.flush()
                self.page = (self.page or 1) + 1
            if piece.strip():
                self.add_to_para(piece)

    def structure(self, line: str) -> bool:
        """Fences, page markers, comments, table rows and headings; False for ordinary text."""
        if _FENCE.match(line):
            self.in_fence = not self.in_fence
            self.add_to_para(line)
            return True
        if self.in_fence:
            self.para.append(line)
            return True
        pm = _PAGE_MARK.match(line)
        if pm:
            self.flush()
            self.page = int(pm.group(1))
            return True
        if _COMMENT.match(line):
            return True
        if line.lstrip().startswith("|"):
            self.flush_para()
            if not self.table:
                self.para_page = self.page
            self.table.append(line)
            return True
        self.flush_table()
        return self.heading(line)

    def heading(self, line: str) -> bool:
        hm = _ATX.match(line) if line.lstrip().startswith("#") else None
        if hm and hm.group(2):
            self.flush_para()
            title = hm.group(2).strip().strip("*_").strip()
            self.blocks.append(Block("heading", title, level=len(hm.group(1)), page=self.page))
            return True
        if len(self.para) == 1 and _SETEXT.match(line) and not CAPTION_RE.match(self.para[0]):
            title = self.para[0].strip()
            self.para = []
            marks = 1 if line.lstrip().startswith("=") else 2
            self.blocks.append(Block("heading", title, level=marks, page=self.page))
            return True
        return False

    def text(self, line: str) -> None:
        """Ordinary text; an image whose alt text or title is a caption is a caption block."""
        if not line.strip():
            self.flush_para()
            return
        if "![" in line:
            for im in _IMAGE.finditer(line):
                for candidate in (im.group("title"), im.group("alt")):
                    if candidate and CAPTION_RE.match(candidate):
                        self.flush_para()
                        self.blocks.append(Block("text", candidate.strip(), page=self.page))
                        break
            line = _IMAGE.sub("", line)
            if not line.strip():
                return
        self.add_to_para(line)

    def feed(self, raw: str) -> None:
        if "\f" in raw:
            self.form_feeds(raw)
            return
        line = raw.rstrip()
        if not self.structure(line):
            self.text(line)


def _title_and_levels(doc: Document, blocks: list[Block]) -> list[Block]:
    """Without front matter, a leading heading that is not a section name is the title
    (unless it is the only heading: then it is the one section); then heading levels."""
    if blocks and blocks[0].kind == "heading" and doc.title is None:
        first = blocks[0]
        more_headings = any(b.kind == "heading" for b in blocks[1:])
        if more_headings and not _SECTION_NAME.match(first.text) and not _NUMBERING.match(first.text):
            doc.title = first.text
            blocks = blocks[1:]
    headings = [b for b in blocks if b.kind == "heading"]
    for b, level in zip(headings, _heading_levels([(b.level, b.text) for b in headings])):
        b.level = level
    return blocks


def parse_markdown(text: str) -> Document:
    """Front matter, then blocks line by line, then the title and heading levels."""
    meta, body = _front_matter(text.replace("\r\n", "\n").replace("\r", "\n"))
    doc = _new_document(meta)
    builder = _Blocks("\f" in body)
    for raw in (html.unescape(body) if "&" in body else body).split("\n"):
        builder.feed(raw)
    builder.flush()
    doc.blocks = _title_and_levels(doc, builder.blocks)
    if doc.title and not doc.authors:
        doc.authors = _byline(doc.blocks)
    doc.references = markdown_references(body)
    return doc


def _byline(blocks: list[Block]) -> list[str]:
    """Authors from the line under a converted paper's title (Docling, Marker: "Ada Lovelace,
    Charles Babbage IBM Research"), read as the PDF reader reads page 1's author lines."""
    from .pdf.front.authors import line_names

    first = next((b for b in blocks[:2] if b.kind == "text"), None)
    if first is None or blocks.index(first) != 0 or len(first.text) > 300:
        return []
    return (line_names(first.text) or [])[:12]
