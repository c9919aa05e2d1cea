"""The fitting and the leave-publisher-out scoring behind bench/train_headings.py, in NumPy alone.

The models themselves are bench/boost_headings.py's (boosted trees by default, `KIND`).  Scoring rebuilds each
paper's headings as the reader would print them from its recorded candidates — the rules' verdicts,
the model's, or the rules' with the model's vetoes and admissions — runs the reader's own demotions
over them and grades them with bench/pdf_headings_score.py against the paper's truth.
"""

from __future__ import annotations

import numpy as np
from boost_headings import fit_logistic, fit_trees, predict
from pdf_headings_score import score_paper

from papershelf.document import Block
from papershelf.ingest.pdf import reader
from papershelf.ingest.pdf.sections.contents import _demote_contents_repeats

VETOES = (0.0, 0.02, 0.05, 0.1, 0.2, 0.3)
ADMITS = (0.5, 0.7, 0.8, 0.9, 0.95, 0.98, 1.01)  # 1.01: never admit
GENERATED_WEIGHT = 0.3  # generated papers are many and alike: they count less than a real paper's lines
KIND = "trees"


def matrix(docs: list[dict]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(cues, labels, weights) of the examples the aligner could label."""
    rows = [(r["x"], r["y"], GENERATED_WEIGHT if d["source"] == "generated" else 1.0)
            for d in docs for r in d["records"] if r["x"] is not None and r["y"] is not None]
    if not rows:
        return np.zeros((0, 0)), np.zeros(0), np.zeros(0)
    return (np.array([x for x, _, _ in rows], dtype=float), np.array([y for _, y, _ in rows], dtype=float),
            np.array([w for _, _, w in rows], dtype=float))


def fit(docs: list[dict], kind: str | None = None) -> dict:
    x, y, wt = matrix(docs)
    return (fit_logistic if (kind or KIND) == "logistic" else fit_trees)(x, y, wt)


def doc_probs(model, doc: dict) -> list[float | None]:
    xs = [r["x"] for r in doc["records"] if r["x"] is not None]
    it = iter(predict(model, xs).tolist())
    return [next(it) if r["x"] is not None else None for r in doc["records"]]


def _blocks(doc: dict, heads: list[bool]) -> list[Block]:
    """The paper's headings as the reader would print them, demotions included."""
    runins: dict[int, list[dict]] = {}
    for r in doc["runins"]:
        runins.setdefault(r["pos"], []).append(r)
    blocks: list[Block] = []

    def add_runins(pos: int) -> None:
        for r in runins.get(pos, []):
            blocks.append(Block("heading", r["text"], level=r["level"], page=r["page"]))
            blocks.append(Block("text", r["para"], page=r["page"]))

    add_runins(0)
    for k, (rec, head) in enumerate(zip(doc["records"], heads)):
        if head:
            blocks.append(Block("heading", rec["text"], level=max(1, rec["rule"] or 2), page=rec["page"]))
        add_runins(k + 1)
    reader._demote_front_matter(blocks)
    reader._demote_title_and_authors(blocks, doc["title"], doc["authors"])
    _demote_contents_repeats(blocks)
    return blocks


def decisions(doc: dict, probs: list[float | None], veto: float, admit: float, mode: str) -> list[bool]:
    out = []
    for rec, p in zip(doc["records"], probs):
        rule = bool(rec["rule"])
        if p is None or mode == "rules":
            out.append(rule)
        elif mode == "model":
            out.append(p > 0.5)
        else:
            out.append(p >= veto if rule else p > admit)
    return out


_SCORES: dict[tuple[str, tuple[bool, ...]], tuple[int, int, int]] = {}


def paper_score(doc: dict, heads: list[bool]) -> tuple[int, int, int]:
    """(tp, fp, truth) of one paper's headings; remembered, as the threshold search asks again and again."""
    key = (doc["name"], tuple(heads))
    if key not in _SCORES:
        s = score_paper(_blocks(doc, heads), doc["truth"])
        _SCORES[key] = (s["tp"], s["fp"], s["truth"])
    return _SCORES[key]


def counts(docs: list[dict], probs: list[list], veto: float, admit: float, mode: str) -> tuple[int, int, int]:
    tp = fp = truth = 0
    for doc, pr in zip(docs, probs):
        a, b, c = paper_score(doc, decisions(doc, pr, veto, admit, mode))
        tp, fp, truth = tp + a, fp + b, truth + c
    return tp, fp, truth


def _f1(tp: int, fp: int, truth: int) -> float:
    return 2 * tp / (2 * tp + fp + (truth - tp)) if tp else 0.0


def folds_of(docs: list[dict]) -> list[tuple[str, list[dict], list[dict]]]:
    """(family held out, training papers, held-out papers) for each family; a family of the shared
    PDFs that names a wide family ("arxiv" / "arXiv") is held out with it."""
    def key(fam: str) -> str:
        return fam.lower().split()[0]

    names: dict[str, str] = {}
    for d in docs:
        names.setdefault(key(d["family"]), d["family"])
    return [(name, [d for d in docs if key(d["family"]) != k], [d for d in docs if key(d["family"]) == k])
            for k, name in sorted(names.items())]


def _held_out(train: list[dict], test: list[dict]) -> list[tuple[dict, list]]:
    if not matrix(train)[0].size:
        return []
    model = fit(train)
    return [(d, doc_probs(model, d)) for d in test]


def pick_thresholds(docs: list[dict]) -> tuple[float, float]:
    """Veto and admit thresholds that do best (F1) on the real papers' out-of-family predictions."""
    inner = [(d, p) for _, train, test in folds_of(docs) for d, p in _held_out(train, test)]
    real = [(d, p) for d, p in inner if d["family"] != "generated"] or inner
    best = (-1.0, 0.0, 1.01)
    for veto in VETOES:
        for admit in ADMITS:
            f = _f1(*counts([d for d, _ in real], [p for _, p in real], veto, admit, "combined"))
            if f > best[0] + 1e-9:
                best = (f, veto, admit)
    return best[1], best[2]


def lpo_probs(train: list[dict], test: list[dict]) -> dict:
    """The held-out papers' probabilities from a model fitted on the others, with thresholds chosen
    inside the training families alone."""
    model = fit(train)
    veto, admit = pick_thresholds(train)
    return {"probs": [doc_probs(model, d) for d in test], "veto": veto, "admit": admit}


def simulate_scores(test: list[dict], res: dict) -> dict:
    out: dict = {"papers": len(test), "veto": res["veto"], "admit": res["admit"]}
    for mode, k in (("rules", "rules"), ("model", "model"), ("combined", "comb")):
        tp, fp, truth = counts(test, res["probs"], res["veto"], res["admit"], mode)
        out.update({f"{k}_tp": tp, f"{k}_fp": fp, "truth": truth,
                    f"{k}_p": round(tp / (tp + fp), 4) if tp + fp else 1.0, f"{k}_r": round(tp / truth, 4) if truth else 1.0})
    return out
