"""`papershelf refs` and `papershelf cited-by`: the citation graph on the command line.

Registered on the main Typer app (cli.py imports this module at its end); the shapes are the
models' to_dict(), as over HTTP and MCP.
"""

from __future__ import annotations

import typer
from rich.markup import escape
from rich.table import Table

from .cli import _fail, _library, command, out
from .cli_print import dump

FORMATS = ("table", "bibtex")


def _check_format(fmt: str) -> None:
    if fmt not in FORMATS:
        _fail(f"--format must be one of {', '.join(FORMATS)}, not {fmt!r}", 2)


@command()
def refs(paper_id: str = typer.Argument(..., help="A paper (id, prefix, citekey, DOI)."),
         missing: bool = typer.Option(False, "--missing", help="Only the references the library does not hold."),
         fmt: str = typer.Option("table", "--format", help="table or bibtex."),
         as_json: bool = typer.Option(False, "--json")):
    """A paper's references, each with the library paper it names (linked by DOI, arXiv id, or title +
    first author + year)."""
    _check_format(fmt)
    with _library(create=False) as lib:
        listing = lib.references(paper_id)
    if missing:
        listing.references = [r for r in listing.references if r.paper_id is None]
    if fmt == "bibtex":
        from ..bibtex import bibtex  # bibtexparser: loaded only when asked for

        out.print(bibtex((r.ref, r.ref.text) for r in listing.references), end="", markup=False, highlight=False)
        return
    if as_json:
        dump(listing.to_dict())
        return
    t = Table("n", "first author", "year", "title", "in library")
    for r in listing.references:
        t.add_row(str(r.ref.n), escape((r.ref.authors or [""])[0]), str(r.ref.year or ""),
                  escape((r.ref.title or r.ref.text)[:90]), escape(r.paper_id or ""))
    out.print(t)


@command("cited-by")
def cited_by(paper_id: str = typer.Argument(..., help="A paper (id, prefix, citekey, DOI)."),
             as_json: bool = typer.Option(False, "--json")):
    """The papers of the library whose reference lists name this paper."""
    with _library(create=False) as lib:
        d = lib.cited_by(paper_id).to_dict()
    if as_json:
        dump(d)
        return
    if not d["cited_by"]:
        out.print(f"no paper in this library cites {escape(d['paper_id'])}")
        return
    t = Table("paper", "title", "year", "entry")
    for c in d["cited_by"]:
        t.add_row(escape(c["paper_id"]), escape((c["title"] or "")[:80]), str(c["year"] or ""), str(c["n"]))
    out.print(t)


def papers_bibtex(rows) -> str:
    """`papers --format bibtex`: the library's own papers."""
    from ..bibtex import bibtex

    return bibtex((r.paper, None) for r in rows)
