"""The JSON every operation answers, as pydantic models: the one description of each public shape.

The typed models (core.py, views.py, citations.py) serialize themselves with `to_dict()`; the
classes here say what that JSON is, field by field, so that

* MCP tools list an ``outputSchema`` generated from them (`Shape.model_json_schema()`),
* the generated reference pages (docs/reference/) describe every answer's fields,
* tests validate real answers of every door against them with unknown keys forbidden, so a field
  added to a `to_dict()` without its line here fails a test instead of drifting.

Shapes whose `to_dict()` is `dataclasses.asdict` are built from the dataclass's own fields
(`from_dataclass`): a field added there appears here by itself.  Imported only by the operations
(pydantic is not loaded by `import papershelf`).
"""

from __future__ import annotations

import dataclasses
import typing
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, create_model

from ..document import Reference
from .core import HIT_FIELDS, Paper, PaperSource
from .discover import AnswerSentence, Evidence, RelatedHit
from .views import Neighbour, ObjectView, Passage, SectionView


class Shape(BaseModel):
    """A closed JSON object: a key the shape does not name is an error."""

    model_config = ConfigDict(extra="forbid")


def from_dataclass(cls: type, name: str, **extra: Any) -> type[Shape]:
    """The shape of `asdict(cls(...))` (every field present), plus `extra` fields (name=(type, default))."""
    hints = typing.get_type_hints(cls)
    fields: dict[str, Any] = {f.name: (hints[f.name], ...) for f in dataclasses.fields(cls)}
    fields.update(extra)
    made: type[Shape] = create_model(name, __base__=Shape, **fields)
    return made


# -- papers -----------------------------------------------------------------------------------

# A class made by `from_dataclass` is subclassed (mypy cannot see fields made at run time: the base is Any).
class PaperJson(from_dataclass(Paper, "Paper")):  # type: ignore[misc]
    """A paper's record: bibliographic fields, source file, labels."""


class PaperSourceJson(from_dataclass(PaperSource, "PaperSource")):  # type: ignore[misc]
    """One file a paper comes from (the one that provides its units has provides=true)."""


class PaperRow(from_dataclass(Paper, "PaperWithUnits", units=(dict[str, int], Field(  # type: ignore[misc]
        ..., description="Units per kind: body, object, chunk.")))):
    """A paper as `papers` lists it: its record and its unit counts."""


class PaperList(Shape):
    """`papers`: the papers matching the filters (at most `limit`), and how many match in all."""

    papers: list[PaperRow]
    total: int = Field(description="How many papers match, beyond the limit too.")


# -- search -----------------------------------------------------------------------------------


class ExplainJson(Shape):
    """Where a hit ranked in each list and what its relevance is computed from (`explain`)."""

    lexical_rank: int | None
    lexical_score: float | None
    vector_rank: int | None
    vector_score: float | None
    vector_window: int | None
    cosine: float | None
    bm25_per_term: float | None
    bm25: float | None
    bm25_norm: float | None
    coverage: float | None
    field_match: float | None
    bm25_idf: float | None


class HitJson(Shape):
    """One search hit: the unit, its paper, where in the paper it is, and how relevant."""

    rank: int
    score: float | None = Field(description="Orders this one list only.")
    relevance: float | None = Field(description="Calibrated 0-1, comparable across queries.")
    source: str = Field(description="body_unit, object_unit or legacy_chunk.")
    paper_id: str
    title: str | None
    authors: list[str]
    year: int | None
    unit_id: str = Field(description="Give it to `show` to read the unit in its section.")
    section_path: str | None
    pages: str | None
    object_kind: str | None
    object_label: str | None
    caption: str | None
    snippet: str | None = Field(description="The passage, matched words in [brackets].")
    tags: list[str]
    collections: list[str]
    zotero_link: str | None
    region: dict[str, Any] | None = Field(description="A PDF object's place: page, bbox, caption_bbox (points).")
    ocr: bool = Field(description="The text was read by OCR and may hold its errors.")
    ocr_engine: str | None
    explain: ExplainJson | None = None
    rerank_score: float | None = None


assert set(HIT_FIELDS) <= set(HitJson.model_fields)  # the hit's fixed fields are all described


class SearchJson(Shape):
    """`search`: ranked hits, and whether any of them clearly answers the query."""

    query: str
    mode: Literal["lexical", "vector", "hybrid"] = Field(description="The mode used (hybrid falls back to lexical "
                                                                     "without vectors).")
    results: list[HitJson]
    no_confident_match: bool = Field(description="True when no hit reaches the relevance of a confident match.")
    notices: list[str]
    timings_ms: dict[str, float | None]


# -- show and passage -------------------------------------------------------------------------

class SectionJson(from_dataclass(SectionView, "SectionView")):  # type: ignore[misc]
    """One section's first unit, as `show` of a paper lists it."""


class ObjectJson(from_dataclass(ObjectView, "ObjectView")):  # type: ignore[misc]
    """A figure or table, as `show` of a paper lists it."""


class NeighbourJson(from_dataclass(Neighbour, "Neighbour")):  # type: ignore[misc]
    """One unit of a section, in reading order (the asked unit has is_target=true)."""


class PassageJson(from_dataclass(Passage, "Passage")):  # type: ignore[misc]
    """`passage`: a stretch of a paper's text; next_cursor reads on (null: the end)."""


def _shown(kind: str, fields: dict[str, Any], **more: Any) -> Any:
    tag: Any = Literal[kind]
    return create_model(f"Shown{kind}", __base__=Shape, type=(tag, ...), **fields, **more)


class PaperShown(_shown("paper", {f: (t.annotation, ...) for f, t in PaperJson.model_fields.items()},  # type: ignore[misc]
                       manifest=(dict[str, Any] | None, ...), sections=(list[SectionJson], ...),
                       objects=(list[ObjectJson], ...), sources=(list[PaperSourceJson], ...),
                       citations=(dict[str, int] | None, Field(..., description="references, in_library, "
                                                                                "citing counts.")))):
    """`show` of a paper: its record, sections, figures and tables."""


def _unit_fields() -> dict[str, Any]:
    from ..units import Unit  # units.py imports the models: read its fields only when a shape is built

    hints = typing.get_type_hints(Unit)
    return {f.name: (hints[f.name], ...) for f in dataclasses.fields(Unit)}


class UnitShown(_shown("unit", _unit_fields(), source=(str, ...), paper=(PaperJson | None, ...),  # type: ignore[misc]
                      neighbours=(list[NeighbourJson] | None, None))):
    """`show` of a unit: its text, its paper, and (neighbours) the units of its section."""


SHOW_UNION = PaperShown | UnitShown  # `show` answers one of the two, told apart by `type`


# -- citations --------------------------------------------------------------------------------

class LinkedReferenceJson(from_dataclass(Reference, "Reference", paper_id=(str | None, Field(  # type: ignore[misc]
        ..., description="The library paper this entry names, or null.")))):
    """One entry of a reference list: as printed, as parsed, and the library paper it names."""


class ReferencesJson(Shape):
    """`refs`: the paper's reference list in printed order, each entry linked to the library paper it names."""

    paper_id: str
    references: list[LinkedReferenceJson]
    bibtex: str | None = Field(None, description="The entries as BibTeX (format=bibtex only).")


class CiterJson(Shape):
    paper_id: str
    title: str | None
    year: int | None
    n: int = Field(description="The number of its first reference entry naming the paper.")


class CitingJson(Shape):
    """`citing`: the library papers whose reference lists name this paper."""

    paper_id: str
    citing: list[CiterJson]


class CitedByJson(Shape):
    """`cited-by`, the old name of `citing`: the same papers under "cited_by"."""

    paper_id: str
    cited_by: list[CiterJson]


# -- status and verify ------------------------------------------------------------------------


class SpaceJson(Shape):
    id: int
    provider: str
    model: str
    dimension: int
    fingerprint: str
    window_tokens: int | None
    window_format: int  # how long units are cut into windows (embed/windows.py WINDOW_FORMATS)
    completed_at: float | None


class CollectionStatusJson(Shape):
    stored: int
    expected: int
    pending_papers: int
    failed_papers: int


class EmbeddingJson(Shape):
    configured: dict[str, str]
    active_space: SpaceJson | None
    target_space: SpaceJson | None
    collections: dict[str, CollectionStatusJson] | None
    pending_papers: int = Field(description="Papers searchable by words only until embedded.")
    failed_papers: int
    stored_total: int
    expected_total: int | None
    pending_reasons: dict[str, int]
    failures: list[dict[str, Any]]
    build_running: dict[str, Any] | None = Field(description="pid, host and started_at of a running build.")


class StatusJson(Shape):
    """`status`: what the library holds and what is still to do."""

    library: str
    size_bytes: int
    schema_version: int
    papers: int
    units: dict[str, dict[str, int]] = Field(description="Per kind: total, indexable, vetoed.")
    veto_reasons: dict[str, int]
    failed_files: int
    embedding: EmbeddingJson | None


class IndexCheckJson(Shape):
    ok: bool
    problems: list[str]


class SpaceCheckJson(Shape):
    id: int | None = None
    provider: str | None = None
    model: str | None = None
    complete: bool | None = None
    pending_papers: int
    stale_vectors: list[str]
    orphan_vectors: list[str]
    wrong_size_vectors: list[str]
    missing_vectors: list[str]
    ok: bool


class VerifyJson(Shape):
    """`verify`: the index and every embedding space checked against the units."""

    index: IndexCheckJson
    spaces: list[SpaceCheckJson]
    ok: bool


# -- related, reading-list, ask ---------------------------------------------------------------


class RelatedHitJson(from_dataclass(RelatedHit, "RelatedHit")):  # type: ignore[misc]
    """A related library paper: fused score, `why` in words, each signal's share (meaning, direct,
    coupling, cocitation; 0-1)."""


class RelatedJson(Shape):
    """`related`: what was asked (paper, unit or text) and the library's papers most like it."""

    query: dict[str, str]
    results: list[RelatedHitJson]
    notices: list[str]


class ReadingCiterJson(Shape):
    paper_id: str
    title: str | None
    year: int | None
    n: int = Field(..., description="The number of the citing paper's entry naming the work.")


class ReadingItemJson(Shape):
    """A work cited by the library's papers and not in the library, as its best-printed entry reads it."""

    work: str = Field(..., description="The work's key (DOI, arXiv id or title key), stable across entries.")
    count: int = Field(..., description="How many library papers cite it.")
    text: str
    authors: list[str]
    year: int | None
    title: str | None
    venue: str | None
    doi: str | None
    arxiv_id: str | None
    cited_by: list[ReadingCiterJson]


class ReadingListJson(Shape):
    """`reading-list`: the works the library cites but does not hold, most cited first."""

    total: int = Field(..., description="How many such works there are in all.")
    items: list[ReadingItemJson]
    bibtex: str | None = None


class EvidenceJson(from_dataclass(Evidence, "Evidence")):  # type: ignore[misc]
    """One quoted sentence: `quote` is verbatim from the unit named, on `page`; `link` opens the PDF there."""


class AnswerSentenceJson(from_dataclass(AnswerSentence, "AnswerSentence")):  # type: ignore[misc]
    """A sentence of the model's answer: the evidence ids it cites, and whether they all are evidence."""


class SynthesisJson(Shape):
    model: str
    sentences: list[AnswerSentenceJson]
    error: str | None


class AskJson(Shape):
    """`ask`: evidence for a question, best first, and a configured model's checked answer (or null)."""

    question: str
    no_confident_answer: bool
    confidence: float
    evidence: list[EvidenceJson]
    answer: SynthesisJson | None
    notices: list[str]


def schema_of(shape: Any) -> dict[str, Any]:
    """The JSON schema of a shape (a model, or a union of models), always an object schema."""
    from pydantic import TypeAdapter

    schema: dict[str, Any] = TypeAdapter(shape).json_schema()
    return {"type": "object", **schema}
