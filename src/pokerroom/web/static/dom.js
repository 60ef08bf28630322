// The one way the client builds a DOM node: h(tag, attrs, ...kids). Every screen (lobby, table, past hands)
// uses it, so an attribute means the same everywhere: `class`, `text`, `dataset`, `style` (through the CSSOM:
// a style attribute would break the page's CSP), `on<event>` handlers (through morph.js's listen, so morph
// never patches a node whose handler was made for another view), and any other attribute as a string.

import { listen } from "./morph.js";

export function h(tag, attrs = {}, ...kids) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v == null || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k.startsWith("on") && typeof v === "function") listen(node, k.slice(2), v);
    else if (k === "dataset") Object.assign(node.dataset, v);
    else if (k === "style") node.style.cssText = v; // CSSOM: a style attribute breaks the CSP
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const kid of kids.flat()) {
    if (kid == null || kid === false) continue;
    if (typeof kid === "string" && kid.includes(DOT)) appendGlued(node, kid);
    else node.appendChild(typeof kid === "string" || typeof kid === "number" ? document.createTextNode(String(kid)) : kid);
  }
  return node;
}

/**
 * Link the stylesheet `/static/<name>.css` once, however often it is asked for. The parts that not every page
 * shows (the host's pause layer, the replayer, the key digits, the English layout) bring their own sheet when
 * first drawn, so style.css carries only what every page needs.
 */
export function useSheet(name) {
  const href = `/static/${name}.css`;
  if (!document.head.querySelector(`link[rel="stylesheet"][href="${href}"]`)) document.head.append(h("link", { rel: "stylesheet", href }));
}

const DOT = " · ";

/**
 * A list parted by middle dots ("노리밋 · 20판 · 20초"), each dot glued to the word before it: " ·" in a span
 * that never wraps (`.dot`), so a line breaks after a dot's space and never starts with the dot. The text is
 * the same ("A · B"), only its line breaks move.
 */
function appendGlued(node, text) {
  const parts = text.split(DOT);
  parts.forEach((part, i) => {
    if (i > 0) node.append(...gluedDot());
    if (part) node.appendChild(document.createTextNode(part));
  });
}

/** The separator between two items of a list: " ·" that never wraps, then the space a line may break at. */
const gluedDot = () => [h("span", { class: "dot" }, " ·"), document.createTextNode(" ")];

/**
 * A short list ("기본 단위 10 · 시작 칩 1,000 · 20판") whose items never wrap inside (`.whole`), its dots glued
 * as in appendGlued: a line broke between a label and its number ("… 기본 단위" / "10 · 20판"). For items
 * that fit a line on the narrowest phone; the text is the items joined by " · ". `cls` names the items' own
 * rule where it is not `.whole` (the 장부's scope: `.ledger .chunk`, which English lets wrap).
 */
export function wholeItems(items, cls = "whole") {
  return items.flatMap((item, i) => [...(i > 0 ? gluedDot() : []), h("span", { class: cls }, item)]);
}

const SVGS = new Map(); // class -> the parsed template

/**
 * An inline SVG (an icon, the turn ring) of class `cls`: its markup parsed by the HTML parser once, a copy per
 * use (no emoji font needed on the phone). `data` goes into the template's dataset.
 */
export function inlineSvg(cls, viewBox, markup, data = {}) {
  let svg = SVGS.get(cls);
  if (!svg) {
    svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    svg.setAttribute("viewBox", viewBox);
    svg.setAttribute("class", cls);
    svg.setAttribute("aria-hidden", "true");
    Object.assign(svg.dataset, data);
    svg.innerHTML = markup;
    SVGS.set(cls, svg);
  }
  return svg.cloneNode(true);
}
