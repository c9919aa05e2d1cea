"""A synthetic library of N papers for scale benchmarks, written through the store contract.

Each paper has `units` units (most body, some figure/table objects) of ~60 words
drawn from a Zipf vocabulary (so BM25 has realistic postings), and each unit
1–9 windows of 384-d vectors.  Vectors are clustered the way real embeddings
are: a paper belongs to one of 500 topics, a unit is its topic's centroid plus
noise and a window its unit plus smaller noise; queries are drawn the same way.
Random unclustered vectors would make every neighbour nearly equidistant,
which no real embedding space looks like.

The space is registered as the default local model's (all-MiniLM-L6-v2, 384-d,
windows of 128), so `papershelf search` on the file runs the real query
encoder against it.

    python bench/synthetic_library.py /tmp/lib10k.db --papers 10000
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from papershelf.embed.base import fingerprint
from papershelf.models import Paper, VectorRow
from papershelf.store.sqlite import SQLiteStore
from papershelf.units import RETRIEVAL_POLICY_VERSION, TEXT_FORMAT, Unit, make_manifest

DIM = 384
TOPICS = 500


def _vocabulary(rng: np.random.Generator, size: int = 20000) -> tuple[np.ndarray, np.ndarray]:
    """Words and the cumulative Zipf distribution to draw them from."""
    letters = np.array(list("abcdefghijklmnopqrstuvwxyz"))
    words = sorted({"".join(rng.choice(letters, rng.integers(3, 10))) for _ in range(size * 2)})[:size]
    p = 1.0 / np.arange(1, len(words) + 1)
    return np.array(words), np.cumsum(p / p.sum())


def _words(rng, words: np.ndarray, cdf: np.ndarray, n: int) -> str:
    return " ".join(words[np.minimum(np.searchsorted(cdf, rng.random(n)), len(words) - 1)])


def _unit_vectors(rng, centroid: np.ndarray, windows: int) -> np.ndarray:
    unit = centroid + 0.6 * rng.standard_normal(DIM).astype(np.float32) / np.sqrt(DIM)
    w = unit + 0.35 * rng.standard_normal((windows, DIM)).astype(np.float32) / np.sqrt(DIM)
    return (w / np.linalg.norm(w, axis=1, keepdims=True)).astype(np.float32)


def centroids(seed: int = 0) -> np.ndarray:
    c = np.random.default_rng(seed).standard_normal((TOPICS, DIM)).astype(np.float32)
    return c / np.linalg.norm(c, axis=1, keepdims=True)


def queries(n: int, seed: int = 1) -> np.ndarray:
    """Query vectors drawn like units of a random topic."""
    rng = np.random.default_rng(seed)
    cs = centroids()
    return np.stack([_unit_vectors(rng, cs[rng.integers(TOPICS)], 1)[0] for _ in range(n)])


def _paper(rng, i: int, n_units: int, words, probs) -> tuple[Paper, list[Unit]]:
    pid = f"paper{i:06d}"
    paper = Paper(id=pid, title=_words(rng, words, probs, 8).capitalize(),
                  authors=["A. Author"], year=int(1990 + i % 35), source_format="synthetic")
    units = []
    for n in range(n_units):
        obj = n >= n_units - 3
        text = _words(rng, words, probs, 60)
        if obj:
            kind = "figure" if n % 2 else "table"
            u = Unit(id=f"{pid}:obj:{kind}:{n}", paper_id=pid, kind="object", ordinal=n, text=text,
                     object_kind=kind, object_label=f"{kind.title()} {n}", caption_text=text, token_estimate=80)
        else:
            u = Unit(id=f"{pid}:body:{n}", paper_id=pid, kind="body", ordinal=n, text=text,
                     section_path=f"Section {n}", token_estimate=80)
        u.content_hash = f"h{i}-{n}"
        units.append(u)
    return paper, units


def build(path: str, papers: int, units_per_paper: int = 30, seed: int = 0, log=print) -> None:
    rng = np.random.default_rng(seed)
    words, probs = _vocabulary(rng)
    cs = centroids()
    store = SQLiteStore(path)
    options = {"window_tokens": 128}
    fp = fingerprint("local", "all-MiniLM-L6-v2", DIM, options)
    space = store.ensure_space(fp, "local", "all-MiniLM-L6-v2", DIM, TEXT_FORMAT, RETRIEVAL_POLICY_VERSION, options)
    t0 = time.perf_counter()
    for i in range(papers):
        paper, units = _paper(rng, i, units_per_paper, words, probs)
        manifest = make_manifest(units)
        store.write_paper(paper, units, manifest)
        centroid = cs[rng.integers(TOPICS)]
        rows = [VectorRow("objects" if u.kind == "object" else "body", u.id, u.kind, u.content_hash,
                          manifest.hashes[u.kind], RETRIEVAL_POLICY_VERSION, u.token_estimate, u.section_path,
                          u.object_kind, u.object_label,
                          _unit_vectors(rng, centroid, int(rng.integers(1, 10))).tobytes()) for u in units]
        expected = {k: sum(u.kind == k for u in units) for k in ("body", "object", "chunk")}
        store.write_paper_vectors(space.id, paper.id, rows, manifest.hashes, expected)
        if (i + 1) % 1000 == 0:
            log(f"{i + 1} papers in {time.perf_counter() - t0:.0f}s")
    store.set_setting("embed.space_id", str(space.id))
    store.mark_complete(space.id)
    store.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("path")
    ap.add_argument("--papers", type=int, default=10_000)
    ap.add_argument("--units", type=int, default=30)
    args = ap.parse_args()
    build(args.path, args.papers, args.units)


if __name__ == "__main__":
    main()
