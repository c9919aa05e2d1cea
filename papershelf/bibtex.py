"""BibTeX out of the library: papers it holds (`papers --format bibtex`) and the references of a
paper that it does not (`refs ID --missing --format bibtex`), written by bibtexparser.

Keys are a paper's own citekey when it has one, else ``surnameYEARfirstword``
(``vaswani2017attention``), as reference managers name them; every key is made of ASCII
letters, digits and ``:-_./`` only, and made unique (ignoring case, as BibTeX does) with a
letter.  Own citekeys are reserved first, so a generated key never takes one.  An entry whose
type cannot be told is ``@misc``.

Everything written comes from papers and their reference lists, i.e. from files anyone may have
written, so every value is escaped twice over (`tex_text`):

* for BibTeX, which counts every brace (escaped or not) to find where a value ends: no brace of
  the text is written as a brace, so a value cannot close its entry, open another or swallow the
  next ones; the only braces written are balanced pairs of our own;
* for TeX, which reads the .bbl that BibTeX copies these values into: ``\\ { } ~ ^ < > |`` become
  LaTeX's text commands (``\\textbackslash{}`` ...) and ``% # & _ $`` are backslashed, so no
  command of the text (``\\input{/etc/passwd}``) ever runs and no character breaks the run.

Whitespace (tabs, newlines, blank lines) becomes one space; control characters and lone
surrogates are dropped.  DOIs and arXiv ids are verbatim fields (biblatex, ``\\doi``, ``\\url``), so
they are written as they are but only when made of the characters real identifiers use; any
other value is left out (the reference's own text, in `note`, still shows it, escaped).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

import bibtexparser
from bibtexparser.model import Entry, Field

from .document import Bibliographic, Reference
from .ingest.metadata import normalized_title
from .works import surname

_STOP = {"a", "an", "the", "on", "of", "in", "for", "and", "to", "with", "from", "towards", "toward"}

# How each character TeX or BibTeX would read as markup is written; every other character is itself.
TEX_ESCAPES = {"\\": r"\textbackslash{}", "{": r"\textbraceleft{}", "}": r"\textbraceright{}",
               "~": r"\textasciitilde{}", "^": r"\textasciicircum{}", "<": r"\textless{}", ">": r"\textgreater{}",
               "|": r"\textbar{}", "%": r"\%", "#": r"\#", "&": r"\&", "_": r"\_", "$": r"\$"}
_TEX_TABLE = str.maketrans(TEX_ESCAPES)
_KEY_DROP = re.compile(r"[^A-Za-z0-9:\-_./]")
_KEY_MAX = 64
_DOI = re.compile(r"10\.\d{3,9}/[-._;()/:<>\[\]+A-Za-z0-9]+")
# A match starts only where a run of letters and hyphens starts: a search is then linear in the text
# (without the look-behind it retried every position of a long run, tests/reliability/regex_timing.py).
_ARXIV = re.compile(r"(?<![a-z\-])(?:\d{4}\.\d{4,5}|[a-z\-]+(?:\.[A-Za-z]{2})?/\d{7})(?:v\d+)?", re.IGNORECASE)


def plain(text: str | None) -> str:
    """One line of printable text: whitespace runs become one space, control characters and lone
    surrogates (which no encoder can write) are dropped."""
    text = "".join(c for c in (text or "") if c.isspace() or unicodedata.category(c) not in ("Cc", "Cs"))
    return " ".join(text.split())


def tex_text(text: str | None) -> str:
    """`text` as a BibTeX field value that TeX prints as the text itself (see the module's doc)."""
    return plain(text).translate(_TEX_TABLE)


def _kept_capitals(escaped: str) -> str:
    """Words with inner capitals (BERT, LaTeX) braced, so styles that lowercase titles keep them."""
    return re.sub(r"\b([A-Z][A-Za-z0-9]*[A-Z][A-Za-z0-9]*)\b", r"{\1}", escaped)


def _name(author: str) -> str:
    """One author for BibTeX's name list: a name that BibTeX would split (a word "and") or could not
    read (more than one comma) is braced whole, as a corporate author is."""
    name = tex_text(author)
    if name.count(",") > 1 or re.search(r"(?i)(?:^|\s)and(?:\s|$)", name) or name.startswith(",") \
            or name.endswith(","):
        return "{" + name + "}"
    return name


def key_text(key: str | None) -> str:
    """`key` in the characters BibTeX keys may safely use (accents folded, the rest dropped), bounded."""
    folded = unicodedata.normalize("NFKD", plain(key)).encode("ascii", "ignore").decode()
    return _KEY_DROP.sub("", folded)[:_KEY_MAX]


def _generated_key(b: Bibliographic | Reference) -> str:
    first = key_text(surname(b.authors[0])).lower() if b.authors else "anon"
    word = next((w for w in normalized_title(b.title).split() if w not in _STOP and w.isascii()), "")  # no CJK in a key
    return re.sub(r"[^a-z0-9]", "", f"{first}{b.year or ''}{word}")[:_KEY_MAX] or "ref"


def _unique(base: str, taken: set[str]) -> str:
    """`base`, or `base` with a letter (a, b, ..., z, a1 ...) when a key equal but for case is taken."""
    key, n = base, 0
    while key.lower() in taken:
        n += 1
        key = f"{base}{chr(ord('a') + (n - 1) % 26)}{(n - 1) // 26 or ''}"
    taken.add(key.lower())
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


def _verbatim(value: str | None, pattern: re.Pattern) -> str | None:
    value = plain(value)
    return value if pattern.fullmatch(value) else None


def entry(b: Bibliographic | Reference, key: str, note: str | None = None) -> Entry:
    """The entry for one record under `key` (already valid and unique): every value escaped."""
    kind, venue_field = _type(b.venue, b.arxiv_id)
    authors = [_name(a) for a in b.authors if plain(a)]
    fields = [Field("author", " and ".join(authors))] if authors else []
    if tex_text(b.title):
        fields.append(Field("title", _kept_capitals(tex_text(b.title))))
    if tex_text(b.venue) and venue_field:
        fields.append(Field(venue_field, tex_text(b.venue)))
    year = str(b.year) if isinstance(b.year, int) and b.year > 0 else None
    doi, eprint = _verbatim(b.doi, _DOI), _verbatim(b.arxiv_id, _ARXIV)
    for name, value in (("year", year), ("doi", doi), ("eprint", eprint), ("note", tex_text(note))):
        if value:
            fields.append(Field(name, value))
    if eprint:
        fields.append(Field("archiveprefix", "arXiv"))
    return Entry(kind, key, fields)


def keys(records: list[Bibliographic | Reference]) -> list[str]:
    """One valid key per record, unique ignoring case: own citekeys first, then generated ones."""
    taken: set[str] = set()
    own = [key_text(getattr(b, "citekey", None)) for b in records]
    chosen = [_unique(k, taken) if k else "" for k in own]
    return [k or _unique(_generated_key(b), taken) for k, b in zip(chosen, records)]


def bibtex(items: Iterable[tuple[Bibliographic | Reference, str | None]]) -> str:
    """One BibTeX string for (record, note) pairs; a record with a citekey keeps it when it can."""
    pairs = list(items)
    lib = bibtexparser.Library()
    for (b, note), key in zip(pairs, keys([b for b, _ in pairs])):
        lib.add(entry(b, key, note))
    return bibtexparser.write_string(lib)
