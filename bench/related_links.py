"""Hidden-link recovery for `related`: hide a citation A -> B between two library papers, ask `related A`,
and read B's rank — for meaning alone, citations alone (coupling + co-citation) and the fusion.

The library measured (BENCHMARKS.md) holds the shared PDFs, the shared Zotero library's PDFs and the wide
corpus, each PDF added once (not the XML twins of pdfs-wide), then embedded:

    D=../shared/data
    ( ls $D/pdfs/*.pdf; find $D/zotero/storage -name '*.pdf'; ls $D/pdfs-wide/*.pdf ) | tr '\n' '\0' \
        | xargs -0 papershelf -L /tmp/relfuse/links.db add
    papershelf -L /tmp/relfuse/links.db embed

The link truth is every reference entry of a library paper that names another library paper: the links the
citation graph finds, and the entries whose printed text holds a library paper's title (`harvest`), each
candidate read by hand (the ones that are not a citation of that paper are listed in `NOT_LINKS`).  It is
written once to bench/data/related_links.json, keyed by the papers' source file names (stable across id
schemes) and split into dev/test by a hash of the citing file, before any weight is tuned; `--fit` searches
the fusion weights on the dev half only.  A link the graph does not find is hidden already: B's rank is read
as it is.

    python bench/related_links.py LIBRARY.db --harvest               # the candidate links, to read by hand
    python bench/related_links.py LIBRARY.db --write-truth           # once: the links of this library
    python bench/related_links.py LIBRARY.db --half dev [--fit]
    python bench/related_links.py LIBRARY.db --half test             # once, at the end
    python bench/related_links.py LIBRARY.db --linker --half dev     # links the graph finds / misses / invents

Truth derived at scale (a sanity check of the machinery, not evidence about real papers: the synthetic
library draws both its vectors and its citations from the same topics):

    python bench/synthetic_library.py /tmp/lib10k.db --papers 10000 --refs 25
    python bench/related_links.py /tmp/lib10k.db --truth bench/data/related_links_synthetic.json --write-truth --sample 400
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import os
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from papershelf import Library  # noqa: E402
from papershelf import related as R  # noqa: E402
from papershelf.graph import build  # noqa: E402
from papershelf.paper_vectors import PaperVectors  # noqa: E402
from papershelf.text import normalized_title  # noqa: E402
from papershelf.works import surname  # noqa: E402

TRUTH = ROOT / "bench" / "data" / "related_links.json"
SIGNALS = {"meaning": {"meaning": 1.0, "direct": 0.0, "coupling": 0.0, "cocitation": 0.0},
           "citations": {"meaning": 0.0, "direct": 0.0, "coupling": 1.0, "cocitation": 1.0}}
MIN_WORDS = 4  # a title this long found in an entry's text names the paper; a shorter one needs its author too
# Candidates of `harvest` read by hand and found not to cite that paper: (citing file, cited file).
NOT_LINKS: set[tuple[str, str]] = set()


def _file(lib: Library, paper_id: str) -> str:
    paper = lib.store.get_paper(paper_id)
    return os.path.basename(paper.source_path or paper_id) if paper else paper_id


def _names(text: str, title: str, first_author: str | None, year: int | None) -> bool:
    """Whether an entry's printed text names a paper: its whole title, with its first author's surname
    and year when the title is short ("Autoencoders")."""
    t, words = f" {normalized_title(text)} ", normalized_title(title)
    if len(words.split()) < 2 or f" {words} " not in t:
        return False
    return len(words.split()) >= MIN_WORDS or bool(
        first_author and f" {surname(first_author)} " in t and (not year or str(year) in text))


def harvest(lib: Library) -> dict[tuple[str, str], str]:
    """(citing, cited) paper ids -> the entry's text, for every entry the graph links to a library paper or
    whose text names one (`_names`)."""
    graph = build(lib.store)
    papers = lib.store.get_papers(sorted(graph.papers))
    out: dict[tuple[str, str], str] = {}
    for a in sorted(graph.papers):
        refs = lib.store.reference_list(a)
        linked = graph.cited_papers(a)
        for r in refs:
            for b, paper in papers.items():
                first = paper.authors[0] if paper.authors else None
                if b != a and paper.title and _names(r.text, paper.title, first, paper.year):
                    out.setdefault((a, b), r.text)
        for b in linked:
            out.setdefault((a, b), "(linked by the graph)")
    return out


def write_truth(lib: Library, truth: Path, sample: int | None = None) -> None:
    graph = build(lib.store)
    if sample:  # synthetic: the graph's links, a fixed draw so the file is the same every time it is written
        links = sorted({(_file(lib, a), _file(lib, b)) for a in graph.papers for b in graph.cited_papers(a)})
        links = sorted(random.Random(0).sample(links, sample)) if len(links) > sample else links
    else:
        links = sorted({(_file(lib, a), _file(lib, b)) for a, b in harvest(lib)} - NOT_LINKS)
    rows = [{"citing": a, "cited": b, "half": half_of(a)} for a, b in links]
    truth.write_text(json.dumps(rows, indent=1) + "\n")
    print(f"{len(rows)} links written to {truth}: {sum(r['half'] == 'dev' for r in rows)} dev")


def ranks(lib: Library, half: str, weights_sets: dict[str, dict[str, float]],
          truth: Path = TRUTH, drop_known: bool = True) -> dict[str, list[int | None]]:
    """B's rank for each link A -> B of the half, under each set of weights, the link hidden from the graph
    (when the graph found it) and `related A`'s own candidates and signals (`related.paper_signals`)."""
    by_file = {_file(lib, p): p for p in lib.store.paper_ids()}
    graph = build(lib.store)
    space = lib.store.active_space()
    if space is None:  # meaning would rank nothing: every paper tied
        sys.exit("no complete embedding space in this library: run `papershelf embed` first")
    vectors = PaperVectors(lib.store)
    out: dict[str, list[int | None]] = {name: [] for name in weights_sets}
    for link in json.loads(truth.read_text()):
        if half != "all" and link["half"] != half:
            continue
        a, b = by_file.get(link["citing"]), by_file.get(link["cited"])
        if not a or not b:
            print("not in this library:", link["citing"], "->", link["cited"], file=sys.stderr)
            continue
        hidden = graph.without(a, graph.paper_work[b]) if b in graph.cited_papers(a) else graph
        meaning, cites = R.paper_signals(hidden, vectors, space, a)
        for name, w in weights_sets.items():
            # B's rank among the papers not already linked to A: the links A keeps are known, not recovered
            # (ranking them first is right for a reader, and would only hide what the hidden link tests)
            order = [p for p, _, sig in R.fuse(meaning, cites, w) if p == b or not (sig["direct"] and drop_known)]
            out[name].append(order.index(b) + 1 if b in order else None)
    return out


def half_of(citing: str) -> str:
    """The half a link falls in: by a hash of its citing file, as `write_truth` split them."""
    return "dev" if int(hashlib.sha1(citing.encode()).hexdigest(), 16) % 2 else "test"


def linker(lib: Library, truth: Path = TRUTH, half: str = "all") -> dict[str, int]:
    """How many of the truth's links the citation graph finds, misses, and how many it finds that the truth
    does not hold (false links, when the truth is complete); of the links whose citing file is in `half`."""
    graph = build(lib.store)
    files = {p: _file(lib, p) for p in graph.papers}
    found = {(files[a], files[b]) for a in graph.papers for b in graph.cited_papers(a)
             if half == "all" or half_of(files[a]) == half}
    true = {(r["citing"], r["cited"]) for r in json.loads(truth.read_text()) if half in ("all", r["half"])}
    for a, b in sorted(true - found):
        print("missed:", a, "->", b, file=sys.stderr)
    for a, b in sorted(found - true):
        print("false:", a, "->", b, file=sys.stderr)
    return {"true links": len(true), "found": len(true & found), "missed": len(true - found),
            "false": len(found - true)}


def summary(rs: list[int | None]) -> dict[str, float]:
    n = len(rs) or 1
    return {"links": len(rs), "recall@5": sum(1 for r in rs if r and r <= 5) / n,
            "recall@10": sum(1 for r in rs if r and r <= 10) / n, "mrr": sum(1 / r for r in rs if r) / n}


def grid() -> dict[str, dict[str, float]]:
    """Coupling and co-citation weights against meaning's 1 (the scale); direct is left as it is: under
    this protocol a hidden link has no direct signal and the known ones are left out (see `ranks`)."""
    values = (0.0, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0)
    return {f"c{c}-k{k}": {"meaning": 1.0, "direct": R.WEIGHTS["direct"], "coupling": c, "cocitation": k}
            for c, k in itertools.product(values, values)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("library")
    ap.add_argument("--half", choices=("dev", "test", "all"), default="dev")
    ap.add_argument("--write-truth", action="store_true")
    ap.add_argument("--fit", action="store_true", help="search the fusion weights (dev half only)")
    ap.add_argument("--truth", type=Path, default=TRUTH, help="the link truth file (default: the real library's)")
    ap.add_argument("--sample", type=int, help="with --write-truth: keep this many links, drawn at random")
    ap.add_argument("--keep-known", action="store_true", help="rank B among every paper, the ones A still "
                                                              "links to as well (the protocol before)")
    ap.add_argument("--harvest", action="store_true", help="print the candidate links, to read by hand")
    ap.add_argument("--linker", action="store_true", help="the truth's links the citation graph finds")
    args = ap.parse_args()
    with Library(args.library, create=False) as lib:
        if args.harvest:
            for (a, b), text in sorted(harvest(lib).items()):
                print(json.dumps({"citing": _file(lib, a), "cited": _file(lib, b), "entry": text[:300]}))
            return
        if args.linker:
            print(json.dumps(linker(lib, args.truth, args.half)))
            return
        if args.write_truth:
            write_truth(lib, args.truth, args.sample)
            return
        sets = {**SIGNALS, "fused": R.WEIGHTS}
        if args.fit:
            if args.half != "dev":
                sys.exit("--fit tunes on the dev half only")
            sets.update(grid())
        results = {name: summary(rs) for name, rs in ranks(lib, args.half, sets, args.truth, not args.keep_known).items()}
        for name in ("meaning", "citations", "fused"):
            print(name, json.dumps(results[name]))
        if args.fit:
            for name in grid():
                print(name, json.dumps(results[name]))
            best = max(grid(), key=lambda k: (results[k]["mrr"], results[k]["recall@5"]))
            print("best", best, json.dumps(results[best]))


if __name__ == "__main__":
    main()
