"""papershelf: a local search engine for a researcher's library of papers."""

from importlib.metadata import PackageNotFoundError, version

from .errors import PapershelfError
from .library import Library
from .models import Filters, Hit, SearchResponse
from .search import SearchOptions

try:
    __version__ = version("papershelf")  # one source: pyproject.toml
except PackageNotFoundError:  # running from a checkout that was never installed
    __version__ = "0+unknown"

__all__ = ["Library", "SearchOptions", "Filters", "Hit", "SearchResponse", "PapershelfError", "__version__"]
