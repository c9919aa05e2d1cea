"""BibTeX out of the library: papers it holds (`papers --format bibtex`) and the references of a
paper that it does not (`refs ID --missing --format bibtex`), written by bibtexparser.

Keys are ``surnameYEARfirstword`` (``vaswani2017attention``), made unique with a letter, as
reference managers name them; an entry whose type cannot be told is ``@misc``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import bibtexparser
from bibtexparser.model import Entry, Field

from .document import Bibliographic, Reference
from .ingest.metadata import normalized_title
from .works import surname

_STOP = {"a", "an", "the", "on", "of", "in", "for", "and", "to", "with", "from", "towards", "toward"}


def _key(b: Bibliographic | Reference, taken: set[str]) -> str:
    first = surname(b.authors[0]) if b.authors else "anon"
    word = next((w for w in normalized_title(b.title).split() if w not in _STOP), "")
    base = re.sub(r"[^a-z0-9]", "", f"{first}{b.year or ''}{word}") or "ref"
    key, n = base, 0
    while key in taken:
        n += 1
        key = f"{base}{chr(ord('a') + (n - 1) % 26)}{(n - 1) // 26 or ''}"
    taken.add(key)
    return key


def _type(venue: str | None, arxiv_id: str | None) -> tuple[str, str | None]:
    """(entry type, the field the venue goes in)."""
    v = (venue or "").lower()
    if re.search(r"proceedings|proc\.|conference|workshop|symposium|\b(?:acl|emnlp|naacl|neurips|nips|icml|iclr|"
                 r"cvpr|iccv|eccv|sigir|kdd|www|chi|aaai|ijcai|coling|lrec)\b", v):
        return "inproceedings", "booktitle"
    if v and not re.search(r"arxiv|preprint", v):
        return "article", "journal"
    return "misc", "howpublished" if v else None


def _braced(text: str) -> str:
    """Capitals kept as printed (BibTeX styles lowercase titles) and braces balanced."""
    text = text.replace("{", "").replace("}", "")
    return re.sub(r"\b([A-Z][A-Za-z0-9]*[A-Z][A-Za-z0-9]*)\b", r"{\1}", text)


def entry(b: Bibliographic | Reference, taken: set[str], note: str | None = None) -> Entry:
    kind, venue_field = _type(b.venue, b.arxiv_id)
    fields = [Field("author", " and ".join(b.authors))] if b.authors else []
    if b.title:
        fields.append(Field("title", _braced(b.title)))
    if b.venue and venue_field:
        fields.append(Field(venue_field, b.venue))
    for name, value in (("year", b.year), ("doi", b.doi), ("eprint", b.arxiv_id), ("note", note)):
        if value:
            fields.append(Field(name, str(value)))
    if b.arxiv_id:
        fields.append(Field("archiveprefix", "arXiv"))
    return Entry(kind, getattr(b, "citekey", None) or _key(b, taken), fields)


def bibtex(items: Iterable[tuple[Bibliographic | Reference, str | None]]) -> str:
    """One BibTeX string for (record, note) pairs; a record with a citekey keeps it."""
    lib = bibtexparser.Library()
    taken: set[str] = set()
    for b, note in items:
        lib.add(entry(b, taken, note))
    return bibtexparser.write_string(lib)
