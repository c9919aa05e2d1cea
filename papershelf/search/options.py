"""What a search asks for, checked once before anything runs."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from ..errors import BadArgument
from ..models import FUSIONS, SEARCH_MODES, Filters, Fusion, SearchMode

MODES = SEARCH_MODES


def search_mode(value: str) -> SearchMode:
    """A mode named by a user (a command-line word), checked."""
    for mode in SEARCH_MODES:
        if value == mode:
            return mode
    raise BadArgument(f"mode must be one of {', '.join(MODES)}, not {value!r}")


def fusion_of(value: str) -> Fusion:
    """A fusion named by a user, checked."""
    for fusion in FUSIONS:
        if value == fusion:
            return fusion
    raise BadArgument(f"fusion must be one of {', '.join(FUSIONS)}, not {value!r}")


@dataclass
class SearchOptions:
    mode: SearchMode = "hybrid"
    limit: int = 10
    per_paper: int = 2
    filters: Filters = field(default_factory=Filters)
    # How hybrid mode fuses the lists: "convex" (weighted sum of min-max normalized
    # scores) or "rrf" (weighted reciprocal rank, constant rrf_k).  See BENCHMARKS.md.
    fusion: Fusion = "convex"
    rrf_k: float = 60.0
    lexical_weight: float = 1.0
    vector_weight: float = 1.0
    # BM25 weights of the (title, heading, body) columns.
    field_weights: tuple[float, float, float] = (1.0, 1.0, 1.0)
    depth: int = 100  # candidates taken from each list before fusion
    # Figures and tables: counted apart from text hits in the per-paper cap (None: they share
    # it, the rule before #10), and lifted this share of the way up to their paper's best
    # score (fusion.lift_objects).
    objects_per_paper: int | None = 3
    object_lift: float = 0.5
    # A unit holding the whole query as a phrase gains this x the list's best BM25 (half for NEAR).
    phrase_boost: float = 1.0
    # Optional reranking of the first `rerank_top` fused hits by a server the user runs (rerank.py).
    rerank_url: str | None = None
    rerank_top: int = 20
    rerank_timeout: float = 10.0
    explain: bool = False
    snippets: bool = True  # off for evaluation runs that only need the ranking

    def validate(self) -> SearchOptions:
        """Refuse options no search can honour (BadArgument: exit code 2, HTTP 400), so a bad number
        never becomes an overflow, a division by zero, or NaN/Infinity in the JSON output.  Messages
        name the parameter (as the request schema in frontends/params.py does), not a CLI flag."""
        if self.mode not in MODES:
            raise BadArgument(f"mode must be one of {', '.join(MODES)}, not {self.mode!r}")
        if self.fusion not in FUSIONS:
            raise BadArgument(f"fusion must be one of {', '.join(FUSIONS)}, not {self.fusion!r}")
        for name, count in (("limit", self.limit), ("per_paper", self.per_paper), ("depth", self.depth),
                            ("objects_per_paper", self.objects_per_paper or 1), ("rerank_top", self.rerank_top)):
            if not isinstance(count, int) or not 1 <= count <= 1_000_000:
                raise BadArgument(f"{name} must be a whole number from 1 to 1000000, not {count}")
        numbers = [("rrf_k", self.rrf_k), ("lexical_weight", self.lexical_weight),
                   ("vector_weight", self.vector_weight), ("phrase boost", self.phrase_boost),
                   ("rerank_timeout", self.rerank_timeout)]
        numbers += [("field weight", w) for w in self.field_weights]
        for name, value in numbers:
            if not isinstance(value, (int, float)) or not math.isfinite(value) or not 0 <= value <= 1e6:
                raise BadArgument(f"{name} must be a finite number from 0 to 1000000, not {value}")
        if not isinstance(self.object_lift, (int, float)) or not 0 <= self.object_lift <= 1:
            raise BadArgument(f"object lift must be a number from 0 to 1, not {self.object_lift}")
        if self.rerank_url is not None and not self.rerank_url.startswith(("http://", "https://")):
            raise BadArgument(f"rerank_url must be an http(s) URL, not {self.rerank_url!r}")
        if self.rerank_url is not None and self.rerank_timeout <= 0:
            raise BadArgument("rerank_timeout must be above 0")
        self.filters.validate()
        return self
