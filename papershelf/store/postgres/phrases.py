"""A phrase clause scored as FTS5 scores it: as one term, whose document frequency is the number
of units holding the phrase and whose frequency in a unit is the number of times it occurs there
(per column, with the column weights), not as the sum of its words' BM25.

Why: FTS5's bm25() ranks `"il 6" OR "levels"` by two phrases; scoring the words `il` and `6` with
their own idfs instead gave PostgreSQL a different ranking of every claim with a hyphenated term.
A phrase's postings are counted at query time from the tsvectors of the units holding it (the GIN
index finds them); a phrase is in one column, so its words must be consecutive and share a weight.
They join the kept postings under a negative term id (`union_sql`), so ranking treats them alike.
"""

from __future__ import annotations

from .tsquery import CONFIG, words_sql

# Occurrences of the phrase in each unit holding it: a start of its first lexeme from which every
# lexeme of the phrase follows at its offset, in the same column (weight).
_COUNT = f"""
WITH ph AS (SELECT x.lexeme, p.pos FROM unnest(to_tsvector('{CONFIG}', {words_sql('%(p)s')})) x,
                   unnest(x.positions) p(pos)),
     n AS (SELECT count(*) AS n, (SELECT lexeme FROM ph ORDER BY pos LIMIT 1) AS first FROM ph)
SELECT b.doc_key, b.dl, count(*) FILTER (WHERE st.w = 'A') AS a, count(*) FILTER (WHERE st.w = 'B') AS h,
       count(*) FILTER (WHERE st.w = 'C') AS c
FROM n, search_docs s JOIN bm25_docs b ON b.unit_id = s.unit_id,
LATERAL (WITH occ AS (SELECT x.lexeme, q.pos, q.w FROM unnest(s.tsv) x, unnest(x.positions, x.weights) q(pos, w)
                      WHERE x.lexeme IN (SELECT lexeme FROM ph))
         SELECT o.pos, o.w FROM occ o WHERE o.lexeme = n.first AND (SELECT count(*) FROM ph JOIN occ o2
           ON o2.lexeme = ph.lexeme AND o2.pos = o.pos + ph.pos - 1 AND o2.w = o.w) = n.n) st
WHERE s.tsv @@ phraseto_tsquery('{CONFIG}', {words_sql('%(p)s')})
GROUP BY b.doc_key, b.dl"""


def postings(query, phrases: list[list[str]]) -> list[tuple[int, int, int, int, int, int]]:
    """(term id, unit key, tf title, heading, body, unit length) of each phrase (ids -1, -2, …)."""
    rows: list[tuple[int, int, int, int, int, int]] = []
    for i, words in enumerate(phrases, start=1):
        rows += [(-i, r["doc_key"], r["a"], r["h"], r["c"], r["dl"]) for r in query(_COUNT, {"p": " ".join(words)})]
    return rows


def union_sql() -> str:
    """The kept postings and the query's phrase postings (%(ph_*)s arrays), as one relation."""
    return ("(SELECT term_id, doc_key, tf_title, tf_heading, tf_body, dl, impact FROM bm25_postings UNION ALL "
            "SELECT x.*, 0::real FROM unnest(%(ph_t)s::int[], %(ph_d)s::bigint[], %(ph_a)s::int[], %(ph_h)s::int[], "
            "%(ph_c)s::int[], %(ph_l)s::int[]) AS x(term_id, doc_key, tf_title, tf_heading, tf_body, dl))")


def params(rows: list[tuple[int, int, int, int, int, int]]) -> dict:
    return {f"ph_{k}": [r[i] for r in rows] for i, k in enumerate("tdahcl")}
