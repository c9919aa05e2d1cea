"""A phrase clause scored as FTS5 scores it: as one term, whose document frequency is the number
of units holding the phrase and whose frequency in a unit is the number of times it occurs there
(per column, with the column weights), not as the sum of its words' BM25.

Why: FTS5's bm25() ranks `"il 6" OR "levels"` by two phrases; scoring the words `il` and `6` with
their own idfs instead gave PostgreSQL a different ranking of every claim with a hyphenated term.
A phrase is in one column, so its words must be consecutive and share a weight; only a unit's
tsvector knows positions, so each unit checked costs its tsvector.

Which units are checked: those holding the phrase's rarest word (its kept postings list holds
every unit that can hold the phrase).  When that list is short (`FULL` units or fewer: any phrase
in a library of that size) every one is checked, and the phrase's df and postings are exact.
When it is longer - "T cell" in a lab library, 43,558 units at 300 k - checking them all grows
with the library (9.3 s), so only a fixed, deterministic sample of the list is (about `SAMPLE`
of its units, by a hash of their keys: the phrase's df is the word's df x the share of the sample
holding the phrase), plus the list's `HEAD` best impacts (the units most likely to score it highly).  The
units a search returns are then checked too (`complete`), so every score returned is the unit's
BM25 with the phrase's estimated idf; `Estimate.sampled` tells the top-k it is not proven.
The phrase's postings join the kept postings under a negative term id (`union_sql`), so ranking
treats them alike.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from .forward import holds_sql
from .tsquery import CONFIG, words_sql

FULL, SAMPLE, HEAD = 1000, 200, 50

# A phrase's lexemes at their offsets in it, and how many there are.
_PHRASE = f"""
ph AS (SELECT x.lexeme, p.pos - 1 AS off FROM unnest(to_tsvector('{CONFIG}', {words_sql('%(p)s')})) x,
              unnest(x.positions) p(pos)),
m AS (SELECT count(*) AS m, array_agg(DISTINCT lexeme) AS lex FROM ph)"""
# Occurrences of the phrase in the units of `checked` (doc_key, sampled): a start and a column
# (weight) at which every lexeme of the phrase is found at its offset, so a unit holding the words
# only across columns has no row.  Only the units whose forward row holds every word of it are
# read (`held`: a tsvector costs more to read than a forward row, forward.holds_sql); the
# tsvector is cut down to the phrase's lexemes (ts_delete twice) before it is unnested.
_OCCURRENCES = f"""
held AS MATERIALIZED (SELECT c.doc_key, c.sampled FROM checked c JOIN bm25_forward f ON f.doc_key = c.doc_key
                      WHERE {holds_sql('f.tfs', words_sql('%(p)s'))}),
occ AS (SELECT c.doc_key, c.sampled, b.unit_id, b.dl, o.pos - ph.off AS start, o.w
        FROM held c JOIN bm25_docs b ON b.doc_key = c.doc_key JOIN search_docs s ON s.unit_id = b.unit_id, m,
             unnest(ts_delete(s.tsv, tsvector_to_array(ts_delete(s.tsv, m.lex)))) x,
             unnest(x.positions, x.weights) o(pos, w), ph
        WHERE s.tsv @@ phraseto_tsquery('{CONFIG}', {words_sql('%(p)s')}) AND ph.lexeme = x.lexeme
        GROUP BY 1, 2, 3, 4, 5, 6 HAVING count(*) = (SELECT m FROM m))
SELECT doc_key, unit_id, dl, sampled, count(*) FILTER (WHERE w = 'A') AS a, count(*) FILTER (WHERE w = 'B') AS h,
       count(*) FILTER (WHERE w = 'C') AS c{{more}} FROM occ GROUP BY doc_key, unit_id, dl, sampled"""

# The phrase's rarest word (its postings list holds every unit that can hold the phrase).
_WORD = f"""WITH {_PHRASE.strip()}
SELECT t.id, t.df, (SELECT max(doc_key) FROM bm25_docs) AS last FROM m, bm25_terms t
WHERE t.term = ANY(m.lex) AND t.df > 0 ORDER BY t.df, t.id LIMIT 1"""
# The sample, about 1/k of the word's list, never in step with a pattern of the keys (a paper's units
# are consecutive keys: every k-th key would pick the same part of every paper): the units whose key
# hashes to a multiple of %(k)s, read from the list; or, when the list is much longer than the
# sample's keys are many, the keys of a golden-ratio (Weyl) sequence over the key range, looked up
# one by one.
_LIST = ("SELECT p.doc_key, true AS sampled FROM bm25_postings p WHERE p.term_id = %(w)s "
         "AND (hashint8(p.doc_key) & 2147483647) %% %(k)s = 0")
_KEYS = ("SELECT DISTINCT p.doc_key, true AS sampled FROM generate_series(1, %(keys)s) g(j) JOIN bm25_postings p "
         "ON p.doc_key = 1 + floor((g.j * 0.6180339887498949::float8 - floor(g.j * 0.6180339887498949::float8)) "
         "* %(last)s)::bigint AND p.term_id = %(w)s")
_HEAD = (" UNION ALL SELECT h.doc_key, false FROM (SELECT p.doc_key FROM bm25_postings p WHERE p.term_id = %(w)s "
         "ORDER BY p.impact DESC LIMIT %(head)s) h")
# Looking a posting up by (unit, term) costs about this many postings read in a list.
PROBE_COST = 10


def _count_sql(picked: str) -> str:
    return f"""WITH {_PHRASE.strip()},
checked AS (SELECT doc_key, bool_or(sampled) AS sampled FROM ({picked}) p GROUP BY doc_key),
{_OCCURRENCES.strip()}""".replace("{more}", ", (SELECT count(*) FROM checked WHERE sampled) AS n")


_COUNT_IN = f"""
WITH {_PHRASE},
checked AS (SELECT doc_key, false AS sampled FROM bm25_docs WHERE unit_id = ANY(%(units)s)),
{_OCCURRENCES.strip()}""".replace("{more}", "")

Row = tuple[int, int, int, int, int, int]  # (term id, unit key, tf title, heading, body, unit length)


@dataclass
class Estimate:
    """A phrase's df and the postings found (all of them unless `sampled`)."""

    df: int
    rows: list[Row] = field(default_factory=list)
    sampled: bool = False
    units: dict[int, str] = field(default_factory=dict)  # the rows' unit keys -> unit ids


def _row(term_id: int, r: dict) -> Row:
    return term_id, r["doc_key"], r["a"], r["h"], r["c"], r["dl"]


def count(query, term_id: int, words: list[str], exact: bool = False) -> Estimate:
    """The phrase's df and postings (see the module doc); `exact` checks every unit that can hold it."""
    text = " ".join(words)
    word = query(_WORD, {"p": text})
    if not word:
        return Estimate(0)
    df, last = word[0]["df"], word[0]["last"]
    k = 1 if exact or df <= FULL else math.ceil(df / SAMPLE)
    picked = _KEYS if k > 1 and last // k * PROBE_COST < df else _LIST
    found = query(_count_sql(picked + (_HEAD if k > 1 else "")),
                  {"p": text, "w": word[0]["id"], "k": k, "last": last, "keys": -(-last // k), "head": HEAD})
    rows, units = [_row(term_id, r) for r in found], {r["doc_key"]: r["unit_id"] for r in found}
    if k == 1 or not rows:
        return Estimate(len(rows), rows, False, units)
    # the sample's share of holders, a half added (a phrase rare among its word's units may have
    # none in the sample: its df is then not 0 but below what the sample can tell apart)
    share = (sum(1 for r in found if r["sampled"]) + 0.5) / (found[0]["n"] + 1)
    return Estimate(max(len(rows), round(df * share)), rows, True, units)


def complete(query, term_id: int, words: list[str], unit_ids: list[str]) -> dict[str, Row]:
    """The phrase's postings in these units, by unit id (a sampled phrase did not check them all)."""
    found = query(_COUNT_IN, {"p": " ".join(words), "units": unit_ids}) if unit_ids else []
    return {r["unit_id"]: _row(term_id, r) for r in found}


# The query's phrase postings (%(ph_*)s arrays) as a relation (alias p).
ROWS = ("unnest(%(ph_t)s::int[], %(ph_d)s::bigint[], %(ph_a)s::int[], %(ph_h)s::int[], %(ph_c)s::int[], "
        "%(ph_l)s::int[]) AS p(term_id, doc_key, tf_title, tf_heading, tf_body, dl)")


def union_sql() -> str:
    """The kept postings and the query's phrase postings, as one relation."""
    return ("(SELECT term_id, doc_key, tf_title, tf_heading, tf_body, dl, impact FROM bm25_postings UNION ALL "
            f"SELECT p.*, 0::real FROM {ROWS})")


def params(rows: list[Row]) -> dict:
    return {f"ph_{k}": [r[i] for r in rows] for i, k in enumerate("tdahcl")}
