"""Reference lists: printed entries split apart, and each entry read into its fields.

Hand-written: the libraries on PyPI that parse citation strings either need a trained model
file (CRF/neural parsers, GROBID as a server) or target one field's conventions (refextract:
high-energy physics report numbers), and papershelf stays offline with no model download.  The
rules follow what a reference list's own layout says:

* an entry opens with its label (``[12]``, ``12.``) when the list is numbered, and the labels
  count up one by one, so a "3." inside an entry is not a new one;
* otherwise an author-year list opens each entry with its authors, and the year printed after
  them (``Smith, J. 2019.`` / ``Smith J (2019)``) ends the author part; the title is the next
  sentence and the venue what follows;
* a numbered list without a year after its authors ("A. B. Smith, "Title," Venue, 2019" or
  "Smith AB. Title. Venue 2019;3:1-5") puts the title in quotes or in the second sentence.

Structured sources (JATS, TEI, S2ORC) already separate the fields; `structured_references`
keeps their fields and their printed text.
"""

from __future__ import annotations

import re

from ..document import Reference, parse_year
from ..text import LEADING_SPACE

MAX_AUTHOR_CHARS = 2000  # a longer run of text is no author list: bounds the checks made on each initial
# A capital letter of the Latin alphabets names are printed in ("Özcan", "Łukasz"; Latin Extended-A mixes
# cases, so some small letters pass: a name's first letter is checked, not spelled).
CAPITAL = "A-ZÀ-ÖØ-ÞĀ-ſ"
# An entry's label: "[3]", "3.", "(3)", a bare "3" before a name (or a raised "^3", the reader's mark), a
# raised label alone on its line, or one set close before a name ("^10M. Kleiber").
_LABEL = re.compile(r"^\s*(?:\[(\d{1,4})\]|(\d{1,4})\.(?=\s|$)|\((\d{1,4})\)|"
                    rf"\^?(\d{{1,4}})(?=\s+(?:[{CAPITAL}]|(?:van|von|de|der|den|da|di|du|la|le)\s))|\^(\d{{1,4}})$|"
                    rf"\^(\d{{1,4}})(?=[{CAPITAL}](?:\.|[a-z])))\s*")
_ALPHA_LABEL = re.compile(r"^\s*\[[A-Z][A-Za-z+\-]{0,9}\d{2,4}[a-z]?\]\s*")  # "[Arn94]", "[ABTZ13]": no number
_DOI = re.compile(r"\b(10\.\d{4,9}/[^\s\"<>]+)", re.IGNORECASE)
_ARXIV = re.compile(r"(?:arxiv[:\s]*(?:preprint\s*)?(?:arxiv:)?\s*|abs/|arxiv\.org/(?:abs|pdf)/)"
                    r"(\d{4}\.\d{4,5}|[a-z\-]+(?:\.[A-Z]{2})?/\d{7})(v\d+)?", re.IGNORECASE)
# The year that closes an author list: "2019." "2019a," "(2019)" "(2019b)." "(2019, May)"
_AUTHOR_YEAR = re.compile(r"(?:^|[\s.,])\(?((?:1[89]|20)\d\d)[a-z]?(?:,\s*[A-Z][a-z]+\.?(?:\s+\d{1,2})?)?"
                          r"(?:\)[.,:;]?|[.,:;])\s")
_COLON_AUTHORS = re.compile(r"^([^:]{2,600}?(?:(?<![\w\-])[A-Z]{1,3}\.?|\bet al\.?)):\s+")  # not "Structural-RNN:"
# The title between quotes holds no quote mark: each scan stops at the next one (linear, not quadratic
# on a run of opening quotes with no closing one).
_QUOTED = re.compile(r"[\"“”]\s*([^\"“”]+?)\s*[,.]?\s*[\"”]")
_SENTENCE_END = re.compile(r"(?<=[^\s.])\.\s+(?=[A-Z0-9\"“(\[])|(?<=[a-z]{4})\.\s+(?=[a-z])")
_INITIALS_ONLY = re.compile(r"^(?:[A-Z]\.?[\s\-]*){1,4}$")
_INITIAL = re.compile(r"^\(?(?:[A-Z]\.-?)*[A-Z]$")
_ABBREVIATION = re.compile(r"\b(?:proc|conf|trans|natl|acad|intl|univ|dept|symp|assoc|comput|ling|sci|eng|appl|phys|"
                           r"chem|biol|vol|no)$", re.IGNORECASE)  # "vol. 30", "no. 4" end no sentence
_PARTICLES = r"(?:van|von|de|der|den|del|da|di|du|dos|la|le|y|bin|al|II|III|IV|Jr\.?|Sr\.?)"
# A hyphen before a capital joins two name words ("Jean-Pierre"), one before a small letter goes on
# with the word ("Al-khalifa"); taken possessively and atomically (a capitalized particle, "IV",
# is read one way), a run of hyphenated capitals or of "IV IV ..." has one reading, not 2^n (it once
# hung `add` on a 120-character entry).
_NAME_WORD = rf"(?>[{CAPITAL}][^\s,;:()\d\-]*+(?:-[a-z][^\s,;:()\d\-]*+)*+|" + _PARTICLES + r"(?![^\s\-]))"
_PERSON = re.compile(rf"^{_NAME_WORD}(?:[\s\-]+{_NAME_WORD})*$")
_VANCOUVER_NAME = rf"[{CAPITAL}][\w'’\-]+(?:\s[{CAPITAL}][\w'’\-]+)?\s[A-Z]{{1,3}}"
_VANCOUVER = re.compile(rf"^(?:{_VANCOUVER_NAME},\s*)*{_VANCOUVER_NAME}(?:,?\s*et al)?$")
_SPLIT_AUTHORS = re.compile(LEADING_SPACE + r"(?:;|,\s*(?:and|AND|&)\s+|,|\b(?:and|AND)\b|&)\s*")  # USENIX: "AND"
# Pages printed as a range after "pp"/"pages": "pp 1905-1930" holds no year.
_PAGE_RANGE = re.compile(r"\b(?:pp?\.?|pages?)\s*\d+\s*[-–—]+\s*\d+")
_PAGES = re.compile(r"(?:,\s*)?\b(?:pp?\.|pages?)\s*[\dA-Za-z]+\s*[-–—]+\s*[\dA-Za-z]+|\b\d+\s*[-–—]\s*\d+\b")


def entry_label(text: str) -> int | None:
    """The number an entry is printed with (``[3]``, ``3.``, ``(3)``), else None."""
    m = _LABEL.match(text)
    return int(next(g for g in m.groups() if g)) if m else None


def clean_entry(text: str) -> str:
    """Whitespace, hyphens pdfium marked and a page's stray bytes tidied; the words are kept as printed."""
    text = text.replace("\ufffe", "").replace("\x02", "").replace("\u00ad", "")
    return re.sub(r"\s+", " ", text).strip()


# A rule in place of the authors ("———, The tropical Grassmannian", "—— and B. Sturmfels, …"), or the
# rule drawn as a line and only the comma after it left in the text (", Tropical geometry …"): the
# entry's authors are those of the entry before it.
SAME_AUTHORS = re.compile(r"^(?:[—–‒―-]{2,}|_{3,})\.?|^(?=,\s)")


def parse_reference(text: str, n: int, before: Reference | None = None, full_names: bool = False) -> Reference:
    """An entry's printed text read into authors, year, title, venue, DOI and arXiv id.  `before`: the
    entry before it in the list, whose authors a rule in place of the names repeats; `full_names`: the
    list opens its entries with names written out, then a comma and the title (`full_name_list`)."""
    text = clean_entry(text)
    ref = Reference(n=n, text=text)
    body = _ALPHA_LABEL.sub("", _LABEL.sub("", text, count=1), count=1)
    if before is not None and before.authors and (m := SAME_AUTHORS.match(body)):
        names = before.authors
        body = (", ".join(names[:-1]) + " and " if len(names) > 1 else "") + names[-1] + body[m.end():]
    if m := _DOI.search(body):
        ref.doi = m.group(1).rstrip(".,;)]").lower()
    if m := _ARXIV.search(body):
        ref.arxiv_id = m.group(1).lower()
    head, rest, comma_style = _author_part(body, full_names)
    ref.authors = split_authors(head)
    lead = _LEADING_YEAR.match(rest) if head else None  # "Kovacs KM, Lavigne DM. 1992 Maternal investment …"
    ref.title, ref.venue = _title_venue(rest[lead.end():] if lead else rest, comma_style)
    year = _AUTHOR_YEAR.search(body[:len(head) + 12]) if head else None
    ref.year = int(year.group(1)) if year else int(lead.group(1)) if lead else _last_year(body)
    return ref


# A year between the authors and the title with no stop after it (the Royal Society's style): the title follows.
_LEADING_YEAR = re.compile(r"^\(?((?:1[89]|20)\d\d)[a-z]?\)?\s+(?=[A-Z\"“‘'])")


def _author_part(body: str, full_names: bool = False) -> tuple[str, str, bool]:
    """(authors, what follows them, whether a comma ends the title): cut at the year after the
    names, at a quoted title, at the first sentence end that is not an initial, or — when that
    first sentence is not all names — after the run of comma-separated names ("A. B. Smith,
    C. Jones, Title, Venue")."""
    m = _AUTHOR_YEAR.search(body)
    if m and _looks_like_names(body[:m.start()]):
        return body[:m.start()].strip(" .,(").strip(), body[m.end():].strip(), False
    c = _COLON_AUTHORS.match(body)
    if c and _looks_like_names(c.group(1)):  # "Nassar, A., Lysak, M.: Title" (LNCS), "Smith J, Doe A: Title" (BMC)
        return c.group(1).strip(" ,"), body[c.end():].strip(), False
    q = _QUOTED.search(body)
    if q and q.start() > 0:
        return body[:q.start()].strip(" ,."), body[q.start():], False
    pieces = _sentences(body)
    if pieces and not _looks_like_names(pieces[0]) and (cut := _name_run(body) or full_names and _full_name_run(body)):
        return body[:cut].strip(" ,:"), body[cut:].strip(), True
    if len(pieces) < 2:
        return "", body, False
    return pieces[0], body[len(pieces[0]):].strip(" ."), False


def _name_run(body: str) -> int | None:
    """Where a run of comma-separated names ends, when at least one name has an initial."""
    end, names, initials = 0, 0, False
    for m in re.finditer(r"(?:(?<!\s)\s+)?(?:,|:)\s+(?:and\s+)?|(?<!\s)\s+and\s+", body):
        piece = body[end:m.start()].strip()
        full_name = 2 <= len(piece.split()) <= 4 and not re.search(r"\b[a-z]{4,}", piece)
        if not (_PERSON.match(piece) and len(piece.split()) <= 5 and (re.search(r"\b[A-Z]\.", piece) or full_name)):
            break
        names += 1
        initials = initials or bool(re.search(r"\b[A-Z]\.", piece))
        end = m.end()
        if body[m.start():m.end()].strip().startswith(":"):
            break  # "Smith, J., Doe, B.: Title" (LNCS, BMC): the colon closes the authors
    return end if names >= 1 and initials and end < len(body) else None


# A name written out: a given name or initials, then the surname ("Lars Allermann", "Louis J. Billera",
# "Jesús A. De Loera"), two to five words, the last no initial.
_SEPARATOR = re.compile(LEADING_SPACE + r"(?:,\s+(?:and\s+)?|(?<=\s)and\s+)")


def _full_name(piece: str) -> bool:
    words = piece.split()
    return 2 <= len(words) <= 5 and bool(_PERSON.match(piece)) and not _INITIAL.match(words[-1].rstrip(".")) \
        and len(words[-1]) > 1


def _full_name_run(body: str) -> int | None:
    """Where the names written out that open an entry end, at the comma before its title: one name
    ("Peter Butkovic, Max-linear systems"), or names whose last follows "and" ("Lars Allermann and
    Johannes Rau, First steps"; "A, B, and C, Title"), so a title in capitals after a lone name
    ("Peter Butkovic, Max-Linear Systems, Springer") is no name.  None when no name opens it."""
    start, end, last = 0, None, None
    for m in _SEPARATOR.finditer(body):
        if not _full_name(body[start:m.start()].strip()):
            break
        if (start == 0 or "and" in (last or "")) and m.group().lstrip().startswith(","):
            end = m.end()  # a name that can close the list, and a comma after it
        start, last = m.end(), m.group()
    return end if end is not None and end < len(body) else None


def full_name_list(bodies: list[str]) -> bool:
    """A list whose entries open with names written out and a comma before the title (AMS, SIAM and
    many math and physics journals: "David Speyer and Bernd Sturmfels, The tropical Grassmannian,
    Adv. Geom."): told by its own entries, two in three of them at least (five entries or more)."""
    return len(bodies) >= 5 and sum(_full_name_run(b) is not None for b in bodies) >= 2 / 3 * len(bodies)


def _looks_like_names(text: str) -> bool:
    """Every part of the text is a person's (or a body's) name: capitalized words, initials, particles."""
    text = re.sub(r"\bet\s+al\.?|\(eds?\.?\)", "", text).strip(" .,(")
    parts = [p.strip(" .") for p in _SPLIT_AUTHORS.split(text) if p.strip(" .")]
    if not parts or len(text) > 4000:
        return False
    return all(_PERSON.match(p) and len(p.split()) <= 6 for p in parts) or (len(parts) == 1 and len(text) < 80)


def _sentences(body: str) -> list[str]:
    """Sentences of an entry; a piece ending in an initial ("Smith, J." / "A. B.") joins the next
    one, except in a Vancouver author list ("Mori H, Takio K.")."""
    out: list[str] = []
    start = 0
    for m in _SENTENCE_END.finditer(body):
        end = m.start()  # the piece is body[start:end]: never copied whole, it grows over every initial it passes
        last = body[max(start, body.rfind(" ", start, end) + 1):end]
        if _ABBREVIATION.search(last) or _INITIAL.match(last) and not (
                end - start <= MAX_AUTHOR_CHARS and _vancouver_ends(body, start, end, m.end())) \
                and not _last_name_ends(body, start, end, m.end()):
            continue
        out.append(body[:m.start()].strip() if not out else body[start:m.start()].strip())
        start = m.end()
    if start < len(body):
        out.append(body[start:].strip())
    return [p for p in out if p]


# The last name of a "Surname, I." list, after its "and": "... and Thompson, K." / "..., AND WOODFORD, D."
_LAST_NAME = re.compile(rf"(?:(?:^|[\s,])(?:and|AND|&)\s+|;\s*)[{CAPITAL}][\w'’\-]+,\s*(?:[A-Z]\.\s*-?\s*)*[A-Z]$")
_LONE_NAME = re.compile(rf"[{CAPITAL}][\w'’\-]{{0,40}},\s*(?:[A-Z]\.\s*-?\s*){{0,4}}[A-Z]$")
_LONE_NAME_NEXT = re.compile(r"[A-Z][\w'’\-]{0,40},\s*[A-Z]\.|(?:[A-Z]\s+)?(?:and|AND|&)\s")


# A name going on after an initial: "Michael J. Bommarito II, Daniel …", "Ada B. Lovelace and …".
_NAME_GOES_ON = re.compile(rf"(?<![\w'’\-])[{CAPITAL}][\w'’\-]++(?:\s+(?:II|III|IV|Jr\.?))?(?:,|\s+(?:and|&)\s)")


def _vancouver_ends(body: str, start: int, end: int, after: int) -> bool:
    """The piece is a Vancouver author list ("Mori H, Takio K", "Lynch N"): its last initial ends it.  A
    lone "Name I" is a first name and initial when a surname and a comma follow ("Michael J. Bommarito
    II, …")."""
    piece = body[start:end].strip()
    return bool(_VANCOUVER.match(piece)) and ("," in piece or not _NAME_GOES_ON.match(body, after))


def _last_name_ends(body: str, start: int, end: int, after: int) -> bool:
    """Whether the initial at `end` closes an author list written "Surname, I." whose last name follows
    its "and" ("Ritchie, D.M. and Thompson, K. The Unix time-sharing system."): the list ends there,
    unless another initial follows ("and Thompson, K. L.")."""
    piece = body[start:end]
    if re.match(r"[A-Z]\.|[(\[]", body[after:after + 2]):
        return False
    if start == 0 and _LONE_NAME.match(piece) and not _LONE_NAME_NEXT.match(body, after):
        return True  # a lone author: "PHILIPPSEN, M. Automatic alignment …", not "Smith, J. Doe, K. …"
    # its tail only (the name and its initials): one search stays short over a long run of initials
    return end - start <= MAX_AUTHOR_CHARS and bool(_LAST_NAME.search(piece, max(0, len(piece) - 120))) \
        and _looks_like_names(piece)


def split_authors(text: str) -> list[str]:
    """Names of an author string, written so `works.surname` finds the surname: "Ada Lovelace",
    "Lovelace, A." (for "Lovelace, A.," and "Lovelace A" lists), "et al." dropped."""
    text = re.sub(r"\bet\s+al\.?|\(eds?\.?\)|\beds?\.|\[\w+\]", "", text).strip(" ,.")
    names: list[str] = []
    for part in _SPLIT_AUTHORS.split(text):
        part = re.sub(r"(?<!\s)\s+(?:II|III|IV|Jr\.?|Sr\.?)$", "", part.strip(" .,"))  # "Bommarito II": Bommarito
        if not part:
            continue
        if _INITIALS_ONLY.match(part) and names and "," not in names[-1]:
            names[-1] = f"{names[-1]}, {part}"  # "Smith, J." split at its comma: the initials are its given names
            continue
        words = part.split()
        if len(words) >= 2 and re.fullmatch(r"[A-Z]{1,3}", words[-1]) and words[-1] not in ("II", "III", "IV") \
                and not re.fullmatch(r"[A-Z]{1,3}", words[0]):
            part = f"{' '.join(words[:-1])}, {words[-1]}"  # Vancouver "Mori H": surname first
        names.append(part)
    return [n for n in names if re.search(r"[^\W\d_]{2}", n)][:100]


def _title_venue(rest: str, comma_style: bool = False) -> tuple[str | None, str | None]:
    rest = rest.strip(" .,")
    q = _QUOTED.match(rest)
    if q:
        title, venue = q.group(1), rest[q.end():]
    elif comma_style and re.search(r",\s", rest):
        title, venue = re.split(r",\s+(?:in:?\s+)?", rest, maxsplit=1)
    else:
        pieces = _sentences(rest)
        if not pieces:
            return None, None
        if len(pieces) > 1 and re.fullmatch(r"\(?\d{3,4}[a-z]?\)?", pieces[0]):
            pieces = pieces[1:]  # a year the year pattern does not take ("LINNAEUS, C. 1767. Mantissa Plantarum.")
        title, venue = pieces[0], " ".join(pieces[1:])
    tag = _VENUE_TAG.search(title.rstrip())  # "Spanner: Google's globally-distributed database (OSDI)"
    # an acronym of two capitals at least, not one the title spells ("Secure Real-time Transport Protocol (SRTP)")
    if tag and sum(c.isupper() for c in tag.group(1)) >= 2 and not _defines(title[:tag.start()], tag.group(1)):
        title, venue = title[:tag.start()], f"{tag.group(1)} {venue}"
    return _tidy(title) or None, _venue(venue)


# A venue's acronym in parentheses after the title, with its year maybe: "(OSDI)", "(SIGMOD '08)",
# "(NeurIPS 2019)": two capitals at least, not a roman numeral ("Part (II)") nor a plural that ends
# the title ("Generative Adversarial Networks (GANs)").
# Bounded runs and no leading space: a search tries every position, so nothing may rescan a long run
# (the regex timing test); the second capital is checked in code.
_VENUE_TAG = re.compile(r"\((?![IVXLC]+\)|[A-Z]+s\))([A-Z][A-Za-z]{1,24}(?:[\s\-]{0,3}['’]?\d{2,4})?)\)[ \t]{0,8}$")


def _defines(long: str, short: str) -> bool:
    """Whether the words before an acronym spell it (Schwartz & Hearst's test: its letters found in
    order, from the end, the first at a word's start): then it is the title's own acronym."""
    letters = [c.lower() for c in short if c.isalpha()]
    text = " ".join(long.split()[-min(len(letters) + 5, 2 * len(letters)):]).lower()
    i = len(text) - 1
    for k in range(len(letters) - 1, -1, -1):
        while i >= 0 and (text[i] != letters[k] or (k == 0 and i > 0 and text[i - 1].isalnum())):
            i -= 1
        if i < 0:
            return False
        i -= 1
    return True


def _tidy(text: str) -> str:
    return text.strip(" .,;:\"“”'").strip()


def _venue(text: str) -> str | None:
    text = re.sub(r"^\s*(?:In:?|in:?)\s+", "", text.strip(" .,"))
    text = _DOI.sub("", text)
    text = re.sub(r"https?://\S+|\bdoi:?\s*$|\bURL\b", "", text, flags=re.IGNORECASE)
    text = re.split(r"[,.;(]\s*(?:(?:vol|pp|pages|no)\b|\d)", text)[0]
    return _tidy(text)[:200] or None


# The date a link was read on: "Acesso em: 3 maio 2020", "accessed 12 May 2021", "[cited 2020 May 3]".
_ACCESSED = re.compile(r"(?:\b(?:acess(?:o|ado) em|accessed(?: on)?|last accessed|consultad[oa](?: el| en| em)?|"
                       r"abgerufen am|consult[ée] le|retrieved(?: on)?|visited(?: on)?)\s*:?|\[cited)[^.;\]]*",
                       re.IGNORECASE)


def _last_year(body: str) -> int | None:
    """The last year printed, not a page of a range ("pp 1905-1930") nor the date a link was read on."""
    body = _ACCESSED.sub(" ", _PAGE_RANGE.sub(" ", body))
    years = [int(y) for y in re.findall(r"(?<![\d.:/])((?:1[89]|20)\d\d)[a-z]?(?![\d/]|\.\d)", body)]
    # a number in a range is a page sooner than a year ("Can. J. Microbiol. 1996, 42, 1953–1958")
    alone = [int(y) for y in re.findall(r"(?<![\d.:/\-–])((?:1[89]|20)\d\d)[a-z]?(?![\d/]|\.\d|\s?[\-–]\s?\d)", body)]
    return alone[-1] if alone else years[-1] if years else parse_year(None)


_BARE_NUMBER = re.compile(r"^\s*\d{1,4}\s*$")
# A line opening with a year ("2009.", "(1975). [3]"): an entry's last line, no label.
YEAR_START = re.compile(r"^\s*\(?(?:1[89]|20)\d\d[a-z]?\)?\.?(?:\s|$)")
MAX_LABEL_GAP = 3  # entries a numbered list may lack (a number lost to a page break or a typo) and go on


def split_numbered(texts: list[str]) -> list[str] | None:
    """Lines of a numbered list cut at labels counting up from 1; None when the list is not numbered.

    A label past the one expected (a number missing, up to `MAX_LABEL_GAP`) starts an entry when the
    next label the list prints is the one after it: the count goes on from there.  Without that,
    200 entries with one number missing became one entry of 20,000 characters."""
    labels = [None if YEAR_START.match(line) else entry_label(line) for line in texts]
    following: list[int | None] = [None] * len(texts)  # the next label printed after each line
    for i in range(len(texts) - 2, -1, -1):
        bare = int(texts[i + 1]) if _BARE_NUMBER.match(texts[i + 1]) else None  # a raised label set apart
        following[i] = labels[i + 1] if labels[i + 1] is not None else bare if bare is not None else following[i + 1]
    entries: list[str] = []
    expect = 1
    for line, label, after in zip(texts, labels, following, strict=True):
        # (before the first entry only with the very next label after it: a chemist's raised "1" of "1H-NMR")
        bare = int(line) if label is None and _BARE_NUMBER.match(line) else None
        if bare == expect and (after == expect + 1 or (
                entries and (after is None or expect < after <= expect + 1 + MAX_LABEL_GAP))):
            label = expect  # a raised label the line builder set apart on a line of its own ("7" over its entry)
        elif bare is not None and entries and expect < bare <= expect + MAX_LABEL_GAP and after == bare + 1:
            label = bare  # such a label past one the page lost (a raised label at a page's top went with its head)
        resumes = bool(entries) and expect < label <= expect + MAX_LABEL_GAP and after == label + 1 \
            if label is not None else False
        if label is not None and (label == expect or resumes):
            entries.append(line)
            expect = label + 1
        elif entries:
            entries[-1] += "\n" + line
    return entries if expect > 3 or (entries and expect > 1 and len(texts) < 12) else None


# A key in brackets opening an entry of an alphabetic list ("[ABTZ13]", "[Kle05a]", "[AFM^+ 95]"), alone
# on its line when a rule stands for the authors after it.
KEY = re.compile(r"^\s*\[([^\W\d_](?:[^\[\]\s]|\s(?=[^\[\]\s])){1,13})\](?:\s|$)")


def split_keyed(texts: list[str]) -> list[str] | None:
    """Lines of a list whose entries open with keys in brackets ("[ABTZ13] Haim Avron, …"), cut at
    each key; None when the list is not one.  The list's own order decides: a bibliography keyed so
    is sorted by its keys, so five keys at least, nine in ten of them in order, make a keyed list
    (a bracketed word opening a line inside an entry is out of that order, and no key)."""
    texts = _keys_joined(texts)
    keys = [(i, m.group(1).replace("^", "").lower()) for i, line in enumerate(texts) if (m := KEY.match(line))]
    if len(keys) < 5 or len({k for _, k in keys}) < 0.8 * len(keys):  # keys name one entry each: a bracketed
        return None  # word that opens many lines ("[PubMed] [CrossRef]" under each entry) is no key
    ordered = sum(a <= b for (_, a), (_, b) in zip(keys, keys[1:], strict=False))
    if ordered < 0.9 * (len(keys) - 1):
        return None
    entries = ["\n".join(texts[:keys[0][0] + 1])] if keys[0][0] else [texts[0]]
    starts = {i for i, _ in keys}
    for i, line in enumerate(texts[keys[0][0] + 1:], start=keys[0][0] + 1):
        if i in starts:
            entries.append(line)
        else:
            entries[-1] += "\n" + line
    return entries


_OPEN_KEY = re.compile(r"^\s*\[[^\W\d_][^\[\]]{0,12}$")
_KEY_END = re.compile(r"^[^\[\]\s]{1,6}\]")


def _keys_joined(texts: list[str]) -> list[str]:
    """Lines with a key broken over two of them by a raised mark ("[H^+" | "92] Paul Hudak …") joined."""
    out: list[str] = []
    for line in texts:
        if out and _OPEN_KEY.match(out[-1]) and _KEY_END.match(line):
            out[-1] += " " + line
        else:
            out.append(line)
    return out


def references_from_texts(texts: list[str]) -> list[Reference]:
    """Entries given one per string (Markdown list items, structured texts without fields)."""
    return parsed_entries([t for t in texts if clean_entry(t)])


def parsed_entries(entries: list[str]) -> list[Reference]:
    """A list's entries read in order, numbered from 1, each knowing the entry before it."""
    full_names = full_name_list([_ALPHA_LABEL.sub("", _LABEL.sub("", clean_entry(e), count=1), count=1)
                                 for e in entries])
    refs: list[Reference] = []
    for i, entry in enumerate(entries, start=1):
        refs.append(parse_reference(entry, i, refs[-1] if refs else None, full_names))
    return refs
