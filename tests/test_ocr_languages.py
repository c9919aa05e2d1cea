"""OCR languages chosen per page when none are named (ingest/pdf/scan/ocr_langs.py): a Latin scan is read in
English alone, a Chinese or Japanese scan keeps its CJK read.  Real Tesseract on scans made here
(pages drawn with reportlab, rendered to images at 200 dpi: tests/test_ocr.py's `scan`)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from reportlab.lib.pagesizes import letter
from reportlab.pdfgen import canvas

from papershelf.ingest.pdf import read_pdf
from papershelf.ingest.pdf.scan import ocr, ocr_langs

from .test_ocr import FINDING, _paper, scan

FONTS = [Path("/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf"),
         Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")]
CJK_FONT = next((f for f in FONTS if f.is_file()), None)
ZH = ["干旱是限制水稻产量的主要非生物胁迫之一。本研究利用转录组测序比较了耐旱品种与敏感",
      "品种在干旱处理后的基因表达差异，鉴定出一批响应干旱的候选基因，并在两年的田间试验",
      "中验证了其中三个基因的作用。水稻是亚洲最重要的粮食作物，其生产高度依赖灌溉。"]
JA = ["本研究では、健康な大学生四十名を対象に、単語対の学習後の睡眠中に脳波を測定し、",
      "翌朝の再生成績との関係を調べた。睡眠紡錘波の密度が高い参加者ほど記憶の保持率が",
      "高かった。睡眠は学習した内容を長期記憶として定着させる過程に関わると考えられている。"]


def _installed() -> set[str]:
    if shutil.which("tesseract") is None:
        return set()
    out = subprocess.run(["tesseract", "--list-langs"], capture_output=True, text=True).stdout
    return {line.strip() for line in out.splitlines()[1:]}


LANGS = _installed()
pytestmark = pytest.mark.skipif(not {"eng", "chi_sim", "jpn", "osd"} <= LANGS,
                                reason="needs Tesseract with eng, chi_sim, jpn and osd (.ci/run installs them)")


def _cjk_scan(path: Path, lines: list[str], pages: int = 2) -> bytes:
    """An image-only PDF of `pages` pages of CJK print (a scan)."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    pdfmetrics.registerFont(TTFont("CJK", str(CJK_FONT)))
    c = canvas.Canvas(str(path), pagesize=letter)
    for _ in range(pages):
        c.setFont("CJK", 12)
        for i, line in enumerate(lines):
            c.drawString(60, 720 - 20 * i, line)
        c.showPage()
    c.save()
    return scan(path.read_bytes())


def _text(data: bytes, languages: str | None) -> tuple[str, dict[int, str]]:
    with ocr.settings(ocr.OcrSettings(languages=languages)):
        doc = read_pdf(data)
    return "".join(b.text for b in doc.blocks).replace(" ", ""), doc.ocr_pages


def test_a_latin_scan_is_read_once_in_english_alone(tmp_path, monkeypatch):
    import pytesseract

    calls: list[str] = []
    real = pytesseract.image_to_pdf_or_hocr

    def counted(*args, **kwargs):
        calls.append(kwargs.get("lang", ""))
        return real(*args, **kwargs)

    monkeypatch.setattr(pytesseract, "image_to_pdf_or_hocr", counted)
    text, pages = _text(scan(_paper(tmp_path / "coral.pdf")), None)
    assert " ".join(FINDING.split()[:6]).replace(" ", "") in text
    assert calls == ["eng"], calls  # on main: one read in eng+chi_sim+jpn
    assert all(label.endswith("(eng)") for label in pages.values()), pages


@pytest.mark.skipif(CJK_FONT is None, reason="no CJK font to draw the scans with (fonts-droid-fallback)")
@pytest.mark.parametrize("lines", [ZH, JA], ids=["chinese", "japanese"])
def test_a_cjk_scan_keeps_its_cjk_read(tmp_path, lines):
    data = _cjk_scan(tmp_path / "cjk.pdf", lines)
    chosen, pages = _text(data, None)
    every, _ = _text(data, "+".join(lang for lang in ocr_langs.KNOWN if lang in LANGS))
    assert chosen == every  # the same read as with every language named
    assert "記憶の保持率が高かった" in chosen or "鉴定出一批响应干旱" in chosen, chosen[:200]
    assert set(pages) == {1, 2} and all("chi_sim" in label and "jpn" in label for label in pages.values()), pages


def test_named_languages_are_used_as_given():
    plan = ocr_langs.plan({"eng", "chi_sim", "jpn", "osd"}, "eng+jpn")
    assert (plan.first, plan.full) == ("eng+jpn", "eng+jpn")
    auto = ocr_langs.plan({"eng", "chi_sim", "jpn", "osd"}, None)
    assert (auto.first, auto.full) == ("eng", "eng+chi_sim+jpn")
    assert ocr_langs.plan({"chi_sim", "osd"}, None).first == "chi_sim"  # no Latin language installed


def test_osd_unsure_of_the_script_counts_as_cjk():
    latin = ocr_langs.parse_osd("Page number: 0\nOrientation in degrees: 0\nRotate: 0\n"
                                "Orientation confidence: 27.04\nScript: Latin\nScript confidence: 5.28\n")
    assert (latin.turn, latin.script, latin.may_be_cjk()) == (0, "Latin", False)
    assert ocr_langs.parse_osd("Rotate: 180\nScript: Latin\nScript confidence: 0.4\n").may_be_cjk()
    assert ocr_langs.parse_osd("Rotate: 0\nScript: Han\nScript confidence: 0.68\n").may_be_cjk()
    assert ocr_langs.parse_osd("").may_be_cjk()
