"""Write bench/data/wide_split.json: the wide corpus split by publisher family, before any tuning.

Leave-publisher-out: every PDF of a publisher family lands in the same half, so a rule tuned on the dev half
is measured on publishers it never saw. Families fold imprints (Cell Press into Elsevier, Kluwer and Humana
into Springer, Blackwell into Wiley, NPG titles into Nature). The half is a hash of the family's name, so the
split is reproducible and was not chosen by looking at any paper.

    python bench/wide_split.py --data ../shared/data
"""

from __future__ import annotations

import argparse
import hashlib
import json
from pathlib import Path

FAMILIES = [
    ("elsevier", "Elsevier"), ("cell press", "Elsevier"), ("academic press", "Elsevier"), ("lancet", "Elsevier"),
    ("wolters kluwer", "Wolters Kluwer"), ("adis", "Wolters Kluwer"),
    ("springer", "Springer"), ("kluwer", "Springer"), ("humana", "Springer"), ("biomed central", "Springer"),
    ("wiley", "Wiley"), ("blackwell", "Wiley"),
    ("nature", "Nature"), ("npg", "Nature"),
    ("oxford", "OUP"), ("oup", "OUP"),
    ("arxiv", "arXiv"),
]


def family(publisher: str) -> str:
    low = publisher.lower()
    for needle, name in FAMILIES:
        if needle in low:
            return name
    return publisher


def half(name: str) -> str:
    """dev for about 55 % of families, by a hash of the family's name."""
    return "dev" if int(hashlib.sha256(name.encode()).hexdigest()[:8], 16) % 100 < 55 else "test"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default="../shared/data")
    ap.add_argument("--out", default=str(Path(__file__).parent / "data" / "wide_split.json"))
    args = ap.parse_args()
    records = json.loads((Path(args.data) / "pdfs-wide" / "manifest.json").read_text())
    split = {r["file"]: {"family": family(r["publisher"]), "half": half(family(r["publisher"]))} for r in records}
    Path(args.out).write_text(json.dumps(split, indent=1, sort_keys=True) + "\n")
    for h in ("dev", "test"):
        files = [f for f, v in split.items() if v["half"] == h]
        twins = [r["file"] for r in records if r["file"] in files and r.get("xml_twin")]
        outl = [r["file"] for r in records if r["file"] in files and r.get("has_outline")]
        fams = {split[f]["family"] for f in files}
        print(f"{h}: {len(files)} PDFs, {len(fams)} families, {len(twins)} twins, {len(outl)} with outlines")


if __name__ == "__main__":
    main()
