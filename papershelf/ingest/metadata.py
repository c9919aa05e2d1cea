"""Bibliographic metadata from reference managers, matched to papers by their files.

* BibTeX (``.bib``, as Zotero, Better BibTeX, JabRef and Mendeley export it):
  ``file = {Full Text:files/12/paper.pdf:application/pdf}`` names attachments.
* CSL-JSON and Zotero / Better BibTeX JSON exports (``.json``): items with
  ``citationKey``/``id``, ``key`` (Zotero), and ``attachments``/``file`` paths.

Attachment paths are resolved relative to the metadata file, so a folder
exported from Zotero ("Export with files") comes in with one ``papershelf add``.
The matched entry supplies the paper id (citekey, else Zotero key), title,
authors, year, venue and DOI.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field

from ..document import Bibliographic, parse_year
from ..text import (
    normalized_title,  # noqa: F401 - importer.py and bibtex.py take it from here
    repaired_all,
)


@dataclass(kw_only=True)
class Meta(Bibliographic):
    """A reference manager's entry for one file: its bibliographic facts and ids."""

    zotero_key: str | None = None
    # From a Zotero data directory (ingest/zotero.py): kept on the paper, and notes and
    # annotations become searchable units; part of the JSON, so an edit updates the paper.
    collections: list[str] = field(default_factory=list)
    tags: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    annotations: list[dict] = field(default_factory=list)  # text, comment, page
    attachment_key: str | None = None
    # A Zotero item's second (third, ...) PDF: the id it takes when its own reading is not the item's
    # work (a supplement, another paper attached by mistake); else it is another source of the item's paper.
    apart_id: str | None = None

    def to_json(self) -> str:
        """Hashed with the file: a field left at None is left out, so a field added later changes no
        existing file's hash (a library re-parses only the files it concerns)."""
        fields = {k: v for k, v in self.__dict__.items() if not (k == "apart_id" and v is None)}
        return json.dumps(fields, sort_keys=True, ensure_ascii=False)

    def apart(self, read_as_another: bool = False) -> Meta:
        """This attachment as a paper of its own: its own id, no claim on the item's citekey or notes; and,
        `read_as_another` (its reading names another work), none on the item's title, authors, year, venue
        or DOI either, so the file is what it says it is and citations of the item's DOI or title name one paper."""
        item: dict[str, object] = {"title": None, "authors": [], "year": None, "venue": None, "doi": None} \
            if read_as_another else {}
        return Meta(**{**self.__dict__, **item, "citekey": None, "zotero_key": self.apart_id, "notes": [],
                       "apart_id": None})


def _clean_tex(value: str) -> str:
    value = re.sub(r"\\[a-zA-Z]+\s*", "", value)  # \emph, \textit ...
    return " ".join(value.replace("{", "").replace("}", "").split())


def _tex_author(name: str) -> str:
    name = _clean_tex(name)
    if "," in name:
        last, first = name.split(",", 1)
        return f"{first.strip()} {last.strip()}".strip()
    return name


def _resolve(base: str, path: str) -> str:
    path = os.path.expanduser(path.strip())
    return os.path.abspath(path if os.path.isabs(path) else os.path.join(base, path))


def _bib_files(value: str, base: str) -> list[str]:
    """Zotero/JabRef ``description:path:mime;...``, or a plain path."""
    out = []
    for part in re.split(r"(?<!\\);", value):
        part = part.strip()
        if not part:
            continue
        pieces = re.split(r"(?<!\\):", part)
        if len(pieces) >= 3:
            path = ":".join(pieces[1:-1])
        elif len(pieces) == 2 and not re.match(r"^[A-Za-z]$", pieces[0]):
            path = pieces[1]
        else:
            path = part
        out.append(_resolve(base, path.replace("\\:", ":").replace("\\;", ";")))
    return out


def parse_bibtex(text: str, base: str, entries: list[Meta] | None = None) -> dict[str, Meta]:
    """Entries by the attachment paths they name; every entry (with or without files) is also
    appended to `entries` when given, to match papers added before by DOI or title."""
    import bibtexparser

    library = bibtexparser.parse_string(text)
    if not library.entries:
        # Said rather than silently ignored: an export that yields nothing is usually a broken one.
        bad = len(getattr(library, "failed_blocks", []) or [])
        raise ValueError("no BibTeX entry could be parsed" + (f" ({bad} malformed blocks)" if bad else ""))
    out: dict[str, Meta] = {}
    for e in library.entries:
        f = {k.lower(): v.value for k, v in e.fields_dict.items()}
        meta = Meta(
            citekey=e.key,
            title=_clean_tex(f["title"]) if f.get("title") else None,
            authors=[_tex_author(a) for a in re.split(r"(?<!\s)\s+and\s+", f.get("author", "")) if a.strip()],
            year=parse_year(f.get("year") or f.get("date")),
            venue=_clean_tex(f.get("journal") or f.get("booktitle") or f.get("journaltitle") or "") or None,
            doi=f.get("doi") or None,
        )
        if entries is not None:
            entries.append(meta)
        for path in _bib_files(f.get("file", ""), base):
            out[path] = meta
    return out


def parse_csl_json(data, base: str, entries: list[Meta] | None = None) -> dict[str, Meta]:
    data = repaired_all(data)  # a lone surrogate ("\\ud800" in a title) becomes U+FFFD: UTF-8 cannot hold it
    items = data.get("items", []) if isinstance(data, dict) else data
    out: dict[str, Meta] = {}
    for it in items:
        if not isinstance(it, dict):
            continue
        authors = []
        for a in it.get("author") or it.get("creators") or []:
            if isinstance(a, dict):
                name = " ".join(p for p in (a.get("given") or a.get("firstName"), a.get("family") or a.get("lastName"))
                                if p) or a.get("literal") or a.get("name")
                if name:
                    authors.append(name)
        issued = it.get("issued") or {}
        year = None
        if isinstance(issued, dict) and issued.get("date-parts"):
            year = parse_year(issued["date-parts"][0][0])
        year = year or parse_year(it.get("date") or it.get("year"))
        meta = Meta(
            citekey=it.get("citationKey") or it.get("citation-key") or (it.get("id") if isinstance(it.get("id"), str)
                                                                        else None),
            zotero_key=it.get("key") or it.get("itemKey"),
            title=it.get("title"),
            authors=authors,
            year=year,
            venue=it.get("container-title") or it.get("publicationTitle") or it.get("proceedingsTitle"),
            doi=it.get("DOI") or it.get("doi"),
        )
        paths = [a.get("path") or a.get("localPath") for a in it.get("attachments") or [] if isinstance(a, dict)]
        if isinstance(it.get("file"), str):
            paths += it["file"].split(";")
        if entries is not None:
            entries.append(meta)
        for p in paths:
            if p:
                out[_resolve(base, p)] = meta
    return out


def is_metadata_json(data) -> bool:
    """A CSL-JSON array or a Zotero/Better BibTeX export object, rather than a paper."""
    if isinstance(data, list):
        return all(isinstance(x, dict) and ("type" in x or "title" in x or "itemType" in x) for x in data[:20])
    return isinstance(data, dict) and isinstance(data.get("items"), list) and "body_text" not in data


def zotero_blocks(meta: Meta) -> list:
    """The user's notes and PDF annotations as blocks after the paper's own text: a "Notes"
    section, and an "Annotations" section with one subsection per page (its units carry the page).
    Annotation text is prefixed ("Highlight:") so a highlighted caption is not read as a caption."""
    from ..document import Block

    blocks = []
    if meta.notes:
        blocks.append(Block("heading", "Notes", level=1))
        blocks += [Block("text", note) for note in meta.notes]
    if meta.annotations:
        blocks.append(Block("heading", "Annotations", level=1))
        page: int | None = -1  # none seen yet
        for a in sorted(meta.annotations, key=lambda a: a.get("page") or 0):
            if a.get("page") != page:
                page = a.get("page")
                blocks.append(Block("heading", f"p. {page}" if page else "no page", level=2))
            parts = [f"Highlight: \u201c{a['text']}\u201d" if a.get("text") else "", f"Comment: {a['comment']}"
                     if a.get("comment") else ""]
            blocks.append(Block("text", " ".join(p for p in parts if p), page=page or None))
    return blocks
