// papershelf web page: a paper's place in the library's citation graph, from /api/refs/ID and
// /api/citing/ID (the shapes of `papershelf refs --json` and `citing --json`).
// A section of its own, so any paper view can include it: renderCitations(container, paperId).
// References the library holds, and the papers citing this one, open that paper's view.
"use strict";

function citationEl(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k.startsWith("on")) node.addEventListener(k.slice(2), v); else node.setAttribute(k, v);
  }
  for (const c of children) if (c !== null && c !== undefined) node.append(c);
  return node;
}

async function citationsApi(path) {
  const r = await fetch(new URL(path, location.origin));
  const body = await r.json();
  if (!r.ok) throw new Error(body.error || r.statusText);
  return body;
}

function paperLink(paperId, text) {
  return citationEl("a", { href: `?paper=${encodeURIComponent(paperId)}`, class: "paper-link", "data-paper": paperId },
                    text);
}

async function renderCitations(container, paperId) {
  const section = citationEl("section", { class: "citations", "data-paper": paperId }, "loading references…");
  container.append(section);
  try {
    const id = encodeURIComponent(paperId);
    const [refs, citers] = await Promise.all([citationsApi(`/api/refs/${id}`), citationsApi(`/api/citing/${id}`)]);
    const list = citationEl("ol", { class: "references" });
    for (const r of refs.references) {
      const text = r.paper_id ? paperLink(r.paper_id, r.text) : r.text;
      list.append(citationEl("li", { value: String(r.n), class: r.paper_id ? "linked" : "" }, text));
    }
    const cited = citationEl("ul", { class: "cited-by" });
    for (const c of citers.citing) {
      cited.append(citationEl("li", {}, paperLink(c.paper_id, c.title || c.paper_id), c.year ? ` (${c.year})` : ""));
    }
    const inLibrary = refs.references.filter((r) => r.paper_id).length;
    section.replaceChildren(
      citationEl("h3", {}, `References (${refs.references.length}, ${inLibrary} in this library)`), list,
      citationEl("h3", {}, `Cited by in this library (${citers.citing.length})`),
      citers.citing.length ? cited : citationEl("p", { class: "meta" }, "no paper here cites it"));
  } catch (err) {
    section.replaceChildren(citationEl("p", { class: "error" }, err.message));
  }
}

window.renderCitations = renderCitations;
