"""The whole-index time left (papershelf/index_eta.py) on synthetic timelines: a constant encoder, one
that slows, a long scan first; the prior gives way to measured windows; the shown estimate is smooth."""

from __future__ import annotations

import pytest

from papershelf.index_eta import WINDOWS_PER_PAGE, FileCost, IndexEta


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def run_build(rates: list[float], windows: int = 2560, batch: int = 256, trial: float | None = 5.0,
              typed_speed: float = 0.049, raw: bool = False):
    """A build fed batch by batch; `rates[k]`: windows a second of batch k (the last repeats).  Asked
    every 5 s; returns [(t, said, real left)] and the estimate."""
    clock = Clock()
    eta = IndexEta(1, clock=clock)
    eta.plan({"a.pdf": FileCost(10, 0)})
    eta.written("a.pdf", 10 * typed_speed)
    if trial:
        eta.encoder(trial)
    eta.embedding(windows)
    ends, t = [], 0.0
    for k in range(windows // batch):
        t += batch / rates[min(k, len(rates) - 1)]
        ends.append(t)
    said, done, t = [], 0, 0.0
    while t < ends[-1]:
        while done < len(ends) and ends[done] <= t:
            clock.now = ends[done]
            eta.build((done + 1) * batch, float(windows - (done + 1) * batch))
            done += 1
        clock.now = t
        said.append((t, eta.seconds_left(), ends[-1] - t, eta.raw_left()))
        t += 5.0
    return [x[:3] for x in said] if not raw else said, eta


def error(said: float, real: float) -> float:
    return abs(said - real) / real


def test_a_constant_encoder_is_foreseen_and_the_prior_gives_way():
    said, eta = run_build([4.0], trial=8.0)  # the trial said twice the real speed
    assert error(*said[0][1:]) > 0.2  # the prior alone is off ...
    late = [error(s, r) for t, s, r in said if t >= 128 and r > 30]  # ... after two batches it is not
    assert late and max(late) < 0.1
    assert eta.prior_weight < 0.01  # the prior's weight shrank as windows were encoded


def test_the_estimate_counts_down_without_swings():
    said, _ = run_build([4.0, 4.0, 6.0, 3.0, 4.0, 5.0, 4.0], trial=4.0, raw=True)
    # every 5 s the time left counts down by 5 s, until the first batch is done exactly ...
    shown = [abs(b[1] - a[1] + 5.0) for a, b in zip(said, said[1:])]
    raw = [abs(b[3] - a[3] + 5.0) for a, b in zip(said, said[1:])]
    assert max(shown[:12]) < 1e-9
    # ... then a batch's own rate moves the shown end by under half of what it moves the raw one
    assert max(shown) < 0.5 * max(raw) and sum(shown) < sum(raw)


def test_a_slowing_encoder_is_followed():
    said, _ = run_build([6.0, 6.0, 6.0, 3.0], windows=256 * 12)
    slow_from = 3 * 256 / 6.0
    after = [error(s, r) for t, s, r in said if t >= slow_from + 2 * 256 / 3.0 and r > 30]
    assert after and max(after) < 0.15  # two slow batches later the estimate holds the new rate


def test_without_a_trial_the_first_call_is_not_taken_for_the_encoders_rate():
    clock = Clock()
    eta = IndexEta(1, clock=clock)
    eta.plan({})
    eta.embedding(1024)
    clock.now = 100.0  # model load + warm-up + 256 windows
    eta.build(256, 768.0)
    assert eta.measured == (0.0, 0.0) and eta.windows_done == 256
    clock.now = 132.0  # 256 windows in 32 s: 8 a second
    eta.build(512, 512.0)
    assert eta.measured == (256.0, 32.0)


def test_a_long_scan_first_is_foreseen_and_counts_down():
    clock = Clock()
    eta = IndexEta(2, clock=clock)
    costs = {"scan.pdf": FileCost(0, 30), **{f"p{i}.pdf": FileCost(10, 0) for i in range(8)}}
    eta.plan(costs)
    add = eta.add_left()
    assert add == pytest.approx(30 * eta.per_scanned())  # the scan is the add's critical path
    for i in range(8):  # the typed papers go to the second worker, each in 1 s
        clock.now = i + 1.0
        eta.written(f"p{i}.pdf", 1.0)
    left = [eta.add_left()]
    for t in (20.0, 40.0, 60.0):
        clock.now = t
        left.append(eta.add_left())
    assert all(b < a for a, b in zip(left, left[1:]))  # the scan in progress counts down
    assert eta.seconds_left() > eta.add_left()  # and the embedding follows it


def test_the_last_builds_rate_stands_in_for_the_reference():
    clock = Clock()
    eta = IndexEta(1, clock=clock)
    eta.plan({"a.pdf": FileCost(10, 0)})
    eta.written("a.pdf", 10 * 0.2)  # a machine four times slower than the reference on typed pages
    reference = eta.prior_rate()
    eta.last_build(3.0, 0.4)  # this library's last build: 3 windows a second (its add: 0.4 s a typed page)
    assert eta.prior_rate() == pytest.approx(3.0)  # taken as it was (STORED_FOLLOW = 0), not the reference
    assert eta.prior_rate() != pytest.approx(reference)
    eta.encoder(6.0)  # the trial joins it as it joins the reference
    assert 3.0 < eta.prior_rate() < 6.0
    eta.embedding(600)
    for k in range(1, 6):  # the build runs at 6 windows a second: the stored rate gives way
        clock.now = 20.0 * k
        eta.build(120 * k, 600.0 - 120 * k)
    assert eta.rate() == pytest.approx(6.0, rel=0.1)


def test_files_without_windows_leave_the_embeddings_pages():
    eta = IndexEta(1, clock=Clock())
    eta.plan({"old.pdf": FileCost(20, 0), "moved.pdf": FileCost(10, 0), "new.pdf": FileCost(5, 0)})
    eta.written("old.pdf", 0.01, parsed=False)  # unchanged: nothing to encode
    eta.written("moved.pdf", 1.0, parsed=True, embeds=False)  # joined a paper already embedded
    eta.written("new.pdf", 1.0)
    assert eta.pages_total == 5  # only new.pdf's pages are left to embed
    assert eta.embed_seconds() == pytest.approx(5 * WINDOWS_PER_PAGE / eta.rate())
