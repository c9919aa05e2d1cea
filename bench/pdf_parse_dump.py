"""The PDF reader's full output per PDF, to show that a speed change left it byte-identical.

Per PDF: every page's lines as the layout sees them (after ``settle_glyphs``: text, boxes, fonts,
sizes, every field), the whole ``Document`` (``dataclasses.asdict``: blocks with headings, objects and
regions, references, title, authors, year and the other metadata) and every unit's fields.  Run it
with ``PYTHONPATH=<tree>`` for each tree (the package comes from the path, this script from here),
then ``--diff`` the two files.

    PYTHONPATH=/tmp/before-base python bench/pdf_parse_dump.py --data ../shared/data --out /tmp/before.json
    PYTHONPATH=$PWD python bench/pdf_parse_dump.py --data ../shared/data --out /tmp/after.json
    python bench/pdf_parse_dump.py --diff /tmp/before.json /tmp/after.json

Default set: the 27 shared PDFs and every dev PDF of pdfs-wide (bench/data/wide_split.json); ``--wide
STRIDE`` takes every STRIDE-th dev PDF instead of all.  ``--every`` takes every PDF there is: the shared ones,
both halves of pdfs-wide and the Zotero library's; an identity check reads no content, and ``--diff`` shows the
first difference only for a dev PDF (of a test-half or Zotero PDF only its name).  Output: one JSON line per PDF.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import pdf_parse_speed as speed


def _plain(x):
    if dataclasses.is_dataclass(x) and not isinstance(x, type):
        return dataclasses.asdict(x)
    return vars(x)


def _every(data: Path) -> list[Path]:
    """Every PDF of the shared data: pdfs/, all of pdfs-wide, the Zotero storage."""
    wide = sorted((data / "pdfs-wide").glob("*.pdf"))
    return [p for p, _ in speed._pdfs(data, 0)] + wide + sorted((data / "zotero" / "storage").glob("*/*.pdf"))


def _dev(data: Path) -> set[str]:
    """Names whose content may be shown: the dev halves of pdfs/ and pdfs-wide."""
    split = json.loads((speed.ROOT / "bench" / "data" / "wide_split.json").read_text())
    shared = json.loads((speed.ROOT / "bench" / "data" / "pdf_split.json").read_text())
    return {n for n, v in split.items() if v["half"] == "dev"} | set(shared["dev"])


def dump(paths: list[Path], out_path: Path) -> str:
    """Full parse output per PDF, one JSON line each; the sha256 of the file."""
    from papershelf.errors import IngestError
    from papershelf.ingest.pdf import reader

    seen: list = []
    settle = reader.settle_glyphs

    def keep(pages):
        settle(pages)
        seen.append([[dataclasses.asdict(ln) for ln in page] + [w, h] for page, w, h in pages])

    reader.settle_glyphs = keep
    sha = hashlib.sha256()
    with out_path.open("w") as f:
        for p in paths:
            seen.clear()
            try:
                doc, units = speed._parse(p, p.read_bytes())
                one = {"lines": list(seen), "doc": dataclasses.asdict(doc), "units": [_plain(u) for u in units]}
            except IngestError as e:  # a damaged file: its refusal is its output
                one = {"lines": list(seen), "error": repr(e)}
            name = f"{p.parent.name}/{p.name}" if p.parent.parent.name == "storage" else p.name
            line = json.dumps([name, one], sort_keys=True, ensure_ascii=False, default=repr) + "\n"
            sha.update(line.encode())
            f.write(line)
    reader.settle_glyphs = settle
    return sha.hexdigest()[:16]


def _lines(path: str) -> dict[str, str]:
    """PDF name -> its output line (kept as text: compared as text, parsed only to show a difference)."""
    with open(path) as f:
        return {json.JSONDecoder().raw_decode(line, 1)[0]: line for line in f}


def diff(a_path: str, b_path: str, dev: set[str]) -> int:
    """Number of PDFs whose full output differs (the first difference shown for dev PDFs only)."""
    a, b = _lines(a_path), _lines(b_path)
    differ = 0
    for name in sorted(set(a) | set(b)):
        if a.get(name) != b.get(name):
            differ += 1
            if name not in dev:
                print(f"DIFFERS {name} (not a dev PDF: content not shown)")
                continue
            x, y = (json.loads(t[name])[1] if name in t else None for t in (a, b))
            print(f"DIFFERS {name}: {speed._first_difference(x, y)}")
    print(f"{len(set(a) | set(b)) - differ} of {len(set(a) | set(b))} PDFs identical")
    return differ


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default=str(speed.DEFAULT_DATA))
    ap.add_argument("--wide", type=int, default=1, metavar="STRIDE")
    ap.add_argument("--every", action="store_true", help="every PDF: shared, all of pdfs-wide, Zotero")
    ap.add_argument("--out")
    ap.add_argument("--diff", nargs=2, metavar=("A", "B"))
    args = ap.parse_args()
    data = Path(args.data)
    if args.diff:
        sys.exit(1 if diff(args.diff[0], args.diff[1], _dev(data)) else 0)
    paths = _every(data) if args.every else [p for p, _ in speed._pdfs(data, 0) + speed._pdfs(data, args.wide)]
    sha = dump(paths, Path(args.out))
    import papershelf

    print(papershelf.__file__, len(paths), "PDFs", sha)


if __name__ == "__main__":
    main()
