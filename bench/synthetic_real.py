"""Real names and titles for the synthetic front pages (`synthetic_front.py --real`): the generators'
layouts, drawn with the names and titles other people's records hold instead of the generators' small
pools, so that what a name or a title reads like is as varied as in print (three given names, particles,
hyphens, initials without points, Chinese and Turkish names, a title that opens with a name or reads as
one, a long title with a colon or a species name).  Truth stays by construction: what is drawn is the truth.

Pools, dev half only (`--half test` draws from the other half of each source):

* names: the Zotero library's creators (every item, present PDF or not; half by
  `pdf_authors_zotero.half_of` of the item's key), the S2ORC samples' and PMC JATS articles' authors
  (half by the parity of sha1 of the file name), the hand-read bylines of the wide corpus's dev half
  (bench/data/wide_authors.json) and the shared PDFs' dev half (bench/data/pdf_authors.json);
* titles: SciFact's corpus titles (half by the parity of the document id), the Zotero items' titles,
  the S2ORC samples' titles.

Only what the base-14 fonts can draw (Latin-1) is kept; a name is two to five words, a title 4 to 30.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = Path("/work/shared/data") if not (ROOT.parent / "shared" / "data").exists() else ROOT.parent / "shared" / "data"


def _half(text: str) -> str:
    return "test" if int(hashlib.sha1(text.encode()).hexdigest()[:8], 16) % 2 else "dev"


def _drawable(text: str) -> bool:
    try:
        text.encode("latin-1")
    except UnicodeEncodeError:
        return False
    return True


def _zotero(data: Path, half: str) -> tuple[list[str], list[str]]:
    import sqlite3

    from pdf_authors_zotero import half_of

    db = sqlite3.connect(f"file:{data / 'zotero' / 'zotero.sqlite'}?mode=ro&immutable=1", uri=True)
    keys = dict(db.execute("SELECT itemID, key FROM items"))
    names = [(i, f"{f} {last}") for i, f, last in db.execute(
        "SELECT ic.itemID, c.firstName, c.lastName FROM itemCreators ic JOIN creators c USING (creatorID) "
        "ORDER BY ic.itemID, ic.orderIndex") if f and last]
    titles = [(i, v) for i, v in db.execute(
        "SELECT d.itemID, v.value FROM itemData d JOIN itemDataValues v USING (valueID) JOIN fields f USING (fieldID) "
        "WHERE f.fieldName = 'title'")]
    db.close()
    return ([n for i, n in names if half_of(keys[i]) == half], [t for i, t in titles if half_of(keys[i]) == half])


def _records(data: Path, half: str) -> tuple[list[str], list[str]]:
    names, titles = [], []
    for p in sorted((data / "fulltext" / "s2orc-json").glob("s2orc-*.json")):
        if _half(p.name) == half:
            meta = json.loads(p.read_text()).get("metadata", {})
            names += [" ".join([a["first"], *a.get("middle", []), a["last"]]) for a in meta.get("authors", [])]
            titles.append(meta.get("title") or "")
    for p in sorted((data / "fulltext" / "pmc-jats").glob("*.nxml")):
        if _half(p.name) == half:
            for c in ET.parse(p).getroot().iter("contrib"):
                s, g = c.find(".//surname"), c.find(".//given-names")
                if c.get("contrib-type") == "author" and s is not None and g is not None:
                    names.append(f"{''.join(g.itertext())} {''.join(s.itertext())}")
    if half == "dev":  # the hand-read bylines exist for the dev halves only
        for f in ("wide_authors.json", "pdf_authors.json"):
            for k, v in json.loads((ROOT / "bench" / "data" / f).read_text()).items():
                names += v if not k.startswith("_") else []
    with open(data / "scifact" / "corpus.jsonl") as fh:
        titles += [d["title"] for d in map(json.loads, fh) if int(d["_id"]) % 2 == (half == "test")]
    return names, titles


def pools(half: str, data: Path = DATA) -> tuple[list[str], list[str]]:
    sys.path.insert(1, str(ROOT / "bench"))
    zn, zt = _zotero(data, half)
    rn, rt = _records(data, half)
    names = sorted({" ".join(n.split()) for n in zn + rn if _drawable(n) and 2 <= len(n.split()) <= 5})
    titles = sorted({" ".join(t.split()).rstrip(".") for t in zt + rt if _drawable(t) and 4 <= len(t.split()) <= 30})
    return names, titles


def install(half: str) -> list[str]:
    """Draw the generators' names from the real pool (seeded by the page's own rng); the titles' pool."""
    names, titles = pools(half)
    import synthetic_classes
    import synthetic_draw
    import synthetic_eras
    import synthetic_front
    import synthetic_layouts

    def real_name(rng: random.Random) -> str:
        return rng.choice(names)

    main = sys.modules.get("__main__")  # synthetic_front run as a script draws its own set from __main__
    for mod in (synthetic_draw, synthetic_front, synthetic_classes, synthetic_layouts, synthetic_eras, main):
        if mod is not None and hasattr(mod, "random_name"):
            mod.random_name = real_name
    return titles


def retitle(layout: dict, truth: dict, titles: list[str], seed: int) -> None:
    """Put a real title of the drawn one's length in place of it, wherever the layout holds it (as drawn or in capitals);
    a page whose title was built from other parts (a translation, a label run into it) keeps its own."""
    old = truth.get("title")
    if not old or layout.get("kind") == "translated" or layout.get("title") not in (old, old.upper()):
        return
    n = len(old.split())  # a title as long as the drawn one, in words: the kind's layout was made for that length
    new = random.Random(seed * 7919).choice([t for t in titles if abs(len(t.split()) - n) <= 1] or titles)
    for k, v in list(layout.items()):
        if v == old:
            layout[k] = new
        elif isinstance(v, str) and v == old.upper():
            layout[k] = new.upper()
    truth["title"] = new
