"""A fifth random stream for bench/gen_headings.py: the heading classes of heads11 (issue 38), drawn
from a stream of their own so that every earlier draw stays as it was.

* ``taxon`` (headings): a taxonomic paper's species headings under its results, each opening a
  species' description: the name in bold italics, its authority in bold, and a closing citation of
  the paper's figures in the body's roman ("Philometra floridensis Moravec, Fajer-Avila et
  Bakenhaster, 2009 (Fig. 3)"), at the body's size, often wrapping onto a second line.
* ``footnote`` (a trap): the title page's first column ends in small print under a short rule,
  "Abbreviations: …" and "Data deposition: …" notes in the text's own small style (PNAS's way): no
  section, though "Abbreviations" names one elsewhere (a truth entry marked ``trap``: found, run in
  or not, it counts against precision).
* ``entries`` (a trap): a reference list with no heading of its own whose numbered entries set
  their journals in italics, one entry broken so that its second line opens with the journal's
  abbreviation ("Kristallogr. 2004, 219, 1–12." under "[1] … Z."): no heading (a ``trap`` entry).

* ``italic_small`` (headings): a section's sub-sections titled in italics one point below the body's
  size, each alone over its paragraph of upright body text (Cold Spring Harbor's "K-turn", "Ribose
  zipper"): the paper's own sub-heading style, used three or four times.

* ``filled`` (headings): in a paper that runs its sub-headings in, in bold ("Cell culture. The …"), one
  long enough to fill its line, its text starting on the next (PNAS's "Structure of VanA in Complex
  with ADP and Phosphinate Inhibitor.").

The functions take gen_headings' Paper (duck-typed: this module does not import gen_headings).
"""

from __future__ import annotations

import random

from gen_traps import wrap_column

KINDS = ("taxon", "footnote", "entries", "italic_small", "filled")  # (new kinds go last: earlier draws stay)
_GENERA = ("Philometra", "Paracapillaria", "Rhabdochona", "Camallanus", "Spinitectus", "Contracaecum")
_EPITHETS = ("carolinensis", "floridensis", "saltatrix", "americana", "gotlandica", "lateralis", "minor")
_AUTHORS = ("Moravec", "de Buron et Roumillat", "Fajer-Avila et Bakenhaster", "Ramachandran", "Rasheed",
            "Yamaguti", "Petter et Cassone")


def draw_kinds(seed: int) -> frozenset:
    """This seed's fifth-stream classes (the earlier streams stay as they were)."""
    rng = random.Random(seed * 32452843 + 3)
    return frozenset(k for k in KINDS if rng.random() < 0.35)


def taxa(p, gap: float, paragraph) -> None:
    """Two or three species headings, each over a paragraph of its description (truth: level 2)."""
    s, rng = p.style, p.rng5
    for k in range(rng.randint(2, 3)):
        name = f"{rng.choice(_GENERA)} {rng.choice(_EPITHETS)}"
        authority = ", ".join(rng.sample(_AUTHORS, rng.randint(1, 2))) + f", {rng.randint(1950, 2009)}"
        figs = rng.choice((f"(Fig. {k + 1})", f"(Figs {2 * k + 1} and {2 * k + 2})"))
        words = [(w, "Times-BoldItalic") for w in name.split()] + [(w, "Times-Bold") for w in authority.split()] \
            + [(figs, s.body_font)]  # (the citation kept whole on its line)
        p.need(5 * s.body_size)
        p.y -= gap * s.body_size
        p.truth.append({"level": 2, "number": "", "title": f"{name} {authority} {figs}", "page": p.page})
        _draw_words(p, words, s.body_size)
        p.y -= 0.3 * s.body_size
        paragraph(p)


def italic_small(p, gap: float, paragraph) -> None:
    """Three or four italic sub-headings a point below the body's size, each over a paragraph."""
    s = p.style
    names = ("Tetraloop", "Ribose zipper", "K-turn", "Core of the loop", "Kink motif", "Sarcin loop")
    for title in p.rng5.sample(names, p.rng5.randint(3, 4)):
        p.need(5 * s.body_size)
        p.y -= gap * s.body_size
        p.truth.append({"level": 2, "number": "", "title": title, "page": p.page})
        _draw_words(p, [(title, "Times-Italic")], s.body_size - 1)
        p.y -= 0.3 * s.body_size
        paragraph(p)


_FILLED = ("Structure of the receptor in complex with the compound and its inhibitor",
           "Comparison of the pathway in treated and control tissues of the cohort")


def filled(p, subnum: str, font: str, paragraph) -> None:
    """A bold run-in sub-heading on a line of its own, its paragraph starting on the next line."""
    s = p.style
    words = p.rng5.choice(_FILLED).split()
    while True:  # as many words as fill the line (a narrow column's title is shorter)
        title = " ".join(words)
        lead = f"{subnum}. {title}." if subnum else f"{title}."
        if len(words) <= 4 or p.c.stringWidth(lead, font, s.body_size) <= p.col_w():
            break
        words = words[:-1] if words[-2] not in ("the", "and", "in", "of", "with", "its") else words[:-2]
    p.need(4 * s.body_size)
    p.y -= 0.5 * s.body_size  # (space above, as over PNAS's run-in sub-headings)
    p.truth.append({"level": 2, "number": subnum, "title": title, "page": p.page})
    _draw_words(p, [(lead, font)], s.body_size)
    paragraph(p)


def _draw_words(p, words: list[tuple[str, str]], size: float) -> None:
    """Words in fonts of their own, wrapped at the column's edge, one baseline after another."""
    x0 = x = p.col_x()
    for word, font in words:
        w = p.c.stringWidth(word, font, size)
        if x > x0 and x + w > x0 + p.col_w():
            p.y -= 1.2 * size
            x = x0
        p.c.setFont(font, size)
        p.c.drawString(x, p.y, word)
        x += w + p.c.stringWidth(" ", font, size)
    p.y -= 1.2 * size
    p.paras.append(" ".join(w for w, _ in words))


def footnote(p) -> float:
    """Small-print notes under a short rule at the first column's foot of the title page; the height
    the column's text must leave them."""
    s, rng = p.style, p.rng5
    size = round(0.7 * s.body_size * 2) / 2  # (PNAS: 6 pt under 9 pt)
    terms = ("ATP, adenosine triphosphate", "D-Ala, D-alanine", "PCR, polymerase chain reaction",
             "MTS, tetrazolium salt", "ROS, reactive oxygen species", "WT, wild type")
    notes = ["Abbreviations: " + "; ".join(rng.sample(terms, 4)) + ".",
             "Data deposition: The sequences have been deposited in the archive (accession no. 1E4E)."]
    lines = [ln for text in notes for ln in wrap_column(p, text, s.body_font, size)]
    y = 62 + 1.2 * size * len(lines)
    p.c.setLineWidth(0.4)
    p.c.line(p.col_x(), y + 0.9 * size, p.col_x() + 0.3 * p.col_w(), y + 0.9 * size)
    p.c.setFont(s.body_font, size)
    for ln in lines:
        p.c.drawString(p.col_x(), y, ln)
        y -= 1.2 * size
    p.paras.extend(notes)
    p.truth.append({"level": 0, "number": "", "title": "Abbreviations", "page": 1, "trap": True})
    return 62 + 1.2 * size * (len(lines) + 2)


def entries(p) -> None:
    """Numbered entries with italic journals, no heading above them; one breaks before its journal."""
    s = p.style
    names = ("A. Okafor", "L. Brandt", "T. Ruiz", "W. Chen", "P. Novak", "M. Silva")
    for k in range(1, 5):
        p.need(3 * s.body_size)
        authors = ", ".join(p.rng5.sample(names, 3))
        year = p.rng5.randint(1990, 2008)
        if k == 1:  # "[1] A. Okafor, …, Z." / "Kristallogr. 2004, 219, 1–12."
            parts = [[(f"[{k}] {authors}, Z.", s.body_font)], [("Kristallogr.", "Times-Italic"),
                                                               (f" {year}, 219, 1–12.", s.body_font)]]
        else:
            parts = [[(f"[{k}] {authors}, ", s.body_font), ("Angew. Chem.", "Times-Italic"),
                      (f" {year}, {100 + k}, {k}91.", s.body_font)]]
        for row, pieces in enumerate(parts):
            x = p.col_x() + (1.2 * s.body_size if row else 0)
            for text, font in pieces:
                p.c.setFont(font, s.body_size)
                p.c.drawString(x, p.y, text)
                x += p.c.stringWidth(text, font, s.body_size)
            p.y -= 1.2 * s.body_size
        p.paras.append(" ".join(t for row in parts for t, _ in row))
    p.truth.append({"level": 0, "number": "", "title": "Kristallogr", "page": p.page, "trap": True})

