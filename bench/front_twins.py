"""Front-matter truth from the records other tools wrote for the shared PDFs, aligned to page 1's own
text, and the reader graded against it (issue #38): authors (first + count, every name, non-authors),
titles, years.

Sources, each a record written outside this project:

* ``jats``: the wide corpus's JATS/NLM twins (``pdfs-wide/xml``): contributors (given names and
  surname), article title, the publication dates' year;
* ``tei`` / ``s2orc``: GROBID's TEI and S2ORC's JSON of the shared PDFs (``fulltext/``): authors,
  title (S2ORC: year);
* ``zotero``: the shared Zotero library's present PDFs: creators, title, date.

Alignment (the aligner's mistakes are kept out of the truth, not charged to the reader): a record's
author list is truth only when every surname is printed on page 1 (letters compared without accents
or case, pypdfium2's text layer, never the reader's); a name is graded in full only when its given
names and surname are printed as the record spells them, else on surnames; a title only when its
letters run unbroken in page 1's letters; a year only when the record's dates agree on one year and
page 1 prints it.  What was dropped, and why, is listed with ``--show``.

Halves and publisher families: bench/data/front_twins_split.json (wide: bench/data/wide_split.json's
family and half; shared: bench/data/pdf_split.json's half; Zotero: the family named from the record's
venue, the half `pdf_authors_zotero.half_of`'s, unchanged).  Only ``--half dev`` may be looked at.

    python bench/front_twins.py [--half dev] [--root OTHER_TREE] [--show] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import unicodedata
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = Path("/work/shared/data") if not (ROOT.parent / "shared" / "data").exists() else ROOT.parent / "shared" / "data"
SPLIT = ROOT / "bench" / "data" / "front_twins_split.json"
TEI = "{http://www.tei-c.org/ns/1.0}"


def fold(text: str) -> str:
    """Letters and digits only, accents and case aside ("Özcan-Berg" -> "ozcanberg")."""
    return "".join(c for c in unicodedata.normalize("NFKD", text).casefold() if c.isalnum())


def words(text: str) -> list[str]:
    return [fold(w) for w in re.findall(r"[^\W\d_]+", unicodedata.normalize("NFC", text)) if fold(w)]  # marks apart


def _jats(path: Path) -> dict:
    meta = ET.parse(path).getroot().find(".//article-meta")
    names = []
    for c in meta.iter("contrib") if meta is not None else []:
        s, g = c.find(".//surname"), c.find(".//given-names")
        if c.get("contrib-type") == "author" and s is not None:
            names.append(("".join(g.itertext()).strip() if g is not None else "", "".join(s.itertext()).strip()))
    title = meta.find(".//article-title") if meta is not None else None
    years = {y.text.strip() for d in (meta.findall("pub-date") if meta is not None else []) for y in d.findall("year") if y.text}
    return {"names": names, "title": " ".join("".join(title.itertext()).split()) if title is not None else None,
            "years": years}


def _tei(path: Path) -> dict:
    bibl = ET.parse(path).getroot().find(f".//{TEI}sourceDesc/{TEI}biblStruct/{TEI}analytic")
    names = []
    for a in bibl.findall(f"{TEI}author") if bibl is not None else []:
        s = a.find(f".//{TEI}surname")
        given = " ".join((f.text or "").strip() for f in a.findall(f".//{TEI}forename"))
        if s is not None and s.text:
            names.append((given, s.text.strip()))
    title = bibl.find(f"{TEI}title") if bibl is not None else None
    return {"names": names, "title": title.text if title is not None else None, "years": set()}


def _s2orc(path: Path) -> dict:
    d = json.loads(path.read_text())
    names = [(" ".join([a.get("first", ""), *a.get("middle", [])]).strip(), a.get("last", "")) for a in d.get("authors", [])]
    return {"names": [n for n in names if n[1]], "title": d.get("title"), "years": {str(d["year"])} if d.get("year") else set()}


def records(data: Path) -> list[dict]:
    """Every (source, pdf, record) pair the shared data holds, before alignment."""
    out = []
    for x in sorted((data / "pdfs-wide" / "xml").glob("*.xml")):
        out.append({"source": "jats", "id": x.stem + ".pdf", "pdf": data / "pdfs-wide" / (x.stem + ".pdf"), **_jats(x)})
    for x in sorted((data / "fulltext" / "grobid-tei").glob("*.tei.xml")):
        pdf = data / "pdfs" / (x.name.removesuffix(".tei.xml") + ".pdf")
        if pdf.exists():
            out.append({"source": "tei", "id": pdf.name, "pdf": pdf, **_tei(x)})
    for x in sorted((data / "fulltext" / "s2orc-json").glob("*.json")):
        pdf = data / "pdfs" / (x.stem + ".pdf")
        if pdf.exists():
            out.append({"source": "s2orc", "id": pdf.name, "pdf": pdf, **_s2orc(x)})
    from papershelf.ingest.zotero import read_zotero

    for a in read_zotero(str(data / "zotero")):
        if a.exists and a.path.lower().endswith(".pdf"):
            names = [(" ".join(n.split()[:-1]), n.split()[-1]) for n in a.meta.authors if n.split()]
            out.append({"source": "zotero", "id": a.key, "pdf": Path(a.path), "names": names, "title": a.meta.title,
                        "years": {str(a.meta.year)} if a.meta.year else set(), "venue": a.meta.venue or ""})
    return out


def page_one(pdf: Path) -> str | None:
    """Page 1's text; None for a file pdfium cannot open (a damaged attachment: no truth from it)."""
    import pypdfium2 as pdfium

    try:
        doc = pdfium.PdfDocument(str(pdf))
    except pdfium.PdfiumError:
        return None
    try:
        return str(doc[0].get_textpage().get_text_range())
    finally:
        doc.close()


def align(rec: dict, text: str) -> dict:
    """The parts of a record page 1 prints, as truth; `dropped` says what was left out and why."""
    flat, toks = fold(text), words(text)
    joined = " " + " ".join(toks) + " "
    truth: dict = {"dropped": []}
    names = rec["names"]
    if names and all(fold(s) and fold(s) in flat for _, s in names):
        full = [f"{g} {s}".strip() for g, s in names]
        truth["authors"] = full
        truth["full"] = all(f" {' '.join(words(n))} " in joined for n in full)
    elif names:
        truth["dropped"].append("authors: " + ", ".join(s for _, s in names if fold(s) not in flat))
    title = fold(rec.get("title") or "")
    if title and title in flat:
        truth["title"] = rec["title"]
    elif title:
        truth["dropped"].append("title")
    years = rec.get("years") or set()
    if len(years) == 1 and next(iter(years)) in re.findall(r"\d{4}", text):
        truth["year"] = int(next(iter(years)))
    elif years:
        truth["dropped"].append("year " + "/".join(sorted(years)) + (" not printed" if len(years) == 1 else ""))
    return truth


# the publisher family of a Zotero record, from words of its venue (written once, from the venues alone)
_VENUE_FAMILY = [("ICASSP", "IEEE"), ("IEEE", "IEEE"), ("Interspeech", "ISCA"), ("arXiv", "arXiv"), ("ACM", "ACM"),
                 ("Digital Signal Processing", "Elsevier"), ("Biomedical Signal", "Elsevier"),
                 ("Computer Networks", "Elsevier"), ("Speech Communication", "Elsevier"), ("Information", "MDPI"),
                 ("Preprints", "MDPI"), ("Distributed Sensor", "SAGE"), ("Frontiers of Information", "Springer"),
                 ("Agents and Artificial", "SciTePress"), ("Advanced Computer Science", "SAI"), ("ICML", "PMLR")]


def family_of(venue: str) -> str:
    return next((f for w, f in _VENUE_FAMILY if w.casefold() in venue.casefold()), venue[:40] or "?")


def write_split(data: Path) -> None:
    """The split file, from the records' names and venues alone (no reading, no grading)."""
    sys.path.insert(1, str(ROOT / "bench"))
    from pdf_authors_zotero import half_of

    wide = json.loads((ROOT / "bench" / "data" / "wide_split.json").read_text())
    shared = json.loads((ROOT / "bench" / "data" / "pdf_split.json").read_text())
    items = {}
    for r in records(data):
        key = f"{r['source']}:{r['id']}"
        if r["source"] == "jats":
            items[key] = wide[r["id"]]
        elif r["source"] == "zotero":
            items[key] = {"family": family_of(r["venue"]), "half": half_of(r["id"])}
        else:
            items[key] = {"family": r["id"].split("-")[0].split("_")[0], "half": "dev" if r["id"] in shared["dev"] else "test"}
    about = ("Halves of bench/front_twins.py's records, fixed before any grading: wide JATS twins by "
             "wide_split.json, the shared PDFs' TEI/S2ORC by pdf_split.json, Zotero PDFs by "
             "pdf_authors_zotero.half_of (unchanged) with a publisher family named from the venue. "
             "Families across both halves (Zotero: arXiv, Elsevier, IEEE) are no unseen publisher.")
    SPLIT.write_text(json.dumps({"_about": about, **dict(sorted(items.items()))}, ensure_ascii=False, indent=1) + "\n")


def _grade(doc, truth: dict) -> dict:
    from strict_front import grade_authors, title_exact
    from wide_text import authors_right, title_right

    row: dict = {}
    if truth.get("authors"):
        first_count, non = authors_right(doc.authors, [n.split()[-1] for n in truth["authors"]])
        g = grade_authors(doc.authors, truth["authors"], surnames_only=not truth["full"])
        row.update(first_count=first_count, non=non, exact=g["exact"])
    if truth.get("title"):
        row.update(title_exact=title_exact(doc.title, truth["title"]), title_09=title_right(doc.title, truth["title"]))
    if truth.get("year"):
        row["year"] = "none" if doc.year is None else ("right" if doc.year == truth["year"] else "wrong")
    return row


def run(data: Path, half: str, show: bool) -> dict:
    from papershelf.ingest import load_source, parse_source

    split = json.loads(SPLIT.read_text())
    rows = []
    for rec in records(data):
        key = f"{rec['source']}:{rec['id']}"
        if split.get(key, {}).get("half") != half or not rec["pdf"].exists():
            continue
        text = page_one(rec["pdf"])
        if text is None:
            continue
        truth = align(rec, text)
        doc = parse_source(load_source(str(rec["pdf"])))
        row = {"key": key, "family": split[key]["family"], "found": {"authors": doc.authors, "title": doc.title,
               "year": doc.year}, "truth": {k: v for k, v in truth.items() if k != "dropped"},
               "dropped": truth["dropped"], **_grade(doc, truth)}
        rows.append(row)
        bad = row.get("exact") is False or row.get("title_exact") is False or row.get("year") not in (None, "right")
        if show and (bad or row["dropped"]):
            print(json.dumps({k: row[k] for k in row if k != "family"}, ensure_ascii=False))
    return {"rows": rows, **totals(rows)}


def totals(rows: list[dict]) -> dict:
    a = [r for r in rows if "exact" in r]
    t = [r for r in rows if "title_exact" in r]
    y = [r for r in rows if "year" in r]
    return {"papers": len(rows), "authors": len(a), "first_count": sum(r["first_count"] for r in a),
            "exact": sum(r["exact"] for r in a), "non_authors": sum(r["non"] for r in a),
            "full_names": sum(r["truth"].get("full", False) for r in a), "titles": len(t),
            "titles_exact": sum(r["title_exact"] for r in t), "titles_09": sum(r["title_09"] for r in t),
            "years": len(y), **{f"year_{k}": sum(r["year"] == k for r in y) for k in ("right", "wrong", "none")},
            "dropped": sum(bool(r["dropped"]) for r in rows)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--half", choices=("dev", "test"), default="dev")
    ap.add_argument("--data", default=str(DATA))
    ap.add_argument("--root", default=str(ROOT), help="the source tree whose reader to run (a before-tree)")
    ap.add_argument("--write-split", action="store_true", help="write bench/data/front_twins_split.json and stop")
    ap.add_argument("--show", action="store_true", help="one line per paper read wrong or with truth dropped")
    ap.add_argument("--json", help="write the rows and totals to this file")
    args = ap.parse_args()
    sys.path.insert(0, args.root)
    sys.path.insert(1, str(ROOT / "bench"))
    if args.write_split:
        write_split(Path(args.data))
        return 0
    out = run(Path(args.data), args.half, args.show)
    print(json.dumps({k: v for k, v in out.items() if k != "rows"}))
    if args.json:
        Path(args.json).write_text(json.dumps(out, ensure_ascii=False, indent=1, default=str))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
