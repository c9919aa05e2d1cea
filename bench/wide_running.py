"""Running heads and feet left in the body text, on the wide corpus: the truth is derived from each PDF's
own pages, not written by hand.  A line is a running head (or foot) when it is among the two topmost (or
bottommost) rows of its page and the same text, page numbers masked, stands there on three or more pages
(two in a paper of four pages or fewer).  The measure: how many of those lines the reader leaves inside
body units as a paragraph of their own (a title's words in a sentence are not counted), where they cut
sentences in two ("…the levels of telomerase activity was correlated with
<running head> tumor stage…") and read as words of the paper.

    python bench/wide_running.py --half dev          # tune on this
    python bench/wide_running.py --half test         # report this, once
    python bench/wide_running.py --half dev --show   # the heads left, one line each

Only lines of eight characters or more with three letters are counted (a bare page number is masked
anyway); PDFs without a text layer are left out.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from wide_truth import each_page, each_paper, print_summary  # noqa: E402

from papershelf.errors import IngestError  # noqa: E402
from papershelf.ingest import load_source, parse_source  # noqa: E402
from papershelf.ingest.pdf.text.lines import page_lines, settle_glyphs  # noqa: E402
from papershelf.units import build_units  # noqa: E402

_DIGITS = re.compile(r"\d+")


def _rows(lines: list) -> list[list]:
    """A page's lines grouped into rows (lines overlapping vertically by half a line), top first."""
    rows: list[list] = []
    for ln in sorted(lines, key=lambda ln: ln.top):
        if rows and min(rows[-1][0].bottom, ln.bottom) - max(rows[-1][0].top, ln.top) > 0.5 * ln.height:
            rows[-1].append(ln)
        else:
            rows.append([ln])
    return rows


def running_texts(path: Path) -> set[str]:
    """The running heads and feet of one PDF, as printed (one text for each masked key, its first)."""
    pages = each_page(path, lambda page, n: page_lines(page, n + 1))
    settle_glyphs(pages)
    seen: dict[str, set[int]] = {}
    printed: dict[str, str] = {}
    for lines, _, _ in pages:
        rows = _rows([ln for ln in lines if ln.text.strip()])
        for ln in [ln for row in rows[:2] + rows[-2:] for ln in row]:
            text = ln.text.strip()
            if len(text) < 8 or sum(c.isalpha() for c in text) < 3:
                continue
            key = _DIGITS.sub("#", text.lower())
            seen.setdefault(key, set()).add(ln.page)
            printed.setdefault(key, text)
    need = 2 if len(pages) <= 4 else 3
    return {printed[k] for k, v in seen.items() if len(v) >= need}


def left_in_body(path: Path) -> tuple[list[str], int] | None:
    """The running heads a paper's body units still hold, and how many it has; None when it fails."""
    try:
        heads = running_texts(path)
        doc = parse_source(load_source(str(path)))
    except IngestError:
        return None
    paragraphs = {_DIGITS.sub("#", p.strip()) for u in build_units(doc, "p") if u.kind in ("body", "chunk")
                  for p in u.text.split("\n\n")}
    left = [h for h in sorted(heads) if _DIGITS.sub("#", h) in paragraphs]
    return left, len(heads)


def main() -> int:
    run = each_paper(__doc__, "heads left", left_in_body)
    if run is None:
        return 0
    args, got = run
    with_heads = papers_left = heads = left = 0
    for name, (found, n) in got:
        with_heads += n > 0
        papers_left += bool(found)
        heads, left = heads + n, left + len(found)
        if args.show:
            for h in found:
                print(f"{name}\t{h}")
    result = {"half": args.half, "papers": len(got), "papers_with_running_heads": with_heads,
              "papers_with_heads_left": papers_left, "heads": heads, "heads_left": left}
    return print_summary(result, args.json, [
        f"{len(got)} papers ({args.half}), {with_heads} with running heads or feet ({heads} texts)",
        f"left in body units: {left} of {heads} texts, in {papers_left} papers "
        f"= {papers_left / max(1, with_heads):.3f} of the papers with any"])


if __name__ == "__main__":
    raise SystemExit(main())
