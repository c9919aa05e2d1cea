"""Why `ask` misses: each answerable question whose right evidence is not in the top 3, classed by where the
answering sentence was lost.

    (a) retrieval  — no unit holding the phrase is among the scored passages (search + the best paper's units)
    (b) ranking    — a scored sentence holds the phrase (on the right page) but ranks below the top 3
    (c) splitting  — the phrase's unit was scored, but no single sentence holds the phrase
    (d) page       — a sentence holding the phrase ranks in the top 3, but is placed on another page
    (e) truth      — no unit of the right paper holds the phrase at all (the reader's text, or the truth)

    python bench/ask_misses.py LIBRARY.db --half dev [--json misses.json]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from ask_eval import capture, letters, questions, right  # noqa: E402

from papershelf import Library  # noqa: E402
from papershelf import ask as A  # noqa: E402


def truth_places(lib: Library, q: dict) -> list[tuple[str, int]]:
    return [(q["file"], q["page"])] + [(a["file"], a["page"]) for a in q.get("also", [])]


def classify(lib: Library, q: dict, seen: dict, by_file: dict) -> dict:
    """The class of one miss, with the rank of the best sentence holding the phrase when there is one."""
    phrase = letters(q["phrase"])
    files = {f for f, _ in truth_places(lib, q)}
    pages = set(truth_places(lib, q))
    holders = [u for f in files for pid in by_file.get(f, []) for u in lib.store.paper_units(pid)
               if phrase in letters(u.text)]
    out = {"id": q["id"], "question": q["question"], "phrase": q["phrase"], "file": q["file"], "page": q["page"]}
    if not holders:
        out["class"] = "e"
        return out
    scored = {u.id for u, _ in seen["passages"]}
    out["passage_rank"] = next((i for i, (u, _) in enumerate(seen["passages"]) if u.id in {h.id for h in holders}),
                               None)
    if not scored & {h.id for h in holders}:
        out["class"] = "a"
        out["holder_pages"] = sorted({(h.page_start, h.page_end) for h in holders}, key=str)
        out["holder_kinds"] = sorted({h.kind for h in holders})
        return out
    cands = sorted(seen["cands"], key=lambda c: -c.score)  # best first
    hits = [i for i, c in enumerate(cands) if phrase in letters(c.unit.text[c.start:c.end])]
    if not hits:
        out["class"] = "c"
        return out
    i = hits[0]
    c = cands[i]
    paper = lib.store.get_paper(c.unit.paper_id)
    page = A.page_of(c.unit, c.unit.text[c.start:c.end], paper.source_path if paper else None)
    out["rank"] = i
    out["sentence"] = c.unit.text[c.start:c.end][:200]
    out["top"] = [cands[j].unit.text[cands[j].start:cands[j].end][:120] for j in range(3)]
    name = os.path.basename(paper.source_path or "") if paper else ""
    out["class"] = "d" if (name, page) not in pages else "b"
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("library")
    ap.add_argument("--half", choices=("dev", "test", "all"), default="dev")
    ap.add_argument("--json")
    args = ap.parse_args()
    misses = []
    with capture() as seen, Library(args.library, create=False) as lib:
        by_file: dict[str, list[str]] = {}
        for pid in lib.store.paper_ids():
            p = lib.store.get_paper(pid)
            if p and p.source_path:
                by_file.setdefault(os.path.basename(p.source_path), []).append(pid)
        for q in questions(args.half):
            if not q["answerable"]:
                continue
            resp = lib.ask(q["question"], limit=8)
            if not right(lib, q, resp.evidence):
                misses.append(classify(lib, q, seen, by_file))
    counts: dict[str, int] = {}
    for m in misses:
        counts[m["class"]] = counts.get(m["class"], 0) + 1
        print(m["class"], m["id"], m.get("rank"), m.get("passage_rank"), m["question"], "|", m["phrase"])
    print(json.dumps(counts, sort_keys=True))
    if args.json:
        Path(args.json).write_text(json.dumps(misses, indent=1))


if __name__ == "__main__":
    main()
