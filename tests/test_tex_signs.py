"""TeX's math symbol font (cmsy) without a usable character map: pdfium gives some of its signs as the
ASCII character of their code ("hz, xi" for ⟨z, x⟩, "kxk" for ‖x‖).  Read from the font's encoding where
the font is cmsy-like; the same letters in any other font stay letters (issue #38)."""

from __future__ import annotations

import time

from papershelf.ingest.pdf import read_pdf
from papershelf.ingest.pdf.text.tex_signs import read_tex_signs

from .conftest import shared


class _Page:
    """Characters at text positions, each in a named font (as `lines._TextPage` answers)."""

    def __init__(self, fonts: list[str]) -> None:
        self.fonts = fonts

    def char_index(self, text_index: int) -> int:
        return text_index if 0 <= text_index < len(self.fonts) else -1

    def font_name(self, idx: int) -> str:
        return self.fonts[idx]


def test_signs_are_read_only_where_a_cmsy_font_sets_them():
    text = "hz, xiu and hi"
    fonts = ["cmsy10", "cmmi10", "cmr10", "cmr10", "cmmi10", "cmsy10", "cmmi10"] + ["cmr10"] * 7
    assert read_tex_signs(_Page(fonts), text, 0) == "⟨z, x⟩u and hi"
    assert read_tex_signs(_Page(["cmr10"] * len(text)), text, 0) == text  # letters of a text font
    norm = "kxk2 x0"
    assert read_tex_signs(_Page(["cmsy10", "cmmi10", "cmsy10", "cmr7", "cmr10", "cmmi10", "cmsy7"]), norm, 0) \
        == "‖x‖2 x′"


def test_angle_brackets_of_a_real_paper_read_as_brackets():
    doc = read_pdf(shared("pdfs-wide", "arxiv-math-2014-sparse-dimensionality-reduction.pdf").read_bytes())
    text = "\n".join(b.text for b in doc.blocks)
    assert "⟨z, x⟩" in text and "⟨x, y⟩" in text
    assert "hz, xi" not in text and "hx, yi" not in text
    assert "however" in text and "high-dimensional" in text  # words opening with "h" stay words


def test_a_long_line_of_candidates_stays_linear():
    """Every "h" of a 60,000-character line in a cmsy font: positions counted in one pass (a count per
    candidate from the line's start was quadratic: minutes on such a line)."""
    text = "h" * 60_000
    start = time.process_time()
    assert read_tex_signs(_Page(["cmsy10"] * len(text)), text, 0) == "⟨" * len(text)
    assert time.process_time() - start < 2.0


def test_a_sign_after_a_character_outside_the_bmp_is_asked_at_its_utf16_position():
    # "𝑥" takes two UTF-16 units: the "0" after it (a prime) stands at position 2, not 1
    text = "𝑥0 y0"
    fonts = ["cmmi10", "cmmi10", "cmsy10", "cmr10", "cmmi10", "cmr10"]
    assert read_tex_signs(_Page(fonts), text, 0) == "𝑥′ y0"
    assert read_tex_signs(_Page(["cmmi10", "cmr10", "cmsy10"]), "x0", 0) == "x0"
    assert read_tex_signs(_Page(["cmmi10", "cmsy10"]), "x0", 0) == "x′"
