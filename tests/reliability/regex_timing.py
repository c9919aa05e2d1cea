"""Super-linear time in text patterns, found by timing them on adversarial strings (issue #43).

Python's `re` backtracks: a pattern with nested or overlapping repeats takes exponential time on
some input ("A-B-C-...-Z-" against ``[A-Z][^\\s]*(?:[\\s-]+[A-Z][^\\s]*)*$`` on 120 characters never
ends), one with a lazy scan inside an unanchored search quadratic time.  Such an input can sit in
any paper's reference list or metadata, so every module-level pattern of the readers, and the
functions that build patterns inline, are timed here on strings built to trigger backtracking:
units repeated to lengths 16 to 2000 with a tail that makes the match fail at the end.

Run as a program it prints one JSON line per finding, so the test can bound it in time from
outside: a pattern that hangs cannot be interrupted inside the process that runs it.

    python -m tests.reliability.regex_timing [GENERATED_UNITS] [--short]
"""

from __future__ import annotations

import importlib
import json
import re
import sys
import time
from collections.abc import Callable, Iterator

MODULES = ["papershelf.ask_pool", "papershelf.ask_refusal", "papershelf.ask_kinds",
           "papershelf.ingest.references", "papershelf.ingest.metadata", "papershelf.ingest.structured_references",
           "papershelf.ingest.captions", "papershelf.ingest.markdown", "papershelf.ingest.structured",
           "papershelf.ingest.zotero", "papershelf.works", "papershelf.text", "papershelf.document",
           "papershelf.resolve", "papershelf.bibtex"] + [
    f"papershelf.ingest.pdf.{m}" for m in ("references", "meta", "authors", "author_block", "headings", "lines",
                                           "reader", "contents", "outline", "regions", "year", "tracking", "ocr",
                                           "ocr_lines", "ocr_style", "ocr_marks", "type3_codes",
                                           "caption_cuts", "title", "title_wrap", "runin", "heading_runin",
                                           "heading_lines", "numbering", "list_end", "cited_labels", "table_bands",
                                           "unheaded", "glyph_apart", "list_labels", "meta_doi", "name_order",
                                           "plain_front", "line_weight", "region_wrap", "region_ends",
                                           "stacked_signs", "list_marks", "caption_gaps", "author_rows",
                                           "title_tiers", "heading_levels", "sheets", "font_weight", "tex_signs",
                                           "list_heading", "heading_period", "heading_long", "small_print",
                                           "title_head", "cover")]

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


def functions() -> Iterator[tuple[str, Callable[[str], object]]]:
    """The readers' functions that take one string and run patterns built inline."""
    from papershelf import works
    from papershelf.ingest import captions, metadata, references
    from papershelf.ingest.pdf import authors, meta
    from papershelf.ingest.pdf import references as pdf_references

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
