"""What the benches on generated papers share (bench/gen_headings.py, bench/gen_columns.py): seeds split
by parity (even dev, odd test), their arguments, where each seed's PDF is drawn, and the reader's
blocks of a generated PDF with its outline ignored."""

from __future__ import annotations

import argparse
import tempfile
from collections.abc import Iterator
from pathlib import Path

from papershelf.ingest.pdf import reader as pdf_reader


def half_of(seed: int) -> str:
    return "dev" if seed % 2 == 0 else "test"


def seed_parser(doc: str | None, papers: int, verbose: str) -> argparse.ArgumentParser:
    """The arguments every such bench takes: the half, how many seeds, --json, -v (`verbose`: what it
    prints) and --keep."""
    ap = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--half", choices=("dev", "test", "all"), default="dev")
    ap.add_argument("--papers", type=int, default=papers, help="seeds 0 .. N-1 (then the half's share of them)")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("-v", action="store_true", help=verbose)
    ap.add_argument("--keep", type=Path, help="write the PDFs into this folder")
    return ap


def seed_paths(args: argparse.Namespace, prefix: str) -> Iterator[tuple[int, str]]:
    """The half's seeds among 0 .. papers-1, each with the path to draw its PDF at: in --keep, or in a
    temporary folder removed once the last seed is done."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.keep or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        for seed in range(args.papers):
            if args.half == "all" or half_of(seed) == args.half:
                yield seed, str(folder / f"{prefix}-{seed:03d}.pdf")


def blocks_without_outline(path: str) -> list:
    """The reader's blocks of a generated paper, its outline ignored: the layout alone is graded
    (reportlab writes no outline, but a bench must not depend on that)."""
    real = pdf_reader.read_outline
    pdf_reader.read_outline = lambda pdf: []
    try:
        return pdf_reader.read_pdf(Path(path).read_bytes()).blocks
    finally:
        pdf_reader.read_outline = real
