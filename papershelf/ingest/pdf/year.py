"""The year of a PDF's paper, checked against what the file itself proves about its date.

`pdf_meta` reads the year a paper prints about itself (an arXiv stamp, a proceedings, journal or
copyright line).  Two facts bound it, and they are used as checks, not as sources:

* a paper cannot cite a work from after its own year, so the latest year in its reference list is
  a lower bound (a year printed before it is some other date: a cited edition, a data set's year),
  but for one year's grace when the file was made in the printed year (a forthcoming work cited);
* a file cannot print a year that had not come when it was made, so the PDF's creation date is an
  upper bound, give or take the one year an issue or a meeting is dated ahead of its typesetting.

Where a paper prints no year at all, the creation date is the year only when the references pin it
down: made in the year of the latest reference or the one after, and not in the year's last quarter
(a file made in November may be for next year's meeting or issue).  No year is better than a wrong
one: anything outside the bounds is dropped.
"""

from __future__ import annotations

import re

from ...document import Reference

# pdfium's document-info date: "D:20060418022244-07'00'"
_PDF_DATE = re.compile(r"^(?:D:)?((?:19|20)\d\d)(\d\d)?")


def creation_date(info: dict) -> tuple[int, int] | None:
    """(year, month) the document info says the file was created (month 0 when it gives none)."""
    m = _PDF_DATE.match((info.get("CreationDate") or "").strip())
    if not m:
        return None
    month = int(m.group(2)) if m.group(2) else 0
    return int(m.group(1)), month if 0 <= month <= 12 else 0


def latest_cited(references: list[Reference], created: tuple[int, int] | None) -> int | None:
    """The latest year the reference list cites (years past the file's making are misreadings)."""
    ceiling = created[0] + 1 if created else None
    years = [r.year for r in references if r.year and (ceiling is None or r.year <= ceiling)]
    return max(years) if years else None


def checked_year(year: int | None, references: list[Reference],
                 created: tuple[int, int] | None, unsure: bool = False) -> tuple[int | None, str | None]:
    """The paper's year within its bounds, and the rule that gave it (None: the printed year, kept
    as it was); (None, reason) when the printed year breaks a bound or nothing pins one down.
    `unsure`: the paper prints two years of its own (`PdfMeta.year_unsure`), so the creation date
    cannot stand in for the year either."""
    if unsure:
        return None, "two years printed as the paper's own"
    floor = latest_cited(references, created)
    if year is not None:
        # a work cited as forthcoming (or a product named by a year, "SQL Server 2005") may be dated a year
        # ahead of the paper: one year ahead is no contradiction when the file was made in the printed year
        confirmed = created is not None and created[0] == year and floor == year + 1
        if floor is not None and year < floor and not confirmed:
            return None, f"printed year {year} before the latest reference ({floor})"
        if created is not None and year > created[0] + 1:
            return None, f"printed year {year} after the file was made ({created[0]})"
        return year, None
    if created is None or floor is None:
        return None, None
    made, month = created
    if floor <= made <= floor + 1 and 1 <= month <= 9:
        return made, "creation date, within a year of the latest reference"
    return None, None
