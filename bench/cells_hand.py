"""Table cells against cells read by hand (bench/data/cells_hand.json): found, whole, and rows kept apart.

wide_tagged.py grades a table's cells by the publisher's structure tree, but only a tagged PDF has
one, and it asks only that a printed value occur somewhere in the table's text.  This bench grades
untagged tables of publishers nobody tuned on, against their printed cells read off the rendered page
(the header row's cells, spanning heads included, and a sample of body rows, each row's cells left to
right, empty cells left out).  Only development-half files are in the truth.  The first object unit
with the truth's label is graded, its ``table_text`` (rows as lines, cells split by `` | ``):

* cells found: the printed cell in the table's text (as wide_tagged.py: letters and digits only);
* cells whole: the printed cell is one cell of the table's text, neither cut nor run into its
  neighbour (columns kept apart);
* rows right: a body row of the truth is one row of the table's text, cell for cell (rows and
  columns kept apart, a wrapped cell joined).

    python bench/cells_hand.py [--data ../shared/data] [--only NAME] [--json] [-v]
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pdf_headings_score import plain
from queryset import hand_truth_main

ROOT = Path(__file__).resolve().parent
TRUTH = ROOT / "data" / "cells_hand.json"


def table_rows(text: str) -> list[list[str]]:
    """A table's text as rows of cells, each cell as `plain` reads it (empty cells left out)."""
    return [[c for c in (plain(cell) for cell in line.split(" | ")) if c] for line in text.splitlines()]


def grade(text: str, item: dict) -> dict[str, Any]:
    """Counts for one table: cells (and found, whole) over header and rows, rows (and right)."""
    rows = table_rows(text)
    flat, cells = plain(text), {c for r in rows for c in r}
    out = {"cells": 0, "found": 0, "whole": 0, "rows": 0, "rows_right": 0}
    missed: list[str] = []
    for cell in [*item["header"], *(c for r in item["rows"] for c in r)]:
        c = plain(cell)
        if not c:
            continue  # a dash: nothing a search could find
        out["cells"] += 1
        out["found"] += c in flat
        out["whole"] += c in cells
        if c not in cells:
            missed.append(cell if c in flat else f"{cell} (not found)")
    for row in item["rows"]:
        want = [c for c in (plain(x) for x in row) if c]
        out["rows"] += 1
        out["rows_right"] += want in rows
        if want not in rows:
            missed.append("row " + " | ".join(row)[:60])
    return {**out, "missed": missed}


def run(data: Path, only: str, verbose: bool) -> dict:
    from papershelf.ingest.pdf import read_pdf
    from papershelf.units import build_units

    truth = {k: v for k, v in json.loads(TRUTH.read_text()).items() if not k.startswith("_") and only in k}
    total = {"tables": 0, "cells": 0, "found": 0, "whole": 0, "rows": 0, "rows_right": 0}
    per_table: dict[str, str] = {}
    failures: list[str] = []
    for name, items in sorted(truth.items()):
        first: dict[str, str] = {}
        for u in build_units(read_pdf((data / name).read_bytes()), "p"):
            if u.kind == "object" and u.object_label and u.object_label not in first:
                first[u.object_label] = u.table_text or ""
        for item in items:
            g = grade(first.get(item["label"], ""), item)
            total["tables"] += 1
            for k in ("cells", "found", "whole", "rows", "rows_right"):
                total[k] += g[k]
            key = f"{name.split('/')[-1][:28]} {item['label']}"
            per_table[key] = f"cells {g['whole']}/{g['cells']} whole, rows {g['rows_right']}/{g['rows']}"
            failures += [f"{key}: {m}" for m in g["missed"]]
    out: dict = {"files": len(truth), "tables": total["tables"], "cells": total["cells"],
                 "cells_found": round(total["found"] / max(total["cells"], 1), 3),
                 "cells_whole": round(total["whole"] / max(total["cells"], 1), 3),
                 "rows": total["rows"], "rows_right": round(total["rows_right"] / max(total["rows"], 1), 3),
                 "per_table": per_table}
    if verbose:
        out["failures"] = failures
    return out


def main() -> None:
    hand_truth_main(__doc__, run, "cell and row")


if __name__ == "__main__":
    main()
