"""Reference lists and years as a scan's OCR reads them (issue #38): labels Tesseract set apart as blocks of
their own and lost digits of, first authors with garbled initials, lost rules for the same authors, and the
print's year beside OCR's commas and specks.  The lines are the ones read from the dev scans
(bench/scan_structure.py: pnas-2000, bsa-ajb-2000, acm-cacm-1974, ijsem-2003)."""

from __future__ import annotations

from reportlab.lib.pagesizes import letter
from reportlab.pdfgen import canvas

from papershelf.ingest.pdf.bibliography.list_labels import garbled_labels, gutter_labels
from papershelf.ingest.pdf.front.meta import PdfMeta, _dated_year, _from_lines, _unless_two_own_years
from papershelf.ingest.pdf.text.lines import Line

from .pdf_fixtures import read_references, title_and_body


def _ln(text: str, x0: float, top: float, x1: float = 299.0) -> Line:
    return Line(3, x0, top, x1, top + 7.0, text, 7.1, False)


def _pnas_run(lost_lead: bool) -> list[Line]:
    """Entries 1 to 13 of a numbered list whose labels 9 to 11 OCR read apart ("9." beside ". Otwinowski",
    the period twice), the "1" of "10." lost when `lost_lead`."""
    out = [_ln(f"{k}. Fan, C., Moews, P. C. & Knox, J. R. ({1990 + k}) Science 266, 439-443.", 55.9, 550.0 + 8.6 * k)
           for k in range(1, 7)]
    out += [_ln("7. Ellsworth, B. A. & Bartlett, P. A. (1996) Chem. Biol. 3, 37-44.", 55.9, 613.0),
           _ln("8. Huyton, T. & Roper, D. I. (1999) Acta Crystallogr. D 55, 1481-1483.", 55.9, 621.6),
           _ln("9.", 55.9, 630.0, 59.0), _ln("0." if lost_lead else "10.", 55.9, 638.4, 59.0),
           _ln(". Otwinowski, Z. & Minor, W. (1997) Methods Enzymol. 276, 307-326.", 59.5, 629.8),
           _ln(". Vagin, A. A. & Teplyakov, A. (1997) J. Appl. Crystallogr. 30, 1022-1025.", 59.8, 638.4),
           _ln("12. Brunger, A. T. (1992) Nature (London) 355, 472-475.", 53.0, 655.1),
           _ln("13. Murshudov, G. N. & Dodson, E. J. (1997) Acta Crystallogr. D 53, 240-255.", 53.0, 663.5)]
    return out


def test_labels_ocr_read_apart_with_their_period_join_their_lines_and_lost_digits_follow_the_sequence():
    """Two labels beside their lines are fewer than a gutter of labels needs, but a label whose period the
    line beside reads again is its line's.  "0." where 10 is due, 12 printed after it, is 10 (its "1" lost);
    a "0." the list does not expect there stays as read."""
    for lost in (False, True):
        runs = garbled_labels(gutter_labels([_pnas_run(lost)]))
        texts = [ln.text for ln in runs[0]]
        assert texts[8] == "9. Otwinowski, Z. & Minor, W. (1997) Methods Enzymol. 276, 307-326.", lost
        assert texts[9].startswith(("[10] Vagin", "10. Vagin")), (lost, texts[9])
    later = _pnas_run(True)[:12]  # no label after: nothing says "0." is 10
    assert [ln.text for ln in garbled_labels(gutter_labels([later]))[0]][9].startswith("0. Vagin")


def test_a_scanned_author_year_list_with_garbled_initials_and_lost_rules_is_read_whole(tmp_path):
    """A hanging author-year list at a paper's end with no heading, as OCR reads a scan: first authors'
    initials garbled ("QUINTANA, P. E 1997", "SOKAL, R..R.;") and the rules for the same authors lost, the
    line opening with what followed the rule (", AND R. YAHR. 1998.", ". 1996."), indented by the rule's
    width.  Every entry is one (at 9487e87: none, the list not read as one)."""
    path = tmp_path / "scanned.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    y = title_and_body(c, "Endemic Plants along a Fire Gradient", 3) - 20
    entries = [("MENGES, E. S. 1995. Fire and the plants of the Florida scrub. Ecology 76: 1-12.", 0),
               (", AND R. YAHR. 1998. Final report on continued ecological monitoring. Archbold.", 10),
               ("PROBER, S. M. 1992. Environmental influences on the distribution of the rare Eucalyptus.", 0),
               ("QUINTANA, P. E 1997: Population viability analysis of a rare plant species. Thesis.", 0),
               ("RABINOWITZ, D., AND P. M. DIXON. 1984. Competitive abilities of sparse grass species.", 0),
               ("SOKAL, R..R.; AND F. J. ROHLF. 1981. Biometry. Freeman, New York, New York, USA.", 0),
               ("TYLER, C. M. 1995. Factors contributing to postfire seedling establishment. Ecology 83.", 0),
               (". 1996. Relative importance of factors contributing to postfire seedling establishment.", 10),
               ("WHELAN, R. J. 1995. The ecology of fire. Cambridge University Press, New York, USA.", 0)]
    c.setFont("Times-Roman", 8.5)
    for text, indent in entries:
        words = text.split()
        for i, line in enumerate([" ".join(words[:9]), " ".join(words[9:])]):
            c.drawString(72 + (indent if i == 0 else 14), y, line)
            y -= 10.5
    refs = read_references(path, c)
    assert len(refs) == len(entries)
    assert refs[1].text.startswith(", AND R. YAHR") and refs[5].text.startswith("SOKAL")


def test_the_years_a_scan_prints_of_its_own_paper():
    """"August, 2000" (OCR's comma for "August 1, 2000") is a date, not a cited "Tyler, 1995"; a speck
    after the copyright sign keeps the line a copyright line; a scanned page 1 that prints two years as
    its own ("(2008)", a misread 2003, beside "© 2003") gives none, whatever the file's date."""
    assert _dated_year(["PNAS | August, 2000. | vol.97 | no.16 | 8921-8925"]) == 2000
    assert _dated_year(["as Tyler, 1995, vol. 3 reports"]) is None
    meta = PdfMeta()
    _from_lines(["Copyright ©. 1974, Association for Computing Machinery, Inc."], meta)
    assert meta.year == 1974
    first = ["International Journal of Systematic and Evolutionary Microbiology (2008), 53, 1-2",
             "02651 © 2003 IUMS Printed in Great Britain"]
    for scanned, want in ((False, 2008), (True, None)):
        meta = PdfMeta()
        _from_lines(first, meta)
        meta.created = (2026, 12)
        _unless_two_own_years(first, meta, scanned)
        assert meta.year == want, scanned
