"""Union-find (disjoint sets) over hashable keys: the citation graph groups reference entries into works
with it, and the PDF reader groups ruling lines that meet into frames.  One small structure both use, so
the path compression and the tie rule are written once."""

from __future__ import annotations

from typing import Generic, TypeVar

K = TypeVar("K", str, int)


class UnionFind(Generic[K]):
    """Keys joined into sets; `find` gives a set's root, the same whatever order the unions came in."""

    def __init__(self) -> None:
        self.parent: dict[K, K] = {}

    def find(self, x: K) -> K:
        root = self.parent.setdefault(x, x)
        while root != self.parent[root]:
            root = self.parent[root]
        while x != root:  # path compression keeps later finds flat
            self.parent[x], x = root, self.parent[x]
        return root

    def union(self, a: K, b: K) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[max(ra, rb)] = min(ra, rb)  # the smaller key wins: the same root whatever the order
