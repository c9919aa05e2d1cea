"""The embedding's time left counts windows, planned before any unit is cut and counted as units are
cut; the encoder's speed is measured by a trial encode while the add runs (issue 42, eta11).  Real
SQLite libraries, real PDFs, the hash provider (the model is not the point)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from papershelf.embed import trial as trial_mod
from papershelf.embed.base import ProviderSpec
from papershelf.embed.eta import Eta, unit_windows
from papershelf.embed.windows import NEW_WINDOW_FORMAT, token_counter, windows
from papershelf.index_eta import FileCost, IndexEta
from papershelf.library import Library
from papershelf.units import embedding_parts

from .pdf_fixtures import structured_paper, two_column_paper

WINDOWED = ProviderSpec("hash", "hash-v1", (("dimension", 32), ("window_tokens", 48)))


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_windows_left_are_planned_then_corrected_by_the_windows_counted():
    eta = Eta(0, clock=Clock())
    eta.plan(100, 200.0)
    assert eta.windows_left() == 200.0
    eta.cut(50.0, 100)  # half the plan cut: it holds twice the windows planned
    assert eta.windows_left() == pytest.approx(150 * 2 + 100)
    eta.encoded(60, 10)
    assert eta.windows_left() == pytest.approx(150 * 2 + 40)
    eta.dropped(50.0)  # reused units: no windows to encode
    assert eta.windows_left() == pytest.approx(100 * 2 + 40)


def test_a_paper_mix_that_fooled_the_units_guess():
    """eta10's tw8: the first papers' units held 10.7 windows each, the later ones 4.3; the units
    guess said 2.5x the windows left.  Planned from token estimates (even 40 % low throughout) and
    corrected by the first group's count, the windows left are right."""
    first, later = [11] * 48, [4] * 132
    real_left = sum(later)
    units_guess = len(later) * sum(first) / len(first)
    assert units_guess > 2.5 * real_left
    eta = Eta(0, clock=Clock())
    eta.plan(180, 0.6 * (sum(first) + sum(later)))
    eta.cut(0.6 * sum(first), sum(first))
    eta.encoded(sum(first), len(first))
    assert eta.windows_left() == pytest.approx(real_left)


def test_unit_windows_grow_with_the_tokens():
    assert unit_windows(1000, None) == 1 and unit_windows(10, 128) == 1
    counts = [unit_windows(t, 128) for t in (50, 100, 200, 400, 800)]
    assert counts == sorted(counts) and counts[-1] > counts[1] > 1


def _library(tmp_path) -> Library:
    folder = tmp_path / "in"
    folder.mkdir()
    two_column_paper(str(folder / "a.pdf"))
    structured_paper(str(folder / "b.pdf"))
    lib = Library(str(tmp_path / "lib.db"))
    report = lib.add([str(folder)])
    assert report.to_dict()["added"] == 2
    return lib


def test_a_build_plans_its_windows_and_ends_at_zero(tmp_path):
    lib = _library(tmp_path)
    try:
        ids = lib.store.manifest_paper_ids(with_indexable_units=True)
        tokens = lib.store.unit_tokens(ids)
        events: list[dict] = []
        report = lib.embed(WINDOWED, on_event=events.append, batch_size=4)
        start = events[0]
        assert start["event"] == "start" and start["units"] == sum(len(t) for t in tokens.values())
        assert start["windows"] == sum(unit_windows(t, 48, NEW_WINDOW_FORMAT) for ts in tokens.values() for t in ts)
        assert report.windows > report.units  # long units were cut into several windows
        encoded = [e for e in events if e["event"] == "encoded"]
        # the cut is told before the first call (no windows yet): the windows left as counted, no rate
        assert encoded[0]["windows"] == 0 and encoded[0]["eta_seconds"] is None
        assert events.index(encoded[0]) == 1 and encoded[0]["windows_left"] > 0
        calls = [e for e in encoded if e["windows"]]
        assert calls[0]["eta_seconds"] is not None  # from the first batch, not the first paper
        assert calls[-1]["windows_left"] == 0 and calls[-1]["windows_done"] == report.windows
        assert [e for e in events if e["event"] == "paper"][-1]["eta_seconds"] == 0
    finally:
        lib.close()


def test_a_trial_encodes_the_first_papers_first_windows(tmp_path):
    lib = _library(tmp_path)
    try:
        provider = WINDOWED.create()
        pid = lib.store.manifest_paper_ids(with_indexable_units=True)[0]
        texts = trial_mod.trial_windows(lib.store, pid, provider.window_tokens, provider, n=5)
        paper, _, units = lib.store.paper_snapshot(pid)
        count = token_counter(provider)
        first = [w for u in units if u.indexable for w in windows(*embedding_parts(u, paper.title), 48, count)]
        assert texts == first[:5]
        got = trial_mod.trial_rate(texts, provider)
        assert got is not None and got[0] > 0
        ticks = iter([0.0, 2.0, 10.0, 11.0])  # the halves (3 then 2 windows) took 2 s and 1 s: the faster counts
        pad = trial_mod.padding
        halves = [(3 / 2 * pad(texts[:3], provider), 2.0), (2 / 1 * pad(texts[3:], provider), 1.0)]
        assert trial_mod.trial_rate(texts, provider, clock=lambda: next(ticks)) == max(halves)
        assert trial_mod.trial_rate([], provider) is None
    finally:
        lib.close()


def test_the_trials_padding_counts_each_mini_batch_to_its_longest():
    provider = WINDOWED.create()
    provider.batch_size = 2  # the hash provider counts words (the estimate); a local model has its own
    texts = ["one two three four five six", "one two", "one two three four", "one"]
    lengths = sorted((n + 2 for n in provider.count_tokens(texts)), reverse=True)
    expected = (lengths[0] * 2 + lengths[2] * 2) / sum(lengths)
    assert trial_mod.padding(texts, provider) == pytest.approx(expected) and expected > 1
    provider.batch_size = 0
    assert trial_mod.padding(texts, provider) == 1.0


def test_the_index_estimate_joins_the_trial_to_its_prior_and_takes_the_planned_windows():
    clock = Clock()
    eta = IndexEta(1, clock=clock)
    eta.plan({"a.pdf": FileCost(10, 0)})
    reference = eta.prior_rate()
    eta.encoder(2.0)  # windows a second, a trial's few seconds
    assert 2.0 < eta.prior_rate() < reference  # joined, weighted by the windows behind each
    eta.written("a.pdf", 1.0)
    eta.embedding(300)  # the build's `start`: its planned windows
    said = eta.embed_seconds()
    assert said == pytest.approx(300 / eta.prior_rate())
    clock.now = 20.0
    assert eta.embed_seconds() == pytest.approx(said - 20.0)  # counts down until the build reports


def test_the_embedding_bar_shows_the_index_estimate_fed_by_the_build():
    from papershelf.frontends.cli_progress import EmbedProgress

    clock = Clock()
    eta = IndexEta(1, clock=clock)
    eta.plan({})
    eta.encoder(4.0)
    bar = EmbedProgress(as_json=False, before=eta)
    bar({"event": "start", "space_id": 1, "provider": "hash", "model": "m", "dimension": 8, "papers": 1,
         "units": 10, "windows": 40, "skipped": 0, "workers": 1})
    first = eta.seconds_left()
    assert bar.task is not None and first > 0
    for k in range(1, 5):
        clock.now = 4.0 * k
        bar({"event": "encoded", "windows": 4, "units": 1, "units_done": k, "units_total": 10, "windows_done": 4 * k,
             "windows_left": 40.0 - 4 * k, "eta_seconds": 99.0})
    assert eta.windows_done == 16 and eta.windows_left == 24.0
    assert bar.bar.tasks[0].fields["left"] != "1:39 left"  # the whole index's, not the build's own
    assert eta.seconds_left() < first


def test_index_json_has_one_trial_line_after_the_first_paper(tmp_path):
    folder = tmp_path / "in"
    folder.mkdir()
    two_column_paper(str(folder / "a.pdf"))
    structured_paper(str(folder / "b.pdf"))
    env = dict(os.environ, PAPERSHELF_LIBRARY=str(tmp_path / "lib.db"), PAPERSHELF_PARSE_WORKERS="0")
    p = subprocess.run([sys.executable, "-m", "papershelf", "index", str(folder), "--provider", "hash", "--json"],
                       env=env, capture_output=True, text=True, timeout=180)
    assert p.returncode == 0, p.stderr
    lines = [json.loads(line) for line in p.stdout.splitlines()]
    kinds = [e.get("event", "summary" if "files" in e else "?") for e in lines]
    assert kinds[:4] == ["file", "trial", "file", "summary"] and kinds[4] == "start"
    trial = lines[1]
    assert trial["paper_id"] == lines[0]["paper_id"] and trial["windows_per_second"] > 0


def test_a_builds_rate_is_kept_for_the_next_index_of_its_spec(tmp_path, monkeypatch):
    from papershelf.frontends import cli_progress
    from papershelf.index_eta import recall, remember

    bar = cli_progress.EmbedProgress(as_json=True)
    bar.task = bar.bar.add_task("embedding", total=10, windows=0, rate="", left="")
    stamps = iter([100.0, 104.0, 110.0])
    monkeypatch.setattr(cli_progress.time, "monotonic", lambda: next(stamps))
    for done in (256, 512, 768):  # the first call (it may hold the model's load) is not timed
        bar({"event": "encoded", "windows": 256, "units": 1, "units_done": 1, "units_total": 10,
             "windows_done": done, "windows_left": 1000.0 - done})
    monkeypatch.undo()
    assert bar.rate() == pytest.approx(512 / 10.0)
    with Library(str(tmp_path / "lib.db")) as lib:
        lib.remember_encoder_rate(WINDOWED, bar.rate(), 0.3)
        assert recall(lib.store, WINDOWED.to_json()) == (pytest.approx(51.2), 0.3)
        other = ProviderSpec("hash", "hash-v1", (("dimension", 16),))
        assert recall(lib.store, other.to_json()) is None  # another spec's rate is not this one's
        eta = lib.index_eta([], WINDOWED)
        assert eta.stored is not None and eta.prior_rate() == pytest.approx(51.2)
        assert lib.index_eta([], other).stored is None
        remember(lib.store, other.to_json(), None, None)  # no rate measured: the kept one stays
        assert recall(lib.store, WINDOWED.to_json()) is not None
