"""How names and labels compare: one folding rule, in Python, for both backends.

A researcher types "Gyongyi" for "Gyöngyi", "muller" for "Müller", "garcia molina" for
"García-Molina", "soren" for "Søren", "strasse" for "Straße", "K. Lo" for "Kyle Lo".  Neither
backend's own functions can be trusted to fold so (SQLite's lower() folds ASCII only and has no ICU
in Python's sqlite3; PostgreSQL's lower() depends on the database's locale, and `unaccent` is an
extension a server may lack), so the filters that compare names and labels (author, collection,
tag) are decided here, in Python, on both backends (store/filter_plan.py), and the backends restrict
to the papers they name.

`fold_text`: Unicode case folding, diacritics removed, the Latin letters that do not decompose
(ø, ł, đ, æ, œ, ß, þ, ı) spelt in ASCII.  `fold_name`: the same with name punctuation as spaces.

The lexical index's own folding on PostgreSQL (`TRANSLATE_FROM`/`TO`, postgres/tsquery.py) is
FTS5's remove_diacritics for the Latin letters, kept as SQL because it is part of the index.
"""

from __future__ import annotations

import re

from ..text import fold

# Characters between the words of a name ("Garcia-Molina", "O'Connell", "Bunescu, R.").
NAME_PUNCT = ".,-'\u2019\u2010\u2011\u2013"
_PUNCT_AS_SPACE = {ord(c): " " for c in NAME_PUNCT}
# Letters NFKD leaves whole: how a person without the key types them.
_SPELT = str.maketrans({"ø": "o", "ł": "l", "đ": "d", "ð": "d", "þ": "th", "æ": "ae", "œ": "oe", "ß": "ss",
                        "ı": "i", "ħ": "h", "ŧ": "t", "ŋ": "n"})
_WORD = re.compile(r"\w+", re.U)


def fold_text(text: str | None) -> str:
    """Case-folded, without diacritics, special Latin letters spelt in ASCII."""
    return fold(text or "").casefold().translate(_SPELT)


def fold_name(text: str | None) -> str:
    """`fold_text`, name punctuation as spaces."""
    return fold_text(text).translate(_PUNCT_AS_SPACE)


def name_words(name: str | None) -> list[str]:
    """The words of a name as the author filter compares them."""
    return _WORD.findall(fold_name(name))


def names_match(query: list[str], name: list[str]) -> bool:
    """Does an author's name (its words) match a query's words?  Every query word must start a word
    of the name ("K" for "Kyle", "lo" for "Lo"), or start the run of words from one of them
    ("vanderberg" for "van der Berg", "oconnor" for "O'Connor"); the same word may serve twice
    ("L. L. Wang" for "Lucy Lu Wang" and for "L. Wang")."""
    runs = ["".join(name[i:]) for i in range(len(name))]
    return bool(query) and all(any(r.startswith(q) for r in runs) for q in query)


def _translate_table() -> tuple[str, str]:
    """`translate(x, FROM, TO)` arguments folding the Latin letters' diacritics one character to
    one (PostgreSQL's lexical index, as FTS5's remove_diacritics)."""
    source, target = list(NAME_PUNCT[:5]), [" "] * 5
    for code in range(0xC0, 0x250):
        c = chr(code)
        base = fold(c).translate(_PUNCT_AS_SPACE)
        if len(base) == 1 and base != c:
            source.append(c)
            target.append(base)
    return "".join(source), "".join(target)


TRANSLATE_FROM, TRANSLATE_TO = _translate_table()
