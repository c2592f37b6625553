// The table of a scripted deck: people and bots play the game through its engine on the server. The page
// shows what the engine's view gives the seat, offers the engine's legal moves, and posts the one chosen; the
// engine decides everything, a refusal shows as the engine words it.
"use strict";
const DECK = document.querySelector('meta[name="deckpress-deck"]').content;
const API = `/api/table/${encodeURIComponent(DECK)}`;
// ms between a bot's moves, so that a player can follow them (?pause=ms to change it)
const BOT_PAUSE = Number(new URLSearchParams(location.search).get("pause") || 400);
const game = {snapshot: null, seat: null, shownTo: null, idToCard: {}, botTimer: null, setup: null, offered: null,
              watched: null, choosing: false};

function show(id, visible) { document.getElementById(id).hidden = !visible; }
function problem(message) { const p = document.getElementById("problem"); p.textContent = message || ""; p.hidden = !message; }

// --- a new game ------------------------------------------------------------------------------------------
function renderSetup(setup) {
  game.setup = setup;
  show("setup", true); show("game", false);
  document.getElementById("setup-title").textContent = `New game of ${setup.game}`;
  const modes = setup.modes || [];
  const modeSelect = document.getElementById("mode");
  modeSelect.replaceChildren(...modes.map(m => el("option", {value: m.id}, [m.name || m.id])));
  show("mode-label", modes.length > 0);
  modeSelect.onchange = () => renderCounts();
  renderCounts();
}

function playerRange() {
  const setup = game.setup, mode = (setup.modes || []).find(m => m.id === document.getElementById("mode").value);
  const range = (mode && mode.players) || setup.players || {};
  const most = Math.min(range.max || setup.seats.length, setup.seats.length);
  return [Math.min(range.min || 1, most), most];
}

function renderCounts() {
  const [low, high] = playerRange(), select = document.getElementById("player-count");
  const before = Number(select.value) || Math.min(Math.max(2, low), high);
  const counts = []; for (let n = low; n <= high; n++) counts.push(n);
  select.replaceChildren(...counts.map(n => el("option", {value: n}, [String(n)])));
  select.value = String(Math.min(Math.max(before, low), high));
  select.onchange = () => renderSeats();
  renderSeats();
}

function renderSeats() {
  const count = Number(document.getElementById("player-count").value), body = document.querySelector("#seats tbody");
  const kinds = ["human", ...game.setup.bots];
  body.replaceChildren(...game.setup.seats.slice(0, count).map((seat, i) => el("tr", {}, [
    el("td", {}, [seat]),
    el("td", {}, [el("select", {"data-seat": seat}, kinds.map(k => el("option", {value: k, selected: (i === 0 ? k === "human" : k === "random") || null},
                                                                     [k === "human" ? "a person here" : `${k} bot`])))])])));
}

document.getElementById("setup").addEventListener("submit", async event => {
  event.preventDefault();
  const players = {};
  for (const select of document.querySelectorAll("#seats select")) players[select.dataset.seat] = select.value;
  const body = {players, seed: Number(document.getElementById("seed").value) || 0};
  if ((game.setup.modes || []).length) body.mode = document.getElementById("mode").value;
  try { problem(""); game.shownTo = null; game.choosing = false; render(await postJSON(`${API}/start`, body)); }
  catch (error) { problem(error.message); }
});
// Once "New game" is pressed the form stays until it is sent: a bot's move or a load already under way
// answers into a page that no longer shows that game.
document.getElementById("new-game").addEventListener("click", async () => {
  clearTimeout(game.botTimer); game.choosing = true;
  try { renderSetup(await getJSON(`${API}?setup=1`)); } catch (error) { problem(error.message); }
});

// --- the game ----------------------------------------------------------------------------------------------
function humans(snapshot) { return snapshot.seats.filter(s => snapshot.players[s] === "human"); }

// The seat the page shows: the person to act now, else the last shown, else the first person's; in a game of
// bots alone, the seat chosen to watch through (the first at first).
function seatToShow(snapshot) {
  if (!humans(snapshot).length) return snapshot.seats.includes(game.watched) ? game.watched : snapshot.seats[0];
  const acting = snapshot.to_act.filter(s => snapshot.players[s] === "human");
  if (acting.length) return acting[0];
  return game.seat && humans(snapshot).includes(game.seat) ? game.seat : humans(snapshot)[0] || null;
}

async function load(seat) {
  const query = seat ? `?seat=${encodeURIComponent(seat)}` : "";
  return getJSON(API + query);
}

async function render(snapshot) {
  if (game.choosing) return;
  if (!snapshot.started) { renderSetup(snapshot); return; }
  const seat = seatToShow(snapshot);
  if (seat !== snapshot.seat) snapshot = await load(seat);
  if (game.choosing) return;
  game.snapshot = snapshot; game.seat = seat;
  show("setup", false); show("game", true);
  const people = humans(snapshot);
  renderWatch(snapshot, people.length === 0);
  const covered = people.length > 1 && seat && game.shownTo !== seat && snapshot.kind !== "over";
  show("cover", covered); show("table-area", !covered);
  if (covered) {
    document.getElementById("cover-text").textContent = `Pass the screen to ${seat}: the cards shown are ${seat}'s alone.`;
    const button = document.getElementById("uncover");
    button.textContent = `I am ${seat}: show my cards`;
    button.onclick = () => { game.shownTo = seat; render(game.snapshot); };
  }
  renderTurn(snapshot);
  renderView(snapshot);
  // The moves are offered anew only when they change: a bot's move meanwhile keeps a choice half made.
  const offered = JSON.stringify([seat, covered, snapshot.kind, snapshot.moves]);
  if (offered !== game.offered) renderMoves(covered ? [] : snapshot.moves, snapshot);
  game.offered = offered;
  renderScores(snapshot);
  renderEvents(snapshot.events);
  scheduleBot(snapshot);
}

// In a game of bots alone, whose eyes the page looks through.
function renderWatch(s, botsAlone) {
  show("watch-label", botsAlone);
  if (!botsAlone) return;
  const select = document.getElementById("watch");
  if (select.options.length !== s.seats.length || [...select.options].some((o, i) => o.value !== s.seats[i])) {
    select.replaceChildren(...s.seats.map(seat => el("option", {value: seat}, [`${seat} (${s.players[seat]} bot)`])));
  }
  select.value = s.seat;
}
document.getElementById("watch").addEventListener("change", async event => {
  game.watched = event.target.value;
  try { render(await load(game.watched)); } catch (error) { problem(error.message); }
});

function renderTurn(s) {
  const turn = document.getElementById("turn");
  turn.textContent = s.kind === "over" ? "The game is over" :
    s.kind === "simultaneous" ? `Choosing at once: ${s.to_act.join(", ")}` : `${s.to_act.join(", ")} to play`;
}

function cardImage(entry, cards) {
  if (!entry.card || !cards[entry.card]) return el("span", {class: "card down", title: "face down"}, []);
  const info = cards[entry.card];
  const url = `/face/${encodeURIComponent(DECK)}/${info.face.split("/").map(encodeURIComponent).join("/")}?w=${Math.round(64 * (window.devicePixelRatio || 1))}`;
  return el("img", {class: "card" + (entry.turned ? " turned" : "") + (entry.down ? " known" : ""), src: url, alt: info.name,
                    title: info.name + (entry.down ? " (face down: you know it)" : ""), "data-id": entry.id || ""});
}

// A zone's cards; a pile of face-down cards nobody knows as one stack with its count.
const STACK = 6;
function zoneCards(list, cards) {
  if (list.length > STACK && list.every(c => c.down && !c.card)) {
    return [el("span", {class: "card down stack", title: `${list.length} cards face down`}, [String(list.length)])];
  }
  return list.map(c => cardImage(c, cards));
}

function renderView(s) {
  game.idToCard = {};
  const zones = document.getElementById("zones"), lines = document.getElementById("lines"), note = document.getElementById("note");
  note.hidden = !s.note; note.textContent = s.note || "";
  const view = s.view || {zones: [], lines: []};
  for (const zone of view.zones || []) for (const c of zone.cards || []) if (c.id && c.card) game.idToCard[c.id] = c.card;
  lines.replaceChildren(...(view.lines || []).map(line => el("li", {}, [line])));
  // The shared zones first, then each seat's, the seat shown last (nearest its moves), each group on a row.
  const groups = new Map([[null, []]]);
  for (const seat of s.seats) if (seat !== s.seat) groups.set(seat, []);
  if (s.seat) groups.set(s.seat, []);
  for (const zone of view.zones || []) {
    const owner = zone.owner ?? null;
    if (!groups.has(owner)) groups.set(owner, []);
    groups.get(owner).push(zone);
  }
  zones.replaceChildren(...[...groups].filter(([, list]) => list.length).map(([owner, list]) =>
    el("div", {class: "seat-zones" + (owner && owner === s.seat ? " mine" : ""), "data-owner": owner || ""}, [
      el("h3", {}, [owner === null ? "On the table" : owner !== s.seat ? owner :
                    s.players[owner] === "human" ? `${owner} (you)` : `${owner} (watched)`]),
      el("div", {class: "zone-row"}, list.map(zone => el("div", {class: "zone", "data-zone": zone.name}, [
        el("h4", {}, [`${zone.name} (${(zone.cards || []).length})`]),
        el("div", {class: "cards"}, zoneCards(zone.cards || [], s.cards))])))])));
}

// What a move's value reads as: card ids by their card's name, `true` by its key alone.
function label(value) {
  if (typeof value === "string") {
    const card = game.idToCard[value] || value;
    return (game.snapshot.cards[card] || {}).name || value;
  }
  if (Array.isArray(value)) return value.map(label).join(", ");
  if (value && typeof value === "object") {
    return Object.keys(value).sort().map(k => value[k] === true ? k : `${k} ${label(value[k])}`).join("; ");
  }
  return String(value);
}

function isDescription(value) {
  if (!value || typeof value !== "object") return false;
  if ("choose" in value || "one_of" in value) return true;
  return Object.values(value).some(isDescription);
}

function renderMoves(moves, s) {
  const box = document.getElementById("moves"), composers = document.getElementById("composers");
  const person = !!s.seat && s.players[s.seat] === "human";
  document.getElementById("moves-title").textContent = person ? `${s.seat}'s moves` : "Moves";
  box.replaceChildren(); composers.replaceChildren();
  moves.forEach((move, i) => {
    if (isDescription(move)) composers.append(composer(move, i));
    else box.append(el("button", {type: "button", class: "move", "data-move": JSON.stringify(move), onclick: () => play(move)}, [label(move)]));
  });
  show("free", person && s.kind !== "over");
  if (!moves.length && s.kind !== "over") box.append(el("span", {class: "status"}, [person ? "nothing to do now" : "watching"]));
}

// A move description as a form: each {choose} a set of chips picked in order, each {one_of} a list.
function composer(description, index) {
  const parts = [], node = el("div", {class: "composer", "data-description": index}, []);
  function build(value, path) {
    if (value && typeof value === "object" && !Array.isArray(value)) {
      if ("choose" in value) {
        const picked = [], chips = el("div", {class: "chips"}, []);
        const part = {path, get: () => picked.length === value.choose ? picked.slice() : undefined};
        value.from.forEach((item, i) => {
          const chip = el("button", {type: "button", class: "chip", "data-item": JSON.stringify(item)}, [label(item)]);
          chip.onclick = () => {
            const at = picked.indexOf(i);
            if (at >= 0) picked.splice(at, 1); else if (picked.length < value.choose) picked.push(i);
            for (const [j, c] of [...chips.children].entries()) {
              const k = picked.indexOf(j);
              c.classList.toggle("picked", k >= 0);
              c.textContent = (k >= 0 && value.ordered ? `${k + 1}. ` : "") + label(value.from[j]);
            }
            update();
          };
          chips.append(chip);
        });
        part.get = () => picked.length === value.choose
          ? (value.ordered ? picked : picked.slice().sort((a, b) => a - b)).map(i => value.from[i]) : undefined;
        node.append(el("p", {}, [`${path.join(" ") || "choose"}: pick ${value.choose}${value.ordered ? ", in order" : ""}`]), chips);
        parts.push(part);
        return;
      }
      if ("one_of" in value) {
        const select = el("select", {"data-path": path.join(".")}, value.one_of.map((v, i) => el("option", {value: i}, [label(v)])));
        node.append(el("label", {}, [`${path.join(" ")} `, select]), " ");
        parts.push({path, get: () => value.one_of[Number(select.value)]});
        return;
      }
      for (const key of Object.keys(value).sort()) build(value[key], [...path, key]);
    }
  }
  build(description, []);
  const button = el("button", {type: "button", class: "primary", disabled: true}, ["Play"]);
  function chosen() {
    function fill(value, path) {
      if (value && typeof value === "object" && !Array.isArray(value)) {
        if ("choose" in value || "one_of" in value) return parts.find(p => p.path.join(".") === path.join(".")).get();
        const out = {};
        for (const key of Object.keys(value)) out[key] = fill(value[key], [...path, key]);
        return out;
      }
      return value;
    }
    return fill(description, []);
  }
  function update() { button.disabled = parts.some(p => p.get() === undefined); }
  button.onclick = () => play(chosen());
  node.append(button);
  update();
  return node;
}

async function play(move) {
  const refusal = document.getElementById("refusal");
  try {
    const told = await postJSON(`${API}/move`, {seat: game.seat, move});
    refusal.hidden = told.ok; refusal.textContent = told.ok ? "" : told.refusal;
    render(await load(game.seat));
  } catch (error) { refusal.hidden = false; refusal.textContent = error.message; }
}

document.getElementById("free-play").addEventListener("click", () => {
  let move;
  try { move = JSON.parse(document.getElementById("free-move").value); }
  catch (error) { const r = document.getElementById("refusal"); r.hidden = false; r.textContent = "not JSON: " + error.message; return; }
  play(move);
});

function renderScores(s) {
  const body = document.querySelector("#scores tbody");
  body.replaceChildren(...s.seats.map(seat => el("tr", {}, [el("td", {}, [seat, s.players[seat] === "human" ? "" : ` (${s.players[seat]} bot)`]),
                                                         el("td", {}, [String((s.scores.points || {})[seat] ?? "")])])));
  const winners = document.getElementById("winners");
  winners.hidden = s.kind !== "over";
  const won = s.scores.winners || [];
  winners.textContent = won.length ? `${won.join(" and ")} won` : "Nobody won";
}

function renderEvents(events) {
  const box = document.getElementById("events");
  box.replaceChildren(...events.slice(-200).map(e => el("p", {"data-n": e.n}, [e.text || `${e.seat}: ${e.what}`])));
  box.scrollTop = box.scrollHeight;
}

function scheduleBot(s) {
  clearTimeout(game.botTimer);
  if (s.kind === "over" || !s.to_act.some(seat => s.players[seat] !== "human")) return;
  game.botTimer = setTimeout(async () => {
    try { await postJSON(`${API}/bot`, {}); render(await load(game.seat)); } catch (error) { problem(error.message); }
  }, BOT_PAUSE);
}

load(null).then(render).catch(error => problem(error.message));
