"""Issue 42's ratio for several embedding variants in one sitting, from ONE add: plain sentence-transformers
fp32 `encode` CPU of the papers' words (90-word texts, bench/st_encode.py in a torch interpreter) over the
CPU an `index` of the same files takes with each variant.

An `index` is an `add` and then an `embed` of the new library's pending papers (plus a 64-window trial
encode, ~1-3 % of the embedding, not counted here).  So the add is run once (`add --json` on a new
library, its CPU: the command and its waited-for children, parse workers and Tesseract), the added
library copied for each variant, and each variant's `embed --json` run on its copy (its CPU the same
way; the model's load and export included, as in `index`).  index CPU of a variant = add CPU + its
embed CPU.  Variants are `embed` flags: the default on a new library is fp32 weights and window format
2 (space10); `--window-format 1` is the format of libraries made before; `--quantize int8` the int8
weights (space9).

    python bench/index_ratio.py --folder /tmp/eta13/ta/in --work /tmp/eta13/ratio \
        --variant fp32-f2= --variant fp32-f1=--window-format,1 --variant int8-f2=--quantize,int8 \
        --variant int8-f1=--quantize,int8,--window-format,1 --torch-python /tmp/torchvenv/bin/python
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from index_cpu import papers_words, torch_reference

ROOT = Path(__file__).resolve().parent.parent


def run(tree: Path, library: Path, args: list[str], nice: int) -> tuple[float, float, list[dict]]:
    """(CPU s of the command's tree, wall s, its JSON lines) of `papershelf -L library ARGS --json`."""
    import time

    env = dict(os.environ, PYTHONPATH=str(tree), HF_HUB_OFFLINE="1")
    cmd = ["nice", "-n", str(nice), sys.executable, "-m", "papershelf", "-L", str(library), *args, "--json"]
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    done = subprocess.run(cmd, env=env, cwd=tempfile.gettempdir(), capture_output=True, text=True)
    wall = time.perf_counter() - t0
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
    lines = []
    for line in done.stdout.splitlines():
        try:
            lines.append(json.loads(line))
        except ValueError:
            continue
    if done.returncode not in (0, 1):
        sys.exit(f"{' '.join(args)}: exit {done.returncode}: {done.stderr.strip().splitlines()[-1:]}")
    return cpu, wall, lines


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--folder", required=True, type=Path, help="the files to add (dev-half PDFs only)")
    ap.add_argument("--work", required=True, type=Path)
    ap.add_argument("--variant", action="append", required=True, help="NAME=comma-separated embed flags")
    ap.add_argument("--tree", type=Path, default=ROOT)
    ap.add_argument("--nice", type=int, default=10)
    ap.add_argument("--torch-python", default="/tmp/torchvenv/bin/python")
    args = ap.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    base = args.work / "added.db"
    if not base.exists():
        cpu, wall, lines = run(args.tree, base, ["add", str(args.folder)], args.nice)
        (args.work / "add.json").write_text(json.dumps({"cpu_s": cpu, "wall_s": wall, "report": lines[-1:]}))
    add = json.loads((args.work / "add.json").read_text())
    print(json.dumps({"add_cpu_s": round(add["cpu_s"], 1), "add_wall_s": round(add["wall_s"], 1),
                      "load": os.getloadavg()[0]}), file=sys.stderr, flush=True)
    texts = papers_words(base)
    reference = torch_reference(args.torch_python, texts, args.work)
    print(json.dumps({"texts_90_words": len(texts), "torch_encode": reference}), file=sys.stderr, flush=True)
    rows = []
    for v in args.variant:
        name, _, flags = v.partition("=")
        library = args.work / f"{name}.db"
        for p in args.work.glob(f"{name}.db*"):
            p.unlink()
        shutil.copy(base, library)
        load = os.getloadavg()[0]
        cpu, wall, lines = run(args.tree, library, ["embed", *[f for f in flags.split(",") if f]], args.nice)
        done = next((e for e in lines if e.get("event") == "done"), {})
        index_cpu = add["cpu_s"] + cpu
        row = {"variant": name, "flags": flags, "load": round(load, 1), "embed_cpu_s": round(cpu, 1),
               "embed_wall_s": round(wall, 1), "windows": done.get("windows"), "units": done.get("units"),
               "space": done.get("space"), "index_cpu_s": round(index_cpu, 1),
               "ratio": round(reference["cpu_s"] / index_cpu, 3) if "cpu_s" in reference else None}
        print(json.dumps(row), file=sys.stderr, flush=True)
        rows.append(row)
    print(json.dumps({"folder": str(args.folder), "add_cpu_s": round(add["cpu_s"], 1), "texts_90_words": len(texts),
                      "torch_encode": reference, "variants": rows}, indent=1))


if __name__ == "__main__":
    main()
