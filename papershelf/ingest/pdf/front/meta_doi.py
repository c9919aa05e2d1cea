"""The paper's own DOI as page 1 (or the last page, or the running text) prints it."""

from __future__ import annotations

import re

DOI = re.compile(r"\b(10\.\d{4,9}/[^\s\"<>]+)")
DOI_LABELLED = re.compile(r"(?:\bdoi\s*:?\s*|doi\.org/)(10\.\d{4,9}/[^\s\"<>]+)", re.IGNORECASE)


def strip_doi(doi: str) -> str:
    """A DOI as printed, without the sentence punctuation or bracket that followed it."""
    doi = doi.rstrip(".,;:'\"")
    while doi and doi[-1] in ")]" and doi.count(doi[-1]) > doi.count("(" if doi[-1] == ")" else "["):
        doi = doi[:-1].rstrip(".,;:")
    return doi


def doi_from(first: list[str], last: list[str], middle_pages: list[str]) -> tuple[str | None, str | None]:
    """The paper's own DOI: labelled on page 1, else any on page 1, else the one a
    "Cite this article" block on the last page names, else one repeated in the running text
    of most pages (a footer)."""
    text1 = "\n".join(first)
    for pattern, rule in ((DOI_LABELLED, "doi on page 1"), (DOI, "doi on page 1")):
        m = pattern.search(text1)
        if m:  # a DOI a sidebar wraps after a hyphen is printed whole elsewhere on the page (its foot)
            doi = strip_doi(m.group(1))
            whole = [d for d in map(strip_doi, DOI.findall(text1)) if doi.endswith("-") and d.startswith(doi)]
            return max([doi, *whole], key=len), rule
    for i, line in enumerate(last):
        labelled = DOI_LABELLED.search(line)
        if labelled and any("Cite this article" in x for x in last[i:i + 2]):
            return strip_doi(labelled.group(1)), "cite-this-article doi"
    counts: dict[str, int] = {}
    for text in middle_pages:
        for doi in {strip_doi(d) for d in DOI.findall(text)}:
            counts[doi] = counts.get(doi, 0) + 1
    repeated = [d for d, n in counts.items() if n >= max(2, len(middle_pages) // 2 + 1)]
    return (repeated[0], "doi in page footers") if len(repeated) == 1 else (None, None)
