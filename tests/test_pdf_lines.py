"""Dealing a cut line's characters to its pieces: `_nearest` is the first box nearest a point
(vertical distance counting twice), the rule the line cutting was written with; `nearest_all`, which
deals them, answers the same for every point at once."""

import random

from papershelf.ingest.pdf.text.script_boxes import _nearest, nearest_all

from .pdf_fixtures import read_drawn


def _reference(bounds, x, y):
    def distance(box):
        return max(box[0] - x, 0.0, x - box[2]) + 2 * max(box[1] - y, 0.0, y - box[3])
    return min(range(len(bounds)), key=lambda k: distance(bounds[k]))


def test_nearest_is_the_first_nearest_box_even_for_overlapping_or_inverted_boxes():
    rnd = random.Random(21)
    points = []
    for _ in range(5000):
        bounds = []
        for _ in range(rnd.randint(1, 5)):
            x0, y0 = rnd.choice([0.0, 10.0, 50.0]) + rnd.random() * 40, rnd.random() * 40
            w, h = rnd.choice([-5.0, 0.0, 20.0, 60.0]), rnd.choice([-2.0, 0.0, 10.0])
            bounds.append((x0, y0, x0 + w, y0 + h))
        if rnd.random() < 0.2:
            bounds.append(bounds[0])  # the same box twice: the first one wins
        x, y = rnd.choice([bounds[0][0], bounds[-1][2], rnd.random() * 120]), rnd.random() * 60
        assert _nearest(bounds, x, y) == _reference(bounds, x, y)
        points.append((bounds, x, y))
    xs = [rnd.choice([0.0, 30.0, rnd.random() * 120]) for _ in range(50)]
    ys = [rnd.choice([0.0, 5.0, rnd.random() * 60]) for _ in range(50)]
    for bounds, x, y in points[:500]:  # every point of a line at once, as `lines._deal` deals them
        assert nearest_all(bounds, xs + [x], ys + [y]) == [_reference(bounds, a, b) for a, b in zip(xs + [x], ys + [y])]
    assert nearest_all([(0.0, 0.0, 1.0, 1.0)], [], []) == []


def test_a_smaller_letter_with_a_descender_on_the_baseline_is_no_subscript(tmp_path):
    """A "g" set a little smaller on the line's own baseline (a scaled or substituted font) reaches
    below the baseline with its descender, and is no subscript; a small letter set lower is one."""
    from reportlab.lib.pagesizes import letter
    from reportlab.pdfgen import canvas


    path = tmp_path / "g.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    y = 700
    for k in range(6):
        t = c.beginText(72, y - 14 * k)
        t.setFont("Times-Roman", 10)
        t.textOut("The speech reco")
        t.setFont("Times-Roman", 8)
        t.textOut("g")
        t.setFont("Times-Roman", 10)
        t.textOut("nition programs read the value of x")
        t.setFont("Times-Roman", 7)
        t.setRise(-3)
        t.textOut("ij")
        t.setRise(0)
        t.setFont("Times-Roman", 10)
        t.textOut(" in every case we tried.")
        c.drawText(t)
    text = " ".join(b.text for b in read_drawn(path, c).blocks)
    assert "recognition programs" in text and "_g" not in text
    assert "x_ij" in text


def test_a_lowered_word_after_a_space_is_no_subscript(tmp_path):
    """A subscript hangs from the glyph before it ("x_ij"); a lowercase word of four letters or more
    set smaller and lower after a space has nothing to hang from (a font pdfium sizes and places
    wrongly) and is read as a word."""
    from reportlab.lib.pagesizes import letter
    from reportlab.pdfgen import canvas


    path = tmp_path / "low.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    for k in range(6):
        t = c.beginText(72, 700 - 14 * k)
        t.setFont("Times-Roman", 10)
        t.textOut("The value of x")
        t.setFont("Times-Roman", 7)
        t.setRise(-3)
        t.textOut("ij")
        t.setRise(0)
        t.setFont("Times-Roman", 10)
        t.textOut(" is what we ")
        t.setFont("Times-Roman", 7)
        t.setRise(-3)
        t.textOut("define")
        t.setRise(0)
        t.setFont("Times-Roman", 10)
        t.textOut(" in every sum ")
        t.setFont("Times-Roman", 7)
        t.setRise(-3)
        t.textOut("ij")
        t.setRise(0)
        t.setFont("Times-Roman", 10)
        t.textOut(" we tried.")
        c.drawText(t)
    text = " ".join(b.text for b in read_drawn(path, c).blocks)
    assert "x_ij" in text
    assert "we define in" in text and "_define" not in text
    assert "sum _ij we" in text  # a limit pdfium sets apart from its operator is still one


def test_a_slipped_character_mapping_is_matched_again_by_the_characters_codes(monkeypatch):
    """pdfium's text may leave out characters it counts (a math font's letters beyond the BMP) while
    its text-to-character mapping goes on as if it did not: every later glyph would take another's
    size and place.  The mapping is rebuilt by matching the text to the characters' codes."""
    from papershelf.ingest.pdf.text import glyphs

    chars = "We let RE1 x be what we define here, and so on for all of the words."
    text = chars.replace("RE1 ", "")  # the text leaves out four characters the page counts

    class Raw:
        @staticmethod
        def FPDFText_GetUnicode(tp, c):  # (pdfium's names)
            return ord(chars[c])

        @staticmethod
        def FPDFText_GetCharIndexFromTextIndex(tp, k):
            return k  # the slipped mapping: as if nothing were left out

    monkeypatch.setattr(glyphs, "raw", Raw)
    index = glyphs._realigned(None, text, len(chars))
    assert index is not None and all(chars[index[k]] == text[k] for k in range(len(text)))
    assert glyphs._realigned(None, chars, len(chars)) is None  # a mapping that holds is kept


def test_a_script_inside_a_word_the_document_prints_joined_is_no_script(tmp_path):
    """A subscript opened inside a word whose scripted part is a lowercase word's rest ("t" + lowered
    "safe") reads as the word the document prints joined elsewhere ("tsafe"): no ``_`` is indexed
    inside it; a script the document never prints joined ("x" + raised "th") stays one."""
    from reportlab.lib.pagesizes import letter
    from reportlab.pdfgen import canvas


    path = tmp_path / "script.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    for k in range(6):
        t = c.beginText(72, 700 - 14 * k)
        t.setFont("Times-Roman", 10)
        t.textOut("A read at t")
        for rise, piece, after in ((-3, "safe", " is safe, and the x"), (4, "thx", " copy waits.")):
            t.setFont("Times-Roman", 7)
            t.setRise(rise)
            t.textOut(piece)
            t.setRise(0)
            t.setFont("Times-Roman", 10)
            t.textOut(after)
        c.drawText(t)
    c.drawString(72, 500, "Each replica tracks tsafe, the maximum timestamp at which it is up to date.")
    text = " ".join(b.text for b in read_drawn(path, c).blocks)
    assert "at tsafe is safe" in text and "t_safe" not in text
    assert "x^thx copy" in text
    assert not any("\ue000" <= ch <= "\uf8ff" for ch in text)
