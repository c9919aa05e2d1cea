"""Structured full texts: PubMed Central JATS, GROBID TEI and S2ORC / doc2json JSON.

These sources already know their sections, figures and tables, so each reader
only translates them into `Block`s: headings with their depth, paragraphs,
``caption`` blocks that carry the object's kind and label, and ``table``
blocks with cell text.  Reference lists go to ``Document.references``, never to blocks
(structured_references.py).
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET

from ..document import Block, Document, parse_year
from ..errors import IngestError
from .captions import make_label, parse_caption
from .structured_references import jats_references, s2orc_references, tei_references

_TEI = "{http://www.tei-c.org/ns/1.0}"
# the label's number ("3", "IV", "S1", a chapter's "2.1"), from a run's start: linear
_LABEL_NUM = re.compile(r"((?<![\d.])S?\d+(?:\.\d+)?|(?<![IVXLC])[IVXLC]+)\s*$")


def _text(el) -> str:
    return " ".join("".join(el.itertext()).split()) if el is not None else ""


def _caption_block(kind: str, label: str, caption: str) -> Block:
    """A caption block with a reader's label ("Figure 3"), whatever the source wrote ("Fig. 3")."""
    m = _LABEL_NUM.search(label.strip().rstrip(".:"))
    number = m.group(1) if m else ""
    nice = make_label(kind, number, label.lower().startswith("supp")) if number else label
    return Block("caption", f"{nice}: {caption}".strip(), object_kind=kind, object_label=nice)


def _table_text(table) -> str:
    rows = []
    for tr in table.iter():
        if tr.tag.split("}")[-1] in ("tr", "row"):
            cells = [_text(c) for c in tr if c.tag.split("}")[-1] in ("td", "th", "cell")]
            if any(cells):
                rows.append(" | ".join(cells))
    return "\n".join(rows)


def _parse_xml(data: bytes):
    try:
        return ET.fromstring(data)
    except ET.ParseError as e:
        raise IngestError(f"malformed XML ({e})") from None


# -- JATS ----------------------------------------------------------------------------


def read_jats(data: bytes) -> Document:
    root = _parse_xml(data)
    meta = root.find("front/article-meta")
    doc = Document(source_format="jats")
    if meta is not None:
        doc.title = _text(meta.find("title-group/article-title")) or None
        for c in meta.findall("contrib-group/contrib"):
            if c.get("contrib-type", "author") == "author" and c.find("name") is not None:
                n = c.find("name")
                doc.authors.append(" ".join(p for p in (_text(n.find("given-names")), _text(n.find("surname"))) if p))
        for pd in meta.findall("pub-date"):
            doc.year = doc.year or parse_year(_text(pd.find("year")))
        doi = meta.find("article-id[@pub-id-type='doi']")
        doc.doi = _text(doi) or None
        abstract = meta.find("abstract")
        if abstract is not None:
            doc.abstract = " ".join(_text(p) for p in abstract.iter("p")) or _text(abstract)
    doc.venue = _text(root.find("front/journal-meta/journal-title-group/journal-title")) or None
    doc.declared_id = doc.doi
    body = root.find("body")
    if body is not None:
        _jats_children(body, 0, doc.blocks)
    for group in root.iter("floats-group"):
        _jats_children(group, 0, doc.blocks)
    doc.references = jats_references(root.find("back") if root.find("back") is not None else root)
    return doc


def _jats_children(el, depth: int, blocks: list[Block]) -> None:
    for child in el:
        tag = child.tag
        if tag == "sec":
            title = _text(child.find("title"))
            if title:
                label = _text(child.find("label"))
                blocks.append(Block("heading", f"{label} {title}".strip(), level=depth + 1))
            _jats_children(child, depth + 1, blocks)
        elif tag == "p":
            # Figures and tables may sit inside a paragraph: take them out of its text.
            floats = [f for f in child if f.tag in ("fig", "table-wrap")]
            for f in floats:
                child.remove(f)
            if _text(child):
                blocks.append(Block("text", _text(child)))
            for f in floats:
                _jats_float(f, blocks)
        elif tag in ("fig", "table-wrap"):
            _jats_float(child, blocks)
        elif tag in ("fig-group", "table-wrap-group", "list", "boxed-text", "disp-quote") or tag == "list-item":
            _jats_children(child, depth, blocks)


def _jats_float(f, blocks: list[Block]) -> None:
    kind = "table" if f.tag == "table-wrap" else "figure"
    label = _text(f.find("label")) or ("Table" if kind == "table" else "Figure")
    cap = f.find("caption")
    blocks.append(_caption_block(kind, label, _text(cap)))
    table = f.find(".//table")
    if table is not None:
        cells = _table_text(table)
        if cells:
            blocks.append(Block("table", cells))


# -- GROBID TEI ------------------------------------------------------------------------


def read_tei(data: bytes) -> Document:
    root = _parse_xml(data)
    t = _TEI
    doc = Document(source_format="tei")
    doc.title = _text(root.find(f".//{t}titleStmt/{t}title")) or None
    analytic = root.find(f".//{t}sourceDesc/{t}biblStruct/{t}analytic")
    if analytic is not None:
        for a in analytic.findall(f"{t}author/{t}persName"):
            name = " ".join(_text(x) for x in a if x.tag in (f"{t}forename", f"{t}surname"))
            if name:
                doc.authors.append(name)
    doi = root.find(f".//{t}sourceDesc//{t}idno[@type='DOI']")
    doc.doi = _text(doi) or None
    date = root.find(f".//{t}sourceDesc//{t}date")
    if date is not None:
        doc.year = parse_year(date.get("when") or _text(date))
    abstract = root.find(f".//{t}profileDesc/{t}abstract")
    if abstract is not None:
        doc.abstract = " ".join(_text(p) for p in abstract.iter(f"{t}p")) or None
    body = root.find(f".//{t}text/{t}body")
    if body is not None:
        for div in body.iter(f"{t}div"):
            head = div.find(f"{t}head")
            if head is not None and _text(head):
                n = head.get("n") or ""
                level = n.rstrip(".").count(".") + 1 if n else 1
                doc.blocks.append(Block("heading", f"{n} {_text(head)}".strip(), level=level))
            for p in div.findall(f"{t}p"):
                if _text(p):
                    doc.blocks.append(Block("text", _text(p)))
        for fig in body.iter(f"{t}figure"):
            kind = "table" if fig.get("type") == "table" else "figure"
            head, label = _text(fig.find(f"{t}head")), _text(fig.find(f"{t}label"))
            desc = _text(fig.find(f"{t}figDesc"))
            cap = parse_caption(head) if head else None
            if cap is None and label:
                cap_label = f"{'Table' if kind == 'table' else 'Figure'} {label}"
            elif cap is not None:
                cap_label = cap.label
            else:
                continue  # an unlabeled float cannot be cited or named
            doc.blocks.append(_caption_block(kind, cap_label, desc))
            table = fig.find(f"{t}table")
            if table is not None and _table_text(table):
                doc.blocks.append(Block("table", _table_text(table)))
    doc.references = tei_references(root)
    return doc


# -- S2ORC / doc2json ------------------------------------------------------------------------


def read_s2orc(data: bytes) -> Document:
    try:
        d = json.loads(data)
    except ValueError as e:
        raise IngestError(f"not valid JSON ({e})") from None
    if not isinstance(d, dict):
        raise IngestError("JSON that is neither an S2ORC / doc2json paper nor a bibliography (CSL-JSON, Zotero)")
    meta = d.get("metadata") or {}
    parse = d.get("pdf_parse") or d.get("grobid_parse") or d
    if not isinstance(parse, dict) or "body_text" not in parse:
        raise IngestError("JSON that is neither an S2ORC / doc2json paper (no body_text) nor a bibliography")
    doc = Document(source_format="s2orc")
    doc.title = (d.get("title") or meta.get("title") or "").strip() or None
    for a in d.get("authors") or meta.get("authors") or []:
        if isinstance(a, dict):
            name = " ".join(p for p in [a.get("first", ""), *a.get("middle", []), a.get("last", "")] if p)
            if name:
                doc.authors.append(name)
    doc.year = parse_year(str(d.get("year") or meta.get("year") or ""))
    doc.venue = meta.get("venue") or meta.get("journal") or None
    doc.doi = meta.get("doi") or None
    abstract = d.get("abstract") or meta.get("abstract") or parse.get("abstract")
    if isinstance(abstract, list):
        abstract = " ".join(p.get("text", "") for p in abstract if isinstance(p, dict))
    doc.abstract = (abstract or "").strip() or None

    mentions: dict[str, str] = {}  # ref id -> the label the text uses for it
    section = None
    for para in parse.get("body_text", []):
        name = (para.get("section") or "").strip()
        if name and name != section:
            num = str(para.get("sec_num") or "")
            level = num.count(".") + 1 if num else 1
            doc.blocks.append(Block("heading", f"{num} {name}".strip(), level=level))
            section = name
        if para.get("text"):
            doc.blocks.append(Block("text", para["text"]))
        for span in para.get("ref_spans") or []:
            ref, text = span.get("ref_id"), span.get("text") or ""
            if ref and ref not in mentions and re.match(r"(?i)(fig|tab)", text):
                mentions[ref] = text
    counters = {"figure": 0, "table": 0}
    for ref_id, entry in (parse.get("ref_entries") or {}).items():
        kind = "table" if (entry.get("type") or entry.get("type_str")) == "table" else "figure"
        counters[kind] += 1
        text = (entry.get("text") or "").strip()
        cap = parse_caption(text)
        if cap is not None:
            label, caption = cap.label, cap.text
        else:
            said = parse_caption(mentions.get(ref_id, "") + ".")
            number = entry.get("num") or (said.number if said else None) or str(counters[kind])
            label, caption = make_label(kind, str(number)), text
        doc.blocks.append(_caption_block(kind, label, caption))
    entries = parse.get("bib_entries") or d.get("bib_entries") or {}
    doc.references = s2orc_references(entries) if isinstance(entries, dict) else []
    return doc
