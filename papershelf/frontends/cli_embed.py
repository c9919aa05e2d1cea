"""The CLI's side of an embedding build: the spec a command asks for, Ctrl-C/SIGTERM handling, and
the build run with its progress and summary (shared by `embed` and `index`)."""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
from typing import TYPE_CHECKING

from rich.markup import escape

from ..errors import PapershelfError
from ..library import DEFAULT_MODELS, Library, ProviderSpec, quantize_options
from .cli_print import dump, err, print_build

if TYPE_CHECKING:
    from ..library import Provider


def spec_for(lib: Library, provider: str | None = None, model: str | None = None, options: dict | None = None,
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
    quantize = options.pop("quantize", None)
    merged = kept_options | options
    if quantize is not None:  # `--quantize int8|none`: int8 (the current recipe) or back to fp32 weights
        merged = quantize_options(merged, quantize)
    return ProviderSpec(provider, model, tuple(sorted(merged.items())),
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


class Trial:
    """`index`'s trial encode (embed/trial.py): on the first paper the add writes, the provider is made
    and that paper's first windows encoded; the rate goes to the whole index's estimate (and, with
    --json, a `trial` line); the provider is the build's first, so the model is loaded once."""

    def __init__(self, lib: Library, spec: ProviderSpec, as_json: bool):
        self.lib, self.spec, self.as_json = lib, spec, as_json
        self.provider: Provider | None = None
        self.tried = False

    def __call__(self, paper_id: str, eta) -> None:
        if self.tried or self.spec.provider == "openai":  # an endpoint's requests cost money: its prior stands
            return
        self.tried = True
        try:
            self.provider, got = self.lib.trial_encode(self.spec, paper_id)
        except Exception:  # noqa: BLE001 - the build meets the same problem and reports it
            return
        if got and eta is not None:
            eta.encoder(got[0])
        if got and self.as_json:
            dump({"event": "trial", "paper_id": paper_id, "windows_per_second": round(got[0], 2),
                  "seconds": round(got[1], 3)})
            sys.stdout.flush()

    def factory(self):
        """The build's providers: the trial's first, then new ones."""
        def make():
            p, self.provider = self.provider, None
            return p or self.spec.create()
        return make


def run_embed(lib: Library, spec: ProviderSpec, workers: int, force: bool, papers: list[str] | None,
              as_json: bool, quantize_given: bool = False, trial: Trial | None = None, before=None) -> int:
    """`trial`: index's trial encode, whose provider the build takes; `before`: the whole index's
    estimate (index_eta.py), shown on the embedding bar until the build has its own."""
    from .cli_progress import EmbedProgress  # Rich's progress bars: only for the commands that build

    if not quantize_given and (notice := lib.quantize_notice(spec)):
        err.print(f"[yellow]note:[/yellow] {escape(notice)}")
    progress = EmbedProgress(as_json, before)
    with _cancel_on_signals() as cancel:
        try:
            with progress.bar:
                report = lib.embed(spec, workers=workers, force=force, paper_ids=papers or None, cancel=cancel,
                                   on_event=progress, provider_factory=trial.factory() if trial else None)
        except PapershelfError as e:
            if not cancel.is_set():
                raise
            err.print(f"cancelled: {escape(str(e))}")  # e.g. Ctrl-C during the provider's first call
            return 130
    d = report.to_dict()
    # the encoder's rate, for the next index's time left (index_eta.py)
    lib.remember_encoder_rate(spec, progress.rate(), before.typed_seen() if before is not None else None)
    if not as_json:
        print_build(d)
    if cancel.is_set():
        if not as_json:
            err.print("cancelled: papers already encoded were written; the rest are pending")
        return 130
    return 1 if d["failed"] else 0
