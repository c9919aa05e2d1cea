"""The CLI commands derived from the operations (papershelf/operations): one Typer command per
declaration, one option per request field, the answer printed as text (a Rich table from
cli_print.PRINTERS, else the operation's own text), as ``--json``, or in a declared ``--format``."""

from __future__ import annotations

import inspect
import sys
import types
import typing
from typing import Any, Literal, Optional
from urllib.parse import quote

import typer
from pydantic_core import PydanticUndefined

from ..errors import BadArgument
from ..library import default_library_path
from ..operations import Context, Operation, build, for_door
from . import client
from .cli_app import (
    State,
    app,
    guarded,
    library,
    llm_model_option,
    llm_url_option,
    rerank_timeout_option,
    rerank_top_option,
    rerank_url_option,
)
from .cli_help import ReadableCommand
from .cli_print import PRINTERS, dump, out

EXTRAS = ("rerank_url", "rerank_top", "rerank_timeout", "llm_url", "llm_model", "llm_timeout", "no_server", "fmt",
          "as_json")
LLM_FLAGS = {"llm_url": "--llm-url", "llm_model": "--llm-model", "llm_timeout": "--llm-timeout"}


def flags(op: Operation) -> dict[str, str]:
    """Request field -> what the CLI calls it, the reranker's options too: errors name what was typed."""
    return op.cli_flags() | {"rerank_url": "--rerank-url", "rerank_top": "--rerank-top",
                             "rerank_timeout": "--rerank-timeout"} | LLM_FLAGS


def _base(annotation: Any) -> tuple[Any, bool]:
    """(the scalar type Typer parses, whether the field repeats): Literals are str (the request model
    checks them, and its error names the choices), Optionals unwrapped."""
    args = [a for a in typing.get_args(annotation) if a is not type(None)]
    origin = typing.get_origin(annotation)
    if origin is list:
        return _base(args[0])[0], True
    if origin is Literal:
        return str, False
    if origin in (typing.Union, types.UnionType):
        return _base(args[0])
    return annotation, False


def _parameter(op: Operation, name: str) -> inspect.Parameter:
    info = op.request.model_fields[name]
    kind, many = _base(info.annotation)
    helptext = op.cli.help.get(name, info.description or "")
    default = op.cli.defaults.get(name, info.default)
    default = None if default is PydanticUndefined or many else default
    if name in op.cli.positional:
        arg = typer.Argument(... if info.is_required() else default, help=helptext)
        return inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=arg, annotation=kind)
    flag = "--" + name.replace("_", "-")
    if kind is bool:
        decls = [flag if not default else f"{flag}/--no-{name.replace('_', '-')}"]
    else:
        decls = [flag, *([op.cli.short[name]] if name in op.cli.short else [])]
    scalar: Any = kind
    annotation: Any = Optional[list[scalar]] if many else (scalar if default is not None else Optional[scalar])
    option = typer.Option(default, *decls, help=helptext, hidden=name in op.request.DEPRECATED)
    return inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=option, annotation=annotation)


def _extras(op: Operation) -> list[inspect.Parameter]:
    def opt(name: str, default: Any, annotation: Any) -> inspect.Parameter:
        return inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=annotation)

    extra = []
    if op.cli.rerank:
        extra += [opt("rerank_url", rerank_url_option(), Optional[str]),
                  opt("rerank_top", rerank_top_option(), int), opt("rerank_timeout", rerank_timeout_option(), float)]
    if op.cli.llm:
        extra += [opt("llm_url", llm_url_option(), Optional[str]), opt("llm_model", llm_model_option(), str),
                  opt("llm_timeout", typer.Option(60.0, "--llm-timeout", min=0.1, max=3600,
                                                  help="Seconds to wait for the chat endpoint."), float)]
    if op.cli.via_server:
        extra.append(opt("no_server", typer.Option(False, "--no-server", help="Answer in this process even when "
                                                   "`papershelf serve` is running."), bool))
    if op.formats:
        names = "|".join(["table", *op.formats])
        helptext = "table (default), " + ", ".join(f"{k} ({f.help})" for k, f in op.formats.items()) + "."
        extra.append(opt("fmt", typer.Option("table", "--format", metavar=names, help=helptext), str))
    extra.append(opt("as_json", typer.Option(False, "--json", help="Print the answer as JSON."), bool))
    return extra


def _reworded(op: Operation, check):
    """Run a core check, its parameter names reworded as CLI flags."""
    try:
        return check()
    except BadArgument as e:
        message = str(e)
        name = message.split(" ", 1)[0]
        raise BadArgument(flags(op).get(name, name) + message[len(name):]) from None


def invoke(op: Operation, kw: dict[str, Any]) -> None:
    """Run one derived command: build and check the request (before the library opens: a bad option is
    exit 2 whatever the library holds), answer it here or through a running server, print it."""
    fmt, as_json, no_server = kw.pop("fmt", "table"), kw.pop("as_json"), kw.pop("no_server", False)
    rerank = [kw.pop(k, None) for k in ("rerank_url", "rerank_top", "rerank_timeout")]
    llm = [kw.pop(k, None) for k in LLM_FLAGS]
    if fmt != "table" and fmt not in op.formats:
        raise BadArgument(f"--format must be one of {', '.join(['table', *op.formats])}, not {fmt!r}")
    values = {k: (v or None) if isinstance(v, list) else v for k, v in kw.items()}
    request = build(op.request, flags(op), **values, **(op.formats[fmt].request if fmt != "table" else {}))
    ctx = Context()
    if rerank[0]:
        from ..search.rerank import Reranker

        ctx.reranker = _reworded(op, lambda: Reranker.configured(*rerank))
    if llm[0]:
        from ..llm import LlmSettings

        ctx.llm = LlmSettings(llm[0], llm[1] or "default", llm[2] or 60.0)
    if (check := op.check) is not None:
        _reworded(op, lambda: check(request))
    # The reranker is this command's own configuration: a server is asked only for what it does itself.
    server = client.find_server(State.library or default_library_path()) \
        if op.cli.via_server and not no_server and not rerank[0] and not llm[0] else None
    if server is not None:
        answer = client.ask(server, *_address(op, request))
    else:
        with library(create=False) as lib:
            answer = op.run(lib, request, ctx)
    if fmt != "table":
        sys.stdout.write(op.formats[fmt].render(answer))
    elif as_json:
        dump(op.bare(answer) if op.bare else answer)
    elif op.name in PRINTERS:
        PRINTERS[op.name](answer)
    else:
        out.print(op.text(answer), markup=False, highlight=False)
    if op.exit_code is not None:
        raise typer.Exit(op.exit_code(answer))


def _address(op: Operation, request: Any) -> tuple[str, list[tuple[str, Any]]]:
    """The route and query string asking a server for `request`."""
    query = request.to_query()
    if not op.path:
        return f"/api/{op.name}", query
    return f"/api/{op.name}/{quote(getattr(request, op.path), safe='')}", [q for q in query if q[0] != op.path]


def make_command(op: Operation):
    """The Typer command function of `op`: its signature is the request's fields plus the CLI's extras."""
    params = [_parameter(op, n) for n in op.cli_fields()] + _extras(op)
    ordered = sorted(params, key=lambda p: not isinstance(p.default, typer.models.ArgumentInfo))

    def command(**kw: Any) -> None:
        invoke(op, kw)

    command.__signature__ = inspect.Signature(ordered)  # type: ignore[attr-defined]
    command.__annotations__ = {p.name: p.annotation for p in ordered}
    command.__name__ = op.name.replace("-", "_")
    command.__doc__ = op.description
    return guarded(command)


def register(op: Operation) -> None:
    """The command of `op` on the app (its old names: hidden commands)."""
    fn = make_command(op)
    app.command(op.name, cls=ReadableCommand, help=op.description, short_help=op.summary, hidden=op.hidden)(fn)
    for alias in (a for a in op.aliases if "_" not in a):  # old MCP tool names are no commands
        app.command(alias, cls=ReadableCommand, help=op.description, hidden=True)(fn)


def install() -> None:
    """Register a command for every operation the CLI offers."""
    for op in for_door("cli", hidden=True):
        register(op)


assert not set(EXTRAS) & {n for op in for_door("cli", hidden=True) for n in op.request.model_fields}
