"""`papershelf mcp`: the library as tools for an AI agent, over MCP on stdio.

Built on the official SDK's low-level `Server`, so each tool's input schema is
exactly the strict model in `params.py` (``additionalProperties: false``) and
every call is validated against it: a misspelt argument comes back as a tool
error naming it, never silently dropped.  Results are structured content in the
shapes of the CLI's ``--json`` plus a short text rendering; figure and table
hits from PDFs can carry the page region as an image, so a multimodal agent
sees the figure itself.  Library calls run in a worker thread, one library open
for the session (the model and vectors stay loaded).
"""

from __future__ import annotations

import base64
import functools
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import anyio
import mcp_types as types
from pydantic import BaseModel, Field, ValidationError

from ..errors import PapershelfError
from ..library import Library
from ..search.rerank import Reranker
from . import mcp_schemas as schemas
from .citations_api import CitationsParams, citations_dict, citations_text
from .params import (
    PapersParams,
    PassageParams,
    SearchParams,
    ShowParams,
    StatusParams,
    filter_papers,
    one_line,
    search_dict,
)

MAX_IMAGES = 3


class McpSearchParams(SearchParams):
    images: bool = Field(False, description=f"Attach the page region of up to {MAX_IMAGES} figure/table hits "
                                            "from PDF papers as images (set kind=figure or kind=table too).")


@dataclass
class Answer:
    """What a tool returns before it becomes MCP content: data, its text rendering, images (PNG)."""

    data: dict[str, Any]
    text: str
    images: list[bytes]


@dataclass
class ToolDef:
    name: str
    description: str
    params: type[BaseModel]
    run: Callable[[Library, Any], Answer]
    output: dict[str, Any]  # the JSON schema of its structured content (mcp_schemas.py)


# -- the tools -------------------------------------------------------------------------


def _hit_line(h: dict[str, Any]) -> str:
    where = h["object_label"] or h["section_path"] or h["source"]
    pages = f" p.{h['pages']}" if h["pages"] else ""
    year = f" ({h['year']})" if h["year"] else ""
    head = f"{h['rank']}. {h['title'] or h['paper_id']}{year} · {where}{pages} · {h['unit_id']}"
    return f"{head}\n   {h['snippet'] or ''}"


def _images_for(lib: Library, hits: list[dict[str, Any]]) -> list[bytes]:
    from .http import unit_image

    out: list[bytes] = []
    for h in hits:
        if h["object_kind"] and len(out) < MAX_IMAGES:
            try:
                out.append(unit_image(lib, h["unit_id"]))
            except PapershelfError:
                continue  # not from a PDF: the caption in the text is all there is
    return out


def run_search(lib: Library, p: McpSearchParams, reranker: Reranker | None = None) -> Answer:
    """The search tool; reranked only by the reranker `mcp` was started with (an argument naming a
    URL is refused: text in a paper could talk an agent into sending the library anywhere)."""
    from .http import search_options

    d = search_dict(lib.search(p.query, search_options(p, reranker)), p.min_score)
    lines = [f"note: {n}" for n in d["notices"]]
    if d.get("no_confident_match"):  # say it before the hits, so an agent does not take them as answers
        lines.append("no confident match: nothing here clearly answers this query (closest hits below)")
    lines += [_hit_line(h) for h in d["results"]]
    text = "\n".join(lines) if d["results"] else "\n".join(lines + ["no results"])
    return Answer(d, text, _images_for(lib, d["results"]) if p.images else [])


def run_show(lib: Library, p: ShowParams) -> Answer:
    from .http import show_dict, unit_image

    d = show_dict(lib, p.id, p.neighbours)
    if d["type"] == "paper":
        secs = "\n".join(f"- {s['section_path'] or '(front matter)'} (p. {s['pages'] or '?'})" for s in d["sections"])
        objs = "\n".join(f"- {o['label']}: {(o['caption'] or '')[:120]} [{o['unit_id']}]" for o in d["objects"])
        text = f"{d['title']} ({d['year'] or 'n.d.'}) [{d['id']}]\nSections:\n{secs}\nFigures and tables:\n{objs}"
        return Answer(d, text, [])
    body = f"{d['object_label']}: {d['caption_text']}" if d.get("object_label") else d["text"]
    text = f"{d['id']} · {d['section_path']}\n{body}"
    images = []
    if p.image and d.get("object_kind"):
        try:
            images = [unit_image(lib, d["id"])]
        except PapershelfError as e:  # the unit is still worth reading without its picture
            text += f"\n(no image: {e})"
    return Answer(d, text, images)


def run_passage(lib: Library, p: PassageParams) -> Answer:
    d = lib.passage(p.paper_id, p.section, p.pages(), p.budget_chars, p.cursor).to_dict()
    more = f"\n\n[more: call get_passage again with cursor={d['next_cursor']!r}]" if d["next_cursor"] else ""
    return Answer(d, d["text"] + more, [])


def run_papers(lib: Library, p: PapersParams) -> Answer:
    rows, total = filter_papers(lib.papers(), p)
    text = "\n".join(f"{r['id']} · {r['title']} ({r['year'] or 'n.d.'}) · {', '.join(r['authors'][:3])}"
                     for r in rows) or "no papers match"
    if len(rows) < total:
        text += f"\n({len(rows)} of {total} papers: raise limit or filter for the rest)"
    return Answer({"papers": rows, "total": total}, text, [])


def run_status(lib: Library, p: StatusParams) -> Answer:
    d = lib.status().to_dict()
    e = d["embedding"] or {}
    build = e.get("build_running")
    text = (f"{d['papers']} papers; {e.get('pending_papers', 0)} pending embedding"
            + (f"; a build is running (pid {build['pid']})" if build else ""))
    return Answer(d, text, [])


def run_citations(lib: Library, p: CitationsParams) -> Answer:
    d = citations_dict(lib, p)
    return Answer(d, citations_text(d), [])


TOOLS = [
    ToolDef("search", "Search the researcher's library of papers by words and by meaning. Returns ranked hits "
            "(paper, section path, pages, snippet with [matched] words; figures and tables with label and caption). "
            "Use kind=figure/table to find figures or tables, paper=[id] to search inside one paper, "
            "collection, tag, author and year_from/year_to to narrow, and the hit's unit_id with `show` to read "
            "it in context. no_confident_match=true means nothing clearly answers the query.", McpSearchParams,
            run_search, schemas.SEARCH),
    ToolDef("show", "Look at a paper (its sections, figures and tables, with unit ids) or one unit by id (its text, "
            "and with neighbours=true the whole section around it). image=true adds a figure/table's page region.",
            ShowParams, run_show, schemas.SHOW),
    ToolDef("get_passage", "Read a paper's text: a section (with its subsections) or a page range, at most "
            "budget_chars characters per call. When the answer has next_cursor, call again with it to read on.",
            PassageParams, run_passage, schemas.PASSAGE),
    ToolDef("list_papers", "List the papers in the library (id, title, authors, year, venue, DOI, unit counts), "
            "optionally filtered by title, author, year, tag or collection; total says how many match.", PapersParams,
            run_papers, schemas.PAPERS),
    ToolDef("status", "How many papers the library holds, how many are still waiting to be embedded (searchable "
            "by words only until then), and whether an embedding build is running.", StatusParams, run_status,
            schemas.STATUS),
    ToolDef("citations", "The citation graph inside the library: a paper's reference list (each entry with its "
            "parsed authors, year, title, venue, DOI and the paper_id of the library paper it names, or null), or "
            "with direction=cited_by the library papers that cite it. missing=true keeps the references the "
            "library lacks; format=bibtex adds them as BibTeX.", CitationsParams, run_citations, schemas.CITATIONS),
]
BY_NAME = {t.name: t for t in TOOLS}


# -- MCP plumbing ------------------------------------------------------------------------


def tool_list() -> list[types.Tool]:
    return [types.Tool(name=t.name, description=t.description, input_schema=t.params.model_json_schema(),
                       output_schema=t.output, annotations=types.ToolAnnotations(read_only_hint=True))
            for t in TOOLS]


def _error(message: str) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(text=message)], is_error=True)


def call(lib: Library, name: str, arguments: dict[str, Any] | None,
         reranker: Reranker | None = None) -> types.CallToolResult:
    """Validate the arguments against the tool's strict model, run it, and shape the result."""
    tool = BY_NAME.get(name)
    if tool is None:
        return _error(f"unknown tool {name!r}: use one of {', '.join(BY_NAME)}")
    try:
        params = tool.params.model_validate(arguments or {})
        run: Callable[[Library, Any], Answer] = tool.run
        if run is run_search:  # the one tool the server's own configuration reaches
            run = functools.partial(run_search, reranker=reranker)
        answer = run(lib, params)
    except ValidationError as e:
        return _error(f"invalid arguments for {name}: {one_line(e)}")
    except PapershelfError as e:
        return _error(str(e))
    content: list[Any] = [types.TextContent(text=answer.text)]
    content += [types.ImageContent(data=base64.b64encode(png).decode(), mime_type="image/png")
                for png in answer.images]
    data = json.loads(json.dumps(answer.data, default=str, allow_nan=False))
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
