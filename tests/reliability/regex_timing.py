"""Super-linear time in text patterns, found by timing them on adversarial strings (issue #43).

Python's `re` backtracks: a pattern with nested or overlapping repeats takes exponential time on
some input ("A-B-C-...-Z-" against ``[A-Z][^\\s]*(?:[\\s-]+[A-Z][^\\s]*)*$`` on 120 characters never
ends), one with a lazy scan inside an unanchored search quadratic time.  Such an input can sit in
any paper's reference list or metadata, so every pattern of the package (module-level ones, and
literal ones written inside functions, read from the source), and the reader functions that build
patterns inline, are timed here on strings built to trigger backtracking: units repeated to lengths
16 to 2000 with a tail that makes the match fail at the end.  A pattern made linear by starting only
where its run starts (``(?<!\\s)\\s+x``) is searched the way the harness searches it; one only ever
matched at a fixed position is made linear all the same, so that no pattern needs an exception here.

Run as a program it prints one JSON line per finding, so the test can bound it in time from
outside: a pattern that hangs cannot be interrupted inside the process that runs it.

    python -m tests.reliability.regex_timing [GENERATED_UNITS] [--short]
"""

from __future__ import annotations

import ast
import importlib
import json
import pkgutil
import re
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path


def _modules() -> list[str]:
    """Every module of the package, walked rather than listed: a new module's patterns are timed without
    anyone remembering to add it (unlisted modules and patterns written inside functions held seventeen
    quadratic ones)."""
    import papershelf

    return sorted(m.name for m in pkgutil.walk_packages(papershelf.__path__, "papershelf.")
                  if not m.ispkg and not m.name.endswith("__main__"))  # (__main__ runs the CLI)


MODULES = _modules()

# Pieces a reference or a title page is made of; repeated, each one alone or two together.
UNITS = ["A-", "A.", "A. ", "A", "a", " ", "-", ".", ",", "A, ", "Ab ", "Ab-", "AB-", "“", '"', "'", "(", ")", "[",
         "1", "1.", "1 ", "10.", "10.1000/", "2019", "2019a ", "(2019) ", "Smith, J., ", "Smith J, ", "et al. ", "van ",
         "de la ", "pp. 1-", "arxiv:", "abs/", "http://", "\t", "\n", "ab. ", "Ab. ", "A.-", "AB ", "aA", ":", ";",
         "—", "é", "中", "0", "Ab, ", "A B ", "a-", "Fig. ", "Table 1", "I", "IV ", "© ", "In ", "Proc. ", "&",
         "Jr. ", "de ", "ß", "Ab:", "#", "*", "_", "\\", "{", "}", "=", "%", "|", "1)", "a)", "S1"]
TAILS = ["", "!", " 1", ":", "a", " ."]
SHORT = (16, 32, 48, 64)  # an exponential pattern shows here, before it would never end
LONG = (500, 2000)
SLOW_SHORT = 0.05  # seconds for one call on at most 64 characters: linear patterns take microseconds
SLOW_LONG = 0.002  # seconds on 2000 characters before the growth from 200 is looked at
GROWTH = 9.0  # time(2000) / time(500): ~4 when linear, ~16 when quadratic


def patterns() -> Iterator[tuple[str, re.Pattern]]:
    """Every compiled pattern at the top level of the modules (and in their tuples and dicts)."""
    for name in MODULES:
        module = importlib.import_module(name)
        for attr, value in vars(module).items():
            values = value.values() if isinstance(value, dict) else value if isinstance(value, tuple | list) \
                else [value]
            for v in values:
                if isinstance(v, re.Pattern):
                    yield f"{name}.{attr}", v


_CALLS = {"search", "match", "fullmatch", "sub", "subn", "findall", "finditer", "split", "compile"}


def _flags(node: ast.expr | None) -> int | None:
    """`re.I | re.M`-style flags as written in the source; None when they are not plain `re.` names."""
    if node is None:
        return 0
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "re":
        return int(getattr(re, node.attr))
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        left, right = _flags(node.left), _flags(node.right)
        return None if left is None or right is None else left | right
    return None


def inline_patterns(name: str) -> Iterator[tuple[str, re.Pattern]]:
    """Patterns written as a literal inside a function (`re.sub(r"...", ...)`), which no module
    attribute holds: read from the module's source, compiled with the flags written beside them."""
    module = importlib.import_module(name)
    tree = ast.parse(Path(module.__file__ or "").read_text())
    held = {(v.pattern, v.flags) for v in vars(module).values() if isinstance(v, re.Pattern)}  # timed already
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and isinstance(node.func.value, ast.Name) and node.func.value.id == "re"
                and node.func.attr in _CALLS and node.args and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)):
            continue
        at = {"compile": 1, "sub": 4, "subn": 4, "split": 3}.get(node.func.attr, 2)
        given = next((k.value for k in node.keywords if k.arg == "flags"), None)
        flags = _flags(given if given is not None else node.args[at] if len(node.args) > at else None)
        if flags is not None and (pattern := re.compile(node.args[0].value, flags)) \
                and (pattern.pattern, pattern.flags) not in held:
            yield f"{name}:{node.lineno}", pattern


def functions() -> Iterator[tuple[str, Callable[[str], object]]]:
    """The readers' functions that take one string and run patterns built inline."""
    from papershelf import works
    from papershelf.ingest import captions, metadata, references
    from papershelf.ingest.pdf.bibliography import references as pdf_references
    from papershelf.ingest.pdf.front import authors, meta

    yield "references.parse_reference", lambda s: references.parse_reference(s, 1)
    yield "references.split_authors", references.split_authors
    yield "references._looks_like_names", references._looks_like_names
    yield "references.split_numbered", lambda s: references.split_numbered(s.split("\n") + [s])
    yield "references.references_from_texts", lambda s: references.references_from_texts([s, s])
    yield "pdf.references._join", lambda s: pdf_references._join([s, s])
    yield "captions.parse_caption", captions.parse_caption
    yield "captions.query_labels", captions.query_labels
    yield "metadata.normalized_title", metadata.normalized_title
    yield "metadata.parse_bibtex", lambda s: metadata.parse_bibtex("@article{k, title={" + s + "}, author={" + s + "}}",
                                                                   "/tmp")
    yield "metadata._tex_author", metadata._tex_author
    yield "works.title_key", lambda s: works.title_key(s, [s])
    yield "works.surname", works.surname
    yield "pdf.meta.page_lines", meta.page_lines
    yield "pdf.meta.clean_line", meta.clean_line
    yield "pdf.authors.line_names", authors.line_names


def strings(unit: str, length: int, tail: str) -> str:
    return (unit * (length // max(1, len(unit)) + 1))[:length] + tail


def _time(call: Callable[[str], object], text: str, runs: int = 2) -> float:
    best = float("inf")
    for _ in range(runs):
        started = time.thread_time()  # this thread's CPU: other processes on a busy machine do not count
        try:
            call(text)
        except Exception:  # noqa: BLE001 - a failure is the function's to report, not a timing
            pass
        best = min(best, time.thread_time() - started)
    return best


def growth(call: Callable[[str], object], unit: str, tail: str) -> dict | None:
    """A finding (dict) when `call` takes super-linear time on `unit` repeated, else None."""
    for n in SHORT:
        t = _time(call, strings(unit, n, tail), runs=1)
        if t > SLOW_SHORT and _time(call, strings(unit, n, tail), runs=2) > SLOW_SHORT:
            return {"length": n, "seconds": round(t, 4), "kind": "slow on a short string (exponential?)"}
    long = _time(call, strings(unit, LONG[1], tail), runs=1)
    if long < SLOW_LONG:
        return None
    short = _time(call, strings(unit, LONG[0], tail), runs=3)
    long = _time(call, strings(unit, LONG[1], tail), runs=3)
    if long > SLOW_LONG and long / max(short, 1e-6) > GROWTH:
        return {"length": LONG[1], "seconds": round(long, 4), "growth": round(long / max(short, 1e-6), 1),
                "kind": "super-linear growth"}
    return None


# The short run (CI): the units every finding so far came from, two tails.
SHORT_UNITS = ["A-", "A.", "A. ", "A", " ", ".", ",", "Ab ", "Ab. ", "AB-", "“", '"', "(", "1", "2019", "Smith J, ",
               "et al. ", "de la ", "pp. 1-", "\t", "\n", "Fig. ", "A, ", "abs/", "IV ", "II ", "de "]


def families(extra: list[str], full: bool = True) -> list[tuple[str, str]]:
    """(unit, tail) pairs: each unit alone and the hand-built pairs, then generated units (`full`), or
    the short run's units with two tails."""
    if not full:
        return [(u, t) for u in SHORT_UNITS + extra for t in ("!", " 1")]
    units = UNITS + [a + b for a, b in zip(UNITS, UNITS[1:] + UNITS[:1], strict=True)] + extra
    return [(u, t) for u in units for t in TAILS]


def run(extra: list[str], full: bool = True, out=sys.stdout) -> int:
    """Time every pattern's search and every function on every family; print the findings."""
    found = 0
    targets: list[tuple[str, Callable[[str], object]]] = []
    targets += [(f"{name}.search", p.search) for name, p in patterns()]  # findall and split search again
    targets += [(f"{where}.search", p.search) for name in MODULES for where, p in inline_patterns(name)]
    targets += list(functions())
    for unit, tail in families(extra, full):
        for name, call in targets:
            print(json.dumps({"started": name, "unit": unit, "tail": tail}), file=sys.stderr, flush=True)
            finding = growth(call, unit, tail)
            if finding:
                found += 1
                print(json.dumps({"target": name, "unit": unit, "tail": tail, **finding}), file=out, flush=True)
    return found


def generated_units(n: int, seed: int = 43) -> list[str]:
    """`n` more units drawn by hypothesis from the characters the hand-built ones are made of."""
    if n <= 0:
        return []
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    alphabet = sorted(set("".join(UNITS)) | set("Zz9,;:.-–—()[]\"'“” \t\nÅ"))
    drawn: list[str] = []

    @settings(max_examples=n, derandomize=True, database=None, deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(st.text(alphabet=alphabet, min_size=1, max_size=6))
    def draw(unit: str) -> None:
        drawn.append(unit)

    draw()
    return list(dict.fromkeys(drawn))[:n]


if __name__ == "__main__":
    generated = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    sys.exit(1 if run(generated_units(generated), full="--short" not in sys.argv) else 0)
