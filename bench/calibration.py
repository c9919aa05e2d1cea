"""Can search tell "nothing here answers this" from a real match? A threshold, measured.

On-topic: SciFact train claims against the SciFact corpus, built as
`papershelf bench beir` builds it (papershelf.beir: one plain paper per abstract;
--keep PATH reuses a built library, embedding takes ~9 minutes on 2 cores).
Off-topic: bench/data/offtopic_queries.txt (cooking, sports, law, ... and
near-miss earth and space science) against the same library: nothing answers them.

Every query runs in default hybrid search (10 results, default per-paper cap,
with --explain fields). For each response the top hit's numeric fields are
recorded (`score`, `relevance` when the API has it, and the explain fields such as
`explain.vector_score`), and for on-topic claims whether a relevant abstract is in
the top 10 ("answered"). A query is flagged when its top value is below the
threshold (no result at all = flagged). Reported per field:

* ROC-AUC of the field separating off-topic from answered on-topic queries (and from all on-topic ones);
* a threshold sweep: share of off-topic flagged, of answered on-topic wrongly flagged, of all on-topic flagged;
* for the chosen field (--field, default `relevance` if present else `score`) the threshold given with
  --threshold, or else the highest one that wrongly flags at most --max-false-flag of answered on-topic
  queries, chosen on one half of the queries and checked on the other (odd/even positions, both ways);
* when responses carry `no_confident_match`, its rates directly.

    python bench/calibration.py [--keep /tmp/sf.db] [--data ../shared/data/scifact] [--json]
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

from queryset import ROOT, embed_pending, hit_field, log, open_library, response_field

from papershelf import Library, SearchOptions
from papershelf.beir import build_library, load_beir

DEFAULT_SCIFACT = ROOT.parent / "shared" / "data" / "scifact"
OFFTOPIC = ROOT / "bench" / "data" / "offtopic_queries.txt"
SKIP_FIELDS = {"rank", "year", "explain.lexical_rank", "explain.vector_rank", "explain.vector_window"}


def sample_corpus(corpus: list[dict], qrels: dict[str, dict[str, int]], others: int) -> list[dict]:
    """Every document relevant to some claim plus the first `others` other documents in id order
    (the order `embed` works in, so a partly embedded full library is reused): a smaller library
    when there is no time to embed all of SciFact. Fewer distractors make on-topic claims easier."""
    relevant = {d for judged in qrels.values() for d, score in judged.items() if score > 0}
    rest = sorted(d["_id"] for d in corpus if d["_id"] not in relevant)[:others]
    keep = relevant | set(rest)
    return [d for d in corpus if d["_id"] in keep]


def build(lib: Library, corpus: list[dict]) -> dict:
    """The BEIR library as `papershelf bench beir` builds it, holding exactly `corpus` (papers not in it
    are removed, so --keep works across --sample sizes), embedding only what is pending."""
    t0 = time.perf_counter()
    wanted = {str(d["_id"]) for d in corpus}
    extra = [s.paper.id for s in lib.papers() if s.paper.id not in wanted]
    if extra:
        log(f"removing {len(extra)} documents not in this corpus...")
        for paper_id in extra:
            lib.remove(paper_id)
    if lib.store.count_papers() != len(corpus):
        log(f"adding {len(corpus)} abstracts...")
        build_library(lib, corpus)
    added = round(time.perf_counter() - t0, 1)
    report, seconds = embed_pending(lib, "abstracts", " (all 5,183: ~9 min on 2 idle cores)", every=250)
    return {"documents": len(corpus), "add_seconds": added, "embed_seconds": seconds,
            "embedded_now": len(report.embedded)}


def numeric_fields(hit) -> dict[str, float]:
    """The top hit's numeric fields, explain fields prefixed `explain.` (ranks and years left out)."""
    d = hit if isinstance(hit, dict) else (hit.to_dict() if hasattr(hit, "to_dict") else vars(hit))
    flat = dict(d)
    for k, v in (d.get("explain") or {}).items():
        flat[f"explain.{k}"] = v
    return {k: float(v) for k, v in flat.items()
            if isinstance(v, int | float) and not isinstance(v, bool) and k not in SKIP_FIELDS}


def run(lib: Library, items: list[dict]) -> list[dict]:
    """Search every query; record the top hit's fields, whether it was answered, and any flag."""
    for n, item in enumerate(items, start=1):
        resp = lib.search(item["text"], SearchOptions(explain=True, snippets=False))
        results = list(resp.results)
        item["fields"] = numeric_fields(results[0]) if results else {}
        item["mode"] = resp.mode
        item["no_confident_match"] = response_field(resp, "no_confident_match")
        if item["relevant"] is not None:
            item["answered"] = any(hit_field(h, "paper_id") in item["relevant"] for h in results[:10])
        if n % 200 == 0:
            log(f"  {n}/{len(items)} queries")
    return items


def value(item: dict, field: str) -> float:
    return item["fields"].get(field, -math.inf)


def auc(pos: list[float], neg: list[float]) -> float | None:
    """P(a random `pos` value > a random `neg` value), ties count half (Mann-Whitney)."""
    if not pos or not neg:
        return None
    ranked = sorted([(v, 1) for v in pos] + [(v, 0) for v in neg])
    rank_sum, i = 0.0, 0
    while i < len(ranked):
        j = i
        while j < len(ranked) and ranked[j][0] == ranked[i][0]:
            j += 1
        avg = (i + j + 1) / 2  # ranks i+1..j
        rank_sum += avg * sum(1 for _, p in ranked[i:j] if p)
        i = j
    return round((rank_sum - len(pos) * (len(pos) + 1) / 2) / (len(pos) * len(neg)), 4)


def rates(items: list[dict], field: str, threshold: float) -> dict:
    """Shares flagged (top value < threshold) among off-topic, answered on-topic and all on-topic queries."""
    def share(group: list[dict]) -> float | None:
        return round(sum(value(i, field) < threshold for i in group) / len(group), 4) if group else None
    off, on = split(items)
    return {"threshold": round(threshold, 6), "offtopic_flagged": share(off),
            "answered_wrongly_flagged": share([i for i in on if i["answered"]]), "ontopic_flagged": share(on)}


def split(items: list[dict]) -> tuple[list[dict], list[dict]]:
    return [i for i in items if i["relevant"] is None], [i for i in items if i["relevant"] is not None]


def choose(items: list[dict], field: str, max_false: float) -> float:
    """The highest threshold that flags at most `max_false` of answered on-topic queries."""
    answered = sorted(value(i, field) for i in items if i["relevant"] is not None and i["answered"])
    if not answered:
        return -math.inf
    allowed = int(math.floor(max_false * len(answered)))  # values strictly below the threshold are flagged
    return answered[min(allowed, len(answered) - 1)]


def sweep(items: list[dict], field: str, steps: int = 12) -> list[dict]:
    """Rates at evenly spaced quantiles of the on-topic values of the field."""
    vals = sorted(v for i in items if math.isfinite(v := value(i, field)))
    if not vals:
        return []
    cuts = sorted({vals[min(len(vals) - 1, round(q * (len(vals) - 1) / steps))] for q in range(steps + 1)})
    return [rates(items, field, t) for t in cuts]


def field_report(items: list[dict], field: str, max_false: float) -> dict:
    """Separation of one field: ROC-AUC, medians, the max-false-flag rule's rates, a sweep."""
    off, on = split(items)
    answered = [i for i in on if i["answered"]]
    return {"auc_vs_answered": auc([value(i, field) for i in answered], [value(i, field) for i in off]),
            "auc_vs_all_ontopic": auc([value(i, field) for i in on], [value(i, field) for i in off]),
            "median_offtopic": median([value(i, field) for i in off]),
            "median_answered": median([value(i, field) for i in answered]),
            "at_rule": rates(items, field, choose(items, field, max_false)),
            "halves": halves_check(items, field, max_false), "sweep": sweep(items, field)}


def median(xs: list[float]) -> float | None:
    xs = sorted(xs)
    return round(xs[len(xs) // 2], 6) if xs else None


def halves_check(items: list[dict], field: str, max_false: float) -> list[dict]:
    """Choose the threshold on one half (odd/even positions of each set), measure it on the other."""
    off, on = split(items)
    half = [[x for n, x in enumerate(group) if n % 2 == h] for h in (0, 1) for group in (off, on)]
    a, b = half[0] + half[1], half[2] + half[3]
    out = []
    for name, fit, test in (("fit even, test odd", a, b), ("fit odd, test even", b, a)):
        t = choose(fit, field, max_false)
        out.append({"split": name, **rates(test, field, t)})
    return out


def flag_report(items: list[dict]) -> dict | None:
    """Rates of the response's own `no_confident_match`, when this papershelf sets it."""
    if all(i["no_confident_match"] is None for i in items):
        return None
    off, on = split(items)
    answered = [i for i in on if i["answered"]]

    def share(group):
        return round(sum(bool(i["no_confident_match"]) for i in group) / len(group), 4) if group else None
    return {"offtopic_flagged": share(off), "answered_wrongly_flagged": share(answered), "ontopic_flagged": share(on)}


def load_items(folder: str, offtopic: str, max_queries: int | None,
               sample: int | None) -> tuple[list[dict], list[dict]]:
    """The corpus (sampled when asked) and the queries: on-topic claims with their relevant ids, then off-topic."""
    corpus, queries, qrels, _ = load_beir(folder)
    if sample is not None:
        corpus = sample_corpus(corpus, qrels, sample)
    on = [{"id": q, "text": t, "relevant": {d for d, s in qrels[q].items() if s > 0}} for q, t in queries.items()]
    lines = [s.strip() for s in Path(offtopic).read_text(encoding="utf-8").splitlines() if s.strip()]
    off = [{"id": f"off{n:03d}", "text": t, "relevant": None} for n, t in enumerate(lines, start=1)]
    if max_queries:
        on, off = on[:max_queries], off[:max_queries]
    return corpus, on + off


def print_text(out: dict) -> None:
    c = out["counts"]
    print(f"corpus {out['corpus']} abstracts" + (f" (sample: relevant + {out['sample']} others)" if out["sample"]
                                                else " (all)"))
    print(f"{c['ontopic']} on-topic claims ({c['answered']} answered: relevant abstract in top 10), "
          f"{c['offtopic']} off-topic queries; modes {out['modes']}")
    for field, r in out["fields"].items():
        print(f"\n{field}: ROC-AUC off-topic vs answered {r['auc_vs_answered']}, vs all on-topic "
              f"{r['auc_vs_all_ontopic']}; median off-topic {r['median_offtopic']}, answered {r['median_answered']}")
        a = r["at_rule"]
        print(f"  threshold {a['threshold']:.4f} flags {a['offtopic_flagged']:.1%} of off-topic, "
              f"{a['answered_wrongly_flagged']:.1%} of answered on-topic")
        for h in r["halves"]:
            print(f"    {h['split']}: threshold {h['threshold']:.4f}, off-topic flagged {h['offtopic_flagged']:.1%}, "
                  f"answered wrongly flagged {h['answered_wrongly_flagged']:.1%}")
    ch = out["chosen"]
    print(f"\nchosen: field {ch['field']}, threshold {ch['threshold']:.4f} ({ch['rule']})")
    print(f"  off-topic flagged {ch['offtopic_flagged']:.1%}, answered on-topic wrongly flagged "
          f"{ch['answered_wrongly_flagged']:.1%}, all on-topic flagged {ch['ontopic_flagged']:.1%}")
    for h in ch.get("halves", []):
        print(f"  {h['split']}: threshold {h['threshold']:.4f}, off-topic flagged {h['offtopic_flagged']:.1%}, "
              f"answered wrongly flagged {h['answered_wrongly_flagged']:.1%}")
    print(f"\nsweep of {ch['field']}:  threshold  off-topic flagged  answered wrongly flagged  on-topic flagged")
    for s in out["fields"][ch["field"]]["sweep"]:
        print(f"  {s['threshold']:>10.4f}  {s['offtopic_flagged']:>17.1%}  {s['answered_wrongly_flagged']:>24.1%}"
              f"  {s['ontopic_flagged']:>16.1%}")
    if out["no_confident_match"]:
        print(f"\nno_confident_match: {out['no_confident_match']}")
    else:
        print("\nresponses carry no `no_confident_match` flag (yet)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default=str(DEFAULT_SCIFACT), help="a BEIR folder (SciFact train)")
    ap.add_argument("--offtopic", default=str(OFFTOPIC))
    ap.add_argument("--keep", metavar="PATH", help="build into / reuse this library file")
    ap.add_argument("--field", help="score field to threshold (default: relevance if present, else score)")
    ap.add_argument("--threshold", type=float, help="flag below this (default: chosen by --max-false-flag)")
    ap.add_argument("--max-false-flag", type=float, default=0.05,
                    help="share of answered on-topic queries a chosen threshold may flag (default 0.05)")
    ap.add_argument("--max-queries", type=int, help="first N of each set (quick runs)")
    ap.add_argument("--sample", type=int, metavar="N",
                    help="corpus = every relevant document + the first N others by id (default: all)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    if not (Path(args.data) / "corpus.jsonl").exists():
        sys.exit(f"SciFact not found at {args.data} (pass --data PATH): nothing to measure")
    corpus, items = load_items(args.data, args.offtopic, args.max_queries, args.sample)
    with open_library(args.keep, "sf") as lib:
        built = build(lib, corpus)
        lib.search("warm up")
        log(f"searching {len(items)} queries...")
        run(lib, items)
    names = sorted({k for i in items for k in i["fields"]})
    field = args.field or ("relevance" if "relevance" in names else "score")
    if field not in names:
        sys.exit(f"no field {field!r} in the results; fields seen: {', '.join(names)}")
    off, on = split(items)
    if args.threshold is not None:
        chosen = {"field": field, "rule": "given", **rates(items, field, args.threshold)}
    else:
        t = choose(items, field, args.max_false_flag)
        chosen = {"field": field, "rule": f"highest flagging <= {args.max_false_flag:.0%} of answered on-topic",
                  **rates(items, field, t), "halves": halves_check(items, field, args.max_false_flag)}
    modes: dict[str, int] = {}
    for i in items:
        modes[i["mode"]] = modes.get(i["mode"], 0) + 1
    out = {"date": time.strftime("%Y-%m-%d"), "library": args.keep or "temporary", "build": built,
           "corpus": len(corpus), "sample": args.sample,
           "counts": {"ontopic": len(on), "answered": sum(i["answered"] for i in on), "offtopic": len(off)},
           "modes": modes, "fields": {f: field_report(items, f, args.max_false_flag) for f in names}, "chosen": chosen,
           "no_confident_match": flag_report(items),
           "queries_detail": [{k: (sorted(v) if isinstance(v, set) else v) for k, v in i.items()} for i in items]}
    if args.json:
        print(json.dumps(out, indent=1))
    else:
        print_text(out)


if __name__ == "__main__":
    main()
