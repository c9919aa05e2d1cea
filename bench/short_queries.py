"""What researchers actually type: author names, keywords, labels, pasted sentences, off-topic words.

Builds (or reuses with --keep PATH) one library of the shared PDFs and the shared Zotero data
directory, embedded with the default local model, and runs every query of
bench/data/short_queries.jsonl in hybrid and lexical mode (default options, 10 results; a label
query marked `paper_filter` is searched within its paper, as `--paper ID` would).  Success:

* author:   one of that author's papers (`files`) among the first 3 hits;
* keyword:  the first hit is in the right paper;
* label:    the first hit is the object (object_unit of the right paper whose label names the same
            object: "Table 4" = "Table IV");
* quote:    the first hit is in the right paper and its pages hold `page`;
* offtopic: nothing in the library answers it.

Flagged = the response says `no_confident_match`.  Reported per type and mode: the success
rate, the share of successful (answered) queries flagged, and of off-topic queries flagged.
The split is by id: EVEN ids are the fit half (what relevance was fitted on and what was looked
at while working), ODD ids the test half, measured once at the end; `--half fit|test|all`.
A file is a PDF's name in pdfs/, or `zotero:KEY` for the Zotero attachment in storage/KEY/.

    python bench/short_queries.py --keep /tmp/short.db [--data ../shared/data] [--half test] [--json]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from queryset import DEFAULT_DATA, ROOT, id_number, log, open_library

from papershelf import Filters, Library, SearchOptions
from papershelf.ingest.captions import query_labels
from papershelf.models import SearchMode

QUERIES = ROOT / "bench" / "data" / "short_queries.jsonl"
TYPES = ("author", "keyword", "label", "quote", "offtopic")
MODES: tuple[SearchMode, ...] = ("hybrid", "lexical")


def build(lib: Library, data: Path) -> None:
    """Add the PDFs and the Zotero data directory (unchanged files are skipped) and embed what is pending."""
    lib.add([str(data / "pdfs"), str(data / "zotero")])
    pending = len(lib.pending())
    if pending:
        log(f"embedding {pending} papers with the default local model...")
        lib.embed()


def file_papers(lib: Library, data: Path) -> dict[str, str]:
    """file name (PDF) or zotero:KEY -> paper id, through every source file of every paper."""
    out: dict[str, str] = {}
    for source in lib.store.sources():
        path = Path(source.path)
        if path.parent.name == "pdfs" or path.parent.resolve() == (data / "pdfs").resolve():
            out[path.name] = source.paper_id
        if path.parent.parent.name == "storage":
            out["zotero:" + path.parent.name] = source.paper_id
    return out


def label_key(label: str | None):
    found = query_labels(label or "")
    return found[0][0].key if found else None


def judge(q: dict, hits: list, papers: dict[str, str]) -> bool | None:
    """Whether the response answers the query (None for off-topic queries)."""
    if q["type"] == "offtopic":
        return None
    want = {papers.get(f) for f in q["files"]} - {None}
    if q["type"] == "author":
        return any(h.paper_id in want for h in hits[:3])
    if not hits or hits[0].paper_id not in want:
        return False
    top = hits[0]
    if q["type"] == "label":
        return top.source == "object_unit" and label_key(top.object_label) == label_key(q["label"])
    if q["type"] == "quote":
        first, _, last = (top.pages or "").partition("-")  # "3" or "3-5"
        return bool(first) and int(first) <= q["page"] <= int(last or first)
    return True


def run(lib: Library, queries: list[dict], papers: dict[str, str], mode: SearchMode) -> list[dict]:
    rows = []
    for q in queries:
        filters = Filters()
        if q.get("paper_filter"):
            filters = Filters(papers=[papers[q["files"][0]]])
        resp = lib.search(q["query"], SearchOptions(mode=mode, filters=filters, explain=True))
        top = resp.results[0] if resp.results else None
        x = top.explain.to_dict() if top is not None and top.explain is not None else {}
        rows.append({"id": q["id"], "type": q["type"], "mode": mode, "query": q["query"],
                     "answered": judge(q, resp.results, papers), "flagged": resp.no_confident_match,
                     "relevance": top.relevance if top else None,
                     "top": {"paper": top.paper_id, "label": top.object_label, "pages": top.pages} if top else None,
                     "signals": {k: x.get(k) for k in ("cosine", "bm25", "bm25_norm", "coverage", "field_match")}})
    return rows


def summary(rows: list[dict]) -> dict:
    out: dict = {}
    for mode in MODES:
        m = [r for r in rows if r["mode"] == mode]
        per = {}
        for t in TYPES:
            group = [r for r in m if r["type"] == t]
            if not group:
                continue
            if t == "offtopic":
                per[t] = {"n": len(group), "flagged": round(sum(r["flagged"] for r in group) / len(group), 3)}
                continue
            ok = [r for r in group if r["answered"]]
            per[t] = {"n": len(group), "success": round(len(ok) / len(group), 3),
                      "answered_flagged": round(sum(r["flagged"] for r in ok) / max(1, len(ok)), 3)}
        answered = [r for r in m if r["answered"]]
        per["answered_flagged"] = round(sum(r["flagged"] for r in answered) / max(1, len(answered)), 3)
        out[mode] = per
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default=str(DEFAULT_DATA))
    ap.add_argument("--keep", help="build the library here (or reuse it)")
    ap.add_argument("--half", choices=("fit", "test", "all"), default="fit")
    ap.add_argument("--modes", default=",".join(MODES))
    ap.add_argument("--json", action="store_true", help="per-query rows and the summary")
    args = ap.parse_args()
    data = Path(args.data)
    if not (data / "pdfs").is_dir() or not (data / "zotero").is_dir():
        log(f"shared data not found at {data} (pass --data PATH): nothing to measure")
        return
    queries = [json.loads(line) for line in QUERIES.read_text(encoding="utf-8").splitlines() if line.strip()]
    if args.half != "all":
        queries = [q for q in queries if id_number(q["id"]) % 2 == (0 if args.half == "fit" else 1)]
    with open_library(args.keep, "short") as lib:
        build(lib, data)
        papers = file_papers(lib, data)
        missing = sorted({f for q in queries for f in q.get("files", []) if f not in papers})
        if missing:  # a file the reader refused (a damaged PDF): its queries cannot be answered by any search
            log(f"not in the library, their queries skipped: {', '.join(missing)}")
            queries = [q for q in queries if not any(f in missing for f in q.get("files", []))]
        lib.search("warm up")
        rows = [r for mode in args.modes.split(",") for r in run(lib, queries, papers, mode)]
    out = {"half": args.half, "queries": len(queries), "summary": summary(rows)}
    if args.json:
        print(json.dumps({**out, "rows": rows}, indent=1, ensure_ascii=False))
        return
    print(json.dumps(out, indent=1))
    for r in rows:
        if r["answered"] is False or (r["answered"] and r["flagged"]) or (r["answered"] is None and not r["flagged"]):
            print(f"  {r['mode']:7} {r['id']} {r['type']:8} answered={r['answered']} flagged={r['flagged']} "
                  f"rel={r['relevance']} {r['query'][:60]!r} top={r['top']}")


if __name__ == "__main__":
    main()
