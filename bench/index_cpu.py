"""Issue 42's measures of a first `papershelf index`, in CPU time, in ONE run.

The machine is shared (load 10-20): wall time across runs means little, so each figure is CPU time
(user+sys of the command's whole process tree: parse workers and Tesseract included, from the
waited-for children's rusage) and every comparison is within one run.  Per run of the real command
(`python -m papershelf -L LIB index FOLDER --json`, default local fp32 model, a new library, cwd /tmp
so `-m` takes the tree given and not the cwd):

* CPU and wall of the whole command, and of its add (up to the embedding's `start` event, when lexical
  search covers every added paper);
* peak memory: the largest sum of RSS over the command and all its descendants (psutil, every 0.2 s);
* the ETA's error: at 60 s into the embedding (and at 60 s of the command, when it is embedding by
  then), |predicted end - real end| / real time left, from the `paper` events' `eta_seconds`;
* the reference: plain sentence-transformers fp32 `encode` (torch) of the same papers' words cut into
  90-word texts (bench/st_encode.py in a separate interpreter, `--torch-python`); the figure the
  issue asks >= 3.0 is its CPU seconds / the command's CPU seconds.  Skipped, with a line saying
  so, when that interpreter is missing.

`--trees A,B` runs the same folder with each source tree in turn (before/after in one run);
`--modes 0,2` each PAPERSHELF_PARSE_WORKERS value; both interleaved, reversed every other round.

    python bench/index_cpu.py --pdfs ../shared/data/pdfs-wide --split bench/data/wide_split.json --half dev \
        --first 40 --papers 120 --trees /tmp/before-build4,. --torch-python /tmp/torchvenv/bin/python
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterable, Iterator
from pathlib import Path

from index_speed import make_folder

ROOT = Path(__file__).resolve().parent.parent
WORDS_PER_TEXT = 90


def children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def tree_sample(pid: int) -> tuple[int, float]:
    """(RSS bytes, CPU seconds) of a process and its live descendants (their waited children too)."""
    import psutil

    try:
        root = psutil.Process(pid)
        procs = [root, *root.children(recursive=True)]
    except psutil.Error:
        return 0, 0.0
    rss, cpu = 0, 0.0
    for p in procs:
        try:
            rss += p.memory_info().rss
            t = p.cpu_times()
            cpu += t.user + t.system + t.children_user + t.children_system
        except psutil.Error:
            pass
    return rss, cpu


def eta_error(events: list[tuple[float, float]], at: float, end: float) -> dict | None:
    """The first estimate given at or after `at` seconds: its predicted end against the real one."""
    for t, eta in events:
        if t >= at:
            left = end - t
            return {
                "at_s": round(t, 1),
                "predicted_left_s": round(eta, 1),
                "real_left_s": round(left, 1),
                "error": round(abs(t + eta - end) / left, 3) if left > 0 else None,
            }
    return None


def json_events(stream: Iterable[str], t0: float) -> Iterator[tuple[float, dict]]:
    """The JSON objects a `--json` command prints, one a line, each with its seconds since t0 (Rich's
    progress and other lines skipped): what the index benches read as the build goes."""
    for line in stream:
        now = time.perf_counter() - t0
        try:
            e = json.loads(line)
        except ValueError:
            continue
        if isinstance(e, dict):
            yield now, e


def run_index(tree: Path, folder: Path, library: Path, workers: str) -> dict:
    env = dict(os.environ, PYTHONPATH=str(tree), HF_HUB_OFFLINE="1", PAPERSHELF_PARSE_WORKERS=workers)
    cmd = [sys.executable, "-m", "papershelf", "-L", str(library), "index", str(folder), "--json"]
    cpu0, t0 = children_cpu(), time.perf_counter()
    proc = subprocess.Popen(
        cmd, env=env, cwd=tempfile.gettempdir(), stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
    )
    marks: dict = {"etas": []}

    def read_stdout() -> None:
        assert proc.stdout is not None
        for now, e in json_events(proc.stdout, t0):
            if e.get("event") == "start" and "embed_start_s" not in marks:
                marks["embed_start_s"] = now
                marks["add_cpu_s"] = tree_sample(proc.pid)[1]
                marks["windows_total"] = e.get("units")
            elif e.get("event") == "paper" and e.get("eta_seconds") is not None:
                marks["etas"].append((now, float(e["eta_seconds"])))
            elif e.get("event") == "done":
                marks["done"] = {k: e.get(k) for k in ("units", "windows", "reused")}

    reader = threading.Thread(target=read_stdout, daemon=True)
    reader.start()
    peak = 0
    while proc.poll() is None:
        peak = max(peak, tree_sample(proc.pid)[0])
        time.sleep(0.2)
    reader.join(10)
    wall, cpu = time.perf_counter() - t0, children_cpu() - cpu0
    start = marks.get("embed_start_s")
    out = {
        "tree": str(tree),
        "workers": workers,
        "exit": proc.returncode,
        "wall_s": round(wall, 1),
        "cpu_s": round(cpu, 1),
        "peak_rss_mb": round(peak / 2**20),
        "searchable_s": round(start, 1) if start else None,
        "add_cpu_s": round(marks.get("add_cpu_s", 0.0), 1),
        "embed": marks.get("done"),
    }
    if start is not None:
        out["eta_60s_into_embedding"] = eta_error(marks["etas"], start + 60, wall)
        out["eta_60s_of_command"] = eta_error(marks["etas"], 60, wall) if start <= 60 else None
    return out


def papers_words(library: Path) -> list[str]:
    """Every paper's embedded words (the bodies of its indexable units, no repeated heads), cut
    into texts of WORDS_PER_TEXT words: what a plain sentence-transformers pipeline would encode."""
    from papershelf import Library
    from papershelf.units import embedding_parts

    texts: list[str] = []
    with Library(str(library)) as lib:
        store = lib.store
        for pid in store.manifest_paper_ids():
            paper, _, units = store.paper_snapshot(pid)
            words = " ".join(embedding_parts(u, paper.title)[1] for u in units if u.indexable).split()
            texts += [" ".join(words[i : i + WORDS_PER_TEXT]) for i in range(0, len(words), WORDS_PER_TEXT)]
    return texts


def torch_reference(python: str | None, texts: list[str], tmp: Path) -> dict:
    if not python or not Path(python).exists():
        return {"skipped": f"no torch interpreter ({python}): see bench/st_encode.py for its venv"}
    path = tmp / "texts.json"
    path.write_text(json.dumps(texts), encoding="utf-8")
    done = subprocess.run(
        [python, str(ROOT / "bench" / "st_encode.py"), str(path)],
        capture_output=True,
        text=True,
        env=dict(os.environ, HF_HUB_OFFLINE="1", PYTHONPATH=""),
        cwd=tempfile.gettempdir(),
    )
    if done.returncode:
        return {"skipped": f"st_encode failed: {done.stderr.strip().splitlines()[-1:]}"}
    return json.loads(done.stdout.strip().splitlines()[-1])


def select_pdfs(args: argparse.Namespace) -> list[Path]:
    pdfs = sorted(Path(args.pdfs).glob("*.pdf"))
    if args.split:
        with open(args.split, encoding="utf-8") as f:
            halves = {name: v["half"] for name, v in json.load(f).items()}
        pdfs = [p for p in pdfs if halves.get(p.name) == args.half]
    return pdfs[: args.first] if args.first else pdfs


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pdfs", required=True)
    ap.add_argument("--split")
    ap.add_argument("--half", default="dev")
    ap.add_argument("--first", type=int, default=0, help="only the first N PDFs by name")
    ap.add_argument("--papers", type=int, default=0, help="repeat them up to this many papers")
    ap.add_argument("--trees", default=str(ROOT), help="comma-separated source trees, run in turn")
    ap.add_argument("--modes", default="", help="PAPERSHELF_PARSE_WORKERS values (default: unset)")
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--torch-python", default="/tmp/torchvenv/bin/python")
    ap.add_argument("--keep", help="folder for inputs and libraries (default: a temporary one)")
    args = ap.parse_args()
    pdfs = select_pdfs(args)
    tmp = Path(args.keep or tempfile.mkdtemp(prefix="papershelf-index-cpu-"))
    folder = make_folder(pdfs, args.papers or len(pdfs), tmp / "input")
    arms = [
        (Path(t).resolve(), m) for t in args.trees.split(",") for m in (args.modes.split(",") if args.modes else [""])
    ]
    runs, last_library = [], None
    for r in range(args.rounds):
        for i, (tree, mode) in enumerate(arms if r % 2 == 0 else list(reversed(arms))):
            library = tmp / f"lib-{r}-{i}.db"
            library.unlink(missing_ok=True)
            result = {"round": r, "load_avg": os.getloadavg()[0], **run_index(tree, folder, library, mode)}
            print(json.dumps(result), file=sys.stderr, flush=True)
            runs.append(result)
            last_library = library
    assert last_library is not None
    texts = papers_words(last_library)
    reference = torch_reference(args.torch_python, texts, tmp)
    for run in runs:
        if "cpu_s" in reference and run["cpu_s"]:
            run["torch_encode_cpu_over_index_cpu"] = round(reference["cpu_s"] / run["cpu_s"], 2)
    print(
        json.dumps(
            {
                "pdfs": len(pdfs),
                "papers": args.papers or len(pdfs),
                "texts_90_words": len(texts),
                "torch_encode": reference,
                "runs": runs,
            },
            indent=1,
        )
    )


if __name__ == "__main__":
    main()
