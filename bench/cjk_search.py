"""Chinese and Japanese papers searched by their words (issue 26).

The papers are bench/data/cjk/ (eight short papers written for this project, four Chinese and
four Japanese, with figures and tables), in one library with the English examples/ papers as
distractors.  bench/data/cjk_queries.tsv holds 30 queries in CJK script with the paper each
names (and, for caption queries, the kind: searched with that kind filter); the split column
(alternate ids, fixed before any tuning) says dev or test.

Reported per mode (lexical; hybrid with the configured local model): the right paper first,
a caption query's figure/table first, and how many queries `no_confident_match` flags (the
split's queries, and off-topic CJK queries about nothing in the library).  `--size` also
measures index size and add time for CJK text with and without the CJK bigrams, on copies of
the eight papers.

    python bench/cjk_search.py --split test
    python bench/cjk_search.py --split test --library postgresql://localhost/cjk   # an empty database
    python bench/cjk_search.py --split test --distractors 1000   # with 1,000 SciFact abstracts beside them
    python bench/cjk_search.py --size 50
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from papershelf import Filters, Library, SearchOptions  # noqa: E402
from papershelf.models import SearchMode  # noqa: E402

DATA = ROOT / "bench" / "data"
SHARED = Path(os.environ.get("PAPERSHELF_SHARED_DATA", ROOT.parent / "shared" / "data"))
OFF_TOPIC = ["量子计算机的纠错码", "火山噴火の予知", "股票市场的波动率", "和菓子の製法", "足球比赛的战术分析",
             "宇宙背景放射の観測"]


def queries(split: str) -> list[dict]:
    with open(DATA / "cjk_queries.tsv", encoding="utf-8") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    return [r for r in rows if split == "all" or r["split"] == split]


def evaluate(lib: Library, qs: list[dict], mode: SearchMode) -> dict:
    first = flagged = objects = objects_first = 0
    misses = []
    for q in qs:
        filters = Filters(object_kind=q["kind"]) if q["kind"] else Filters()
        resp = lib.search(q["query"], SearchOptions(mode=mode, limit=5, filters=filters))
        top = resp.results[0] if resp.results else None
        ok = top is not None and top.paper_id == q["paper"]
        first += ok
        flagged += resp.no_confident_match
        if q["kind"]:
            objects += 1
            objects_first += ok and top is not None and top.object_kind == q["kind"]
        if not ok:
            misses.append((q["id"], q["query"], top.paper_id if top else None))
    off = sum(lib.search(q, SearchOptions(mode=mode)).no_confident_match for q in OFF_TOPIC)
    return {"mode": mode, "queries": len(qs), "right_paper_first": round(first / len(qs), 4),
            "caption_queries": objects, "caption_object_first": objects_first,
            "no_confident_match_on_queries": round(flagged / len(qs), 4),
            "no_confident_match_off_topic": f"{off}/{len(OFF_TOPIC)}", "misses": misses}


def quality(location: str, split: str, modes: list[SearchMode], distractors: int) -> list[dict]:
    with Library(location) as lib:
        lib.add([str(DATA / "cjk"), str(ROOT / "examples")])
        if distractors:  # a library of some size: English abstracts, as most of a real library would be
            from papershelf.beir import build_library, load_beir

            build_library(lib, load_beir(str(SHARED / "scifact"))[0][:distractors])
        if "hybrid" in modes:
            lib.embed()
        return [evaluate(lib, queries(split), m) for m in modes]


def _copies(folder: Path, n: int) -> None:
    for p in sorted((DATA / "cjk").glob("*.md")):
        text = p.read_text(encoding="utf-8")
        for i in range(n):
            (folder / f"{p.stem}-{i}.md").write_text(text.replace(f"citekey: {p.stem}", f"citekey: {p.stem}-{i}"),
                                                     encoding="utf-8")


def size(n: int) -> dict:
    """Index size and add time with bigrams (now) and with CJK runs as one token (before)."""
    import papershelf.store.sqlite as sqlite_store

    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "papers"
        folder.mkdir()
        _copies(folder, n)
        for name, fn in (("before", lambda text: text), ("after", sqlite_store.index_text)):
            saved = sqlite_store.index_text
            sqlite_store.index_text = fn
            try:
                path = Path(tmp) / f"{name}.db"
                t = time.perf_counter()
                with Library(str(path)) as lib:
                    lib.add([str(folder)])
                seconds = time.perf_counter() - t
            finally:
                sqlite_store.index_text = saved
            db = sqlite3.connect(path)
            db.execute("VACUUM")
            fts = db.execute("SELECT sum(pgsize) FROM dbstat WHERE name LIKE 'search_fts%' OR name = 'search_docs'"
                             ).fetchone()[0]
            total = db.execute("PRAGMA page_count").fetchone()[0] * db.execute("PRAGMA page_size").fetchone()[0]
            db.close()
            out[name] = {"papers": 8 * n, "add_seconds": round(seconds, 2), "file_bytes": total, "index_bytes": fts}
    out["index_ratio"] = round(out["after"]["index_bytes"] / out["before"]["index_bytes"], 3)
    out["file_ratio"] = round(out["after"]["file_bytes"] / out["before"]["file_bytes"], 3)
    out["add_time_ratio"] = round(out["after"]["add_seconds"] / out["before"]["add_seconds"], 3)
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--split", choices=("dev", "test", "all"), default="dev")
    ap.add_argument("--library", default=None, help="an empty library to build (default: a temporary SQLite file)")
    ap.add_argument("--modes", default="lexical,hybrid")
    ap.add_argument("--distractors", type=int, default=0, help="also add the first N SciFact abstracts")
    ap.add_argument("--size", type=int, default=0, help="also measure size and add time on N copies of each paper")
    a = ap.parse_args()
    report: dict = {"split": a.split, "distractors": a.distractors}
    with tempfile.TemporaryDirectory() as tmp:
        location = a.library or os.path.join(tmp, "cjk.db")
        report["results"] = quality(location, a.split, a.modes.split(","), a.distractors)
    if a.size:
        report["size"] = size(a.size)
    print(json.dumps(report, ensure_ascii=False, indent=2))


if __name__ == "__main__":
    main()
