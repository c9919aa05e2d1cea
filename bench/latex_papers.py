"""Papers typeset with real publishers' LaTeX classes, whose authors, headings and year are known
by construction: fresh truth for the PDF reader (issue 21) that no rule was tuned on.

Each seed makes one paper (title, 1-9 authors of many origins, affiliations, abstract, 4-8
section/subsection headings, maybe a figure and a table, references, a date) and renders it with
one class variant (IEEEtran conference/journal, elsarticle 1p/3p/5p, cas-dc, acmart sigconf/acmsmall,
revtex4-2 aps/aip, llncs, mnras, jmlr, aastex631, amsart, article+authblk, article with a tabular
author block).  The variant is chosen by seed // 2, so both halves cover every class; the halves are
fixed by seed parity before anything is measured: dev = even seeds, test = odd seeds.

Truth per paper: authors in printed order, headings as the class prints them (number in the class's
style, level; labels a class prints by itself, such as "Abstract" or "References", are optional:
neither rewarded nor penalised), and the year where the page prints one (else null).  PDFs are
compiled once per source text into a cache under /tmp (never the repo):
$PAPERSHELF_LATEX_CACHE, default /tmp/papershelf-latex-papers.

    python bench/latex_papers.py [--half dev|test|all] [--seeds 0 2 4] [--check] [--json]

`--check` verifies the construction against pdftotext (every author surname and heading title is
on the page); it never runs papershelf.  Without pdflatex it says so in one line and exits 0.
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import os
import random
import re
import shutil
import subprocess
import sys
import unicodedata
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from latex_classes import FONTS, RENDER, STUBS, VARIANTS
from latex_content import AFFILIATIONS, DOMAINS, NAMES, bibliography, body_paragraphs

CACHE = Path(os.environ.get("PAPERSHELF_LATEX_CACHE", "/tmp/papershelf-latex-papers"))
SEEDS = range(80)


def half_of(seed: int) -> str:
    return "test" if seed % 2 else "dev"


@dataclass
class Author:
    name: str
    affs: list[int]
    email: str


@dataclass
class Spec:
    seed: int
    variant: str
    title: str
    authors: list[Author]
    affs: list[dict]
    abstract: str
    sections: list[dict]  # {"level", "numbered", "title"}
    year: int
    month: int
    day: int
    figure: bool
    table: bool
    domain: str
    rng: random.Random = field(repr=False)


def _email(name: str, domain: str) -> str:
    table: dict[str, str | int | None] = {"Ł": "L", "ł": "l", "ø": "o", "Ø": "O", "ı": "i", "ß": "ss"}
    name = name.translate(str.maketrans(table))
    ascii_ = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower()
    words = [re.sub(r"[^a-z]", "", w) for w in ascii_.split()]
    words = [w for w in words if w]
    return f"{words[0][0]}.{words[-1]}@{domain}"


def make_spec(seed: int) -> Spec:
    rng = random.Random(seed * 7919 + 17)
    variant = VARIANTS[(seed // 2) % len(VARIANTS)]
    domain = rng.choice(sorted(DOMAINS))
    d = DOMAINS[domain]
    n = rng.choices(range(1, 10), weights=(8, 14, 14, 12, 10, 8, 6, 4, 4))[0]
    people = rng.sample(NAMES, n)
    names = []
    for given, family in people:
        if rng.random() < 0.2 and "." not in given and " " not in given:
            given = f"{given} {rng.choice('ABCDEGHJKLMNPRSTW')}."  # a middle initial
        names.append(f"{given} {family}")
    affs = rng.sample(AFFILIATIONS, rng.randint(1, min(n, 4)))
    authors = []
    for i, name in enumerate(names):
        a = [0] if i == 0 else [rng.randrange(len(affs))]
        if len(affs) > 1 and rng.random() < 0.15:
            a = sorted({*a, rng.randrange(len(affs))})
        authors.append(Author(name, a, _email(name, affs[a[0]]["domain"])))
    tops = ["Introduction", *rng.sample(d["sections"], rng.randint(2, 4)), rng.choice(d["closing"])]
    sections: list[dict] = []
    budget = rng.randint(4, 8)
    for i, t in enumerate(tops):
        numbered = i == 0 or rng.random() > 0.12
        sections.append({"level": 1, "numbered": numbered, "title": t})
        if 0 < i < len(tops) - 1 and numbered and len(sections) < budget - (len(tops) - i - 1):
            for sub in rng.sample(d["subsections"], rng.randint(0, 2)):
                sections.append({"level": 2, "numbered": True, "title": sub})
    if rng.random() < 0.5:
        sections.append({"level": 1, "numbered": False, "title": "Acknowledgments"})
    title = rng.choice(d["titles"]).format(*rng.sample(d["terms"], 2))
    abstract = " ".join(body_paragraphs(rng, d, 1, 6))
    return Spec(seed, variant, title, authors, affs, abstract, sections, rng.randint(2004, 2024),
                rng.randint(1, 12), rng.randint(1, 28), rng.random() < 0.6, rng.random() < 0.6, domain, rng)




def _numbers(sections: list[dict], style: str) -> list[str | None]:
    out: list[str | None] = []
    sec = sub = 0
    for h in sections:
        if not h["numbered"]:
            out.append(None)
            continue
        if h["level"] == 1:
            sec, sub = sec + 1, 0
            out.append(_roman(sec) if style == "roman" else str(sec))
        else:
            sub += 1
            out.append("ABCDEFGH"[sub - 1] if style == "roman" else f"{sec}.{sub}")
    return out


def _roman(n: int) -> str:
    return ["I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X"][n - 1]



def source(s: Spec) -> str:
    render, _, _, _ = RENDER[s.variant]
    pre, front = render(s)
    packages = FONTS.get(s.variant, FONTS["default"]) + "\\usepackage{graphicx}\n"
    date = f"\\year={s.year} \\month={s.month} \\day={s.day}\n"
    begin = "" if "\\begin{document}" in front else "\\begin{document}\n"
    body = []
    d = DOMAINS[s.domain]
    cites = itertools.cycle(range(1, 7))
    for i, h in enumerate(s.sections):
        cmd = ("\\section" if h["level"] == 1 else "\\subsection") + ("" if h["numbered"] else "*")
        body.append(f"{cmd}{{{h['title']}}}")
        for p in body_paragraphs(s.rng, d, s.rng.randint(1, 3), s.rng.randint(4, 8)):
            body.append(p + (f" \\cite{{r{next(cites)}}}." if s.rng.random() < 0.4 else ""))
        if i == 1 and s.figure:
            body.append("\\begin{figure}[t]\\centering\\includegraphics[width=0.9\\linewidth]{example-image-a}\n"
                        f"\\caption{{{d['figure']}}}\\label{{fig:one}}\\end{{figure}}")
        if i == 2 and s.table:
            rows = "\n".join(f"{m} & {s.rng.uniform(50, 95):.1f} & {s.rng.uniform(50, 95):.1f} & "
                             f"{s.rng.uniform(0.1, 9):.2f} \\\\" for m in d["methods"])
            body.append(f"\\begin{{table}}[t]\\centering\\caption{{{d['table']}}}\\label{{tab:one}}\n"
                        f"\\begin{{tabular}}{{lrrr}}\\hline\n{d['columns']} \\\\ \\hline\n{rows}\n\\hline\\end{{tabular}}\n"
                        "\\end{table}")
    end = "\\label{lastpage}\n" if s.variant == "mnras" else ""
    return (pre + packages + date + begin + front + "\n\n".join(body) + "\n" + bibliography(s.rng, d, s.variant in ("jmlr", "aastex")) +
            end + "\\end{document}\n")


def truth(s: Spec) -> dict:
    _, style, has_year, labels = RENDER[s.variant]
    heads = [{"level": h["level"], "number": n, "title": h["title"]}
             for h, n in zip(s.sections, _numbers(s.sections, style), strict=True)]
    heads += [{"level": 1, "number": None, "title": t, "optional": True} for t in labels]
    return {"seed": s.seed, "half": half_of(s.seed), "class": s.variant,
            "authors": [a.name for a in s.authors], "headings": heads, "year": s.year if has_year else None}


def build(seed: int, cache: Path = CACHE) -> tuple[Path | None, dict, str]:
    """The paper's PDF (compiled once per source text) and its truth; (None, truth, log tail) on failure."""
    spec = make_spec(seed)
    tex = source(spec)
    t = truth(spec)
    key = hashlib.sha1(tex.encode()).hexdigest()[:10]
    out = cache / f"{seed:03d}-{spec.variant}-{key}"
    pdf = out / "paper.pdf"
    if pdf.exists():
        return pdf, t, ""
    for stale in cache.glob(f"{seed:03d}-*"):  # an older source text of this seed
        shutil.rmtree(stale, ignore_errors=True)
    out.mkdir(parents=True, exist_ok=True)
    (out / "paper.tex").write_text(tex, encoding="utf-8")
    for name, text in STUBS.items():
        if not shutil.which("kpsewhich") or not subprocess.run(["kpsewhich", name], capture_output=True).stdout:
            (out / name).write_text(text)
    epoch = str(int(__import__("datetime").datetime(spec.year, spec.month, spec.day, 12).timestamp()))
    env = {**os.environ, "SOURCE_DATE_EPOCH": epoch, "FORCE_SOURCE_DATE": "1"}
    for _ in range(2):
        r = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "paper.tex"], cwd=out,
                           env=env, capture_output=True, timeout=300)
        if r.returncode:
            pdf.unlink(missing_ok=True)
            return None, t, r.stdout.decode(errors="replace")[-600:]
    return pdf, t, ""


def _page_texts(pdf: Path) -> list[str]:
    import pypdfium2  # the PDF library papershelf uses, read directly: the check never runs papershelf

    doc = pypdfium2.PdfDocument(str(pdf))
    try:
        return [doc[i].get_textpage().get_text_range() for i in range(len(doc))]
    finally:
        doc.close()


def _flat(x: str) -> str:
    return re.sub(r"[^a-z0-9]", "", unicodedata.normalize("NFKD", x.replace("ı", "i")).casefold())


def check(pdf: Path, t: dict) -> list[str]:
    """What of the truth is not in the PDF's text (the construction's own sanity check)."""
    pages = _page_texts(pdf)
    flat1, flat = _flat(pages[0]), _flat(" ".join(pages))
    bad = [f"author {a}" for a in t["authors"] if _flat(a.split()[-1]) not in flat1]
    bad += [f"heading {h['number'] or ''} {h['title']}" for h in t["headings"]
            if not h.get("optional") and _flat((h["number"] or "") + h["title"]) not in flat]
    if t["year"] and str(t["year"]) not in pages[0]:
        bad.append(f"year {t['year']}")
    return bad


def papers(half: str = "dev", seeds: list[int] | None = None) -> list[tuple[Path | None, dict, str]]:
    chosen = seeds if seeds is not None else [s for s in SEEDS if half == "all" or half_of(s) == half]
    return [build(s) for s in chosen]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--half", choices=("dev", "test", "all"), default="dev")
    ap.add_argument("--seeds", type=int, nargs="*")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    if not shutil.which("pdflatex"):
        print("pdflatex not found: no LaTeX papers built")
        return 0
    built = papers(args.half, args.seeds)
    per = Counter(t["class"] for pdf, t, _ in built if pdf)
    for pdf, t, log in built:
        if pdf is None:
            print(f"seed {t['seed']} ({t['class']}) did not compile: {log.strip().splitlines()[-1:]}", file=sys.stderr)
        elif args.check:
            for b in check(pdf, t):
                print(f"seed {t['seed']} ({t['class']}): not on the page: {b}", file=sys.stderr)
        if args.json and pdf:
            print(json.dumps({"pdf": str(pdf), **t}, ensure_ascii=False))
    if not args.json:
        print(f"{sum(per.values())} of {len(built)} papers built in {CACHE}: " +
              ", ".join(f"{k} {v}" for k, v in sorted(per.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
