"""Window formats (embed/windows.py WINDOW_FORMATS): a new space cuts long units in format 5 (the head in
every window, no sentence shared between neighbours, windows filled evenly; docs/measurements/speed18.md)
unless another is asked for, and a library keeps the format of its space, its fingerprint and its windows
(a library embedded before in format 1 stays in it)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from papershelf import Library
from papershelf.embed.base import ProviderSpec, fingerprint
from papershelf.embed.build import space_options
from papershelf.embed.eta import unit_windows
from papershelf.embed.hashing import HashProvider
from papershelf.embed.queries import QueryEmbedder
from papershelf.embed.trial import trial_windows
from papershelf.embed.windows import (
    LIGHT_WINDOW_FORMAT,
    NEW_WINDOW_FORMAT,
    WINDOW_FORMATS,
    cut,
    estimate_counts,
    windows,
)
from papershelf.models import WINDOW_FORMAT_NUMBERS
from papershelf.text import split_sentences
from papershelf.units import embedding_parts, estimate_tokens

from .test_windows import SENTENCES, long_paper

SPEC = ProviderSpec("hash", "hash-v1", (("dimension", 64), ("window_tokens", 96)))
LEGACY = ProviderSpec("hash", "hash-v1", (("dimension", 64), ("window_tokens", 96), ("window_format", 1)))


def test_new_spaces_get_the_balanced_format_and_another_is_asked_for():
    assert NEW_WINDOW_FORMAT == 5  # within 0.005 of format 1 on every dev measure (speed18.md)
    assert WINDOW_FORMATS[NEW_WINDOW_FORMAT] == (True, False)  # the head kept, no shared sentence
    assert WINDOW_FORMATS[LIGHT_WINDOW_FORMAT] == (True, False)  # format 2: the same, filled greedily
    # every format a space may name (the CLI's `--window-format` bound) is one the embedder cuts, and no other
    assert sorted(WINDOW_FORMATS) == list(WINDOW_FORMAT_NUMBERS)


@settings(max_examples=60, deadline=None)
@given(SENTENCES, st.integers(min_value=12, max_value=200), st.sampled_from(["", "A title", "Title\nMethods > Setup"]),
       st.sampled_from(sorted(WINDOW_FORMATS)))
def test_every_format_fits_the_budget_and_covers_the_body_in_order(sentences, budget, head, fmt):
    body = " ".join(sentences)
    out = windows(head, body, budget, estimate_counts, fmt)
    every, share = WINDOW_FORMATS[fmt]
    _, parts = cut(head, body, budget, estimate_counts, fmt)
    assert len(parts) == len(out)
    for i, (w, part) in enumerate(zip(out, parts)):
        assert estimate_tokens(w) <= budget, (budget, w)
        assert w.endswith(part)
        assert (w != part) == bool(head and (every or i == 0))  # the head: every window, or the first only
    words, pos = body.split(), 0
    for part in parts:
        ws = part.split()
        start = next((i for i in range(pos, -1, -1) if words[i:i + len(ws)] == ws), None)
        assert start is not None
        assert share or start == pos  # no shared sentence: each window starts where the last one ended
        pos = max(pos, start + len(ws))
    assert pos == len(words)


@settings(max_examples=60, deadline=None)
@given(SENTENCES, st.integers(min_value=12, max_value=200), st.sampled_from(["", "A title", "Title\nMethods > Setup"]))
def test_the_balanced_format_cuts_as_many_windows_as_format_2_filled_evenly(sentences, budget, head):
    body = " ".join(sentences)
    greedy, even = (cut(head, body, budget, estimate_counts, f)[1] for f in (2, 5))
    assert len(even) == len(greedy)
    assert " ".join(even).split() == body.split()  # no shared sentence, nothing lost (the budget: above)


def test_the_balanced_format_leaves_no_one_sentence_stub():
    sentences = [f"Sentence number {i} says a thing about alpine soil and its nitrogen." for i in range(9)]
    body = " ".join(sentences)
    greedy, even = (cut("Title", body, 80, estimate_counts, f)[1] for f in (2, 5))
    assert [len(split_sentences(p)) for p in greedy] == [4, 4, 1]  # format 2: full windows, then a stub
    assert [len(split_sentences(p)) for p in even] == [3, 3, 3]


def test_the_lighter_format_cuts_fewer_windows_and_the_plan_knows():
    body = long_paper("The end.").split("# Methods\n\n")[1].split("\n\n# Results")[0]
    head = "Soil sampling in alpine meadows\nMethods"
    old, new = (windows(head, body, 128, estimate_counts, f) for f in (1, LIGHT_WINDOW_FORMAT))
    assert len(new) < len(old) and all(w.startswith(head) for w in new)
    assert " ".join(cut(head, body, 128, estimate_counts, LIGHT_WINDOW_FORMAT)[1]).split() == body.split()
    tokens = estimate_tokens(body)
    assert unit_windows(tokens, 128, LIGHT_WINDOW_FORMAT) < unit_windows(tokens, 128, 1)


@pytest.fixture
def folder(tmp_path):
    (tmp_path / "papers").mkdir()
    (tmp_path / "papers" / "alpine.md").write_text(long_paper("Separately we noticed zebra mussels in the pipes."))
    return tmp_path


def _window_counts(lib, space_id: int) -> dict[str, int]:
    return {r.unit_id: r.nbytes // (64 * 4) for r in lib.store.vector_rows(space_id, "alpine")}


def _expected_counts(lib, fmt: int) -> dict[str, int]:
    paper, _, units = lib.store.paper_snapshot("alpine")
    return {u.id: len(windows(*embedding_parts(u, paper.title), 96, estimate_counts, fmt))
            for u in units if u.indexable}


def test_a_new_library_gets_the_format_it_asks_for(folder):
    with Library(str(folder / "lib.db")) as lib:
        lib.add([str(folder / "papers")])
        assert space_options(lib.store, SPEC, SPEC.create())["window_format"] == NEW_WINDOW_FORMAT  # unless asked
        LIGHT = ProviderSpec("hash", "hash-v1", (*SPEC.options, ("window_format", LIGHT_WINDOW_FORMAT)))
        report = lib.embed(LIGHT)
        assert report.complete and report.space.window_format == LIGHT_WINDOW_FORMAT
        assert report.space.options == {"dimension": 64, "window_tokens": 96, "window_format": LIGHT_WINDOW_FORMAT}
        assert _window_counts(lib, report.space.id) == _expected_counts(lib, LIGHT_WINDOW_FORMAT)
        assert lib.embed(LIGHT).units == 0  # a rerun stays in it
        # What the trial encode cuts for the time left is what the build cuts.
        fmt = space_options(lib.store, LIGHT, LIGHT.create()).get("window_format")
        assert fmt == LIGHT_WINDOW_FORMAT
        texts = trial_windows(lib.store, "alpine", 96, HashProvider(dimension=64, window_tokens=96), window_format=fmt)
        paper, _, units = lib.store.paper_snapshot("alpine")
        first = windows(*embedding_parts(units[0], paper.title), 96, estimate_counts, LIGHT_WINDOW_FORMAT)
        assert texts[:len(first)] == first


def test_a_new_library_is_cut_in_the_new_format(folder):
    with Library(str(folder / "lib.db")) as lib:
        lib.add([str(folder / "papers")])
        report = lib.embed(SPEC)
        assert report.complete and report.space.window_format == NEW_WINDOW_FORMAT == 5
        assert _window_counts(lib, report.space.id) == _expected_counts(lib, 5)
        assert lib.embed(SPEC).units == 0


def test_an_old_library_searches_its_complete_space_while_the_new_format_builds(folder):
    """A library embedded in format 1 keeps that space; a build in the new format asked for fills a
    second space, and search stays on the complete one until the new one is complete too."""
    (folder / "papers" / "more.md").write_text(long_paper("Another tail.").replace("alpine", "more"))
    with Library(str(folder / "lib.db")) as lib:
        lib.add([str(folder / "papers")])
        old = lib.embed(LEGACY)
        assert old.complete and lib.embed(SPEC).space.id == old.space.id  # the library's own format kept
        new_spec = ProviderSpec("hash", "hash-v1", (*SPEC.options, ("window_format", NEW_WINDOW_FORMAT)))
        part = lib.embed(new_spec, paper_ids=["alpine"])
        assert part.space.id != old.space.id and part.space.window_format == NEW_WINDOW_FORMAT
        assert _window_counts(lib, part.space.id) == _expected_counts(lib, NEW_WINDOW_FORMAT)
        assert lib.embedding_status().active_space.id == old.space.id  # the new space is not complete
        assert lib.search("zebra mussels", mode="vector").results
        assert lib.embed(new_spec).complete
        assert lib.embedding_status().active_space.id == part.space.id


def test_an_existing_library_keeps_its_space_and_its_windows(folder):
    with Library(str(folder / "lib.db")) as lib:
        lib.add([str(folder / "papers")])
        old = lib.embed(LEGACY)  # a space as every build made it before formats existed
        assert old.space.window_format == 1 and "window_format" not in old.space.options
        assert old.space.fingerprint == fingerprint("hash", "hash-v1", 64, {"dimension": 64, "window_tokens": 96})
        (folder / "papers" / "more.md").write_text(long_paper("Another tail.").replace("alpine", "more"))
        lib.add([str(folder / "papers")])
        again = lib.embed(SPEC)  # the library's spec, after the change: same space, only the new paper
        assert again.space.id == old.space.id and again.units > 0 and again.complete
        assert _window_counts(lib, old.space.id) == _expected_counts(lib, 1)
        # Asking for the new format explicitly builds a new space beside it.
        new = lib.embed(ProviderSpec("hash", "hash-v1", (("dimension", 64), ("window_tokens", 96),
                                                         ("window_format", LIGHT_WINDOW_FORMAT))))
        assert new.space.id != old.space.id and new.windows < old.windows + again.windows


def test_search_shows_the_window_cut_in_the_spaces_format(folder):
    with Library(str(folder / "lib.db")) as lib:
        lib.add([str(folder / "papers")])
        for spec in (LEGACY, ProviderSpec("hash", "hash-v1", (*SPEC.options, ("window_format", LIGHT_WINDOW_FORMAT)))):
            space = lib.embed(spec).space
            paper, _, units = lib.store.paper_snapshot("alpine")
            unit = units[0]
            _, parts = cut(*embedding_parts(unit, paper.title), 96, estimate_counts, space.window_format)
            assert QueryEmbedder(lib.store).passage(space, unit, paper, 1) == parts[1]


def test_the_cli_asks_for_the_lighter_format(folder):
    """`embed --window-format 2` builds a space in the lighter format, remembered for the next `embed`;
    a value outside the formats is refused in one line."""
    env = dict(os.environ, PAPERSHELF_LIBRARY=str(folder / "lib.db"))

    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "papershelf", *args], env=env, capture_output=True,
                              text=True, timeout=300)

    assert run("add", str(folder / "papers"), "--json").returncode == 0
    bad = run("embed", "--provider", "hash", "--window-format", "7")
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
    done = run("embed", "--provider", "hash", "--window-tokens", "96", "--window-format", str(LIGHT_WINDOW_FORMAT),
               "--json")
    assert done.returncode == 0, done.stderr
    with Library(str(folder / "lib.db"), create=False) as lib:
        space = lib.embedding_status().active_space
        assert space is not None and space.window_format == LIGHT_WINDOW_FORMAT
    assert json.loads(run("embed", "--json").stdout.splitlines()[-1])["units"] == 0  # remembered
