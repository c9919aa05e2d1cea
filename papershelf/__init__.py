"""papershelf: a local search engine for a researcher's library of papers."""

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
