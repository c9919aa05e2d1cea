"""The `papershelf` command: a thin layer over `papershelf.Library`.

The commands that answer a request (search, show, passage, papers, refs, citing, status, verify)
are derived from their declarations in papershelf/operations (cli_ops.py); the ones written here
run processes: add, embed, index, watch, remove, migrate, serve, mcp.  Every command takes
``--json`` for machines; people get Rich tables and progress bars.  Errors meant for users
(`PapershelfError`) are printed as one line and a non-zero exit code (cli_app.guarded), never a
stack trace.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from typing import Optional

import typer
from rich.markup import escape

from ..errors import BadArgument
from ..library import Library, default_library_path, is_url, migrate_library
from ..models import WINDOW_FORMAT_NUMBERS
from . import cli_app, cli_bench, cli_ops  # noqa: F401 - cli_bench registers `bench beir`
from .cli_app import (
    PROVIDER_HELP,
    State,
    app,
    command,
    fail,
    library,
)
from .cli_embed import Trial, run_embed, spec_for
from .cli_print import dump, err, out, plural

_PROVIDER_HELP = PROVIDER_HELP


def _library(create: bool = True) -> Library:
    return library(create)


def _fail(message: str, code: int = 1):
    fail(message, code)


def _version(value: bool) -> None:
    if value:
        from importlib.metadata import PackageNotFoundError, version

        try:
            number = version("papershelf")
        except PackageNotFoundError:  # run from a source tree that was never installed
            number = "unknown (not installed)"
        out.print(f"papershelf {number}", highlight=False)
        raise typer.Exit(0)


cli_ops.install()  # search, show, passage, papers, status, verify, refs, citing: from their declarations


@app.callback()
def main(library: Optional[str] = typer.Option(
        None, "--library", "-L", envvar="PAPERSHELF_LIBRARY", metavar="PATH|URL",
        help="Library file or postgresql:// URL (default: ~/.local/share/papershelf/library.db)."),
        version: bool = typer.Option(False, "--version", is_eager=True, callback=_version,
                                     help="Print the version and exit.")):
    State.library = library


def _do_add(lib: Library, paths: list[str], as_json: bool, retry_failed: bool, max_size: float | None,
            ocr: str = "auto", ocr_lang: str | None = None, reread: bool = False, events: bool = False,
            whole: bool = False, trial=None, spec=None):
    """`events`: one `file` line on stdout per file done (`index --json`'s stream), before the summary.
    `whole`: the bar shows the whole `index`'s time left (add and embedding, from the files' pages);
    `trial`: index's trial encode (cli_embed.Trial).  Returns the add's report and that estimate."""
    from ..library import OCR_MODES, OcrSettings  # the PDF reader: loaded by the commands that add
    from .cli_progress import AddProgress, progress_bar

    max_bytes = int(max_size * 2**20) if max_size else None
    show = err.is_terminal and not as_json
    if ocr not in OCR_MODES:
        raise BadArgument(f"--ocr must be one of {', '.join(OCR_MODES)}, not {ocr!r}")
    with progress_bar(show) as bar:
        plan = (lambda files: lib.index_eta(files, spec)) if whole and show else None
        shown = AddProgress(bar, plan, events, trial)
        pages = OcrSettings(ocr, ocr_lang, progress=shown.ocr_page)
        report = lib.add(paths, retry_failed=retry_failed, max_bytes=max_bytes, ocr=pages, reread=reread,
                         on_found=shown.found, progress=shown.file)
    if as_json:
        dump(report.to_dict())
    else:
        d = report.to_dict()
        meta = f", {d['metadata_files']} bibliographies" if d["metadata_files"] else ""
        out.print(f"added {d['added']}, updated {d['updated']}, unchanged {d['unchanged']}, "
                  f"failed {d['failed']}{meta}  ({lib.path})")
        for f in report.failed:
            out.print(f"  [red]failed[/red] {escape(f.path)}: {escape(f.reason or '')}")
    started = time.monotonic()
    if lib.prepare_search() and not as_json:
        err.print(f"word index for fast search built ({time.monotonic() - started:.0f} s; "
                  f"a large library's postings file, kept beside it until the next change)")
    return report, shown.eta


@command()
def add(paths: list[str] = typer.Argument(..., help="Files or folders (recursive)."),
        retry_failed: bool = typer.Option(False, "--retry-failed", help="Parse files that failed before again."),
        max_size: Optional[float] = typer.Option(None, "--max-size", help="Largest text file to read, in MiB."),
        ocr: str = typer.Option("auto", "--ocr", help="OCR PDF pages: auto (pages without text), always, never."),
        ocr_lang: Optional[str] = typer.Option(None, "--ocr-lang",
                                               help="Tesseract languages, e.g. eng+jpn (default: eng, and every "
                                                    "installed one on a page that may be CJK)."),
        reread: bool = typer.Option(False, "--reread", help="Parse unchanged files again (after an upgrade); "
                                                            "papers whose units stay the same keep their vectors."),
        as_json: bool = typer.Option(False, "--json", help="Print a JSON summary.")):
    """Add papers (PDF, Markdown, text, JATS, TEI, S2ORC JSON; .bib/CSL-JSON give metadata).

    Unchanged files are skipped; failed files get one line each and exit code 1."""
    with _library() as lib:
        report, _ = _do_add(lib, paths, as_json, retry_failed, max_size, ocr, ocr_lang, reread)
    raise typer.Exit(1 if report.failed else 0)


@command()
def embed(force: bool = typer.Option(False, "--force", help="Re-embed every selected paper."),
          workers: int = typer.Option(1, "--workers", "-w", min=1, max=64, help="Encoding threads."),
          provider: Optional[str] = typer.Option(None, "--provider", help=_PROVIDER_HELP),
          model: Optional[str] = typer.Option(None, "--model", help="Model name or path."),
          base_url: Optional[str] = typer.Option(None, "--base-url", help="openai: endpoint base URL (…/v1)."),
          batch_size: Optional[int] = typer.Option(None, "--batch-size", help="Texts per provider request."),
          dimension: Optional[int] = typer.Option(None, "--dimension", help="hash: vector size."),
          window_tokens: Optional[int] = typer.Option(
              None, "--window-tokens", min=0,
              help="Embed long units as windows of this many tokens, scored by the best window "
                   "(local default 128; 0 = one truncated text per unit). A new value is a new space."),
          window_format: Optional[int] = typer.Option(
              None, "--window-format", min=WINDOW_FORMAT_NUMBERS[0], max=WINDOW_FORMAT_NUMBERS[-1],
              help="How long units are cut (a new library: 5; a library keeps its own): 1 the title and section in "
                   "every window, neighbours share a sentence; 2 no shared sentence; 3 and 4 the head in the first "
                   "window only; 5 as 2, its windows filled evenly (0.76x the tokens of 1, 0.86x the index CPU). "
                   "A new value is a new space."),
          backend: Optional[str] = typer.Option(
              None, "--backend", help="local: onnx (default when onnxruntime is installed) or torch; same vectors."),
          quantize: Optional[str] = typer.Option(
              None, "--quantize", help="local: int8 weights (about 1.8x less CPU; its own space, every paper "
                                       "re-embedded) or none (fp32, the default). Default for new libraries: "
                                       "PAPERSHELF_QUANTIZE."),
          paper: Optional[list[str]] = typer.Option(None, "--paper", help="Only these paper ids."),
          as_json: bool = typer.Option(False, "--json", help="NDJSON events and a final summary.")):
    """Embed pending papers (new, changed or damaged) into the current embedding space."""
    if quantize not in (None, "int8", "none"):
        raise BadArgument(f"--quantize must be int8 or none, not {quantize!r}")
    with _library(create=False) as lib:
        spec = spec_for(lib, provider, model,
                     {"dimension": dimension, "window_tokens": window_tokens, "quantize": quantize,
                      "window_format": window_format},
                     {"base_url": base_url, "batch_size": batch_size, "backend": backend})
        papers = [lib.resolve_paper(p) for p in paper or []]  # any form a paper is named by
        code = run_embed(lib, spec, workers, force, papers, as_json, quantize_given=quantize is not None)
    if code == 130:
        # Workers may still be stuck in a provider call: exit without joining them.
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(130)
    raise typer.Exit(code)


@command()
def index(paths: list[str] = typer.Argument(..., help="Files or folders (recursive)."),
          workers: int = typer.Option(1, "--workers", "-w", min=1, max=64),
          provider: Optional[str] = typer.Option(None, "--provider", help=_PROVIDER_HELP),
          model: Optional[str] = typer.Option(None, "--model"),
          as_json: bool = typer.Option(False, "--json", help="NDJSON: file events, the add's summary, "
                                                             "then the embedding's events.")):
    """Add papers and embed them: `add` then `embed` in one step.

    Every paper is searchable by words once it is added; the line saying so comes before the
    embedding starts (meaning search follows, paper by paper).

    --json: NDJSON on stdout. One `file` event per file as its paper is written (path, paper_id,
    status, pages (PDFs), seconds: its parse and write), one `trial` event after the first paper
    added (its first windows encoded: the encoder's windows_per_second, which the time left uses),
    then the add's summary (one object with `files`), then the embedding's events (start, paper,
    done) as `embed --json` prints them."""
    started = time.monotonic()
    with _library() as lib:
        spec = spec_for(lib, provider, model)
        trial = Trial(lib, spec, as_json)
        report, eta = _do_add(lib, paths, as_json, False, None, events=as_json, whole=True, trial=trial, spec=spec)
        if not as_json:
            err.print(f"searchable by words: {plural(lib.status().papers, 'paper')} "
                      f"({time.monotonic() - started:.0f} s); meaning search follows as they are embedded")
        code = run_embed(lib, spec, workers, False, None, as_json, trial=trial, before=eta)
    if code == 130:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(130)
    raise typer.Exit(code or (1 if report.failed else 0))


@command()
def watch(paths: list[str] = typer.Argument(..., help="Folders, files or a Zotero data directory."),
          debounce: float = typer.Option(2.0, "--debounce", min=0.0,
                                         help="Seconds a file must stay unchanged before it is read."),
          no_embed: bool = typer.Option(False, "--no-embed", help="Only add and remove; embed later."),
          provider: Optional[str] = typer.Option(None, "--provider", help=_PROVIDER_HELP),
          model: Optional[str] = typer.Option(None, "--model"),
          as_json: bool = typer.Option(False, "--json", help="One JSON object per change.")):
    """Keep the library in step with folders: add, update, remove and embed as files change (Ctrl-C stops)."""
    from ..watch import Watcher

    missing = [p for p in paths if not os.path.exists(os.path.expanduser(p))]
    if missing:
        _fail(f"no such file or folder: {missing[0]}", 2)
    stop = threading.Event()

    def on_signal(signum, frame):
        if stop.is_set():
            raise KeyboardInterrupt
        stop.set()
        err.print("[yellow]stopping: finishing the current paper (Ctrl-C again to abort)[/yellow]")

    def log(event) -> None:
        if as_json:
            dump(event.to_dict())
        else:
            out.print(escape(event.line()), highlight=False)
        sys.stdout.flush()

    old = {s: signal.signal(s, on_signal) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        with _library() as lib:
            spec = None if no_embed else spec_for(lib, provider, model)
            if not as_json:
                err.print(f"watching {len(paths)} path(s) into {lib.path}; Ctrl-C stops")
            Watcher(lib, paths, debounce=debounce, embed=not no_embed, spec=spec, log=log, stop=stop,
                    cancel=stop).run()
    finally:
        for s, h in old.items():
            signal.signal(s, h)
    raise typer.Exit(130)


def cli_flags() -> dict[str, str]:
    """The search request's parameter names as this door spells them: errors name the flag typed."""
    from ..operations.catalog import SEARCH

    return cli_ops.flags(SEARCH)


@command()
def migrate(source: str = typer.Argument(..., help="The library to copy: a file path or postgresql:// URL."),
            destination: str = typer.Argument(..., help="An empty (or new) library: a file path or URL."),
            as_json: bool = typer.Option(False, "--json")):
    """Copy a library to another backend (SQLite ⇄ PostgreSQL) with its vectors, without re-embedding."""
    def where(loc: str) -> str:
        return loc if is_url(loc) else os.path.abspath(os.path.expanduser(loc))

    report = migrate_library(where(source), where(destination)).to_dict()
    if as_json:
        dump(report)
    else:
        out.print(f"copied {report['papers']} papers and {sum(report['vectors'].values())} vectors to "
                  f"{escape(destination)}; run `papershelf verify` on it")


@command()
def remove(paper_id: str = typer.Argument(..., help="A paper (id, prefix, citekey, DOI) or one of its files."),
           as_json: bool = typer.Option(False, "--json")):
    """Remove a paper and everything derived from it (units, index rows, vectors).

    Given a file, remove only that source: the paper stays while another of its files remains."""
    with _library(create=False) as lib:
        path = os.path.abspath(os.path.expanduser(paper_id))
        if lib.is_source(path):
            paper_id, remains = lib.remove_source(path)
            if as_json:
                dump({"removed_source": path, "paper_id": paper_id, "paper_removed": not remains})
            else:
                out.print(f"removed {path} from {paper_id}" if remains else f"removed {paper_id} (its last source)")
            return
        paper_id = lib.remove(paper_id)
    if as_json:
        dump({"removed": paper_id})
    else:
        out.print(f"removed {paper_id}")


@command()
def serve(host: str = typer.Option("127.0.0.1", "--host", help="Address to listen on (loopback by default)."),
          port: int = typer.Option(8765, "--port", min=0, max=65535, help="Port (0: any free port)."),
          token: Optional[str] = typer.Option(None, "--token", envvar="PAPERSHELF_TOKEN",
                                              help="Required from every request; needed beyond loopback."),
          rerank_url: Optional[str] = cli_app.rerank_url_option(),
          rerank_top: int = cli_app.rerank_top_option(),
          rerank_timeout: float = cli_app.rerank_timeout_option(),
          llm_url: Optional[str] = cli_app.llm_url_option(),
          llm_model: str = cli_app.llm_model_option(),
          stop_after: Optional[float] = typer.Option(None, "--stop-after", hidden=True,
                                                     help="Stop after this many seconds (tests, benchmarks).")):
    """Serve the library: a web page and a JSON API (OpenAPI at /docs); `search` then asks it."""
    from ..search.rerank import Reranker
    from .http import serve as run_server

    reranker = Reranker.configured(rerank_url, rerank_top, rerank_timeout)
    _configure_llm(llm_url, llm_model)
    run_server(State.library or default_library_path(), host, port, token, stop_after, reranker)


@command()
def mcp(rerank_url: Optional[str] = cli_app.rerank_url_option(),
        rerank_top: int = cli_app.rerank_top_option(),
        rerank_timeout: float = cli_app.rerank_timeout_option(),
        llm_url: Optional[str] = cli_app.llm_url_option(),
        llm_model: str = cli_app.llm_model_option()):
    """Serve the library to an AI agent over MCP (stdio): every operation as a tool (search, show, passage, ...)."""
    from ..search.rerank import Reranker
    from .mcp import run_stdio

    _configure_llm(llm_url, llm_model)
    run_stdio(State.library or default_library_path(), Reranker.configured(rerank_url, rerank_top, rerank_timeout))


def _configure_llm(url: str | None, model: str) -> None:
    """The server's chat endpoint for `ask`, where every request's Context reads it (operations/base.py)."""
    if url:
        os.environ["PAPERSHELF_LLM_URL"], os.environ["PAPERSHELF_LLM_MODEL"] = url, model

