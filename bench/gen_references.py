"""Reference-list truth by construction: generated papers whose lists are printed in many styles, graded
entry by entry (each entry whole), not only by count.

Each seed makes one paper (reportlab): a title and body text, then a list heading drawn from the
languages papers print ("References", "REFERENCES", "Bibliography", "Referências", "Bibliografía",
"Literatur", "Références", "Literature Cited", "7 References"), then 6–45 entries of made-up works in one
style: numbered "[12]" or "12." in a gutter with the text beside it, a bare number set small and raised
(a superscript label), author–year with a hanging indent, author–year flush with a gap between entries,
or author–year flush with no gap at all; in one or two columns, the list running over pages; some entries
with their DOI on a line of its own; some papers with statement lines after the list ("Conflict of
interest …", "Received 3 May 2019; accepted …", "Funding …") that are no entries.

The truth is what was drawn: each entry's whole text, its year and its title.  An entry is *whole* when
the reader gives one entry whose letters and digits are exactly the drawn entry's (label aside).  The
count is right within max(1, 5 %), as in `wide_text.py`.  Seeds split by parity: even seeds are dev, odd
seeds test (report test once, at the end).

    python bench/gen_references.py [--half dev|test] [--papers 60] [-v] [--keep DIR] [--more | --layouts]

`--layouts` (refs8) draws the third stream: the first stream's lists, each paper with one layout class of the
unseen papers (`LAYOUTS`): body in two columns with the heading mid-column, plain lines after the list, a heading
the reader does not know, a figure and caption where the list goes on, biographies after the list, DOI and index
lines in journals' forms.  Graded the same way, and reported per class.

`--unseen` (refs11) draws a fourth stream: the first stream's lists, each paper with one class the earlier streams
lacked (`UNSEEN`): a numbered list whose labels the text layer gives at the end of the line before ("… 2009. [3]"),
a list with no heading whose labels are set small and raised on lines of their own (a letter journal's), labels
in a gutter of their own as OCR reads them (another size and baseline, some garbled: "PI", "[31", "I161"), an
author–year list with no heading at the paper's end, and a list of notes and references mixed (notes cite no year).

`--tails` (refs12) draws a fifth stream (`gen_refs_tails.py`): statement lines set straight after the list in its
own size and pitch, in several languages, and each entry's link on a line of its own in other journals' forms.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from reportlab.lib.pagesizes import letter
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen import canvas

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gen_refs_draw import (  # noqa: E402,F401
    BODY,
    H,
    Pages,
    W,
    _bios,
    _doi_form,
    _figure,
    _garbled,
    _running,
    _two_column_body,
    _unseen_label,
    _wrap,
)
from gen_refs_tails import tails  # noqa: E402

from papershelf.ingest.pdf import read_pdf  # noqa: E402

SURNAMES = ["Okafor", "Brandt", "Nakamura", "Silva", "García", "Müller", "O'Neil", "van der Berg", "Kowalski",
            "Chen", "Haddad", "Ivanova", "Larsen", "Mbeki", "Dubois", "Rossi", "Schmidt", "Tanaka", "Abebe",
            "Fernández", "Johansson", "Papadopoulos", "Nguyen", "Kaplan", "Sørensen", "Wójcik", "Patel"]
WORDS = ["adaptive", "signalling", "networks", "protein", "folding", "graph", "models", "estimation", "sparse",
         "inference", "coastal", "sediment", "transport", "learning", "retrieval", "kinetics", "evidence",
         "variation", "populations", "dynamics", "ranking", "queries", "distributed", "storage", "thermal",
         "response", "climate", "soil", "microbial", "communities", "language", "parsing", "robust", "optimal"]
VENUES = ["J. Mol. Biol.", "Nature", "Proc. Natl. Acad. Sci. USA", "Journal of Applied Ecology",
          "Physical Review Letters", "ACM Transactions on Database Systems", "Bioinformatics",
          "Revista Brasileira de Zoologia", "Zeitschrift für Naturforschung", "Computational Linguistics"]
HEADINGS = ["References", "REFERENCES", "Bibliography", "Referências", "Bibliografía", "Literatur",
            "Références", "Literature Cited", "7 References", "References and Notes"]
STYLES = ["bracket", "dotted", "superscript", "hanging", "gapped", "flush"]
STATEMENTS = ["Conflict of interest: The authors declare no competing interests.",
              "Received 3 May 2019; accepted 12 August 2019.",
              "Funding: This work was supported by the National Science Foundation.",
              "Publisher's Note: Springer Nature remains neutral with regard to jurisdictional claims."]
@dataclass
class Entry:
    authors: list[tuple[str, str]]  # (surname, initials)
    year: int
    title: str
    venue: str
    doi: str | None


@dataclass
class Paper:
    seed: int
    style: str
    columns: int
    heading: str
    doi_line: bool
    statement: str | None
    entries: list[Entry] = field(default_factory=list)
    # the second stream (--more): running head and foot on every page, labels set flush right in their gutter,
    # "(12)" labels, and entries of other kinds (a chapter with its editors, a body as author, "et al.")
    running: bool = False
    labels_right: bool = False
    paren: bool = False
    kinds: list[str] = field(default_factory=list)
    # the third stream (--layouts): one layout class of the unseen papers per paper (LAYOUTS)
    layout: str = ""
    doi_form: str = ""
    notes: set[int] = field(default_factory=set)  # --unseen's notes_mixed: the entries printed as notes
    tail: list[str] = field(default_factory=list)  # --tails' statement_flush: lines set straight after the list


def _entry(rng: random.Random) -> Entry:
    authors = [(rng.choice(SURNAMES), "".join(f"{rng.choice('ABCDEGHJKLMPRST')}." for _ in range(rng.randint(1, 2))))
               for _ in range(rng.choice([1, 1, 2, 2, 3, 4, 6]))]
    words = rng.sample(WORDS, rng.randint(4, 11))
    title = " ".join(words).capitalize()
    venue = f"{rng.choice(VENUES)} {rng.randint(1, 120)}, {rng.randint(1, 900)}–{rng.randint(901, 1800)}"
    doi = f"https://doi.org/10.{rng.randint(1000, 9999)}/{rng.choice(['j', 's', 'a'])}{rng.randint(10000, 999999)}"
    return Entry(authors, rng.randint(1960, 2023), title, venue, doi if rng.random() < 0.4 else None)


KINDS = ["article", "article", "article", "chapter", "body", "et al."]


# The third stream's layout classes (issue #38's unseen papers), one per paper:
# two_column_body: the body set in two columns, the heading mid-column, the list going on in both columns;
# statement_plain: lines after the list that no statement word opens (a received date in parentheses, an
#   accession line, an editor's line, a citation line), set apart by a gap and in another size;
# heading_other: a heading the reader's list of headings does not know ("References Cited", "Kaynakça");
# figure_in_list: a figure with its caption at the top of a column the list runs on into;
# bio_after: the authors' biographies after the list, in the body's size and with no heading;
# doi_forms: each entry's DOI or index line on a line of its own, in the forms journals print.
LAYOUTS = ["two_column_body", "statement_plain", "heading_other", "figure_in_list", "bio_after", "doi_forms"]
PLAIN_STATEMENTS = ["(Accepted March 27, 2009)", "GenBank accession numbers U88711 and AF104203.",
                    "Handling editor: Kari Larsen", "Citation: Okafor M, Brandt K (2020) Observations on soil "
                    "and thermal response. Synthetic Studies 12: 101–140.", "Editor: Thomas Dubois, Aix University",
                    "Sequence data from this article have been deposited with the EMBL/GenBank libraries."]
OTHER_HEADINGS = ["References Cited", "Referanser", "Kaynakça", "Referenser", "Bibliografie", "Cited Works",
                  "Literaturliste", "Sources", "Lähteet", "REFERENCES CITED"]
DOI_FORMS = ["doi:", "DOI: ", "PMID: ", "index", "Available from: https://doi.org/"]



# The fourth stream's classes (--unseen), one per paper:
# label_line_end: a numbered list whose labels the text layer gives at the end of the line before;
# raised_unheaded: no heading, each label set small and raised on a line of its own, left of its entry;
# ocr_labels: labels in a gutter of their own, in another size and off the baseline, half of them garbled;
# unheaded_author_year: an author-year list at the paper's end with no heading;
# notes_mixed: a numbered list of references and notes (a note cites no year).
UNSEEN = ["label_line_end", "raised_unheaded", "ocr_labels", "unheaded_author_year", "notes_mixed"]
NOTES = ["See the supplementary text for the derivation of the rate at the two sites.",
         "We thank the observers at both sites for reading each sample twice.",
         "The counts of the third season are given in full in the online tables; they do not change the "
         "conclusions drawn here.", "Materials and methods are available as supporting material.",
         "A second reading of the same samples gave the same ranking of the sites."]


def _unseen(p: Paper, seed: int) -> None:
    rng = random.Random(seed + 3_000_003)
    p.layout = UNSEEN[(seed // 2) % len(UNSEEN)]
    p.running = rng.random() < 0.4
    if p.layout in ("label_line_end", "ocr_labels", "notes_mixed") and p.style not in ("bracket", "dotted"):
        p.style = rng.choice(["bracket", "dotted"])
    if p.layout == "raised_unheaded":
        p.style = "superscript"
    if p.layout == "unheaded_author_year" and p.style not in ("hanging", "gapped", "flush"):
        p.style = rng.choice(["hanging", "gapped", "flush"])
        p.entries.sort(key=lambda e: (e.authors[0][0], e.year))
    if p.layout in ("raised_unheaded", "unheaded_author_year"):
        p.heading, p.statement = "", None
    if p.layout == "notes_mixed":
        p.heading = "References and Notes"
        p.notes = {i for i in range(len(p.entries)) if rng.random() < 0.3}
    if len(p.entries) < 8:
        p.entries += [_entry(rng) for _ in range(8)]
        if p.style in ("hanging", "gapped", "flush"):
            p.entries.sort(key=lambda e: (e.authors[0][0], e.year))


def make_paper(seed: int, more: bool = False, layouts: bool = False, unseen: bool = False,
               tail: bool = False) -> Paper:
    p = _first_stream(seed)
    if more:  # a stream of its own: the papers above stay as they were
        rng = random.Random(seed + 1_000_003)
        p.running, p.labels_right, p.paren = rng.random() < 0.6, rng.random() < 0.5, rng.random() < 0.3
        p.kinds = [rng.choice(KINDS) for _ in p.entries]
    if layouts:  # a third stream: the first stream's list, one layout class drawn on top of it
        rng = random.Random(seed + 2_000_003)
        p.layout = LAYOUTS[(seed // 2) % len(LAYOUTS)]
        p.running = rng.random() < 0.5
        if p.layout == "statement_plain":
            p.statement = rng.choice(PLAIN_STATEMENTS)
        if p.layout == "heading_other":
            p.heading = rng.choice(OTHER_HEADINGS)
        if p.layout in ("two_column_body", "figure_in_list"):
            p.columns = 2
        if p.layout == "doi_forms":
            p.doi_line, p.doi_form = True, rng.choice(DOI_FORMS)
            for e in p.entries:
                e.doi = e.doi or f"https://doi.org/10.{rng.randint(1000, 9999)}/x{rng.randint(10000, 99999)}"
        if p.layout == "figure_in_list" and len(p.entries) < 20:
            p.entries += [_entry(rng) for _ in range(20)]
            if p.style in ("hanging", "gapped", "flush"):
                p.entries.sort(key=lambda e: (e.authors[0][0], e.year))
    if unseen:  # a fourth stream, drawn on top of the first
        _unseen(p, seed)
    if tail:  # a fifth stream, drawn on top of the first
        tails(p, seed, _entry)
    return p


def _first_stream(seed: int) -> Paper:
    rng = random.Random(seed)
    p = Paper(seed, rng.choice(STYLES), rng.choice([1, 2]), rng.choice(HEADINGS), rng.random() < 0.5,
              rng.choice(STATEMENTS) if rng.random() < 0.4 else None)
    p.entries = [_entry(rng) for _ in range(rng.randint(6, 45))]
    if p.style in ("hanging", "gapped", "flush"):  # author-year lists are sorted by their first author
        p.entries.sort(key=lambda e: (e.authors[0][0], e.year))
    return p


def entry_text(p: Paper, e: Entry, kind: str = "article") -> str:
    """The entry as printed (without its label), the DOI apart: the text its lines wrap."""
    if kind == "note":
        return NOTES[(e.year + len(e.title)) % len(NOTES)]
    if kind == "body":
        return f"World Health Organization ({e.year}). {e.title}. Geneva: WHO Press."
    if kind == "chapter":
        eds = f"{e.authors[0][1]} {e.authors[0][0]} and B. Lindqvist"
        who = f"{e.authors[-1][0]}, {e.authors[-1][1]}"
        return f"{who} ({e.year}). {e.title}. In: {eds} (Eds.), Handbook of {e.venue.split()[0]} Studies " \
               f"(pp. {e.year % 300 + 1}–{e.year % 300 + 25}). Berlin: Springer."
    if kind == "et al.":
        e = Entry(e.authors[:1] + [("al.", "et")], e.year, e.title, e.venue, e.doi)
        return f"{e.authors[0][0]}, {e.authors[0][1]} et al. ({e.year}). {e.title}. {e.venue}."
    if p.style in ("hanging", "gapped", "flush"):
        names = ", ".join(f"{s}, {i}" for s, i in e.authors[:-1])
        last = f"{e.authors[-1][0]}, {e.authors[-1][1]}"
        names = f"{names}, & {last}" if names else last
        return f"{names} ({e.year}). {e.title}. {e.venue}."
    names = ", ".join(f"{i} {s}" for s, i in e.authors)
    return f"{names}. {e.title}. {e.venue} ({e.year})."


def draw(p: Paper, path: Path) -> list[str]:
    """The paper drawn to `path`; the entries' texts as drawn (DOIs included), the truth."""
    c = canvas.Canvas(str(path), pagesize=letter)
    c.setFont("Times-Bold", 15)
    c.drawCentredString(W / 2, H - 80, "Observations on " + " ".join(random.Random(p.seed).sample(WORDS, 4)))
    c.setFont("Times-Roman", 10)
    if p.layout == "two_column_body":
        pages = _two_column_body(c, p)
    else:
        y = H - 120
        for ln in _wrap(BODY * 6, W - 144, "Times-Roman", 10):
            c.drawString(72, y, ln)
            y -= 12
        c.setFont("Times-Bold", 11)
        if p.heading:
            c.drawString(72, y - 14, p.heading)
        pages = Pages(c, p.columns, y - (34 if p.heading else 20))
    pages.running = p.running
    figure_at = len(p.entries) // 2 if p.layout == "figure_in_list" else -1
    size, lead = 8.5, 10.5
    truth = []
    if p.running:
        _running(c, 1)
    garble, last_end = random.Random(p.seed + 5), None  # where the entry before ended: (page, x, y)
    for n, e in enumerate(p.entries, start=1):
        kind = "note" if n - 1 in p.notes else p.kinds[n - 1] if p.kinds else "article"
        text = entry_text(p, e, kind)
        numbered = p.style in ("bracket", "dotted", "superscript")
        indent = {"raised_unheaded": 5, "ocr_labels": 22}.get(p.layout, 16 if numbered else 12)
        first_w, rest_w = (pages.width - indent, pages.width - indent) if numbered else \
            (pages.width, pages.width - (indent if p.style == "hanging" else 0))
        lines = _wrap(text, first_w, "Times-Roman", size)
        lines = lines[:1] + _wrap(" ".join(lines[1:]), rest_w, "Times-Roman", size) if len(lines) > 1 else lines
        doi = [_doi_form(p, e.doi, n)] if e.doi and p.doi_line and kind != "note" else []
        if doi and "{" in p.doi_form:  # --tails' link lines, wrapped to the column (a DOI line fits one)
            doi = _wrap(doi[0], rest_w, "Times-Roman", size)
        if e.doi and not p.doi_line and kind != "note":
            lines = _wrap(text + " " + e.doi, first_w, "Times-Roman", size)
        truth.append(" ".join([*lines, *doi]))
        for k, ln in enumerate([*lines, *doi]):
            if n - 1 == figure_at and k == min(1, len(lines) + len(doi) - 1):  # the entry goes on in the next column, under a figure
                pages.y = 0
                pages.need(lead)
                _figure(c, pages)
            pages.need(lead)
            x = pages.x + (indent if numbered or (p.style == "hanging" and k) else 0)
            c.setFont("Times-Roman", size)
            if k == 0 and numbered and p.layout in ("label_line_end", "raised_unheaded", "ocr_labels"):
                _unseen_label(c, p, n, pages, last_end, garble)
            elif k == 0 and numbered:
                if p.style == "superscript":
                    c.setFont("Times-Roman", 6)
                    c.drawString(pages.x, pages.y + 2.5, str(n))
                    c.setFont("Times-Roman", size)
                else:
                    label = f"({n})" if p.paren else f"[{n}]" if p.style == "bracket" else f"{n}."
                    if p.labels_right:
                        c.drawRightString(pages.x + indent - 3, pages.y, label)
                    else:
                        c.drawString(pages.x, pages.y, label)
            c.drawString(x, pages.y, ln)
            last_end = (c.getPageNumber(), x + stringWidth(ln, "Times-Roman", size), pages.y)
            pages.y -= lead
        pages.y -= 4 if p.style == "gapped" else 0.5
    if p.layout == "bio_after":
        _bios(c, pages, p)
    for text in p.tail:  # straight after the list: its size, its pitch, its edge
        for ln in _wrap(text, pages.width, "Times-Roman", size):
            pages.need(lead)
            c.drawString(pages.x, pages.y, ln)
            pages.y -= lead
    if p.statement:
        pages.need(3 * lead)
        pages.y -= 12
        c.setFont("Times-Roman", size)
        for ln in _wrap(p.statement, pages.width, "Times-Roman", size):
            c.drawString(pages.x, pages.y, ln)
            pages.y -= lead
    c.save()
    return truth


def _letters(text: str) -> str:
    return re.sub(r"[^\w]", "", text.lower())


def grade(p: Paper, truth: list[str], found: list) -> dict:
    """Count right, entries whole, years and titles right (an entry is matched by its letters)."""
    label = re.compile(r"^\s*\^?(?:\[\d+\]|\(\d+\)|\d+\.?)\s*")
    found_letters = {_letters(label.sub("", r.text)): r for r in found}
    whole = [found_letters.get(_letters(t)) for t in truth]
    n = len(truth)
    return {"count_ok": abs(len(found) - n) <= max(1, 0.05 * n), "entries": n, "found": len(found),
            "whole": sum(r is not None for r in whole),
            "years": sum(r is not None and r.year == (None if i in p.notes else e.year)
                         for i, (r, e) in enumerate(zip(whole, p.entries, strict=True))),
            "titles": sum(r is not None and (i in p.notes or (r.title or "").rstrip(".").lower() == e.title.lower())
                          for i, (r, e) in enumerate(zip(whole, p.entries, strict=True)))}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--half", choices=("dev", "test"), default="dev")
    ap.add_argument("--papers", type=int, default=60)
    ap.add_argument("--keep", help="a folder to keep the generated PDFs in")
    ap.add_argument("-v", action="store_true", help="one line per paper that is not all right")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--more", action="store_true", help="the second stream of classes (see Paper)")
    ap.add_argument("--layouts", action="store_true", help="the third stream: layout classes (LAYOUTS)")
    ap.add_argument("--unseen", action="store_true", help="the fourth stream: classes of unseen lists (UNSEEN)")
    ap.add_argument("--tails", action="store_true", help="the fifth stream: what follows entries and lists (TAILS)")
    args = ap.parse_args()
    folder = Path(args.keep or tempfile.mkdtemp(prefix="genrefs-"))
    folder.mkdir(parents=True, exist_ok=True)
    seeds = [2 * i + (args.half == "test") for i in range(args.papers)]
    total: Counter = Counter()
    by_style: dict[str, Counter] = {}
    by_layout: dict[str, Counter] = {}
    for seed in seeds:
        p = make_paper(seed, args.more, args.layouts, args.unseen, args.tails)
        path = folder / f"refs-{seed}.pdf"
        truth = draw(p, path)
        g = grade(p, truth, read_pdf(path.read_bytes()).references)
        groups = [total, by_style.setdefault(p.style, Counter())]
        groups += [by_layout.setdefault(p.layout, Counter())] if p.layout else []
        for c in groups:
            c.update({k: int(v) for k, v in g.items()} | {"papers": 1})
        if args.v and (not g["count_ok"] or g["whole"] < g["entries"]):
            print(f"seed {seed} {p.style} cols={p.columns} head={p.heading!r} doi_line={p.doi_line} "
                  f"statement={bool(p.statement)} layout={p.layout} running={p.running} right={p.labels_right} paren={p.paren}: found {g['found']} of {g['entries']}, whole {g['whole']}")
    if args.json:
        print(json.dumps({"total": total, "by_style": by_style, "by_layout": by_layout}))
        return 0
    for name, c in [*sorted(by_style.items()), *sorted(by_layout.items()), ("all", total)]:
        print(f"{name:12s} papers {c['papers']:3d}  counts within 5 % {c['count_ok']:3d}  entries whole "
              f"{c['whole']}/{c['entries']} = {c['whole'] / max(1, c['entries']):.3f}  years {c['years']}  "
              f"titles {c['titles']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
