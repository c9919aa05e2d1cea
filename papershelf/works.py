"""One paper per work: which paper a new file belongs to, and which of a paper's files is best.

A researcher often holds the same paper several times: the PDF, a GROBID TEI of it, an S2ORC
JSON, a newer arXiv version.  Each file becomes a *source* of one paper.  A file joins an
existing paper when they share

1. a DOI, else
2. an arXiv id (version ignored), else
3. the normalized title (at least three words) *and* the first author's surname, with the same
   year — or no year on one side, when that leaves exactly one paper (GROBID and S2ORC often
   carry no year; a journal version of a conference paper a year later must stay apart) — and
   no two different DOIs.  A shorter title (two words) never joins two files.

A file that names its paper — a citekey or id in its front matter, a bibliography entry, a
Zotero item — is that paper: it joins only the paper of that name (two citekeys are two items the
user keeps apart), though files without a name may join it.  A title alone never merges: "Deep
learning for X" by two groups are two papers.

A reference entry names a library paper by the same keys, looser where an entry is not a file
(`matching_paper(..., cited=True)`): the year printed in the entry may be the journal version's
several years after the preprint (or the revised edition's) the library holds, when title and first
author agree exactly and one paper has that key; a two-word title ("NTRU Prime", "Database Metatheory")
names a paper only with the same first author *and the same year* (`SHORT_TITLE_WORDS`); and a side
with no first author at all (a tech report's front page names none; a misread entry) matches on a long
title alone (`TITLE_ONLY_WORDS`, the title-only key ``"title|"``), exactly after folding.  Neither
merges two files.  Of a paper's sources the best supplies its units and metadata: structured full text
(JATS, TEI, S2ORC, Markdown) over PDF and plain text, then the newer file.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Iterable

from .document import Bibliographic, Document
from .models import PaperSource
from .text import normalized_title

STRUCTURED_FORMATS = ("jats", "tei", "s2orc", "markdown")
MIN_TITLE_WORDS = 3
# A title this short has a key too, but it names a paper only for a citation with the same first author and
# the same year (a two-word title is a name a work gives itself: "NTRU Prime", "Database Metatheory", "The
# Anatomy"); it never joins two files and takes none of the looser rules (another year, no year, subtitle).
SHORT_TITLE_WORDS = 2
# A title this long is distinctive enough to name a work alone, when one side has no author to check.
TITLE_ONLY_WORDS = 6
# How far an entry's year may stray from a library paper's with the same title key: a preprint and its
# journal version, a paper and its revised edition (the CACM Unix paper of 1974 cited as the BSTJ one of 1978).
CITED_YEAR_GAP = 6
# A citation that drops the title's subtitle ("Bigtable: A distributed storage system" cited as the longer
# or the shorter form) names the paper when the shorter title has this many words at least, the first
# author is the same and the years at most `NEAR_YEAR_GAP` apart: one paper only.
NEAR_TITLE_WORDS = 3
NEAR_YEAR_GAP = 1


def priority(source_format: str | None) -> int:
    """How good a source of units a format is: its structure is read, not guessed."""
    if source_format in STRUCTURED_FORMATS:
        return 2
    return 1 if source_format in ("pdf", "text") else 0


def normalized_doi(doi: str | None) -> str | None:
    doi = re.sub(r"^(?:doi:\s*|https?://(?:dx\.)?doi\.org/)", "", (doi or "").strip(), flags=re.IGNORECASE)
    return doi.lower() or None


def normalized_arxiv(arxiv_id: str | None) -> str | None:
    """``arXiv:2203.00130v1`` and ``2203.00130`` are the same work (versions are its sources)."""
    value = re.sub(r"^arxiv:\s*", "", (arxiv_id or "").strip(), flags=re.IGNORECASE)
    return re.sub(r"v\d+$", "", value).lower() or None


def surname(name: str) -> str:
    """The family name of "Ada Lovelace" or "Lovelace, Ada", lowercase letters only."""
    name = name.split(",")[0] if "," in name else (name.split() or [""])[-1]
    return normalized_title(name).replace(" ", "")


def title_key(title: str | None, authors: list[str]) -> str | None:
    """Normalized title + first author's surname, or None when either is too thin to match on; with
    no author at all, the title-only key ``"title|"`` of a long title (it links citations, never merges)."""
    words = normalized_title(title)
    first = surname(authors[0]) if authors else ""
    n = len(words.split())
    if first and n >= SHORT_TITLE_WORDS:
        return f"{words}|{first}"
    return f"{words}|" if not first and n >= TITLE_ONLY_WORDS else None


def title_only(key: str | None) -> str | None:
    """The title-only key a title key meets across a missing author: ``"title|"``."""
    return key[:key.index("|") + 1] if key and "|" in key else None


def short_title(key: str | None) -> bool:
    """A title key whose title has fewer than `MIN_TITLE_WORDS` words (see `SHORT_TITLE_WORDS`)."""
    return key is not None and len(key.split("|", 1)[0].split()) < MIN_TITLE_WORDS


def _keys_meet(a: str | None, b: str | None, cited: bool) -> bool:
    """Same title key; for a citation, also one side title-only with the same title.  A short title's
    key meets only for a citation (`matching_paper` then asks for the same year too)."""
    if not a or not b:
        return False
    if a == b:
        return cited if short_title(a) else (cited or not a.endswith("|"))
    return cited and (a.endswith("|") or b.endswith("|")) and title_only(a) == title_only(b)


def near_titles(a: str | None, b: str | None) -> bool:
    """Two title keys of one first author whose titles differ by a subtitle: the shorter title's words
    open the longer one (at least `NEAR_TITLE_WORDS` of them)."""
    if not a or not b or "|" not in a or "|" not in b:
        return False
    (ta, sa), (tb, sb) = a.split("|", 1), b.split("|", 1)
    short, long = sorted((ta.split(), tb.split()), key=len)
    return bool(sa) and sa == sb and len(short) >= NEAR_TITLE_WORDS and len(short) < len(long) \
        and long[:len(short)] == short


def near_keys(key: str | None) -> tuple[list[str], list[str]]:
    """What a store is asked for the near titles of a key: (exact keys of its shorter titles, title
    prefixes of its longer ones), in the form `Store.find_sources` and `references_to` take prefixes
    (the last character stands for the end of the range)."""
    if not key or "|" not in key or key.endswith("|"):
        return [], []
    title, first = key.split("|", 1)
    words = title.split()
    shorter = [f"{' '.join(words[:k])}|{first}" for k in range(NEAR_TITLE_WORDS, len(words))]
    return shorter, ([f"{title}  "] if len(words) >= NEAR_TITLE_WORDS else [])


def _near_paper(new: PaperSource, candidates: list[PaperSource]) -> str | None:
    """The one paper whose title key is near the entry's (`near_titles`), in a year close to it."""
    found = {c.paper_id for c in candidates if near_titles(new.title_key, c.title_key) and new.year and c.year
             and abs(c.year - new.year) <= NEAR_YEAR_GAP and not (new.doi and c.doi and c.doi != new.doi)}
    near = {c.paper_id for c in candidates if near_titles(new.title_key, c.title_key)}
    return found.pop() if len(found) == 1 and len(near) == 1 else None


def source_of(doc: Document, path: str, sha256: str, size: int) -> PaperSource:
    """What a parsed file says about the work it is (paper_id is filled in by the caller)."""
    try:
        mtime = os.path.getmtime(path)
    except OSError:
        mtime = None
    return described(doc, "", path=path, format=doc.source_format, hash=sha256, size=size, mtime=mtime,
                     priority=priority(doc.source_format), added_at=time.time())


def described(record: Bibliographic, paper_id: str, path: str = "", **fields) -> PaperSource:
    """The keys a bibliographic record (a parsed file, a reading, a reference manager's item) gives its work,
    with the source's other `fields`."""
    return PaperSource(path=path, paper_id=paper_id, doi=normalized_doi(record.doi),
                       arxiv_id=normalized_arxiv(record.arxiv_id), title_key=title_key(record.title, record.authors),
                       year=record.year, **fields)


def same_work(reading: Bibliographic, item: Bibliographic) -> bool:
    """A file's own reading is the work a record describes, by the rules that join two files (DOI, arXiv id,
    title key + year; two different DOIs never): how a Zotero item's second PDF is told from a supplement or
    another paper attached by mistake, whose title, authors or DOI are not the item's."""
    return matching_paper(described(reading, "reading"), [described(item, "item")]) == "item"


def matching_paper(new: PaperSource, candidates: Iterable[PaperSource], cited: bool = False) -> str | None:
    """The paper `new` is another source of, or None: by DOI, then arXiv id, then title key + year.
    `cited`: `new` is a reference entry naming a paper, not a file (the looser rules of the docstring)."""
    candidates = list(candidates)
    for field in ("doi", "arxiv_id"):
        value = getattr(new, field)
        ids = sorted({c.paper_id for c in candidates if value and getattr(c, field) == value})
        if ids:
            return ids[0] if len(ids) == 1 else None
    years: dict[str, set[int]] = {}
    short = short_title(new.title_key)
    for c in candidates:
        if short and not (new.year and c.year == new.year):
            continue  # a two-word title names a paper of its own year only
        if _keys_meet(new.title_key, c.title_key, cited) and not (new.doi and c.doi and c.doi != new.doi):
            years.setdefault(c.paper_id, set()).update([c.year] if c.year else [])  # two DOIs: two works
    same_year = [p for p, ys in years.items() if new.year and new.year in ys]
    if len(same_year) == 1:
        return same_year[0]
    open_year = [p for p, ys in years.items() if not ys or not new.year]
    if len(open_year) == 1 and not same_year:
        return open_year[0]
    if cited and len(years) == 1 and not same_year and new.year:  # one work, printed in another version's year
        paper, ys = next(iter(years.items()))
        return paper if min(abs(y - new.year) for y in ys) <= CITED_YEAR_GAP else None
    return _near_paper(new, candidates) if cited and not years else None


def rank(source: PaperSource) -> tuple[int, float]:
    """Better sources sort higher: format first, then the newer file."""
    return source.priority, source.mtime or 0.0


def best(sources: Iterable[PaperSource], provider: str | None = None) -> PaperSource | None:
    """The source that should supply the units; on a tie the current provider stays."""
    return max(sources, key=lambda s: (*rank(s), s.path == provider), default=None)
