"""Time left in a whole `index` (add, then embed), from each file's cost known before it is read.

Why not files or papers: a folder's files differ by a thousand times in cost.  A typed page parses
in a fraction of a second; a scanned page (no text layer) is OCR'd in seconds, so five scans can be
half an add (docs/measurements/scale7.md), and a rate of papers seen in the first minute cannot
foresee them.  Each PDF's pages and pages without text are known before it is parsed
(ingest/pdf_cost.py); its parse costs `typed * per_typed + scanned * per_scanned` worker-seconds,
both rates learned from the files written so far (ratio of sums, recent files weighing most), a
prior until a file of that kind is done.  The embedding that follows costs windows, about
`WINDOWS_PER_PAGE` a page until the build plans them from its units (its `start`) and then counts
them (its progress: `windows_left`), at the encoder's rate: a prior (the reference rate scaled by
the parse's speed, joined with a trial encode of the first paper's windows, embed/trial.py) worth a
few hundred windows of evidence, which gives way to the windows the build encodes as it reports
them (`build`; measurements forget with a 20-s half-life).  The shown time left is smoothed: the
estimated end follows the raw one with a 10-s time constant, so one batch does not swing it
(docs/measurements/eta12.md).

The add's end is a list schedule: the files in input order, each handed to the first free worker (as
the parse pool hands them out), a written file taking its real seconds, the others their cost, none
more than the parse timeout.  So a file in progress counts down as time passes, and a long scan handed
out late ends late (docs/measurements/eta10.md)."""

from __future__ import annotations

import heapq
import json
import math
import time
from collections.abc import Callable
from dataclasses import dataclass

# Priors, all from ONE reference run (docs/measurements/eta9.md: 41 dev PDFs at load 2-3, 2 parse
# workers, the local model): seconds a worker took per typed / scanned page, windows a page gave the
# encoder, windows the encoder did a second.  One run, so their ratios hold: eta9's priors came from two
# runs (scale8's add, scale7's embedding) whose ratio of encoder to parse speed was 2.5-3x off on every
# trace since (docs/measurements/eta10.md).  Scaled by this machine's speed on typed pages so far.
PER_TYPED = 0.049
PER_SCANNED = 3.3
WINDOWS_PER_PAGE = 14.9
WINDOWS_PER_SECOND = 35.8
SPEED_RANGE = (0.05, 50.0)  # learned / reference speed kept in this range (a first odd file)
# How much of the machine's speed seen on typed pages (learned / reference) the priors of OCR and of
# the encoder follow: 1 = all in step, 0 = not at all (docs/measurements/eta9.md).
FOLLOW = 1.0
DECAY = 0.9  # each file written weighs the learned rates' past by this (recent files weigh most)
# The encoder's rate (docs/measurements/eta12.md): the prior (reference x speed, joined with the trial's
# sample) counts as REFERENCE_WINDOWS (+ TRIAL_WINDOWS: the trial encodes 64) windows encoded;
# measurements forget with HALF_LIFE seconds; the shown end follows the raw one with SMOOTH seconds'
# time constant.
REFERENCE_WINDOWS = 128.0
TRIAL_WINDOWS = 64.0
# The library's last build's rate (windows a second after its first call, stored by `remember`), when
# there is one, stands in for the reference rate: this machine and this model rather than eta9's run.
# STORED_FOLLOW: how much of the parse's speed now against then it follows (0: taken as it was).
STORED_FOLLOW = 0.0
STORED_WINDOWS = 128.0  # the windows of evidence the last build's rate counts as
RATE_SETTING = "encoder_rate"
HALF_LIFE = 20.0
SMOOTH = 10.0


@dataclass
class FileCost:
    """A file's cost facts: typed and scanned pages (a non-PDF counts as one typed page)."""

    typed: int
    scanned: int


class IndexEta:
    """Fed the files before the add (`plan`), each file written (`written`); asked `seconds_left`."""

    def __init__(self, workers: int = 1, clock: Callable[[], float] = time.monotonic, timeout: float | None = None):
        """`timeout`: the most one file can take (the parse workers' PAPERSHELF_PARSE_TIMEOUT)."""
        self.workers, self.clock, self.timeout = max(1, workers), clock, timeout
        self.left: dict[str, FileCost] = {}
        self.pages_total = 0
        self.order: list[str] = []  # the files in input order (the order the pool hands them out)
        self.took: dict[str, float] = {}  # seconds each file written took
        self.started = clock()
        self.embed_started: float | None = None
        self.embed_windows: float | None = None  # the build's planned windows (its `start` event)
        self.encoder_rate: float | None = None  # windows a second, measured by a trial encode
        self.stored: tuple[float, float | None] | None = None  # last build's (windows/s, s a typed page)
        self.reported: float | None = None  # when the build last reported windows encoded
        self.windows_done = 0
        self.windows_left: float | None = None  # the build's count of windows left
        self.measured = (0.0, 0.0)  # decayed windows encoded, decayed seconds they took
        self.prior_weight = 1.0  # the prior rate's share of PRIOR_WINDOWS, decayed like the measures
        self._end: float | None = None  # the shown end (seconds on the clock), smoothed
        self._asked = clock()
        self._typed = [0.0, 0.0]  # weighted seconds, weighted pages (files without scanned pages)
        self._scanned = [0.0, 0.0]  # weighted OCR seconds, weighted scanned pages

    def plan(self, costs: dict[str, FileCost]) -> None:
        self.left, self.order, self.took = dict(costs), list(costs), {}
        self.pages_total = sum(c.typed + c.scanned for c in costs.values())
        self.started = self.clock()

    def per_typed(self) -> float:
        return self._typed[0] / self._typed[1] if self._typed[1] else PER_TYPED

    def typed_seen(self) -> float | None:
        """Seconds a typed page took in this add, None before any typed file was parsed."""
        return self.per_typed() if self._typed[1] else None

    def speed(self) -> float:
        """This machine's time per unit of work over the reference's, from its typed pages so far
        (1 before any): what OCR and the encoder are assumed to take until they are seen."""
        low, high = SPEED_RANGE
        return min(high, max(low, self.per_typed() / PER_TYPED)) ** FOLLOW if self._typed[1] else 1.0

    def per_scanned(self) -> float:
        return self._scanned[0] / self._scanned[1] if self._scanned[1] else PER_SCANNED * self.speed()

    def written(self, path: str, seconds: float | None, parsed: bool = True, embeds: bool | None = None) -> None:
        """A file done after `seconds` of parse and write: the rates learn from it when it was
        `parsed` (added or updated; a failure - a parse stopped by its timeout reports 0 s - or an
        unchanged file says nothing of the parse's speed).  `embeds` (default: `parsed`): its paper
        has windows to encode; an unchanged file, or one joining a paper already there, has none, so
        its pages leave the embedding's windows (a second `index` of a folder that grew)."""
        cost = self.left.pop(path, None)
        self.took[path] = seconds or 0.0
        if cost is not None and not (parsed if embeds is None else embeds):
            self.pages_total -= cost.typed + cost.scanned
        if cost is None or seconds is None or not parsed:
            return
        if cost.scanned:
            typed = cost.typed * self.per_typed()
            if typed > cost.scanned * self.per_scanned():
                return  # mostly typed: what is left after its typed pages is their noise, not OCR's rate
            self._scanned = [self._scanned[0] * DECAY + max(0.0, seconds - typed),
                             self._scanned[1] * DECAY + cost.scanned]
        else:
            self._typed = [self._typed[0] * DECAY + seconds, self._typed[1] * DECAY + max(1, cost.typed)]

    def cost(self, c: FileCost) -> float:
        seconds = c.typed * self.per_typed() + c.scanned * self.per_scanned()
        return min(seconds, self.timeout) if self.timeout else seconds

    def add_left(self) -> float:
        if not self.left:
            return 0.0
        return max(0.0, self.add_end() - (self.clock() - self.started))

    def add_end(self) -> float:
        """When the add ends, in seconds from its start: the files in input order handed to the first
        free worker (as the parse pool hands them), each taking its real seconds when written, else
        its cost.  A file in progress thus counts down as time passes, and a long scan late in the
        input ends late (not "started at second 0")."""
        free = [0.0] * self.workers
        for path in self.order:
            took = self.took.get(path)
            if took is None:
                c = self.left.get(path)
                took = self.cost(c) if c is not None else 0.0
            heapq.heappush(free, heapq.heappop(free) + took)
        return max(free)

    def encoder(self, windows_per_second: float) -> None:
        """The encoder's rate, measured by a trial encode while the add runs: a few seconds' sample,
        so it joins the reference prior with `TRIAL_WINDOWS`' weight rather than replacing it."""
        if windows_per_second > 0:
            self.encoder_rate = windows_per_second

    def last_build(self, windows_per_second: float, per_typed: float | None = None) -> None:
        """The library's last build's encoder rate (and the seconds a typed page took in its add)."""
        if windows_per_second > 0:
            self.stored = (windows_per_second, per_typed)

    def reference_windows(self) -> float:
        return STORED_WINDOWS if self.stored is not None else REFERENCE_WINDOWS

    def reference_rate(self) -> float:
        """The encoder's rate before any is measured here: the last build's (scaled by the parse's speed
        now against then, as `STORED_FOLLOW` says), else the reference run's scaled by the machine's speed."""
        if self.stored is None:
            return WINDOWS_PER_SECOND / self.speed()
        rate, per_typed = self.stored
        if per_typed and self._typed[1]:
            low, high = SPEED_RANGE
            rate /= min(high, max(low, self.per_typed() / per_typed)) ** STORED_FOLLOW
        return rate

    def prior_rate(self) -> float:
        """Windows a second the encoder is believed to do before the build has encoded any: the
        reference rate (`reference_rate`), joined with the trial's rate (seconds a window averaged,
        each weighted by the windows behind it)."""
        reference = self.reference_rate()
        if not self.encoder_rate:
            return reference
        seconds = self.reference_windows() / reference + TRIAL_WINDOWS / self.encoder_rate
        return (self.reference_windows() + TRIAL_WINDOWS) / seconds

    def rate(self) -> float:
        """The encoder's rate: the prior as the windows' worth of evidence behind it, then every
        window the build encodes; the past (prior included) forgets with a half-life of `HALF_LIFE` s,
        so the measured rate takes over as windows are encoded and follows the machine's load."""
        windows, seconds = self.measured
        prior = (self.reference_windows() + (TRIAL_WINDOWS if self.encoder_rate else 0.0)) * self.prior_weight
        return (prior + windows) / (prior / self.prior_rate() + seconds)

    def embed_seconds(self) -> float:
        """The embedding's time left: its windows left (the build's count once it runs; its planned
        windows from its `start`; about `WINDOWS_PER_PAGE` a page before) over the encoder's rate,
        less the time since the build last reported."""
        if self.windows_left is not None:
            windows = self.windows_left
        else:
            windows = self.embed_windows if self.embed_windows is not None else self.pages_total * WINDOWS_PER_PAGE
        since = self.clock() - (self.reported if self.reported is not None else self.clock())
        return max(0.0, windows / self.rate() - since)

    def embedding(self, windows: float | None = None) -> None:
        """The embedding started (its `start` event, with the build's planned `windows`)."""
        self.left.clear()
        self.embed_started = self.reported = self.clock()
        if windows:
            self.embed_windows = float(windows)

    def build(self, windows_done: int, windows_left: float | None) -> None:
        """The build's progress (its `encoded`/`paper` events): windows encoded so far and left.  Without
        a trial the build's first call also loaded and warmed the model (eta11: tp10's first batch took
        165 s, the later ones ~65 s): its seconds are not taken for the encoder's rate."""
        now = self.clock()
        if self.reported is None:
            self.embedding()
        assert self.reported is not None
        done = windows_done - self.windows_done
        if done > 0 and not self.windows_done and not self.encoder_rate:
            self.windows_done, self.reported = windows_done, now  # its first call held the model's load
        elif done > 0:
            decay = 0.5 ** ((now - self.reported) / HALF_LIFE)
            self.measured = (self.measured[0] * decay + done, self.measured[1] * decay + now - self.reported)
            self.prior_weight *= decay
            self.windows_done, self.reported = windows_done, now
        if windows_left is not None:
            self.windows_left = windows_left

    def raw_left(self) -> float:
        """The add's time left, then the embedding's."""
        if self.embed_started is not None:
            return self.embed_seconds()
        return self.add_left() + self.embed_seconds()

    def seconds_left(self) -> float:
        """The time left as shown: the estimated end moves toward the raw one with a time constant
        of `SMOOTH` seconds, so one file or batch does not swing it; it counts down in between."""
        now = self.clock()
        end = now + self.raw_left()
        if self._end is None:
            self._end = end
        else:
            self._end += (end - self._end) * (1 - math.exp(-max(0.0, now - self._asked) / SMOOTH))
        self._asked = now
        if self.embed_started is not None and self.windows_left == 0:
            self._end = now
        return max(0.0, self._end - now)


def remember(store, key: str, windows_per_second: float | None, per_typed: float | None) -> None:
    """Keep a build's encoder rate in the library (a setting per spec `key`), for the next `index`."""
    if windows_per_second and windows_per_second > 0:
        value = {"key": key, "windows_per_second": round(windows_per_second, 3),
                 "per_typed": round(per_typed, 5) if per_typed else None}
        store.set_setting(RATE_SETTING, json.dumps(value))


def recall(store, key: str) -> tuple[float, float | None] | None:
    """The rate `remember` kept for this spec `key` (None if none, or another spec's)."""
    try:
        value = json.loads(store.get_setting(RATE_SETTING) or "null")
    except ValueError:
        return None
    if not isinstance(value, dict) or value.get("key") != key or not value.get("windows_per_second"):
        return None
    return float(value["windows_per_second"]), value.get("per_typed")


def planned(files: list[tuple[str, str | None]], stored: tuple[float, float | None] | None = None) -> IndexEta:
    """An estimate planned over the files an `add` found, with their problems (its `on_found`: the
    inputs are walked once, by the add): their pages and pages without text, about 2 ms a page, read
    before any is parsed.  `stored`: the library's last build's rate (`recall`)."""
    from .ingest.parse_pool import configured_workers, env_number
    from .ingest.pdf_cost import pdf_cost

    costs: dict[str, FileCost] = {}
    for path, problem in files:
        if problem:
            continue
        c = pdf_cost(path) if path.lower().endswith(".pdf") else None
        costs[path] = FileCost(c.pages - c.scanned, c.scanned) if c else FileCost(1, 0)
    pdfs = sum(p.lower().endswith(".pdf") for p in costs)
    workers = configured_workers(pdfs)
    eta = IndexEta(workers or 1, timeout=env_number("PAPERSHELF_PARSE_TIMEOUT", 900.0) if workers else None)
    eta.plan(costs)
    if stored:
        eta.last_build(*stored)
    return eta
