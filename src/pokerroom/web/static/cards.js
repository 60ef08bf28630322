// Cards drawn as our own SVG (poker.md §3, §9, §12): all 52 cards, the d20 Indian deck (A..10 in ♠ ♥) and a
// back design. Suits are told apart by colour + shape + letter (accessibility): every card carries an
// aria-label such as "스페이드 A" and its id in data-card-id. A hidden card ({hidden: true}) is drawn as a
// back and carries neither rank, suit nor id.

import { tx } from "./i18n.js";

const SVG_NS = "http://www.w3.org/2000/svg";

export const SUIT_NAME = { S: tx("cards.1"), D: tx("cards.2"), H: tx("cards.3"), C: tx("cards.4") };
export const SUIT_SYMBOL = { S: "♠", D: "◆", H: "♥", C: "♣" };
export const SUIT_LETTER = { S: "S", D: "D", H: "H", C: "C" };

// Suit shapes in a 10×10 box.
const SUIT_PATH = {
  S: "M5 0C5 0 0 3.9 0 6.2 0 7.8 1.2 8.8 2.6 8.8 3.5 8.8 4.3 8.3 4.7 7.6 4.6 8.7 4.1 9.4 3.2 10H6.8C5.9 9.4 5.4 8.7 5.3 7.6 5.7 8.3 6.5 8.8 7.4 8.8 8.8 8.8 10 7.8 10 6.2 10 3.9 5 0 5 0Z",
  H: "M5 9.6C5 9.6 0 6 0 3 0 1.3 1.3 0 2.8 0 3.8 0 4.6.6 5 1.5 5.4.6 6.2 0 7.2 0 8.7 0 10 1.3 10 3 10 6 5 9.6 5 9.6Z",
  D: "M5 0 9 5 5 10 1 5Z",
  C: "M5 0A2.45 2.45 0 0 0 2.9 3.7 2.45 2.45 0 1 0 4.5 7.3C4.4 8.6 4 9.4 3.2 10H6.8C6 9.4 5.6 8.6 5.5 7.3A2.45 2.45 0 1 0 7.1 3.7 2.45 2.45 0 0 0 5 0Z",
};

export function rankText(rank) {
  if (rank === 1 || rank === 14) return "A";
  if (rank === 11) return "J";
  if (rank === 12) return "Q";
  if (rank === 13) return "K";
  return String(rank);
}

export function cardLabel(card) {
  if (!card || card.hidden || card.rank == null) return tx("cards.5");
  return `${SUIT_NAME[card.suit] ?? card.suit} ${rankText(card.rank)}`;
}

export function cardShort(card) {
  if (!card || card.hidden || card.rank == null) return "?";
  return `${rankText(card.rank)}${SUIT_SYMBOL[card.suit] ?? ""}`;
}

function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (parent) parent.appendChild(node);
  return node;
}

// A suit shape's path placed at (x, y) in a size×size box (flip: turned 180°, the lower half of a card), with the
// placement written into the coordinates instead of a transform attribute: every SVG transform is a node of the
// browser's paint property trees, redone each frame the card is painted, and a card has up to 12 shapes.
const ARGS = { M: 2, L: 2, C: 6, A: 7, H: 1, V: 1, Z: 0 };
function placedPath(suit, x, y, size, flip = false) {
  const s = size / 10;
  const px = (v) => (flip ? x + size - s * v : x + s * v);
  const py = (v) => (flip ? y + size - s * v : y + s * v);
  const r = (v) => Math.round(v * 1000) / 1000;
  const out = [];
  const tokens = SUIT_PATH[suit].match(/[A-Za-z]|-?(?:\d+\.?\d*|\.\d+)(?:e-?\d+)?/g) ?? [];
  let cmd = "M";
  for (let i = 0; i < tokens.length; ) {
    if (/[A-Za-z]/.test(tokens[i])) cmd = tokens[i++];
    const n = ARGS[cmd];
    if (!n) { out.push(cmd); continue; }
    const a = tokens.slice(i, i + n).map(Number);
    i += n;
    if (cmd === "H") out.push(`H${r(px(a[0]))}`);
    else if (cmd === "V") out.push(`V${r(py(a[0]))}`);
    else if (cmd === "A") out.push(`A${r(a[0] * s)} ${r(a[1] * s)} ${a[2]} ${a[3]} ${a[4]} ${r(px(a[5]))} ${r(py(a[6]))}`);
    else {
      const pts = [];
      for (let k = 0; k < n; k += 2) pts.push(`${r(px(a[k]))} ${r(py(a[k + 1]))}`);
      out.push(cmd + pts.join(" "));
    }
    if (cmd === "M") cmd = "L"; // an M's further pairs are lines
  }
  return out.join("");
}

// all the suit shapes of a card in one <path> (one fill): a 10 was 12 elements to style, lay out and paint
function suitShapes(parent, suit, shapes) {
  return el("path", { d: shapes.map(([x, y, size, flip]) => placedPath(suit, x, y, size, flip)).join(""), class: "suit-shape" }, parent);
}

// Pip positions (card 60×84, pips in the 14..46 × 12..72 field); [x, y, flipped]
const COLS = { L: 17, M: 30, R: 43 };
const PIPS = {
  2: [["M", 16], ["M", 68, 1]],
  3: [["M", 16], ["M", 42], ["M", 68, 1]],
  4: [["L", 16], ["R", 16], ["L", 68, 1], ["R", 68, 1]],
  5: [["L", 16], ["R", 16], ["M", 42], ["L", 68, 1], ["R", 68, 1]],
  6: [["L", 16], ["R", 16], ["L", 42], ["R", 42], ["L", 68, 1], ["R", 68, 1]],
  7: [["L", 16], ["R", 16], ["M", 29], ["L", 42], ["R", 42], ["L", 68, 1], ["R", 68, 1]],
  8: [["L", 16], ["R", 16], ["M", 29], ["L", 42], ["R", 42], ["M", 55, 1], ["L", 68, 1], ["R", 68, 1]],
  9: [["L", 16], ["R", 16], ["L", 33.3], ["R", 33.3], ["M", 42], ["L", 50.7, 1], ["R", 50.7, 1], ["L", 68, 1], ["R", 68, 1]],
  10: [["L", 16], ["R", 16], ["M", 25], ["L", 33.3], ["R", 33.3], ["L", 50.7, 1], ["R", 50.7, 1], ["M", 59, 1], ["L", 68, 1], ["R", 68, 1]],
};

/** A court card's picture; returns the suit shapes it wants (drawn with the card's others, in one path). */
function drawFace(svg, rank) {
  const g = el("g", { class: "face-art" }, svg);
  el("rect", { x: 11, y: 11, width: 38, height: 62, rx: 3, class: "face-frame" }, g);
  // a simple hat per court card: crown (K), tiara (Q), cap (J)
  if (rank === 13) {
    el("path", { d: "M19 34 L19 22 L24.5 28 L30 19 L35.5 28 L41 22 L41 34 Z", class: "face-hat" }, g);
  } else if (rank === 12) {
    el("path", { d: "M19 34 Q30 16 41 34 Z", class: "face-hat" }, g);
    el("circle", { cx: 30, cy: 23.5, r: 2.2, class: "face-gem" }, g);
  } else {
    el("path", { d: "M19 34 L21 24 Q30 18 39 24 L41 34 Z", class: "face-hat" }, g);
    el("path", { d: "M39 26 Q45 25 44 31", class: "face-feather" }, g);
  }
  const letter = el("text", { x: 30, y: 55, "text-anchor": "middle", class: "face-letter" }, g);
  letter.textContent = rankText(rank);
  return [[25, 59, 10]];
}

// each card's drawing is built once and copied after that: cloneNode is several times cheaper than building
// the SVG node by node, and the table draws cards on every view (a throttled phone feels it)
const drawn = new Map();
function copyOf(key, build) {
  let svg = drawn.get(key);
  if (!svg) {
    svg = build();
    drawn.set(key, svg);
  }
  return svg.cloneNode(true);
}

/** The <svg> of one face-up card. */
export function cardSvg(card) {
  return copyOf(`${card.rank}${card.suit}`, () => buildCardSvg(card));
}

function buildCardSvg(card) {
  const svg = el("svg", { viewBox: "0 0 60 84", class: "card-svg", "aria-hidden": "true", focusable: "false" });
  el("rect", { x: 0.6, y: 0.6, width: 58.8, height: 82.8, rx: 5, class: "card-bg" }, svg);
  const r = rankText(card.rank);
  const suit = card.suit;
  // corner indices: rank, suit shape, letter (so colour-blind players still read the suit); the lower corner
  // is the upper one turned 180° about the card's centre (30, 42): its shape is placed there in coordinates
  const shapes = [[3.5, 15, 8], [60 - 3.5 - 8, 84 - 15 - 8, 8, true]];
  for (const flip of [false, true]) {
    const turn = flip ? { transform: "rotate(180 30 42)" } : {};
    const t = el("text", { x: 7.5, y: 12.5, "text-anchor": "middle", class: "corner-rank" + (r === "10" ? " ten" : ""), ...turn }, svg);
    t.textContent = r;
    const l = el("text", { x: 7.5, y: 30.5, "text-anchor": "middle", class: "corner-letter", ...turn }, svg);
    l.textContent = SUIT_LETTER[suit] ?? "";
  }
  if (card.rank === 1 || card.rank === 14) shapes.push([16, 28, 28]);
  else if (card.rank >= 11) {
    suitShapes(svg, suit, shapes); // under the picture's frame, as they were
    suitShapes(svg, suit, drawFace(svg, card.rank)); // the picture's own suit, on the frame
    return svg;
  } else {
    for (const [col, y, flip] of PIPS[card.rank] ?? []) shapes.push([COLS[col] - 4.5, y - 4.5, 9, !!flip]);
  }
  suitShapes(svg, suit, shapes);
  return svg;
}

/** The back design: a lattice in a rounded frame with a small diamond medallion. */
export function backSvg() {
  return copyOf("back", buildBackSvg);
}

function buildBackSvg() {
  const svg = el("svg", { viewBox: "0 0 60 84", class: "card-svg", "aria-hidden": "true", focusable: "false" });
  el("rect", { x: 0.6, y: 0.6, width: 58.8, height: 82.8, rx: 5, class: "back-bg" }, svg);
  el("rect", { x: 5, y: 5, width: 50, height: 74, rx: 3, class: "back-field" }, svg);
  // the lattice: one path of 44 strokes (it was 44 <line> elements, each styled, laid out and painted)
  const d = [];
  for (let i = -70; i < 60; i += 6) d.push(`M${5 + i} 5L${5 + i + 74} 79M${55 - i} 5L${55 - i - 74} 79`);
  el("path", { d: d.join(""), class: "back-line" }, svg);
  el("rect", { x: 5, y: 5, width: 50, height: 74, rx: 3, class: "back-frame" }, svg);
  el("path", { d: "M30 30 L40 42 L30 54 L20 42 Z", class: "back-medal" }, svg);
  return svg;
}

/**
 * A card element. `card` is {id, rank, suit} (face up) or {hidden: true} / null (back).
 * opts: {size: "xs"|"sm"|"md"|"lg"|"xl", question: bool (Indian "?" forehead), extraClass}
 */
export function cardEl(card, opts = {}) {
  const div = document.createElement("div");
  div.className = `card card-${opts.size ?? "md"}`;
  if (opts.extraClass) div.className += " " + opts.extraClass;
  div.setAttribute("role", "img");
  if (opts.question) {
    div.classList.add("card-question");
    div.setAttribute("aria-label", opts.label ?? tx("cards.6"));
    div.appendChild(backSvg());
    const q = document.createElement("span");
    q.className = "question-mark";
    q.textContent = "?";
    q.setAttribute("aria-hidden", "true");
    div.appendChild(q);
    return div;
  }
  if (!card || card.hidden || card.rank == null || !card.suit) {
    div.classList.add("card-back");
    div.setAttribute("aria-label", tx("cards.5"));
    div.appendChild(backSvg());
    return div;
  }
  faceUp(div, card, opts);
  div.appendChild(cardSvg(card));
  return div;
}

/** The attributes every face-up card carries, big or mini: its suit class, id, rank, suit and label. */
function faceUp(div, card, opts) {
  div.classList.add("suit-" + card.suit);
  if (opts.example) div.classList.add("example");
  else div.dataset.cardId = String(card.id);
  div.dataset.rank = String(card.rank);
  div.dataset.suit = card.suit;
  div.setAttribute("aria-label", cardLabel(card));
}

/**
 * A small text card for opponents' seats (readable at 24 px wide where a scaled SVG is not): rank over suit
 * symbol, coloured by suit. Same aria-label / data-card-id contract as cardEl; a hidden card is a mini back.
 */
export function miniCardEl(card, opts = {}) {
  const div = document.createElement("div");
  div.className = "card mini" + (opts.big ? " mini-big" : "");
  div.setAttribute("role", "img");
  if (!card || card.hidden || card.rank == null || !card.suit) {
    div.classList.add("card-back");
    div.setAttribute("aria-label", tx("cards.5"));
    return div;
  }
  faceUp(div, card, opts);
  const r = document.createElement("b");
  r.textContent = rankText(card.rank);
  if (r.textContent.length > 1) r.className = "ten"; // (narrowed: a fanned row shows a card's first 14 px)
  const su = document.createElement("i");
  su.textContent = SUIT_SYMBOL[card.suit] ?? "";
  div.append(r, su);
  return div;
}

/** Every card of a deck, for the card gallery used by tests and the rules page. */
export function allCards(kind = "d52") {
  const out = [];
  if (kind === "d20") {
    ["S", "H"].forEach((suit, si) => {
      for (let rank = 1; rank <= 10; rank++) out.push({ id: si * 10 + (rank - 1), rank, suit });
    });
    return out;
  }
  ["S", "D", "H", "C"].forEach((suit, si) => {
    for (let rank = 2; rank <= 14; rank++) out.push({ id: si * 13 + (rank - 2), rank, suit });
  });
  return out;
}
