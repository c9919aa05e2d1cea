"""CPU of the local model's int8 ONNX weights against fp32 on the same texts, in one process, in turn.

Both encoders are loaded first (the int8 export is written once into papershelf's cache); then each
round encodes the same texts with fp32 and with int8, alternating, and the process CPU seconds of
each pass are compared pair by pair (CPU, not wall: the machine is shared and its load moves).
Texts: the first N SciFact abstracts, each cut to about 90 words (a build's window is 128 wordpieces).

    python bench/int8_cpu.py ../shared/data/scifact --texts 300 --rounds 3
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from pathlib import Path

from papershelf.embed.local import resolve_model_path
from papershelf.embed.onnx import OnnxEncoder

MODEL = "all-MiniLM-L6-v2"


def texts(folder: Path, n: int, words: int = 90) -> list[str]:
    out = []
    with open(folder / "corpus.jsonl", encoding="utf-8") as f:
        for line in f:
            doc = json.loads(line)
            out.append(" ".join(f"{doc.get('title', '')} {doc.get('text', '')}".split()[:words]))
            if len(out) == n:
                break
    return out


def cpu_of(encoder: OnnxEncoder, batch: list[str]) -> float:
    t = time.process_time()
    encoder.encode(batch)
    return time.process_time() - t


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("folder", help="a BEIR folder with corpus.jsonl (SciFact)")
    ap.add_argument("--texts", type=int, default=300)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--threads", type=int, default=None, help="ONNX threads (default: every core)")
    args = ap.parse_args()
    batch = texts(Path(args.folder), args.texts)
    model_dir = Path(resolve_model_path(MODEL))
    fp32 = OnnxEncoder(MODEL, model_dir, None, args.threads)
    int8 = OnnxEncoder(MODEL, model_dir, "int8", args.threads)
    cpu_of(fp32, batch[:32]), cpu_of(int8, batch[:32])  # warm-up: first runs allocate
    pairs = [(cpu_of(fp32, batch), cpu_of(int8, batch)) for _ in range(args.rounds)]
    print(json.dumps({"texts": len(batch), "rounds": args.rounds, "threads": args.threads or os.cpu_count(),
                      "fp32_cpu_s": [round(a, 2) for a, _ in pairs], "int8_cpu_s": [round(b, 2) for _, b in pairs],
                      "fp32_over_int8_median": round(statistics.median(a / b for a, b in pairs), 3),
                      "load_average": os.getloadavg()}, indent=1))


if __name__ == "__main__":
    main()
