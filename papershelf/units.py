"""Turning a parsed `Document` into the units papershelf indexes and embeds.

Three kinds, one per collection:

* ``body`` units follow the section structure: one per section, split at
  paragraph boundaries when a section exceeds ~1000 tokens (``part`` counts the
  pieces); references/bibliography sections are left out.
* ``object`` units are figure and table captions, with the label a reader uses
  ("Figure 3"), the caption, the table's cell text when the source has it, and
  the body sentences that cite the label ("as shown in Fig. 3b").
* ``chunk`` units are plain fulltext chunks for papers without any headings,
  so nothing a user adds is unsearchable.

Unit ids are deterministic (``{paper}:body:{n}``, ``{paper}:obj:figure:3``,
``{paper}:chunk:{n}``) and every unit carries a content hash over exactly what
gets embedded, salted with RETRIEVAL_POLICY_VERSION.  Per-kind hashes of a
paper let a build see precisely which papers changed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .captions import Caption, citing_sentences, parse_caption
from .document import Block, Document
from .models import BODY, CHUNK, OBJECT, UNIT_KINDS, Manifest, unit_kind
from .text import estimate_tokens, sha256_hex, slug, split_sentences

# Bump whenever unit building or embedding text changes in a way that should
# invalidate stored vectors: it is part of every hash and of the space fingerprint.
RETRIEVAL_POLICY_VERSION = 1

BODY_TOKEN_CAP = 1000
CHUNK_TOKENS = 400

_REFERENCES = re.compile(
    r"^(?:[\dIVX]+\.?\s*)?(references|bibliography|works cited|literature cited|"
    r"references and notes|cited literature|reference list)\s*$",
    re.I,
)


@dataclass
class Unit:
    id: str
    paper_id: str
    kind: str  # body | object | chunk
    ordinal: int
    text: str
    section_path: str = ""
    section_title: str = ""
    section_level: int = 0
    part: int = 0
    page_start: int | None = None
    page_end: int | None = None
    object_kind: str | None = None
    object_label: str | None = None
    caption_text: str | None = None
    nearby_body_text: str | None = None
    table_text: str | None = None
    # Where a PDF object is: {"page", "bbox", "caption_bbox"}, PDF points, bottom-left origin.
    region: dict | None = None
    token_estimate: int = 0
    indexable: bool = True
    veto_reason: str | None = None
    content_hash: str = ""
    ocr_engine: str | None = None  # the OCR engine that read the unit's pages (None: the file's own text)

    @property
    def source(self) -> str:
        return unit_kind(self.kind).source

    def search_text(self) -> str:
        """What the lexical index holds for this unit (besides title and heading)."""
        if self.kind == "object":
            parts = [self.caption_text or "", self.table_text or "", self.nearby_body_text or ""]
            return "\n".join(p for p in parts if p)
        return self.text

    def heading(self) -> str:
        """Short field the lexical index weighs separately: label or section path."""
        if self.kind == "object":
            return " ".join(p for p in (self.object_label, self.section_path) if p)
        return self.section_path


def embedding_parts(unit: Unit, title: str | None) -> tuple[str, str]:
    """What a model embeds for a unit, as (head, body); TEXT_FORMAT below names this layout.

    The head is the paper title, plus the section path for a body unit: the
    context every window of a long unit repeats (see embed/windows.py).
    Objects embed label + caption + table cells + citing sentences, so a query
    phrased like a caption or like the sentence that cites the figure both land.
    """
    head = (title or "").strip()
    if unit.kind == "object":
        body = "\n".join(p for p in (
            f"{unit.object_label}: {unit.caption_text or ''}".strip(),
            unit.table_text or "",
            unit.nearby_body_text or "",
        ) if p)
    elif unit.kind == "body" and unit.section_path:
        head = f"{head}\n{unit.section_path}" if head else unit.section_path
        body = unit.text
    else:
        body = unit.text
    return head, body


def embedding_text(unit: Unit, title: str | None) -> str:
    """The unit's embedding text as one string (what its content hash covers)."""
    head, body = embedding_parts(unit, title)
    return f"{head}\n{body}" if head else body


TEXT_FORMAT = "title+section+text/v1"


def make_manifest(units: list[Unit]) -> Manifest:
    m = Manifest(policy_version=RETRIEVAL_POLICY_VERSION)
    for kind in (k.name for k in UNIT_KINDS):
        of_kind = [u for u in units if u.kind == kind]
        live = [u for u in of_kind if u.indexable]
        m.counts[kind] = len(of_kind)
        m.indexable[kind] = len(live)
        m.hashes[kind] = sha256_hex(str(RETRIEVAL_POLICY_VERSION), kind, *(f"{u.id}={u.content_hash}" for u in live))
    return m


def _split_long(paragraph: str, cap: int) -> list[str]:
    """Split a paragraph over the cap at sentence ends, then at word boundaries."""
    if estimate_tokens(paragraph) <= cap:
        return [paragraph]
    pieces: list[str] = []
    current: list[str] = []
    words_cap = max(1, cap * 3 // 4)
    for sentence in split_sentences(paragraph, keep_lines=False):
        words = sentence.split()
        while len(words) > words_cap:  # a "sentence" longer than the cap
            if current:
                pieces.append(" ".join(current))
                current = []
            pieces.append(" ".join(words[:words_cap]))
            words = words[words_cap:]
        if current and len(current) + len(words) > words_cap:
            pieces.append(" ".join(current))
            current = []
        current.extend(words)
    if current:
        pieces.append(" ".join(current))
    return pieces


def _pack(paragraphs: list[tuple[str, int | None]], cap: int) -> list[tuple[str, int | None, int | None]]:
    """Greedily pack (text, page) paragraphs into pieces of at most `cap` tokens."""
    out: list[tuple[str, int | None, int | None]] = []
    buf: list[str] = []
    tokens = 0
    first_page = last_page = None
    for text, page in paragraphs:
        for piece in _split_long(text, cap):
            t = estimate_tokens(piece)
            if buf and tokens + t > cap:
                out.append(("\n\n".join(buf), first_page, last_page))
                buf, tokens, first_page = [], 0, None
            buf.append(piece)
            tokens += t
            if first_page is None:
                first_page = page
            last_page = page if page is not None else last_page
    if buf:
        out.append(("\n\n".join(buf), first_page, last_page))
    return out


Paragraph = tuple[str, int | None]  # text, page


@dataclass
class _Section:
    path: list[str]
    level: int
    paragraphs: list[Paragraph]


@dataclass
class _CaptionSeen:
    caption: Caption
    path: list[str]
    page: int | None
    tables: list[str] = field(default_factory=list)  # cell text of the table it captions
    region: dict | None = None  # where a PDF reader found the object on its page


@dataclass
class _Walk:
    """One pass over a document's blocks in reading order, sorting them into
    sections (with their paragraphs), captions (with their tables) and the body
    paragraphs whose sentences may cite a figure or table."""

    sections: list[_Section] = field(default_factory=list)
    captions: list[_CaptionSeen] = field(default_factory=list)
    body_paragraphs: list[str] = field(default_factory=list)
    stack: list[tuple[int, str]] = field(default_factory=list)  # open headings (level, title)
    refs_level: int | None = None  # level of an open References section, whose text is left out
    current: list[Paragraph] = field(default_factory=list)
    tables_waiting: list[str] = field(default_factory=list)  # table blocks seen just before a table caption
    last_caption: _CaptionSeen | None = None

    @property
    def path(self) -> list[str]:
        return [t for _, t in self.stack]

    def close_section(self) -> None:
        if self.current:
            self.sections.append(_Section(self.path, self.stack[-1][0] if self.stack else 0, self.current))
        self.current = []

    def heading(self, block: Block) -> None:
        self.close_section()
        while self.stack and self.stack[-1][0] >= block.level:
            self.stack.pop()
        self.stack.append((block.level, block.text))
        if self.refs_level is not None and block.level <= self.refs_level:
            self.refs_level = None
        if _REFERENCES.match(block.text):
            self.refs_level = block.level
        self.last_caption = None

    def table(self, block: Block) -> None:
        """Cells belong to the table caption right before (docling, JATS) or after."""
        if self.last_caption is not None and self.last_caption.caption.object_kind == "table":
            self.last_caption.tables.append(block.text)
        elif self.refs_level is None:
            self.tables_waiting.append(block.text)

    def caption(self, block: Block, cap: Caption) -> None:
        seen = _CaptionSeen(cap, self.path, block.page, region=block.region)
        if cap.object_kind == "table":
            seen.tables.extend(self.tables_waiting)
        self.captions.append(seen)
        self.last_caption = seen
        self.tables_waiting = []

    def text(self, block: Block) -> None:
        """Ordinary text; a pending table with no caption stays body text."""
        in_refs = self.refs_level is not None
        if self.tables_waiting and not in_refs:
            self.current += [(t, block.page) for t in self.tables_waiting]
            self.tables_waiting = []
        self.last_caption = None
        if not in_refs:
            self.current.append((block.text, block.page))
            self.body_paragraphs.append(block.text)

    def finish(self) -> None:
        self.current += [(t, None) for t in self.tables_waiting]
        self.close_section()


def _block_caption(block: Block) -> Caption | None:
    """The caption a block is, if any: recognised by the reader, or by its opening words."""
    if block.kind == "caption":
        cap = parse_caption(block.text)
        if cap is None and block.object_label:
            cap = Caption(block.object_kind or "figure", block.object_label, "", block.text.strip())
        return cap
    return parse_caption(block.text) if block.kind == "text" else None


def _walk(doc: Document) -> _Walk:
    walk = _Walk()
    if doc.abstract:
        walk.sections.append(_Section(["Abstract"], 1, [(doc.abstract, None)]))
        walk.body_paragraphs.append(doc.abstract)
    for block in doc.blocks:
        if block.kind == "heading":
            walk.heading(block)
        elif block.kind == "table":
            walk.table(block)
        elif (cap := _block_caption(block)) is not None:
            walk.caption(block, cap)
        else:
            walk.text(block)
    walk.finish()
    return walk


def _body_units(sections: list[_Section], paper_id: str) -> list[Unit]:
    """One body unit per section, split at paragraph boundaries above BODY_TOKEN_CAP."""
    units: list[Unit] = []
    for section in sections:
        pieces = _pack(section.paragraphs, BODY_TOKEN_CAP)
        for part, (text, p0, p1) in enumerate(pieces):
            n = len(units)
            units.append(Unit(
                id=f"{paper_id}{BODY.id_part}{n}", paper_id=paper_id, kind=BODY.name, ordinal=n, text=text,
                section_path=" > ".join(section.path), section_title=section.path[-1] if section.path else "",
                section_level=section.level, part=part if len(pieces) > 1 else 0, page_start=p0, page_end=p1,
            ))
    return units


def _chunk_units(sections: list[_Section], paper_id: str) -> list[Unit]:
    """Plain fulltext chunks for a paper without headings."""
    paras = [p for s in sections for p in s.paragraphs]
    return [Unit(id=f"{paper_id}{CHUNK.id_part}{n}", paper_id=paper_id, kind=CHUNK.name, ordinal=n, text=text,
                 page_start=p0, page_end=p1)
            for n, (text, p0, p1) in enumerate(_pack(paras, CHUNK_TOKENS))]


def _merge_repeat(existing: Unit, seen: _CaptionSeen, tables: str | None) -> None:
    """The same label again (a continued table, a repeated caption) adds to its one unit."""
    if not existing.caption_text and seen.caption.text:
        existing.caption_text = seen.caption.text
        existing.indexable, existing.veto_reason = True, None
    if tables:
        existing.table_text = "\n".join(filter(None, [existing.table_text, tables]))
        if existing.veto_reason == "empty_caption":
            existing.indexable, existing.veto_reason = True, None
    if existing.region is None:
        existing.region = seen.region
    if seen.page is not None:
        existing.page_end = max(existing.page_end or seen.page, seen.page)


# A thesis's list of figures or tables (or its contents, when that heading was not read) names the
# objects with their pages: entries, not captions; the caption is where the object is printed.
_LISTS = re.compile(r"^(?:table of )?contents$|^list of (?:figures|tables|illustrations|plates|schemes)"
                    r"(?: and (?:figures|tables))?$", re.IGNORECASE)


def _object_units(captions: list[_CaptionSeen], cites: dict[str, list[str]], paper_id: str) -> list[Unit]:
    """One object unit per figure/table label: caption, table cells and the sentences citing it."""
    by_label: dict[str, Unit] = {}
    listed = [any(_LISTS.match(part.strip()) for part in seen.path) for seen in captions]
    printed = {seen.caption.label for seen, in_list in zip(captions, listed) if not in_list}
    for seen, in_list in zip(captions, listed):
        if in_list and seen.caption.label in printed:  # kept when the list is all there is (headings missed)
            continue
        cap = seen.caption
        tables = "\n".join(seen.tables) or None
        if cap.label in by_label:
            _merge_repeat(by_label[cap.label], seen, tables)
            continue
        nearby = " ".join(s for s in cites.get(cap.label, []) if cap.text[:60] not in s) or None
        # a series of its own ("Scheme 1", "Graph 2") is numbered apart from the paper's figures
        series = "" if cap.label.startswith(("Figure", "Table", "Supplementary")) else cap.label.split()[0] + "-"
        number = slug(("supp-" if cap.label.startswith("Supplementary") else "") + series + cap.label.split()[-1])
        u = Unit(
            id=f"{paper_id}{OBJECT.id_part}{cap.object_kind}:{number}", paper_id=paper_id, kind=OBJECT.name,
            ordinal=len(by_label), text=cap.text, section_path=" > ".join(seen.path),
            section_title=seen.path[-1] if seen.path else "", section_level=len(seen.path),
            page_start=seen.page, page_end=seen.page, object_kind=cap.object_kind, object_label=cap.label,
            caption_text=cap.text, nearby_body_text=nearby, table_text=tables, region=seen.region,
        )
        if not cap.text and not tables:  # a table printed under its label alone is found by its cells
            u.indexable, u.veto_reason = False, "empty_caption"
        by_label[cap.label] = u
    return list(by_label.values())


def _seal(u: Unit, title: str | None) -> None:
    """Final text, token estimate, veto and content hash of a unit."""
    if u.kind == OBJECT.name:
        u.text = u.caption_text or ""
    u.token_estimate = estimate_tokens(embedding_text(u, None))
    if u.kind != OBJECT.name and not u.text.strip():
        u.indexable, u.veto_reason = False, "empty_text"
    u.content_hash = sha256_hex(str(RETRIEVAL_POLICY_VERSION), TEXT_FORMAT, embedding_text(u, title))


def build_units(doc: Document, paper_id: str) -> list[Unit]:
    """All units of a paper, deterministic for the same document and paper id."""
    walk = _walk(doc)
    structured = doc.has_structure or bool(doc.abstract)
    units = _body_units(walk.sections, paper_id) if structured else _chunk_units(walk.sections, paper_id)
    units += _object_units(walk.captions, citing_sentences(walk.body_paragraphs), paper_id)
    for u in units:
        _seal(u, doc.title)
        u.ocr_engine = _read_by(u, doc.ocr_pages)
    return units


def _read_by(u: Unit, ocr_pages: dict[int, str]) -> str | None:
    """The OCR engine that read any of the unit's pages, so a hit says why its text may have errors."""
    if not ocr_pages or u.page_start is None:
        return None
    for page in range(u.page_start, (u.page_end or u.page_start) + 1):
        if page in ocr_pages:
            return ocr_pages[page]
    return None
