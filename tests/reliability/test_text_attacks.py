"""Standing suite: text no UTF-8 store can hold (issue #43, round 4).

A lone surrogate in a paper's metadata — YAML "\\ud83d" in Markdown front matter, "\\ud800" in an
S2ORC paper or in a CSL-JSON bibliography's title — aborted the whole `add` with a traceback; the
files after it were never indexed, on every rerun, and `watch` died again on restart.  Real
`papershelf add` and `watch` on files written here: the text is repaired (U+FFFD for the lone half,
a pair written as two escapes joined), every file is indexed, a rerun changes nothing.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from papershelf import Library

from .common import cli, slack, start

SURROGATES = ["\\ud83d", "\\ud800", "\\udfff", "x\\udc80y", "\\ud83d\\ude00", "\\ude00\\ud83d"]


def _hostile_folder(folder: Path) -> int:
    """Markdown, S2ORC and CSL-JSON files carrying lone surrogates, then a good file after them; the
    number of papers they make."""
    folder.mkdir(parents=True, exist_ok=True)
    for i, s in enumerate(SURROGATES):
        (folder / f"a{i}-front.md").write_text(f'---\ntitle: "Title {i} {s} end"\nauthors: ["A {s}"]\n'
                                               f'year: 2020\n---\n\n# Intro\n\nBody of paper {i}.\n')
        raw = {"paper_id": f"s{i}", "title": f"S2ORC {i} {s}", "authors": [{"first": "B", "last": f"L{s}"}],
               "abstract": [{"text": f"abstract {s}"}], "body_text": [{"text": f"Body {s} of s2orc {i}.",
                                                                          "section": f"Sec {s}"}]}
        (folder / f"b{i}-s2orc.json").write_text(json.dumps(raw).replace("\\\\u", "\\u"))
    (folder / "c-target.md").write_text("---\ntitle: Plain title\n---\n\nThe paper the bibliography names.\n")
    csl = [{"type": "article", "title": f"CSL {s}", "id": f"k{i}", "author": [{"family": f"F{s}", "given": "G"}],
            "file": str(folder / "c-target.md") if i == 0 else ""} for i, s in enumerate(SURROGATES)]
    (folder / "c-library.json").write_text(json.dumps(csl).replace("\\\\u", "\\u"))
    (folder / "z-after.md").write_text("---\ntitle: The file after them\n---\n\nStill indexed.\n")
    return 2 * len(SURROGATES) + 2


def test_lone_surrogates_are_repaired_and_every_file_indexed(tmp_path):
    expected = _hostile_folder(tmp_path / "papers")
    p = cli(tmp_path / "lib.db", "add", str(tmp_path / "papers"), "--json")
    report = json.loads(p.stdout)
    assert report["failed"] == 0 and report["added"] == expected, report
    with Library(str(tmp_path / "lib.db")) as lib:
        titles = sorted(s.to_dict()["title"] for s in lib.papers())
    assert "The file after them" in titles
    assert any(t.startswith("CSL \ufffd") for t in titles)  # the bibliography's title, repaired
    assert "Title 4 😀 end" in titles  # a pair written as two escapes is its character
    assert all(t.encode("utf-8") for t in titles)
    again = json.loads(cli(tmp_path / "lib.db", "add", str(tmp_path / "papers"), "--json").stdout)
    assert again["failed"] == 0 and again["added"] == 0, again
    cli(tmp_path / "lib.db", "search", "body", "--json")


def test_watch_indexes_them_and_survives_a_restart(tmp_path):
    expected = _hostile_folder(tmp_path / "papers")
    for _ in range(2):  # the second start reads the same files again: it once died there every time
        proc = start(tmp_path / "lib.db", "watch", str(tmp_path / "papers"), "--no-embed", "--debounce", "0",
                     "--json")
        try:
            deadline = time.monotonic() + 60 * slack()
            count = 0
            while time.monotonic() < deadline and count < expected and proc.poll() is None:
                time.sleep(0.5)
                with Library(str(tmp_path / "lib.db")) as lib:
                    count = len(lib.papers())
            assert proc.poll() is None, proc.stderr.read()[-2000:]
            assert count == expected, count
        finally:
            proc.terminate()
            _, err = proc.communicate(timeout=30)
        assert "Traceback" not in err, err[-3000:]
