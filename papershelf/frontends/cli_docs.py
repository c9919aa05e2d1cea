"""The reference pages, written from the code: ``python -m papershelf.frontends.cli_docs`` rewrites
docs/reference/cli.md, http.md and mcp.md (``--check``: exit 1 naming the pages that differ; `make docs`
runs it).  The HTTP and MCP pages and the CLI's request commands come from the operations'
declarations (operations/docs.py); the CLI page adds every other command registered on the Typer app,
with the `--help` Click prints, so a command added to the app is in the reference or the check fails.
It lives among the front ends because only they may read the Typer app."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import typer.main

from ..operations import docs, for_door
from . import cli

ROOT = Path(__file__).resolve().parents[2] / "docs" / "reference"
WIDTH = 100  # the help's wrapping width: fixed, so the page does not depend on the terminal


def _context(cmd: Any, name: str, parent: Any = None) -> Any:
    return cmd.context_class(cmd, info_name=name, parent=parent, terminal_width=WIDTH, max_content_width=WIDTH)


def commands() -> Iterator[tuple[str, Any, Any]]:
    """Every visible command of the app as (name, Click command, its context), a group's commands as
    `group sub`, in the app's order.  (Typer vendors its Click, so the types are not `click`'s.)"""

    def walk(group: Any, parent: Any, prefix: str) -> Iterator[tuple[str, Any, Any]]:
        for name, cmd in group.commands.items():
            if cmd.hidden:
                continue
            ctx = _context(cmd, name, parent)
            if hasattr(cmd, "commands"):
                yield from walk(cmd, ctx, f"{prefix}{name} ")
            else:
                yield f"{prefix}{name}", cmd, ctx

    root = typer.main.get_command(cli.app)
    yield from walk(root, _context(root, "papershelf"), "")


def _summary(cmd: Any) -> str:
    return docs._cell(cmd.get_short_help_str(limit=200))


def cli_page() -> str:
    """The operations' CLI page, an index of every command, then the commands that run processes."""
    derived = {op.name for op in for_door("cli")}
    all_commands = list(commands())
    index = ["Every command:", "", "| command | what |", "|---|---|"]
    index += [f"| [`{name}`](#{name.replace(' ', '-')}) | {_summary(cmd)} |" for name, cmd, _ in all_commands]
    root = typer.main.get_command(cli.app)
    options = root.get_help(_context(root, "papershelf")).split("\nCommands:")[0].rstrip()
    page = docs.cli_page()
    cut = page.index("\n## `")
    out = [page[:cut], *index, "", "Options before the command (`papershelf --help`):", "", "```text", options, "```",
           "", page[cut + 1:].rstrip("\n"), ""]
    for name, cmd, ctx in all_commands:
        if name in derived:
            continue
        out += [f"## `{name}`", "", "```text", cmd.get_help(ctx).rstrip(), "```", ""]
    return "\n".join(out)


PAGES = {"cli.md": cli_page, "http.md": docs.http_page, "mcp.md": docs.mcp_page}


def stale(folder: Path = ROOT) -> list[str]:
    """The pages whose checked-in text is not what the code generates."""
    return [name for name, page in PAGES.items()
            if not (folder / name).exists() or (folder / name).read_text() != page()]


def main(argv: list[str]) -> int:
    if "--check" in argv:
        names = stale()
        for name in names:
            print(f"docs/reference/{name} is out of date: run `python -m papershelf.frontends.cli_docs`",
                  file=sys.stderr)
        return 1 if names else 0
    ROOT.mkdir(parents=True, exist_ok=True)
    for name, page in PAGES.items():
        (ROOT / name).write_text(page())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
