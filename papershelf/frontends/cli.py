"""The `papershelf` command: a thin layer over `papershelf.Library`.

Every command takes ``--json`` for machines; people get Rich tables and
progress bars.  Errors meant for users (`PapershelfError`) are printed as one
line and a non-zero exit code, never a stack trace.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import re
import signal
import sqlite3
import sys
import threading
from typing import Optional

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text

from ..embed.base import DEFAULT_MODELS, ProviderSpec
from ..errors import BadArgument, PapershelfError
from ..ingest.ocr import MODES as OCR_MODES
from ..ingest.ocr import OcrSettings
from ..library import Library, default_library_path
from ..models import Filters
from ..search import MODES, SearchOptions, fusion_of, search_mode
from . import client

app = typer.Typer(add_completion=False, pretty_exceptions_show_locals=False, no_args_is_help=True,
                  rich_markup_mode=None, help="papershelf: search your library of papers by words and by meaning.")
bench_app = typer.Typer(no_args_is_help=True, help="Measure retrieval quality and speed.")
app.add_typer(bench_app, name="bench")

out = Console(soft_wrap=True)  # one line per item when piped: grep-able
err = Console(stderr=True, soft_wrap=True)


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
        return app.command(*args, **kwargs)(_guarded(fn))

    return deco


class State:
    library: str | None = None


def _library(create: bool = True) -> Library:
    return Library(State.library, create=create)


def _dump(data) -> None:
    """One JSON document on stdout; strict JSON (NaN or infinity would be a bug, not output)."""
    sys.stdout.write(json.dumps(data, ensure_ascii=False, default=str, allow_nan=False) + "\n")


def _fail(message: str, code: int = 1):
    err.print(f"[red]error:[/red] {escape(message)}")
    raise typer.Exit(code)


@app.callback()
def main(library: Optional[str] = typer.Option(
        None, "--library", "-L", envvar="PAPERSHELF_LIBRARY",
        help="Library file (default: ~/.local/share/papershelf/library.db).")):
    State.library = library


def _progress(enabled: bool, *extra) -> Progress:
    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), *extra,
                    TimeElapsedColumn(), TimeRemainingColumn(), console=err, disable=not enabled,
                    transient=True)


def _do_add(lib: Library, paths: list[str], as_json: bool, retry_failed: bool, max_size: float | None,
            ocr: str = "auto", ocr_lang: str | None = None):
    max_bytes = int(max_size * 2**20) if max_size else None
    show = err.is_terminal and not as_json
    if ocr not in OCR_MODES:
        raise BadArgument(f"--ocr must be one of {', '.join(OCR_MODES)}, not {ocr!r}")
    with _progress(show) as bar:
        task = bar.add_task("adding", total=None)
        pages = OcrSettings(ocr, ocr_lang,
                            progress=lambda done, n: bar.update(task, description=f"OCR page {done}/{n}"))
        report = lib.add(paths, retry_failed=retry_failed, max_bytes=max_bytes, ocr=pages,
                         on_total=lambda n: bar.update(task, total=n),
                         progress=lambda r: bar.update(task, advance=1, description=os.path.basename(r.path)[:40]))
    if as_json:
        _dump(report.to_dict())
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
        as_json: bool = typer.Option(False, "--json", help="Print a JSON summary.")):
    """Add papers (PDF, Markdown, text, JATS, TEI, S2ORC JSON; .bib/CSL-JSON give metadata).

    Unchanged files are skipped; failed files get one line each and exit code 1."""
    with _library() as lib:
        report = _do_add(lib, paths, as_json, retry_failed, max_size, ocr, ocr_lang)
    raise typer.Exit(1 if report.failed else 0)


def _spec(lib: Library, provider: str | None = None, model: str | None = None, options: dict | None = None,
          settings: dict | None = None) -> ProviderSpec:
    """The library's configured spec changed as asked: options change the vectors (a new space),
    settings don't (URLs, batch sizes, the local backend).  A value of None leaves it as it was."""
    current = lib.configured_spec()
    options = {k: v for k, v in (options or {}).items() if v is not None}
    settings = {k: v for k, v in (settings or {}).items() if v is not None}
    if provider is None and model is None and not options and not settings:
        return current
    provider = provider or current.provider
    if model is None:
        model = current.model if provider == current.provider else DEFAULT_MODELS.get(provider)
    kept_settings = dict(current.settings) if provider == current.provider else {}
    kept_options = dict(current.options) if provider == current.provider and model == current.model_name else {}
    return ProviderSpec(provider, model, tuple(sorted((kept_options | options).items())),
                        tuple(sorted((kept_settings | settings).items())))


@contextlib.contextmanager
def _cancel_on_signals():
    """Ctrl-C or SIGTERM sets the event the build watches (it writes what is encoded and stops);
    a second one exits at once, whatever any thread is doing (every written paper is committed)."""
    cancel = threading.Event()

    def on_signal(signum, frame):
        if cancel.is_set():
            sys.stdout.flush()
            sys.stderr.write("aborted\n")
            os._exit(130)
        cancel.set()
        err.print("[yellow]stopping: writing the papers already encoded (Ctrl-C again to abort)[/yellow]")

    old = {s: signal.signal(s, on_signal) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield cancel
    finally:
        for s, h in old.items():
            signal.signal(s, h)


class _EmbedProgress:
    """Build events as NDJSON (--json) or as a Rich bar over units with rate and time left."""

    def __init__(self, as_json: bool):
        self.as_json = as_json
        self.bar = _progress(err.is_terminal and not as_json,
                             TextColumn("{task.fields[windows]} windows  {task.fields[rate]}"))
        self.task: TaskID | None = None

    def __call__(self, e: dict) -> None:
        if self.as_json:
            _dump(e)
            sys.stdout.flush()
        if e["event"] == "start":
            if not self.as_json:
                err.print(f"embedding {e['papers']} papers ({e.get('units', '?')} units) with "
                          f"{e['provider']}/{e['model']} ({e['dimension']}d, {e['workers']} workers); "
                          f"{e['skipped']} already embedded; lexical search already covers every paper added")
            self.task = self.bar.add_task("embedding", total=e.get("units") or e["papers"], windows=0, rate="")
        elif e["event"] == "paper" and self.task is not None:
            rate = f"{e['units_per_second']:.1f} units/s" if e.get("units_per_second") else ""
            self.bar.update(self.task, completed=e.get("units_done", 0), windows=e.get("windows_done", 0), rate=rate)


def _print_build(d: dict) -> None:
    out.print(f"embedded {d['embedded']} papers ({d['units']} units encoded as {d['windows']} windows, "
              f"{d['reused']} reused) in {d['seconds']:.1f}s; {d['skipped']} already up to date; "
              f"{len(d['failed'])} failed")
    if d["units"] == 0 and not d["failed"]:
        out.print("nothing to embed: every paper is up to date")
    for pid, reason in d["failed"].items():
        out.print(f"  [red]failed[/red] {escape(pid)}: {escape(reason)}")
    if d["pending_after"]:
        out.print(f"{d['pending_after']} papers still pending: run `papershelf embed` again")
    if d.get("provider_down"):
        err.print(f"[red]error:[/red] stopped: {escape(d['provider_down'])}")


def _do_embed(lib: Library, spec: ProviderSpec, workers: int, force: bool, papers: list[str] | None,
              as_json: bool) -> int:
    progress = _EmbedProgress(as_json)
    with _cancel_on_signals() as cancel:
        try:
            with progress.bar:
                report = lib.embed(spec, workers=workers, force=force, paper_ids=papers or None, cancel=cancel,
                                   on_event=progress)
        except PapershelfError as e:
            if not cancel.is_set():
                raise
            err.print(f"cancelled: {escape(str(e))}")  # e.g. Ctrl-C during the provider's first call
            return 130
    d = report.to_dict()
    if not as_json:
        _print_build(d)
    if cancel.is_set():
        if not as_json:
            err.print("cancelled: papers already encoded were written; the rest are pending")
        return 130
    return 1 if d["failed"] else 0


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
        spec = _spec(lib, provider, model,
                     {"dimension": dimension, "window_tokens": window_tokens, "quantize": quantize},
                     {"base_url": base_url, "batch_size": batch_size, "backend": backend})
        code = _do_embed(lib, spec, workers, force, paper, as_json)
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
        code = _do_embed(lib, _spec(lib, provider, model), workers, False, None, as_json)
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
            _dump(event.to_dict())
        else:
            out.print(escape(event.line()), highlight=False)
        sys.stdout.flush()

    old = {s: signal.signal(s, on_signal) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        with _library() as lib:
            spec = None if no_embed else _spec(lib, provider, model)
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
           limit: int = typer.Option(10, "--limit", "-n", min=1, max=1000),
           per_paper: int = typer.Option(2, "--per-paper", min=1, help="Hits per paper (not with --paper)."),
           paper: Optional[list[str]] = typer.Option(None, "--paper", help="Only these papers (no per-paper cap)."),
           year_from: Optional[int] = typer.Option(None, "--year-from"),
           year_to: Optional[int] = typer.Option(None, "--year-to"),
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
           lexical_weight: float = typer.Option(1.0, "--lexical-weight"),
           vector_weight: float = typer.Option(1.0, "--vector-weight"),
           explain: bool = typer.Option(False, "--explain", help="Show lexical and vector ranks and scores."),
           min_score: Optional[float] = typer.Option(None, "--min-score", min=0.0, max=1.0,
                                                     help="Drop hits whose relevance (0-1) is below this."),
           objects_per_paper: int = typer.Option(3, "--objects-per-paper", min=1,
                                                 help="Figures/tables per paper, counted apart from text hits."),
           rerank_url: Optional[str] = _rerank_url(),
           rerank_top: int = _rerank_top(),
           rerank_timeout: float = _rerank_timeout(),
           no_server: bool = typer.Option(False, "--no-server",
                                          help="Search in this process even when `papershelf serve` is running."),
           as_json: bool = typer.Option(False, "--json")):
    """Search the library: body text, figures, tables and chunks.

    When `papershelf serve` runs for the same library, the search is asked of it (model and
    vectors already loaded) and printed the same way; --no-server searches in-process."""
    sources = list(source or [])
    if kind and not sources:
        sources = ["object_unit"]
    filters = Filters(papers=list(paper or []), year_min=year_from, year_max=year_to, sources=sources,
                      object_kind=kind, collections=list(collection or []), tags=list(tag or []),
                      cites=cites, cited_by=cited_by, author=author)
    opts = SearchOptions(mode=search_mode(mode), limit=limit, per_paper=per_paper, filters=filters,
                         fusion=fusion_of(fusion), rrf_k=rrf_k,
                         lexical_weight=lexical_weight, vector_weight=vector_weight, explain=explain,
                         objects_per_paper=objects_per_paper, rerank_url=rerank_url, rerank_top=rerank_top,
                         rerank_timeout=rerank_timeout)
    opts.validate()  # before opening the library: a bad option is exit 2 whatever the library holds
    # A server reranks with its own configured reranker only: a search naming one runs here.
    server = None if no_server or rerank_url else client.find_server(State.library or default_library_path())
    if server is not None:
        d = client.search(server, {"query": query, "mode": mode, "limit": limit, "per_paper": per_paper,
                                   "paper": list(paper or []), "year_from": year_from, "year_to": year_to,
                                   "source": list(source or []), "kind": kind, "fusion": fusion, "rrf_k": rrf_k,
                                   "cites": cites, "cited_by": cited_by,
                                   "author": author,
                                   "lexical_weight": lexical_weight, "vector_weight": vector_weight,
                                   "explain": explain, "min_score": min_score,
                                   "objects_per_paper": objects_per_paper})
    else:
        with _library(create=False) as lib:
            d = lib.search(query, opts).to_dict()
    if min_score is not None:  # relevance as printed, so a value copied from one answer keeps that hit
        d["results"] = [h for h in d["results"] if (h.get("relevance") or 0.0) >= min_score]
    if as_json:
        _dump(d)
    else:
        _print_search(d)


def _print_search(d: dict) -> None:
    """Print a search result from its JSON shape, so an answer from a server prints exactly as one
    computed here."""
    for n in d["notices"]:
        err.print(f"[yellow]note:[/yellow] {escape(n)}")
    if d.get("no_confident_match"):
        out.print("[yellow]no confident match:[/yellow] nothing here clearly answers this query"
                  + ("; the closest hits follow" if d["results"] else ""))
    if not d["results"]:
        out.print("no results")
        return
    for h in d["results"]:
        where = h["object_label"] or h["section_path"] or h["source"]
        pages = f" p.{h['pages']}" if h["pages"] else ""
        pages += " · OCR" if h.get("ocr") else ""  # the text was read from a scan: it may hold OCR errors
        year = f" ({h['year']})" if h["year"] else ""
        out.print(f"[bold]{h['rank']}.[/bold] [cyan]{escape(h['title'] or h['paper_id'])}[/cyan]{year}  "
                  f"[dim]{h['source']} · {escape(where)}{pages} · {h['unit_id']}[/dim]")
        out.print(_highlighted(h["snippet"] or ""), highlight=False)
        if h.get("zotero_link"):
            out.print(f"   [dim]{h['zotero_link']}[/dim]")
        x = h.get("explain")
        if x is not None:
            out.print(f"   [dim]score {h['score']} · relevance {h.get('relevance')} · lexical rank {x['lexical_rank']} "
                      f"({x['lexical_score']}) · vector rank {x['vector_rank']} ({x['vector_score']}"
                      + (f", window {x['vector_window'] + 1}" if x.get("vector_window") else "") + ")[/dim]")


def _highlighted(snippet: str) -> Text:
    """The snippet with its [marked] terms in bold, whatever characters it holds."""
    text = Text("   ")
    for n, part in enumerate(re.split(r"\[([^\[\]]*)\]", snippet)):
        text.append(part, style="bold yellow" if n % 2 else None)
    return text


@command()
def status(as_json: bool = typer.Option(False, "--json")):
    """What the library holds: papers, units, vectors and pending work."""
    with _library(create=False) as lib:
        st = lib.status().to_dict()
    if as_json:
        _dump(st)
        return
    out.print(f"library  {st['library']}  ({st['size_bytes'] / 2**20:.1f} MiB, schema {st['schema_version']})")
    out.print(f"papers   {st['papers']}" + (f"  ({st['failed_files']} files failed to parse)"
                                             if st["failed_files"] else ""))
    t = Table("units", "total", "indexable", "vetoed")
    for kind, label in (("body", "body units"), ("object", "figure/table units"), ("chunk", "fulltext chunks")):
        u = st["units"][kind]
        t.add_row(label, str(u["total"]), str(u["indexable"]), str(u["vetoed"]))
    out.print(t)
    e = st["embedding"]
    space = e["target_space"] or e["active_space"]
    if space is None:
        out.print(f"vectors  none yet ({e['pending_papers']} papers pending): run `papershelf embed`")
        return
    windows = f", windows of {space['window_tokens']} tokens" if space.get("window_tokens") else ""
    out.print(f"space    {space['provider']}/{space['model']} ({space['dimension']}d{windows}, {space['fingerprint']})"
              + ("" if space["completed_at"] else "  [yellow]incomplete[/yellow]"))
    if e["active_space"] and e["target_space"] and e["active_space"]["id"] != e["target_space"]["id"]:
        a = e["active_space"]
        out.print(f"search   answers from {a['provider']}/{a['model']} until the new space is complete")
    t = Table("collection", "vectors stored", "expected", "pending papers", "failed papers")
    for name, c in e["collections"].items():
        t.add_row(name, str(c["stored"]), str(c["expected"]), str(c["pending_papers"]), str(c["failed_papers"]))
    t.add_row("total", str(e["stored_total"]), str(e["expected_total"]), str(e["pending_papers"]),
              str(e["failed_papers"]))
    out.print(t)
    for f in e.get("failures", []):
        out.print(f"  [red]failed[/red] {escape(f['paper_id'])}: {escape(f['reason'])}")


@command()
def verify(as_json: bool = typer.Option(False, "--json")):
    """Check the library holds what it claims: index, manifests, and every vector against its unit."""
    with _library(create=False) as lib:
        report = lib.verify()
    result = report.to_dict()
    if as_json:
        _dump(result)
    else:
        for p in result["index"]["problems"]:
            out.print(f"[red]index[/red] {escape(p)}")
        for s in result["spaces"]:
            label = f"space {s['id']} {s['provider']}/{s['model']}"
            bad = {k: v for k, v in s.items() if k.endswith("_vectors") and v}
            state = "ok" if s["ok"] else "[red]PROBLEMS[/red]"
            out.print(f"{label}: {state}; {s['pending_papers']} papers pending (run `papershelf embed`)"
                      if s["pending_papers"] else f"{label}: {state}")
            for k, v in bad.items():
                out.print(f"  {k.replace('_', ' ')}: {len(v)} (e.g. {escape(v[0])})")
        out.print("verified: the library holds what it says" if result["ok"] else "verify found problems")
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
        _dump(report)
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
        _dump(d)
        return
    if d["type"] == "unit":
        out.print(f"[bold]{escape(d['id'])}[/bold]  {d['source']}  {escape(d['section_path'] or '')}")
        if d.get("object_label"):
            out.print(f"[cyan]{escape(d['object_label'])}[/cyan]: {escape(d.get('caption_text') or '')}")
            if d.get("table_text"):
                out.print(escape(d["table_text"]))
            if d.get("nearby_body_text"):
                out.print(f"[dim]cited: {escape(d['nearby_body_text'])}[/dim]")
        else:
            out.print(escape(d["text"]))
        return
    authors = ", ".join(d["authors"][:6])
    out.print(f"[bold]{escape(d['title'] or d['id'])}[/bold]")
    facts = [d["id"], authors, str(d["year"] or ""), d["venue"] or "", d["source_path"] or ""]
    out.print(f"[dim]{escape(' · '.join(f for f in facts if f))}[/dim]")
    if c := d.get("citations"):
        out.print(f"[dim]{c['references']} references ({c['in_library']} in this library) · "
                  f"cited by {c['cited_by']} in this library[/dim]")
    if len(d["sources"]) > 1:
        for src in d["sources"]:
            role = "units from" if src["provides"] else "also in"
            out.print(f"[dim]{role} {escape(src['path'])} ({src['format']})[/dim]")
    t = Table("unit", "section", "pages", "tokens")
    for s in d["sections"]:
        t.add_row(s["unit_id"].rsplit(":", 2)[-2] + ":" + s["unit_id"].rsplit(":", 1)[-1],
                  escape(s["section_path"] or "(front matter)"), s["pages"] or "", str(s["tokens"]))
    out.print(t)
    if d["objects"]:
        t = Table("label", "caption", "pages")
        for o in d["objects"]:
            cap = o["caption"] or f"[dim]({o['veto_reason']})[/dim]"
            t.add_row(escape(o["label"]), escape(cap[:100]) if o["caption"] else cap, o["pages"] or "")
        out.print(t)


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
                _dump({"removed_source": path, "paper_id": paper_id, "paper_removed": not remains})
            else:
                out.print(f"removed {path} from {paper_id}" if remains else f"removed {paper_id} (its last source)")
            return
        paper_id = lib.remove(paper_id)
    if as_json:
        _dump({"removed": paper_id})
    else:
        out.print(f"removed {paper_id}")


@command("papers")
def list_papers(limit: int = typer.Option(50, "--limit", "-n"), as_json: bool = typer.Option(False, "--json"),
                fmt: str = typer.Option("table", "--format", help="table or bibtex.")):
    """List the papers in the library."""
    from .cli_citations import _check_format, papers_bibtex

    _check_format(fmt)
    with _library(create=False) as lib:
        rows = lib.papers(limit)
    if fmt == "bibtex":
        out.print(papers_bibtex(rows), end="", markup=False, highlight=False)
        return
    if as_json:
        _dump([r.to_dict() for r in rows])
        return
    t = Table("id", "title", "year", "body", "objects", "chunks")
    for r in rows:
        t.add_row(escape(r.paper.id), escape((r.paper.title or "")[:70]), str(r.paper.year or ""),
                  *(str(r.units[k]) for k in ("body", "object", "chunk")))
    out.print(t)


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


@bench_app.command("beir")
@_guarded
def bench_beir(folder: str = typer.Argument(..., help="A BEIR folder: corpus.jsonl, queries*.jsonl, qrels*.tsv."),
               queries: Optional[str] = typer.Option(None, "--queries", help="Queries file (default: first match)."),
               qrels: Optional[str] = typer.Option(None, "--qrels", help="Qrels file (default: first .tsv)."),
               mode: Optional[list[str]] = typer.Option(None, "--mode", help="Modes to run (default: all three)."),
               provider: Optional[str] = typer.Option("local", "--provider", help=_PROVIDER_HELP),
               model: Optional[str] = typer.Option(None, "--model"),
               window_tokens: Optional[int] = typer.Option(None, "--window-tokens", min=0,
                                                           help="As for `embed` (0 = one text per unit)."),
               backend: Optional[str] = typer.Option(None, "--backend", help="As for `embed`: onnx or torch."),
               quantize: Optional[str] = typer.Option(None, "--quantize", help="As for `embed`: int8."),
               workers: int = typer.Option(1, "--workers", "-w", min=1),
               max_queries: Optional[int] = typer.Option(None, "--max-queries", help="Only the first N queries."),
               keep: Optional[str] = typer.Option(None, "--keep", help="Build (or reuse) the library at this path."),
               as_json: bool = typer.Option(False, "--json")):
    """nDCG@10, recall@100, MRR@10 and query latency per mode on a BEIR dataset."""
    from ..beir import run_beir

    modes = list(mode or MODES)
    if any(m not in MODES for m in modes):
        _fail(f"--mode must be one of {', '.join(MODES)}", 2)
    options = {k: v for k, v in (("window_tokens", window_tokens), ("quantize", quantize)) if v is not None}
    settings = {"backend": backend} if backend else {}
    spec = ProviderSpec(provider or "local", model, tuple(sorted(options.items())), tuple(settings.items()))
    result = run_beir(folder, spec, modes, queries, qrels, workers, max_queries, keep,
                      log=(lambda s: None) if as_json else (lambda s: err.print(s)))
    if as_json:
        _dump(result)
        return
    t = Table("mode", "nDCG@10", "95% CI", "recall@100", "MRR@10", "p50 ms", "p95 ms")
    for r in result["results"]:
        lo, hi = r["ndcg@10_ci95"]
        t.add_row(r["mode"], f"{r['ndcg@10']:.4f}", f"{lo:.3f}–{hi:.3f}", f"{r['recall@100']:.4f}",
                  f"{r['mrr@10']:.4f}", f"{r['p50_ms']:.1f}", f"{r['p95_ms']:.1f}")
    out.print(f"{result['documents']} documents, {result['queries']} queries, {result['provider']}/{result['model']}")
    out.print(t)


from . import cli_citations  # noqa: E402,F401  (registers `refs` and `cited-by` on `app`)
