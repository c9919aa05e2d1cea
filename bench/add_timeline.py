"""When each paper of a library became searchable by words: its `added_at`, from the library itself.

bench/scale_build.py counts papers every 5 s but keeps one count a minute in its report; a paper's
`added_at` is the time its one transaction wrote it, so the whole add can be read back afterwards, with
its stalls (the longest gaps between two papers) and the file each stall waited for.

    python bench/add_timeline.py /tmp/scale7/p1000/library.db --start 1796588705.61
"""

from __future__ import annotations

import argparse
import json
import sqlite3
from pathlib import Path


def timeline(library: Path, start: float | None) -> dict:
    with sqlite3.connect(f"file:{library}?mode=ro", uri=True) as db:
        rows = db.execute("SELECT added_at, source_path FROM papers ORDER BY added_at").fetchall()
    t0 = start if start is not None else rows[0][0]
    times = [t - t0 for t, _ in rows]
    minutes = range(1, int(times[-1] // 60) + 2)
    gaps = sorted(((times[i] - times[i - 1], i) for i in range(1, len(times))), reverse=True)[:5]
    return {
        "papers": len(rows),
        "first_s": round(times[0], 1),
        "last_s": round(times[-1], 1),
        "papers_by_minute": {m: sum(t <= 60 * m for t in times) for m in minutes},
        "longest_gaps": [{"from_s": round(times[i - 1]), "gap_s": round(g), "then": Path(rows[i][1] or "").name}
                         for g, i in gaps],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("library")
    ap.add_argument("--start", type=float, default=None, help="the command's start (epoch s); default: first paper")
    args = ap.parse_args()
    print(json.dumps(timeline(Path(args.library), args.start), indent=1))


if __name__ == "__main__":
    main()
