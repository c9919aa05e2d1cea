"""An experiment for `ask` (docs/measurements/ask17.md; not shipped: it did not help): a word-association
term learned from data made at scale, none of it an ask question, read as one more feature of ask's ranker.

The term is a bilinear score q'W s of two bags of words: the question's and the sentence's content words, each
word the mean of MiniLM's input token vectors (the embedding table of the exported ONNX model: context-free,
so any word has one), weighted by its rarity in the pool.  W (384 x 384) is fitted by a listwise softmax over
pools whose right sentences are known, on top of the MiniLM cosine and the word overlap (fitted first, so that
W learns what they miss: "headcount" against "participants"):
  - SciFact's training claims, their rationale sentences against the abstract's other sentences and those of
    the 8 abstracts nearest the claim (bench/ask_sentence_fit.py's pools);
  - the section headings of the library's Zotero dev papers against the sentences under them (positives) and
    the paper's other sections' sentences (negatives).  Not the pdfs/ dev papers: the terse set asks about them.
The ranker is then judged leave-set-out on an ask_learn dump with the term's columns added.

    python bench/ask_assoc_fit.py LIBRARY.db DUMP.pkl --model-dir EXPORT_DIR [--scifact DIR] [--vectors NPZ]
"""

from __future__ import annotations

import argparse
import functools
import json
import pickle
import random
import re
import sqlite3
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import ask_learn as L  # noqa: E402
import ask_sentence_fit as F  # noqa: E402
from pdf_authors_zotero import half_of  # noqa: E402
from queryset import DEFAULT_DATA  # noqa: E402

from papershelf import ask_rank as R  # noqa: E402
from papershelf.ingest.zotero import read_zotero  # noqa: E402
from papershelf.search.query import STOPWORDS  # noqa: E402
from papershelf.sentences import sentence_spans  # noqa: E402

WORD = re.compile(r"[^\W\d_]{2,}")
NUMBERING = re.compile(r"^[\dA-Z]{0,3}(?:\.\d+)*\.?\s+")


class Bags:
    """Rarity-weighted bags of word vectors (MiniLM's input token table, a word the mean of its pieces)."""

    def __init__(self, model_dir: Path) -> None:
        import onnx
        from onnx import numpy_helper
        from tokenizers import Tokenizer

        graph = onnx.load(str(model_dir / "model.onnx")).graph
        self.table = next(numpy_helper.to_array(t) for t in graph.initializer if "word_embeddings" in t.name)
        self.tok = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
        self.tok.no_padding()
        self.tok.no_truncation()
        self.vector = functools.lru_cache(maxsize=200_000)(self._vector)

    def _vector(self, word: str) -> np.ndarray:
        return self.table[self.tok.encode(word, add_special_tokens=False).ids].mean(0)

    def __call__(self, question: str, sentences: list[str]) -> tuple[np.ndarray, np.ndarray]:
        held = [set(words(s)) for s in sentences]
        df: dict[str, int] = {}
        for ws in held:
            for w in ws:
                df[w] = df.get(w, 0) + 1

        def bag(ws: set[str]) -> np.ndarray:
            if not ws:
                return np.zeros(self.table.shape[1])
            order = sorted(ws)
            a = np.array([np.log(1 + len(held) / (1 + df.get(w, 0))) for w in order])
            return (a / a.sum()) @ np.stack([self.vector(w) for w in order])

        return bag(set(words(question))), np.stack([bag(ws) for ws in held])


def words(text: str) -> list[str]:
    return [w for w in WORD.findall(text.lower()) if w not in STOPWORDS]


def overlap(question: str, sentences: list[str]) -> np.ndarray:
    q = set(words(question))
    return np.array([len(q & set(words(s))) / max(1, len(q)) for s in sentences])


def scifact_pools(folder: Path, bags: Bags, cache: Path | None) -> list[dict]:
    items = F.load(folder)
    cv, dv = F.vectors(items, cache)
    ids, text = sorted(dv), {it["doc"]: it["sentences"] for it in items}
    means = np.stack([dv[d].mean(0) / np.linalg.norm(dv[d].mean(0)) for d in ids])
    out = []
    for it in items:
        q = cv[it["claim"]]
        near = [ids[i] for i in np.argsort(-(means @ q), kind="stable") if ids[i] != it["doc"]][:F.DISTRACTORS]
        sents, cos, truth = [], [], []
        for d in [it["doc"], *near]:
            keep = [i for i, s in enumerate(text[d]) if len(s.split()) >= 4]
            sents += [text[d][i] for i in keep]
            cos.append(dv[d][keep] @ q)
            truth += [float(d == it["doc"] and i in it["rationale"]) for i in keep]
        if sum(truth):
            qb, sb = bags(it["claim"], sents)
            out.append({"qb": qb, "sb": sb, "cos": np.concatenate(cos), "lex": overlap(it["claim"], sents),
                        "y": np.array(truth)})
    return out


def heading_pools(library: str, zotero: str, bags: Bags) -> list[dict]:
    """A heading -> up to 8 of its sentences against up to 60 of the paper's other sections' (Zotero dev papers)."""
    dev = {a.path for a in read_zotero(zotero) if a.exists and half_of(a.key) == "dev"}
    db = sqlite3.connect(f"file:{library}?mode=ro", uri=True)
    rng, out = random.Random(0), []
    papers = [pid for pid, path in db.execute("select id, source_path from papers") if path in dev]
    for pid in papers:
        secs: dict[str, list[str]] = {}
        for title, text in db.execute("select section_title, text from body_units where paper_id = ? and indexable = 1 "
                                      "order by ordinal", (pid,)):
            t = NUMBERING.sub("", title or "").strip()
            if words(t) and not t.lower().startswith("reference"):
                secs.setdefault(t, []).extend(s for s in (text[a:b] for a, b in sentence_spans(text))
                                              if len(s.split()) >= 4)
        for t, pos in secs.items():
            others = [s for u, ss in secs.items() if u != t for s in ss]
            if pos and len(others) >= 10:
                pos, neg = rng.sample(pos, min(8, len(pos))), rng.sample(others, min(60, len(others)))
                qb, sb = bags(t, pos + neg)
                out.append({"qb": qb, "sb": sb, "cos": np.zeros(len(pos) + len(neg)), "lex": overlap(t, pos + neg),
                            "y": np.r_[np.ones(len(pos)), np.zeros(len(neg))]})
    return out


def fit(pools: list[dict], l2: float, steps: int, lr: float, b: np.ndarray, learn_w: bool) -> tuple[np.ndarray, ...]:
    """Adam steps on the mean listwise loss of score = b . (cos, overlap) + q'W s (W only when `learn_w`)."""
    d = pools[0]["qb"].shape[0]
    w, b = np.zeros((d, d)), b.copy()
    q = np.stack([p["qb"] for p in pools])
    moments = [[np.zeros_like(w), np.zeros_like(w)], [np.zeros_like(b), np.zeros_like(b)]]
    for t in range(1, steps + 1):
        gw, gb, rows = l2 * w, np.zeros_like(b), []
        for p in pools:
            f = np.column_stack([p["cos"], p["lex"]])
            s = f @ b + p["sb"] @ (w.T @ p["qb"])
            e = np.exp(s - s.max())
            r = e / e.sum() - p["y"] / p["y"].sum()
            gb += f.T @ r / len(pools)
            rows.append(r @ p["sb"])
        if learn_w:
            gw += q.T @ np.stack(rows) / len(pools)
        for x, g, (m, v) in ((w, gw, moments[0]), (b, gb, moments[1])):
            m *= 0.9
            m += 0.1 * g
            v *= 0.999
            v += 0.001 * g * g
            x -= lr * (m / (1 - 0.9 ** t)) / (np.sqrt(v / (1 - 0.999 ** t)) + 1e-8)
    return w, b


def leave_set_out(recs: list[dict], xs: list[np.ndarray], names: tuple[str, ...]) -> dict:
    sets = sorted({r["q"]["set"] for r in recs})
    res = {}
    for g in sets:
        tr = [i for i, r in enumerate(recs) if r["q"]["set"] != g and any(r["right"])]
        m = L.fit_ranker([xs[i] for i in tr], [np.array(recs[i]["right"], float) for i in tr], L.L2, names)
        held = [i for i, r in enumerate(recs) if r["q"]["set"] == g and r["q"]["answerable"] and r["cands"]]
        res[g] = sum(L.top3(recs[i]["cands"], R.scores(xs[i], m), recs[i]["right"]) for i in held)
    return res


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("library")
    ap.add_argument("dump", help="bench/ask_learn.py --dump's file")
    ap.add_argument("--model-dir", required=True, help="the ONNX export of all-MiniLM-L6-v2 (model.onnx, tokenizer.json)")
    ap.add_argument("--scifact", default=str(DEFAULT_DATA / "scifact"))
    ap.add_argument("--vectors", help="an .npz keeping SciFact's sentence vectors (ask_sentence_fit.vectors)")
    ap.add_argument("--zotero", default=str(DEFAULT_DATA / "zotero"))
    args = ap.parse_args()
    bags = Bags(Path(args.model_dir))
    pools = scifact_pools(Path(args.scifact), bags, Path(args.vectors) if args.vectors else None) + heading_pools(args.library, args.zotero, bags)
    _, b0 = fit(pools, 1e-3, 200, 0.05, np.zeros(2), learn_w=False)
    w, _ = fit(pools, 1e-3, 300, 0.03, b0, learn_w=True)
    recs = pickle.loads(Path(args.dump).read_bytes())
    R.FEATURES = (*R.FEATURES, "assoc")  # type: ignore[assignment]  # the experiment's column, last
    xs = []
    for r in recs:
        base = L.featurize(r) if r["cands"] else np.zeros((0, len(R.FEATURES) - 1))
        if r["cands"]:
            qb, sb = bags(r["q"]["question"], [c.unit.text[c.start:c.end] for c in r["cands"]])
            base = np.column_stack([base, sb @ (w.T @ qb)])
        xs.append(base if r["cands"] else np.zeros((0, len(R.FEATURES))))
    for names in (L.RANKER_FEATURES, (*L.RANKER_FEATURES, "assoc")):
        res = leave_set_out(recs, xs, names)
        print(json.dumps({"features": names[-1], "top3": res, "total": sum(res.values())}), flush=True)


if __name__ == "__main__":
    main()
