"""Reference counts of the shared Zotero library's dev-half PDFs (publishers the wide corpus lacks: a preprint
server, an engineering journal, a book chapter, IEEE and ICML proceedings) against bench/data/zotero_refcounts.json,
counted by hand.  Right within max(1, 5 %), as in `wide_text.py`; *exact* and the entries whose numbered label is
not their place in the list (a split or a join) are shown too.  Dev half only: the test half has no truth here.

    python bench/zotero_refs.py [--data ../shared/data] [-v]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from pdf_authors_zotero import half_of  # noqa: E402

from papershelf.ingest import load_source, parse_source  # noqa: E402
from papershelf.ingest.references import entry_label  # noqa: E402

TRUTH = ROOT / "bench" / "data" / "zotero_refcounts.json"
DATA = ROOT.parent / "shared" / "data"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default=str(DATA))
    ap.add_argument("-v", action="store_true", help="print each paper's count and its off-place labels")
    args = ap.parse_args()
    truth = {k: v for k, v in json.loads(TRUTH.read_text()).items() if not k.startswith("_")}
    out = {"papers": 0, "within_5": 0, "exact": 0, "labels_off": 0}
    for key, n in sorted(truth.items()):
        assert half_of(key) == "dev", key
        pdf = next((Path(args.data) / "zotero" / "storage" / key).glob("*.pdf"))
        refs = parse_source(load_source(str(pdf))).references
        off = [i + 1 for i, r in enumerate(refs) if entry_label(r.text) not in (None, i + 1)]
        out["papers"] += 1
        out["within_5"] += abs(len(refs) - n) <= max(1, 0.05 * n)
        out["exact"] += len(refs) == n
        out["labels_off"] += len(off)
        if args.v:
            print(f"{key} {pdf.name[:40]}: {len(refs)} | truth {n}" + (f", labels off at {off[:5]}" if off else ""))
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
