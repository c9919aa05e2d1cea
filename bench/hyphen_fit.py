"""Fit the line-end hyphen model (papershelf/ingest/pdf/text/hyphen_model.json) from truth derived at scale.

Every hyphen ending a line (a real '-' or pdfium's mark for one) before a line that goes on in lowercase is an example; its label comes
from the corpus itself: the joined word ("proximal") or the hyphenated form ("high-level") printed
inside a line somewhere in the pool.  The model is fit on the examples the document alone cannot
decide (neither form printed in it), since those are the ones that reach it.  Pool: the wide
corpus's dev half and the shared PDFs.  `--test` measures the saved model on the wide test half
(labels from the test half's own words; words seen in the training pool are left out): run it once.

    python bench/hyphen_fit.py            # fit and save
    python bench/hyphen_fit.py --test     # held-out accuracy, once
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pypdfium2 as pdfium

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from papershelf.ingest.pdf.text import hyphens  # noqa: E402

DATA = ROOT.parent / "shared" / "data"
SPLIT = ROOT / "bench" / "data" / "wide_split.json"
_BREAK = re.compile("([^\\W\\d_]+)(?:-[ \\t]*\\r?\\n[ \\t]*|[\\x02\\ufffe\\u00ad]\\s*)([a-z]+)")


def pool(half: str) -> list[Path]:
    split = json.loads(SPLIT.read_text())
    files = [DATA / "pdfs-wide" / n for n, v in sorted(split.items()) if v["half"] == half]
    return files + (sorted((DATA / "pdfs").glob("*.pdf")) if half == "dev" else [])


def page_text(path: Path) -> str:
    """The PDF's text as pdfium reads it: a hyphen pdfium took for a break stays as its mark, with
    no line break after it; a real one ends its line."""
    try:
        pdf = pdfium.PdfDocument(str(path))
    except pdfium.PdfiumError:
        return ""
    text = "\n".join(page.get_textpage().get_text_range() for page in pdf)
    pdf.close()
    return text


def breaks(text: str) -> tuple[list[tuple[str, str]], str]:
    """(left, right) fragments of every hyphen at a line break before a lowercase letter, and the
    text without them (so a fragment is never counted as a word)."""
    found = [(m.group(1).lower(), m.group(2).lower()) for m in _BREAK.finditer(text)]
    return found, _BREAK.sub(" ", text)


def gather(files: list[Path]) -> tuple[list[tuple[str, str, Counter]], Counter]:
    docs: list[tuple[str, str, Counter]] = []
    corpus: Counter[str] = Counter()
    for f in files:
        found, rest = breaks(page_text(f))
        words = hyphens.words_of([rest])
        corpus.update(words)
        docs += [(left, right, words) for left, right in found]
    return docs, corpus


def label(left: str, right: str, words: Counter) -> int | None:
    """1 keep, 0 join, None when the words hold neither form or both as often."""
    j, h = words.get(left + right, 0), words.get(f"{left}-{right}", 0)
    return None if j == h else int(h > j)


def ngram_stats(words: Counter) -> dict:
    """log-odds that a word opens (closes) with a 2- or 3-letter run, against its holding it inside."""
    start: Counter[str] = Counter()
    end: Counter[str] = Counter()
    inside: Counter[str] = Counter()
    for w in words:
        if "-" in w or len(w) < 4:
            continue
        for n in (2, 3):
            start[w[:n]] += 1
            end[w[-n:]] += 1
            inside.update(w[i:i + n] for i in range(1, len(w) - n))
    keep = {g for g, c in (start + end + inside).most_common(3000)}
    return {"start": {g: round(math.log((start[g] + 1) / (inside[g] + 1)), 3) for g in keep if start[g]},
            "end": {g: round(math.log((end[g] + 1) / (inside[g] + 1)), 3) for g in keep if end[g]}}


def fit(x: np.ndarray, y: np.ndarray, steps: int = 3000, l2: float = 1e-3) -> np.ndarray:
    w = np.zeros(x.shape[1])
    for _ in range(steps):
        p = 1 / (1 + np.exp(-x @ w))
        w -= 0.5 * (x.T @ (p - y) / len(y) + l2 * w)
    return w


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--test", action="store_true", help="measure the saved model on the wide test half (once)")
    args = ap.parse_args()
    if args.test:
        return measure()
    docs, corpus = gather(pool("dev"))
    model = ngram_stats(corpus)
    rows = [(hyphens.features(a, b, w, model), label(a, b, corpus)) for a, b, w in docs
            if not (w.get(a + b) or w.get(f"{a}-{b}"))]
    rows = [(f, y) for f, y in rows if y is not None]
    x, y = np.array([f for f, _ in rows]), np.array([y for _, y in rows], dtype=float)
    w = fit(x, y)
    acc = float((((x @ w) >= 0) == (y == 1)).mean())
    model["weights"] = [round(float(v), 4) for v in w]
    out = Path(hyphens.__file__).with_name("hyphen_model.json")
    out.write_text(json.dumps(model, sort_keys=True, separators=(",", ":")) + "\n")
    print(f"breaks {len(docs)}; fallback examples {len(rows)} (keep {int(y.sum())}); train accuracy {acc:.3f}")
    print("weights", model["weights"])


def measure() -> None:
    train_docs, train_corpus = gather(pool("dev"))
    docs, corpus = gather(pool("test"))
    seen = {(a, b) for a, b, _ in train_docs}
    alone = whole = n_alone = n_whole = 0
    for a, b, w in docs:
        y = label(a, b, corpus)
        if y is None or (a, b) in seen:
            continue
        n_whole += 1
        whole += hyphens.keep_hyphen(a, b, w) == bool(y)
        if not (w.get(a + b) or w.get(f"{a}-{b}")):
            n_alone += 1
            alone += hyphens.model_keep(a, b, w) == bool(y)
    print(f"test: fallback alone {alone}/{n_alone} = {alone / max(1, n_alone):.3f}; "
          f"whole decision {whole}/{n_whole} = {whole / max(1, n_whole):.3f}")


if __name__ == "__main__":
    main()
