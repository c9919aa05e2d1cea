"""PDFs the tests make themselves with reportlab: two columns, headings, captions,
a running header, page numbers, a references section; and broken ones."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from reportlab.lib.pagesizes import letter
from reportlab.pdfgen import canvas

W, H = letter
LEFT, RIGHT, COL_W = 54, W / 2 + 12, W / 2 - 66

BODY = ("Macrophages switch from an inflammatory to a repair phenotype as a wound heals, and in diabetic "
        "wounds this switch stalls for reasons that remain unclear despite much work on cytokine signal"
        "ling in chronic inflammation and tissue repair.")


def _wrap(text: str, width_chars: int = 52) -> list[str]:
    lines, cur = [], ""
    for w in text.split():
        if len(cur) + len(w) + 1 > width_chars:
            lines.append(cur)
            cur = w
        else:
            cur = f"{cur} {w}".strip()
    if cur:
        lines.append(cur)
    return lines


class Writer:
    """Flows paragraphs down two columns, page after page."""

    def __init__(self, path: str, header: str = "Journal of Example Studies 12 (2024)", encrypt: str | None = None):
        self.c = canvas.Canvas(path, pagesize=letter, encrypt=encrypt)
        self.header = header
        self.page = 1
        self.col = 0
        self.y = H - 90
        self._start_page()

    def _start_page(self):
        self.c.setFont("Helvetica", 8)
        self.c.drawString(LEFT, H - 40, self.header)
        self.c.drawString(W / 2, 30, str(self.page))

    def _x(self):
        return LEFT if self.col == 0 else RIGHT

    def _need(self, h):
        if self.y - h < 60:
            if self.col == 0:
                self.col, self.y = 1, self.top
            else:
                self.c.showPage()
                self.page += 1
                self._start_page()
                self.col, self.y = 0, H - 90
                self.top = H - 90

    top = H - 90

    def title(self, text: str, authors: str):
        self.c.setFont("Helvetica-Bold", 18)
        self.c.drawCentredString(W / 2, self.y, text)
        self.c.setFont("Helvetica", 11)
        self.c.drawCentredString(W / 2, self.y - 24, authors)
        self.y -= 60
        self.top = self.y

    def heading(self, text: str):
        self._need(30)
        self.y -= 8
        self.c.setFont("Helvetica-Bold", 12)
        self.c.drawString(self._x(), self.y, text)
        self.y -= 18

    def paragraph(self, text: str, font="Times-Roman", size=10, hyphenate_at: str | None = None):
        lines = _wrap(text)
        if hyphenate_at:
            # Break a word across two lines with a hyphen, as typesetters do.
            for n, line in enumerate(lines[:-1]):
                if hyphenate_at in line.split():
                    head, tail = hyphenate_at[:4], hyphenate_at[4:]
                    lines[n] = line.replace(hyphenate_at, head + "-")
                    lines[n + 1] = tail + " " + lines[n + 1]
                    break
        for line in lines:
            self._need(13)
            self.c.setFont(font, size)
            self.c.drawString(self._x(), self.y, line)
            self.y -= 12.5
        self.y -= 8

    def caption(self, text: str):
        self.paragraph(text, font="Helvetica", size=8.5)

    def table(self, caption: str, rows: list[list[str]]):
        """A caption above a ruled table whose cells sit side by side, as journals set tables."""
        self.caption(caption)
        self._need(14 * len(rows) + 10)
        x, width = self._x(), COL_W
        self.c.setLineWidth(0.6)
        self.c.line(x, self.y + 10, x + width, self.y + 10)
        for r, row in enumerate(rows):
            self.c.setFont("Times-Roman", 9)
            for k, cell in enumerate(row):
                self.c.drawString(x + 2 + k * width / len(row), self.y, cell)
            if r == 0:
                self.c.line(x, self.y - 4, x + width, self.y - 4)
            self.y -= 14
        self.c.line(x, self.y + 10, x + width, self.y + 10)
        self.y -= 12

    def figure(self, caption: str, label: str, height: float = 90):
        """A drawn chart (a frame, bars and an axis label) with its caption below it."""
        self._need(height + 30)
        x = self._x()
        self.c.rect(x + 10, self.y - height, COL_W - 20, height)
        for k in range(4):
            self.c.rect(x + 30 + 40 * k, self.y - height + 10, 20, 15 + 15 * k, fill=1)
        self.c.setFont("Helvetica", 7)
        self.c.drawString(x + 30, self.y - 10, label)
        self.y -= height + 16
        self.caption(caption)

    def save(self):
        self.c.save()


def title_and_body(c: canvas.Canvas, title: str, paragraphs: int) -> float:
    """A page's title, centred, over `paragraphs` copies of BODY in one column: where the text ends."""
    c.setFont("Times-Bold", 16)
    c.drawCentredString(W / 2, H - 80, title)
    c.setFont("Times-Roman", 10)
    y = H - 120
    for ln in _wrap(" ".join([BODY] * paragraphs), 95):
        c.drawString(72, y, ln)
        y -= 12
    return y


def headed_page(path, heading: str = "References", paragraphs: int = 3,
                title: str = "Observations on Coastal Sediment", gap: float = 20) -> tuple[canvas.Canvas, float]:
    """A page of `title` and `paragraphs` of body over `heading` in bold: the canvas, and where the list
    starts (`gap` under the heading)."""
    c = canvas.Canvas(str(path), pagesize=letter)
    y = title_and_body(c, title, paragraphs)
    c.setFont("Times-Bold", 11)
    c.drawString(72, y - 14, heading)
    return c, y - 14 - gap


def first_page(source, read: Callable[[Any], Any]) -> Any:
    """`read(page)` of a PDF's first page (the PDF a path or its bytes), pdfium's page and document
    closed after: a test that reads one page leaves no file open."""
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(source if isinstance(source, bytes) else str(source))
    try:
        page = pdf[0]
        try:
            return read(page)
        finally:
            page.close()
    finally:
        pdf.close()


def read_drawn(path, c: canvas.Canvas):
    """The reader's document of what `c` draws, saved to `path` first (`save` ends a page that holds
    anything: what the generated-paper tests read)."""
    from papershelf.ingest.pdf import read_pdf

    c.save()
    return read_pdf(path.read_bytes())


def read_references(path, c: canvas.Canvas) -> list:
    """The reference entries the reader finds in the page `c` draws (saved to `path` first)."""
    return read_drawn(path, c).references


def abstract_body(c: canvas.Canvas, y: float) -> None:
    """"Abstract" in bold at `y` over 30 lines of BODY in Times: the running text under a front page's byline."""
    c.setFont("Helvetica-Bold", 11)
    c.drawString(72, y, "Abstract")
    c.setFont("Times-Roman", 10)
    for k, text in enumerate(_wrap(" ".join([BODY] * 8), 90)[:30]):
        c.drawString(72, y - 16 - 12 * k, text)


def two_column_paper(path: str) -> None:
    w = Writer(path)
    w.title("Trans-Signalling Keeps Wound Macrophages Inflammatory", "Ada Okafor, Lena Brandt")
    w.heading("Abstract")
    w.paragraph("We show that interleukin-6 trans-signalling keeps macrophages inflammatory in chronic wounds.")
    w.heading("1 Introduction")
    for _ in range(3):
        w.paragraph(BODY)
    w.paragraph("Sustained STAT3 phosphorylation is shown in Figure 1, and phenotype markers in Table 1. "
                "The effect needs the soluble receptor and a remarkable persistence of signalling that "
                "outlasts the stimulus by a day.", hyphenate_at="remarkable")
    w.heading("2 Methods")
    w.heading("2.1 Cell culture")
    for _ in range(3):
        w.paragraph(BODY)
    w.caption("Figure 1: Western blot of phosphorylated STAT3 in macrophages stimulated with hyper-IL-6.")
    w.heading("3 Results")
    for _ in range(4):
        w.paragraph(BODY)
    w.caption("Table 1: Macrophage phenotype markers after stimulation.")
    w.paragraph("As Fig. 2 shows, wounds closed two days earlier with the blocker.")
    w.caption("Figure 2. Wound closure over fourteen days in treated and control mice.")
    for _ in range(4):
        w.paragraph(BODY)
    w.heading("References")
    w.paragraph("Rose-John S. Interleukin-6 trans-signalling via the soluble receptor. Example Reviews 2012.")
    w.paragraph("Brandt L. Macrophage plasticity in repair and regeneration. Example Cell 2021.")
    w.save()


def objects_paper(path: str) -> None:
    """A two-column paper with a ruled table (caption above) and a drawn chart (caption below)
    between paragraphs: what regions and table cells are measured on."""
    w = Writer(path)
    w.title("Bleaching Thresholds of Reef Corals", "Ada Okafor, Lena Brandt")
    w.heading("1 Introduction")
    for _ in range(2):
        w.paragraph(BODY)
    w.paragraph("Bleaching by depth is summarised in Table 1 and the trend in Figure 1.")
    w.table("Table 1: Bleaching by depth and site.",
            [["Site", "Depth", "Bleached"], ["Lizard Island", "4 m", "37%"], ["Heron Reef", "9 m", "12%"],
             ["Ningaloo", "15 m", "3%"]])
    w.paragraph("Shallow reefs bleached first, while the deepest colonies kept their colour all season long.")
    w.figure("Figure 1: Bleached fraction of colonies across four survey months.", "fraction bleached")
    w.paragraph(BODY)
    w.heading("2 Methods")
    w.paragraph(BODY)
    w.save()


def encrypted_pdf(path: str) -> None:
    w = Writer(path, encrypt="secret")
    w.heading("1 Introduction")
    w.paragraph(BODY)
    w.save()


def scanned_pdf(path: str) -> None:
    """Pages with drawings only: what a scan without OCR looks like to a text extractor."""
    c = canvas.Canvas(path, pagesize=letter)
    for _ in range(2):
        for i in range(40):
            c.rect(60, 80 + i * 16, 400 - (i % 7) * 30, 9, fill=1)
        c.showPage()
    c.save()


def _line(c: canvas.Canvas, x: float, y: float, text: str, font: str = "Times-Roman", size: float = 10) -> None:
    c.setFont(font, size)
    c.drawString(x, y, text)


def structured_paper(path: str) -> None:
    """A two-column paper that tests what a reader sees: a numbered list inside §3.1 (in the body's
    own font, with space around), a paragraph running on from the left column into the right one,
    a bar chart with bold axis labels, a run-in bold heading, and a superscript."""
    w = Writer(path)
    w.title("Scheduling Work on Many Machines", "Ada Okafor, Lena Brandt")
    w.heading("Abstract")
    w.paragraph("We describe a library that splits a large computation over thousands of machines.")
    w.heading("1 Introduction")
    w.paragraph(BODY)
    w.heading("2 Design")
    w.paragraph(BODY)
    w.heading("3 Implementation")
    w.heading("3.1 Execution Overview")
    w.paragraph("The library runs the following steps in order when a program calls it.")
    for n, step in enumerate(["The library first splits the input files", "One copy of the program is the master",
                              "A worker reads the contents of its split", "When all tasks have completed"], 1):
        w.y -= 10  # each item stands alone with space above it, as headings do
        _line(w.c, w._x(), w.y, f"{n}. {step}")
        w.y -= 14
    # A paragraph that runs down the left column and on into the right one.
    w.y = 150
    w.paragraph("The master keeps several data structures for every task, among them its state and the "
                "identity of the worker machine that runs it, and it passes the locations of intermediate "
                "files from map tasks to reduce tasks through the cluster so that")
    w.col, w.y = 1, w.top
    w.paragraph("the reduce workers can read them remotely as soon as they are told where to look.")
    w.heading("3.2 Master Data Structures")
    w.paragraph("Training. We train the model on the cluster for ten hours before measuring it.")
    _bold_lead_in(w)
    w.paragraph("The cluster handled 10 jobs per second on average over the whole measured week.")
    _superscript(w, "The input held about 10", "10", " records spread over all of the disks.")
    w.heading("4 Performance")
    _chart(w)
    w.paragraph(BODY)
    w.heading("5 Conclusions")
    w.paragraph(BODY)
    w.save()


def _bold_lead_in(w: Writer) -> None:
    """ "Evaluation. We ..." with the lead-in set bold and the rest roman, on one line."""
    w._need(14)
    w.c.setFont("Times-Bold", 10)
    w.c.drawString(w._x(), w.y, "Measurement.")
    lead = w.c.stringWidth("Measurement. ", "Times-Bold", 10)
    w.c.setFont("Times-Roman", 10)
    w.c.drawString(w._x() + lead, w.y, "We count finished tasks every second on each")
    w.y -= 12.5
    w.c.drawString(w._x(), w.y, "machine of the cluster and report the mean.")
    w.y -= 20


def _superscript(w: Writer, before: str, sup: str, after: str) -> None:
    w._need(14)
    x = w._x()
    w.c.setFont("Times-Roman", 10)
    w.c.drawString(x, w.y, before)
    x += w.c.stringWidth(before, "Times-Roman", 10)
    w.c.setFont("Times-Roman", 6.5)
    w.c.drawString(x, w.y + 4, sup)
    x += w.c.stringWidth(sup, "Times-Roman", 6.5)
    w.c.setFont("Times-Roman", 10)
    w.c.drawString(x, w.y, after[:40])
    w.y -= 12.5
    w.c.drawString(w._x(), w.y, after[40:].strip() or "end.")
    w.y -= 20


def _chart(w: Writer) -> None:
    """A bar chart with bold axis labels and tick numbers, then its caption."""
    w._need(150)
    x, y = w._x(), w.y - 120
    for i, h in enumerate((40, 70, 55, 90)):
        w.c.rect(x + 40 + i * 30, y, 18, h, fill=1)
        _line(w.c, x + 42 + i * 30, y - 10, str(20 * (i + 1)), "Helvetica", 7)
    _line(w.c, x + 70, y - 24, "Input (MB/s)", "Helvetica-Bold", 11)
    _line(w.c, x, y + 100, "Seconds", "Helvetica-Bold", 11)
    w.y = y - 40
    w.caption("Figure 1: Data transfer rate over time for the sort program on the cluster.")


def roman_paper(path: str) -> None:
    """IEEE style: I., II. sections in capitals, A., B. subsections, an unnumbered References."""
    w = Writer(path)
    w.title("Sensing Strain with Little Power", "Ada Okafor")
    w.heading("Abstract")
    w.paragraph("A strain sensor built from a current reference that draws very little power.")
    w.heading("I. INTRODUCTION")
    w.paragraph(BODY)
    w.heading("II. SENSOR DESIGN")
    w.heading("A. Current Reference")
    w.paragraph(BODY)
    w.heading("B. Readout")
    w.paragraph(BODY)
    w.heading("III. RESULTS")
    w.paragraph(BODY)
    w.heading("References")
    w.paragraph("Brandt L. Low-power sensing. Example Letters 2020.")
    w.save()


def face_paper(path: str) -> None:
    """No numbering and no bold: sections in Helvetica (a little larger than the Times body),
    sub-sections in Helvetica a little smaller than it, as some publishers set them, one right
    below its section's heading; a line of code in Courier and a word of a tiny screenshot standing
    alone with space around them; back matter set smaller than the body, its headings too."""
    w = Writer(path)
    w.title("Quality of Care in a Referral Hospital", "Ada Okafor")

    def head(text: str, size: float) -> None:
        w._need(30)
        w.y -= 8
        _line(w.c, w._x(), w.y, text, "Helvetica", size)
        w.y -= 16

    head("Background", 10.5)
    w.paragraph(BODY)
    head("Methods", 10.5)
    head("Study setting", 9.5)
    w.paragraph(BODY)
    w.y -= 8
    _line(w.c, w._x(), w.y, "Run Analysis Now", "Courier", 10)
    w.y -= 22
    w.paragraph(BODY)
    w.y -= 8
    _line(w.c, w._x(), w.y, "INTRODUCTION", "Helvetica-Bold", 4.5)
    w.y -= 22
    head("Results", 10.5)
    w.y += 4  # the sub-heading sits right below, as close as two lines of text
    _line(w.c, w._x(), w.y, "Patient flow and care", "Helvetica", 9.5)
    w.y -= 14
    w.paragraph(BODY)
    head("Acknowledgments", 7.5)
    w.paragraph("We thank the staff of the department for their time.", size=7.5)
    head("References", 7.5)
    w.paragraph("Brandt L. Quality of care. Example Letters 2020.", size=7.5)
    w.save()


def wrapped_heading_paper(path: str) -> None:
    """Numbered headings too long for the column, wrapped onto a second line in the same bold
    style: once mid-phrase in lower case, once in title case; and two headings set as close."""
    w = Writer(path)
    w.title("Scoring Spoken Retellings", "Ada Okafor")

    def head(*lines: str) -> None:
        w._need(40)
        w.y -= 8
        for text in lines:
            _line(w.c, w._x(), w.y, text, "Helvetica-Bold", 12)
            w.y -= 14
        w.y -= 4

    head("1 Introduction")
    w.paragraph(BODY)
    head("2 Unsupervised generative automated", "scoring with word alignment")
    w.paragraph(BODY)
    head("3 Supervised Discriminative Scoring", "With Log-Linear Models")
    w.paragraph(BODY)
    head("APPENDIX", "A. RELATED WORK")  # two headings, the second opening with its own number
    w.paragraph(BODY)
    w.save()


def _run_in(w: Writer, lead: str, rest: str, lead_font: str = "Times-Bold", more: tuple[str, ...] = ()) -> None:
    """A paragraph whose first line opens with ``lead`` in ``lead_font`` and goes on in roman."""
    w._need(14 * (1 + len(more)))
    x = w._x()
    number = lead.split(" ")[0] + " " if lead[:1].isdigit() else ""
    _line(w.c, x, w.y, number)
    x += w.c.stringWidth(number, "Times-Roman", 10)
    _line(w.c, x, w.y, lead[len(number):], lead_font)
    x += w.c.stringWidth(lead[len(number):] + " ", lead_font, 10)
    _line(w.c, x, w.y, rest)
    for text in more:
        w.y -= 12.5
        _line(w.c, w._x(), w.y, text)
    w.y -= 20


def runin_paper(path: str) -> None:
    """Run-in headings of several kinds: an abstract opened by "Abstract." in another face,
    numbered lead-ins that continue the scheme (one long), and bold lead-ins that are not
    headings: a theorem's label, a caption's label, authors in the reference list, and a word
    in another face that is no section name; acknowledgements run in in the body's own style."""
    w = Writer(path)
    w.title("Finding Influential Nodes", "Ada Okafor")
    _run_in(w, "Abstract.", "We rank the nodes of a network", "Helvetica", ("by how far their influence spreads.",))
    w.heading("1. Introduction")
    w.paragraph(BODY)
    _run_in(w, "NASA.", "The agency publishes networks", "Helvetica", ("of its own that we also study.",))
    w.heading("2. Measures")
    _run_in(w, "2.1. Degree.", "The degree of a node counts its", more=("neighbours in the graph.",))
    _run_in(w, "2.2. Spread of influence by seeds and their neighbours in the graph.", "We count",
            more=("all nodes reached from the seeds.",))
    _run_in(w, "Lemma 1.", "The spread is submodular in the", more=("set of seeds chosen.",))
    _run_in(w, "Figure 1.", "Spread of influence over time for", more=("all measures.",))
    w.paragraph("Acknowledgements: we thank the reviewers for their comments on the first draft.")
    w.heading("References")
    _run_in(w, "Brandt L.", "Low-power sensing. Example Letters", more=("2020.",))
    w.save()


def caps_paper(path: str) -> None:
    """No numbering, one heading font: sections in capitals, sub-sections in mixed case."""
    w = Writer(path)
    w.title("Selective Inhibitors by Fragment Design", "Ada Okafor")
    for head in ("INTRODUCTION", "MATERIALS AND METHODS", "Modelling and synthesis", "Inhibition assays", "RESULTS"):
        w.heading(head)
        w.paragraph(BODY)
    w.save()


def draw_references(c, x: float, y: float, entries: list[str], step: float) -> float:
    """A "References" heading at (x, y) and its entries under it, one a line; the y after them."""
    c.setFont("Helvetica-Bold", 11)
    c.drawString(x, y, "References")
    c.setFont("Times-Roman", 9)
    y -= 20
    for entry in entries:
        c.drawString(x, y, entry)
        y -= step
    return y


SURNAMES = ["Abebe", "Brandt", "Chen", "Dubois", "Engel", "Fischer", "Garcia", "Haddad", "Ivanova", "Jansen",
            "Kaplan", "Larsen", "Mbeki", "Nguyen", "Okafor", "Patel", "Quispe", "Rossi", "Silva", "Tanaka"]


def entry_lines(k: int) -> list[str]:
    """Reference entry `k` as two printed lines (author, title, journal, year 1990 + k), unlabelled: the
    label tests set their own label before it."""
    name = SURNAMES[k % len(SURNAMES)]
    return [f"A. {name}, K. Rossi. Sediment transport in coastal {k} systems and their thermal",
            f"response. J. Mol. Biol. {k + 3}, 10-20 ({1990 + k})."]
