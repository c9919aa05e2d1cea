"""Time left in an embedding build, from an exponentially weighted rate of windows encoded.

Why windows and not papers or units: the encoder's work is windows (a long body unit is several, a
caption one), so a stretch of long papers is not mistaken for a slowdown.  Why a weighted rate and not
the average since the start: the start holds the model's load and the first batch's warm-up, and a
machine's speed changes under a build (parsing beside it, other programs); the weighted rate forgets
them with a half-life of `HALF_LIFE` seconds, so the estimate neither drags nor jumps with one batch.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

HALF_LIFE = 20.0  # seconds: a rate change shows half in the estimate after this long


class Eta:
    """Fed every provider call (windows encoded, units finished); thread-safe."""

    def __init__(self, units_total: int, half_life: float = HALF_LIFE,
                 clock: Callable[[], float] = time.monotonic):
        self.units_total, self.half_life, self.clock = units_total, half_life, clock
        self.units_done = 0  # finished: encoded, reused or failed
        self.windows_done = 0
        self._units_encoded = 0  # finished by encoding: the windows-per-unit ratio's units
        self._weighted_windows = 0.0
        self._weighted_seconds = 0.0
        self._last: float | None = None
        self._lock = threading.Lock()

    def start(self) -> None:
        """Time zero: the first batch goes to the encoder now."""
        with self._lock:
            self._last = self.clock()

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
            self._units_encoded += units
            self.units_done += units

    def skipped(self, units: int) -> None:
        """Units done without encoding (vectors reused, a failed paper): they take no time."""
        with self._lock:
            self.units_done += units

    def rate(self) -> float | None:
        """Windows per second, recent seconds weighing most; None before the first call."""
        with self._lock:
            return self._weighted_windows / self._weighted_seconds if self._weighted_seconds > 0 else None

    def seconds_left(self) -> float | None:
        """The units left, in windows at the ratio seen so far, over the weighted rate."""
        rate = self.rate()
        with self._lock:
            if not rate or not self._units_encoded:
                return None
            windows_left = max(0, self.units_total - self.units_done) * self.windows_done / self._units_encoded
            return windows_left / rate
