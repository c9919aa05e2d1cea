"""Attacks on what the library writes out for other programs: BibTeX (every door) and TSV.

A hostile corpus — Markdown front matter and a References section, a JATS article with
structured and printed references — puts braces (balanced, unbalanced, closing an entry and
opening ``@misc{evil,...}``), ``\\input{...}``, ``% # & _ $ ~ ^ \\``, citekeys with spaces, commas,
``%`` and ``= {`` into titles, authors, venues, DOIs and reference text; one paper's citekey equals
another's generated key.  It is added with the real CLI, and every BibTeX export — `papers
--format bibtex`, `refs [--missing] --format bibtex`, ``/api/refs/ID?format=bibtex`` on a real
server, the MCP tool `citations` — is read by bibtexparser, by `bibtex` and by TeX (bibcheck.py):
the right number of entries, valid unique keys, no injected field or entry, no file read, the
hostile title read back as itself.  `papers --format tsv` keeps one row per paper and three
columns whatever a title holds.

    python -m pytest tests/reliability/test_export_attacks.py
"""

from __future__ import annotations

import json
from xml.sax.saxutils import escape

import httpx
import pytest
import yaml

from ..servers import running_server
from ..test_mcp import session_run
from .bibcheck import as_text, check, names
from .common import cli

EVIL = r"x}, evil = {1}} @misc{evil, title={pwn}} \input{/etc/hostname} \input secret % # & _ $ ~ ^ \ {open"
TITLE = "BERT " + EVIL
AUTHORS = ["Smith}, J", "A and B", r"X \input{secret}", "Doe, Jane, Jr, Extra"]
REFERENCES = [
    r"Smith, J. (2019). A title with {braces} and \input{secret} % # & _ $. Journal of {Things}, 3, 1-2. "
    "doi:10.1000/abc}def",
    "Doe, J. (2018). Closing}, evil = {1}} @misc{evil2, title = {pwn}} here. Proceedings of ACL.",
    "Lone, B. (2017). Unbalanced { open brace swallows the rest ~ ^. Nature.",
]
JATS_TITLE = r"JATS \input{secret} {unclosed % & # _"


def _markdown(meta: dict, body: str = "Body text about export attacks.\n") -> str:
    return "---\n" + yaml.safe_dump(meta, allow_unicode=True) + "---\n\n# Introduction\n\n" + body


def _jats() -> str:
    e = escape
    cites = "".join(
        f'<ref id="R{i}"><element-citation publication-type="journal"><person-group><name><surname>{e(s)}</surname>'
        f"<given-names>J</given-names></name></person-group><article-title>{e(t)}</article-title>"
        f'<source>{e(v)}</source><year>2015</year><pub-id pub-id-type="doi">{e(d)}</pub-id></element-citation></ref>'
        for i, (s, t, v, d) in enumerate([("Evil}, evil = {1", EVIL, "J {Bad} % #", "10.1000/a}b"),
                                           ("Plain", "A quiet title", "Journal of Calm", "10.1000/calm_1")]))
    mixed = f'<ref id="M1"><mixed-citation>{e("Mixed, Q. (2014). @misc{evil3, title={x}} text. Science.")}' \
            "</mixed-citation></ref>"
    return (f"<article><front><journal-meta><journal-title-group><journal-title>{e('Journal & {Co')}"
            "</journal-title></journal-title-group></journal-meta><article-meta><title-group>"
            f"<article-title>{e(JATS_TITLE)}</article-title></title-group><contrib-group><contrib contrib-type="
            f'"author"><name><surname>{e("O}Brien")}</surname><given-names>{e("Mary %")}</given-names></name>'
            "</contrib></contrib-group></article-meta></front><body><sec><title>Intro</title><p>Text.</p></sec>"
            f"</body><back><ref-list>{cites}{mixed}</ref-list></back></article>")


@pytest.fixture(scope="module")
def hostile(tmp_path_factory):
    folder = tmp_path_factory.mktemp("export-attacks")
    papers = folder / "papers"
    papers.mkdir()
    refs = "\n# References\n\n" + "".join(f"{i}. {r}\n" for i, r in enumerate(REFERENCES, 1))
    files = {
        "hostile.md": _markdown({"title": TITLE, "authors": AUTHORS, "year": 2020, "venue": EVIL,
                                 "doi": "10.1000/x}, evil = {1", "citekey": "key1, title = {x} %"},
                                "Body text.\n" + refs),
        "clash.md": _markdown({"title": "Other Things", "authors": ["Ada Smith"], "year": 2020}),
        "owner.md": _markdown({"title": "Owner of a key", "authors": ["Bo Owner"], "citekey": "smith2020other"}),
        "spaced.md": _markdown({"title": "Tab\there, newline\nthere\r\nand\u2028end", "citekey": "my key % 2020"}),
        "hostile.xml": _jats(),
    }
    for name, text in files.items():
        (papers / name).write_text(text, encoding="utf-8")
    db = folder / "library.db"
    out = json.loads(cli(db, "add", str(papers), "--json").stdout)
    assert not out.get("failed"), out
    listed = json.loads(cli(db, "papers", "--json").stdout)
    ids = {p["title"]: p["id"] for p in listed}
    return folder, db, ids


def _id(ids: dict, start: str) -> str:
    return next(v for k, v in ids.items() if k.startswith(start))


def test_papers_as_bibtex_through_the_cli(hostile):
    folder, db, ids = hostile
    text = cli(db, "papers", "--format", "bibtex").stdout
    parsed = check(text, folder / "papers-bib", entries=5)
    by_title = {as_text(e["title"]): e for e in parsed.entries}
    hostile_entry = by_title[" ".join(TITLE.split())]
    assert hostile_entry.key == "key1titlex" and "doi" not in hostile_entry.fields_dict
    assert names(hostile_entry["author"]) == AUTHORS
    assert as_text(hostile_entry["journal"]) == " ".join(EVIL.split())
    assert by_title["Owner of a key"].key == "smith2020other"  # its own key kept; the generated one moves
    assert by_title["Other Things"].key == "smith2020othera"
    assert by_title["Tab here, newline there and end"].key == "mykey2020"
    assert as_text(by_title[JATS_TITLE]["journal"]) == "Journal & {Co"


def test_references_as_bibtex_through_the_cli(hostile):
    folder, db, ids = hostile
    for paper, count in ((_id(ids, "BERT"), 3), (_id(ids, "JATS"), 3)):
        for extra in ((), ("--missing",)):
            text = cli(db, "refs", paper, *extra, "--format", "bibtex").stdout
            parsed = check(text, folder / "refs-bib", entries=count)
            notes = [as_text(e["note"]) for e in parsed.entries]
            assert all(n.strip() for n in notes)
    md = check(cli(db, "refs", _id(ids, "BERT"), "--format", "bibtex").stdout, folder / "refs-bib", entries=3)
    assert [as_text(e["note"]) for e in md.entries] == REFERENCES


def test_references_as_bibtex_over_http(hostile):
    folder, db, ids = hostile
    with running_server(db) as (url, _):
        for paper in (_id(ids, "BERT"), _id(ids, "JATS")):
            r = httpx.get(f"{url}/api/refs/{paper}", params={"missing": "true", "format": "bibtex"}, timeout=60)
            assert r.status_code == 200, r.text
            check(r.json()["bibtex"], folder / "http-bib", entries=len(r.json()["references"]))


def test_references_as_bibtex_over_mcp(hostile):
    folder, db, ids = hostile

    async def script(s):
        return [await s.call_tool("citations", {"paper_id": p, "format": "bibtex"})
                for p in (_id(ids, "BERT"), _id(ids, "JATS"))]

    for result in session_run(db, script):
        assert not result.is_error, result.content
        check(result.structured_content["bibtex"], folder / "mcp-bib", entries=3)


def test_papers_as_tsv_keep_one_row_and_three_columns_each(hostile):
    _, db, ids = hostile
    lines = cli(db, "papers", "--format", "tsv").stdout.split("\n")
    assert lines[-1] == "" and len(lines) - 1 == len(ids) == 5
    rows = [line.split("\t") for line in lines[:-1]]
    assert all(len(r) == 3 for r in rows), rows
    assert ["Tab here, newline there  and end" in r[2] for r in rows].count(True) == 1
    ids_only = cli(db, "papers", "--format", "ids").stdout.split("\n")
    assert sorted(ids_only[:-1]) == sorted(ids.values())
