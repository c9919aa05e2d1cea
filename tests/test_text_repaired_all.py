"""`text.repaired_all` mends every string of a nested value and leaves everything else as it was."""

from __future__ import annotations

from dataclasses import dataclass, field

from papershelf.text import repaired_all


@dataclass
class _Inner:
    name: str
    count: int = 0
    score: float | None = None


@dataclass
class _Outer:
    title: str
    inner: _Inner
    items: list = field(default_factory=list)
    flag: bool = False


def test_strings_at_every_depth_repaired_scalars_kept():
    inner = _Inner("a\ud800b", 3, None)
    outer = _Outer("t\udfff", inner, ["x\ud83d", ("y\ud800", 2.5), {"k\ud800": "v\udc00"}], True)
    assert repaired_all(outer) is outer
    assert outer.title == "t\ufffd" and outer.flag is True
    assert outer.inner is inner and inner.name == "a\ufffdb" and inner.count == 3 and inner.score is None
    assert outer.items == ["x\ufffd", ("y\ufffd", 2.5), {"k\ufffd": "v\ufffd"}]


def test_a_pair_written_as_two_escapes_is_one_character_and_good_text_unchanged():
    assert repaired_all(["\ud83d\ude00", "plain", 7, None]) == ["\U0001f600", "plain", 7, None]
    second = _Inner("fine", 1, 0.5)  # a second instance of a class whose field names were asked before
    repaired_all(second)
    assert (second.name, second.count, second.score) == ("fine", 1, 0.5)
