"""`papershelf bench beir`: retrieval quality and query speed on a BEIR dataset (registered on cli_app.py's
`bench` group)."""

from __future__ import annotations

from typing import Optional

import typer
from rich.table import Table

from ..library import ProviderSpec, quantize_options
from ..search import MODES
from .cli_app import PROVIDER_HELP, bench_app, fail, guarded
from .cli_help import ReadableCommand
from .cli_print import dump, err, out


@bench_app.command("beir", cls=ReadableCommand)
@guarded
def bench_beir(folder: str = typer.Argument(..., help="A BEIR folder: corpus.jsonl, queries*.jsonl, qrels*.tsv."),
               queries: Optional[str] = typer.Option(None, "--queries", help="Queries file (default: first match)."),
               qrels: Optional[str] = typer.Option(None, "--qrels", help="Qrels file (default: first .tsv)."),
               mode: Optional[list[str]] = typer.Option(None, "--mode", help="Modes to run (default: all three)."),
               provider: Optional[str] = typer.Option("local", "--provider", help=PROVIDER_HELP),
               model: Optional[str] = typer.Option(None, "--model"),
               window_tokens: Optional[int] = typer.Option(None, "--window-tokens", min=0,
                                                           help="As for `embed` (0 = one text per unit)."),
               backend: Optional[str] = typer.Option(None, "--backend", help="As for `embed`: onnx or torch."),
               quantize: Optional[str] = typer.Option(None, "--quantize", help="As for `embed`: int8 or none (fp32)."),
               workers: int = typer.Option(1, "--workers", "-w", min=1),
               max_queries: Optional[int] = typer.Option(None, "--max-queries", help="Only the first N queries."),
               keep: Optional[str] = typer.Option(None, "--keep", help="Build (or reuse) the library at this path."),
               as_json: bool = typer.Option(False, "--json")):
    """nDCG@10, recall@100, MRR@10 and query latency per mode on a BEIR dataset."""
    from ..beir import run_beir

    modes = list(mode or MODES)
    if any(m not in MODES for m in modes):
        fail(f"--mode must be one of {', '.join(MODES)}", 2)
    options = {"window_tokens": window_tokens} if window_tokens is not None else {}
    if quantize is not None:
        options = quantize_options(options, quantize)
    settings = {"backend": backend} if backend else {}
    spec = ProviderSpec(provider or "local", model, tuple(sorted(options.items())), tuple(settings.items()))
    result = run_beir(folder, spec, modes, queries, qrels, workers, max_queries, keep,
                      log=(lambda s: None) if as_json else (lambda s: err.print(s)))
    if as_json:
        dump(result)
        return
    t = Table("mode", "nDCG@10", "95% CI", "recall@100", "MRR@10", "p50 ms", "p95 ms")
    for r in result["results"]:
        lo, hi = r["ndcg@10_ci95"]
        t.add_row(r["mode"], f"{r['ndcg@10']:.4f}", f"{lo:.3f}–{hi:.3f}", f"{r['recall@100']:.4f}",
                  f"{r['mrr@10']:.4f}", f"{r['p50_ms']:.1f}", f"{r['p95_ms']:.1f}")
    out.print(f"{result['documents']} documents, {result['queries']} queries, {result['provider']}/{result['model']}")
    out.print(t)
