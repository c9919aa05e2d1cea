"""Windows and wordpieces a library's indexable units give in each window format (embed/windows.py, the
local model's tokenizer, no encoding), against the same words cut into plain 90-word texts (what
bench/index_cpu.py's torch reference encodes): the encoder's work per format, for issue 42's ratio.

    python bench/window_tokens.py /tmp/eta13/ta/library.db --formats 1,2
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from index_cpu import papers_words

from papershelf.embed.base import DEFAULT_MODELS, ProviderSpec
from papershelf.embed.windows import token_counter, windows
from papershelf.library import Library
from papershelf.units import embedding_parts


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("library")
    ap.add_argument("--formats", default="1,2")
    args = ap.parse_args()
    provider = ProviderSpec("local", DEFAULT_MODELS["local"]).create()
    count, window = token_counter(provider), provider.window_tokens
    texts = papers_words(Path(args.library))
    plain = sum(count(texts))
    out: dict = {"library": args.library, "texts_90_words": len(texts), "tokens_90_words": plain}
    with Library(args.library) as lib:
        units = []
        for pid in lib.store.manifest_paper_ids(with_indexable_units=True):
            paper, _, us = lib.store.paper_snapshot(pid)
            units += [(u, paper.title if paper else None) for u in us if u.indexable]
    for fmt in (int(f) for f in args.formats.split(",")):
        cut = [w for u, title in units for w in windows(*embedding_parts(u, title), window, count, fmt)]
        tokens = sum(count(cut))
        out[f"format_{fmt}"] = {"windows": len(cut), "tokens": tokens, "tokens_over_90_words": round(tokens / plain, 3)}
    print(json.dumps(out))


if __name__ == "__main__":
    main()
