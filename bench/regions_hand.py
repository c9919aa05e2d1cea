"""Figure and table regions against boxes written by hand (bench/data/regions_hand.json), by overlap.

The other region benches check a region by what it holds (cells, a word inside, a neighbouring phrase
outside) or by construction (generated papers).  This one grades the box itself on real pages of
publishers nobody tuned on: each object's own box (drawing, picture or table, not its caption) was
read off the rendered page by hand.  Only development-half files are in the truth.

* Caption found: an object unit with the truth's label (the first such unit is graded).
* Region right: that unit's region is on the truth's page and its IoU with the hand box is at least
  0.5 (the hand boxes are good to about 5 pt); also reported: mean IoU, and per file.

    python bench/regions_hand.py [--data ../shared/data] [--only NAME] [--json] [-v]
"""

from __future__ import annotations

import json
from pathlib import Path

from queryset import hand_truth_main, iou

ROOT = Path(__file__).resolve().parent
TRUTH = ROOT / "data" / "regions_hand.json"
RIGHT = 0.5


def grade(units, items: list[dict]) -> list[tuple[dict, bool, float, str]]:
    """Each truth item: (item, caption found, IoU on the right page, why not right)."""
    first: dict[str, object] = {}
    for u in units:
        if u.kind == "object" and u.object_label and u.object_label not in first:
            first[u.object_label] = u
    out = []
    for item in items:
        unit = first.get(item["label"])
        region = getattr(unit, "region", None)
        if unit is None:
            out.append((item, False, 0.0, "no caption"))
        elif region is None:
            out.append((item, True, 0.0, "no region"))
        elif region["page"] != item["page"]:
            out.append((item, True, 0.0, f"page {region['page']}"))
        else:
            got = iou(region["bbox"], item["box"])
            why = "" if got >= RIGHT else "box " + ",".join(str(round(v)) for v in region["bbox"])
            out.append((item, True, got, why))
    return out


def run(data: Path, only: str, verbose: bool) -> dict:
    from papershelf.ingest.pdf import read_pdf
    from papershelf.units import build_units

    truth = {k: v for k, v in json.loads(TRUTH.read_text()).items() if not k.startswith("_") and only in k}
    found = right = total = 0
    ious: list[float] = []
    per_file: dict[str, str] = {}
    failures: list[str] = []
    for name, items in sorted(truth.items()):
        rows = grade(build_units(read_pdf((data / name).read_bytes()), "p"), items)
        ok = sum(g >= RIGHT for _, _, g, _ in rows)
        per_file[name.split("/")[-1][:40]] = f"{ok}/{len(rows)}"
        for item, cap, got, why in rows:
            total += 1
            found += cap
            right += got >= RIGHT
            ious.append(got)
            if why:
                failures.append(f"{name.split('/')[-1][:40]} p{item['page']} {item['label']}: {why} (IoU {got:.2f})")
    out: dict = {"files": len(truth), "objects": total, "captions_found": round(found / max(total, 1), 3),
                 "regions_right": round(right / max(total, 1), 3),
                 "mean_iou": round(sum(ious) / max(len(ious), 1), 3), "per_file": per_file}
    if verbose:
        out["failures"] = failures
    return out


def main() -> None:
    hand_truth_main(__doc__, run, "object")


if __name__ == "__main__":
    main()
