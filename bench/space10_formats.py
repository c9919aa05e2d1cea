"""Quality of lighter window formats on the DEV half (issue 42, space10): space9's libraries, fp32.

space9 (docs/measurements/space9.md) counted the tokens each window format encodes but never measured
its quality.  This embeds copies of space9's two half-A base libraries (the SciFact sub-corpus and the
27 shared PDFs) with the default fp32 model in a lighter format (bench/int8_recipes.py `FORMATS`) and
reads the same dev metrics as space9's fp32 reference (`variant fp32`: main's format).

Encodings are shared across formats: every window text's vector is kept on disk (`vectors.bin`:
sha1 of the text + 384 float32s a record, appended as encoded), seeded from space9's fp32 libraries
(main's windows re-cut from the units, checked against the stored window count), so a window a
lighter format shares with main's (a unit that fits one window; with the head in every window, a
unit's first window) is never encoded twice.

    python bench/space10_formats.py prepare --work /tmp/space10      # copies /tmp/space9's libraries
    python bench/space10_formats.py variant fmt-headfirst-noshare --work /tmp/space10
    python bench/space10_formats.py variant fp32 --work /tmp/space10  # main's format, evaluated again

Half B (spaceB: the held-out confirmation, read once): a work directory with copies of the PDF
libraries and the vector cache, then `prepare --half B` (half B's SciFact sub-corpus) and
`variant fp32|fmt-noshare --half B`; the figure and short queries of half B run on the same 27-PDF
libraries, and SciFact windows already in the cache are not encoded again.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import sqlite3
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

import int8_recipes as ir  # noqa: E402

DIM = 384
RECORD = 20 + 4 * DIM


def _key(text: str) -> bytes:
    return hashlib.sha1(text.encode("utf-8")).digest()


class VectorCache:
    """Window text -> fp32 vector, on disk, appended as encoded."""

    def __init__(self, path: Path):
        self.path = path
        self.vectors: dict[bytes, np.ndarray] = {}
        if path.exists():
            raw = path.read_bytes()
            for i in range(0, len(raw) - RECORD + 1, RECORD):
                self.vectors[raw[i:i + 20]] = np.frombuffer(raw[i + 20:i + RECORD], dtype=np.float32)
        self.hits = self.misses = 0

    def add(self, texts: list[str], vectors: np.ndarray) -> None:
        with self.path.open("ab") as f:
            for t, v in zip(texts, vectors):
                k = _key(t)
                if k not in self.vectors:
                    self.vectors[k] = np.asarray(v, dtype=np.float32)
                    f.write(k + self.vectors[k].tobytes())

    def wrap(self, encode):
        def cached(provider, texts: list[str]) -> np.ndarray:
            keys = [_key(t) for t in texts]
            todo = [i for i, k in enumerate(keys) if k not in self.vectors]
            self.hits += len(texts) - len(todo)
            self.misses += len(todo)
            if todo:
                self.add([texts[i] for i in todo], encode(provider, [texts[i] for i in todo]))
            return np.stack([self.vectors[k] for k in keys])
        return cached


def _units(lib_path: Path) -> dict[str, tuple[str, str]]:
    from papershelf import Library
    from papershelf.units import embedding_parts

    out: dict[str, tuple[str, str]] = {}
    with Library(str(lib_path)) as lib:
        for pid in lib.store.manifest_paper_ids():
            paper, _, us = lib.store.paper_snapshot(pid)
            out |= {u.id: embedding_parts(u, paper.title) for u in us if u.indexable}
    return out


def seed(work: Path, cache: VectorCache) -> dict:
    """main's windows and their stored vectors from space9's fp32 libraries."""
    from papershelf.embed.local import LocalProvider
    from papershelf.embed.windows import windows

    p = LocalProvider()
    out: dict = {}
    for base in ("base-sq.db", "base-sf.db"):
        units = _units(work / base)
        db = sqlite3.connect(str(work / f"fp32-{base}"))
        texts: list[str] = []
        vecs: list[np.ndarray] = []
        bad = 0
        for uid, blob in db.execute("SELECT unit_id, vector FROM vectors"):
            v = np.frombuffer(blob, dtype=np.float32).reshape(-1, DIM)
            ws = windows(*units[uid], p.window_tokens, p.count_tokens)
            if len(ws) != len(v):
                bad += 1
                continue
            texts += ws
            vecs.append(v)
        db.close()
        cache.add(texts, np.concatenate(vecs))
        # The stored vectors must be what this code's fp32 model gives the same texts.
        probe = texts[:: max(1, len(texts) // 32)][:32]
        fresh = p.encode(probe)
        stored = np.stack([cache.vectors[_key(t)] for t in probe])
        out[base] = {"windows": len(texts), "units_mismatched": bad,
                     "recheck_cos_min": round(float((fresh * stored).sum(axis=1).min()), 6)}
        ir.log(f"seed {base}: {out[base]}")
    return out


def prepare(work: Path, src: Path) -> None:
    work.mkdir(parents=True, exist_ok=True)
    for name in ("base-sf.db", "base-sq.db", "fp32-base-sf.db", "fp32-base-sq.db"):
        if not (work / name).exists():
            shutil.copyfile(src / name, work / name)
    cache = VectorCache(work / "vectors.bin")
    (work / "seed.json").write_text(json.dumps(seed(work, cache), indent=1), encoding="utf-8")


def variant(name: str, work: Path) -> None:
    from papershelf.embed.local import LocalProvider

    cache = VectorCache(work / "vectors.bin")
    LocalProvider.encode = cache.wrap(LocalProvider.encode)  # type: ignore[method-assign]
    if name in ir.FORMATS:
        ir.patch_format(name)
    elif name != "fp32":
        sys.exit(f"unknown variant {name}")
    result: dict = {"variant": name, "half": ir.HALF, "load": os.getloadavg(), "started": time.strftime("%H:%M:%S")}
    result["quality"] = ir.quality(name, work)
    result["cache"] = {"hits": cache.hits, "misses": cache.misses}
    ir.log(json.dumps({k: v for k, v in result["quality"].items() if not k.endswith("ranks")} | result["cache"]))
    (work / "results").mkdir(exist_ok=True)
    (work / "results" / f"{ir.tag(name)}.json").write_text(json.dumps(result, indent=1), encoding="utf-8")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("what", choices=("prepare", "variant", "table"))
    ap.add_argument("name", nargs="?")
    ap.add_argument("--work", default="/tmp/space10")
    ap.add_argument("--src", default="/tmp/space9", help="space9's work directory (its libraries)")
    ap.add_argument("--half", choices=("A", "B"), default="A",
                    help="B: the held-out half, read once (its SciFact sub-corpus: `prepare --half B`)")
    args = ap.parse_args()
    ir.HALF = args.half
    work = Path(args.work)
    if args.what == "prepare" and args.half != "A":
        ir.prepare(work)  # half B's SciFact sub-corpus (no vectors); the PDF libraries are half A's
    elif args.what == "prepare":
        prepare(work, Path(args.src))
    elif args.what == "variant":
        variant(args.name, work)
    else:
        for f in sorted((work / "results").glob("*.json")):
            r = json.loads(f.read_text())
            q = {k: v for k, v in r.get("quality", {}).items() if not k.endswith("ranks")}
            print(f.stem, json.dumps(q), json.dumps(r.get("cache")))


if __name__ == "__main__":
    main()
