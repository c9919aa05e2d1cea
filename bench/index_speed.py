"""`papershelf index` of a folder of PDFs with and without parse workers, in ONE run (issue 42).

The machine is shared and noisy, so the modes run interleaved (A B A B ...) and the figure to read
is the ratio of their wall times within a round.  Each run is the real command in its own process
(`python -m papershelf index FOLDER --provider P`) on a new library; measured:

* wall seconds of the whole command, and when it printed "searchable by words" (lexical search
  covers every added paper);
* peak memory of the command with all its processes (parse workers included): the largest sum of
  their RSS, sampled every 0.2 s (psutil).

`--papers N` makes N papers by repeating the folder's PDFs (hard links, else copies) with a
bibliography giving each copy its own citation key, so no copy is taken for another source of the
same work (each is its own paper, parsed, indexed and embedded).

    python bench/index_speed.py --pdfs ../shared/data/pdfs-wide --split bench/data/wide_split.json --half dev \
        --provider hash --modes 0,2 --rounds 2
    python bench/index_speed.py --pdfs ../shared/data/pdfs-wide --split bench/data/wide_split.json --half dev \
        --papers 1000 --provider hash --modes 0,2
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def make_folder(pdfs: list[Path], papers: int, out: Path) -> Path:
    """`papers` PDFs from `pdfs` repeated, each copy named in a .bib under its own citation key."""
    out.mkdir(parents=True, exist_ok=True)
    entries = []
    for i in range(papers):
        src = pdfs[i % len(pdfs)]
        dst = out / f"c{i:04d}-{src.name}"
        if not dst.exists():  # else a kept folder from an earlier run: the same copy
            try:
                os.link(src, dst)
            except OSError:
                shutil.copy(src, dst)
        if i >= len(pdfs):  # the first round keeps what the PDFs say of themselves
            entries.append(f"@article{{copy{i:04d},\n  file = {{{dst.name}}}\n}}\n")
    if entries:
        (out / "copies.bib").write_text("".join(entries), encoding="utf-8")
    return out


def _tree_rss(pid: int) -> int:
    import psutil

    try:
        root = psutil.Process(pid)
        procs = [root, *root.children(recursive=True)]
    except psutil.Error:
        return 0
    total = 0
    for p in procs:
        try:
            total += p.memory_info().rss
        except psutil.Error:
            pass
    return total


def run_once(folder: Path, library: Path, workers: str, provider: str) -> dict:
    env = dict(os.environ, PYTHONPATH=str(ROOT), HF_HUB_OFFLINE="1", PAPERSHELF_PARSE_WORKERS=workers)
    cmd = [sys.executable, "-m", "papershelf", "-L", str(library), "index", str(folder), "--provider", provider]
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    peak = 0
    searchable: list[float] = []

    def watch_stderr() -> None:
        assert proc.stderr is not None
        for line in proc.stderr:
            if "searchable by words" in line and not searchable:
                searchable.append(time.perf_counter() - t0)

    reader = threading.Thread(target=watch_stderr, daemon=True)
    reader.start()
    while proc.poll() is None:
        peak = max(peak, _tree_rss(proc.pid))
        time.sleep(0.2)
    reader.join(5)
    wall = time.perf_counter() - t0
    out = proc.stdout.read() if proc.stdout else ""
    return {"workers": workers, "exit": proc.returncode, "wall_s": round(wall, 1),
            "searchable_s": round(searchable[0], 1) if searchable else None,
            "peak_rss_mb": round(peak / 2**20), "summary": out.strip().splitlines()[:1]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pdfs", required=True, help="a folder of PDFs")
    ap.add_argument("--papers", type=int, default=0, help="repeat the PDFs up to this many papers (0: each once)")
    ap.add_argument("--first", type=int, default=0, help="only the first N PDFs (by name)")
    ap.add_argument("--split", help="a split file ({name: {half}}, bench/data/wide_split.json): only --half's PDFs")
    ap.add_argument("--half", default="dev")
    ap.add_argument("--provider", default="hash", help="embedding provider (hash: parsing and indexing dominate)")
    ap.add_argument("--modes", default="0,2", help="PAPERSHELF_PARSE_WORKERS values, run interleaved")
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--keep", help="folder for the inputs and libraries (default: a temporary one)")
    args = ap.parse_args()
    pdfs = sorted(Path(args.pdfs).glob("*.pdf"))
    if args.split:
        with open(args.split, encoding="utf-8") as f:
            halves = {name: v["half"] for name, v in json.load(f).items()}
        pdfs = [p for p in pdfs if halves.get(p.name) == args.half]
    if args.first:
        pdfs = pdfs[:args.first]
    tmp = Path(args.keep or tempfile.mkdtemp(prefix="papershelf-index-speed-"))
    folder = make_folder(pdfs, args.papers or len(pdfs), tmp / "input")
    runs = []
    modes = args.modes.split(",")
    for r in range(args.rounds):
        order = modes if r % 2 == 0 else list(reversed(modes))  # neither mode always goes first
        for mode in order:
            library = tmp / f"lib-{mode}-{r}.db"
            library.unlink(missing_ok=True)
            result = {"round": r, **run_once(folder, library, mode, args.provider)}
            print(json.dumps(result), file=sys.stderr, flush=True)
            runs.append(result)
    base = modes[0]
    ratios = {}
    for mode in modes[1:]:
        ratios[f"{mode}/{base}"] = [round(a["wall_s"] / b["wall_s"], 3) for r in range(args.rounds)
                                    for a in runs if a["round"] == r and a["workers"] == mode
                                    for b in runs if b["round"] == r and b["workers"] == base]
    print(json.dumps({"pdfs": len(pdfs), "half": args.half if args.split else "all", "papers": args.papers or len(pdfs), "provider": args.provider,
                      "load_avg": os.getloadavg(), "runs": runs, "wall_ratio_by_round": ratios}, indent=1))


if __name__ == "__main__":
    main()
