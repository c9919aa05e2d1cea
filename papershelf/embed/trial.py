"""A short trial encode while the add still parses: the encoder's speed on this machine, now.

Why: before any encoding, the whole `index`'s time left had only a prior for the encoder, scaled by the
parse's speed, and was 1.3-2.2x too fast on every trace (docs/measurements/eta10.md): the encoder's
speed under another load is not the parse's.  So once the first paper is written, its first windows
are encoded (`TRIAL_WINDOWS`, in two calls), on the main thread, with the provider the build then uses
(no second model load).  The faster call counts: on a shared machine one call of a few seconds can
meet a burst of other work, and the build's rate is an average over minutes.  A local model sorts a
call's texts by length and pads each of its mini-batches to the longest: 32 texts pad ~15 % more
than the build's calls of 256, so the rate is scaled by the trial's padding (`padding`;
docs/measurements/eta11.md)."""

from __future__ import annotations

import time
from collections.abc import Callable

from ..units import embedding_parts
from .provider import Provider
from .windows import token_counter, windows

TRIAL_WINDOWS = 64


def trial_windows(store, paper_id: str, window: int | None, provider: Provider, n: int = TRIAL_WINDOWS,
                  window_format: int = 1) -> list[str]:
    """The first `n` windows the build would encode for a paper (its indexable units in order, cut in
    the space's `window_format`)."""
    paper, _, units = store.paper_snapshot(paper_id)
    count = token_counter(provider)
    out: list[str] = []
    for u in (u for u in units if u.indexable):
        out += windows(*embedding_parts(u, paper.title if paper else None), window, count, window_format)
        if len(out) >= n:
            break
    return out[:n]


def padding(texts: list[str], provider: Provider) -> float:
    """Tokens a call of `texts` computes (sorted by length, each mini-batch of the provider's
    `batch_size` padded to its longest, markers included) over the tokens the texts hold."""
    size = int(getattr(provider, "batch_size", 0) or 0)
    lengths = sorted((n + 2 for n in provider.count_tokens(texts)), reverse=True)
    if size < 1 or not lengths:
        return 1.0
    padded = sum(lengths[i] * len(lengths[i:i + size]) for i in range(0, len(lengths), size))
    return padded / sum(lengths)


def trial_rate(texts: list[str], provider: Provider,
               clock: Callable[[], float] = time.perf_counter) -> tuple[float, float] | None:
    """(windows per second a build's calls would run at, seconds) of the faster of two encodes of
    `texts`' halves after a one-text warm-up call (the session's first call pays its set-up), scaled
    by that half's padding; None without texts."""
    if not texts:
        return None
    provider.encode(texts[:1])
    best: tuple[float, float] | None = None
    for part in (texts[:(len(texts) + 1) // 2], texts[(len(texts) + 1) // 2:]):
        if not part:
            continue
        start = clock()
        provider.encode(part)
        seconds = max(clock() - start, 1e-6)
        rate = len(part) / seconds * padding(part, provider)
        if best is None or rate > best[0]:
            best = (rate, seconds)
    return best
