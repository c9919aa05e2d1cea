"""papershelf: a local search engine for a researcher's library of papers."""

from .errors import PapershelfError
from .library import Library
from .search import SearchOptions
from .store import Filters

__version__ = "0.1.0"
__all__ = ["Library", "SearchOptions", "Filters", "PapershelfError", "__version__"]
