"""`Held` answers ``line in held`` as ``line in lines`` does: the same line, an equal copy of one
(a dataclass's ``==``), and lines sharing a place but differing in a field."""

from __future__ import annotations

import dataclasses
import itertools

from papershelf.ingest.pdf.text.held_lines import Held
from papershelf.ingest.pdf.text.lines import Line


def _lines() -> list[Line]:
    base = Line(1, 72.0, 100.0, 300.0, 110.0, "Figure 1. A caption", 9.0, False)
    return [
        base,
        dataclasses.replace(base),  # equal to `base`, another object
        dataclasses.replace(base, text="Figure 1. A caption, other text"),  # same place, other text
        dataclasses.replace(base, x1=301.0),  # same place, other right edge
        dataclasses.replace(base, top=112.0, bottom=122.0),
        dataclasses.replace(base, x0=-0.0, top=0.0),
        dataclasses.replace(base, x0=0.0, top=-0.0),  # equal places by ``==`` (0.0 == -0.0)
        dataclasses.replace(base, x0=float("nan")),
        dataclasses.replace(base, bold=True),
    ]


def test_held_answers_as_the_list_does():
    lines = _lines()
    asked = 0
    for size in range(len(lines) + 1):
        for picked in itertools.combinations(lines, size):
            held = Held(list(picked))
            for ln in lines:
                assert (ln in held) == (ln in list(picked))
                asked += 1
    assert asked > 4000


def test_an_equal_copy_is_held():
    base = _lines()[0]
    held = Held([base])
    assert dataclasses.replace(base) in held
    assert dataclasses.replace(base, text="other") not in held
