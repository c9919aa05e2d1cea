"""Check the figure/table query set before anyone measures with it.

Every line of bench/data/figure_queries.jsonl must have the fields and values
the benchmark expects, name a PDF in ../shared/data/pdfs and a label that
both the manifest (captions checked by hand) and papershelf's own parser know,
and must not copy the caption: no run of 4 or more words (case-insensitive,
tokens \\w+) shared with the parsed caption or the manifest's caption text.
Ids must be unique. Exit 1 listing every violation.

    python bench/check_queries.py [--queries PATH] [--data ../shared/data] [--library PATH]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections import Counter
from pathlib import Path

from queryset import (
    DEFAULT_DATA,
    FIELDS,
    KINDS,
    QUERIES,
    STYLES,
    load_queries,
    manifest_captions,
    paper_objects,
    pdf_dir,
    shared_runs,
)

from papershelf import Library


def field_problems(row: dict) -> list[str]:
    """Missing or mistyped fields and values outside the allowed sets."""
    if "_error" in row:
        return [row["_error"]]
    out = [f"field {k!r} missing or not a {t.__name__}" for k, t in FIELDS.items()
           if not isinstance(row.get(k), t) or not str(row.get(k)).strip()]
    if out:
        return out
    if row["style"] not in STYLES:
        out.append(f"style {row['style']!r} not one of {', '.join(STYLES)}")
    if row["kind"] not in KINDS:
        out.append(f"kind {row['kind']!r} not one of {', '.join(KINDS)}")
    elif not row["label"].lower().startswith(row["kind"] + " "):
        out.append(f"label {row['label']!r} does not match kind {row['kind']!r}")
    extra = set(row) - set(FIELDS)
    if extra:
        out.append(f"unknown fields {sorted(extra)}")
    return out


def parsed_objects(pdfs: Path, files: list[str], library: str | None) -> dict:
    """The object units papershelf's parser finds in the named PDFs (a temporary library unless given)."""
    paths = [str(pdfs / f) for f in sorted(set(files)) if (pdfs / f).exists()]
    with tempfile.TemporaryDirectory(prefix="papershelf-check-") as tmp, \
            Library(library or str(Path(tmp) / "check.db")) as lib:
        lib.add(paths)
        return paper_objects(lib, pdfs)


def row_problems(row: dict, manifest: dict, parsed: dict) -> list[str]:
    """Everything wrong with one well-formed row."""
    pdf, label = row["pdf"], row["label"]
    if pdf not in manifest:
        return [f"pdf {pdf!r} not in the shared pdfs/manifest.json"]
    out = []
    captions = {}
    if label in manifest[pdf]:
        captions["manifest"] = manifest[pdf][label]
    else:
        out.append(f"{label} not in the manifest for {pdf}")
    obj = parsed.get(pdf, (None, {}))[1].get(label)
    if obj is None:
        out.append(f"{label} not found by papershelf's parser in {pdf}")
    else:
        captions["parsed"] = obj["caption"] or ""
    for where, text in captions.items():
        runs = shared_runs(row["query"], text)
        if runs:
            out.append(f"shares {len(runs)} 4-word run(s) with the {where} caption: {'; '.join(runs[:3])}")
    return out


def check(rows: list[dict], pdfs: Path, library: str | None = None) -> list[str]:
    """All violations as 'id: problem' lines (empty when the set is good)."""
    problems = []
    ids = Counter(r.get("id") for r in rows)
    problems += [f"{i}: id used {n} times" for i, n in ids.items() if n > 1]
    good = []
    for r in rows:
        bad = field_problems(r)
        problems += [f"{r.get('id', '?')}: {p}" for p in bad]
        if not bad:
            good.append(r)
    manifest = manifest_captions(pdfs)
    parsed = parsed_objects(pdfs, [r["pdf"] for r in good if r["pdf"] in manifest], library)
    for r in good:
        problems += [f"{r['id']}: {p}" for p in row_problems(r, manifest, parsed)]
    return problems


def summary(rows: list[dict]) -> str:
    ok = [r for r in rows if "_error" not in r]
    return (f"{len(rows)} queries over {len({r.get('pdf') for r in ok})} papers; "
            f"kinds {dict(Counter(r.get('kind') for r in ok))}; styles {dict(Counter(r.get('style') for r in ok))}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--queries", default=str(QUERIES))
    ap.add_argument("--data", default=str(DEFAULT_DATA))
    ap.add_argument("--library", help="reuse (or create) this library file instead of a temporary one")
    args = ap.parse_args()
    pdfs = pdf_dir(args.data)
    rows = load_queries(args.queries)
    problems = check(rows, pdfs, args.library)
    print(summary(rows))
    for p in problems:
        print(p)
    if problems:
        print(f"{len(problems)} violation(s)", file=sys.stderr)
        sys.exit(1)
    print("ok")


if __name__ == "__main__":
    main()
