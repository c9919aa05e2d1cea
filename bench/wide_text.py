"""The wide corpus's text, front matter and reference lists as the PDF reader reads them, against truth
the corpus carries: glyph artefacts in body units, titles and years (manifest.json), authors (the JATS
twins, plus the printed authors read by hand from rendered first pages: bench/data/wide_authors.json for
the dev half, bench/data/wide_authors_test.json for the test half when it exists), reference counts (the
twins' lists; entries counted by hand from the page text, bench/data/wide_refcounts.json for the dev half and
wide_refcounts_test.json for the test half when present; else the numbered entries the page text itself prints).

    python bench/wide_text.py --half dev            # tune on this
    python bench/wide_text.py --half test           # report this, once
    python bench/wide_text.py --half dev --show refs   # one line per paper for a measure

A body unit has a glyph artefact when it holds a control or private-use character or U+FFFD, or a
``_``/``^`` inside a lowercase word that reads as one of the paper's words without it (``_gure``,
``s_pectrum``, ``m^esons``; see `artefact`).  A reference count is right within max(1, 5 %) of the truth.
Truth for a numbered list: the labels ``[N]`` / ``N.`` that open lines after the last references
heading of the page text, counting up from 1 (taken only when at least 90 % of 1..N are there).  A hand count outranks that guess (it was read, the guess
can take a contents line or a supplement's list for the references heading); a JATS twin outranks both.  A hand
count of 0 (the paper prints no list) is right when the reader finds at most one entry.
PDFs without a text layer (OCR's work, minutes each) are left out.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
import unicodedata
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from papershelf.errors import IngestError  # noqa: E402
from papershelf.ingest import load_source, parse_source  # noqa: E402
from papershelf.ingest.metadata import normalized_title  # noqa: E402
from papershelf.units import build_units  # noqa: E402
from papershelf.works import surname  # noqa: E402

SPLIT = ROOT / "bench" / "data" / "wide_split.json"
YEARS = ROOT / "bench" / "data" / "wide_years.json"  # years read from page 1 where the manifest's is not the paper's
HAND = ROOT / "bench" / "data" / "wide_authors.json"  # printed authors of dev-half PDFs, read from rendered pages
HAND_TEST = ROOT / "bench" / "data" / "wide_authors_test.json"  # the same for the test half, kept apart (may be absent)
REFCOUNTS = {"dev": ROOT / "bench" / "data" / "wide_refcounts.json",
             "test": ROOT / "bench" / "data" / "wide_refcounts_test.json"}
DATA = ROOT.parent / "shared" / "data"

_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ue000-\uf8ff\ufffd]")


# A symbol a mathematical font set at a Latin-1 letter's code, standing alone between spaces: "CI ¼ 0.27"
# ("="), "P þ ER" ("+"); none of these is a word on its own in any language of the corpus.
_SYMBOL_CODE = re.compile(r"(?<=\s)[¼½¾þÞð](?=\s)")
_WORD_AROUND = re.compile(r"(?<![\w^])([a-z]*)[_^]([a-z]{4,})(?![\w^])")


def artefact(text: str, vocabulary: set[str]) -> str | None:
    """The first glyph artefact in a text, with a little context, or None.  A ``_``/``^`` counts when
    it stands inside a lowercase word, four letters at least after it, and the word read without it,
    or with a ligature in its place, is a word the paper prints elsewhere (``_gure``, ``s_pectrum``,
    ``m^esons``; not a subscript such as ``C_max``, ``w_ij``, ``R_free`` nor most identifiers)."""
    m = _CONTROL.search(text)
    if m is None:
        for w in _WORD_AROUND.finditer(text):
            if any(f"{w.group(1)}{lig}{w.group(2)}" in vocabulary for lig in ("", "fi", "fl", "ff", "ffi", "ffl")):
                m = w
                break
    return None if m is None else text[max(0, m.start() - 12):m.end() + 12]


def read_one(path: Path) -> dict:
    """What the reader makes of one PDF: its front matter, references and body units' artefacts."""
    t0 = time.perf_counter()
    try:
        doc = parse_source(load_source(str(path)))
    except IngestError as e:
        return {"error": str(e)}
    units = [u.text for u in build_units(doc, "p") if u.kind in ("body", "chunk")]
    return {"title": doc.title, "year": doc.year, "authors": doc.authors,
            "refs": [r.text for r in doc.references], "units": units, "seconds": round(time.perf_counter() - t0, 3)}


def artefacts(units: list[str]) -> list[str]:
    """The glyph artefacts of a paper's body units, one (with context) per unit that has any."""
    vocabulary = {w.lower() for text in units for w in re.findall(r"[^\W\d_]{4,}", text)}
    return [a for a in (artefact(text, vocabulary) for text in units) if a]


_NUMBERED = re.compile(r"^\s*(?:\[(\d{1,3})\]|(\d{1,3})\.\s)")
_HEADING = re.compile(r"^\s*(?:\d+\.?\s*)?(?:references|bibliography|literature cited|references and notes|"
                      r"works cited|literatur|referências|referencias|bibliografía|bibliographie|参考文献)\s*$",
                      re.IGNORECASE | re.MULTILINE)


def numbered_count(text: str) -> int | None:
    """N when the text after the last references heading prints labels 1..N (90 % of them at least)."""
    heads = list(_HEADING.finditer(text))
    if not heads:
        return None
    seen: set[int] = set()
    nxt = 1
    for line in text[heads[-1].end():].splitlines():
        m = _NUMBERED.match(line)
        if m:
            n = int(m.group(1) or m.group(2))
            if nxt <= n <= nxt + 3:
                seen.add(n)
                nxt = n + 1
    if nxt < 6 or len(seen) < 0.9 * (nxt - 1):
        return None
    return nxt - 1


def page_text(path: Path) -> str:
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(str(path))
    try:
        return "\n".join(pdf[i].get_textpage().get_text_range() for i in range(len(pdf)))
    finally:
        pdf.close()


_J = "{http://www.w3.org/1999/xlink}"


def twin_truth(xml: Path) -> dict:
    root = ET.parse(xml).getroot()
    front = root.find(".//article-meta")
    authors = []
    for c in (front.iter("contrib") if front is not None else []):
        name = c.find(".//surname")
        if c.get("contrib-type") == "author" and name is not None:
            authors.append("".join(name.itertext()).strip())
    refs = root.findall(".//ref-list/ref")
    return {"authors": authors, "refs": len(refs)}


def _fold(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", text).casefold() if c.isalpha())


def authors_right(found: list[str], truth: list[str]) -> tuple[bool, int]:
    """(first author and count right, how many found names are no author of the truth)."""
    truth_f = [_fold(t) for t in truth]
    found_s = [_fold(surname(a) or a) for a in found]
    non = sum(1 for s in found_s if not any(s and (s in t or t in s) for t in truth_f))
    first = bool(found_s) and bool(truth_f) and (found_s[0] in truth_f[0] or truth_f[0] in found_s[0])
    return first and len(found) == len(truth), non


def title_right(found: str | None, truth: str) -> bool:
    import difflib

    a, b = normalized_title(found), normalized_title(truth)
    return bool(a) and difflib.SequenceMatcher(None, a, b).ratio() >= 0.9


def hand_refcounts(half: str) -> dict[str, int]:
    """Reference counts read by hand for a half ("all": both), from the files that exist."""
    paths = REFCOUNTS.values() if half == "all" else [REFCOUNTS[half]]
    return {k: v for p in paths if p.exists() for k, v in json.loads(p.read_text()).items() if not k.startswith("_")}


def ref_truth(row: dict, hand: int | None) -> int | None:
    """The reference count a paper is scored against: its twin's, else the hand count, else the numbered guess."""
    twin = row.get("twin", {}).get("refs")
    if twin:
        return twin
    return hand if hand is not None else row.get("numbered")


def hand_truth(half: str, dev: Path = HAND, test: Path = HAND_TEST) -> dict[str, list[str]]:
    """The printed authors read by hand for a half: the dev file for "dev", the test file for "test"
    (none while it does not exist: the test half is then graded on the JATS twins alone), both for
    "all".  Each file holds only its own half's PDFs."""
    files = {"dev": [dev], "test": [test], "all": [dev, test]}[half]
    out: dict[str, list[str]] = {}
    for path in files:
        if path.exists():
            out.update({k: v for k, v in json.loads(path.read_text()).items() if not k.startswith("_")})
    return out


def score(rows: dict, records: dict, data: Path, show: str | None, hand: dict[str, list[str]] | None = None,
          refcounts: dict[str, int] | None = None) -> dict:
    hand = hand or {}
    refcounts = refcounts or {}
    out = {"papers": 0, "failed": 0, "units": 0, "bad_units": 0, "titles": 0, "titles_right": 0,
           "years": 0, "years_right": 0, "years_wrong": 0, "authors": 0, "authors_right": 0,
           "non_authors": 0, "ref_papers": 0, "ref_right": 0, "symbol_units": 0}
    years = json.loads(YEARS.read_text()) if YEARS.exists() else {}
    for name, row in sorted(rows.items()):
        rec = {**records[name], "year": years[name]} if name in years else records[name]
        out["papers"] += 1
        if "error" in row:
            out["failed"] += 1
            continue
        bad = artefacts(row["units"])
        out["units"] += len(row["units"])
        out["bad_units"] += len(bad)
        out["symbol_units"] += sum(_SYMBOL_CODE.search(u) is not None for u in row["units"])
        if show == "glyphs" and bad:
            print(f"{name}: {len(bad)}/{len(row['units'])} {bad[:4]}")
        if rec.get("title"):
            out["titles"] += 1
            ok = title_right(row["title"], rec["title"])
            out["titles_right"] += ok
            if show == "titles" and not ok:
                print(f"{name}: {row['title']!r} | truth {rec['title']!r}")
        if rec.get("year"):
            out["years"] += 1
            out["years_right"] += row["year"] == rec["year"]
            out["years_wrong"] += row["year"] not in (None, rec["year"])
            if show == "years" and row["year"] != rec["year"]:
                print(f"{name}: {row['year']} | truth {rec['year']}")
        truth_authors = row.get("twin", {}).get("authors") or hand.get(name)
        if truth_authors:
            out["authors"] += 1
            ok, non = authors_right(row["authors"], truth_authors)
            out["authors_right"] += ok
            out["non_authors"] += non
            if show == "authors" and (not ok or non):
                print(f"{name}: {row['authors']} | truth {truth_authors}")
        n_true = ref_truth(row, refcounts.get(name))
        if n_true is not None:
            out["ref_papers"] += 1
            ok = abs(len(row["refs"]) - n_true) <= max(1, 0.05 * n_true)
            out["ref_right"] += ok
            if show == "refs" and not ok:
                print(f"{name}: {len(row['refs'])} | truth {n_true}  first {row['refs'][:1]} last {row['refs'][-1:]}")
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default=str(DATA))
    ap.add_argument("--half", choices=("dev", "test", "all"), default="dev")
    ap.add_argument("--cache", help="a JSON file: read rows from it when it exists, else write them to it")
    ap.add_argument("--only", help="a substring of the file names to read")
    ap.add_argument("--show", choices=("glyphs", "titles", "years", "authors", "refs"))
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    wide = Path(args.data) / "pdfs-wide"
    if not (wide / "manifest.json").exists():
        print(f"no wide corpus at {wide}", file=sys.stderr)
        return 2
    records = {r["file"]: r for r in json.loads((wide / "manifest.json").read_text())}
    split = json.loads(SPLIT.read_text())
    names = [n for n in sorted(records) if args.half == "all" or split[n]["half"] == args.half]
    names = [n for n in names if (not args.only or args.only in n) and records[n].get("text_layer") != "none"]
    if args.cache and Path(args.cache).exists():
        rows = json.loads(Path(args.cache).read_text())
    else:
        rows = {}
        for name in names:
            row = read_one(wide / name)
            if "error" not in row:
                row["numbered"] = numbered_count(page_text(wide / name))
            twin = wide / "xml" / (Path(name).stem + ".xml")
            if twin.exists():
                row["twin"] = twin_truth(twin)
            rows[name] = row
        if args.cache:
            Path(args.cache).write_text(json.dumps(rows))
    hand = hand_truth(args.half)
    s = score(rows, records, wide, args.show, {n: a for n, a in hand.items() if n in rows}, hand_refcounts(args.half))
    if args.json:
        print(json.dumps(s))
        return 0
    print(f"{s['papers']} papers ({args.half}), {s['failed']} failed")
    print(f"body units with a glyph artefact: {s['bad_units']}/{s['units']} = {s['bad_units'] / max(1, s['units']):.3f}")
    print(f"body units with a symbol set as a Latin-1 letter (' ¼ ' for '='): {s['symbol_units']}")
    print(f"titles right: {s['titles_right']}/{s['titles']} = {s['titles_right'] / max(1, s['titles']):.3f}")
    print(f"years right / wrong: {s['years_right']} / {s['years_wrong']} of {s['years']} "
          f"= {s['years_right'] / max(1, s['years']):.3f}")
    source = {"dev": HAND.name, "test": HAND_TEST.name if HAND_TEST.exists() else "none: twins only",
              "all": f"{HAND.name} + {HAND_TEST.name if HAND_TEST.exists() else 'no test file'}"}[args.half]
    print(f"authors (first + count) right: {s['authors_right']}/{s['authors']}, non-authors {s['non_authors']} "
          f"(truth: JATS twins, hand-read {source})")
    print(f"reference counts within 5 %: {s['ref_right']}/{s['ref_papers']} "
          f"= {s['ref_right'] / max(1, s['ref_papers']):.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
