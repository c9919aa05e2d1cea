"""Whether a line is among a list of lines, as ``line in lines`` answers it, without comparing it to
each line held: the region walks ask this of every line of a page against a caption's lines.

``in`` on a list counts an equal line as well as the same one (`Line` is a dataclass: ``==`` compares
its fields' tuple, element by element, a same object counting as equal).  Two equal lines have the
same left edge and top, so a line whose (left, top) pair no line held has is not among them; one whose
pair some line has is asked of the list itself.  The answer is the list's in every case."""

from __future__ import annotations

from .lines import Line


class Held:
    """The lines of a list, for ``line in held`` (see the module's docstring)."""

    __slots__ = ("lines", "places")

    def __init__(self, lines: list[Line]) -> None:
        self.lines = lines
        self.places = {(ln.x0, ln.top) for ln in lines}

    def __contains__(self, ln: Line) -> bool:
        return (ln.x0, ln.top) in self.places and ln in self.lines
