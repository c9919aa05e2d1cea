"""Pages without a usable text layer, read by Tesseract OCR into the same lines the PDF layout reads.

A scanned paper (or one scanned page inside a digital PDF) has no text for pdfium to give.
Such a page is rendered with pypdfium2 at `DPI`, handed to the system's Tesseract through
pytesseract (which runs the ``tesseract`` program: any install works, nothing is bundled;
BENCHMARKS.md has the comparison with tesserocr), and Tesseract's lines and word boxes (its
hOCR output) become `pdf_lines.Line` objects in PDF points.
From there the page goes through the born-digital pipeline unchanged: columns, running
headers, paragraphs, headings (by numbering and standard names; Tesseract reports no font,
so size comes from the line's height and nothing is bold) and captions.

Pages are OCR'd in parallel, one ``tesseract`` process per core (OpenMP off inside each, so
two processes on two cores do not fight), while pdfium renders the next page in this thread
(pdfium is not thread-safe).  `settings` (a context variable, so `Library.add` and the CLI
set it without threading a flag through every reader) carries the mode, languages and a
progress callback.

Modes: ``auto`` OCRs only pages with no text layer, ``always`` every page, ``never`` none.
"""

from __future__ import annotations

import os
import re
import shutil
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from xml.etree import ElementTree

from ...errors import IngestError
from .lines import Line

DPI = 300  # Tesseract's recommended resolution for body text; 200 loses small print (BENCHMARKS.md)
MODES = ("auto", "always", "never")
# A page "has text" when pdfium finds this many characters on it; a scanned page has none, a page
# with a stray page number or stamp a few.
MIN_PAGE_CHARS = 40
INSTALL_HINT = ("install Tesseract (Debian/Ubuntu: apt install tesseract-ocr tesseract-ocr-chi-sim "
                "tesseract-ocr-jpn; macOS: brew install tesseract tesseract-lang) and pip install pytesseract")
_KNOWN_LANGS = ("eng", "chi_sim", "chi_tra", "jpn", "kor")

Page = tuple[list[Line], float, float]


@dataclass(frozen=True)
class OcrSettings:
    mode: str = "auto"
    languages: str | None = None  # Tesseract's "eng+jpn"; None: every known language installed
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
    return reason.startswith("no text layer") and current().mode != "never" and engine() is not None


def _languages(pytesseract, wanted: str | None) -> str:
    installed = set(pytesseract.get_languages(config=""))
    if wanted:
        missing = [lang for lang in wanted.split("+") if lang not in installed]
        if missing:
            raise IngestError(f"OCR language not installed: {', '.join(missing)} (installed: "
                              f"{', '.join(sorted(installed - {'osd'})) or 'none'})")
        return wanted
    return "+".join(lang for lang in _KNOWN_LANGS if lang in installed) or "eng"


def pages_to_ocr(pages: list[Page], mode: str) -> list[int]:
    """Indexes of the pages OCR should read: those without a text layer (auto), all (always)."""
    if mode == "never":
        return []
    if mode == "always":
        return list(range(len(pages)))
    return [i for i, (lines, _, _) in enumerate(pages) if sum(len(ln.text) for ln in lines) < MIN_PAGE_CHARS]


def fill_by_ocr(pdf, pages: list[Page]) -> tuple[list[Page], dict[int, str]]:
    """`pages` with the pages that need it read by OCR, and {page number: engine} for those.

    Without Tesseract the pages stay as they are, so a scan fails as before ("no text layer:
    needs OCR") with how to install it."""
    s = current()
    todo = pages_to_ocr(pages, s.mode)
    if not todo:
        return pages, {}
    found = engine()
    if found is None:
        if len(todo) == len(pages):
            raise IngestError(f"no text layer: needs OCR ({INSTALL_HINT})")
        return pages, {}
    pytesseract, name = found
    langs = _languages(pytesseract, s.languages)
    label = f"{name} ({langs})"
    out = list(pages)
    workers = s.workers or max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1)
    with _one_thread_each(), ThreadPoolExecutor(max_workers=workers) as pool:
        in_flight: deque = deque()
        done = 0
        for n, i in enumerate(todo):  # rendering stays in this thread; Tesseract runs in its own processes
            page = pdf[i]
            try:
                image, width, height = render(page)
            finally:
                page.close()
            in_flight.append((i, width, height, pool.submit(_hocr, pytesseract, image, langs)))
            # At most two images per worker wait in memory (a 300-dpi page is ~8 MB): a book stays small.
            while in_flight and (len(in_flight) > 2 * workers or n == len(todo) - 1):
                j, w, h, fut = in_flight.popleft()
                out[j] = (hocr_lines(fut.result(), j + 1, 72.0 / DPI), w, h)
                done += 1
                if s.progress:
                    s.progress(done, len(todo))
    if len(todo) == len(pages) and sum(len(ln.text) for lines, _, _ in out for ln in lines) < MIN_PAGE_CHARS:
        raise IngestError(f"no text layer, and OCR ({label}) found no text either: drawings or blank pages")
    return out, {i + 1: label for i in todo}


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


def render(page):
    """The page as a grayscale image at `DPI`, and its size in points as the page is shown."""
    width, height = page.get_size()
    if page.get_rotation() % 180:
        width, height = height, width
    return page.render(scale=DPI / 72.0, grayscale=True).to_pil(), width, height


def _hocr(pytesseract, image, langs: str) -> bytes:
    """Tesseract's hOCR for the page: lines with their font size estimate, words with boxes."""
    try:
        return pytesseract.image_to_pdf_or_hocr(image, lang=langs, config="--psm 3", extension="hocr", timeout=300)
    except RuntimeError as e:  # pytesseract's timeout
        raise IngestError(f"OCR took too long on a page ({e})") from None
    except pytesseract.TesseractError as e:
        raise IngestError(f"OCR failed ({str(e.message).strip()[-200:] or e.status})") from None


_BBOX = re.compile(r"bbox (\d+) (\d+) (\d+) (\d+)")
_XSIZE = re.compile(r"x_size ([\d.]+)")
_LINE_CLASSES = {"ocr_line", "ocr_caption", "ocr_header", "ocr_textfloat"}


def hocr_lines(hocr: bytes, page_no: int, scale: float) -> list[Line]:
    """hOCR's lines as `Line`s in points.  A line's size is Tesseract's ``x_size`` (its estimate of
    the font's height, ascender to descender, from the whole line), rounded to half a point so
    that body lines agree; a word box alone varies with the letters it holds (g, l, x)."""
    root = ElementTree.fromstring(hocr)
    lines = []
    for el in root.iter():
        if el.get("class") not in _LINE_CLASSES:
            continue
        words = [w for w in el.iter() if w.get("class") == "ocrx_word" and "".join(w.itertext()).strip()]
        box, size = _BBOX.search(el.get("title", "")), _XSIZE.search(el.get("title", ""))
        if not words or not box:
            continue
        x0, top, x1, bottom = (int(v) * scale for v in box.groups())
        pts = float(size.group(1)) * scale if size else bottom - top
        text = _join_words(["".join(w.itertext()).strip() for w in words])
        if re.search(r"[a-z]-$", text):  # hyphenated at the line's end: the paragraph join decides,
            text = text[:-1] + "\x02"  # as for the soft hyphen pdfium marks (pdf_lines.clean)
        lines.append(Line(page_no, x0, top, x1, bottom, text, round(2 * pts) / 2, bold=False))
    return lines


def _join_words(words: list[str]) -> str:
    """Words of one line: CJK words (Tesseract splits them per character) join without spaces."""
    from ...index_text import has_cjk

    out = ""
    for w in words:
        if out and not (has_cjk(out[-1]) and has_cjk(w[0])):
            out += " "
        out += w
    return out
