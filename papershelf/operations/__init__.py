"""Operations: each thing papershelf answers, declared once; the CLI, HTTP and MCP doors derive from it.

An `Operation` (base.py) is a name, a strict request model (requests.py), a response shape
(models/shapes.py), help text and examples, and a `run(lib, request, ctx)` that calls one `Library`
method and returns the answer's JSON.  From the declarations

* the CLI (frontends/cli_ops.py) makes a Typer command `papershelf NAME`, one option per request
  field (`--field-name`, help from the field's description), positional fields as arguments,
  ``--json`` always, ``--format`` when the operation declares formats;
* the HTTP API (frontends/http_ops.py) makes ``GET /api/NAME`` (``/api/NAME/{field}`` with `path`),
  the request model validating the query string (an unknown parameter is a 422 naming it);
* MCP (frontends/mcp.py) makes the tool NAME (``-`` as ``_``): input schema = the request model's
  JSON schema, output schema = the response shape's;
* docs/reference/{cli,http,mcp}.md are generated from them (``python -m papershelf.frontends.cli_docs``),
  and a test fails when the checked-in pages differ from what the declarations say.

Each door maps errors in one place (`PapershelfError.exit_code` / `.http_status`, a tool error in MCP).

How to add an operation (e.g. `related`)
----------------------------------------
1. The Library method that does the work, returning a typed model (models/) with `to_dict()`:
   ``Library.related(paper_id, limit) -> RelatedList``.  Front ends never reach past `Library`.
2. Its request model in requests.py (or your own module), a `Strict` subclass: every field with a
   type, bounds and a `description` written for an agent (it is also the CLI help and the docs).
   A field only one door can use goes in the model's `DOORS` (e.g. ``{"images": ("mcp",)}``).
3. Its response shape in models/shapes.py: a `Shape` naming every key of your `to_dict()`
   (`from_dataclass` when `to_dict` is `asdict`).  Tests validate real answers against it.
4. The declaration, in a module of this package (one per area, e.g. ``operations/related.py``)::

       RELATED = declare(Operation(
           "related", "Papers like this one", "What an agent needs to know to call it ...",
           RelatedParams, "RelatedJson",  # its shape by name: loaded only when asked (Operation.shape)
           lambda lib, r, ctx: lib.related(r.paper_id, r.limit).to_dict(), text.related,
           path="paper_id", examples=(Example({"paper_id": "lo2020s2orc"}, "papers like S2ORC"),),
           cli=CliSpec(positional=("paper_id",))))

   and its module in `MODULES` below.  A plain-text rendering (text.py style) is what MCP shows
   beside the data and the CLI prints; a Rich table for the CLI is optional (frontends/cli_print.py,
   `PRINTERS`).
5. Regenerate the reference pages (``python -m papershelf.frontends.cli_docs``) and write its tests:
   the Library method, and one call through each door (tests/test_parity.py shows the pattern).

Nothing else: no CLI, route or tool code.  `doors=("cli",)` keeps an operation off HTTP and MCP
(verify); `aliases` keeps old names answering; `hidden=True` keeps an old operation working unlisted.
Commands that run processes rather than answer a request (add, embed, index, watch, remove,
migrate, serve, mcp, bench) are written by hand in frontends/cli.py.
"""

from __future__ import annotations

import importlib

from .base import DOORS, REGISTRY, CliSpec, Context, Example, Format, Operation, declare
from .requests import Strict, build, one_line, problems

# The modules whose declarations make up the operations, in the order the doors list them.
MODULES = ("catalog", "citations", "discover")


def _load() -> None:
    """Import the declaring modules, and keep the registry in their order (`MODULES`) whichever was
    imported first: a caller importing `discover` before the doors are built must not reorder them."""
    for name in MODULES:
        importlib.import_module(f"{__name__}.{name}")
    rank = {f"{__name__}.{name}": i for i, name in enumerate(MODULES)}
    ordered = sorted(REGISTRY.values(), key=lambda op: rank.get(op.run.__module__, len(MODULES)))  # stable
    if list(REGISTRY.values()) != ordered:
        REGISTRY.clear()
        REGISTRY.update((op.name, op) for op in ordered)


def for_door(door: str, hidden: bool = False) -> list[Operation]:
    """The operations a door offers (with `hidden`: also the unlisted old ones), in declaration order."""
    _load()
    return [op for op in REGISTRY.values() if door in op.doors and (hidden or not op.hidden)]


def operation(name: str) -> Operation:
    """The operation declared as `name` (KeyError if none)."""
    _load()
    return REGISTRY[name]


def named(name: str, door: str) -> Operation | None:
    """The operation a door knows by `name` (its name, tool name or an old alias), or None."""
    for op in for_door(door, hidden=True):
        if name in (op.name, op.tool, *op.aliases):
            return op
    return None


__all__ = ["DOORS", "REGISTRY", "CliSpec", "Context", "Example", "Format", "Operation", "Strict", "build", "declare",
           "for_door", "named", "one_line", "operation", "problems"]
