"""Front matter graded strictly: every printed author (spelling, order, nothing extra) and the title
as printed, on every source of real truth the project has (issue #38).

`bench/wide_text.py` grades the first author and the count, and a title within 0.9 similarity of
the manifest's: on the wide dev half that saturated (77/81) and no longer tells readers apart.  Here a
paper's authors are right only when every name is read, in order, spelled as printed (accents and
case of capitals aside: "ÖZCAN" is "Özcan"; a dropped middle initial or a lost accent is wrong), and
nothing else is taken for a name.  Truth, per source:

* ``wide``: the dev half of the wide corpus: hand-read bylines (bench/data/wide_authors.json), the
  JATS twins' where a PDF has one (surnames only: graded on surnames); titles from the manifest,
  overridden by bench/data/wide_titles.json where the printed title was read by hand.
* ``zotero``: the shared Zotero library's present PDFs, against the metadata Zotero holds (creators,
  title).  Zotero keeps a record's names (often initials only): a name is right when its surname is
  spelled as Zotero's and its first given name starts with the same letter.
* ``shared``: the 27 shared PDFs' hand-read authors (bench/data/pdf_authors.json); titles from
  bench/data/pdf_titles.json (read from page 1).
* ``printed``: 82 dev PDFs (the 7 Zotero ones, 16 wide pages whose years disagree, 24 wide pages of
  other families and eras: old journals, cover sheets, preprints, a German title; front18: 20 wide pages
  of the families not yet in it and the 15 shared pdfs/ dev pages) read by hand from
  page 1 (bench/data/front_printed.json): title, every author, and the years the page prints as the
  paper's own; a year is graded right / other own / wrong / none / unprinted (`grade_year`).

Halves: wide by bench/data/wide_split.json, zotero by `pdf_authors_zotero.half_of`, shared by
bench/data/pdf_split.json.  Only ``--half dev`` may be looked at.

    python bench/strict_front.py --source wide|zotero|shared|printed|all [--root OTHER_TREE] [--show] [--json]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import unicodedata
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "data"
BENCH = ROOT / "bench" / "data"


def _letters(text: str) -> list[str]:
    """A name's words as letters only, composed and case-folded ("O'Neil" -> ["o", "neil"])."""
    return re.findall(r"[^\W\d_]+", unicodedata.normalize("NFC", text).casefold())


def _plain(word: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", word) if not unicodedata.combining(c))


def name_right(found: str, truth: str, loose: bool = False) -> bool:
    """`found` is `truth` as printed: the same surname, spelled the same, and the same given names
    (an initial where the truth prints one, a full name where it prints one).  `loose` (a record that
    abbreviates): the surname spelled the same and the first given names' initials alike."""
    f, t = _letters(found), _letters(truth)
    if not f or not t or f[-1] != t[-1]:
        return False
    if loose:
        return not f[:-1] or not t[:-1] or f[0][0] == t[0][0]
    return f == t


def grade_authors(found: list[str], truth: list[str], loose: bool = False, surnames_only: bool = False) -> dict:
    """Strict grades of one paper's authors: `exact` (every name right, in order, nothing more);
    names right in place; found names that are no author's (their surname, accents aside, is none
    of the truth's); `misspelled` (a truth surname, read another way); `order` (the names all right
    but out of print order)."""
    if surnames_only:
        found = [_letters(n)[-1] if _letters(n) else n for n in found]
        truth = [_letters(n)[-1] if _letters(n) else n for n in truth]
    plain_t = {_plain(_letters(t)[-1]) for t in truth if _letters(t)}
    in_place = sum(name_right(f, t, loose) for f, t in zip(found, truth, strict=False))
    matched = [any(name_right(f, t, loose) for t in truth) for f in found]
    non = [f for f in found if not _letters(f) or _plain(_letters(f)[-1]) not in plain_t]
    misspelled = [f for f, ok in zip(found, matched, strict=True) if not ok and f not in non]
    exact = len(found) == len(truth) and in_place == len(truth)
    return {"exact": exact, "in_place": in_place, "found": len(found), "truth": len(truth),
            "right_anywhere": sum(matched), "non_authors": non, "misspelled": misspelled,
            "order": not exact and len(found) == len(truth) and all(matched)}


def title_norm(text: str | None) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", text or "").casefold() if c.isalnum())


def title_exact(found: str | None, truth: str) -> bool:
    """The title read as printed: the same letters and digits (spaces, punctuation, case and accents aside)."""
    return bool(title_norm(found)) and title_norm(found) == title_norm(truth)


def _wide(data: Path, half: str) -> list[dict]:
    wide = data / "pdfs-wide"
    records = {r["file"]: r for r in json.loads((wide / "manifest.json").read_text())}
    split = json.loads((BENCH / "wide_split.json").read_text())
    hand = {k: v for k, v in json.loads((BENCH / "wide_authors.json").read_text()).items() if not k.startswith("_")}
    titles_path = BENCH / "wide_titles.json"
    titles = json.loads(titles_path.read_text()) if titles_path.exists() else {}
    out = []
    for name in sorted(records):
        if split[name]["half"] != half or records[name].get("text_layer") == "none":
            continue
        twin = wide / "xml" / (Path(name).stem + ".xml")
        authors, surnames_only = hand.get(name), False
        if twin.exists():
            sys.path.insert(1, str(ROOT / "bench"))
            from wide_text import twin_truth

            authors, surnames_only = twin_truth(twin)["authors"] or authors, True
        title = titles.get(name, records[name].get("title"))
        out.append({"id": name, "path": wide / name, "authors": authors, "title": title,
                    "surnames_only": surnames_only, "publisher": records[name].get("publisher") or "?"})
    return out


def _zotero(data: Path, half: str) -> list[dict]:
    sys.path.insert(1, str(ROOT / "bench"))
    from pdf_authors_zotero import half_of

    from papershelf.ingest.zotero import read_zotero

    return [{"id": a.key, "path": Path(a.path), "authors": a.meta.authors, "title": a.meta.title, "loose": True,
             "publisher": a.meta.venue or "?"}
            for a in read_zotero(str(data / "zotero"))
            if a.exists and a.path.lower().endswith(".pdf") and half_of(a.key) == half]


def _shared(data: Path, half: str) -> list[dict]:
    truth = json.loads((BENCH / "pdf_authors.json").read_text())
    titles_path = BENCH / "pdf_titles.json"
    titles = json.loads(titles_path.read_text()) if titles_path.exists() else {}
    files = json.loads((BENCH / "pdf_split.json").read_text())[half]
    return [{"id": f, "path": data / "pdfs" / f, "authors": truth[f], "title": titles.get(f),
             "publisher": f.split("-")[0].split("_")[0]} for f in files]


def _printed(data: Path, half: str) -> list[dict]:
    """bench/data/front_printed.json: title, authors and the page's own years read by hand from page 1 of
    dev PDFs (Zotero's by attachment key, the wide corpus's and the shared pdfs/' by file name); dev half only."""
    if half != "dev":
        return []
    truth = {k: v for k, v in json.loads((BENCH / "front_printed.json").read_text()).items() if not k.startswith("_")}
    out = []
    for key, t in sorted(truth.items()):
        source, name = key.split(":", 1)
        path = (next((data / "zotero" / "storage" / name).glob("*.pdf"), None) if source == "zotero"
                else data / "pdfs" / name if source == "shared" else data / "pdfs-wide" / name)
        if path is not None:
            out.append({"id": key, "path": path, "authors": t["authors"], "title": t["title"], "years": t["years"],
                        "publisher": source})
    return out


SOURCES = {"wide": _wide, "zotero": _zotero, "shared": _shared, "printed": _printed}


def grade_year(found: int | None, years: list[int]) -> str:
    """A year read against the years page 1 prints as the paper's own: `right` (the publication's),
    `other own` (another year the page gives as its own: an online date beside the issue's), `wrong`,
    `none` (none read), `unprinted` (a year read where the page prints none of its own)."""
    if found is None:
        return "none"
    if not years:
        return "unprinted"
    return "right" if found == years[0] else "other own" if found in years else "wrong"


def run(source: str, data: Path, half: str, show: bool) -> dict:
    from papershelf.errors import IngestError
    from papershelf.ingest import load_source, parse_source

    out: dict = {"papers": 0, "authors": 0, "exact": 0, "names": 0, "names_in_place": 0, "found": 0, "right_anywhere": 0,
           "non_authors": 0, "misspelled": 0, "order": 0, "titles": 0, "titles_exact": 0, "failed": 0, "rows": [], "years": {}}
    for item in SOURCES[source](data, half):
        out["papers"] += 1
        try:
            doc = parse_source(load_source(str(item["path"])))
        except IngestError:
            out["failed"] += 1
            continue
        row = {"id": item["id"], "publisher": item["publisher"], "title": doc.title, "authors": doc.authors}
        if item.get("authors"):
            g = grade_authors(doc.authors, item["authors"], item.get("loose", False), item.get("surnames_only", False))
            out["authors"] += 1
            out["exact"] += g["exact"]
            out["names"] += g["truth"]
            out["names_in_place"] += g["in_place"]
            out["found"] += g["found"]
            out["right_anywhere"] += g["right_anywhere"]
            out["non_authors"] += len(g["non_authors"])
            out["misspelled"] += len(g["misspelled"])
            out["order"] += g["order"]
            row["authors_exact"] = g["exact"]
            if show and not g["exact"]:
                print(f"A {item['id'][:60]}: {doc.authors} | truth {item['authors']} | non {g['non_authors']} "
                      f"misspelled {g['misspelled']}")
        if item.get("title"):
            ok = title_exact(doc.title, item["title"])
            out["titles"] += 1
            out["titles_exact"] += ok
            row["title_exact"] = ok
            if show and not ok:
                print(f"T {item['id'][:60]}: {doc.title!r} | truth {item['title']!r}")
        if "years" in item:
            row["year"] = grade_year(doc.year, item["years"])
            out["years"][row["year"]] = out["years"].get(row["year"], 0) + 1
            if show and row["year"] != "right":
                print(f"Y {item['id'][:60]}: {doc.year} ({row['year']}) | printed {item['years']}")
        out["rows"].append(row)
    return out


def summary(s: dict) -> str:
    names, found = max(1, s["names"]), max(1, s["found"])
    return (f"authors exact {s['exact']}/{s['authors']}; names in place {s['names_in_place']}/{s['names']} "
            f"= {s['names_in_place'] / names:.3f}; precision {s['right_anywhere']}/{s['found']} "
            f"= {s['right_anywhere'] / found:.3f}; non-authors {s['non_authors']}, misspelled {s['misspelled']}, "
            f"out of order {s['order']}; titles exact {s['titles_exact']}/{s['titles']}; failed {s['failed']}"
            + (f"; years {', '.join(f'{k} {v}' for k, v in sorted(s['years'].items()))}" if s["years"] else ""))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--source", choices=(*SOURCES, "all"), default="all")
    ap.add_argument("--half", choices=("dev", "test"), default="dev")
    ap.add_argument("--data", default=str(DATA))
    ap.add_argument("--root", default=str(ROOT), help="the source tree whose reader to run (a before-tree)")
    ap.add_argument("--show", action="store_true", help="one line per paper read wrong")
    ap.add_argument("--json", help="write the per-paper rows and totals to this file")
    args = ap.parse_args()
    sys.path.insert(0, args.root)
    totals = {}
    for source in SOURCES if args.source == "all" else [args.source]:
        totals[source] = run(source, Path(args.data), args.half, args.show)
        print(f"{source} ({args.half}): {summary(totals[source])}", flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(totals, ensure_ascii=False, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
