"""The safe FTS5 expression from `search/query.py`, turned into a PostgreSQL tsquery.

`fts_query` only ever produces quoted clauses joined by OR: ``"il 6" OR "macro"*``.
Each clause is parsed back into its words (``\\w+`` only), a phrase becomes
``phraseto_tsquery`` (words joined by ``<->``), a prefix clause ``'word':*``, and
the clauses are OR-ed with ``||``.  User text only ever reaches PostgreSQL as a
bound parameter of a function that cannot fail on it, so any string is safe.
"""

from __future__ import annotations

import re

from .. import name_fold

# FTS5's `porter unicode61` tokenizer, as near as PostgreSQL's parser gets: every ASCII punctuation
# mark splits words (IL-6 -> il 6, as unicode61; PostgreSQL's own parser would keep "-6", "3.5",
# "e.g" and hyphenated compounds as extra tokens), every word is kept (no stopword list: FTS5 has
# none, and BM25's unit length counts them) and stemmed by the original Porter algorithm (FTS5's;
# PostgreSQL's `english` is Porter2), diacritics of Latin letters folded (`words_sql`).  Left
# different: FTS5 leaves words under 3 letters unstemmed where Porter takes the s off a 2-letter one (is -> i),
# and words over 64 bytes unstemmed.
CONFIG = "papershelf_fts5"
CONFIG_SCHEMA = """
DO $$ BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_ts_dict WHERE dictname = 'papershelf_porter') THEN
    CREATE TEXT SEARCH DICTIONARY papershelf_porter (TEMPLATE = snowball, Language = porter);
  END IF;
  IF NOT EXISTS (SELECT 1 FROM pg_ts_config WHERE cfgname = 'papershelf_fts5') THEN
    CREATE TEXT SEARCH CONFIGURATION papershelf_fts5 (COPY = pg_catalog.english);
    ALTER TEXT SEARCH CONFIGURATION papershelf_fts5 ALTER MAPPING FOR asciiword, word, numword, asciihword,
      hword, numhword, hword_asciipart, hword_part, hword_numpart WITH papershelf_porter;
  END IF;
END $$;
"""


def _literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


# unicode61's remove_diacritics: "naïve" and "Gödel" are the words "naive" and "godel", so a query
# typed without accents finds them (and an author's name in the title field matches as the author
# filter does).  The Latin letters' table of store/name_fold, as literals (no extension: the bundled
# server has no `unaccent`).
_FOLD = f"{_literal(name_fold.TRANSLATE_FROM)}, {_literal(name_fold.TRANSLATE_TO)}"


def words_sql(expr: str) -> str:
    """SQL for the text `expr` as unicode61 splits and folds it: every ASCII punctuation mark a
    space, Latin letters without their diacritics."""
    return f"translate(regexp_replace({expr}, '[[:punct:]]', ' ', 'g'), {_FOLD})"
_CLAUSE = re.compile(r'"([^"]*)"(\*?)')
_WORD = re.compile(r"\w+", re.UNICODE)


def tsquery_sql(match: str) -> tuple[str, list[str]]:
    """(SQL expression of type tsquery, its parameters) for a safe FTS5 expression."""
    parts: list[str] = []
    params: list[str] = []
    for phrase, star in _CLAUSE.findall(match or ""):
        words = _WORD.findall(phrase)
        if not words:
            continue
        if star:
            # \w+ words cannot contain a quote, so quoting them makes each one lexeme.
            parts.append(f"to_tsquery('{CONFIG}', %s)")
            params.append(" <-> ".join(f"'{w}'" for w in words[:-1]) +
                          (" <-> " if len(words) > 1 else "") + f"'{words[-1]}':*")
        else:
            parts.append(f"phraseto_tsquery('{CONFIG}', {words_sql('%s')})")
            params.append(" ".join(words))
    if not parts:
        return "''::tsquery", []
    # NEAR(a b c, k) (search/query.py's proximity evidence): PostgreSQL has no "within k" operator
    # over several words, so every word must be there (AND) - a looser test than FTS5's.
    join = " && " if (match or "").lstrip().startswith("NEAR(") else " || "
    return "(" + join.join(parts) + ")", params

