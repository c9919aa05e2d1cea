"""Page 1s of other decades and other publishers' front matter, with truth by construction (title,
authors in order, the paper's year), in varied fonts, sizes, page sizes and positions:

* ``by_line``: an old journal's byline, "By A. B. SMITH and C. D. JONES" (the names in small capitals,
  sometimes ", F.R.S." after one), centred on a line of its own under the title, or run on after the
  title's last line on a page set in one size ("Physics. - On the … plates. By H. B. G. CASIMIR."; the
  archive's document info gives the title there, as scanned archives do), a "(Communicated …)" line
  under it, the volume's year in the header;
* ``one_size``: a text layer in one size and weight (an OCR'd or typewritten proceedings page): a
  meeting's header in the top right corner, the title centred in one or two lines, the names centred one
  to a line or two to a line, an affiliation line or two, "Abstract" centred, the body;
* ``grid``: the names in a grid of two to four columns, each cell a name over its affiliation and e-mail
  (one or two rows of cells), read row by row;
* ``orcid``: each name followed by an ORCID badge: a drawn green disc without text, "iD" written in the
  disc (raised or on the baseline), or a link box;
* ``long_list``: eight to sixteen names over three or four lines, "&" before the last name, raised marks;
* ``corresponding``: a byline with a star on one or two names, and a "*Corresponding author: Anna Berg"
  line in the names' size right under them, a "*Correspondence: Anna Berg, …" line under the
  affiliations, or a corresponding-author footnote at the page's foot (names in all three);
* ``translated``: a title in Portuguese, Spanish or French with its English translation under it
  (italic, smaller or in the same size); the truth is the first, the paper's own language;
* ``name_forms``: surname first with the initials after it ("Berg, A. K.", "Berg A.K.", "Berg AK"), or
  a name with a particle or suffix ("Maria St. John", "Jan 't Hooft", "Carl Dahl Jr.");
* ``interleaved``: each name on its own line over its affiliation in italic and smaller (one or two
  lines), "and" closing the last but one name sometimes;
* ``reprint``: the volume's year in a header ("Journal … 12 (1987) 101–120", "Journal …, Vol. 12, No. 3,
  March 1987, pp. 101-120"), a history in the years
  before, and a reprint's copyright years later at the foot ("© 2005 … reprinted with permission"); or
  a header and a later "Published online" date of a digitised archive. Truth: the volume's year.

    python bench/synthetic_front.py --set eras --half dev --n 200 [--show]
"""

from __future__ import annotations

import random

from synthetic_draw import random_name, wrap_words
from synthetic_front import BODY, WORDS
from synthetic_layouts import FAMILIES, INSTITUTES, MONTHS

KINDS = ("by_line", "one_size", "grid", "orcid", "long_list", "corresponding", "translated", "reprint", "name_forms",
         "interleaved")
# names with a particle or suffix most bylines never print: "St.", "'t", "Jr.", "ter"
ODD_NAMES = ["Maria St. John", "Jan 't Hooft", "Carl Dahl Jr.", "Eva ter Horst", "Luc Van de Velde", "Ana dos Santos"]
SUBJECTS = ["Physics", "Mathematics", "Chemistry", "Physiology", "Botany"]
TRANSLATED = [("Estudo de coorte em hospitais rurais pequenos", "Cohort study in small rural hospitals"),
              ("Resultados de la arteritis de células gigantes", "Outcomes of giant cell arteritis"),
              ("Rondes de service à l'aube dans les petits hôpitaux", "Ward rounds at dawn in small hospitals"),
              ("Níveis de enfermagem e desfechos em idosos", "Nurse staffing levels and outcomes in older adults"),
              ("Vuelos de larga distancia en adultos mayores", "Long haul flights among older adults")]
MEETING = [("Session 8", "Formalisms for", "Artificial Intelligence"), ("Session 3", "Natural Language", ""),
           ("Proceedings of the Third", "Joint Conference", "on Learning")]


def layout(seed: int) -> tuple[dict, dict]:
    """One page's layout and its truth (title, authors in order, year)."""
    rng = random.Random(seed)
    kind = KINDS[seed // 2 % len(KINDS)]
    names: list[str] = []
    count = {"long_list": rng.randint(8, 16), "grid": rng.randint(2, 8), "by_line": rng.randint(1, 3),
             "one_size": rng.randint(1, 4)}.get(kind, rng.randint(2, 7))
    while len(names) < count:
        n = random_name(rng)
        if kind in ("by_line", "one_size") and "." not in n and rng.random() < 0.5:
            n = f"{n[0]}. {rng.choice('ABGHJKLMPRT')}. {n.split()[-1]}"  # initials, as old journals print them
        if n.split()[-1] not in {m.split()[-1] for m in names}:
            names.append(n)
    words = rng.sample(WORDS, rng.choice([5, 7, 9, 12]))
    while words[-1] in ("a", "at", "of", "in", "with", "and", "after", "among"):  # a title ends on a word of weight
        words.pop()
    title = " ".join(w.capitalize() if rng.random() < 0.5 or i == 0 else w for i, w in enumerate(words))
    year = rng.randint(1935, 1995) if kind in ("by_line", "one_size", "reprint") else rng.randint(1996, 2023)
    out: dict = {"kind": kind, "title": title, "names": names, "family": rng.choice(FAMILIES), "year": year,
                 "title_size": rng.choice([13, 14, 16, 18]), "title_bold": rng.random() < 0.6,
                 "name_size": rng.choice([9, 10, 11]), "name_bold": rng.random() < 0.3,
                 "body_size": rng.choice([9, 10, 11]), "a4": rng.random() < 0.5, "margin": rng.choice([55, 72, 85]),
                 "top": rng.choice([60, 80, 100]), "centred": rng.random() < 0.6,
                 "by_style": rng.choice(["own_line", "own_line", "run_in"]), "frs": rng.random() < 0.3,
                 "per_line": rng.choice([1, 1, 2]), "grid_cols": rng.choice([2, 3, 4]),
                 "orcid": rng.choice(["disc", "id_raised", "id_base"]), "joiner": rng.choice([" & ", " and "]),
                 "corr": rng.choice(["line", "foot"]), "translated": rng.choice(TRANSLATED),
                 "trans_style": rng.choice(["smaller", "same"]), "meeting": rng.choice(MEETING),
                 "reprint": rng.choice(["copyright", "online"]), "subject": rng.choice(SUBJECTS),
                 "year_graded": kind in ("by_line", "reprint")}
    out["by_caps"] = rng.random() < 0.3  # "BY" in capitals too
    out["header"] = rng.choice(["paren", "vol_no"])
    if rng.random() < 0.4:
        out["corr"] = "under"  # "*Corresponding author" in the names' size right under them
    if kind == "name_forms":  # surname first with initials after it ("Berg, A.", "Berg A.", "Berg AB") or odd names
        out["form"] = rng.choice(["comma", "dotted", "vancouver", "odd"])
        if out["form"] == "odd":
            names[rng.randrange(len(names))] = rng.choice(ODD_NAMES)
            names[:] = list(dict.fromkeys(names))
        else:
            names[:] = [_initials_name(n, rng) for n in names]
    if kind == "translated":
        title = out["title"] = out["translated"][0]
    if kind == "one_size":
        out["title_size"] = out["name_size"] = out["body_size"] = 10
        out["title_bold"] = out["name_bold"] = False
    return out, {"title": title, "authors": names, "year": year}


def _initials_name(name: str, rng: random.Random) -> str:
    """The name as initials and surname ("Anna K. Berg" -> "A. K. Berg"), for a byline set surname first."""
    *given, last = name.split()
    initials = [g[0] + "." for g in given if g[0].isupper()]
    return " ".join([*initials, last])


def _printed(lay: dict, name: str) -> str:
    """The name as the byline prints it: surname first with the initials after it, in the page's form."""
    form = lay.get("form")
    if lay["kind"] != "name_forms" or form == "odd":
        return name
    *initials, last = name.split()
    if form == "comma":
        return f"{last}, {' '.join(initials)}"
    if form == "dotted":
        return f"{last} {''.join(initials)}"
    return f"{last} {''.join(i.rstrip('.') for i in initials)}"


def draw(layout: dict, path: str, seed: int) -> None:
    from reportlab.lib.pagesizes import A4, letter
    from reportlab.pdfgen import canvas

    lay = layout
    rng = random.Random(seed * 17 + 3)
    w, h = A4 if lay["a4"] else letter
    c = canvas.Canvas(path, pagesize=(w, h))
    left, right = float(lay["margin"]), w - lay["margin"]
    y = h - lay["top"]
    if lay["kind"] == "by_line" and lay["by_style"] == "run_in":
        c.setTitle(lay["title"])  # a scanned archive's document info names the paper
    if lay["kind"] in ("by_line", "reprint"):
        c.setFont(lay["family"][0], 8)
        vol, first = rng.randint(3, 60), rng.randint(100, 300)
        c.drawString(left, h - 40, f"Journal of Rural Health Research {vol} ({lay['year']}) {first}-{first + 20}"
                     if lay["header"] == "paren" else f"Journal of Rural Health Research, Vol. {vol}, No. "
                     f"{rng.randint(1, 4)}, {MONTHS[rng.randint(0, 11)]} {lay['year']}, pp. {first}-{first + 20}")
        y -= 14
    if lay["kind"] == "one_size":
        _one_size(c, lay, left, right, y, w)
    elif lay["kind"] == "by_line":
        y = _by_line(c, lay, left, right, y, rng)
        _body(c, lay, left, right, y - 20, heading=False)
    else:
        y = _title(c, lay, left, right, y)
        y = _byline(c, lay, left, right, y - rng.choice([8, 14]), rng)
        _body(c, lay, left, right, y - 24)
    if lay["kind"] == "reprint":
        _reprint(c, lay, left, rng)
    c.showPage()
    c.save()


def _put(c, lay: dict, text: str, left: float, right: float, y: float, font: str, size: float) -> None:
    c.setFont(font, size)
    if lay["centred"]:
        c.drawCentredString((left + right) / 2, y, text)
    else:
        c.drawString(left, y, text)


def _title(c, lay: dict, left: float, right: float, y: float) -> float:
    regular, bold = lay["family"]
    font, size = (bold if lay["title_bold"] else regular), lay["title_size"]
    for line in wrap_words(lay["title"].split(), font, size, right - left, c):
        _put(c, lay, line, left, right, y, font, size)
        y -= 1.2 * size
    if lay["kind"] == "translated":
        italic = {"Helvetica": "Helvetica-Oblique", "Times-Roman": "Times-Italic", "Courier": "Courier-Oblique"}[regular]
        tsize = size if lay["trans_style"] == "same" else round(0.75 * size)
        for line in wrap_words(lay["translated"][1].split(), italic, tsize, right - left, c):
            _put(c, lay, line, left, right, y - 2, italic, tsize)
            y -= 1.2 * tsize
    return y


def _small_caps(c, text: str, font: str, size: float, x: float, y: float, draw: bool = True) -> float:
    """Text in small capitals (the capitals in the size, the other letters as capitals 0.78 of it); the
    x after it."""
    for ch in text:
        s = 0.78 * size if ch.islower() else size
        if draw:
            c.setFont(font, s)
            c.drawString(x, y, ch.upper())
        x += c.stringWidth(ch.upper(), font, s)
    return x


def _by_pieces(lay: dict) -> list[tuple[str, bool]]:
    """The byline as (text, in small capitals) pieces: "By", the names' initials in capitals, surnames in
    small capitals, ", F.R.S." after the first sometimes, "and" between the last two."""
    out: list[tuple[str, bool]] = [("By ", lay["by_caps"])]
    names = lay["names"]
    for k, name in enumerate(names):
        if k:
            out.append((" and " if k == len(names) - 1 else ", ", False))
        out.append((name, True))
        if k == 0 and lay["frs"]:
            out.append((", F.R.S.", False))
    out.append((".", False))
    return out


def _by_line(c, lay: dict, left: float, right: float, y: float, rng: random.Random) -> float:
    regular, bold = lay["family"]
    size = lay["body_size"]
    pieces = _by_pieces(lay)
    if lay["by_style"] == "run_in":  # all in the body's size: "Subject. - Title ... By NAMES."
        head = f"{lay['subject']}. - {lay['title']}."
        lines = wrap_words(head.split(), regular, size, right - left, c)
        for line in lines[:-1]:
            c.setFont(regular, size)
            c.drawString(left, y, line)
            y -= 1.25 * size
        c.setFont(regular, size)
        c.drawString(left + 2 * size, y, lines[-1])
        x = left + 2 * size + c.stringWidth(lines[-1] + " ", regular, size)
        if x + sum(_small_caps(c, t, regular, size, 0, 0, False) if caps else c.stringWidth(t, regular, size)
                   for t, caps in pieces) > right:  # no room left: the byline opens the next line
            x, y = left, y - 1.25 * size
    else:
        y = _title(c, lay, left, right, y) - 6
        width = sum(_small_caps(c, t, regular, size, 0, 0, False) if caps else c.stringWidth(t, regular, size)
                    for t, caps in pieces)
        x = (left + right - width) / 2
    for text, caps in pieces:
        if caps:
            x = _small_caps(c, text, regular, size, x, y)
        else:
            c.setFont(regular, size)
            c.drawString(x, y, text)
            x += c.stringWidth(text, regular, size)
    y -= 1.8 * size
    c.setFont(regular, size - 1.5)
    c.drawCentredString((left + right) / 2, y, f"(Communicated at the meeting of {MONTHS[rng.randint(0, 11)]} "
                                              f"{rng.randint(1, 28)}, {lay['year']}.)")
    return y - 6


def _one_size(c, lay: dict, left: float, right: float, y: float, w: float) -> None:
    """Every line in one size and weight: a corner header, the title and names centred, "Abstract"."""
    font = lay["family"][0]
    size = 10
    mid = (left + right) / 2
    c.setFont(font, size)
    for k, text in enumerate(t for t in lay["meeting"] if t):  # the meeting's header in the top right corner
        c.drawString(right - 110, c._pagesize[1] - 36 - 11 * k, text)
    y = min(y, c._pagesize[1] - 90)
    for line in wrap_words(lay["title"].split(), font, size, 0.55 * (right - left), c):
        c.drawCentredString(mid, y, line)
        y -= 11
    names = lay["names"]
    per = lay["per_line"]
    for k in range(0, len(names), per):
        c.drawCentredString(mid, y, " and ".join(names[k:k + per]))
        y -= 11
    if lay["centred"]:  # an affiliation under the names, in the same size
        c.drawCentredString(mid, y, "Massachusetts Institute of Technology")
        c.drawCentredString(mid, y - 11, "Cambridge, Massachusetts")
        y -= 22
    y -= 4
    c.drawCentredString(mid, y, "Abstract")
    for k, line in enumerate(wrap_words((BODY * 8).split(), font, size, right - left, c)[:45]):
        if y - 12 - 11 * k < 60:
            break
        c.drawString(left, y - 12 - 11 * k, line)


def _byline(c, lay: dict, left: float, right: float, y: float, rng: random.Random) -> float:
    kind = lay["kind"]
    if kind == "grid":
        return _grid(c, lay, left, right, y)
    if kind == "interleaved":
        return _interleaved(c, lay, left, right, y)
    regular, bold = lay["family"]
    font, size = (bold if lay["name_bold"] else regular), lay["name_size"]
    names = lay["names"]
    rows: list[list[tuple[str, str]]] = [[]]
    used = 0.0
    width = (0.9 if kind == "long_list" else rng.choice([0.6, 0.9])) * (right - left)
    for k, name in enumerate(names):
        sep = "" if k == 0 else (lay["joiner"] if kind == "long_list" else " and ") if k == len(names) - 1 else ", "
        mark = str(rng.randint(1, 3)) + ("*" if kind == "corresponding" and k in (0, len(names) - 1) else "")
        need = c.stringWidth(sep + _printed(lay, name), font, size) + 2.2 * size
        if used + need > width and rows[-1]:
            rows.append([])
            used = 0.0
            sep = sep.lstrip(", ") if sep == ", " else sep.lstrip()
        rows[-1].append((sep + _printed(lay, name), mark))
        used += need
    for row in rows:
        total = sum(c.stringWidth(t, font, size) + 2.2 * size for t, _ in row)
        x = (left + right - total) / 2 if lay["centred"] else left
        for text, mark in row:
            c.setFont(font, size)
            c.drawString(x, y, text)
            x += c.stringWidth(text, font, size)
            c.setFont(regular, 0.6 * size)
            c.drawString(x, y + 0.38 * size, mark)
            x += c.stringWidth(mark, regular, 0.6 * size) + 1
            if kind == "orcid":
                x = _orcid(c, lay, x, y, size)
        y -= 1.35 * size
    if kind == "corresponding" and lay["corr"] == "under":  # in the names' size right under them
        _put(c, lay, f"*Corresponding author: {names[0]} ({names[0].split()[-1].lower()}@lu.se)", left, right, y,
             font, size)
        y -= 1.35 * size
    small = max(7, size - 2)
    for k in range(min(3, len(names))):
        y -= small + 2
        _put(c, lay, f"{k + 1} {INSTITUTES[k]}", left, right, y, regular, small)
    if kind == "corresponding":
        first = names[0]
        mail = f"{first.split()[-1].lower()}@lu.se"
        text = f"*Correspondence: {first}, {INSTITUTES[0]}; e-mail: {mail}"
        if lay["corr"] == "line":
            y -= small + 6
            _put(c, lay, text[:95], left, right, y, regular, small)
        elif lay["corr"] == "foot":
            c.setFont(regular, 7)
            c.drawString(left, 52, f"* Corresponding author: {first} ({mail}); {names[-1]} ({INSTITUTES[1]}).")
            c.drawString(left, 43, f"† {first} and {names[-1]} contributed equally to this work.")
    return y


def _orcid(c, lay: dict, x: float, y: float, size: float) -> float:
    """An ORCID badge after a name: a green disc, with "iD" in it or not; the x after it."""
    r = 0.32 * size
    cx, cy = x + r + 1, y + (0.55 * size if lay["orcid"] == "id_raised" else 0.35 * size)
    c.setFillColorRGB(0.65, 0.8, 0.22)
    c.circle(cx, cy, r, stroke=0, fill=1)
    c.setFillColorRGB(1, 1, 1)
    if lay["orcid"] != "disc":
        c.setFont("Helvetica-Bold", 0.4 * size)
        c.drawCentredString(cx, cy - 0.14 * size, "iD")
    c.setFillColorRGB(0, 0, 0)
    return cx + r + 2


def _interleaved(c, lay: dict, left: float, right: float, y: float) -> float:
    """Each name (bold or not) on its line, its affiliation under it in italic and smaller, one or two lines."""
    regular, bold = lay["family"]
    italic = {"Helvetica": "Helvetica-Oblique", "Times-Roman": "Times-Italic", "Courier": "Courier-Oblique"}[regular]
    size = lay["name_size"]
    for k, name in enumerate(lay["names"]):
        _put(c, lay, name + (" and" if k == len(lay["names"]) - 2 and lay["frs"] else ""), left, right, y,
             bold if lay["name_bold"] else regular, size)
        y -= 1.25 * size
        dept, *place = INSTITUTES[k % 4].split(", ")
        for text in [dept, ", ".join(place)][:1 + (k % 2)]:
            _put(c, lay, text, left, right, y, italic, size - 1.5)
            y -= 1.2 * size
        y -= 0.4 * size
    return y


def _grid(c, lay: dict, left: float, right: float, y: float) -> float:
    """Names in a grid: columns of cells, each a name over its affiliation and e-mail."""
    regular, bold = lay["family"]
    font, size = (bold if lay["name_bold"] else regular), lay["name_size"]
    names = lay["names"]
    widest = max(c.stringWidth(n, font, size) for n in names) + 2 * size  # cells apart, as printed
    cols = max(1, min(lay["grid_cols"], int((right - left) // widest)))
    step = (right - left) / cols
    for r in range(0, len(names), cols):
        row = names[r:r + cols]
        for k, name in enumerate(row):
            mid = left + step * (k + 0.5)
            lines = [(name, font, size), (INSTITUTES[(r + k) % 4].split(",")[1].strip(), regular, size - 1),
                     (INSTITUTES[(r + k) % 4].split(",")[-1].strip(), regular, size - 1),
                     (f"{name.split()[-1].lower()}@uni.edu", "Courier", size - 1)]
            for j, (text, f, s) in enumerate(lines):
                c.setFont(f, s)
                c.drawCentredString(mid, y - 1.25 * size * j, text)
        y -= 1.25 * size * 4 + 10
    return y


def _reprint(c, lay: dict, left: float, rng: random.Random) -> None:
    c.setFont(lay["family"][0], 7)
    year = lay["year"]
    c.drawString(left, 62, f"Received {rng.randint(1, 28)} {MONTHS[rng.randint(0, 11)]} {year - 1}; "
                           f"accepted {rng.randint(1, 28)} {MONTHS[rng.randint(0, 5)]} {year}")
    later = year + rng.randint(8, 25)
    if lay["reprint"] == "copyright":
        c.drawString(left, 53, f"© {later} Rural Press. Reprinted with permission from the original edition.")
    else:
        c.drawString(left, 53, f"Published online {rng.randint(1, 28)} {MONTHS[rng.randint(0, 11)]} {later} "
                               f"in the digital archive.")


def _body(c, lay: dict, left: float, right: float, y: float, heading: bool = True) -> None:
    regular, bold = lay["family"]
    size = lay["body_size"]
    if heading:
        c.setFont(bold, size + 1)
        c.drawString(left, y, "Abstract")
        y -= 16
    for k, line in enumerate(wrap_words((BODY * 10).split(), regular, size, right - left, c)[:45]):
        if y - 1.2 * size * k < 75:
            break
        c.setFont(regular, size)
        c.drawString(left, y - 1.2 * size * k, line)
