"""Citation-link truth by construction: entries naming real papers, printed in many citation styles and
with the title varied as citing papers vary it, linked (or not) by the rule the citation graph uses.

The library is the wide corpus's dev half as its truth describes it (manifest titles and years, the printed
authors of bench/data/wide_authors.json).  For each paper with a title and a first author, entries are
written in seven styles (APA, IEEE, Vancouver, ACM, Nature, Chicago, MLA) with its title as printed, with
its subtitle dropped, in other capitals, with "et al." for the authors after the first, and dated a year
later (the journal version of a preprint).  Each entry is read by `parse_reference`, keyed as the store
keys it, and linked by `graph._link` (the rule `refs`, `related` and `reading-list` share) against every
library paper.  Found: linked to its paper.  False: linked to another paper, or a *distractor* linked at all
(the same first author and year with another paper's title; the same title by another first author;
the same first author three years on with a title that opens with the paper's first four words).

    python bench/gen_links.py [-v]
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from papershelf.graph import _index, _link  # noqa: E402
from papershelf.ingest.references import parse_reference  # noqa: E402
from papershelf.models import PaperSource  # noqa: E402
from papershelf.store.reference_rows import reference_keys  # noqa: E402
from papershelf.works import title_key  # noqa: E402

DATA = ROOT.parent / "shared" / "data"
SPLIT = ROOT / "bench" / "data" / "wide_split.json"
HAND = ROOT / "bench" / "data" / "wide_authors.json"
STYLES = ("apa", "ieee", "vancouver", "acm", "nature", "chicago", "mla")
VARIANTS = ("as printed", "no subtitle", "capitals", "et al.", "a year later")


def library(data: Path) -> dict[str, tuple[str, list[str], int]]:
    """file -> (title, authors as printed, year) for the dev half's papers with a title and authors."""
    split = json.loads(SPLIT.read_text())
    hand = {k: v for k, v in json.loads(HAND.read_text()).items() if not k.startswith("_")}
    out = {}
    for rec in json.loads((data / "pdfs-wide" / "manifest.json").read_text()):
        name = rec["file"]
        if split[name]["half"] == "dev" and rec.get("title") and rec.get("year") and hand.get(name):
            out[name] = (rec["title"], hand[name], rec["year"])
    return out


def _split_name(name: str) -> tuple[str, str]:
    """("Lovelace", "A. B.") of "Ada B. Lovelace"."""
    words = name.replace(",", " ").split()
    return words[-1], " ".join(f"{w[0]}." for w in words[:-1] if w[:1].isalpha())


def entry(style: str, title: str, authors: list[str], year: int, rng: random.Random, et_al: bool) -> str:
    names = [_split_name(a) for a in (authors[:1] if et_al else authors[:6])]
    venue = rng.choice(["Journal of Applied Systems", "Proceedings of the Annual Meeting", "Communications"])
    vol, p0 = rng.randint(1, 60), rng.randint(1, 900)
    pages = f"{p0}–{p0 + rng.randint(5, 30)}"
    more = " et al." if et_al else ""
    if style == "apa":
        who = ", ".join(f"{s}, {i}" for s, i in names[:-1]) + (", & " if len(names) > 1 else "") + \
            f"{names[-1][0]}, {names[-1][1]}"
        return f"{who}{more} ({year}). {title}. {venue}, {vol}, {pages}."
    if style == "ieee":
        who = ", ".join(f"{i} {s}" for s, i in names)
        return f"[7] {who}{more}, “{title},” {venue}, vol. {vol}, pp. {pages}, {year}."
    if style == "vancouver":
        who = ", ".join(f"{s} {i.replace('.', '').replace(' ', '')}" for s, i in names)
        return f"7. {who}{', et al' if et_al else ''}. {title}. {venue}. {year};{vol}:{pages}."
    if style == "acm":
        who = ", ".join(f"{s}, {i}" for s, i in names[:-1]) + (" and " if len(names) > 1 else "") + \
            f"{names[-1][0]}, {names[-1][1]}"
        return f"{who}{more} {year}. {title}. In {venue}, {pages}."
    if style == "nature":
        who = ", ".join(f"{s}, {i}" for s, i in names[:-1]) + (" & " if len(names) > 1 else "") + \
            f"{names[-1][0]}, {names[-1][1]}"
        return f"7. {who}{more} {title}. {venue} {vol}, {pages} ({year})."
    full = authors[:1] if et_al else authors[:3]
    first = f"{_split_name(full[0])[0]}, {' '.join(full[0].split()[:-1])}"
    who = first + "".join(f", {a}" for a in full[1:-1]) + (f", and {full[-1]}" if len(full) > 1 else "")
    if style == "chicago":
        return f"{who}{more} {year}. “{title}.” {venue} {vol}: {pages}."
    return f"{who}{more} “{title}.” {venue}, vol. {vol}, {year}, pp. {pages}."


def variant(kind: str, title: str, year: int) -> tuple[str, int] | None:
    if kind == "no subtitle":
        head = re.split(r"[:?]\s+", title, maxsplit=1)[0]
        return (head, year) if head != title and len(head.split()) >= 2 else None
    if kind == "capitals":
        return (title.title() if title != title.title() else title.lower().capitalize()), year
    if kind == "a year later":
        return title, year + 1
    return title, year


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default=str(DATA))
    ap.add_argument("-v", action="store_true", help="each miss and false link")
    args = ap.parse_args()
    lib = library(Path(args.data))
    sources = [PaperSource(path=f, paper_id=f, title_key=title_key(t, a), year=y) for f, (t, a, y) in lib.items()]
    index = _index(sources)
    rng = random.Random(0)
    tally: dict[str, Counter] = {}
    files = sorted(lib)
    for f in files:
        title, authors, year = lib[f]
        for style in STYLES:
            for kind in VARIANTS:
                v = variant(kind, title, year)
                if v is None:
                    continue
                text = entry(style, v[0], authors, v[1], rng, kind == "et al.")
                got = _link(index, _probe(text))
                t = tally.setdefault(f"{style} / {kind}", Counter())
                t["entries"] += 1
                t["found"] += got == f
                t["false"] += got not in (None, f)
                if args.v and got != f:
                    print(f"{'FALSE' if got else 'miss'} {style}/{kind}: {text[:140]} -> {got}")
            other = lib[rng.choice([g for g in files if g != f])]
            follow_up = f"{' '.join(title.split()[:4])} revisited: lessons from a decade of practice"
            for kind, text in (("same author, other title", entry(style, other[0], authors, year, rng, False)),
                               ("same title, other author", entry(style, title, other[1], other[2], rng, False)),
                               ("same author and opening, 3 years on", entry(style, follow_up, authors, year + 3, rng,
                                                                             False))):
                got = _link(index, _probe(text))
                t = tally.setdefault(f"distractor: {kind}", Counter())
                t["entries"] += 1
                t["false"] += got is not None and not (kind.startswith("same author") and got == other)
                if args.v and got is not None:
                    print(f"FALSE? {kind}: {text[:140]} -> {got}")
    total: Counter = Counter()
    for name, t in sorted(tally.items()):
        total.update(t)
        print(f"{name:40s} entries {t['entries']:4d}  found {t['found']:4d}  false {t['false']}")
    print(f"{'all':40s} entries {total['entries']:4d}  found {total['found']:4d}  false {total['false']}")
    return 0


def _probe(text: str) -> PaperSource:
    ref = parse_reference(text, 1)
    doi, arxiv, key = reference_keys(ref)
    return PaperSource(path="", paper_id="", doi=doi, arxiv_id=arxiv, title_key=key, year=ref.year)


if __name__ == "__main__":
    raise SystemExit(main())
