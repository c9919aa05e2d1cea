"""Cutting a unit's embedding text into windows the model reads whole.

A body unit runs to ~1000 tokens, but all-MiniLM-L6-v2 reads 256 wordpieces
and was trained on 128: embedding the unit as one text silently drops most of
it.  Instead the text is cut at sentence boundaries into windows of at most
`budget` model tokens, each window repeats the unit's head (paper title and
section path) for context, and the unit keeps one vector per window.  Vector
search scores a unit by its best window (MaxP, Dai & Callan 2019), so a
sentence deep in a section counts as much as its opening line.  On SciFact
this lifted vector-only nDCG@10 from 0.671 to 0.703 (BENCHMARKS.md).

Windows are cut where the provider counts tokens (a local model's own
tokenizer), so the budget is exact; a provider without a tokenizer gets the
word-based estimate.  In format 1 consecutive windows share one sentence, so a
statement split across a window boundary still appears whole in one of them.

That layout carries ~1.7x the wordpieces of the same words cut into plain 90-word texts (the head
in every window, every shared sentence twice; docs/measurements/space9.md).  A space made now cuts
windows that share no sentence (~1.3x; dropping the head from the later windows cost quality:
docs/measurements/space10.md) and fills them evenly (format 5: as many windows as a greedy cut, none
a one-sentence stub; docs/measurements/speed18.md); a space keeps the format it was built with
(`WINDOW_FORMATS`, `NEW_WINDOW_FORMAT`).
"""

from __future__ import annotations

from collections.abc import Callable

from ..text import estimate_tokens, split_sentences
from .provider import Provider

# Room kept for the model's own markers ([CLS], [SEP]) and the head/body break.
_SPECIAL = 3


def estimate_counts(texts: list[str]) -> list[int]:
    return [estimate_tokens(t) for t in texts]


def token_counter(provider: Provider) -> Callable[[list[str]], list[int]]:
    """The provider's own token counter (the word-based estimate unless the provider has better)."""
    return provider.count_tokens


def _split_long(sentence: str, tokens: int, room: int) -> list[tuple[str, int]]:
    """A sentence longer than a window, cut into word runs that fit (proportionally)."""
    words = sentence.split()
    per = max(1, len(words) * room // max(tokens, 1))
    pieces = [" ".join(words[i:i + per]) for i in range(0, len(words), per)]
    return [(p, max(1, tokens * len(p.split()) // max(len(words), 1))) for p in pieces]


# Window formats by number: a space's `window_format` option (absent: 1, every space made before it
# existed), so a library keeps the windows its vectors were built from.  (head in every window,
# neighbouring windows share a sentence):
# 1: the head (title + section path) in every window, neighbours share one sentence;
# 2: the head in every window, no shared sentence;
# 3: the head only in a unit's first window (the later ones take the whole budget for body),
#    neighbours share one sentence;
# 4: the head only in the first window, no shared sentence.
# 5: format 2 with its windows filled evenly (as many as format 2, none a one-sentence stub).
# Its keys are the models' WINDOW_FORMAT_NUMBERS (what a space and the CLI may name).
WINDOW_FORMATS: dict[int, tuple[bool, bool]] = {1: (True, True), 2: (True, False), 3: (False, True), 4: (False, False),
                                               5: (True, False)}
BALANCED = frozenset({5})
# What a new space gets (embed/build.py `space_options`): format 5, 0.76x the tokens of format 1 (index
# CPU 0.86x), within 0.005 nDCG / MRR of format 1 on every dev measure in one run (SciFact train both
# halves, vector and hybrid; figure and short queries: docs/measurements/speed18.md).  Format 2 (the same
# windows greedily filled, a one-sentence stub last) lost 0.005 vector-only nDCG (space10.md, spaceB.md).
NEW_WINDOW_FORMAT = 5
LIGHT_WINDOW_FORMAT = 2


def windows(head: str, body: str, budget: int | None, count: Callable[[list[str]], list[int]],
            window_format: int = 1) -> list[str]:
    """The texts to embed for one unit: `head + body` whole when it fits `budget`
    (or there is no budget), else sentence-aligned windows prefixed by `head` (every window, or
    the first only: WINDOW_FORMATS)."""
    head, parts = cut(head, body, budget, count, window_format)
    every = WINDOW_FORMATS[window_format][0]
    return [f"{head}\n{p}" if head and (every or i == 0) else p for i, p in enumerate(parts)]


def cut(head: str, body: str, budget: int | None, count: Callable[[list[str]], list[int]],
        window_format: int = 1) -> tuple[str, list[str]]:
    """(head, body part of each window): `windows` without the head prefixed, which
    search also uses to show the passage of a unit that matched best."""
    if not budget:
        return head, [body]
    sentences = split_sentences(body)
    if not sentences:
        return head, [body]
    head_tokens, *lengths = count([head, *sentences]) if head else [0, *count(sentences)]
    if head_tokens + sum(lengths) + len(sentences) + _SPECIAL <= budget:
        return head, [body]
    # A head that leaves too little room is itself cut down to half the window.
    if head and head_tokens > budget // 2:
        head = " ".join(head.split()[:max(1, len(head.split()) * (budget // 2) // head_tokens)])
        head_tokens = budget // 2
    every, share = WINDOW_FORMATS[window_format]
    room = max(1, budget - head_tokens - _SPECIAL)  # the first window's (every window's with the head in each)
    later = room if every else max(1, budget - _SPECIAL)
    pieces: list[tuple[str, int]] = []
    for s, n in zip(sentences, lengths):
        pieces += _split_long(s, n, room) if n > room else [(s, n)]
    spans = _spans([n for _, n in pieces], room, later, share)
    if window_format in BALANCED and len(spans) > 1:
        spans = _balanced([n for _, n in pieces], room, later, share, len(spans))
    return head, [" ".join(p for p, _ in pieces[a:b]) for a, b in spans]


def _spans(lengths: list[int], room: int, later: int, share: bool, cap: int | None = None) -> list[tuple[int, int]]:
    """Greedy windows over the pieces (start, end): each filled up to its room (or `cap`), the
    next starting at the last sentence (shared) or after it."""
    out: list[tuple[int, int]] = []
    start = 0
    while start < len(lengths):
        end, used = start, 0
        fits = min(later if out else room, cap or room + later)
        while end < len(lengths) and (end == start or used + lengths[end] + 1 <= fits):
            used += lengths[end] + 1
            end += 1
        out.append((start, end))
        if end >= len(lengths):
            break
        start = end - 1 if share and end - 1 > start else end  # share one sentence with the next window
    return out


def _balanced(lengths: list[int], room: int, later: int, share: bool, n: int) -> list[tuple[int, int]]:
    """The same number of windows as the greedy cut, filled evenly: the smallest cap that still
    needs no more than `n` windows, so a unit's last window is not a stub of one sentence."""
    lo, hi = max(1, (sum(lengths) + len(lengths)) // n), max(room, later)
    while lo < hi:
        mid = (lo + hi) // 2
        if len(_spans(lengths, room, later, share, mid)) <= n:
            hi = mid
        else:
            lo = mid + 1
    return _spans(lengths, room, later, share, lo)
