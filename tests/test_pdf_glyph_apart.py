"""Symbols a font sets at ASCII letters' codes (or control codes), read from the glyph's drawing where
it stands apart in a text object of its own; a text font's letters never change."""

from papershelf.ingest import SourceFile, parse_source
from papershelf.ingest.pdf.reader import read_pdf

from .conftest import shared

# A Type 3 font (no ToUnicode map: its glyph names give the text) that draws "/" at "y", "|" at "u",
# "=" at "5" and an en dash at the control code 4, as PNAS's MathematicalPi fonts do (glyph space 1000
# to the em).
_PROCS = {
    "y": "500 0 d0 80 -180 m 180 -180 l 470 720 l 370 720 l f",  # a slash through the baseline
    "u": "300 0 d0 120 -200 m 180 -200 l 180 760 l 120 760 l f",  # a bar
    "five": "600 0 d0 60 140 m 540 140 l 540 200 l 60 200 l f 60 300 m 540 300 l 540 360 l 60 360 l f",
    "g4": "500 0 d0 0 230 m 500 230 l 500 280 l 0 280 l f",  # an en dash
}
_CODES = {"y": 121, "u": 117, "five": 53, "g4": 4}


def _pdf(content: str) -> bytes:
    """A one-page PDF showing `content` with Helvetica as /F1 and the Type 3 font as /F2."""
    names = sorted(_PROCS, key=_CODES.__getitem__)
    first, last = _CODES[names[0]], _CODES[names[-1]]
    width = {_CODES[n]: _PROCS[n].split()[0] for n in names}
    widths = " ".join(width.get(c, "0") for c in range(first, last + 1))
    diffs = " ".join(f"{_CODES[n]} /{n}" for n in names)
    procs = " ".join(f"/{n} {7 + k} 0 R" for k, n in enumerate(names))
    objects = [
        "<< /Type /Catalog /Pages 2 0 R >>",
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R"
        " /Resources << /Font << /F1 5 0 R /F2 6 0 R >> >> >>",
        None,  # the content stream
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
        f"<< /Type /Font /Subtype /Type3 /FontBBox [0 -250 1000 800] /FontMatrix [0.001 0 0 0.001 0 0]"
        f" /CharProcs << {procs} >> /Encoding << /Type /Encoding /Differences [{diffs}] >>"
        f" /FirstChar {first} /LastChar {last} /Widths [{widths}] >>",
        *[None for _ in names],
    ]
    streams = {4: content, **{7 + k: _PROCS[n] for k, n in enumerate(names)}}
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for k, obj in enumerate(objects, start=1):
        offsets.append(len(out))
        if k in streams:
            data = streams[k].encode("latin-1")
            out += f"{k} 0 obj\n<< /Length {len(data)} >>\nstream\n".encode() + data + b"\nendstream\nendobj\n"
        else:
            out += f"{k} 0 obj\n{obj}\nendobj\n".encode()
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += "".join(f"{o:010d} 00000 n \n" for o in offsets).encode()
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    return bytes(out)


def _line(y: int, *runs: tuple[str, str]) -> str:
    """One line at height `y`, each run (font, text) shown by its own operator: a text object each."""
    shows = " ".join(f"/{font} 10 Tf ({text}) Tj" for font, text in runs)
    return f"BT 72 {y} Td {shows} ET\n"


def _text(content: str) -> str:
    return "\n".join(b.text for b in read_pdf(_pdf(content)).blocks)


def test_a_symbol_fonts_glyphs_at_ascii_codes_are_read_from_their_drawing():
    content = _line(700, ("F1", "Proc. Natl. Acad. Sci. USA, 10.1073"), ("F2", "y"), ("F1", "pnas.150116497"))
    content += _line(686, ("F1", "PNAS "), ("F2", "u"), ("F1", " August 1, 2000 "), ("F2", "u"), ("F1", " vol. 97"))
    content += _line(672, ("F1", "the cell dimensions are a "), ("F2", "5"), ("F1", " 123.2, pages 823"),
                     ("F2", "\\004"), ("F1", "824 of the volume"))
    text = _text(content)
    assert "10.1073/pnas.150116497" in text
    assert "PNAS | August 1, 2000 | vol. 97" in text
    assert "a = 123.2" in text
    assert any(f"823{dash}824" in text for dash in "–−—")


def test_a_text_fonts_letters_standing_apart_stay():
    content = _line(700, ("F1", "the letters "), ("F1", "y"), ("F1", " and "), ("F1", "u"), ("F1", " and "),
                    ("F1", "5"), ("F1", " each set alone"))
    content += _line(686, ("F1", "and "), ("F1", "x"), ("F1", " or "), ("F1", "l"), ("F1", " or "), ("F1", "o"),
                     ("F1", " too, in a line of text"))
    text = _text(content)
    assert "the letters y and u and 5 each set alone" in text
    assert "and x or l or o too" in text


def test_pnas_prints_its_doi_with_a_slash():
    data = shared("pdfs-wide", "pnas-2000-vana-ligase.pdf").read_bytes()
    doc = parse_source(SourceFile("pnas.pdf", data, ""))
    text = " ".join(b.text for b in doc.blocks)
    assert "10.1073/pnas.150116497" in text and "10.1073ypnas" not in text
    assert "≈40% identity" in text and "PNAS | August 1, 2000 | vol. 97" in text
    assert doc.doi == "10.1073/pnas.150116497"  # the metadata reader sees the slash too


def test_ijsem_primes_and_units_read_from_their_drawing():
    data = shared("pdfs-wide", "ijsem-2013-sulfurimonas-gotlandica.pdf").read_bytes()
    text = " ".join(b.text for b in read_pdf(data).blocks)
    assert "4′,6′-diamidino" in text and "49,69-diamidino" not in text
    assert "(mean=0.66 µm, SD=0.083 µm, n=112)" in text and "at 15 °C" in text


def test_a_symbol_fonts_minus_at_a_control_code_is_kept():
    data = shared("pdfs-wide", "wiley-zaac-2008-imidazolyliden-de.pdf").read_bytes()
    text = " ".join(b.text for b in read_pdf(data).blocks)
    assert "823−824" in text and "823824" not in text and "−75 °C" in text
