"""papershelf: a local search engine for a researcher's library of papers."""

import os

# Search multiplies matrices by one query vector; OpenBLAS threads cost more than they save there
# (a 10k-paper vector search: 24 ms CPU with its threads, 5 ms without, bench/vector_scale.py), and
# they spin against the ONNX encoder's own threads.  Set before NumPy loads; a user's setting wins.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from .errors import PapershelfError
from .library import Library
from .models import Filters, Hit, SearchResponse
from .search import SearchOptions

__all__ = ["Library", "SearchOptions", "Filters", "Hit", "SearchResponse", "PapershelfError", "__version__"]


def __getattr__(name: str) -> str:
    """`papershelf.__version__`, read from the installed metadata (one source: pyproject.toml) only
    when asked: importlib.metadata costs a cold command ~0.1 s it rarely needs."""
    if name != "__version__":
        raise AttributeError(name)
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("papershelf")
    except PackageNotFoundError:  # a checkout that was never installed
        return "0+unknown"
