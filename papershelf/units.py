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

import hashlib
import re
from dataclasses import dataclass, field

from .document import Block, Document
from .ingest.captions import Caption, citing_sentences, parse_caption

# Bump whenever unit building or embedding text changes in a way that should
# invalidate stored vectors: it is part of every hash and of the space fingerprint.
RETRIEVAL_POLICY_VERSION = 1

BODY_TOKEN_CAP = 1000
CHUNK_TOKENS = 400

KINDS = ("body", "object", "chunk")
SOURCE_OF_KIND = {"body": "body_unit", "object": "object_unit", "chunk": "legacy_chunk"}
COLLECTION_OF_KIND = {"body": "body", "object": "objects", "chunk": "fulltext"}
KIND_OF_SOURCE = {v: k for k, v in SOURCE_OF_KIND.items()}

_REFERENCES = re.compile(
    r"^(?:[\dIVX]+\.?\s*)?(references|bibliography|works cited|literature cited|"
    r"references and notes|cited literature|reference list)\s*$",
    re.I,
)
_WORD = re.compile(r"\S+")


def estimate_tokens(text: str) -> int:
    """Roughly what a subword tokenizer makes of English prose: 4 tokens per 3 words."""
    return max(1, (len(_WORD.findall(text)) * 4 + 2) // 3) if text.strip() else 0


def sha256(*parts: str) -> str:
    h = hashlib.sha256()
    for p in parts:
        h.update(p.encode("utf-8", "surrogatepass"))
        h.update(b"\x1f")
    return h.hexdigest()


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
    token_estimate: int = 0
    indexable: bool = True
    veto_reason: str | None = None
    content_hash: str = ""

    @property
    def source(self) -> str:
        return SOURCE_OF_KIND[self.kind]

    @property
    def collection(self) -> str:
        return COLLECTION_OF_KIND[self.kind]

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


@dataclass
class Manifest:
    """Per-paper summary of its units: what a build compares against."""

    counts: dict[str, int] = field(default_factory=dict)  # total units per kind
    indexable: dict[str, int] = field(default_factory=dict)  # indexable units per kind
    hashes: dict[str, str] = field(default_factory=dict)  # sha256 per kind
    policy_version: int = RETRIEVAL_POLICY_VERSION


def make_manifest(units: list[Unit]) -> Manifest:
    m = Manifest()
    for kind in KINDS:
        of_kind = [u for u in units if u.kind == kind]
        live = [u for u in of_kind if u.indexable]
        m.counts[kind] = len(of_kind)
        m.indexable[kind] = len(live)
        m.hashes[kind] = sha256(str(RETRIEVAL_POLICY_VERSION), kind, *(f"{u.id}={u.content_hash}" for u in live))
    return m


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def _split_long(paragraph: str, cap: int) -> list[str]:
    """Split a paragraph over the cap at sentence ends, then at word boundaries."""
    if estimate_tokens(paragraph) <= cap:
        return [paragraph]
    pieces: list[str] = []
    current: list[str] = []
    words_cap = max(1, cap * 3 // 4)
    for sentence in re.split(r"(?<=[.!?])\s+", paragraph):
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


def build_units(doc: Document, paper_id: str) -> list[Unit]:
    """All units of a paper, deterministic for the same document and paper id."""
    sections: list[tuple[list[str], int, list[tuple[str, int | None]]]] = []  # path, level, paragraphs
    captions: list[tuple[Block, object, list[str], int | None]] = []  # block, Caption, path, page
    body_paragraphs: list[str] = []
    stack: list[tuple[int, str]] = []
    refs_level: int | None = None
    current: list[tuple[str, int | None]] = []
    tables_waiting: list[str] = []  # table blocks seen just before a table caption
    last_caption_idx: int | None = None
    table_text: dict[int, list[str]] = {}

    if doc.abstract:
        sections.append((["Abstract"], 1, [(doc.abstract, None)]))
        body_paragraphs.append(doc.abstract)

    def close_section():
        nonlocal current
        if current:
            sections.append(([t for _, t in stack], stack[-1][0] if stack else 0, current))
        current = []

    for block in doc.blocks:
        if block.kind == "heading":
            close_section()
            while stack and stack[-1][0] >= block.level:
                stack.pop()
            stack.append((block.level, block.text))
            if refs_level is not None and block.level <= refs_level:
                refs_level = None
            if _REFERENCES.match(block.text):
                refs_level = block.level
            last_caption_idx = None
            continue
        in_refs = refs_level is not None
        if block.kind == "table":
            # Cells belong to the table caption right before (docling, JATS) or after.
            if last_caption_idx is not None and captions[last_caption_idx][1].object_kind == "table":
                table_text.setdefault(last_caption_idx, []).append(block.text)
            elif not in_refs:
                tables_waiting.append(block.text)
            continue
        cap = None
        if block.kind == "caption":
            cap = parse_caption(block.text)
            if cap is None and block.object_label:
                cap = Caption(block.object_kind or "figure", block.object_label, "", block.text.strip())
        elif block.kind == "text":
            cap = parse_caption(block.text)
        if cap is not None:
            captions.append((block, cap, [t for _, t in stack], block.page))
            last_caption_idx = len(captions) - 1
            if cap.object_kind == "table" and tables_waiting:
                table_text.setdefault(last_caption_idx, []).extend(tables_waiting)
            tables_waiting = []
            continue
        # Ordinary text: a pending table with no caption stays body text.
        if tables_waiting and not in_refs:
            for t in tables_waiting:
                current.append((t, block.page))
            tables_waiting = []
        last_caption_idx = None
        if in_refs:
            continue
        current.append((block.text, block.page))
        body_paragraphs.append(block.text)
    for t in tables_waiting:
        current.append((t, None))
    close_section()

    units: list[Unit] = []
    title = doc.title
    if doc.has_structure or doc.abstract:
        n = 0
        for path, level, paras in sections:
            pieces = _pack(paras, BODY_TOKEN_CAP)
            for part, (text, p0, p1) in enumerate(pieces):
                units.append(Unit(
                    id=f"{paper_id}:body:{n}", paper_id=paper_id, kind="body", ordinal=n, text=text,
                    section_path=" > ".join(path), section_title=path[-1] if path else "",
                    section_level=level, part=part if len(pieces) > 1 else 0,
                    page_start=p0, page_end=p1,
                ))
                n += 1
    else:
        paras = [p for _, _, ps in sections for p in ps]
        for n, (text, p0, p1) in enumerate(_pack(paras, CHUNK_TOKENS)):
            units.append(Unit(
                id=f"{paper_id}:chunk:{n}", paper_id=paper_id, kind="chunk", ordinal=n, text=text,
                page_start=p0, page_end=p1,
            ))

    cites = citing_sentences(body_paragraphs)
    seen: dict[str, Unit] = {}
    for idx, (block, cap, path, page) in enumerate(captions):
        tables = "\n".join(table_text.get(idx, [])) or None
        existing = seen.get(cap.label)
        if existing is not None:
            # The same label again (a continued table, a repeated caption): one unit.
            if not existing.caption_text and cap.text:
                existing.caption_text = cap.text
                existing.indexable, existing.veto_reason = True, None
            if tables:
                existing.table_text = "\n".join(filter(None, [existing.table_text, tables]))
            if page is not None:
                existing.page_end = max(existing.page_end or page, page)
            continue
        nearby = " ".join(s for s in cites.get(cap.label, []) if cap.text[:60] not in s) or None
        number = cap.label.split()[-1]
        slug = _slug(("supp-" if cap.label.startswith("Supplementary") else "") + number)
        u = Unit(
            id=f"{paper_id}:obj:{cap.object_kind}:{slug}", paper_id=paper_id, kind="object",
            ordinal=len(seen), text=cap.text, section_path=" > ".join(path),
            section_title=path[-1] if path else "", section_level=len(path),
            page_start=page, page_end=page, object_kind=cap.object_kind, object_label=cap.label,
            caption_text=cap.text, nearby_body_text=nearby, table_text=tables,
        )
        if not cap.text:
            u.indexable, u.veto_reason = False, "empty_caption"
        seen[cap.label] = u
        units.append(u)

    for u in units:
        if u.kind == "object":
            u.text = u.caption_text or ""
        u.token_estimate = estimate_tokens(embedding_text(u, None))
        if u.kind != "object" and not u.text.strip():
            u.indexable, u.veto_reason = False, "empty_text"
        u.content_hash = sha256(str(RETRIEVAL_POLICY_VERSION), TEXT_FORMAT, embedding_text(u, title))
    return units
