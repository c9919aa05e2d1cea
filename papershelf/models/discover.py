"""What `related`, `reading-list` and `ask` answer (related.py, ask.py, llm.py build them; models/shapes.py
describes their JSON)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from ..document import Reference


@dataclass
class RelatedHit:
    """One related library paper: its fused score, why in words, and each signal's share."""

    paper_id: str
    title: str | None
    year: int | None
    authors: list[str]
    score: float
    why: list[str]
    signals: dict[str, float]

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class RelatedResponse:
    query: dict[str, str]
    results: list[RelatedHit] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"query": self.query, "results": [h.to_dict() for h in self.results], "notices": self.notices}


@dataclass
class Citing:
    paper_id: str
    title: str | None
    year: int | None
    n: int


@dataclass
class ReadingItem:
    """A work the library cites but does not hold: its best-printed entry and the papers citing it."""

    work: str
    count: int
    reference: Reference
    cited_by: list[Citing]

    def to_dict(self) -> dict[str, Any]:
        ref = self.reference.to_dict()
        return {"work": self.work, "count": self.count, **{k: ref[k] for k in ref if k != "n"},
                "cited_by": [asdict(c) for c in self.cited_by]}


@dataclass
class ReadingList:
    items: list[ReadingItem] = field(default_factory=list)
    total: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {"total": self.total, "items": [i.to_dict() for i in self.items]}


@dataclass
class Evidence:
    """One quoted sentence: `quote` is exactly `text[start:end]` of the unit named."""

    id: str
    paper_id: str
    title: str | None
    year: int | None
    unit_id: str
    section_path: str
    page: int | None
    quote: str
    before: str
    after: str
    score: float
    link: str | None = None
    zotero_link: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class AnswerSentence:
    text: str
    cites: list[str]
    supported: bool


@dataclass
class Synthesis:
    """What a configured chat model wrote, each sentence checked against the evidence ids it cites."""

    model: str
    sentences: list[AnswerSentence] = field(default_factory=list)
    error: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class AskResponse:
    question: str
    evidence: list[Evidence] = field(default_factory=list)
    no_confident_answer: bool = True
    confidence: float = 0.0
    answer: Synthesis | None = None
    notices: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"question": self.question, "no_confident_answer": self.no_confident_answer,
                "confidence": self.confidence, "evidence": [e.to_dict() for e in self.evidence],
                "answer": self.answer.to_dict() if self.answer else None, "notices": self.notices}
