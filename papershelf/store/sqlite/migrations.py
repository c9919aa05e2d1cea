"""The library schema as an ordered list of forward migrations.

``PRAGMA user_version`` records how many have been applied.  A file whose
version is higher than this list was written by a newer papershelf and is
refused rather than misread.  Never edit an applied migration: append one.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

from ..common import SOURCES_BACKFILL_SQL, refolded_keys, rekeyed, title_keys, unit_tables_v1
from ..paper_fields import index_titles

# 'PSHF': marks a SQLite file as a papershelf library.
APPLICATION_ID = 0x50534846

MIGRATIONS: list[Callable[[sqlite3.Connection], None]] = []


def run_script(db: sqlite3.Connection, script: str) -> None:
    """Run statements one by one: ``executescript`` would COMMIT the migration's transaction."""
    statement = ""
    for line in script.splitlines(keepends=True):
        statement += line
        if sqlite3.complete_statement(statement):
            db.execute(statement)
            statement = ""
    if statement.strip():
        db.execute(statement)


def migration(fn: Callable[[sqlite3.Connection], None]):
    MIGRATIONS.append(fn)
    return fn


@migration
def m001_papers_units_fts(db: sqlite3.Connection) -> None:
    run_script(db,
        f"""
        CREATE TABLE papers (
            id TEXT PRIMARY KEY,
            title TEXT,
            authors TEXT NOT NULL DEFAULT '[]',
            year INTEGER,
            venue TEXT,
            doi TEXT,
            citekey TEXT,
            source_path TEXT,
            source_hash TEXT,
            source_format TEXT,
            source_size INTEGER,
            added_at REAL NOT NULL,
            updated_at REAL NOT NULL
        );
        CREATE UNIQUE INDEX papers_source ON papers(source_path);
        {unit_tables_v1('REAL')}
        -- Lexical index: one row per indexable unit; FTS5 reads its text from here.
        CREATE TABLE search_docs (
            rowid INTEGER PRIMARY KEY,
            unit_id TEXT NOT NULL UNIQUE,
            paper_id TEXT NOT NULL,
            source TEXT NOT NULL,
            object_kind TEXT,
            title TEXT NOT NULL DEFAULT '',
            heading TEXT NOT NULL DEFAULT '',
            body TEXT NOT NULL DEFAULT ''
        );
        CREATE INDEX search_docs_paper ON search_docs(paper_id);
        CREATE VIRTUAL TABLE search_fts USING fts5(
            title, heading, body,
            content='search_docs', content_rowid='rowid',
            tokenize='porter unicode61 remove_diacritics 2'
        );
        CREATE TABLE ingest_failures (
            source_path TEXT PRIMARY KEY,
            source_hash TEXT,
            reason TEXT NOT NULL,
            failed_at REAL NOT NULL
        );
        CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        """
    )


@migration
def m002_embedding_spaces(db: sqlite3.Connection) -> None:
    run_script(db,
        """
        CREATE TABLE spaces (
            id INTEGER PRIMARY KEY,
            fingerprint TEXT NOT NULL UNIQUE,
            provider TEXT NOT NULL,
            model TEXT NOT NULL,
            dimension INTEGER NOT NULL,
            text_format TEXT NOT NULL,
            policy_version INTEGER NOT NULL,
            options TEXT NOT NULL DEFAULT '{}',
            created_at REAL NOT NULL,
            completed_at REAL,
            generation INTEGER NOT NULL DEFAULT 0
        );
        CREATE TABLE vectors (
            rowid INTEGER PRIMARY KEY,
            space_id INTEGER NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,
            collection TEXT NOT NULL,
            unit_id TEXT NOT NULL,
            paper_id TEXT NOT NULL,
            unit_kind TEXT NOT NULL,
            section_path TEXT,
            object_kind TEXT,
            object_label TEXT,
            unit_hash TEXT NOT NULL,
            kind_hash TEXT NOT NULL,
            policy_version INTEGER NOT NULL,
            token_estimate INTEGER NOT NULL,
            vector BLOB NOT NULL
        );
        CREATE UNIQUE INDEX vectors_unit ON vectors(space_id, unit_id);
        CREATE INDEX vectors_paper ON vectors(space_id, paper_id, collection);
        CREATE INDEX vectors_collection ON vectors(space_id, collection);
        -- What each paper's vectors in a space were built from: the pending predicate's other half.
        CREATE TABLE embed_state (
            space_id INTEGER NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,
            paper_id TEXT NOT NULL,
            body_hash TEXT NOT NULL, objects_hash TEXT NOT NULL, fulltext_hash TEXT NOT NULL,
            body_expected INTEGER NOT NULL, objects_expected INTEGER NOT NULL, fulltext_expected INTEGER NOT NULL,
            embedded_at REAL NOT NULL,
            PRIMARY KEY (space_id, paper_id)
        );
        CREATE TABLE embed_failures (
            space_id INTEGER NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,
            paper_id TEXT NOT NULL,
            reason TEXT NOT NULL,
            failed_at REAL NOT NULL,
            PRIMARY KEY (space_id, paper_id)
        );
        CREATE TABLE build_lock (
            name TEXT PRIMARY KEY,
            pid INTEGER NOT NULL,
            host TEXT NOT NULL,
            started_at REAL NOT NULL
        );
        """
    )


@migration
def m003_paper_labels(db: sqlite3.Connection) -> None:
    """Tags and collections (full "Parent/Child" paths) a reference manager gives a paper, and
    the Zotero attachment its file is, for search filters and zotero://open-pdf links."""
    run_script(db,
        """
        CREATE TABLE paper_tags (
            paper_id TEXT NOT NULL REFERENCES papers(id) ON DELETE CASCADE,
            tag TEXT NOT NULL,
            PRIMARY KEY (paper_id, tag)
        );
        CREATE INDEX paper_tags_tag ON paper_tags(tag COLLATE NOCASE);
        CREATE TABLE paper_collections (
            paper_id TEXT NOT NULL REFERENCES papers(id) ON DELETE CASCADE,
            path TEXT NOT NULL,
            PRIMARY KEY (paper_id, path)
        );
        CREATE TABLE paper_zotero (
            paper_id TEXT PRIMARY KEY REFERENCES papers(id) ON DELETE CASCADE,
            attachment_key TEXT NOT NULL
        );
        -- Bibliographic metadata once applied to a file (a .bib added later, a Zotero item):
        -- re-adding the file alone keeps it instead of falling back to what the parser saw.
        CREATE TABLE source_metadata (
            source_path TEXT PRIMARY KEY,
            meta TEXT NOT NULL
        );
        """
    )


@migration
def m004_paper_sources(db: sqlite3.Connection) -> None:
    """Every file a paper comes from (one paper per work): the best one provides the units
    (`papers.source_path`), the others wait here to take over when it goes.  Match keys (DOI,
    arXiv id, normalized title + first author's surname, year) find the work a new file belongs to.
    Existing papers get their one source row, keyed by what the paper record holds."""
    run_script(db,
        """
        CREATE TABLE paper_sources (
            source_path TEXT PRIMARY KEY,
            paper_id TEXT NOT NULL REFERENCES papers(id) ON DELETE CASCADE,
            source_format TEXT,
            source_hash TEXT,
            source_size INTEGER,
            source_mtime REAL,
            priority INTEGER NOT NULL DEFAULT 0,
            doi TEXT,
            arxiv_id TEXT,
            title_key TEXT,
            year INTEGER,
            added_at REAL NOT NULL
        );
        CREATE INDEX paper_sources_paper ON paper_sources(paper_id);
        CREATE INDEX paper_sources_doi ON paper_sources(doi);
        CREATE INDEX paper_sources_arxiv ON paper_sources(arxiv_id);
        CREATE INDEX paper_sources_title ON paper_sources(title_key);
        """ + SOURCES_BACKFILL_SQL
    )
    rows = db.execute("SELECT source_path, title, authors FROM papers WHERE source_path IS NOT NULL").fetchall()
    db.executemany("UPDATE paper_sources SET title_key=? WHERE source_path=?", title_keys(rows))


REFERENCES_DDL = """
    CREATE TABLE IF NOT EXISTS paper_references (
        paper_id TEXT NOT NULL REFERENCES papers(id) ON DELETE CASCADE,
        n INTEGER NOT NULL,
        text TEXT NOT NULL,
        authors TEXT NOT NULL DEFAULT '[]',
        year INTEGER,
        title TEXT,
        venue TEXT,
        doi TEXT,
        arxiv_id TEXT,
        title_key TEXT,
        PRIMARY KEY (paper_id, n)
    );
    CREATE INDEX IF NOT EXISTS paper_references_doi ON paper_references(doi);
    CREATE INDEX IF NOT EXISTS paper_references_arxiv ON paper_references(arxiv_id);
    CREATE INDEX IF NOT EXISTS paper_references_title ON paper_references(title_key);
"""


@migration
def m005_paper_references(db: sqlite3.Connection) -> None:
    """Each paper's reference list (issue 25), written with the paper's units in its transaction and
    never indexed as text.  Links to library papers are not stored: they are found from the match keys
    (DOI, arXiv id, title key) against `paper_sources` whenever they are read, so a paper added or
    removed later changes them with nothing to update.  Papers added before hold no list until their
    file is read again (it changed, or it is removed and added)."""
    run_script(db, REFERENCES_DDL)


@migration
def m006_object_regions(db: sqlite3.Connection) -> None:
    """Where a PDF figure or table sits on its page (JSON: page, bbox, caption_bbox in PDF points),
    for crops of the object itself; NULL for other sources and for papers parsed before it."""
    if "region" not in {row[1] for row in db.execute("PRAGMA table_info(object_units)")}:
        run_script(db, "ALTER TABLE object_units ADD COLUMN region TEXT;")


@migration
def m007_cjk_bigrams(db: sqlite3.Connection) -> None:
    """Index rows holding Chinese, Japanese or Korean text re-written as `index_text` reads them
    (CJK runs as character bigrams, issue 26); every other row is already in that form."""
    from ...index_text import has_cjk, index_text

    rows = [r for r in db.execute("SELECT rowid, title, heading, body FROM search_docs").fetchall()
            if has_cjk(r[1] + r[2] + r[3])]
    for rowid, title, heading, body in rows:
        db.execute("INSERT INTO search_fts(search_fts, rowid, title, heading, body) VALUES ('delete', ?, ?, ?, ?)",
                   (rowid, title, heading, body))
        new = (index_text(title), index_text(heading), index_text(body))
        db.execute("UPDATE search_docs SET title=?, heading=?, body=? WHERE rowid=?", (*new, rowid))
        db.execute("INSERT INTO search_fts(rowid, title, heading, body) VALUES (?, ?, ?, ?)", (rowid, *new))


@migration
def m008_unit_ocr_engine(db: sqlite3.Connection) -> None:
    """Which OCR engine read a unit's pages (NULL: the file's own text), per unit table (issue 26)."""
    for table in ("body_units", "object_units", "fulltext_chunks"):
        if "ocr_engine" not in {row[1] for row in db.execute(f"PRAGMA table_info({table})")}:
            db.execute(f"ALTER TABLE {table} ADD COLUMN ocr_engine TEXT")


@migration
def m009_metadata_search_field(db: sqlite3.Connection) -> None:
    """Authors, venue and year join the title in every unit's title field of the lexical index
    (store/paper_fields.py), so a co-author's name finds each of their papers; FTS5 is rebuilt from
    the rewritten rows (with whatever tokenizer the index has by then)."""
    from ...index_text import index_text

    rows = db.execute("SELECT id, title, authors, venue, year FROM papers").fetchall()
    db.executemany("UPDATE search_docs SET title=? WHERE paper_id=?",
                   [(index_text(title), pid) for title, pid in index_titles(rows)])
    db.execute("INSERT INTO search_fts(search_fts) VALUES ('rebuild')")


@migration
def m010_title_keys_folded(db: sqlite3.Connection) -> None:
    """Title keys with accents folded, not dropped (normalized_title: "Müller" -> "muller", was
    "mller"), so a reference printed in plain letters links the paper typed with accents; the keys
    of sources and reference rows holding letters beyond ASCII are written again (a source from its
    paper's title and authors, as migration 4 wrote them)."""
    sources = db.execute("SELECT s.source_path, p.title, p.authors FROM paper_sources s "
                         "JOIN papers p ON p.id = s.paper_id").fetchall()
    references = db.execute("SELECT paper_id, n, title, authors FROM paper_references").fetchall()
    source_keys, reference_keys = refolded_keys(sources, references)
    db.executemany("UPDATE paper_sources SET title_key=? WHERE source_path=?", source_keys)
    db.executemany("UPDATE paper_references SET title_key=? WHERE paper_id=? AND n=?", reference_keys)


@migration
def m011_title_only_keys(db: sqlite3.Connection) -> None:
    """Title-only keys ("title|") for the sources and reference rows with a long title and no author
    (a tech report's front page), so a citation links them without re-adding (works.title_key); a
    source's key from its paper's title and authors, as migration 4 wrote them.  Only rows with no
    author can change: a key with an author is the same as before."""
    sources = db.execute("SELECT s.source_path, p.title, p.authors, s.title_key FROM paper_sources s "
                         "JOIN papers p ON p.id = s.paper_id WHERE s.title_key IS NULL").fetchall()
    references = db.execute("SELECT paper_id, n, title, authors, title_key FROM paper_references "
                            "WHERE title_key IS NULL AND title IS NOT NULL").fetchall()
    source_keys, reference_keys = rekeyed(sources, references)
    db.executemany("UPDATE paper_sources SET title_key=? WHERE source_path=?", source_keys)
    db.executemany("UPDATE paper_references SET title_key=? WHERE paper_id=? AND n=?", reference_keys)


@migration
def m012_lexical_generation(db: sqlite3.Connection) -> None:
    """A generation of the lexical index, moved by SQLite itself (triggers) in the transaction of any
    change to `search_docs`, from which FTS5 reads every row: the derived postings file
    (postings_files.py) is named by it and never used once it has moved on."""
    run_script(db, """
        CREATE TABLE IF NOT EXISTS lexical_state (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            generation INTEGER NOT NULL
        );
        INSERT OR IGNORE INTO lexical_state(id, generation) VALUES (1, 0);
        CREATE TRIGGER IF NOT EXISTS search_docs_insert_generation AFTER INSERT ON search_docs
            BEGIN UPDATE lexical_state SET generation = generation + 1; END;
        CREATE TRIGGER IF NOT EXISTS search_docs_delete_generation AFTER DELETE ON search_docs
            BEGIN UPDATE lexical_state SET generation = generation + 1; END;
        CREATE TRIGGER IF NOT EXISTS search_docs_update_generation AFTER UPDATE ON search_docs
            BEGIN UPDATE lexical_state SET generation = generation + 1; END;
    """)


@migration
def m013_short_title_keys(db: sqlite3.Connection) -> None:
    """Title keys for two-word titles with a first author (works.SHORT_TITLE_WORDS: "NTRU Prime" cited by
    its author and year links the paper), so a library from before links them without re-adding: the
    rows with no key are keyed again, as migration 11 keyed them."""
    m011_title_only_keys(db)
