"""docs/reference/ is what the operations' declarations generate: a declaration changed without
regenerating the pages (`python -m papershelf.operations.docs`) fails here, as cog does for sqlite-utils."""

from __future__ import annotations

import subprocess
import sys

from papershelf.operations import docs, for_door

from .servers import ROOT, cli_env


def test_the_checked_in_reference_pages_are_what_the_declarations_generate():
    assert docs.stale() == [], "run `python -m papershelf.operations.docs` and commit docs/reference/"


def test_the_check_fails_on_a_page_that_drifted(tmp_path):
    for name, page in docs.PAGES.items():
        (tmp_path / name).write_text(page())
    assert docs.stale(tmp_path) == []
    (tmp_path / "mcp.md").write_text(docs.mcp_page().replace("## `search`", "## `search_papers`"))
    assert docs.stale(tmp_path) == ["mcp.md"]
    p = subprocess.run([sys.executable, "-m", "papershelf.operations.docs", "--check"], cwd=ROOT, env=cli_env(),
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr


def test_every_operation_of_every_door_is_in_its_page():
    pages = {"cli": docs.cli_page(), "http": docs.http_page(), "mcp": docs.mcp_page()}
    for door, page in pages.items():
        for op in for_door(door):
            heading = {"cli": f"## `{op.name}`", "http": f"## `GET {op.route}`", "mcp": f"## `{op.tool}`"}[door]
            assert heading in page, (door, op.name)
            for example in op.examples:
                assert example.note in page, (door, op.name, example.note)
