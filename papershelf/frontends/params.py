"""Moved: the request models are papershelf/operations/requests.py (kept importable from here)."""

from ..operations.requests import (  # noqa: F401
    CitationsParams,
    CitingParams,
    PapersParams,
    PassageParams,
    RefsParams,
    SearchParams,
    ShowParams,
    StatusParams,
    Strict,
    build,
    one_line,
    problems,
)
