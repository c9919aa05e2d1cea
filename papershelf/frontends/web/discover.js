// papershelf web page: what to read next and answers with their evidence.
//  - renderRelated(container, paperId): a "Related" panel on a paper's page (/api/related/ID, the shape of
//    `papershelf related --json`), each paper saying why and opening its own page;
//  - showReadingList(): works the library cites but does not hold (/api/reading-list), each opening its DOI
//    or arXiv page, with the library papers citing it;
//  - ask(question): evidence cards (/api/ask): the quote, its paper, section and page, a link that opens the
//    PDF at that page; a configured model's answer only when the server has one, unsupported sentences marked.
// Text only ever goes in as text nodes: nothing from a paper is parsed as HTML.
"use strict";

function dEl(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k.startsWith("on")) node.addEventListener(k.slice(2), v); else node.setAttribute(k, v);
  }
  for (const c of children) if (c !== null && c !== undefined && c !== false) node.append(c);
  return node;
}

async function discoverApi(path, params) {
  const url = new URL(path, location.origin);
  for (const [k, v] of Object.entries(params || {})) if (v !== "" && v != null) url.searchParams.append(k, v);
  const r = await fetch(url);
  const body = await r.json();
  if (!r.ok) throw new Error(body.error || r.statusText);
  return body;
}

function paperAnchor(paperId, text) {
  return dEl("a", { href: `?paper=${encodeURIComponent(paperId)}`, class: "paper-link", "data-paper": paperId }, text);
}

async function renderRelated(container, paperId) {
  const section = dEl("section", { class: "related", "data-paper": paperId }, "finding related papers…");
  container.append(section);
  try {
    const resp = await discoverApi(`/api/related/${encodeURIComponent(paperId)}`, { limit: 10 });
    const list = dEl("ol", { class: "related-list" });
    for (const h of resp.results) {
      list.append(dEl("li", { "data-paper": h.paper_id }, paperAnchor(h.paper_id, h.title || h.paper_id),
                      h.year ? ` (${h.year})` : "", dEl("span", { class: "meta why" }, " — " + h.why.join("; "))));
    }
    section.replaceChildren(dEl("h3", {}, `Related in this library (${resp.results.length})`),
                            resp.results.length ? list : dEl("p", { class: "meta" }, (resp.notices || []).join(" ")));
  } catch (err) {
    section.replaceChildren(dEl("p", { class: "error" }, err.message));
  }
}

function workLink(item) {
  if (item.doi) return dEl("a", { href: `https://doi.org/${item.doi}`, rel: "noopener", target: "_blank" }, `doi:${item.doi}`);
  if (item.arxiv_id) {
    return dEl("a", { href: `https://arxiv.org/abs/${item.arxiv_id}`, rel: "noopener", target: "_blank" },
               `arXiv:${item.arxiv_id}`);
  }
  return null;
}

async function showReadingList() {
  const results = document.getElementById("results");
  results.replaceChildren("gathering what the library cites…");
  try {
    const resp = await discoverApi("/api/reading-list", { limit: 50 });
    const list = dEl("ol", { class: "reading-list" });
    for (const it of resp.items) {
      const citing = dEl("span", { class: "meta" }, ` cited by ${it.count}: `);
      it.cited_by.forEach((c, i) => citing.append(i ? ", " : "", paperAnchor(c.paper_id, c.title || c.paper_id)));
      list.append(dEl("li", {}, dEl("strong", {}, it.title || it.text), " ",
                      [it.authors.slice(0, 3).join(", "), it.year].filter(Boolean).join(" · "), " ",
                      workLink(it), citing));
    }
    results.replaceChildren(dEl("article", { class: "reading-page" },
      dEl("h2", {}, "Reading list"),
      dEl("p", { class: "meta" }, `${resp.total} works cited here that this library does not hold; most cited first.`),
      list));
    document.title = "Reading list · papershelf";
  } catch (err) {
    results.replaceChildren(dEl("p", { class: "error" }, err.message));
  }
}

function evidenceCard(e) {
  const open = e.link ? dEl("a", { href: e.link, target: "_blank", rel: "noopener" }, e.page ? `open p. ${e.page}` : "open")
                      : null;
  return dEl("figure", { class: "evidence", "data-unit": e.unit_id, id: `evidence-${e.id}` },
    dEl("blockquote", {}, e.before ? dEl("span", { class: "context" }, e.before + " ") : null,
        dEl("mark", {}, e.quote), e.after ? dEl("span", { class: "context" }, " " + e.after) : null),
    dEl("figcaption", {}, dEl("strong", {}, `[${e.id}] `), paperAnchor(e.paper_id, e.title || e.paper_id),
        e.year ? ` (${e.year})` : "", e.section_path ? ` · ${e.section_path}` : "", e.page ? ` · p. ${e.page}` : "",
        open ? " · " : "", open));
}

function answerNode(answer) {
  if (!answer) return null;
  if (answer.error) return dEl("p", { class: "error" }, `model: ${answer.error}`);
  const p = dEl("p", { class: "answer" });
  for (const s of answer.sentences) {
    const span = dEl("span", { class: s.supported ? "supported" : "unsupported",
                               title: s.supported ? "" : "not backed by the evidence it cites" }, s.text);
    p.append(span, s.cites.length ? dEl("sup", {}, s.cites.join(", ")) : null, " ");
  }
  return dEl("section", { class: "synthesis" }, dEl("h3", {}, `Answer (${answer.model})`), p);
}

async function ask(question) {
  const results = document.getElementById("results");
  const banner = document.getElementById("banner");
  results.replaceChildren("looking for the sentences that answer…");
  try {
    const resp = await discoverApi("/api/ask", { question });
    banner.hidden = !resp.no_confident_answer;
    banner.textContent = resp.no_confident_answer ? "No confident answer: these are the closest sentences." : "";
    results.replaceChildren(dEl("article", { class: "ask-page" }, answerNode(resp.answer),
      dEl("h3", {}, `Evidence (${resp.evidence.length})`), ...resp.evidence.map(evidenceCard)));
  } catch (err) {
    results.replaceChildren(dEl("p", { class: "error" }, err.message));
  }
}

window.renderRelated = renderRelated;
window.showReadingList = showReadingList;
window.askLibrary = ask;
