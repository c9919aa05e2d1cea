"""An experiment for `ask` (docs/measurements/ask18.md; not shipped: it did not help): an unlearned max-sim of the
question's words to the sentence's words, read as one more feature of ask's sentence ranker (and of the refusal's).

Each question word (its content words, not how it asks: ask_refusal._ASKING), weighted by its rarity among the
question's candidate sentences, is matched to the sentence word it is closest to; the score is the weighted mean of
those best cosines (a "headcount" question meets "participants" half way, where word overlap gives nothing).
Two kinds of word vectors, both from the library's own model, nothing downloaded:
  - `encoded`: each word encoded alone by the library's embedding model (the sentence model on a one-word text);
  - `static`: the mean of MiniLM's input token vectors of the word's pieces (the ONNX export's word_embeddings).
Feature forms: `ms` (the sentence alone), `ms_win` (each question word's best over the sentence and its same-unit
neighbours), `ms_rank` (the sentence's rank by `ms` among the candidates, log-scaled).  Judged on an ask_learn dump
(`bench/ask_learn.py LIB --dump D`) leave-set-out as ask_learn does, the terse set held out like every set; the
refusal (agree+cover, its own ranker refitted per fold) with and without the feature in its ranker.

    python bench/ask_maxsim.py DUMP.pkl --vectors WV.npz [--static EXPORT_DIR [--pca 96]]
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import ask_learn as L  # noqa: E402
from ask_refusal_fit import predict  # noqa: E402

from papershelf import ask_rank as R  # noqa: E402
from papershelf.ask_refusal import _ASKING  # noqa: E402
from papershelf.search.query import STOPWORDS  # noqa: E402

WORD = re.compile(r"[^\W\d_]{2,}")
EXTRA = ("ms", "ms_win", "ms_rank")


def words(text: str, asking: bool = False) -> list[str]:
    return sorted({w for w in WORD.findall(text.lower()) if w not in STOPWORDS and not (asking and w in _ASKING)})


def vocabulary(recs: list[dict]) -> list[str]:
    out: set[str] = set()
    for r in recs:
        out.update(words(r["q"]["question"]))
        for c in r["cands"]:
            out.update(words(c.unit.text[c.start:c.end]))
    return sorted(out)


def encoded_vectors(vocab: list[str]) -> np.ndarray:
    """Each word encoded alone by the library's model (ask16-18 libraries: local/all-MiniLM-L6-v2)."""
    from papershelf.embed.local import LocalProvider

    p = LocalProvider("all-MiniLM-L6-v2")
    return np.concatenate([np.asarray(p.encode(vocab[i:i + 512]), np.float32) for i in range(0, len(vocab), 512)])


def static_vectors(vocab: list[str], export: Path, pca: int = 0) -> np.ndarray:
    """The mean of the word's pieces' input token vectors (the fp32 export's embedding table), projected on the
    table's first `pca` principal directions when given (ask17's P0: 96)."""
    import onnx
    from onnx import numpy_helper
    from tokenizers import Tokenizer

    table = next(numpy_helper.to_array(t) for t in onnx.load(str(export / "model.onnx")).graph.initializer
                 if "word_embeddings" in t.name)
    tok = Tokenizer.from_file(str(export / "tokenizer.json"))
    tok.no_padding()
    tok.no_truncation()
    table = table / np.linalg.norm(table, axis=1, keepdims=True)
    if pca:
        table = table @ np.linalg.svd(table[::3], full_matrices=False)[2][:pca].T
    return np.stack([table[tok.encode(w, add_special_tokens=False).ids].mean(0) for w in vocab])


def maxsim(rec: dict, table: np.ndarray, index: dict[str, int]) -> np.ndarray:
    """Per candidate: ms, ms_win, ms_rank (EXTRA)."""
    cands = rec["cands"]
    sw = [words(c.unit.text[c.start:c.end]) for c in cands]
    qw = words(rec["q"]["question"], asking=True)
    n = len(cands)
    if not qw or not n:
        return np.zeros((n, 3))
    df: dict[str, int] = {}
    for ws in sw:
        for w in ws:
            df[w] = df.get(w, 0) + 1
    a = np.array([np.log(1 + n / (1 + df.get(w, 0))) for w in qw])
    a /= a.sum()
    q = table[[index[w] for w in qw]]
    best = np.zeros((n, len(qw)))
    for k, ws in enumerate(sw):
        if ws:
            best[k] = (q @ table[[index[w] for w in ws]].T).max(axis=1)
    unit = np.array([c.unit.id for c in cands])
    prev = np.where(np.r_[False, unit[1:] == unit[:-1]][:, None], np.vstack([best[:1] * 0, best[:-1]]), 0)
    after = np.where(np.r_[unit[1:] == unit[:-1], False][:, None], np.vstack([best[1:], best[:1] * 0]), 0)
    ms = best @ a
    return np.column_stack([ms, np.maximum(best, np.maximum(prev, after)) @ a, R._ranks(ms)])


def top3_by_set(recs: list[dict], xs: list[np.ndarray], names: tuple[str, ...]) -> dict[str, int]:
    out = {}
    for g in sorted({r["q"]["set"] for r in recs}):
        train = [i for i, r in enumerate(recs) if r["q"]["set"] != g and any(r["right"])]
        m = L.fit_ranker([xs[i] for i in train], [np.array(recs[i]["right"], float) for i in train], L.L2, names)
        held = [i for i, r in enumerate(recs) if r["q"]["set"] == g and r["q"]["answerable"] and r["cands"]]
        if held:
            out[g.split("-")[0]] = sum(L.top3(recs[i]["cands"], R.scores(xs[i], m), recs[i]["right"]) for i in held)
    return out


def _set(rec: dict) -> str:
    return rec["q"]["set"]


def refusal(recs: list[dict], xs: list[np.ndarray], own: tuple[str, ...]) -> dict:
    """agree+cover leave-set-out, its ranker (`own` features) refitted per fold; right / wrong top 3 flagged."""
    saved, L.REFUSAL_RANKER_FEATURES = L.REFUSAL_RANKER_FEATURES, own
    try:
        folds = L.fold_rankers(recs, xs, _set)
    finally:
        L.REFUSAL_RANKER_FEATURES = saved
    names = L.REFUSAL_SETS["agree+cover"]
    y = np.array([int(r["q"]["answerable"]) for r in recs])
    counts = {"unanswerable": 0, "right_top3": 0, "wrong_top3": 0}
    for g, (scores, rows) in folds.items():
        train = [i for i, r in enumerate(recs) if _set(r) != g and rows[i] is not None]
        m = L.fit_refusal(np.array([[rows[i][n] for n in names] for i in train], float), y[train], names)
        for i, r in enumerate(recs):
            if _set(r) == g and rows[i] is not None:
                if predict(m, np.array([[rows[i][n] for n in names]], float))[0] >= m["cut"]:
                    continue
                name = "unanswerable" if not y[i] else \
                    "right_top3" if L.top3(r["cands"], scores[i], r["right"]) else "wrong_top3"
                counts[name] += 1
    return {**counts, "answerable": counts["right_top3"] + counts["wrong_top3"],
            "of (unanswerable, answerable)": (int((y == 0).sum()), int(y.sum()))}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dump")
    ap.add_argument("--vectors", required=True, help="the dump's word vectors (.npz), made when absent")
    ap.add_argument("--static", type=Path, help="an fp32 ONNX export directory: static token vectors")
    ap.add_argument("--pca", type=int, default=0, help="static vectors projected on this many principal directions")
    args = ap.parse_args()
    import pickle

    recs = pickle.loads(Path(args.dump).read_bytes())
    if not Path(args.vectors).exists():
        vocab = vocabulary(recs)
        t = time.perf_counter()
        vecs = static_vectors(vocab, args.static, args.pca) if args.static else encoded_vectors(vocab)
        print(f"{len(vocab)} words in {time.perf_counter() - t:.1f} s", flush=True)
        np.savez(args.vectors, words=np.array(vocab), vectors=vecs.astype(np.float16))
    z = np.load(args.vectors)
    index = {w: i for i, w in enumerate(z["words"].tolist())}
    table = z["vectors"].astype(np.float32)
    table /= np.maximum(np.linalg.norm(table, axis=1, keepdims=True), 1e-9)
    base = [L.featurize(r) if r["cands"] else np.zeros((0, len(R.FEATURES))) for r in recs]
    t = time.perf_counter()
    extra = [maxsim(r, table, index) for r in recs]
    print(f"max-sim: {1000 * (time.perf_counter() - t) / len(recs):.1f} ms per question (Python, words read anew)")
    R.FEATURES = (*R.FEATURES, *EXTRA)  # type: ignore[assignment]
    xs = [np.column_stack([b, e]) if len(b) else np.zeros((0, len(R.FEATURES))) for b, e in zip(base, extra)]
    for label, names in (("shipped", L.RANKER_FEATURES), *((f"+ {'+'.join(v)}", L.RANKER_FEATURES + v)
                                                         for v in (("ms",), ("ms_win",), ("ms_rank",),
                                                                   ("ms", "ms_rank"), ("ms_win", "ms_rank")))):
        got = top3_by_set(recs, xs, names)
        print(f"top 3 leave-set-out, {label}: {got} total {sum(got.values())}", flush=True)
    alone = {}
    for g in sorted({r["q"]["set"] for r in recs}):
        held = [i for i, r in enumerate(recs) if r["q"]["set"] == g and any(r["right"])]
        if held:
            alone[g.split("-")[0]] = sum(L.top3(recs[i]["cands"], extra[i][:, 0], recs[i]["right"]) for i in held)
    print("top 3 by ms alone:", alone)
    for label, own in (("refusal, shipped ranker", L.REFUSAL_RANKER_FEATURES),
                       ("refusal, its ranker + ms", L.REFUSAL_RANKER_FEATURES + ("ms",))):
        print(label, refusal(recs, xs, own), flush=True)


if __name__ == "__main__":
    main()
