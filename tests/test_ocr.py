"""Scanned PDFs read through Tesseract OCR (issue 26), with real scans the tests make themselves:
reportlab pages rendered to 200-dpi images and put back into a PDF that holds only the images."""

from __future__ import annotations

import io
import json
import shutil

import pypdfium2 as pdfium
import pytest

from papershelf import Library, SearchOptions
from papershelf.errors import IngestError
from papershelf.ingest.pdf import read_pdf
from papershelf.ingest.pdf.scan import ocr

from .pdf_fixtures import Writer, two_column_paper

pytestmark = pytest.mark.skipif(shutil.which("tesseract") is None, reason="Tesseract is not installed "
                                "(.ci/run installs tesseract-ocr)")

FINDING = ("Bleached colonies recovered their symbionts within nine weeks when the water cooled below "
           "twenty eight degrees, while colonies kept warm lost most of their tissue.")


def scan(pdf_bytes: bytes, dpi: int = 200, pages: list[int] | None = None) -> bytes:
    """The PDF's pages as a scanner gives them: grayscale images, no text layer."""
    pdf = pdfium.PdfDocument(pdf_bytes)
    images = [pdf[i].render(scale=dpi / 72, grayscale=True).to_pil() for i in (pages or range(len(pdf)))]
    buf = io.BytesIO()
    images[0].save(buf, "PDF", resolution=dpi, save_all=True, append_images=images[1:])
    return buf.getvalue()


def _paper(path) -> bytes:
    w = Writer(str(path))
    w.title("Thermal Recovery of Reef Corals", "Ana Lima and Joe Park")
    w.heading("1 Introduction")
    w.paragraph("Reef corals expel their algal symbionts when the sea warms, and whether a colony survives "
                "depends on how long the heat lasts and on how quickly the water cools again afterwards.")
    w.heading("2 Results")
    w.paragraph(FINDING)
    w.caption("Figure 1. Symbiont density in bleached colonies over twelve weeks of recovery.")
    w.save()
    return path.read_bytes()


@pytest.fixture(scope="module")
def scanned(tmp_path_factory):
    root = tmp_path_factory.mktemp("scans")
    digital = _paper(root / "digital.pdf")
    (root / "papers").mkdir()
    (root / "papers" / "coral-scan.pdf").write_bytes(scan(digital))
    return root


def test_a_scanned_paper_is_read_through_ocr(scanned):
    with Library(str(scanned / "lib.db")) as lib:
        seen: list[tuple[int, int]] = []
        report = lib.add([str(scanned / "papers")], ocr=ocr.OcrSettings(languages="eng",
                                                                         progress=lambda d, n: seen.append((d, n))))
        assert report.count("added") == 1, [f.reason for f in report.failed]
        assert seen and seen[-1][0] == seen[-1][1] == len(seen)  # every OCR'd page reported, in order
        hit = lib.search("symbionts within nine weeks when the water cooled", SearchOptions(mode="lexical")).results[0]
        assert hit.ocr_engine and hit.ocr_engine.startswith("tesseract ") and "(eng)" in hit.ocr_engine
        assert hit.to_dict()["ocr"] is True
        assert hit.section_path == "2 Results"  # the layout pipeline found the heading in the OCR'd lines
        figure = lib.search("symbiont density bleached colonies", SearchOptions(mode="lexical")).results
        assert any(h.object_label == "Figure 1" for h in figure)
        view = lib.show(hit.paper_id)
        assert view.paper.title == "Thermal Recovery of Reef Corals"


def test_only_the_scanned_page_of_a_digital_pdf_is_ocrd(tmp_path):
    digital = tmp_path / "two.pdf"
    two_column_paper(str(digital))
    data = digital.read_bytes()
    mixed = pdfium.PdfDocument(data)
    scanned_page = pdfium.PdfDocument(scan(_paper(tmp_path / "coral.pdf"), pages=[0]))
    mixed.import_pages(scanned_page)
    buf = io.BytesIO()
    mixed.save(buf)
    with ocr.settings(ocr.OcrSettings(languages="eng")):
        doc = read_pdf(buf.getvalue())
    n = len(mixed)
    assert doc.ocr_pages and set(doc.ocr_pages) == {n}  # only the last page, the scan
    assert any("nine weeks" in b.text for b in doc.blocks if b.page == n)
    with ocr.settings(ocr.OcrSettings(mode="never")):
        assert not read_pdf(buf.getvalue()).ocr_pages


def test_ocr_never_and_a_missing_tesseract_give_the_needs_ocr_line(scanned, monkeypatch):
    data = (scanned / "papers" / "coral-scan.pdf").read_bytes()
    with ocr.settings(ocr.OcrSettings(mode="never")), pytest.raises(IngestError, match="no text layer: needs OCR"):
        read_pdf(data)
    import pytesseract

    monkeypatch.setattr(pytesseract.pytesseract, "tesseract_cmd", "/nonexistent/tesseract")
    with pytest.raises(IngestError, match=r"needs OCR \(install Tesseract .*apt install tesseract-ocr"):
        read_pdf(data)


def test_a_scan_that_failed_without_ocr_is_read_once_ocr_can_run(scanned, tmp_path):
    with Library(str(tmp_path / "lib.db")) as lib:
        first = lib.add([str(scanned / "papers")], ocr=ocr.OcrSettings(mode="never"))
        assert "needs OCR" in first.failed[0].reason
        again = lib.add([str(scanned / "papers")], ocr=ocr.OcrSettings(languages="eng"))
        assert again.count("added") == 1  # no --retry-failed needed: OCR is what it lacked


def test_cli_ocr_flag(scanned, tmp_path, capsys):
    from typer.testing import CliRunner

    from papershelf.frontends.cli import app

    runner = CliRunner()
    bad = runner.invoke(app, ["--library", str(tmp_path / "l.db"), "add", str(scanned / "papers"), "--ocr", "maybe"])
    assert bad.exit_code == 2 and "--ocr must be one of auto, always, never" in bad.output
    assert "Traceback" not in bad.output
    never = runner.invoke(app, ["--library", str(tmp_path / "l.db"), "add", str(scanned / "papers"), "--ocr", "never",
                                "--json"])
    assert never.exit_code == 1
    assert "needs OCR" in json.loads(never.stdout)["files"][0]["reason"]


def test_unknown_ocr_language_is_one_clear_line(scanned):
    with ocr.settings(ocr.OcrSettings(languages="eng+xyz")), pytest.raises(IngestError, match="not installed: xyz"):
        read_pdf((scanned / "papers" / "coral-scan.pdf").read_bytes())
