"""Page 1s of the front-matter leftovers issue #38 still names after two rounds of generated classes, with
truth by construction (title, authors in order, the paper's year), in varied fonts, sizes, page sizes
and positions:

* ``type_label``: an article-type label over a title of **one line**, in the title's own size and
  weight at the title's pitch, a little smaller or larger, in capitals, on a row shared with a badge
  ("OPEN ACCESS" at the right), in words of a list or not;
* ``doi_mark``: a byline with raised marks and a DOI / citation line set tight against it (right of its
  first row, right under it, or right over it), so the marks' band runs into that line;
* ``two_line_title``: a title of two or three lines whose lines were measured at slightly different
  sizes (an OCR'd title: one line 4-12 % smaller or larger than the other), its first line sometimes
  ending with a colon;
* ``byline_wrap``: bylines wrapped over two or three lines: the last line holding one name, opening
  with "and", each line ending with a mark, the lines centred one by one, a wider line pitch, bold
  names with the commas and "and" in roman (the lines then read in two weights), small capitals;
* ``mark_forms``: affiliation marks in the forms that read as partial lists: raised "1,2", "a,b",
  "1,*", marks in brackets or parentheses, marks with spaces ("1, 2"), unraised marks after a space or
  in brackets ("Berg [1,2]"), daggers doubled;
* ``conjunction``: a byline whose last two names are joined by another language's "and" ("João Silva e
  Maria Santos", "y", "und", "et", "en", "och"), raised marks between;
* ``history``: a page dated several ways (a citation line with the issue's year, "Received … Accepted
  … Published …", a copyright line), the received date in the year before; truth: the year published.
  Or dated by its history alone ("Received … ; Accepted …"), published one to six months after it was
  accepted, the year published printed nowhere: no year is right, the year accepted is wrong a quarter
  of the time or so.

    python bench/synthetic_front.py --set layouts --half dev --n 120 [--show]
"""

from __future__ import annotations

import random

from synthetic_draw import FAMILIES, WORDS, abstract_columns, put_line, random_name, wrap_words

KINDS = ("type_label", "doi_mark", "two_line_title", "byline_wrap", "mark_forms", "history", "conjunction")
# "and" as bylines in other languages print it (Portuguese and Italian, Spanish, German, French, Dutch, Swedish)
CONJUNCTIONS = [" e ", " y ", " und ", " et ", " en ", " och "]
TYPE_LABELS = ["Research Article", "Case Report", "ORIGINAL ARTICLE", "Review", "Article", "Research Paper",
               "Registered Report", "Data Note", "Short Report", "Methods Article", "Clinical Research", "Resource"]
INSTITUTES = ["Department of Physics, University of Bergen, Norway", "Institute of Neuroscience, Kyoto, Japan",
              "School of Medicine, Universidad de Chile, Santiago", "Centre for Ecology, Aarhus University, Denmark"]
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December"]


def layout(seed: int) -> tuple[dict, dict]:
    """One page's layout and its truth (title, authors in order, year)."""
    rng = random.Random(seed)
    kind = KINDS[seed // 2 % len(KINDS)]
    names: list[str] = []
    count = rng.randint(5, 10) if kind == "byline_wrap" else rng.randint(2, 7)
    while len(names) < count:
        n = random_name(rng)
        if n.split()[-1] not in {m.split()[-1] for m in names}:
            names.append(n)
    n_words = rng.choice([3, 4, 5, 6]) if kind == "type_label" else rng.choice([6, 9, 12])
    words = rng.sample(WORDS, n_words)
    title = " ".join(w.capitalize() if rng.random() < 0.6 or i == 0 else w for i, w in enumerate(words))
    year = rng.randint(1996, 2023)
    out: dict = {"kind": kind, "title": title, "names": names, "family": rng.choice(FAMILIES),
           "body_family": rng.choice(FAMILIES[:2]), "title_size": rng.choice([14, 16, 18, 20, 22]),
           "title_bold": rng.random() < 0.7, "name_size": rng.choice([9, 10, 11, 12]), "name_bold": rng.random() < 0.3,
           "body_size": rng.choice([9, 9.5, 10, 11]), "a4": rng.random() < 0.5, "margin": rng.choice([50, 60, 72, 85]),
           "top": rng.choice([60, 80, 100]), "centred": rng.random() < 0.4, "year": year,
           "label": rng.choice(TYPE_LABELS), "label_style": rng.choice(["same", "same", "smaller", "larger", "caps",
                                                                        "badge_row"]),
           "doi_place": rng.choice(["row", "under", "over"]), "size_step": rng.choice([0.88, 0.92, 0.96, 1.05, 1.1]),
           "colon": rng.random() < 0.4, "wrap_style": rng.choice(["last_alone", "and_opens", "marked", "centred",
                                                                 "wide_pitch", "sep_roman", "small_caps"]),
           "mark_form": rng.choice(["digits", "letters", "star", "brackets", "parens", "spaced", "plain", "daggers",
                                     "plain_brackets"]),
           "history": rng.choice(["lines", "one_line", "sidebar", "footer", "accepted_only"]),
           "conjunction": rng.choice(CONJUNCTIONS), "two_col": rng.random() < 0.4}
    if kind == "two_line_title":  # long enough for two lines, in one weight, each line a size of its own
        out["title"] = " ".join(w.capitalize() for w in rng.sample(WORDS, rng.choice([7, 9, 11])))
        if out["colon"]:
            head = rng.choice(["Dawn Rounds:", "Giant Cells:", "Long Haul Flights:", "Ward Rounds Revisited:"])
            out["title"] = f"{head} {out['title']}"
        title = out["title"]
    # a page dated by its history alone: accepted in a random month, published one to six months later (the
    # year published, the truth, is printed nowhere on the page)
    out["accepted"] = (rng.randint(1, 28), rng.randint(0, 11), year)
    if out["history"] == "accepted_only":
        year = out["year"] = year + (out["accepted"][1] + rng.randint(1, 6) > 11)
    if kind == "type_label" and out["label_style"] == "same":
        out["centred"] = False
    return out, {"title": title, "authors": names, "year": year}


def draw(layout: dict, path: str, seed: int) -> None:
    from reportlab.lib.pagesizes import A4, letter
    from reportlab.pdfgen import canvas

    lay = layout
    rng = random.Random(seed * 13 + 5)
    w, h = A4 if lay["a4"] else letter
    c = canvas.Canvas(path, pagesize=(w, h))
    left, right = float(lay["margin"]), w - lay["margin"]
    y = h - lay["top"]
    if lay["kind"] == "history" and lay["history"] != "footer":
        y = _history_head(c, lay, left, right, y, rng)
    if lay["kind"] == "type_label":
        y = _type_label(c, lay, left, right, y)
    y = _title(c, lay, left, right, y)
    y -= rng.choice([8, 12, 18])
    y = _byline(c, lay, left, right, y, rng)
    if lay["kind"] == "history" and lay["history"] == "footer":
        _history_foot(c, lay, left, rng)
    abstract_columns(c, lay, left, right, y - 24, bottom=75)
    c.showPage()
    c.save()


def _type_label(c, lay: dict, left: float, right: float, y: float) -> float:
    """The label over the title: in the title's style at its pitch, smaller, larger, in capitals, or on
    a row with a badge at the right."""
    regular, bold = lay["family"]
    ts, style, text = lay["title_size"], lay["label_style"], lay["label"]
    font = bold if lay["title_bold"] else regular
    if style == "same":
        put_line(c, text, font, ts, left, right, y, lay["centred"])
        return y - 1.2 * ts
    if style == "badge_row":
        put_line(c, text.upper(), bold, 10, left, right, y, lay["centred"])
        c.setFont(bold, 10)
        c.drawRightString(right, y, "OPEN ACCESS")
        return y - 10 - 14
    size = {"smaller": round(0.8 * ts), "larger": ts + 4, "caps": 11}[style]
    put_line(c, text.upper() if style == "caps" else text, font, size, left, right, y, lay["centred"])
    return y - size - 10


def _title(c, lay: dict, left: float, right: float, y: float) -> float:
    regular, bold = lay["family"]
    font, size = (bold if lay["title_bold"] else regular), lay["title_size"]
    lines = wrap_words(lay["title"].split(), font, size, right - left, c)
    if lay["kind"] == "type_label":
        while len(lines) > 1:  # one line: a smaller size until it fits
            size -= 1
            lines = wrap_words(lay["title"].split(), font, size, right - left, c)
    if lay["kind"] == "two_line_title":
        if lay["colon"]:  # a head ending with a colon on a line of its own
            head = lay["title"].split(":")[0] + ":"
            lines = [head, *wrap_words(lay["title"][len(head):].split(), font, size, right - left, c)]
        elif len(lines) < 2:
            lines = wrap_words(lay["title"].split(), font, size, 0.6 * (right - left), c)
    pitch = 1.2 * size
    for k, line in enumerate(lines):
        grown = size * lay["size_step"] if lay["kind"] == "two_line_title" and k == 0 else size
        put_line(c, line, font, grown, left, right, y, lay["centred"])
        y -= pitch
    return y


def _marks(lay: dict, k: int, rng: random.Random) -> tuple[str, bool]:
    """A name's mark and whether it is raised."""
    digits = ",".join(sorted({str(rng.randint(1, 4)) for _ in range(rng.randint(1, 2))}))
    if lay["kind"] != "mark_forms":
        return digits + ("*" if k == 0 and rng.random() < 0.5 else ""), True
    form = lay["mark_form"]
    if form == "letters":
        return ",".join(sorted({rng.choice("abcd") for _ in range(rng.randint(1, 2))})), True
    if form == "star":
        return digits + (",*" if k == 0 else ""), True
    if form == "brackets":
        return f"[{digits}]", True
    if form == "parens":
        return f"({digits})", True
    if form == "spaced":
        return digits.replace(",", ", "), True
    if form == "plain":
        return f" {digits}", False
    if form == "plain_brackets":  # in the names' size, in brackets: "Anna Berg [1,2]"
        return f" [{digits}]", False
    if form == "daggers":
        return "*†‡§"[k % 4] * (1 + k // 4), True
    return digits, True


def _byline(c, lay: dict, left: float, right: float, y: float, rng: random.Random) -> float:
    """The names, wrapped, with their marks; a DOI line set tight against them (``doi_mark``);
    then the affiliations, smaller."""
    regular, bold = lay["family"]
    font, size = (bold if lay["name_bold"] else regular), lay["name_size"]
    names = lay["names"]
    style = lay["wrap_style"] if lay["kind"] == "byline_wrap" else ""
    if style == "sep_roman":  # bold names, the commas and "and" between them in roman
        font = bold
    pieces = []  # (separator, name, raised mark)
    for k, name in enumerate(names):
        last_sep = lay["conjunction"] if lay["kind"] == "conjunction" else " and "
        sep = "" if k == 0 else last_sep if k == len(names) - 1 else ", "
        mark, raised = _marks(lay, k, rng)
        pieces.append((sep, name + ("" if raised else mark), mark if raised else ""))
    width = rng.choice([0.55, 0.75, 0.95]) * (right - left)
    if lay["kind"] == "doi_mark" and lay["doi_place"] == "row":
        width = min(width, 0.55 * (right - left))
    rows: list[list[tuple[str, str, str]]] = [[]]
    used = 0.0
    for k, (sep, text, mark) in enumerate(pieces):
        need = c.stringWidth(sep + text, font, size) + c.stringWidth(mark, font, 0.6 * size)
        wrap = used + need > width and rows[-1]
        if style == "last_alone" and k == len(pieces) - 1:
            wrap = True
        if wrap:
            rows.append([])
            used = 0.0
            word = sep.strip()  # "and" (or another language's) opens the next line or closes this one
            sep = "" if sep == ", " else f"{word} " if style == "and_opens" or rng.random() < 0.5 else ""
            if sep == "" and rows[-2] and pieces[k][0] != ", ":
                rows[-2].append((f" {word}", "", ""))
        rows[-1].append((sep, text, mark))
        used += need
    pitch = 1.6 if style == "wide_pitch" else 1.3
    first_y = y
    if lay["kind"] == "doi_mark" and lay["doi_place"] == "over":
        c.setFont(regular, max(7, size - 2))
        c.drawString(left, y + 0.95 * size, f"https://doi.org/10.{rng.randint(1000, 9999)}/jx.{lay['year']}.{seed_id(rng)}")
    sep_font = regular if style == "sep_roman" else font
    for row in rows:
        total = sum(_name_width(c, t, font, size, style) + c.stringWidth(sp, sep_font, size)
                    + c.stringWidth(m, font, 0.6 * size) for sp, t, m in row)
        x = (left + right - total) / 2 if lay["centred"] or style == "centred" else left
        for sep, text, mark in row:
            c.setFont(sep_font, size)
            c.drawString(x, y, sep)
            x += c.stringWidth(sep, sep_font, size)
            x = _draw_name(c, text, font, size, x, y, style)
            if mark:
                c.setFont(regular, 0.6 * size)
                c.drawString(x, y + 0.38 * size, mark)
                x += c.stringWidth(mark, regular, 0.6 * size)
        y -= pitch * size
    if lay["kind"] == "doi_mark" and lay["doi_place"] == "row":
        c.setFont(regular, max(7, size - 2))
        c.drawRightString(right, first_y, f"DOI: 10.{rng.randint(1000, 9999)}/abc.{lay['year']}.{seed_id(rng)}")
    if lay["kind"] == "doi_mark" and lay["doi_place"] == "under":
        c.setFont(regular, max(7, size - 2))
        c.drawString(left, y + 0.35 * size, f"doi:10.{rng.randint(1000, 9999)}/j.x.{lay['year']}.{seed_id(rng)}")
        y -= 0.6 * size
    small = max(7, size - 3)
    for k in range(min(3, len(names))):
        y -= small + 2
        put_line(c, f"{k + 1} {INSTITUTES[k]}", regular, small, left, right, y, lay["centred"])
    return y


def _draw_name(c, text: str, font: str, size: float, x: float, y: float, style: str) -> float:
    """A name, in small capitals where the style says so (capitals in the size, the other letters as
    capitals a fifth smaller); the x after it."""
    if style != "small_caps":
        c.setFont(font, size)
        c.drawString(x, y, text)
        return x + c.stringWidth(text, font, size)
    for ch in text:
        small = ch.islower()
        c.setFont(font, 0.78 * size if small else size)
        c.drawString(x, y, ch.upper())
        x += c.stringWidth(ch.upper(), font, 0.78 * size if small else size)
    return x


def _name_width(c, text: str, font: str, size: float, style: str) -> float:
    if style != "small_caps":
        return c.stringWidth(text, font, size)
    return sum(c.stringWidth(ch.upper(), font, 0.78 * size if ch.islower() else size) for ch in text)


def seed_id(rng: random.Random) -> str:
    return str(rng.randint(10000, 99999))


def _history_lines(lay: dict, rng: random.Random) -> list[str]:
    year = lay["year"]
    m_pub = rng.randint(0, 2)
    rec = f"{rng.randint(1, 28)} {MONTHS[rng.randint(8, 11)]} {year - 1}"
    acc = f"{rng.randint(1, 28)} {MONTHS[rng.randint(0, 1)]} {year}"
    pub = f"{rng.randint(1, 28)} {MONTHS[m_pub + 1]} {year}"
    return [f"Received: {rec}", f"Accepted: {acc}", f"Published: {pub}"]


def _history_head(c, lay: dict, left: float, right: float, y: float, rng: random.Random) -> float:
    """A citation line with the year and the history above the title (``lines``, ``one_line``) or down a
    left sidebar (``sidebar``)."""
    regular, _ = lay["family"]
    year = lay["year"]
    c.setFont(regular, 8)
    if lay["history"] == "accepted_only":  # the history alone: received and accepted, no citation line
        day, month, accepted = lay["accepted"]
        c.drawString(left, y + 10, f"Received: {rng.randint(1, 28)} {MONTHS[rng.randint(0, 11)]} {accepted - 1}; "
                                   f"Accepted: {day} {MONTHS[month]} {accepted}")
        return y - 10
    y -= 30  # the history over the title, clear of its tallest glyphs
    c.drawString(left, y + 40, f"Journal of Rural Health Research {year}; {rng.randint(3, 40)}({rng.randint(1, 12)}): "
                               f"{rng.randint(100, 300)}-{rng.randint(301, 400)}")
    hist = _history_lines(lay, rng)
    if lay["history"] == "one_line":
        c.drawString(left, y + 30, "; ".join(hist))
    elif lay["history"] == "lines":
        for k, line in enumerate(hist):
            c.drawString(right - 150, y + 40 - 9 * (k + 1), line)
        y -= 10
    else:
        for k, line in enumerate([*hist, "", f"Copyright: © {year} Berg et al."]):
            c.drawString(12, y - 200 - 9 * k, line)
    return y


def _history_foot(c, lay: dict, left: float, rng: random.Random) -> None:
    c.setFont(lay["family"][0], 7)
    hist = _history_lines(lay, rng)
    c.drawString(left, 60, "; ".join(hist) + ".")
    c.drawString(left, 51, f"© {lay['year']} The Authors. Published by Rural Press. This is an open access article.")
