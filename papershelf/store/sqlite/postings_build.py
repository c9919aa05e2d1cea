"""Building the postings file (postings.py) from the library's FTS5 index, in one read transaction.

Everything comes from FTS5's own records, so the file holds what `bm25()` reads: N and the token
totals from the averages record, each row's size from `search_fts_docsize`, and each term's
instances from an `fts5vocab` instance table, one term at a time.  A term's instances come back
from SQLite as one `group_concat` string of `rowid * 4 + column` (parsed by NumPy: ~0.3 µs an
instance, against ~0.8 µs for a row each), and its postings are appended to the files at once, so
memory holds one term's list, never the index.  Stop words are left out: a query holds them only
when it has nothing else, and a term the file lacks sends the query to FTS5.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import urllib.parse

import numpy as np

from ...search.query import STOPWORDS
from .postings import COLUMNS, FORMAT, norms, save_meta
from .topk import index_term

MAX_COUNT = np.iinfo(np.uint16).max  # a term with more instances in one column of a row is left to FTS5


def state_key(db: sqlite3.Connection) -> str:
    """The lexical index's state: the generation the triggers move with every change to the rows
    FTS5 reads (migration 12), and a digest of FTS5's averages and structure records, which every
    write to the index changes.  Read in the transaction whose data it labels."""
    row = db.execute("SELECT (SELECT generation FROM lexical_state), "
                     "(SELECT block FROM search_fts_data WHERE id = 1), "
                     "(SELECT block FROM search_fts_data WHERE id = 10)").fetchone()
    digest = hashlib.blake2b(bytes(row[1] or b"") + b"|" + bytes(row[2] or b""), digest_size=8).hexdigest()
    return f"g{row[0]}-{digest}"


def varints(blob: bytes) -> list[int]:
    """SQLite's varints (7 bits a byte, big-endian, a 9th byte of 8 bits), as FTS5 writes its records."""
    out, n, used = [], 0, 0
    for b in blob:
        if used == 8:
            out.append((n << 8) | b)
            n = used = 0
            continue
        n, used = (n << 7) | (b & 0x7F), used + 1
        if b < 0x80:
            out.append(n)
            n = used = 0
    return out


def connect(path: str) -> sqlite3.Connection:
    """A read-only connection of its own: a build reads for seconds, beside the store's searches."""
    db = sqlite3.connect("file:" + urllib.parse.quote(path) + "?mode=ro", uri=True, isolation_level=None,
                         check_same_thread=False)
    db.execute("CREATE VIRTUAL TABLE IF NOT EXISTS temp.postings_terms USING fts5vocab(main, search_fts, row)")
    db.execute("CREATE VIRTUAL TABLE IF NOT EXISTS temp.postings_instances "
               "USING fts5vocab(main, search_fts, instance)")
    return db


def build(path: str, folder: str) -> str:
    """Write the postings of the library at `path` into `folder`; returns the state key they are of."""
    db = connect(path)
    try:
        db.execute("BEGIN")
        key = state_key(db)
        averages = db.execute("SELECT block FROM search_fts_data WHERE id = 1").fetchone()
        totals = varints(bytes(averages[0])) if averages and averages[0] else [0]
        rows, tokens = totals[0], sum(totals[1:])
        rowids, sizes = _sizes(db)
        terms = [t for (t,) in db.execute("SELECT term FROM temp.postings_terms")]
        written = _write_postings(db, terms, _instances_sql(db), rowids, folder)
        db.execute("COMMIT")
    finally:
        db.close()
    np.savez(os.path.join(folder, "rows.npz"), rowids=rowids, norm=norms(sizes, rows, tokens),
             starts=written["starts"], term_offsets=written["term_offsets"])
    save_meta(folder, {"format": FORMAT, "key": key, "rows": rows, "tokens": tokens, "units": len(rowids),
                       "terms": len(written["starts"]) - 1, "postings": int(written["starts"][-1]),
                       "max_count": int(written["max_count"])})
    return key


def _sizes(db: sqlite3.Connection) -> tuple[np.ndarray, np.ndarray]:
    """Every row's rowid (ascending) and its size in tokens over all columns (FTS5's D)."""
    ids, sizes = [], []
    for rowid, blob in db.execute("SELECT id, sz FROM search_fts_docsize ORDER BY id"):
        ids.append(rowid)
        sizes.append(sum(varints(bytes(blob))) if blob else 0)
    return np.asarray(ids, dtype=np.int64), np.asarray(sizes, dtype=np.int64)


def _instances_sql(db: sqlite3.Connection) -> str:
    """A term's instances as one string of `rowid * 4 + column number` (the vocabulary table names
    the column; bm25's weights follow the columns' order)."""
    names = [r[1] for r in db.execute("PRAGMA table_info(search_fts)")]
    if not 0 < len(names) <= COLUMNS:
        raise ValueError(f"unexpected lexical columns {names}")
    quoted = ["'" + n.replace("'", "''") + "'" for n in names]
    number = "CASE col " + " ".join(f"WHEN {q} THEN {i}" for i, q in enumerate(quoted)) + " END"
    return f"SELECT group_concat(doc * 4 + {number}) FROM temp.postings_instances WHERE term = ?"


def _write_postings(db: sqlite3.Connection, terms: list[str], sql: str, rowids: np.ndarray, folder: str) -> dict:
    stop = {index_term(w) for w in STOPWORDS}
    kept: list[bytes] = []
    starts, max_count = [0], 0
    with open(os.path.join(folder, "docs.bin"), "wb") as docs_file, \
            open(os.path.join(folder, "counts.bin"), "wb") as counts_file:
        for term in terms:
            if term in stop:
                continue
            docs, counts = _term_postings(db, sql, term, rowids)
            if counts.size and counts.max() > MAX_COUNT:
                continue
            docs_file.write(docs.astype(np.int32).tobytes())
            counts_file.write(counts.astype(np.uint16).tobytes())
            kept.append(term.encode("utf-8"))
            starts.append(starts[-1] + len(docs))
            max_count = max(max_count, int(counts.max()) if counts.size else 0)
    offsets = np.zeros(len(kept) + 1, np.int64)
    np.cumsum([len(t) for t in kept], out=offsets[1:])
    with open(os.path.join(folder, "terms.bin"), "wb") as f:
        f.write(b"".join(kept))
    if any(a >= b for a, b in zip(kept, kept[1:])):
        raise ValueError("the vocabulary is not in bytewise order")
    return {"starts": np.asarray(starts, np.int64), "term_offsets": offsets, "max_count": max_count}


def _term_postings(db: sqlite3.Connection, sql: str, term: str,
                   rowids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A term's rows (dense indexes, ascending) and instance counts per column."""
    text = db.execute(sql, (term,)).fetchone()[0]
    codes = np.fromstring(text, dtype=np.int64, sep=",") if text else np.zeros(0, np.int64)
    codes.sort(kind="stable")  # already in (row, column) order as FTS5 walks them; sorting is cheap then
    first = np.flatnonzero(np.diff(codes, prepend=-1))
    per_column = np.diff(np.append(first, len(codes)))
    doc, col = codes[first] >> 2, codes[first] & 3
    doc_first = np.flatnonzero(np.diff(doc, prepend=-1))
    counts = np.zeros((len(doc_first), COLUMNS), np.int64)
    counts[np.repeat(np.arange(len(doc_first)), np.diff(np.append(doc_first, len(doc)))), col] = per_column
    dense = np.searchsorted(rowids, doc[doc_first])
    if len(dense) and (dense[-1] >= len(rowids) or (rowids[dense] != doc[doc_first]).any()):
        raise ValueError(f"term {term!r} lists a row with no size record")
    return dense, counts
