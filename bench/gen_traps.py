"""Traps for the heading reader, drawn into bench/gen_headings.py's papers from a fourth random stream:
the classes unseen publishers broke that the earlier streams do not draw.  None of them is a
heading, so a reader that takes them counts them against its precision; the paper's own headings
around them must still be found.

* ``figure``: a diagram of boxes with short bold labels in the body's size ("Text", "Document",
  "Query"), captioned below, or above as some journals do (then its labels follow the caption in
  reading order); on some, the figure goes on under a "Figure 1 cont" label with a caption of its own.
* ``fields``: an example set as labelled fields, bold labels with a colon, run in ("Id: 87_1",
  "Question: …", "Text: The most successful …", "Hypothesis: …"): one-line fields beside long ones.
* ``sidebar2``: a journal's front-page sidebar whose labels stand on lines of their own in bold at
  the body's size ("Citation", "Received", "Copyright", "Funding", "Competing interests") over
  values in the body's roman, a narrow column beside the first page's text, not drawn as a box.
* ``wrap3`` (a heading, not a trap): a sub-section title of 12-18 words that wraps onto two or three
  lines of a two-column paper in the sub-sections' own style (FASEB's and the Plant Journal's way),
  to be read whole.
* ``smallprint``: the methods section's sub-sections set in small print, headings and all (1.5 pt
  below the body), as life-science journals set them; with ``wrap3`` its long title wraps there.
* ``flat`` (levels, not a trap): an unnumbered paper setting sections and sub-sections in one style,
  bold at the body's size (ACM's extended abstracts), each section's first sub-section set directly
  under its title; drawn only into papers whose sections are unnumbered.
* ``biblio``: a reference list under "References and Notes" whose entries open with their authors
  in bold on a first line of their own, broken inside a name (PeerJ's way: each such line reads
  like a bold heading of eleven words).

The functions take gen_headings' Paper (duck-typed: this module does not import gen_headings).
"""

from __future__ import annotations

import random

from synthetic_draw import wrap_words

KINDS = ("figure", "fields", "sidebar2", "biblio", "wrap3", "smallprint", "flat")  # (new kinds go last: earlier draws stay)
_LABELS = ("Text", "Document", "Query", "Answer", "Index", "Hypothesis", "Passage", "Model")
_SIDEBAR = ("Citation", "Editor", "Received", "Accepted", "Published", "Copyright", "Data Availability Statement",
            "Funding", "Competing interests")


_LONG3 = ("Effects of the compound on nitration and phosphorylation of the pathway and on survival in the control cohort",
          "Quantitative analysis of the cell nuclei and of the activated receptor in tissues from the treated cohort",
          "Protein extraction, gel electrophoresis, western blot analysis, tissue prints and oxidase determinations")


def long_title(p) -> str:
    """A sub-section title long enough to wrap onto two or three lines of a column."""
    return p.trap_rng.choice(_LONG3)


def draw_kinds(seed: int) -> frozenset:
    """The traps of this seed's paper, from a stream of its own (the other streams stay as they were)."""
    rng = random.Random(seed * 15485863 + 7)
    return frozenset(k for k in KINDS if rng.random() < 0.35)


def figure(p, number: int) -> None:
    """A diagram of labelled boxes across the column, its caption below or above it."""
    s = p.style
    above = p.trap_rng.random() < 0.5
    parts = 2 if p.trap_rng.random() < 0.4 else 1
    for part in range(parts):
        cont = " cont" if part else ""
        h = 5.5 * s.body_size
        p.need(h + 4 * s.body_size)
        if part:  # a continued figure's label over it, no caption punctuation ("Figure 1 cont")
            p.c.setFont("Helvetica-Bold", s.body_size)
            p.c.drawString(p.col_x(), p.y, f"Figure {number}{cont}")
            p.y -= 1.6 * s.body_size
        if above:
            _caption(p, number, cont)
        _diagram(p, h)
        if not above:
            _caption(p, number, cont)
        p.y -= s.body_size


def _diagram(p, h: float) -> None:
    s = p.style
    x, w = p.col_x(), p.col_w()
    top = p.y + s.body_size
    p.c.rect(x, top - h, w, h)
    boxes = p.trap_rng.randint(2, 3)
    bw = (w - 12 * (boxes + 1)) / boxes
    for k, label in enumerate(p.trap_rng.sample(_LABELS, boxes)):
        bx = x + 12 + k * (bw + 12)
        p.c.rect(bx, top - h + 10, bw, h - 20)
        p.c.setFont("Times-Bold", s.body_size)
        p.c.drawString(bx + 4, top - 0.45 * h, label)
    p.y = top - h - 1.4 * s.body_size


def _caption(p, number: int, cont: str) -> None:
    s = p.style
    text = f"Figure {number}{cont}. " + " ".join(p.trap_rng.choice(_LABELS).lower() for _ in range(8)) + "."
    p.c.setFont(s.body_font, s.body_size - 1)
    shown = text[:int(p.col_w() / (0.5 * s.body_size))]
    while p.c.stringWidth(shown, s.body_font, s.body_size - 1) > p.col_w():  # (a wider face: within the column)
        shown = shown[:-1]
    p.c.drawString(p.col_x(), p.y, shown)
    p.paras.append(text)
    p.y -= 1.6 * s.body_size


def fields(p) -> None:
    """An example as labelled fields: short ones on one line, long ones wrapping like paragraphs."""
    s = p.style
    for label in ("Id", "Question", "Answer", "Text", "Hypothesis"):
        long = label in ("Text", "Hypothesis")
        value = "87_1" if label == "Id" else " ".join(p.trap_rng.choice(("cells", "dose", "model", "assay", "cohort",
                                                                     "pathway")) for _ in range(40 if long else 3))
        lead = f"{label}:"
        lead_w = p.c.stringWidth(lead + " ", "Times-Bold", s.body_size)
        words, line, first = value.split(), "", True
        p.need(2.4 * s.body_size)
        p.c.setFont("Times-Bold", s.body_size)
        p.c.drawString(p.col_x(), p.y, lead)
        for word in words + [""]:
            trial = f"{line} {word}".strip()
            room = p.col_w() - (lead_w if first else 0)
            if not word or (p.c.stringWidth(trial, s.body_font, s.body_size) > room and line):
                p.c.setFont(s.body_font, s.body_size)
                p.c.drawString(p.col_x() + (lead_w if first else 0), p.y, line)
                p.y -= 1.2 * s.body_size
                p.need(1.2 * s.body_size)
                line, first = word, False
            else:
                line = trial
        p.paras.append(f"{lead} {value}")
        p.y -= 0.3 * s.body_size


def sidebar(p) -> None:
    """Bold body-size labels on lines of their own over roman values, a narrow column at the left."""
    s = p.style
    y = p.y
    widest = max(p.c.stringWidth(label, "Helvetica-Bold", s.body_size) for label in _SIDEBAR)
    for label in _SIDEBAR:
        p.c.setFont("Helvetica-Bold", s.body_size)
        p.c.drawString(54, y, label)
        y -= 1.25 * s.body_size
        p.c.setFont(s.body_font, s.body_size)
        for _ in range(p.trap_rng.randint(1, 2)):
            p.c.drawString(54, y, " ".join(p.trap_rng.choice(("cells", "dose", "model", "2016", "doi")) for _ in range(3)))
            y -= 1.2 * s.body_size
        y -= 0.6 * s.body_size
    p.left = 54 + max(150, widest + 18)  # the text beside starts clear of the widest label (wider faces)


def bibliography(p) -> None:
    """Entries whose authors are set in bold over the whole first line (PeerJ's way) and go on in
    roman, under a heading other than plain "References"."""
    s = p.style
    names = ("Okafor A", "Brandt L", "Ruiz T", "Chen W", "Novak P", "Silva M", "Loughran NB", "Yang Z", "Pond SL")
    for _ in range(6):
        # the authors' line breaks inside a name, as a justified list does ("…, Bloomberg S, Loughran" / "ST, …")
        authors = ", ".join(p.trap_rng.sample(names, 5)) + ", " + p.trap_rng.choice(names).split()[0]
        rest = f"ST, Yang Z. {p.trap_rng.randint(1990, 2020)}. " + " ".join(p.trap_rng.choice(_LABELS)
                                                                          for _ in range(14)) + "."
        p.need(3.6 * s.body_size)
        for text, font in ((authors, "Times-Bold"), (rest, s.body_font)):
            for line in wrap_column(p, text, font, s.body_size):
                p.need(1.2 * s.body_size)
                p.c.setFont(font, s.body_size)
                p.c.drawString(p.col_x(), p.y, line)
                p.y -= 1.2 * s.body_size
        p.paras.append(f"{authors} {rest}")
        p.y -= 0.4 * s.body_size


def wrap_column(p, text: str, font: str, size: float) -> list[str]:
    """The text's lines at the column's width."""
    return [ln for ln in wrap_words(text.split(), font, size, p.col_w(), p.c) if ln]
