"""bench/wide_tagged.py pairs a tagged PDF's Figure / Table elements with their captions from the
paper's own habit (which side its captions lie on), and leaves out a pairing it cannot make surely."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

from wide_tagged import _nearest_and_touching, _pick, habit_of


def _cap(label: str, box: tuple) -> dict:
    return {"index": 0, "label": label, "kind": "figure", "box": box}


# A 2 x 2 grid of pictures, each captioned under its own (PDF points, y up): the caption under the top
# left picture overlaps the bottom left picture's box, so it is the nearer caption of both.
TOP_LEFT, TOP_RIGHT = (54, 659, 191, 753), (191, 659, 301, 753)
BOTTOM_LEFT = (53, 558, 190, 652)
CAP_TL, CAP_TR = _cap("Figure 6", (93, 645, 204, 655)), _cap("Figure 7", (219, 644, 327, 653))
CAP_BL = _cap("Figure 8", (98, 548, 209, 557))


def test_habit_of_needs_a_clear_majority() -> None:
    assert habit_of([("figure", "below")] * 3 + [("table", "above")] * 2) == {"figure": "below", "table": "above"}
    assert habit_of([("figure", "below"), ("figure", "above")]) == {}
    assert habit_of([("figure", "below")]) == {}


def test_an_element_between_two_captions_takes_the_habit_side() -> None:
    caption, might = _pick(BOTTOM_LEFT, [CAP_TL, CAP_TR, CAP_BL], "below")
    assert caption is CAP_BL and len(might) == 2


def test_without_a_habit_the_pairing_is_left_out() -> None:
    assert _pick(BOTTOM_LEFT, [CAP_TL, CAP_TR, CAP_BL], None)[0] is None


def test_two_captions_on_one_side_go_to_the_centred_one() -> None:
    assert _pick(TOP_RIGHT, [CAP_TL, CAP_TR, CAP_BL], "below")[0] is CAP_TR
    assert _pick(TOP_LEFT, [CAP_TL, CAP_TR, CAP_BL], "below")[0] is CAP_TL


def test_strict_caption_with_two_elements_as_near_takes_its_own() -> None:
    beside = (313, 650, 553, 753)  # another column's picture level with the caption
    named = [(1, CAP_TR, beside, []), (2, CAP_TR, TOP_RIGHT, [])]
    assert [n[0] for n in _nearest_and_touching(named, {"figure": "below"})] == [2]
