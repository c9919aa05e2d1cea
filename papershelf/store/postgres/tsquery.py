"""The safe FTS5 expression from `search/query.py`, turned into a PostgreSQL tsquery.

`fts_query` only ever produces quoted clauses joined by OR: ``"il 6" OR "macro"*``.
Each clause is parsed back into its words (``\\w+`` only), a phrase becomes
``phraseto_tsquery`` (words joined by ``<->``), a prefix clause ``'word':*``, and
the clauses are OR-ed with ``||``.  User text only ever reaches PostgreSQL as a
bound parameter of a function that cannot fail on it, so any string is safe.
"""

from __future__ import annotations

import re

CONFIG = "english"
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
            parts.append(f"phraseto_tsquery('{CONFIG}', %s)")
            params.append(" ".join(words))
    if not parts:
        return "''::tsquery", []
    # NEAR(a b c, k) (search/query.py's proximity evidence): PostgreSQL has no "within k" operator
    # over several words, so every word must be there (AND) - a looser test than FTS5's.
    join = " && " if (match or "").lstrip().startswith("NEAR(") else " || "
    return "(" + join.join(parts) + ")", params

