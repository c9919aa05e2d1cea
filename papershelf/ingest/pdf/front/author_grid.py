"""A byline set as a grid of columns, one author a column: the name on top, then the name's own lines
(an institution, a city, an e-mail address) stacked under it in the names' size and weight.

Read row by row, such a grid's second row is a row of institutions that parse as names ("Johns
Hopkins", "Max Planck", "Xerox PARC"), and words alone cannot tell them from a second row of
authors.  The grid's own structure can: a column's lines down to its e-mail address (or down to a
row of addresses) are its author's, so the rows between a row of names and the first row under it,
cell for cell in the same columns, one of whose cells holds an e-mail address or no name (an
address), are the names' affiliations, that row with them.  Two rows of names with nothing under
them in the columns (a list of names set in a grid) have no such row and are read as they are; nor
is a row under names that carry affiliation marks ("Ana Ruiz^1"), whose affiliations are listed apart.
"""

from __future__ import annotations

from collections.abc import Callable

from ..text.lines import Line


def _aligned(row: list[Line], names: list[Line]) -> bool:
    """Every cell of `row` stands under its own cell of `names` (their spans overlap one to one)."""
    if len(row) < 2 or len(row) > len(names):
        return False
    under = [[k for k, n in enumerate(names) if ln.x0 < n.x1 and n.x0 < ln.x1] for ln in row]
    return all(len(u) == 1 for u in under) and len({u[0] for u in under}) == len(row)


def affiliation_rows(rows: list[list[Line]], read: Callable[[str], tuple[list[str] | None, str]],
                     marked: Callable[[str], bool]) -> set[int]:
    """The indices of rows that are the affiliations of a row of names above them in a grid of columns.
    `read(text)`: a line's names (None: no names) and the words after them; `marked(text)`: the line
    carries an affiliation mark."""
    out: set[int] = set()
    i = 0
    while i < len(rows):
        names = rows[i]
        if len(names) < 2 or not all(_one_name(ln.text, read) and not marked(ln.text) for ln in names):
            i += 1
            continue
        j = i + 1
        while j < len(rows) and _aligned(rows[j], names) and all(_one_name(ln.text, read) for ln in rows[j]):
            j += 1  # rows whose every cell reads as one name: a second row of authors, or institutions
        if j < len(rows) and _aligned(rows[j], names) and _closes(rows[j], read):
            out |= set(range(i + 1, j + 1))  # the closing row's name-like cells too ("Seattle WA" by "Palo Alto, CA")
            j += 1
        i = j
    return out


def _one_name(text: str, read: Callable[[str], tuple[list[str] | None, str]]) -> bool:
    names, more = read(text)
    return names is not None and len(names) == 1 and not more


def _closes(row: list[Line], read: Callable[[str], tuple[list[str] | None, str]]) -> bool:
    """A row that closes the columns' cells: one of them holds an e-mail address or no name (an address)."""
    return any("@" in ln.text or read(ln.text)[0] is None for ln in row)
