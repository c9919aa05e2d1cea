"""Shared helpers for the figure/table query set (bench/data/figure_queries.jsonl).

Used by check_queries.py (is the set well formed?) and figure_queries.py (how
well does search find the objects?), so both read the file, the manifest and a
library's object units the same way.
"""

from __future__ import annotations

import json
import re
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DATA = ROOT.parent / "shared" / "data"
QUERIES = ROOT / "bench" / "data" / "figure_queries.jsonl"
FIELDS = {"id": str, "query": str, "pdf": str, "label": str, "kind": str, "style": str}
STYLES = ("visual", "content", "finding")
KINDS = ("figure", "table")
_WORD = re.compile(r"\w+", re.U)


def pdf_dir(data: str | Path) -> Path:
    """The shared PDFs, or exit with a clear message: a fresh clone has no shared data."""
    pdfs = Path(data) / "pdfs"
    if not (pdfs / "manifest.json").exists():
        sys.exit(f"shared data not found at {pdfs} (pass --data PATH): nothing to check or measure")
    return pdfs


def load_queries(path: str | Path = QUERIES) -> list[dict]:
    """One dict per non-empty line; a line that is not JSON becomes {"_error": ...} for the checker."""
    rows = []
    for n, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            rows.append(json.loads(line))
        except json.JSONDecodeError as e:
            rows.append({"_error": f"line {n}: not JSON ({e})"})
    return rows


def manifest_captions(pdfs: Path) -> dict[str, dict[str, str]]:
    """file name -> label ("Figure 3") -> the manifest's caption text (first words, checked by hand)."""
    out: dict[str, dict[str, str]] = {}
    for m in json.loads((pdfs / "manifest.json").read_text(encoding="utf-8")):
        caps = out.setdefault(Path(m["file"]).name, {})
        for c in m["captions"]:
            caps[f"{c['kind'].capitalize()} {c['number']}"] = c["text"]
    return out


def iou(a, b) -> float:
    """Intersection over union of two boxes (x0, y0, x1, y1); 0 for boxes that do not meet or have no area."""
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    inter = max(0.0, w) * max(0.0, h)
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


def words(text: str) -> list[str]:
    return [w.lower() for w in _WORD.findall(text or "")]


def shared_runs(query: str, caption: str, n: int = 4) -> list[str]:
    """Runs of n words the query copies from the caption: a query that copies the caption
    measures string matching, not whether search understands a description."""
    q, c = words(query), words(caption)
    cap = {tuple(c[i:i + n]) for i in range(len(c) - n + 1)}
    return sorted({" ".join(q[i:i + n]) for i in range(len(q) - n + 1) if tuple(q[i:i + n]) in cap})


def paper_objects(lib, pdfs: Path) -> dict[str, tuple[str, dict[str, dict]]]:
    """file name -> (paper id, label -> object unit as `lib.show` gives it), via each paper's source_path."""
    out = {}
    for summary in lib.store.list_papers():
        shown = lib.show(summary.paper.id).to_dict()
        src = shown.get("source_path") or ""
        if Path(src).parent.resolve() != pdfs.resolve():
            continue
        out[Path(src).name] = (summary.paper.id, {o["label"]: o for o in shown["objects"]})
    return out


def hit_field(hit, name: str):
    """One field of a search result, whether results are dicts (today) or typed objects with
    attributes / `to_dict()` (the API is moving there), so these scripts survive the change."""
    if isinstance(hit, dict):
        return hit.get(name)
    if hasattr(hit, name):
        return getattr(hit, name)
    return hit.to_dict().get(name) if hasattr(hit, "to_dict") else None


def response_field(resp, name: str):
    """A response-level field (e.g. `no_confident_match`), None when this papershelf has no such field."""
    if hasattr(resp, name):
        return getattr(resp, name)
    if hasattr(resp, "to_dict"):
        return resp.to_dict().get(name)
    return None


def id_number(qid: str) -> int:
    """The number in an id like fq017, for the odd/even halves."""
    digits = "".join(ch for ch in qid if ch.isdigit())
    return int(digits) if digits else 0


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def print_result(out: dict, as_json: bool, width: int = 22) -> None:
    """A bench's result: the JSON whole, or one `name value` line a measure and its failures on stderr."""
    if as_json:
        print(json.dumps(out, indent=1, ensure_ascii=False))
        return
    for k, v in out.items():
        if k != "failures":
            print(f"{k:{width}s} {v}")
    for line in out.get("failures", []):
        log(line)


def hand_truth_main(doc: str | None, run: Callable[[Path, str, bool], dict], listed: str) -> None:
    """The command line of a bench graded on hand-read truth over shared PDFs (regions_hand, cells_hand):
    --data, --only, --json, -v listing `listed`."""
    import argparse

    ap = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default=str(DEFAULT_DATA))
    ap.add_argument("--only", default="", help="only files whose name holds this")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("-v", "--verbose", action="store_true", help=f"list every {listed} not right")
    args = ap.parse_args()
    print_result(run(Path(args.data), args.only, args.verbose), args.json, 24)


@contextmanager
def open_library(keep: str | None, name: str = "bench") -> Iterator:
    """The library at --keep (created there if missing), else one in a temporary folder removed afterwards."""
    from papershelf import Library

    if keep:
        with Library(keep) as lib:
            yield lib
        return
    with tempfile.TemporaryDirectory(prefix=f"papershelf-{name}-") as tmp, Library(str(Path(tmp) / f"{name}.db")) as lib:
        yield lib


def embed_pending(lib, what: str, note: str = "", every: int = 1) -> tuple:
    """Embed the library's pending `what` (papers, abstracts) with the default local model, logging each
    `every`-th and the last; exits when any fails.  The build's report and its seconds."""
    pending = len(lib.pending())
    done = [0]

    def progress(event: dict) -> None:
        if event.get("event") == "paper":
            done[0] += 1
            if done[0] % every == 0 or done[0] == pending:
                log(f"  embedded {done[0]}/{pending} {event.get('paper_id')} ({event.get('status')})")

    if pending:
        log(f"embedding {pending} {what} with the default local model{note}...")
    t0 = time.perf_counter()
    report = lib.embed(on_event=progress)
    if report.failed:
        sys.exit(f"{len(report.failed)} {what} failed to embed: {report.failed}")
    return report, round(time.perf_counter() - t0, 1)
