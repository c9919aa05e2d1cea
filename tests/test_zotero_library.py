"""`--zotero-library NAME` (`zotero_library` over HTTP and MCP): the papers of the personal Zotero library
("My Library", or "personal") or of one group library, through the one filter plan (store/filter_plan.py)
on both backends and in every operation that takes the paper filters (search, papers, related,
reading-list, ask).  The Zotero database is built on Zotero's own schema (tests/zotero_fixture.py) with a
group "Reef Lab", and a personal collection also called "Reef Lab", which is not the group."""

from __future__ import annotations

import json
import sqlite3

import pytest

from papershelf import Filters, SearchOptions
from papershelf.errors import BadArgument
from papershelf.operations import for_door
from papershelf.operations.catalog import PapersParams
from papershelf.operations.discover import AskParams, ReadingListParams, RelatedParams
from papershelf.operations.requests import SearchParams
from papershelf.store.filter_plan import zotero_library_ids

from .conftest import HASH
from .test_cli import run
from .zotero_fixture import ZoteroBuilder, add_group_and_feed, build_library

PERSONAL_PAPERS = {"JOUR1", "okafor2021", "mensah2025native"}
QUERY = "storm layers sediment cores coral bleaching reef macrophages citation keys"


@pytest.fixture
def zdir(tmp_path):
    """The fixture's library with its group, and JOUR1 also filed in a personal collection "Reef Lab"."""
    data = build_library(tmp_path / "Zotero")
    add_group_and_feed(data)
    z = ZoteroBuilder.__new__(ZoteroBuilder)
    z.dir, z.db = data, sqlite3.connect(data / "zotero.sqlite")
    jour = z.db.execute("SELECT itemID FROM items WHERE key = 'JOUR1'").fetchone()[0]
    z.file_in(z.collection("Reef Lab", "PCOLLRL"), jour)
    z.close()
    return data


def group_paper(lib) -> str:
    return lib.resolve_paper("zotero://select/groups/4711/items/GATT1")


def test_the_plan_tells_the_personal_library_from_a_group_and_from_a_collection_of_its_name():
    links = [("mine", "ATT1"), ("also-mine", "ATT2"), ("theirs", "groups/4711/items/GATT1"),
             ("other", "groups/9/items/X")]
    paths = [("mine", "Reef Lab"), ("theirs", "Reef Lab"), ("theirs", "Reef Lab/Methods"), ("other", "Kelp")]
    assert zotero_library_ids(links, paths, "My Library") == {"mine", "also-mine"}
    assert zotero_library_ids(links, paths, " PERSONAL ") == {"mine", "also-mine"}
    assert zotero_library_ids(links, paths, "reef lab") == {"theirs"}  # not "mine", in a personal "Reef Lab"
    assert zotero_library_ids(links, paths, "Kelp") == {"other"}
    assert zotero_library_ids(links, paths, "Methods") == set()  # a group's collection is not a library
    assert zotero_library_ids([], [("a-pdf-from-a-folder", "Reef Lab")], "Reef Lab") == set()  # not from Zotero


@pytest.mark.parametrize("mode", ["lexical", "vector"])
def test_search_and_papers_select_one_zotero_library_on_both_backends(lib, zdir, mode):
    lib.add([str(zdir)])
    lib.embed(HASH)
    group = group_paper(lib)

    def found(name):
        opts = SearchOptions(mode=mode, limit=50, per_paper=1, filters=Filters(zotero_library=name))
        return {h.paper_id for h in lib.search(QUERY, opts).results}

    assert found(None) == PERSONAL_PAPERS | {group}
    assert found("Reef Lab") == found("REEF LAB") == {group}
    assert found("My Library") == found("personal") == PERSONAL_PAPERS
    assert found("Nobody's Library") == set()
    both = Filters(zotero_library="My Library", collections=["Reef Lab"])  # the personal collection of that name
    assert {h.paper_id for h in lib.search(QUERY, SearchOptions(mode=mode, filters=both)).results} == {"JOUR1"}
    rows, total = lib.find_papers(Filters(zotero_library="Reef Lab"))
    assert [r.paper.id for r in rows] == [group] and total == 1
    assert {r.paper.id for r in lib.find_papers(Filters(zotero_library="my library"))[0]} == PERSONAL_PAPERS


def test_related_reading_list_and_ask_take_the_filter_on_both_backends(lib, zdir):
    lib.add([str(zdir)])
    lib.embed(HASH)
    group = group_paper(lib)
    mine = lib.related("JOUR1", limit=20, filters=Filters(zotero_library="My Library"))
    assert {h.paper_id for h in mine.results} <= PERSONAL_PAPERS - {"JOUR1"} and mine.results
    assert not lib.related("JOUR1", limit=20, filters=Filters(zotero_library="Nobody")).results
    asked = lib.ask("Where do sediment cores record storm layers?", filters=Filters(zotero_library="Reef Lab"))
    assert asked.evidence and {e.paper_id for e in asked.evidence} == {group}
    personal = lib.ask("Where do sediment cores record storm layers?", filters=Filters(zotero_library="personal"))
    assert group not in {e.paper_id for e in personal.evidence}
    assert lib.reading_list(filters=Filters(zotero_library="Nobody")).to_dict() == \
        lib.reading_list(filters=Filters(papers=["JOUR1"], zotero_library="Reef Lab", author="Nobody")).to_dict()


def test_every_filtered_request_carries_it_into_the_filters():
    name = "Reef Lab"
    assert SearchParams(query="x", zotero_library=name).options().filters.zotero_library == name
    for model in (RelatedParams(ref="x", zotero_library=name), ReadingListParams(zotero_library=name),
                  AskParams(question="x", zotero_library=name)):
        assert model.filters().zotero_library == name
    assert PapersParams(zotero_library=name).zotero_library == name
    for door in ("cli", "http", "mcp"):  # every door derives it from the request models
        takes = {op.name for op in for_door(door) if "zotero_library" in op.documented(door)}
        assert takes == {"search", "papers", "related", "reading-list", "ask"}, door
    with pytest.raises(BadArgument):
        Filters(zotero_library="  ").validate()


def test_cli_search_and_papers_take_zotero_library(tmp_path, zdir):
    db = tmp_path / "cli.db"
    run(db, "add", str(zdir), "--json", ok=(1,))  # the fixture's missing PDF: exit 1, the rest added
    res = json.loads(run(db, "search", QUERY, "--mode", "lexical", "--zotero-library", "reef lab", "--json").stdout)
    assert {h["zotero_link"].split("?")[0] for h in res["results"]} == {"zotero://open-pdf/groups/4711/items/GATT1"}
    papers = json.loads(run(db, "papers", "--zotero-library", "My Library", "--json").stdout)
    assert {p["id"] for p in papers} == PERSONAL_PAPERS  # --json prints the list itself
