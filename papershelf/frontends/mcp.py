"""`papershelf mcp`: the library as tools for an AI agent, over MCP on stdio.

Built on the official SDK's low-level `Server`; the tools are the operations
(papershelf/operations), each tool's input schema exactly its strict request model
(``additionalProperties: false``) and its output schema its response shape, and
every call is validated against it: a misspelt argument comes back as a tool
error naming it, never silently dropped.  Results are structured content in the
shapes of the CLI's ``--json`` plus a short text rendering; figure and table
hits from PDFs can carry the page region as an image, so a multimodal agent
sees the figure itself.  Library calls run in a worker thread, one library open
for the session (the model and vectors stay loaded).
"""

from __future__ import annotations

import base64
import json
from typing import Any

import anyio
import mcp_types as types
from pydantic import ValidationError

from ..errors import PapershelfError
from ..library import Library
from ..models.shapes import schema_of
from ..operations import Context, Operation, for_door, named, one_line
from ..operations.requests import MAX_IMAGES
from ..search.rerank import Reranker

TOOLS = for_door("mcp")  # the tools listed; old names (get_passage, list_papers, citations) still answer


def tool_list() -> list[types.Tool]:
    return [types.Tool(name=op.tool, description=op.description, input_schema=op.request.model_for("mcp")
                       .model_json_schema(), output_schema=schema_of(op.shape),
                       annotations=types.ToolAnnotations(read_only_hint=True)) for op in for_door("mcp")]


def _error(message: str) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(text=message)], is_error=True)


def _images(lib: Library, unit_ids: list[str]) -> tuple[list[bytes], list[str]]:
    """PNGs of up to MAX_IMAGES of the units (figures and tables of PDF papers), and why the others have none."""
    from .images import unit_image

    pngs: list[bytes] = []
    notes: list[str] = []
    for unit_id in unit_ids:
        if len(pngs) >= MAX_IMAGES:
            break
        try:
            pngs.append(unit_image(lib, unit_id))
        except PapershelfError as e:  # not from a PDF: the caption in the text is all there is
            notes.append(f"(no image for {unit_id}: {e})")
    return pngs, notes


def call(lib: Library, name: str, arguments: dict[str, Any] | None,
         reranker: Reranker | None = None) -> types.CallToolResult:
    """Validate the arguments against the tool's strict model, run it, and shape the result: MCP's
    one place for errors (a tool error with the one-line message)."""
    op: Operation | None = named(name, "mcp")
    if op is None:
        return _error(f"unknown tool {name!r}: use one of {', '.join(t.tool for t in TOOLS)}")
    try:
        request = op.request.complete(op.request.model_for("mcp").model_validate(arguments or {}))
        data = op.run(lib, request, Context(reranker))
    except ValidationError as e:
        return _error(f"invalid arguments for {name}: {one_line(e)}")
    except PapershelfError as e:
        return _error(str(e))
    pngs, notes = _images(lib, op.images(request, data)) if op.images else ([], [])
    content: list[Any] = [types.TextContent(text="\n".join([op.text(data), *notes]))]
    content += [types.ImageContent(data=base64.b64encode(png).decode(), mime_type="image/png") for png in pngs]
    data = json.loads(json.dumps(data, default=str, allow_nan=False))
    return types.CallToolResult(content=content, structured_content=data)


def build_server(lib: Library, reranker: Reranker | None = None):
    from mcp.server.lowlevel import Server

    async def list_tools(ctx, params) -> types.ListToolsResult:
        return types.ListToolsResult(tools=tool_list())

    async def call_tool(ctx, params: types.CallToolRequestParams) -> types.CallToolResult:
        return await anyio.to_thread.run_sync(call, lib, params.name, params.arguments, reranker)

    return Server("papershelf", version="1", instructions="Search and read the user's library of research papers.",
                  on_list_tools=list_tools, on_call_tool=call_tool)


def run_stdio(library_path: str, reranker: Reranker | None = None) -> None:
    """Serve MCP on stdin/stdout until the client closes the stream."""
    from mcp.server.stdio import stdio_server

    from .mcp_stdio import CheckedStdin, Stdout, exit_soon

    lib = Library(library_path, create=False)
    server = build_server(lib, reranker)

    async def main() -> None:
        out = Stdout()
        stdin = CheckedStdin(out, lambda: exit_soon(lambda: None))
        async with stdio_server(stdin=stdin, stdout=out) as (read, write):  # type: ignore[arg-type]
            await server.run(read, write, server.create_initialization_options())

    try:
        anyio.run(main)
    finally:
        lib.close()
