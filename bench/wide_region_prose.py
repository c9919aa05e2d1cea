"""Figure and table regions that hold running text, on the wide corpus: a check that needs no truth.

A region must never hold the paragraph beside or under its object.  Every PDF of a half of
bench/data/wide_split.json goes through the reader (`read_pdf`); for each region chosen
(`sides.choose_sides`) the page's lines whose middle lies inside it are looked at, and those that read
as running text are counted: eight words or more, three quarters of them words of prose, in the
body size, alone on their baseline.  A region holding two or more such lines is listed (file, page,
label, count, the first lines), so a change can be judged by rendering the pages it lists.  It is a
symptom count, not a rate against truth: a figure may print sentences of its own (a flow chart).

    python bench/wide_region_prose.py [--half dev|test] [--data ../shared/data] [--workers 2]
"""

from __future__ import annotations

import argparse
import json
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent


def _prose_inside(name: str, wide: str) -> tuple[str, list[str]]:
    import papershelf.ingest.pdf.objects.regions as regions
    import papershelf.ingest.pdf.reader as reader

    pages: dict[int, tuple] = {}
    chosen: list = []
    find, choose = reader.find_candidates, reader.choose_sides

    def seen(lines, graphics, width, height, body, turn=0):
        if lines:
            two = regions._two_columns(lines, width)
            pages[lines[0].page] = (lines, regions._beside(lines, width, two), body)
        return find(lines, graphics, width, height, body, turn)

    def kept(cands):
        out = choose(cands)
        chosen.extend(out)
        return out

    reader.find_candidates, reader.choose_sides = seen, kept
    try:
        reader.read_pdf((Path(wide) / name).read_bytes())
    except Exception as e:  # noqa: BLE001 - a file the reader refuses is reported, not fatal
        return name, [f"failed: {e}"]
    finally:
        reader.find_candidates, reader.choose_sides = find, choose
    return name, [row for r in chosen if r.page in pages and (row := _listed(r, *pages[r.page]))]


def _listed(region, lines, beside: set[int], body) -> str | None:
    from papershelf.ingest.pdf.objects.region_rows import _WORD

    x0, y0, x1, y1 = region.box
    found = []
    for ln in lines:
        middle = ((ln.x0 + ln.x1) / 2, (ln.top + ln.bottom) / 2)
        if ln in region.caption_lines or not (x0 <= middle[0] <= x1 and y0 <= middle[1] <= y1):
            continue
        words = ln.text.split()
        wordy = sum(1 for w in words if _WORD.match(w))
        if len(words) >= 8 and wordy >= 0.75 * len(words) and abs(ln.size - body.size) <= 0.6 \
                and id(ln) not in beside:
            found.append(ln.text[:50])
    if len(found) < 2:
        return None
    return f"p{region.page} {region.label} ({region.kind}): {len(found)} lines | " + " // ".join(found[:2])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--half", choices=["dev", "test", "all"], default="dev")
    ap.add_argument("--data", default=str(ROOT.parent.parent / "shared" / "data"))
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    wide = Path(args.data) / "pdfs-wide"
    if not wide.is_dir():
        print(f"skipped: {wide} is missing")
        return
    split = json.loads((ROOT / "data" / "wide_split.json").read_text())
    names = sorted(k for k, v in split.items() if args.half in ("all", v["half"]) and (wide / k).exists())
    listed = 0
    with ProcessPoolExecutor(args.workers) as pool:
        for name, rows in pool.map(_prose_inside, names, [str(wide)] * len(names)):
            for row in rows:
                print(name, row)
                listed += 1
    print(f"{args.half}: {len(names)} files, {listed} regions holding running text")


if __name__ == "__main__":
    main()
