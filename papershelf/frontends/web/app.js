// papershelf web page: plain JS over the JSON API (/api/search, /api/status, /api/show).
// Results come in the shape of `papershelf search --json`; this page only groups and draws them.
// Two views: a search (?query=...) and a paper (?paper=ID: metadata, sections, figures and tables).
"use strict";

const $ = (id) => document.getElementById(id);

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v);
  }
  for (const c of children) if (c !== null && c !== undefined) node.append(c);
  return node;
}

// A snippet marks query terms as [term]; show them as <mark> without ever parsing HTML.
function snippet(text) {
  const p = el("p", { class: "snippet" });
  (text || "").split(/\[([^\[\]]*)\]/).forEach((part, i) => p.append(i % 2 ? el("mark", {}, part) : part));
  return p;
}

async function api(path, params) {
  const url = new URL(path, location.origin);
  for (const [k, v] of Object.entries(params || {})) if (v !== "" && v !== null) url.searchParams.append(k, v);
  const r = await fetch(url);
  const body = await r.json();
  if (!r.ok) throw new Error(body.error || r.statusText);
  return body;
}

async function refreshStatus() {
  try {
    const s = await api("/api/status");
    const e = s.embedding || {};
    const build = e.build_running;
    $("status").replaceChildren(
      `${s.papers} papers · ${e.pending_papers ?? 0} pending`,
      build ? el("span", { class: "building" }, ` · build running (pid ${build.pid})`) : "");
  } catch (err) {
    $("status").textContent = `status unavailable: ${err.message}`;
  }
}

function groupByPaper(results) {
  const groups = new Map();
  for (const h of results) {
    if (!groups.has(h.paper_id)) groups.set(h.paper_id, []);
    groups.get(h.paper_id).push(h);
  }
  return groups;
}

function pdfUrl(hit) {
  const page = (hit.pages || "").split("-")[0];
  return `/papers/${encodeURIComponent(hit.paper_id)}/pdf` + (page ? `#page=${page}` : "");
}

// PDF papers open at the hit's page; other sources (or a missing PDF) open the unit in its section.
async function openHit(hit) {
  const r = await fetch(`/papers/${encodeURIComponent(hit.paper_id)}/pdf`, { method: "HEAD" }).catch(() => null);
  if (r && r.ok) { window.open(pdfUrl(hit), "_blank", "noopener"); return; }
  showUnit(hit.unit_id);
}

async function showUnit(unitId) {
  const body = $("reader-body");
  body.replaceChildren("loading…");
  $("reader").hidden = false;
  try {
    const d = await api(`/api/show/${encodeURIComponent(unitId)}`, { neighbours: true });
    const title = d.paper ? d.paper.title : d.paper_id;
    const pdf = d.paper && d.paper.source_format === "pdf" && d.page_start
      ? [" · ", pdfLink(d.paper_id, d.page_start, `open the PDF at p. ${d.page_start}`)] : [];
    const parts = [el("h2", {}, el("a", { href: "?paper=" + encodeURIComponent(d.paper_id) }, title || d.paper_id)),
                   el("p", { class: "meta" }, d.section_path || "", ...pdf)];
    if (d.object_label) parts.push(el("div", { class: "unit target" }, `${d.object_label}: ${d.caption_text || ""}`));
    for (const n of d.neighbours || []) {
      parts.push(el("div", { class: "unit" + (n.is_target ? " target" : ""), id: "u-" + n.unit_id }, n.text));
    }
    body.replaceChildren(...parts);
    const target = body.querySelector(".target");
    if (target) target.scrollIntoView({ block: "center" });
  } catch (err) {
    body.replaceChildren(el("p", { class: "error" }, err.message));
  }
}

function hitNode(h) {
  const where = [h.object_label ? el("span", { class: "label" }, h.object_label + " ") : null,
                 h.section_path || h.source, h.pages ? ` · p. ${h.pages}` : ""];
  const rel = h.relevance === null || h.relevance === undefined ? null
    : el("span", { class: "relevance", title: "calibrated relevance, 0-1, comparable across queries" },
         `relevance ${h.relevance.toFixed(2)}`);
  const zotero = h.zotero_link  // stopPropagation: the link opens Zotero, not the hit
    ? el("a", { href: h.zotero_link, class: "zotero", onclick: (e) => e.stopPropagation() }, "Zotero") : null;
  const text = el("div", {}, el("div", { class: "where" }, ...where, rel ? " · " : null, rel,
                                zotero ? " · " : null, zotero),
                  snippet(h.snippet || h.caption));
  const node = el("div", { class: "hit", tabindex: "0", "data-unit": h.unit_id,
                           onclick: () => openHit(h), onkeydown: (e) => { if (e.key === "Enter") openHit(h); } });
  if (h.object_kind) {
    const img = el("img", { class: "thumb", alt: h.object_label || "figure", loading: "lazy",
                            src: `/units/${encodeURIComponent(h.unit_id)}/image` });
    img.addEventListener("error", () => img.remove());  // not a PDF: no picture, the caption still shows
    node.append(img);
  }
  node.append(text);
  return node;
}

function render(resp) {
  $("notices").replaceChildren(...resp.notices.map((n) => el("p", {}, n)));
  const banner = $("banner");
  banner.hidden = !resp.no_confident_match;
  banner.textContent = resp.no_confident_match
    ? "No confident match: nothing here clearly answers this query." + (resp.results.length ? " The closest hits follow." : "")
    : "";
  if (!resp.results.length) { $("results").replaceChildren(el("p", {}, "no results")); return; }
  const sections = [];
  for (const [paperId, hits] of groupByPaper(resp.results)) {
    const first = hits[0];
    const meta = [first.authors.slice(0, 4).join(", "), first.year].filter(Boolean).join(" · ");
    sections.push(el("section", { class: "paper", "data-paper": paperId },
      el("h2", {}, el("a", { href: "?paper=" + encodeURIComponent(paperId) }, first.title || paperId)),
      el("div", { class: "meta" }, meta), ...hits.map(hitNode)));
  }
  $("results").replaceChildren(...sections);
}

// -- the paper view ---------------------------------------------------------------------

function pdfLink(paperId, page, label) {
  return el("a", { href: `/papers/${encodeURIComponent(paperId)}/pdf` + (page ? `#page=${page}` : ""),
                   target: "_blank", rel: "noopener" }, label);
}

function firstPage(pages) { return (pages || "").split("-")[0]; }

async function showPaper(paperId) {
  $("banner").hidden = true;
  $("notices").replaceChildren();
  $("results").replaceChildren("loading…");
  try {
    const d = await api(`/api/show/${encodeURIComponent(paperId)}`);
    const hasPdf = d.source_format === "pdf";
    const facts = [d.authors.join(", "), d.year, d.venue].filter(Boolean).join(" · ");
    const links = [hasPdf ? pdfLink(d.id, null, "Open PDF") : null,
                   d.zotero_attachment ? el("a", { href: `zotero://open-pdf/${d.zotero_attachment.includes("/")
                                              ? d.zotero_attachment : `library/items/${d.zotero_attachment}`}` },
                                            "Open in Zotero") : null,
                   d.doi ? el("a", { href: `https://doi.org/${d.doi}`, rel: "noopener" }, `doi:${d.doi}`) : null];
    const dl = el("dl", { class: "facts" });
    for (const [k, v] of [["id", d.id], ["citekey", d.citekey], ["tags", d.tags.join(", ")],
                          ["collections", d.collections.join(", ")], ["file", d.source_path]]) {
      if (v) dl.append(el("dt", {}, k), el("dd", {}, v));
    }
    const secs = el("ol", { class: "sections" }, ...d.sections.map((s) => el("li", {},
      el("button", { type: "button", class: "linklike", onclick: () => showUnit(s.unit_id) },
         s.section_path || "(front matter)"),
      s.pages ? el("span", { class: "meta" }, " p. ", hasPdf ? pdfLink(d.id, firstPage(s.pages), s.pages) : s.pages)
              : null)));
    const objs = el("div", { class: "objects" }, ...d.objects.map((o) => objectNode(d, o, hasPdf)));
    $("results").replaceChildren(el("article", { class: "paper-page", "data-paper": d.id },
      el("h2", {}, d.title || d.id), el("p", { class: "meta" }, facts),
      el("p", { class: "links" }, ...links.filter(Boolean).flatMap((a) => [a, " "])), dl,
      el("h3", {}, `Sections (${d.sections.length})`), secs,
      el("h3", {}, `Figures and tables (${d.objects.length})`), objs));
    // its reference list (linked entries open their paper here) and the papers citing it (citations.js)
    if (window.renderCitations) await window.renderCitations($("results").firstChild, d.id);
    // papers like it, by meaning and by citations, each saying why (discover.js)
    if (window.renderRelated) await window.renderRelated($("results").firstChild, d.id);
    document.title = `${d.title || d.id} · papershelf`;
  } catch (err) {
    $("results").replaceChildren(el("p", { class: "error" }, err.message));
  }
}

function objectNode(paper, o, hasPdf) {
  const fig = el("figure", { class: "object", tabindex: "0", "data-unit": o.unit_id,
                             onclick: () => showUnit(o.unit_id),
                             onkeydown: (e) => { if (e.key === "Enter") showUnit(o.unit_id); } });
  if (hasPdf) {
    const img = el("img", { class: "thumb", alt: o.label, loading: "lazy",
                            src: `/units/${encodeURIComponent(o.unit_id)}/image` });
    img.addEventListener("error", () => img.remove());
    fig.append(img);
  }
  const page = firstPage(o.pages);
  fig.append(el("figcaption", {}, el("strong", {}, o.label), " ", o.caption || `(${o.veto_reason || "no caption"})`,
                hasPdf && page ? el("span", { class: "meta" }, " · ", pdfLink(paper.id, page, `p. ${o.pages}`)) : null));
  return fig;
}

async function search(ev) {
  if (ev) ev.preventDefault();
  const params = Object.fromEntries([...new FormData($("search"))].filter(([, v]) => v !== ""));
  history.replaceState(null, "", "?" + new URLSearchParams(params));
  $("results").replaceChildren("searching…");
  try {
    render(await api("/api/search", params));
  } catch (err) {
    $("results").replaceChildren(el("p", { class: "error" }, err.message));
  }
  refreshStatus();
}

$("search").addEventListener("submit", search);
$("close-reader").addEventListener("click", () => { $("reader").hidden = true; });
document.addEventListener("keydown", (e) => {
  if (e.key === "Escape" && !$("reader").hidden) { $("reader").hidden = true; return; }
  if (e.key === "/" && !["INPUT", "SELECT", "TEXTAREA"].includes(document.activeElement.tagName)) {
    e.preventDefault();
    $("q").focus();
  }
});
const initial = new URLSearchParams(location.search);
const form = $("search").elements;
for (const [k, v] of initial) if (form[k]) form[k].value = v;
if (["collection", "tag", "author", "year_from", "year_to", "kind"].some((k) => initial.get(k))) $("filters").open = true;
refreshStatus();
setInterval(refreshStatus, 5000);
$("ask-button").addEventListener("click", () => {
  const q = $("q").value.trim();
  if (!q) { $("q").focus(); return; }
  history.replaceState(null, "", "?" + new URLSearchParams({ ask: q }));
  window.askLibrary(q);
});
if (initial.get("ask")) { $("q").value = initial.get("ask"); window.addEventListener("load", () => window.askLibrary(initial.get("ask"))); }
else if (initial.get("view") === "reading-list") window.addEventListener("load", () => window.showReadingList());
else if (initial.get("paper")) showPaper(initial.get("paper"));
else if (initial.get("query")) search();
