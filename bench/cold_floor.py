"""The floors a cold `papershelf search` is measured against (issue 42), as commands to time.

    python bench/cold_floor.py lexical   # import numpy, sqlite3: what any lexical search must load
    python bench/cold_floor.py hybrid    # + onnxruntime, tokenizers; open the cached ONNX session and tokenizer

A cold search ÷ its floor, timed as whole processes in turn (A B A B) in the same venv, is the issue's
figure: lexical ≤ 2.5, hybrid ≤ 1.6.  The hybrid floor opens the session exactly as the encoder does
(papershelf/embed/onnx.py `_session`) from the newest fp32 export in papershelf's cache, without
importing papershelf (so the floor holds nothing of ours).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path


def export() -> Path:
    """The newest cached fp32 export of the default model (`PAPERSHELF_CACHE` or ~/.cache/papershelf)."""
    root = Path(os.environ.get("PAPERSHELF_CACHE_DIR") or Path.home() / ".cache" / "papershelf") / "onnx"
    found = sorted(root.glob("all-minilm-l6-v2-fp32-*/model.onnx"), key=lambda p: p.stat().st_mtime)
    if not found:
        raise SystemExit(f"no fp32 export under {root}: run one hybrid search first")
    return found[-1].parent


def hybrid() -> None:
    import numpy  # noqa: F401
    import onnxruntime as ort
    from tokenizers import Tokenizer

    path = export()
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = 1  # a search's query session (embed/queries.py `query_threads`)
    opts.inter_op_num_threads = 1
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    opts.log_severity_level = 3
    ort.InferenceSession(str(path / "model.onnx"), opts, providers=["CPUExecutionProvider"])
    Tokenizer.from_file(str(path / "tokenizer.json"))


def main() -> None:
    which = sys.argv[1] if len(sys.argv) > 1 else "lexical"
    if which == "lexical":
        import sqlite3  # noqa: F401

        import numpy  # noqa: F401
    elif which == "hybrid":
        hybrid()
    else:
        raise SystemExit("usage: cold_floor.py lexical|hybrid")


if __name__ == "__main__":
    main()
