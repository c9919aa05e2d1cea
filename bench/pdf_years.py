"""Paper years read from PDFs, right / wrong / none, on three truths at once: the wide corpus's dev half
(manifest.json years), the shared Zotero library (each PDF's parent item's date in zotero.sqlite) and the
shared PDFs (the year in their manifest's venue, "ACL 2007"; none where the venue prints none).  A wrong
year is worse than none: `year.checked_year` drops a printed year that breaks a bound.

For each PDF the row keeps what the year module decides from (the printed year and its rule, the file's
creation date, the reference years), so a rule can be tried on the cache without reading the PDFs again.

    python bench/pdf_years.py --half dev --cache /tmp/years.json [--show]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sqlite3
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from papershelf.errors import IngestError  # noqa: E402
from papershelf.ingest import load_source, parse_source  # noqa: E402
from papershelf.ingest.pdf.front.meta import read_pdf_meta  # noqa: E402

DATA = ROOT.parent / "shared" / "data"
SPLIT = ROOT / "bench" / "data" / "wide_split.json"


def _half_of(key: str) -> str:
    return "test" if int(hashlib.sha1(key.encode()).hexdigest()[:8], 16) % 2 else "dev"  # pdf_authors_zotero's


def zotero_years(data: Path) -> dict[Path, int]:
    """Each stored PDF of the Zotero library and its parent item's year."""
    db = sqlite3.connect(f"file:{data / 'zotero' / 'zotero.sqlite'}?mode=ro", uri=True)
    rows = db.execute("select ia.path, i.key, v.value from itemAttachments ia join items i on i.itemID = ia.itemID "
                      "join itemData d on d.itemID = ia.parentItemID join fields f on f.fieldID = d.fieldID "
                      "join itemDataValues v on v.valueID = d.valueID where f.fieldName = 'date'").fetchall()
    out = {}
    for path, key, date in rows:
        file = data / "zotero" / "storage" / key / str(path).removeprefix("storage:")
        if file.suffix.lower() == ".pdf" and file.exists() and (m := re.match(r"(\d{4})", date)):
            out[file] = int(m.group(1))
    return out


def truths(data: Path, half: str = "all") -> dict[Path, tuple[str, int]]:
    """PDF -> (set, year); `half` "dev": the Zotero PDFs of the dev half (`pdf_authors_zotero.half_of` of the
    attachment key, the storage folder's name) and the shared PDFs of bench/data/pdf_split.json's dev list."""
    out: dict[Path, tuple[str, int]] = {}
    wide = data / "pdfs-wide"
    split = json.loads(SPLIT.read_text())
    years = json.loads((SPLIT.parent / "wide_years.json").read_text())  # read from page 1 where the manifest errs
    for rec in json.loads((wide / "manifest.json").read_text()):
        if split[rec["file"]]["half"] == "dev" and rec.get("year") and rec.get("text_layer") != "none":
            out[wide / rec["file"]] = ("wide-dev", years.get(rec["file"], rec["year"]))
    out.update({f: ("zotero", y) for f, y in zotero_years(data).items() if half == "all" or _half_of(f.parent.name) == half})
    printed = json.loads((SPLIT.parent / "pdf_years.json").read_text())  # dev PDFs whose venue gives no year
    shared_dev = set(json.loads((SPLIT.parent / "pdf_split.json").read_text())["dev"])
    for rec in json.loads((data / "pdfs" / "manifest.json").read_text()):
        name = Path(rec["file"]).name
        if half != "all" and name not in shared_dev:
            continue
        if m := re.search(r"\b((?:19|20)\d\d)\b", rec.get("venue") or ""):
            out[data / "pdfs" / name] = ("shared", int(m.group(1)))
        elif name in printed:
            out[data / "pdfs" / name] = ("shared", printed[name])
    return out


def read_row(path: Path) -> dict:
    data = path.read_bytes()
    meta = read_pdf_meta(data, str(path))
    try:
        doc = parse_source(load_source(str(path)))
    except IngestError as e:
        return {"error": str(e)}
    refs = doc.references
    return {"printed": meta.year, "rule": meta.evidence.get("year"), "created": meta.created,
            "ref_years": [r.year for r in refs if r.year], "year": doc.year}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default=str(DATA))
    ap.add_argument("--cache")
    ap.add_argument("--half", choices=("dev", "all"), default="all", help="dev: Zotero and shared PDFs of the dev half only")
    ap.add_argument("--show", action="store_true", help="one line per PDF whose year is not right")
    args = ap.parse_args()
    truth = truths(Path(args.data), args.half)
    if args.cache and Path(args.cache).exists():
        rows = json.loads(Path(args.cache).read_text())
    else:
        rows = {str(p): read_row(p) for p in sorted(truth)}
        if args.cache:
            Path(args.cache).write_text(json.dumps(rows))
    tally: dict[str, list[int]] = {}
    for path, (group, year) in sorted(truth.items(), key=lambda t: str(t[0])):
        row = rows.get(str(path), {"error": "not read"})
        found = row.get("year")
        t = tally.setdefault(group, [0, 0, 0, 0])
        t[0] += 1
        t[1] += found == year
        t[2] += found not in (None, year)
        t[3] += found is None
        if args.show and found != year:
            print(f"{group} {path.name}: {found} | truth {year}  printed {row.get('printed')} ({row.get('rule')}) "
                  f"created {row.get('created')} latest refs {sorted(row.get('ref_years', []))[-3:]}")
    for group, (n, right, wrong, none) in sorted(tally.items()):
        print(f"{group:9s} {n:3d} PDFs  right {right:3d}  wrong {wrong}  none {none}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
