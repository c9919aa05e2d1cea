"""Zotero data directories read directly (a library the tests build on Zotero's real schema,
and the shared real one), added to a papershelf library with their metadata, collections,
tags, notes and annotations."""

import hashlib
import json
import sqlite3

import pytest

from papershelf import Filters, SearchOptions
from papershelf.errors import BadArgument
from papershelf.ingest.zotero import annotation_page, is_zotero_dir, note_text, read_zotero, zotero_year

from .conftest import HASH, shared
from .test_cli import run
from .zotero_fixture import add_group_and_feed, build_library


@pytest.fixture
def zdir(tmp_path):
    return build_library(tmp_path / "Zotero")


def by_key(attachments):
    return {a.key: a for a in attachments}


def test_reader_gives_metadata_collections_tags_notes_annotations(zdir):
    atts = by_key(read_zotero(str(zdir)))
    assert set(atts) == {"ATT1", "ATT2", "ATTM"}  # trashed ATTT and the linked URL are not PDFs to add
    a = atts["ATT1"]
    assert a.path == str(zdir / "storage" / "ATT1" / "paper.pdf") and a.exists
    m = a.meta
    assert (m.zotero_key, m.title, m.year, m.venue, m.doi) == (
        "JOUR1", "Trans-Signalling Keeps Wound Macrophages Inflammatory", 2021, "Journal of Wound Biology",
        "10.1234/jwb.2021.7")
    assert m.authors == ["Ada Okafor", "Lena Brandt"]  # the editor is not an author
    assert a.collections == ["Biology/Wounds"] and a.tags == ["macrophages", "to read"]
    assert a.notes == ["Replicate the glycolysis assay & compare with 2019 data."]
    (ann,) = a.annotations
    assert (ann.text, ann.comment, ann.page) == ("keeps macrophages inflammatory",
                                                "central claim: check soluble receptor", 2)
    assert atts["ATT2"].meta.citekey == "okafor2021" and atts["ATT2"].meta.venue == "Proceedings of the Reef Symposium"
    assert not atts["ATTM"].exists


def test_reader_works_while_zotero_holds_an_exclusive_lock_and_writes_nothing(zdir):
    db_file = zdir / "zotero.sqlite"
    before = hashlib.sha256(db_file.read_bytes()).hexdigest()
    holder = sqlite3.connect(db_file)
    holder.execute("PRAGMA locking_mode=EXCLUSIVE")
    holder.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(sqlite3.OperationalError):  # what a plain open meets while Zotero runs
            sqlite3.connect(db_file, timeout=0.1).execute("SELECT count(*) FROM items").fetchone()
        assert len(read_zotero(str(zdir))) == 3
    finally:
        holder.rollback()
        holder.close()
    assert hashlib.sha256(db_file.read_bytes()).hexdigest() == before
    assert sorted(p.name for p in zdir.iterdir()) == ["storage", "zotero.sqlite"]


def test_better_bibtex_database_supplies_citekeys(zdir):
    bbt = sqlite3.connect(zdir / "better-bibtex.sqlite")
    bbt.execute("CREATE TABLE citationkey (itemID INTEGER NOT NULL, itemKey TEXT NOT NULL, libraryID INTEGER, "
                "citationKey TEXT NOT NULL, pinned INTEGER)")
    bbt.execute("INSERT INTO citationkey VALUES (1, 'JOUR1', 1, 'okafor2021trans', 0)")
    bbt.commit()
    bbt.close()
    assert by_key(read_zotero(str(zdir)))["ATT1"].meta.citekey == "okafor2021trans"


def test_helpers():
    assert note_text("<p>One &lt;two&gt;</p><ul><li>three</li></ul>") == "One <two>\nthree"
    assert (zotero_year("2020-00-00 2020"), zotero_year("0000-00-00 spring"), zotero_year(None)) == (2020, None, None)
    assert annotation_page('{"pageIndex": 4}', "iv") == 5 and annotation_page("{}", "12") == 12
    assert annotation_page("not json", "ii") is None


def test_detects_a_data_dir(zdir, tmp_path):
    assert is_zotero_dir(str(zdir)) and not is_zotero_dir(str(tmp_path))


def test_shared_zotero_library_matches_its_readme():
    data = shared("zotero")
    atts = read_zotero(str(data))
    assert len(atts) == 29 and sum(a.exists for a in atts) == 23  # 40 PDF rows, 11 trashed; 6 live files missing
    keys = by_key(atts)
    assert "8L6WGWZK" not in keys and "S3LXHSTG" not in keys  # present files, but in the trash
    assert {k for k, a in keys.items() if not a.exists} == {"GWAKSZXI", "LDGJFNDU", "PCRST9JB", "PXJXRMPB",
                                                             "WTKJ4BIK", "YNTKH7L9"}
    assert keys["FSHL949L"].meta.year == 2019 and len(keys["FSHL949L"].tags) == 7
    assert keys["ZAU4448N"].collections == ["Surveys"] and len(keys["ZAU4448N"].tags) == 10
    assert {k for k, a in keys.items() if a.notes} == {"BZFDG5SA", "NF9EX6ZY", "RSXLTETS", "VBXDJWUX"}
    # a parent with two PDFs: both carry the item's id; the second also its own, should it not be the item's work
    assert (keys["2H23C9AS"].meta.zotero_key, keys["GYM2VU2X"].meta.zotero_key) == ("DK3J4CF5", "DK3J4CF5")
    assert (keys["2H23C9AS"].meta.apart_id, keys["GYM2VU2X"].meta.apart_id) == (None, "DK3J4CF5-GYM2VU2X")


# -- a Zotero data directory added to a library -------------------------------------------------------



def search_ids(lib, query, mode="lexical", **filters):
    return [h.paper_id for h in lib.search(query, SearchOptions(mode=mode, filters=Filters(**filters))).results]


def test_add_zotero_dir_papers_with_metadata_labels_and_missing_files_reported(lib, zdir):
    report = lib.add([str(zdir)])
    status = {f.paper_id or f.path.split("/")[-2]: f.status for f in report.files}
    assert status == {"JOUR1": "added", "okafor2021": "added", "ATTM": "failed"}
    assert "missing from Zotero storage" in report.failed[0].reason
    view = lib.show("JOUR1")
    p = view.paper
    assert (p.year, p.doi, p.tags, p.collections, p.zotero_attachment) == (
        2021, "10.1234/jwb.2021.7", ["macrophages", "to read"], ["Biology/Wounds"], "ATT1")
    assert [s.section_path for s in view.sections][-2:] == ["Notes", "Annotations > p. 2"]
    assert lib.store.paper_ids() == ["JOUR1", "okafor2021"]  # the trashed item is not added
    assert {f.status for f in lib.add([str(zdir)]).files} == {"unchanged", "failed"}


def test_notes_and_annotations_are_searchable_units_with_page_and_zotero_link(lib, zdir):
    lib.add([str(zdir)])
    (note,) = lib.search("glycolysis", mode="lexical").results
    assert note.section_path == "Notes" and note.zotero_link == "zotero://open-pdf/library/items/ATT1"
    (ann,) = lib.search("soluble receptor", mode="lexical").results
    assert ann.pages == "2" and ann.zotero_link == "zotero://open-pdf/library/items/ATT1?page=2"
    assert ann.tags == ["macrophages", "to read"] and ann.collections == ["Biology/Wounds"]


@pytest.mark.parametrize("mode", ["lexical", "vector"])
def test_collection_and_tag_filters_in_both_search_lists(lib, zdir, mode):
    lib.add([str(zdir)])
    lib.embed(HASH)
    q = "coral bleaching macrophages inflammatory"
    assert set(search_ids(lib, q, mode)) == {"JOUR1", "okafor2021"}
    assert set(search_ids(lib, q, mode, collections=["biology"])) == {"JOUR1", "okafor2021"}  # and below
    assert set(search_ids(lib, q, mode, collections=["Biology/Wounds"])) == {"JOUR1"}
    assert set(search_ids(lib, q, mode, collections=["Biol"])) == set()  # a prefix of a name is not the collection
    assert set(search_ids(lib, q, mode, tags=["Macrophages"])) == {"JOUR1"}
    assert set(search_ids(lib, q, mode, tags=["macrophages", "unknown"])) == set()  # every tag must be there


@pytest.mark.parametrize("mode", ["lexical", "vector"])
def test_author_filter_in_both_search_lists_on_both_backends(lib, zdir, mode):
    lib.add([str(zdir)])
    lib.embed(HASH)
    q = "coral bleaching macrophages inflammatory"
    assert set(search_ids(lib, q, mode, author="OKAFOR")) == {"JOUR1", "okafor2021"}  # case-insensitive
    assert set(search_ids(lib, q, mode, author="brandt")) == {"JOUR1"}  # any author of the paper
    assert set(search_ids(lib, q, mode, author="Editor")) == set()  # editors are not authors
    with pytest.raises(BadArgument):  # a name holds a letter or digit: LIKE's wildcard alone is no name
        search_ids(lib, q, mode, author="%")
    assert set(search_ids(lib, q, mode, author="brandt", collections=["Biology"])) == {"JOUR1"}

def test_papers_are_named_by_zotero_item_and_attachment_keys_on_both_backends(lib, zdir):
    lib.add([str(zdir)])
    assert lib.resolve_paper("ATT1") == lib.resolve_paper("jour1") == "JOUR1"  # attachment key, item id
    assert lib.resolve_paper("CONF1") == lib.resolve_paper("ATT2") == "okafor2021"  # item key behind a citekey
    assert lib.resolve_paper("zotero://select/library/items/CONF1") == "okafor2021"
    assert lib.passage("ATT2", budget_chars=200).paper_id == "okafor2021"
    unit = lib.show("okafor2021").sections[0].unit_id
    assert lib.show(unit.replace("okafor2021", "ATT2")).to_dict()["id"] == unit


def test_a_tag_changed_in_zotero_updates_the_paper(lib, zdir):
    import sqlite3

    lib.add([str(zdir)])
    db = sqlite3.connect(zdir / "zotero.sqlite")
    db.execute("UPDATE tags SET name='read' WHERE name='to read'")
    db.commit()
    db.close()
    statuses = {f.paper_id: f.status for f in lib.add([str(zdir)]).files if f.paper_id}
    assert statuses == {"JOUR1": "updated", "okafor2021": "unchanged"}
    assert lib.show("JOUR1").paper.tags == ["macrophages", "read"]


def test_cli_search_with_collection_and_tag(tmp_path, zdir):
    db = tmp_path / "cli.db"
    add = json.loads(run(db, "add", str(zdir), "--json", ok=(1,)).stdout)
    assert (add["added"], add["failed"]) == (2, 1)
    res = json.loads(run(db, "search", "coral macrophages", "--mode", "lexical", "--collection", "Biology",
                         "--tag", "to read", "--json").stdout)
    assert {h["paper_id"] for h in res["results"]} == {"JOUR1"}
    assert res["results"][0]["zotero_link"].startswith("zotero://open-pdf/library/items/ATT1")
    text = run(db, "search", "soluble receptor", "--mode", "lexical").stdout
    assert "zotero://open-pdf/library/items/ATT1?page=2" in text


def test_shared_zotero_library_added(lib):
    report = lib.add([str(shared("zotero"))])
    # 23 files present: 3 of them are truncated PDFs (pdfium cannot open them); 6 files missing
    assert (report.count("added"), report.count("failed")) == (20, 9)
    reasons = sorted(f.reason.split(" (")[0] for f in report.failed)
    assert reasons == ["damaged or truncated PDF"] * 3 + ["file missing from Zotero storage"] * 6
    hd = lib.show("QSPXAKL2").paper
    assert hd.year == 2009 and hd.collections == ["Surveys"] and len(hd.tags) == 7
    assert set(search_ids(lib, "voice conversion", collections=["Right now"])) <= {"YXERJ4QB", "UTUWL9DP", "BFU97XSE"}
    # two items hold their paper twice (two downloads of it): one paper each, with both files as its sources
    assert len(lib.store.paper_ids()) == 18 and not [p for p in lib.store.paper_ids() if "-" in p]
    assert [len(lib.sources(p)) for p in ("DK3J4CF5", "UTUWL9DP")] == [2, 2]


# -- group libraries, feeds, native citation keys, a WAL database held by Zotero --------------------

def test_group_items_know_their_library_and_feeds_are_never_read(zdir):
    add_group_and_feed(zdir)
    atts = by_key(read_zotero(str(zdir)))
    assert "FATT1" not in atts  # a feed's item, though its PDF is there
    grp, mine = atts["GATT1"], atts["ATT1"]
    assert (grp.library, grp.group_id, grp.link_key) == ("Reef Lab", 4711, "groups/4711/items/GATT1")
    assert grp.collections == ["Reef Lab", "Reef Lab/Methods"]
    assert (mine.library, mine.group_id, mine.link_key) == ("My Library", None, "ATT1")
    assert mine.collections == ["Biology/Wounds"]  # the personal library's labels as before
    assert atts["NATT1"].meta.citekey == "mensah2025native"  # Zotero 8's own citationKey field


def test_group_paper_links_into_the_group_and_the_collection_filter_selects_the_group(lib, zdir):
    add_group_and_feed(zdir)
    lib.add([str(zdir)])
    hit = lib.search("storm layers sediment", mode="lexical").results[0]
    assert hit.zotero_link.startswith("zotero://open-pdf/groups/4711/items/GATT1")
    assert "Reef Lab/Methods" in hit.collections
    q = "storm layers sediment cores coral bleaching reef"
    assert set(search_ids(lib, q, "lexical", collections=["Reef Lab"])) == {hit.paper_id}
    assert hit.paper_id not in set(search_ids(lib, q, "lexical", collections=["Biology"]))
    assert lib.resolve_paper("zotero://select/groups/4711/items/GATT1") == hit.paper_id
    assert lib.resolve_paper("mensah2025native") == "mensah2025native"
    assert not lib.search("plankton blooms upwelling", mode="lexical").results  # the feed's item


def test_a_wal_database_held_with_an_exclusive_lock_is_read_with_its_uncheckpointed_writes(zdir):
    """Zotero 7+ keeps zotero.sqlite in WAL mode and holds it with an exclusive lock while it runs:
    the newest items may live only in the -wal file, which the reader copies and replays."""
    db_file = zdir / "zotero.sqlite"
    holder = sqlite3.connect(db_file, isolation_level=None)
    assert holder.execute("PRAGMA journal_mode=WAL").fetchone()[0] == "wal"
    holder.execute("PRAGMA wal_autocheckpoint=0")  # keep the write in the -wal file
    holder.execute("PRAGMA locking_mode=EXCLUSIVE")
    holder.execute("UPDATE itemDataValues SET value = 'Bleaching of Coral Reefs by Depth, Revised' "
                   "WHERE value = 'Bleaching of Coral Reefs by Depth'")
    holder.execute("SELECT count(*) FROM items").fetchone()  # the exclusive lock is held from here on
    try:
        assert (zdir / "zotero.sqlite-wal").stat().st_size > 0
        with pytest.raises(sqlite3.OperationalError):
            sqlite3.connect(db_file, timeout=0.1).execute("SELECT count(*) FROM items").fetchone()
        atts = by_key(read_zotero(str(zdir)))
        assert atts["ATT2"].meta.title == "Bleaching of Coral Reefs by Depth, Revised"
    finally:
        holder.close()
