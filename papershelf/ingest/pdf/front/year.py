"""The year of a PDF's paper, checked against what the file itself proves about its date.

`pdf_meta` reads the year a paper prints about itself (an arXiv stamp, a proceedings, journal or
copyright line).  Two facts bound it, and they are used as checks, not as sources:

* a paper cannot cite a work from after its own year, so the latest year in its reference list is
  a lower bound (a year printed before it is some other date: a cited edition, a data set's year),
  but for one year's grace when the file was made in the printed year (a forthcoming work cited), and,
  for a file with no creation date, but for a couple of entries dated later (`few_ahead`);
* a file cannot print a year that had not come when it was made, so the PDF's creation date is an
  upper bound, give or take the one year an issue or a meeting is dated ahead of its typesetting.

Where a paper prints no year at all, the creation date is the year only when the references pin it
down: made in the year of the latest reference or the one after, and not in the year's last quarter
(a file made in November may be for next year's meeting or issue).  No year is better than a wrong
one: anything outside the bounds is dropped.
"""

from __future__ import annotations

import re

from ....document import Reference

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


# An undated file's printed year stands against this many entries dated after it, at most (and at most
# `AHEAD_SHARE` of the dated entries): works cited as forthcoming, a product named by a year, a misread year.
AHEAD_ENTRIES = 2
AHEAD_SHARE = 0.1


def few_ahead(references: list[Reference], year: int) -> bool:
    """The list's own evidence for a file with no creation date: a paper of `year` may cite a work or
    two dated the year after (a meeting of next January, "to appear"), or misread a page number as a
    year; a paper printing a year older than its own (a reprint's first year, a received date) cites
    many works after it.  So a year stands when at most a couple of entries, a tenth of those dated,
    cite a later year, and one at least cites the year itself or the one before (the list reaches it)."""
    dated = [r.year for r in references if r.year]
    ahead = sum(y > year for y in dated)
    return 0 < ahead <= min(AHEAD_ENTRIES, AHEAD_SHARE * len(dated)) and any(year - 1 <= y <= year for y in dated)


def checked_year(year: int | None, references: list[Reference],
                 created: tuple[int, int] | None) -> tuple[int | None, str | None]:
    """The paper's year within its bounds, and the rule that gave it (None: the printed year, kept
    as it was); (None, reason) when the printed year breaks a bound or nothing pins one down."""
    floor = latest_cited(references, created)
    if year is not None:
        # a work cited as forthcoming (or a product named by a year, "SQL Server 2005") may be dated a year
        # ahead of the paper: one year ahead is no contradiction when the file was made in the printed year
        confirmed = created is not None and created[0] == year and floor == year + 1
        confirmed = confirmed or created is None and few_ahead(references, year)
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
