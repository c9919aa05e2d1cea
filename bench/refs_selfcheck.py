"""Reference counts checked against the evidence each document prints about its own list (issue #38's
truth at scale: no hand count, no twin).

For every dev PDF (the wide corpus's dev half, the shared PDFs' dev half of bench/data/pdf_split.json, the
Zotero library's dev half by `pdf_authors_zotero.half_of`), the page text pypdfium2 gives is cut at the last
references heading, and:

* a **numbered** list (labels ``[N]`` / ``N.`` opening lines after the heading) bounds its count by the last
  label of the *unbroken* run 1, 2, …, N (every number there, in order) and by the largest number the body
  cites in brackets (``[12]``, ``[3-7]``, ``[1, 4]``) — a body citing [31] of a list read as 30 entries has
  lost one;
* a **keyed** list ("[ABTZ13]", "[Aho 85]") has one entry at least for each distinct key the body cites that
  opens a line of the list;
* an **author–year** list (no such run) has one entry at least for each distinct (surname, year) pair the body
  cites ("Smith (2019)", "(Smith and Jones, 2019a; Doe et al. 2020)") whose surname and year are both printed
  in the list's text — a lower bound (a list may hold works the body cites in no such form).

A paper is printed when the reader's count disagrees: outside max(1, 5 %) of N for a numbered run (or below
the body's largest bracketed number), under 95 % of the author–year pairs.  Each printed paper is then read on
its rendered pages; the evidence can be wrong too (a run that counts a second list's labels, a body that cites
a supplement's numbers), which is why this is a list to read, not a score to tune on.

    python bench/refs_selfcheck.py [--data ../shared/data] [--cache /tmp/x.json] [--only NAME] [-v]
    python bench/refs_selfcheck.py --truth [-v]   # the hand counts checked against the same evidence

`--truth` reads no entries: it checks the hand-read counts of bench/data (wide_refcounts.json for the wide
dev half, references_truth.json for the shared PDFs, zotero_refcounts.json for the Zotero dev files) against
each document's evidence, by the same rule — a hand count the document's own numbers contradict is read
again on the page.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from pdf_authors_zotero import half_of  # noqa: E402
from wide_text import page_text  # noqa: E402

from papershelf.errors import IngestError  # noqa: E402
from papershelf.ingest import load_source, parse_source  # noqa: E402
from papershelf.ingest.pdf.bibliography.references import REFERENCES_HEADING  # noqa: E402

DATA = ROOT.parent / "shared" / "data"
_LABEL = re.compile(r"^\s*(?:\[(\d{1,3})\]|(\d{1,3})\.?(?=\s+\S))")
_BRACKET = re.compile(r"\[(\d{1,3}(?:\s*[,–\-]\s*\d{1,3}){0,12})\]")
_SURNAME = r"[A-Z][a-zà-öø-ÿ'’\-]+(?:\s(?:van|von|de|der|den|da|di|du|la|le)\s[A-Z][a-z'’\-]+)?"
# "Smith (2019)", "Smith et al. (2019a)", "Smith and Jones, 2019", "(Smith & Jones 2019; Doe, 2020)"
_CITE = re.compile(rf"\b({_SURNAME})(?:\s+et\s+al\.?|\s+(?:and|&)\s+{_SURNAME})?,?\s+\(?((?:19|20)\d\d[a-z]?)\b")


def dev_papers(data: Path) -> list[tuple[str, Path]]:
    """(name, path) of every dev PDF with a text layer."""
    out: list[tuple[str, Path]] = []
    split = json.loads((ROOT / "bench" / "data" / "wide_split.json").read_text())
    wide = data / "pdfs-wide"
    for rec in json.loads((wide / "manifest.json").read_text()):
        if split[rec["file"]]["half"] == "dev" and rec.get("text_layer") != "none":
            out.append((f"wide/{rec['file']}", wide / rec["file"]))
    for name in json.loads((ROOT / "bench" / "data" / "pdf_split.json").read_text())["dev"]:
        out.append((f"pdfs/{name}", data / "pdfs" / name))
    for folder in sorted((data / "zotero" / "storage").iterdir()):
        pdfs = sorted(folder.glob("*.pdf"))
        if pdfs and half_of(folder.name) == "dev":
            out.append((f"zotero/{folder.name}", pdfs[0]))
    return out


def split_at_list(text: str) -> tuple[str, str] | None:
    """(body, list) of a page text, cut at its last references heading line."""
    cut = None
    pos = 0
    for line in text.splitlines(keepends=True):
        if REFERENCES_HEADING.match(line.strip()):
            cut = pos
        pos += len(line)
    return None if cut is None else (text[:cut], text[cut:])


def unbroken_run(listed: str) -> int:
    """N of the labels 1, 2, …, N opening lines of the list in order, every number there; 0 when label 1
    does not open one of the first three lines under the heading (labels further down are another list's:
    an appendix's, a table's)."""
    lines = [ln for ln in listed.splitlines()[1:] if ln.strip()]
    if not any((m := _LABEL.match(ln)) and int(m.group(1) or m.group(2)) == 1 for ln in lines[:3]):
        return 0
    want = 1
    for line in lines:
        m = _LABEL.match(line)
        if m and int(m.group(1) or m.group(2)) == want:
            want += 1
    return want - 1


def body_max_cited(body: str) -> int:
    """The largest number the body cites in brackets."""
    best = 0
    for m in _BRACKET.finditer(body):
        best = max([best, *(int(n) for n in re.findall(r"\d+", m.group(1)))])
    return best


def author_year_pairs(body: str, listed: str) -> set[tuple[str, str]]:
    """Distinct (surname, year) pairs cited in the body that the list prints as an entry's opening: the
    surname opening a line, the year within the next 400 characters (a co-author's name inside another
    entry, or a list the excerpt cuts short, is no evidence)."""
    out = set()
    for s, y in set(_CITE.findall(body)):
        # the surname among a line's first three words: "Smith, J.", "SMITH, J.", "John Smith. 2019."
        at = [m.end() for m in re.finditer(rf"(?mi)^\s*(?:\S+\s+){{0,2}}{re.escape(s)}\b", listed)]
        if any(y[:4] in listed[a:a + 400] for a in at):
            out.add((s, y))
    return out


def evidence(text: str) -> dict:
    cut = split_at_list(text)
    if cut is None:
        return {}
    body, listed = cut
    run, cited = unbroken_run(listed), body_max_cited(body)
    if run >= 5 or (run >= 1 and cited >= 5):
        return {"kind": "numbered", "run": run, "cited": cited}
    keys = cited_keys(body, listed)
    if len(keys) >= 5:
        return {"kind": "keyed", "pairs": len(keys), "sample": sorted(keys)[:8]}
    pairs = author_year_pairs(body, listed)
    return {"kind": "author-year", "pairs": len(pairs), "sample": sorted(pairs)[:8]} if len(pairs) >= 5 else {}


_KEY = re.compile(r"\[([A-Z][A-Za-z+\-]{0,10}\s?\d{2,4}[a-z]?)\]")


def cited_keys(body: str, listed: str) -> set[str]:
    """Distinct keys ("[ABTZ13]", "[Aho 85]") the body cites that open a line of the list."""
    opening = {m.group(1) for m in re.finditer(r"(?m)^\s*\[([^\[\]]{1,16})\]", listed)}
    return {k for k in _KEY.findall(body) if k in opening}


def disagrees(n: int, ev: dict) -> str | None:
    """Why the reader's count `n` disagrees with the document's evidence, or None."""
    if ev.get("kind") == "numbered":
        run, cited = ev["run"], ev["cited"]
        near_run, near_cited = abs(n - run) <= max(1, 0.05 * run), abs(n - cited) <= max(1, 0.05 * cited)
        if run >= 5 and not near_run and not (cited > run and near_cited):
            return f"read {n}, unbroken run 1..{run}, body cites up to [{cited}]"
        if run < cited <= 2 * max(run, n) and not near_cited:
            return f"read {n}, body cites up to [{cited}] past the run 1..{run}"
    elif ev.get("kind") in ("author-year", "keyed") and n < 0.95 * ev["pairs"]:
        return f"read {n}, the body cites {ev['pairs']} distinct {ev['kind']} citations the list prints"
    return None


def hand_counts() -> dict[str, int]:
    """name (as `dev_papers` names it) -> the count read by hand, from the three truth files."""
    data = ROOT / "bench" / "data"
    wide = json.loads((data / "wide_refcounts.json").read_text())
    out = {f"wide/{k}": v for k, v in wide.items() if not k.startswith("_")}
    shared = json.loads((data / "references_truth.json").read_text())["papers"]
    out.update({k: v["count"] for k, v in shared.items() if k.startswith("pdfs/")})
    zotero = json.loads((data / "zotero_refcounts.json").read_text())
    out.update({f"zotero/{k}": v for k, v in zotero.items() if not k.startswith("_")})
    return out


def read(path: Path) -> dict:
    try:
        return {"refs": [r.text for r in parse_source(load_source(str(path))).references]}
    except IngestError as e:
        return {"error": str(e)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default=str(DATA))
    ap.add_argument("--cache", help="a JSON file of the reader's entries: read from it when it exists, else "
                                    "written (the evidence is read from the page text each time)")
    ap.add_argument("--only", help="a substring of the names to read")
    ap.add_argument("-v", action="store_true", help="print every paper's count and evidence")
    ap.add_argument("--truth", action="store_true", help="check the hand counts, not the reader's")
    args = ap.parse_args()
    papers = [(n, p) for n, p in dev_papers(Path(args.data)) if not args.only or args.only in n]
    if args.truth:
        hand = hand_counts()
        papers = [(n, p) for n, p in papers if n in hand]
        return report({n: {"refs": [""] * hand[n]} for n, _ in papers}, dict(papers), args.v)
    cache = Path(args.cache) if args.cache else None
    rows = json.loads(cache.read_text()) if cache and cache.exists() else {n: read(p) for n, p in papers}
    if cache and not cache.exists():
        cache.write_text(json.dumps(rows))
    return report(rows, dict(papers), args.v)


def report(rows: dict, paths: dict[str, Path], verbose: bool) -> int:
    """Print each paper whose count (`rows[name]["refs"]`'s length) disagrees with its evidence, and a tally."""
    tally = {"papers": 0, "with evidence": 0, "agree": 0, "disagree": 0}
    for name, row in sorted(rows.items()):
        if name not in paths:
            continue
        tally["papers"] += 1
        ev = evidence(page_text(paths[name])) if "refs" in row else {}
        if not ev:
            continue
        tally["with evidence"] += 1
        why = disagrees(len(row["refs"]), ev)
        tally["disagree" if why else "agree"] += 1
        if why or verbose:
            print(f"{'DISAGREE' if why else 'ok'} {name}: {why or len(row['refs'])} {ev.get('sample', '')}")
    print(json.dumps(tally))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
