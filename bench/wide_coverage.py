"""Text the reader loses, on the wide corpus, with truth derived from each PDF's own text layer: for every
page, the words printed on that page and on no other (a page's own vocabulary: a lost page loses them,
where common words would be found elsewhere in the paper anyway), and the share of them the reader keeps
somewhere in what it makes of the paper (title, authors, every block: sections, captions, tables,
sidebars: the units search reads; the reference list).  A page keeping under half of its own words is counted as lost.

    python bench/wide_coverage.py --half dev          # tune on this
    python bench/wide_coverage.py --half test         # report this, once
    python bench/wide_coverage.py --half dev --show   # the pages lost, one line each

Words: three letters or more, lowercased, with letters only; pages with fewer than 20 own words are
left out (a figure's page, a blank page); PDFs without a text layer too.
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from wide_truth import each_page, each_paper, print_summary  # noqa: E402

from papershelf.errors import IngestError  # noqa: E402
from papershelf.ingest import load_source, parse_source  # noqa: E402
from papershelf.units import build_units  # noqa: E402

_WORD = re.compile(r"[^\W\d_]{3,}")
MIN_OWN = 20


def words(text: str) -> list[str]:
    return [w.lower() for w in _WORD.findall(text)]


def page_texts(path: Path) -> list[str]:
    return each_page(path, lambda page, n: page.get_textpage().get_text_range())


def kept_words(doc) -> set[str]:
    """Every word of the paper the library keeps: its title, authors, units (sections, figures, tables
    with their cells) and reference entries."""
    parts = [doc.title or "", " ".join(doc.authors or [])]
    parts += [f"{u.text} {u.table_text or ''}" for u in build_units(doc, "p")]
    parts += [r.text for r in doc.references]
    return set(words(" ".join(parts)))


def coverage(path: Path) -> list[tuple[int, float, int]] | None:
    """(page, share of its own words kept, how many it has) for each page with enough own words."""
    try:
        texts = page_texts(path)
        doc = parse_source(load_source(str(path)))
    except IngestError:
        return None
    per_page = [set(words(t)) for t in texts]
    where = Counter(w for page in per_page for w in page)
    kept = kept_words(doc)
    out = []
    for n, page in enumerate(per_page, 1):
        own = {w for w in page if where[w] == 1}
        if len(own) >= MIN_OWN:
            out.append((n, len(own & kept) / len(own), len(own)))
    return out


def main() -> int:
    run = each_paper(__doc__, "pages lost", coverage)
    if run is None:
        return 0
    args, got = run
    pages = lost = papers_lost = 0
    shares: list[float] = []
    for name, per_page in got:
        gone = [(n, share) for n, share, _ in per_page if share < 0.5]
        pages, lost, papers_lost = pages + len(per_page), lost + len(gone), papers_lost + bool(gone)
        shares += [share for _, share, _ in per_page]
        if args.show:
            for n, share in gone:
                print(f"{name}\tp.{n}\t{share:.2f}")
    mean = sum(shares) / max(1, len(shares))
    result = {"half": args.half, "papers": len(got), "pages": pages, "pages_lost": lost,
              "papers_with_a_page_lost": papers_lost, "mean_own_words_kept": round(mean, 4)}
    return print_summary(result, args.json, [
        f"{len(got)} papers ({args.half}), {pages} pages with their own words",
        f"pages lost (under half of their own words kept): {lost} = {lost / max(1, pages):.3f}, "
        f"in {papers_lost} papers; own words kept, mean over pages: {mean:.3f}"])


if __name__ == "__main__":
    raise SystemExit(main())
