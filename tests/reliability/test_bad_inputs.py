"""Bad-inputs suite: every kind of hostile file gets one line with a reason, in bounded
time, while the good files beside it are indexed.

One `papershelf add` over a folder holding good papers and: random bytes as a PDF, a
truncated PDF, empty files, a 0-page PDF, an encrypted PDF, a scanned (image-only) PDF,
100 MB of text, one 5 MB line, 10,000 headings, deep nesting (Markdown, XML, JSON),
symlink loops, a dangling link, FIFOs, a non-UTF-8 name, bad XML / an entity bomb, bad
JSON, bad BibTeX, binary and bad-UTF-8 text.

Short (CI): each kind once and 10 random mutations of real PDFs.  ``PAPERSHELF_SUITE=full``:
60 mutations.  Run: ``python -m pytest tests/reliability/test_bad_inputs.py``.
"""

from __future__ import annotations

import io
import json
import os
import random
import time

from papershelf import Library

from ..conftest import SHARED
from ..test_fail_fast import _zero_page_pdf
from .common import cli, scale, slack, write_papers


def _pdf(text: str = "Hello world. A real line of text.", encrypt: str | None = None, scanned: bool = False) -> bytes:
    from reportlab.lib.pagesizes import letter
    from reportlab.pdfgen import canvas

    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=letter, encrypt=encrypt)
    if scanned:  # no text layer at all: only shapes, as a scan without OCR has only pixels
        for i in range(40):
            c.rect(50 + i * 10, 400, 8, 200, fill=1)
    else:
        c.drawString(72, 720, text)
    c.showPage()
    c.save()
    return buf.getvalue()


# name -> (content, expected: "failed" with these words in the reason, or "added")
def _cases() -> dict[str, tuple[bytes | None, str, str]]:
    rng = random.Random(7)
    good_pdf = _pdf("Results: the signal persists across every condition we measured.")
    deep_xml = b"<article>" + b"<sec>" * 5000 + b"<p>deep</p>" + b"</sec>" * 5000 + b"</article>"
    bomb = (b'<?xml version="1.0"?><!DOCTYPE article [<!ENTITY a "aaaaaaaaaa">'
            + b"".join(f'<!ENTITY {chr(98 + i)} "{("&" + chr(97 + i) + ";") * 10}">'.encode() for i in range(8))
            + b"]><article><body><p>&i;</p></body></article>")
    return {
        "random-bytes.pdf": (b"%PDF-1.7\n" + rng.randbytes(20000), "failed", "PDF"),
        "not-a-pdf.pdf": (rng.randbytes(5000), "failed", "not a PDF"),
        "truncated.pdf": (good_pdf[: len(good_pdf) // 2], "failed", "PDF"),
        "empty.pdf": (b"", "failed", "empty"),
        "empty.md": (b"", "failed", "empty"),
        "blank.txt": (b"   \n\n\t\n", "failed", "empty"),
        "zero-pages.pdf": (_zero_page_pdf(), "failed", "no pages"),
        "encrypted.pdf": (_pdf(encrypt="secret"), "failed", "encrypted"),
        "scanned.pdf": (_pdf(scanned=True), "failed", "no text"),
        "huge.txt": (None, "failed", "too large"),  # 100 MB, written below
        "one-line.md": (b"# One line\n\n" + b"word " * (5 * 2**20 // 5), "added", ""),
        "headings.md": ("\n".join(f"# Heading {i}\n\nText {i}." for i in range(10000)).encode(), "added", ""),
        "nested.md": (("\n".join("#" * (1 + i % 6) + f" {i}.{i % 7}.{i % 5} Section" for i in range(3000))
                       + "\n\nBody text at the bottom.\n").encode() + b"> " * 2000 + b"quote\n", "added", ""),
        "deep.nxml": (deep_xml, "failed", ""),
        "bomb.nxml": (bomb, "failed", ""),
        "bad.xml": (b"<article><front><title>unclosed", "failed", ""),
        "neither.xml": (b"<?xml version='1.0'?><catalog><item/></catalog>", "failed", "neither JATS nor TEI"),
        "bad.json": (b'{"title": "x", "body_text": [', "failed", ""),
        "deep.json": (b"[" * 100000 + b"]" * 100000, "failed", ""),
        "bad.bib": (b"@article{broken, title = {unclosed\n", "failed", "BibTeX"),
        "binary.txt": (b"\x00\x01\x02" * 1000, "failed", "binary"),
        "latin1.md": ("# Café\n\nNaïve résumé.\n".encode("latin-1"), "failed", "UTF-8"),
        "good.pdf": (good_pdf, "added", ""),
    }


def _special_files(folder) -> dict[str, str]:
    os.symlink("loop-b.md", folder / "loop-a.md")
    os.symlink("loop-a.md", folder / "loop-b.md")
    os.symlink("nowhere.md", folder / "dangling.md")
    os.mkfifo(folder / "fifo.md")
    os.mkfifo(folder / "fifo.pdf")
    with open(os.fsencode(str(folder)) + b"/r\xe9sum\xe9.md", "wb") as f:
        f.write(b"# Non-UTF-8 name\n\nThe file name is Latin-1; the text mentions zymurgy.\n")
    return {"loop-a.md": "symbolic link loop", "loop-b.md": "symbolic link loop",
            "dangling.md": "broken symbolic link", "fifo.md": "named pipe", "fifo.pdf": "named pipe"}


def _mutations(folder, rng: random.Random, n: int) -> int:
    """Full suite: random damage to real PDFs and good papers (flipped bytes, cuts, splices)."""
    sources = sorted((SHARED / "pdfs").glob("*.pdf")) if (SHARED / "pdfs").exists() else []
    made = 0
    for i in range(n):
        src = rng.choice(sources) if sources and i % 2 == 0 else None
        data = bytearray(src.read_bytes() if src else _pdf(f"Mutant {i} text about signals."))
        for _ in range(rng.randint(1, 50)):
            data[rng.randrange(len(data))] = rng.randrange(256)
        if rng.random() < 0.3:
            data = data[: rng.randrange(1, len(data))]
        (folder / f"mutant-{i:03d}.pdf").write_bytes(bytes(data))
        made += 1
    return made


def test_hostile_files_get_one_line_each_and_good_files_are_indexed(tmp_path):
    folder = tmp_path / "inputs"
    good = write_papers(folder, 3)
    cases = _cases()
    for name, (content, _, _) in cases.items():
        if content is not None:
            (folder / name).write_bytes(content)
    with open(folder / "huge.txt", "wb") as f:
        f.truncate(100 * 2**20)  # 100 MB (sparse: cheap to make, the reader must still refuse it)
    specials = _special_files(folder)
    mutants = _mutations(folder, random.Random(13), scale(10, 60))

    t0 = time.monotonic()
    p = cli(tmp_path / "lib.db", "add", str(folder), "--json", ok=(1,), timeout=300)
    took = time.monotonic() - t0
    report = json.loads(p.stdout)
    by_name = {os.path.basename(f["path"]): f for f in report["files"]}

    for name, (_, status, words) in cases.items():
        got = by_name[name]
        assert got["status"] in ((status, "metadata") if name.endswith(".bib") else (status,)), (name, got)
        if status == "failed":
            assert got.get("reason") and words in got["reason"], (name, got)
    for name, words in specials.items():
        assert by_name[name]["status"] == "failed" and words in by_name[name]["reason"], by_name[name]
    assert by_name["r\\xe9sum\\xe9.md"]["status"] == "added"
    assert all(by_name[p.name]["status"] == "added" for p in good)
    for f in by_name.values():
        assert f["status"] != "failed" or (f.get("reason") and "\n" not in f["reason"]), f
    assert took < scale(60, 240) * slack(), took

    with Library(str(tmp_path / "lib.db"), create=False) as lib:
        assert lib.verify().ok
        assert lib.search("zymurgy", mode="lexical").results
        assert lib.search("persists across every condition", mode="lexical").results
    tried = len(cases) + len(specials) + 1 + mutants
    print(f"\nbad-inputs suite: {tried} hostile inputs tried ({mutants} random mutants), "
          f"every one reported or indexed in {took:.1f}s")
