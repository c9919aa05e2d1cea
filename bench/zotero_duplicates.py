"""Works a library holds more than once: papers sharing a DOI, a title key (normalized title + first author's
surname) with the year, or a Zotero item (an id `ITEMKEY` beside `ITEMKEY-ATTACHMENTKEY`).  Prints ids only,
never titles (the shared Zotero library's files are split dev/test by attachment key: bench/pdf_authors_zotero.py).

    python bench/zotero_duplicates.py LIBRARY.db        # after Library(LIBRARY.db).add([".../zotero"])
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict

from papershelf import Library, works


def duplicates(lib: Library) -> dict:
    papers = [s.paper for s in lib.store.list_papers()]
    groups: dict[tuple[str, str], set[str]] = defaultdict(set)
    for p in papers:
        if p.doi:
            groups[("doi", works.normalized_doi(p.doi) or "")].add(p.id)
        if key := works.title_key(p.title, p.authors):
            groups[("title", f"{key}|{p.year}")].add(p.id)
        groups[("zotero item", p.id.split("-")[0])].add(p.id)
    return {"papers": len(papers), "sources": len(lib.sources()),
            "held_twice": sorted([kind, sorted(ids)] for (kind, _), ids in groups.items() if len(ids) > 1),
            "several_sources": sorted(p.id for p in papers if len(lib.sources(p.id)) > 1)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("library")
    print(json.dumps(duplicates(Library(ap.parse_args().library, create=False))))


if __name__ == "__main__":
    main()
