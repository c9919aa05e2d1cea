"""Time left in an embedding build: the windows left over an exponentially weighted rate of windows encoded.

Why windows and not papers or units: the encoder's work is windows (a long body unit is several, a
caption one), so a stretch of long papers is not mistaken for a slowdown.  The windows left are
planned before the first encode, from each unit's token estimate and the space's window size
(`unit_windows`), and corrected as units are cut: the windows counted so far over their units'
planned windows scales what is left (a units-based guess was off 2.5x on one paper mix: a first
paper's 10.7 windows a unit, 4.3 later; docs/measurements/eta11.md).  Why a weighted rate and not
the average since the start: the start holds the model's load and the first batch's warm-up, and a
machine's speed changes under a build; the weighted rate forgets them with a half-life of
`HALF_LIFE` seconds, so the estimate neither drags nor jumps with one batch.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable

from .windows import WINDOW_FORMATS

HALF_LIFE = 20.0  # seconds: a rate change shows half in the estimate after this long
MARKERS = 3  # tokens a window spends on the model's markers (embed/windows.py's _SPECIAL)
WORDPIECES = 1.3  # a BERT vocabulary's wordpieces per estimated token (text.estimate_tokens) of paper prose
HEAD = 20  # wordpieces of the head every window repeats (the paper's title)
SENTENCE = 30  # wordpieces of a sentence of paper prose (~23 words)


def unit_windows(tokens: int, window: int | None, window_format: int = 1) -> int:
    """The windows a unit of `tokens` (its token estimate) is cut into (embed/windows.py): one when it
    fits or there is no window; else a first window's room, then one each `step`: a window is filled
    with whole sentences (half a sentence left unfilled, on average) and, in formats 1 and 3, shares its
    last sentence with the next; in formats 1 and 2 every window repeats the head.  The constants are prose's
    averages (docs/measurements/eta11.md); a build corrects the plan by the windows it counts as units
    are cut (`Eta.cut`)."""
    if not window:
        return 1
    room = window - MARKERS - HEAD
    pieces = tokens * WORDPIECES
    if pieces <= room:
        return 1
    every, share = WINDOW_FORMATS[window_format]
    step = max(1.0, (room if every else window - MARKERS) - (1.5 if share else 0.5) * SENTENCE)
    return 1 + math.ceil((pieces - room) / step)


class Eta:
    """Fed every provider call (windows encoded, units finished); thread-safe."""

    def __init__(self, units_total: int, half_life: float = HALF_LIFE,
                 clock: Callable[[], float] = time.monotonic):
        self.units_total, self.half_life, self.clock = units_total, half_life, clock
        self.units_done = 0  # finished: encoded, reused or failed
        self.windows_done = 0
        self.windows_planned = 0.0  # all selected units' windows, from their token estimates
        self._planned_away = 0.0  # planned windows of units cut, reused or failed: no longer "left"
        self._planned_cut = 0.0  # planned windows of the units cut so far
        self._windows_cut = 0  # ... and the windows they were really cut into
        self._weighted_windows = 0.0
        self._weighted_seconds = 0.0
        self._last: float | None = None
        self._lock = threading.Lock()

    def plan(self, units: int, windows: float) -> None:
        """The build's selected units and their planned windows (`unit_windows` summed)."""
        with self._lock:
            self.units_total, self.windows_planned = units, windows

    def start(self) -> None:
        """Time zero: the first batch goes to the encoder now."""
        with self._lock:
            self._last = self.clock()

    def cut(self, planned: float, windows: int) -> None:
        """Units cut into `windows` (an encoding thread, before their first batch); `planned`: theirs."""
        with self._lock:
            self._planned_away += planned
            self._planned_cut += planned
            self._windows_cut += windows

    def dropped(self, planned: float) -> None:
        """Units that will not be encoded (vectors reused, paper failed before its cut)."""
        with self._lock:
            self._planned_away += planned

    def encoded(self, windows: int, units: int) -> None:
        """One provider call done: `windows` encoded, `units` finished by it."""
        with self._lock:
            now = self.clock()
            if self._last is None:
                self._last = now
            elapsed, self._last = now - self._last, now
            decay = 0.5 ** (elapsed / self.half_life)
            self._weighted_windows = self._weighted_windows * decay + windows
            self._weighted_seconds = self._weighted_seconds * decay + elapsed
            self.windows_done += windows
            self.units_done += units

    def skipped(self, units: int) -> None:
        """Units done without encoding (vectors reused, a failed paper): they take no time."""
        with self._lock:
            self.units_done += units

    def rate(self) -> float | None:
        """Windows per second, recent seconds weighing most; None before the first call."""
        with self._lock:
            return self._weighted_windows / self._weighted_seconds if self._weighted_seconds > 0 else None

    def windows_left(self) -> float:
        """Windows cut and not yet encoded, plus the planned windows of the units not yet cut, scaled
        by the counted-over-planned ratio of the units cut so far."""
        with self._lock:
            ratio = self._windows_cut / self._planned_cut if self._planned_cut else 1.0
            uncut = max(0.0, self.windows_planned - self._planned_away) * ratio
            return uncut + max(0, self._windows_cut - self.windows_done)

    def seconds_left(self) -> float | None:
        """The windows left over the weighted rate; None before the first provider call."""
        rate = self.rate()
        return self.windows_left() / rate if rate else None
