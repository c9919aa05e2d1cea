"""The front matter of bench/latex_papers.py's papers, one renderer per publisher's class variant.

Each renderer turns a paper's spec into (preamble, front matter) written the way that class's own
template writes authors and affiliations (\\IEEEauthorblockN, \\author[a]/\\affiliation[a], \\inst and
\\institute, \\Name/\\addr, ...), so the author block is laid out by the class itself.  RENDER says,
per variant, how the class numbers headings, whether page 1 prints a year and which labels the class
prints by itself (optional in the heading truth).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from latex_content import DOMAINS

if TYPE_CHECKING:
    from latex_papers import Spec

COR, CORMARK, SEP, AND = "\\corref{cor1}", "\\cormark[1]", " \\sep ", " \\and "
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September",
          "October", "November", "December")



def _aff_line(a: dict, parts: tuple[str, ...] = ("dept", "inst", "city", "country")) -> str:
    return ", ".join(a[p] for p in parts)


def _and_join(names: list[str]) -> str:
    if len(names) <= 2:
        return " and ".join(names)
    return ", ".join(names[:-1]) + ", and " + names[-1]


def ieee_conf(s: Spec, grouped: bool) -> tuple[str, str]:
    pre = "\\documentclass[conference]{IEEEtran}\n"
    if grouped:
        names = ", ".join(f"{a.name}\\IEEEauthorrefmark{{{','.join(str(i + 1) for i in a.affs)}}}"
                          for a in s.authors)
        blocks = "\\\\\n".join(f"\\IEEEauthorrefmark{{{i + 1}}}{_aff_line(af)}" for i, af in enumerate(s.affs))
        author = f"\\IEEEauthorblockN{{{names}}}\n\\IEEEauthorblockA{{{blocks}\\\\\nEmail: {s.authors[0].email}}}"
    else:
        author = "\n\\and\n".join(
            f"\\IEEEauthorblockN{{{a.name}}}\n\\IEEEauthorblockA{{\\textit{{{s.affs[a.affs[0]]['dept']}}} \\\\\n"
            f"\\textit{{{s.affs[a.affs[0]]['inst']}}}\\\\\n{s.affs[a.affs[0]]['city']}, {s.affs[a.affs[0]]['country']} \\\\\n"
            f"{a.email}}}" for a in s.authors)
    front = (f"\\title{{{s.title}}}\n\\author{{{author}}}\n\\maketitle\n"
             f"\\begin{{abstract}}\n{s.abstract}\n\\end{{abstract}}\n"
             f"\\begin{{IEEEkeywords}}\n{', '.join(DOMAINS[s.domain]['terms'][:4])}\n\\end{{IEEEkeywords}}\n")
    return pre, front


def ieee_journal(s: Spec) -> tuple[str, str]:
    member = s.rng.random() < 0.5
    names = [a.name + (",~\\IEEEmembership{Member,~IEEE}" if member and i % 2 == 0 else "")
             for i, a in enumerate(s.authors)]
    thanks = " ".join(f"{a.name} is with the {_aff_line(s.affs[a.affs[0]])} (e-mail: {a.email})." for a in s.authors)
    journal = DOMAINS[s.domain]["journal"]
    front = (f"\\title{{{s.title}}}\n\\author{{{_and_join(names)}% \n\\thanks{{{thanks}}}}}\n"
             f"\\markboth{{{journal},~Vol.~{s.year - 2000 + 3}, No.~{s.month}, {MONTHS[s.month - 1]}~{s.year}}}"
             f"{{{s.authors[0].name.split()[-1]} \\MakeLowercase{{\\textit{{et al.}}}}: short title}}\n\\maketitle\n"
             f"\\begin{{abstract}}\n{s.abstract}\n\\end{{abstract}}\n"
             f"\\begin{{IEEEkeywords}}\n{', '.join(DOMAINS[s.domain]['terms'][:4])}\n\\end{{IEEEkeywords}}\n")
    return "\\documentclass[journal]{IEEEtran}\n", front


def elsarticle(s: Spec, opts: str, form: str) -> tuple[str, str]:
    lines = []
    if form == "grouped":  # one author group, no labels: every author over the single address
        for i, a in enumerate(s.authors):
            lines.append(f"\\author{{{a.name}{'' if i else COR}}}\n\\ead{{{a.email}}}")
        lines.append(f"\\cortext[cor1]{{Corresponding author}}\n\\address{{{_aff_line(s.affs[0])}}}")
    else:
        for i, a in enumerate(s.authors):
            labels = ",".join("abcd"[k] for k in a.affs)
            lines.append(f"\\author[{labels}]{{{a.name}{'' if i else COR}}}\n\\ead{{{a.email}}}")
        lines.append("\\cortext[cor1]{Corresponding author}")
        for k, af in enumerate(s.affs):
            if form == "keyed":
                lines.append(f"\\affiliation[{'abcd'[k]}]{{organization={{{af['dept']}, {af['inst']}}},\n"
                             f"  addressline={{{af['street']}}}, city={{{af['city']}}}, postcode={{{af['postcode']}}},"
                             f" country={{{af['country']}}}}}")
            else:
                lines.append(f"\\address[{'abcd'[k]}]{{{_aff_line(af)}}}")
    authors = "\n".join(lines)
    front = (f"\\begin{{frontmatter}}\n\\title{{{s.title}}}\n{authors}\n"
             f"\\begin{{abstract}}\n{s.abstract}\n\\end{{abstract}}\n"
             f"\\begin{{keyword}}\n{SEP.join(DOMAINS[s.domain]['terms'][:4])}\n\\end{{keyword}}\n\\end{{frontmatter}}\n")
    journal = DOMAINS[s.domain]["journal"]
    return f"\\documentclass[{opts}]{{elsarticle}}\n\\journal{{{journal}}}\n", front


def cas_dc(s: Spec) -> tuple[str, str]:
    lines = []
    for i, a in enumerate(s.authors):
        labels = ",".join(str(k + 1) for k in a.affs)
        lines.append(f"\\author[{labels}]{{{a.name}}}{CORMARK if i == 0 else ''}\n\\ead{{{a.email}}}")
    for k, af in enumerate(s.affs):
        lines.append(f"\\affiliation[{k + 1}]{{organization={{{af['inst']}}}, addressline={{{af['dept']}}},"
                     f" city={{{af['city']}}}, postcode={{{af['postcode']}}}, country={{{af['country']}}}}}")
    lines.append("\\cortext[cor1]{Corresponding author}")
    front = (f"\\shorttitle{{{s.title[:40]}}}\n\\shortauthors{{{s.authors[0].name.split()[-1]} et al.}}\n"
             f"\\title [mode = title]{{{s.title}}}\n" + "\n".join(lines) +
             f"\n\\begin{{abstract}}\n{s.abstract}\n\\end{{abstract}}\n"
             f"\\begin{{keywords}}\n{SEP.join(DOMAINS[s.domain]['terms'][:4])}\n\\end{{keywords}}\n\\maketitle\n")
    return "\\documentclass[a4paper,fleqn]{cas-dc}\n", front


def acmart(s: Spec, fmt: str) -> tuple[str, str]:
    pre = (f"\\documentclass[{fmt}]{{acmart}}\n\\setcopyright{{acmlicensed}}\n\\copyrightyear{{{s.year}}}\n"
           f"\\acmYear{{{s.year}}}\n\\acmDOI{{10.1145/{s.seed + 3000000}.{s.seed + 4000000}}}\n")
    if fmt == "sigconf":
        pre += (f"\\acmConference[CONF '{s.year % 100:02d}]{{Conference on {DOMAINS[s.domain]['field']}}}"
                f"{{{MONTHS[s.month - 1]} {s.day}--{s.day + 3}, {s.year}}}{{{s.affs[0]['city']}, {s.affs[0]['country']}}}\n"
                f"\\acmISBN{{978-1-4503-{s.seed:04d}-1/{s.year % 100:02d}/06}}\n")
    else:
        pre += f"\\acmJournal{{JACM}}\n\\acmVolume{{{s.year - 1950}}}\n\\acmNumber{{{s.month}}}\n\\acmArticle{{{s.seed + 1}}}\n\\acmMonth{{{s.month}}}\n"
    lines = []
    for a in s.authors:
        lines.append(f"\\author{{{a.name}}}\n\\email{{{a.email}}}")
        for k in a.affs:
            af = s.affs[k]
            lines.append(f"\\affiliation{{%\n  \\department{{{af['dept']}}}\n  \\institution{{{af['inst']}}}\n"
                         f"  \\city{{{af['city']}}}\n  \\country{{{af['country']}}}}}")
    front = (f"\\title{{{s.title}}}\n" + "\n".join(lines) +
             f"\n\\begin{{abstract}}\n{s.abstract}\n\\end{{abstract}}\n"
             f"\\keywords{{{', '.join(DOMAINS[s.domain]['terms'][:4])}}}\n\\maketitle\n")
    return pre, front


def revtex(s: Spec, opts: str) -> tuple[str, str]:
    lines = []
    for a in s.authors:
        lines.append(f"\\author{{{a.name}}}" + ("\n\\email{" + a.email + "}" if a is s.authors[0] else ""))
        lines += [f"\\affiliation{{{_aff_line(s.affs[k])}}}" for k in a.affs]
    front = (f"\\title{{{s.title}}}\n" + "\n".join(lines) + "\n\\date{\\today}\n"
             f"\\begin{{abstract}}\n{s.abstract}\n\\end{{abstract}}\n\\maketitle\n")
    return f"\\documentclass[{opts}]{{revtex4-2}}\n", front


def llncs(s: Spec) -> tuple[str, str]:
    names = " \\and\n".join(f"{a.name}\\inst{{{','.join(str(k + 1) for k in a.affs)}}}" for a in s.authors)
    insts = " \\and\n".join(
        f"{af['inst']}, {af['city']}, {af['country']}\\\\\n\\email{{" +
        ", ".join(a.email for a in s.authors if a.affs[0] == k) + "}" for k, af in enumerate(s.affs))
    front = (f"\\title{{{s.title}}}\n\\author{{{names}}}\n\\authorrunning{{{s.authors[0].name.split()[-1]} et al.}}\n"
             f"\\institute{{{insts}}}\n\\maketitle\n\\begin{{abstract}}\n{s.abstract}\n"
             f"\\keywords{{{AND.join(DOMAINS[s.domain]['terms'][:3])}}}\n\\end{{abstract}}\n")
    return "\\documentclass[runningheads]{llncs}\n", front


def mnras(s: Spec) -> tuple[str, str]:
    parts = []
    for i, a in enumerate(s.authors):
        sup = ",".join(str(k + 1) for k in a.affs)
        joiner = "" if i == 0 else (" and " if i == len(s.authors) - 1 else ", ")
        thanks = f"\\thanks{{E-mail: {a.email}}}" if i == 0 else ""
        parts.append(f"{joiner}{a.name}$^{{{sup}}}${thanks}")
    affs = "\\\\\n".join(f"$^{{{k + 1}}}${_aff_line(af, ('dept', 'inst', 'street', 'city', 'country'))}"
                         for k, af in enumerate(s.affs))
    front = (f"\\title[Short title]{{{s.title}}}\n\\author[{s.authors[0].name.split()[-1]} et al.]{{\n" + "".join(parts) +
             f"\n\\\\\n{affs}\n}}\n\\date{{Accepted {s.year} {MONTHS[s.month - 1]} {s.day}. Received {s.year - 1} "
             f"{MONTHS[(s.month + 5) % 12]} {s.day}}}\n\\pubyear{{{s.year}}}\n\\begin{{document}}\n\\label{{firstpage}}\n"
             f"\\pagerange{{\\pageref{{firstpage}}--\\pageref{{lastpage}}}}\n\\maketitle\n"
             f"\\begin{{abstract}}\n{s.abstract}\n\\end{{abstract}}\n"
             f"\\begin{{keywords}}\n{' -- '.join(DOMAINS[s.domain]['terms'][:3])}\n\\end{{keywords}}\n")
    return "\\documentclass[fleqn]{mnras}\n", front


def jmlr(s: Spec) -> tuple[str, str]:
    def name(n: str) -> str:
        given, family = n.rsplit(" ", 1) if not any(p in n for p in (" van ", " de ", " dos ", " von ", " De ")) \
            else re.split(r" (?=(?:van|de|dos|von|De) )", n, maxsplit=1)
        if not given[0].isascii():  # jmlr.cls takes the first byte for the initial: brace the letter
            given = "{" + given[0] + "}" + given[1:]
        return f"\\Name{{{given} {{{family}}}}}"
    groups = []
    for k, af in enumerate(s.affs):
        members = [a for a in s.authors if a.affs[0] == k]
        if members:
            groups.append("\\\\\n".join(f"{name(a.name)} \\Email{{{a.email}}}" for a in members) +
                          f"\\\\\n\\addr {_aff_line(af)}")
    # printed order is group order: keep the truth in that order (authors re-sorted by first affiliation)
    s.authors = sorted(s.authors, key=lambda a: a.affs[0])
    pre = f"\\documentclass[pmlr]{{jmlr}}\n\\jmlrvolume{{{s.year - 2000 + 90}}}\n\\jmlryear{{{s.year}}}\n" \
          f"\\jmlrworkshop{{Workshop on {DOMAINS[s.domain]['field']}}}\n"
    front = (f"\\title{{{s.title}}}\n\\author{{" + "\n\\AND\n".join(groups) + "}\n"
             f"\\begin{{document}}\n\\maketitle\n\\begin{{abstract}}\n{s.abstract}\n\\end{{abstract}}\n"
             f"\\begin{{keywords}}\n{', '.join(DOMAINS[s.domain]['terms'][:3])}\n\\end{{keywords}}\n")
    return pre, front


def aastex(s: Spec) -> tuple[str, str]:
    lines = []
    for i, a in enumerate(s.authors):
        orcid = f"[0000-000{i}-{s.seed:04d}-{1000 + i * 37}]" if s.rng.random() < 0.5 else ""
        lines.append(f"\\author{orcid}{{{a.name}}}")
        lines += [f"\\affiliation{{{_aff_line(s.affs[k])}}}" for k in a.affs]
    front = (f"\\title{{{s.title}}}\n" + "\n".join(lines) +
             f"\n\\begin{{abstract}}\n{s.abstract}\n\\end{{abstract}}\n"
             f"\\keywords{{{' --- '.join(DOMAINS[s.domain]['terms'][:3])}}}\n")
    return "\\documentclass[twocolumn]{aastex631}\n", front


def amsart(s: Spec) -> tuple[str, str]:
    lines = []
    for a in s.authors:
        lines.append(f"\\author{{{a.name}}}\n\\address{{{_aff_line(s.affs[a.affs[0]])}}}\n\\email{{{a.email}}}")
    front = (f"\\title{{{s.title}}}\n" + "\n".join(lines) + "\n\\date{\\today}\n"
             f"\\begin{{abstract}}\n{s.abstract}\n\\end{{abstract}}\n\\maketitle\n")
    return "\\documentclass{amsart}\n", front


def authblk(s: Spec) -> tuple[str, str]:
    lines = [f"\\author[{','.join(str(k + 1) for k in a.affs)}]{{{a.name}}}" for a in s.authors]
    lines += [f"\\affil[{k + 1}]{{{_aff_line(af)}}}" for k, af in enumerate(s.affs)]
    front = "\\maketitle\n\\begin{abstract}\n" + s.abstract + "\n\\end{abstract}\n"
    pre = ("\\documentclass[11pt]{article}\n\\usepackage{authblk}\n\\usepackage[margin=1in]{geometry}\n"
           f"\\title{{{s.title}}}\n" + "\n".join(lines) + "\n\\date{\\today}\n")
    return pre, front


def tabular(s: Spec) -> tuple[str, str]:
    cells = " \\and\n".join(
        f"{a.name}\\\\\n{s.affs[a.affs[0]]['dept']}\\\\\n{s.affs[a.affs[0]]['inst']}\\\\\n"
        f"{s.affs[a.affs[0]]['city']}, {s.affs[a.affs[0]]['country']}\\\\\n\\texttt{{{a.email}}}" for a in s.authors)
    two = s.rng.random() < 0.5
    pre = (f"\\documentclass[10pt{',twocolumn' if two else ''}]{{article}}\n\\usepackage[margin=0.8in]{{geometry}}\n"
           f"\\title{{{s.title}}}\n\\author{{{cells}}}\n\\date{{\\today}}\n")
    return pre, "\\maketitle\n\\begin{abstract}\n" + s.abstract + "\n\\end{abstract}\n"


# variant -> (render, heading-number style, prints-a-year, labels the class prints by itself)
_STD = ("Abstract", "References", "Keywords")
RENDER = {
    "ieee_conf": (lambda s: ieee_conf(s, False), "roman", False, ("Abstract", "References", "Index Terms")),
    "ieee_conf_grouped": (lambda s: ieee_conf(s, True), "roman", False, ("Abstract", "References", "Index Terms")),
    "ieee_journal": (ieee_journal, "roman", True, ("Abstract", "References", "Index Terms")),
    "elsarticle_1p": (lambda s: elsarticle(s, "preprint,12pt", "keyed"), "arabic", True, _STD),
    "elsarticle_3p": (lambda s: elsarticle(s, "3p,twocolumn", "address"), "arabic", True, _STD),
    "elsarticle_5p": (lambda s: elsarticle(s, "5p,times", "grouped"), "arabic", True, _STD),
    "cas_dc": (cas_dc, "arabic", False, ("Abstract", "References", "Keywords", "ARTICLE INFO", "ABSTRACT")),
    "acm_sigconf": (lambda s: acmart(s, "sigconf"), "arabic", True,
                    ("Abstract", "References", "Keywords", "CCS Concepts", "ACM Reference Format")),
    "acm_acmsmall": (lambda s: acmart(s, "acmsmall"), "arabic", True,
                     ("Abstract", "References", "Keywords", "CCS Concepts", "ACM Reference Format")),
    "revtex_aps": (lambda s: revtex(s, "aps,prb,reprint,superscriptaddress"), "roman", True, _STD),
    "revtex_aip": (lambda s: revtex(s, "aip,jcp,reprint"), "roman", True, _STD),
    "llncs": (llncs, "arabic", False, _STD),
    "mnras": (mnras, "arabic", True, _STD),
    "jmlr": (jmlr, "arabic", True, _STD),
    "aastex": (aastex, "arabic", True, _STD),
    "amsart": (amsart, "arabic", True, _STD),
    "authblk": (authblk, "arabic", True, _STD),
    "article_tabular": (tabular, "arabic", True, _STD),
}
VARIANTS = tuple(RENDER)

# Scalable fonts only (this TeX has no cm-super: T1 Computer Modern would be bitmaps): Latin Modern,
# the classes' own Times, or the old OT1 Computer Modern where a class is often used with it.
FONTS = {"default": "\\usepackage[T1]{fontenc}\n\\usepackage{lmodern}\n",
         "ieee_conf": "\\usepackage[T1]{fontenc}\n", "ieee_conf_grouped": "\\usepackage[T1]{fontenc}\n",
         "ieee_journal": "\\usepackage[T1]{fontenc}\n", "elsarticle_5p": "\\usepackage[T1]{fontenc}\n",
         "aastex": "", "revtex_aip": "", "cas_dc": "\\usepackage[T1]{fontenc}\n\\usepackage{lmodern}\n"
         "\\usepackage[numbers]{natbib}\n"}
# Packages a class loads but this TeX lacks and the papers never use (written next to the source).
STUBS = {"algorithm2e.sty": "\\ProvidesPackage{algorithm2e}\\DeclareOption*{}\\ProcessOptions\\newlength\\algomargin\n",
         "epsf.sty": "\\ProvidesPackage{epsf}\n",
         "ulem.sty": "\\ProvidesPackage{ulem}\\DeclareOption*{}\\ProcessOptions\\newcommand\\sout[1]{#1}\n"}

