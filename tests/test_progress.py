"""Progress that moves: papers written as soon as they are encoded, and a time left that holds.

The estimate is checked on a simulated 1,000-paper build (a fake clock: papers of 20-80 units, a unit
one to four windows, a slow first batch, a noisy encoder), the issue's bar: after the first minute the
time left is within 20 % of the real end.
"""

from __future__ import annotations

import random
import threading

import numpy as np

from papershelf.embed import build
from papershelf.embed.eta import Eta
from papershelf.embed.hashing import HashProvider

from .conftest import HASH, paper_text


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def _simulate(rate_at, seed: int = 1, papers: int = 1000, batch: int = 256, warmup: float = 12.0,
              planned_per_unit: float = 2.0):
    """Feed an Eta as a build would: (seconds left it said at each check time, the real end).
    `rate_at(t)`: the encoder's true windows per second at time t.  The windows are planned at
    `planned_per_unit` a unit (token estimates are rough) and counted as each batch's units are cut."""
    rng = random.Random(seed)
    units = [rng.choice((1, 1, 2, 3, 4)) for _ in range(sum(rng.randint(20, 80) for _ in range(papers)))]
    clock = Clock()
    eta = Eta(len(units), clock=clock)
    eta.plan(len(units), planned_per_unit * len(units))
    eta.start()
    clock.now = warmup  # the model's load and warm-up: the first call is slow
    said: list[tuple[float, float | None]] = []
    ends = np.cumsum(units)  # each unit's last window
    cut = 0
    for i in range(0, int(ends[-1]), batch):
        n = min(batch, int(ends[-1]) - i)
        upto = int(np.searchsorted(ends, i + n)) + 1  # units this batch reaches: cut before it
        if upto > cut:
            eta.cut(planned_per_unit * (upto - cut), int(sum(units[cut:upto])))
            cut = upto
        clock.now += n / rate_at(clock.now) * rng.uniform(0.8, 1.2)
        eta.encoded(n, int(np.count_nonzero((ends > i) & (ends <= i + n))))
        said.append((clock.now, eta.seconds_left()))
    assert eta.units_done == len(units)
    return said, clock.now


def _error_at(said, end: float, t: float) -> float:
    at, left = next((a, s) for a, s in said if a >= t)
    assert left is not None
    return abs(at + left - end) / (end - at)


def test_after_the_first_minute_the_time_left_is_within_a_fifth_of_the_real_end():
    for seed in range(5):
        said, end = _simulate(lambda t: 60.0, seed)
        assert end > 20 * 60  # a real build's length: tens of minutes
        for t in (60, 120, 300, end / 2):
            assert _error_at(said, end, t) < 0.2, (seed, t)


def test_the_estimate_follows_a_change_of_speed():
    """Parsing beside the encoder for the first five minutes, then the encoder alone and twice as fast:
    a minute after, the estimate has moved most of the way (an average since the start would not)."""
    said, end = _simulate(lambda t: 40.0 if t < 300 else 80.0, seed=3)
    assert _error_at(said, end, 300 + 60) < 0.2


def test_nothing_is_said_before_the_first_batch():
    eta = Eta(100, clock=Clock())
    eta.start()
    assert eta.seconds_left() is None and eta.rate() is None


def test_each_paper_is_delivered_when_its_last_window_is_encoded():
    """Three papers sharing batches of two texts: each is handed to the writer after the call that
    encodes its last window, not when the whole group is done."""
    calls: list[int] = []

    class Counting(HashProvider):
        def encode(self, texts):
            calls.append(len(texts))
            return super().encode(texts)

    probe = Counting(dimension=16)
    encoder = build._Encoder(lambda: probe, probe, 16, 2, None, threading.Event())
    jobs = [build._Job(f"p{i}", {}, {}, [], [("", f"paper {i} unit {j}") for j in range(n)], [])
            for i, n in enumerate((1, 2, 3))]
    got: list[tuple[str, int, list[tuple[int, ...]]]] = []
    encoder.group(jobs, lambda job, vectors: got.append((job.paper_id, len(calls), [v.shape for v in vectors])))
    assert calls == [2, 2, 2]
    assert got == [("p0", 1, [(1, 16)]), ("p1", 2, [(1, 16)] * 2), ("p2", 3, [(1, 16)] * 3)]


def test_build_events_carry_progress_and_time_left(lib, write):
    for i in range(6):
        write(f"p{i}.md", paper_text(key=f"p{i}", title=f"Paper {i}", intro=f"Topic number {i}."))
    lib.add([str(write.root)])
    many = lib
    events: list[dict] = []
    report = many.embed(HASH, on_event=events.append, batch_size=2)
    encoded = [e for e in events if e["event"] == "encoded"]
    assert [e["units_done"] for e in encoded] == sorted(e["units_done"] for e in encoded)  # it only moves on
    assert encoded[-1]["windows_done"] == report.windows
    assert all(e["units_total"] == encoded[0]["units_total"] for e in encoded)
    assert any(e["eta_seconds"] is not None for e in encoded)
    last = [e for e in events if e["event"] == "paper"][-1]
    assert last["units_done"] == last["units_total"] and last["eta_seconds"] == 0
