"""Captions the reader misses on the wide corpus, with no truth needed: labels the text cites that no
caption carries, captions without a region, and captions read as section headings.

Every PDF of a half of bench/data/wide_split.json goes through the reader (`read_pdf`).  A label the
body text cites ("as Figure 8 shows", `captions.cited_labels`) with no caption of that label in the
paper is a missed caption, or a citation of an object the paper does not print (a panel "Figure C"): read
the list by paper.  An S-numbered label ("Figure S1", "Table S2") is counted apart (`cited_supplement`):
mostly a supplement printed in another file.  Counts, then one line per paper with a
symptom.  A symptom count, not a rate against truth.  A cited label matches a caption by its number read
("Table V" is "Table 5").

    python bench/wide_captions.py [--half dev|test] [--data ../shared/data] [--only NAME]
"""

from __future__ import annotations

import argparse
import json
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent


def _scan(args: tuple[str, str]) -> tuple[str, dict]:
    from papershelf.captions import cited_labels, number_parts, parse_caption

    def key(label: str) -> tuple[str, bool, tuple[int, ...]]:  # "Table V" cites the caption "Table 5"
        head, _, num = label.rpartition(" ")
        return head, num[:1] == "S", number_parts(num)  # "Figure S1" is no "Figure 1"
    from papershelf.ingest.pdf import read_pdf

    name, wide = args
    try:
        doc = read_pdf((Path(wide) / name).read_bytes())
    except Exception as e:  # noqa: BLE001 - a file the reader refuses is reported, not fatal
        return name, {"failed": str(e)}
    caps: dict[str, bool] = {}
    no_region: list[str] = []
    as_heading: list[str] = []
    cited: set[str] = set()
    for b in doc.blocks:
        cap = parse_caption(b.text) if b.kind in ("text", "heading") else None
        if b.kind == "caption" and b.object_label:  # recognised by the reader from the paper's structure
            caps.setdefault(b.object_label, b.region is not None)
            no_region += [] if b.region is not None else [f"p{b.page} {b.text[:50]}"]
        elif cap and b.kind == "heading":
            as_heading.append(b.text[:40])
        elif cap:
            caps.setdefault(cap.label, b.region is not None)
            if b.region is None:
                no_region.append(f"p{b.page} {b.text[:50]}")
        elif b.kind == "text":
            cited |= cited_labels(b.text)
    keys = {key(label) for label in caps}
    missing = sorted(label for label in cited if key(label) not in keys and not label.startswith("Supplementary"))
    return name, {"captions": len(caps), "with_region": sum(caps.values()),
                  "cited_not_captioned": [m for m in missing if not key(m)[1]],
                  "cited_supplement": [m for m in missing if key(m)[1]],  # "Figure S1": mostly a supplement's file
                  "no_region": no_region, "as_heading": as_heading}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--half", default="dev", choices=["dev", "test", "all"])
    ap.add_argument("--data", default=str(ROOT.parent.parent / "shared" / "data"))
    ap.add_argument("--only", default="", help="only files whose name holds this")
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    split = json.loads((ROOT / "data" / "wide_split.json").read_text())
    names = sorted(n for n, v in split.items() if args.half in ("all", v["half"]) and args.only in n)
    wide = str(Path(args.data) / "pdfs-wide")
    totals = {"captions": 0, "with_region": 0, "cited_not_captioned": 0, "cited_supplement": 0, "no_region": 0,
              "as_heading": 0}
    with ProcessPoolExecutor(args.workers) as ex:
        for name, r in ex.map(_scan, [(n, wide) for n in names]):
            if "failed" in r:
                print(name, "failed:", r["failed"])
                continue
            for k in totals:
                totals[k] += r[k] if isinstance(r[k], int) else len(r[k])
            if r["cited_not_captioned"] or r["cited_supplement"] or r["no_region"] or r["as_heading"]:
                print(name, json.dumps({k: v for k, v in r.items() if v}, ensure_ascii=False)[:400])
    print(json.dumps({"half": args.half, "files": len(names), **totals}))


if __name__ == "__main__":
    main()
