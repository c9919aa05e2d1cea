"""Embedding speed of the local model's backends: torch fp32, ONNX fp32, ONNX int8, in ONE run.

The machine is shared and noisy, so only ratios measured side by side mean much.
Two workloads, each cut into windows exactly as the build does (units ->
embedding_parts -> windows.cut with the model's own token counts):

* the shared PDFs, added to a temporary library;
* a SciFact sample (title + abstract as one plain fulltext unit, as `bench beir`).

Each backend runs in its own subprocess (so its peak RSS, ru_maxrss, is its
own and an ONNX run shows whether torch was imported at all), encodes the
windows in calls of the build's size (provider.preferred_batch) and writes its
vectors; the parent reports windows/s, units/s, peak memory and cosine
agreement with torch, and what share of the tokens encoded are repeats
(the head in every window, the sentence shared by neighbours) or padding.

    python bench/build_speed.py                                  # all of it
    python bench/build_speed.py --runs onnx:32,onnx:64,int8:32  # tune batch sizes (backend:batch)
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("PAPERSHELF_SHARED_DATA", ROOT.parent / "shared" / "data"))
DEFAULT_RUNS = "torch:32,onnx:32,int8:32"


# -- workloads ------------------------------------------------------------------------

def _cut_units(parts: list[tuple[str, str]], provider) -> dict:
    """Windows of each unit as the build cuts them, plus the token accounting of repeats."""
    from papershelf.embed.windows import cut

    count = provider.count_tokens
    texts, sizes = [], []
    head_repeat = shared = 0
    for head, body in parts:
        h, bodies = cut(head, body, provider.window_tokens, count)
        texts += [f"{h}\n{b}" if h else b for b in bodies]
        sizes.append(len(bodies))
        if len(bodies) > 1:
            head_repeat += (count([h])[0] + 1 if h else 0) * (len(bodies) - 1)
            shared += max(0, sum(count(bodies)) - count([body])[0])
    return {"texts": texts, "sizes": sizes, "head_repeat_tokens": head_repeat, "shared_sentence_tokens": shared}


def pdf_parts(folder: Path, tmp: str) -> list[tuple[str, str]]:
    from papershelf import Library
    from papershelf.units import embedding_parts

    with Library(os.path.join(tmp, "pdfs.db")) as lib:
        lib.add([str(folder)])
        out = []
        for pid in lib.store.manifest_paper_ids(with_indexable_units=True):
            paper, _, units = lib.store.paper_snapshot(pid)
            out += [embedding_parts(u, paper["title"]) for u in units if u.indexable]
    return out


def scifact_parts(folder: Path, n: int) -> list[tuple[str, str]]:
    return [((d.get("title") or "").strip(), d.get("text") or "") for d in scifact_docs(folder, n)]


def scifact_docs(folder: Path, n: int) -> list[dict]:
    with open(folder / "corpus.jsonl", encoding="utf-8") as f:
        return [json.loads(line) for line, _ in zip(f, range(n))]


def scifact_queries(folder: Path, n: int) -> dict:
    """Train claims whose judged documents are all in the sample, with their qrels by sample index."""
    from papershelf.beir import load_beir

    _, queries, qrels, _ = load_beir(str(folder))
    index = {str(d["_id"]): i for i, d in enumerate(scifact_docs(folder, n))}
    kept = {q: t for q, t in queries.items() if all(d in index for d in qrels[q])}
    return {"texts": list(kept.values()),
            "qrels": [{str(index[d]): g for d, g in qrels[q].items()} for q in kept]}


def sample_ndcg(windows: np.ndarray, sizes: list[int], queries: np.ndarray, qrels: list[dict]) -> float:
    """Vector-only nDCG@10 over the sample: a document scores by its best window (MaxP), as search does."""
    from papershelf.metrics import ndcg_at_k

    owner = np.repeat(np.arange(len(sizes)), sizes)
    scores = queries @ windows.T
    out = []
    for row, rel in zip(scores, qrels):
        best = np.full(len(sizes), -np.inf)
        np.maximum.at(best, owner, row)
        out.append(ndcg_at_k([str(i) for i in np.argsort(-best)[:10]], rel, 10))
    return float(np.mean(out)) if out else float("nan")


def token_costs(texts: list[str], provider, call: int, batch: int) -> dict:
    """Tokens the model reads (with [CLS]/[SEP]) and the padding the ONNX batching adds
    (texts sorted by length within each call of `call` texts, batches of `batch`)."""
    lengths = [n + 2 for n in provider.count_tokens(texts)]
    padded = 0
    for i in range(0, len(lengths), call):
        chunk = sorted(lengths[i:i + call])
        for j in range(0, len(chunk), batch):
            b = chunk[j:j + batch]
            padded += max(b) * len(b)
    return {"real_tokens": sum(lengths), "padded_tokens": padded}


# -- one backend in its own process -----------------------------------------------------

def _cpu_seconds() -> float:
    """User + system CPU time of this process: less swayed than wall time by other load on the machine."""
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def worker(run: str, texts_file: str, out_prefix: str, threads: int | None) -> None:
    from papershelf.embed.local import LocalProvider

    backend, batch = run.split(":")
    engine = "torch" if backend == "torch" else "onnx"
    quantize = "int8" if backend == "int8" else None  # None: LocalProvider's default, no quantization
    t0 = time.perf_counter()
    p = LocalProvider(batch_size=int(batch), threads=threads, backend=engine, quantize=quantize)
    load = time.perf_counter() - t0
    p.encode(["warm up the session"])
    result = {"run": run, "load_seconds": round(load, 2)}
    with open(texts_file, encoding="utf-8") as f:
        workloads = json.load(f)
    for name, texts in workloads.items():
        t0, c0 = time.perf_counter(), _cpu_seconds()
        parts = [p.encode(texts[i:i + p.preferred_batch]) for i in range(0, len(texts), p.preferred_batch)]
        result[name] = time.perf_counter() - t0
        result[f"{name}_cpu"] = _cpu_seconds() - c0
        np.save(f"{out_prefix}-{name}.npy", np.vstack(parts))
    result["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
    result["torch_imported"] = "torch" in sys.modules
    print(json.dumps(result))


def run_worker(run: str, texts_file: str, out_prefix: str, threads: int | None) -> dict:
    cmd = [sys.executable, __file__, "--worker", run, "--texts", texts_file, "--out", out_prefix]
    if threads:
        cmd += ["--threads", str(threads)]
    env = dict(os.environ, PYTHONPATH=str(ROOT), HF_HUB_OFFLINE="1")
    proc = subprocess.run(cmd, check=False, capture_output=True, text=True, env=env)
    if proc.returncode:
        raise SystemExit(f"{run} failed:\n{proc.stderr[-3000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


# -- the report ---------------------------------------------------------------------------

def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pdfs", default=str(SHARED / "pdfs"))
    ap.add_argument("--scifact", default=str(SHARED / "scifact"))
    ap.add_argument("--scifact-docs", type=int, default=500)
    ap.add_argument("--runs", default=DEFAULT_RUNS, help="backend:batch_size list; backend torch, onnx or int8")
    ap.add_argument("--threads", type=int, default=None, help="ONNX intra-op threads (default: cores)")
    ap.add_argument("--workloads", help="reuse the windows a previous run saved (its workloads.json)")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    ap.add_argument("--texts", help=argparse.SUPPRESS)
    ap.add_argument("--out", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        return worker(args.worker, args.texts, args.out, args.threads)

    from papershelf.embed.local import LocalProvider

    tmp = tempfile.mkdtemp(prefix="papershelf-build-speed-")
    # Make both exports first (this process imports torch to do so); the timed workers then load them.
    LocalProvider(backend="onnx", quantize="int8")
    counter = LocalProvider(backend="onnx")
    if args.workloads:
        with open(args.workloads, encoding="utf-8") as f:
            workloads = json.load(f)
    else:
        workloads = {"pdfs": _cut_units(pdf_parts(Path(args.pdfs), tmp), counter),
                     "scifact": _cut_units(scifact_parts(Path(args.scifact), args.scifact_docs), counter),
                     "scifact_queries": scifact_queries(Path(args.scifact), args.scifact_docs)}
        with open(os.path.join(tmp, "workloads.json"), "w", encoding="utf-8") as f:
            json.dump(workloads, f)
        print(f"windows saved to {tmp}/workloads.json (reuse with --workloads)", file=sys.stderr)
    texts_file = os.path.join(tmp, "texts.json")
    with open(texts_file, "w", encoding="utf-8") as f:
        json.dump({k: w["texts"] for k, w in workloads.items()}, f)  # scifact_queries: timed too, cheaply
    runs = args.runs.split(",")
    results = {run: run_worker(run, texts_file, os.path.join(tmp, run.replace(":", "-")), args.threads)
               for run in runs}
    per_workload: dict[str, dict] = {}
    report: dict[str, object] = {"date": time.strftime("%Y-%m-%d"),
                                 "machine": platform.processor() or platform.machine(),
                                 "cores": os.cpu_count(), "runs": results, "workloads": per_workload}
    reference = next((r for r in runs if r.startswith("torch")), runs[0])
    queries = workloads.pop("scifact_queries", None)
    for name, w in workloads.items():
        ref = np.load(os.path.join(tmp, f"{reference.replace(':', '-')}-{name}.npy"))
        costs = token_costs(w["texts"], counter, LocalProvider.preferred_batch, 32)
        total = costs["padded_tokens"]
        info = {"units": len(w["sizes"]), "windows": len(w["texts"]), **costs,
                "head_repeat_share": round(w["head_repeat_tokens"] / total, 4),
                "shared_sentence_share": round(w["shared_sentence_tokens"] / total, 4),
                "padding_share": round((total - costs["real_tokens"]) / total, 4), "backends": {}}
        for run, r in results.items():
            vec = np.load(os.path.join(tmp, f"{run.replace(':', '-')}-{name}.npy"))
            cos = (vec * ref).sum(axis=1)
            secs = r[name]
            info["backends"][run] = {
                "seconds": round(secs, 2), "cpu_seconds": round(r[f"{name}_cpu"], 1),
                "windows_per_s": round(len(w["texts"]) / secs, 1),
                "units_per_s": round(len(w["sizes"]) / secs, 1),
                f"speedup_vs_{reference}": round(results[reference][name] / secs, 2),
                f"cpu_speedup_vs_{reference}": round(results[reference][f"{name}_cpu"] / r[f"{name}_cpu"], 2),
                "cosine_min": round(float(cos.min()), 6), "cosine_p01": round(float(np.percentile(cos, 1)), 6),
                "cosine_mean": round(float(cos.mean()), 6), "peak_rss_mb": r["peak_rss_mb"],
                "torch_imported": r["torch_imported"], "load_seconds": r["load_seconds"]}
        per_workload[name] = info
    if queries:
        report["scifact_sample_vector_ndcg@10"] = {"queries": len(queries["texts"]), **{
            run: round(sample_ndcg(np.load(os.path.join(tmp, f"{run.replace(':', '-')}-scifact.npy")),
                                   workloads["scifact"]["sizes"],
                                   np.load(os.path.join(tmp, f"{run.replace(':', '-')}-scifact_queries.npy")),
                                   queries["qrels"]), 4) for run in runs}}
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
