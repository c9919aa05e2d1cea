"""`papershelf mcp` end to end: the MCP SDK's own client talking to the server over stdio."""

from __future__ import annotations

import base64
import sys
from io import BytesIO

import anyio
import pytest
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from PIL import Image

from papershelf import Library

from .servers import cli_env, make_library


@pytest.fixture(scope="module")
def library(tmp_path_factory):
    return make_library(tmp_path_factory.mktemp("mcp"))


def session_run(library, script):
    """Start `papershelf mcp` on `library`, run `script(session)` with an initialized client, return its value."""
    params = StdioServerParameters(command=sys.executable, args=["-m", "papershelf", "-L", str(library), "mcp"],
                                   env=cli_env())
    result = {}

    async def main():
        with anyio.fail_after(120):
            async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
                await session.initialize()
                result["value"] = await script(session)

    anyio.run(main)
    return result["value"]


def test_tools_are_listed_with_strict_schemas(library):
    async def script(s):
        return (await s.list_tools()).tools

    tools = {t.name: t for t in session_run(library, script)}
    assert set(tools) == {"search", "show", "passage", "papers", "status", "refs", "citing", "related",
                          "reading_list", "ask"}
    for t in tools.values():
        assert t.input_schema["type"] == "object" and t.input_schema["additionalProperties"] is False
        assert len(t.description) > 60
    assert "required" not in tools["search"].input_schema  # words (query) or a paper or unit (like), one of them
    assert set(tools["search"].input_schema["properties"]) >= {"query", "like", "mode", "limit", "per_paper", "paper",
                                                                "kind", "source", "year_from", "year_to", "min_score"}


def test_every_tool_answers_structured_content_and_text(library):
    async def script(s):
        out = {"search": await s.call_tool("search", {"query": "bleaching by depth", "mode": "lexical",
                                                      "kind": "table", "limit": 3}),
               "status": await s.call_tool("status", {}),
               "papers": await s.call_tool("list_papers", {"author": "okafor"}),
               "paper": await s.call_tool("show", {"id": "mbeki2022coral"}),
               "passage": await s.call_tool("get_passage", {"paper_id": "okafor2024il6", "budget_chars": 400})}
        unit = out["paper"].structured_content["sections"][0]["unit_id"]
        out["unit"] = await s.call_tool("show", {"id": unit})
        out["more"] = await s.call_tool("get_passage", {"paper_id": "okafor2024il6", "budget_chars": 400,
                                                        "cursor": out["passage"].structured_content["next_cursor"]})
        return out

    r = session_run(library, script)
    assert not any(x.is_error for x in r.values()), {k: x.content[0].text for k, x in r.items() if x.is_error}
    with Library(str(library), create=False) as lib:
        from papershelf import SearchOptions
        from papershelf.models import Filters

        local = lib.search("bleaching by depth", SearchOptions(mode="lexical", limit=3, filters=Filters(
            sources=["object_unit"], object_kind="table"))).to_dict()
    search = r["search"].structured_content
    assert [h for h in search["results"]] == local["results"] and search["mode"] == "lexical"
    assert search["results"][0]["unit_id"] == "mbeki2022coral:obj:table:1"
    assert "mbeki2022coral:obj:table:1" in r["search"].content[0].text
    assert r["status"].structured_content["papers"] == 5 and "5 papers" in r["status"].content[0].text
    assert {p["id"] for p in r["papers"].structured_content["papers"]} >= {"okafor2024il6"}
    assert r["paper"].structured_content["type"] == "paper"
    assert r["unit"].structured_content["type"] == "unit" and r["unit"].structured_content["neighbours"]
    first, more = r["passage"].structured_content, r["more"].structured_content
    assert first["next_cursor"] and "cursor=" in r["passage"].content[0].text
    assert more["text"] and more["text"] != first["text"]


def test_a_misspelt_argument_is_an_error_not_ignored(library):
    async def script(s):
        return [await s.call_tool("search", {"query": "wounds", "per_papr": 1}),
                await s.call_tool("search", {"query": "wounds", "mode": "semantic"}),
                await s.call_tool("show", {"id": "no-such-paper"}),
                await s.call_tool("get_passage", {"paper_id": "okafor2024il6", "cursor": "x"})]

    misspelt, bad_mode, missing, cursor = session_run(library, script)
    assert misspelt.is_error and misspelt.content[0].text == "invalid arguments for search: per_papr: unknown argument"
    assert bad_mode.is_error and "mode:" in bad_mode.content[0].text
    assert missing.is_error and missing.content[0].text == (
        "no paper with id, id prefix, citekey, DOI or Zotero key 'no-such-paper'")
    assert cursor.is_error and "bad cursor" in cursor.content[0].text


def test_a_figure_hit_from_a_pdf_comes_back_as_an_image(library):
    async def script(s):
        hit = await s.call_tool("search", {"query": "western blot phosphorylated STAT3", "kind": "figure",
                                           "images": True, "limit": 5})
        pdf_fig = next(h for h in hit.structured_content["results"] if h["paper_id"].startswith("okafortrans"))
        shown = await s.call_tool("show", {"id": pdf_fig["unit_id"], "image": True})
        return hit, shown

    hit, shown = session_run(library, script)
    for result in (hit, shown):
        images = [c for c in result.content if c.type == "image"]
        assert images and images[0].mime_type == "image/png"
        png = Image.open(BytesIO(base64.b64decode(images[0].data)))
        assert png.format == "PNG" and png.size[0] >= 400
    # one image per figure hit from the PDF; the Markdown papers' figures have no page to show
    pdf_hits = [h for h in hit.structured_content["results"] if h["paper_id"].startswith("okafortrans")]
    assert len([c for c in hit.content if c.type == "image"]) == min(len(pdf_hits), 3)


def test_every_tool_declares_an_output_schema_its_answers_satisfy(library):
    """outputSchema is listed for every tool, and real answers (a paper and a unit for `show`, a
    search with explain) validate against it: the schema is true, not decoration."""
    import jsonschema

    async def script(s):
        tools = {t.name: t.output_schema for t in (await s.list_tools()).tools}
        paper = await s.call_tool("show", {"id": "mbeki2022coral"})
        calls = {"search": await s.call_tool("search", {"query": "bleaching", "explain": True}),
                 "show": paper,
                 "show unit": await s.call_tool("show", {"id": paper.structured_content["sections"][0]["unit_id"]}),
                 "passage": await s.call_tool("passage", {"paper_id": "mbeki2022coral"}),
                 "papers": await s.call_tool("papers", {"limit": 2}),
                 "status": await s.call_tool("status", {})}
        return tools, calls

    tools, calls = session_run(library, script)
    assert all(tools[name] and tools[name]["type"] == "object" for name in tools)
    for name, result in calls.items():
        assert not result.is_error, result.content[0].text
        jsonschema.validate(result.structured_content, tools[name.split()[0]])
    assert calls["papers"].structured_content["total"] == 5
    assert "2 of 5 papers" in calls["papers"].content[0].text
    with pytest.raises(jsonschema.ValidationError):  # and it does constrain: a hit without its rank fails
        broken = dict(calls["search"].structured_content)
        broken["results"] = [{k: v for k, v in broken["results"][0].items() if k != "rank"}]
        jsonschema.validate(broken, tools["search"])
