"""`papershelf bench beir`: retrieval quality and latency on any BEIR-format folder.

Builds a temporary library with one paper per corpus document (title + text,
a plain fulltext paper), embeds it, runs every query in each mode with one hit
per paper, and reports nDCG@10, recall@100, MRR@10 and p50/p95 latency.
"""

from __future__ import annotations

import csv
import glob
import json
import os
import tempfile
import time
from collections.abc import Callable

from .document import Block, Document
from .embed.base import ProviderSpec
from .errors import PapershelfError
from .library import Library
from .metrics import bootstrap_ci, mrr_at_k, ndcg_at_k, percentile, recall_at_k
from .models import Paper
from .search import SearchOptions, search_mode


def _pick(folder: str, given: str | None, pattern: str) -> str:
    if given:
        path = given if os.path.isabs(given) else os.path.join(folder, given)
        if not os.path.exists(path):
            raise PapershelfError(f"{path} not found")
        return path
    found = sorted(glob.glob(os.path.join(folder, pattern)) + glob.glob(os.path.join(folder, "qrels", pattern)))
    if not found:
        raise PapershelfError(f"no {pattern} in {folder}")
    return found[0]


def load_beir(folder: str, queries_file: str | None = None, qrels_file: str | None = None):
    corpus_path = _pick(folder, None, "corpus.jsonl")
    queries_path = _pick(folder, queries_file, "queries*.jsonl")
    qrels_path = _pick(folder, qrels_file, "*.tsv")
    with open(corpus_path, encoding="utf-8") as f:
        corpus = [json.loads(line) for line in f if line.strip()]
    with open(queries_path, encoding="utf-8") as f:
        queries = {q["_id"]: q["text"] for q in map(json.loads, filter(str.strip, f))}
    qrels: dict[str, dict[str, int]] = {}
    with open(qrels_path, encoding="utf-8") as f:
        for row in csv.reader(f, delimiter="\t"):
            if not row or row[0] == "query-id":
                continue
            qrels.setdefault(row[0], {})[row[1]] = int(row[2])
    queries = {q: t for q, t in queries.items() if q in qrels}
    return corpus, queries, qrels, {"corpus": corpus_path, "queries": queries_path, "qrels": qrels_path}


def build_library(lib: Library, corpus: list[dict], progress: Callable[[int], None] | None = None) -> None:
    for n, doc in enumerate(corpus):
        title = (doc.get("title") or "").strip() or None
        paper = Paper(id=str(doc["_id"]), title=title, source_format="beir")
        lib.add_document(paper, Document(title=title, blocks=[Block("text", doc.get("text") or "")]))
        if progress:
            progress(n + 1)


def evaluate(lib: Library, queries: dict[str, str], qrels: dict[str, dict[str, int]], mode: str,
             opts: dict | None = None) -> dict:
    ndcg, recall, mrr, latency = [], [], [], []
    notices: set[str] = set()
    checked = search_mode(mode)
    for qid, text in queries.items():
        resp = lib.search(text, SearchOptions(mode=checked, limit=100, per_paper=1, snippets=False, **(opts or {})))
        notices.update(resp.notices)
        # Latency as a person sees it: the default 10 results with snippets.
        t0 = time.perf_counter()
        lib.search(text, SearchOptions(mode=checked, **(opts or {})))
        latency.append((time.perf_counter() - t0) * 1000)
        ranked = [h.paper_id for h in resp.results]
        ndcg.append(ndcg_at_k(ranked, qrels[qid], 10))
        recall.append(recall_at_k(ranked, qrels[qid], 100))
        mrr.append(mrr_at_k(ranked, qrels[qid], 10))
    n = max(1, len(queries))
    lo, hi = bootstrap_ci(ndcg)
    return {"mode": mode, "queries": len(queries), "ndcg@10": round(sum(ndcg) / n, 4),
            "ndcg@10_ci95": [round(lo, 4), round(hi, 4)],
            "recall@100": round(sum(recall) / n, 4), "mrr@10": round(sum(mrr) / n, 4),
            "p50_ms": round(percentile(latency, 50), 2), "p95_ms": round(percentile(latency, 95), 2),
            "notices": sorted(notices)}


def run_beir(folder: str, spec: ProviderSpec, modes: list[str], queries_file: str | None = None,
             qrels_file: str | None = None, workers: int = 1, max_queries: int | None = None,
             library_path: str | None = None, log: Callable[[str], None] = lambda s: None) -> dict:
    corpus, queries, qrels, files = load_beir(folder, queries_file, qrels_file)
    if max_queries:
        queries = dict(list(queries.items())[:max_queries])
    with tempfile.TemporaryDirectory(prefix="papershelf-beir-") as tmp:
        path = library_path or os.path.join(tmp, "beir.db")
        with Library(path) as lib:
            t0 = time.perf_counter()
            if lib.store.count_papers() != len(corpus):
                build_library(lib, corpus)
            t_add = time.perf_counter() - t0
            log(f"library: {len(corpus)} docs in {t_add:.1f}s")
            t_embed = 0.0
            windows = None
            if any(m != "lexical" for m in modes):
                t1 = time.perf_counter()
                report = lib.embed(spec, workers=workers)
                t_embed = time.perf_counter() - t1
                if report.failed:
                    raise PapershelfError(f"{len(report.failed)} documents failed to embed")
                windows = report.space.window_tokens
                log(f"embedded {report.units} units ({report.windows} windows) in {t_embed:.1f}s")
            results = []
            for mode in modes:
                lib.search("warm up", mode=mode)  # load the model and matrices once
                r = evaluate(lib, queries, qrels, mode)
                lo, hi = r["ndcg@10_ci95"]
                log(f"{mode}: nDCG@10 {r['ndcg@10']:.4f} (95% CI {lo:.3f}-{hi:.3f})  recall@100 {r['recall@100']:.4f}  "
                    f"MRR@10 {r['mrr@10']:.4f}  p50 {r['p50_ms']:.1f} ms  p95 {r['p95_ms']:.1f} ms")
                results.append(r)
    return {"dataset": os.path.abspath(folder), "files": files, "documents": len(corpus), "queries": len(queries),
            "provider": spec.provider, "model": spec.model_name, "window_tokens": windows,
            "options": dict(spec.options), "settings": dict(spec.settings),
            "add_seconds": round(t_add, 2),
            "embed_seconds": round(t_embed, 2), "results": results}
