"""Plain-text renderings of the operations' answers: what an agent reads beside the structured data,
and the CLI's output where it has no table of its own.  Each takes the answer's JSON (so an answer
from a running server renders exactly as one computed in-process)."""

from __future__ import annotations

from typing import Any


def _hit_line(h: dict[str, Any]) -> str:
    where = h["object_label"] or h["section_path"] or h["source"]
    pages = f" p.{h['pages']}" if h["pages"] else ""
    year = f" ({h['year']})" if h["year"] else ""
    head = f"{h['rank']}. {h['title'] or h['paper_id']}{year} · {where}{pages} · {h['unit_id']}"
    return f"{head}\n   {h['snippet'] or ''}"


def search(d: dict[str, Any]) -> str:
    lines = [f"note: {n}" for n in d["notices"]]
    if d.get("no_confident_match"):  # said before the hits, so an agent does not take them as answers
        lines.append("no confident match: nothing here clearly answers this query (closest hits below)")
    lines += [_hit_line(h) for h in d["results"]]
    return "\n".join(lines if d["results"] else lines + ["no results"])


def show(d: dict[str, Any]) -> str:
    if d["type"] == "paper":
        secs = "\n".join(f"- {s['section_path'] or '(front matter)'} (p. {s['pages'] or '?'})" for s in d["sections"])
        objs = "\n".join(f"- {o['label']}: {(o['caption'] or '')[:120]} [{o['unit_id']}]" for o in d["objects"])
        return f"{d['title']} ({d['year'] or 'n.d.'}) [{d['id']}]\nSections:\n{secs}\nFigures and tables:\n{objs}"
    body = f"{d['object_label']}: {d['caption_text']}" if d.get("object_label") else d["text"]
    return f"{d['id']} · {d['section_path']}\n{body}"


def passage(d: dict[str, Any]) -> str:
    more = f"\n\n[more: call passage again with cursor={d['next_cursor']!r}]" if d["next_cursor"] else ""
    return d["text"] + more


def papers(d: dict[str, Any]) -> str:
    rows = d["papers"]
    text = "\n".join(f"{r['id']} · {r['title']} ({r['year'] or 'n.d.'}) · {', '.join(r['authors'][:3])}"
                     for r in rows) or "no papers match"
    if len(rows) < d["total"]:
        text += f"\n({len(rows)} of {d['total']} papers: raise limit or filter for the rest)"
    return text


def papers_lines(d: dict[str, Any], ids_only: bool) -> str:
    """`papers --format ids|tsv`: one paper a line (tabs and line breaks in a field made spaces: tsv.py)."""
    from ..tsv import tsv_line

    return "".join((tsv_line(r["id"]) if ids_only else tsv_line(r["id"], r["year"], r["title"])) + "\n"
                   for r in d["papers"])


def status(d: dict[str, Any]) -> str:
    e = d["embedding"] or {}
    build = e.get("build_running")
    return (f"{d['papers']} papers; {e.get('pending_papers', 0)} pending embedding"
            + (f"; a build is running (pid {build['pid']})" if build else ""))


def refs(d: dict[str, Any]) -> str:
    lines = [f"[{r['n']}] {r['text']}" + (f"  -> in library: {r['paper_id']}" if r["paper_id"] else "")
             for r in d["references"]]
    return "\n".join(lines) or f"no references read for {d['paper_id']}"


def citing(d: dict[str, Any]) -> str:
    citers = d["citing"] if "citing" in d else d["cited_by"]  # the answer of `citing`, or of its old name
    lines = [f"- {c['paper_id']} · {c['title']} ({c['year'] or 'n.d.'}), entry {c['n']}" for c in citers]
    return "\n".join([f"cited by {len(lines)} papers of this library:", *lines]) if lines else \
        f"no paper in this library cites {d['paper_id']}"


def verify(d: dict[str, Any]) -> str:
    lines = [f"index: {p}" for p in d["index"]["problems"]]
    for s in d["spaces"]:
        bad = {k: v for k, v in s.items() if k.endswith("_vectors") and v}
        lines.append(f"space {s.get('id')}: {'ok' if s['ok'] else 'PROBLEMS'}; {s['pending_papers']} papers pending")
        lines += [f"  {k.replace('_', ' ')}: {len(v)} (e.g. {v[0]})" for k, v in bad.items()]
    return "\n".join(lines + ["verified: the library holds what it says" if d["ok"] else "verify found problems"])


def related(d: dict[str, Any]) -> str:
    lines = [f"{n}. {h['paper_id']} · {h['title'] or '(untitled)'} ({h['year'] or 'n.d.'}) — {'; '.join(h['why'])}"
             for n, h in enumerate(d["results"], 1)]
    return "\n".join(lines + d["notices"]) or "no related paper found"


def reading_list(d: dict[str, Any]) -> str:
    if d.get("bibtex") is not None:
        return d["bibtex"] or "nothing to read: every work cited here is in the library"
    lines = []
    for n, i in enumerate(d["items"], 1):
        where = f" doi:{i['doi']}" if i["doi"] else f" arXiv:{i['arxiv_id']}" if i["arxiv_id"] else ""
        who = ", ".join(c["paper_id"] for c in i["cited_by"])
        lines.append(f"{n}. {i['title'] or i['text']}{where} — cited by {i['count']}: {who}")
    return "\n".join([f"{d['total']} works cited here are not in the library", *lines]) if lines else \
        "nothing to read: every work cited here is in the library"


def ask(d: dict[str, Any]) -> str:
    lines = ["No confident answer; the closest sentences:" if d["no_confident_answer"] else "Evidence:"]
    for e in d["evidence"]:
        where = f"{e['paper_id']}, {e['section_path'] or 'text'}" + (f", p. {e['page']}" if e["page"] else "")
        quote = " ".join(e["quote"].split())  # a line's breaks in the terminal; --json keeps the quote verbatim
        lines.append(f"[{e['id']}] \u201c{quote}\u201d ({where})")
    if d.get("answer"):
        a = d["answer"]
        said = [s["text"] + (f" [{', '.join(s['cites'])}]" if s["cites"] else "")
                + ("" if s["supported"] else " (unsupported)") for s in a["sentences"]]
        lines.append(f"answer ({a['model']}): " + (a["error"] or " ".join(said)))
    return "\n".join(lines + d["notices"])
