"""PDF parse time per page on ../shared/data/pdfs, and a digest of what the parse produced.

Each PDF goes through what `papershelf add` runs before storing: the PDF reader with the PDF's
own metadata (`ingest.parse_source`) and unit building (`units.build_units`).  Per PDF the best of ``--rounds`` parses is kept (CPU time by
``time.process_time`` and wall time by ``time.perf_counter``, measured separately); reported are
the median over the PDFs of ms/page and the total over all pages.  CPU time is the figure to
quote on a shared machine: wall time grows with the load of other processes.

``--digest out.json`` writes the parse output per PDF in a canonical form (units: kind, section,
text, captions, labels, table_text, regions; the document's headings, title, authors, year and
references) so that ``--compare base.json`` can show that a speed change left it byte-identical.

``--ab OTHER_ROOT`` measures two source trees in one run: child processes with this tree's
package and with ``OTHER_ROOT``'s alternate ``--rounds`` times (one parse of every PDF each), so
both see the same machine load; it reports both and their ratio.

    python bench/pdf_parse_speed.py [--rounds 5] [--profile] [--digest out.json] [--compare base.json]
    python bench/pdf_parse_speed.py --ab ../main --rounds 5

``--wide 4`` measures every 4th PDF of pdfs-wide's dev half (bench/data/wide_split.json; 21 PDFs,
274 pages) instead of the 27 shared PDFs.
"""

from __future__ import annotations

import argparse
import cProfile
import hashlib
import json
import os
import pstats
import statistics
import subprocess
import sys
import time
from pathlib import Path

from papershelf.ingest import SourceFile, parse_source
from papershelf.units import build_units

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DATA = ROOT.parent / "shared" / "data"


def _pdfs(data: Path, wide: int = 0) -> list[tuple[Path, int]]:
    if not wide:
        manifest = json.loads((data / "pdfs" / "manifest.json").read_text())
        return [(data / m["file"], int(m["pages"])) for m in manifest]
    pages = {m["file"]: int(m["pages"]) for m in json.loads((data / "pdfs-wide" / "manifest.json").read_text())}
    split = json.loads((ROOT / "bench" / "data" / "wide_split.json").read_text())
    dev = sorted(name for name, v in split.items() if v["half"] == "dev")
    return [(data / "pdfs-wide" / name, pages[name]) for name in dev[::wide]]


def _parse(path: Path, data: bytes):
    """One parse as `add` does it: the reader with the PDF's metadata, then the units."""
    doc = parse_source(SourceFile(str(path), data, ""))
    return doc, build_units(doc, "x")


def _digest(doc, units) -> dict:
    """The parse output in a canonical, JSON-stable form."""
    return {
        "title": doc.title, "authors": doc.authors, "year": doc.year, "venue": doc.venue, "doi": doc.doi,
        "headings": [[b.level, b.page, b.text] for b in doc.blocks if b.kind == "heading"],
        "blocks": [[b.kind, b.level, b.page, b.object_label, b.region, b.text] for b in doc.blocks],
        "references": [r.to_dict() for r in doc.references],
        "units": [{"kind": u.kind, "section": u.section_path, "level": u.section_level, "part": u.part,
                   "pages": [u.page_start, u.page_end], "object": [u.object_kind, u.object_label],
                   "text": u.text, "caption": u.caption_text, "nearby": u.nearby_body_text,
                   "table_text": u.table_text, "region": u.region, "indexable": u.indexable,
                   "hash": u.content_hash} for u in units],
    }


def _time_once(items: list[tuple[Path, bytes, int]]) -> dict[str, tuple[float, float]]:
    """(cpu seconds, wall seconds) of one parse of each PDF."""
    out = {}
    for path, data, _ in items:
        c0, w0 = time.process_time(), time.perf_counter()
        _parse(path, data)
        out[path.name] = (time.process_time() - c0, time.perf_counter() - w0)
    return out


def _best(runs: list[dict[str, tuple[float, float]]]) -> dict[str, tuple[float, float]]:
    """Per PDF the least CPU time and the least wall time over the rounds (each its own best)."""
    return {name: (min(r[name][0] for r in runs), min(r[name][1] for r in runs)) for name in runs[0]}


def _summary(best: dict[str, tuple[float, float]], pages: dict[str, int]) -> dict:
    total_pages = sum(pages.values())
    return {
        "pdfs": len(best), "pages": total_pages,
        "cpu_ms_per_page_median": round(statistics.median(c * 1000 / pages[n] for n, (c, _) in best.items()), 2),
        "wall_ms_per_page_median": round(statistics.median(w * 1000 / pages[n] for n, (_, w) in best.items()), 2),
        "cpu_ms_per_page_total": round(sum(c for c, _ in best.values()) * 1000 / total_pages, 2),
        "wall_ms_per_page_total": round(sum(w for _, w in best.values()) * 1000 / total_pages, 2),
    }


def _compare(digests: dict, base_path: str) -> int:
    """Number of PDFs whose output differs from the base digest (the first difference is shown)."""
    base = json.loads(Path(base_path).read_text())
    differ = 0
    for name in sorted(set(base) | set(digests)):
        a, b = base.get(name), digests.get(name)
        if json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True):
            continue
        differ += 1
        print(f"DIFFERS {name}: {_first_difference(a, b)}")
    print(f"{len(digests) - differ} of {len(digests)} PDFs identical to {base_path}")
    return differ


def _first_difference(a, b, where: str = "") -> str:
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if a.get(k) != b.get(k):
                return _first_difference(a.get(k), b.get(k), f"{where}.{k}")
    if isinstance(a, list) and isinstance(b, list):
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                return _first_difference(x, y, f"{where}[{i}]")
        if len(a) != len(b):
            return f"{where}: {len(a)} vs {len(b)} items"
    return f"{where}: {str(a)[:200]!r} -> {str(b)[:200]!r}"


def _profile(items: list[tuple[Path, bytes, int]], top: int) -> None:
    prof = cProfile.Profile()
    prof.enable()
    _time_once(items)
    prof.disable()
    for key in ("cumulative", "tottime"):
        print(f"--- top {top} by {key}")
        pstats.Stats(prof, stream=sys.stdout).sort_stats(key).print_stats(top)


def _ab(args, pages: dict[str, int]) -> None:
    """This tree against another, alternating child processes round by round."""
    trees = {"this": str(ROOT), "other": str(Path(args.ab).resolve())}
    runs: dict[str, list] = {k: [] for k in trees}
    load_before = os.getloadavg()
    for _ in range(args.rounds):
        for label, root in trees.items():
            env = dict(os.environ, PYTHONPATH=root)
            cmd = [sys.executable, __file__, "--data", args.data, "--rounds", "1", "--raw", "--wide", str(args.wide)]
            out = subprocess.run(cmd, env=env, check=True, capture_output=True, text=True).stdout
            runs[label].append({k: tuple(v) for k, v in json.loads(out).items()})
    report = {label: _summary(_best(r), pages) for label, r in runs.items()}
    report["ratio_this_over_other"] = {k: round(report["this"][k] / report["other"][k], 3)
                                       for k in report["this"] if k.endswith(("median", "total"))}
    report["trees"] = trees
    report["rounds"] = args.rounds
    report["load_average"] = {"before": load_before, "after": os.getloadavg()}
    print(json.dumps(report, indent=1))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default=str(DEFAULT_DATA))
    ap.add_argument("--rounds", type=int, default=5, help="parses of every PDF; the best per PDF counts")
    ap.add_argument("--profile", action="store_true", help="cProfile one round: top functions")
    ap.add_argument("--top", type=int, default=30)
    ap.add_argument("--digest", help="write the parse output per PDF to this JSON file")
    ap.add_argument("--compare", help="check the parse output against a digest written before")
    ap.add_argument("--ab", metavar="OTHER_ROOT", help="measure against another source tree, interleaved")
    ap.add_argument("--wide", type=int, default=0, metavar="STRIDE",
                    help="instead of the shared PDFs: every STRIDE-th dev PDF of pdfs-wide (bench/data/wide_split.json)")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--raw", action="store_true", help=argparse.SUPPRESS)  # --ab's child processes
    args = ap.parse_args()
    if not (Path(args.data) / "pdfs" / "manifest.json").exists():
        print(f"shared data not found at {args.data}: nothing to measure", file=sys.stderr)
        return
    listed = _pdfs(Path(args.data), args.wide)
    pages = {p.name: n for p, n in listed}
    if args.ab:
        _ab(args, pages)
        return
    items = [(p, p.read_bytes(), n) for p, n in listed]
    if args.digest or args.compare:
        digests = {p.name: _digest(*_parse(p, data)) for p, data, _ in items}
        if args.digest:
            Path(args.digest).write_text(json.dumps(digests, sort_keys=True, ensure_ascii=False, indent=0))
            sha = hashlib.sha256(json.dumps(digests, sort_keys=True).encode()).hexdigest()[:16]
            print(f"digest of {len(digests)} PDFs written to {args.digest} (sha256 {sha})")
        if args.compare and _compare(digests, args.compare):
            sys.exit(1)
        return
    if args.profile:
        _profile(items, args.top)
        return
    runs = [_time_once(items) for _ in range(args.rounds)]
    if args.raw:
        print(json.dumps(runs[0]))
        return
    best = _best(runs)
    report = _summary(best, pages) | {"rounds": args.rounds, "load_average": os.getloadavg()}
    if args.json:
        report["per_pdf_cpu_ms_per_page"] = {n: round(c * 1000 / pages[n], 1) for n, (c, _) in best.items()}
        print(json.dumps(report, indent=1))
        return
    for n, (c, w) in best.items():
        print(f"{n:50s} {pages[n]:3d} p  cpu {c * 1000 / pages[n]:6.1f}  wall {w * 1000 / pages[n]:6.1f} ms/page")
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
