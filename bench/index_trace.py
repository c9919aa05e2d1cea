"""Record a real `index --json` run as a trace for bench/index_eta_replay.py: every stdout line stamped
with `t` (seconds since the command started), and each input file's cost facts.

Writes, in `--out`: `trace.jsonl` (the stamped lines), `costs.json` (`{path: [pages, pages without
text]}`, ingest/pdf_cost.py, read after the run so it does not slow it), `run.json` (the command, its
start as epoch seconds for bench/add_timeline.py, wall, exit, load average).  The PDFs are hard-linked
into `--out`/in (dev-half files only: pass `--split` and `--half dev`); `--first-file` puts one PDF
first (named 000-...), as eta9's trace put the 30-page scan first.

    python bench/index_trace.py --pdfs ../shared/data/pdfs-wide --split bench/data/wide_split.json \
        --half dev --out /tmp/eta10/t83 [--tree /tmp/before-base] [--nice 10] [--provider hash]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def select(pdfs: Path, split: str | None, half: str, first: int, skip: int = 0) -> list[Path]:
    files = sorted(pdfs.glob("*.pdf"))
    if split:
        data = json.loads(Path(split).read_text(encoding="utf-8"))
        if half in data and isinstance(data[half], list):  # {"dev": [names], "test": [...]}
            names = set(data[half])
        else:  # {name: {"half": ...}}
            names = {n for n, v in data.items() if isinstance(v, dict) and v.get("half") == half}
        files = [f for f in files if f.name in names]
    files = files[skip:]
    return files[:first] if first else files


def link(files: list[Path], folder: Path, first_file: str | None) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for f in files:
        name = f"000-{f.name}" if first_file and f.name == first_file else f.name
        try:
            os.link(f, folder / name)
        except OSError:
            shutil.copy(f, folder / name)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pdfs", required=True, type=Path)
    ap.add_argument("--split")
    ap.add_argument("--half", default="dev")
    ap.add_argument("--first", type=int, default=0, help="only the first N PDFs by name")
    ap.add_argument("--skip", type=int, default=0, help="leave out the first N PDFs by name (before --first)")
    ap.add_argument("--library", type=Path, help="index into this library and keep it (a second `index` on a library "
                    "that grows): the new files are linked into its folder (LIBRARY's dir/in) beside its own")
    ap.add_argument("--first-file", help="this PDF's name is put first (000-NAME)")
    ap.add_argument("--out", required=True, type=Path)
    ap.add_argument("--tree", default=str(ROOT))
    ap.add_argument("--nice", type=int, default=10)
    ap.add_argument("--provider", default=None)
    args = ap.parse_args()
    files = select(args.pdfs, args.split, args.half, args.first, args.skip)
    if args.first_file:
        files += [f for f in select(args.pdfs, args.split, args.half, 0) if f.name == args.first_file and f not in files]
    args.out.mkdir(parents=True, exist_ok=True)
    library = args.library or args.out / "library.db"
    if args.library:  # the new files join the library's own folder, whose files are then unchanged
        folder = args.library.parent / "in"
        link([f for f in files if not (folder / f.name).exists()], folder, args.first_file)
    else:
        folder = args.out / "in"
        if folder.exists():
            shutil.rmtree(folder)
        link(files, folder, args.first_file)
        for p in args.out.glob("library.db*"):
            p.unlink()
    cmd = ["nice", "-n", str(args.nice), sys.executable, "-m", "papershelf", "-L", str(library), "index",
           str(folder), "--json", *(["--provider", args.provider] if args.provider else [])]
    env = dict(os.environ, PYTHONPATH=args.tree, HF_HUB_OFFLINE="1")
    load = os.getloadavg()[0]
    start_epoch, t0 = time.time(), time.perf_counter()
    with open(args.out / "trace.jsonl", "w", encoding="utf-8") as out:
        proc = subprocess.Popen(cmd, env=env, cwd=tempfile.gettempdir(), stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, text=True)
        assert proc.stdout is not None
        for line in proc.stdout:
            t = time.perf_counter() - t0
            try:
                e = json.loads(line)
            except ValueError:
                continue
            if isinstance(e, dict):
                out.write(json.dumps({"t": round(t, 3), **e}) + "\n")
                out.flush()
        proc.wait()
    wall = time.perf_counter() - t0
    from papershelf.ingest.pdf_cost import pdf_cost

    costs = {}
    for f in sorted(folder.iterdir()):
        c = pdf_cost(str(f.resolve()))
        costs[str(f.resolve())] = [c.pages, c.scanned] if c else None
    (args.out / "costs.json").write_text(json.dumps(costs, indent=1), encoding="utf-8")
    run = {"cmd": cmd, "tree": args.tree, "files": len(files), "start_epoch": start_epoch, "wall_s": round(wall, 1),
           "exit": proc.returncode, "load_avg_start": load, "load_avg_end": os.getloadavg()[0]}
    (args.out / "run.json").write_text(json.dumps(run, indent=1), encoding="utf-8")
    print(json.dumps(run))


if __name__ == "__main__":
    main()
