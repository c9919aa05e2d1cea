"""Metric code against hand-computed values, and the BEIR runner on a tiny hand-made dataset."""

import json
import math
import subprocess
import sys

import pytest

from papershelf.beir import run_beir
from papershelf.metrics import bootstrap_ci, mrr_at_k, ndcg_at_k, percentile, recall_at_k

from .conftest import HASH


def test_ndcg_hand_computed():
    # relevant: a (grade 1) at rank 2, b (grade 2) at rank 3; ideal order b, a
    ranked = ["x", "a", "b"]
    qrels = {"a": 1, "b": 2}
    dcg = 1 / math.log2(3) + 3 / math.log2(4)
    idcg = 3 / math.log2(2) + 1 / math.log2(3)
    assert ndcg_at_k(ranked, qrels, 10) == pytest.approx(dcg / idcg)
    assert ndcg_at_k(["b", "a"], qrels, 10) == pytest.approx(1.0)
    assert ndcg_at_k(["x", "y"], qrels, 10) == 0.0
    assert ndcg_at_k(["x", "a"], qrels, 1) == 0.0


def test_recall_mrr_percentile_hand_computed():
    qrels = {"a": 1, "b": 1, "c": 0}
    assert recall_at_k(["a", "x", "c"], qrels, 100) == 0.5
    assert recall_at_k(["x", "b", "a"], qrels, 2) == 0.5
    assert mrr_at_k(["c", "x", "b"], qrels, 10) == pytest.approx(1 / 3)
    assert mrr_at_k(["c", "x", "b"], qrels, 2) == 0.0
    assert percentile([5, 1, 3, 2, 4], 50) == 3
    assert percentile(list(range(1, 101)), 95) == 95
    lo, hi = bootstrap_ci([0.0, 1.0] * 50)
    assert 0.38 < lo < 0.5 < hi < 0.62
    assert bootstrap_ci([0.7] * 10) == pytest.approx((0.7, 0.7))


def tiny_beir(tmp_path):
    docs = [
        {"_id": "d1", "title": "Coral bleaching", "text": "Heatwaves bleach coral reefs in shallow water."},
        {"_id": "d2", "title": "Macrophages", "text": "IL-6 trans-signalling keeps macrophages inflammatory."},
        {"_id": "d3", "title": "Retrieval", "text": "Reciprocal rank fusion combines BM25 and dense retrieval."},
    ]
    (tmp_path / "corpus.jsonl").write_text("\n".join(json.dumps(d) for d in docs))
    (tmp_path / "queries.jsonl").write_text("\n".join(json.dumps(q) for q in [
        {"_id": "q1", "text": "coral reefs bleach in heatwaves"},
        {"_id": "q2", "text": "IL-6 macrophages"},
        {"_id": "q3", "text": "unjudged query"}]))
    (tmp_path / "qrels.tsv").write_text("query-id\tcorpus-id\tscore\nq1\td1\t1\nq2\td2\t1\n")


def test_beir_runner_on_a_tiny_dataset(tmp_path):
    tiny_beir(tmp_path)
    result = run_beir(str(tmp_path), HASH, ["lexical", "vector", "hybrid"])
    assert result["documents"] == 3 and result["queries"] == 2
    for r in result["results"]:
        assert r["ndcg@10"] == pytest.approx(1.0), r
        assert r["recall@100"] == 1.0 and r["mrr@10"] == 1.0 and r["p50_ms"] > 0


def test_bench_beir_command_takes_a_window_size(tmp_path):
    tiny_beir(tmp_path)
    p = subprocess.run([sys.executable, "-m", "papershelf", "bench", "beir", str(tmp_path), "--provider", "hash",
                        "--window-tokens", "8", "--mode", "hybrid", "--json"], capture_output=True, text=True,
                       timeout=120)
    assert p.returncode == 0, p.stderr
    result = json.loads(p.stdout)
    assert result["window_tokens"] == 8 and result["results"][0]["ndcg@10"] == pytest.approx(1.0)
