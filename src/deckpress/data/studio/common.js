// What every studio page shares: the token its POSTs carry, JSON requests, elements, the event stream.
"use strict";
const TOKEN = document.querySelector('meta[name="deckpress-token"]').content;

async function getJSON(url) {
  const response = await fetch(url, {cache: "no-store"});
  const body = await response.json();
  if (!response.ok) throw new Error(body.error || response.statusText);
  return body;
}

async function postJSON(url, data) {
  const response = await fetch(url, {method: "POST", cache: "no-store",
    headers: {"Content-Type": "application/json", "X-Deckpress-Token": TOKEN}, body: JSON.stringify(data)});
  const body = await response.json();
  if (!response.ok) throw new Error(body.error || response.statusText);
  return body;
}

// An element: el("a", {href: "/x", class: "y"}, ["text", child]); text is always text, never HTML.
function el(tag, attributes, children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children || []) node.append(child instanceof Node ? child : String(child));
  return node;
}

// The server's events (builds, faces drawn, playtest progress): `handle(event)` for each, reconnecting itself.
function listen(handle) {
  const source = new EventSource("/events");
  source.onmessage = message => handle(JSON.parse(message.data));
  return source;
}
