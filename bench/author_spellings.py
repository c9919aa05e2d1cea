"""Do `papers --author` and `search --author` name the same papers for every spelling of every author?

For each author of the shared PDFs (/work/shared/data/pdfs), four spellings — the full name, the
surname, initials and surname ("K. Lo"), and the full name in lower case without accents — are asked
of `papers --author X --json` and of `search QUERY --author X --json --no-server` (QUERY: words every
paper holds, so the search can reach every paper), through the real CLI (Typer's runner, in-process),
on SQLite and, with --postgres URL, on a PostgreSQL copy of the same library (`papershelf migrate`).
A spelling "differs" when the search finds a paper `papers` does not list, or misses a listed paper
that the same query reaches when asked of that paper alone (`search QUERY --paper ID`: a paper the
query words cannot reach is no difference of the filters).  Runs against whatever `papershelf` PYTHONPATH names, so the same script measures before
and after a change.

    python bench/author_spellings.py --keep /tmp/authors.db [--postgres URL] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import unicodedata
from pathlib import Path

from typer.testing import CliRunner

PDFS = Path(os.environ.get("PAPERSHELF_SHARED_DATA", Path(__file__).resolve().parents[2] / "shared" / "data")) / "pdfs"
QUERY = "the OR of OR and OR in OR a"


def run(library: str, *args: str):
    from papershelf.frontends import cli

    r = CliRunner().invoke(cli.app, ["-L", library, *args])
    if r.exit_code != 0:
        raise SystemExit(f"papershelf {' '.join(args)}: {r.output}")
    return json.loads(r.stdout)


def spellings(name: str) -> list[str]:
    words = name.replace(",", " ").split()
    if not words:
        return []
    surname = words[-1]
    initials = " ".join(w[0] + "." for w in words[:-1] if w[0].isalpha())
    plain = "".join(c for c in unicodedata.normalize("NFKD", name.lower()) if not unicodedata.combining(c))
    return list(dict.fromkeys([name, surname, f"{initials} {surname}".strip(), plain]))


def _search(library: str, *args: str) -> set[str]:
    return {h["paper_id"] for h in run(library, "search", QUERY, "--mode", "lexical", "--limit", "1000",
                                       "--per-paper", "1", "--json", "--no-server", *args)["results"]}


def measure(library: str) -> dict:
    papers = run(library, "papers", "--json", "--limit", "100000")
    reachable = {p["id"] for p in papers if _search(library, "--paper", p["id"])}
    names = sorted({a for p in papers for a in p["authors"] if a.strip()})
    asked = differ = 0
    examples: list[dict] = []
    for name in names:
        for spelling in spellings(name):
            listed = {p["id"] for p in run(library, "papers", "--author", spelling, "--json", "--limit", "100000")}
            found = _search(library, "--author", spelling)
            asked += 1
            if listed & reachable != found:
                differ += 1
                if len(examples) < 10:
                    examples.append({"spelling": spelling, "papers": sorted(listed & reachable),
                                     "search": sorted(found)})
    return {"papers": len(papers), "reachable": len(reachable), "authors": len(names), "spellings": asked,
            "differ": differ, "examples": examples}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--keep", required=True, help="Build (or reuse) the SQLite library here.")
    ap.add_argument("--postgres", help="Also measure on a copy in this empty PostgreSQL database.")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    if not PDFS.exists():
        raise SystemExit(f"no shared PDFs at {PDFS}")
    from papershelf import Library

    if not Path(args.keep).exists():
        with Library(args.keep) as lib:
            lib.add([str(PDFS)])
    result = {"sqlite": measure(args.keep)}
    if args.postgres:
        from papershelf.frontends import cli

        CliRunner().invoke(cli.app, ["migrate", args.keep, args.postgres])
        result["postgres"] = measure(args.postgres)
    if args.json:
        print(json.dumps(result, indent=1))
    else:
        for backend, r in result.items():
            print(f"{backend}: {r['differ']} of {r['spellings']} spellings ({r['authors']} authors of "
                  f"{r['papers']} papers) name different papers through papers and search", file=sys.stdout)


if __name__ == "__main__":
    main()
