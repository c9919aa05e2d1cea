"""Reference lists of structured full texts and Markdown: JATS ``<ref-list>``, GROBID TEI
``<listBibl>``, S2ORC ``bib_entries``, and a Markdown References section.

Structured sources have already separated the fields, so they are kept as given; the printed
text is the source's own (JATS ``mixed-citation``, TEI ``raw_reference``, S2ORC ``raw_text``) or,
when it has none, the fields written out in one line.  Fields a source lacks are read from that
text by `references.parse_reference`.
"""

from __future__ import annotations

import re

from ..document import Reference, parse_year
from .references import clean_entry, entry_label, parse_reference

_TEI = "{http://www.tei-c.org/ns/1.0}"
_CITATION_TAGS = ("element-citation", "mixed-citation", "citation", "nlm-citation")
_MD_HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
_MD_ITEM = re.compile(r"^\s{0,3}(?:[-*+]\s+|\d{1,4}[.)]\s+(?=\S))")
_REFS_NAME = re.compile(r"^(?:[\dIVX]+\.?\s*)?(references|bibliography|works cited|literature cited|"
                        r"references and notes|cited literature|reference list)\s*$", re.IGNORECASE)


def _text(el) -> str:
    return " ".join("".join(el.itertext()).split()) if el is not None else ""


def _completed(ref: Reference) -> Reference:
    """Fields the source left out, read from its printed text."""
    from ..works import normalized_arxiv, normalized_doi  # works imports this package: import when used

    parsed = parse_reference(ref.text, ref.n)
    for name in ("authors", "year", "title", "venue", "doi", "arxiv_id"):
        if not getattr(ref, name):
            setattr(ref, name, getattr(parsed, name))
    ref.doi, ref.arxiv_id = normalized_doi(ref.doi), normalized_arxiv(ref.arxiv_id)
    return ref


def _written_out(authors: list[str], year: int | None, title: str | None, venue: str | None) -> str:
    parts = [", ".join(authors), f"({year})" if year else "", title or "", venue or ""]
    return clean_entry(". ".join(p for p in parts if p))


def jats_references(root) -> list[Reference]:
    out: list[Reference] = []
    for ref in root.iter("ref"):
        cit = next((c for c in ref if c.tag in _CITATION_TAGS), None)
        if cit is None:
            continue
        authors = [", ".join(p for p in (_text(n.find("surname")), _text(n.find("given-names"))) if p)
                   for n in cit.iter("name")] + [_text(c) for c in cit.iter("collab")]
        title = _text(cit.find("article-title")) or _text(cit.find("chapter-title")) or None
        venue = _text(cit.find("source")) or None
        if title is None:
            title, venue = venue, None
        year = parse_year(_text(cit.find("year")))
        doi = _text(cit.find("pub-id[@pub-id-type='doi']")) or None
        text = _text(cit) if cit.tag == "mixed-citation" else _written_out(authors, year, title, venue)
        out.append(_completed(Reference(n=len(out) + 1, text=text, authors=[a for a in authors if a], year=year,
                                        title=title, venue=venue, doi=doi)))
    return out


def tei_references(root) -> list[Reference]:
    t = _TEI
    out: list[Reference] = []
    for bib in root.iter(f"{t}listBibl"):
        for b in bib.findall(f"{t}biblStruct"):
            scope = b.find(f"{t}analytic")
            scope = scope if scope is not None else b.find(f"{t}monogr")
            authors = []
            for p in scope.findall(f"{t}author/{t}persName") if scope is not None else []:
                given = " ".join(_text(f) for f in p.findall(f"{t}forename"))
                authors.append(", ".join(x for x in (_text(p.find(f"{t}surname")), given) if x))
            title = _text(b.find(f"{t}analytic/{t}title")) or _text(b.find(f"{t}monogr/{t}title")) or None
            venue = _text(b.find(f"{t}monogr/{t}title")) if b.find(f"{t}analytic/{t}title") is not None else None
            date = b.find(f".//{t}monogr/{t}imprint/{t}date")
            year = parse_year(date.get("when") or _text(date)) if date is not None else None
            doi = _text(b.find(f".//{t}idno[@type='DOI']")) or None
            arxiv = _text(b.find(f".//{t}idno[@type='arXiv']")) or None
            raw = _text(b.find(f"{t}note[@type='raw_reference']"))
            out.append(_completed(Reference(n=len(out) + 1, text=raw or _written_out(authors, year, title, venue),
                                            authors=[a for a in authors if a], year=year, title=title,
                                            venue=venue or None, doi=doi, arxiv_id=arxiv)))
    return out


def s2orc_references(entries: dict) -> list[Reference]:
    """``bib_entries`` in their order (BIBREF0, BIBREF1 ...)."""
    def order(key: str) -> tuple[int, str]:
        m = re.search(r"\d+", key)
        return (int(m.group()) if m else 0, key)

    out: list[Reference] = []
    for key in sorted(entries, key=order):
        e = entries[key]
        if not isinstance(e, dict):
            continue
        authors = [_s2orc_name(a) for a in e.get("authors") or [] if isinstance(a, dict)]
        ids = e.get("other_ids") or {}
        doi = (ids.get("DOI") or [None])[0] if isinstance(ids.get("DOI"), list) else ids.get("DOI")
        arxiv = (ids.get("arXiv") or [None])[0] if isinstance(ids.get("arXiv"), list) else ids.get("arXiv")
        year = parse_year(e.get("year"))
        title, venue = e.get("title") or None, e.get("venue") or None
        text = clean_entry(e.get("raw_text") or "") or _written_out(authors, year, title, venue)
        out.append(_completed(Reference(n=len(out) + 1, text=text, authors=[a for a in authors if a], year=year,
                                        title=title, venue=venue, doi=doi, arxiv_id=arxiv)))
    return out


def _s2orc_name(a: dict) -> str:
    given = " ".join([a.get("first", ""), *a.get("middle", [])]).strip()
    return ", ".join(x for x in (a.get("last", ""), given) if x)


def markdown_references(text: str) -> list[Reference]:
    """Entries of a Markdown References section: one per list item, else one per paragraph."""
    items: list[str] = []
    level = None
    listed = False
    for line in text.split("\n"):
        h = _MD_HEADING.match(line)
        if h:
            if level is not None and len(h.group(1)) <= level:
                break
            if level is None and _REFS_NAME.match(h.group(2).strip("*_ ")):
                level = len(h.group(1))
            continue
        if level is None:
            continue
        if _MD_ITEM.match(line):
            items.append(_MD_ITEM.sub("", line, count=1))
            listed = True
        elif not line.strip():
            if not listed and items and items[-1]:
                items.append("")
        elif items and (listed or items[-1]):
            joint = "" if items[-1].endswith("-") and line.strip()[:1].islower() else " "
            items[-1] += joint + line.strip()
        else:
            items.append(line.strip())
    entries = [clean_entry(i) for i in items if clean_entry(i)]
    if sum(entry_label(e) is not None for e in entries) > 0.5 * len(entries):
        entries = _merge_unlabelled(entries)
    return [parse_reference(e, n) for n, e in enumerate(entries, start=1)]


def _merge_unlabelled(entries: list[str]) -> list[str]:
    """In a numbered list, an item without a number is the previous entry going on (a converter
    that broke an entry at a column or page end made it an item of its own)."""
    out: list[str] = []
    for e in entries:
        if out and entry_label(e) is None:
            out[-1] += ("" if out[-1].endswith("-") and e[:1].islower() else " ") + e
        else:
            out.append(e)
    return out
