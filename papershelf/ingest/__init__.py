"""From files on disk to parsed `Document`s: discovery, reading, dispatch by format.

Readers are plain functions ``bytes -> Document`` registered by file
extension in `READERS`; anything they raise as `IngestError` becomes one clear
line in the `add` summary instead of a crash.

Discovery and reading trust nothing about the file system: only regular files
are read (a FIFO or device named ``*.md`` would block forever), symlink loops
and dangling links get one line each, and a file name that is not valid UTF-8
is carried as its *display name* (undecodable bytes shown as ``\\xNN``), which
the store can hold and `real_path` maps back to the bytes on disk.
"""

from __future__ import annotations

import errno
import hashlib
import os
import re
import stat
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from ..document import Document
from ..errors import IngestError
from ..text import repaired_all
from ..text import sha256_hex as sha256_hex  # re-exported: the source hash with a bibliography entry
from .citekey import readable_id, with_suffix
from .markdown import parse_markdown

MAX_TEXT_BYTES = 20 * 1024 * 1024


def decode_text(data: bytes) -> str:
    if b"\x00" in data[:8192]:
        raise IngestError("binary file, not text")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise IngestError(f"not valid UTF-8 text (byte 0x{data[e.start]:02x} at offset {e.start})") from None
    if not text.strip():
        raise IngestError("empty file: no text to index")
    return text


def read_markdown(data: bytes) -> Document:
    return parse_markdown(decode_text(data))


def read_plain_text(data: bytes) -> Document:
    doc = parse_markdown(decode_text(data))
    doc.source_format = "text"
    return doc


def read_pdf(data: bytes, texts: list[str] | None = None) -> Document:
    from .pdf import read_pdf as parse

    return parse(data, texts)


def read_xml(data: bytes) -> Document:
    """JATS (PubMed Central) or GROBID TEI, told apart by their root element."""
    from .structured import read_jats, read_tei

    head = data[:4096]
    if b"<TEI" in head or b"tei-c.org" in head:
        return read_tei(data)
    if b"<article" in head or b"JATS" in head or b"jats" in head:
        return read_jats(data)
    raise IngestError("XML that is neither JATS nor TEI")


def read_json(data: bytes) -> Document:
    from .structured import read_s2orc

    return read_s2orc(data)


READERS: dict[str, Callable[[bytes], Document]] = {
    ".md": read_markdown,
    ".markdown": read_markdown,
    ".txt": read_plain_text,
    ".text": read_plain_text,
    ".pdf": read_pdf,
    ".nxml": read_xml,
    ".xml": read_xml,
    ".json": read_json,
}
MAX_BYTES: dict[str, int] = {".pdf": 200 * 1024 * 1024}  # per-extension size limits; MAX_TEXT_BYTES otherwise


METADATA_EXTS = {".bib"}  # .json may be metadata too: told apart by content


def supported(path: str) -> bool:
    ext = os.path.splitext(path)[1].lower()
    return ext in READERS or ext in METADATA_EXTS


def display_path(path: str) -> str:
    """The path as valid Unicode: undecodable bytes of a non-UTF-8 name become ``\\xNN``.

    Identity for every ordinary name; lossless for the others (see `real_path`)."""
    try:
        path.encode("utf-8")
        return path
    except UnicodeEncodeError:
        return os.fsencode(path).decode("utf-8", "backslashreplace")


_ESCAPED_BYTE = re.compile(rb"\\x([0-9a-f]{2})")


def real_path(path: str) -> str:
    """The on-disk path of a `display_path` (the same string unless it carries ``\\xNN`` escapes)."""
    if "\\x" not in path or os.path.lexists(path):
        return path
    raw = _ESCAPED_BYTE.sub(lambda m: bytes([int(m.group(1), 16)]), path.encode("utf-8"))
    return os.fsdecode(raw)


def file_problem(path: str) -> str | None:
    """Why `path` cannot be read as a paper (a loop, a dangling link, a FIFO...), or None for a regular file."""
    try:
        st = os.stat(path)
    except OSError as e:
        if e.errno == errno.ELOOP:
            return "symbolic link loop"
        if os.path.islink(path):
            return "broken symbolic link"
        return f"cannot read: {e.strerror or e}"
    if stat.S_ISREG(st.st_mode):
        return None
    if stat.S_ISDIR(st.st_mode):
        return "is a folder"
    kind = ("a named pipe (FIFO)" if stat.S_ISFIFO(st.st_mode) else "a socket" if stat.S_ISSOCK(st.st_mode)
            else "a device" if stat.S_ISCHR(st.st_mode) or stat.S_ISBLK(st.st_mode) else "a special file")
    return f"not a regular file: {kind}"


def discover(paths: list[str]) -> Iterator[tuple[str, str | None]]:
    """Yield (absolute display path, problem) for every file to add.

    Folders are walked recursively (folder symlinks not followed, so no loop),
    skipping hidden entries and files with no reader; a file named explicitly
    with no reader, and anything that is not a readable regular file, is
    yielded with a problem.
    """
    for p in paths:
        p = os.path.abspath(os.path.expanduser(p))
        if os.path.isdir(p):
            for root, dirs, files in os.walk(p):
                dirs[:] = sorted(d for d in dirs if not d.startswith("."))
                for name in sorted(files):
                    full = os.path.join(root, name)
                    if not name.startswith(".") and supported(full):
                        yield display_path(full), file_problem(full)
        elif os.path.lexists(p):
            ext = os.path.splitext(p)[1].lower() or "(none)"
            problem = file_problem(p) or (None if supported(p) else f"unsupported file type {ext}")
            yield display_path(p), problem
        else:
            yield display_path(p), "no such file or folder"


@dataclass
class SourceFile:
    path: str
    data: bytes
    sha256: str

    @property
    def ext(self) -> str:
        return os.path.splitext(self.path)[1].lower()


def _read_regular(path: str, limit: int) -> bytes:
    """At most `limit` + 1 bytes of a regular file.  Opened non-blocking and checked with
    fstat *after* opening, so a FIFO swapped in after discovery cannot block the read."""
    fd = os.open(real_path(path), os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    with os.fdopen(fd, "rb") as f:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise IngestError(file_problem(real_path(path)) or "not a regular file")
        if st.st_size > limit:
            raise IngestError(f"file too large ({st.st_size / 2**20:.1f} MiB > {limit / 2**20:.0f} MiB limit; "
                              "raise it with --max-size)")
        return f.read(limit + 1)


# Salted into a PDF's source hash, so `add` parses PDFs again after the PDF reader changed what it
# finds (2: figure/table regions, table cells, printed authors, outline headings; 3: sidebars and
# contents pages not sections, superscripts on joined lines, titles beside scaled e-mail lines, the
# year checked against references and creation date; 5: an accent over a dotless i is í, a footnote
# mark after the title is not part of it and its hyphenated lines join, letter-spaced capitals
# are words, an accent joins a letter of its own line, LaTeX's contents entries are not headings, IEEE's
# body-size capital and italic section titles are; 6: the author block read by its own cells and rows, a
# title in its first line's weight; 7: glyphs a font cannot name read from its encoding or as the likeliest
# ligature, a journal logo or article-type label over the title is not it, a cover sheet gives no front
# matter, dated lines give the year, reference lists headed in other languages and ending at statements;
# 8: pages whose text is drawn turned read upright, objects end with their own evidence, stacked objects
# split, unboxed front-page sidebars set apart, italic and small-caps headings, authors beside the abstract,
# titles keyed with accents folded; 9: reference lists read by their pages' geometry, sub/superscripts
# measured from glyph origins, a title's lines in another size kept and an article-type label as large
# as the title dropped, Published dates and meeting lines give the year, colon labels and a paragraph's
# first line are no headings, sub-headings in the typeface of the paper's sure headings, a page's columns
# from its gutters for objects, double-spaced tables, stacked objects parted at the drawing's start;
# 10: reference entries whose "Surname, I." list ends at its last name after "and", a venue's acronym in
# parentheses after the title taken as the venue, page ranges no year; 11: running heads below the
# margin, hidden small text under a title, glyphs repaired from the document's own words, column frames,
# numbered run-ins opening with math, filled panels and margin marks outside figure regions; 16: author-year
# entries open at a surname after an entry's end, undated files keep a printed year, bylines beside logos and
# sidebars, names surname-first or with degrees, figure labels and float names no headings, sidebars by width,
# regions beside their captions; 17: symbols a mathematical font sets at Latin-1 codes read from their
# drawing, titles wrapped over lines and bylines in two weights, wrapped headings and flat levels, table
# rows centred on a multi-line label, captions in a margin column, a wrapped mention of a figure no caption,
# footers alternating between odd and even pages, a reference list ending where its entries stop opening
# alike; 18: symbols a font sets at ASCII codes read from their drawing, species headings and italic
# sub-headings, title-page footnotes no headings, bylines of other eras ("By", one-size pages, surname
# first), volume lines date a paper, reference labels at a line's end or in a gutter, unheaded author-year
# lists, regions beside wrapped text, smaller-body pages, tables continued overleaf; 19: a "±" drawn as a
# plus over a minus, bold read from the glyphs' strokes of fonts with hashed names, title-page sidebar strips
# kept apart from the text beside them, tables continued into the next column, ragged text wrapped round an
# object, captions in other languages and small capitals, raised reference labels at a page's top or foot,
# statement and link lines after a reference list, names opening with a particle, article-type labels over
# short titles; 20: running heads ending in the page's number, no skipped heading levels, wrapped run-ins
# ending in a colon or dash, titles of up to ten words a line, a bare "Table 1." closing a sentence no
# caption, side captions beside a picture across the page's middle, a body's gutter found under a
# page-wide table, small axis titles kept with their figure, captions read past their first line and a
# stray mark, reference lists in a band under the body, pieces of one justified line no entry, entries
# opening with a capital outside ASCII, statements after a list's last alike entry dropped, surnames in
# capitals no longer making a byline an affiliation, four-word names, a title's last word in the corner,
# a raised mark or a badge no longer ending a byline; 21: pages of bitmap fonts without glyph names read by
# OCR, scanned lines given sizes, weights and run-in lead-ins from the image, a figure's box cut to its clip
# path, side captions running on under their panels, panel captions no stop, bookmarks whose top entry is
# the title, labels in a ruled frame no headings, a running head only at one height, a PDF's own title
# where page 1 prints it whole, a badge beside a name, a city and region code no author, reference lists
# under any late heading; 22: TeX math-symbol signs (⟨ ⟩ ‖ ′) read from the font's own encoding, a PDF of
# glyph codes failing (pending OCR) rather than indexed when Tesseract is missing, a number run into a
# capitals heading spaced, short text round a table caption no table text, a box round running text kept in
# the column, byline grids' rows under the names read as affiliations, a city and region code without a comma
# a place, no year earlier than the page's received or arXiv date, a contents row "References 137" no list
# heading, scanned image strips no drawing, charts' labels bridging an undrawn plot, hanging-label captions
# read on, a caption's own rule no part of its figure, a side object sought over the gutter it reaches;
# 23: a table's columns cut at the gaps its own rows leave open (word gaps kept on the line), a form's drawing
# within its own clips, a title's capitals head over its subtitle, a short last title line kept, note marks
# ending any title line dropped, repository cover sheets skipped, an untrusted info title left out, headings
# ending in an abbreviation ("sp. nov."), numbered titles over up to four lines, small-print headings of
# twelve words, a table region stopping at a lettered section, a "References" row among contents rows no list
# heading, scanned reference labels read by the list's own sequence, raised marks on scans written after ^,
# a scan's drawings found from its ink; 24: pages of Type 3 fonts without a character map read by OCR, a
# spanning table head a row of its own, wrapped bracketed values and hyphen-broken heads joined, group-head
# bands and ruled grids' bands one row, a journal's name above the title no title, a logo label beside the
# title skipped, statement lines after a reference list ending it, a book's chapter-end lists all read,
# scanned reference labels split from their period or missing a digit, a side caption running on under its
# figure, a short caption under a page-wide picture taking the page, a table stacked over a figure parted,
# small-print headings wrapped over lines).
# Papers whose units come out the same keep their vectors; only changed units are embedded again.
PDF_READER = "pdf-reader/24"


def load_source(path: str, max_bytes: int | None = None) -> SourceFile:
    """Read a file's bytes and content hash (hash before parse: unchanged files are skipped)."""
    ext = os.path.splitext(path)[1].lower()
    limit = max_bytes or MAX_BYTES.get(ext, MAX_TEXT_BYTES)
    try:
        data = _read_regular(path, limit)
    except FileNotFoundError:
        raise IngestError("file disappeared before it could be read") from None
    except PermissionError:
        raise IngestError("permission denied") from None
    except IsADirectoryError:
        raise IngestError("is a folder") from None
    except OSError as e:
        if e.errno == errno.ELOOP:
            raise IngestError("symbolic link loop") from None
        raise IngestError(f"cannot read: {e.strerror or e}") from None
    if len(data) > limit:
        raise IngestError(f"file grew past the {limit / 2**20:.0f} MiB limit while being read")
    return SourceFile(path, data, content_hash(path, data))


def content_hash(path: str, data: bytes, meta_json: bytes | None = None) -> str:
    """A source file's hash as `add` records it: its bytes, the bibliography entry that is part of
    the paper when there is one, and for a PDF the reader's version (a new PDF reader reads the same
    bytes anew: what it finds may differ).  The one definition: `serve` checks a file against it."""
    reader = [PDF_READER.encode()] if os.path.splitext(path)[1].lower() == ".pdf" else []
    if meta_json is None:
        digest = hashlib.sha256(data)
        for part in reader:
            digest.update(part)
        return digest.hexdigest()
    return sha256_hex(data, meta_json, *reader)


def parse_source(src: SourceFile) -> Document:
    reader = READERS.get(src.ext)
    if reader is None:
        raise IngestError(f"unsupported file type {src.ext or '(none)'}")
    if not src.data.strip():
        raise IngestError("empty file: no text to index")
    texts: list[str] = []  # a PDF's page texts, read by the parse, for its metadata
    try:
        doc = read_pdf(src.data, texts) if src.ext == ".pdf" else reader(src.data)
    except IngestError:
        raise
    except (ValueError, RecursionError, MemoryError) as e:
        raise IngestError(f"could not parse: {e}") from None
    except Exception as e:  # noqa: BLE001 - one hostile file must not abort the other files' add
        raise IngestError(f"could not parse ({type(e).__name__}: {e})") from None
    if src.ext == ".pdf":
        fill_from_pdf_meta(doc, src, texts)
    return repaired_all(doc)  # a lone surrogate ("\\ud83d" in YAML or JSON) becomes U+FFFD: UTF-8 cannot hold it


def fill_from_pdf_meta(doc: Document, src: SourceFile, texts: list[str] | None = None) -> None:
    """Year, DOI and venue the PDF states about itself, where the parser found none.
    `texts`: the pages' text as the parse read it (else read again).

    A bibliography or Zotero entry applied later still wins (`apply_metadata`)."""
    from .pdf.front.info_title import confirmed_title, info_case, printed_info
    from .pdf.front.meta import read_pdf_meta
    from .pdf.front.year import checked_year

    try:
        meta = read_pdf_meta(src.data, src.path, texts, scanned=1 in doc.ocr_pages)
    except Exception:  # noqa: BLE001 - metadata is a bonus: it must never fail a paper
        return
    if not meta.year_unsure:  # page 1 prints two years of its own: no year rather than a guess
        doc.year = doc.year or checked_year(meta.year, doc.references, meta.created)[0]
    doc.doi = doc.doi or meta.doi
    doc.venue = doc.venue or meta.venue
    doc.title = info_case(doc.title, meta.title)
    doc.title = confirmed_title(doc.title, meta.title, meta.first_page) or printed_info(meta.title, meta.first_page)
    doc.authors = doc.authors or meta.authors
    doc.arxiv_id = doc.arxiv_id or meta.arxiv_id


def derive_paper_id(doc: Document, path: str, taken: Callable[[str], bool] | None = None) -> str:
    """The paper's id: what the source declares (its citekey, or its Zotero item's key), else a
    readable one in Better BibTeX's style from its first author, year and title (ingest/citekey.py),
    with a letter suffix when `taken` says another paper holds it.  The same file gives the same id in a fresh library.
    (Ids made before were the file name plus a hash of its path; those papers keep them.)"""
    if doc.declared_id and doc.declared_id != doc.doi:  # a DOI names the work, but nobody types it as an id
        return re.sub(r"\s+", "-", doc.declared_id.strip())
    stem = os.path.splitext(os.path.basename(path))[0]
    key = readable_id(doc.authors, doc.year, doc.title, stem)
    return with_suffix(key, taken) if taken else key
