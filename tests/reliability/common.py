"""Helpers shared by the defect tests and the standing reliability suites.

Everything is real: the `papershelf` command in subprocesses, SQLite files in tmp
dirs, an OpenAI-compatible server on 127.0.0.1 (`EmbeddingServer`).  Suites run a
short version by default (CI) and the long one with ``PAPERSHELF_SUITE=full``.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

FULL = os.environ.get("PAPERSHELF_SUITE", "").lower() == "full"


def slack() -> float:
    """How much to stretch a time bound on a loaded machine (load average per core, at least 1):
    the bounds are the issue's on an idle machine, not a flaky test on a busy CI runner."""
    try:
        return max(1.0, os.getloadavg()[0] / (os.cpu_count() or 1))
    except OSError:
        return 1.0


def scale(short: int, full: int) -> int:
    """How many of something a suite tries: `short` in CI, `full` with PAPERSHELF_SUITE=full."""
    return full if FULL else short


def cli_env(library: Path | str, **extra: str) -> dict:
    env = dict(os.environ, PAPERSHELF_LIBRARY=str(library), HF_HUB_OFFLINE="1")
    env.update(extra)
    return env


def cli(library: Path | str, *args: str, ok=(0,), timeout: float = 120, env: dict | None = None,
        **extra: str) -> subprocess.CompletedProcess:
    """Run the command to completion; assert its exit code and that no traceback reached the user."""
    p = subprocess.run([sys.executable, "-m", "papershelf", *args], env=env or cli_env(library, **extra),
                       capture_output=True, text=True, timeout=timeout)
    assert p.returncode in ok, (p.returncode, p.stdout[-2000:], p.stderr[-2000:])
    assert "Traceback" not in p.stderr, p.stderr[-3000:]
    return p


def start(library: Path | str, *args: str, env: dict | None = None, **extra: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "papershelf", *args], env=env or cli_env(library, **extra),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def read_event(proc: subprocess.Popen, event: str, timeout: float = 60) -> dict:
    """The next NDJSON event of this kind from `embed --json` (bounded by `timeout`)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            raise AssertionError(f"no {event!r} event; stderr: {proc.stderr.read()[-2000:]}")
        try:
            e = json.loads(line)
        except ValueError:
            continue
        if e.get("event") == event:
            return e
    raise AssertionError(f"no {event!r} event within {timeout}s")


def write_papers(folder: Path, n: int, prefix: str = "p", words: int = 40) -> list[Path]:
    """`n` small Markdown papers with distinct ids, sections, a figure and a table each."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for i in range(n):
        body = " ".join(f"topic{i} measurement{(i * 7 + k) % 13} signal" for k in range(words // 3))
        text = (f"---\ncitekey: {prefix}{i:03d}\ntitle: Paper {prefix} {i} about topic{i}\n"
                f"year: {2000 + i % 25}\n---\n\n"
                f"# Introduction\n\n{body}.\n\n# Results\n\nAs Figure 1 shows, topic{i} rises.\n\n"
                f"Figure 1: Signal of topic{i} over time.\n\nTable 1: Counts for topic{i}.\n\n| a | b |\n|---|---|\n"
                f"| {i} | 2 |\n")
        p = folder / f"{prefix}{i:03d}.md"
        p.write_text(text, encoding="utf-8")
        paths.append(p)
    return paths


def lined_pdf(title: str, pages: int = 1, doi: str | None = None, rows: int = 60, top: float = 710) -> bytes:
    """A PDF of `pages` pages: the title (then "Section n") in bold over `rows` lines of text from
    `top` down; the DOI under the title on the first page when given."""
    import io

    from reportlab.lib.pagesizes import letter
    from reportlab.pdfgen import canvas

    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=letter)
    for n in range(pages):
        c.setFont("Helvetica-Bold", 16)
        c.drawString(72, 740, title if n == 0 else f"Section {n}")
        c.setFont("Helvetica", 10)
        if doi and n == 0:
            c.drawString(72, 722, f"https://doi.org/{doi}")
        for row in range(rows):
            c.drawString(72, top - 11 * row, f"Line {row} of page {n}: the measured {title.split()[0].lower()} "
                                             f"signal rises with each condition we tried, in turn.")
        c.showPage()
    c.save()
    return buf.getvalue()


def openai_args(url: str, *extra: str) -> list[str]:
    return ["--provider", "openai", "--model", "test-embed", "--base-url", url, *extra]


def library_snapshot(library: Path | str) -> dict:
    """What a library holds, independent of timing: per paper its manifest hashes and, per space
    fingerprint, every unit's vector bytes.  Two builds of the same inputs must be equal."""
    from papershelf import Library

    with Library(str(library), create=False) as lib:  # through the store contract: any backend
        st = lib.store
        ids = st.paper_ids()
        papers = {pid: m.hashes for pid in ids if (m := st.manifest(pid)) is not None}
        vectors = {(space.fingerprint, unit_id): bytes(blob)
                   for space in st.spaces() for pid in ids
                   for unit_id, (_, blob) in st.stored_vectors(space.id, pid).items()}
    return {"papers": papers, "vectors": vectors}


def copy_tree(src: Path, dst: Path) -> Path:
    shutil.copytree(src, dst)
    return dst


def peak_rss(args: list[str], env: dict, timeout: float = 600) -> tuple[subprocess.CompletedProcess, float]:
    """Run `python -m papershelf *args` in a small wrapper; return the run and the peak RSS in MB of the
    largest process it made (papershelf or one of its Tesseract processes): getrusage in the wrapper
    sees only this run."""
    code = ("import json, resource, subprocess, sys\n"
            "p = subprocess.run(sys.argv[1:], capture_output=True, text=True)\n"
            "r = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss\n"
            "print(json.dumps({'rc': p.returncode, 'out': p.stdout, 'err': p.stderr, 'peak_kb': r}))\n")
    wrapper = subprocess.run([sys.executable, "-c", code, sys.executable, "-m", "papershelf", *args], env=env,
                             capture_output=True, text=True, timeout=timeout)
    d = json.loads(wrapper.stdout)
    run = subprocess.CompletedProcess(args, d["rc"], d["out"], d["err"])
    assert "Traceback" not in run.stderr, run.stderr[-3000:]
    return run, d["peak_kb"] / 1024
