"""What an operation declaration holds, and the registry the doors read (see the package docstring)."""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from .requests import Strict

if TYPE_CHECKING:
    from ..library import Library
    from ..llm import LlmSettings
    from ..search.rerank import Reranker

DOORS = ("cli", "http", "mcp")


@dataclass
class Context:
    """What a door brings to every call besides the request: the user's configured reranker (the
    CLI's --rerank-url, `serve`'s, `mcp`'s; a request can never name one)."""

    reranker: Reranker | None = None
    # The user's chat endpoint for `ask` (the CLI's --llm-url, `serve`'s and `mcp`'s, or PAPERSHELF_LLM_URL):
    # configuration like the reranker, never a request's parameter.
    llm: LlmSettings | None = field(default_factory=lambda: _llm_from_env())


def _llm_from_env() -> LlmSettings | None:
    import os

    if not (url := os.environ.get("PAPERSHELF_LLM_URL")):
        return None
    from ..llm import LlmSettings

    return LlmSettings(url, os.environ.get("PAPERSHELF_LLM_MODEL") or "default",
                       float(os.environ.get("PAPERSHELF_LLM_TIMEOUT") or 60))


@dataclass(frozen=True)
class Example:
    """One example call: its arguments (as the request model names them) and what it shows."""

    args: dict[str, Any]
    note: str


@dataclass(frozen=True)
class Format:
    """A CLI output format besides text and --json (`--format NAME`): the request fields it sets,
    and how it prints the answer."""

    render: Callable[[dict[str, Any]], str]
    request: dict[str, Any] = field(default_factory=dict)
    help: str = ""


@dataclass(frozen=True)
class CliSpec:
    """How the CLI spells the operation where it differs from the generic `--field-name`."""

    positional: tuple[str, ...] = ()  # fields given as arguments, in order
    short: dict[str, str] = field(default_factory=dict)  # field -> "-n"
    defaults: dict[str, Any] = field(default_factory=dict)  # field -> the CLI's own default
    help: dict[str, str] = field(default_factory=dict)  # field -> shorter help than the agent's description
    rerank: bool = False  # --rerank-url/--rerank-top/--rerank-timeout (the user's reranker)
    llm: bool = False  # --llm-url/--llm-model/--llm-timeout (the user's chat endpoint, for ask)
    via_server: bool = False  # ask a running `serve` of the same library (--no-server: never)


@dataclass(frozen=True)
class Operation:
    """One operation, declared once: every door derives its command, route or tool from this.

    `run(lib, request, ctx)` calls the Library and returns the answer's JSON (the shape `response`
    describes); `text(answer)` is its plain-text rendering (what an agent reads beside the data, and
    the CLI's text when it has no table of its own)."""

    name: str  # the CLI command, the MCP tool (with _ for -), /api/<name>
    summary: str  # one line: --help lists, OpenAPI summaries
    description: str  # what it does and when to use it: --help, the MCP tool description, the reference
    request: type[Strict]
    # The JSON `run` returns: a models.shapes name ("SearchJson"; "A | B" a union), resolved by `shape`
    # only when asked (docs, MCP, tests), so a CLI search never builds the pydantic shapes.
    response: Any
    run: Callable[[Library, Any, Context], dict[str, Any]]
    text: Callable[[dict[str, Any]], str]
    examples: tuple[Example, ...] = ()
    doors: tuple[str, ...] = DOORS
    path: str | None = None  # a field carried in the URL path: /api/<name>/{field}
    cli: CliSpec = CliSpec()
    formats: dict[str, Format] = field(default_factory=dict)
    # Names this operation answered to before (hidden: not listed, not documented, still working).
    aliases: tuple[str, ...] = ()
    hidden: bool = False  # kept for old callers: answers, but no door lists or documents it
    check: Callable[[Any], None] | None = None  # request checks needing no library: bad options fail first
    exit_code: Callable[[dict[str, Any]], int] | None = None  # the CLI's exit status from the answer
    # The bare JSON the CLI's --json and HTTP answer where it differs from `response` (papers: the list),
    # and HTTP headers taken from the answer.
    bare: Callable[[dict[str, Any]], Any] | None = None
    headers: Callable[[dict[str, Any]], dict[str, str]] | None = None
    images: Callable[[Any, dict[str, Any]], list[str]] | None = None  # unit ids whose picture MCP attaches

    @property
    def shape(self) -> Any:
        """The response's pydantic shape (a model, or a union of models)."""
        if not isinstance(self.response, str):  # a class given directly
            return self.response
        from ..models import shapes

        return functools.reduce(operator.or_, (getattr(shapes, n.strip()) for n in self.response.split("|")))

    @property
    def tool(self) -> str:
        return self.name.replace("-", "_")

    @property
    def route(self) -> str:
        return f"/api/{self.name}" + (f"/{{{self.path}}}" if self.path else "")

    def validate(self, values: dict[str, Any]) -> BaseModel:
        return self.request.model_validate(values)

    def cli_fields(self) -> list[str]:
        """The request fields the CLI offers (those a --format sets belong to the format; old names hidden)."""
        by_format = {k for f in self.formats.values() for k in f.request}
        return [n for n in self.request.fields_for("cli") if n not in by_format]

    def documented(self, door: str) -> list[str]:
        """The request fields the reference describes for a door (old names left out)."""
        fields = self.cli_fields() if door == "cli" else self.request.fields_for(door)
        return [n for n in fields if n not in self.request.DEPRECATED and n != (self.path if door == "http" else None)]

    def cli_flags(self) -> dict[str, str]:
        """Request field -> what the CLI calls it (`QUERY`, `--year-from`): errors name what was typed."""
        return {n: n.upper() if n in self.cli.positional else "--" + n.replace("_", "-")
                for n in self.request.model_fields}


REGISTRY: dict[str, Operation] = {}


def declare(op: Operation) -> Operation:
    """Register an operation: every door built after this offers it."""
    if op.name in REGISTRY:
        raise ValueError(f"operation {op.name!r} is declared twice")
    REGISTRY[op.name] = op
    return op
