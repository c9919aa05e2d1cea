"""Scoring a PDF reader's headings against a hand-made truth set (used by pdf_quality.py).

A truth entry is ``{"level", "number", "title", "page"}``; one marked ``"trap": true`` is text that
must be no heading (a footnote's run-in "Abbreviations:"): found as one, run in or not, it counts
against precision.  Entries marked ``"optional": true``
(unnumbered bold sub-headings, run-in lead-ins) are neither rewarded nor penalised.  A found
heading matches an entry with the same number whose title reads the same (case, punctuation,
ligatures and spacing ignored; a near-identical title still matches, as when a two-line
heading lost a word), preferring an entry on the heading's own page.  Precision counts every found heading that matches no entry as wrong,
except the lead-ins of run-in headings, which the reader keeps in the text and only offers
as sub-headings.  A run-in lead-in matches only an entry on its own page: a structured abstract's
"Results" label must not take the "Results" section pages later, leaving the real heading to
count as spurious.
"""

from __future__ import annotations

import difflib
import re
import unicodedata

_NUM = re.compile(r"^(?:appendix\s+|§\s?)?((?:\d+(?:\.\d+)*|[IVX]+|[A-Z](?:\.\d+)*))[.):]?\s+(?=\S)", re.IGNORECASE)


def plain(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).lower()
    return re.sub(r"[^a-z0-9]+", "", text)


def split_number(text: str) -> tuple[str, str]:
    """("3.1", "Execution Overview") from "3.1 Execution Overview"."""
    m = _NUM.match(text.strip())
    if m:
        return m.group(1).upper().rstrip("."), text.strip()[m.end():]
    return "", text.strip()


def _same(found: tuple[str, str], entry: dict) -> bool:
    number = (entry.get("number") or "").upper().rstrip(".")
    title = plain(entry["title"])
    f_num, f_title = found[0], plain(found[1])
    if number and f_num != number:
        # an unnumbered entry may still be found with its title only
        return False
    if not number and f_num and plain(f"{f_num}{found[1]}") != title and f_title != title:
        return False
    if f_title == title:
        return True
    return bool(title) and difflib.SequenceMatcher(None, f_title, title).ratio() >= 0.85


def _runin(blocks, i: int) -> bool:
    nxt = blocks[i + 1] if i + 1 < len(blocks) else None
    return nxt is not None and nxt.kind == "text" and nxt.text.startswith(blocks[i].text)


def _match(parts: tuple[str, str], page: int | None, truth: list[dict], used: set[int],
           runin: bool = False) -> int | None:
    """The truth entry a found heading stands for: one on the same page first (a paper may print
    "Background" twice, as a structured abstract's label and as a section), else the first unused.
    On one page, a heading on a line of its own stands for the required entry (the section), a
    run-in one for the optional label ("Introduction:" opening an abstract's paragraph), whichever
    the truth lists first."""
    same = [k for k, e in enumerate(truth) if k not in used and _same(parts, e)]
    here = sorted((k for k in same if truth[k].get("page") == page),
                  key=lambda k: bool(truth[k].get("optional")) != runin)
    return here[0] if here else (same[0] if same else None)


def score_paper(blocks, truth: list[dict]) -> dict:
    found = [(i, b) for i, b in enumerate(blocks) if b.kind == "heading"]
    used: set[int] = set()
    tp = level_ok = fp = 0
    spurious = []
    for i, b in found:
        parts = split_number(b.text)
        match = _match(parts, b.page, truth, used, _runin(blocks, i))
        if match is not None and _runin(blocks, i) and truth[match].get("page") not in (None, b.page) \
                and not truth[match].get("trap"):
            match = None  # a run-in label ("Results" in a structured abstract) takes no section on another page
        if match is None:
            if not _runin(blocks, i):
                fp += 1
                spurious.append(b.text)
            continue
        used.add(match)
        if truth[match].get("trap"):  # text that must not be a heading, run in or not
            fp += 1
            spurious.append(b.text)
            continue
        if not truth[match].get("optional"):
            tp += 1
            level_ok += truth[match]["level"] == b.level
    required = [k for k, e in enumerate(truth) if not e.get("optional") and not e.get("trap")]
    missed = [((truth[k].get("number") or "") + " " + truth[k]["title"]).strip() for k in required if k not in used]
    return {"truth": len(required), "tp": tp, "fp": fp, "level_ok": level_ok,
            "precision": round(tp / (tp + fp), 3) if tp + fp else 1.0,
            "recall": round(tp / len(required), 3) if required else 1.0, "missed": missed, "spurious": spurious}


def sum_scores(scores: list[dict]) -> dict:
    tp, fp, truth = (sum(s[k] for s in scores) for k in ("tp", "fp", "truth"))
    level_ok = sum(s["level_ok"] for s in scores)
    return {"papers": len(scores), "truth": truth, "tp": tp, "fp": fp,
            "precision": round(tp / (tp + fp), 4) if tp + fp else 1.0,
            "recall": round(tp / truth, 4) if truth else 1.0, "level_accuracy": round(level_ok / tp, 4) if tp else 1.0}
