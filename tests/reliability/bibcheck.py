"""BibTeX output checked by the real readers: bibtexparser, the `bibtex` binary, and TeX reading the .bbl.

`check(text, folder)` parses `text` with bibtexparser (no failed block), then runs `bibtex` with a
tiny style that writes every entry's key, type and every field it may hold — including a field
`evil` that an injection would add — and asserts that bibtex reports no error and reads exactly
the entries and field values bibtexparser read.  Then `bibtex` with the standard plain.bst and
plain TeX (with the handful of LaTeX text commands a .bbl uses) typeset the .bbl with
``openin_any=p``, no shell escape, and a file ``secret.tex`` beside it: the run must end with no
TeX error and without having read that file or any other (``\\input`` in a value stays text).

Skips (pytest.skip) when the TeX binaries are missing.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import bibtexparser
import pytest

FIELDS = ("author", "title", "journal", "booktitle", "howpublished", "year", "doi", "eprint", "archiveprefix",
          "note", "evil")
SECRET = "SECRETFILEWASREAD"

# A style that writes "\entry{key}{type}" then "\f{name}{value}" for every field an entry has.
_DUMP_BST = "ENTRY { " + " ".join(FIELDS) + " } {} {}\n" + """
FUNCTION {field.out} { duplicate$ empty$ { pop$ pop$ } { swap$ "\\f{" swap$ * "}{" * swap$ * "}" * write$ newline$ }
  if$ }
FUNCTION {dump} { "\\entry{" cite$ * "}{" * type$ * "}" * write$ newline$
""" + "".join(f'  "{f}" {f} field.out\n' for f in FIELDS) + """}
FUNCTION {article} { dump }
FUNCTION {inproceedings} { dump }
FUNCTION {misc} { dump }
FUNCTION {default.type} { dump }
READ
ITERATE {dump}
"""

# Plain TeX with the LaTeX commands plain.bst's .bbl uses, each printing its character.
_PRELUDE = r"""\let\stop\end \def\begin#1#2{}\def\end#1{}\def\bibitem#1{\par}\def\newblock{ }\def\em{\it}
\def\textbackslash{$\backslash$}\def\textbraceleft{$\{$}\def\textbraceright{$\}$}
\def\textasciitilde{\~{}}\def\textasciicircum{\^{}}\def\textless{$<$}\def\textgreater{$>$}\def\textbar{$|$}
\input refs.bbl
\par\stop
"""


def _have_tex() -> bool:
    return bool(shutil.which("bibtex") and shutil.which("tex"))


def _run(args: list[str], folder: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, openin_any="p", openout_any="p", shell_escape="f")
    return subprocess.run(args, cwd=folder, env=env, capture_output=True, text=True, errors="replace", timeout=60)


def _bibtex(folder: Path, style: str) -> tuple[str, str]:
    """(bibtex's own output, the .bbl) of `refs.bib` under `style`."""
    (folder / "refs.aux").write_text(f"\\citation{{*}}\n\\bibdata{{refs}}\n\\bibstyle{{{style}}}\n")
    p = _run(["bibtex", "-terse", "refs"], folder)
    log = p.stdout + p.stderr + (folder / "refs.blg").read_text(errors="replace")
    assert p.returncode in (0, 1), log[-3000:]  # 0: clean, 1: warnings (a missing year); 2+: errors
    assert "error message" not in log, log[-3000:]
    return log, (folder / "refs.bbl").read_text(errors="replace")


def _dumped(bbl: str) -> list[tuple[str, str, dict[str, str]]]:
    """(key, type, fields) per entry of the dump style's .bbl, values with whitespace runs as one space."""
    out: list[tuple[str, str, dict[str, str]]] = []
    for chunk in re.split(r"^\\entry\{", bbl, flags=re.MULTILINE)[1:]:
        head, _, rest = chunk.partition("\n")
        key, kind = re.fullmatch(r"(.*)\}\{(.*)\}", head).groups()
        fields = {m[1]: " ".join(m[2].split()) for m in re.finditer(r"^\\f\{(\w+)\}\{(.*?)\}\s*(?=^\\f\{|\Z)", rest,
                                                                    re.MULTILINE | re.DOTALL)}
        out.append((key, kind, fields))
    return out


def check(text: str, folder: Path, entries: int | None = None) -> bibtexparser.Library:
    """Parse `text` three ways (see the module's doc); return bibtexparser's library."""
    parsed = bibtexparser.parse_string(text)
    assert not parsed.failed_blocks, [b.raw[:300] for b in parsed.failed_blocks]
    assert not parsed.comments and not parsed.strings and not parsed.preambles
    if entries is not None:
        assert len(parsed.entries) == entries, [e.key for e in parsed.entries]
    assert all("evil" not in e.fields_dict for e in parsed.entries)
    if not _have_tex():
        pytest.skip("bibtex/tex not installed")
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "refs.bib").write_text(text, encoding="utf-8")
    (folder / "dump.bst").write_text(_DUMP_BST)
    (folder / "secret.tex").write_text(f"\\message{{{SECRET}}}\n")
    _, bbl = _bibtex(folder, "dump")
    dumped = _dumped(bbl)
    assert [(k, t) for k, t, _ in dumped] == [(e.key, e.entry_type) for e in parsed.entries]
    for (_, _, fields), e in zip(dumped, parsed.entries):
        assert "evil" not in fields
        assert fields == {f.key: " ".join(str(f.value).split()) for f in e.fields}, (fields, e.fields_dict)
    _, bbl = _bibtex(folder, "plain")
    assert bbl.count("\\bibitem") == len(parsed.entries)
    assert not re.search(r"\\(?:input|include|openin|read|write|immediate|def|catcode|csname)(?![A-Za-z])", bbl)
    (folder / "doc.tex").write_text(_PRELUDE)
    p = _run(["tex", "-interaction=nonstopmode", "-no-shell-escape", "doc.tex"], folder)
    log = (folder / "doc.log").read_text(errors="replace")
    assert p.returncode == 0 and not re.search(r"^! ", log, re.MULTILINE), log[-3000:]
    assert SECRET not in log, log[-3000:]
    # files TeX read: "(./name" or "(/path" as TeX logs an opened file ("(." alone is text an overfull box shows)
    assert set(re.findall(r"\(((?:\./|/)[^\s()]*)", log)) == {"./doc.tex", "./refs.bbl"}, log[-3000:]
    return parsed


# The LaTeX meaning of what the writer may put in a value; any other brace is a group (no text).
_MEANING = {"textbackslash": "\\", "textbraceleft": "{", "textbraceright": "}", "textasciitilde": "~",
            "textasciicircum": "^", "textless": "<", "textgreater": ">", "textbar": "|"}
_MARKUP = re.compile(r"\\(" + "|".join(_MEANING) + r")\{\}|\\([%#&_$])|[{}]")


def as_text(value: str) -> str:
    """What TeX prints for a value (the test's own reading of the markup, not the writer's table)."""
    assert "\\" not in _MARKUP.sub("", value), value  # no other command
    return _MARKUP.sub(lambda m: _MEANING[m[1]] if m[1] else m[2] or "", value)


def names(value: str) -> list[str]:
    """BibTeX's split of a name list: at a word "and" outside braces."""
    out, depth, start = [], 0, 0
    for m in re.finditer(r"[{}]|\s+and\s+", value, re.IGNORECASE):
        if m[0] in "{}":
            depth += 1 if m[0] == "{" else -1
        elif depth == 0:
            out.append(value[start:m.start()])
            start = m.end()
    return [as_text(n) for n in [*out, value[start:]]]
