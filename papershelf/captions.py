"""Recognising figure/table captions and the body sentences that cite them.

A caption starts a paragraph with a label ("Figure 3.", "Fig. 3:", "FIGURE 3",
"Table 2 |", "Table IV", "Supplementary Figure S1") followed by a separator, the
end of the line, or a capitalised caption.  "Table 1 shows ..." is a sentence
that mentions a table, not a caption, which is why the separator matters.

Chinese, Japanese and Korean papers label them 图 1 / 圖 1 / 図 1 / 그림 1 (figure) and
表 2 / 표 2 (table), followed by a space, a colon (also full-width "："), a period or the
end of the line; "表1显示了…" (a sentence that starts by citing a table) is not a caption.
They get the same labels as English ones ("Figure 1", "Table 2"), so `--kind` and a label
query find them alike, and "如图1所示" / "図3に示す" cite them.

`parse_label` is the one reading of a label, shared by captions and by search queries
("table IV", "fig. 2b", "Supplementary Figure S1"): its `key` is what two printed forms of the
same object have in common (kind, supplementary or not, the number with roman numerals read,
no panel letter), so a query for "Table 4" finds a caption printed "TABLE IV".
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .text import split_sentences

# The words papers label their objects with, in the languages of the literature: a figure is also a
# "Figura" (es, pt, it), "Figur"/"Figuur", "Abbildung"/"Abb.", a "Graph", "Chart", "Gráfico" or
# "Scheme"/"Schema" (de, it, nl)/"Esquema"; a table a "Tabla", "Tabela", "Tabella", "Tableau", "Tabelle"/"Tabel", or a
# Portuguese/Spanish "Quadro"/"Cuadro".  Each in title case or capitals (never lower case: "figure 3
# shows" is a sentence).  A translation of "Figure"/"Table" reads as "Figure N" / "Table N", so `--kind`
# and label queries find them alike; a series of its own ("Graph 2", "Scheme 1", numbered apart from
# the paper's figures, or a "Plate" of an older paper's illustrations) keeps its name, of kind figure.
# Capitals set as small capitals may come out of the PDF with a space after the first letter ("T ABLE I",
# "F IG. 3": the full capital and the smaller ones are two runs).
_FIGURE_WORDS = ("Figure", "Fig", "Figura", "Figur", "Figuur", "Abbildung", "Abb", "Graph", "Chart", "Gráfico",
                 "Grafico", "Scheme", "Schema", "Esquema", "Plate")
_TABLE_WORDS = ("Table", "Tab", "Tabla", "Tabela", "Tabella", "Tableau", "Tabelle", "Tabel", "Quadro", "Cuadro")
_ABBREVIATED = ("Fig", "Abb", "Tab")
_SERIES = {"graph": "Graph", "chart": "Chart", "gráfico": "Graph", "grafico": "Graph", "scheme": "Scheme",
           "schema": "Scheme", "esquema": "Scheme", "plate": "Plate"}


def _kind_words() -> str:
    forms = []
    for w in sorted(_FIGURE_WORDS + _TABLE_WORDS, key=len, reverse=True):
        dot = r"\.?" if w in ("Fig",) else (r"\." if w in _ABBREVIATED else "")
        forms += [w + dot, w.upper() + dot, w[0] + " " + w[1:].upper() + dot]
    return "|".join(forms)


_KIND = r"(?P<kind>" + _kind_words() + ")"
_CJK_FIGURE, _CJK_TABLE = "图圖図그림", "表표"
_CJK_KIND = r"(?P<kind>[图圖図表표]|그림)"
# A chapter-numbered label ("Figure 2.1", a thesis's or a book's) is one number: its dot is followed
# by a digit, so "Figure 2. The results" keeps "2" and its separator.
# An appendix's objects carry its letter: "Table A1", "Figure B.2" (A-H: "S1" is a supplement's).
# A panel's letter follows the number: "Fig. 2b", or in capitals before a colon or a dash ("Fig. 1A - Spectrogram",
# one caption a panel: the panels are one object; not a period: "… in Fig. 1A. For the …" wrapped is a citation).
_NUM = (r"(?P<num>S?\d+(?:\.\d+)?(?!\.?\d)|[A-H]\.?\d+(?:\.\d+)?(?!\.?\d)|[IVXLC]+)"
        r"(?P<panel>[a-z]|(?<=\d)[A-Z](?=\s*[:|\u2014\u2013]|\s+-\s))?")
_APPENDIX = re.compile(r"([A-H])\.?(\d+(?:\.\d+)?)$")
_SUPP = r"(?P<supp>(?:Supplementary|Supplemental|SUPPLEMENTARY|Extended\s+Data)\s+)?"

_LATIN_CAPTION = (r"(?:[*_]{1,2})?" + _SUPP + _KIND + r"\s*" + _NUM +
                  r"(?:[*_]{1,2})?(?P<sep>\s*[:.|\u2014\u2013]\s*|\s+-\s+|\s*$|\s+(?=[A-Z(\[]))")
_CJK_CAPTION = (r"(?:[*_]{1,2})?" + _CJK_KIND.replace("kind", "ckind") + r"\s*(?P<cnum>S?\d+)(?P<cpanel>[a-z])?"
                r"(?:[*_]{1,2})?(?P<csep>\s*[:.：．|\u2014\u2013]\s*|\s+|$)")
# A caption's first character is one of few (most lines fail there, before the label words are tried).
_OPENS = "".join(sorted({w[0] for w in _FIGURE_WORDS + _TABLE_WORDS} | set("*_SE" + _CJK_FIGURE + _CJK_TABLE)))
CAPTION_RE = re.compile(r"^\s*(?=[" + _OPENS + "])(?:" + _LATIN_CAPTION + "|" + _CJK_CAPTION + ")")

# "Fig. 3b", "Figures 2 and 3", "Table S1", "Figs. 2-4", "Tables II, III" (a roman number is a word of its own:
# "FIGURE CAPTION" cites no Figure C)
_REF_RE = re.compile(
    r"\b(?P<supp>Supplementary\s+|Extended\s+Data\s+)?"
    r"(?P<kind>Figures?|Figs?(?:\.|(?=\s))|FIGURES?|FIGS?(?:\.|(?=\s))|Tables?|TABLES?|Tabs?\.|Figuras?|Abb\.|Abbildungs?|Tablas?|"
    r"Tabelas?|Tabellen?|Tableaux?)\s*"
    r"(?P<nums>(?:S?\d+(?:\.\d+)?|[IVXLC]+(?![A-Za-z]))[a-z]?(?:\s*(?:,|and|&|\u2013|-|to)\s*(?:S?\d+(?:\.\d+)?|[IVXLC]+(?![A-Za-z]))[a-z]?)*)"
)
# "如图1所示", "见表 2", "図3に示す", "表1和表2": CJK words are not set apart by spaces.
_CJK_AND = r"[,，、]|和|与|及|と"
_CJK_NUM = r"S?\d+[a-z]?"
_CJK_REF_RE = re.compile(_CJK_KIND + r"\s*(?P<nums>" + _CJK_NUM + r"(?:\s*(?:" + _CJK_AND + r"|~|～|\u2013|-)\s*"
                         + _CJK_NUM + ")*)")
_ROMAN = re.compile(r"^[IVXLC]+$")
# A word in capitals just before a label in capitals: from the start of the run of capitals and hyphens
# only, committed to its first capital that opens a word (tried from each, a long run reads quadratic).
_CAPITALS_BEFORE = re.compile(r"(?<![A-Z-])(?>(?<!\w)[A-Z]|[A-Z-]*?-[A-Z])[A-Z-]++\s+$")
# A label as a query writes it: any case, "fig"/"tab" with or without the dot, a panel letter.
_QUERY_LABEL_RE = re.compile(
    r"\b(?P<supp>(?:supplementary|supplemental|suppl?\.?|extended\s+data)\s+)?"
    r"(?P<kind>figures?|figs?\.?|tables?|tabs?\.?)\s*"
    r"(?P<num>s?\d+(?:\.\d+)?|[ivxlc]+)(?P<panel>[a-h])?(?!\w)", re.I)
_ROMAN_VALUES = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100}


# Names papers give their standard sections; readers use them to tell a section
# heading from a title or a line of bold text.
SECTION_NAMES = (r"abstract|intro|introduction|background|related work|summary|methods?|materials|"
                 r"materials and methods|results|discussion|conclusions?|acknowledge?ments?|references|"
                 r"bibliography|appendix|experiments?|evaluation|contents|keywords")


@dataclass(frozen=True)
class Caption:
    object_kind: str  # "figure" | "table"
    label: str  # as a reader writes it: "Figure 3", "Table IV", "Supplementary Figure S1"
    number: str
    text: str  # caption text without the label


@dataclass(frozen=True)
class Label:
    """One object label read from its printed form."""

    kind: str  # "figure" | "table"
    number: str  # as printed: "3", "IV", "S1", "2.1" (chapter 2's first)
    supplementary: bool
    panel: str | None = None  # "b" in "Fig. 2b"

    @property
    def key(self) -> tuple[str, bool, tuple[int, ...]]:
        """What every printed form of this object shares: Table 4 = TABLE IV, Figure S1 = Supplementary Figure 1;
        the number's parts, so Figure 2.1 (chapter 2's first) is not Figure 2 nor Figure 21."""
        return self.kind, self.supplementary, number_parts(self.number)


def number_parts(number: str) -> tuple[int, ...]:
    """A label number's parts as ints: "IV" (4,), "2.1" (2, 1); an appendix's letter as a negative
    part, so "A1" = "A.1" = (-1, 1) is neither Table 1 nor Table 1.1."""
    head = number.lstrip("Ss")
    appendix = _APPENDIX.match(head)
    if appendix:
        return (64 - ord(appendix.group(1)), *(int(p) for p in appendix.group(2).split(".")))
    return tuple(roman_or_int(p) for p in head.split("."))


def roman_or_int(number: str) -> int:
    """3 -> 3, IV -> 4 (0 for anything else)."""
    if number.isdigit():
        return int(number)
    values = [_ROMAN_VALUES.get(c, 0) for c in number.lower()]
    if not values or 0 in values:
        return 0
    return sum(-v if i + 1 < len(values) and v < values[i + 1] else v for i, v in enumerate(values))


def parse_label(kind_word: str, number: str, supplementary: bool = False, panel: str | None = None) -> Label | None:
    """The label a kind word ("Fig.", "TABLE", "tab") and a number ("3", "IV", "S1") print; None when
    the number is no label number (a long run of roman letters, zero)."""
    number = number.upper() if _ROMAN.match(number.upper()) and not number.isdigit() else number
    if number[:1] in "sS" and number[1:].isdigit():
        number, supplementary = "S" + number[1:], True
    digits = number.lstrip("S")
    numeric = digits.replace(".", "").isdigit()  # "2.1": a chapter's first
    if (_ROMAN.match(number) and len(number) > 4) or (not numeric and roman_or_int(digits) == 0
                                                       and not _APPENDIX.match(number)):
        return None
    return Label(_kind_of(kind_word), number, supplementary, panel.lower() if panel else None)


def query_labels(text: str) -> list[tuple[Label, tuple[int, int]]]:
    """Every object label a query names ("table 2 of the Bigtable paper", "Fig. 7b"), with where it stands.
    Roman numerals count in upper case and of I, V, X only ("table IV", not "table i" or "figure C")."""
    found = []
    for m in _QUERY_LABEL_RE.finditer(text):
        num = m.group("num")
        if not num[0].isdigit() and num[:1] not in "sS" and not (num.isupper() and set(num) <= set("IVX")):
            continue
        label = parse_label(m.group("kind"), num, bool(m.group("supp")), m.group("panel"))
        if label is not None:
            found.append((label, m.span()))
    return found


_TABLE_STEMS = tuple(w.lower() for w in _TABLE_WORDS)


def _kind_of(word: str) -> str:
    w = word.lower().replace(" ", "").rstrip(".s")
    return "table" if w.startswith(_TABLE_STEMS) or word in _CJK_TABLE else "figure"


def make_label(kind: str, number: str, supplementary: bool = False) -> str:
    label = ("Figure " if kind == "figure" else "Table ") + number
    return ("Supplementary " + label) if supplementary else label


def parse_caption(paragraph: str) -> Caption | None:
    """Return the caption a paragraph starts with, or None for ordinary text."""
    first_line = paragraph.lstrip().split("\n", 1)[0]
    m = CAPTION_RE.match(first_line)
    if not m:
        return None
    if m.group("ckind"):
        kind = _kind_of(m.group("ckind"))
        text = paragraph.lstrip()[m.end():].strip().strip("*_ ").strip()
        return Caption(kind, make_label(kind, m.group("cnum")), m.group("cnum"), text)
    label = parse_label(m.group("kind"), m.group("num"), bool(m.group("supp")))
    if label is None or _cites(m.group("sep"), first_line[m.end():]):
        return None
    num = m.group("num")
    text = paragraph.lstrip()[m.end():].strip()
    text = text.strip("*_ ").strip()
    series = _SERIES.get(m.group("kind").lower().replace(" ", ""))
    name = f"{series} {num}" if series else make_label(label.kind, num, bool(m.group("supp")))
    return Caption(label.kind, name, num, text)


_AFTER_PARENTHESIS = re.compile(r"^\([^()]{1,40}\)\s+[a-z]")


def _cites(sep: str, rest: str) -> bool:
    """The label opens a sentence that cites a panel of the object, not its caption: "Figure 12 (b)
    shows …", "Fig. 5 (lines 20–22) uses …" (a parenthesis, then the sentence goes on in lowercase),
    "Figure 1.b shows …" (a panel letter after the number's period)."""
    if not sep.strip():
        return bool(_AFTER_PARENTHESIS.match(rest))
    return sep == "." and rest[:1].islower()


def _expand(nums: str) -> list[str]:
    """The labels a citation's numbers name: "2, 3 and 5", "2–4", "2.1–2.3".  A list goes on in the kind of
    number it started with, close to the last: "Fig. 2, A to C" cites panels (no Figure C, a roman 100),
    "Figure 1, 476 candidates" a count (no Figure 476)."""
    parts = re.split(r"(?:(?<!\s)\s+)?(,|and|&|\u2013|-|to)\s*", nums)
    out: list[str] = []
    prev: str | None = None
    is_range = False
    for p in parts:
        if p in {",", "and", "&"}:
            is_range = False
            continue
        if p in {"\u2013", "-", "to"}:
            is_range = True
            continue
        n = p.rstrip("abcdefghijklmnopqrstuvwxyz") or p
        if prev is not None and not _goes_on(out[0], prev, n):
            break
        head, _, tail = n.rpartition(".")  # "2.1–2.4": the chapter's figures 2.2 to 2.4
        phead, _, ptail = (prev or "").rpartition(".")
        if is_range and head == phead and ptail.isdigit() and tail.isdigit() and 0 < int(tail) - int(ptail) <= 20:
            out.extend(head + "." * bool(head) + str(i) for i in range(int(ptail) + 1, int(tail) + 1))
        else:
            out.append(n)
        prev = n
        is_range = False
    return out


def _goes_on(first: str, last: str, n: str) -> bool:
    """Does number `n` go on a list of labels that opened with `first` and has come to `last`: both roman
    or both not, and no more than 30 past the last."""
    if bool(_ROMAN.match(first)) != bool(_ROMAN.match(n)):
        return False
    a, b = number_parts(last), number_parts(n)
    return not (a[:1] and b[:1] and b[0] - a[0] > 30)


def cited_labels(sentence: str) -> set[str]:
    """Labels ("Figure 3", "Table 2") a sentence cites."""
    found: set[str] = set()
    for m in _REF_RE.finditer(sentence):
        if m.group("kind").isupper() and _CAPITALS_BEFORE.search(sentence, 0, m.start()):
            continue  # a phrase set in capitals ("ASK-FOR POLITELY TABLE 2 PERSON", an example utterance) cites nothing
        kind = _kind_of(m.group("kind"))
        for n in _expand(m.group("nums")):
            found.add(make_label(kind, n, bool(m.group("supp"))))
    for m in _CJK_REF_RE.finditer(sentence):
        kind = _kind_of(m.group("kind"))
        nums = re.sub(r"\s*(?:" + _CJK_AND + r")\s*", ",", m.group("nums")).replace("～", "-").replace("~", "-")
        found.update(make_label(kind, n) for n in _expand(nums))
    return found


def citing_sentences(paragraphs: list[str], max_sentences: int = 6, max_chars: int = 1500) -> dict[str, list[str]]:
    """Map each cited label to the body sentences that cite it (in order, deduplicated)."""
    out: dict[str, list[str]] = {}
    for para in paragraphs:
        if "ig" not in para and "ab" not in para and "IG" not in para and "AB" not in para \
                and not _CJK_REF_RE.search(para):
            continue
        for sentence in split_sentences(para, keep_lines=False):
            for label in cited_labels(sentence):
                bucket = out.setdefault(label, [])
                if sentence in bucket or len(bucket) >= max_sentences:
                    continue
                if sum(len(s) for s in bucket) + len(sentence) > max_chars and bucket:
                    continue
                bucket.append(sentence)
    return out
