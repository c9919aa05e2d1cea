"""Glyph artefacts in the body units the PDF reader makes, on every PDF of a half, per publisher family.

The PDFs: pdfs-wide (bench/data/wide_split.json, families as there), the 27 shared PDFs
(bench/data/pdf_split.json, family = the file name's leading letters) and the Zotero library's PDFs
(halves by `pdf_authors_zotero.half_of`, one family).  PDFs without a text layer are read too (OCR).

A body unit (kind body or chunk, as the index stores it) has a glyph artefact when its text holds
one of these classes (`classes`):

* ``control``: a C0/C1 control code other than tab and line feed, or a Unicode noncharacter (the
  reader's own placeholders, U+FDD0–U+FDEF, leaked);
* ``private``: a private-use code point (U+E000–U+F8FF, planes 15–16);
* ``fffd``: U+FFFD;
* ``cid``: "(cid:NN)", a glyph id printed by a tool that could not map it;
* ``hole``: a ``_``/``^`` in a lowercase word, four letters at least after it, where the word read
  with a ligature (fi fl ff ffi ffl) in its place, or (inside the word: a letter before it) without
  it, is a word the paper prints elsewhere (``_gure``, ``s_pectrum``, ``m^esons``; not ``C_max``
  nor ``w_ij``).  `bench/wide_text.py`'s rule, less a script opening after a space or a sign whose
  text is a word as it stands (``PrDAG ≡_poly``, ``x ^test``, ``[^continuation``: a real script; a
  ligature's hole opens a word only when the word needs the ligature, an accent's or a stray code's
  sits inside a word);
* ``symbol``: a symbol a mathematical font set at a Latin-1 letter's code, alone between spaces
  (" ¼ " for "=", " þ " for "+");
* ``garbled``: the unit reads as a font's glyph codes, not words (a Type 3 bitmap font without a
  ToUnicode map): of its runs of three Latin letters or more (five runs at least), fewer than
  `GARBLED_SHARE` are shaped as words are in any language set in Latin letters (`wordlike`: one case
  shape, or two parts as "GitHub", "mRNA"; a vowel in each part but an acronym's).  Judged without a
  language model, so a paper in Portuguese or German is judged as one in English, and text in another
  script (Chinese, Cyrillic) is not judged at all: a font's codes come out as Latin letters and signs.
  (Until 2026-12-07 evening: the reader's own English letter-trigram prior, under which a Chinese
  thesis' units counted as garbled.)

    python bench/glyph_artefacts.py --half dev [--only NAME] [--worst 30] [--cache rows.json]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path

from pdf_authors_zotero import half_of
from queryset import DEFAULT_DATA

from papershelf.errors import IngestError
from papershelf.ingest import load_source, parse_source
from papershelf.ingest.pdf.text.type3_codes import LATIN_RUN, wordlike  # the reader's own test of word shapes
from papershelf.ingest.zotero import read_zotero
from papershelf.units import build_units

ROOT = Path(__file__).resolve().parent.parent
WIDE_SPLIT = ROOT / "bench" / "data" / "wide_split.json"
PDF_SPLIT = ROOT / "bench" / "data" / "pdf_split.json"

_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ufdd0-\ufdef]")
_PRIVATE = re.compile("[\ue000-\uf8ff\U000f0000-\U0010ffff]")
_CID = re.compile(r"\(cid:\d{1,5}\)")
_SYMBOL = re.compile(r"(?<=\s)[¼½¾þÞð](?=\s)")
# A unit is garbled under this share of word-shaped runs: the dev PDF of bitmap glyph codes (acm-pods-1995, its
# text layer in 600-character pieces) scores 0.39-0.62, every dev unit of text 0.74 or more.
GARBLED_SHARE = 0.66
CLASSES = ("control", "private", "fffd", "cid", "hole", "symbol", "garbled")


def garbled(text: str) -> bool:
    """Does the text read as glyph codes (see the module's doc)?  Judged by the runs' shapes alone, not by
    a language model: a paper in Portuguese, German or Chinese is no more garbled than one in English."""
    runs = LATIN_RUN.findall(text)
    return len(runs) >= 5 and sum(map(wordlike, runs)) < GARBLED_SHARE * len(runs)


_WORD_AROUND = re.compile(r"(?<![\w^])([a-z]*)[_^]([a-z]{4,})(?![\w^])")


def hole(text: str, vocabulary: set[str]) -> str | None:
    """The first ``_``/``^`` hole in the text (see the module's doc), or None."""
    for w in _WORD_AROUND.finditer(text):
        readings = [f"{w.group(1)}{lig}{w.group(2)}" for lig in ("fi", "fl", "ff", "ffi", "ffl")]
        if any(r in vocabulary for r in readings + ([w.group(1) + w.group(2)] if w.group(1) else [])):
            return w.group(0)
    return None


def classes(text: str, vocabulary: set[str]) -> list[str]:
    """The artefact classes a unit's text holds, in `CLASSES`' order."""
    found = [name for name, hit in (("control", _CONTROL.search(text)), ("private", _PRIVATE.search(text)),
                                    ("fffd", "\ufffd" in text), ("cid", _CID.search(text))) if hit]
    if ("_" in text or "^" in text) and hole(text, vocabulary):
        found.append("hole")
    if _SYMBOL.search(text):
        found.append("symbol")
    if garbled(text):
        found.append("garbled")
    return found


def pdfs(data: Path, half: str) -> list[tuple[str, str, Path]]:
    """(source, family, path) of every PDF of the half."""
    out = []
    wide = data / "pdfs-wide"
    if WIDE_SPLIT.exists() and wide.exists():
        for name, v in sorted(json.loads(WIDE_SPLIT.read_text()).items()):
            if half in ("all", v["half"]):
                out.append(("wide", v["family"], wide / name))
    if PDF_SPLIT.exists() and (data / "pdfs").exists():
        split = json.loads(PDF_SPLIT.read_text())
        for name in sorted(split["dev"] + split["test"] if half == "all" else split[half]):
            out.append(("pdfs", re.sub(r"[^a-z].*", "", name) or name, data / "pdfs" / name))
    if (data / "zotero").exists():
        for a in read_zotero(str(data / "zotero")):
            if a.exists and a.path.lower().endswith(".pdf") and half in ("all", half_of(a.key)):
                out.append(("zotero", "zotero", Path(a.path)))
    return out


def read_one(path: Path) -> dict:
    """The body units of one PDF as (page, text), or the error."""
    try:
        doc = parse_source(load_source(str(path)))
    except IngestError as e:
        return {"error": str(e)}
    return {"units": [(u.page_start, u.text) for u in build_units(doc, "p") if u.kind in ("body", "chunk")],
            "ocr": sorted(doc.ocr_pages)}


def score(rows: dict[str, dict], meta: dict[str, tuple[str, str]]) -> tuple[dict, list]:
    """Per family and class: units and units with an artefact; the bad units with their classes."""
    fam: dict[str, Counter] = defaultdict(Counter)
    bad = []
    for key, row in rows.items():
        source, family = meta[key]
        units = row.get("units", [])
        vocabulary = {w.lower() for _, t in units for w in re.findall(r"[^\W\d_]{4,}", t)}
        for c in (fam[family], fam[f"= {source}"], fam["= all"]):
            c["pdfs"] += 1
            c["units"] += len(units)
            c["failed"] += "error" in row
        for page, text in units:
            found = classes(text, vocabulary)
            if not found:
                continue
            for c in (fam[family], fam[f"= {source}"], fam["= all"]):
                c["bad"] += 1
                c.update(found)
            bad.append((key, page, found, text))
    return fam, bad


def _context(text: str, found: list[str]) -> str:
    pattern = {"control": _CONTROL, "private": _PRIVATE, "cid": _CID, "symbol": _SYMBOL}.get(found[0])
    m = pattern.search(text) if pattern else re.search("[_^\ufffd]", text) if found[0] in ("hole", "fffd") else None
    at = m.start() if m else 0
    return repr(text[max(0, at - 60):at + 60])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default=str(DEFAULT_DATA))
    ap.add_argument("--half", choices=("dev", "test", "all"), default="dev")
    ap.add_argument("--only", help="a substring of the file paths to read")
    ap.add_argument("--worst", type=int, default=20, help="print this many bad units")
    ap.add_argument("--cache", help="a JSON file: rows read from it when it exists, else written to it")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    todo = [(s, f, p) for s, f, p in pdfs(Path(args.data), args.half) if not args.only or args.only in str(p)]
    meta = {str(p): (s, f) for s, f, p in todo}
    if args.cache and Path(args.cache).exists():
        rows = {k: v for k, v in json.loads(Path(args.cache).read_text()).items() if k in meta}
    else:
        rows = {}
        for _, _, path in todo:
            rows[str(path)] = read_one(path)
            print(f"read {path.name}", file=sys.stderr, flush=True)
        if args.cache:
            Path(args.cache).write_text(json.dumps(rows))
    fam, bad = score(rows, meta)
    if args.json:
        print(json.dumps({k: dict(v) for k, v in fam.items()}))
        return 0
    # the worst first: the classes a whole unit carries (garbled, controls), then by the share of odd characters
    bad.sort(key=lambda b: (-len(b[2]), -sum(not (c.isalnum() or c.isspace()) for c in b[3]) / max(1, len(b[3]))))
    for key, page, found, text in bad[:args.worst]:
        print(f"{Path(key).name[:44]:44s} p{page} {','.join(found):16s} {_context(text, found)}")
    print(f"{'family':24s} {'pdfs':>4s} {'units':>6s} {'bad':>4s} {'share':>6s}  " + " ".join(f"{c:>7s}" for c in CLASSES))
    for name in sorted(fam, key=lambda n: (n.startswith("="), n)):
        c = fam[name]
        if c["bad"] or name.startswith("="):
            print(f"{name[:24]:24s} {c['pdfs']:4d} {c['units']:6d} {c['bad']:4d} {c['bad'] / max(1, c['units']):6.3f}  "
                  + " ".join(f"{c[k]:7d}" for k in CLASSES) + (f"  failed {c['failed']}" if c["failed"] else ""))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
