"""PDFs with pypdfium2: text runs with font size and weight -> lines -> paragraphs -> blocks,
in reading order, as the same `Document` every other reader produces.

The layout analysis is deliberately small and explainable:

* pdfium's text rectangles carry position, font size and boldness; a text line
  pdfium ran across two columns, or across two visual lines, is cut apart again.
* Reading order (`columns`): a page is cut into horizontal bands at every line
  that crosses a gutter between its columns (titles, abstracts, wide figures);
  inside a band the columns are read left to right.  The gutters are the white
  strips the running text does not cross (three or four columns), else the
  page's middle; a one-column page is all full-width lines, read top to bottom.
* Running headers and footers (text in the top/bottom margin that repeats on
  several pages, digits ignored) and bare page numbers are dropped.
* Lines join into paragraphs while the gap is small, the font stays the same and
  no first-line indent starts a new one; a paragraph that runs on into the next
  column or page is joined again; end-of-line hyphens are repaired.
* Which paragraphs are headings, and their levels, is `pdf_headings`' job:
  numbering that continues the paper's scheme, standard names, and style relative
  to this paper's body text.  The title is the largest text at the top of page 1.
"""

from __future__ import annotations

import re

from ...document import Block, Document
from ...errors import IngestError
from ..captions import CAPTION_RE
from .bibliography.list_marks import page_marks
from .bibliography.references import pdf_references
from .front.authors import names_authors, printed_authors
from .front.plain_front import by_line
from .front.title import FIRST_HEAD, supplement_title, take_title
from .layout.boxes import set_apart
from .layout.columns import reading_order as _reading_order
from .layout.cover import without_cover_sheet
from .layout.frames import framed_lines
from .layout.sheets import back_sheet, in_margin, next_article, paged_heads, running_key
from .layout.strips import side_strip, usual_width
from .objects.caption_gaps import caption_wraps, lower_case_captions
from .objects.cited_labels import cited_label_lines
from .objects.graphics import Box, page_graphics
from .objects.region_next import continue_tables
from .objects.regions import Candidate, attach, find_candidates, join_captions, outside_tables
from .objects.sides import choose_sides
from .objects.sideways import in_sideways_table, sideways_objects, with_sideways
from .scan.ocr import fill_by_ocr
from .scan.ocr_lines import ocr_text
from .sections import heading_model
from .sections.contents import contents_entries, demote_abstract_labels
from .sections.heading_cues import line_starts_heading
from .sections.heading_lines import _OWN_NUMBER, _heading_goes_on, _out_of_heading
from .sections.heading_style import is_standard
from .sections.headings import BodyStyle, Para, lead_in, strong, to_blocks
from .sections.outline import apply_outline, read_outline
from .text.hyphens import document_words
from .text.lines import Line, join_lines, page_lines, settle_glyphs, visual_rows

# A raised mark closing the title is its footnote's anchor ("... Markov Chains^∗", "Style^∗†",
# "Networks^1"), not part of it; a raised number after a one- or two-letter symbol ("R^2") stays.
_STAMP = re.compile(r"^arXiv:\d{4}\.\d{4,5}(v\d+)?\s*\[")

Page = tuple[list[Line], float, float]


def _edge_rows(lines: list[Line], height: float, body_size: float, first: bool) -> set[int]:
    """The lines (by id) where a running head or foot can stand: in the page's top or bottom margin, or
    in its topmost or bottommost row wherever that is, when set no larger than the body (a thesis, a
    book's chapter or a journal with wide margins sets its running head lower than a margin of 9 %; a
    chapter's heading at the top of its page is larger).  The first page's title is in no running head."""
    edge = {id(ln) for ln in lines if in_margin(ln, height)}
    if first:
        return edge
    rows = visual_rows([ln for ln in lines if ln.text.strip()])
    return edge | {id(ln) for row in rows[:1] + rows[-1:] for ln in row if ln.size <= body_size + 0.5}


def _repeating(pages: list[Page], edges: list[set[int]]) -> set[str]:
    """Normalized texts of lines at a page's top or foot (`edges`, `_edge_rows`) that repeat on several pages."""
    seen: dict[str, set[int]] = {}
    at_edge = [ln for (lines, _, _), edge in zip(pages, edges) for ln in lines
               if id(ln) in edge and not CAPTION_RE.match(ln.text)]
    for ln in at_edge:
        seen.setdefault(running_key(ln.text), set()).add(ln.page)
    need = 2 if len(pages) <= 4 else 3
    return {k for k, v in seen.items() if len(v) >= need or _facing(v)} | paged_heads(at_edge, need)


def _facing(pages: set[int]) -> bool:
    """Two pages two apart: a running head or foot that alternates between left and right pages (a
    journal's "8922 | www.pnas.org" on even pages, "PNAS | August 1, 2000 | 8923" on odd ones) stands
    on every other page only, so a short paper shows it twice."""
    return len(pages) == 2 and max(pages) - min(pages) == 2


def _read_pages(pdf, texts: list[str] | None, coded: list[float] | None = None
                ) -> tuple[list[Page], list[list[Box]], list[int]]:
    """Every page's lines and graphics, and the turn it is read in (`rotation.text_turn`), each page
    loaded once (loading parses its content); `coded` gets each page's share of unmapped Type 3 glyphs."""
    pages, graphics = [], []
    turns: list[int] = []
    for n in range(len(pdf)):
        page = pdf[n]
        try:
            pages.append(page_lines(page, n + 1, texts, turns, coded))
            graphics.append(page_graphics(page, turns[-1]))
        finally:
            page.close()
    return pages, graphics, turns


def _require_text(pages: list[Page]) -> None:
    chars = sum(len(ln.text) for lines, _, _ in pages for ln in lines)
    if chars < 40 * max(1, len(pages)) and chars < 400:

        raise IngestError("no text layer: needs OCR")


def _body_style(pages: list[Page]) -> BodyStyle:
    """The size the running text is set in (`_main_size`), whether that text claims to be bold, and
    its face."""
    sizes: dict[float, int] = {}
    bold: dict[float, int] = {}
    faces: dict[tuple[float, str], int] = {}
    spread: dict[float, set[int]] = {}
    for lines, _, _ in pages:
        for ln in lines:
            sizes[ln.size] = sizes.get(ln.size, 0) + len(ln.text)
            bold[ln.size] = bold.get(ln.size, 0) + len(ln.text) * ln.bold
            faces[ln.size, ln.face] = faces.get((ln.size, ln.face), 0) + len(ln.text)
            spread.setdefault(ln.size, set()).add(ln.page)
    size = _main_size(sizes, spread)
    face = max(faces, key=lambda f: (f[0] == size, faces[f]))[1] if faces else ""  # the body size's own face
    return BodyStyle(size, bold.get(size, 0) > 0.5 * sizes.get(size, 1), face)


def _main_size(sizes: dict[float, int], spread: dict[float, set[int]]) -> float:
    """The size of the paper's running text: the size set most, by characters over the whole
    document, unless a size a step larger carries at least half as many characters on as many
    pages or more.  Then the most-set size is small print taking a long part of the paper (methods,
    references and captions set small) and the larger one runs through it all: the body's."""
    if not sizes:
        return 10.0
    most = max(sizes, key=lambda s: sizes[s])
    larger = [s for s in sizes if s >= 1.15 * most and sizes[s] >= 0.5 * sizes[most]
              and len(spread[s]) >= len(spread[most])]
    return max(larger, key=lambda s: sizes[s]) if larger else most


def _kept(lines: list[Line], width: float, height: float, repeating: set[str], edge: set[int]) -> list[Line]:
    """The page without margin stamps, running headers and footers (`edge`: the lines where they can
    stand, `_edge_rows`), and page numbers."""
    kept = []
    for ln in lines:
        vertical = ln.height > 2 * max(1.0, ln.x1 - ln.x0)
        if (vertical and (ln.x1 < 0.12 * width or ln.x0 > 0.88 * width) and not in_sideways_table(ln, lines)) \
                or _STAMP.match(ln.text):
            continue  # vertical margin text such as arXiv's identifier stamp
        if ln.bottom <= 0 or ln.top >= height or ln.x1 <= 0 or ln.x0 >= width:
            continue  # set outside the page: never printed (a heading's copy left off the sheet)
        marginal = in_margin(ln, height)
        if id(ln) in edge and running_key(ln.text) in repeating:
            continue
        if marginal and re.fullmatch(r"[\d\s\-–—|/ivx]+", ln.text):
            continue
        if re.fullmatch(r"\d{1,4}", ln.text) and ln.bottom > 0.85 * height and (marginal or _alone_on_row(ln, lines)):
            continue  # a page number; a number beside others on its row above the margin is a table's cell
        kept.append(ln)
    return kept


def _alone_on_row(ln: Line, lines: list[Line]) -> bool:
    """Not a table's cell: fewer than two other pieces of text in its size share its row (a raised
    or lowered digit, an equation's constant, a footer's page number are not set among cells)."""
    row = [o for o in lines if o is not ln and min(o.bottom, ln.bottom) - max(o.top, ln.top) > 0.5 * ln.height
           and abs(o.size - ln.size) <= 0.5]
    return len(row) < 2


def _column_left(column: list[Line]) -> float:
    """The column's left edge: where most of its lines start."""
    starts: dict[int, int] = {}
    for ln in column:
        starts[round(ln.x0)] = starts.get(round(ln.x0), 0) + 1
    common = max(starts, key=lambda x: starts[x])
    return min(x for x in starts if x >= common - 2)


def _breaks(prev: Line, ln: Line, left: float, body: BodyStyle, opens_heading: bool, prev_heading: bool,
            block_len: int, cited: bool = False) -> bool:
    """Does a new paragraph start at ``ln``?  (`cited`: its label is cited mid-sentence, `cited_labels`.)"""
    pitch = ln.bottom - prev.bottom
    if pitch > 1.75 * max(prev.size, 1.0) or pitch < -2 or abs(ln.size - prev.size) > 0.6:
        return True
    if (CAPTION_RE.match(ln.text) and not cited) or lead_in(ln) or (opens_heading and not prev_heading):
        return True
    if prev_heading and block_len == 1 and not prev.text.endswith(("-", "\x02")) \
            and not _heading_goes_on(prev, ln, body, pitch):
        return True
    if ln.bold != prev.bold and (prev_heading or opens_heading):
        return True
    # A first-line indent after a sentence's end starts a paragraph.
    indented = 0.6 * ln.size < ln.x0 - left < 4 * ln.size
    return indented and prev.x0 - left < 0.6 * ln.size and prev.text.endswith((".", "!", "?", ":", '"', "”")) \
        and ln.text[:1].isupper()


def _paragraphs(column: list[Line], body: BodyStyle, cited: set[int] | None = None) -> list[Para]:
    """A column's lines cut into paragraphs (`cited`: ids of lines opening with a label cited mid-sentence)."""
    left = _column_left(column)
    right = max(ln.x1 for ln in column)
    paras: list[Para] = []
    heading_like = [line_starts_heading(ln, body) for ln in column]
    opened_heading = False  # the paragraph so far is a heading's lines (its first line reads as one)
    for i, ln in enumerate(column):
        cut = _breaks(column[i - 1], ln, left, body, heading_like[i], heading_like[i - 1], len(paras[-1].lines),
                      id(ln) in (cited or ())) if i else True
        cut = cut and not (i and caption_wraps(paras[-1].lines, ln, right, cited or set()))
        if not cut and not (opened_heading and _out_of_heading(paras[-1].lines, ln)):
            paras[-1].lines.append(ln)
            continue
        opened_heading = heading_like[i]
        gap = None if i == 0 else (ln.bottom - column[i - 1].bottom) / max(ln.size, 1.0)
        centred = ln.x0 - left > 2 * ln.size and abs((ln.x0 + ln.x1) / 2 - (left + right) / 2) < 0.05 * (right - left)
        paras.append(Para([ln], gap_above=gap, column_start=i == 0, indent=ln.x0 - left, centred=centred))
    for p in paras:
        p.text = join_lines([ln.text for ln in p.lines])
    if paras:
        paras[-1].column_end = True
    return paras


def _figure_labels(regions: list) -> set[int]:
    """The lines a figure's region holds, as labels of the figure (no heading among them): only of
    regions whose lines are mostly short, as a drawing's labels are; a region that holds the
    column's prose beside it has taken too much of the page to say what is inside the figure."""
    short = [r for r in regions if r.kind == "figure" and sum(len(ln.text) >= 40 for ln in r.lines) * 4 <= len(r.lines)]
    return {id(ln) for r in short for ln in r.lines}


def _runs_on(a: Para, b: Para) -> bool:
    """Paragraph ``b`` (top of a column) continues ``a`` (end of the previous column or page)."""
    if not (a.column_end and b.column_start) or abs(a.first.size - b.first.size) > 0.6:
        return False
    end = a.text.rstrip()
    if end.endswith((".", "!", "?", ":")) or CAPTION_RE.match(b.text) or lead_in(b.first):
        return False
    return b.text[:1].islower() or end.endswith(("-", ",", "\x02")) or b.text[:1] in "([" and not b.text[:2].isdigit()


def _label_after_heading(head: Para, label: Para, body: BodyStyle) -> bool:
    """A numbered heading or a standard name on a line of its own, set apart from the body, and a
    "column" that opens with a short label of its own (an equation's number "(S19)" set at the
    right margin beside the heading's row), or pieces that start above the heading's baseline (a
    display equation's "λ", "(7)", "θsi , n θ" read as a column of their own beside "3. Results"):
    no continuation of the title, which goes on below itself.  (A bold line without a number may be
    a paragraph's bold lead-in that the next column goes on with.)"""
    a, b = head.first, label.first
    return len(head.lines) == 1 and strong(a, body) and bool(_OWN_NUMBER.match(head.text) or is_standard(head.text)) \
        and ((len(label.lines) == 1 and len(label.text) <= 12) or (b.page == a.page and b.top < a.bottom))


def _join_across_columns(paras: list[Para], body: BodyStyle) -> list[Para]:
    """Join a paragraph cut by a column or page break; captions and figure text in between stay apart."""
    out: list[Para] = []
    open_para: Para | None = None
    for p in paras:
        if open_para is not None and _runs_on(open_para, p) and not line_starts_heading(p.first, body) \
                and not _label_after_heading(open_para, p, body):
            open_para.lines += p.lines
            open_para.text = join_lines([open_para.text, p.text])
            open_para.column_end = p.column_end
            continue
        out.append(p)
        if p.column_end and not CAPTION_RE.match(p.text):
            open_para = p
        elif not (p.column_start and len(p.text) < 200 and open_para is not None):
            open_para = None  # something other than a short float at a column's top: the paragraph ended
    return out


def _gap_from_above(first: Line, page: list[Line]) -> float | None:
    """The space above a run's first line when a line of the page sits over it (a centred heading
    after a paragraph whose equation numbers or short last line made a run of their own), in the
    line's font sizes as `_paragraphs` measures it; None at the top of the page or column."""
    above = [ln.bottom for ln in page if ln.bottom < first.top and ln.x0 < first.x1 and ln.x1 > first.x0]
    return (first.bottom - max(above)) / max(first.size, 1.0) if above else None


def _centred(ln: Line, span: tuple[float, float]) -> bool:
    """Centred on the page's text (`span`: its left and right edges), well in from its left edge (a
    short run, a heading and two lines, shows no column edge for it to be centred between)."""
    left, right = span
    return ln.x0 - left > 2 * ln.size and abs((ln.x0 + ln.x1) / 2 - (left + right) / 2) < 0.03 * (right - left)


def _demote_front_matter(blocks: list[Block]) -> None:
    """Large or bold lines between the title and the first real section heading (numbered, or a
    standard name such as Abstract or Background) are the authors and their affiliations, not sections.
    The title page is the first with text (a cover sheet before it is emptied)."""
    first = min((b.page for b in blocks if b.page is not None), default=1)
    for b in blocks:
        if b.kind == "heading" and (b.page != first or FIRST_HEAD.match(b.text) or is_standard(b.text)):
            break
        if b.kind == "heading":
            b.kind, b.level = "text", 0


def _with_sidebars(blocks: list[Block], boxed: list[Para]) -> list[Block]:
    """The sidebars' paragraphs as text after the rest of their page (`pdf_boxes`): read with the
    paper, never a section of it."""
    out = list(blocks)
    for p in boxed:
        page = p.first.page
        at = next((i for i, b in enumerate(out) if b.page is not None and b.page > page), len(out))
        out.insert(at, Block("text", p.text, page=page))
    return out


def _demote_title_and_authors(blocks: list[Block], title: str | None, authors: list[str]) -> None:
    """The paper's title set again on a later page (a supplement's first page, an appendix's head),
    and a line naming its authors, an e-mail or an affiliation, are no sections of the paper."""
    norm = re.sub(r"\W+", " ", title or "").strip().casefold()
    for b in blocks:
        if b.kind != "heading" or is_standard(b.text):
            continue
        text = re.sub(r"\W+", " ", b.text).strip().casefold()
        repeat = len(text.split()) >= 4 and norm and (norm.startswith(text) or text.startswith(norm))
        if repeat or names_authors(b.text, authors):
            b.kind, b.level = "text", 0


def parse_pdf_pages(pdf, texts: list[str] | None = None) -> Document:
    """A PDF's pages as a Document: lines, columns, paragraphs, then headings and title.
    `texts`, when given, gets every page's pdfium text (for `pdf_meta`, so it is extracted once)."""
    coded: list[float] = []
    pages, graphics_of, turns = _read_pages(pdf, texts, coded)
    # before the glyphs are settled: an unreadable page shows its codes (a scan's drawings join graphics_of)
    pages, ocr_pages = fill_by_ocr(pdf, pages, graphics_of, coded)
    if texts is not None and len(texts) == len(pages):  # the metadata (year, DOI) reads a scan's print too
        for number in ocr_pages:
            texts[number - 1] = ocr_text(pages[number - 1][0])
    settle_glyphs(pages)
    _require_text(pages)
    with document_words(ln.text for lines, *_ in pages for ln in lines):  # for `keep_hyphen`, in every join
        return _layout(pdf, pages, graphics_of, turns, ocr_pages)


def _layout(pdf, pages: list[Page], graphics_of: list[list[Box]], turns: list[int],
            ocr_pages: dict[int, str]) -> Document:
    """The pages' lines as columns, paragraphs, headings, title and references."""
    pages = without_cover_sheet(pages)
    back = back_sheet(pages)
    body = _body_style(pages)
    edges = [_edge_rows(lines, height, body.size, i == 0) for i, (lines, _, height) in enumerate(pages)]
    repeating = _repeating(pages, edges)
    doc = Document(source_format="pdf", ocr_pages=ocr_pages)
    paras: list[Para] = []
    columns: list[list[Line]] = []
    candidates: list[Candidate] = []
    sideways: list = []  # (caption text, region) of tables and figures set sideways beside upright text
    cited: set[int] = set()  # lines opening with a label cited mid-sentence (`cited_labels`): no captions
    page_kept = []
    marks: list[Line] = []  # bare numbers the pages' cleaning dropped: page numbers, a raised label at an edge
    sheets: dict[int, tuple] = {}  # each page's kept lines, graphics and size, for tables continued overleaf
    title_page_seen = False  # the first page with text (after a cover sheet) holds title and authors
    for (lines, width, height), graphics, turn, edge in zip(pages, graphics_of, turns, edges):
        kept = _kept(lines, width, height, repeating, edge)
        marks += page_marks(lines, kept)
        title_lines: list[Line] = []
        if kept and not doc.title and not title_page_seen:
            title_page_seen = True
            doc.title, rest = take_title(kept, width, height, body.size)
            left = {id(ln) for ln in rest}
            title_lines = [ln for ln in kept if id(ln) not in left]
            doc.title = supplement_title(doc.title, title_lines, lines)
            doc.authors = printed_authors(rest, title_lines, body.size) or by_line(rest)
            kept = rest
        kept, graphics, side = sideways_objects(kept, graphics, width, height, turn)
        sideways += side
        page_cited = cited_label_lines(kept)
        cited |= page_cited
        candidates += [c for c in find_candidates(kept, graphics, width, height, body, turn)
                       if not c.region.caption_lines or id(c.region.caption_lines[0]) not in page_cited]
        page_kept.append((kept, width, graphics, title_lines))
        sheets.update({kept[0].page: (kept, graphics, width, height)} if kept else {})
    regions = choose_sides(candidates)
    continue_tables(regions, sheets, body)
    drawn = _figure_labels(regions)
    column_width = usual_width([ln for lines, *_ in pages[1:4] for ln in lines])  # beside no title page's sidebar
    boxed: list[Para] = []
    title_page, title_size = next(((lines[0].page, max(ln.size for ln in lines)) for *_, lines in page_kept if lines),
                                  (0, 0.0))
    last = max((kept[0].page for kept, *_ in page_kept if kept), default=0)
    for kept, width, graphics, title_lines in page_kept:
        objects = [r.box for r in regions if kept and r.page == kept[0].page]
        flow, sidebars, framed = set_apart(outside_tables(kept, regions), graphics, objects, title_lines,
                                           lambda ln: line_starts_heading(ln, body))
        flow, strip = side_strip(flow, width, body.size, column_width) if title_lines else (flow, [])
        sidebars += [strip] if strip else []
        flow, entries = contents_entries(flow)
        if kept and kept[0].page == back:  # a sheet bound after the paper: its labels are no sections
            sidebars, flow = [*sidebars, *_reading_order(flow, width)], []  # in reading order, not as read
        elif kept and kept[0].page == last and title_size and kept[0].page > title_page:
            flow, after = next_article(flow, title_size, body.size)
            sidebars += _reading_order(after, width) if after else []
        span = (min(ln.x0 for ln in flow), max(ln.x1 for ln in flow)) if flow else (0.0, 0.0)  # the text, edge to edge
        middle = sum(span) / 2 if strip else framed  # beside a sidebar strip the columns divide at the text's middle
        boxed_in = framed_lines(flow, graphics)
        for column in _reading_order(join_captions(flow, regions, join_lines), width, middle):
            for p in _paragraphs(column, body, cited):
                p.contents = bool(entries) and all(id(ln) in entries for ln in p.lines)
                p.framed = all(id(ln) in boxed_in for ln in p.lines)
                p.in_figure = all(id(ln) in drawn for ln in p.lines)
                if p.column_start and p.gap_above is None:
                    p.gap_above = _gap_from_above(p.first, flow)
                p.centred = p.centred or (len(p.lines) == 1 and _centred(p.first, span))
                paras.append(p)
            columns.append(column)
        for box in sidebars:
            boxed += _paragraphs(box, body)
    heads = to_blocks(_join_across_columns(paras, body), body, heading_model.review)
    # a caption read as a sidebar's (beside text wrapped round its figure on a title page) keeps its region
    blocks = with_sideways(attach(_with_sidebars(heads, boxed), regions), sideways)
    _demote_front_matter(blocks)
    demote_abstract_labels(blocks)
    _demote_title_and_authors(blocks, doc.title, doc.authors)
    lower_case_captions(blocks)
    outline = read_outline(pdf)
    if outline:
        blocks = apply_outline(blocks, outline)
    doc.blocks = blocks
    doc.references = pdf_references(columns, blocks, [(r.page, b) for r in regions if not r.turn
                                                      for b in (r.box, r.caption_box)], marks)
    return doc


def read_pdf(data: bytes, texts: list[str] | None = None) -> Document:
    """The PDF's Document; `texts`, when given, gets every page's pdfium text."""

    head = data[:1024]
    if b"%PDF" not in head:
        raise IngestError("not a PDF (no %PDF header)")
    import pypdfium2 as pdfium

    try:
        pdf = pdfium.PdfDocument(data)
    except pdfium.PdfiumError as e:
        msg = str(e)
        if "password" in msg.lower() or "security" in msg.lower():
            raise IngestError("encrypted PDF: needs a password") from None
        # PDFium refuses an empty page tree without an error of its own ("Success", or a stale one);
        # a file cut short (no %%EOF at its end) is damaged whatever its first pages said.
        complete = data.rstrip().endswith(b"%%EOF")
        if msg.rstrip(".) ").endswith("Success") or (complete and not re.search(rb"/Type\s*/Page(?!s)", data)):
            raise IngestError("PDF has no pages") from None
        raise IngestError(f"damaged or truncated PDF ({msg})") from None
    try:
        if len(pdf) == 0:
            raise IngestError("PDF has no pages")
        doc = parse_pdf_pages(pdf, texts)
        doc.pages = len(pdf)
        return doc
    except pdfium.PdfiumError as e:  # a page that cannot be loaded: damaged inside, not at the header
        raise IngestError(f"damaged PDF ({e})") from None
    finally:
        pdf.close()
