"""What a reader sees of a paragraph that might be a section heading, as numbers for a learned decision.

The hand rules of `headings` each look at a few of these cues with thresholds fitted to the layouts
in view; `heading_model` weighs all of them at once, with weights learned from papers whose headings
are known (outlines, structured twins, generated papers).  Every cue is measured against the
document itself — size and weight relative to its body text, gaps relative to its line pitch, how
rare the paragraph's style is in this paper, whether that style is the style of its sure headings —
so that the decision carries over to a publisher nobody looked at.  The rules' own verdicts are
cues too: the model learns where to trust them.
"""

from __future__ import annotations

import math
import re

from ...captions import CAPTION_RE
from .headings import (
    _NUMBERED,
    _OUTSIDE_RE,
    _STANDARD_RE,
    BodyStyle,
    Para,
    _Decider,
    _family,
    _numbered_start,
    _other_face,
    _plausible_title,
    _style_key,
    capitals,
    lead_in,
    strong,
)

NAMES = (
    "bias_rule", "rule_level", "size_rel", "size_up", "size_down", "bold", "other_face", "italic", "strong",
    "capitals", "lines", "words", "ends_period", "ends_colon", "ends_comma", "numbered", "num_depth",
    "num_letter", "num_follows", "numbered_start", "standard", "outside", "plausible_strong", "plausible_plain",
    "gap_above", "gap_above_none", "gap_below", "gap_below_none", "centred", "indent", "column_start",
    "column_end", "in_figure", "running", "first_upper", "first_lower", "alpha", "next_lower", "next_long",
    "next_strong", "alone", "lead_in", "title_page", "style_share", "style_paras", "sure_style", "caption",
    "after_heading", "head_family", "title_case", "digits", "math", "page_frac", "sentence", "chars",
    "next_same_style",
)
_SENTENCE = re.compile(r"[.!?]\s+[A-Za-z]")
_MATH = re.compile(r"[=<>±×∑∫√≤≥∈→]")


def _clip(x: float, lo: float, hi: float) -> float:
    return max(lo, min(hi, x))


def _style(p: Para) -> tuple:
    """The style a heading level is set in: size, weight, capitals and face."""
    return (*_style_key(p.first), p.first.face, p.first.italic)


class DocContext:
    """What the whole paper says about styles: how common each paragraph style is (the body's is
    everywhere, a heading style is rare), and which styles its sure headings are set in (a standard
    name or a section number set apart from the body)."""

    def __init__(self, paras: list[Para], body: BodyStyle) -> None:
        self.body = body
        self.chars: dict[tuple, int] = {}
        self.count: dict[tuple, int] = {}
        self.sure: set[tuple] = set()
        total = 0
        for p in paras:
            key = _style(p)
            self.chars[key] = self.chars.get(key, 0) + len(p.text)
            self.count[key] = self.count.get(key, 0) + 1
            total += len(p.text)
            bare = p.text.strip().rstrip(".:").strip()
            if len(p.lines) <= 2 and (strong(p.first, body) or capitals(bare)) \
                    and (_STANDARD_RE.match(bare) or _numbered_start(p.text + " ")):
                self.sure.add(key)
        self.total = max(1, total)
        self.pages = max((p.first.page for p in paras), default=1)
        self.title_page = min((p.first.page for p in paras), default=1)


def candidate(p: Para, body: BodyStyle) -> bool:
    """Worth asking about at all: a short paragraph of words, not a contents entry."""
    text = p.text.strip()
    return bool(text) and not p.contents and len(p.lines) <= 2 and len(text) <= 160 \
        and (text[0].isalnum() or text[0] in "§\"'“‘([") and p.first.size >= 0.66 * body.size


def _number(text: str, decider: _Decider) -> tuple[float, float, float, float]:
    """(numbered, depth, letter or roman, continues the paper's numbering) of the paragraph's number."""
    m = _NUMBERED.match(text)
    if not m or re.match(r"^\d+(\.\d+)*\s+\d", text):
        return 0.0, 0.0, 0.0, 0.0
    num = m.group("num")
    follows = any(decider.numbering.follows(k, 1) for k in decider.numbering.keys(m))
    return 1.0, float(num.count(".") + 1), float(not num[0].isdigit()), float(follows)


def features(p: Para, nxt: Para | None, ctx: DocContext, decider: _Decider, head) -> list[float]:
    """The cues of one candidate paragraph, in the order of NAMES."""
    body, ln, text = ctx.body, p.first, p.text.strip()
    bare = text.rstrip(".:").strip()
    words = text.split()
    letters = [c for c in text if c.isalpha()]
    numbered, depth, letter, follows = _number(text, decider)
    key = _style(p)
    gap_below = nxt.gap_above if nxt is not None and nxt.first.page == ln.page else None
    nxt_text = nxt.text if nxt is not None else ""
    caps_words = [w for w in words if w[:1].isalpha()]
    return [
        float(head is not None), float(head[1]) if head else 0.0,
        _clip((ln.size - body.size) / max(body.size, 1.0), -0.5, 1.0),
        float(ln.size >= body.size + 0.8), float(ln.size < body.size - 0.7),
        float(ln.bold and not body.bold), float(_other_face(ln, body)), float(ln.italic),
        float(all(strong(x, body) for x in p.lines)), float(capitals(text)),
        float(len(p.lines)), math.log1p(len(words)),
        float(text.endswith(".")), float(text.endswith(":")), float(text.endswith((",", ";"))),
        numbered, depth, letter, follows, float(_numbered_start(text + " ")),
        float(bool(_STANDARD_RE.match(bare))), float(bool(_OUTSIDE_RE.match(bare))),
        float(_plausible_title(text, True)), float(_plausible_title(text, False)),
        _clip(p.gap_above or 0.0, 0.0, 4.0), float(p.gap_above is None),
        _clip(gap_below or 0.0, 0.0, 4.0), float(gap_below is None),
        float(p.centred), _clip(p.indent / max(ln.size, 1.0), -2.0, 6.0),
        float(p.column_start), float(p.column_end), float(p.in_figure),
        float(re.sub(r"\d+", "#", text) in decider.running),
        float(bool(letters) and letters[0].isupper()), float(bool(letters) and letters[0].islower()),
        len(letters) / max(1, len(text.replace(" ", ""))),
        float(nxt_text[:1].islower()), float(len(nxt_text) > 80),
        float(nxt is not None and strong(nxt.first, body)),
        float(ln.alone), float(bool(lead_in(ln))), float(ln.page == ctx.title_page),
        ctx.chars.get(key, 0) / ctx.total, math.log1p(ctx.count.get(key, 0)), float(key in ctx.sure),
        float(bool(CAPTION_RE.match(text))), float(decider.after_heading),
        float(_family(ln.face) in decider.head_families),
        sum(w[0].isupper() for w in caps_words) / max(1, len(caps_words)),
        sum(c.isdigit() for c in text) / max(1, len(text)), float(bool(_MATH.search(text))),
        (ln.page - ctx.title_page) / max(1, ctx.pages - ctx.title_page),
        float(bool(_SENTENCE.search(text))), math.log1p(len(text)),
        float(nxt is not None and _style(nxt) == key),
    ]
