"""What a search asks for, checked once before anything runs."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from ..errors import BadArgument
from ..models import Filters

MODES = ("lexical", "vector", "hybrid")
FUSIONS = ("convex", "rrf")


@dataclass
class SearchOptions:
    mode: str = "hybrid"
    limit: int = 10
    per_paper: int = 2
    filters: Filters = field(default_factory=Filters)
    # How hybrid mode fuses the lists: "convex" (weighted sum of min-max normalized
    # scores) or "rrf" (weighted reciprocal rank, constant rrf_k).  See BENCHMARKS.md.
    fusion: str = "convex"
    rrf_k: float = 60.0
    lexical_weight: float = 1.0
    vector_weight: float = 1.0
    # BM25 weights of the (title, heading, body) columns.
    field_weights: tuple[float, float, float] = (1.0, 1.0, 1.0)
    depth: int = 100  # candidates taken from each list before fusion
    explain: bool = False
    snippets: bool = True  # off for evaluation runs that only need the ranking

    def validate(self) -> None:
        """BadArgument (exit code 2, HTTP 400) for options no search can honour."""
        if self.mode not in MODES:
            raise BadArgument(f"mode must be one of {', '.join(MODES)}, not {self.mode!r}")
        if self.fusion not in FUSIONS:
            raise BadArgument(f"fusion must be one of {', '.join(FUSIONS)}, not {self.fusion!r}")
        for name in ("limit", "per_paper", "depth"):
            if not 1 <= getattr(self, name) <= 10_000:
                raise BadArgument(f"{name} must be between 1 and 10000, not {getattr(self, name)}")
        for name in ("rrf_k", "lexical_weight", "vector_weight"):
            value = getattr(self, name)
            if not math.isfinite(value) or value < 0:
                raise BadArgument(f"{name.replace('_', '-')} must be a finite number ≥ 0, not {value}")
        if self.rrf_k == 0 and self.fusion == "rrf":
            raise BadArgument("rrf-k must be greater than 0")
        if not all(math.isfinite(w) and w >= 0 for w in self.field_weights):
            raise BadArgument("field weights must be finite numbers ≥ 0")
        self.filters.validate()
