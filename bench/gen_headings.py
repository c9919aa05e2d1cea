"""Heading truth by construction: generated papers in many heading styles, graded like real ones.

Each seed makes one paper (reportlab) whose heading styles are drawn at random: sections numbered
("1 Introduction", "1. Introduction", "I. INTRODUCTION"), or unnumbered in bold at the body's own
size, in capitals, or in small capitals; sub-sections numbered, in italics on a line of their own,
or run in ("Cell culture. The cells were …", "2.3. MTS Assay. The …") in italics or bold; one or
two columns; and, on some, a journal's front-page sidebar (a narrow column of "Citation / Editor /
Received / … / Competing interests" labels, not drawn as a box) beside the first page's text.
From a second random stream (so the styles above stay as they were), the classes the reader
missed on unseen publishers: titles long enough to wrap onto a second or third line, unnumbered bold
body-size sub-headings under numbered sections, a third level (numbered in italics, or run in),
declarations in small print (bold names over statements of their own size, some as short as "Not
applicable."), and reference entries opening with their authors in bold (no headings).  From a third
stream, the classes of the next round: a front-page sidebar whose labels are run in with colons in
small print ("Funding: The authors received …", "Competing interests: …"; no headings), numbered
section titles centred and wrapped onto two centred lines, and run-in sub-headings whose
paragraph is indented, in the body's italics or in the sections' bold sans-serif.  From a fourth
(bench/gen_traps.py) and a fifth stream (bench/gen_traps2.py: species headings ending in a roman
figure citation, a title page's small-print footnotes, a heading-less reference list with italic
journals, italic sub-headings a point below the body's size, a bold run-in sub-heading that fills its
line), the traps and classes of later rounds.  From a sixth (bench/gen_traps3.py): papers set in
fonts subset under hashed names with no weight in name or flags, bold only in the glyphs' strokes.
The truth is what was drawn: every heading with its number, title, level and page.  The sidebar's
labels are no headings, so a reader that takes them counts them against its precision.

Seeds split by parity: even seeds are dev, odd seeds are test (report test once, at the end).

    python bench/gen_headings.py [--half dev|test] [--papers 60] [--json] [-v] [--keep DIR]
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable
from dataclasses import dataclass, field

import gen_traps
import gen_traps2
import gen_traps3
from gen_seeds import blocks_without_outline, seed_parser, seed_paths
from pdf_headings_score import score_paper, sum_scores
from reportlab.lib.pagesizes import letter
from reportlab.pdfgen import canvas

W, H = letter
_WORDS = ("cells were incubated with the compound for two days before the assay and the response was measured "
          "against a control group of matched samples drawn from the same cohort while the model predicts "
          "a small effect that grows with dose as earlier studies of this pathway have reported in detail "
          "for several tissues and species under conditions that we describe below in order").split()
_SECTIONS = ("Introduction", "Materials and methods", "Results", "Discussion", "Conclusions")
_OTHER = ("Study design", "Model of the pathway", "Theory", "Related studies", "Experimental setup", "Analysis")
_SUBS = ("Cell culture", "Statistical analysis", "MTS assay", "Animals", "Patient cohort", "Data collection",
         "Western blot", "Imaging", "Ethics", "Sample preparation", "Dose response", "Survival analysis")
_LONG = ("Effects of the compound on survival of cells from the control cohort",
         "Dose response of the pathway in tissues under the conditions below",
         "Comparison of the model with earlier studies of the same pathway")
_BACK = ("Funding", "Availability of data and materials", "Authors' contributions", "Competing interests",
         "Consent for publication", "Ethics approval and consent to participate")
_SIDEBAR = ("Citation", "Editor", "Received", "Accepted", "Published", "Copyright", "Data Availability Statement",
            "Funding", "Competing interests")


@dataclass
class Style:
    body_font: str
    body_size: float
    columns: int
    top: str  # numbered | dotted | roman | bold | capitals | smallcaps
    sub: str  # numbered | italic | italic_runin | bold_runin | none
    sidebar: bool
    gap: float  # extra space above a heading, in body sizes
    # Classes drawn from a second random stream (the first stream's styles stay as they were):
    # "long" (titles that wrap onto a second line), "subsub" (a third level), "back" (declarations set
    # in small print with bold names over short statements), "bold_sub" (unnumbered bold body-size
    # sub-headings), "refs" (reference entries opening with their authors in bold: no headings).
    extras: frozenset = frozenset()
    # Third stream: "form" (a sidebar of run-in colon labels), "centred" (numbered sections centred,
    # long ones on two centred lines), "indent" (run-in sub-headings in an indented first line).
    later: frozenset = frozenset()
    traps: frozenset = frozenset()  # fourth stream (gen_traps.py): figure labels, example fields, a sidebar


@dataclass
class Paper:
    style: Style
    c: canvas.Canvas
    rng: random.Random
    trap_rng: random.Random = field(default_factory=random.Random)  # the traps' own draws (gen_traps.py)
    rng5: random.Random = field(default_factory=random.Random)  # the fifth stream's (gen_traps2.py)
    floor: float = 60.0  # where the title page's first column ends (above its footnotes)
    truth: list[dict] = field(default_factory=list)
    paras: list[str] = field(default_factory=list)  # every paragraph's text as drawn, in reading order
    page: int = 1
    col: int = 0
    y: float = H - 72
    left: float = 54.0

    width: float = W  # the page's size (a three- or four-column class sets its own)
    height: float = H
    on_new_page: Callable[[Paper], None] | None = None  # draws what opens a page (a figure across it)

    def col_x(self) -> float:
        return self.left + self.col * (self.col_w() + 18)

    def col_w(self) -> float:
        full = self.width - 54 - self.left
        return (full - 18 * (self.style.columns - 1)) / self.style.columns

    def need(self, h: float) -> None:
        if self.y - h >= (self.floor if self.page == 1 and self.col == 0 else 60):
            return
        if self.col < self.style.columns - 1:
            self.col, self.y = self.col + 1, self.top_y
            return
        self.c.setFont("Helvetica", 7)
        self.c.drawString(self.width / 2, 30, str(self.page))
        self.c.showPage()
        self.page += 1
        self.col, self.y, self.left, self.top_y = 0, self.height - 72, 54.0, self.height - 72
        if self.on_new_page is not None:
            self.on_new_page(self)

    top_y: float = H - 72


def _sentence(rng: random.Random, n: int) -> str:
    words = [rng.choice(_WORDS) for _ in range(n)]
    return " ".join(words).capitalize() + "."


def _lines(p: Paper, text: str, font: str, size: float, first_width: float = 0.0) -> list[str]:
    out, cur, width = [], "", p.col_w() - first_width
    for w in text.split():
        trial = f"{cur} {w}".strip()
        if p.c.stringWidth(trial, font, size) > width and cur:
            out.append(cur)
            cur, width = w, p.col_w()
        else:
            cur = trial
    return out + [cur] if cur else out


def paragraph(p: Paper, lead: tuple[str, str] | None = None) -> None:
    """A paragraph of body text, opened by a run-in lead-in (text, font) when given."""
    s = p.style
    text = " ".join(_sentence(p.rng, p.rng.randint(8, 16)) for _ in range(p.rng.randint(2, 4)))
    pitch = 1.2 * s.body_size
    indent = 1.5 * s.body_size if lead and "indent" in s.later else 0.0  # a first-line indent before the lead-in
    lead_w = p.c.stringWidth(lead[0] + " ", lead[1], s.body_size) + indent if lead else 0.0
    lines = _lines(p, text, s.body_font, s.body_size, lead_w)
    p.paras.append(f"{lead[0]} {text}" if lead else text)
    p.need(pitch * 2)
    for k, line in enumerate(lines):
        p.need(pitch)
        x = p.col_x() + (s.body_size if k == 0 and not lead else 0)
        if k == 0 and lead:
            p.c.setFont(lead[1], s.body_size)
            p.c.drawString(x + indent, p.y, lead[0])
            x += lead_w
        p.c.setFont(s.body_font, s.body_size)
        p.c.drawString(x, p.y, line)
        p.y -= pitch
    p.y -= 0.3 * s.body_size


def _smallcaps(p: Paper, x: float, text: str, size: float, font: str) -> None:
    """Small capitals drawn as a typesetter does: capitals at full size, the rest as smaller capitals."""
    for word in text.split():
        for ch in word:
            sz = size if ch.isupper() or not ch.isalpha() else 0.78 * size
            p.c.setFont(font, sz)
            p.c.drawString(x, p.y, ch.upper())
            x += p.c.stringWidth(ch.upper(), font, sz)
        x += p.c.stringWidth(" ", font, size)


def heading(p: Paper, level: int, number: str, title: str) -> None:
    """A heading on a line of its own, in the paper's style for its level; recorded as truth."""
    s = p.style
    kind = s.top if level == 1 else s.sub
    size = s.body_size + (2 if kind == "numbered" and level == 1 else 0)
    p.need(4 * s.body_size)
    p.y -= s.gap * s.body_size
    x = p.col_x()
    shown = title
    if kind == "roman" or kind == "capitals":
        shown = title.upper()
    dot = "." if number and kind in ("dotted", "roman") else ""
    label = f"{number}{dot} {shown}".strip()
    if level == 1 and "centred" in s.later:
        _centred(p, label, size)
    elif kind == "roman":
        w = p.c.stringWidth(label, "Times-Roman", size)
        x = p.col_x() + (p.col_w() - w) / 2
        _smallcaps(p, x, f"{number}{dot} {title}".strip(), size, "Times-Roman")
    elif kind == "smallcaps":
        _smallcaps(p, x, f"{number} {title}".strip(), size, "Times-Roman")
    else:
        font = "Times-Italic" if kind == "italic" else ("Helvetica-Bold" if kind == "numbered" else "Times-Bold")
        font = "Times-BoldItalic" if level == 2 and kind == "bold" and s.top == "bold" and "flat" not in s.traps \
            else font
        p.c.setFont(font, size)
        lines = _lines(p, label, font, size)
        for k, line in enumerate(lines):  # a long title wraps onto a second line, flush left
            p.c.drawString(x, p.y, line)
            if k < len(lines) - 1:
                p.y -= 1.2 * size
    p.truth.append({"level": level, "number": number, "title": title, "page": p.page})
    p.y -= 1.2 * size + 0.3 * s.body_size


def _sidebar(p: Paper) -> None:
    """A narrow column of labelled front matter at the first page's left, not drawn as a box."""
    y = p.y
    for label in _SIDEBAR:
        p.c.setFont("Helvetica-Bold", 7.5)
        p.c.drawString(54, y, label)
        y -= 9
        p.c.setFont("Helvetica", 7)
        for _ in range(p.rng.randint(1, 3)):
            words = [p.rng.choice(_WORDS) for _ in range(4)]
            while len(words) > 1 and p.c.stringWidth(" ".join(words), "Helvetica", 7) > 135:
                words.pop()  # (the strip ends clear of the text beside it; the draws stay as they were)
            p.c.drawString(54, y, " ".join(words))
            y -= 8.5
        y -= 5
    p.left = 54 + 150


def _form(p: Paper) -> None:
    """A narrow column of front matter at the first page's left whose labels are run in, bold with
    a colon, in small print ("Funding: The authors …"), not drawn as a box."""
    y, w = p.y, 130.0
    for label in _SIDEBAR:
        text = " ".join(p.rng.choice(_WORDS) for _ in range(p.rng.randint(3, 14)))
        lead = f"{label}: "
        lead_w = p.c.stringWidth(lead, "Helvetica-Bold", 7)
        x, first = 54 + lead_w, True
        p.c.setFont("Helvetica-Bold", 7)
        p.c.drawString(54, y, lead)
        line = ""
        for word in text.split():
            trial = f"{line} {word}".strip()
            if p.c.stringWidth(trial, "Helvetica", 7) > w - (lead_w if first else 0) and line:
                p.c.setFont("Helvetica", 7)
                p.c.drawString(x, y, line)
                y, x, first, line = y - 8.5, 54, False, word
            else:
                line = trial
        p.c.setFont("Helvetica", 7)
        p.c.drawString(x, y, line)
        y -= 13
    p.left = 54 + 150


def _centred(p: Paper, label: str, size: float) -> None:
    """A section title centred, wrapped onto a second centred line when longer than two
    thirds of the column ("3. Constructing language courses in" / "CALL-SLT"); in the body's roman
    (amsart's way) in papers set in 9 or 9.5 pt."""
    font = "Times-Bold" if p.style.body_size >= 10 else "Times-Roman"
    out, cur = [], ""
    for w in label.split():
        trial = f"{cur} {w}".strip()
        if p.c.stringWidth(trial, font, size) > 0.66 * p.col_w() and cur:
            out.append(cur)
            cur = w
        else:
            cur = trial
    out.append(cur)
    p.c.setFont(font, size)
    for k, line in enumerate(out):
        p.c.drawCentredString(p.col_x() + p.col_w() / 2, p.y, line)
        if k < len(out) - 1:
            p.y -= 1.2 * size


def make(seed: int, path: str) -> tuple[list[dict], Style]:
    """Write the seed's paper to `path`; its heading truth and its style."""
    rng = random.Random(seed)
    style = Style(rng.choice(("Times-Roman", "Times-Roman", "Helvetica")), rng.choice((9.0, 9.5, 10.0, 10.5)),
                  rng.choice((1, 2)), rng.choice(("numbered", "dotted", "roman", "bold", "capitals", "smallcaps")),
                  rng.choice(("numbered", "italic", "italic_runin", "bold_runin", "none")),
                  rng.random() < 0.4, rng.choice((0.4, 0.8, 1.2)))
    more = random.Random(seed * 7919 + 17)
    style.extras = frozenset(k for k in ("long", "subsub", "back", "bold_sub", "refs") if more.random() < 0.3)
    if "bold_sub" in style.extras:
        style.sub = "bold"
    third = random.Random(seed * 104729 + 31)
    style.later = frozenset(k for k in ("form", "centred", "indent") if third.random() < 0.3)
    if "centred" in style.later and style.top in ("roman", "smallcaps", "bold", "capitals"):
        style.top = "dotted"
    if "indent" in style.later and style.sub != "bold":
        style.sub = third.choice(("italic_runin", "bold_runin"))
    style.traps = gen_traps.draw_kinds(seed) | gen_traps2.draw_kinds(seed)
    if "flat" in style.traps and style.top in ("bold", "capitals", "smallcaps"):
        style.top, style.sub = "bold", "bold"  # sections and sub-sections in one style
    else:
        style.traps -= {"flat"}
    style.traps |= gen_traps3.draw_kinds(seed)
    c = gen_traps3.paper_canvas(seed, path, style.traps)
    p = Paper(style, c, rng, random.Random(seed * 15485863 + 11), random.Random(seed * 32452843 + 5))
    c.setFont("Helvetica-Bold", 16)
    c.drawCentredString(W / 2, p.y, "Signalling " + " ".join(rng.choice(_WORDS) for _ in range(5)))
    c.setFont("Helvetica", 10)
    c.drawCentredString(W / 2, p.y - 20, "Ada Okafor, Lena Brandt and Tomas Ruiz")
    p.y -= 50
    if "form" in style.later:
        _form(p)
    elif style.sidebar:
        _sidebar(p)
    elif "sidebar2" in style.traps:
        gen_traps.sidebar(p)
    if "footnote" in style.traps:
        p.floor = gen_traps2.footnote(p)
    p.top_y = p.y
    heading_abstract = style.top not in ("roman",)
    if heading_abstract:
        p.c.setFont("Times-Bold", style.body_size)
        p.c.drawString(p.col_x(), p.y, "Abstract")
        p.truth.append({"level": 1, "number": "", "title": "Abstract", "page": 1, "optional": True})
        p.y -= 1.3 * style.body_size
    paragraph(p)
    _body(p)
    if "back" in style.extras:
        _declarations(p)
    if "entries" in style.traps:  # a list with no heading, its journals in italics
        gen_traps2.entries(p)
    else:
        heading(p, 1, "", "References and Notes" if "biblio" in style.traps else "References")
        p.truth[-1]["optional"] = True  # set in the sections' style, whatever number scheme they use
    if "biblio" in style.traps and "entries" not in style.traps:
        gen_traps.bibliography(p)
    for k in range(6 if "refs" in style.extras else 4):
        # "refs": entries opening with their authors in bold, numbered or not: no headings
        names = ", ".join(rng.sample(("Okafor A", "Brandt L", "Ruiz T", "Chen W", "Novak P", "Silva M"), 2))
        paragraph(p, (f"{k + 1}. {names}." if k % 2 else f"{names}.", "Times-Bold") if "refs" in style.extras
                  else None)
    c.save()
    return p.truth, style


def _body(p: Paper) -> None:
    numbered = p.style.top in ("numbered", "dotted", "roman", "smallcaps")
    tops = list(_SECTIONS[:2]) + [p.rng.choice(_OTHER)] + list(_SECTIONS[2:4])
    if "long" in p.style.extras and p.style.top not in ("roman", "smallcaps"):
        tops[2] = p.rng.choice(_LONG)
    for i, title in enumerate(tops, 1):
        number = ("IVX"[0] * i if i <= 3 else ("IV" if i == 4 else "V")) if p.style.top == "roman" else str(i)
        heading(p, 1, number if numbered else "", title)
        if not ("flat" in p.style.traps and i in (2, 3)):  # (flat: the first sub-section right under its section)
            paragraph(p)
        if i == 2 and "figure" in p.style.traps:
            gen_traps.figure(p, 1)
        if i == 4 and "fields" in p.style.traps:
            gen_traps.fields(p)
        if i == 4 and "taxon" in p.style.traps:
            gen_traps2.taxa(p, p.style.gap, paragraph)
        if i == 5 and "italic_small" in p.style.traps:
            gen_traps2.italic_small(p, max(p.style.gap, 0.8), paragraph)
        if p.style.sub == "none" or i not in (2, 3):
            paragraph(p)
            continue
        small = "smallprint" in p.style.traps and i == 2  # the methods' sub-sections in small print
        p.style.body_size -= 1.5 if small else 0
        _subs(p, i, numbered)
        p.style.body_size += 1.5 if small else 0


def _subs(p: Paper, i: int, numbered: bool) -> None:
    """Section i's three sub-sections, in the paper's sub-heading style."""
    for j, sub in enumerate(p.rng.sample(_SUBS, 3), 1):
        subnum = (chr(64 + j) if p.style.top == "roman" else f"{i}.{j}") if numbered else ""
        subnum = "" if p.style.sub == "bold" else subnum  # unnumbered bold sub-headings under any sections
        if p.style.sub.endswith("runin"):
            font = "Times-Italic" if p.style.sub == "italic_runin" else "Times-Bold"
            font = "Helvetica-Bold" if "indent" in p.style.later and font == "Times-Bold" else font
            lead = f"{subnum}. {sub}." if subnum else f"{sub}."
            if "filled" in p.style.traps and j == 2 and font != "Times-Italic":  # its line filled by the lead-in
                gen_traps2.filled(p, subnum, font, paragraph)
                continue
            p.truth.append({"level": 2, "number": subnum, "title": sub, "page": p.page})
            p.need(3 * p.style.body_size)
            p.truth[-1]["page"] = p.page
            paragraph(p, (lead, font))
        else:
            sub = p.rng.choice(_LONG) if "long" in p.style.extras and j == 2 else sub
            if "wrap3" in p.style.traps and j == 3 and p.style.columns == 2:  # (one column: one line)
                sub = gen_traps.long_title(p)
            if p.style.sub in ("numbered", "bold"):
                heading(p, 2, subnum, sub)
            else:
                _italic(p, subnum, sub)
            paragraph(p)
            if "subsub" in p.style.extras and j == 1:
                _third_level(p, subnum)


def _italic(p: Paper, number: str, title: str) -> None:
    s = p.style
    s.sub, old = "italic", s.sub
    heading(p, 2, number, title)
    s.sub = old


def _third_level(p: Paper, subnum: str) -> None:
    """Two headings a level below a sub-section: numbered "2.1.1" in italics on a line of their own
    when the paper numbers, else run in, in bold italics ("Primary outcome. The …")."""
    for k, title in enumerate(p.rng.sample(("Primary outcome", "Secondary outcome", "Sensitivity",
                                            "Missing data"), 2), 1):
        if subnum and subnum[0].isdigit():
            s = p.style
            s.sub, old = "italic", s.sub
            heading(p, 3, f"{subnum}.{k}", title)
            s.sub = old
            paragraph(p)
        else:
            p.need(3 * p.style.body_size)
            p.truth.append({"level": 3, "number": "", "title": title, "page": p.page})
            paragraph(p, (f"{title}.", "Times-BoldItalic"))


def _declarations(p: Paper) -> None:
    """Back matter in small print: bold names over statements of their own small size, some of
    them shorter than a line ("Not applicable."), each name a section of its own (level 1)."""
    s = p.style
    size = s.body_size - 1.5
    for name in p.rng.sample(_BACK, 4):
        p.need(4 * size)
        p.y -= 0.8 * size
        p.c.setFont("Times-Bold", size)
        p.c.drawString(p.col_x(), p.y, name)
        p.truth.append({"level": 1, "number": "", "title": name, "page": p.page})
        p.y -= 1.2 * size
        short = p.rng.random() < 0.4
        text = "Not applicable." if short else " ".join(_sentence(p.rng, p.rng.randint(8, 14)) for _ in range(2))
        p.c.setFont(s.body_font, size)
        for line in _lines(p, text, s.body_font, size):
            p.need(1.2 * size)
            p.c.drawString(p.col_x(), p.y, line)
            p.y -= 1.2 * size
        p.paras.append(text)


def main() -> int:
    ap = seed_parser(__doc__, 60, "per paper: its style, missed and spurious headings")
    args = ap.parse_args()
    scores: list[dict] = []
    by_kind: dict[str, list[dict]] = {}
    for seed, path in seed_paths(args, "gen"):
        truth, style = make(seed, path)
        s = score_paper(blocks_without_outline(path), truth)
        scores.append(s)
        for key in (f"top={style.top}", f"sub={style.sub}", f"sidebar={style.sidebar}",
                    f"columns={style.columns}", *(f"extra={e}" for e in sorted(style.extras | style.later | style.traps))):
            by_kind.setdefault(key, []).append(s)
        if args.v:
            print(f"seed {seed} {style}: P {s['precision']} R {s['recall']} missed {s['missed'][:4]} "
                  f"spurious {s['spurious'][:4]}", file=sys.stderr)
    total = {"half": args.half, **sum_scores(scores),
             "by_style": {k: {m: sum_scores(v)[m] for m in ("papers", "precision", "recall")}
                          for k, v in sorted(by_kind.items())}}
    print(json.dumps(total, indent=1) if args.json else json.dumps({k: v for k, v in total.items()
                                                                     if k != "by_style"}))
    if not args.json:
        for k, v in total["by_style"].items():
            print(f"  {k:22s} {v}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
