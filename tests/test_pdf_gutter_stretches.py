"""`region_rows._gutters` tests the page once per stretch between line ends and starts: the strips it
finds are those a test at every whole point finds (the definition, written out here)."""

from __future__ import annotations

import bisect
import random

from papershelf.ingest.pdf.objects.region_rows import _gutters
from papershelf.ingest.pdf.text.lines import Line

_WORDS = "the walk stops at running text set in the body size across its column"


def _point_by_point(wide: list[tuple[float, float]], two_columns: bool) -> list[tuple[int, int]]:
    starts, ends = sorted(x0 for x0, _ in wide), sorted(x1 for _, x1 in wide)
    out, run = [], []
    for x in range(int(starts[0]), int(ends[-1]) + 2):
        left, right = bisect.bisect_right(ends, x), len(wide) - bisect.bisect_left(starts, x)
        if left >= 2 and right >= 2 and len(wide) - left - right <= (left + right) / 6:
            run.append(x)
            continue
        if len(run) >= 3:
            out.append((run[0], run[-1]))
        run = []
    return out if len(out) >= 2 or (out and not two_columns) else []


def _page(rnd: random.Random) -> list[tuple[float, float]]:
    edges = [40.0, 50.5, 300.0, 310.25, 200.0, -3.5]
    out = []
    for _ in range(rnd.randint(4, 30)):
        if rnd.random() < 0.3:
            a = rnd.choice(edges)
            out.append((a, a + rnd.choice([5.0, 100.0, 250.0, 0.0, -2.0])))
        else:
            a = rnd.uniform(-10, 500)
            b = a + rnd.uniform(-5, 300)
            out.append((float(round(a)), float(round(b))) if rnd.random() < 0.3 else (a, b))
    return out


def test_gutters_match_the_point_by_point_test():
    rnd = random.Random(7)
    found = 0
    for _ in range(3000):
        wide = _page(rnd)
        two = rnd.random() < 0.5
        lines = [Line(1, a, 10.0 * i, b, 10.0 * i + 9, _WORDS, 9.0, False) for i, (a, b) in enumerate(wide)]
        expected = _point_by_point(wide, two)
        assert _gutters(lines, two) == expected
        found += bool(expected)
    assert found > 500  # the pages tried have gutters, not only none
