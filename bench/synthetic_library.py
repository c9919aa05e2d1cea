"""A synthetic library of N papers for scale benchmarks, written through the store contract.

Each paper has `units` units (most body, some figure/table objects) of ~60 words
drawn from a Zipf vocabulary (so BM25 has realistic postings), and each unit
1–9 windows of 384-d vectors.  Vectors are structured the way real embeddings
are (random unclustered vectors would make every neighbour nearly equidistant):
a shared "domain" direction, one of 2,000 topics whose centroids lie near a
12-d subspace (so topics are graded, not all orthogonal), then paper, unit and
window noise.  The weights were calibrated against real all-MiniLM-L6-v2
windows of 2,065 SciFact abstracts (12k windows): random-pair cosine 0.10±0.12
real vs 0.08±0.14 synthetic, nearest other-unit cosine at ranks 1/10/100/1000
0.65/0.52/0.40/0.27 real vs 0.66/0.48/0.39/0.28 synthetic, adjacent windows
of a unit 0.89 vs 0.91 (at 1 unit per paper, the SciFact shape).  Units of one
paper are closer (cosine ~0.66), as sections of a real paper are.  Queries
are drawn like a one-window unit of a new paper.

The space is registered as the default local model's (all-MiniLM-L6-v2, 384-d,
windows of 128), so `papershelf search` on the file runs the real query
encoder against it.

    python bench/synthetic_library.py /tmp/lib10k.db --papers 10000
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from papershelf.document import Reference
from papershelf.embed.base import fingerprint
from papershelf.models import Paper, PaperSource, VectorRow
from papershelf.store.sqlite import SQLiteStore
from papershelf.units import RETRIEVAL_POLICY_VERSION, TEXT_FORMAT, Unit, make_manifest

DIM = 384
TOPICS = 2000


def _vocabulary(rng: np.random.Generator, size: int = 20000) -> tuple[np.ndarray, np.ndarray]:
    """Words and the cumulative Zipf distribution to draw them from."""
    letters = np.array(list("abcdefghijklmnopqrstuvwxyz"))
    words = sorted({"".join(rng.choice(letters, rng.integers(3, 10))) for _ in range(size * 2)})[:size]
    p = 1.0 / np.arange(1, len(words) + 1)
    return np.array(words), np.cumsum(p / p.sum())


def _words(rng, words: np.ndarray, cdf: np.ndarray, n: int) -> str:
    return " ".join(words[np.minimum(np.searchsorted(cdf, rng.random(n)), len(words) - 1)])


# Calibrated weights (see the module docstring): domain, topic subspace, topic, paper, unit, window.
W_DOMAIN, LATENT_DIM, W_LATENT, W_TOPIC, W_PAPER, W_UNIT, W_WINDOW = 0.38, 12, 0.9, 0.45, 0.45, 0.7, 0.45


def _unit_rows(rng, n: int) -> np.ndarray:
    x = rng.standard_normal((n, DIM)).astype(np.float32)
    return x / np.linalg.norm(x, axis=1, keepdims=True)


def centroids(seed: int = 0) -> np.ndarray:
    """Topic centres (not normalized): the domain direction plus a graded topic position."""
    rng = np.random.default_rng(seed)
    domain = _unit_rows(rng, 1)[0]
    basis = np.linalg.qr(rng.standard_normal((DIM, LATENT_DIM)))[0].astype(np.float32)
    latent = rng.standard_normal((TOPICS, LATENT_DIM)).astype(np.float32)
    latent = (latent / np.linalg.norm(latent, axis=1, keepdims=True)) @ basis.T
    return W_DOMAIN * domain + W_LATENT * latent + W_TOPIC * _unit_rows(rng, TOPICS)


def paper_centre(rng, centroid: np.ndarray) -> np.ndarray:
    return centroid + W_PAPER * _unit_rows(rng, 1)[0]


def _unit_vectors(rng, paper: np.ndarray, windows: int) -> np.ndarray:
    unit = paper + W_UNIT * _unit_rows(rng, 1)[0]
    w = unit + W_WINDOW * _unit_rows(rng, windows)
    return (w / np.linalg.norm(w, axis=1, keepdims=True)).astype(np.float32)


def queries(n: int, seed: int = 1) -> np.ndarray:
    """Query vectors drawn like a one-window unit of a new paper on a random topic."""
    rng = np.random.default_rng(seed)
    cs = centroids()
    return np.stack([_unit_vectors(rng, paper_centre(rng, cs[rng.integers(TOPICS)]), 1)[0] for _ in range(n)])


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


EXTERNAL_PER_TOPIC = 40  # works outside the library each topic's papers draw their references from


def references(rng, i: int, topic: int, earlier: dict[int, list[int]], n: int) -> list[Reference]:
    """A reference list of about `n` entries: a quarter earlier library papers of the same topic (by DOI, so
    the graph links them), the rest works outside the library, most from the paper's own topic (a Zipf
    draw, so a topic's classics are cited often) and a few from anywhere."""
    inside = earlier.get(topic, [])
    cited = list(rng.choice(inside, min(len(inside), n // 4), replace=False)) if inside else []
    dois = [f"10.9999/syn.{j}" for j in cited]
    for _ in range(n - len(dois)):
        t = topic if rng.random() < 0.85 else int(rng.integers(TOPICS))
        dois.append(f"10.9999/ext.{t}.{min(int(rng.zipf(1.6)), EXTERNAL_PER_TOPIC)}")
    return [Reference(n=k + 1, text=f"Work {d}.", doi=d) for k, d in enumerate(dict.fromkeys(dois))]


def build(path: str, papers: int, units_per_paper: int = 30, seed: int = 0, log=print, refs: int = 0) -> None:
    """`refs` > 0: each paper also gets a DOI and a reference list of about that many entries."""
    rng = np.random.default_rng(seed)
    earlier: dict[int, list[int]] = {}
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
        topic = int(rng.integers(TOPICS))
        listed = references(rng, i, topic, earlier, refs) if refs else None
        store.write_paper(paper, units, manifest, listed)
        if refs:
            store.save_source(PaperSource(path=f"synthetic/{paper.id}", paper_id=paper.id, doi=f"10.9999/syn.{i}", added_at=time.time(),
                                          year=paper.year))
            earlier.setdefault(topic, []).append(i)
        centre = paper_centre(rng, cs[topic])
        rows = [VectorRow("objects" if u.kind == "object" else "body", u.id, u.kind, u.content_hash,
                          manifest.hashes[u.kind], RETRIEVAL_POLICY_VERSION, u.token_estimate, u.section_path,
                          u.object_kind, u.object_label,
                          _unit_vectors(rng, centre, int(rng.integers(1, 10))).tobytes()) for u in units]
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
    ap.add_argument("--refs", type=int, default=0, help="reference entries per paper (0: none)")
    args = ap.parse_args()
    build(args.path, args.papers, args.units, refs=args.refs)


if __name__ == "__main__":
    main()
