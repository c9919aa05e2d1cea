"""Fit a sentence scorer for `ask` (bench/ask_sentence_model.py) on SciFact's training claims, and measure
it on an ask half against ask's own scoring: truth at scale for the sentence ranking.

Each SciFact train claim names the abstract that supports or refutes it and the indices of its rationale
sentences.  The abstract is cut by papershelf's own splitter (the indices line up: the rationale sentences
share twice the words with the claim that their next sentences do); the pool of one claim is its abstract's
sentences plus those of the DISTRACTORS abstracts nearest to the claim (topical sentences that do not answer,
as the passages of a question's other papers).  A listwise logistic model (softmax over the pool, the
rationale sentences its truth, L2; plain gradient steps from zero: deterministic) learns the weights of the
standardized features.  Claims are split 4:1 by their abstract's id; the held-out fifth's top-1 is printed.
No ask question is used for the weights.  With a library, each question of the half is asked once and its
candidates re-scored offline (ask's selection: per-passage limit, near-duplicates folded): right evidence
in the top 3 by ask's score against the model's score plus the passage prior and answer type (weights
PRIOR_WEIGHTS x TYPED_WEIGHT; these two a single abstract cannot teach).

    python bench/ask_sentence_fit.py [--scifact ../shared/data/scifact] [--vectors /tmp/scifact.npz]
                                     [--library LIB.db --half dev]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

sys.path.insert(0, str(ROOT / "bench"))

import ask_sentence_model as S  # noqa: E402

from papershelf.sentences import sentence_spans  # noqa: E402

FEATURES = ("cos", "cos_gap", "cos_rank", "lex", "lex_gap", "lex_rank", "rare", "number", "length")
DISTRACTORS = 8
NEIGHBOUR = 0.2  # as ask.NEIGHBOUR: a sentence's cosine takes this share from its better neighbour
L2 = 0.01
STEPS = 400
PRIOR_WEIGHTS = (1.0, 3.0, 5.0)
TYPED_WEIGHT = 0.5


def load(folder: Path) -> list[dict]:
    """(claim, abstract, sentence spans, rationale indices) for each train claim with rationales."""
    corpus = {}
    for line in (folder / "corpus.jsonl").read_text().splitlines():
        d = json.loads(line)
        corpus[d["_id"]] = d
    items = []
    for line in (folder / "queries-train.jsonl").read_text().splitlines():
        q = json.loads(line)
        for doc, evidence in sorted(q["metadata"].items()):
            if doc not in corpus:
                continue
            text = corpus[doc]["text"]
            spans = sentence_spans(text)
            rationale = sorted({i for e in evidence for i in e["sentences"]})
            if rationale and max(rationale) < len(spans):
                items.append(
                    {"claim": q["text"], "doc": doc, "sentences": [text[a:b] for a, b in spans], "rationale": rationale}
                )
    return items


def vectors(items: list[dict], cache: Path | None) -> tuple[dict, dict]:
    """Unit vectors of the claims and of each abstract's sentences (the default local model), kept in
    `cache` (an .npz) when given: encoding them takes minutes on a busy machine."""
    claims = sorted({it["claim"] for it in items})
    docs = {it["doc"]: it["sentences"] for it in items}
    if cache and cache.exists():
        z = np.load(cache)
        return dict(zip(claims, z["claims"])), {d: z[f"d{d}"] for d in docs}
    from papershelf.embed.local import LocalProvider

    encode = LocalProvider("all-MiniLM-L6-v2").encode

    def unit(x) -> np.ndarray:
        x = np.asarray(x, dtype=np.float32)
        return x / np.linalg.norm(x, axis=1, keepdims=True)

    cv = unit(encode(claims))
    dv = {d: unit(encode(s)) for d, s in sorted(docs.items())}
    if cache:
        arrays: dict = {"claims": cv, **{f"d{d}": v for d, v in dv.items()}}
        np.savez(cache, **arrays)
    return dict(zip(claims, cv)), dv


def with_neighbour(sims: np.ndarray) -> np.ndarray:
    if len(sims) < 2:
        return sims
    pad = np.concatenate([[-1.0], sims, [-1.0]])
    return (1 - NEIGHBOUR) * sims + NEIGHBOUR * np.maximum(pad[:-2], pad[2:])


def pools(items: list[dict], cv: dict, dv: dict) -> list[tuple[np.ndarray, np.ndarray, str]]:
    """Each claim's pool: its features (rows: sentences, columns: FEATURES), the truth, its abstract's id."""
    ids = sorted(dv)
    sentences = {it["doc"]: it["sentences"] for it in items}
    means = np.stack([dv[d].mean(0) / np.linalg.norm(dv[d].mean(0)) for d in ids])
    out = []
    for it in items:
        q = cv[it["claim"]]
        near = [ids[i] for i in np.argsort(-(means @ q), kind="stable") if ids[i] != it["doc"]][:DISTRACTORS]
        sents, cos, truth = [], [], []
        for d in [it["doc"], *near]:
            all_sents = sentences[d]
            keep = [i for i, s in enumerate(all_sents) if len(S._WORD.findall(s)) >= 4]
            sims = with_neighbour(dv[d][keep] @ q)
            sents += [all_sents[i] for i in keep]
            cos.append(sims)
            truth += [1.0 if d == it["doc"] and i in it["rationale"] else 0.0 for i in keep]
        if sum(truth):
            f = S.features(it["claim"], sents, np.concatenate(cos))
            out.append((np.column_stack([f[n] for n in FEATURES]), np.array(truth), it["doc"]))
    return out


def fit(train: list, l2: float = L2, steps: int = STEPS) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Weights of the listwise model (Adam steps from zero on the mean negative log of the rationale's
    softmax share), with the features' means and scales."""
    stacked = np.concatenate([x for x, _, _ in train])
    mean, scale = stacked.mean(0), stacked.std(0) + 1e-9
    zs = [((x - mean) / scale, y) for x, y, _ in train]
    w = np.zeros(len(mean))
    m1, m2 = np.zeros_like(w), np.zeros_like(w)
    for t in range(1, steps + 1):
        g = l2 * w
        for z, y in zs:
            s = z @ w
            p = np.exp(s - s.max())
            p /= p.sum()
            pos = p * y / (p * y).sum()
            g += z.T @ (p - pos) / len(zs)
        m1 = 0.9 * m1 + 0.1 * g
        m2 = 0.999 * m2 + 0.001 * g * g
        w -= 0.1 * (m1 / (1 - 0.9**t)) / (np.sqrt(m2 / (1 - 0.999**t)) + 1e-8)
    return w, mean, scale


def top1(data: list, w: np.ndarray, mean: np.ndarray, scale: np.ndarray) -> float:
    return sum(y[np.argmax(((x - mean) / scale) @ w)] > 0 for x, y, _ in data) / max(1, len(data))


def held_out(doc: str) -> bool:
    return int(hashlib.sha256(doc.encode()).hexdigest(), 16) % 5 == 0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scifact", default=str(ROOT.parent / "shared" / "data" / "scifact"))
    ap.add_argument("--vectors", help="an .npz keeping the SciFact vectors between runs")
    ap.add_argument("--library", help="measure on this library's ask questions (bench/ask_eval.py's)")
    ap.add_argument("--half", choices=("dev", "test"), default="dev")
    args = ap.parse_args()
    folder = Path(args.scifact)
    if not (folder / "queries-train.jsonl").exists():
        sys.exit(f"no SciFact train split at {folder} (see ../shared/data/README.md)")
    items = load(folder)
    cv, dv = vectors(items, Path(args.vectors) if args.vectors else None)
    data = pools(items, cv, dv)
    train = [p for p in data if not held_out(p[2])]
    test = [p for p in data if held_out(p[2])]
    base = [FEATURES.index("cos")]
    wb, mb, sb = fit([(x[:, base], y, d) for x, y, d in train])
    w, mean, scale = fit(train)
    print(
        json.dumps(
            {
                "claims": len(data),
                "train": len(train),
                "held_out": len(test),
                "top1_cosine_held_out": round(top1([(x[:, base], y, d) for x, y, d in test], wb, mb, sb), 3),
                "top1_model_held_out": round(top1(test, w, mean, scale), 3),
                "weights": dict(zip(FEATURES, np.round(w, 3).tolist())),
            }
        )
    )
    if args.library:
        import ask_rescore

        model = {"features": list(FEATURES), "mean": mean.tolist(), "scale": scale.tolist(), "coef": w.tolist()}
        print(json.dumps(ask_rescore.measure(args.library, args.half, model, PRIOR_WEIGHTS, TYPED_WEIGHT)))


if __name__ == "__main__":
    main()
