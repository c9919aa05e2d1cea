"""The docs stay findable and true to the code: a short README, every page in the site's nav (the helpers'
notes in docs/measurements/ excepted), every nav line a page, a CLI reference naming every command the
Typer app registers, a BENCHMARKS.md that opens with one current table, and a site that builds with
`mkdocs build --strict` (what `make docs` runs in CI)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from papershelf.frontends import cli_docs

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
# Pages kept out of the nav on purpose: the helpers' before/after notes.
NOT_IN_NAV = ("measurements/",)


def nav_pages(nav=None) -> list[str]:
    """Every page the nav of mkdocs.yml lists, in order."""
    if nav is None:
        nav = yaml.safe_load((ROOT / "mkdocs.yml").read_text())["nav"]
    out: list[str] = []
    for item in nav:
        values = item.values() if isinstance(item, dict) else [item]
        for v in values:
            out += nav_pages(v) if isinstance(v, list) else [v]
    return out


def test_the_readme_is_short_and_keeps_the_test_command():
    text = (ROOT / "README.md").read_text()
    assert len(text.splitlines()) <= 150, "README.md: at most 150 lines; move the rest into docs/"
    assert "make test" in text  # .ci/run calls it, and the README says so
    for word in ("pipx install", "uv tool install", "make demo", "mkdocs serve"):
        assert word in text, word


def test_the_readmes_links_reach_files():
    text = (ROOT / "README.md").read_text()
    for link in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", text):
        if "://" not in link:
            assert (ROOT / link).exists(), f"README.md links to {link}, which does not exist"


def test_every_nav_line_is_a_page():
    missing = [p for p in nav_pages() if not (DOCS / p).is_file()]
    assert missing == [], f"mkdocs.yml's nav names pages that do not exist: {missing}"


def test_every_page_has_a_nav_line():
    listed = set(nav_pages())
    pages = sorted(p.relative_to(DOCS).as_posix() for p in DOCS.rglob("*.md"))
    lacking = [p for p in pages if p not in listed and not p.startswith(NOT_IN_NAV)]
    assert lacking == [], ("these pages have no line in mkdocs.yml's nav (add one, e.g. `- Title: "
                           + (lacking[0] if lacking else "") + "` under its section): " + ", ".join(lacking))


def test_the_nav_check_sees_a_page_without_a_nav_line():
    nav = [{"Home": "index.md"}, {"How-to guides": [{"Install": "how-to/install.md"}]}]
    assert nav_pages(nav) == ["index.md", "how-to/install.md"]


def test_the_cli_reference_names_every_command_of_the_app():
    page = (DOCS / "reference" / "cli.md").read_text()
    names = [name for name, _, _ in cli_docs.commands()]
    assert len(names) >= 20
    missing = [n for n in names if f"## `{n}`" not in page]
    assert missing == [], f"docs/reference/cli.md lacks {missing}: run `python -m papershelf.frontends.cli_docs`"


def test_benchmarks_opens_with_the_current_table_and_links_the_history():
    text = (ROOT / "BENCHMARKS.md").read_text()
    assert len(text.splitlines()) <= 60
    headings = [line for line in text.splitlines() if line.startswith("## ")]
    assert len(headings) == 1 and headings[0].startswith("## Current table")
    assert "docs/benchmarks-history.md" in text and (DOCS / "benchmarks-history.md").is_file()


def test_the_configuration_reference_names_every_environment_variable_the_code_reads():
    code = "\n".join(p.read_text() for p in (ROOT / "papershelf").rglob("*.py"))
    names = set(re.findall(r"\b(PAPERSHELF_[A-Z_]*[A-Z])\b", code)) - {"PAPERSHELF_TEST_POSTGRES"}
    page = (DOCS / "reference" / "configuration.md").read_text()
    assert len(names) >= 15
    missing = sorted(n for n in names if n not in page)
    assert missing == [], f"docs/reference/configuration.md does not name {missing}"


def _mkdocs() -> list[str]:
    exe = Path(sys.executable).parent / "mkdocs"
    if exe.exists():
        return [str(exe)]
    if shutil.which("mkdocs"):
        return ["mkdocs"]
    pytest.skip("mkdocs is not installed (the dev extra installs it)")
    return []


def _build(root: Path, site: Path) -> subprocess.CompletedProcess:
    return subprocess.run([*_mkdocs(), "build", "--strict", "-d", str(site)], cwd=root,
                          capture_output=True, text=True, timeout=300, env={"NO_MKDOCS_2_WARNING": "1",
                                                                            "PATH": "/usr/bin:/bin"})


def test_the_site_builds_strictly_and_fails_on_a_page_left_out(tmp_path):
    p = _build(ROOT, tmp_path / "site")
    assert p.returncode == 0, p.stderr[-3000:]
    copy = tmp_path / "copy"
    shutil.copytree(DOCS, copy / "docs")
    shutil.copy(ROOT / "mkdocs.yml", copy / "mkdocs.yml")
    (copy / "docs" / "orphan.md").write_text("# A page without a nav line\n")
    p = _build(copy, tmp_path / "site2")
    assert p.returncode != 0 and "orphan.md" in p.stderr
