"""Pages without a usable text layer, read by Tesseract OCR into the same lines the PDF layout reads.

A scanned paper (or one scanned page inside a digital PDF) has no text for pdfium to give.
Such a page is rendered with pypdfium2 at `DPI`, handed to the system's Tesseract through
pytesseract (which runs the ``tesseract`` program: any install works, nothing is bundled;
BENCHMARKS.md has the comparison with tesserocr), and Tesseract's lines and word boxes (its
hOCR output) become `pdf_lines.Line` objects in PDF points.
From there the page goes through the born-digital pipeline unchanged: columns, running
headers, paragraphs, headings and captions.  Tesseract reports no font: a line's size and weight
are read from its letters' heights and strokes on the image (ocr_lines.py).

Pages are OCR'd in parallel, one ``tesseract`` process per core (OpenMP off inside each, so
two processes on two cores do not fight), while pdfium renders the next page in this thread
(pdfium is not thread-safe).  `settings` (a context variable, so `Library.add` and the CLI
set it without threading a flag through every reader) carries the mode, languages and a
progress callback.

Modes: ``auto`` OCRs only pages with no text layer, ``always`` every page, ``never`` none.

Bounds (issue #43): a page is rendered at `DPI` only while that stays within `MAX_PIXELS` (a
14400 x 14400 pt page, PDF's largest, would be 3.6 gigapixels); a larger page is rendered at the
dpi that fits, and a page that would need less than `MIN_DPI` is not read (one line says so).  At
most two images per worker wait in memory.  A page Tesseract reads poorly is checked with its
orientation detection (OSD) and read again turned when that reads better (an upside-down scan);
without OSD a warning says so.  Every failure names its cause: a Tesseract error is not a timeout.
"""

from __future__ import annotations

import logging
import math
import os
import re
import shutil
import unicodedata
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from ....errors import IngestError
from ..objects.graphics import Box
from ..text.lines import Line
from ..text.type3_codes import CODED_SHARE, read_as_words
from .ocr_drawings import drawings
from .ocr_langs import Osd, Plan, parse_osd, plan
from .ocr_lines import hocr_lines, settle_sizes
from .ocr_style import Ink, weights

DPI = 300  # Tesseract's recommended resolution for body text; 200 loses small print (BENCHMARKS.md)
MAX_PIXELS = 36_000_000  # an A2 page at 300 dpi; a letter page is 8.4 MP (one byte a pixel, grayscale)
MIN_DPI = 100  # below it 10-pt print is a few pixels high: Tesseract reads noise
TIMEOUT = 300  # seconds for Tesseract on one page
# Mean word confidence (0-100) under which a page may be turned: Tesseract reads an upright page of
# print at 85-95 and an upside-down one, as gibberish, near 30.
LOW_CONFIDENCE = 60
# ...and under which a page read in Latin languages alone is taken for CJK print (read as English it
# scores 20-30) and read with every language at once (ocr_langs.py).
CJK_AS_LATIN = 40
MIN_OSD_CONFIDENCE = 1.0  # Tesseract's orientation confidence; below it the guess is a coin toss
MODES = ("auto", "always", "never")
# A page "has text" when pdfium finds this many characters on it; a scanned page has none, a page
# with a stray page number or stamp a few.
MIN_PAGE_CHARS = 40
# A page whose non-space characters are this share control or private-use codes is a font's glyph codes
# (7 % on a garbled first page of the wide corpus' dev half; its text pages have 3 % at most, a
# ligature's private code in every "ch").
UNREADABLE_SHARE = 0.05
UNREADABLE_KINDS = 8
# At most this many pages of a document are read by OCR for their text being glyph codes (about five
# minutes of Tesseract on two cores); a scan's pages, with no text at all, have no such bound.
CODE_PAGES = 40
# Why a document whose fonts give glyph codes throughout fails without Tesseract (rather than index the codes
# as words): `may_help` reads it again once OCR can run, as a scan.
CODES_REASON = "no readable text layer (its fonts give glyph codes, not letters)"
INSTALL_HINT = ("install Tesseract (Debian/Ubuntu: apt install tesseract-ocr tesseract-ocr-chi-sim "
                "tesseract-ocr-jpn; macOS: brew install tesseract tesseract-lang) and pip install pytesseract")

PROSE_WORDS = 6  # a line of this many words is running text: a figure's panels do not stack across it
Page = tuple[list[Line], float, float]
log = logging.getLogger("papershelf.ocr")


class PageRefused(Exception):
    """A page OCR will not read (too large to render within the bounds); the message says why."""


@dataclass(frozen=True)
class OcrSettings:
    mode: str = "auto"
    languages: str | None = None  # Tesseract's "eng+jpn"; None: chosen per page (ocr_langs.py)
    workers: int | None = None  # None: the cores this process may use
    progress: Callable[[int, int], None] | None = None  # (pages done, pages to OCR) of the current file


_SETTINGS: ContextVar[OcrSettings | None] = ContextVar("ocr_settings", default=None)


def current() -> OcrSettings:
    return _SETTINGS.get() or OcrSettings()


@contextmanager
def settings(value: OcrSettings) -> Iterator[None]:
    """OCR settings for the files parsed inside the block."""
    if value.mode not in MODES:
        raise ValueError(f"--ocr must be one of {', '.join(MODES)}, not {value.mode!r}")
    token = _SETTINGS.set(value)
    try:
        yield
    finally:
        _SETTINGS.reset(token)


def engine() -> tuple[object, str] | None:
    """(pytesseract, "tesseract 5.3.0") when OCR can run here, else None."""
    try:
        import pytesseract
    except ImportError:
        return None
    if shutil.which(pytesseract.pytesseract.tesseract_cmd) is None:
        return None
    try:
        return pytesseract, f"tesseract {pytesseract.get_tesseract_version()}"
    except (pytesseract.TesseractNotFoundError, OSError):
        return None


def may_help(reason: str) -> bool:
    """Whether a file that failed for `reason` is worth reading again now that OCR can run."""
    return reason.startswith(("no text layer", CODES_REASON)) and current().mode != "never" and engine() is not None


def _languages(pytesseract, wanted: str | None) -> Plan:
    """The file's language plan (ocr_langs.py); a named language that is not installed is an error."""
    installed = set(pytesseract.get_languages(config=""))
    if wanted:
        missing = [lang for lang in wanted.split("+") if lang not in installed]
        if missing:
            raise IngestError(f"OCR language not installed: {', '.join(missing)} (installed: "
                              f"{', '.join(sorted(installed - {'osd'})) or 'none'})")
    return plan(installed, wanted)


def pages_to_ocr(pages: list[Page], mode: str, coded: list[float] | None = None) -> list[int]:
    """Indexes of the pages OCR should read: those without a text layer and those whose text is a font's
    glyph codes (`code_pages`) (auto); all (always).  `coded`: each page's share of characters an
    unmapped Type 3 font gives (`type3_codes.unmapped_share`), when it was asked."""
    if mode == "never":
        return []
    if mode == "always":
        return list(range(len(pages)))
    textless = _textless(pages)
    return sorted(set(textless) | set(code_pages(pages, textless, coded)))


def code_pages(pages: list[Page], textless: list[int], coded: list[float] | None = None) -> list[int]:
    """The pages with text whose text is a font's glyph codes, not its letters (`reading`), that OCR
    reads, at most `CODE_PAGES`: a first page (its title and authors are read from the print); a page of
    control or private-use codes of many kinds (no page of text holds them); and every page of codes or
    of a code per word when such pages are most of the document's pages with text (its fonts give codes
    throughout: a Type 3 bitmap font without glyph names).  A page of a table's figures or of formulas
    among pages of text, which holds few letters too, keeps its own text; so does a document of tables.
    And a page whose font's own data says its characters are codes (most of them an unmapped Type 3 font's,
    `coded`) unless they read as words anyway (`type3_codes.read_as_words`: the font numbered its
    glyphs by ASCII): its codes may be letters, which its text alone does not show."""
    readings = _readings(pages, textless)
    most = _codes_throughout(readings)
    return [i for i, r in readings.items() if r and (i == 0 or r == "codes" or most and r == "apart")
            or _font_coded(pages[i][0], r, coded[i] if coded and i < len(coded) else 0.0)][:CODE_PAGES]


def _font_coded(lines: list[Line], reading: str, share: float) -> bool:
    """Most of the page's characters are an unmapped Type 3 font's codes and do not read as text."""
    return share >= CODED_SHARE and (bool(reading) or not read_as_words(" ".join(ln.text for ln in lines)))


def _readings(pages: list[Page], textless: list[int]) -> dict[int, str]:
    return {i: reading(lines) for i, (lines, _, _) in enumerate(pages) if i not in textless}


def _codes_throughout(readings: dict[int, str]) -> bool:
    """Most pages with text are a font's glyph codes (codes, or a code per word)."""
    return sum(r in ("codes", "apart") for r in readings.values()) > 0.5 * len(readings)


def _textless(pages: list[Page]) -> list[int]:
    return [i for i, (lines, _, _) in enumerate(pages) if sum(len(ln.text) for ln in lines) < MIN_PAGE_CHARS]


_LEADERS = re.compile(r"([^\w])\1{2,}")
_ASKED = re.compile(r"[^\x20-\x7e]")  # a character below the space or from DEL up
_ALNUM = re.compile(r"[^\W_]")  # a character `str.isalnum` says yes to (`\w` is those and "_")


def reading(lines: list[Line]) -> str:
    """How a page's text shows it is a font's glyph codes (a Type 3 or embedded font without a
    character map: pdfium gives control codes for the glyphs, or the codes as ASCII each set apart):
    "codes" for a share of control, private-use or unassigned characters of many kinds no page of text
    has (pdfium's hyphen mark \x02 is a control code, but one a line at most); "apart" for most
    "words" of one character (text has a few: "a", "I", a variable; a glyph code per word is no text);
    "signs" for fewer letters than other signs (a font's codes from 33 up are punctuation and digits;
    the first pages of the wide corpus' dev half are 78 % letters or more; a page of a table's figures
    is one too); "" for text.  Judged from the text alone."""
    # A contents page's dot leaders are no sign: runs of one repeated mark are left out of the count.
    # (whole strings at a time: `str.split` drops what `isspace` calls space, `_ASKED` finds what is not
    # printable ASCII, `map` asks each character; a page's characters one by one in Python cost more)
    chars = _LEADERS.sub("", "".join("".join(ln.text.split()) for ln in lines))
    if len(chars) < MIN_PAGE_CHARS:
        return ""
    found = [c for c in _ASKED.findall(chars) if unicodedata.category(c) in ("Cc", "Co", "Cn")
             and c != "\x02"]  # (printable ASCII is none of these: not asked)
    # A font that lacks a letter or two gives one code each, which the glyph repair reads from the
    # document's own words; a font without any map gives a code per glyph (47 kinds on the dev pages).
    if len(set(found)) >= UNREADABLE_KINDS and len(found) >= UNREADABLE_SHARE * len(chars):
        return "codes"
    letters = sum(map(str.isalpha, chars))
    words = [w for ln in lines for w in ln.text.split() if _ALNUM.search(w)]  # not ". . ."
    # (a word of one CJK character is a word: those scripts write without spaces, and pdfium may space them)
    if sum(len(w) == 1 and w < "\u2e80" for w in words) > 0.5 * len(words):
        return "apart"
    return "signs" if letters < 0.5 * len(chars) else ""


def fill_by_ocr(pdf, pages: list[Page], graphics: list[list[Box]] | None = None,
                coded: list[float] | None = None) -> tuple[list[Page], dict[int, str]]:
    """`pages` with the pages that need it read by OCR, and {page number: engine} for those; an OCR'd page
    without graphics of its own (a scan: one image) gets the drawings its image shows (`ocr_drawings`) in
    `graphics`.

    Without Tesseract the pages stay as they are: a scan fails as before ("no text layer: needs
    OCR") with how to install it, and so does a PDF whose fonts give glyph codes on most pages
    (`CODES_REASON`: indexed, its codes would be searchable garbage; `coded` says so too, when a page of
    them is to be read); a PDF with a text layer keeps
    it (with a warning under ``--ocr always``), a page or two of codes among text pages included.
    `coded`: each page's share of unmapped Type 3 glyphs (`pages_to_ocr`)."""
    s = current()
    todo = pages_to_ocr(pages, s.mode, coded)
    if not todo:
        return pages, {}
    bare = len(_textless(pages)) == len(pages)  # no page has a text layer
    found = engine()
    if found is None:
        if bare:
            raise IngestError(f"no text layer: needs OCR ({INSTALL_HINT})")
        font_coded = sum(share >= CODED_SHARE for share in coded or ()) > 0.5 * len(pages)
        if font_coded or _codes_throughout(_readings(pages, _textless(pages))):  # its words would be glyph codes
            raise IngestError(f"{CODES_REASON}: needs OCR ({INSTALL_HINT})")
        if s.mode == "always":
            log.warning("OCR cannot run (Tesseract not found): the PDF's text layer is kept; %s", INSTALL_HINT)
        return pages, {}
    pytesseract, name = found
    langs = _languages(pytesseract, s.languages)
    out, read, refused, drawn = _read_pages(pdf, pages, todo, pytesseract, langs)
    for i, boxes in drawn.items():
        if graphics is not None and i < len(graphics) and not graphics[i]:
            graphics[i] = boxes
    if bare and not read:
        raise IngestError(f"no text layer, and OCR read no page: {refused[0]}"
                          + (f" (and {len(refused) - 1} more pages)" if len(refused) > 1 else ""))
    for why in refused:
        log.warning("OCR skipped a page: %s", why)
    if bare and sum(len(ln.text) for lines, _, _ in out for ln in lines) < MIN_PAGE_CHARS:
        raise IngestError(f"no text layer, and OCR ({name} ({langs.full})) found no text either: drawings or "
                          "blank pages")
    textless = set(_textless(pages))
    for i in read:
        if i not in textless:
            out[i] = _sized_as(out[i], pages[i])
    return out, {i + 1: f"{name} ({used})" for i, used in read.items()}


def _body_size(lines: list[Line]) -> float | None:
    """The size most of a page's characters are set in."""
    counts: dict[float, int] = {}
    for ln in lines:
        counts[ln.size] = counts.get(ln.size, 0) + len(ln.text) + 1
    return max(counts, key=lambda k: counts[k]) if counts else None


def _sized_as(read: Page, shown: Page) -> Page:
    """An unreadable page read by OCR, its lines' sizes (Tesseract's line heights) scaled so that its
    body has the size pdfium gives the page's own text: the document's other pages, read from their
    text layer, set the sizes a title and a body are compared by."""
    ocr_body, pdf_body = _body_size(read[0]), _body_size(shown[0])
    if not ocr_body or not pdf_body:
        return read
    scale = pdf_body / ocr_body
    for ln in read[0]:
        ln.size = round(ln.size * scale, 1)
    return read


def _read_pages(pdf, pages: list[Page], todo: list[int], pytesseract, langs: Plan
                ) -> tuple[list[Page], dict[int, str], list[str], dict[int, list[Box]]]:
    """The pages with those of `todo` read by Tesseract; which were read, in which languages; why the
    others were not; the drawings each read page's image shows."""
    s = current()
    out, read, refused = list(pages), {}, []
    drawn: dict[int, list[Box]] = {}
    inks: list[Ink] = []
    osd = "osd" in set(pytesseract.get_languages(config=""))
    workers = s.workers or max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1)
    with _one_thread_each(), ThreadPoolExecutor(max_workers=workers) as pool:
        in_flight: deque = deque()
        done = 0
        for n, i in enumerate(todo):  # rendering stays in this thread; Tesseract runs in its own processes
            page = pdf[i]
            try:
                image, width, height, dpi = render(page, i + 1)
            except PageRefused as e:
                refused.append(str(e))
                image = None
            finally:
                page.close()
            if image is not None:
                in_flight.append((i, width, height, dpi, image,
                                  pool.submit(_hocr, pytesseract, image, langs, i + 1, osd)))
            else:
                done += 1
            # At most two images per worker wait in memory (each at most MAX_PIXELS bytes).
            while in_flight and (len(in_flight) > 2 * workers or n == len(todo) - 1):
                j, w, h, dpi, image, fut = in_flight.popleft()
                hocr, turned, read[j] = fut.result()
                if turned % 180:
                    w, h = h, w
                lines, drawn[j] = _page_lines(hocr, j + 1, dpi, image, turned, inks)
                out[j] = (lines, w, h)
                done += 1
                if s.progress:
                    s.progress(done, len(todo))
    settle_sizes([ln for j in read for ln in out[j][0]])
    weights(inks)
    return out, read, refused, drawn


def _page_lines(hocr: bytes, number: int, dpi: float, image, turned: int, inks: list[Ink]
                ) -> tuple[list[Line], list[Box]]:
    """A page's lines from its hOCR, each word's ink measured on the image Tesseract read (turned as
    it was read); `inks` gets them, for the weights the whole document's lines set (`ocr_lines`); and
    the drawings the image shows where no line stands."""
    import numpy as np

    pixels = np.asarray(image.rotate(-turned, expand=True) if turned else image)
    scale = 72.0 / dpi
    lines, page_inks = hocr_lines(hocr, number, scale, pixels)
    inks += page_inks
    boxes = [ink.box for ink in page_inks]  # one a line: the hOCR's own pixels, not the points read back
    prose = [ink.box for ink in page_inks if len(ink.line.text.split()) >= PROSE_WORDS]
    return lines, drawings(pixels, boxes, scale, prose)


@contextmanager
def _one_thread_each() -> Iterator[None]:
    """OpenMP off inside the tesseract processes started meanwhile (they inherit the environment):
    one process per core reads pages side by side instead of each fighting for every core."""
    old = os.environ.get("OMP_THREAD_LIMIT")
    os.environ["OMP_THREAD_LIMIT"] = "1"
    try:
        yield
    finally:
        if old is None:
            os.environ.pop("OMP_THREAD_LIMIT", None)
        else:
            os.environ["OMP_THREAD_LIMIT"] = old


def page_dpi(width: float, height: float) -> float | None:
    """The dpi to render a `width` x `height` pt page at: `DPI`, lowered so the image stays within
    `MAX_PIXELS`; None when that would be below `MIN_DPI`."""
    dpi = min(float(DPI), 72.0 * math.sqrt(MAX_PIXELS / max(width * height, 1.0)))
    return dpi if dpi >= MIN_DPI else None


def render(page, number: int = 0):
    """The page as a grayscale image, its size in points as the page is shown, and the dpi it was
    rendered at (`page_dpi`); `PageRefused` for a page too large to read within the bounds."""
    width, height = page.get_size()
    if page.get_rotation() % 180:
        width, height = height, width
    dpi = page_dpi(width, height)
    if dpi is None:
        raise PageRefused(f"page {number} is {width:.0f} x {height:.0f} pt, too large to OCR (it would take "
                          f"over {MAX_PIXELS // 1_000_000} megapixels at {MIN_DPI} dpi)")
    try:
        return page.render(scale=dpi / 72.0, grayscale=True).to_pil(), width, height, dpi
    except MemoryError:
        raise PageRefused(f"page {number}: not enough memory to render it for OCR") from None


def _hocr(pytesseract, image, langs: Plan, number: int, osd: bool) -> tuple[bytes, int, str]:
    """Tesseract's hOCR for the page (lines with their font size estimate, words with boxes), the
    degrees the image was turned (clockwise) to read it, and the languages that read it.  A page read
    poorly is checked with OSD: read again turned when it is not upright, and with every language when
    its script may be CJK (ocr_langs.py: the first read is in the Latin languages alone)."""
    used = langs.start()
    hocr = _read(pytesseract, image, used, number)
    confidence = mean_confidence(hocr)
    if used != langs.full and confidence is not None and confidence < CJK_AS_LATIN:
        # Read as gibberish: most likely CJK read as English, so every language at once (OSD's ≈ 1 s
        # would only say so); a page still read poorly goes on to the orientation check below.
        again = _read(pytesseract, image, langs.full, number)
        if (mean_confidence(again) or 0.0) > confidence:
            langs.cjk_seen = True
            hocr, confidence, used = again, mean_confidence(again), langs.full
    if confidence is not None and confidence >= LOW_CONFIDENCE or confidence is None and used == langs.full:
        return hocr, 0, used
    found = _osd(pytesseract, image, number) if osd else None
    cjk = used != langs.full and (found is None or found.may_be_cjk())
    turn = found.turn if found is not None and found.turn_confidence >= MIN_OSD_CONFIDENCE else 0
    if turn or cjk:
        again_langs = langs.full if cjk else used
        again = _read(pytesseract, image.rotate(-turn, expand=True) if turn else image, again_langs, number)
        if (mean_confidence(again) or 0.0) > (confidence or 0.0):
            langs.cjk_seen = langs.cjk_seen or cjk  # the file's other pages start with every language
            return again, turn, again_langs
    if confidence is not None and not osd:
        log.warning("OCR read page %d poorly (mean word confidence %.0f%%); it may be turned: install "
                    "Tesseract's orientation detection (tesseract-ocr-osd) to read such pages", number, confidence)
    elif confidence is not None:
        log.warning("OCR read page %d poorly (mean word confidence %.0f%%)", number, confidence)
    return hocr, 0, used


def _read(pytesseract, image, langs: str, number: int) -> bytes:
    return _tesseract(pytesseract.image_to_pdf_or_hocr, pytesseract, number, image, lang=langs,
                      config="--psm 3", extension="hocr", timeout=TIMEOUT)


def _osd(pytesseract, image, number: int) -> Osd | None:
    """Tesseract's OSD of the page (orientation and script); None when it finds no text to judge by."""
    try:
        return parse_osd(_tesseract(pytesseract.image_to_osd, pytesseract, number, image, config="--psm 0",
                                    timeout=TIMEOUT))
    except IngestError:  # OSD refuses pages with too few characters
        return None


def _tesseract(run, pytesseract, number: int, *args, **kwargs):
    """`run(*args, **kwargs)` (a pytesseract call) with its failure as one line that says why."""
    try:
        return run(*args, **kwargs)
    except pytesseract.TesseractError as e:  # a RuntimeError too: caught before the timeout below
        detail = " ".join(str(e.message).split())[-200:]
        raise IngestError(f"OCR failed on page {number}: Tesseract exited with status {e.status}"
                          + (f" ({detail})" if detail else "")) from None
    except RuntimeError as e:
        if "timeout" in str(e).lower():  # pytesseract's own: "Tesseract process timeout"
            raise IngestError(f"OCR took too long on page {number} (over {TIMEOUT} s)") from None
        raise IngestError(f"OCR failed on page {number}: {e or type(e).__name__}") from None
    except OSError as e:  # the program vanished, or no memory to start it
        raise IngestError(f"OCR could not run Tesseract on page {number}: {e.strerror or e}") from None


def mean_confidence(hocr: bytes) -> float | None:
    """Tesseract's mean word confidence (0-100) in hOCR, None with no words."""
    values = [int(v) for v in re.findall(rb"x_wconf (\d+)", hocr)]
    return sum(values) / len(values) if values else None
