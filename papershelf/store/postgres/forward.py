"""Each unit's term frequencies by term, in one compact row: what ranking looks up when it knows
the unit and wants a few terms' postings (a forward index, beside the inverted one).

Why: top-k rescores a shortlist of units exactly (topk.py), and MaxScore looks up the terms a
candidate was not read with (bm25.rank).  Looked up in the postings' primary key, a unit's
postings take about 39 bytes each (126 a unit: one or two index pages), and at a million units
that key (4.9 GB) did not stay in memory beside the impact index: a claim the server had not
seen read 300-1,000 pages from disk (BENCHMARKS.md).  A forward row holds a unit's postings as
one jsonb object, term id -> its three frequencies packed in one integer, compressed by
PostgreSQL's TOAST to about 9 bytes a posting (1.06 GB at a million units): the same lookups
read a third of the pages they did there.  A jsonb object's keys are sorted, so a term is
found by binary search (no array scan).

The rows are derived from the postings in the same transaction (bm25.index / forget), and
`PROBLEM` compares them with the postings, as bm25.problems compares the postings with a
recount of the tsvectors.
"""

from __future__ import annotations

from .tsquery import CONFIG

SCHEMA = """
CREATE TABLE IF NOT EXISTS bm25_forward (doc_key BIGINT PRIMARY KEY, tfs JSONB NOT NULL, dl INTEGER NOT NULL);
"""

# title, heading and body frequencies (each a SMALLINT, so below 2^15) in one integer
_PACK = "(p.tf_title::int8 << 30) | (p.tf_heading::int8 << 15) | p.tf_body::int8"


def rows_sql(where: str) -> str:
    """The forward rows of the units whose postings (alias p) `where` selects."""
    return (f"SELECT p.doc_key, jsonb_object_agg(p.term_id::text, {_PACK}) AS tfs, min(p.dl) AS dl "
            f"FROM bm25_postings p WHERE {where} GROUP BY p.doc_key")


def fill(db, where: str, params: tuple = ()) -> None:
    """Add the forward rows of the units whose postings (alias p) `where` selects."""
    db.execute(f"INSERT INTO bm25_forward(doc_key, tfs, dl) {rows_sql(where)}", params)


def lookup_sql(contrib: str, key: str, terms: str) -> str:
    """The sum of `contrib` (one posting's share, alias p: term_id, tf_title, tf_heading, tf_body,
    dl; its term's idf q.idf) over the postings of unit `key` of the terms named `terms`: three
    aligned array parameters (`term_params`); 0 when it holds none of them.  (A phrase's negative
    id is never a key: its postings are elsewhere.)"""
    # The row's object is decompressed once (`|| '{}'` returns the decompressed value, OFFSET 0
    # keeps it one value), not at every term's lookup: one claim's 400 units at 1 M, 7.5 ms
    # instead of 15 (BENCHMARKS.md).  Each term's idf and key come with it, not from a CASE over
    # the terms and a cast per lookup.
    return (f"coalesce((SELECT sum(coalesce({contrib}, 0)) FROM bm25_forward f "
            "CROSS JOIN LATERAL (SELECT f.tfs || '{}'::jsonb AS tfs OFFSET 0) o "
            f"CROSS JOIN LATERAL unnest(%({terms})s::int[], %({terms}_idf)s::float8[], %({terms}_key)s::text[]) "
            "AS q(term_id, idf, k) CROSS JOIN LATERAL "
            "(SELECT q.term_id, v >> 30 AS tf_title, (v >> 15) & 32767 AS tf_heading, v & 32767 AS tf_body, f.dl "
            "FROM (SELECT (o.tfs -> q.k)::int8 AS v) x WHERE v IS NOT NULL) p "
            f"WHERE f.doc_key = {key}), 0)")


def term_params(name: str, ids: list[int], idfs: list[float]) -> dict:
    """The parameters `lookup_sql(..., name)` reads: the terms' ids, their idfs, their keys."""
    return {name: ids, f"{name}_idf": idfs, f"{name}_key": [str(i) for i in ids]}


def holds_sql(tfs: str, words: str) -> str:
    """SQL true when the forward row's object `tfs` holds every lexeme of the text `words` (an SQL
    expression, split and folded by `tsquery.words_sql`): a unit holds a phrase or NEAR's words
    only then.  Why: checking positions costs the unit's tsvector (a row of search_docs, the
    largest table), while a ranked list's forward rows were just read by its ranking; a claim's
    whole-query phrase, or its words within a span, are in a few of its units at most.  NULL
    (false) when a lexeme is in no unit at all; true for a text of no lexemes (nothing to hold)."""
    return (f"{tfs} ?& (SELECT CASE WHEN count(*) = 0 THEN '{{}}'::text[] WHEN bool_and(t.id IS NOT NULL) "
            f"THEN array_agg(t.id::text) END FROM unnest(to_tsvector('{CONFIG}', {words})) x "
            "LEFT JOIN bm25_terms t ON t.term = x.lexeme)")


# Forward rows that differ from the postings they are derived from, either way.
PROBLEM = (f"(SELECT doc_key, tfs, dl FROM bm25_forward EXCEPT ALL {rows_sql('true')}) UNION ALL "
           f"({rows_sql('true')} EXCEPT ALL SELECT doc_key, tfs, dl FROM bm25_forward)")
