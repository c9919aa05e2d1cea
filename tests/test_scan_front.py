"""Page 1 of a scan whose sidebar's logo OCR reads as a word (issue #38): PeerJ's "Peer" logo, an image on the
digital page, is a 34-pt word in the sidebar once scanned, beside (not above) the 22-pt title; the title is
the title, and the byline under it the authors (at 9487e87: "Peer", and the sidebar's editor as an author)."""

from __future__ import annotations

from reportlab.lib.pagesizes import letter
from reportlab.pdfgen import canvas

from .pdf_fixtures import BODY, _wrap, read_drawn


def test_a_logo_word_in_a_sidebar_beside_the_title_is_no_title(tmp_path):
    path = tmp_path / "sidebar.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    c.setFont("Helvetica-Bold", 34)
    c.drawString(48, 792 - 118, "Peer")
    c.setFont("Helvetica", 22)
    c.drawString(186, 792 - 78, "VESPA: Very large-scale Evolutionary and")
    c.drawString(186, 792 - 108, "Selective Pressure Analyses")
    c.setFont("Helvetica", 11)
    c.drawString(186, 792 - 136, "Andrew E. Webb, Thomas A. Walsh and Mary J. O'Connell")
    c.setFont("Helvetica", 9)
    for k, text in enumerate(["Submitted 25 March 2016", "Accepted 9 May 2017", "Published 5 June 2017",
                              "Corresponding author", "Mary J. O'Connell,", "Academic editor", "James Procter"]):
        c.drawString(35, 792 - 490 - 11 * k, text)
    c.setFont("Times-Roman", 11)
    for k, text in enumerate(_wrap(" ".join([BODY] * 6), 70)[:30]):
        c.drawString(197, 792 - 230 - 13.5 * k, text)
    doc = read_drawn(path, c)
    assert doc.title == "VESPA: Very large-scale Evolutionary and Selective Pressure Analyses"
    assert doc.authors == ["Andrew E. Webb", "Thomas A. Walsh", "Mary J. O'Connell"]
