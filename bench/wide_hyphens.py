"""Line-break fragments left in the wide corpus's body units, truth-free.

A fragment is a hyphenated token in a unit ("prox-imal") whose joined form ("proximal") the same
document prints elsewhere and whose hyphenated form it prints nowhere else.  A compound wrongly
joined is a joined token made at a line break whose hyphenated form the document prints elsewhere
and whose joined form it prints nowhere else (counted on the units' text: a word the document
prints joined only where this reader joined it counts as printed joined, so this undercounts).

    python bench/wide_hyphens.py --half dev      # tune on this
    python bench/wide_hyphens.py --half test     # report this, once
    python bench/wide_hyphens.py --half dev --out after.json   (and before.json from main's tree)
    python bench/wide_hyphens.py --half dev --compare before.json after.json
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from papershelf.errors import IngestError  # noqa: E402
from papershelf.ingest import load_source, parse_source  # noqa: E402
from papershelf.units import build_units  # noqa: E402

SPLIT = ROOT / "bench" / "data" / "wide_split.json"
DATA = ROOT.parent / "shared" / "data"
_WORDS = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")


def hyphenated(texts: list[str]) -> tuple[list[str], list[str]]:
    """(fragments, all hyphenated words) of a document's unit texts, each word once per occurrence:
    a fragment is an ``a-b`` whose joined form ``ab`` the units print too."""
    words = Counter(w for t in texts for w in _WORDS.findall(t.lower()))
    pairs = [(f"{p[i]}-{p[i + 1]}", f"{p[i]}{p[i + 1]}", n) for w, n in words.items() if "-" in w
             for p in [w.split("-")] for i in range(len(p) - 1)]
    return [h for h, j, n in pairs if words.get(j) for _ in range(n)], sorted({h for h, _, _ in pairs})


def compare(before: dict, after: dict) -> None:
    """Compounds wrongly joined: hyphenated words the before run's units print whose joined form they
    do not, gone from the after run's units."""
    lost = {f: sorted(set(before[f]["hyphenated"]) - set(after[f]["hyphenated"]) - set(before[f]["fragments"]))
            for f in before if f in after}
    print("compounds joined (hyphenated words lost, not fragments):", sum(len(v) for v in lost.values()))
    for f, v in lost.items():
        if v:
            print(f"  {f}: {v[:10]}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--half", choices=("dev", "test"), required=True)
    ap.add_argument("--show", action="store_true")
    ap.add_argument("--out", type=Path, help="save per-PDF words here, for --compare")
    ap.add_argument("--compare", nargs=2, type=Path, metavar=("BEFORE", "AFTER"))
    args = ap.parse_args()
    if args.compare:
        return compare(*(json.loads(p.read_text()) for p in args.compare))
    saved: dict[str, dict] = {}
    split = json.loads(SPLIT.read_text())
    files = [DATA / "pdfs-wide" / n for n, v in sorted(split.items()) if v["half"] == args.half]
    total, docs, pages, spent = 0, 0, 0, 0.0
    for f in files:
        try:
            t0 = time.perf_counter()
            doc = parse_source(load_source(str(f)))
            spent += time.perf_counter() - t0
        except IngestError:
            continue
        if doc.ocr_pages:
            continue
        docs += 1
        pages += max((b.page or 0 for b in doc.blocks), default=0)
        texts = [u.text for u in build_units(doc, "p")]
        found, words = hyphenated(texts)
        saved[f.name] = {"fragments": found, "hyphenated": words}
        n = len(found)
        total += n
        if args.show and found:
            print(f"{f.name}: {n} {sorted(set(found))[:8]}")
    print(f"{args.half}: {docs} PDFs, fragments left in units {total}; parse {1000 * spent / max(1, pages):.1f} ms/page")
    if args.out:
        args.out.write_text(json.dumps(saved))


if __name__ == "__main__":
    main()
