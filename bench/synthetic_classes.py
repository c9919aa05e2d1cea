"""Page 1s of the front-matter classes issue #38 describes and `synthetic_front`'s first set never drew,
with truth by construction, each drawn in varied fonts, sizes, page sizes and positions so that no
one layout is taught:

* ``logo``: a journal's logo (a filled box with the journal's name in it) at the head of the page,
  the title and the names in a second column beside it, the names' column starting high on the page;
* ``interleaved``: each author's name on its own line with its affiliation lines under it, all in
  one style (same font, size and weight), left or centred;
* ``right_sidebar``: a sidebar of labelled fields (editor, reviewers, dates) down the right margin
  beside the title and byline, in a smaller size;
* ``corner_title``: a left sidebar, the title centred in the column right of it and set high on the
  page, so that a short title starts right of the page's middle inside the top margin;
* ``label``: an article-type label above the title in words outside any list ("Resource", "Data
  Descriptor", "Hypothesis and Theory", "Investigación"), in capitals, small, large or in a band;
* ``marks``: bylines whose affiliation marks are set unraised in the names' size ("Berg 1,2"),
  as symbols after a space ("Berg *, Dahl †"), as digits after a comma ("Berg,1,2"), as degrees
  after the names without a comma ("Anna Berg MD, Carl Dahl PhD"), an e-mail address in parentheses
  after each name, the surname first in capitals ("BERG Anna"), or names side by side with raised
  marks and no commas, wrapped over lines;
* any byline may have a badge ("OPEN ACCESS", "Check for updates") at the right end of its first row;
  on half of those pages the badge is drawn *before* the names (as a Crossmark overlay often is), in
  the names' size or smaller, on their baseline or raised, in one line or two ("Check for" over
  "updates"), so that pdfium reads its words into the names' line.

    python bench/synthetic_front.py --set classes --half dev --n 120 [--show]
"""

from __future__ import annotations

import random

from synthetic_draw import FAMILIES, WORDS, abstract_columns, name_rows, put_line, random_name, wrap_words

KINDS = ("logo", "interleaved", "right_sidebar", "corner_title", "label", "marks")
NEW_LABELS = ["Resource", "Data Descriptor", "Hypothesis and Theory", "Investigación original", "Methods",
              "Technical Advance", "Rapid Publication", "Perspective Piece", "Mini-Review", "Clinical Trial",
              "Observational Study", "Primer"]
INSTITUTES = ["Department of Physics, University of Bergen, Norway", "Institute of Neuroscience, Kyoto, Japan",
              "School of Medicine, Universidad de Chile, Santiago", "Max Planck Institute for Biology, Tübingen",
              "Centre for Ecology, Aarhus University, Denmark", "Faculty of Engineering, Cairo University, Egypt",
              "Carnegie Mellon, Pittsburgh, PA 15213", "Johns Hopkins Hospital, Baltimore, MD",
              "Google DeepMind, London, UK", "Santa Cruz, California, USA", "Karolinska Institutet, Solna, Sweden"]
FIELDS = ["ARTICLE INFO", "", "Edited by:", "{e}", "University of Oslo", "", "Reviewed by:", "{r}", "Lund University",
          "", "Received: 2 May 2021", "Accepted: 9 July 2021", "", "Keywords:", "cell biology", "ageing"]


def layout(seed: int) -> tuple[dict, dict]:
    """One page's layout and its truth (title, authors in order)."""
    rng = random.Random(seed)
    kind = KINDS[seed // 2 % len(KINDS)]
    names: list[str] = []
    count = rng.randint(1, 3) if kind == "interleaved" and rng.random() < 0.5 else rng.randint(2, 7)
    while len(names) < count:
        n = random_name(rng)
        if n.split()[-1] not in {m.split()[-1] for m in names}:
            names.append(n)
    n_words = rng.choice([3, 4, 5]) if kind == "corner_title" else rng.choice([4, 6, 9, 12])
    words = rng.sample(WORDS, n_words)
    title = " ".join(w.capitalize() if rng.random() < 0.6 or i == 0 else w for i, w in enumerate(words))
    family = rng.choice(FAMILIES)
    body_family = rng.choice(FAMILIES[:2])
    out = {"kind": kind, "title": title, "names": names, "family": family, "body_family": body_family,
           "title_size": rng.choice([14, 16, 18, 20, 22, 24]), "title_bold": rng.random() < 0.7,
           "name_size": rng.choice([9, 10, 11, 12, 13]), "name_bold": rng.random() < 0.3,
           "body_size": rng.choice([9, 9.5, 10, 11]), "a4": rng.random() < 0.5, "margin": rng.choice([50, 60, 72, 85]),
           "top": rng.choice([50, 62, 75]) if kind in ("logo", "corner_title") else rng.choice([70, 90, 110]),
           "centred": rng.random() < 0.5, "label": rng.choice(NEW_LABELS), "label_style": rng.choice(["caps", "small",
                                                                                                     "large", "band", "same"]),
           "editor": random_name(rng), "reviewer": random_name(rng), "mark_style": rng.choice(["plain", "symbol", "comma", "bare", "degree", "mail", "surname_first"]),
           "badge": rng.random() < 0.3,
           "logo_right": rng.random() < 0.4, "side_size": rng.choice([7, 7.5, 8.5, 9]), "side_colon": rng.random() < 0.6,
           "two_col": rng.random() < 0.4}
    badge_rng = random.Random(seed * 31 + 7)  # its own stream: every other page is drawn as before
    out["badge_first"] = out["badge"] and badge_rng.random() < 0.5
    out["badge_scale"] = badge_rng.choice([1.0, 0.8, 0.6])
    out["badge_rise"] = badge_rng.choice([0.0, 0.0, 0.3, -0.2])
    out["badge_two_rows"] = badge_rng.random() < 0.4
    truth_title = title
    if badge_rng.random() < 0.25:  # the title in capitals, a subtitle under it in roman, smaller
        words = badge_rng.sample(WORDS, badge_rng.choice([5, 7, 10]))
        out["subtitle"] = " ".join([words[0].capitalize(), *words[1:]])
        out["subtitle_scale"] = badge_rng.choice([0.6, 0.7, 0.8])
        out["subtitle_bold"] = badge_rng.random() < 0.3
        truth_title = f"{title.upper()}: {out['subtitle']}"
    if kind == "corner_title":
        out["centred"] = True
        out["logo_right"] = False
    return out, {"title": truth_title, "authors": names}


def draw(layout: dict, path: str, seed: int) -> None:
    lay = layout
    from reportlab.lib.pagesizes import A4, letter
    from reportlab.pdfgen import canvas

    rng = random.Random(seed * 11 + 3)
    w, h = A4 if lay["a4"] else letter
    c = canvas.Canvas(path, pagesize=(w, h))
    left, right = float(lay["margin"]), w - lay["margin"]
    kind = lay["kind"]
    if kind in ("logo", "corner_title"):
        side_w = rng.choice([110, 130, 150])
        if lay["logo_right"]:  # the logo and the journal's details in a column right of the title and names
            _left_column(c, kind, lay, right - side_w, h - lay["top"], side_w, rng)
            right = right - side_w - rng.choice([14, 20, 28])
        else:
            _left_column(c, kind, lay, left, h - lay["top"], side_w, rng)
            left = left + side_w + rng.choice([14, 20, 28])
    if kind == "right_sidebar":
        side_w = rng.choice([100, 120, 140])
        _right_sidebar(c, lay, right - side_w, h - lay["top"], rng)
        right = right - side_w - rng.choice([14, 20])
    y = h - lay["top"]
    if kind == "label":
        y = _label(c, lay, left, right, y)
    y = _title(c, lay, left, right, y)
    y -= rng.choice([8, 12, 18])
    y = _interleaved(c, lay, left, right, y) if kind == "interleaved" else _byline(c, lay, left, right, y, rng)
    abstract_columns(c, lay, left, right, y - 24, bottom=60)
    c.showPage()
    c.save()


def _label(c, lay: dict, left: float, right: float, y: float) -> float:
    regular, bold = lay["family"]
    text, style, ts = lay["label"], lay["label_style"], lay["title_size"]
    if style == "band":  # white capitals on a dark band over the column
        c.setFillGray(0.3)
        c.rect(left, y - 3, right - left, 14, stroke=0, fill=1)
        c.setFillGray(1)
        c.setFont(bold, 9)
        c.drawString(left + 4, y + 1, text.upper())
        c.setFillGray(0)
        return y - 30
    if style == "same":  # in the title's own size and weight, on a row of its own
        c.setFont(bold if lay["title_bold"] else regular, ts)
        c.drawString(left, y, text)
        return y - 1.2 * ts - 6
    size = {"caps": 10, "small": 9, "large": ts + 4}[style]
    c.setFont(bold if style != "small" else regular, size)
    c.drawString(left, y, text.upper() if style == "caps" else text)
    return y - size - 14


def _title(c, lay: dict, left: float, right: float, y: float) -> float:
    """The title's lines; in capitals over a subtitle in roman (or bold) where the page has one."""
    regular, bold = lay["family"]
    font, size = (bold if lay["title_bold"] else regular), lay["title_size"]
    rows = [(line, font, size) for line in wrap_words(lay["title"].split(), font, size, right - left, c)]
    if lay.get("subtitle"):
        font = bold  # a title in capitals is set bold here, its subtitle smaller
        rows = [(line.upper(), font, size) for line in wrap_words(lay["title"].upper().split(), font, size, right - left, c)]
        small = max(round(size * lay["subtitle_scale"]), lay["body_size"] + 2)  # a subtitle is set over the body
        sub_font = bold if lay["subtitle_bold"] else regular
        rows += [(line, sub_font, small) for line in wrap_words(lay["subtitle"].split(), sub_font, small, right - left, c)]
    for line, font, size in rows:
        put_line(c, line, font, size, left, right, y, lay["centred"])
        y -= 1.2 * size
    return y


def _interleaved(c, lay: dict, left: float, right: float, y: float) -> float:
    """Each name on its own line, its affiliation lines under it, all in the names' one style."""
    regular, bold = lay["family"]
    font, size = (bold if lay["name_bold"] else regular), lay["name_size"]
    for k, name in enumerate(lay["names"]):
        put_line(c, name, font, size, left, right, y, lay["centred"])
        y -= 1.25 * size
        for line in INSTITUTES[k % len(INSTITUTES)].split(", ", 1) if k % 2 else [INSTITUTES[k % len(INSTITUTES)]]:
            put_line(c, line, font, size, left, right, y, lay["centred"])
            y -= 1.25 * size
        if k % 3 == 0:
            put_line(c, f"{name.split()[-1].lower()}@univ.edu", font, size, left, right, y, lay["centred"])
            y -= 1.25 * size
        y -= 0.6 * size
    return y


def _byline(c, lay: dict, left: float, right: float, y: float, rng: random.Random) -> float:
    """The names on wrapped lines with their marks (raised, or in the kind ``marks`` set in the names'
    size), then the affiliations in a smaller size."""
    regular, bold = lay["family"]
    font, size = (bold if lay["name_bold"] else regular), lay["name_size"]
    names = lay["names"]
    pieces = []
    for k, name in enumerate(names):
        sep = "" if k == 0 else " and " if k == len(names) - 1 else ", "
        mark = ",".join(sorted({str(rng.randint(1, 3)) for _ in range(rng.randint(1, 2))}))
        if lay["kind"] == "marks":
            style = lay["mark_style"]
            mark = {"plain": f" {mark}", "symbol": " " + "*†‡§"[k % 4], "comma": f",{mark}", "bare": "",
                    "degree": " " + ["MD", "PhD", "MSc", "MD, PhD", "RN"][k % 5], "mail": "",
                    "surname_first": f" {mark}"}[style]
            if style == "mail":  # an e-mail address in parentheses after each name
                mark = f" ({name.split()[-1].lower().replace(' ', '')}@uni.edu)"
            if style == "surname_first":  # the surname first, in capitals ("BERG Anna"), particles aside
                words = name.split()
                if "." not in words[-1] and not any(w.islower() for w in words):
                    name = " ".join([words[-1].upper(), *words[:-1]])
            if style == "bare":  # IEEE-like: names side by side, each with a raised mark, no commas
                pieces.append(((" " if k else "") + name, str(k % 3 + 1)))
                continue
            pieces.append((sep + name + mark, ""))
        else:
            pieces.append((sep + name, mark))
    rows: list[list[tuple[str, str]]] = [[]]
    used = 0.0
    width = rng.choice([0.6, 0.8, 1.0]) * (right - left)
    badge = ""
    with_badge = lay["badge"] and (not lay["centred"] or lay.get("badge_first"))
    if with_badge:  # a badge in the names' size or smaller at the right end of their first row
        badge = rng.choice(["OPEN ACCESS", "Check for updates", "RESEARCH"])
        width = min(width, right - left - c.stringWidth(badge, bold, size) - 24)
    for text, mark in pieces:
        need = c.stringWidth(text, font, size) + c.stringWidth(mark, font, 0.6 * size)
        if used + need > width and rows[-1]:
            rows.append([])
            used = 0.0
            text = text[2:] if text.startswith(", ") else text.lstrip()
        rows[-1].append((text, mark))
        used += need
    first_y = y
    if with_badge and lay.get("badge_first"):  # drawn before the names: pdfium reads it into their line
        _badge(c, lay, badge, bold, size, right, first_y)
    y = name_rows(c, rows, (font, regular, size), left, right, y, lay["centred"])
    if with_badge and not lay.get("badge_first"):  # drawn after the names
        c.setFont(bold, size)
        c.drawRightString(right, first_y, badge)
    c.setFont(regular, max(7, size - 3))
    for k in range(min(3, len(names))):
        y -= size
        put_line(c, f"{k + 1} {INSTITUTES[k]}", regular, max(7, size - 3), left, right, y, lay["centred"])
    return y


def _badge(c, lay: dict, badge: str, font: str, size: float, right: float, y: float) -> None:
    """A badge at the right end of the names' first row, in their size or smaller, raised or not, in
    one line or two ("Check for" over "updates", as Crossmark's)."""
    small = size * lay["badge_scale"]
    y += lay["badge_rise"] * size
    words = badge.split()
    rows = [" ".join(words[:-1]), words[-1]] if lay["badge_two_rows"] and len(words) > 1 else [badge]
    c.setFont(font, small)
    for k, text in enumerate(rows):
        c.drawRightString(right, y - k * 1.1 * small, text)


def _left_column(c, kind: str, lay: dict, x: float, top: float, width: float, rng: random.Random) -> None:
    """A logo (a dark box with the journal's name in white) at the head of a left column, and under it
    (``corner_title``: instead of it) a few small lines of the journal's details."""
    regular, bold = lay["family"]
    y = top
    if kind == "logo":
        c.setFillGray(rng.choice([0.15, 0.35, 0.55]))
        c.rect(x, y - 34, width, 46, stroke=0, fill=1)
        c.setFillGray(1)
        c.setFont(bold, 11)
        c.drawString(x + 6, y - 12, "Annals of Rural")
        c.drawString(x + 6, y - 26, "Health Research")
        c.setFillGray(0)
        y -= 56
    c.setFont(regular, 7)
    for line in ("Vol. 12, No. 3 (2021)", "pp. 211-224", "ISSN 1234-5678", "", "OPEN ACCESS", "",
                 "Correspondence:", f"{lay['names'][0]}", "", "Received 2 May 2021", "Accepted 9 July 2021"):
        c.drawString(x, y, line)
        y -= 9


def _right_sidebar(c, lay: dict, x: float, top: float, rng: random.Random) -> None:
    regular, bold = lay["family"]
    y = top - rng.choice([0, 20, 60])
    size = lay["side_size"]
    for line in FIELDS:
        line = line if lay["side_colon"] else line.rstrip(":")
        c.setFont(bold if line.endswith(":") or line.isupper() else regular, size)
        c.drawString(x, y, line.format(e=lay["editor"], r=lay["reviewer"]))
        y -= 1.3 * size
