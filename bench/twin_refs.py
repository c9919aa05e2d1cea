"""Reference entries of dev-half PDFs against their structured twins, entry by entry: the JATS twins of the wide
corpus (`<ref-list>`) and the GROBID TEI / S2ORC twins of the shared PDFs (`fulltext/`).

Per twin entry with a title of three words at least: *found* when exactly one PDF entry holds its title (folded
letters; two twin titles in one PDF entry are a merge, the title in none a loss or a split), then the year and the
first author's surname of that PDF entry are checked against the twin's.  Counts as in `wide_text.py` (within
max(1, 5 %)).  GROBID's TEI and S2ORC are another parser's reading, not hand truth: read their misses before
calling them the reader's.

    python bench/twin_refs.py --data /work/shared/data [-v]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from papershelf.errors import IngestError  # noqa: E402
from papershelf.ingest import load_source, parse_source  # noqa: E402
from papershelf.text import normalized_title  # noqa: E402
from papershelf.works import surname  # noqa: E402

DATA = ROOT.parent / "shared" / "data"
SPLIT = ROOT / "bench" / "data" / "wide_split.json"
REF_SPLIT = ROOT / "bench" / "data" / "references_split.json"
TEI = "{http://www.tei-c.org/ns/1.0}"


def _text(node: ET.Element | None) -> str:
    return " ".join("".join(node.itertext()).split()) if node is not None else ""


def jats_entries(path: Path) -> list[dict]:
    out = []
    for ref in ET.parse(path).getroot().findall(".//ref-list/ref"):
        year = re.search(r"\d{4}", _text(ref.find(".//year")))
        out.append({"title": _text(ref.find(".//article-title")) or _text(ref.find(".//chapter-title")),
                    "year": int(year.group()) if year else None, "first": _text(ref.find(".//surname"))})
    return out


def tei_entries(path: Path) -> list[dict]:
    out = []
    for b in ET.parse(path).getroot().iter(f"{TEI}biblStruct"):
        title = b.find(f".//{TEI}analytic/{TEI}title") or b.find(f".//{TEI}monogr/{TEI}title")
        date = b.find(f".//{TEI}date[@type='published']")
        year = re.search(r"\d{4}", date.get("when", "") if date is not None else "")
        out.append({"title": _text(title), "year": int(year.group()) if year else None,
                    "first": _text(b.find(f".//{TEI}author//{TEI}surname"))})
    return out


def s2orc_entries(path: Path) -> list[dict]:
    doc = json.loads(path.read_text())
    bib = (doc.get("pdf_parse") or doc).get("bib_entries", {})
    return [{"title": e.get("title") or "", "year": e.get("year"),
             "first": (e.get("authors") or [{}])[0].get("last", "")} for e in bib.values()]


def pairs(data: Path) -> list[tuple[str, Path, list[dict]]]:
    split = json.loads(SPLIT.read_text())
    out = []
    for xml in sorted((data / "pdfs-wide" / "xml").glob("*.xml")):
        pdf = data / "pdfs-wide" / f"{xml.stem}.pdf"
        if split.get(pdf.name, {}).get("half") == "dev":
            out.append(("jats", pdf, jats_entries(xml)))
    dev = set(json.loads(REF_SPLIT.read_text())["pdfs"]["dev"])
    for tei in sorted((data / "fulltext" / "grobid-tei").glob("*.tei.xml")):
        stem = tei.name.removesuffix(".tei.xml")
        if stem in dev:
            out.append(("tei", data / "pdfs" / f"{stem}.pdf", tei_entries(tei)))
            s2 = data / "fulltext" / "s2orc-json" / f"{stem}.json"
            if s2.exists():
                out.append(("s2orc", data / "pdfs" / f"{stem}.pdf", s2orc_entries(s2)))
    return out


def grade(entries: list[dict], refs: list, verbose: bool, name: str) -> dict:
    texts = [f" {normalized_title(r.text)} " for r in refs]
    g = {"entries": 0, "found": 0, "year": 0, "first": 0, "merged": 0}
    for e in entries:
        title = normalized_title(e["title"])
        if len(title.split()) < 3:
            continue
        g["entries"] += 1
        holding = [i for i, t in enumerate(texts) if f" {title} " in t]
        if len(holding) != 1:
            if verbose:
                print(f"  {name}: {'in none' if not holding else f'in {len(holding)}'}: {e['title'][:80]}")
            continue
        ref = refs[holding[0]]
        g["found"] += 1
        g["year"] += ref.year == e["year"]
        first = bool(ref.authors) and surname(ref.authors[0]) == surname(e["first"] or "?")
        g["first"] += first
        if verbose and (ref.year != e["year"] or not first):
            print(f"  {name}: year {ref.year} | {e['year']}, first {ref.authors[:1]} | {e['first']}: {ref.text[:90]}")
    for t in texts:  # two twin titles inside one PDF entry: a merge
        inside = [e for e in entries if len(normalized_title(e["title"]).split()) >= 3
                  and f" {normalized_title(e['title'])} " in t]
        g["merged"] += len(inside) > 1
    return g


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default=str(DATA))
    ap.add_argument("-v", action="store_true")
    args = ap.parse_args()
    total = {"papers": 0, "count_ok": 0, "entries": 0, "found": 0, "year": 0, "first": 0, "merged": 0}
    for kind, pdf, entries in pairs(Path(args.data)):
        try:
            refs = parse_source(load_source(str(pdf))).references
        except IngestError as e:
            print(f"{pdf.name}: {e}")
            continue
        g = grade(entries, refs, args.v, pdf.name)
        ok = abs(len(refs) - len(entries)) <= max(1, 0.05 * len(entries))
        print(f"{kind:6s} {pdf.name}: count {len(refs)} | twin {len(entries)}; entries found {g['found']}/"
              f"{g['entries']}, year {g['year']}, first author {g['first']}, merged {g['merged']}")
        total["papers"] += 1
        total["count_ok"] += ok
        for k in ("entries", "found", "year", "first", "merged"):
            total[k] += g[k]
    print(json.dumps(total))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
