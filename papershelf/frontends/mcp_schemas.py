"""JSON schemas of the MCP tools' structured content (`outputSchema`), so an agent knows the
shape of what comes back before calling, and a client can check it.

They describe the shapes of the CLI's ``--json`` (the models' `to_dict()`): the fields
every answer has, typed, with room for the optional ones (``explain``, ``neighbours``).
`tests/test_mcp.py` validates real answers against them.
"""

from __future__ import annotations

from typing import Any

from ..models import HIT_FIELDS

STR = {"type": "string"}
OPT_STR = {"type": ["string", "null"]}
INT = {"type": "integer"}
OPT_INT = {"type": ["integer", "null"]}
STRS = {"type": "array", "items": STR}


def _object(properties: dict[str, Any], required: list[str] | None = None) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": required or list(properties)}


HIT = _object({"rank": INT, "score": {"type": ["number", "null"]}, "relevance": {"type": ["number", "null"]},
               "source": STR, "paper_id": STR, "title": OPT_STR, "authors": STRS, "year": OPT_INT, "unit_id": STR,
               "section_path": OPT_STR, "pages": OPT_STR, "object_kind": OPT_STR, "object_label": OPT_STR,
               "caption": OPT_STR, "snippet": OPT_STR, "tags": STRS, "collections": STRS, "zotero_link": OPT_STR,
               "explain": {"type": "object"}, "rerank_score": {"type": ["number", "null"]}},
              list(HIT_FIELDS))

SEARCH = _object({"query": STR, "mode": STR, "results": {"type": "array", "items": HIT},
                  "no_confident_match": {"type": "boolean"}, "notices": STRS, "timings_ms": {"type": "object"}})

SHOW = _object({"type": {"enum": ["paper", "unit"]}, "id": STR, "title": OPT_STR, "sections": {"type": "array"},
                "objects": {"type": "array"}, "text": OPT_STR, "section_path": OPT_STR,
                "paper": {"type": ["object", "null"]}, "neighbours": {"type": "array"}}, ["type", "id"])

PASSAGE = _object({"paper_id": STR, "title": OPT_STR, "text": STR, "sections": STRS, "pages": OPT_STR,
                   "next_cursor": OPT_STR, "units": INT})

PAPER = _object({"id": STR, "title": OPT_STR, "authors": STRS, "year": OPT_INT, "doi": OPT_STR,
                 "citekey": OPT_STR, "tags": STRS, "collections": STRS, "units": {"type": "object"}},
                ["id", "title", "authors", "year", "units"])

PAPERS = _object({"papers": {"type": "array", "items": PAPER}, "total": INT})

STATUS = _object({"library": STR, "papers": INT, "units": {"type": "object"},
                  "embedding": {"type": ["object", "null"]}, "schema_version": INT},
                 ["library", "papers", "units", "embedding"])

# `refs --json` ({"paper_id", "references": [...]}, with "bibtex" when asked) or `cited-by --json`
# ({"paper_id", "cited_by": [...]}): one of the two lists is present.
CITATIONS = _object({"paper_id": STR, "references": {"type": "array"}, "cited_by": {"type": "array"},
                     "bibtex": STR}, ["paper_id"])
