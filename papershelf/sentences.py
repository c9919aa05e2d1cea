"""Sentence spans of a paper's text, for quoting: offsets into the text, so a quote is always a verbatim slice.

A full stop ends a sentence only where a reader would end one: not after an abbreviation a paper uses
(`et al.`, `Fig.`, `Eq.`, `e.g.`, `i.e.`, `vs.`, `approx.`), not after an initial (`J. Smith`), not inside
brackets (`(see Sec. 3. Results)`, `[12. 13]`), not in a decimal or a version (`0.05`, `v2.1` — no space
follows), and a caption's label (`Figure 2.`, `Table 1.`) opening a sentence keeps its text (in running text,
`shown in Fig 6. The runs` is two sentences).  A paragraph break ends one,
unless the text before it ends in no stop and the text after opens in lower case: the reader broke a
sentence there (a column or page turn, a float between), and the quote must hold all of it.  Linear in the
text: one pass over the candidate stops.
"""

from __future__ import annotations

import re

ABBREVIATIONS = frozenset("""
al fig figs eq eqs tab tabs sec secs ref refs no nos vol vols pp p ch chap cf vs etc approx resp ca e.g i.e
et dr mr mrs ms prof st jr sr inc ltd co corp dept univ est min max avg std var suppl eds ed rev viz
jan feb mar apr jun jul aug sep sept oct nov dec
""".split())
# A stop and the white space after it, where the next text could open a sentence.  (Each pattern here
# starts only where its run of stops, spaces or letters starts: tried from inside a run it reads the
# rest of the run again, which is quadratic on a long one, a contents page's leaders.)
_STOP = re.compile(r"(?<![.!?])[.!?]+[\"'”’)\]]*(?=\s)")
_OPENS = re.compile(r"(?<!\s)\s+[\"'“‘(\[]?[A-Z0-9\u00C0-\u024F\u0370-\u03FF]")
_LAST_WORD = re.compile(r"(?<![A-Za-z.])\.*+([A-Za-z][A-Za-z.]*)\.$")
# A caption's label, alone at a sentence's start ("Figure 2." opens the caption's text); in running text
# ("as shown in Fig 6. The runs...") the stop after it ends the sentence as any other.
_LABEL = re.compile(r"(?:supplementary\s+)?(?:fig(?:ure)?|table|tab|eq(?:uation)?|sec(?:tion)?|supplementary)\s*\.?\s*"
                    r"[A-Z]?\d+[a-z]?\.", re.I)
MAX_SENTENCE = 1500  # characters: a run-on "sentence" (a table flattened into text) is cut here


def _depth_changes(text: str) -> list[int]:
    """Bracket depth at each character (round and square), never below zero."""
    depth, out = 0, []
    for ch in text:
        if ch in "([":
            depth += 1
        elif ch in ")]" and depth:
            depth -= 1
        out.append(depth)
    return out


def _ends_here(text: str, start: int, stop_end: int, depth: list[int]) -> bool:
    head = text[max(start, stop_end - 40):stop_end].rstrip("\"'”’)]")
    if depth[stop_end - 1] > 0 and not head.endswith(("?", "!")):
        return False
    sentence = text[start:stop_end].lstrip()
    if len(sentence) <= 40 and _LABEL.fullmatch(sentence.rstrip("\"'”’)]")):
        return False
    m = _LAST_WORD.search(head)
    if m:
        word = m.group(1).lower().rstrip(".")
        if word in ABBREVIATIONS or (len(word) == 1 and word.isalpha()):
            return False
    return bool(_OPENS.match(text, stop_end))


_PARAGRAPH = re.compile(r"[^\n]+(?:\n(?!\s*\n)[^\n]*)*")  # blank lines end a paragraph
_UNFINISHED = re.compile(r"[^.!?:;\"'”’)\]\s]\s*$")  # text that ends in no stop
_GOES_ON = re.compile(r"(?:(?<!\s)\s+)?[a-z(]")  # text that opens in lower case: the sentence before goes on


def _paragraphs(text: str) -> list[tuple[int, int]]:
    """(start, end) of the paragraphs, a paragraph broken inside a sentence joined to the next one."""
    out: list[tuple[int, int]] = []
    for m in _PARAGRAPH.finditer(text):
        if out and _UNFINISHED.search(text, out[-1][0], out[-1][1]) and _GOES_ON.match(m.group()):
            out[-1] = (out[-1][0], m.end())
        else:
            out.append((m.start(), m.end()))
    return out


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of each sentence of `text`, surrounding white space excluded."""
    spans: list[tuple[int, int]] = []
    for first, last in _paragraphs(text):
        para = text[first:last]
        depth = _depth_changes(para)
        start = 0
        for m in _STOP.finditer(para):
            if _ends_here(para, start, m.end(), depth):
                spans.append((first + start, first + m.end()))
                start = m.end()
        spans.append((first + start, last))
    out = []
    for a, b in spans:
        while a < b and text[a].isspace():
            a += 1
        while b > a and text[b - 1].isspace():
            b -= 1
        while b - a > MAX_SENTENCE:
            out.append((a, a + MAX_SENTENCE))
            a += MAX_SENTENCE
        if b > a:
            out.append((a, b))
    return out
