// A deck's page: its faces as a grid (live: each face drawn replaces its image, a build's mistakes show above),
// a face's card data and sources, the print pages, the TTS sheets and playtest runs.
"use strict";
const DECK = document.querySelector('meta[name="deckpress-deck"]').content;
const THUMB = 200;  // CSS pixels of a face on the grid; the image asked for is as wide as the screen shows it
const state = {summary: null, sources: null, versions: {}, tiles: new Map()};

function faceURL(file, width) {
  const v = state.versions[file] || "";
  const w = Math.min(4000, Math.round(width * (window.devicePixelRatio || 1)));
  return `/face/${encodeURIComponent(DECK)}/${file.split("/").map(encodeURIComponent).join("/")}?w=${w}&v=${v}`;
}

function setStatus(text, kind) {
  const status = document.getElementById("status");
  status.textContent = text;
  status.className = "status " + (kind || "");
}

function showErrors(errors) {
  const box = document.getElementById("errors");
  box.hidden = !errors.length;
  box.replaceChildren(...(errors.length ? [el("p", {}, ["The last build failed; the faces below are the last good ones. Fix this and save:"]),
                                         ...errors.map(line => el("pre", {class: "error-line"}, [line]))] : []));
}

// The faces the grid shows: every card's front, then each component's backs, in the deck's order.
function tiles(summary) {
  const out = [], backs = new Set();
  for (const card of summary.cards) {
    out.push({file: card.front, component: card.component, card: card.card, label: card.name, count: card.count});
  }
  for (const card of summary.cards) {
    if (card.back && !backs.has(card.back)) {
      backs.add(card.back);
      out.push({file: card.back, component: card.component, card: null, label: "back of " + card.component, count: null});
    }
  }
  return out;
}

function renderGrid() {
  const summary = state.summary, grid = document.getElementById("grid");
  const wanted = tiles(summary);
  const keys = wanted.map(t => t.file + "|" + t.card).join(",");
  if (grid.dataset.keys !== keys) {
    state.tiles.clear();
    grid.replaceChildren(...wanted.map(tile => {
      const img = el("img", {src: faceURL(tile.file, THUMB), alt: tile.label, loading: "lazy", width: THUMB});
      const node = el("figure", {class: "tile", "data-face": tile.file, "data-component": tile.component,
                                 "data-card": tile.card || "", tabindex: 0,
                                 onclick: () => openCard(tile), onkeydown: e => { if (e.key === "Enter") openCard(tile); }},
                      [img, el("figcaption", {}, [tile.label, tile.count > 1 ? ` ×${tile.count}` : ""])]);
      if (!state.tiles.has(tile.file)) state.tiles.set(tile.file, []);
      state.tiles.get(tile.file).push(img);
      return node;
    }));
    grid.dataset.keys = keys;
  }
  const components = [...new Set(summary.cards.map(c => c.component))];
  fillSelect(document.getElementById("component"), components, "all");
  applyFilter();
}

function fillSelect(select, values, all) {
  const current = select.value;
  const have = [...select.options].map(o => o.value).slice(1).join(",");
  if (have === values.join(",")) return;
  select.replaceChildren(el("option", {value: ""}, [all]), ...values.map(v => el("option", {value: v}, [v])));
  select.value = values.includes(current) ? current : "";
}

function cardSource(component, card) {
  return (state.sources || []).find(s => s.component === component && s.card === card);
}

function applyFilter() {
  const component = document.getElementById("component").value;
  const field = document.getElementById("field").value;
  const text = document.getElementById("filter").value.trim().toLowerCase();
  let shown = 0, all = 0;
  for (const node of document.querySelectorAll("#grid .tile")) {
    all++;
    let keep = !component || node.dataset.component === component;
    if (keep && text) {
      const source = node.dataset.card ? cardSource(node.dataset.component, node.dataset.card) : null;
      const values = source ? source.fields.filter(f => !field || f.name === field).map(f => String(f.value))
                            : (field ? [] : [node.querySelector("figcaption").textContent]);
      if (source && !field) values.push(source.name, source.card);
      keep = values.some(v => v.toLowerCase().includes(text));
    }
    node.hidden = !keep;
    if (keep) shown++;
  }
  document.getElementById("shown").textContent = `${shown} of ${all} faces`;
}

function openCard(tile) {
  const dialog = document.getElementById("card");
  const source = tile.card ? cardSource(tile.component, tile.card) : null;
  document.getElementById("card-title").textContent = tile.label;
  const faces = document.getElementById("card-faces");
  const elements = document.querySelector("#card-elements tbody");
  faces.replaceChildren();
  elements.replaceChildren();
  const sides = source ? Object.entries(source.faces) : [["face", {file: tile.file, elements: []}]];
  for (const [side, face] of sides) {
    if (!face || !face.file) continue;
    const img = el("img", {src: faceURL(face.file, 300), alt: `${tile.label}: ${side}`, width: 300, "data-face": face.file});
    const frame = el("div", {class: "face-frame"}, [img]);
    faces.append(el("figure", {}, [frame, el("figcaption", {}, [side, face.template ? ` (${face.template})` : ""])]));
    for (const element of face.elements || []) {
      let box = null;
      if (element.box && face.size) {
        const [x, y, w, h] = element.box, [fw, fh] = face.size;
        box = el("div", {class: "element-box", style: `left:${100 * x / fw}%;top:${100 * y / fh}%;width:${100 * w / fw}%;height:${100 * h / fh}%`});
        frame.append(box);
      }
      const row = el("tr", {onmouseenter: () => box && box.classList.add("lit"), onmouseleave: () => box && box.classList.remove("lit")},
                     [el("td", {}, [side]), el("td", {}, [element.label || element.type]),
                      el("td", {}, [(element.reads || []).join(", ")]), el("td", {class: "where"}, [element.where || ""])]);
      if (box) box.addEventListener("mouseenter", () => row.classList.add("lit"));
      if (box) box.addEventListener("mouseleave", () => row.classList.remove("lit"));
      elements.append(row);
    }
  }
  document.getElementById("card-where").textContent = source ? `${source.component} / ${source.card}: ${source.where}` : tile.file;
  const fields = document.querySelector("#card-fields tbody");
  fields.replaceChildren(...(source ? source.fields : []).map(f =>
    el("tr", {}, [el("td", {}, [f.name]), el("td", {}, [typeof f.value === "string" ? f.value : JSON.stringify(f.value)]),
                  el("td", {class: "where"}, [f.where || ""])])));
  if (!dialog.open) dialog.showModal();
}

async function loadSources() {
  try {
    const found = await getJSON(`/api/deck/${encodeURIComponent(DECK)}/sources`);
    if (Array.isArray(found)) state.sources = found;
  } catch (error) { /* the deck does not load: its mistakes show from the build's own lines */ }
  const names = [...new Set((state.sources || []).flatMap(s => s.fields.map(f => f.name)))].sort();
  fillSelect(document.getElementById("field"), names, "any field");
  applyFilter();
}

async function refresh() {
  const summary = await getJSON(`/api/deck/${encodeURIComponent(DECK)}`);
  state.summary = summary;
  for (const [file, version] of Object.entries(summary.faces)) if (!state.versions[file]) state.versions[file] = version;
  showErrors(summary.errors);
  setStatus(summary.building ? "building…" : summary.errors.length ? "the last build failed" :
            summary.built ? (summary.summary || "built") : "not built yet", summary.errors.length ? "bad" : "good");
  document.getElementById("table-link").hidden = !summary.scripted;
  renderGrid();
  renderPrint();
  renderSheets();
  renderPlaytestPage(summary.playtest[summary.playtest.length - 1]);
  await loadSources();
}

// Each face drawn replaces its image on the page (and in the open card), with no reload.
function facesDrawn(faces) {
  for (const [file, version] of Object.entries(faces)) {
    state.versions[file] = version;
    for (const img of state.tiles.get(file) || []) img.src = faceURL(file, THUMB);
    for (const img of document.querySelectorAll(`#card-faces img[data-face="${CSS.escape(file)}"]`)) img.src = faceURL(file, 300);
  }
}

function renderPrint() {
  const select = document.getElementById("pdf");
  fillSelect(select, state.summary.print, "choose a PDF");
  if (!select.value && state.summary.print.length) select.value = state.summary.print[0];
  showPages();
}

// The PDF itself, in the browser's own PDF viewer (pages, zoom, printing), loaded again after each build.
function showPages() {
  const name = document.getElementById("pdf").value;
  if (!name || document.getElementById("print").hidden) return;
  const file = `/file/${encodeURIComponent(DECK)}/print/${encodeURIComponent(name)}`;
  document.getElementById("pdf-file").href = file;
  const view = document.getElementById("pdf-view");
  const shown = `${file}?b=${state.summary.builds}`;
  if (view.getAttribute("src") !== shown) view.src = shown;
}

function renderSheets() {
  const builds = state.summary.builds;
  document.getElementById("sheets").replaceChildren(...state.summary.sheets.map(name => el("figure", {}, [
    el("img", {src: `/face/${encodeURIComponent(DECK)}/tts/assets/${encodeURIComponent(name)}?w=1400&b=${builds}`, alt: name, loading: "lazy"}),
    el("figcaption", {}, [name])])));
}

function renderPlaytestPage(page) {
  const frame = document.getElementById("playtest-page");
  if (!page) return;
  const url = `/file/${encodeURIComponent(DECK)}/${page.split("/").map(encodeURIComponent).join("/")}`;
  if (frame.getAttribute("src") !== url) frame.src = url;
  frame.hidden = false;
}

function showRun(run) {
  const bar = document.getElementById("playtest-progress");
  const error = document.getElementById("playtest-error");
  bar.hidden = !run.running;
  if (run.total) { bar.max = run.total; bar.value = run.done || 0; }
  document.getElementById("playtest-start").disabled = !!run.running;
  error.hidden = !run.error;
  error.textContent = run.error || "";
  const report = document.getElementById("playtest-report");
  if (run.report) { report.textContent = run.report; report.hidden = false; }
  if (run.page) renderPlaytestPage(run.page);
}

document.getElementById("playtest-form").addEventListener("submit", async event => {
  event.preventDefault();
  const form = new FormData(event.target), body = {};
  for (const [key, value] of form.entries()) if (value !== "") body[key] = ["games", "players", "seed"].includes(key) ? Number(value) : value;
  document.getElementById("playtest-report").hidden = true;
  try { showRun(await postJSON(`/api/playtest/${encodeURIComponent(DECK)}`, body)); }
  catch (error) { showRun({running: false, error: error.message}); }
});

for (const button of document.querySelectorAll("#tabs button")) {
  button.addEventListener("click", () => {
    for (const other of document.querySelectorAll("#tabs button")) other.classList.toggle("active", other === button);
    for (const tab of document.querySelectorAll(".tab")) tab.hidden = tab.id !== button.dataset.tab;
    if (button.dataset.tab === "print") showPages();
  });
}
for (const id of ["component", "field", "filter"]) for (const kind of ["input", "change"]) document.getElementById(id).addEventListener(kind, applyFilter);
document.getElementById("pdf").addEventListener("change", showPages);

listen(event => {
  if (event.deck !== DECK) return;
  if (event.type === "faces") facesDrawn(event.faces);
  else if (event.type === "building") setStatus("building…", "");
  else if (event.type === "built") refresh();
  else if (event.type === "playtest") getJSON(`/api/playtest/${encodeURIComponent(DECK)}`).then(showRun);
});
refresh();
getJSON(`/api/playtest/${encodeURIComponent(DECK)}`).then(showRun);
