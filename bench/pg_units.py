"""Synthetic lab units written by COPY: the rows one step of a PostgreSQL lab library adds.

Its own module so that pg_lab_scale.py (the steps) and pg_bulk.py (parallel loaders of one step)
both import it without importing each other.
"""

from __future__ import annotations

import random
import re
import time
from typing import Any

import numpy as np

from papershelf import Library
from papershelf.store.postgres.papers import TSV_SQL

PER_PAPER, DIM = 10, 384
SECTIONS = ["Introduction", "Methods", "Results", "Discussion", "Background", "Materials", "Analysis", "Conclusion"]


class Text:
    """Synthetic units from real sentences."""

    def __init__(self, corpus: list[dict], seed: int = 0):
        self.sentences = [s for d in corpus for s in re.split(r"(?<=[.!?])\s+", d.get("text") or "") if len(s) > 30]
        self.titles = [d["title"] for d in corpus if d.get("title")]
        self.rng = random.Random(seed)

    def unit(self) -> str:
        return " ".join(self.rng.choice(self.sentences) for _ in range(self.rng.randint(5, 8)))

    def title(self) -> str:
        return self.rng.choice(self.titles)


def load(lib: Library, space_id: int, text: Text, lo: int, hi: int, x: np.ndarray) -> float:
    """Papers lo//10 .. hi//10 with their units, index rows and vectors, by COPY."""
    t0 = time.perf_counter()
    store: Any = lib.store  # the PostgreSQL store's own transaction(), not the contract's
    with store.transaction() as db, db.cursor() as cur:
        cur.execute("CREATE TEMP TABLE IF NOT EXISTS stage (unit_id text, paper_id text, title text, heading text, "
                    "body text) ON COMMIT DELETE ROWS")
        papers = {p: text.title() for p in range(lo // PER_PAPER, hi // PER_PAPER)}
        units = {i: (text.unit(), SECTIONS[i % len(SECTIONS)]) for i in range(lo, hi)}
        with cur.copy("COPY papers (id, title, year, added_at, updated_at) FROM STDIN") as cp:
            for p, title in papers.items():
                cp.write_row((f"p{p:07d}", title, 1950 + p % 100, 0, 0))
        with cur.copy("COPY manifests FROM STDIN") as cp:
            for p in papers:
                cp.write_row((f"p{p:07d}", PER_PAPER, 0, 0, PER_PAPER, 0, 0, "h", "h", "h", 1, 0))
        with cur.copy("COPY body_units (id, paper_id, ordinal, text, section_path, section_title, section_level, "
                      "token_estimate, content_hash) FROM STDIN") as cp:
            for i, (body, heading) in units.items():
                cp.write_row((f"u{i:08d}", f"p{i // PER_PAPER:07d}", i % PER_PAPER, body, heading, heading, 1,
                              len(body) // 4, "h"))
        with cur.copy("COPY stage FROM STDIN") as cp:
            for i, (body, heading) in units.items():
                cp.write_row((f"u{i:08d}", f"p{i // PER_PAPER:07d}", papers[i // PER_PAPER], heading, body))
        cur.execute("INSERT INTO search_docs(unit_id, paper_id, source, object_kind, title, heading, body, tsv) "
                    "SELECT unit_id, paper_id, 'body_unit', NULL, title, heading, body, "
                    + TSV_SQL.replace("%s", "{}").format("title", "heading", "body") + " FROM stage")
        with cur.copy("COPY vectors FROM STDIN") as cp:
            for i in range(lo, hi):
                cp.write_row((space_id, "body", f"u{i:08d}", f"p{i // PER_PAPER:07d}", "body", None, None, None,
                              "h", "h", 1, 10, 1))
        with cur.copy("COPY vector_windows FROM STDIN WITH (FORMAT BINARY)") as cp:
            cp.set_types(["int4", "text", "int4", "text", "text", "text", "vector"])
            for i in range(lo, hi):
                cp.write_row((space_id, f"u{i:08d}", 0, f"p{i // PER_PAPER:07d}", "body_unit", None, x[i]))
        cur.execute("INSERT INTO embed_state SELECT %s, id, 'h', 'h', 'h', 10, 0, 0, 0 FROM papers "
                    "WHERE id >= %s AND id < %s", (space_id, f"p{lo // PER_PAPER:07d}", f"p{hi // PER_PAPER:07d}"))
    return time.perf_counter() - t0
