"""docs/reference/ is what the operations' declarations generate: a declaration changed without
regenerating the pages (`python -m papershelf.frontends.cli_docs`) fails here, as cog does for sqlite-utils."""

from __future__ import annotations

import subprocess
import sys

from papershelf.frontends import cli_docs
from papershelf.operations import docs, for_door

from .servers import ROOT, cli_env


def test_the_checked_in_reference_pages_are_what_the_declarations_generate():
    assert cli_docs.stale() == [], "run `python -m papershelf.frontends.cli_docs` and commit docs/reference/"


def test_the_check_fails_on_a_page_that_drifted(tmp_path):
    for name, page in cli_docs.PAGES.items():
        (tmp_path / name).write_text(page())
    assert cli_docs.stale(tmp_path) == []
    (tmp_path / "mcp.md").write_text(docs.mcp_page().replace("## `search`", "## `search_papers`"))
    assert cli_docs.stale(tmp_path) == ["mcp.md"]
    p = subprocess.run([sys.executable, "-m", "papershelf.frontends.cli_docs", "--check"], cwd=ROOT, env=cli_env(),
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr


def test_every_operation_of_every_door_is_in_its_page():
    pages = {"cli": cli_docs.cli_page(), "http": docs.http_page(), "mcp": docs.mcp_page()}
    for door, page in pages.items():
        for op in for_door(door):
            heading = {"cli": f"## `{op.name}`", "http": f"## `GET {op.route}`", "mcp": f"## `{op.tool}`"}[door]
            assert heading in page, (door, op.name)
            for example in op.examples:
                assert example.note in page, (door, op.name, example.note)


def test_the_cli_page_holds_every_command_of_the_app_with_its_help():
    page = cli_docs.cli_page()
    names = [name for name, _, _ in cli_docs.commands()]
    assert {"add", "embed", "watch", "serve", "mcp", "bench beir", "search", "ask"} <= set(names)
    assert "cited-by" not in names  # hidden aliases are named in the page's note, not listed
    for name in names:
        assert f"## `{name}`" in page, name
        assert f"[`{name}`]" in page, name
    assert "Usage: papershelf add [OPTIONS] PATH..." in page
    assert "--reread" in page


def test_no_command_says_the_local_model_runs_on_sentence_transformers():
    """The local model runs on ONNX Runtime (torch only with --backend torch); an old help line said
    `local (sentence-transformers, default)`."""
    for name, cmd, ctx in cli_docs.commands():
        text = cmd.get_help(ctx)
        assert "sentence-transformers, default" not in text, name
        if "--provider" in text:
            assert "ONNX Runtime" in text, name


def test_the_doors_list_operations_in_declaration_order_whichever_module_was_imported_first():
    """Importing `operations.discover` before `operations` loads the others (as a test or a plugin
    may) used to move related/reading-list/ask before refs/citing in every door and in these pages."""
    code = ("import papershelf.operations.discover\nfrom papershelf.operations import for_door\n"
            "print(','.join(op.name for op in for_door('cli')))")
    p = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=cli_env(), capture_output=True, text=True,
                       timeout=120)
    assert p.stdout.strip() == ",".join(op.name for op in for_door("cli")), p.stderr
    assert p.stdout.strip().index("citing") < p.stdout.strip().index("related")
