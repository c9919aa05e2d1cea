"""The `papershelf` Typer app and what every command shares: the library option, the one place
errors become one line and an exit code, and the user's reranker options.  cli.py (hand-written
commands), cli_ops.py (the commands derived from the operations) and cli_bench.py register on it."""

from __future__ import annotations

import functools
import sqlite3

import typer
from rich.markup import escape

from ..errors import PapershelfError
from ..library import Library
from .cli_help import ReadableCommand
from .cli_print import err

app = typer.Typer(add_completion=False, pretty_exceptions_show_locals=False, no_args_is_help=True,
                  rich_markup_mode=None, help="papershelf: search your library of papers by words and by meaning.")
bench_app = typer.Typer(no_args_is_help=True, help="Measure retrieval quality and speed.")
app.add_typer(bench_app, name="bench")

PROVIDER_HELP = "local (ONNX Runtime, or torch with --backend torch; default), openai (any OpenAI-compatible " \
                "endpoint) or hash (tests)."


class State:
    library: str | None = None


def library(create: bool = True) -> Library:
    return Library(State.library, create=create)


def fail(message: str, code: int = 1):
    err.print(f"[red]error:[/red] {escape(message)}")
    raise typer.Exit(code)


def damaged(e: Exception) -> str:
    """One line for a library file SQLite finds damaged while reading it."""
    return (f"the library file is damaged ({str(e).splitlines()[0] if str(e) else type(e).__name__}); "
            "`papershelf verify` reports it: restore a backup, or build a new library with `add`")


def guarded(fn):
    """Turn user-facing errors into one line on stderr and the error's exit code: the CLI's one
    place for errors."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except PapershelfError as e:
            fail(str(e), e.exit_code)
        except sqlite3.DatabaseError as e:  # a library file damaged past what opening it checks
            fail(damaged(e))

    return wrapper


def command(*args, **kwargs):
    def deco(fn):
        return app.command(*args, cls=ReadableCommand, **kwargs)(guarded(fn))

    return deco


# The reranker is the user's configuration (an option, or PAPERSHELF_RERANK_URL for every command),
# shared by `search`, `serve` and `mcp`; HTTP and MCP requests cannot name one.
def rerank_url_option():
    return typer.Option(None, "--rerank-url", envvar="PAPERSHELF_RERANK_URL",
                        help="Rerank the top hits with this /rerank endpoint you run (TEI, Jina/Cohere style).")


# The chat endpoint `ask` may use (never by default): the user's configuration, like the reranker.
def llm_url_option():
    return typer.Option(None, "--llm-url", envvar="PAPERSHELF_LLM_URL",
                        help="An OpenAI-compatible chat endpoint (Ollama, llama.cpp, vLLM, or hosted) that writes a "
                             "short answer from the evidence; its key from PAPERSHELF_LLM_KEY or OPENAI_API_KEY.")


def llm_model_option():
    return typer.Option("default", "--llm-model", envvar="PAPERSHELF_LLM_MODEL", help="The chat model's name.")


def rerank_top_option():
    return typer.Option(20, "--rerank-top", min=1, max=1000, help="How many fused hits to rerank.")


def rerank_timeout_option():
    return typer.Option(10.0, "--rerank-timeout", help="Seconds to wait for the reranker.")
