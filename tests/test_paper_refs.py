"""Papers named the way people name them: a unique id prefix, a citekey or a DOI."""

import pytest

from papershelf import Filters
from papershelf.errors import AmbiguousPaper, NotFound

from .conftest import paper_text
from .test_cli import run


@pytest.fixture
def three(lib, write):
    write("osdi2004-mapreduce.md", "# Intro\n\nMap and reduce over many machines.\n")
    write("osdi2006-bigtable.md", "# Intro\n\nA sparse sorted map over many machines.\n")
    write("k.md", paper_text(key="smith2020", title="Signals").replace("year: 2020", "year: 2020\ndoi: 10.1/ABC"))
    lib.add([str(write.root)])
    ids = lib.store.paper_ids()
    return next(p for p in ids if p.startswith("osdi2004")), next(p for p in ids if p.startswith("osdi2006"))


def test_unique_prefix_citekey_and_doi(lib, three):
    mapreduce, _ = three
    assert mapreduce == "osdi2004mapreduce"  # no author or title: the file's name, folded
    assert lib.show("osdi2004map").paper.id == mapreduce
    assert lib.resolve_paper("Smith2020") == "smith2020"
    assert lib.resolve_paper("https://doi.org/10.1/abc") == lib.resolve_paper("doi:10.1/ABC") == "smith2020"


def test_ambiguous_prefix_lists_candidates_and_unknown_is_not_found(lib, three):
    with pytest.raises(AmbiguousPaper, match="osdi2004mapreduce, osdi2006bigtable"):
        lib.resolve_paper("osdi")
    with pytest.raises(NotFound):
        lib.resolve_paper("nothing-like-this")


def test_search_paper_filter_and_remove_take_a_prefix(lib, three):
    mapreduce, bigtable = three
    hits = lib.search("machines", mode="lexical", filters=Filters(papers=["osdi2006"])).results
    assert {h.paper_id for h in hits} == {bigtable}
    assert lib.remove("osdi2004") == mapreduce and mapreduce not in lib.store.paper_ids()


def test_cli_ambiguous_prefix_is_one_line(tmp_path, write):
    write("osdi2004-mapreduce.md", "# Intro\n\nMap and reduce.\n")
    write("osdi2006-bigtable.md", "# Intro\n\nA sorted map.\n")
    db = tmp_path / "cli.db"
    run(db, "add", str(write.root))
    p = run(db, "show", "osdi", ok=(1, 2))
    assert "names 2 papers" in p.stderr + p.stdout and len((p.stderr + p.stdout).strip().splitlines()) == 1
    assert "removed osdi2006bigtable" in run(db, "remove", "osdi2006").stdout
