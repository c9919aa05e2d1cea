"""The `papershelf` command's entry point: a plain `papershelf search` answered without the CLI app.

A cold search is what a user waits for most often, and the Typer app costs it more than the search
itself: Typer and Click, pydantic with its core and annotated-types (the commands are derived from
the operations' request models), and every command's declaration, before one word is looked up
(issue 42; docs/measurements/speed.md).  So the entry point first reads argv itself: when it is a
search it fully understands (the library, one query, and `--mode`, `--limit`, `--kind`, the paper,
year, author, tag and collection filters, `--per-paper`, `--explain`, `--json`, `--no-server`, with
values it can check the way the request model would), it runs the search through the Library and
prints it with the CLI's own printer.  Anything else, and anything
that goes wrong or would need the app's machinery (a running server to ask, a reranker, an error to
word, `--help`), falls through to the Typer app untouched, which then does all of it as before.
The fallback repeats nothing the user saw: the quick path prints only after its search succeeded.
"""

from __future__ import annotations

import os
import sys
from typing import Any

MODES = ("hybrid", "lexical", "vector")
# flag -> (the request field, what it takes): a tuple of choices; ("int", lo, hi) a whole number within
# SearchParams' bounds; ("text", lo, hi) a string of that many characters; "list" a repeatable string;
# None a switch.  Other flags (--help, --like, --source, fusion, reranker, citations) are the app's.
OPTIONS: dict[str, tuple[str, Any]] = {
    "--mode": ("mode", MODES), "-m": ("mode", MODES), "--limit": ("limit", ("int", 1, 1000)),
    "-n": ("limit", ("int", 1, 1000)), "--kind": ("kind", ("figure", "table")),
    "--per-paper": ("per_paper", ("int", 1, 10_000)), "--year-from": ("year_from", ("int", -9999, 9999)),
    "--year-to": ("year_to", ("int", -9999, 9999)), "--author": ("author", ("text", 1, 200)),
    "--paper": ("paper", "list"), "--tag": ("tag", "list"), "--collection": ("collection", "list"),
    "--explain": ("explain", None), "--json": ("as_json", None), "--no-server": ("no_server", None)}
DEFAULTS: dict[str, Any] = {"query": None, "mode": "hybrid", "limit": 10, "kind": None, "per_paper": 2,
                            "year_from": None, "year_to": None, "author": None, "paper": [], "tag": [],
                            "collection": [], "explain": False, "as_json": False, "no_server": False}
MAX_QUERY = 2000  # SearchParams.query's max_length


def _value(kind: Any, text: str) -> Any:
    """The option's value, or None when the quick path would not read it exactly as the app does
    (a value starting with "-" included: Click's reading of it is left to Click)."""
    if text.startswith("-"):
        return None
    if kind[0] == "int":
        n = int(text) if text.isascii() and text.isdigit() else None
        return n if n is not None and kind[1] <= n <= kind[2] else None
    if kind[0] == "text":
        return text if kind[1] <= len(text) <= kind[2] else None
    return text if text in kind else None


def _globals(argv: list[str]) -> tuple[str | None, list[str]] | None:
    """(the --library given before the command, the command's own words), or None for other globals."""
    library = None
    while argv and argv[0] != "search":
        head = argv[0]
        if head in ("--library", "-L") and len(argv) > 1 and library is None:
            library, argv = argv[1], argv[2:]
        elif head.startswith("--library=") and library is None:
            library, argv = head.split("=", 1)[1], argv[1:]
        else:
            return None
    return (library, argv[1:]) if argv else None


def parse(argv: list[str]) -> dict[str, Any] | None:
    """What a search command line asks for, or None when it is not one the quick path answers alone."""
    found = _globals(argv)
    if found is None:
        return None
    library, words = found
    args: dict[str, Any] = {"library": library, **DEFAULTS, "paper": [], "tag": [], "collection": []}
    seen: set[str] = set()
    while words:
        word, words = words[0], words[1:]
        if not word.startswith("-"):
            if args["query"] is not None:
                return None
            args["query"] = word
            continue
        flag, eq, given = word.partition("=")
        if flag not in OPTIONS:
            return None  # --help, --, --like, a reranker, fusion weights: the app's
        name, kind = OPTIONS[flag]
        if (name in seen and kind != "list") or (kind is None and eq):
            return None
        seen.add(name)
        if kind is None:
            args[name] = True
            continue
        if not eq:
            if not words:
                return None
            given, words = words[0], words[1:]
        if kind == "list":
            if given.startswith("-"):
                return None
            args[name].append(given)
        elif (value := _value(kind, given)) is None:
            return None
        else:
            args[name] = value
    query = args["query"]
    return args if query is not None and 0 < len(query) <= MAX_QUERY else None


def options(args: dict[str, Any]):
    """The SearchOptions the request model would build for these arguments (SearchParams.options)."""
    from ..models import Filters
    from ..search import SearchOptions

    kind = args["kind"]
    filters = Filters(papers=list(args["paper"]), year_from=args["year_from"], year_to=args["year_to"],
                      sources=["object_unit"] if kind else [], object_kind=kind, collections=list(args["collection"]),
                      tags=list(args["tag"]), author=args["author"])
    return SearchOptions(mode=args["mode"], limit=args["limit"], per_paper=args["per_paper"], filters=filters,
                         explain=args["explain"])


def _server_may_run(library: str | None) -> bool:
    """Whether a `papershelf serve` may be serving this library (a live pid in its discovery file):
    asking it, and the HTTP client that needs, stay with the app."""
    from ..library import default_library_path
    from ..system import pid_alive
    from .client import _advertised, discovery_path

    info = _advertised(discovery_path(library or default_library_path()))
    return info is not None and (not isinstance(info.pid, int) or pid_alive(info.pid))


def search(argv: list[str]) -> bool:
    """Answer `argv` if it is a plain search; False (nothing printed) when the app must."""
    args = parse(argv)
    if args is None or os.environ.get("PAPERSHELF_RERANK_URL"):
        return False
    from ..library import Library

    try:
        opts = options(args).validate()
        if not args["no_server"] and _server_may_run(args["library"]):
            return False
        with Library(args["library"], create=False) as lib:
            answer = lib.search(args["query"], opts).to_dict()
    except Exception:  # noqa: BLE001 - the app runs it again, and words the error as it always has
        return False
    from .cli_print import PRINTERS, dump

    if args["as_json"]:
        dump(answer)
    else:
        PRINTERS["search"](answer)
    return True


def main() -> None:
    """`papershelf`: a plain search here, everything else by the Typer app."""
    try:
        if search(sys.argv[1:]):
            return
    except KeyboardInterrupt:
        sys.stderr.write("\nAborted!\n")  # as Click says it
        sys.exit(1)
    except BrokenPipeError:  # `papershelf search ... | head -1`: quiet, as Click is
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - the interpreter flushes it at exit
        sys.exit(1)
    from .cli import app

    app(prog_name="papershelf")
