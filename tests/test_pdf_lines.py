"""Dealing a cut line's characters to its pieces: `_nearest` is the first box nearest a point
(vertical distance counting twice), the rule the line cutting was written with."""

import random

from papershelf.ingest.pdf.lines import _nearest


def _reference(bounds, x, y):
    def distance(box):
        return max(box[0] - x, 0.0, x - box[2]) + 2 * max(box[1] - y, 0.0, y - box[3])
    return min(range(len(bounds)), key=lambda k: distance(bounds[k]))


def test_nearest_is_the_first_nearest_box_even_for_overlapping_or_inverted_boxes():
    rnd = random.Random(21)
    for _ in range(5000):
        bounds = []
        for _ in range(rnd.randint(1, 5)):
            x0, y0 = rnd.choice([0.0, 10.0, 50.0]) + rnd.random() * 40, rnd.random() * 40
            w, h = rnd.choice([-5.0, 0.0, 20.0, 60.0]), rnd.choice([-2.0, 0.0, 10.0])
            bounds.append((x0, y0, x0 + w, y0 + h))
        if rnd.random() < 0.2:
            bounds.append(bounds[0])  # the same box twice: the first one wins
        x, y = rnd.choice([bounds[0][0], bounds[-1][2], rnd.random() * 120]), rnd.random() * 60
        assert _nearest(bounds, x, y) == _reference(bounds, x, y)
