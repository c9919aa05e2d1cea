"""Retrieval quality of the local model's int8 ONNX space next to fp32, on a BEIR folder (SciFact train).

`bench beir` with a chosen local backend and quantisation: fp32 ONNX computes the
same vectors as torch (cosine >= 0.9999), so its quality is the torch space's;
int8 weights move the vectors, so int8 is measured on the full corpus.

    python bench/quantize_quality.py ../shared/data/scifact                  # int8, vector + hybrid
    python bench/quantize_quality.py ../shared/data/scifact --quantize none  # fp32 ONNX
"""

from __future__ import annotations

import argparse
import json
import sys

from papershelf.beir import run_beir
from papershelf.embed.base import ProviderSpec


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folder")
    ap.add_argument("--quantize", default="int8", choices=["int8", "none"])
    ap.add_argument("--backend", default="onnx", choices=["onnx", "torch"])
    ap.add_argument("--modes", default="vector,hybrid")
    ap.add_argument("--max-queries", type=int, default=None)
    args = ap.parse_args()
    options = (("quantize", "int8"),) if args.quantize == "int8" else ()
    spec = ProviderSpec("local", None, options, (("backend", args.backend),))
    result = run_beir(args.folder, spec, args.modes.split(","), max_queries=args.max_queries,
                      log=lambda s: print(s, file=sys.stderr, flush=True))
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
