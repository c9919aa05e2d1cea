"""Window formats against main's (format 1), fp32, every comparison in ONE run (issue 42, speed18).

One process embeds copies of two base libraries in each window format asked (the real build: `lib.embed`
with the space's `window_format`) and reads the dev metrics of bench/int8_recipes.py:

* SciFact train, BOTH halves of bench/data/space9_split.json, on one sub-corpus: every abstract a
  train query of either half judges, plus 300 distractors (the first by sha256("space9:" + doc id); space9's
  per-half sub-corpora took 700 by the same rule); vector and hybrid nDCG@10 / MRR@10 per half;
* the figure queries of the half-A (dev) PDFs and the half-A short queries on the 27 shared PDFs
  (int8_recipes `_figure_and_short`: the Zotero ones are left out, as in space9/space10).

Encodings are shared across formats in the run (a window text is encoded once: an in-memory and
on-disk cache keyed by the text's sha1, space10_formats.VectorCache), so a format costs only the
windows it does not share with another.

    python bench/speed18_formats.py prepare --work /tmp/speed18
    python bench/speed18_formats.py run 1,2,5 --work /tmp/speed18
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

import int8_recipes as ir  # noqa: E402
from space10_formats import VectorCache  # noqa: E402

# Distractors beside the judged abstracts: 300, not space9's 700, so that three formats fit one run
# on a shared 2-core machine (the comparison is within the run; absolute nDCG is higher).
DISTRACTORS = 300


def scifact_both():
    """(corpus, {half: queries}, qrels): one sub-corpus for the train queries of both halves."""
    from papershelf.beir import load_beir

    sf = ir.DATA / "scifact"
    corpus, queries, qrels, _ = load_beir(str(sf), None, str(sf / "qrels-train.tsv"))
    halves = {h: {q: t for q, t in queries.items() if q in set(ir.split()["scifact"][h])} for h in ("A", "B")}
    judged = {d for qs in halves.values() for q in qs for d in qrels[q]}
    rest = sorted((hashlib.sha256(f"space9:{d['_id']}".encode()).hexdigest(), d["_id"]) for d in corpus
                  if d["_id"] not in judged)
    keep = judged | {d for _, d in rest[:DISTRACTORS]}
    return [d for d in corpus if d["_id"] in keep], halves, qrels


def prepare(work: Path) -> None:
    from papershelf import Library
    from papershelf.beir import build_library

    work.mkdir(parents=True, exist_ok=True)
    corpus, halves, _ = scifact_both()
    if not (work / "base-sf.db").exists():
        with Library(str(work / "base-sf.tmp")) as lib:
            build_library(lib, corpus)
        os.replace(work / "base-sf.tmp", work / "base-sf.db")
    if not (work / "base-sq.db").exists():
        with Library(str(work / "base-sq.tmp")) as lib:
            lib.add([str(ir.DATA / "pdfs")])
        os.replace(work / "base-sq.tmp", work / "base-sq.db")
    ir.log(f"scifact: {len(corpus)} abstracts, queries A {len(halves['A'])} / B {len(halves['B'])}")


def _embedded(fmt: int, work: Path, base: str, out: dict) -> Path:
    from papershelf import Library
    from papershelf.embed.base import ProviderSpec

    path = work / f"f{fmt}-{base}"
    if not path.exists():
        shutil.copyfile(work / base, path.with_suffix(".tmp"))
        with Library(str(path.with_suffix(".tmp"))) as lib:
            t0, c0 = time.perf_counter(), ir.cpu()
            rep = lib.embed(ProviderSpec("local", None, (("window_format", fmt),)))
            out[f"embed_{base}"] = {"windows": rep.windows, "cpu_s": round(ir.cpu() - c0, 1),
                                    "wall_s": round(time.perf_counter() - t0, 1)}
        os.replace(path.with_suffix(".tmp"), path)
    return path


def _stored(path: Path) -> int:
    import sqlite3

    db = sqlite3.connect(str(path))
    try:
        return int(db.execute("SELECT COALESCE(SUM(LENGTH(vector)), 0) FROM vectors").fetchone()[0]) // (4 * 384)
    finally:
        db.close()


def one_format(fmt: int, work: Path) -> dict:
    from papershelf import Library
    from papershelf.beir import evaluate

    out: dict = {"format": fmt, "load": os.getloadavg(), "started": time.strftime("%H:%M:%S")}
    path = _embedded(fmt, work, "base-sq.db", out)
    out["windows_pdfs"] = _stored(path)
    with Library(str(path)) as lib:
        ir._figure_and_short(lib, out)
    _, halves, qrels = scifact_both()
    path = _embedded(fmt, work, "base-sf.db", out)
    out["windows_scifact"] = _stored(path)
    with Library(str(path)) as lib:
        lib.search("warm up", mode="vector")
        for half, queries in halves.items():
            for mode in ("vector", "hybrid"):
                r = evaluate(lib, queries, {q: qrels[q] for q in queries}, mode)
                out[f"scifact_{half}_{mode}"] = {k: r[k] for k in ("queries", "ndcg@10", "mrr@10", "recall@100")}
    return out


def run(formats: list[int], work: Path) -> None:
    from papershelf.embed.local import LocalProvider

    cache = VectorCache(work / "vectors.bin")
    LocalProvider.encode = cache.wrap(LocalProvider.encode)  # type: ignore[method-assign]
    (work / "results").mkdir(exist_ok=True)
    results = {}
    for fmt in formats:
        ir.log(f"format {fmt}")
        results[fmt] = one_format(fmt, work)
        results[fmt]["cache"] = {"hits": cache.hits, "misses": cache.misses}
        ir.log(json.dumps({k: v for k, v in results[fmt].items() if not k.endswith("ranks")}))
        (work / "results" / f"f{fmt}.json").write_text(json.dumps(results[fmt], indent=1), encoding="utf-8")
    table(work)


def _rows(r: dict) -> dict[str, float]:
    rows = {f"scifact {h} {m} {k}": r[f"scifact_{h}_{m}"][k]
            for h in ("A", "B") for m in ("vector", "hybrid") for k in ("ndcg@10", "mrr@10")}
    rows |= {f"figure {c} {k}": r[f"figure_{c}"][k] for c in ("default", "objects") for k in ("mrr", "hit@1", "hit@5")}
    rows["short answered"] = r["short_answered"]
    return rows


def table(work: Path) -> None:
    rs = {int(f.stem[1:]): json.loads(f.read_text()) for f in sorted((work / "results").glob("f*.json"))}
    if 1 not in rs:
        return
    ref = _rows(rs[1])
    print("| measure | " + " | ".join(f"format {f}" for f in rs) + " |")
    for k, v in ref.items():
        cells = [f"{v:.4f}" if isinstance(v, float) else str(v)]
        for f in list(rs)[1:]:
            w = _rows(rs[f])[k]
            cells.append(f"{w:.4f} ({w - v:+.4f})" if isinstance(w, float) else f"{w} ({w - v:+d})")
        print(f"| {k} | " + " | ".join(cells) + " |")
    for key in ("windows_pdfs", "windows_scifact"):
        print(f"| {key} | " + " | ".join(str(r.get(key)) for r in rs.values()) + " |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("what", choices=("prepare", "run", "table"))
    ap.add_argument("formats", nargs="?", default="1,2,5")
    ap.add_argument("--work", default="/tmp/speed18")
    args = ap.parse_args()
    work = Path(args.work)
    if args.what == "prepare":
        prepare(work)
    elif args.what == "run":
        run([int(f) for f in args.formats.split(",")], work)
    else:
        table(work)


if __name__ == "__main__":
    main()
