"""Train the heading model (papershelf/ingest/pdf/sections/heading_model.json) from derived truth, and measure it
leave-publisher-out against the rules alone.

Examples come from the reader itself (heading_model.RECORD): every short paragraph it considers,
with its cues and the rules' verdict, read with the PDF's outline hidden.  Labels come from truth
nobody tuned by hand, aligned as bench/pdf_headings_score.py matches headings:

* the outlines (bookmarks) of the dev halves of ../shared/data/pdfs-wide (bench/data/wide_split.json)
  and ../shared/data/pdfs (bench/data/pdf_split.json), as bench/pdf_outline_headings.py reads them
  (the wide dev outlines as frozen and corrected in bench/data/outline_headings_dev.json: an outline
  that lists an author line or list items would teach the model they are headings);
* the section titles of the wide corpus's structured twins on the dev half (bench/data/wide_twins.json);
* generated papers with headings by construction (bench/gen_headings.py, dev seeds);
* with --hand, the hand-read headings of dev PDFs without outline (bench/data/wide_headings_dev.json)
  and of the Zotero library's dev PDFs (bench/data/zotero_headings_dev.json), source "hand".

A paragraph matching a required entry is a heading (1), one matching nothing is not (0); one that
matches only an optional entry (deeper levels, front and back matter an outline leaves out, titles
the page does not print), or a numbered one deeper than any number its truth holds, is left out:
the aligner cannot say.

Leave-publisher-out: for each publisher family of the real dev papers, the model is trained on the
other families (and the generated papers), its thresholds chosen by the same procedure inside the
training families only, and the held-out family's papers are scored as the reader would print them.

    python bench/train_headings.py [--collect] [--cache FILE] [--gen 300] [--hand] [--kind trees|logistic] [--write [--adopt]] [--json]
    python bench/train_headings.py --hand --cache FILE --train-without hand   # same held-out papers, no hand truth in training
    python bench/train_headings.py --hand --cache FILE --fixed-thresholds [--train-without hand]   # a quick reading
    python bench/train_headings.py --score-half test --gen 0   # the shipped model on the test half, once
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # small matrices: threads only contend on shared cores
os.environ.setdefault("OMP_NUM_THREADS", "1")
import fit_headings
from fit_headings import doc_probs, fit, folds_of, lpo_probs, pick_thresholds, simulate_scores
from pdf_headings_score import _same as same_heading
from pdf_headings_score import split_number

from papershelf.document import Document
from papershelf.ingest.pdf import reader
from papershelf.ingest.pdf.sections import heading_model
from papershelf.ingest.pdf.sections.heading_features import NAMES

ROOT = Path(__file__).resolve().parent.parent
CACHE = Path(tempfile.gettempdir()) / "papershelf-heading-examples.json"
FROZEN = ROOT / "bench" / "data" / "outline_headings_dev.json"  # the dev outlines' truth, corrected where an outline errs
VERSION = 1


def read_recorded(data: bytes) -> tuple[list[dict], list[dict], Document]:
    """The reader's candidates (cues, rules' verdict), its run-in lead-ins, and the Document, outline hidden."""
    records: list[dict] = []
    heading_model.RECORD = records
    runins: list[dict] = []
    real_outline, real_runin = reader.read_outline, reader.to_blocks.__globals__["_Decider"].runin

    def runin(self, p):
        lead = real_runin(self, p)
        if lead:
            runins.append({"pos": len(records), "text": lead[0], "level": lead[1], "page": p.first.page,
                           "para": p.text})
        return lead

    reader.read_outline = lambda pdf: []
    reader.to_blocks.__globals__["_Decider"].runin = runin
    try:
        doc = reader.read_pdf(data)
    finally:
        heading_model.RECORD = None
        reader.read_outline = real_outline
        reader.to_blocks.__globals__["_Decider"].runin = real_runin
    return records, runins, doc


def label(rec: dict, truth: list[dict]) -> int | None:
    """1 a required heading, 0 none, None when the aligner cannot tell."""
    parts = split_number(rec["text"])
    hits = [e for e in truth if same_heading(parts, e)]
    if any(not e.get("optional") for e in hits):
        return 1
    if hits:
        return None
    depth = max((len(e["number"].split(".")) for e in truth if e.get("number")), default=0)
    if parts[0] and len(parts[0].split(".")) > depth and rec["rule"]:
        return None  # a numbered sub-heading below what the truth lists
    return 0


def _wide_docs(data: Path, half: str) -> list[tuple[str, str, str, bytes, list[dict]]]:
    """(name, family, source, pdf bytes, truth) of one half of the wide corpus: outlines and twins."""
    from pdf_outline_headings import outline_truth

    split = json.loads((ROOT / "bench" / "data" / "wide_split.json").read_text())
    twins = json.loads((ROOT / "bench" / "data" / "wide_twins.json").read_text())
    frozen = json.loads(FROZEN.read_text()) if half == "dev" else {}
    out = []
    for path in sorted((data / "pdfs-wide").glob("*.pdf")):
        info = split.get(path.name, {})
        if info.get("half") != half:
            continue
        raw = path.read_bytes()
        try:
            truth = frozen.get(path.name) or outline_truth(raw)
        except Exception:  # noqa: BLE001 — an outline pdfium cannot read gives no truth
            truth = []
        if truth:
            out.append((path.name, info["family"], "outline", raw, truth))
        elif path.name in twins and twins[path.name]["headings"]:
            out.append((path.name, info["family"], "twin", raw, twins[path.name]["headings"]))
    return out


def _shared_docs(data: Path, half: str) -> list[tuple[str, str, str, bytes, list[dict]]]:
    """The shared PDFs of one half (bench/data/pdf_split.json) that carry an outline."""
    from pdf_outline_headings import outline_truth

    split = json.loads((ROOT / "bench" / "data" / "pdf_split.json").read_text())
    out = []
    for name in split[half]:
        path = data / "pdfs" / name
        if not path.exists():
            continue
        raw = path.read_bytes()
        truth = outline_truth(raw)
        if truth:
            family = name.split("-")[0].split("_")[0].rstrip("0123456789")
            out.append((name, family, "shared-outline", raw, truth))
    return out


def _hand_docs(data: Path, half: str) -> list[tuple[str, str, str, bytes, list[dict]]]:
    """The hand-read dev PDFs (wide corpus without outline, Zotero library) with their truth; none for
    the test half, whose hand-read truth is not in the repository."""
    from pdf_authors_zotero import half_of as zotero_half
    from wide_headings import truth_entries

    if half != "dev":
        return []
    split = json.loads((ROOT / "bench" / "data" / "wide_split.json").read_text())
    out = []
    for file, folder in (("wide_headings_dev.json", data / "pdfs-wide"), ("zotero_headings_dev.json", data / "zotero" / "storage")):
        for name, paper in json.loads((ROOT / "bench" / "data" / file).read_text()).items():
            path = folder / name
            dev = split.get(name, {}).get("half") == "dev" if "/" not in name else zotero_half(name.split("/")[0]) == "dev"
            if name.startswith("_") or not dev or not path.exists():
                continue
            family = split[name]["family"] if "/" not in name else paper["publisher"]
            out.append((name, family, "hand", path.read_bytes(), truth_entries(paper["headings"])))
    return out


def collect(data: Path, gen: int, half: str = "dev", shared: bool = True, hand: bool = False) -> list[dict]:
    """Every document's examples of one half, labelled (`shared`: the shared PDFs' outlines too; `hand`:
    the hand-read dev PDFs)."""
    from gen_headings import make
    from gen_seeds import half_of

    docs = _wide_docs(data, half) + (_shared_docs(data, half) if shared else []) + (_hand_docs(data, half) if hand else [])
    with tempfile.TemporaryDirectory() as tmp:
        for seed in range(gen):
            if half_of(seed) == half:
                path = Path(tmp) / f"gen-{seed}.pdf"
                truth, _ = make(seed, str(path))
                docs.append((f"gen-{seed}", "generated", "generated", path.read_bytes(), truth))
        out = []
        for name, family, source, raw, truth in docs:
            try:
                records, runins, doc = read_recorded(raw)
            except Exception as e:  # noqa: BLE001 — a PDF the reader refuses gives no examples
                print(f"{name}: {e}", file=sys.stderr)
                continue
            for r in records:
                r["y"] = label(r, truth) if r["x"] is not None else None
            out.append({"name": name, "family": family, "source": source, "truth": truth, "records": records,
                        "runins": runins, "title": doc.title, "authors": doc.authors})
    return out


def model_json(model: dict, veto: float, admit: float, adopted: bool, about: dict) -> dict:
    return {"version": VERSION, "features": list(NAMES), **model, "veto": veto, "admit": admit,
            "adopted": adopted, "trained_on": about}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    ap.add_argument("--cache", type=Path, default=CACHE, help="examples collected once (outside the repository)")
    ap.add_argument("--collect", action="store_true", help="read the PDFs again even when the cache exists")
    ap.add_argument("--gen", type=int, default=300, help="generated papers: seeds 0 .. N-1, dev (even) seeds")
    ap.add_argument("--write", action="store_true", help="write papershelf/ingest/pdf/sections/heading_model.json")
    ap.add_argument("--adopt", action="store_true", help="with --write: the reader uses the model")
    ap.add_argument("--score-half", choices=("dev", "test"), help="no training: score the shipped model on this "
                    "half (rules alone, model alone, combined), e.g. the test half's one reading")
    ap.add_argument("--hand", action="store_true", help="collect the hand-read dev PDFs too (source 'hand')")
    ap.add_argument("--train-without", default="", help="a source left out of every training set (not of "
                    "the held-out papers): 'hand' measures what the hand-read truth adds")
    ap.add_argument("--fixed-thresholds", action="store_true", help="each fold uses the shipped model's veto "
                    "and admit instead of choosing them leave-family-out inside the fold (one fit per fold, not one "
                    "per pair of families: minutes instead of hours on a shared machine)")
    ap.add_argument("--kind", choices=("trees", "logistic"), default="trees")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    fit_headings.KIND = args.kind
    if args.score_half:
        return score_shipped(args)
    if args.collect or not args.cache.exists():
        if not (args.data / "pdfs-wide").exists():
            print(f"no wide corpus under {args.data}: nothing to train on", file=sys.stderr)
            return 1
        args.cache.write_text(json.dumps(collect(args.data, args.gen, hand=args.hand)))
    docs = json.loads(args.cache.read_text())
    folds = folds_of(docs)
    rows = []
    for held, train_docs, test_docs in folds:
        train = [d for d in train_docs if d["source"] != args.train_without]
        probs = lpo_fixed(train, test_docs) if args.fixed_thresholds else lpo_probs(train, test_docs)
        rows.append({"family": held, **simulate_scores(test_docs, probs)})
    report: dict = {"folds": rows, "total": _total(rows)}
    if args.fixed_thresholds:  # a measurement only: no weights are fitted with thresholds not chosen in the folds
        _print(rows + [report["total"]], args.json)
        return 0
    docs = [d for d in docs if d["source"] != args.train_without]
    fitted = fit(docs)
    veto, admit = pick_thresholds(docs)
    about = {"documents": len(docs), "examples": sum(r["y"] is not None for d in docs for r in d["records"]),
             "sources": sorted({d["source"] for d in docs}), "families": len({d["family"] for d in docs})}
    model = model_json(fitted, veto, admit, args.adopt, about)
    report["model"] = {"veto": veto, "admit": admit, **about}
    if args.write:
        heading_model.WEIGHTS.write_text(json.dumps(model, indent=1) + "\n")
    if args.json:
        print(json.dumps(report, indent=1))
    else:
        _print(rows + [report["total"]], False)
        print(f"thresholds veto {veto} admit {admit}; {about}")
    return 0


def lpo_fixed(train: list[dict], test: list[dict]) -> dict:
    """`fit_headings.lpo_probs` with the shipped model's thresholds instead of ones chosen in the fold."""
    shipped, model = heading_model.load(), fit(train)
    return {"probs": [doc_probs(model, d) for d in test], "veto": shipped["veto"], "admit": shipped["admit"]}


def score_shipped(args) -> int:
    """Rules alone, the shipped model alone and the two combined, per family, on one half of the wide
    corpus (and `--gen` generated papers of that half)."""
    model = heading_model.load()
    docs = collect(args.data, args.gen, args.score_half, shared=False)
    rows = []
    for fam in sorted({d["family"] for d in docs}):
        test = [d for d in docs if d["family"] == fam]
        probs = [[heading_model.probability(model, r["x"]) if r["x"] is not None else None for r in d["records"]]
                 for d in test]
        rows.append({"family": fam, **simulate_scores(test, {"probs": probs, "veto": model["veto"],
                                                             "admit": model["admit"]})})
    _print(rows + [_total(rows, f"TOTAL ({args.score_half} half)")], args.json)
    return 0


def _print(rows: list[dict], as_json: bool) -> None:
    if as_json:
        print(json.dumps(rows, indent=1))
        return
    for r in rows:
        print(f"{r['family']:32s} papers {r['papers']:3d} truth {r['truth']:4d}  rules P {r['rules_p']:.3f} "
              f"R {r['rules_r']:.3f}  model P {r['model_p']:.3f} R {r['model_r']:.3f}  "
              f"combined P {r['comb_p']:.3f} R {r['comb_r']:.3f}")


def _total(rows: list[dict], name: str = "TOTAL (real, left out)") -> dict:
    real = [r for r in rows if r["family"] != "generated"]
    out: dict = {"family": name, "papers": sum(r["papers"] for r in real),
                 "truth": sum(r["truth"] for r in real)}
    for k in ("rules", "model", "comb"):
        tp = sum(r[f"{k}_tp"] for r in real)
        fp = sum(r[f"{k}_fp"] for r in real)
        out[f"{k}_tp"], out[f"{k}_fp"] = tp, fp
        out[f"{k}_p"] = round(tp / (tp + fp), 4) if tp + fp else 1.0
        out[f"{k}_r"] = round(tp / out["truth"], 4) if out["truth"] else 1.0
    return out


if __name__ == "__main__":
    sys.exit(main())
