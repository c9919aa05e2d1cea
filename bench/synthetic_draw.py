"""What the synthetic front pages share (bench/synthetic_front.py, synthetic_classes.py,
synthetic_layouts.py): names, words and fonts to draw from, and the drawing of bylines, wrapped lines
and an abstract.  Drawn with reportlab's canvas `c`."""

from __future__ import annotations

import random

FIRST = ["Anna", "Carl", "Eva", "Gustav", "Ida", "Karl", "Mona", "Olle", "Petra", "Rui", "Sana", "Tomás", "Uma",
         "Wei", "Yusuf", "Zofia", "Jean-Pierre", "Hae-Won", "María", "Jörg", "Li", "Nikos", "Aiko", "Kwame"]
LAST = ["Berg", "Dahl", "Fors", "Holm", "Juhl", "Lind", "Nord", "Pihl", "Ruiz-López", "Okafor", "Nakamura",
        "Kowalski", "Schönberg", "Haddad", "Gupta", "Chen", "O'Neil", "McAllister", "Papadopoulos", "Silva"]
PARTICLE = ["van der", "de", "da", "von"]
FAMILIES = [("Helvetica", "Helvetica-Bold"), ("Times-Roman", "Times-Bold"), ("Courier", "Courier-Bold")]
WORDS = ("ward rounds at dawn and dusk in small rural hospitals with nurse staffing levels outcomes of giant "
         "cell arteritis after long haul flights among older adults a randomized trial cohort study").split()
BODY = ("The cells were grown in medium for three days before the assay was run, and the counts were taken by two "
        "observers who did not know the group of each dish. We report the method and the results here in full. ")


def random_name(rng: random.Random) -> str:
    first = rng.choice(FIRST)
    style = rng.random()
    if style < 0.2:
        first = f"{first[0]}."
    elif style < 0.4:
        first = f"{first} {rng.choice('ABCDEFGHJKLMNPRST')}."
    last = rng.choice(LAST)
    if rng.random() < 0.08:
        last = f"{rng.choice(PARTICLE)} {last}"
    return f"{first} {last}"


def name_rows(c, rows: list[list[tuple[str, str]]], fonts: tuple[str, str, float], left: float, right: float,
              y: float, centred: bool) -> float:
    """Draw byline rows of (name, raised mark) pieces, each row centred or flush left; the y under them."""
    font, mark_font, size = fonts
    for row in rows:
        total = sum(c.stringWidth(t, font, size) + c.stringWidth(m, font, 0.6 * size) for t, m in row)
        x = (left + right - total) / 2 if centred else left
        for text, mark in row:
            c.setFont(font, size)
            c.drawString(x, y, text)
            x += c.stringWidth(text, font, size)
            if mark:
                c.setFont(mark_font, 0.6 * size)
                c.drawString(x, y + 0.35 * size, mark)
                x += c.stringWidth(mark, mark_font, 0.6 * size)
        y -= 1.35 * size
    return y


def wrap_words(words: list[str], font: str, size: float, width: float, c) -> list[str]:
    lines = [""]
    for word in words:
        trial = f"{lines[-1]} {word}".strip()
        if c.stringWidth(trial, font, size) > width and lines[-1]:
            lines.append(word)
        else:
            lines[-1] = trial
    return lines


def put_line(c, text: str, font: str, size: float, left: float, right: float, y: float, centred: bool) -> None:
    c.setFont(font, size)
    if centred:
        c.drawCentredString((left + right) / 2, y, text)
    else:
        c.drawString(left, y, text)


def abstract_columns(c, lay: dict, left: float, right: float, y: float, bottom: float) -> None:
    """"Abstract" in bold at `y`, then BODY in the body family under it, in one column or two
    (lay["two_col"]), each column stopping above `bottom` (the synthetic_classes and _layouts pages)."""
    regular, bold = lay["body_family"]
    size = lay["body_size"]
    c.setFont(bold, size + 1)
    c.drawString(left, y, "Abstract")
    cols = [(left, right)]
    if lay["two_col"]:
        mid = (left + right) / 2
        cols = [(left, mid - 9), (mid + 9, right)]
    for x0, x1 in cols:
        for k, line in enumerate(wrap_words((BODY * 10).split(), regular, size, x1 - x0, c)[:40]):
            if y - 16 - 1.2 * size * k < bottom:
                break
            c.setFont(regular, size)
            c.drawString(x0, y - 16 - 1.2 * size * k, line)
