"""Turning any user string into a safe FTS5 query, and the terms snippets mark.

Words are quoted, hyphenated terms become phrases ("IL-6" -> "IL 6"), quoted
phrases stay phrases, a trailing * is a prefix query, FTS operators are plain
words.  No user input ever reaches FTS5 syntax, so no query is a syntax error.
The query is first read as the index reads text (`index_text`: CJK runs as bigrams), so a
Chinese or Japanese word becomes the bigrams it is indexed as; a lone CJK character, which
is indexed only inside bigrams, becomes a prefix query.
"""

from __future__ import annotations

import re

from ..index_text import has_cjk, index_text

STOPWORDS = frozenset("""
a an and are as at be but by for from has have in into is it its of on or that the their then there these
they this to was were which will with not no near we our than been can also such
""".split())
_WORD = re.compile(r"\w+", re.U)
_PHRASE = re.compile(r'"([^"]*)"')


def _quote(tokens: list[str]) -> str:
    return '"' + " ".join(tokens) + '"'


def query_terms(text: str) -> list[str]:
    """The query's words as the index holds them (lower case; CJK as bigrams)."""
    return [t.lower() for t in _WORD.findall(index_text(text))]


def fts_query(text: str) -> str | None:
    """A safe FTS5 MATCH expression for any user string (None when it has no words)."""
    text = index_text(text)
    clauses: list[str] = []
    for phrase in _PHRASE.findall(text):
        tokens = _WORD.findall(phrase)
        if tokens:
            clauses.append(_quote(tokens))
    plain: list[str] = []
    for word in _PHRASE.sub(" ", text).split():
        tokens = _WORD.findall(word)
        if not tokens:
            continue
        if len(tokens) > 1:
            clauses.append(_quote(tokens))  # IL-6, COVID-19, e.g. "3.5"
        elif (word.endswith("*") and len(tokens[0]) >= 2) or (len(tokens[0]) == 1 and has_cjk(tokens[0])):
            clauses.append(_quote(tokens) + "*")
        else:
            plain.append(tokens[0])
    content = [w for w in plain if w.lower() not in STOPWORDS]
    if not content and not clauses:
        content = plain
    clauses += [_quote([w]) for w in dict.fromkeys(content)]
    if not clauses:
        return None
    return " OR ".join(dict.fromkeys(clauses))


def proximity_queries(text: str) -> tuple[str | None, str | None]:
    """Two stricter FTS5 expressions over the query's own words, for phrase/proximity evidence:
    the whole query as one phrase (a quoted caption or sentence), and its content words
    NEAR one another (within twice their count).  None when the query has too few words
    for the evidence to mean anything (under 3 words, 2 content words)."""
    tokens = _WORD.findall(index_text(text))
    phrase = _quote(tokens) if len(tokens) >= 3 else None
    content = list(dict.fromkeys(t for t in tokens if t.lower() not in STOPWORDS))
    near = None
    if len(content) >= 2:
        near = "NEAR(" + " ".join(_quote([w]) for w in content) + f", {2 * len(content)})"
    return phrase, near
