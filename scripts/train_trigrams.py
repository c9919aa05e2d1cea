"""Write papershelf/ingest/pdf/text/trigrams.json: letter trigram counts of scientific English, the prior
`glyphs.repair_words` adds to a document's own letter statistics when it decides which ligature (or
none) a glyph the font could not name stands for.  Learned from SciFact's 5,183 abstracts (plain
text, no PDF glyph problems); trigrams seen fewer than 3 times are left out to keep the file small.

    python scripts/train_trigrams.py --corpus ../shared/data/scifact/corpus.jsonl
"""

from __future__ import annotations

import argparse
import json
import re
from collections import Counter
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "papershelf" / "ingest" / "pdf" / "text" / "trigrams.json"
_WORDS = re.compile(r"[a-z]+")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", default=str(OUT.parents[4] / "shared" / "data" / "scifact" / "corpus.jsonl"))
    ap.add_argument("--min-count", type=int, default=3)
    args = ap.parse_args()
    tri: Counter[str] = Counter()
    with open(args.corpus, encoding="utf-8") as f:
        for line in f:
            doc = json.loads(line)
            for w in _WORDS.findall(f"{doc.get('title', '')} {doc.get('text', '')}".lower()):
                w = f"<<{w}>"
                tri.update(w[k:k + 3] for k in range(len(w) - 2))
    kept = {t: n for t, n in sorted(tri.items()) if n >= args.min_count}
    OUT.write_text(json.dumps({"version": 1, "source": "SciFact corpus abstracts, letter trigrams of lowercase "
                               "words ('<' opens a word, '>' ends it)", "trigrams": kept},
                              separators=(",", ":")) + "\n")
    print(f"{len(kept)} trigrams -> {OUT}")


if __name__ == "__main__":
    main()
