"""A learned second opinion on the heading rules: small boosted trees over `heading_features`.

(bench/boost_headings.py fits them; a logistic regression may be written instead.)  The rules of
`headings` decide first; the model then looks at every short paragraph with all the
cues at once and may veto a heading the rules took (its probability below `veto`) or admit one they
left (above `admit`).  The trees, the feature names and both thresholds live in heading_model.json,
written by ``python bench/train_headings.py --write`` from derived truth (outlines, structured
twins, generated papers); its ``version`` is bumped whenever the cues or the model's form change, and
``adopted: false`` keeps the reader on the rules alone (the model is then only measured).

`RECORD`, when a list, receives every candidate's cues and the rules' verdict instead of the model
deciding (how the training script collects its examples from the reader itself).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..text.lines import join_lines
from .heading_cues import wraps_onto as _wraps_onto
from .heading_features import NAMES, DocContext, candidate, features
from .headings import _NUMBERED, BodyStyle, Para, _Decider, _style_key

WEIGHTS = Path(__file__).with_name("heading_model.json")
RECORD: list[dict] | None = None
Judge = Callable[[int, Para, Any], Any]


@lru_cache(maxsize=1)
def load(path: str = str(WEIGHTS)) -> dict:
    """The shipped model; {} when the file is missing or its features are not this module's."""
    try:
        model = json.loads(Path(path).read_text())
    except (OSError, ValueError):
        return {}
    return model if tuple(model.get("features", ())) == NAMES else {}


def probability(model: dict, x: list[float]) -> float:
    """The model's belief that the paragraph with cues `x` is a heading (boosted trees or logistic)."""
    if model["kind"] == "logistic":
        z = model["bias"] + sum(w * (v - m) / s for w, v, m, s in
                                zip(model["weights"], x, model["mean"], model["scale"]))
    else:
        z = model["base"]
        for nodes in model["trees"]:
            node = nodes[0]
            while len(node) > 1:
                node = nodes[node[2] if x[node[0]] <= node[1] else node[3]]
            z += node[0]
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


def review(paras: list[Para], body: BodyStyle, decider: _Decider) -> Judge | None:
    """The per-document judge `headings.to_blocks` calls with each paragraph and the rules'
    verdict; None (rules alone) when no model is adopted and nothing is being recorded."""
    model = load()
    if RECORD is None and not model.get("adopted"):
        return None
    ctx = DocContext(paras, body)

    def judge(i: int, p: Para, head):
        if not candidate(p, body):
            return head
        nxt = paras[i + 1] if i + 1 < len(paras) else None
        x = features(p, nxt, ctx, decider, head)
        if RECORD is not None:
            RECORD.append(_record(p, nxt, body, head, x))
            return head
        return decide(model, x, p, decider, head)

    return judge


def decide(model: dict, x: list[float], p: Para, decider: _Decider, head):
    """The rules' verdict, vetoed or a heading admitted where the model is sure."""
    prob = probability(model, x)
    if head is not None:
        return None if prob < model["veto"] else head
    if prob <= model["admit"]:
        return None
    text = p.text.strip()
    m = _NUMBERED.match(text)
    key = decider.numbering.accept(m, 1) if m else None
    if key:
        return text, decider._set_level(len(key), p.first.size)
    if decider.numbering.last or decider.level:
        return text, decider._sub_level()
    return text, decider._set_level(decider.ranks.get(_style_key(p.first), 1), p.first.size)


def _record(p: Para, nxt: Para | None, body: BodyStyle, head, x: list[float]) -> dict:
    """One example: the cues, the rules' verdict, and the title as the reader would print it."""
    title = p.text.strip()
    if nxt is not None and _wraps_onto(p, nxt, body):
        title = join_lines([title, nxt.text])
    number = re.match(r"^\S+", title)
    return {"x": x, "text": title, "page": p.first.page, "rule": head[1] if head else 0,
            "lead": number.group(0) if number else ""}
