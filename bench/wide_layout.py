"""How faithfully the PDF reader reads the wide corpus (../shared/data/pdfs-wide, ~70 publishers).

Every PDF goes through the real reader as `add` does (`parse_source`, then `build_units`), in a pool
of worker processes, each file bounded in CPU time (`--timeout` seconds a page) and memory and memory; a failure is one line with
its reason (only a missing OCR engine may fail).  Per half of bench/data/wide_split.json (split by
publisher family: tune on dev, report test once) and overall:

* files failed (with reasons) and parse seconds per page (CPU time in the worker, and wall);
* titles right (the manifest's title, letters and digits compared) and years right / wrong;
* from the structured twins (bench/data/wide_twins.json, written by bench/wide_truth.py):
  captions recall (an object unit with the twin's label), table cells findable (the table unit's
  text holds the printed value; with `--search`, also a lexical ``--kind table`` search in a temporary
  library puts that table in its top 3), regions right (on the caption's page, not a sliver, every
  truth cell inside it, no paragraph of running text meeting it), authors (first author's surname
  and the count) and non-authors, reference counts within 5 %, section headings P/R
  (bench/pdf_headings_score.py);
* body units with glyph artefacts: a word with ``_`` or ``^`` between letters, or a control or
  private-use character.

    python bench/wide_layout.py [--half dev|test|all] [--workers 2] [--timeout 8] [--search] [--json] [-v]
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import re
import resource
import signal
import time
import unicodedata
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from pdf_headings_score import plain, score_paper, sum_scores
from pdf_objects import check_region
from queryset import log
from wide_truth import corpus_missing, wide_dir, wide_parser

ROOT = Path(__file__).resolve().parent
SPLIT = ROOT / "data" / "wide_split.json"
TWINS = ROOT / "data" / "wide_twins.json"
_ARTEFACT = re.compile(r"[^\W\d_][_^][^\W\d_]|[\x00-\x08\x0b-\x1f\x7f\ue000-\uf8ff]")
MEMORY_BYTES = 3 * 2**30


class _Timeout(BaseException):
    """Not an Exception: the reader turns those into a one-line parse error."""


def _alarm(_sig, _frame):
    raise _Timeout


def glyph_artefact(text: str) -> str | None:
    """Where a word is broken by an unmapped glyph (``_gure`` inside a word, ``m^esons``) or holds a
    control or private-use character: the text around it, else None."""
    m = _ARTEFACT.search(text) or next((m for m in re.finditer(r"\S", text) if unicodedata.category(m.group()) == "Co"),
                                       None)
    return None if m is None else text[max(0, m.start() - 25):m.end() + 25]


def _objects(units) -> dict[str, dict]:
    out: dict[str, dict] = {}
    for u in units:
        if u.kind == "object" and u.object_label and u.object_label not in out:
            out[u.object_label] = {"kind": u.object_kind, "region": u.region, "table_text": u.table_text or ""}
    return out


def _regions(data: bytes, objects: dict, truth: dict) -> list[tuple[str, bool, str]]:
    """Each twin caption's region checked (pdf_objects.check_region) on the PDF itself."""
    import pypdfium2 as pdfium

    cells = {t["label"]: t["cells"] for t in truth["tables"]}
    out = []
    pdf = pdfium.PdfDocument(data)
    try:
        for cap in truth["captions"]:
            outside = truth["outside"].get(str(cap["page"]), [])
            item = {"page": cap["page"], "cells": cells.get(cap["label"], [])}
            obj = objects.get(cap["label"])
            unit = type("U", (), {"region": obj["region"]})() if obj else None
            ok, why = check_region(pdf, unit, item)
            if ok and unit is not None:
                for phrase in outside:
                    ok, why = check_region(pdf, unit, {**item, "outside": phrase})
                    if not ok:
                        break
            out.append((cap["label"], ok, why))
    finally:
        pdf.close()
    return out


def parse_one(path: str, timeout: float, twin: dict | None) -> dict:
    """One file through the reader as `add` reads it; the facts the scores need (runs in a worker)."""
    from papershelf.errors import IngestError
    from papershelf.ingest import SourceFile, parse_source
    from papershelf.units import build_units

    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_BYTES, MEMORY_BYTES))
    signal.signal(signal.SIGPROF, _alarm)  # CPU time, not wall: a loaded machine must not fail a file
    signal.setitimer(signal.ITIMER_PROF, timeout)
    data = Path(path).read_bytes()
    t0, c0 = time.perf_counter(), time.process_time()
    try:
        doc = parse_source(SourceFile(path, data, hashlib.sha256(data).hexdigest()))
        units = build_units(doc, "p")
    except IngestError as e:
        return {"error": str(e)}
    except _Timeout:
        return {"error": f"over the {timeout:.0f} s (CPU) bound"}
    except MemoryError:
        return {"error": "over the memory bound"}
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
    out: dict[str, Any] = {"wall": time.perf_counter() - t0, "cpu": time.process_time() - c0, "title": doc.title,
           "year": doc.year, "authors": doc.authors, "references": len(doc.references),
           "body_units": sum(1 for u in units if u.kind == "body"),
           "artefacts": [a for u in units if u.kind == "body" and (a := glyph_artefact(u.text))],
           "objects": _objects(units)}
    if twin is not None:
        out["headings"] = score_paper(doc.blocks, twin["headings"])
        out["regions"] = _regions(data, out["objects"], twin)
    return out


def _share(a: int, b: int) -> float | None:
    return round(a / b, 3) if b else None


def _twin_scores(results: dict, twins: dict, fails: list[str]) -> dict:
    caps = caps_ok = cells = cells_ok = regions = regions_ok = 0
    authors = authors_ok = non_authors = refs = refs_ok = 0
    heads = []
    for f, r in results.items():
        t = twins.get(f)
        if t is None or "error" in r:
            continue
        objs = r["objects"]
        for c in t["captions"]:
            caps += 1
            caps_ok += c["label"] in objs
            if c["label"] not in objs:
                fails.append(f"caption {f} {c['label']}: not found")
        for tab in t["tables"]:
            text = plain(objs.get(tab["label"], {}).get("table_text", ""))
            for cell in tab["cells"]:
                cells += 1
                cells_ok += plain(cell) in text
                if plain(cell) not in text:
                    fails.append(f"cell {f} {tab['label']}: {cell!r}")
        for label, ok, why in r["regions"]:
            regions += 1
            regions_ok += ok
            if not ok:
                fails.append(f"region {f} {label}: {why}")
        if t["authors"]:
            authors += 1
            truth = [plain(a.split()[-1]) for a in t["authors"]]
            got = r["authors"]
            first = bool(got) and truth[0] in plain(got[0])
            authors_ok += first and len(got) == len(truth)
            wrong = [a for a in got if not any(s in plain(a) for s in truth)]
            non_authors += len(wrong)
            if not (first and len(got) == len(truth)) or wrong:
                fails.append(f"authors {f}: {got} (truth {t['authors']})")
        refs += 1
        refs_ok += abs(r["references"] - t["references"]) <= 0.05 * t["references"]
        if abs(r["references"] - t["references"]) > 0.05 * t["references"]:
            fails.append(f"references {f}: {r['references']} (truth {t['references']})")
        heads.append(r["headings"])
        fails += [f"heading missed {f}: {h}" for h in r["headings"]["missed"]]
        fails += [f"heading spurious {f}: {h}" for h in r["headings"]["spurious"]]
    h = sum_scores(heads) if heads else {}
    return {"twins": len(heads), "captions_recall": _share(caps_ok, caps), "captions": caps,
            "table_cells_in_text": _share(cells_ok, cells), "cells": cells,
            "regions_right": _share(regions_ok, regions), "regions": regions,
            "authors_first_and_count": f"{authors_ok}/{authors}", "non_authors": non_authors,
            "references_within_5pct": f"{refs_ok}/{refs}",
            "headings_precision": h.get("precision"), "headings_recall": h.get("recall")}


def _norm_title(s: str | None) -> str:
    return plain(unicodedata.normalize("NFKD", s or "").encode("ascii", "ignore").decode())


def score(files: list[dict], results: dict, twins: dict) -> dict:
    """The half's numbers (and its failure lines under "failures")."""
    fails: list[str] = []
    ok = [f for f in files if "error" not in results[f["file"]]]
    failed = [f"{f['file']}: {results[f['file']]['error']}" for f in files if f not in ok]
    pages = sum(f["pages"] for f in ok)
    titles = sum(_norm_title(results[f["file"]]["title"]) == _norm_title(f["title"]) for f in ok)
    for f in ok:
        if _norm_title(results[f["file"]]["title"]) != _norm_title(f["title"]):
            fails.append(f"title {f['file']}: {results[f['file']]['title']!r}")
    dated = [f for f in ok if f.get("year")]
    years_right = sum(results[f["file"]]["year"] == f["year"] for f in dated)
    years_wrong = sum(results[f["file"]]["year"] not in (None, f["year"]) for f in dated)
    for f in dated:
        if results[f["file"]]["year"] != f["year"]:
            fails.append(f"year {f['file']}: {results[f['file']]['year']} (manifest {f['year']})")
    body = sum(results[f["file"]]["body_units"] for f in ok)
    artefacts = sum(len(results[f["file"]]["artefacts"]) for f in ok)
    fails += [f"glyphs {f['file']}: {t!r}" for f in ok for t in results[f["file"]]["artefacts"][:3]]
    out = {"files": len(files), "pages": pages, "failed": len(failed),
           "s_per_page_cpu": round(sum(results[f["file"]]["cpu"] for f in ok) / max(pages, 1), 4),
           "s_per_page_wall": round(sum(results[f["file"]]["wall"] for f in ok) / max(pages, 1), 4),
           "titles_right": f"{titles}/{len(ok)}", "years_right": f"{years_right}/{len(dated)}",
           "years_wrong": years_wrong, "object_units": sum(len(results[f["file"]]["objects"]) for f in ok),
           "body_units_with_glyph_artefacts": _share(artefacts, body)}
    out |= _twin_scores({f["file"]: results[f["file"]] for f in files}, twins, fails)
    out["failures"] = failed + fails
    return out


def _bound(rec: dict, per_page: float) -> float:
    """A file's time bound: `per_page` seconds a page (OCR reads a scan's pages), at least a minute."""
    return max(60.0, per_page * rec["pages"])


def run(data: Path, half: str, workers: int, timeout: float, search: bool, limit: int = 0) -> dict:
    wide = wide_dir(data)
    manifest = json.loads((wide / "manifest.json").read_text())
    split = json.loads(SPLIT.read_text())
    twins = {k: v for k, v in json.loads(TWINS.read_text()).items() if not k.startswith("_")}
    files = [m for m in manifest if half == "all" or split[m["file"]]["half"] == half][:limit or None]
    results: dict[str, dict] = {}
    # spawned, not forked: a fork of this process (threads of the libraries it imported) can hang
    with ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn")) as pool:
        futures = {m["file"]: pool.submit(parse_one, str(wide / m["file"]), _bound(m, timeout), twins.get(m["file"]))
                   for m in files}
        for m in files:
            try:
                results[m["file"]] = futures[m["file"]].result(timeout=_bound(m, timeout) * 20 + 120)
            except Exception as e:  # noqa: BLE001 - a worker that died is that file's failure, not the run's
                results[m["file"]] = {"error": f"worker: {type(e).__name__}: {e}"}
    halves = ["dev", "test"] if half == "all" else [half]
    out = {h: score([m for m in files if split[m["file"]]["half"] == h], results, twins) for h in halves}
    if half == "all":
        out["all"] = score(files, results, twins)
    if search:
        for h in halves:
            out[h]["cell_search_top3"] = _search(wide, [m["file"] for m in files if split[m["file"]]["half"] == h],
                                                 twins, out[h]["failures"])
    return out


def _search(wide: Path, files: list[str], twins: dict, failures: list[str]) -> float | None:
    """`pdf_objects._cell_search` over the twins of these files."""
    from pdf_objects import _cell_search

    truth = {f: twins[f]["tables"] for f in files if f in twins and twins[f]["tables"]}
    if not truth:
        return None
    hits, tried = _cell_search(wide, sorted(truth), truth, failures)
    return _share(hits, tried)


def main() -> None:
    ap = wide_parser(__doc__)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=8.0, help="seconds a page may take (a file: at least 60)")
    ap.add_argument("--search", action="store_true", help="also a --kind table search per truth cell")
    ap.add_argument("--limit", type=int, default=0, help="only the first N files (a quick check)")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("-v", "--verbose", action="store_true", help="list every failure")
    args = ap.parse_args()
    if corpus_missing(args.data):
        return
    out = run(Path(args.data), args.half, args.workers, args.timeout, args.search, args.limit)
    if not args.verbose:
        for h in out.values():
            h["failures"] = [f for f in h["failures"] if f.split(" ", 1)[0].endswith(".pdf:")]
    if args.json:
        print(json.dumps(out, indent=1, ensure_ascii=False))
        return
    for h, numbers in out.items():
        print(f"== {h}")
        for k, v in numbers.items():
            if k != "failures":
                print(f"  {k:34s} {v}")
        for line in numbers["failures"]:
            log(f"  {line}")


if __name__ == "__main__":
    main()
