"""Re-score `ask`'s candidate sentences offline: right evidence in the top 3 under another sentence score.

Each answerable question of a half is asked once; its scored candidates are kept (ask_eval.capture, as
bench/ask_misses.py does) with, for each, whether it is right evidence (holds the phrase, on a right page:
bench/ask_eval.py's rule).  A scorer is then a function of the candidates only, so a variant costs no new
search.  `top3` follows ask.select (at most PER_UNIT per passage, near-duplicates and restatements folded).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import ask_sentence_model as S  # noqa: E402
from ask_eval import capture, letters, questions  # noqa: E402

from papershelf import Library  # noqa: E402
from papershelf import ask as A  # noqa: E402


def top3(cands: list, scores: np.ndarray, right: list[bool]) -> bool:
    """Whether ask.select's first three under `scores` hold right evidence."""
    chosen: list[int] = []
    per_unit: dict[str, int] = {}
    for i in sorted(range(len(cands)), key=lambda i: (-scores[i], cands[i].unit.id, cands[i].start)):
        c = cands[i]
        if per_unit.get(c.unit.id, 0) >= A.PER_UNIT or A.restates(c, [cands[j] for j in chosen]):
            continue
        chosen.append(i)
        per_unit[c.unit.id] = per_unit.get(c.unit.id, 0) + 1
        if len(chosen) == 3:
            break
    return any(right[i] for i in chosen)


def right_flags(lib: Library, q: dict, cands: list) -> list[bool]:
    places = {(q["file"], q["page"])} | {(a["file"], a["page"]) for a in q.get("also", [])}
    phrase = letters(q["phrase"])
    out = []
    for c in cands:
        quote = c.unit.text[c.start : c.end]
        ok = False
        if phrase in letters(quote):
            p = lib.store.get_paper(c.unit.paper_id)
            ok = (
                p is not None
                and (os.path.basename(p.source_path or ""), A.page_of(c.unit, quote, p.source_path)) in places
            )
        out.append(ok)
    return out


def collect(library: str, half: str) -> list[tuple[dict, list, list[bool]]]:
    """(question, its scored candidates, which are right) for each answerable question of the half."""
    out = []
    with capture() as seen, Library(library, create=False) as lib:
        for q in questions(half):
            if q["answerable"]:
                lib.ask(q["question"], limit=8)
                out.append((q, seen["cands"], right_flags(lib, q, seen["cands"])))
    return out


def learned(q: dict, cands: list, model: dict, prior_weight: float, typed_weight: float) -> np.ndarray:
    feats = S.features(
        q["question"], [c.unit.text[c.start : c.end] for c in cands], np.array([c.cosine for c in cands])
    )
    return (
        S.scores(feats, model)
        + prior_weight * np.array([c.prior for c in cands])
        + typed_weight * np.array([c.typed for c in cands])
    )


def measure(library: str, half: str, model: dict, prior_weights, typed_weight: float) -> dict:
    """Right in the top 3 by ask's own score and by the model (one count per prior weight)."""
    data = collect(library, half)
    out = {
        "half": half,
        "answerable": len(data),
        "ask": sum(top3(c, np.array([x.score for x in c]), r) for _, c, r in data),
    }
    for pw in prior_weights:
        out[f"model_prior{pw}"] = sum(top3(c, learned(q, c, model, pw, typed_weight), r) for q, c, r in data)
    return out
