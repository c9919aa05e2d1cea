"""What a search ranks by, as a value: words, a vector, a paper or a unit (llm's `similar_by_id` and
`similar_by_vector`), or several of them at once.  A paper's or a unit's own vectors are a query like any
other, so "papers like this one" (`related`) and "more like this hit" are searches, not code paths of
their own; "like these two papers, about these words" is one query whose meaning is its parts' mean."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

QueryKind = Literal["text", "vector", "paper", "unit", "several"]


@dataclass(frozen=True)
class Query:
    """One query.  `text` holds the words (kind "text") or the paper / unit id (kinds "paper", "unit");
    `vector` the query vector (kind "vector", or a text query already encoded: `Query.encoded`); `parts` the
    queries of kind "several", whose meaning is the mean of theirs and whose words are theirs together.
    Build one with `Query.of`, `Query.paper`, `Query.unit`, `Query.of_vector`, `Query.encoded` or
    `Query.together`."""

    kind: QueryKind = "text"
    text: str = ""
    vector: tuple[float, ...] = ()
    parts: tuple[Query, ...] = ()

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

    @classmethod
    def encoded(cls, text: str, vector) -> Query:
        """Words that carry their own vector (the space's encoding of them): a caller that needs the vector
        itself (ask scores sentences against the question) encodes once, and the search does not again."""
        return cls("text", text, tuple(float(x) for x in vector))

    @classmethod
    def together(cls, parts: list[Query]) -> Query:
        """One query of several (a single part is itself): nested "several" are flattened."""
        flat = tuple(p for part in parts for p in (part.parts if part.kind == "several" else (part,)))
        if not flat:
            raise ValueError("a query of several parts needs at least one")
        return flat[0] if len(flat) == 1 else cls("several", parts=flat)

    def each(self) -> tuple[Query, ...]:
        """The query's parts: itself unless it is of several."""
        return self.parts if self.kind == "several" else (self,)

    @property
    def words(self) -> str:
        """The words to match lexically: those of its text parts (none for a paper, unit or vector)."""
        return " ".join(p.text for p in self.each() if p.kind == "text")

    @property
    def excluded(self) -> tuple[frozenset[str], frozenset[str]]:
        """(papers, units) a search by this query leaves out: a paper is not like itself, nor a unit."""
        parts = self.each()
        return (frozenset(p.text for p in parts if p.kind == "paper"),
                frozenset(p.text for p in parts if p.kind == "unit"))

    def label(self) -> str:
        """How a response names the query: the words, or what it is like."""
        if self.kind == "text":
            return self.text
        if self.kind == "several":
            return " + ".join(p.label() for p in self.parts)
        if self.kind == "vector":
            return f"like a vector of {len(self.vector)} dimensions"
        return f"like {self.kind} {self.text}"
