"""Readable paper ids (ingest/citekey.py, derive_paper_id): Better BibTeX's style, suffixes only on a
clash, the same file -> the same id in a fresh library, and old ids kept by the papers that have them."""

from __future__ import annotations

import pytest

from papershelf import Library
from papershelf.ingest.citekey import ascii_fold, family_name, readable_id, with_suffix
from papershelf.resolve import resolve_paper

from .conftest import shared

NO_KEY = """---
title: {title}
year: {year}
authors: [{author}]
{extra}
---

# Introduction

{intro}
"""


def no_key(title="Heavy quarks at large momentum", year=1994, author="Wei Zeng", intro="We study quarks.",
           extra=""):
    return NO_KEY.format(title=title, year=year, author=author, intro=intro, extra=extra)


@pytest.mark.parametrize("authors, year, title, want", [
    (["Zeng, Wei"], 1994, "Heavy quarks at large momentum", "zeng1994heavy"),
    (["Wei Zeng"], 1994, "The heavy quark", "zeng1994heavy"),
    (["Jürgen Müller"], 2001, "Über die Quantenmechanik", "muller2001uber"),
    (["Ludwig van der Berg"], 2010, "On a theory of everything", "berg2010theory"),
    (["Søren Ørsted", "B. Other"], 2020, "A 3-D model of glaciers", "orsted2020model"),  # numbers skipped
    (["Smith-Jones, Anna"], None, "Deep learning", "smithjonesdeep"),
    ([], 2018, "Wheat metabolomics under drought stress", "wheatmetabolom2018"),  # no author: two words
    (["张伟"], 2019, None, "notes2019"),  # nothing foldable: the file name
    ([], None, None, "notes"),
    (["Bartholomew Featherstonehaugh"], 2021, "Extraordinarily long words", "feathersto2021extraordi"),
])
def test_readable_id_better_bibtex_style(authors, year, title, want):
    assert readable_id(authors, year, title, "Notes") == want


def test_parts_fold_and_cap():
    assert ascii_fold("Ærøskøbing Łódź ß") == "aeroskobinglodzss"
    assert family_name("de la Cruz, María") == "cruz" and family_name("") == ""
    assert readable_id([], None, None, "2019 report") == "p2019report"  # an id starts with a letter
    assert len(readable_id(["Featherstonehaugh-Wolfeschlegel"], 2021, "Incomprehensibilities", "x")) <= 23


def test_suffix_only_on_a_clash():
    held = {"zeng1994heavy", "zeng1994heavya"}
    assert with_suffix("kim2020deep", held.__contains__) == "kim2020deep"
    assert with_suffix("zeng1994heavy", held.__contains__) == "zeng1994heavyb"


def test_library_ids_are_readable_deterministic_and_clash_with_a_letter(tmp_path, write):
    a = write("a.md", no_key())
    b = write("b.md", no_key(intro="Another paper entirely, same author, year and first word.",
                             title="Heavy ions in a collider"))
    with Library(str(tmp_path / "one.db")) as lib:
        lib.add([str(a)])
        lib.add([str(b)])
        assert sorted(p.paper.id for p in lib.papers()) == ["zeng1994heavy", "zeng1994heavya"]
        # Added again, changed: each keeps its id (its own id is no clash with itself).
        b.write_text(no_key(title="Heavy ions in a collider", intro="Edited text."), encoding="utf-8")
        lib.add([str(b)])
        assert sorted(p.paper.id for p in lib.papers()) == ["zeng1994heavy", "zeng1994heavya"]
    with Library(str(tmp_path / "two.db")) as lib:  # the same file in a fresh library: the same id
        lib.add([str(b)])
        assert [p.paper.id for p in lib.papers()] == ["zeng1994heavy"]


def test_a_second_copy_of_a_paper_joins_it_and_a_citekey_wins(tmp_path, write):
    doi = "doi: 10.1000/xyz"
    first, copy = write("x/a.md", no_key(extra=doi)), write("y/a.md", no_key(extra=doi, intro="A preprint."))
    keyed = write("k.md", no_key(extra="citekey: zengHeavyQuarks", title="Other", intro="Keyed."))
    with Library(str(tmp_path / "lib.db")) as lib:
        lib.add([str(first), str(copy), str(keyed)])
        assert sorted(p.paper.id for p in lib.papers()) == ["zeng1994heavy", "zengHeavyQuarks"]


def test_an_old_id_is_kept_and_still_resolves(tmp_path, write):
    """A library made before readable ids: its papers keep their ids through edits and re-adds."""
    f = write("notes.md", no_key())
    with Library(str(tmp_path / "lib.db")) as lib:
        lib._importer.add_file(str(f), keep_id="notes-3fa2c1")  # the id an earlier version gave
        f.write_text(no_key(intro="Edited since."), encoding="utf-8")
        lib.add([str(f)])
        assert [p.paper.id for p in lib.papers()] == ["notes-3fa2c1"]
        assert resolve_paper(lib.store, "notes-3f") == "notes-3fa2c1"
        new = write("new.md", no_key(author="Ada Lovelace", title="Notes on the engine", year=1843))
        lib.add([str(new)])
        assert resolve_paper(lib.store, "lovelace1843notes") == "lovelace1843notes"


def test_shared_pdfs_get_ids_of_at_most_24_characters(tmp_path):
    folder = shared("pdfs")
    with Library(str(tmp_path / "lib.db")) as lib:
        lib.add([str(folder)])
        ids = [p.paper.id for p in lib.papers()]
    assert len(ids) >= 20
    assert max(len(i) for i in ids) <= 24, sorted(ids, key=len)[-3:]


def test_papers_table_fits_80_columns_with_every_titles_first_word(tmp_path, write):
    import os
    import subprocess
    import sys

    titles = ["Heavy quarks at large momentum transfer in deep inelastic scattering of polarised leptons",
              "Stressful life events are not associated with the development of dementia in older adults"]
    files = [write(f"{i}.md", no_key(title=t, author=f"Author{i} Featherstonehaugh-Wolfeschlegel"))
             for i, t in enumerate(titles)]
    db = tmp_path / "lib.db"
    with Library(str(db)) as lib:
        lib.add([str(files[0])])
        old = write("old.md", no_key(title="Old id", author="Someone Else"))
        lib._importer.add_file(str(old), keep_id="arxiv-hep-ph-9412269-cebaf-th-94-08-5260a5")  # an old id
        lib.add([str(files[1])])
    env = dict(os.environ, COLUMNS="80", PAPERSHELF_LIBRARY=str(db))
    out = subprocess.run([sys.executable, "-m", "papershelf", "papers"], env=env, capture_output=True, text=True,
                         timeout=120, check=True).stdout.splitlines()
    assert max(len(line.rstrip()) for line in out) <= 80, out
    rows = [line for line in out if "Featherstonehaugh" not in line and line.strip()]
    for word in ("Heavy", "Stressful", "Old"):
        assert sum(word in line for line in rows) == 1, out  # one line per paper, its first word shown
    assert any(line.lstrip().startswith("arxiv-hep-ph-9412269-ce") for line in out)  # cut at the end
