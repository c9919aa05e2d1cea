"""Raised labels put back into a reference list, and the search for them bounded on a page of number cells."""

import time

from papershelf.ingest.pdf.bibliography.list_marks import with_raised_marks
from papershelf.ingest.pdf.text.lines import Line


def _line(y: float, text: str, x0: float = 60.0, size: float = 9.0) -> Line:
    return Line(page=3, x0=x0, top=y - size, x1=x0 + 5 * len(text), bottom=y, text=text, size=size, bold=False)


def _mark(y: float, n: int) -> Line:
    # a raised number ending where its entry starts, its baseline half a size above the entry's
    return Line(page=3, x0=52.0, top=y - 10.0, x1=59.0, bottom=y - 4.5, text=str(n), size=6.0, bold=False)


def test_a_dropped_raised_label_goes_back_before_its_entry() -> None:
    entries = [_line(100.0 + 12 * i, f"Author {i}. A title of the work, 1999.") for i in range(6)]
    shown = [_mark(ln.bottom, i + 1) for i, ln in enumerate(entries) if i != 4]
    dropped = _mark(entries[4].bottom, 5)
    column = [m for pair in zip(shown, [e for i, e in enumerate(entries) if i != 4]) for m in pair]
    column[8:8] = [entries[4]]
    out = with_raised_marks([column], [dropped])[0]
    assert out.index(dropped) == out.index(entries[4]) - 1


def test_no_label_put_back_without_the_list_showing_raised_labels() -> None:
    entries = [_line(100.0 + 12 * i, f"Author {i}. A title of the work, 1999.") for i in range(6)]
    dropped = _mark(entries[2].bottom, 3)
    assert with_raised_marks([entries], [dropped]) == [entries]


def test_a_page_of_number_cells_is_searched_in_bounded_time() -> None:
    # 4,000 bare numbers and 4,000 text lines on one page: pairing each with each took seconds
    cells = [Line(page=3, x0=300.0 + (i % 40) * 7, top=0.2 * i, x1=305.0 + (i % 40) * 7, bottom=0.2 * i + 6,
                  text=str(i % 97), size=6.0, bold=False) for i in range(4000)]
    text = [_line(0.2 * i + 6, "some running words here", x0=40.0 + (i % 3)) for i in range(4000)]
    start = time.process_time()
    out = with_raised_marks([text + cells], cells[:50])
    assert time.process_time() - start < 1.0
    assert sum(len(c) for c in out) >= 8000
