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
STRIDE`` takes every STRIDE-th dev PDF instead of all.
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


def dump(data: Path, wide: int) -> dict:
    """Full parse output per PDF name."""
    from papershelf.ingest.pdf import reader

    seen: list = []
    settle = reader.settle_glyphs

    def keep(pages):
        settle(pages)
        seen.append([[dataclasses.asdict(ln) for ln in page] + [w, h] for page, w, h in pages])

    reader.settle_glyphs = keep
    out = {}
    for p, _ in speed._pdfs(data, 0) + speed._pdfs(data, wide):
        seen.clear()
        doc, units = speed._parse(p, p.read_bytes())
        out[p.name] = {"lines": list(seen), "doc": dataclasses.asdict(doc), "units": [_plain(u) for u in units]}
    reader.settle_glyphs = settle
    return out


def diff(a_path: str, b_path: str) -> int:
    """Number of PDFs whose full output differs (the first difference of each is shown)."""
    a, b = json.loads(Path(a_path).read_text()), json.loads(Path(b_path).read_text())
    differ = 0
    for name in sorted(set(a) | set(b)):
        if json.dumps(a.get(name), sort_keys=True) != json.dumps(b.get(name), sort_keys=True):
            differ += 1
            print(f"DIFFERS {name}: {speed._first_difference(a.get(name), b.get(name))}")
    print(f"{len(set(a) | set(b)) - differ} of {len(set(a) | set(b))} PDFs identical")
    return differ


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default=str(speed.DEFAULT_DATA))
    ap.add_argument("--wide", type=int, default=1, metavar="STRIDE")
    ap.add_argument("--out")
    ap.add_argument("--diff", nargs=2, metavar=("A", "B"))
    args = ap.parse_args()
    if args.diff:
        sys.exit(1 if diff(*args.diff) else 0)
    text = json.dumps(dump(Path(args.data), args.wide), sort_keys=True, ensure_ascii=False, default=repr)
    Path(args.out).write_text(text)
    import papershelf

    print(papershelf.__file__, hashlib.sha256(text.encode()).hexdigest()[:16])


if __name__ == "__main__":
    main()
