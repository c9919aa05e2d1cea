"""What a search ranks by, as a value: words, a vector, a paper or a unit (llm's `similar_by_id` and
`similar_by_vector`).  A paper's or a unit's own vectors are a query like any other, so "papers like this
one" (`related`) and "more like this hit" are searches, not code paths of their own."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

QueryKind = Literal["text", "vector", "paper", "unit"]


@dataclass(frozen=True)
class Query:
    """One query.  `text` holds the words (kind "text") or the paper / unit id (kinds "paper", "unit");
    `vector` the query vector (kind "vector").  Build one with `Query.of`, `Query.paper`, `Query.unit`
    or `Query.of_vector`."""

    kind: QueryKind = "text"
    text: str = ""
    vector: tuple[float, ...] = ()

    @classmethod
    def of(cls, value: str | Query) -> Query:
        """A query from what a caller passed: words stay words, a Query stays itself."""
        return value if isinstance(value, Query) else cls("text", value)

    @classmethod
    def paper(cls, paper_id: str) -> Query:
        return cls("paper", paper_id)

    @classmethod
    def unit(cls, unit_id: str) -> Query:
        return cls("unit", unit_id)

    @classmethod
    def of_vector(cls, vector) -> Query:
        return cls("vector", "", tuple(float(x) for x in vector))

    @property
    def words(self) -> str:
        """The words to match lexically: none unless the query is text."""
        return self.text if self.kind == "text" else ""

    @property
    def excluded(self) -> tuple[str | None, str | None]:
        """(paper, unit) a search by this query leaves out: a paper is not like itself, nor a unit."""
        return (self.text if self.kind == "paper" else None, self.text if self.kind == "unit" else None)

    def label(self) -> str:
        """How a response names the query: the words, or what it is like."""
        if self.kind == "text":
            return self.text
        if self.kind == "vector":
            return f"like a vector of {len(self.vector)} dimensions"
        return f"like {self.kind} {self.text}"
