"""A Zotero data directory read directly: ``zotero.sqlite`` plus ``storage/<key>/``.

Zotero keeps its database open with an exclusive lock while it runs, so it is
never opened in place: the file (and a ``-wal`` beside it, if any) is copied to a
temporary folder and the copy is read.  Nothing in the data directory is written.

For every PDF attachment that is not in the trash (nor is its parent) this yields
an `Attachment`: the file's path, the parent item's metadata as a `Meta`
(title, creators in order, year, venue, DOI, item key, citation key: Zotero 8's
native `citationKey` field, else Better BibTeX's), its collections ("Parent/Child"
paths), tags, the parent's notes and the attachment's annotations (text, comment,
page).  Missing files are kept, marked missing, so `add` can report each in one line.

Libraries: the personal one ("My Library") and each group library; feeds (RSS
libraries) are never read.  A group item's collections are rooted at the group's
name (the group itself, "Lab/Methods", ...), so the collection filter selects a
group; its zotero:// links name the group (`groups/<groupID>/items/KEY`), so they
open in the right library.

Link modes (``itemAttachments.linkMode``): 0 imported file and 1 imported URL live
in ``storage/<attachment key>/`` (path ``storage:<name>``); 2 is a linked file by
absolute path; 3 (linked URL) and 4 (embedded image) have no PDF.
"""

from __future__ import annotations

import html
import json
import os
import re
import shutil
import sqlite3
import tempfile
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from html.parser import HTMLParser

from ..document import parse_year
from ..errors import IngestError
from .metadata import Meta

DB_NAME = "zotero.sqlite"
BBT_NAME = "better-bibtex.sqlite"
LINKED_FILE = 2
PDF_LINK_MODES = (0, 1, 2)
VENUE_FIELDS = ("publicationTitle", "proceedingsTitle", "conferenceName", "bookTitle", "repository",
                "websiteTitle", "university")
AUTHOR_TYPES = ("author", "editor")
PERSONAL = "My Library"  # what Zotero calls the personal library


@dataclass
class Annotation:
    text: str
    comment: str
    page: int | None
    kind: str


@dataclass
class Attachment:
    key: str  # the attachment item's key: storage/<key>/ and zotero://open-pdf/…/items/<key>
    path: str
    meta: Meta
    exists: bool = True
    collections: list[str] = field(default_factory=list)
    tags: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    annotations: list[Annotation] = field(default_factory=list)
    owner: int = 0  # itemID of the regular item the PDF belongs to (itself when standalone)
    library: str = PERSONAL  # "My Library", or the group library's name
    group_id: int | None = None  # the group's id (zotero://…/groups/<id>/…); None in the personal library

    @property
    def link_key(self) -> str:
        """What a zotero:// link names after its action: the key in the personal library (kept bare, as
        stored before groups were read), "groups/<id>/items/KEY" in a group's."""
        return f"groups/{self.group_id}/items/{self.key}" if self.group_id is not None else self.key


def is_zotero_dir(path: str) -> bool:
    """A Zotero data directory: zotero.sqlite with a storage/ folder beside it."""
    return os.path.isfile(os.path.join(path, DB_NAME)) and os.path.isdir(os.path.join(path, "storage"))


SNAPSHOT_TRIES = 5
BUSY_TIMEOUT = 2.0  # seconds to wait for Zotero's lock per try


@contextmanager
def snapshot(db_path: str, tries: int = SNAPSHOT_TRIES):
    """A private read-only connection to a consistent copy of a SQLite file Zotero may be writing.

    The SQLite backup API under a shared lock gives a consistent copy whenever Zotero lets go of
    its lock; while it holds it (it keeps an exclusive lock while it runs) the file is copied with
    its `-wal` or rollback `-journal`, so opening the copy replays or rolls back exactly what SQLite
    would.  Each copy must pass `quick_check`; a torn one is retried (`tries` times, backing off),
    then `ZoteroUnreadable` says why in one line."""
    tmp = tempfile.mkdtemp(prefix="papershelf-zotero-")
    try:
        db = _consistent_copy(db_path, os.path.join(tmp, os.path.basename(db_path)), tries)
        db.row_factory = sqlite3.Row
        try:
            db.execute("PRAGMA query_only = 1")
            yield db
        finally:
            db.close()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _consistent_copy(db_path: str, copy: str, tries: int) -> sqlite3.Connection:
    reason = "not tried"
    for attempt in range(tries):
        if attempt:
            time.sleep(min(0.1 * 2 ** attempt, 2.0))
        for name in os.listdir(os.path.dirname(copy)):
            os.remove(os.path.join(os.path.dirname(copy), name))
        if not os.path.isfile(db_path):
            raise ZoteroUnreadable(f"{db_path} is not a file")
        try:
            try:
                _backup(db_path, copy)
            except sqlite3.OperationalError:  # Zotero holds its lock: copy the files, journal included
                _copy_files(db_path, copy)
        except sqlite3.DatabaseError as e:  # not a database at all, or damaged
            reason = str(e)
            continue
        except OSError as e:
            raise ZoteroUnreadable(f"cannot read {db_path}: {e.strerror or e}") from None
        db = sqlite3.connect(copy)
        try:
            ok = db.execute("PRAGMA quick_check").fetchone()[0]
            if ok == "ok":
                return db
            reason = f"damaged ({ok})"
        except sqlite3.DatabaseError as e:
            reason = str(e)
        db.close()
    raise ZoteroUnreadable(f"{db_path} cannot be read consistently after {tries} tries: {reason}")


def _backup(db_path: str, copy: str) -> None:
    src = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True, timeout=BUSY_TIMEOUT, isolation_level=None)
    dst = sqlite3.connect(copy)
    try:
        # The shared lock first, bounded by the busy timeout: Python's backup() itself would wait
        # for a busy source forever.  Holding it, the copy is of one committed state.
        src.execute("BEGIN")
        src.execute("SELECT count(*) FROM sqlite_master").fetchone()
        src.backup(dst)
    finally:
        dst.close()
        src.close()


def _copy_files(db_path: str, copy: str) -> None:
    try:
        shutil.copyfile(db_path, copy)
        for suffix in ("-wal", "-journal"):
            if os.path.exists(db_path + suffix):
                shutil.copyfile(db_path + suffix, copy + suffix)
    except FileNotFoundError:
        pass  # a journal that went as Zotero committed: the copy is checked below


class ZoteroUnreadable(IngestError):
    """A Zotero data directory whose database cannot be read (torn, damaged, not Zotero's):
    that directory's one-line failure, never the whole `add`'s."""


_BLOCK_TAGS = frozenset({"p", "div", "br", "li", "h1", "h2", "h3", "h4", "h5", "h6", "tr", "blockquote", "pre"})


class _Text(HTMLParser):
    """Note HTML -> plain text, one line per block element."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag in _BLOCK_TAGS:
            self.parts.append("\n")

    def handle_data(self, data):
        self.parts.append(data)


def note_text(note_html: str) -> str:
    parser = _Text()
    parser.feed(note_html or "")
    lines = (" ".join(line.split()) for line in html.unescape("".join(parser.parts)).splitlines())
    return "\n".join(line for line in lines if line)


def zotero_year(date: str | None) -> int | None:
    """Zotero stores "YYYY-MM-DD original text" (00 for unknown parts): the year is the first field."""
    if not date:
        return None
    m = re.match(r"^(\d{4})-\d\d-\d\d", date)
    year = int(m.group(1)) if m else parse_year(date)
    return year if year and year > 0 else None


def annotation_page(position: str | None, label: str | None) -> int | None:
    """The 1-based page of an annotation: its position's pageIndex, else a numeric page label."""
    try:
        index = json.loads(position or "{}").get("pageIndex")
        if isinstance(index, int):
            return index + 1
    except (ValueError, AttributeError):
        pass
    return int(label) if label and label.isdigit() else None


class _Reader:
    """Queries over one snapshot of zotero.sqlite; each method reads one kind of fact."""

    def __init__(self, db: sqlite3.Connection, data_dir: str, citekeys: dict[str, str]):
        self.db, self.data_dir, self.citekeys = db, data_dir, citekeys
        self.trashed = {r[0] for r in db.execute("SELECT itemID FROM deletedItems")}
        # libraryID -> (name, group id): the personal library and the groups; feeds are left out.
        self.libraries = {r[0]: (PERSONAL, None) for r in db.execute("SELECT libraryID FROM libraries "
                                                                     "WHERE type = 'user'")}
        self.libraries |= {r[0]: (r[1], r[2]) for r in db.execute(
            "SELECT l.libraryID, g.name, g.groupID FROM libraries l JOIN groups g ON g.libraryID = l.libraryID "
            "WHERE l.type = 'group'")}

    def fields(self, item_id: int) -> dict[str, str]:
        rows = self.db.execute(
            "SELECT f.fieldName, v.value FROM itemData d JOIN fieldsCombined f ON f.fieldID = d.fieldID "
            "JOIN itemDataValues v ON v.valueID = d.valueID WHERE d.itemID = ?", (item_id,))
        return {r[0]: str(r[1]) for r in rows}

    def creators(self, item_id: int) -> list[str]:
        rows = self.db.execute(
            "SELECT c.firstName, c.lastName, t.creatorType FROM itemCreators ic "
            "JOIN creators c ON c.creatorID = ic.creatorID JOIN creatorTypes t ON t.creatorTypeID = ic.creatorTypeID "
            "WHERE ic.itemID = ? ORDER BY ic.orderIndex", (item_id,)).fetchall()
        authors = [r for r in rows if r[2] == "author"] or [r for r in rows if r[2] in AUTHOR_TYPES] or rows
        return [" ".join(p for p in (r[0], r[1]) if p) for r in authors]

    def meta(self, item_id: int, key: str) -> Meta:
        f = self.fields(item_id)
        extra_key = re.search(r"^[^\S\n]*Citation Key:\s*(\S+)", f.get("extra", ""), re.MULTILINE | re.IGNORECASE)
        citekey = (f.get("citationKey") or "").strip() or self.citekeys.get(key) or \
            (extra_key.group(1) if extra_key else None)
        return Meta(citekey=citekey, zotero_key=key,
                    title=f.get("title"), authors=self.creators(item_id), year=zotero_year(f.get("date")),
                    venue=next((f[v] for v in VENUE_FIELDS if f.get(v)), None), doi=f.get("DOI") or None)

    def collections(self, item_id: int) -> list[str]:
        parents = {r[0]: (r[1], r[2]) for r in self.db.execute(
            "SELECT collectionID, collectionName, parentCollectionID FROM collections")}

        def path(cid):
            name, parent = parents[cid]
            return f"{path(parent)}/{name}" if parent in parents else name

        ids = [r[0] for r in self.db.execute("SELECT collectionID FROM collectionItems WHERE itemID = ?", (item_id,))]
        return sorted(path(c) for c in ids if c in parents)

    def tags(self, item_id: int) -> list[str]:
        return sorted(r[0] for r in self.db.execute(
            "SELECT t.name FROM itemTags it JOIN tags t ON t.tagID = it.tagID WHERE it.itemID = ?", (item_id,)))

    def notes(self, parent_id: int) -> list[str]:
        rows = self.db.execute("SELECT itemID, note FROM itemNotes WHERE parentItemID = ? ORDER BY itemID",
                               (parent_id,))
        return [t for r in rows if r[0] not in self.trashed and (t := note_text(r[1]))]

    def annotations(self, attachment_id: int) -> list[Annotation]:
        rows = self.db.execute(
            "SELECT a.itemID, a.type, a.text, a.comment, a.pageLabel, a.position FROM itemAnnotations a "
            "WHERE a.parentItemID = ? ORDER BY a.sortIndex", (attachment_id,))
        kinds = {1: "highlight", 2: "note", 3: "image", 4: "ink", 5: "underline", 6: "text"}
        return [Annotation((r[2] or "").strip(), (r[3] or "").strip(), annotation_page(r[5], r[4]),
                           kinds.get(r[1], "annotation"))
                for r in rows if r[0] not in self.trashed and ((r[2] or "").strip() or (r[3] or "").strip())]

    def file_path(self, key: str, link_mode: int, path: str | None) -> str | None:
        if not path:
            return None
        if path.startswith("storage:"):
            return os.path.join(self.data_dir, "storage", key, path[len("storage:"):])
        if link_mode == LINKED_FILE:
            return path if os.path.isabs(path) else None  # "attachments:" relative to a base dir we don't know
        return None

    def attachments(self) -> list[Attachment]:
        rows = self.db.execute(
            "SELECT a.itemID, i.key, i.libraryID, a.parentItemID, a.linkMode, a.path, p.key AS parentKey "
            "FROM itemAttachments a JOIN items i ON i.itemID = a.itemID LEFT JOIN items p ON p.itemID = a.parentItemID "
            "WHERE a.contentType = 'application/pdf' AND a.linkMode IN (0, 1, 2) ORDER BY a.itemID").fetchall()
        out = []
        for r in rows:
            if r["itemID"] in self.trashed or r["parentItemID"] in self.trashed or r["libraryID"] not in self.libraries:
                continue  # trashed, or in a feed
            path = self.file_path(r["key"], r["linkMode"], r["path"])
            if path is None:
                continue
            owner = r["parentItemID"] or r["itemID"]  # a standalone PDF is its own item
            meta = self.meta(owner, r["parentKey"] or r["key"])
            library, group = self.libraries[r["libraryID"]]
            collections = self.collections(owner)
            if group is not None:  # rooted at the group, so the collection filter selects it
                collections = [library, *(f"{library}/{c}" for c in collections)]
            out.append(Attachment(r["key"], os.path.abspath(path), meta, os.path.isfile(path), collections,
                                  self.tags(owner), [], self.annotations(r["itemID"]), owner, library, group))
        self._distinct_ids(out)
        self._place_notes(out)
        return out

    def _place_notes(self, attachments: list[Attachment]) -> None:
        """A parent's notes go with each of its PDFs: the item's paper holds them once whichever of its PDFs
        supplies the units (one paper per work), and a PDF that stays apart drops them (`Meta.apart`)."""
        notes: dict[int, list[str]] = {}
        for a in attachments:
            if a.owner not in notes:
                notes[a.owner] = self.notes(a.owner)
            a.notes = notes[a.owner]

    @staticmethod
    def _distinct_ids(attachments: list[Attachment]) -> None:
        """A parent with several PDFs: all carry the item's id, so each is another source of the item's paper
        (one paper per work); the second and later also carry an id of their own, their attachment key added,
        which they take when their reading is not the item's work (importer.py `Importer._item_meta`)."""
        seen: set[str] = set()
        for a in attachments:
            base = a.meta.citekey or a.meta.zotero_key
            if base in seen:
                a.meta.apart_id = f"{base}-{a.key}"
            seen.add(base or "")


def read_citekeys(data_dir: str) -> dict[str, str]:
    """Better BibTeX's pinned/generated citekeys by item key, when its database is beside Zotero's."""
    path = os.path.join(data_dir, BBT_NAME)
    if not os.path.isfile(path):
        return {}
    try:
        with snapshot(path, tries=2) as db:
            return {r["itemKey"]: r["citationKey"] for r in db.execute("SELECT itemKey, citationKey FROM citationkey")}
    except (sqlite3.DatabaseError, ZoteroUnreadable):
        return {}  # another Better BibTeX layout: the `extra` field's "Citation Key:" line still counts


def read_zotero(data_dir: str) -> list[Attachment]:
    """Every PDF attachment of a Zotero data directory that is not in the trash; ZoteroUnreadable
    (one line) when its database is damaged, torn or not Zotero's."""
    data_dir = os.path.abspath(os.path.expanduser(data_dir))
    citekeys = read_citekeys(data_dir)
    with snapshot(os.path.join(data_dir, DB_NAME)) as db:
        try:
            return _Reader(db, data_dir, citekeys).attachments()
        except sqlite3.DatabaseError as e:
            raise ZoteroUnreadable(f"{os.path.join(data_dir, DB_NAME)} is not a readable Zotero database "
                                   f"({e})") from None


def read_zotero_dirs(paths: list[str]) -> tuple[list[str], list[Attachment], list[tuple[str, str]]]:
    """The Zotero data directories among `paths`, their attachments, and (directory, reason) for
    each one that cannot be read — a folder holding zotero.sqlite without storage/ included, which
    is not indexed as plain files either."""
    dirs, attachments, failed = [], [], []
    for p in paths:
        d = os.path.expanduser(p)
        if not os.path.lexists(os.path.join(d, DB_NAME)):
            continue
        dirs.append(p)
        if not os.path.isdir(os.path.join(d, "storage")):
            failed.append((p, "looks like a Zotero data directory (zotero.sqlite) but has no storage/ folder; "
                              "add the folder holding both, or an export"))
            continue
        try:
            attachments += read_zotero(d)
        except IngestError as e:
            failed.append((p, str(e)))
    return dirs, attachments, failed
