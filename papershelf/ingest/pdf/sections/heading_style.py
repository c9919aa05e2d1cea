"""What a section heading is made of, judged on its words and on its style against the body text:
the standard names, the number patterns, plausible titles, and "set apart" (strong).  Shared by
the heading decision (headings.py) and the rules that read a part of the paper set in a print
size of its own (small_print.py)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

# Unnumbered names a paper gives its sections.  Front and back matter stay at level 1 always.
_OUTSIDE = (r"abstract|keywords?|index terms|acknowledge?ments?|references|bibliography|literature cited|"
            r"appendix|appendices|supplementary materials?|funding|author contributions|competing interests|"
            r"conflicts? of interest|declarations?|abbreviations|ethics statement|data availability|"
            r"limitations|ethical considerations|broader impact")
_BODY = (r"introduction|background|related work|prior work|previous work|methods?|materials? and methods|"
         r"methods and materials|methodology|results|discussion|results and discussion|conclusions?|"
         r"conclusions? and future work|future work|summary|experiments?|evaluation|discussion and conclusions?|"
         r"concluding remarks|overview|preliminaries|contents")
_OUTSIDE_RE = re.compile(rf"^(?:{_OUTSIDE})$", re.IGNORECASE)
_STANDARD_RE = re.compile(rf"^(?:{_OUTSIDE}|{_BODY})$", re.IGNORECASE)
_NUMBERED = re.compile(
    r"^(?:(?P<app>appendix)\s+|§\s?)?(?P<num>\d{1,2}(?:\.\d{1,2}){0,3}|[IVX]{1,5}|[A-Z](?:\.\d{1,2}){0,2})"
    r"(?P<sep>[.):]?)\s+(?P<title>\S.*)$", re.IGNORECASE)
# Floats by name and number, in the languages papers print them in ("Schema 1", "Abb. 2"); "Figure 2
# cont" (a continued figure's label, no caption's punctuation) too.
_FLOAT = re.compile(r"^(?:Algorithm|Listing|Procedure|Box|Scheme|Schema|Chart|Plate|Fig(?:ure)?s?\.?|Tables?|"
                    r"Abb\.|Abbildung|Tab\.|Tabelle|Figura|Tabla|Tableau)\s*"
                    r"(?<=\s|\.)[\dIVX]+\b")
# Labels of statements, set like run-in headings but never section titles.
_THEOREM = re.compile(r"^(?:Lemma|Theorem|Proposition|Corollary|Definition|Proof|Remark|Example|Property|Claim|"
                      r"Conjecture|Assumption|Axiom|Observation|Fact|Question|Problem|Exercise|Notation|"
                      r"Hypothesis)\b", re.IGNORECASE)
_NAMED_LEAD = re.compile(rf"^((?:{_OUTSIDE})[:.])\s+\S", re.IGNORECASE)
# A title of words alone: no formula ("α > 0"), no sentence's comma or end ("Suppose that, …").
_WORDS_ONLY = re.compile(r"^[^\W\d_][\w'’/&()-]*(?: [\w'’/&()-]+)*$")
_DIGITS = re.compile(r"\d+")
# a system's, a language's or a standard's name: "F1", "Go", "C++", "P.563", "MeGaCo/H.248"
_NAME = re.compile(r"^[A-Z][\w+#./-]{0,15}(?<![./])$")


@dataclass
class BodyStyle:
    size: float
    bold: bool  # the body text itself claims to be bold: boldness says nothing in this paper
    face: str = ""  # the font most text is set in ("" when unknown)


@dataclass
class Para:
    """Lines of one column read as one paragraph, with what a reader sees around them."""

    lines: list = field(default_factory=list)  # pdf.Line
    in_figure: bool = False  # next to a caption or inside a figure's region: labels of a chart, cells of a table
    text: str = ""
    gap_above: float | None = None  # baseline pitch above the first line, in font sizes; None at a column top
    column_start: bool = False
    column_end: bool = False
    centred: bool = False  # the first line sits in the middle of its column, well away from its left edge
    indent: float = 0.0  # first line's x0 minus the column's left edge
    contents: bool = False  # entries of a table of contents (pdf_contents): they name sections, are none
    framed: bool = False  # inside a drawn frame among a few lines (boxes.framed): an algorithm's or a figure's text

    @property
    def first(self):
        return self.lines[0]


def strong(line, body: BodyStyle) -> bool:
    """Set apart from the body by size, weight or face."""
    if line.size >= body.size + 0.8:
        return True
    return line.size >= body.size - 0.7 and ((line.bold and not body.bold) or _other_face(line, body))


def _other_face(line, body: BodyStyle) -> bool:
    """Set in an upright text face other than the body's: a heading face whose weight the font's
    name hides (hashed names without a weight flag), or a sans-serif heading in a serif paper."""
    return bool(line.face and body.face and line.face != body.face)


def capitals(title: str) -> bool:
    letters = [c for c in title if c.isalpha()]
    return len(letters) >= 4 and all(c.isupper() for c in letters)


# Words that open a clause and need one after them: a line ending on one continues a sentence.
_CLAUSE_OPENERS = frozenset({"then", "that", "where", "whereas", "which", "whenever", "if", "since", "because"})


def _plausible_title(title: str, strong_style: bool) -> bool:
    words = title.split()
    if not words or len(words) > 14 or len(title) > 110 or title.endswith((",", ";")):
        return False
    if words[-1].lower() in _CLAUSE_OPENERS and len(words) > 1:
        return False  # "a. If ε ≤ 1, then": a list item that leaves its sentence open, no title
    if len(words) > 1 and all(len(w) == 1 for w in words):
        return False  # "P A S": a formula's symbols set apart, not words
    if not (title[0].isalnum() or title[0] in "\"'“‘(["):
        return False  # ", Noor Alide and …": the rest of a line cut off before it
    alpha = sum(c.isalpha() for c in title)
    if alpha < 3 or alpha < 0.6 * len(title.replace(" ", "")):
        return False  # formulas, numbers, table rows
    if re.search(r"[.!?]\s+[A-Za-z]", title) or ("=" in title):
        return False  # a sentence: a run-in heading followed by its paragraph, or text
    first = next(c for c in title if c.isalpha())
    return (first.isupper() or not first.isascii()) and (strong_style or not title.endswith((".", ":")))


def _family(face: str) -> str:
    """A face's family: "frutiger" of "frutiger-black" and "frutiger-bold" ("" for no face)."""
    return re.split(r"[-,+_ ]", face, maxsplit=1)[0]


def is_standard(text: str) -> bool:
    """A standard section name (Abstract, Background, References …), trailing colon or period aside."""
    return bool(_STANDARD_RE.match(text.strip().rstrip(".:").strip()))


def _numbered_start(text: str) -> bool:
    return bool(re.match(r"^(?:§\s?\d+(?:\.\d+)*[.)]?|(?:\d+(?:\.\d+)*|[IVX]+|[A-Z])[.)])\s", text))
