// papershelf web page: plain JS over the JSON API (/api/search, /api/status, /api/show).
// Results come in the shape of `papershelf search --json`; this page only groups and draws them.
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
    const parts = [el("h2", {}, title || ""), el("p", { class: "meta" }, d.section_path || "")];
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
  const text = el("div", {}, el("div", { class: "where" }, ...where),
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
  if (!resp.results.length) { $("results").replaceChildren(el("p", {}, "no results")); return; }
  const sections = [];
  for (const [paperId, hits] of groupByPaper(resp.results)) {
    const first = hits[0];
    const meta = [first.authors.slice(0, 4).join(", "), first.year].filter(Boolean).join(" · ");
    sections.push(el("section", { class: "paper", "data-paper": paperId },
      el("h2", { class: "paper-title", title: "references and citing papers",
                 onclick: () => window.openPaperView && window.openPaperView(paperId) }, first.title || paperId),
      el("div", { class: "meta" }, meta), ...hits.map(hitNode)));
  }
  $("results").replaceChildren(...sections);
}

async function search(ev) {
  if (ev) ev.preventDefault();
  const params = Object.fromEntries(new FormData($("search")));
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
const initial = new URLSearchParams(location.search);
const form = $("search").elements;
for (const [k, v] of initial) if (form[k]) form[k].value = v;
refreshStatus();
setInterval(refreshStatus, 5000);
if (initial.get("query")) search();
