"""Figure and table regions and table cells on the wide corpus's TAGGED PDFs, truth from their structure tree.

A tagged PDF (PDF/UA, or a publisher's accessible export) marks its figures and tables in a structure
tree (``Figure``, ``Table`` with ``TR`` / ``TD`` rows and cells) whose marked-content ids point at the
page objects drawn for them.  That is truth written by the publisher's typesetter, not by anyone here,
and it scales with the corpus: `--build` walks every PDF of ../shared/data/pdfs-wide with pypdfium2,
keeps each ``Figure`` / ``Table`` element that a caption on its page names (an element whose own
text is a caption, "Table 2." / "Fig. 3"; the nearest of its kind, or, where captions on the element's
two sides are about as near, the one on the side the paper's other captions of that kind use, the
pairing left out when that does not settle it: `_pick`, `habit_of`), and writes
bench/data/wide_tagged.json: per object its label, page, box (PDF points, the union of its objects
without the caption's), a few printed cells (tables), a point inside (figures) and a phrase of the
nearest paragraph outside it.  Layout tables (a front page's "Received / Accepted" grid) have no
caption and are left out.  The halves are bench/data/wide_split.json's (by publisher family).

Scores (as bench/pdf_objects.py's `check_region`, plus cells): captions found (a unit with the
label), regions right (right page, every cell / the inside point inside, the outside phrase not
meeting it), table cells in the table unit's text, and whole (one cell of it, as bench/cells_hand.py grades).

    python bench/wide_tagged.py --build [--data ../shared/data]
    python bench/wide_tagged.py [--half dev|test|all] [--data ../shared/data] [--json] [-v]
"""

from __future__ import annotations

import ctypes
import json
import re
from pathlib import Path
from typing import Any

from pdf_headings_score import plain
from pdf_objects import _find, _meets, check_region
from queryset import log, print_result
from wide_truth import corpus_missing, wide_dir, wide_parser

from papershelf.captions import CAPTION_RE, parse_caption

ROOT = Path(__file__).resolve().parent
TRUTH = ROOT / "data" / "wide_tagged.json"
ZOTERO_TRUTH = ROOT / "data" / "wide_tagged_zotero.json"  # the Zotero library's tagged PDFs, dev half only
SPLIT = ROOT / "data" / "wide_split.json"
_CELLS = 8  # printed cells kept per table


def _utf16(fn, el) -> str:
    n = fn(el, None, 0)
    if n <= 2:
        return ""
    buf = ctypes.create_string_buffer(n)
    fn(el, buf, n)
    return buf.raw[:n - 2].decode("utf-16-le", "replace")


def _elements(raw, el, parent: int, out: list[dict]) -> None:
    """The element and its descendants, each as {type, own mcids, parent index} (depth first)."""
    import pypdfium2.raw as r

    own = [m for i in range(r.FPDF_StructElement_GetMarkedContentIdCount(el))
           if (m := r.FPDF_StructElement_GetMarkedContentIdAtIndex(el, i)) >= 0]
    out.append({"type": _utf16(r.FPDF_StructElement_GetType, el), "mcids": own, "parent": parent})
    me = len(out) - 1
    for i in range(r.FPDF_StructElement_CountChildren(el)):
        child = r.FPDF_StructElement_GetChildAtIndex(el, i)
        if child:
            _elements(raw, child, me, out)


def _objects(page, textpage) -> dict[int, list[tuple[tuple, str, float]]]:
    """Each marked-content id of the page: its objects' boxes (PDF points), text and font size."""
    import pypdfium2.raw as r

    out: dict[int, list[tuple[tuple, str, float]]] = {}
    for i in range(r.FPDFPage_CountObjects(page.raw)):
        obj = r.FPDFPage_GetObject(page.raw, i)
        mcid = r.FPDFPageObj_GetMarkedContentID(obj)
        if mcid < 0:
            continue
        lo = [ctypes.c_float() for _ in range(4)]
        r.FPDFPageObj_GetBounds(obj, *lo)
        text, size = "", 0.0
        if r.FPDFPageObj_GetType(obj) == r.FPDF_PAGEOBJ_TEXT:
            fs, m = ctypes.c_float(), r.FS_MATRIX()
            r.FPDFTextObj_GetFontSize(obj, fs)
            r.FPDFPageObj_GetMatrix(obj, m)
            size = fs.value * max(abs(m.d), abs(m.b))  # the size as set on the page (upright or turned)
            n = r.FPDFTextObj_GetText(obj, textpage.raw, None, 0)
            buf = ctypes.create_string_buffer(n)  # n: bytes, the closing NUL included
            r.FPDFTextObj_GetText(obj, textpage.raw, ctypes.cast(buf, ctypes.POINTER(ctypes.c_ushort)), n)
            text = buf.raw[:max(n - 2, 0)].decode("utf-16-le", "replace")
        out.setdefault(mcid, []).append((tuple(v.value for v in lo), text, size))
    return out


def _box(boxes: list[tuple]) -> tuple | None:
    if not boxes:
        return None
    return min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes)


def _subtree(els: list[dict], root: int) -> list[int]:
    out, seen = [root], {root}
    for i in range(root + 1, len(els)):
        if els[i]["parent"] in seen:
            seen.add(i)
            out.append(i)
    return out


def _distance(a: tuple, b: tuple) -> float:
    dx = max(0.0, a[0] - b[2], b[0] - a[2])
    dy = max(0.0, a[1] - b[3], b[1] - a[3])
    return dx + dy


def _texts(els: list[dict], objs: dict):
    """The element's own objects and its text (own, or its whole subtree's) as two functions."""
    def own(i: int) -> list[tuple[tuple, str, float]]:
        return [o for m in els[i]["mcids"] for o in objs.get(m, [])]

    def text(i: int, whole: bool = False) -> str:
        parts = _subtree(els, i) if whole else [i]
        return re.sub(r"\s+", " ", "".join(t for j in parts for _, t, _ in own(j))).strip()
    return own, text


def _candidates(els: list[dict], objs: dict) -> tuple[list[dict], list[tuple[int, str, tuple, list[int]]]]:
    """The page's captions (an element whose own text is one) and its outermost Figure / Table elements
    as (index, kind, box without the captions, subtree without the captions)."""
    own, text = _texts(els, objs)
    captions: list[dict[str, Any]] = []
    for i in range(len(els)):
        t = text(i)
        cap = parse_caption(t) if CAPTION_RE.match(t) else None
        if cap is not None and (box := _box([o[0] for o in own(i)])) is not None:
            captions.append({"index": i, "label": cap.label, "kind": cap.object_kind, "box": box})
    cap_ids = {c["index"] for c in captions}
    out = []
    for i, e in enumerate(els):
        kind = {"Figure": "figure", "Table": "table"}.get(e["type"])
        if kind is None or any(els[j]["type"] in ("Figure", "Table") for j in _ancestors(els, i)):
            continue
        sub = [j for j in _subtree(els, i) if j not in cap_ids]
        box = _box([o[0] for j in sub for o in own(j)])
        if box is not None:
            out.append((i, kind, box, sub))
    return captions, out


_SIMILAR = 6.0  # pt: captions within this of an element's nearest caption are about as near it


def _side(cap: tuple, box: tuple) -> str:
    """Where a caption lies from an element, by their centres: "above" or "below"."""
    return "above" if cap[1] + cap[3] > box[1] + box[3] else "below"


def _centred(cap: tuple, box: tuple) -> bool:
    """The caption's middle lies within the element's width (a caption set over or under its own)."""
    return box[0] <= (cap[0] + cap[2]) / 2 <= box[2]


def _pick(box: tuple, near: list[dict], habit: str | None) -> tuple[dict | None, list[dict]]:
    """The caption an element goes with, and the captions about as near it (within `_SIMILAR` of the
    nearest).  The nearest one when it is alone; else the one of those on the side the paper's captions
    of this kind use (`habit`: a grid of pictures, each captioned under its own), and of those the one
    centred on the element; else none (unsure)."""
    ranked = sorted(near, key=lambda c: _distance(c["box"], box))
    gap = _distance(ranked[0]["box"], box)
    might = [c for c in ranked if _distance(c["box"], box) <= gap + _SIMILAR]
    if len(might) == 1:
        return might[0], might
    sided = [c for c in might if habit is None or _side(c["box"], box) == habit]
    if len(sided) > 1:
        sided = [c for c in sided if _centred(c["box"], box)]
    if len(sided) > 1 or habit is None and any(_side(c["box"], box) != _side(sided[0]["box"], box) for c in might):
        return None, might
    return (sided[0] if sided else None), might


def _votes(els: list[dict], objs: dict) -> list[tuple[str, str]]:
    """(kind, side) of each caption of the page plainly set by its element: the nearest element of its
    kind (not a label-sized one) lies within 24 pt and nearer by over `_SIMILAR` than any on its other side."""
    captions, elements = _candidates(els, objs)
    out = []
    for c in captions:
        boxes = sorted((_distance(c["box"], box), box) for _, kind, box, _ in elements
                       if kind == c["kind"] and min(box[2] - box[0], box[3] - box[1]) >= 36)
        if not boxes or boxes[0][0] > 4 * _SIMILAR:
            continue
        side = _side(c["box"], boxes[0][1])
        if all(d > boxes[0][0] + _SIMILAR for d, box in boxes if _side(c["box"], box) != side):
            out.append((c["kind"], side))
    return out


def habit_of(votes: list[tuple[str, str]]) -> dict[str, str]:
    """The side each kind's captions lie on in this paper: three in four plain pairings (two at least)."""
    out = {}
    for kind in ("figure", "table"):
        sides = [s for k, s in votes if k == kind]
        for side in ("above", "below"):
            if len(sides) >= 2 and sides.count(side) * 4 >= len(sides) * 3:
                out[kind] = side
    return out


def _page_truth(els: list[dict], objs: dict, textpage, page_no: int, size: tuple, strict: bool = False,
                habit: dict[str, str] | None = None) -> list[dict]:
    """The captioned figures and tables of one page.  Each element goes with its caption (`_pick`: an
    element between two about equally near captions goes with the one on the side of the paper's
    `habit`; without one, neither caption is kept).  `strict` (the Zotero truth's build): an element
    is left out when a caption-like text (one `parse_caption` cannot read, "Figures 1.10-1.15") lies
    nearer it than the caption that names it, and a caption is given only its nearest element and the
    elements touching it (an uncaptioned layout table beside a captioned one is not unioned into it)."""
    own, text = _texts(els, objs)
    captions, elements = _candidates(els, objs)
    cap_ids = {c["index"] for c in captions}
    loose = [b for i in range(len(els)) if i not in cap_ids and _LOOSE.match(text(i))
             and (b := _box([o[0] for o in own(i)])) is not None] if strict else []
    named: list[tuple[int, dict, tuple, list[int]]] = []  # (element, its caption, box, subtree without captions)
    unsure: set[str] = set()  # captions an element might go with but cannot surely be given
    for i, kind, box, sub in elements:
        near = [c for c in captions if c["kind"] == kind]
        if not near:
            continue
        caption, might = _pick(box, near, (habit or {}).get(kind))
        if caption is None:
            unsure |= {c["label"] for c in might}
            continue
        if strict and any(_distance(b, box) < _distance(caption["box"], box) for b in loose):
            continue  # a caption this reader's parser cannot read is nearer: not the named one's
        named.append((i, caption, box, sub))
    named = [n for n in named if n[1]["label"] not in unsure]
    if strict:
        named = [n for n in _nearest_and_touching(named, habit or {})
                 if els[n[0]]["type"] == "Table" or min(n[2][2] - n[2][0], n[2][3] - n[2][1]) >= 36]  # not a label
    found: dict[str, dict[str, Any]] = {}
    for i, caption, box, sub in named:
        kind = {"Figure": "figure", "Table": "table"}[els[i]["type"]]
        item = found.setdefault(caption["label"], {"label": caption["label"], "kind": kind, "page": page_no, "box": box,
                                             "cells": []})
        item["box"] = _box([item["box"], box])
        if kind == "table":
            item["cells"] += [t for j in sub if els[j]["type"] in ("TD", "TH") and 3 <= len(t := text(j, True)) <= 40]
    measured = [(t, b, _size(own(i))) for i, e in enumerate(els) if e["type"] == "P" and i not in cap_ids
                  and len(t := text(i)) >= 60 and (b := _box([o[0] for o in own(i)])) is not None]
    sizes = sorted(p[2] for p in measured)
    body = sizes[len(sizes) // 2] if sizes else 0.0
    paragraphs = [(t, b) for t, b, size in measured if abs(size - body) <= 0.6]  # running text, not a note
    out = []
    for item in found.values():
        if any(c["label"] != item["label"] and _meets(c["box"], item["box"]) for c in captions):
            continue  # the element holds another object's caption: tagged as one, it is not this object alone
        item["box"] = (max(item["box"][0], 0), max(item["box"][1], 0), min(item["box"][2], size[0]),
                       min(item["box"][3], size[1]))  # objects drawn past the page are clipped
        cells = list(dict.fromkeys(item["cells"]))
        item["cells"] = cells[:: max(1, len(cells) // _CELLS)][:_CELLS]
        box = item["box"]
        if item["kind"] == "figure" or not item["cells"]:
            item["inside_xy"] = [round((box[0] + box[2]) / 2, 1), round((box[1] + box[3]) / 2, 1)]
        outside = _outside(textpage, box, paragraphs)
        if outside:
            item["outside"] = outside
        item["box"] = [round(v, 1) for v in box]
        out.append(item)
    return out


_LOOSE = re.compile(r"^\s*(fig(ure)?s?\.?|tables?)\s+\S", re.I)


def _nearest_and_touching(named: list, habit: dict[str, str]) -> list:
    """Strict alignment: per caption, its nearest element and those touching it (within 2 pt).  When
    an element not touching it is about as near (within `_SIMILAR`), its own is the one on the side of
    the paper's `habit`, and of those the one it is centred on; the caption is left out if that is not
    one alone."""
    out = []
    for label in dict.fromkeys(n[1]["label"] for n in named):
        mine = sorted((n for n in named if n[1]["label"] == label), key=lambda n: _distance(n[1]["box"], n[2]))
        first = mine[0]
        rivals = [n for n in mine if _distance(n[2], first[2]) > 2
                  and _distance(n[1]["box"], n[2]) <= _distance(first[1]["box"], first[2]) + _SIMILAR]
        if rivals:
            kind = first[1]["kind"]
            sided = [n for n in [first, *rivals] if _side(n[1]["box"], n[2]) == habit.get(kind, _side(n[1]["box"], n[2]))]
            if len(sided) > 1:
                sided = [n for n in sided if _centred(n[1]["box"], n[2])]
            if len(sided) != 1:
                continue
            first = sided[0]
        out += [n for n in mine if n is first or _distance(n[2], first[2]) <= 2]
    return out


def _size(objs: list[tuple[tuple, str, float]]) -> float:
    """The size most of the element's characters are set in."""
    sizes = sorted((size, len(t)) for _, t, size in objs if t.strip())
    half, seen = sum(n for _, n in sizes) / 2, 0
    for size, n in sizes:
        seen += n
        if seen >= half:
            return round(size, 1)
    return 0.0


def _ancestors(els: list[dict], i: int) -> list[int]:
    out = []
    while (i := els[i]["parent"]) >= 0:
        out.append(i)
    return out


def _outside(textpage, box: tuple, paragraphs: list[tuple[str, tuple]]) -> str | None:
    """Five words opening the paragraph nearest the object that lies wholly outside it (every copy
    pdfium finds on the page outside the object's box)."""
    for t, b in sorted(paragraphs, key=lambda p: _distance(p[1], box)):
        if _meets(b, box):
            continue
        phrase = " ".join(t.split()[:5])
        hits = _find(textpage, phrase)
        if hits and not any(_meets(h, box) for h in hits):
            return phrase
    return None


def _tagged_pages(pdf):
    """Each page whose structure tree marks a figure or table: (page number, page, its elements)."""
    import pypdfium2.raw as r

    for n in range(len(pdf)):
        page = pdf[n]
        tree = r.FPDF_StructTree_GetForPage(page.raw)
        if not tree:
            continue
        els: list[dict] = []
        for k in range(r.FPDF_StructTree_CountChildren(tree)):
            el = r.FPDF_StructTree_GetChildAtIndex(tree, k)
            if el:
                _elements(r, el, -1, els)
        r.FPDF_StructTree_Close(tree)
        if any(e["type"] in ("Figure", "Table") for e in els):
            yield n + 1, page, els


def truth_of(path: Path, strict: bool = False) -> list[dict]:
    """The captioned figures and tables a tagged PDF marks; [] for an untagged one.  Two passes: the
    paper's habit (which side of its figures and of its tables the captions lie, `habit_of`), then
    the objects."""
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(str(path))
    out: list[dict] = []
    try:
        votes: list[tuple[str, str]] = []
        for _, page, els in _tagged_pages(pdf):
            tp = page.get_textpage()
            votes += _votes(els, _objects(page, tp))
            tp.close()
        habit = habit_of(votes)
        for n, page, els in _tagged_pages(pdf):
            tp = page.get_textpage()
            seen = {o["label"] for o in out}  # a table continued on the next pages counts once, on its first
            out += [o for o in _page_truth(els, _objects(page, tp), tp, n, page.get_size(), strict, habit)
                    if o["label"] not in seen]
            tp.close()
    finally:
        pdf.close()
    return out


def build(data: Path) -> None:
    split = json.loads(SPLIT.read_text())
    truth: dict = {"_about": "figures/tables marked in tagged PDFs of pdfs-wide (bench/wide_tagged.py --build)"}
    for path in sorted(wide_dir(data).glob("*.pdf")):
        items = truth_of(path)
        if items:
            truth[path.name] = {"half": split[path.name]["half"], "objects": items}
            log(f"{path.name}: {len(items)} objects")
    TRUTH.write_text(json.dumps(truth, indent=1, ensure_ascii=False) + "\n")


def build_zotero(data: Path) -> None:
    """The Zotero library's tagged PDFs (dev half only: `pdf_authors_zotero.half_of`, the attachment
    key's parity), aligned strictly (`_page_truth`), into bench/data/wide_tagged_zotero.json."""
    from pdf_authors_zotero import half_of

    truth: dict = {"_about": "figures/tables marked in the tagged PDFs of zotero/storage, dev half only "
                             "(bench/wide_tagged.py --build-zotero; strict alignment)"}
    for path in sorted((data / "zotero" / "storage").glob("*/*.pdf")):
        if half_of(path.parent.name) != "dev":
            continue
        items = truth_of(path, strict=True)
        if items:
            truth[f"{path.parent.name}/{path.name}"] = {"half": "dev", "objects": items}
            log(f"{path.parent.name}: {len(items)} objects")
    ZOTERO_TRUTH.write_text(json.dumps(truth, indent=1, ensure_ascii=False) + "\n")


def _truth(data: Path) -> dict[str, tuple[Path, dict]]:
    """Every tagged file's truth by name, with its path (pdfs-wide, then the Zotero dev half)."""
    out = {k: (wide_dir(data) / k, v) for k, v in json.loads(TRUTH.read_text()).items() if not k.startswith("_")}
    if ZOTERO_TRUTH.exists():
        out |= {k: (data / "zotero" / "storage" / k, v) for k, v in json.loads(ZOTERO_TRUTH.read_text()).items()
                if not k.startswith("_")}
    return out


def run(data: Path, half: str, verbose: bool, wide_only: bool = False) -> dict:
    import pypdfium2 as pdfium

    from papershelf.ingest.pdf import read_pdf
    from papershelf.units import build_units

    known = _truth(data)
    truth = {k: v for k, (_, v) in known.items() if not (wide_only and "/" in k)}
    files = [f for f, v in sorted(truth.items()) if half == "all" or v["half"] == half]
    n = found = right = cells = cells_ok = whole = 0
    failures = []
    for f in files:
        raw = known[f][0].read_bytes()
        units = {u.object_label: u for u in build_units(read_pdf(raw), "p") if u.kind == "object"}
        pdf = pdfium.PdfDocument(raw)
        for item in truth[f]["objects"]:
            unit = units.get(item["label"])
            ok, why = check_region(pdf, unit, item)
            n, found, right = n + 1, found + (unit is not None), right + ok
            if not ok:
                failures.append(f"region {f} p{item['page']} {item['label']}: {why if unit else 'no unit'}")
            raw_text = unit.table_text or "" if unit is not None else ""
            text = plain(raw_text)  # as wide_layout compares cells
            own = {plain(cell) for line in raw_text.splitlines() for cell in line.split(" | ")}  # as cells_hand
            for c in item["cells"]:
                cells, cells_ok, whole = cells + 1, cells_ok + (plain(c) in text), whole + (plain(c) in own)
                if plain(c) not in text:
                    failures.append(f"cell {f} {item['label']}: {c!r}")
                elif plain(c) not in own:
                    failures.append(f"cell not whole {f} {item['label']}: {c!r}")
        pdf.close()
    out = {"half": half, "files": len(files), "objects": n, "captions_found": round(found / max(n, 1), 3),
           "regions_right": round(right / max(n, 1), 3), "cells": cells,
           "cells_in_table_text": round(cells_ok / max(cells, 1), 3), "cells_whole": round(whole / max(cells, 1), 3)}
    if verbose:
        out["failures"] = failures
    return out


def main() -> None:
    ap = wide_parser(__doc__)
    ap.add_argument("--build", action="store_true", help="write bench/data/wide_tagged.json from the PDFs")
    ap.add_argument("--build-zotero", action="store_true",
                    help="write bench/data/wide_tagged_zotero.json from the Zotero library's tagged PDFs (dev half)")
    ap.add_argument("--wide-only", action="store_true", help="pdfs-wide's files only (the truth before regions8)")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("-v", "--verbose", action="store_true", help="list every failure")
    args = ap.parse_args()
    if corpus_missing(args.data):
        return
    if args.build or args.build_zotero:
        (build if args.build else build_zotero)(Path(args.data))
        return
    out = run(Path(args.data), args.half, args.verbose, args.wide_only)
    print_result(out, args.json, 22)


if __name__ == "__main__":
    main()
