"""How author names compare: case and diacritics folded, name punctuation made spaces.

A researcher types "Gyongyi" for "Gyöngyi", "muller" for "Müller", "garcia molina" for
"García-Molina".  SQLite's lower() folds ASCII only (no ICU in Python's sqlite3), and the
bundled PostgreSQL may run in the C locale, so neither backend's own functions can be trusted to
fold; the rule is written once here, in Python: SQLite calls it as a registered SQL function,
PostgreSQL gets it as a `translate()` table over the Latin letters (Latin-1 and Latin
Extended-A/B, where nearly every researcher's diacritics are) after lower().
"""

from __future__ import annotations

from ..text import fold

SQL_FUNCTION = "papershelf_fold_name"
# Characters between the words of a name ("Garcia-Molina", "O'Connell", "Bunescu, R.").
NAME_PUNCT = ".,-'\u2019"
_PUNCT_AS_SPACE = {ord(c): " " for c in NAME_PUNCT}


def fold_name(text: str | None) -> str:
    """Lower case, diacritics removed, name punctuation as spaces."""
    return fold(text or "").translate(_PUNCT_AS_SPACE)


def _translate_table() -> tuple[str, str]:
    """`translate(lower(x), FROM, TO)` arguments that fold like `fold_name` (one character to one)."""
    source, target = list(NAME_PUNCT), [" "] * len(NAME_PUNCT)
    for code in range(0xC0, 0x250):
        c = chr(code)
        base = fold_name(c)
        if len(base) == 1 and base != c:
            source.append(c)
            target.append(base)
    return "".join(source), "".join(target)


TRANSLATE_FROM, TRANSLATE_TO = _translate_table()
