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

_FRONT_MATTER = re.compile(r"\A\s*---\s*\n(.*?)\n(?:---|\.\.\.)\s*(?:\n|\Z)", re.S)
_ATX = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_SETEXT = re.compile(r"^(=+|-+)\s*$")
_PAGE_MARK = re.compile(r"^\s*<!--\s*page[\s:=]*(\d+)\s*-->\s*$", re.I)
_COMMENT = re.compile(r"^\s*<!--.*-->\s*$")
_IMAGE = re.compile(r"!\[(?P<alt>[^\]]*)\]\((?P<src>[^)\s]*)(?:\s+\"(?P<title>[^\"]*)\")?\)")
_FENCE = re.compile(r"^\s*(```|~~~)")
_NUMBERING = re.compile(r"^((?:\d+\.)*\d+)\.?\s+\S")
_SECTION_NAME = re.compile(rf"^(?:[\dIVX.]+\s*)?({SECTION_NAMES})\b", re.I)


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
        parts = re.split(r"\s*;\s*|\s+and\s+", value) if ";" in value or " and " in value else [value]
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


def parse_markdown(text: str) -> Document:
    meta, body = _front_matter(text.replace("\r\n", "\n").replace("\r", "\n"))
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

    page: int | None = 1 if "\f" in body else None
    blocks: list[Block] = []
    para: list[str] = []
    para_page = page
    table: list[str] = []
    in_fence = False

    def flush_para():
        nonlocal para
        if para:
            blocks.append(Block("text", "\n".join(para).strip(), page=para_page))
            para = []

    def flush_table():
        nonlocal table
        if table:
            rows = []
            for row in table:
                cells = [c.strip() for c in row.strip().strip("|").split("|")]
                if all(re.fullmatch(r":?-{1,}:?", c) or not c for c in cells):
                    continue  # the |---|---| separator row
                rows.append(" | ".join(c for c in cells))
            if rows:
                blocks.append(Block("table", "\n".join(rows), page=para_page))
            table = []

    lines = html.unescape(body).split("\n") if "&" in body else body.split("\n")
    for i, raw in enumerate(lines):
        # Form feeds may sit anywhere in a line: every one starts a new page.
        if "\f" in raw:
            pieces = raw.split("\f")
            for n, piece in enumerate(pieces):
                if n > 0:
                    flush_para()
                    flush_table()
                    page = (page or 1) + 1
                if piece.strip():
                    if not para:
                        para_page = page
                    para.append(piece)
            continue
        line = raw.rstrip()
        if _FENCE.match(line):
            in_fence = not in_fence
            if not para:
                para_page = page
            para.append(line)
            continue
        if in_fence:
            para.append(line)
            continue
        pm = _PAGE_MARK.match(line)
        if pm:
            flush_para()
            flush_table()
            page = int(pm.group(1))
            continue
        if _COMMENT.match(line):
            continue
        if line.lstrip().startswith("|"):
            flush_para()
            if not table:
                para_page = page
            table.append(line)
            continue
        flush_table()
        hm = _ATX.match(line)
        if hm and hm.group(2):
            flush_para()
            title = hm.group(2).strip().strip("*_").strip()
            blocks.append(Block("heading", title, level=len(hm.group(1)), page=page))
            continue
        if _SETEXT.match(line) and len(para) == 1 and not CAPTION_RE.match(para[0]):
            title = para[0].strip()
            para = []
            marks = 1 if line.lstrip().startswith("=") else 2
            blocks.append(Block("heading", title, level=marks, page=page))
            continue
        if not line.strip():
            flush_para()
            continue
        for im in _IMAGE.finditer(line):
            # An image whose alt text or title is a caption is a caption block.
            for candidate in (im.group("title"), im.group("alt")):
                if candidate and CAPTION_RE.match(candidate):
                    flush_para()
                    blocks.append(Block("text", candidate.strip(), page=page))
                    break
        line_wo_images = _IMAGE.sub("", line)
        if not line_wo_images.strip():
            continue
        if not para:
            para_page = page
        para.append(line_wo_images)
    flush_para()
    flush_table()

    # Without front matter, a leading heading that is not a section name is the
    # title, unless it is the only heading (then it is the one section).
    if blocks and blocks[0].kind == "heading" and doc.title is None:
        first = blocks[0]
        more_headings = any(b.kind == "heading" for b in blocks[1:])
        if more_headings and not _SECTION_NAME.match(first.text) and not _NUMBERING.match(first.text):
            doc.title = first.text
            blocks = blocks[1:]
    headings = [b for b in blocks if b.kind == "heading"]
    for b, level in zip(headings, _heading_levels([(b.level, b.text) for b in headings])):
        b.level = level
    doc.blocks = blocks
    return doc
