"""The library file, ingestion of Markdown/text papers, bad input, show/status/remove."""

import os

import pytest

from papershelf import Library
from papershelf.errors import LibraryFileError, NotFound
from papershelf.store.sqlite.migrations import MIGRATIONS

from .backends import sqlite_file_facts, sqlite_foreign_file, sqlite_set_schema_version
from .conftest import EXAMPLES, paper_text


def test_library_file_is_wal_sqlite_with_schema_version(lib):
    if "://" in lib.path:
        pytest.skip("a PostgreSQL library is not a file (tests/test_postgres.py checks its schema)")
    journal, version, tables = sqlite_file_facts(lib.path)
    assert journal == "wal" and version == len(MIGRATIONS)
    assert {"papers", "body_units", "object_units", "fulltext_chunks", "manifests", "search_fts"} <= tables


def test_library_path_from_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("PAPERSHELF_LIBRARY", str(tmp_path / "env.db"))
    with Library() as lib:
        assert lib.path == str(tmp_path / "env.db")
    assert (tmp_path / "env.db").exists()


def test_newer_schema_is_refused_with_a_clear_message(tmp_path):
    path = tmp_path / "lib.db"
    Library(str(path)).close()
    sqlite_set_schema_version(str(path), len(MIGRATIONS) + 1)
    with pytest.raises(LibraryFileError, match="newer papershelf"):
        Library(str(path))


def test_foreign_files_are_refused(tmp_path):
    other = tmp_path / "other.db"
    sqlite_foreign_file(str(other))
    with pytest.raises(LibraryFileError, match="not a papershelf library"):
        Library(str(other))
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"this is not sqlite at all" * 100)
    with pytest.raises(LibraryFileError, match="not a papershelf library"):
        Library(str(junk))


def test_add_is_idempotent_and_reads_front_matter(lib, write):
    write("a.md", paper_text(key="smith2020", title="Signals", year=2020))
    first = lib.add([str(write.root)])
    assert (first.count("added"), first.count("failed")) == (1, 0)
    again = lib.add([str(write.root)])
    assert again.count("unchanged") == 1 and again.count("added") == 0
    paper = lib.store.get_paper("smith2020")
    assert paper.title == "Signals" and paper.year == 2020
    assert paper.authors == ["Ada Lovelace", "Alan Turing"]
    assert lib.store.count_papers() == 1


def test_paper_id_without_front_matter_is_stable_per_file(lib, write):
    p = write("Some Paper.md", "# Introduction\n\nText.\n")
    lib.add([str(p)])
    (pid,) = lib.store.paper_ids()
    assert pid == "somepaper"  # no author, year or title: the file's name
    p.write_text("# Introduction\n\nChanged text.\n")
    assert lib.add([str(p)]).files[0].status == "updated"
    assert lib.store.paper_ids() == [pid]


def test_editing_a_file_changes_only_that_papers_changed_units(lib, write):
    a = write("a.md", paper_text(key="a"))
    write("b.md", paper_text(key="b"))
    lib.add([str(write.root)])
    before = {u.id: u.content_hash for u in lib.store.paper_units("a")}
    b_before = {u.id: u.content_hash for u in lib.store.paper_units("b")}
    a.write_text(paper_text(key="a", fig_caption="A brand new caption."))
    report = lib.add([str(write.root)])
    assert sorted(f.status for f in report.files) == ["unchanged", "updated"]
    after = {u.id: u.content_hash for u in lib.store.paper_units("a")}
    assert {k for k in after if after[k] != before[k]} == {"a:obj:figure:1"}
    assert {u.id: u.content_hash for u in lib.store.paper_units("b")} == b_before
    hit = lib.search("brand new caption", mode="lexical").results[0]
    assert hit.unit_id == "a:obj:figure:1"


def test_bad_input_gives_one_reason_per_file_and_good_files_still_index(lib, write):
    write("good.md", paper_text(key="good"))
    write("binary.md", b"\x00\x01\x02PNG\x00" * 50)
    write("latin1.md", "# Intro\n\nCaf\xe9 au lait.\n".encode("latin-1"))
    write("empty.md", "")
    write("blank.txt", "   \n\n  ")
    write("ignored.png", b"\x89PNG")
    report = lib.add([str(write.root)])
    reasons = {os.path.basename(f.path): f.reason for f in report.failed}
    assert set(reasons) == {"binary.md", "latin1.md", "empty.md", "blank.txt"}
    assert "binary" in reasons["binary.md"]
    assert "UTF-8" in reasons["latin1.md"] and "0xe9" in reasons["latin1.md"]
    assert "empty" in reasons["empty.md"] and "empty" in reasons["blank.txt"]
    assert lib.store.paper_ids() == ["good"]
    # A failed file that has not changed is reported, not parsed again.
    again = lib.add([str(write.root)])
    assert "unchanged since it failed" in {os.path.basename(f.path): f.reason for f in again.failed}["binary.md"]


def test_explicit_missing_or_unsupported_files_fail_clearly(lib, tmp_path):
    png = tmp_path / "fig.png"
    png.write_bytes(b"\x89PNG")
    report = lib.add([str(tmp_path / "nope.md"), str(png)])
    assert [f.reason for f in report.failed] == ["no such file or folder", "unsupported file type .png"]


def test_file_that_disappears_mid_run(lib, write):
    write("a.md", paper_text(key="a"))
    doomed = write("b.md", paper_text(key="b"))
    write("c.md", paper_text(key="c"))

    def progress(result):
        if result.path.endswith("a.md"):
            doomed.unlink()  # gone after discovery, before it is read

    report = lib.add([str(write.root)], progress=progress)
    assert [os.path.basename(f.path) for f in report.failed] == ["b.md"]
    assert "disappeared" in report.failed[0].reason
    assert lib.store.paper_ids() == ["a", "c"]


def test_oversized_file_fails_without_reading_it(lib, write):
    big = write("big.md", "")
    with open(big, "wb") as f:
        f.truncate(50 * 1024 * 1024)  # a sparse 50 MB file
    report = lib.add([str(big)])
    assert "too large" in report.failed[0].reason
    # With a higher limit it is read (and here fails as binary zeros, not a crash).
    report = lib.add([str(big)], max_bytes=60 * 1024 * 1024, retry_failed=True)
    assert "binary" in report.failed[0].reason


def test_a_folder_with_thousands_of_files(lib, write):
    for i in range(2000):
        write(f"notes/n{i:04d}.md", f"# Note\n\nNote number {i} about topic{i % 7}.\n")
    report = lib.add([str(write.root)])
    assert report.count("added") == 2000 and not report.failed
    assert lib.status().papers == 2000
    assert lib.search("topic3", mode="lexical", limit=5).results


def test_a_paper_is_written_in_one_transaction(lib, write, monkeypatch):
    """A crash in the middle of writing a paper leaves the previous version whole."""
    p = write("a.md", paper_text(key="a", intro="Original introduction."))
    lib.add([str(p)])
    before = [(u.id, u.content_hash) for u in lib.store.paper_units("a")]
    p.write_text(paper_text(key="a", intro="Rewritten introduction."))

    backend = type(lib.store)
    real = backend.write_paper

    def crashing(self, paper, units, manifest, references=None, sources=(), remembered=None):
        # Fail after some rows of the new version were inserted.
        units = units[:1] + [None]
        return real(self, paper, units, manifest, references, sources, remembered)

    monkeypatch.setattr(backend, "write_paper", crashing)
    with pytest.raises(AttributeError):
        lib.add([str(p)])
    monkeypatch.undo()
    assert [(u.id, u.content_hash) for u in lib.store.paper_units("a")] == before
    assert lib.search("Original", mode="lexical").results


def test_show_paper_and_unit(lib):
    lib.add([str(EXAMPLES)])
    d = lib.show("okafor2024il6")
    assert d.to_dict()["type"] == "paper" and d.paper.year == 2024
    assert [s.section_path for s in d.sections][:3] == ["Abstract", "Introduction", "Methods > Cell culture"]
    assert {o.label for o in d.objects} == {"Figure 1", "Figure 2", "Table 1"}
    u = lib.show("okafor2024il6:obj:table:1").to_dict()
    assert u["type"] == "unit" and u["source"] == "object_unit" and "Hyper-IL-6" in u["table_text"]
    with pytest.raises(NotFound):
        lib.show("nope")


def test_status_counts_units_and_vetoes(lib):
    lib.add([str(EXAMPLES)])
    st = lib.status()
    assert st.papers == 4
    assert st.units["chunk"]["total"] >= 1  # the plain-text field notes
    assert st.units["object"]["vetoed"] == 1  # coral paper's empty "Figure 3."
    assert st.veto_reasons == {"empty_caption": 1}
    assert st.size_bytes > 0 and st.library == lib.path


def test_remove_deletes_everything_derived(lib):
    lib.add([str(EXAMPLES)])
    lib.remove("mbeki2022coral")
    assert lib.store.get_paper("mbeki2022coral") is None
    assert lib.store.paper_units("mbeki2022coral") == [] and lib.store.manifest("mbeki2022coral") is None
    assert lib.verify().index.ok
    assert not lib.search("bleaching heatwave", mode="lexical").results
    with pytest.raises(NotFound):
        lib.remove("mbeki2022coral")


def test_every_backend_meets_every_role_of_the_store_contract(lib):
    """Each role's methods exist on the backend with the contract's parameters, in order and with
    the same defaults: what the layers above call works on every backend."""
    import inspect

    from papershelf.store import BuildState, LexicalIndex, PaperStore, Store, VectorStore

    roles = (PaperStore, LexicalIndex, VectorStore, BuildState, Store)
    wanted = {n: getattr(role, n) for role in roles for n, v in vars(role).items()
              if not n.startswith("_") and callable(v)}
    assert len(wanted) >= 45 and {"write_paper", "lexical_search", "vector_search", "pending", "close"} <= set(wanted)
    for name, declared in wanted.items():
        params = list(inspect.signature(declared).parameters.values())[1:]  # without self
        offered = list(inspect.signature(getattr(lib.store, name)).parameters.values())
        assert [(p.name, p.default) for p in offered] == [(p.name, p.default) for p in params], name
    assert isinstance(lib.store.location, str) and lib.store.location


def test_a_hit_carries_its_papers_labels_in_code_point_order_on_every_backend(lib):
    """Tags, collections and the Zotero key are read for a search's hits in one query, beside the
    hits' units: each kind lands on its own field, in code-point order (not the locale's), the same
    from every backend, and a paper without labels has none."""
    lib.add([str(EXAMPLES)])
    pid = lib.store.paper_ids()[0]
    paper, manifest, units = lib.store.paper_snapshot(pid)
    paper.tags, paper.collections, paper.zotero_attachment = ["to-read", "Zebra", "alpha", "Äpfel"], ["b/c", "B"], "ZK1"
    lib.store.write_paper(paper, units, manifest)
    hits = lib.search(f"{paper.title} OR wound closure OR coral", mode="lexical", limit=20, per_paper=1).results
    mine = next(h for h in hits if h.paper_id == pid)
    assert (mine.tags, mine.collections) == (["Zebra", "alpha", "to-read", "Äpfel"], ["B", "b/c"])
    assert mine.zotero_link and "ZK1" in mine.zotero_link
    assert all(h.tags == [] and h.zotero_link is None for h in hits if h.paper_id != pid) and len(hits) > 1


def test_units_are_read_from_the_tables_their_ids_name_even_when_a_paper_id_names_another_kind(lib):
    """A unit id names its kind (`paper:body:3`): only that kind's table is read for it, and an id
    naming two kinds (a declared paper id holding `:obj:` or `:body:`) is looked up in both."""
    from papershelf.document import Block, Document
    from papershelf.models import Paper

    lib.add_document(Paper(id="lab:obj:figure:1", title="Coral notes"),
                     Document(title="Coral notes", blocks=[Block("heading", "Methods", level=1),
                                                           Block("text", "We sampled coral at depth.")]))
    lib.add_document(Paper(id="notes:body:2", title="Plain notes"),
                     Document(title="Plain notes", blocks=[Block("text", "Radiocarbon dates of macrofossils.")]))
    units = {u.id: u.kind for pid in ("lab:obj:figure:1", "notes:body:2") for u in lib.store.paper_units(pid)}
    assert set(units.values()) == {"body", "chunk"}
    read: list[str] = []
    real = lib.store.query
    lib.store.query = lambda sql, params=(): read.append(sql.split(" FROM ")[1].split()[0]) or real(sql, params)
    assert {u.id: u.kind for u in lib.store.get_units(list(units) + ["none:body:9"]).values()} == units
    assert sorted(read) == ["body_units", "fulltext_chunks", "object_units"]
    read.clear()
    body = next(u for u, kind in units.items() if kind == "body")
    assert list(lib.store.get_units([body.replace("lab:obj:figure:1", "plain")] + [body])) == [body]
    assert sorted(read) == ["body_units", "object_units"]  # (the second id names objects too)
    read.clear()
    assert lib.store.get_units(["plain:body:0"]) == {} and read == ["body_units"]
