"""The authors a PDF prints on its first page, read the way a reader finds them.

The author block sits between the title and the abstract, under the title (a sidebar beside the
title block is not it); `pdf_author_block` finds its extent from its own cells, and it is read here
row by row, its names set in one style of their own.  Each line is cut into parts at commas, "and",
"&" and at the marks that tie a name to its affiliation (†, ∗, ♠, α, superscript digits and
letters); the parts that read as person names are the authors.  A line that opens with an
affiliation, an e-mail address, an address with numbers, or a country is not an author line; a
name-like line in another style than the first author line (an affiliation continued on its own
line: "South Africa") is not one either, nor is a row of cells that are mostly affiliations.  No
author is better than a wrong one: without a title there is no block, and nothing is returned.

The document-info Author field is only believed when every name in it is printed on page 1
(`confirmed_info_authors`): typesetting tools fill it with an IT department, a city, a series
name or one author of many.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

from ....text import LEADING_SPACE
from ..text.lines import Line
from .author_block import author_block
from .author_grid import affiliation_rows
from .author_rows import block_rows as _rows
from .author_rows import join_pieces as _joined  # noqa: F401  (tests read a row's pieces joined)
from .name_order import TOKEN as _TOKEN
from .name_order import latin1 as _latin1
from .name_order import surname_first as _surname_first

# Marks between a name and its affiliation (and superscripts the line reader wrote as ^...; and
# affiliation letters not set as superscripts, "Krishnana,c" or "Bang,i S. Holtzer"; middle dots
# between names; AIP's footnote letters, "Haddad^a)" read as "Haddada)", where no parenthesis
# opens on the line; affiliation letters set apart in the names' own size, "Maria Lopez a,b, John
# Smith b,*", a lone letter only before a comma, "and" or the line's end; marks set before the names,
# "^1Anna Berg, 2Carl Dahl", "^2J. Ruiz", "^1PETRA": a raised mark ends where a word or an initial begins;
# marks in brackets in the names' size, "Anna Berg [1], Carl Dahl [2]"; a bar between names is a separator).
_MARKS = (r"[†‡∗*♦♠♣♥♢♡◦□⋄§¶#✉⋆∗✷✶✦★☆✩⁰¹²³⁴⁵⁶⁷⁸⁹\x00-\x1f\x7f-\x9f\ue000-\uf8ff]"
          r"|\^(?:[^\sA-ZÀ-ÖØ-Þ]|[A-ZÀ-ÖØ-Þ](?![A-Za-zß-öø-ÿÀ-ÖØ-Þ.]))*"
          r"|(?<![\w^])\d{1,2}(?:,\d{1,2})*(?=[A-ZÀ-ÖØ-Þ][a-zß-öø-ÿ.])|(?<=[a-zà-ÿ])\d+(?:,\d+)*"
          r"|(?<=\s)\d{1,2}(?:,\d{1,2})*(?=[\s,]|$)|(?<=[A-ZÀ-ÖØ-Þ]{2})\d{1,2}(?:,\d{1,2})*(?=[\s,]|$)|[α-ωΑ-Ω]+(?=[,\s∗*†]|$)"
          r"|(?<=[a-z])[a-z](?=,[a-z](?:[,∗*†\d]|$))|(?<=,)[a-z](?=\s+[A-Z])|[·•‧]"
          r"|(?<=[a-z] )[a-h](?:(?:,[a-h∗*†])+(?=\s+[A-Z])|(?:,[a-h∗*†])*(?=[,∗*†]|\s+and\s|$))"
          r"|\[(?:\d{1,2}|[*∗†‡a-h])(?:[,–-]\s?(?:\d{1,2}|[*∗†‡a-h]))*\]")
_ROLE = re.compile(r"\([^()]*\)")
_AIP_MARK = re.compile(r"(?:(?<=[a-z])|(?<=[\s,^]))[a-h]\)(?=[\s,]|$)")
# (a hyphen set apart between names is a middle dot OCR misread: "Jae Hoon Cho^1 - Ji Ho Choi^2")
_SPLIT = re.compile(rf"{LEADING_SPACE}(?:{_MARKS}|,|;|\||\band\b|\bAND\b|&|\s{{3,}}|(?<=\s)[-–](?=\s))\s*")
_PARTICLE = {"van", "von", "de", "der", "den", "da", "di", "du", "del", "della", "dos", "le", "la", "bin", "al", "el",
             "ter", "ten", "y", "st.", "ste.", "'t", "’t"}
# Words of institutions, places, venues and article types: a part holding one is no person's name.
_NOT_NAME = re.compile(
    r"\b(univ\w*|institut\w*|department|dept|school|college|laborator\w*|labs?|research|sciences?|"
    r"division|cent(?:er|re)|inc|ltd|llc|corporation|company|group|faculty|hospital|clinic|foundation|"
    r"academy|council|ministry|program|programme|street|road|avenue|way|box|campus|abstract|introduction|keywords|"
    r"proceedings|journal|conference|workshop|symposium|press|series|preprint|arxiv|technical|report|"
    r"usa|uk|germany|china|france|japan|india|canada|italy|spain|sweden|belgium|ireland|netherlands|switzerland|"
    r"korea|israel|brazil|australia|africa|america|kingdom|states|republic|singapore|portugal|austria|denmark|"
    r"norway|finland|poland|greece|mexico|russia|taiwan|malawi|engineering|technology|medicine|medical|"
    r"computer|computing|informatics|mathematics|physics|chemistry|biology|google|microsoft|ibm|amazon|"
    r"facebook|meta|nvidia|yahoo|adobe|intel|submitted|accepted|published|corresponding|editor|copyright|"
    r"distributed|open|access|authors|equal|contribution|correspondence|collaboration|consortium|anonymous|"
    r"article|paper|review|letters?|communications?|transactions|systems|processing|recognition|learning|"
    r"networks?|neural|information|intelligence|analysis|language|submission|studies|the|"
    # the same words in the languages affiliations are printed in
    r"departament\w*|facultad|faculdade|facolt[àa]|fakult[äa]t|escuela|escola|[ée]cole|centro|zentrum|servi[cç]o|"
    r"servicio|programa|klinik\w*|cl[íi]nica|laborat[óo]rio|h[ôo]pital|unidad|unidade|grupo|instituto|"
    r"ciencias|ciências|scienze|wissenschaften|medicina|pesquisa|investigaci[óo]n)\b", re.IGNORECASE)
_AFFILIATION = re.compile(r"^(?:[\W\d]*)(?:universit\w*|department|dept\.|institut\w*|school of|faculty of|"
                          r"laborator\w*|college of|cent(?:er|re) for)\b", re.IGNORECASE)
# An institution named anywhere in a text ("Clinical Institute of ...", "General Hospital").
_INSTITUTION = re.compile(r"\b(?:universit\w*|department|dept\.|institut\w*|school|faculty|laborator\w*|college|"
                          r"cent(?:er|re)|hospital|clinic|academy|ministry)\b", re.IGNORECASE)
_STOP = re.compile(r"^(?:abstract|a b s t r a c t|summary|background|keywords|index ?terms|introduction|articleinfo|"
                   r"(?:1|I)\.?\s+introduction|resumo|resumen|résumé|zusammenfassung|palavras[- ]chave|"
                   r"palabras clave|mots[- ]cl[ée]s|introdu[cç][ãa]o|introducci[óo]n|einleitung)\b", re.IGNORECASE)


# A title before a name ("Dr.", "Prof."), a byline's "By", or an ordinal ("1st", IEEE's template) is not part of it;
# an initial set against the name after it ("G.Anandharaj", "Dr.G.Anandharaj") is a word of its own.
_HONORIFIC = re.compile(r"^(?:(?:Dr|Prof|Professor|Mr|Mrs|Ms|Sir)\.?(?=\s|[A-Z])|\d+(?:st|nd|rd|th)?\b|"
                        r"[Bb][yY](?=\s))\s*")
# A society's grade after a name ("Member, IEEE"; "Senior Member, IEEE") is a mark, not the end of the names;
# so are degrees and titles after a name ("Paquito Bernard, PhD,^1,2 Gregory Ninot, Pr,^1", "Ann Lee, MD, MPH").
_GRADE = re.compile(r"^(?:(?:Student|Senior|Life|Graduate Student)\s+)?(?:Member|Fellow)$|^(?:IEEE|ACM|SIAM|OSA|SPIE)$|"
                    r"^(?:(?:Ph\.?\s?D|M\.?\s?D|Pr|Dr|Prof|M\.?\s?Sc|B\.?\s?Sc|D\.?\s?Sc|MPH|MBBS|MBA|DPhil|PharmD|DVM|DDS|"
                    r"RN|MRes|MPhil|FRCP|FRCS|FACS|FRS|MS|MA|BA|BS)\.?\s*)+$")
_SPECKED = re.compile(r"[A-ZÀ-ÖØ-Þ][a-zß-öø-ÿ]{2,}\.")
_GLUED_INITIAL = re.compile(r"\b([A-Z]\.)(?=[A-Z][a-z])")


# English function words set in capitals: a title's line in small capitals ("ENDEMIC PLANT SPECIES IN
# EXPERIMENTAL") holds them, a name in capitals never does.
_CAPS_FUNCTION = {"A", "AN", "THE", "OF", "IN", "ON", "AT", "TO", "FOR", "WITH", "FROM", "BY", "VIA", "ALONG", "OR"}
# The same words capitalised as a title in title case sets them ("Older Adults Of Giant Cells"): no name holds
# them ("An", "In", "Do", "To" are names of people too and are left out).
_TITLE_FUNCTION = {"Of", "The", "With", "For", "From", "Via", "And", "Or", "Into", "Among", "Between", "Using"}


def _name(part: str) -> str | None:
    """The part as a person's name ("Ross G. DOUGLAS" -> "Ross G. Douglas"), or None."""
    part = _GLUED_INITIAL.sub(r"\1 ", _HONORIFIC.sub("", part.strip()))
    tokens = part.strip(" .,:;()").split()
    while len(tokens) > 2 and _degree(tokens[-1], tokens[:-1]):
        tokens.pop()  # a degree after the name without a comma ("Anna Berg MD", "Carl Dahl PhD")
    tokens = _given_first(tokens)
    # a period after a given name is a speck OCR read ("Jeffrey. D. Suh"): no name word but an initial ends in one
    tokens = [t[:-1] if i < len(tokens) - 1 and _SPECKED.fullmatch(t) else t for i, t in enumerate(tokens)]
    part = " ".join(tokens)
    if not 2 <= len(tokens) <= 5 or _NOT_NAME.search(part) or "@" in part:
        return None
    words = [t for t in tokens if t.lower() not in _PARTICLE]
    if len(words) == 1 and len(tokens) == 2 and re.fullmatch(r"[A-ZÀ-ÖØ-Þ][a-zß-öø-ÿ]+", tokens[0]):
        words = tokens  # a particle elsewhere opening a name of two is its given name ("Da Luo", "Bin Li", "Le Song")
    if len(words) < 2 or not all(_TOKEN.match(_latin1(t)) for t in words) \
            or any(t in _CAPS_FUNCTION or t in _TITLE_FUNCTION for t in tokens):
        return None
    if all(re.fullmatch(r"[A-Z]\.(?:-?[A-Z]\.)*", t) for t in words) or len(words[-1].rstrip(".")) < 2:
        return None
    return " ".join(_cased(t) for t in tokens)


def _given_first(tokens: list[str]) -> list[str]:
    """A name set surname first in capitals, its given names after it ("BERG Anna", "OKAFOR Jörg P.",
    "WANG Xiaofeng") in the order the other names are read (given names first); any other name as it
    stands (two capitals first are a given name as often: "JJ Furman")."""
    lead = 0
    while lead < len(tokens) and tokens[lead].isupper() and len(tokens[lead]) > 2 and "." not in tokens[lead]:
        lead += 1
    rest = tokens[lead:]
    if 0 < lead < len(tokens) and all(t[:1].isupper() and (not t.isupper() or re.fullmatch(r"[A-Z]\.?", t))
                                      for t in rest):
        return [f"{t}." if re.fullmatch(r"[A-Z]", t) else t for t in rest] + tokens[:lead]
    return tokens


def _degree(token: str, before: list[str]) -> bool:
    """The token is a degree or title set after a name ("MD", "PhD", "MSc"); in a name set in capitals a
    token of two capitals may be a surname ("SHUANG MA") and is not taken for one."""
    word = token.strip(".,")
    if not _GRADE.match(word) or word in ("Member", "Fellow"):
        return False
    return not (all(t.isupper() for t in before if t.isalpha()) and len(word) <= 2)


def _cased(token: str) -> str:
    """A word of a name set in capitals as it is written ("DOUGLAS" -> "Douglas", "DE" -> "de",
    "QUINTANA-ASCENCIO" -> "Quintana-Ascencio")."""
    if not token.isupper() or "." in token:
        return token
    if token.lower() in _PARTICLE:
        return token.lower()
    if len(token) <= 2 or re.fullmatch(r"[IVX]{2,4}", token):  # "III" after a name is a numeral
        return token
    # each part of a compound a word of its own ("Quintana-Ascencio", "O'Brien"); a syllable of two
    # letters after a hyphen is not ("EUN-JI" -> "Eun-ji": capitals cannot tell, the usual spelling)
    return re.sub(r"(?<![^\W\d_])[^\W\d_]+", lambda m: m.group().capitalize()
                  if m.start() == 0 or len(m.group()) > 2 else m.group().lower(), token)


def _parts(text: str) -> list[str]:
    """The line cut at separators and marks; a role in parentheses after a name ("(Researcher)")
    is left out, and so are AIP's footnote letters where no parenthesis opens on the line."""
    text = _AIP_MARK.sub(" ", text) if "(" not in text else _ROLE.sub(" ", text)
    return [p for p in _SPLIT.split(unicodedata.normalize("NFC", text)) if p and p.strip()]


# "and" in the languages bylines are printed in ("João Silva e Maria Santos", "Juan Pérez y María López",
# "Hans Müller und Eva Schmidt", "Jean Dupont et Marie Curie", "Jan Jansen en Piet de Vries").
_CONJUNCTION = re.compile(r"(?:^|\s)(?:e|y|und|et|och|en|og|ja|ve|és|i|a)\s")


def _conjoined(part: str) -> list[str]:
    """A part holding two names joined by another language's "and", as the two names; when each side
    is a name of two words or more ("Ortega y Gasset" is one name: "Gasset" alone is none); a part
    opening with the word after a mark ("^2 e Maria Santos") as the name after it."""
    pieces = _CONJUNCTION.split(part.strip())
    named = [q for q in pieces if q.strip()]
    if 2 <= len(pieces) <= 3 and len(named) == len(pieces) - (not pieces[0].strip()) \
            and all(len(q.split()) >= 2 and _name(q) for q in named):
        return named
    return [part]


def _runs(part: str) -> list[str]:
    """Names set side by side with nothing between them ("Ruifang Ge Raymond J. Mooney"): cut
    after two or more words where the rest can still be a name of two or more words, and never
    before an initial or a particle (they belong to the name that follows them)."""
    tokens = part.split()
    out: list[list[str]] = [[]]
    for i, t in enumerate(tokens):
        cur = out[-1]
        rest = tokens[i:]
        starts_name = bool(re.match(r"[A-ZÀ-ÖØ-Þ][a-zß-öø-ÿ]", t)) and t.lower() not in _PARTICLE
        if len(cur) >= 2 and len(rest) >= 2 and starts_name and not re.fullmatch(r"[A-Z]\.", cur[-1]) \
                and cur[-1].lower() not in _PARTICLE:
            out.append([])
        out[-1].append(t)
    return [" ".join(n) for n in out]


def line_names(text: str) -> list[str] | None:
    """The names an author line holds (before any affiliation on it), or None if it is not one."""
    return _line_names(text)[0]


# An e-mail address in parentheses or angle brackets right after a name: no part of it, and no sign
# that the line is an e-mail line. The space before it is taken only from its first blank (the
# lookbehind), so a long run of blanks is scanned once, not once per blank.
_RULE_RUN = re.compile(r"(?<!\S)_+(?!\S)")
_MAIL_AFTER = re.compile(r"(?<!\s)\s*[(<][^()<>@\s]+@[^()<>\s]+[)>]")


def names_alone(text: str) -> bool:
    """The line holds names and nothing else (no affiliation or other words after them)."""
    names, more, _ = _line_names(text)
    return bool(names) and not more


def _line_names(text: str) -> tuple[list[str] | None, str, str]:
    """The line's names; the other words that follow them on it, if any (an affiliation: "Ana Ruiz,
    Stanford University"; or an affiliation's own line that opens like a name: "Naver Clova,
    Seongnam"); and the start of a name the line breaks off ("..., Oluwaseun H." + "Adeyemi")."""
    text = _MAIL_AFTER.sub("", text)  # "Anna Berg (anna@lu.se), Carl Dahl (carl@uio.no)"
    text = _RULE_RUN.sub(" ", text)  # an OCR'd underline after a name is no word of it ("Peter Bishop __")
    if "@" in text or _STOP.match(text):
        return None, "", ""
    names: list[str] = []
    parts = [q for p in _surname_first(_parts(text)) for q in _conjoined(p)]
    if len(parts) == 1 and len(parts[0].split()) >= 4 and not _marked(text):
        runs = _runs(parts[0])  # one run of words without separators: names side by side, each of them a name
        parts = runs if all(_name(r) for r in runs) else parts  # ("Max Planck Institute for Biology" is none)
    capitals = False  # the line's names so far are set in capitals (ACM: "BEN TROVATO, Inria Paris, France")
    for i, part in enumerate(parts):
        if _GRADE.match(part.strip(" .")) or _CONJUNCTION.fullmatch(f" {part.strip()} "):
            continue  # a grade after a name; another language's "and" closing a line ("Gustav Juhl^3 und")
        if i == 1 and len(names) == 1 and _REGION_CODE.fullmatch(part.strip()):
            return None, " ".join(parts), ""  # "Mountain View, CA 94043": a place and its region's code
        name = _name(part)
        if name is not None and capitals and not _in_capitals(part) and not _in_capitals(part.split()[-1]):
            name = None  # a part in another case than the names before it is their affiliation (a surname
            # in capitals after given names in mixed case is a name: OCR reads small capitals' letters so)
        if name is None:
            # a list wrapped mid-name has names before the break ("Berg, Dahl, Oluwaseun H." + "Adeyemi"); one
            # name and a word is a place ("Santa Cruz, California" over the next author's name)
            if i == len(parts) - 1 and len(names) >= 2 and _broken_off(part, text):
                return names, "", part
            if re.search(r"\d{3,}|\w{3,}", part) and not re.fullmatch(r"[\d\s,]+", part):
                return names or None, " ".join(parts[i:]), ""  # an affiliation, address or other words
            continue  # a stray mark or number
        names.append(name)
        # every name so far in capitals: one in capitals after names in mixed case is "DURAI S." among
        # "KINNEY Rodney, …", whose next name "SHENKER Scott" is no affiliation; nor is a name read surname
        # first with initials after it ("CASIMIR H. B. G., ROLIG Lindsay"): its capitals are its surname's
        capitals = _in_capitals(part) and (capitals or len(names) == 1) and _given_first(part.split()) == part.split()
    return names or None, "", ""


# A region's code of two capitals, a postal code after it or not ("CA", "NY 10027", "PA 15213-3890"): after the
# line's one "name" it makes the line an address's ("Mountain View, CA" under a name in a column of the byline).
_REGION_CODE = re.compile(r"[A-Z]{2}(?:[\s-]{0,3}\d{4,6}(?:-\d{4})?)?")


def _marked(text: str) -> bool:
    """The line carries a mark (raised, or a symbol): a byline that marks its names marks each of them, so
    a run of words with one mark is one name ("Josephine Nana Afrakoma Agyeman-Duah^3"), not names side by side."""
    return "^" in text or bool(re.search(r"[\d†‡∗*♦♠♣♥§¶#✉⋆✷✶✦★☆✩⁰¹²³⁴⁵⁶⁷⁸⁹]", text))


def _in_capitals(part: str) -> bool:
    words = [w for w in part.split() if any(c.isalpha() for c in w) and w.lower() not in _FUNCTION]
    return bool(words) and all(w.isupper() for w in words)


def _broken_off(part: str, text: str) -> bool:
    """The line's last words are the start of a name it breaks off: one or two name words (or
    initials) at the very end, no separator after them."""
    tokens = part.split()
    return 1 <= len(tokens) <= 2 and text.rstrip().endswith(part.rstrip()) and \
        all(_TOKEN.match(_latin1(t)) and not _NOT_NAME.search(t) for t in tokens)


# Words an address or a name line has between its names ("Department of Physics and Astronomy").
_FUNCTION = _PARTICLE | {"and", "or", "of", "the", "for", "in", "at", "on", "to", "a", "an", "und", "et", "des", "e"}


def _prose(ln: Line, body_size: float) -> bool:
    """A line of running text (an abstract without its heading, an introduction): eight words or
    more near the body's size, three or more of them lower-case words that are no particles or
    function words (an author line has "and", "de"; an address "of", "and")."""
    words = ln.text.split()
    lower = sum(bool(re.fullmatch(r"[a-zß-öø-ÿ]{2,}[,.;:]?", w)) and w.rstrip(",.;:") not in _FUNCTION for w in words)
    return len(words) >= 8 and abs(ln.size - body_size) < 1.5 and lower >= 3


def printed_authors(lines: list[Line], title_lines: list[Line], body_size: float) -> list[str]:
    """Authors printed between the title and the abstract of page 1 (`lines`: the page without
    running headers, `title_lines`: the title's own lines), read row by row over the author
    block's cells (`pdf_author_block.author_block`).  The rows of a block are parallel: a row of
    cells most of which are affiliations is a row of affiliations ("ETH Zürich | Universidade de
    Lisboa"), even where one of them reads like a name."""
    if not title_lines:
        return []  # no title, no band: a guess from the top of the page would take headers for names
    reading = _Reading()
    left, right = min(ln.x0 for ln in title_lines), max(ln.x1 for ln in title_lines)
    rows = _rows(author_block(lines, title_lines, lambda ln: ends_block(ln, body_size)))
    grid = affiliation_rows(rows, lambda text: _line_names(text)[:2], _marked)
    for k, row in enumerate(rows):
        # the block ends at a line under the title's span; a sidebar's "ARTICLE INFO" beside the names does not end it
        ends = any(ends_block(ln, body_size) and ln.x1 > left and ln.x0 < right for ln in row)
        if ends or len(reading.authors) >= 40:
            break
        if k in grid or len(row) > 1 and _affiliation_row(row):
            continue  # a row of a grid's columns under their names, or of cells most of which are affiliations
        for ln in row:
            reading.read(ln)
    return reading.authors


def _affiliation_row(row: list[Line]) -> bool:
    """A row of cells most of which are affiliations, a cell of names counting once per name.  Only
    cells in the size and weight of the row's names vote: a sidebar's line in a smaller size that shares the
    row ("Editor: Peter Lund, Karolinska") is no cell of the block's, nor a bold badge beside a line of one
    roman name ("Daniel S. Weld^1 | Check for updates"), nor one with no word of a place (`_placed`)."""
    kinds = [(ln, *_line_names(ln.text)[:2]) for ln in row]
    styles = [(ln.size, ln.bold) for ln, names, _ in kinds if names is not None]
    mixed = any(names is not None and not _in_capitals(ln.text) for ln, names, _ in kinds)
    others = sum(names is None and _placed(more) and not (mixed and _badge(more))
                 and (not styles or any(abs(ln.size - s) <= 0.6 and ln.bold == b for s, b in styles))
                 for ln, names, more in kinds)
    # a cell holding a list of names outweighs a word or two beside it ("OPEN ACCESS" right of the byline)
    return sum(len(names) for _, names, _ in kinds if names is not None) <= others


def _badge(text: str) -> bool:
    """A cell in capitals naming no institution, with no number or comma ("OPEN ACCESS"): beside names the
    byline sets in mixed case it is a badge or label set in the names' row, not their affiliation, which a
    byline sets in its names' case or names an institution, a place's number, or parts apart by commas."""
    return _in_capitals(text) and not _INSTITUTION.search(text) and not re.search(r"[\d,]", text)


def _placed(text: str) -> bool:
    """Words an affiliation holds: an institution's, a place's or a country's word, a number, or a comma
    between its parts ("Check for updates" beside a name holds none)."""
    return bool(text) and bool(_NOT_NAME.search(text) or _INSTITUTION.search(text) or re.search(r"[\d,]", text))


@dataclass
class _Reading:
    """The author block read so far: its names, the style of its name lines, whether those lines
    go on with an affiliation, and a name the last line broke off."""
    authors: list[str] = field(default_factory=list)
    style: tuple[float, bool] | None = None
    with_affiliation: bool | None = None
    carry: str = ""

    mark: str = ""  # the mark that closes the first line of names ("W. Bauer ✷"), if any
    last: Line | None = None  # the last line names were read from

    def read(self, ln: Line) -> None:
        carry, self.carry = self.carry, ""
        if self.style is not None and (abs(ln.size - self.style[0]) > 0.6 or ln.bold != self.style[1]) \
                and not self._list_goes_on(ln):
            # text in another style than the names: an affiliation or its continuation, or a later
            # group's names run on into its affiliation, the line mostly in the affiliation's style
            self.authors += [n for n in self._next_group(ln) if n not in self.authors]
            return
        names, more, tail = _line_names(f"{carry} {ln.text}" if carry else ln.text)
        if names is None or (more and self.with_affiliation is False and not _INSTITUTION.search(more)):
            return  # the block sets names alone: a line going on past its "names" is an affiliation,
            # unless what follows them names an institution (a later group of authors with its own
            # affiliation run on: "T. Erker and W. Jaeger ✷ Department of Pharmaceutical Chemistry")
        place = _PLACE_CODE.fullmatch(ln.text.strip())
        if place and self.authors and not any(_PLACE_CODE.fullmatch(a) for a in self.authors):
            return  # a line "Seattle WA" under a byline's names, none of which sets a surname of two capitals
        if self.style is None and (m := _CLOSING_MARK.search(ln.text)):
            self.mark = m.group(1)
        self.style = self.style or (ln.size, ln.bold)
        self.with_affiliation = bool(more) if self.with_affiliation is None else self.with_affiliation
        self.authors += [n for n in names if n not in self.authors]
        self.carry = tail
        self.last = ln

    def _list_goes_on(self, ln: Line) -> bool:
        """A line of names alone in the names' size but read in another weight goes on with the list of the
        line above when the list runs on across the break (that line ends with a comma or "and", or this
        one opens with "and" or runs on itself), at the names' line pitch: the weight of a line of names is that of its
        first and last glyphs, and bold names with a roman "and" or roman marks between them read as
        roman on one line and bold on the next."""
        last = self.last
        if last is None or self.style is None or abs(ln.size - self.style[0]) > 0.6 or not names_alone(ln.text):
            return False
        ends, goes_on = (_MARK_RUN.sub("", t).rstrip().endswith((",", "&", " and")) for t in (last.text, ln.text))
        opens = re.match(r"(?:(?<!\s)\s+)?(?:and\b|&|,)", ln.text)
        return 0 < ln.top - last.top <= 2 * ln.size and (bool(opens) or ends or goes_on)


    def _next_group(self, ln: Line) -> list[str]:
        """The names opening a line in the size of the names but another weight, when the mark that
        closed the first line of names follows them and an institution follows the mark: a later
        group of authors run on into its affiliation, its names in the first line's weight and the
        rest not ("T. Erker and W. Jaeger ✷ Department of Pharmaceutical Chemistry, University of")."""
        if not self.mark or self.style is None or abs(ln.size - self.style[0]) > 0.6 or self.mark not in ln.text:
            return []
        head, _, after = ln.text.partition(self.mark)
        names, more, tail = _line_names(head)
        return names if names and not more and not tail and _INSTITUTION.search(after) else []


# A line of a city and its region's code without a comma ("Seattle WA", "Palo Alto CA"): read as a name, it is
# a place in a byline whose names so far set no surname of two capitals ("Jun HE", "Yi MA" are names there);
# a name in capitals ("KYLE LO", read "Kyle LO") is no such line.
_PLACE_CODE = re.compile(r"(?:[A-Z][a-z]+ ){1,2}[A-Z]{2}")
# A raised mark as the line reader writes it, up to a comma that ends the line ("Berg^1,2," -> "Berg,").
_MARK_RUN = re.compile(r"\^[^\s,]*(?:,[^\s,]+)*")
# A symbol closing a line of names, tying them to the affiliation under it ("... and W. Bauer ✷").
_CLOSING_MARK = re.compile(r"\s([†‡∗*✷✶✦★☆✩⋆♦♠♣♥§¶#])\s*$")


def ends_block(ln: Line, body_size: float) -> bool:
    """The author block ends at the abstract, the first heading or the first line of prose."""
    return bool(_STOP.match(ln.text) or _STOP.match(ln.text.replace(" ", ""))) or _prose(ln, body_size)


def names_authors(text: str, authors: list[str]) -> bool:
    """The text is an author line, an e-mail line or an affiliation (a heading it is not): it holds
    only names of the paper's authors, an e-mail address, or an institution with its place."""
    if "@" in text:
        return True
    names = line_names(text)
    keys = {_key(a) for a in authors}
    if names and keys and all(_key(n) in keys for n in names):
        return True
    return bool(_AFFILIATION.search(text)) and ("," in text or bool(re.search(r"\d", text)))


def _key(name: str) -> str:
    """Accent- and case-free surname, for matching names across sources."""
    plain = unicodedata.normalize("NFKD", name.split()[-1] if name.split() else "")
    return "".join(c for c in plain if c.isalpha()).casefold()


def confirmed_info_authors(info_authors: list[str], page_text: str) -> list[str]:
    """The document-info authors when every one of them is printed on page 1, else none."""
    plain = "".join(c for c in unicodedata.normalize("NFKD", page_text) if not unicodedata.combining(c)).casefold()
    names = [n for n in (_name(a) for a in info_authors) if n]
    if not names or len(names) != len(info_authors):
        return []
    return names if all(_key(n) and _key(n) in plain for n in names) else []
