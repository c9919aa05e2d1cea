"""A Zotero data directory the tests build themselves, on Zotero's real schema.

`tests/data/zotero_schema.sql` holds the CREATE statements (tables, indexes and
triggers) of a real Zotero 6.0.27 database (userdata schema 121); the rows Zotero
itself ships (item types, fields, creator types) are inserted with Zotero's own ids,
then a small library through the same tables Zotero writes:

* JOUR1 journal article (2 creators, DOI, collection "Biology/Wounds", tags) with PDF ATT1,
  a child note and a highlight annotation with a comment on page 2;
* CONF1 conference paper ("Citation Key: okafor2021" in extra) with PDF ATT2 in "Biology";
* TRASH1 a trashed item whose PDF ATTT exists; MISS1 an item whose PDF ATTM is missing;
* a linked web page (linkMode 3), which has no PDF.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from .pdf_fixtures import BODY, Writer

SCHEMA = Path(__file__).parent / "data" / "zotero_schema.sql"

# Zotero's ids for the system rows used here (global schema 28).
ITEM_TYPES = {"annotation": 1, "attachment": 3, "conferencePaper": 11, "journalArticle": 22, "note": 28,
              "webpage": 40}
FIELDS = {"title": 1, "date": 6, "url": 13, "extra": 16, "publicationTitle": 38, "proceedingsTitle": 57, "DOI": 59,
          # Zotero 8's native citation key; its id comes from a later global schema (the reader looks
          # fields up by name, so any free id stands for it here).
          "citationKey": 150}
CREATOR_TYPES = {"author": 8, "editor": 10}


def write_pdf(path: Path, title: str, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    w = Writer(str(path), header="Example Reports")
    w.title(title, "Ada Okafor, Lena Brandt")
    w.heading("1 Introduction")
    w.paragraph(text)
    for _ in range(6):
        w.paragraph(BODY)
    w.save()


class ZoteroBuilder:
    """Rows the way Zotero writes them: items, itemData through itemDataValues, creators, ..."""

    def __init__(self, data_dir: Path):
        self.dir = data_dir
        data_dir.mkdir(parents=True, exist_ok=True)
        (data_dir / "storage").mkdir(exist_ok=True)
        self.db = sqlite3.connect(data_dir / "zotero.sqlite")
        self.db.executescript(f"BEGIN;\n{SCHEMA.read_text()}\nCOMMIT;")  # one transaction: no fsync per table
        self.db.execute("INSERT INTO libraries(libraryID, type, editable, filesEditable) VALUES (1, 'user', 1, 1)")
        for name, i in ITEM_TYPES.items():
            self.db.execute("INSERT INTO itemTypes VALUES (?, ?, NULL, 1)", (i, name))
            self.db.execute("INSERT INTO itemTypesCombined VALUES (?, ?, 1, 0)", (i, name))
        for name, i in FIELDS.items():
            self.db.execute("INSERT INTO fields VALUES (?, ?, NULL)", (i, name))
            self.db.execute("INSERT INTO fieldsCombined VALUES (?, ?, NULL, NULL, 0)", (i, name))
        for name, i in CREATOR_TYPES.items():
            self.db.execute("INSERT INTO creatorTypes VALUES (?, ?)", (i, name))
        self.db.execute("INSERT INTO version VALUES ('userdata', 121)")

    def group(self, group_id: int, name: str) -> int:
        """A group library, as Zotero records one it syncs: a `libraries` row of type 'group' and its
        `groups` row (groupID is the id in zotero.org URLs and zotero:// links); returns its libraryID."""
        library = self.db.execute("INSERT INTO libraries(type, editable, filesEditable) "
                                  "VALUES ('group', 1, 1)").lastrowid
        self.db.execute("INSERT INTO groups(groupID, libraryID, name, description, version) VALUES (?, ?, ?, '', 1)",
                        (group_id, library, name))
        return library

    def feed(self, name: str, url: str) -> int:
        """A feed (RSS) library: a `libraries` row of type 'feed' and its `feeds` row; returns its libraryID."""
        library = self.db.execute("INSERT INTO libraries(type, editable, filesEditable) "
                                  "VALUES ('feed', 0, 0)").lastrowid
        self.db.execute("INSERT INTO feeds(libraryID, name, url) VALUES (?, ?, ?)", (library, name, url))
        return library

    def item(self, item_type: str, key: str, library: int = 1, **fields) -> int:
        cur = self.db.execute("INSERT INTO items(itemTypeID, libraryID, key) VALUES (?, ?, ?)",
                              (ITEM_TYPES[item_type], library, key))
        item_id = cur.lastrowid
        for name, value in fields.items():
            self.db.execute("INSERT OR IGNORE INTO itemDataValues(value) VALUES (?)", (value,))
            value_id = self.db.execute("SELECT valueID FROM itemDataValues WHERE value=?", (value,)).fetchone()[0]
            self.db.execute("INSERT INTO itemData VALUES (?, ?, ?)", (item_id, FIELDS[name], value_id))
        return item_id

    def creators(self, item_id: int, names: list[tuple[str, str]], kind: str = "author", start: int = 0) -> None:
        for n, (first, last) in enumerate(names, start):
            self.db.execute("INSERT OR IGNORE INTO creators(firstName, lastName, fieldMode) VALUES (?, ?, 0)",
                            (first, last))
            cid = self.db.execute("SELECT creatorID FROM creators WHERE firstName=? AND lastName=?",
                                  (first, last)).fetchone()[0]
            self.db.execute("INSERT INTO itemCreators VALUES (?, ?, ?, ?)", (item_id, cid, CREATOR_TYPES[kind], n))

    def pdf(self, parent: int | None, key: str, title: str, text: str, present: bool = True,
            name: str = "paper.pdf", library: int = 1) -> int:
        item_id = self.item("attachment", key, library, title="Full Text PDF")
        self.db.execute("INSERT INTO itemAttachments(itemID, parentItemID, linkMode, contentType, path) "
                        "VALUES (?, ?, 1, 'application/pdf', ?)", (item_id, parent, f"storage:{name}"))
        if present:
            write_pdf(self.dir / "storage" / key / name, title, text)
        return item_id

    def collection(self, name: str, key: str, parent: int | None = None, library: int = 1) -> int:
        return self.db.execute("INSERT INTO collections(collectionName, parentCollectionID, libraryID, key) "
                               "VALUES (?, ?, ?, ?)", (name, parent, library, key)).lastrowid

    def file_in(self, collection: int, item_id: int) -> None:
        self.db.execute("INSERT INTO collectionItems(collectionID, itemID) VALUES (?, ?)", (collection, item_id))

    def tag(self, item_id: int, name: str) -> None:
        self.db.execute("INSERT OR IGNORE INTO tags(name) VALUES (?)", (name,))
        tag_id = self.db.execute("SELECT tagID FROM tags WHERE name=?", (name,)).fetchone()[0]
        self.db.execute("INSERT INTO itemTags VALUES (?, ?, 0)", (item_id, tag_id))

    def note(self, parent: int, key: str, html: str) -> int:
        item_id = self.item("note", key)
        self.db.execute("INSERT INTO itemNotes(itemID, parentItemID, note, title) VALUES (?, ?, ?, '')",
                        (item_id, parent, html))
        return item_id

    def annotation(self, attachment: int, key: str, text: str, comment: str, page_index: int) -> int:
        item_id = self.item("annotation", key)
        self.db.execute(
            "INSERT INTO itemAnnotations(itemID, parentItemID, type, text, comment, color, pageLabel, sortIndex, "
            "position, isExternal) VALUES (?, ?, 1, ?, ?, '#ffd400', ?, ?, ?, 0)",
            (item_id, attachment, text, comment, str(page_index + 1), f"{page_index:05d}|000100|00200",
             f'{{"pageIndex": {page_index}, "rects": [[100, 200, 300, 215]]}}'))
        return item_id

    def trash(self, item_id: int) -> None:
        self.db.execute("INSERT INTO deletedItems(itemID) VALUES (?)", (item_id,))

    def close(self) -> None:
        self.db.commit()
        self.db.close()


def build_library(data_dir: Path) -> Path:
    """The small library described in the module docstring; returns the data dir."""
    z = ZoteroBuilder(data_dir)
    jour = z.item("journalArticle", "JOUR1", title="Trans-Signalling Keeps Wound Macrophages Inflammatory",
                  date="2021-03-00 March 2021", publicationTitle="Journal of Wound Biology", DOI="10.1234/jwb.2021.7")
    z.creators(jour, [("Ada", "Okafor"), ("Lena", "Brandt")])
    z.creators(jour, [("Max", "Editor")], kind="editor", start=2)
    att1 = z.pdf(jour, "ATT1", "Trans-Signalling Keeps Wound Macrophages Inflammatory",
                 "Interleukin six trans-signalling keeps macrophages inflammatory in chronic wounds.")
    bio = z.collection("Biology", "COLLBIO")
    wounds = z.collection("Wounds", "COLLWND", parent=bio)
    z.file_in(wounds, jour)
    z.tag(jour, "macrophages")
    z.tag(jour, "to read")
    z.note(jour, "NOTE1", '<div class="zotero-note znv1"><p>Replicate the <b>glycolysis</b> assay &amp; '
                          "compare with 2019 data.</p></div>")
    z.annotation(att1, "ANNO1", "keeps macrophages inflammatory", "central claim: check soluble receptor", 1)

    conf = z.item("conferencePaper", "CONF1", title="Bleaching of Coral Reefs by Depth", date="2019-00-00 2019",
                  proceedingsTitle="Proceedings of the Reef Symposium", extra="Citation Key: okafor2021\ntex.x: y")
    z.creators(conf, [("Ada", "Okafor")])
    z.pdf(conf, "ATT2", "Bleaching of Coral Reefs by Depth",
          "Coral bleaching deepens with water temperature across reef depth transects.")
    z.file_in(bio, conf)

    trashed = z.item("journalArticle", "TRASH1", title="A Trashed Paper About Zebrafish", date="2018")
    z.pdf(trashed, "ATTT", "A Trashed Paper About Zebrafish", "Zebrafish fins regrow after amputation.")
    z.trash(trashed)

    missing = z.item("journalArticle", "MISS1", title="A Paper Whose File Is Gone", date="2020-00-00 2020")
    z.pdf(missing, "ATTM", "gone", "gone", present=False)

    page = z.item("webpage", "WEB1", title="A web page", url="https://example.org")
    z.db.execute("INSERT INTO itemAttachments(itemID, parentItemID, linkMode, contentType, path) "
                 "VALUES (?, ?, 3, 'text/html', NULL)", (z.item("attachment", "LINK1"), page))
    z.close()
    assert os.path.exists(data_dir / "zotero.sqlite")
    return data_dir


def add_group_and_feed(data_dir: Path) -> None:
    """To the library of `build_library`: a group "Reef Lab" (groupID 4711) whose item GRP1 (PDF GATT1)
    is in its collection "Methods", a feed whose item has a PDF (never indexed), and a personal
    item NATIVE1 (PDF NATT1) with a Zotero 8 native citation key."""
    z = ZoteroBuilder.__new__(ZoteroBuilder)
    z.dir, z.db = data_dir, sqlite3.connect(data_dir / "zotero.sqlite")
    lab = z.group(4711, "Reef Lab")
    grp = z.item("journalArticle", "GRP1", lab, title="Sediment Cores From the Outer Reef", date="2022-00-00 2022")
    z.creators(grp, [("Kofi", "Mensah")])
    z.pdf(grp, "GATT1", "Sediment Cores From the Outer Reef", "Sediment cores record storm layers on the outer reef.",
          library=lab)
    z.file_in(z.collection("Methods", "GCOLL1", library=lab), grp)
    news = z.feed("Reef News", "https://example.org/reef.rss")
    feed_item = z.item("journalArticle", "FEED1", news, title="A Feed Item About Plankton Blooms", date="2023")
    z.pdf(feed_item, "FATT1", "A Feed Item About Plankton Blooms", "Plankton blooms follow upwelling.",
          library=news)
    native = z.item("journalArticle", "NATIVE1", title="Native Keys in Zotero Eight", date="2025-00-00 2025",
                    citationKey="mensah2025native")
    z.creators(native, [("Kofi", "Mensah")])
    z.pdf(native, "NATT1", "Native Keys in Zotero Eight", "Citation keys became a field of every item.")
    z.close()
