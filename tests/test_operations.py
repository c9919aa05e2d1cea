"""The operations (papershelf/operations) and what the doors derive from them: every MCP tool has a
CLI command and an HTTP route of the same operation, every answer is exactly the shape the
declaration names (unknown keys fail), and an operation declared here appears in all three doors
with no door code."""

from __future__ import annotations

import json

import pytest
from pydantic import TypeAdapter
from typer.main import get_command
from typer.testing import CliRunner

from papershelf import Library
from papershelf.models import shapes
from papershelf.operations import REGISTRY, CliSpec, Context, Example, Operation, Strict, declare, for_door, named

from .servers import make_citing_library


@pytest.fixture(scope="module")
def library(tmp_path_factory):
    return make_citing_library(tmp_path_factory.mktemp("operations"))[0]


def _cli_commands() -> set[str]:
    from papershelf.frontends import cli

    return set(get_command(cli.app).commands)  # type: ignore[attr-defined]


def _http_routes(db) -> set[str]:
    from papershelf.frontends.http import create_app

    app = create_app(str(db))
    try:
        return {r.path.replace(":path", "") for r in app.routes  # type: ignore[attr-defined]
                if getattr(r, "include_in_schema", False)}
    finally:
        app.state.lib.close()


def test_every_mcp_tool_has_a_cli_command_and_an_http_route_of_the_same_operation(library):
    from papershelf.frontends.mcp import tool_list

    tools = {t.name: t for t in tool_list()}
    commands, routes = _cli_commands(), _http_routes(library)
    assert set(tools) == {"search", "show", "passage", "papers", "refs", "citing", "status", "related", "reading_list",
                          "ask"}
    for name, tool in tools.items():
        op = named(name, "mcp")
        assert op is not None and op.name in commands and op.route in routes, name
        assert tool.output_schema and tool.output_schema["type"] == "object", name
        assert tool.input_schema["additionalProperties"] is False, name


def _answers(db) -> dict[str, list[dict]]:
    """Real answers of every operation, computed as the doors compute them."""
    ctx = Context()
    for_door("cli")  # the declarations, registered
    with Library(str(db), create=False) as lib:
        survey = next(s.paper.id for s in lib.papers() if "survey" in (s.paper.title or "").lower())
        attention = next(s.paper.id for s in lib.papers() if "attention" in (s.paper.title or "").lower())
        unit = lib.show("okafor2024il6").to_dict()["sections"][1]["unit_id"]
        calls = {"search": [{"query": "macrophages", "explain": True}, {"query": "qqxv zzyzx", "mode": "lexical"}],
                 "show": [{"id": "okafor2024il6"}, {"id": unit}, {"id": unit, "neighbours": False}],
                 "passage": [{"paper_id": "okafor2024il6", "budget_chars": 300}],
                 "papers": [{}, {"author": "okafor", "limit": 1}],
                 "refs": [{"paper_id": survey}, {"paper_id": survey, "missing": True, "format": "bibtex"}],
                 "citing": [{"paper_id": attention}], "cited-by": [{"paper_id": attention}], "status": [{}],
                 "verify": [{}],
                 "citations": [{"paper_id": attention, "direction": "cited_by"}],
                 "related": [{"ref": survey}, {"ref": unit}, {"ref": "wound macrophages", "text": True}],
                 "reading-list": [{}, {"format": "bibtex"}, {"query": "scholarly search"}],
                 "ask": [{"question": "What keeps macrophages inflammatory?"}]}
        return {name: [REGISTRY[name].run(lib, REGISTRY[name].request(**args), ctx) for args in arglist]
                for name, arglist in calls.items()}


def test_every_answer_is_exactly_its_declared_shape(library):
    answers = _answers(library)
    assert set(answers) == set(REGISTRY), "an operation without a shape test"
    for name, results in answers.items():
        adapter = TypeAdapter(REGISTRY[name].shape)
        for d in results:
            adapter.validate_python(json.loads(json.dumps(d)))  # raises on a missing or unknown key
    hit = answers["search"][0]["results"][0]
    assert hit["explain"] and answers["show"][1]["neighbours"] and "neighbours" not in answers["show"][2]
    assert answers["refs"][1]["bibtex"].startswith("@") and answers["citing"][0]["citing"]
    assert answers["cited-by"][0]["cited_by"] == answers["citing"][0]["citing"]  # the old name, the old key
    drifted = dict(answers["status"][0], colour="blue")
    with pytest.raises(ValueError, match="colour"):
        TypeAdapter(shapes.StatusJson).validate_python(drifted)


class EchoParams(Strict):
    paper_id: str
    shout: bool = False


def test_an_operation_declared_once_appears_in_every_door(library):
    """Adding an operation is its declaration (and its Library method): no CLI, route or tool code."""
    from fastapi.testclient import TestClient

    from papershelf.frontends import cli_app, cli_ops, mcp
    from papershelf.frontends.http import create_app

    def run(lib, r, ctx):
        title = lib.paper(r.paper_id).title or ""
        return {"paper_id": r.paper_id, "title": title.upper() if r.shout else title}

    op = declare(Operation("echo-title", "A paper's title", "Say a paper's title (a test operation).", EchoParams,
                           dict, run, lambda d: d["title"], path="paper_id",
                           examples=(Example({"paper_id": "x"}, "x"),), cli=CliSpec(positional=("paper_id",))))
    try:
        assert op in for_door("cli") and op in for_door("http") and op in for_door("mcp")
        cli_ops.register(op)  # what the CLI does for every declaration when it starts
        r = CliRunner().invoke(cli_app.app, ["-L", str(library), "echo-title", "okafor2024il6", "--shout", "--json"])
        assert r.exit_code == 0, r.output
        assert json.loads(r.stdout)["title"].isupper()
        app = create_app(str(library))
        with TestClient(app, base_url="http://127.0.0.1") as c:
            got = c.get("/api/echo-title/okafor2024il6", params={"shout": "true"})
            assert got.status_code == 200 and got.json()["title"].isupper()
            assert c.get("/api/echo-title/okafor2024il6", params={"colour": "x"}).status_code == 422
        with Library(str(library), create=False) as lib:
            answer = mcp.call(lib, "echo_title", {"paper_id": "okafor2024il6"})
            assert not answer.is_error and answer.structured_content["paper_id"] == "okafor2024il6"
            assert "colour" in mcp.call(lib, "echo_title", {"paper_id": "x", "colour": 1}).content[0].text
    finally:
        REGISTRY.pop("echo-title")
        cli_app.app.registered_commands = [c for c in cli_app.app.registered_commands if c.name != "echo-title"]
