"""A paper's section numbering as a reader follows it: which printed numbers may come next.

Numbers are read as positions: "3.2" is (3, 2), "II" under roman numbering is (2,), "A.1" in an
appendix is (101, 1) so that appendices follow any numbered section.  A number that does not follow
the scheme so far is no section (a list item, a step, a citation's number).
"""

from __future__ import annotations

import re

_ROMAN = {"I": 1, "V": 5, "X": 10}
_APPENDIX = 100  # appendix A is section 101: it follows any numbered section


def _roman(s: str) -> int | None:
    if not re.fullmatch(r"X{0,3}(IX|IV|V?I{0,3})", s) or not s:
        return None
    total = 0
    for a, b in zip(s, s[1:] + " "):
        v = _ROMAN[a]
        total += -v if b != " " and _ROMAN[b] > v else v
    return total


class Numbering:
    """The paper's numbering scheme so far: which numbers may come next."""

    def __init__(self) -> None:
        self.last: tuple[int, ...] | None = None
        self.roman = False
        self.titles: dict[tuple[int, ...], str] = {}
        self.list_last = 0  # the last item of a numbered list running in the text (1., 2., 3. ...)
        self.seps: dict[int, str] = {}  # what follows the number at each depth so far: "", "." or ")"

    def list_item(self, m: re.Match) -> bool:
        """Is this number the next item of a list in progress?  A list that reaches "4." inside §3
        does not make its fourth item section 4.  A rejected number may start or continue a list."""
        num = m.group("num")
        n = int(num) if num.isdigit() else None
        if n is not None and n == self.list_last + 1:
            self.list_last = n
            return True
        return False

    def keys(self, m: re.Match) -> list[tuple[int, ...]]:
        """Positions a printed number could stand for, most likely first."""
        num, out = m.group("num").upper(), []
        if m.group("app"):
            letter = num.split(".")[0]
            base = (_APPENDIX + (ord(letter) - 64),) if letter.isalpha() else (_APPENDIX + int(letter),)
            return [base + tuple(int(p) for p in num.split(".")[1:])]
        if num[0].isdigit():
            parts = tuple(int(p) for p in num.split("."))
            if self.roman and self.last and len(parts) == 1 and len(self.last) >= 2:
                out.append(self.last[:2] + parts)  # IEEE: "1)" under "A." under "II."
            return out + [parts]
        roman = _roman(num) if not self.last or self.roman else None
        if roman:
            out.append((roman,))
        head = num.split(".")[0]
        if len(head) == 1:
            rest = tuple(int(p) for p in num.split(".")[1:])
            if self.roman and self.last:
                out.append((self.last[0], ord(head) - 64) + rest)
            elif self.last:
                out.append((_APPENDIX + ord(head) - 64,) + rest)
        return out

    def follows(self, new: tuple[int, ...], slack: int) -> bool:
        prev = self.last
        if prev is None:
            return len(new) == 1 and (new[0] <= 1 + slack or new[0] == _APPENDIX + 1)
        if new[0] > _APPENDIX >= prev[0]:
            return new == (_APPENDIX + 1,)
        if len(new) == len(prev) + 1 and new[:-1] == prev:
            return 1 <= new[-1] <= 1 + slack
        for k in range(len(prev)):
            if len(new) == k + 1 and new[:k] == prev[:k]:
                return 1 <= new[k] - prev[k] <= 1 + slack
        return False

    def accept(self, m: re.Match, slack: int) -> tuple[int, ...] | None:
        sep = m.groupdict().get("sep") or ""
        for key in self.keys(m):
            if sep == ")" and self.seps.get(len(key), ")") != ")":
                continue  # "3)" where the paper's sections read "3 Design": an item of a list
            if self.titles.get(key) == m.group("title").lower():
                self.last = key  # the same heading again: a table of contents came first
                return key
            if self.follows(key, slack):
                self.titles[key] = m.group("title").lower()
                self.seps.setdefault(len(key), sep)
                self.list_last = 0
                if self.last is None:
                    self.roman = not m.group("num")[0].isdigit() and key[0] < _APPENDIX
                self.last = key
                return key
        return None
