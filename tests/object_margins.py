"""A fourth set of generated object layouts (helper regions8, issue #38), each from a failure class
left on real pages, drawn by a generator of its own (``random.Random(f"fourth {seed}")``) so the
earlier sets' papers stay as they were:

* ``margin_column``: the page's running text in one body column, a narrow margin column beside it
  (left or right) holding each object's caption, level with the object's top or with its foot; the
  object in the body column (Tufte-style and some journals' layouts: the caption lies outside every
  column of running text, not in a side column inside the object's own column);
* ``empty_third``: a paper set in three columns whose third column is left empty on some pages (a
  section or the paper ending early: the page's columns are then two narrow ones and a blank).
"""

from __future__ import annotations

FOURTH = {"margin_column": 0.15, "empty_third": 0.15}  # shares of papers, drawn by the fourth generator
_WORDS = ("reef", "depth", "colonies", "by", "site", "season", "mean", "cover", "after", "the", "survey", "warm")
SHORT_PAGES = 0.6  # share of an `empty_third` paper's pages whose third column stays empty


def margin_column(flow, rng) -> None:
    """Set the paper in one body column with a margin column for captions beside it (left or right)."""
    flow.ncols = 1
    text_w = flow.fw - 2 * flow.margin
    flow.side_w = text_w * rng.uniform(0.22, 0.3)
    gap = rng.uniform(12, 22)
    flow.colw = text_w - flow.side_w - gap
    flow.side_left = rng.random() < 0.6
    flow.side_x = flow.margin if flow.side_left else flow.margin + flow.colw + gap
    flow.xs = [flow.margin + flow.side_w + gap if flow.side_left else flow.margin]
    flow.ys = [flow.top]
    flow.side_foot = rng.random() < 0.4  # captions level with the object's foot, not its top
    flow.spans = None


def empty_third(flow, rng) -> None:
    """Three columns, the third left empty on some pages (`SHORT_PAGES`, drawn by `rng`)."""
    if flow.ncols != 3:
        flow.three_columns(rng)
    flow.short = rng


def leaves_third(flow) -> bool:
    """Does the flow leave this page's third column empty (an `empty_third` paper's short page)?"""
    short = getattr(flow, "short", None)
    if short is None:
        return False
    if getattr(flow, "short_page", None) != flow.page:
        flow.short_page, flow.short_now = flow.page, short.random() < SHORT_PAGES
    return flow.short_now


def place_in_margin(flow, label: str, thing) -> None:
    """The object in the body column, its caption in the margin column beside it."""
    from .object_fixtures import _Table, _text_box, _wrap_width

    rng = flow.rng
    n = label.split()[1]
    printed = rng.choice((f"Table {n}.", f"TABLE {n}")) if label.startswith("Table") else \
        rng.choice((f"Figure {n}.", f"Fig. {n}", f"FIGURE {n}."))
    words = " ".join(rng.sample(_WORDS, rng.randint(4, 12)))
    text = f"{printed} {words[0].upper()}{words[1:]}."
    size = flow.size - rng.choice((1.0, 1.5, 2.0))
    font = rng.choice((flow.font[0], "Helvetica"))
    cap = _wrap_width(text, font, size, flow.side_w)
    cap_h = len(cap) * size * 1.2
    flow._room(max(thing.height, cap_h) + 6)
    y = flow.ys[flow.col]
    x0 = flow.xs[flow.col]
    obj_w = sum(thing.widths) if isinstance(thing, _Table) else thing.width
    box, texts = thing.draw(flow.c, x0 + (flow.colw - obj_w) * rng.choice((0.0, 0.5)), y)
    top = y if not flow.side_foot or cap_h >= thing.height else y - thing.height + cap_h
    for ln in cap:
        _text_box(flow.c, flow.side_x, top - size, ln, font, size)
        top -= size * 1.2
    after = rng.choice((rng.uniform(2, 5), rng.uniform(10, 18)))
    flow.ys[flow.col] = min(y - thing.height, top) - after
    flow.truth.append({"label": label, "kind": "table" if label.startswith("Table") else "figure",
                       "page": flow.page, "bbox": box, "texts": texts,
                       "cells": thing.cells() if isinstance(thing, _Table) else [], "caption": " ".join(cap),
                       "style": thing.style if isinstance(thing, _Table) else thing.kind, "above": False,
                       "wide": False, "close": after < 6, "variant": "margin_column", "span": 1,
                       "collected": flow.at_end})
