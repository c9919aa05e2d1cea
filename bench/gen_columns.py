"""Reading order by construction: generated papers set in three or four columns.

Each seed makes one paper (reportlab, the heading styles of bench/gen_headings.py) set in three
columns on a portrait page or four on a landscape one: a title and authors across the page, an
abstract across the page, then the body in columns with its headings; the second page opens with
a figure across all columns and its caption set across the page, the columns running on below it.
The truth is what was drawn: every paragraph's text in reading order and every heading.

Scores: paragraphs read whole (a paragraph's words come out contiguous, in order, in the reader's
text; interleaved columns break every paragraph they cross), the figure's caption read whole,
and heading precision / recall as bench/gen_headings.py grades them.  Seeds split by parity
(even dev, odd test).

    python bench/gen_columns.py [--half dev|test|all] [--papers 20] [--json] [-v] [--keep DIR]
"""

from __future__ import annotations

import json
import random
import re
import sys

from gen_headings import _WORDS, Paper, Style, _body, heading, paragraph
from gen_seeds import blocks_without_outline, seed_parser, seed_paths
from pdf_headings_score import score_paper, sum_scores
from reportlab.lib.pagesizes import landscape, letter
from reportlab.pdfgen import canvas

CAPTION_SIZE = 8.0


def _across(p: Paper, text: str, font: str, size: float) -> None:
    """`text` set across the whole text width, from the page's current height down."""
    columns, p.style.columns = p.style.columns, 1
    try:
        words, line = text.split(), ""
        for w in words:
            trial = f"{line} {w}".strip()
            if p.c.stringWidth(trial, font, size) > p.col_w() and line:
                p.c.setFont(font, size)
                p.c.drawString(p.left, p.y, line)
                p.y -= 1.2 * size
                line = w
            else:
                line = trial
        p.c.setFont(font, size)
        p.c.drawString(p.left, p.y, line)
        p.y -= 1.2 * size
    finally:
        p.style.columns = columns


def _figure(p: Paper) -> None:
    """On the second page: a chart across all columns at the top, its caption across the page under it."""
    if p.page != 2 or not isinstance(p, ColumnPaper):
        return
    top, height = p.y, 150.0
    p.c.rect(p.left, top - height, p.width - 54 - p.left, height)
    p.c.setFont("Helvetica", 6)
    for k in range(5):
        p.c.drawString(p.left + 4, top - 20 - 25 * k, str(10 * (5 - k)))
    p.y = top - height - 14
    text = "Figure 1. " + " ".join(p.rng.choice(_WORDS) for _ in range(3 * p.style.columns * 9)) + "."
    p.captions.append(text)
    _across(p, text, "Helvetica", CAPTION_SIZE)
    p.y -= 10
    p.top_y = p.y


class ColumnPaper(Paper):
    captions: list[str]


def make(seed: int, path: str) -> tuple[ColumnPaper, int]:
    """Write the seed's paper to `path`; the paper as drawn (its truth) and its column count."""
    rng = random.Random(seed)
    columns = rng.choice((3, 3, 4))
    size = landscape(letter) if columns == 4 else letter
    style = Style(rng.choice(("Times-Roman", "Helvetica")), rng.choice((8.0, 8.5, 9.0)), columns,
                  rng.choice(("numbered", "dotted", "bold", "capitals")), rng.choice(("numbered", "italic", "none")),
                  False, rng.choice((0.4, 0.8)))
    c = canvas.Canvas(path, pagesize=size)
    p = ColumnPaper(style, c, rng, width=size[0], height=size[1], y=size[1] - 72, top_y=size[1] - 72,
                    on_new_page=_figure)
    p.captions = []
    c.setFont("Helvetica-Bold", 16)
    c.drawCentredString(p.width / 2, p.y, "Signalling " + " ".join(rng.choice(_WORDS) for _ in range(5)))
    c.setFont("Helvetica", 10)
    c.drawCentredString(p.width / 2, p.y - 20, "Ada Okafor, Lena Brandt and Tomas Ruiz")
    p.y -= 50
    abstract = " ".join(" ".join(rng.choice(_WORDS) for _ in range(12)).capitalize() + "." for _ in range(5))
    p.paras.append(abstract)
    _across(p, abstract, "Helvetica", style.body_size + 0.5)
    p.y -= style.body_size
    p.top_y = p.y
    _body(p)
    for _ in range(6 * columns):  # a long discussion: the paper runs onto the page with the figure
        paragraph(p)
    heading(p, 1, "", "References")
    p.truth[-1]["optional"] = True
    for _ in range(3):
        paragraph(p)
    c.save()
    return p, columns


def _norm(text: str) -> str:
    return " ".join(re.findall(r"\w+", text.lower()))


def score(p: ColumnPaper, blocks) -> dict:
    """Paragraphs and captions read whole, and the headings' scores."""
    body = " " + _norm(" ".join(b.text for b in blocks if b.kind != "heading")) + " "
    whole = [f" {_norm(t)} " in body for t in p.paras]
    caps = [any(_norm(b.text).startswith(_norm(t)) for b in blocks) for t in p.captions]
    return {"paragraphs": len(whole), "paragraphs_whole": sum(whole), "captions": len(caps),
            "captions_whole": sum(caps), "headings": score_paper(blocks, p.truth)}


def main() -> int:
    ap = seed_parser(__doc__, 20, "per paper: its columns and scores")
    args = ap.parse_args()
    scores = []
    for seed, path in seed_paths(args, "cols"):
        paper, columns = make(seed, path)
        s = score(paper, blocks_without_outline(path))
        scores.append(s)
        if args.v:
            h = s["headings"]
            print(f"seed {seed} columns {columns}: paragraphs {s['paragraphs_whole']}/{s['paragraphs']} "
                  f"captions {s['captions_whole']}/{s['captions']} headings P {h['precision']} R {h['recall']}",
                  file=sys.stderr)
    paras = sum(s["paragraphs"] for s in scores)
    caps = sum(s["captions"] for s in scores)
    heads = sum_scores([s["headings"] for s in scores])
    total = {"half": args.half, "papers": len(scores),
             "paragraphs_whole": round(sum(s["paragraphs_whole"] for s in scores) / max(1, paras), 4),
             "captions_whole": round(sum(s["captions_whole"] for s in scores) / max(1, caps), 4),
             "heading_precision": heads["precision"], "heading_recall": heads["recall"]}
    print(json.dumps(total, indent=1 if args.json else None))
    return 0


if __name__ == "__main__":
    sys.exit(main())
