"""The `papershelf` command: a thin layer over `papershelf.Library`.

Every command takes ``--json`` for machines; people get Rich tables and
progress bars.  Errors meant for users (`PapershelfError`) are printed as one
line and a non-zero exit code, never a stack trace.
"""

from __future__ import annotations

import dataclasses
import functools
import os
import signal
import sqlite3
import sys
import threading
from typing import Optional

import typer
from rich.markup import escape

from ..errors import BadArgument, PapershelfError
from ..ingest.pdf.ocr import MODES as OCR_MODES
from ..ingest.pdf.ocr import OcrSettings
from ..library import Library, default_library_path
from . import client
from .cli_embed import run_embed, spec_for
from .cli_help import ReadableCommand
from .cli_print import (
    dump,
    err,
    out,
    print_papers,
    print_search,
    print_show,
    print_status,
    print_verify,
    progress_bar,
)

app = typer.Typer(add_completion=False, pretty_exceptions_show_locals=False, no_args_is_help=True,
                  rich_markup_mode=None, help="papershelf: search your library of papers by words and by meaning.")
bench_app = typer.Typer(no_args_is_help=True, help="Measure retrieval quality and speed.")
app.add_typer(bench_app, name="bench")



def _guarded(fn):
    """Turn user-facing errors into one line on stderr and the error's exit code."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except PapershelfError as e:
            _fail(str(e), e.exit_code)
        except sqlite3.DatabaseError as e:  # a library file damaged past what opening it checks
            _fail(damaged(e))

    return wrapper


def damaged(e: Exception) -> str:
    """One line for a library file SQLite finds damaged while reading it."""
    return (f"the library file is damaged ({str(e).splitlines()[0] if str(e) else type(e).__name__}); "
            "`papershelf verify` reports it: restore a backup, or build a new library with `add`")


def command(*args, **kwargs):
    def deco(fn):
        return app.command(*args, cls=ReadableCommand, **kwargs)(_guarded(fn))

    return deco


class State:
    library: str | None = None


def _library(create: bool = True) -> Library:
    return Library(State.library, create=create)


def _fail(message: str, code: int = 1):
    err.print(f"[red]error:[/red] {escape(message)}")
    raise typer.Exit(code)


def _version(value: bool) -> None:
    if value:
        from importlib.metadata import PackageNotFoundError, version

        try:
            number = version("papershelf")
        except PackageNotFoundError:  # run from a source tree that was never installed
            number = "unknown (not installed)"
        out.print(f"papershelf {number}", highlight=False)
        raise typer.Exit(0)


@app.callback()
def main(library: Optional[str] = typer.Option(
        None, "--library", "-L", envvar="PAPERSHELF_LIBRARY", metavar="PATH|URL",
        help="Library file or postgresql:// URL (default: ~/.local/share/papershelf/library.db)."),
        version: bool = typer.Option(False, "--version", is_eager=True, callback=_version,
                                     help="Print the version and exit.")):
    State.library = library


def _do_add(lib: Library, paths: list[str], as_json: bool, retry_failed: bool, max_size: float | None,
            ocr: str = "auto", ocr_lang: str | None = None, reread: bool = False):
    max_bytes = int(max_size * 2**20) if max_size else None
    show = err.is_terminal and not as_json
    if ocr not in OCR_MODES:
        raise BadArgument(f"--ocr must be one of {', '.join(OCR_MODES)}, not {ocr!r}")
    with progress_bar(show) as bar:
        task = bar.add_task("adding", total=None)
        pages = OcrSettings(ocr, ocr_lang,
                            progress=lambda done, n: bar.update(task, description=f"OCR page {done}/{n}"))
        report = lib.add(paths, retry_failed=retry_failed, max_bytes=max_bytes, ocr=pages, reread=reread,
                         on_total=lambda n: bar.update(task, total=n),
                         progress=lambda r: bar.update(task, advance=1, description=os.path.basename(r.path)[:40]))
    if as_json:
        dump(report.to_dict())
    else:
        d = report.to_dict()
        meta = f", {d['metadata_files']} bibliographies" if d["metadata_files"] else ""
        out.print(f"added {d['added']}, updated {d['updated']}, unchanged {d['unchanged']}, "
                  f"failed {d['failed']}{meta}  ({lib.path})")
        for f in report.failed:
            out.print(f"  [red]failed[/red] {escape(f.path)}: {escape(f.reason or '')}")
    return report


@command()
def add(paths: list[str] = typer.Argument(..., help="Files or folders (recursive)."),
        retry_failed: bool = typer.Option(False, "--retry-failed", help="Parse files that failed before again."),
        max_size: Optional[float] = typer.Option(None, "--max-size", help="Largest text file to read, in MiB."),
        ocr: str = typer.Option("auto", "--ocr", help="OCR PDF pages: auto (pages without text), always, never."),
        ocr_lang: Optional[str] = typer.Option(None, "--ocr-lang",
                                               help="Tesseract languages, e.g. eng+jpn (default: those installed)."),
        reread: bool = typer.Option(False, "--reread", help="Parse unchanged files again (after an upgrade); "
                                                            "papers whose units stay the same keep their vectors."),
        as_json: bool = typer.Option(False, "--json", help="Print a JSON summary.")):
    """Add papers (PDF, Markdown, text, JATS, TEI, S2ORC JSON; .bib/CSL-JSON give metadata).

    Unchanged files are skipped; failed files get one line each and exit code 1."""
    with _library() as lib:
        report = _do_add(lib, paths, as_json, retry_failed, max_size, ocr, ocr_lang, reread)
    raise typer.Exit(1 if report.failed else 0)


_PROVIDER_HELP = "local (sentence-transformers, default), openai (any OpenAI-compatible endpoint) or hash (tests)."


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
          backend: Optional[str] = typer.Option(
              None, "--backend", help="local: onnx (default when onnxruntime is installed) or torch; same vectors."),
          quantize: Optional[str] = typer.Option(
              None, "--quantize", help="local: int8 weights (faster; its own space, see BENCHMARKS.md)."),
          paper: Optional[list[str]] = typer.Option(None, "--paper", help="Only these paper ids."),
          as_json: bool = typer.Option(False, "--json", help="NDJSON events and a final summary.")):
    """Embed pending papers (new, changed or damaged) into the current embedding space."""
    with _library(create=False) as lib:
        spec = spec_for(lib, provider, model,
                     {"dimension": dimension, "window_tokens": window_tokens, "quantize": quantize},
                     {"base_url": base_url, "batch_size": batch_size, "backend": backend})
        papers = [lib.resolve_paper(p) for p in paper or []]  # any form a paper is named by
        code = run_embed(lib, spec, workers, force, papers, as_json)
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
          as_json: bool = typer.Option(False, "--json")):
    """Add papers and embed them: `add` then `embed` in one step."""
    with _library() as lib:
        report = _do_add(lib, paths, as_json, False, None)
        code = run_embed(lib, spec_for(lib, provider, model), workers, False, None, as_json)
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


# The reranker is the user's configuration (an option, or PAPERSHELF_RERANK_URL for every command),
# shared by `search`, `serve` and `mcp`; HTTP and MCP requests cannot name one.
def _rerank_url():
    return typer.Option(None, "--rerank-url", envvar="PAPERSHELF_RERANK_URL",
                        help="Rerank the top hits with this /rerank endpoint you run (TEI, Jina/Cohere style).")


def _rerank_top():
    return typer.Option(20, "--rerank-top", min=1, max=1000, help="How many fused hits to rerank.")


def _rerank_timeout():
    return typer.Option(10.0, "--rerank-timeout", help="Seconds to wait for the reranker.")


@command()
def search(query: str = typer.Argument(..., help="Words, a phrase in quotes, or a question."),
           mode: str = typer.Option("hybrid", "--mode", "-m", help="lexical, vector or hybrid."),
           limit: int = typer.Option(10, "--limit", "-n", help="Number of hits to show (1-1000)."),
           per_paper: int = typer.Option(2, "--per-paper", help="Hits per paper (not with --paper)."),
           paper: Optional[list[str]] = typer.Option(
               None, "--paper", help="Only these papers: id, id prefix, citekey, DOI or Zotero key (no cap)."),
           year_from: Optional[int] = typer.Option(None, "--year-from", help="Only papers from this year on."),
           year_to: Optional[int] = typer.Option(None, "--year-to", help="Only papers up to this year."),
           source: Optional[list[str]] = typer.Option(None, "--source", help="body_unit, object_unit, legacy_chunk."),
           kind: Optional[str] = typer.Option(None, "--kind", help="figure or table (objects only)."),
           collection: Optional[list[str]] = typer.Option(None, "--collection",
                                                          help="Only papers in this collection or below (any of)."),
           tag: Optional[list[str]] = typer.Option(None, "--tag", help="Only papers with this tag (all of)."),
           cites: Optional[str] = typer.Option(None, "--cites", help="Only papers whose references name this paper."),
           cited_by: Optional[str] = typer.Option(None, "--cited-by", help="Only papers this paper's references name."),
           author: Optional[str] = typer.Option(None, "--author", help="Only papers with an author of this name "
                                                                      "(surname, or more of the name)."),
           fusion: str = typer.Option("convex", "--fusion", help="hybrid fusion: convex (normalized scores) or rrf."),
           rrf_k: float = typer.Option(60.0, "--rrf-k", help="Reciprocal-rank fusion constant."),
           lexical_weight: float = typer.Option(1.0, "--lexical-weight", help="Weight of the word ranking (hybrid)."),
           vector_weight: float = typer.Option(1.0, "--vector-weight", help="Weight of the meaning ranking (hybrid)."),
           explain: bool = typer.Option(False, "--explain", help="Show lexical and vector ranks and scores."),
           min_score: Optional[float] = typer.Option(None, "--min-score",
                                                     help="Drop hits whose relevance (0-1) is below this."),
           objects_per_paper: int = typer.Option(3, "--objects-per-paper",
                                                 help="Figures/tables per paper, counted apart from text hits."),
           rerank_url: Optional[str] = _rerank_url(),
           rerank_top: int = _rerank_top(),
           rerank_timeout: float = _rerank_timeout(),
           no_server: bool = typer.Option(False, "--no-server",
                                          help="Search in this process even when `papershelf serve` is running."),
           as_json: bool = typer.Option(False, "--json", help="Print the result as JSON.")):
    """Search the library: body text, figures, tables and chunks.

    When `papershelf serve` runs for the same library, the search is asked of it (model and
    vectors already loaded) and printed the same way; --no-server searches in-process."""
    from .params import SearchParams, build, search_dict  # pydantic only for the commands that use it

    request = build(SearchParams, cli_flags(), query=query, mode=mode, limit=limit, per_paper=per_paper,
                    paper=paper, year_from=year_from, year_to=year_to, source=source, kind=kind,
                    collection=collection, tag=tag, author=author, cites=cites,
                    cited_by=cited_by, fusion=fusion, rrf_k=rrf_k,
                    lexical_weight=lexical_weight, vector_weight=vector_weight, explain=explain,
                    min_score=min_score, objects_per_paper=objects_per_paper)
    opts = dataclasses.replace(request.options(), rerank_url=rerank_url, rerank_top=rerank_top,
                               rerank_timeout=rerank_timeout)
    _flagged(opts.validate)  # before opening the library: a bad option is exit 2 whatever the library holds
    # The reranker is this command's own configuration: a server is asked only for what it does itself.
    server = None if no_server or rerank_url else client.find_server(State.library or default_library_path())
    if server is not None:
        d = client.search(server, request)
    else:
        with _library(create=False) as lib:
            d = search_dict(lib.search(query, opts), request.min_score)
    if as_json:
        dump(d)
    else:
        print_search(d)


def cli_flags() -> dict[str, str]:
    """The search request's parameter names as this door spells them: errors name the flag typed."""
    from .params import SearchParams

    return {name: "--" + name.replace("_", "-") for name in SearchParams.model_fields} | {
        "query": "QUERY", "rerank_url": "--rerank-url", "rerank_top": "--rerank-top",
        "rerank_timeout": "--rerank-timeout"}


def _flagged(check):
    """Run a core check, its parameter names reworded as CLI flags."""
    try:
        return check()
    except BadArgument as e:
        message = str(e)
        name = message.split(" ", 1)[0]
        raise BadArgument(cli_flags().get(name, name) + message[len(name):]) from None


@command()
def status(as_json: bool = typer.Option(False, "--json")):
    """What the library holds: papers, units, vectors and pending work."""
    with _library(create=False) as lib:
        st = lib.status().to_dict()
    if as_json:
        dump(st)
    else:
        print_status(st)


@command()
def verify(as_json: bool = typer.Option(False, "--json")):
    """Check the library holds what it claims: index, manifests, and every vector against its unit."""
    with _library(create=False) as lib:
        report = lib.verify()
    result = report.to_dict()
    if as_json:
        dump(result)
    else:
        print_verify(result)
    raise typer.Exit(0 if result["ok"] else 1)


@command()
def migrate(source: str = typer.Argument(..., help="The library to copy: a file path or postgresql:// URL."),
            destination: str = typer.Argument(..., help="An empty (or new) library: a file path or URL."),
            as_json: bool = typer.Option(False, "--json")):
    """Copy a library to another backend (SQLite ⇄ PostgreSQL) with its vectors, without re-embedding."""
    from ..store import is_url
    from ..store.migrate import migrate as run

    def where(loc: str) -> str:
        return loc if is_url(loc) else os.path.abspath(os.path.expanduser(loc))

    report = run(where(source), where(destination)).to_dict()
    if as_json:
        dump(report)
    else:
        out.print(f"copied {report['papers']} papers and {sum(report['vectors'].values())} vectors to "
                  f"{escape(destination)}; run `papershelf verify` on it")


@command()
def show(item_id: str = typer.Argument(..., help="A paper id or a unit id."),
         as_json: bool = typer.Option(False, "--json")):
    """Show a paper (sections and figures/tables) or one unit."""
    with _library(create=False) as lib:
        d = lib.show(item_id).to_dict()
    if as_json:
        dump(d)
    else:
        print_show(d)


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


@command("papers")
def list_papers(title: Optional[str] = typer.Option(None, "--title", help="Only titles containing this."),
                author: Optional[str] = typer.Option(None, "--author", help="Only papers by an author matching this."),
                year_from: Optional[int] = typer.Option(None, "--year-from", help="Only papers from this year on."),
                year_to: Optional[int] = typer.Option(None, "--year-to", help="Only papers up to this year."),
                tag: Optional[list[str]] = typer.Option(None, "--tag", help="Only papers with this tag (all of)."),
                collection: Optional[list[str]] = typer.Option(
                    None, "--collection", help="Only papers in this collection or below (any of)."),
                limit: int = typer.Option(50, "--limit", "-n", help="Show at most this many papers."),
                fmt: str = typer.Option("table", "--format",
                                        help="table, tsv (id, year, title), ids (one a line) or bibtex."),
                as_json: bool = typer.Option(False, "--json", help="Print the papers as JSON.")):
    """List the papers in the library, filtered by title, author, year, tag or collection.

    Ids are printed whole (never cut), so they can be copied into `show` or `search --paper`."""
    from .params import PapersParams, build, filter_papers

    request = build(PapersParams, {k: "--" + k.replace("_", "-") for k in PapersParams.model_fields}, title=title,
                    author=author, year_from=year_from, year_to=year_to, tag=tag, collection=collection, limit=limit)
    if fmt not in ("table", "tsv", "ids", "bibtex"):
        raise BadArgument(f"--format must be one of table, tsv, ids, bibtex, not {fmt!r}")
    with _library(create=False) as lib:
        summaries = lib.papers()
    if fmt == "bibtex":
        from .cli_citations import papers_bibtex

        out.print(papers_bibtex([r for r in summaries if request.matches(r)][:limit]), end="", markup=False,
                  highlight=False)
        return
    rows, total = filter_papers(summaries, request)
    if as_json:
        dump(rows)
        return
    if fmt != "table":
        from ..tsv import tsv_line

        for r in rows:  # plain lines, a title's tabs and line breaks as spaces: for scripts, cut and fzf
            sys.stdout.write((tsv_line(r["id"]) if fmt == "ids" else tsv_line(r["id"], r["year"], r["title"])) + "\n")
        return
    print_papers(rows, total)


@command()
def serve(host: str = typer.Option("127.0.0.1", "--host", help="Address to listen on (loopback by default)."),
          port: int = typer.Option(8765, "--port", min=0, max=65535, help="Port (0: any free port)."),
          token: Optional[str] = typer.Option(None, "--token", envvar="PAPERSHELF_TOKEN",
                                              help="Required from every request; needed beyond loopback."),
          rerank_url: Optional[str] = _rerank_url(),
          rerank_top: int = _rerank_top(),
          rerank_timeout: float = _rerank_timeout(),
          stop_after: Optional[float] = typer.Option(None, "--stop-after", hidden=True,
                                                     help="Stop after this many seconds (tests, benchmarks).")):
    """Serve the library: a web page and a JSON API (OpenAPI at /docs); `search` then asks it."""
    from ..search.rerank import Reranker
    from .http import serve as run_server

    reranker = Reranker.configured(rerank_url, rerank_top, rerank_timeout)
    run_server(State.library or default_library_path(), host, port, token, stop_after, reranker)


@command()
def mcp(rerank_url: Optional[str] = _rerank_url(),
        rerank_top: int = _rerank_top(),
        rerank_timeout: float = _rerank_timeout()):
    """Serve the library to an AI agent over MCP (stdio): search, show, get_passage, list_papers, status."""
    from ..search.rerank import Reranker
    from .mcp import run_stdio

    run_stdio(State.library or default_library_path(), Reranker.configured(rerank_url, rerank_top, rerank_timeout))


from . import cli_bench, cli_citations  # noqa: E402,F401  (register `bench beir`, `refs` and `cited-by`)
