"""The PostgreSQL library schema as an ordered list of forward migrations.

`papershelf_schema` records how many have been applied (the SQLite backend uses
``PRAGMA user_version`` for the same).  A database with a higher number was
written by a newer papershelf and is refused; a database holding other tables
but no `papershelf_schema` is not a papershelf library and is refused too.
Never edit an applied migration: append one.

Differences from the SQLite schema, each for a reason:

* `search_docs.tsv` is a weighted tsvector (title A, heading B, body C) with a
  GIN index: PostgreSQL full-text search instead of FTS5.  It is kept in the row and
  the text moved out of line first (migration 15): searches read tsvectors by key.
* `vector_windows` holds one row per window (pgvector ``vector``, normalized at
  write), so the best window per unit and top-k are computed in SQL; `vectors`
  keeps one row of metadata per unit, as in SQLite.  Vectors of any dimension
  share the table; each space gets its own partial HNSW index on
  ``embedding::vector(dim)`` once it is large enough (see vectors.py).
* `bm25_terms`, `bm25_docs`, `bm25_postings`, `bm25_totals` keep what BM25 needs (df, unit
  lengths, per-column term frequencies), written in each paper's transaction (see bm25.py).
* `embed_claims` lets several builders work on one library at once: a builder
  claims a paper with a lease before encoding it (see vectors.py).
"""

from __future__ import annotations

from collections.abc import Callable

from ..common import SOURCES_BACKFILL_SQL, refolded_keys, rekeyed, title_keys, unit_tables_v1
from ..paper_fields import index_titles

# 'PSHF' as in the SQLite application id; the advisory lock key serializing migrations.
MIGRATION_LOCK = 0x50534846


MIGRATIONS: list[str | Callable] = [
    # 1: papers, units, manifests, the full-text index, failures, settings
    f"""
    CREATE TABLE papers (
        id TEXT PRIMARY KEY, title TEXT, authors TEXT NOT NULL DEFAULT '[]', year INTEGER, venue TEXT,
        doi TEXT, citekey TEXT, source_path TEXT UNIQUE, source_hash TEXT, source_format TEXT,
        source_size BIGINT, added_at DOUBLE PRECISION NOT NULL, updated_at DOUBLE PRECISION NOT NULL);
    {unit_tables_v1('DOUBLE PRECISION')}
    CREATE TABLE search_docs (
        unit_id TEXT PRIMARY KEY, paper_id TEXT NOT NULL, source TEXT NOT NULL, object_kind TEXT,
        title TEXT NOT NULL DEFAULT '', heading TEXT NOT NULL DEFAULT '', body TEXT NOT NULL DEFAULT '',
        tsv TSVECTOR NOT NULL);
    CREATE INDEX search_docs_paper ON search_docs(paper_id);
    CREATE INDEX search_docs_tsv ON search_docs USING gin(tsv);
    CREATE TABLE ingest_failures (source_path TEXT PRIMARY KEY, source_hash TEXT, reason TEXT NOT NULL,
        failed_at DOUBLE PRECISION NOT NULL);
    CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    """,
    # 2: embedding spaces, vectors (unit rows + window rows), build state, failures, builders, claims
    """
    CREATE EXTENSION IF NOT EXISTS vector;
    CREATE TABLE spaces (
        id SERIAL PRIMARY KEY, fingerprint TEXT NOT NULL UNIQUE, provider TEXT NOT NULL, model TEXT NOT NULL,
        dimension INTEGER NOT NULL, text_format TEXT NOT NULL, policy_version INTEGER NOT NULL,
        options TEXT NOT NULL DEFAULT '{}', created_at DOUBLE PRECISION NOT NULL,
        completed_at DOUBLE PRECISION, generation BIGINT NOT NULL DEFAULT 0,
        hnsw BOOLEAN NOT NULL DEFAULT false);
    CREATE TABLE vectors (
        space_id INTEGER NOT NULL REFERENCES spaces(id) ON DELETE CASCADE, collection TEXT NOT NULL,
        unit_id TEXT NOT NULL, paper_id TEXT NOT NULL, unit_kind TEXT NOT NULL, section_path TEXT,
        object_kind TEXT, object_label TEXT, unit_hash TEXT NOT NULL, kind_hash TEXT NOT NULL,
        policy_version INTEGER NOT NULL, token_estimate INTEGER NOT NULL, windows INTEGER NOT NULL,
        PRIMARY KEY (space_id, unit_id));
    CREATE INDEX vectors_paper ON vectors(space_id, paper_id, collection);
    CREATE TABLE vector_windows (
        space_id INTEGER NOT NULL, unit_id TEXT NOT NULL, window_no INTEGER NOT NULL,
        paper_id TEXT NOT NULL, source TEXT NOT NULL, object_kind TEXT, embedding vector NOT NULL,
        PRIMARY KEY (space_id, unit_id, window_no),
        FOREIGN KEY (space_id, unit_id) REFERENCES vectors(space_id, unit_id) ON DELETE CASCADE);
    CREATE INDEX vector_windows_paper ON vector_windows(space_id, paper_id);
    CREATE TABLE embed_state (
        space_id INTEGER NOT NULL REFERENCES spaces(id) ON DELETE CASCADE, paper_id TEXT NOT NULL,
        body_hash TEXT NOT NULL, objects_hash TEXT NOT NULL, fulltext_hash TEXT NOT NULL,
        body_expected INTEGER NOT NULL, objects_expected INTEGER NOT NULL, fulltext_expected INTEGER NOT NULL,
        embedded_at DOUBLE PRECISION NOT NULL, PRIMARY KEY (space_id, paper_id));
    CREATE TABLE embed_failures (
        space_id INTEGER NOT NULL REFERENCES spaces(id) ON DELETE CASCADE, paper_id TEXT NOT NULL,
        reason TEXT NOT NULL, failed_at DOUBLE PRECISION NOT NULL, PRIMARY KEY (space_id, paper_id));
    -- Builders running now (several may): who, where, since when.
    CREATE TABLE build_lock (
        token TEXT PRIMARY KEY, name TEXT NOT NULL, pid INTEGER NOT NULL, host TEXT NOT NULL,
        started_at DOUBLE PRECISION NOT NULL);
    -- A paper a builder is encoding: nobody else takes it until the lease runs out.
    CREATE TABLE embed_claims (
        space_id INTEGER NOT NULL, paper_id TEXT NOT NULL, token TEXT NOT NULL, pid INTEGER NOT NULL,
        host TEXT NOT NULL, expires_at DOUBLE PRECISION NOT NULL, PRIMARY KEY (space_id, paper_id));
    """,
    # 3: tags and collections ("Parent/Child" paths) from a reference manager, the Zotero attachment,
    # and metadata once applied to a file (as SQLite's m003_paper_labels)
    """
    CREATE TABLE paper_tags (
        paper_id TEXT NOT NULL REFERENCES papers(id) ON DELETE CASCADE, tag TEXT NOT NULL,
        PRIMARY KEY (paper_id, tag));
    CREATE INDEX paper_tags_tag ON paper_tags(lower(tag));
    CREATE TABLE paper_collections (
        paper_id TEXT NOT NULL REFERENCES papers(id) ON DELETE CASCADE, path TEXT NOT NULL,
        PRIMARY KEY (paper_id, path));
    CREATE TABLE paper_zotero (
        paper_id TEXT PRIMARY KEY REFERENCES papers(id) ON DELETE CASCADE, attachment_key TEXT NOT NULL);
    CREATE TABLE source_metadata (source_path TEXT PRIMARY KEY, meta TEXT NOT NULL);
    """,
]


def _m004_paper_sources(db) -> None:
    """Every file a paper comes from (one paper per work), as SQLite's m004_paper_sources; existing
    papers get their one source row, keyed by what the paper record holds."""

    db.execute("""
    CREATE TABLE paper_sources (
        source_path TEXT PRIMARY KEY, paper_id TEXT NOT NULL REFERENCES papers(id) ON DELETE CASCADE,
        source_format TEXT, source_hash TEXT, source_size BIGINT, source_mtime DOUBLE PRECISION,
        priority INTEGER NOT NULL DEFAULT 0, doi TEXT, arxiv_id TEXT, title_key TEXT, year INTEGER,
        added_at DOUBLE PRECISION NOT NULL);
    CREATE INDEX paper_sources_paper ON paper_sources(paper_id);
    CREATE INDEX paper_sources_doi ON paper_sources(doi);
    CREATE INDEX paper_sources_arxiv ON paper_sources(arxiv_id);
    CREATE INDEX paper_sources_title ON paper_sources(title_key);
    """ + SOURCES_BACKFILL_SQL)
    rows = db.execute("SELECT source_path, title, authors FROM papers WHERE source_path IS NOT NULL").fetchall()
    keys = title_keys((r["source_path"], r["title"], r["authors"]) for r in rows)
    if keys:
        with db.cursor() as cur:
            cur.executemany("UPDATE paper_sources SET title_key=%s WHERE source_path=%s", keys)


MIGRATIONS.append(_m004_paper_sources)


# 5: each paper's reference list (as SQLite's m005_paper_references; links are read, not stored)
MIGRATIONS.append("""
    CREATE TABLE IF NOT EXISTS paper_references (
        paper_id TEXT NOT NULL REFERENCES papers(id) ON DELETE CASCADE, n INTEGER NOT NULL, text TEXT NOT NULL,
        authors TEXT NOT NULL DEFAULT '[]', year INTEGER, title TEXT, venue TEXT, doi TEXT, arxiv_id TEXT,
        title_key TEXT, PRIMARY KEY (paper_id, n));
    CREATE INDEX IF NOT EXISTS paper_references_doi ON paper_references(doi);
    CREATE INDEX IF NOT EXISTS paper_references_arxiv ON paper_references(arxiv_id);
    CREATE INDEX IF NOT EXISTS paper_references_title ON paper_references(title_key);
""")


# 6: where a PDF figure or table sits on its page (JSON text: page, bbox, caption_bbox in PDF points)
MIGRATIONS.append("ALTER TABLE object_units ADD COLUMN IF NOT EXISTS region TEXT;")


# 7: Chinese, Japanese and Korean index rows as character bigrams
def _m007_cjk_bigrams(db) -> None:
    """Index rows holding Chinese, Japanese or Korean text re-written as `index_text` reads them
    (CJK runs as character bigrams, issue 26), their tsvector recomputed; other rows are unchanged."""
    from ...index_text import has_cjk, index_text

    rows = [r for r in db.execute("SELECT unit_id, title, heading, body FROM search_docs").fetchall()
            if has_cjk(r["title"] + r["heading"] + r["body"])]
    tsv = ("setweight(to_tsvector('english', %s), 'A') || setweight(to_tsvector('english', %s), 'B') || "
           "setweight(to_tsvector('english', %s), 'C')")
    if db.execute("SELECT 1 FROM pg_ts_config WHERE cfgname = 'papershelf_fts5'").fetchone():
        from .papers import TSV_SQL as tsv  # a library past migration 12: its tokenization
    with db.cursor() as cur:
        for r in rows:
            new = (index_text(r["title"]), index_text(r["heading"]), index_text(r["body"]))
            cur.execute(f"UPDATE search_docs SET title=%s, heading=%s, body=%s, tsv={tsv} WHERE unit_id=%s",
                        (*new, *new, r["unit_id"]))
    if rows and db.execute("SELECT to_regclass('bm25_reference') IS NOT NULL AS ok").fetchone()["ok"]:
        from . import bm25  # statistics kept from the old rows (a library past migration 11) are recounted

        bm25.rebuild(db)


MIGRATIONS.append(_m007_cjk_bigrams)


# 8: which OCR engine read a unit's pages (NULL: the file's own text), as SQLite's m008_unit_ocr_engine
MIGRATIONS.append("""
    ALTER TABLE body_units ADD COLUMN IF NOT EXISTS ocr_engine TEXT;
    ALTER TABLE object_units ADD COLUMN IF NOT EXISTS ocr_engine TEXT;
    ALTER TABLE fulltext_chunks ADD COLUMN IF NOT EXISTS ocr_engine TEXT;
""")


# 9: authors, venue and year in the title field
def _m009_metadata_search_field(db) -> None:
    """Authors, venue and year join the title in every unit's title field (weight A of the
    tsvector), as SQLite's m009_metadata_search_field; the tsvectors are recomputed from the rows."""
    from ...index_text import index_text

    tsv_sql = " || ".join(f"setweight(to_tsvector('english', %s), '{w}')" for w in "ABC")  # (as it was then)

    rows = db.execute("SELECT id, title, authors, venue, year FROM papers").fetchall()
    keys = index_titles((r["id"], r["title"], r["authors"], r["venue"], r["year"]) for r in rows)
    if keys:
        with db.cursor() as cur:
            cur.executemany("UPDATE search_docs SET title=%s WHERE paper_id=%s",
                            [(index_text(title), pid) for title, pid in keys])
    db.execute(f"UPDATE search_docs SET tsv = {tsv_sql.replace('%s', '{}').format('title', 'heading', 'body')}")


MIGRATIONS.append(_m009_metadata_search_field)


# 10: BM25 statistics' tables (filled by migration 11, which adds the impacts they rank by)
def _m010_bm25(db) -> None:
    """BM25 statistics kept at write time (postgres/bm25.py); a library migrated before 11 existed
    was filled here and is refilled by 11: the end state is the same either way."""
    from . import bm25

    db.execute(bm25.SCHEMA)


MIGRATIONS.append(_m010_bm25)


# 11: each posting's impact at a reference unit length, postings indexed per term by impact
def _m011_bm25_impacts(db) -> None:
    """Impact-ordered postings (bm25.IMPACTS_SCHEMA) for the threshold top-k (topk.py); the
    statistics are recounted from the index rows, impacts included (idempotent)."""
    from . import bm25

    db.execute(bm25.IMPACTS_SCHEMA)
    bm25.rebuild(db)
    db.execute("ALTER TABLE bm25_postings ALTER COLUMN impact SET NOT NULL")


MIGRATIONS.append(_m011_bm25_impacts)


# 12: FTS5's tokenization (tsquery.CONFIG): words split at punctuation, no stopwords, Porter stems
def _m012_fts5_tokens(db) -> None:
    """The index rows' tsvectors recomputed with FTS5's tokenization, and the BM25 statistics
    recounted from them (the same lexemes and lengths SQLite's FTS5 counts)."""
    from . import bm25
    from .papers import TSV_SQL
    from .tsquery import CONFIG_SCHEMA

    db.execute(CONFIG_SCHEMA)
    db.execute(f"UPDATE search_docs SET tsv = {TSV_SQL.replace('%s', '{}').format('title', 'heading', 'body')}")
    bm25.rebuild(db)


MIGRATIONS.append(_m012_fts5_tokens)


# 13: diacritics folded as unicode61 folds them (tsquery.words_sql)
def _m013_fold_diacritics(db) -> None:
    """The tsvectors recomputed with Latin diacritics folded ("naïve" -> naive), and the BM25
    statistics recounted from them; a library with no accented text ends as it was."""
    from . import bm25
    from .papers import TSV_SQL

    db.execute(f"UPDATE search_docs SET tsv = {TSV_SQL.replace('%s', '{}').format('title', 'heading', 'body')}")
    bm25.rebuild(db)


MIGRATIONS.append(_m013_fold_diacritics)


# 14: each unit's postings in one forward row, which ranking looks up (forward.py)
def _m014_bm25_forward(db) -> None:
    """The forward rows, derived from the kept postings, and the postings' primary key without
    the frequencies it carried for those lookups (idempotent: the rows are derived again)."""
    from . import bm25, forward

    db.execute(forward.SCHEMA)
    db.execute("TRUNCATE bm25_forward")
    forward.fill(db, "true")
    db.execute("ALTER TABLE bm25_postings DROP CONSTRAINT IF EXISTS bm25_postings_pkey")
    db.execute(bm25.PRIMARY)


MIGRATIONS.append(_m014_bm25_forward)


# 15: a unit's tsvector kept in its row, its text moved out first (TOAST)
def _m015_tsv_in_row(db) -> None:
    """The tsvector stored in the row (STORAGE MAIN: compressed, moved out of line only if the row
    cannot fit a page), so that the evidence checks, phrase counts and NEAR tests, which read
    100-1,000 units' tsvectors by key, read one page a unit instead of the row and its TOAST
    chunks; the text, read only for the few snippets shown, is moved out instead.  The table is
    rewritten (CLUSTER, in unit order) so existing rows take the new layout."""
    db.execute("ALTER TABLE search_docs ALTER COLUMN tsv SET STORAGE MAIN")
    db.execute("CLUSTER search_docs USING search_docs_pkey")
    db.execute("ANALYZE search_docs")


MIGRATIONS.append(_m015_tsv_in_row)


# 16: the postings vacuumed as the library grows, not once a fifth of it is new
def _m016_postings_vacuum(db) -> None:
    """Autovacuum on `bm25_postings` after 1 % of its rows are new or dead (PostgreSQL's default:
    20 %).  Why: the top-k reads each term's postings by an index-only scan, which skips the table
    only for pages the visibility map marks all-visible, and only VACUUM marks them.  At a million
    units a fifth is 25 M postings, some 20,000 papers, so papers added or replaced since stayed
    unmarked: after 975 papers were replaced, a claim finding them made 4,447 table lookups beside
    its 21,800 postings read, and 522 after a VACUUM (BENCHMARKS.md).  A vacuum of only the new
    pages is cheap (6 s for those 975 papers' 43,000 pages at 1 M)."""
    db.execute(f"ALTER TABLE bm25_postings SET ({POSTINGS_VACUUM})")


POSTINGS_VACUUM = "autovacuum_vacuum_insert_scale_factor = 0.01, autovacuum_vacuum_scale_factor = 0.01"
MIGRATIONS.append(_m016_postings_vacuum)


# 17: title keys with accents folded, not dropped, as SQLite's m010_title_keys_folded
def _m017_title_keys_folded(db) -> None:
    """Title keys of sources and reference rows holding letters beyond ASCII written again with
    normalized_title's folding ("Müller" -> "muller", was "mller")."""
    sources = db.execute("SELECT s.source_path, p.title, p.authors FROM paper_sources s "
                         "JOIN papers p ON p.id = s.paper_id").fetchall()
    references = db.execute("SELECT paper_id, n, title, authors FROM paper_references").fetchall()
    source_keys, reference_keys = refolded_keys(
        [(r["source_path"], r["title"], r["authors"]) for r in sources],
        [(r["paper_id"], r["n"], r["title"], r["authors"]) for r in references])
    _write_title_keys(db, source_keys, reference_keys)


MIGRATIONS.append(_m017_title_keys_folded)


def _write_title_keys(db, source_keys: list, reference_keys: list) -> None:
    """Store title keys worked out again: (key, source_path) for sources, (key, paper_id, n) for references."""
    with db.cursor() as cur:
        if source_keys:
            cur.executemany("UPDATE paper_sources SET title_key=%s WHERE source_path=%s", source_keys)
        if reference_keys:
            cur.executemany("UPDATE paper_references SET title_key=%s WHERE paper_id=%s AND n=%s", reference_keys)


# 18: title-only keys for a long title with no author, as SQLite's m011_title_only_keys
def _m018_title_only_keys(db) -> None:
    """Title-only keys ("title|") for the sources and reference rows with a long title and no author."""
    sources = db.execute("SELECT s.source_path, p.title, p.authors, s.title_key FROM paper_sources s "
                         "JOIN papers p ON p.id = s.paper_id WHERE s.title_key IS NULL").fetchall()
    references = db.execute("SELECT paper_id, n, title, authors, title_key FROM paper_references "
                            "WHERE title_key IS NULL AND title IS NOT NULL").fetchall()
    source_keys, reference_keys = rekeyed(
        [(r["source_path"], r["title"], r["authors"], r["title_key"]) for r in sources],
        [(r["paper_id"], r["n"], r["title"], r["authors"], r["title_key"]) for r in references])
    _write_title_keys(db, source_keys, reference_keys)


MIGRATIONS.append(_m018_title_only_keys)


# 19: title keys for two-word titles with a first author, as SQLite's m013_short_title_keys
def _m019_short_title_keys(db) -> None:
    """Title keys for two-word titles with a first author: the rows with no key keyed again, as 18 did."""
    _m018_title_only_keys(db)


MIGRATIONS.append(_m019_short_title_keys)
