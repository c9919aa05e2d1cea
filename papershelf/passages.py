"""Reading a paper's text in pieces: by section or page range, within a size budget.

An agent cannot take a 40-page paper in one answer, so `passage` hands out the
selected text in stretches of at most `budget_chars` characters, each with a
cursor naming where the next one starts ("unit index:character offset"
into the selection).  A cursor is only meaningful for the same selection.
"""

from __future__ import annotations

from .errors import BadArgument, NotFound
from .models import Paper, Passage
from .search.snippets import pages_of
from .units import Unit

MIN_BUDGET, MAX_BUDGET = 200, 200_000


def select_units(units: list[Unit], section: str | None, pages: tuple[int, int] | None) -> list[Unit]:
    """The text units (body and chunks, not figures) in `section` (or below it) and touching `pages`."""
    chosen = [u for u in units if u.kind != "object"]
    if section:
        want = section.strip().lower()
        chosen = [u for u in chosen if (p := u.section_path.lower()) == want or p.startswith(want + " > ")]
    if pages:
        lo, hi = pages
        chosen = [u for u in chosen if u.page_start is not None
                  and u.page_start <= hi and (u.page_end or u.page_start) >= lo]
    return chosen


def parse_cursor(cursor: str | None) -> tuple[int, int]:
    if not cursor:
        return 0, 0
    try:
        unit, char = (int(x) for x in cursor.split(":"))
    except ValueError:
        raise BadArgument(f"bad cursor {cursor!r}: pass back the next_cursor of the previous answer") from None
    if unit < 0 or char < 0:
        raise BadArgument(f"bad cursor {cursor!r}")
    return unit, char


def _header(u: Unit) -> str:
    where = u.section_path or "(text)"
    return f"## {where}" + (f" (p. {pages_of(u)})" if pages_of(u) else "") + "\n\n"


def read_passage(paper: Paper, units: list[Unit], section: str | None, pages: tuple[int, int] | None,
                 budget_chars: int, cursor: str | None) -> Passage:
    """Text of the selected units from `cursor` on, cut at `budget_chars`."""
    if not MIN_BUDGET <= budget_chars <= MAX_BUDGET:
        raise BadArgument(f"budget_chars must be between {MIN_BUDGET} and {MAX_BUDGET}, not {budget_chars}")
    chosen = select_units(units, section, pages)
    if not chosen:
        known = sorted({u.section_path for u in units if u.kind != "object" and u.section_path})
        hint = f"; sections: {', '.join(known[:12])}" if known else ""
        raise NotFound(f"paper {paper.id!r} has no text matching that section/page range{hint}")
    index, offset = parse_cursor(cursor)
    if index >= len(chosen):
        raise BadArgument(f"cursor {cursor!r} is past the end of this selection")
    parts: list[str] = []
    covered: list[Unit] = []
    used = 0
    while index < len(chosen):
        u = chosen[index]
        head = _header(u) if offset == 0 else ""
        rest = u.text[offset:]
        if used + len(head) + len(rest) <= budget_chars:
            parts.append(head + rest)
            covered.append(u)
            used += len(head) + len(rest)
            index, offset = index + 1, 0
            continue
        if not parts:  # this unit alone is over the budget: give part of it, continue inside it
            take = rest[:max(budget_chars - len(head), 100)]
            parts.append(head + take)
            covered.append(u)
            offset += len(take)
        break  # otherwise the next unit starts whole in the next stretch
    next_cursor = f"{index}:{offset}" if index < len(chosen) else None
    return Passage(paper.id, paper.title, "\n\n".join(p.rstrip() for p in parts), _dedup(covered),
                   _page_span(covered), next_cursor, len(covered))


def _dedup(units: list[Unit]) -> list[str]:
    return list(dict.fromkeys(u.section_path for u in units))


def _page_span(units: list[Unit]) -> str | None:
    starts = [u.page_start for u in units if u.page_start is not None]
    ends = [u.page_end or u.page_start for u in units if u.page_start is not None]
    if not starts:
        return None
    lo, hi = min(starts), max(ends)
    return str(lo) if lo == hi else f"{lo}-{hi}"
