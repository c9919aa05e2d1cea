"""A first `papershelf index` of N papers made by repeating a folder of PDFs (issue 42's 1,000-paper build).

Every copy after the first round is the PDF re-written with one changed line on its last page
("Copy 0123 of this paper ...", drawn with pdfium), so no two files share their bytes or their text,
and a bibliography names each copy under its own citation key, so no copy is taken for another
source of the same work (same title): every copy is parsed, written and embedded as its own paper.
The copies are written under --out (a temporary folder: never into the repository).

One run of the real command (`python -m papershelf -L LIB index FOLDER --json`, under `nice`), measured:

* wall and CPU time (user+sys of the whole process tree, from the waited-for children's rusage);
* peak RSS: the largest sum over the command and all its descendants (psutil, every 0.5 s);
* lexical coverage: papers in the library every 5 s (a read-only count), the first paper's time, and
  the `start` event (every added paper searchable by words, before the embedding);
* the ETA: every `paper` event's `eta_seconds` with its time, written to `trace.jsonl` (so estimators can
  be replayed on a real build: bench/eta_replay.py); errors |predicted end - real end| / real time left
  at 60 s of the command, at 60 s into the embedding and at every tenth of the embedding;
* the load average every 30 s (the machine is shared).

    python bench/scale_build.py --pdfs ../shared/data/pdfs-wide --papers 1000 --out /tmp/scale5/p1000 --workers 2
"""

from __future__ import annotations

import argparse
import ctypes
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

from index_cpu import children_cpu, eta_error, json_events, tree_sample

ROOT = Path(__file__).resolve().parent.parent


def changed_copy(src: Path, dst: Path, line: str) -> bool:
    """`src` re-written to `dst` with `line` drawn at the foot of its last page; False if pdfium cannot."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    try:
        pdf = pdfium.PdfDocument(str(src))
        page = pdf[len(pdf) - 1]
        obj = raw.FPDFPageObj_NewTextObj(pdf.raw, b"Helvetica", ctypes.c_float(7.0))
        text = ctypes.c_char_p((line + "\0").encode("utf-16-le"))
        raw.FPDFText_SetText(obj, ctypes.cast(text, ctypes.POINTER(raw.FPDF_WCHAR)))
        raw.FPDFPageObj_Transform(obj, 1, 0, 0, 1, 36, 12)
        raw.FPDFPage_InsertObject(page.raw, obj)
        raw.FPDFPage_GenerateContent(page.raw)
        pdf.save(str(dst))
        pdf.close()
        return True
    except Exception:  # noqa: BLE001 - an encrypted or damaged PDF: the caller falls back to a byte change
        return False


def make_copies(pdfs: list[Path], papers: int, out: Path) -> tuple[Path, int]:
    """`papers` files from `pdfs`: the first round linked as is, later rounds re-written with a changed
    line (else, when pdfium cannot re-write one, the bytes with a trailing comment); a .bib gives each
    copy of a later round its own citation key.  Returns the folder and how many fell back to bytes."""
    out.mkdir(parents=True, exist_ok=True)
    entries, fallbacks = [], 0
    for i in range(papers):
        src = pdfs[i % len(pdfs)]
        dst = out / f"c{i:04d}-{src.name}"
        if i >= len(pdfs):
            entries.append(f"@article{{copy{i:04d},\n  file = {{{dst.name}}}\n}}\n")
        if dst.exists():  # a kept folder from an earlier run: the same copy
            continue
        if i < len(pdfs):
            shutil.copy(src, dst)
        elif not changed_copy(src, dst, f"Copy {i:04d} of this paper, made for a papershelf scale test."):
            fallbacks += 1
            dst.write_bytes(src.read_bytes() + f"\n% copy {i:04d}\n".encode())
    if entries:
        (out / "copies.bib").write_text("".join(entries), encoding="utf-8")
    return out, fallbacks


def count_papers(library: Path) -> int | None:
    try:
        with sqlite3.connect(f"file:{library}?mode=ro", uri=True, timeout=1) as db:
            return db.execute("SELECT count(*) FROM papers").fetchone()[0]
    except sqlite3.Error:
        return None


def run(
    tree: Path, folder: Path, library: Path, workers: str | None, nice: int, trace: Path, stop_after: float
) -> dict:
    env = dict(os.environ, PYTHONPATH=str(tree), HF_HUB_OFFLINE="1")
    if workers is not None:
        env["PAPERSHELF_PARSE_WORKERS"] = workers
    cmd = [
        "nice",
        "-n",
        str(nice),
        sys.executable,
        "-m",
        "papershelf",
        "-L",
        str(library),
        "index",
        str(folder),
        "--json",
    ]
    cpu0, t0 = children_cpu(), time.perf_counter()
    # SIGINT back to its default in the child: a background job started by a shell ignores it, and
    # Python then never installs its Ctrl-C handler (--stop-after would do nothing).
    proc = subprocess.Popen(
        cmd,
        env=env,
        cwd="/tmp",
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    marks: dict = {"etas": [], "loads": [], "papers": []}
    log = trace.open("w", encoding="utf-8", buffering=1)  # line by line: a long run can be replayed while it runs

    def read_stdout() -> None:
        assert proc.stdout is not None
        for now, e in json_events(proc.stdout, t0):
            log.write(json.dumps({"t": round(now, 2), **e}) + "\n")
            if e.get("event") == "start" and "embed_start_s" not in marks:
                marks["embed_start_s"], marks["add_cpu_s"] = now, tree_sample(proc.pid)[1]
                marks["start"] = {k: e.get(k) for k in ("papers", "units", "skipped")}
            elif e.get("event") == "paper" and e.get("eta_seconds") is not None:
                marks["etas"].append((now, float(e["eta_seconds"])))
            elif e.get("event") == "done":
                marks["done"] = {k: e.get(k) for k in ("embedded", "failed", "units", "windows", "reused")}

    reader = threading.Thread(target=read_stdout, daemon=True)
    reader.start()
    peak, last_count, last_load = 0, -5.0, -30.0
    stopped = None
    while proc.poll() is None:
        now = time.perf_counter() - t0
        if stop_after and now > stop_after and stopped is None:  # Ctrl-C: encoded papers written, then exit
            stopped = round(now, 1)
            proc.send_signal(signal.SIGINT)
        peak = max(peak, tree_sample(proc.pid)[0])
        if now - last_count >= 5:
            last_count = now
            if (n := count_papers(library)) is not None:
                marks["papers"].append((round(now, 1), n))
        if now - last_load >= 30:
            last_load = now
            marks["loads"].append((round(now), os.getloadavg()[0]))
        time.sleep(0.5)
    reader.join(10)
    log.close()
    wall, cpu = time.perf_counter() - t0, children_cpu() - cpu0
    start = marks.get("embed_start_s")
    first = next((t for t, n in marks["papers"] if n), None)
    out = {
        "exit": proc.returncode,
        "stopped_at_s": stopped,
        "wall_s": round(wall, 1),
        "cpu_s": round(cpu, 1),
        "peak_rss_mb": round(peak / 2**20),
        "first_paper_searchable_s": first,
        "all_searchable_s": round(start, 1) if start else None,
        "add_cpu_s": round(marks.get("add_cpu_s", 0.0), 1),
        "start": marks.get("start"),
        "done": marks.get("done"),
        "papers_over_time": marks["papers"][::12],
        "load_avg": marks["loads"],
    }
    if start is not None and stopped is None:
        out["eta_60s_of_command"] = eta_error(marks["etas"], 60, wall)
        out["eta_60s_into_embedding"] = eta_error(marks["etas"], start + 60, wall)
        out["eta_by_tenth"] = [eta_error(marks["etas"], start + (wall - start) * k / 10, wall) for k in range(1, 10)]
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pdfs", required=True)
    ap.add_argument("--papers", type=int, required=True)
    ap.add_argument("--first", type=int, default=0, help="only the first N PDFs by name (small runs)")
    ap.add_argument("--out", required=True, help="a folder outside the repository for copies, library, trace")
    ap.add_argument("--tree", default=str(ROOT), help="the source tree to run (a frozen copy for long runs)")
    ap.add_argument("--workers", default=None, help="PAPERSHELF_PARSE_WORKERS (default: unset, the tree's default)")
    ap.add_argument("--nice", type=int, default=10)
    ap.add_argument("--stop-after", type=float, default=0, help="send Ctrl-C after this many seconds (0: never)")
    args = ap.parse_args()
    pdfs = sorted(Path(args.pdfs).glob("*.pdf"))
    pdfs = pdfs[: args.first] if args.first else pdfs
    out = Path(args.out)
    t0 = time.perf_counter()
    folder, fallbacks = make_copies(pdfs, args.papers, out / "input")
    made = round(time.perf_counter() - t0, 1)
    library = out / "library.db"
    library.unlink(missing_ok=True)
    result = run(
        Path(args.tree).resolve(), folder, library, args.workers, args.nice, out / "trace.jsonl", args.stop_after
    )
    print(
        json.dumps(
            {
                "pdfs": len(pdfs),
                "papers": args.papers,
                "byte_fallbacks": fallbacks,
                "copies_made_s": made,
                "workers": args.workers,
                "tree": args.tree,
                **result,
            },
            indent=1,
        )
    )


if __name__ == "__main__":
    main()
