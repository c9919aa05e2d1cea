"""The CLI's text output: each command's `--json` shape rendered for people (Rich), so an answer from
a running server prints exactly as one computed in-process.  `PRINTERS` holds the operations' tables
(cli_ops.py prints the others with the operation's own text)."""

from __future__ import annotations

import json
import re
import sys

from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

out = Console(soft_wrap=True)  # one line per item when piped: grep-able
err = Console(stderr=True, soft_wrap=True)


def dump(data) -> None:
    """One JSON document on stdout; strict JSON (NaN or infinity would be a bug, not output)."""
    sys.stdout.write(json.dumps(data, ensure_ascii=False, default=str, allow_nan=False) + "\n")


def plural(n: int, word: str, many: str | None = None) -> str:
    """`1 paper`, `2 papers`: counts people read."""
    return f"{n} {word if n == 1 else (many or word + 's')}"


def print_build(d: dict) -> None:
    out.print(f"embedded {plural(d['embedded'], 'paper')} ({plural(d['units'], 'unit')} encoded as "
              f"{plural(d['windows'], 'window')}, {d['reused']} reused) in {d['seconds']:.1f}s; "
              f"{d['skipped']} already up to date; {len(d['failed'])} failed")
    if d["units"] == 0 and not d["failed"]:
        out.print("nothing to embed: every paper is up to date")
    for pid, reason in d["failed"].items():
        out.print(f"  [red]failed[/red] {escape(pid)}: {escape(reason)}")
    if d["pending_after"]:
        out.print(f"{plural(d['pending_after'], 'paper')} still pending: run `papershelf embed` again")
    if d.get("provider_down"):
        err.print(f"[red]error:[/red] stopped: {escape(d['provider_down'])}")


def print_search(d: dict) -> None:
    """Print a search result from its JSON shape, so an answer from a server prints exactly as one
    computed here."""
    for n in d["notices"]:
        err.print(f"[yellow]note:[/yellow] {escape(n)}")
    if d.get("no_confident_match"):
        out.print("[yellow]no confident match:[/yellow] nothing here clearly answers this query"
                  + ("; the closest hits follow" if d["results"] else ""))
    if not d["results"]:
        out.print("no results")
        return
    for h in d["results"]:
        where = h["object_label"] or h["section_path"] or h["source"]
        pages = f" p.{h['pages']}" if h["pages"] else ""
        pages += " · OCR" if h.get("ocr") else ""  # the text was read from a scan: it may hold OCR errors
        year = f" ({h['year']})" if h["year"] else ""
        out.print(f"[bold]{h['rank']}.[/bold] [cyan]{escape(h['title'] or h['paper_id'])}[/cyan]{year}  "
                  f"[dim]{h['source']} · {escape(where)}{pages} · {h['unit_id']}[/dim]")
        out.print(_highlighted(h["snippet"] or ""), highlight=False)
        if h.get("zotero_link"):
            out.print(f"   [dim]{h['zotero_link']}[/dim]")
        x = h.get("explain")
        if x is not None:
            out.print(f"   [dim]{_explained(h, x)}[/dim]")


def _explained(h: dict, x: dict) -> str:
    """score · relevance · each list's rank and score, or that the list did not find the unit."""
    parts = [f"score {h['score']}", f"relevance {h.get('relevance')}"]
    for name in ("lexical", "vector"):
        rank = x.get(f"{name}_rank")
        if rank is None:
            parts.append(f"not in the {name} list")
            continue
        window = f", window {x['vector_window'] + 1}" if name == "vector" and x.get("vector_window") else ""
        parts.append(f"{name} rank {rank} ({x.get(f'{name}_score')}{window})")
    return " · ".join(parts)


def _highlighted(snippet: str) -> Text:
    """The snippet with its [marked] terms in bold, whatever characters it holds."""
    text = Text("   ")
    for n, part in enumerate(re.split(r"\[([^\[\]]*)\]", snippet)):
        text.append(part, style="bold yellow" if n % 2 else None)
    return text


def print_status(st: dict) -> None:
    """`status` as text."""
    out.print(f"library  {st['library']}  ({st['size_bytes'] / 2**20:.1f} MiB, schema {st['schema_version']})")
    out.print(f"papers   {st['papers']}" + (f"  ({st['failed_files']} files failed to parse)"
                                             if st["failed_files"] else ""))
    t = Table("units", "total", "indexable", "vetoed")
    for kind, label in (("body", "body units"), ("object", "figure/table units"), ("chunk", "fulltext chunks")):
        u = st["units"][kind]
        t.add_row(label, str(u["total"]), str(u["indexable"]), str(u["vetoed"]))
    out.print(t)
    e = st["embedding"]
    space = e["target_space"] or e["active_space"]
    if space is None:
        out.print(f"vectors  none yet ({e['pending_papers']} papers pending): run `papershelf embed`")
        return
    windows = f", windows of {space['window_tokens']} tokens" if space.get("window_tokens") else ""
    out.print(f"space    {space['provider']}/{space['model']} ({space['dimension']}d{windows}, {space['fingerprint']})"
              + ("" if space["completed_at"] else "  [yellow]incomplete[/yellow]"))
    if e["active_space"] and e["target_space"] and e["active_space"]["id"] != e["target_space"]["id"]:
        a = e["active_space"]
        out.print(f"search   answers from {a['provider']}/{a['model']} until the new space is complete")
    t = Table("collection", "vectors stored", "expected", "pending papers", "failed papers")
    for name, c in e["collections"].items():
        t.add_row(name, str(c["stored"]), str(c["expected"]), str(c["pending_papers"]), str(c["failed_papers"]))
    t.add_row("total", str(e["stored_total"]), str(e["expected_total"]), str(e["pending_papers"]),
              str(e["failed_papers"]))
    out.print(t)
    for f in e.get("failures", []):
        out.print(f"  [red]failed[/red] {escape(f['paper_id'])}: {escape(f['reason'])}")


def print_verify(result: dict) -> None:
    """`verify` as text."""
    for p in result["index"]["problems"]:
        out.print(f"[red]index[/red] {escape(p)}")
    for s in result["spaces"]:
        label = f"space {s['id']} {s['provider']}/{s['model']}"
        bad = {k: v for k, v in s.items() if k.endswith("_vectors") and v}
        state = "ok" if s["ok"] else "[red]PROBLEMS[/red]"
        out.print(f"{label}: {state}; {s['pending_papers']} papers pending (run `papershelf embed`)"
                  if s["pending_papers"] else f"{label}: {state}")
        for k, v in bad.items():
            out.print(f"  {k.replace('_', ' ')}: {len(v)} (e.g. {escape(v[0])})")
    out.print("verified: the library holds what it says" if result["ok"] else "verify found problems")


def print_show(d: dict) -> None:
    """`show` as text: a unit, or a paper with its sections and objects."""
    if d["type"] == "unit":
        out.print(f"[bold]{escape(d['id'])}[/bold]  {d['source']}  {escape(d['section_path'] or '')}")
        if d.get("object_label"):
            out.print(f"[cyan]{escape(d['object_label'])}[/cyan]: {escape(d.get('caption_text') or '')}")
            if d.get("table_text"):
                out.print(escape(d["table_text"]))
            if d.get("nearby_body_text"):
                out.print(f"[dim]cited: {escape(d['nearby_body_text'])}[/dim]")
        else:
            out.print(escape(d["text"]))
        return
    names = d["authors"]
    authors = ", ".join(names) if len(names) <= 6 else ", ".join(names[:5]) + f" and {len(names) - 5} more"
    out.print(f"[bold]{escape(d['title'] or d['id'])}[/bold]")
    facts = [d["id"], authors, str(d["year"] or ""), d["venue"] or "", d["source_path"] or ""]
    out.print(f"[dim]{escape(' · '.join(f for f in facts if f))}[/dim]")
    if c := d.get("citations"):
        out.print(f"[dim]{c['references']} references ({c['in_library']} in this library) · "
                  f"cited by {c['citing']} in this library[/dim]")
    if len(d["sources"]) > 1:
        for src in d["sources"]:
            role = "units from" if src["provides"] else "also in"
            out.print(f"[dim]{role} {escape(src['path'])} ({src['format']})[/dim]")
    t = Table("unit", "section", "pages", "tokens")
    for s in d["sections"]:
        t.add_row(s["unit_id"].rsplit(":", 2)[-2] + ":" + s["unit_id"].rsplit(":", 1)[-1],
                  escape(s["section_path"] or "(front matter)"), s["pages"] or "", str(s["tokens"]))
    out.print(t)
    if d["objects"]:
        t = Table("label", "caption", "pages")
        for o in d["objects"]:
            why = {"empty_caption": "no caption text read"}.get(o["veto_reason"], o["veto_reason"])
            alone = "[dim](printed under its label alone: found by its cells)[/dim]"
            cap = o["caption"] or (alone if o.get("indexable") else f"[dim]({why}: not searchable)[/dim]")
            t.add_row(escape(o["label"]), escape(cap[:100]) if o["caption"] else cap, o["pages"] or "")
        out.print(t)


def print_papers(d: dict) -> None:
    """`papers` as a table of one line per paper that fits 80 columns: an id up to 24 characters
    whole (longer ids from older versions are cut at the end; `--json` has them), the title from its
    first word, cut with an ellipsis; then "N of M papers" when limited."""
    from rich import box

    rows, total = d["papers"], d["total"]

    kinds = ("body", "object") + (("chunk",) if any(r["units"].get("chunk") for r in rows) else ())
    heads = {"body": "body", "object": "objs", "chunk": "chunks"}  # chunks only when a paper has Zotero full text
    t = Table("id", "title", "year", *(heads[k] for k in kinds), box=box.SIMPLE_HEAD, show_edge=False)
    widest = max((len(r["id"]) for r in rows), default=2)
    t.columns[0].no_wrap, t.columns[0].overflow = True, "ellipsis"
    t.columns[0].min_width = t.columns[0].max_width = min(widest, 24)
    for c in t.columns[2:]:
        c.no_wrap, c.min_width = True, len(str(c.header))
    # The title takes the rest of the width (3 characters between columns), at least its first words.
    rest = out.width - t.columns[0].min_width - sum(c.min_width or 0 for c in t.columns[2:]) - 3 * (len(kinds) + 2) - 2
    t.columns[1].no_wrap, t.columns[1].overflow = True, "ellipsis"
    t.columns[1].max_width = max(rest, 16)
    for r in rows:
        t.add_row(escape(r["id"]), escape(r["title"] or ""), str(r["year"] or ""),
                  *(str(r["units"].get(k, 0)) for k in kinds))
    out.print(t)
    out.print(f"{len(rows)} of {plural(total, 'paper')}" if len(rows) < total else plural(total, "paper"))


def print_refs(d: dict) -> None:
    """`refs` as a table: each entry and the library paper it names."""
    t = Table("n", "first author", "year", "title", "in library")
    for r in d["references"]:
        t.add_row(str(r["n"]), escape((r["authors"] or [""])[0]), str(r["year"] or ""),
                  escape((r["title"] or r["text"])[:90]), escape(r["paper_id"] or ""))
    out.print(t)


def print_citing(d: dict) -> None:
    """`citing` as a table of the citing papers (`cited-by`, its old name, too)."""
    citers = d["citing"] if "citing" in d else d["cited_by"]
    if not citers:
        out.print(f"no paper in this library cites {escape(d['paper_id'])}")
        return
    t = Table("paper", "title", "year", "entry")
    for c in citers:
        t.add_row(escape(c["paper_id"]), escape((c["title"] or "")[:80]), str(c["year"] or ""), str(c["n"]))
    out.print(t)


# Rich renderings of the operations' answers, by operation name (the others print their own text).
PRINTERS = {"search": print_search, "show": print_show, "status": print_status, "verify": print_verify,
            "papers": print_papers, "refs": print_refs, "citing": print_citing, "cited-by": print_citing}
