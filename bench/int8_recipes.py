"""int8 recipes and window formats for the local model, measured on the DEV half only (issue 42, space9).

Half A of bench/data/space9_split.json (bench/space9_split.py) is what this script reads by default
(`--half B`: the held-out half, read once to confirm a choice made on A, never to tune; its SciFact
sub-corpus is its own library, base-sf-B.db, built by `prepare --half B` the same way):

* SciFact: the half-A train queries over a sub-corpus (every abstract they judge, plus distractors
  chosen by a fixed hash of the doc id): vector and hybrid nDCG@10;
* figure queries of the half-A PDFs: default search and objects-only MRR@10, hit@5;
* short queries of half A (even ids) whose files are among the shared PDFs (the Zotero ones are left
  out to halve the encoding): hybrid success per type.

`prepare` adds the two base libraries (no vectors) and a sample of the build's windows.  `variant NAME`
runs one recipe in this process: the export is made in its own cache directory (the quantiser is
swapped in for papershelf's own, so the library builds through the real pipeline), then
(1) the sample's vectors against the fp32 default's (cosine) and the encoding CPU of both, in turn,
in this process; (2) copies of the base libraries embedded with it and the dev metrics.

    python bench/int8_recipes.py prepare --work /tmp/space9
    python bench/int8_recipes.py variant fp32 --work /tmp/space9          # the reference
    python bench/int8_recipes.py variant pc-rr --work /tmp/space9 [--proxy-only]
    python bench/int8_recipes.py table --work /tmp/space9
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import resource
import shutil
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
SPLIT = ROOT / "bench" / "data" / "space9_split.json"
DATA = ROOT.parent / "shared" / "data"
if not (DATA / "scifact").is_dir():
    DATA = Path("/work/shared/data")
DISTRACTORS = 700
HALF = "A"  # `--half B`: the held-out half, read once (the lead's confirmation), never tuned on


def sf_base() -> str:
    """The SciFact sub-corpus library of the half read: half B's is built the same way as half A's."""
    return "base-sf.db" if HALF == "A" else f"base-sf-{HALF}.db"


def tag(name: str) -> str:
    """A variant's results name: half A keeps space9's names."""
    return name if HALF == "A" else f"{name}-{HALF}"


def cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def log(msg: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


# ---- recipes -------------------------------------------------------------------------------------

def _named(src: Path) -> Path:
    """The fp32 graph with each MatMul named after its weight (encoder.layer.3.output.dense), so
    nodes can be excluded by name."""
    import onnx

    model = onnx.load(str(src))
    inits = {i.name for i in model.graph.initializer}
    for n, node in enumerate(model.graph.node):
        weight = next((i for i in node.input if i in inits and i.endswith(".weight")), None)
        node.name = weight.removesuffix(".weight") if node.op_type == "MatMul" and weight else f"{node.op_type}_{n}"
    out = src.with_name("named.onnx")
    onnx.save(model, str(out))
    return out


def _layers(*which: int) -> list[str]:
    parts = ("attention.self.query", "attention.self.key", "attention.self.value", "attention.output.dense",
             "intermediate.dense", "output.dense")
    return [f"encoder.layer.{i}.{p}" for i in which for p in parts]


def _ffn_out() -> list[str]:
    return [f"encoder.layer.{i}.output.dense" for i in range(6)]


def _attn_out() -> list[str]:
    return [f"encoder.layer.{i}.attention.output.dense" for i in range(6)]


RECIPES: dict[str, dict] = {
    "pc": {},                                                      # main's recipe
    "pt": {"per_channel": False},                                  # per-tensor (main before)
    "pc-rr": {"reduce_range": True},                               # 7-bit weights: no u8s8 saturation
    "pc-u8u8": {"weight_type": "QUInt8"},                          # uint8 weights: the u8u8 kernel
    "pc-rr-noffn2": {"reduce_range": True, "exclude": _ffn_out()},
    "pc-noffn2": {"exclude": _ffn_out()},
    "pc-noattnout": {"exclude": _attn_out()},
    "pc-nofirst": {"exclude": _layers(0)},
    "pc-nolast": {"exclude": _layers(5)},
    "pc-rr-nolast": {"reduce_range": True, "exclude": _layers(5)},
    "pc-rr-nofirstlast": {"reduce_range": True, "exclude": _layers(0, 5)},
    "pc-u8u8-noffn2": {"weight_type": "QUInt8", "exclude": _ffn_out()},
    "pc-u8u8-noffn2-0": {"weight_type": "QUInt8", "exclude": _ffn_out()[:1]},
    "pc-u8u8-noffn2-01": {"weight_type": "QUInt8", "exclude": _ffn_out()[:2]},
    "pc-noffn2-45": {"exclude": _ffn_out()[4:]},
    "pc-noffn2-0": {"exclude": _ffn_out()[:1]},
    "pc-noffn2-5": {"exclude": _ffn_out()[5:]},
    "pc-symact": {"extra": {"ActivationSymmetric": True}},
    "pc-rr-symact": {"reduce_range": True, "extra": {"ActivationSymmetric": True}},
}


def make_quantizer(name: str):
    recipe = RECIPES[name]

    def quantize(src: Path, out: Path, *_) -> None:
        from onnxruntime.quantization import QuantType, quantize_dynamic

        named = _named(Path(src))
        quantize_dynamic(str(named), str(out), weight_type=getattr(QuantType, recipe.get("weight_type", "QInt8")),
                         per_channel=recipe.get("per_channel", True), reduce_range=recipe.get("reduce_range", False),
                         op_types_to_quantize=["MatMul"], nodes_to_exclude=recipe.get("exclude", []),
                         extra_options=dict(recipe.get("extra", {})))
        named.unlink()
    return quantize


# ---- window formats (part 2) ---------------------------------------------------------------------

# name -> (head in every window, neighbouring windows share a sentence, head = title only)
FORMATS: dict[str, tuple[bool, bool, bool]] = {
    "fmt-main": (True, True, False),
    "fmt-headfirst": (False, True, False),
    "fmt-noshare": (True, False, False),
    "fmt-titleonly": (True, True, True),
    "fmt-headfirst-noshare": (False, False, False),
    "fmt-titleonly-noshare": (True, False, True),
}


def format_windows(name: str):
    """embed/windows.windows for a lighter format: the head only in a unit's first window (the
    others get the whole budget for body), no sentence shared between neighbours, or the title
    without the section path."""
    from papershelf.embed.windows import _SPECIAL, _split_long, cut
    from papershelf.text import split_sentences

    every, share, title_only = FORMATS[name]

    def windows(head: str, body: str, budget, count, *_) -> list[str]:  # the space's own format ignored
        if title_only and "\n" in head:
            head = head.split("\n", 1)[0]
        if every and share:
            h, parts = cut(head, body, budget, count)
            return [f"{h}\n{p}" if h else p for p in parts]
        sentences = split_sentences(body)
        if not budget or not sentences:
            return [f"{head}\n{body}" if head else body]
        head_tokens, *lengths = count([head, *sentences]) if head else [0, *count(sentences)]
        if head_tokens + sum(lengths) + len(sentences) + _SPECIAL <= budget:
            return [f"{head}\n{body}" if head else body]
        if head and head_tokens > budget // 2:
            head = " ".join(head.split()[:max(1, len(head.split()) * (budget // 2) // head_tokens)])
            head_tokens = budget // 2
        out: list[str] = []
        start, first = 0, True
        pieces: list[tuple[str, int]] = []
        small = max(1, budget - head_tokens - _SPECIAL)
        for s, n in zip(sentences, lengths):
            pieces += _split_long(s, n, small) if n > small else [(s, n)]
        while start < len(pieces):
            with_head = bool(head) and (every or first)
            room = max(1, budget - (head_tokens if with_head else 0) - _SPECIAL)
            end, used = start, 0
            while end < len(pieces) and (end == start or used + pieces[end][1] + 1 <= room):
                used += pieces[end][1] + 1
                end += 1
            text = " ".join(p for p, _ in pieces[start:end])
            out.append(f"{head}\n{text}" if with_head else text)
            first = False
            if end >= len(pieces):
                break
            start = end - 1 if share and end - 1 > start else end
        return out

    return windows


def patch_format(name: str) -> None:
    """Swap the build's window cutter for a lighter format (bench only; the space is this library's)."""
    import papershelf.embed.build as build

    build.windows = format_windows(name)


def tokens_per_words(work: Path) -> dict:
    """Wordpieces the build encodes per format, against the same units' words cut into 90-word texts
    (what plain sentence-transformers encodes in the issue's reference), [CLS]/[SEP] counted."""
    from papershelf import Library
    from papershelf.embed.local import LocalProvider
    from papershelf.units import embedding_parts

    p = LocalProvider()
    out: dict = {}
    for base in ("base-sq.db", "base-sf.db"):
        units = []
        with Library(str(work / base)) as lib:
            for pid in lib.store.manifest_paper_ids():
                paper, _, us = lib.store.paper_snapshot(pid)
                units += [embedding_parts(u, paper.title) for u in us if u.indexable]
        words = " ".join(body for _, body in units).split()
        plain = [" ".join(words[i:i + 90]) for i in range(0, len(words), 90)]
        ref = sum(p.count_tokens(plain)) + 2 * len(plain)
        row: dict = {"words": len(words), "texts_90w": len(plain), "tokens_90w": ref}
        for name in FORMATS:
            ws = [w for h, b in units for w in format_windows(name)(h, b, p.window_tokens, p.count_tokens)]
            n = sum(p.count_tokens(ws)) + 2 * len(ws)
            row[name] = {"windows": len(ws), "tokens": n, "over_90w": round(n / ref, 3)}
        out[base] = row
    return out


# ---- data ----------------------------------------------------------------------------------------

def split() -> dict:
    return json.loads(SPLIT.read_text(encoding="utf-8"))


def scifact_dev():
    from papershelf.beir import load_beir

    corpus, queries, qrels, _ = load_beir(str(DATA / "scifact"), None, str(DATA / "scifact" / "qrels-train.tsv"))
    half = set(split()["scifact"][HALF])
    queries = {q: t for q, t in queries.items() if q in half}
    judged = {d for q in queries for d in qrels[q]}
    rest = sorted((hashlib.sha256(f"space9:{d['_id']}".encode()).hexdigest(), d["_id"]) for d in corpus
                  if d["_id"] not in judged)
    keep = judged | {d for _, d in rest[:DISTRACTORS]}
    return [d for d in corpus if d["_id"] in keep], queries, {q: qrels[q] for q in queries}


def prepare(work: Path) -> None:
    from papershelf import Library
    from papershelf.beir import build_library

    work.mkdir(parents=True, exist_ok=True)
    corpus, queries, _ = scifact_dev()
    if not (work / sf_base()).exists():
        with Library(str(work / sf_base())) as lib:
            build_library(lib, corpus)
    if not (work / "base-sq.db").exists():  # the 27 shared PDFs: figure queries, and short queries on them
        with Library(str(work / "base-sq.db")) as lib:
            lib.add([str(DATA / "pdfs")])
    from encode_cpu import library_windows

    if (work / "sample.json").exists() or HALF != "A":
        return
    sample: list[str] = []
    for name in ("base-sq.db", "base-sf.db"):
        ws = library_windows(str(work / name), 0)
        log(f"{name}: {len(ws)} windows")
        sample += ws[:: max(1, len(ws) // 300)][:300]
    (work / "sample.json").write_text(json.dumps(sample), encoding="utf-8")
    log(f"scifact dev: {len(corpus)} docs, {len(queries)} queries; sample {len(sample)} windows")


# ---- one variant ---------------------------------------------------------------------------------

def proxy(name: str, work: Path, rounds: int) -> dict:
    """Cosine of the sample's vectors to the fp32 default's (cached once); with rounds > 0 also the
    encoding CPU of fp32 and the variant on the sample, in turn, in this process."""
    import numpy as np

    from papershelf.embed.local import LocalProvider

    texts = json.loads((work / "sample.json").read_text(encoding="utf-8"))
    ref_file = work / "sample-fp32.npy"

    def vectors(p) -> np.ndarray:
        return np.concatenate([p.encode(texts[i:i + 256]) for i in range(0, len(texts), 256)])

    fp32 = LocalProvider() if rounds or not ref_file.exists() else None
    if not ref_file.exists():
        np.save(ref_file, vectors(fp32))
    ref = np.load(ref_file)
    other = LocalProvider(quantize=None if name == "fp32" or name.startswith("fmt-") else "int8")
    mine = vectors(other)
    cos = (ref * mine).sum(axis=1)
    out: dict = {"windows": len(texts), "cos_mean": round(float(cos.mean()), 5), "cos_min": round(float(cos.min()), 5),
           "cos_p1": round(float(np.percentile(cos, 1)), 5)}
    times: dict[str, list[float]] = {"fp32": [], name: []}
    for r in range(rounds):
        for label, p in ((("fp32", fp32), (name, other)) if r % 2 == 0 else ((name, other), ("fp32", fp32))):
            t = cpu()
            vectors(p)
            times[label].append(cpu() - t)
    if rounds:
        med = {k: sorted(v)[len(v) // 2] for k, v in times.items()}
        out |= {"cpu_fp32_s": round(med["fp32"], 2), "cpu_s": round(med[name], 2),
                "fp32_over_variant": round(med["fp32"] / max(med[name], 1e-9), 3), "cpu_rounds": times}
    return out


def _embedded(name: str, work: Path, base: str, spec, out: dict) -> Path:
    """A copy of a base library embedded with this variant (its embedding CPU and wall in `out`)."""
    from papershelf import Library

    lib_path = work / f"{name}-{base}"
    if not lib_path.exists():
        shutil.copyfile(work / base, lib_path.with_suffix(".tmp"))
        with Library(str(lib_path.with_suffix(".tmp"))) as lib:
            t0, c0 = time.perf_counter(), cpu()
            rep = lib.embed(spec)
            out[f"embed_{base}"] = {"windows": rep.windows, "cpu_s": round(cpu() - c0, 1),
                                    "wall_s": round(time.perf_counter() - t0, 1)}
        os.replace(lib_path.with_suffix(".tmp"), lib_path)
    return lib_path


def _figure_and_short(lib, out: dict) -> None:
    from figure_queries import metrics as fig_metrics
    from figure_queries import target_rank
    from queryset import load_queries, paper_objects
    from short_queries import file_papers, run, summary

    from papershelf import Filters, SearchOptions

    sp = split()
    lib.search("warm up")
    papers = paper_objects(lib, DATA / "pdfs")
    figs = [q for q in load_queries(str(ROOT / "bench/data/figure_queries.jsonl"))
            if "_error" not in q and q["pdf"] in set(sp["figure_pdfs"][HALF])]
    for cfg, opts in (("default", lambda: SearchOptions()),
                      ("objects", lambda: SearchOptions(filters=Filters(sources=["object_unit"])))):
        ranks = []
        for q in figs:
            pid = papers[q["pdf"]][0] if q["pdf"] in papers else None
            ranks.append(target_rank(lib.search(q["query"], opts()).results, pid, q["label"]) if pid else None)
        m = fig_metrics(ranks)
        out[f"figure_{cfg}"] = {k: m[k] for k in ("n", "hit@1", "hit@5", "mrr")}
        out[f"figure_{cfg}_ranks"] = ranks
    shorts = [json.loads(x) for x in (ROOT / "bench/data/short_queries.jsonl").read_text().splitlines() if x.strip()]
    fp = file_papers(lib, DATA)
    shorts = [q for q in shorts if q["id"] in set(sp["short"][HALF]) and all(f in fp for f in q.get("files", []))]
    rows = run(lib, shorts, fp, "hybrid")
    out["short_hybrid"] = summary(rows)["hybrid"]
    out["short_answered"], out["short_n"] = sum(1 for r in rows if r["answered"]), len(rows)


def quality(name: str, work: Path) -> dict:
    """The figure and short queries first (the set int8 failed on), then SciFact; a partial result
    is written after each."""
    from papershelf import Library
    from papershelf.beir import evaluate
    from papershelf.embed.base import ProviderSpec

    # fp32 is main's window format (1) explicitly: a new library would get NEW_WINDOW_FORMAT.
    spec = (ProviderSpec("local", None, (("quantize", "int8"),)) if name in RECIPES
            else ProviderSpec("local", None, (("window_format", 1),)) if name == "fp32" else ProviderSpec())
    out: dict = {"half": HALF}
    partial = work / "results" / f"{tag(name)}-partial.json"
    partial.parent.mkdir(exist_ok=True)
    with Library(str(_embedded(name, work, "base-sq.db", spec, out))) as lib:
        _figure_and_short(lib, out)
    partial.write_text(json.dumps(out, indent=1), encoding="utf-8")
    _, queries, qrels = scifact_dev()
    with Library(str(_embedded(name, work, sf_base(), spec, out))) as lib:
        lib.search("warm up", mode="vector")
        for mode in ("vector", "hybrid"):
            r = evaluate(lib, queries, qrels, mode)
            out[f"scifact_{mode}"] = {k: r[k] for k in ("queries", "ndcg@10", "mrr@10", "recall@100")}
    partial.write_text(json.dumps(out, indent=1), encoding="utf-8")
    return out


def variant(name: str, work: Path, proxy_only: bool, rounds: int) -> None:
    if name in RECIPES:
        os.environ["PAPERSHELF_CACHE_DIR"] = str(work / "cache" / name)
        import papershelf.embed.onnx as onnx_mod

        onnx_mod._quantize_int8 = make_quantizer(name)
    elif name in FORMATS:
        patch_format(name)
    elif name != "fp32":
        sys.exit(f"unknown variant {name}")
    result: dict = {"variant": name, "recipe": RECIPES.get(name), "load": os.getloadavg()}
    log(f"{name}: proxy")
    if name not in FORMATS:
        result["proxy"] = proxy(name, work, rounds)
        log(json.dumps(result["proxy"]))
    if not proxy_only:
        result["quality"] = quality(name, work)
        log(json.dumps({k: v for k, v in result["quality"].items() if not k.endswith("ranks")}))
    (work / "results").mkdir(exist_ok=True)
    suffix = "-proxy" if proxy_only else ""
    (work / "results" / f"{tag(name)}{suffix}.json").write_text(json.dumps(result, indent=1), encoding="utf-8")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("what", choices=("prepare", "variant", "tokens", "table"))
    ap.add_argument("name", nargs="?")
    ap.add_argument("--work", default="/tmp/space9")
    ap.add_argument("--proxy-only", action="store_true")
    ap.add_argument("--rounds", type=int, default=0, help="CPU rounds (0: cosine only)")
    ap.add_argument("--half", choices=("A", "B"), default="A", help="B: the held-out half, read once")
    args = ap.parse_args()
    global HALF
    HALF = args.half
    work = Path(args.work)
    if args.what == "prepare":
        prepare(work)
    elif args.what == "tokens":
        print(json.dumps(tokens_per_words(work), indent=1))
    elif args.what == "variant":
        variant(args.name, work, args.proxy_only, args.rounds)
    else:
        for f in sorted((work / "results").glob("*.json")):
            r = json.loads(f.read_text())
            q = {k: v for k, v in r.get("quality", {}).items() if not k.endswith("ranks")}
            print(f.stem, json.dumps(r.get("proxy")), json.dumps(q))


if __name__ == "__main__":
    main()
