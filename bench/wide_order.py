"""Reading order over the wide corpus, without truth: do the reader's paragraphs read as pdfium reads?

pdfium's own text of a page (`get_text_range`) follows the content stream, which is reading order
for most producers: a column's lines are written one after another.  When the reader interleaves
columns (a three-column page cut at its middle), its paragraphs join words from lines of different
columns, and those word pairs are not neighbours in pdfium's text.  Per paper: the share of
consecutive word pairs in its text paragraphs (six words or more) that are also consecutive in
pdfium's text of the paragraph's page or the next (a paragraph runs on); pairs across a line's end
hyphen count both ways.  A paper whose producer writes out of order scores low before and after:
compare runs, not papers with truth.  Papers below `--below` are listed.

    python bench/wide_order.py [--half dev|test|all] [--workers 2] [--below 0.9] [--json]
"""

from __future__ import annotations

import json
import re
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from wide_truth import corpus_missing, text_layer_pdfs, wide_dir, wide_parser

_WORD = re.compile(r"\w+")


def _words(text: str) -> list[str]:
    return [w.lower() for w in _WORD.findall(text.replace("\x02", ""))]


def _pairs(text: str) -> set[tuple[str, str]]:
    """Consecutive word pairs of pdfium's page text, and the pairs a repaired end-of-line hyphen
    makes ("inter-" / "leaved" read as "interleaved")."""
    words = _words(text)
    out = set(zip(words, words[1:], strict=False))
    joined = _words(re.sub(r"(\w)[-\u2010\xad\x02]\s*\r?\n\s*(\w)", r"\1\2", text))
    return out | set(zip(joined, joined[1:], strict=False))


def score_file(path: str) -> dict:
    """(pairs in order, pairs) for one PDF's text paragraphs, and the worst pages (runs in a worker)."""
    from papershelf.errors import IngestError
    from papershelf.ingest.pdf.reader import read_pdf

    data = Path(path).read_bytes()
    texts: list[str] = []
    t0 = time.process_time()
    try:
        doc = read_pdf(data, texts)
    except IngestError as e:
        return {"error": str(e)}
    cpu = time.process_time() - t0
    pairs_of = [_pairs(t) for t in texts]
    hit = total = 0
    pages: dict[int, list[int]] = {}
    for b in doc.blocks:
        words = _words(b.text)
        if b.kind != "text" or b.page is None or len(words) < 6 or b.page > len(texts):
            continue
        known = pairs_of[b.page - 1] | (pairs_of[b.page] if b.page < len(texts) else set())
        n = len(words) - 1
        k = sum((a, c) in known for a, c in zip(words, words[1:], strict=False))
        hit, total = hit + k, total + n
        page = pages.setdefault(b.page, [0, 0])
        page[0] += k
        page[1] += n
    worst = sorted((round(k / n, 3), p) for p, (k, n) in pages.items() if n >= 50)[:3]
    return {"hit": hit, "total": total, "pages": len(texts), "cpu": cpu, "worst": worst}


def main() -> None:
    ap = wide_parser(__doc__)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--below", type=float, default=0.9)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    if corpus_missing(args.data):
        return
    names = text_layer_pdfs(args.data, args.half)
    paths = [str(wide_dir(args.data) / n) for n in names]
    with ProcessPoolExecutor(args.workers) as pool:
        results = dict(zip(names, pool.map(score_file, paths), strict=True))
    ok = {n: r for n, r in results.items() if "error" not in r and r["total"]}
    shares = {n: r["hit"] / r["total"] for n, r in ok.items()}
    low = sorted((s, n) for n, s in shares.items() if s < args.below)
    pages = sum(r["pages"] for r in ok.values())
    summary = {
        "half": args.half, "papers": len(ok), "failed": len(results) - len(ok),
        "pairs_in_order": round(sum(r["hit"] for r in ok.values()) / max(1, sum(r["total"] for r in ok.values())), 4),
        "mean_paper_share": round(sum(shares.values()) / max(1, len(shares)), 4),
        "below": args.below, "papers_below": len(low),
        "ms_per_page": round(1000 * sum(r["cpu"] for r in ok.values()) / max(1, pages), 1),
    }
    if args.json:
        json.dump({"summary": summary, "files": results}, sys.stdout, indent=1)
        return
    for s, n in low:
        print(f"{s:.3f}  {n}  worst pages {ok[n]['worst']}")
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
