"""One filter plan (store/filter_plan.py): `papers --author` and `search --author` name the same papers
for every spelling of a name — full name, surname, initials and surname, lower case without accents,
name punctuation left out — and collections and tags fold case and accents for every script, on both
backends, through the operations the doors run."""

from __future__ import annotations

import pytest

from papershelf.ingest.metadata import Meta
from papershelf.models import Filters
from papershelf.operations import Context, operation
from papershelf.store.name_fold import fold_name, name_words, names_match

PAPERS = {
    "lo2020": (["Kyle Lo", "Lucy Lu Wang", "Mark Neumann"], ["NLP", "À lire"], ["Informatique/Données"]),
    "lo2023": (["Lo, Kyle", "Sergey Feldman"], ["nlp"], ["Informatique"]),
    "berg2019": (["Jürgen van der Berg", "Søren Kierkegaard"], ["Straße"], ["Philosophie/Éthique"]),
    "oconnor2018": (["Brendan O'Connor", "Noah A. Smith"], [], ["ΦΥΣΙΚΗ"]),
    "garcia2021": (["Héctor García-Molina", "L. Wang"], ["Öffentlich"], []),
}
SPELLINGS = {
    "K. Lo": {"lo2020", "lo2023"}, "Kyle Lo": {"lo2020", "lo2023"}, "lo": {"lo2020", "lo2023"},
    "KYLE": {"lo2020", "lo2023"}, "L. L. Wang": {"lo2020", "garcia2021"}, "Lucy Lu Wang": {"lo2020"},
    "wang": {"lo2020", "garcia2021"}, "L. Wang": {"lo2020", "garcia2021"},
    "jurgen van der berg": {"berg2019"}, "Jürgen van der Berg": {"berg2019"}, "vanderberg": {"berg2019"},
    "J. van der Berg": {"berg2019"}, "soren": {"berg2019"}, "Søren Kierkegaard": {"berg2019"},
    "O'Connor": {"oconnor2018"}, "oconnor": {"oconnor2018"}, "o connor": {"oconnor2018"},
    "N. A. Smith": {"oconnor2018"}, "garcia molina": {"garcia2021"}, "García-Molina": {"garcia2021"},
    "hector garcia": {"garcia2021"}, "H. Garcia-Molina": {"garcia2021"}, "Lo Wang": set(),
    "Kierkegaard, S.": {"berg2019"}, "neumann m": {"lo2020"}, "x": set(),
}


@pytest.fixture
def shelf(lib, write):
    for key, (authors, tags, collections) in PAPERS.items():
        path = write(f"{key}.md", f"---\ncitekey: {key}\ntitle: Study {key}\nyear: 2020\nauthors: {authors!r}\n"
                                  "---\n\n# Results\n\nWe study graphs.\n")
        result = lib.add_file(str(path), meta=Meta(tags=tags, collections=collections))  # as Zotero gives them
        assert result.status == "added", result
    return lib


def _papers(lib, **args) -> set[str]:
    op = operation("papers")
    return {p["id"] for p in op.run(lib, op.request(**args), Context())["papers"]}


def _searched(lib, **args) -> set[str]:
    op = operation("search")
    d = op.run(lib, op.request(query="study graphs", mode="lexical", limit=100, **args), Context())
    return {h["paper_id"] for h in d["results"]}


def test_every_spelling_names_the_same_papers_in_papers_and_search(shelf):
    labelled = {key for key in PAPERS if shelf.paper(key).tags or shelf.paper(key).collections}
    assert labelled == set(PAPERS), "the front matter's tags and collections were not read"
    for spelling, expected in SPELLINGS.items():
        assert _papers(shelf, author=spelling) == expected, spelling
        assert _searched(shelf, author=spelling) == expected, spelling


@pytest.mark.parametrize("field, value, expected", [
    ("tag", ["à LIRE"], {"lo2020"}), ("tag", ["NLP"], {"lo2020", "lo2023"}), ("tag", ["strasse"], {"berg2019"}),
    ("tag", ["öffentlich", "x"], set()), ("collection", ["informatique/donnees"], {"lo2020"}),
    ("collection", ["INFORMATIQUE"], {"lo2020", "lo2023"}), ("collection", ["philosophie/ethique"], {"berg2019"}),
    ("collection", ["φυσικη"], {"oconnor2018"}), ("collection", ["Info"], set()),
])
def test_labels_fold_case_and_accents_for_every_script(shelf, field, value, expected):
    assert _papers(shelf, **{field: value}) == expected
    assert _searched(shelf, **{field: value}) == expected


def test_filters_combine_and_resolve_once(shelf):
    assert _papers(shelf, author="wang", tag=["nlp"]) == {"lo2020"}
    resolved = shelf.store.resolve_filters(Filters(author="K. Lo", tags=["nlp"], year_from=2000))
    assert resolved.paper_scope == ["lo2020", "lo2023"] and not resolved.author and not resolved.tags
    assert resolved.year_from == 2000 and shelf.store.resolve_filters(resolved) is resolved
    assert shelf.store.resolve_filters(Filters(author="nobody")).paper_scope == []
    assert _searched(shelf, author="nobody") == set()


def test_the_folding_rule():
    assert fold_name("Ærøskøbing STRASSE Straße ΣΟΦΊΑ") == "aeroskobing strasse strasse σοφια"
    assert name_words("García-Molina, H.") == ["garcia", "molina", "h"]
    assert names_match(["k", "lo"], ["kyle", "lo"]) and not names_match(["k", "lo"], ["kyle", "smith"])
    assert names_match(["vanderberg"], ["jurgen", "van", "der", "berg"]) and not names_match([], ["lo"])
