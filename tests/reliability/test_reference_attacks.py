"""Standing suite: reference lists built to take time or to collapse (issue #43, round 4).

A 120-character entry of 40 hyphen-joined capitals hung `add` and `watch` (exponential
backtracking in the name pattern; Ctrl-C ignored meanwhile; the files after it never indexed), and a
numbered list with one number missing became one entry (200 entries -> one of 20,080 characters).
Real `papershelf add` on PDFs made here, and every pattern of the readers timed on adversarial
strings in a subprocess bounded from outside (`regex_timing`).

Short (CI): 27 hand-built units + 10 generated, x 2 tails, every pattern and reader function.
``PAPERSHELF_SUITE=full``: 152 hand-built units + 40 generated, x 6 tails.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

from papershelf import Library

from .common import FULL, cli, cli_env, scale, slack
from .hostile_pdfs import numbered_entries, reference_list_pdf

ROOT = Path(__file__).resolve().parents[2]
GENERATED = scale(10, 40)
FUZZ_SECONDS = scale(240, 3600)


def _hyphen_capitals(n: int = 40) -> str:
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    return "-".join(letters[i % 26] for i in range(n))


def test_every_pattern_of_the_readers_is_linear():
    """Every pattern of the package (module-level, and written as a literal inside a function) and the
    reader functions that build patterns, timed from 16 to 2000 characters: no one is
    slow on a short string or grows faster than linearly.  Bounded from outside: a pattern that hangs
    cannot be interrupted in the process running it."""
    args = [sys.executable, "-m", "tests.reliability.regex_timing", str(GENERATED)] + ([] if FULL else ["--short"])
    try:
        p = subprocess.run(args, cwd=ROOT, env=cli_env("unused.db"), capture_output=True, text=True,
                           timeout=FUZZ_SECONDS * slack())
    except subprocess.TimeoutExpired as e:
        started = (e.stderr or b"").decode(errors="replace").strip().splitlines()[-1:]
        raise AssertionError(f"the timing run did not end; last started: {started}") from None
    findings = [json.loads(line) for line in p.stdout.splitlines() if line.startswith("{")]
    assert p.returncode == 0 and not findings, (findings[:10], p.stderr[-1000:] if p.returncode not in (0, 1) else "")


def test_hostile_entries_do_not_hold_up_add(tmp_path):
    folder = tmp_path / "papers"
    folder.mkdir()
    hostile = [_hyphen_capitals(40), _hyphen_capitals(200) + ": ", "“" * 300 + " title", "A. " * 400 + "1",
               "Smith J, " * 200 + ":", "(" * 300, "pp. 1-" * 300]
    entries = [f"[{k}] {text}" for k, text in enumerate(hostile, start=1)]
    reference_list_pdf(str(folder / "a-hostile.pdf"), entries + numbered_entries(20)[len(entries):])
    (folder / "b-after.md").write_text("---\ntitle: The file after it\n---\n\nStill indexed after the hostile one.\n")
    started = time.monotonic()
    cli(tmp_path / "lib.db", "add", str(folder), "--json", timeout=300)
    took = time.monotonic() - started
    with Library(str(tmp_path / "lib.db")) as lib:
        titles = {p.to_dict()["title"] for p in lib.papers()}
        hostile_id = next(p.to_dict()["id"] for p in lib.papers() if p.to_dict()["source_format"] == "pdf")
        refs = lib.references(hostile_id).references
    assert "The file after it" in titles and len(titles) == 2
    assert _hyphen_capitals(40) in refs[0].ref.text
    assert took < 60 * slack(), took


def test_a_numbered_list_with_a_number_missing_keeps_its_entries(tmp_path):
    folder = tmp_path / "papers"
    folder.mkdir()
    reference_list_pdf(str(folder / "gap.pdf"), numbered_entries(200, missing=(57,)))
    reference_list_pdf(str(folder / "gaps.pdf"), numbered_entries(120, missing=(10, 40, 41, 42)))
    cli(tmp_path / "lib.db", "add", str(folder))
    with Library(str(tmp_path / "lib.db")) as lib:
        for paper in lib.papers():
            pid = paper.to_dict()["id"]
            p = cli(tmp_path / "lib.db", "refs", pid, "--json")
            refs = json.loads(p.stdout)["references"]
            expected = 199 if (paper.paper.source_path or "").endswith("gap.pdf") else 116
            assert len(refs) == expected, (pid, len(refs))
            longest = max(len(r["text"]) for r in refs)
            assert longest < 200, longest
            assert all("numbered" in r["text"] for r in refs)
