"""Lexical, vector and hybrid retrieval over body units, objects and chunks.

    query.py     any user string -> a safe FTS5 expression
    fusion.py    convex / reciprocal-rank fusion and the per-paper cap (pure functions)
    snippets.py  the text a hit shows
    options.py   SearchOptions and their validation
    engine.py    one search: retrieve from the store, fuse, cap, build typed hits
"""

from .engine import run_search
from .options import FUSIONS, MODES, SearchOptions, fusion_of, search_mode

__all__ = ["FUSIONS", "MODES", "SearchOptions", "fusion_of", "run_search", "search_mode"]
