// The table screen (poker.md §9): draws one `view` (docs/view.md) and offers the actions of
// `view.me.legalActions`. No game rule lives here: amounts, limits and who acts all come from the view.

import { cardEl, cardShort, miniCardEl } from "./cards.js";
import { ACTION_LABEL, KOREAN_ORDER, SIDE_LABEL, PHASE_LABEL, fmt, withNames } from "./labels.js";
import { serverClock } from "./net.js";
import { modeName } from "./options.js";
import { rankingTable } from "./rules.js";
import { listen, morph, morphKeyed, whole } from "./morph.js";
import { reactionPalette, showBubble } from "./talk.js";

function h(tag, attrs = {}, ...kids) {
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
    node.appendChild(typeof kid === "string" || typeof kid === "number" ? document.createTextNode(String(kid)) : kid);
  }
  return node;
}

const RING_C = 2 * Math.PI * 12;
const RING = { svg: null };

function isHidden(c) { return !c || c.hidden || c.rank == null; }

/** §3 "보스" 왕관: a small crown drawn inline (no emoji font needed). */
function crownIcon() {
  if (!crownIcon.svg) {
    const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    svg.setAttribute("viewBox", "0 0 16 12");
    svg.setAttribute("class", "crown");
    svg.setAttribute("aria-hidden", "true");
    svg.innerHTML = '<path d="M1 3.5 4.5 7 8 1.5 11.5 7 15 3.5 13.6 11H2.4Z"/><circle cx="1" cy="3" r="1.2"/><circle cx="8" cy="1.2" r="1.2"/><circle cx="15" cy="3" r="1.2"/>';
    crownIcon.svg = svg;
  }
  return crownIcon.svg.cloneNode(true); // innerHTML runs the HTML parser: once, not per render
}

/** The timer ring sits on a seat's top-right corner; near the screen edge it moves in over the seat. */
function keepRingInside(el, right, W) {
  const ring = el.querySelector(":scope > .timer-ring");
  if (!ring) return;
  const overhang = 10; // .timer-ring { right: -10px }
  const room = Math.max(0, Math.floor(W - 1 - right));
  const want = room < overhang ? `${-room}px` : ""; // a kept seat may have been nearer the edge before
  if (ring.style.right !== want) ring.style.right = want; // (an unchanged seat is not written to)
}

/**
 * Make `parent`'s children exactly `nodes`, in order: the ones no longer wanted go first, then each new one is
 * inserted at its place, so a kept node is never detached (which would make the browser style and lay it out
 * again).
 */
function syncChildren(parent, nodes) {
  const keep = new Set(nodes);
  for (const c of [...parent.children]) if (!keep.has(c)) c.remove();
  nodes.forEach((node, i) => {
    const at = parent.children[i];
    if (at !== node) parent.insertBefore(node, at ?? null);
  });
}

/** Do any two of these boxes ({l, r, t, b}) overlap? */
function boxesOverlap(boxes) {
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i];
      const b = boxes[j];
      if (Math.min(a.r, b.r) - Math.max(a.l, b.l) > 0.5 && Math.min(a.b, b.b) - Math.max(a.t, b.t) > 0.5) return true;
    }
  }
  return false;
}

/**
 * Seats narrower than their row of cards: let the cards overlap (each still shows its rank and suit).
 * All seats are measured, then changed, then measured again, so the browser lays out twice in all rather than
 * twice per seat (this runs on every render of a phone table). Each card slides over the one before it only as
 * far as that one keeps its strip (a back: a sliver; a face: its rank and suit), so no card passes the row's
 * left edge; a row that still does not fit widens its seat (up to `cells[i]`, the seat's room in its row).
 */
function fitSeatCards(els, cells = [], memo = null) {
  if (memo) {
    // a seat whose cards, classes and room are those of a seat fanned before ends the same way: replay
    // what was written then (no measuring); only the others are measured, and remembered
    const keys = els.map((el, i) => fanKey(el, cells[i]));
    const todo = [];
    els.forEach((el, i) => {
      const rec = keys[i] && memo.get(keys[i]);
      if (rec) replayFan(el, rec);
      else todo.push(i);
    });
    if (!todo.length) return;
    fitSeatCards(todo.map((i) => els[i]), todo.map((i) => cells[i]));
    if (memo.size > 400) memo.clear();
    for (const i of todo) if (keys[i]) memo.set(keys[i], recordFan(els[i]));
    return;
  }
  const rows = els.map((el, i) => [el.querySelector(".cards"), i]).filter(([row]) => row && row.children.length >= 2);
  const overBy = (row) => {
    const cards = row.children;
    return cards[cards.length - 1].getBoundingClientRect().right - cards[0].getBoundingClientRect().left - row.clientWidth;
  };
  const wide = rows.filter(([row]) => overBy(row) > 0);
  // too wide: drop the bigger showdown minis first, then fan the cards (rank and suit on each card's left edge)
  for (const [row] of wide) {
    row.classList.add("squeezed");
    for (const c of row.children) c.classList.remove("mini-big");
  }
  const STRIP = 14; // the left strip of a face card that shows its rank ("10" included) and suit
  const BACK = 4;
  const plans = wide.map(([row, i]) => [row, i, overBy(row)]).filter(([, , over]) => over > 0)
    .map(([row, i, over]) => {
      const cards = [...row.children];
      const widths = cards.map((c) => c.getBoundingClientRect().width);
      const margins = cards.map((c) => parseFloat(getComputedStyle(c).marginLeft) || 0);
      const room = cards.map((c, k) => (k === 0 ? 0
        : Math.max(0, widths[k - 1] - (isBackEl(cards[k - 1]) ? BACK : STRIP) + margins[k])));
      const total = room.reduce((a, b) => a + b, 0);
      const take = Math.min(over, total);
      const fan = cards.map((c, k) => [c, margins[k] - (total ? Math.min(room[k], Math.ceil((room[k] * take) / total)) : 0)])
        .slice(1);
      return { el: els[i], cell: cells[i], fan, short: Math.ceil(over - total) };
    });
  const grow = plans.map((p) => [p, Math.ceil(p.el.getBoundingClientRect().width)]);
  for (const { fan } of plans) for (const [c, margin] of fan) c.style.marginLeft = `${margin}px`;
  const wrap = [];
  for (const [{ el, cell, short, fan }, w] of grow) {
    if (short <= 0) continue;
    const want = cell ? Math.min(cell, w + short) : w + short;
    el.style.maxWidth = `${Math.max(w, want)}px`;
    el.style.minWidth = `${want}px`;
    // still too narrow (a top-row seat of a 320 px phone with seven open cards, or Omaha's four shown at
    // hand end): hole cards on one line, open cards on the next (no open cards: half and half), each line
    // fanned on its own
    const row = el.querySelector(".cards");
    const cards = [...row.children];
    const up = cards.findIndex((c) => c.classList.contains("up"));
    const k = up > 0 ? up : Math.ceil(cards.length / 2);
    if (want < w + short && cards.length >= 4) {
      for (const [c] of fan) c.style.removeProperty("margin-left");
      row.classList.add("wrap");
      row.insertBefore(h("i", { class: "row-break" }), cards[k]);
      wrap.push([row, k]);
    }
  }
  const lines = wrap.map(([row, k]) => {
    const cards = [...row.children].filter((c) => !c.classList.contains("row-break"));
    return [row.clientWidth, cards.slice(0, k), cards.slice(k)];
  }).flatMap(([width, ...parts]) => parts.filter((p) => p.length >= 2).map((p) => {
    // measured by sizes, not positions: an overlong line has already wrapped
    const sum = p.reduce((a, c, k) => a + c.getBoundingClientRect().width
      + (k ? (parseFloat(getComputedStyle(c).marginLeft) || 0) + 1 : 0), 0);
    const over = sum - width;
    return [p, over > 0 ? Math.ceil(over / (p.length - 1)) : 0];
  }));
  for (const [p, d] of lines) {
    if (d) for (const c of p.slice(1)) c.style.marginLeft = `${(parseFloat(getComputedStyle(c).marginLeft) || 0) - d}px`;
  }
}

// classes that only colour a seat or a card (style.css: border colour, shadow, opacity, suit colour), not size it
const COLOUR_ONLY = /(^|\s)(to-act|folded|winner|suit-\S+)(?=\s|$)/g;

/**
 * What decides how fitSeatCards leaves a seat: its cards row (each card's size classes: a card is
 * var(--card-w) wide whatever it shows), the seat's size classes and width limits, its cell and the page's
 * font classes. A seat whose cards overflow is as wide as its max-width allows whatever else it shows (the
 * row is a no-wrap flex line), and one whose cards fit is left alone, so the rest of the seat (name, stack,
 * last action, whose turn) is not part of it. null: nothing to fit.
 */
function fanKey(el, cell) {
  const row = el.querySelector(".cards");
  if (!row || row.children.length < 2) return null;
  const cards = [...row.children].map((c) => c.className.replace(COLOUR_ONLY, "")).join(",");
  return `${el.className.replace(COLOUR_ONLY, "")}|${el.style.maxWidth}|${el.style.minWidth}|${cell}|${row.className}|${cards}|${document.body.className}`;
}

/** What fitSeatCards wrote into a seat (row and card classes, card margins, the line break, the seat's limits). */
function recordFan(el) {
  const row = el.querySelector(".cards");
  const kids = [...row.children];
  const cards = kids.filter((c) => !c.classList.contains("row-break"));
  return {
    squeezed: row.classList.contains("squeezed"),
    wrap: row.classList.contains("wrap"),
    margins: cards.map((c) => c.style.marginLeft),
    brk: kids.findIndex((c) => c.classList.contains("row-break")),
    maxW: el.style.maxWidth,
    minW: el.style.minWidth,
  };
}

/** Write a recorded fit into a seat with the same fanKey (as freshly built: no fan written yet). */
function replayFan(el, rec) {
  const row = el.querySelector(".cards");
  const cards = [...row.children];
  // (fitSeatCards squeezes a row by this class, dropping its cards' bigger minis, and wraps it by that one)
  if (rec.squeezed) row.classList.add("squeezed");
  if (rec.wrap) row.classList.add("wrap");
  cards.forEach((c, k) => {
    if (rec.squeezed) c.classList.remove("mini-big");
    if (rec.margins[k]) c.style.marginLeft = rec.margins[k];
  });
  if (rec.brk >= 0) row.insertBefore(h("i", { class: "row-break" }), cards[rec.brk]);
  if (rec.maxW) el.style.maxWidth = rec.maxW;
  if (rec.minW) el.style.minWidth = rec.minW;
}

/** A card drawn face down (a mini back or a full card back). */
function isBackEl(c) {
  return c.classList.contains("card-back") || c.classList.contains("stacked");
}

/**
 * Mobile: each seat's bet chip goes where it covers no other seat (nor another chip): below the seat, else
 * beside it towards the middle (unless that hides the pot or board, `soft`), else over the bottom edge of its
 * own seat. items: layoutMobile's seats ({el, group, x, y, w, h}, centres in px), boxes: their boxes
 * ({l, r, t, b}, marks included). Returns each seat's chip box (null: no chip).
 */
function placeChips(items, boxes, soft, W, bottom) {
  const placed = [];
  const out = items.map(() => null);
  const GAP = 2;
  const free = (c, k) => c.l >= 0 && c.r <= W && c.t >= 0 && c.b <= bottom
    && !boxes.some((o, m) => m !== k && overlap(c, o)) && !placed.some((o) => overlap(c, o));
  items.forEach((it, k) => {
    const chip = it.el.querySelector(":scope > .bet-chip");
    if (!chip || !it.m.chip) return;
    const cw = it.m.chip.w; // measured with the seat (layoutMobile): no layout forced per chip
    const ch = it.m.chip.h;
    const b = boxes[k];
    const at = (cx, cy) => ({ l: cx - cw / 2, r: cx + cw / 2, t: cy - ch / 2, b: cy + ch / 2, cx, cy });
    const below = b.b + GAP + ch / 2;
    const toMid = it.x < W / 2 ? 1 : -1;
    const cands = [at(it.x, below)];
    // below, slid towards the middle (a top-row seat over a side column)
    for (let d = 8; d <= it.w / 2 + cw / 2; d += 8) cands.push(at(it.x + toMid * d, below));
    if (it.group !== "top") {
      const side = toMid > 0 ? b.r + GAP + cw / 2 : b.l - GAP - cw / 2;
      for (const c of [at(side, b.b - ch / 2), at(side, it.y), at(side, b.t + ch / 2)]) {
        if (!soft.some((o) => overlap(c, o))) cands.push(c);
      }
    }
    const inside = at(it.x, b.b - 2 - ch / 2); // over its own seat's bottom edge: covers no one else
    // never over the pot or the board either: rather over its own seat
    const c = cands.find((x) => free(x, k) && !soft.some((o) => overlap(x, o))) ?? inside;
    placed.push(c);
    out[k] = c;
    const border = it.m.border;
    const left = `${c.cx - (it.x - it.w / 2) - border}px`;
    const top = `${c.cy - (it.y - it.h / 2) - border}px`;
    // written only when it moved (a seat that did not change is not touched)
    if (chip.placedAt !== `${left}|${top}`) {
      Object.assign(chip.style, { left, top, bottom: "auto", transform: "translate(-50%, -50%)", zIndex: "1" });
      chip.placedAt = `${left}|${top}`;
    }
  });
  return out;
}

/**
 * The free width between the left and right seat columns beside the band [y, y + h] of a table W wide
 * (boxes {l, r, t, b}), less `gap` on each side; null when a seat sits across the middle of that band.
 */
function freeCorridor(seats, W, y, h, gap) {
  let l = 0;
  let r = W;
  for (const o of seats) {
    if (Math.min(y + h, o.b) - Math.max(y, o.t) <= 0) continue;
    if (o.r <= W / 2) l = Math.max(l, o.r);
    else if (o.l >= W / 2) r = Math.min(r, o.l);
    else return null;
  }
  return { l: l + gap, r: r - gap };
}

/**
 * Does nothing on the table cover anything it must not (mobile)? No two seats overlap; every seat with its
 * marks, bet chip and timer ring stays inside the table area; no chip, ring or mark covers another seat or
 * the centre (pot, side pots, board); the centre covers no seat; the hand-end banner covers neither.
 */
function tableClear(main) {
  const o = main.getBoundingClientRect();
  const W = main.clientWidth;
  const H = main.clientHeight;
  const rect = (e) => {
    const r = e.getBoundingClientRect();
    return { l: r.left - o.left, r: r.right - o.left, t: r.top - o.top, b: r.bottom - o.top };
  };
  const seatEls = [...main.querySelectorAll(".seat")];
  const seats = seatEls.map(rect);
  if (boxesOverlap(seats)) return false;
  const inside = (b) => b.l >= -0.5 && b.r <= W + 0.5 && b.t >= -0.5 && b.b <= H + 0.5;
  const parts = [...main.querySelectorAll(".center > *")].map(rect).filter((b) => b.r > b.l);
  const banner = main.querySelector(":scope > .banner");
  for (const [k, s] of seatEls.entries()) {
    if (!inside(seats[k])) return false;
    for (const e of s.querySelectorAll(":scope > .bet-chip, :scope > .timer-ring, .marks .mark")) {
      const b = rect(e);
      if (!(b.r > b.l)) continue;
      if (!inside(b) || seats.some((x, m) => m !== k && overlap(b, x)) || parts.some((x) => overlap(b, x))) return false;
    }
  }
  if (parts.some((b) => !inside(b) || seats.some((x) => overlap(b, x)))) return false;
  return !banner || ![...seats, ...parts].some((x) => overlap(rect(banner), x));
}

/**
 * tableClear from what the table placed (layoutMobile's seats, marks, chips and rings, the centre's parts,
 * the banner's box): the same checks, with no layout read. k: {W, H, seats, marks, chips, rings, parts, banner}.
 */
function placedClear(k) {
  if (boxesOverlap(k.seats)) return false;
  const inside = (b) => b.l >= -0.5 && b.r <= k.W + 0.5 && b.t >= -0.5 && b.b <= k.H + 0.5;
  const parts = k.parts.filter((b) => b.r > b.l);
  for (const [i, s] of k.seats.entries()) {
    if (!inside(s)) return false;
    for (const b of [k.chips[i], k.rings[i], k.marks[i]]) {
      if (!b || !(b.r > b.l)) continue;
      if (!inside(b) || k.seats.some((x, m) => m !== i && overlap(b, x)) || parts.some((x) => overlap(b, x))) return false;
    }
  }
  if (parts.some((b) => !inside(b) || k.seats.some((x) => overlap(b, x)))) return false;
  return !k.banner || ![...k.seats, ...parts].some((x) => overlap(k.banner, x));
}

/** First-hand tips closed once stay closed: across renders, tables and reloads (this browser). */
const TIPS_KEY = "pokerroom:tipsSeen";
function loadTipsSeen() {
  try { return new Set(JSON.parse(localStorage.getItem(TIPS_KEY) ?? "[]")); } catch { return new Set(); }
}
function saveTipsSeen(seen) {
  try { localStorage.setItem(TIPS_KEY, JSON.stringify([...seen])); } catch { /* private mode */ }
}

function overlap(a, b) {
  return Math.min(a.r, b.r) - Math.max(a.l, b.l) > 0.5 && Math.min(a.b, b.b) - Math.max(a.t, b.t) > 0.5;
}


/** Short tags of the house rules in force for the phase line (docs/rules-extensions.md). */
function houseRuleTags(hr) {
  if (!hr) return [];
  const out = [];
  if (hr.rule491) out.push("491 룰");
  if (hr.betCap) out.push(`맥스 ${fmt(hr.betCap)}`);
  if (hr.badugiHigh) out.push("하이 바둑이");
  if (hr.jacksOrBetter) out.push("잭스 오어 베터");
  return out;
}

export class TableUI {
  /**
   * host: element to draw into. callbacks: {onAction(action), confirm(text) -> Promise<bool>, onTurn()}
   */
  constructor(host, callbacks) {
    this.host = host;
    this.cb = callbacks;
    this.view = null;
    this.prev = null;
    this.names = {};
    this.settings = {};
    this.ui = { key: null };
    this.busy = false;
    this.timer = setInterval(() => this.tick(), 250);
    this.animating = false;
    this.tipsSeen = loadTipsSeen();
    this.resizeObs = null;
    this.wide = window.matchMedia("(min-width: 1000px)"); // style.css: where the side panel shows
    this.onWide = () => { if (this.wide.matches) this.render(); };
    this.wide.addEventListener("change", this.onWide);
  }

  destroy() {
    this.wide.removeEventListener("change", this.onWide);
    this.closePalette();
    clearInterval(this.timer);
    this.resizeObs?.disconnect();
  }

  /** ctx: {names: {id: nickname}, role, playerId, settings: {tips, hintsHighlight}, connected} */
  update(view, ctx) {
    this.prev = this.view;
    this.view = view;
    this.names = ctx.names ?? {};
    this.settings = ctx.settings ?? {};
    this.role = ctx.role;
    this.busy = !!ctx.busy;
    this.seatPart = ctx.seat ?? null;
    this.social = ctx.social ?? {};
    const me = view.me;
    const key = [view.handNo, view.phase, view.street, view.toAct, (view.pending ?? []).join(",")].join("|");
    if (key !== this.ui.key) {
      const keepDraft = this.ui.key && this.ui.phase === view.phase && this.ui.handNo === view.handNo;
      this.ui = {
        key, phase: view.phase, handNo: view.handNo,
        raiseOpen: false, raiseTo: null,
        discard: keepDraft ? this.ui.discard : null,
        open: keepDraft ? this.ui.open : null,
        drawSel: keepDraft ? this.ui.drawSel : new Set(),
      };
    }
    this.render();
    const wasMyTurn = this.prev && this.isMyTurn(this.prev);
    if (me && this.isMyTurn(view) && !wasMyTurn) this.cb.onTurn?.();
    const enteringEnd = view.phase === "handEnd" && (!this.prev || this.prev.phase !== "handEnd" || this.prev.handNo !== view.handNo);
    if (enteringEnd) this.animateAwards();
  }

  isMyTurn(v) {
    const me = v.me;
    if (!me) return false;
    return (me.legalActions ?? []).some((a) => a.type !== "ready" && a.type !== "show");
  }

  nm(id) { return this.names[id] ?? id ?? ""; }

  legal(type) { return (this.view.me?.legalActions ?? []).find((a) => a.type === type) ?? null; }

  send(action) {
    if (this.busy) return;
    this.lock();
    this.cb.onAction(action);
  }

  /** An action is on its way: disable the controls until the answer (view / ack / error) comes. */
  lock() {
    this.busy = true;
    this.host.querySelectorAll(".actions button, .raise-panel button").forEach((b) => { b.disabled = true; });
    // (written straight into the buttons, not through a render: the keyed slices that hold them must be
    // built again next time, or an unlocked turn would keep these disabled buttons)
    this.lockGen = (this.lockGen ?? 0) + 1;
    clearTimeout(this.unlockTimer);
    this.unlockTimer = setTimeout(() => { if (this.busy) { this.busy = false; this.render(); } }, 6000);
  }

  // ------------------------------------------------------------------ rendering
  /**
   * app.js hands every `view` message here. The first view of a frame is drawn at once (no added delay); more
   * views arriving before that frame is painted wait for the next frame, where only the newest is drawn: the
   * table renders at most once per animation frame, whatever the server sends (bots acting in a burst, a
   * reconnect). A hidden tab draws at once (no frames run there, and my turn must still sound).
   */
  schedule(view, ctx) {
    this.queued = [view, ctx];
    if (this.frameBusy && !document.hidden) return;
    this.flushQueued();
  }

  flushQueued() {
    const q = this.queued;
    this.queued = null;
    if (!q) { this.frameBusy = false; return; }
    this.frameBusy = true;
    const token = (this.frameToken = (this.frameToken ?? 0) + 1);
    this.update(q[0], q[1]);
    // this callback runs in the frame that paints the render above: anything queued since goes to the next one
    requestAnimationFrame(() => {
      if (token !== this.frameToken) return;
      if (this.queued) requestAnimationFrame(() => { if (token === this.frameToken) this.flushQueued(); });
      else this.frameBusy = false;
    });
  }

  /**
   * The parts of the table screen that live across renders (the screen, the table area, the felt, the seat
   * layer, the phase line): a render swaps only what changed instead of rebuilding the whole screen, so the
   * browser re-lays out the changed parts, not every node of the table.
   */
  skeleton() {
    const sk = this.sk;
    if (sk && sk.screen.parentNode === this.host) return sk;
    const screen = h("div", { class: "table-screen" });
    const main = h("div", { class: "table-main" });
    const seats = h("div", { class: "seats" });
    const phase = h("div", { class: "phase-line", "data-testid": "phase-line" });
    main.append(h("div", { class: "felt" }), seats, phase);
    screen.append(main);
    this.host.replaceChildren(screen);
    this.seatCache = new Map();
    this.centerKeyShown = null;
    this.sideKey = null;
    this.sk = { screen, main, seats, phase, center: null, banner: null, me: null, side: null };
    return this.sk;
  }

  render() {
    const v = this.view;
    if (!v) return;
    this.keepY = window.scrollY; // placeTable keeps the reader's scroll position
    this.renders = (this.renders ?? 0) + 1;
    this.hostW = this.host.clientWidth; // read before any write: no forced layout
    this.vp = [window.innerWidth, window.innerHeight];
    // the seat layer's width does not depend on what a render writes (a phone's column layout): read now,
    // while the layout is clean, so the first forced layout is the one that measures the changed seats
    this.preW = this.sk?.seats?.isConnected && this.hostW < 600 ? this.sk.seats.clientWidth : null;
    const sk = this.skeleton();
    // (an attribute written with the value it has still makes the browser look at the styles again)
    if (sk.screen.dataset.phase !== v.phase) sk.screen.dataset.phase = v.phase;
    if (sk.screen.dataset.mode !== v.mode) sk.screen.dataset.mode = v.mode;
    // the centre (pot, board, used cards): built again only when what it shows changed, and then morphed
    // into the one on screen (the board's cards stay while the pot changes); what placeCenter wrote goes
    const centerKey = this.centerKey();
    if (!sk.center) {
      sk.center = h("div", { class: "center" });
      sk.main.insertBefore(sk.center, sk.phase);
      this.centerMemo = new Map();
    }
    // back to how a fresh build starts (placeCenter moves and folds it again from there)
    sk.center.removeAttribute("style");
    const usedPanel = sk.center.querySelector(".used-panel");
    usedPanel?.style.removeProperty("--cell");
    usedPanel?.classList.remove("folded");
    if (centerKey !== this.centerKeyShown) {
      this.syncSlices(sk.center, this.centerSlices(), this.centerMemo);
      this.centerKeyShown = centerKey;
    }
    // the hand-end banner likewise (a ready mark coming in does not rebuild it); placeBanner places it again
    let banner = this.renderBanner();
    if (sk.banner && banner) {
      const kept = morph(sk.banner, banner);
      if (kept !== sk.banner) sk.banner.replaceWith(kept);
      banner = kept;
    } else {
      sk.banner?.remove();
      if (banner) sk.main.insertBefore(banner, sk.phase);
    }
    sk.banner = banner;
    const handPart = v.handNo ? `${v.handNo}${v.handLimit ? "/" + v.handLimit : ""}판` : "";
    const street = v.streetName || PHASE_LABEL[v.phase] || "";
    const phaseText = [modeName(v.mode, v.options), handPart, street, `기본 ${fmt(v.baseUnit)}`, v.options?.blindUpEvery ? `레벨 ${v.level ?? 1}` : "",
      ...houseRuleTags(v.houseRules)]
      .filter(Boolean).join(" · ");
    if (sk.phase.textContent !== phaseText) sk.phase.textContent = phaseText;
    // my area, slice by slice: a slice whose inputs did not change (my cards while others act) is neither
    // built nor touched; the others are built and merged into the ones on screen
    if (!sk.me) {
      sk.me = h("div", { class: "me-area", "data-testid": "me-area" });
      sk.screen.append(sk.me);
      this.meMemo = new Map();
    }
    this.syncSlices(sk.me, this.meSlices(), this.meMemo);
    // the side panel (log, rankings) shows on wide screens only (style.css): a phone neither builds it nor
    // rebuilds it per view; the media query's change draws it when the screen widens
    if (this.wide.matches) {
      const sideKey = this.sidePanelKey();
      if (!sk.side || sideKey !== this.sideKey) {
        const side = this.renderSidePanel();
        if (sk.side) sk.side.replaceWith(side);
        else sk.screen.append(side);
        sk.side = side;
        this.sideKey = sideKey;
      }
    } else if (sk.side) {
      sk.side.remove();
      sk.side = null;
      this.sideKey = null;
    }
    this.placeTable(sk.seats);
    this.keepY = null;
    this.preW = null;
    this.revealMyTurn();
    this.tick();
    if (!this.resizeObs && typeof ResizeObserver !== "undefined") {
      this.resizeObs = new ResizeObserver(() => {
        const s = this.host.querySelector(".seats");
        const vp = [window.innerWidth, window.innerHeight];
        // the table placed for exactly this size (a render that grew the table or changed my area resizes
        // the host, and has placed everything for the new size already): nothing to do. The layout is clean
        // when observers run, so these reads cost nothing
        const p = this.placed;
        const same = p && s && this.vp && vp[0] === this.vp[0] && vp[1] === this.vp[1]
          && s.clientWidth === p.W && s.clientHeight === p.H;
        this.vp = vp;
        if (s && !same) this.placeTable(s);
      });
      this.resizeObs.observe(this.host);
    }
  }

  /**
   * Seats, centre and banner. On a short phone (700 px high or less) a full table may not fit above my cards and the action bar
   * (320×568 with six players): rather than let seats cover each other, the pot or my cards, the table area
   * grows (24 px at a time) until nothing covers anything, and the page scrolls vertically. Scrolling is
   * the lesser harm: everything stays readable and tappable, and my area sits right below the table.
   */
  placeTable(seats) {
    const main = seats.parentElement;
    const screen = main?.parentElement;
    const keepY = this.keepY ?? window.scrollY; // a re-render shrinks the page for a moment: keep the scroll
    main?.style.removeProperty("flex");
    screen?.style.removeProperty("height");
    this.grown = false;
    this.knownH = null;
    for (let k = 0; ; k++) {
      this.placeSeats(seats);
      this.placeCenter();
      this.placeBanner();
      // short phones only (as the CSS's max-height: 700px): a taller screen keeps my area always in view
      // (asked first: the sizes below are read only when needed, each read after a write forces a layout)
      const tall = (this.vp?.[1] ?? window.innerHeight) > 700;
      const W = !main || tall ? 0 : this.placed?.W ?? main.clientWidth;
      // what the table placed, when all of it is known: checked without reading the layout back
      const known = !main || tall || !W || W >= 600 || k >= 16 ? null : this.placedTable(main);
      if (!main || tall || !W || W >= 600 || k >= 16 || (known ? placedClear(known) : tableClear(main))) {
        this.knownH = null;
        // scrolled to the top, a page that shrank for a moment is still at the top (reading scrollY would
        // force a layout)
        if (keepY > 0 && window.scrollY !== keepY) window.scrollTo(0, keepY);
        return;
      }
      const H = known ? known.H : main.clientHeight;
      main.style.flex = `0 0 ${H + 24}px`;
      this.knownH = known ? H + 24 : null; // a flex item of a fixed basis: exactly that high
      this.grown = true;
      screen.style.height = "auto";
    }
  }

  /**
   * Everything placedClear checks, from what this render placed, or null when some of it is not known
   * (desktop, a centre lifted or moved by hand, a banner placed from an older layout).
   */
  placedTable(main) {
    const p = this.placed;
    if (!p?.seats || p.gen !== this.seatGen) return null;
    const parts = this.knownParts(main);
    if (!parts) return null;
    const banner = main.querySelector(":scope > .banner");
    if (banner && !(this.bannerBox?.el === banner && this.bannerBox.gen === p.gen
      && this.bannerBox.style === banner.getAttribute("style"))) return null;
    return { W: p.W, H: p.H, seats: p.seats, marks: p.marks, chips: p.chips, rings: p.rings, parts,
      banner: banner ? this.bannerBox.box : null };
  }

  /**
   * The centre's parts (pot, side pots, board, grid) as boxes in the table's coordinates when known without a
   * layout: at the usual place as layoutMobile measured it, or where placeCenter moved it; else null.
   */
  knownParts(main) {
    const p = this.placed;
    const center = main.querySelector(":scope > .center");
    if (!p || !center) return p ? [] : null;
    const panel = center.querySelector(".used-panel");
    const key = `${this.centerKeyShown}|${p.W}|${p.H}|${panel?.className}|${panel?.style.getPropertyValue("--cell")}`;
    if (!center.hasAttribute("style")) return this.softCache?.key === key ? this.softCache.soft : null;
    const m = this.centerMoved;
    return m && m.key === key && m.gen === p.gen && m.style === center.getAttribute("style") ? m.parts : null;
  }

  /**
   * A table grown past the screen (placeTable) leaves my area below the fold: when my turn comes, scroll it
   * into view once (not on every render, so the player can scroll back up to read the table).
   */
  revealMyTurn() {
    const me = this.mySeatId();
    const mine = !!me && (this.view.pending ?? []).includes(me);
    // only a grown table (or a short screen) can push my area below the fold: otherwise no read, no layout
    if (mine && !this.wasMyTurn && (this.grown || (this.vp?.[1] ?? 0) <= 700)) {
      const area = this.host.querySelector("[data-testid=me-area]");
      const r = area?.getBoundingClientRect();
      if (r && r.bottom > window.innerHeight) area.scrollIntoView({ block: "end" });
    }
    this.wasMyTurn = mine;
  }

  mySeatId() { return this.view.me?.id ?? null; }

  seatOrderForDisplay() {
    const v = this.view;
    const seats = [...(v.seats ?? [])].sort((a, b) => a.seat - b.seat);
    const myId = this.mySeatId();
    const idx = seats.findIndex((s) => s.id === myId);
    if (idx < 0) return { others: seats, full: true };
    return { others: [...seats.slice(idx + 1), ...seats.slice(0, idx)], full: false };
  }

  /**
   * Seat centres in % of the table for `n` opponents (mobile: rows; desktop: an arc), clockwise from my left.
   * Each slot is [x, y, group] with group "left" | "top" | "right" | "bottom" (mobile) or "arc" (desktop).
   */
  seatSlots(n, full, W) {
    if (W >= 600) {
      const out = [];
      for (let i = 0; i < n; i++) {
        const theta = full ? (360 / n) * i : n === 1 ? 180 : 52 + ((i + 0.5) * 256) / n;
        const rad = (theta * Math.PI) / 180;
        out.push([50 - 42 * Math.sin(rad), 50 + 40 * Math.cos(rad), "arc"]);
      }
      return out;
    }
    const out = [];
    let rest = n;
    if (full && n >= 2) { rest = n - 1; }
    const s = rest <= 2 ? 0 : rest <= 6 ? 1 : 2;
    const t = rest - 2 * s;
    const sideY = s === 1 ? [40] : [64, 37];
    for (let k = 0; k < s; k++) out.push([11, sideY[k], "left"]);
    const xs = t === 1 ? [50] : t === 2 ? [30, 70] : Array.from({ length: t }, (_, i) => ((i + 0.5) * 100) / t);
    for (const x of xs) out.push([x, 12, "top"]);
    for (let k = s - 1; k >= 0; k--) out.push([89, sideY[k], "right"]);
    if (full && n >= 2) out.unshift([50, 86, "bottom"]);
    return out;
  }

  placeSeats(container) {
    const { others, full } = this.seatOrderForDisplay();
    const n = others.length;
    this.placed = null;
    if (!n) { container.replaceChildren(); return; }
    const W = this.preW || container.clientWidth || 390;
    const slots = this.seatSlots(n, full, W);
    if (W >= 600) {
      const H = container.clientHeight || 480;
      container.replaceChildren();
      this.seatCache = new Map();
      const compact = n >= 7;
      others.forEach((seat, i) => {
        const el = this.renderSeat(seat, compact, n);
        container.append(el);
        const bw = Math.ceil(el.getBoundingClientRect().width) || 112;
        el.style.width = `${bw}px`;
        const bh = el.offsetHeight || 90;
        const [px, py] = slots[i];
        const x = Math.max(bw / 2 + 2, Math.min(W - bw / 2 - 2, (W * px) / 100));
        el.style.left = `${x}px`;
        keepRingInside(el, x + bw / 2, W);
        el.style.top = `${Math.max(bh / 2 + 8, Math.min(H - bh / 2 - 36, (H * py) / 100))}px`;
      });
      return;
    }
    // mobile: rows at the top and columns at the sides; seats get narrower (and their mini cards overlap)
    // until no two seats overlap, whatever the phase shows in them, and (Indian) the used-cards grid has room
    const v = this.view;
    const manyUp = n >= 3 && v.mode !== "indian" && (v.seats ?? []).some((x) => (x.up ?? []).length >= 3);
    const first = n >= 8 ? 2 : n >= 5 || manyUp ? 1 : 0;
    const gen = (this.seatGen = (this.seatGen ?? 0) + 1);
    for (let level = first; level <= 2; level++) {
      const boxes = this.layoutMobile(container, others, slots, level, W, gen);
      if (level === 2 || (!boxesOverlap(boxes) && !["folded", "blocked"].includes(this.placeCenter(14)))) break;
    }
    for (const [k, e] of this.seatCache) if (e.gen !== gen) this.seatCache.delete(k);
  }

  /**
   * What a seat's box shows, as a string: renderSeat(seat) draws exactly this (every input it reads must be
   * here), so an equal key means the same element, with the same size, can stay on the table.
   */
  seatKey(seat, n) {
    const v = this.view;
    const sd = this.showdownEntry(seat.id);
    return JSON.stringify([seat, n, this.nm(seat.id), v.phase, v.toAct === seat.id, v.betting, v.mode,
      (v.awards ?? []).filter((a) => a.to === seat.id), sd, sd ? [...this.wonCards(sd)] : null, this.waitsFor(seat.id),
      document.body.className]);
  }

  /**
   * One try of the mobile layout at a density level (0 normal, 1 compact, 2 tiny); returns the seat boxes.
   * A seat whose content did not change keeps its element and its measured size (seatCache, keyed by seatKey,
   * the level and its cell width), so only new or changed seats are measured: one batch of reads for them,
   * then the positions of all are written (no forced layout per seat).
   */
  layoutMobile(container, others, slots, level, W, gen = 0) {
    const n = others.length;
    const GAP = 4;
    const t = slots.filter((sl) => sl[2] === "top").length;
    const made = others.map((seat, i) => {
      const [px, py, group] = slots[i];
      const cell = group === "top" ? Math.floor(W / Math.max(t, 1)) - GAP : Math.floor(W / 2) - 2 * GAP;
      const key = `${this.seatKey(seat, n)}|${level}|${cell}`;
      const slot = `${seat.id}|${level}`;
      let entry = this.seatCache.get(slot);
      const base = `${cell}|${document.body.className}`;
      if (!entry || entry.base !== base) {
        const { el, parts } = this.buildSeat(seat, level, n);
        entry = { key, base, el, parts, m: null, fitted: false, pos: null };
        this.seatCache.set(slot, entry);
      } else if (entry.key !== key) {
        // a changed seat keeps its element and every unchanged slice in it (name, cards...): only the slices
        // that changed are written. A slice that can change the box's size drops what the last layout wrote
        // (its position and width: a shrink-to-fit box is measured where a new one would be), so it is
        // measured like a new one; new cards are fanned again (their row is new, the seat's limits go). A
        // turn passing (colour, timer ring) changes no size: the seat keeps its measure and its place
        const { size, cards } = this.patchSeat(entry, seat, level, n);
        entry.key = key;
        const st = entry.el.style;
        if (cards) {
          entry.fitted = false;
          st.removeProperty("max-width");
          st.removeProperty("min-width");
        }
        if (size || cards) {
          entry.m = null;
          entry.pos = null;
          st.removeProperty("left");
          st.removeProperty("top");
          st.removeProperty("width");
        }
      }
      entry.gen = gen;
      return { el: entry.el, entry, group, px, py, cell };
    });
    syncChildren(container, made.map(({ el }) => el));
    // every step below reads all new seats, then writes them: one layout per step instead of one per seat
    const fresh = made.filter(({ entry }) => !entry.m);
    // a seat's CSS width limits depend on its classes and the screen only: read once per class list (a
    // getComputedStyle after the writes above would recalculate the style of the whole page)
    const vpKey = `${W}|${this.vp?.join("x")}`;
    if (this.limitsCache?.vp !== vpKey) this.limitsCache = { vp: vpKey, byClass: new Map() };
    const byClass = this.limitsCache.byClass;
    // (a seat measured again whose cards did not change keeps its width limits and fanned row)
    const unfit = fresh.filter(({ entry }) => !entry.fitted);
    const limits = unfit.map(({ el }) => {
      let lim = byClass.get(el.className);
      if (!lim) {
        const cs = getComputedStyle(el);
        lim = [parseFloat(cs.maxWidth), parseFloat(cs.minWidth)];
        byClass.set(el.className, lim);
      }
      return lim;
    });
    unfit.forEach(({ el, cell }, i) => {
      const [maxW, minW] = limits[i];
      if (!(maxW <= cell)) el.style.maxWidth = `${cell}px`;
      if (minW > cell) el.style.minWidth = `${cell}px`;
    });
    if (this.fanMemo?.vp !== vpKey) this.fanMemo = { vp: vpKey, map: new Map() };
    fitSeatCards(unfit.map(({ el }) => el), unfit.map(({ cell }) => cell), this.fanMemo.map);
    for (const { entry } of unfit) entry.fitted = true;
    // keep the measured width: placed near the right edge, a shrink-to-fit box would get narrower (and taller).
    // Everything about the new seats is read in one go (their width, height, marks and chip, the table's
    // height, the centre), before the width is written: one layout for all of it (a box given the width it
    // already has keeps its height)
    const widths = fresh.map(({ el }) => Math.ceil(el.getBoundingClientRect().width) || 112);
    fresh.forEach(({ el, entry }, i) => {
      // the D / SB / BB marks stick out above the seat: that strip belongs to the seat too
      const mk = el.querySelector(":scope > .marks");
      const box = el.getBoundingClientRect();
      const mr = mk?.getBoundingClientRect();
      const up = mr ? Math.max(0, Math.ceil(box.top - mr.top)) : 0;
      // a crowded marks row (D, SB, BB over a tiny seat) can stick out sideways too: its overhang, centred
      const side = mr ? Math.max(0, Math.ceil(Math.max(box.left - mr.left, mr.right - box.right))) : 0;
      const chip = el.querySelector(":scope > .bet-chip")?.getBoundingClientRect();
      // the marks row's box relative to the seat's (tableClear checks it without reading the layout)
      const mkBox = mr && mr.width ? { l: mr.left - box.left, r: mr.right - box.left, t: mr.top - box.top, b: mr.bottom - box.top } : null;
      entry.m = { w: widths[i], h: el.offsetHeight || 90, up, side, border: el.clientTop, mk: mkBox,
        chip: chip ? { w: Math.ceil(chip.width), h: Math.ceil(chip.height) } : null };
    });
    // (placeTable grows the table by a known height: no read, no layout, for the new height)
    const H = this.knownH ?? (container.clientHeight || 480);
    const center = container.parentElement?.querySelector(":scope > .center");
    const panel = center?.querySelector(".used-panel");
    // (the used-cards grid as the previous density level's try left it: folded or shrunk, or as built)
    const softKey = () => `${this.centerKeyShown}|${W}|${H}|${panel?.className}|${panel?.style.getPropertyValue("--cell")}`;
    const softBase = () => `${this.centerKeyShown}|${W}|${panel?.className}|${panel?.style.getPropertyValue("--cell")}`;
    const measureSoft = () => {
      const origin = container.getBoundingClientRect();
      const soft = [...(center?.children ?? [])].map((e) => e.getBoundingClientRect()).filter((r) => r.width)
        .map((r) => ({ l: r.left - origin.left, r: r.right - origin.left, t: r.top - origin.top, b: r.bottom - origin.top }));
      this.softCache = { key: softKey(), base: softBase(), H, soft };
    };
    // the same centre on a table grown taller (placeTable): at its usual place it is only lower, by 58 % of
    // the growth (.center { top: 58% } in style.css, centred on that line), so it is moved, not measured
    const shiftSoft = () => {
      const c = this.softCache;
      if (!c || c.base !== softBase() || c.H === H || center?.hasAttribute("style")) return false;
      const dy = 0.58 * (H - c.H);
      this.softCache = { key: softKey(), base: c.base, H, soft: c.soft.map((b) => ({ ...b, t: b.t + dy, b: b.b + dy })) };
      return true;
    };
    // the centre at its usual place (no style of its own) is measured with the seats, in the same layout
    if (this.softCache?.key !== softKey() && !center?.hasAttribute("style") && !shiftSoft()) measureSoft();
    fresh.forEach(({ el }, i) => { el.style.width = `${widths[i]}px`; });
    const items = made.map(({ el, entry, group, px, py }) => ({ el, entry, group, px, py, w: entry.m.w, h: entry.m.h, up: entry.m.up, m: entry.m }));
    const bottomLimit = H - 32; // above the phase line
    for (const it of items) {
      it.x = Math.max(it.w / 2 + 2, Math.min(W - it.w / 2 - 2, (W * it.px) / 100));
      it.y = Math.max(it.h / 2 + Math.max(8, it.up + 2), Math.min(bottomLimit - it.h / 2, (H * it.py) / 100));
    }
    const box = (it) => ({ l: it.x - it.w / 2, r: it.x + it.w / 2, t: it.y - it.h / 2 - it.up, b: it.y + it.h / 2 });
    const top = items.filter((it) => it.group === "top");
    for (const side of ["left", "right"]) {
      // a column: from the top row down, each seat below the one above it
      const col = items.filter((it) => it.group === side).sort((a, b) => a.y - b.y);
      let floor = -Infinity;
      for (const it of col) {
        const b = box(it);
        for (const o of top) {
          const ob = box(o);
          if (Math.min(b.r, ob.r) - Math.max(b.l, ob.l) > 0) floor = Math.max(floor, ob.b + GAP);
        }
        if (b.t < floor) it.y = floor + it.h / 2 + it.up;
        floor = it.y + it.h / 2 + GAP;
      }
      // pushed past the bottom: move the column up again as far as the row above allows
      const last = col[col.length - 1];
      if (last && last.y + last.h / 2 > bottomLimit) {
        let shift = last.y + last.h / 2 - bottomLimit;
        for (let k = col.length - 1; k >= 0 && shift > 0; k--) {
          const it = col[k];
          const above = k > 0 ? col[k - 1].y + col[k - 1].h / 2 + GAP : Math.max(8, ...top.filter((o) => {
            const b = box(it); const ob = box(o); return Math.min(b.r, ob.r) - Math.max(b.l, ob.l) > 0;
          }).map((o) => box(o).b + GAP));
          const room = it.y - it.h / 2 - it.up - above;
          const d = Math.min(shift, Math.max(0, room));
          for (let m = k; m < col.length; m++) col[m].y -= d;
          shift -= d;
        }
      }
    }
    for (const it of items) {
      // written only when it moved: a seat that did not change is not touched at all
      const pos = `${it.x}|${it.y}`;
      if (it.entry.pos !== pos) {
        it.el.style.left = `${it.x}px`;
        it.el.style.top = `${it.y}px`;
        it.entry.pos = pos;
      }
      keepRingInside(it.el, it.x + it.w / 2, W);
    }
    const boxes = items.map(box);
    // a timer ring that would reach over a neighbour (a tight top row, a seat right below another) goes into
    // its own seat's corner instead; computed from the positions (.timer-ring: 30 px, top -12, right -10 as
    // keepRingInside leaves it), so a kept seat ends where a fresh one would
    const rings = items.map(() => null);
    items.forEach((it, k) => {
      const ring = it.el.querySelector(":scope > .timer-ring");
      if (!ring) return;
      const R = it.x + it.w / 2;
      const edge = R - (it.m.border ?? 2) + Math.min(10, Math.max(0, Math.floor(W - 1 - R)));
      const top = it.y - it.h / 2 + (it.m.border ?? 2) - 12;
      const reach = { l: edge - 30, r: edge, t: top, b: top + 30 };
      if (boxes.some((o, m) => m !== k && overlap(reach, o))) {
        if (ring.style.top !== "2px" || ring.style.right !== "2px") Object.assign(ring.style, { top: "2px", right: "2px" });
      } else {
        rings[k] = reach;
        if (ring.style.top) {
          ring.style.removeProperty("top");
          ring.style.removeProperty("right");
          keepRingInside(it.el, R, W);
        }
      }
    });
    // the centre at its usual place: a chip beside a seat must not hide the pot or the board (measured once
    // per centre content and table size)
    if (this.softCache?.key !== softKey()) {
      center?.removeAttribute("style");
      if (!shiftSoft()) measureSoft();
    }
    const chips = placeChips(items, boxes, this.softCache.soft, W, bottomLimit);
    // what each seat covers (its box with marks, chip and timer ring), for placeCenter without a layout
    const marked = boxes.map((b, k) => (items[k].m.side ? { ...b, l: b.l - items[k].m.side, r: b.r + items[k].m.side } : b));
    // the seats' own boxes (no marks, chip or ring), as placeBanner would measure them
    const seatBoxes = items.map((it) => ({ l: it.x - it.w / 2, r: it.x + it.w / 2, t: it.y - it.h / 2, b: it.y + it.h / 2 }));
    const marks = items.map((it, k) => (it.m.mk ? { l: seatBoxes[k].l + it.m.mk.l, r: seatBoxes[k].l + it.m.mk.r,
      t: seatBoxes[k].t + it.m.mk.t, b: seatBoxes[k].t + it.m.mk.b } : null));
    this.placed = { W, H, gen, seats: seatBoxes, marks, chips, rings, bare: marked, boxes: marked.map((b, k) => [b, chips[k], rings[k]].filter(Boolean).reduce((a, c) => ({
      l: Math.min(a.l, c.l), r: Math.max(a.r, c.r), t: Math.min(a.t, c.t), b: Math.max(a.b, c.b) }))) };
    return boxes;
  }

  /**
   * Mobile: the centre (pot, side pots, board, Indian used-cards grid) goes where it hides no seat (nor its
   * marks, bet chip or timer): the free band between the side columns nearest to its usual place, with the
   * grid's cells shrunk to the band's width (not below `minCell` px) if need be. With no such band the grid
   * folds into a count the player can open. Returns "none" (desktop), "usual", "moved", "folded" (Indian)
   * or "blocked" (no free band: the usual place).
   */
  placeCenter(minCell = 12) {
    const main = this.host.querySelector(".table-main");
    const center = main?.querySelector(":scope > .center");
    if (!center) return "none";
    const panel = center.querySelector(".used-panel");
    center.removeAttribute("style");
    panel?.style.removeProperty("--cell");
    panel?.classList.remove("folded");
    // the usual place is free: known from what layoutMobile placed and the centre it measured, no layout
    const p = this.placed;
    this.centerMoved = null;
    const softOk = p && this.softCache?.key === `${this.centerKeyShown}|${p.W}|${p.H}|${panel?.className}|${panel?.style.getPropertyValue("--cell")}`;
    if (softOk) {
      const soft = this.softCache.soft;
      const clear = !soft.some((b) => b.t < 0 || b.b > p.H - 36 || p.boxes.some((o) => overlap(b, o)));
      if (clear) return "usual";
    }
    // not free: where to move it is worked out from the placed seats too (no layout), when they are known
    const known = softOk && p.bare && p.gen === this.seatGen ? p : null;
    const W = known ? known.W : main.clientWidth;
    const H = known ? known.H : main.clientHeight;
    if (!W || !H || W >= 600) return "none";
    let origin = null; // read when first needed (not at all when the seats are known)
    const rel = (e) => {
      origin ??= main.getBoundingClientRect();
      const r = e.getBoundingClientRect();
      return { l: r.left - origin.left, r: r.right - origin.left, t: r.top - origin.top, b: r.bottom - origin.top };
    };
    const union = (list) => list.map(rel).reduce((a, b) => ({
      l: Math.min(a.l, b.l), r: Math.max(a.r, b.r), t: Math.min(a.t, b.t), b: Math.max(a.b, b.b),
    }));
    const seatEls = known ? [] : [...main.querySelectorAll(".seat")];
    // each seat with its marks, bet chip and timer; failing that (no room), the seat boxes alone
    const full = known ? known.boxes
      : seatEls.map((s) => union([s, ...s.querySelectorAll(":scope > .bet-chip, :scope > .timer-ring, :scope > .marks")]));
    const bare = known ? known.bare : seatEls.map((s) => union([s, ...s.querySelectorAll(":scope > .marks")]));
    let seats = full;
    const hits = (box) => seats.some((o) => Math.min(box.r, o.r) - Math.max(box.l, o.l) > 0.5
      && Math.min(box.b, o.b) - Math.max(box.t, o.t) > 0.5);
    const bottom = H - 36; // above the phase line
    const parts = () => [...center.children].map(rel).filter((b) => b.r > b.l);
    // (known: the quick check above already found the usual place taken)
    if (!known && !parts().some((b) => hits(b) || b.t < 0 || b.b > bottom)) return "usual";
    const GAP = 4;
    const corridor = (y, h) => freeCorridor(seats, W, y, h, GAP);
    const prefer = H * 0.58;
    Object.assign(center.style, { left: "0px", top: "0px", transform: "none" });
    // the centre's size (and its parts' boxes inside it) depends on its content, the grid's state and the
    // page's font classes: measured once per those, so a later render (or a taller try of the table) moves it
    // without a layout
    if (this.centerSizes?.key !== `${this.centerKeyShown}|${W}|${document.body.className}`) {
      this.centerSizes = { key: `${this.centerKeyShown}|${W}|${document.body.className}`, byState: new Map() };
    }
    const fit = () => {
      const state = `${panel?.className}|${panel?.style.getPropertyValue("--cell")}`;
      let dim = this.centerSizes.byState.get(state);
      if (!dim) {
        center.style.width = "max-content";
        const w = Math.ceil(Math.max(...[...center.children].map((e) => e.getBoundingClientRect().width)));
        center.style.width = `${w}px`;
        const o = center.getBoundingClientRect();
        const inner = [...center.children].map((e) => e.getBoundingClientRect()).filter((r) => r.width)
          .map((r) => ({ l: r.left - o.left, r: r.right - o.left, t: r.top - o.top, b: r.bottom - o.top }));
        dim = { w, h: Math.ceil(o.height), inner };
        this.centerSizes.byState.set(state, dim);
      } else center.style.width = `${dim.w}px`;
      const { w, h } = dim;
      // the free spot nearest to the usual one; off the middle line counts double
      let best = null;
      for (let y = 4; y + h <= bottom; y += 2) {
        const c = corridor(y, h);
        if (!c || c.r - c.l < w) continue;
        const x = Math.max(c.l, Math.min(c.r - w, W / 2 - w / 2));
        const cost = Math.abs(y + h / 2 - prefer) + 2 * Math.abs(x + w / 2 - W / 2);
        if (!best || cost < best.cost) best = { x, y, cost };
      }
      if (!best) return false;
      center.style.left = `${best.x}px`;
      center.style.top = `${best.y}px`;
      if (p) {
        this.centerMoved = { key: `${this.centerKeyShown}|${p.W}|${p.H}|${state}`, gen: p.gen, style: center.getAttribute("style"),
          parts: dim.inner.map((b) => ({ l: b.l + best.x, r: b.r + best.x, t: b.t + best.y, b: b.b + best.y })) };
      }
      return true;
    };
    if (!panel) {
      // no used-cards grid: the pot, side pots and board move as one block, clear of every seat
      if (fit()) return "moved";
      seats = bare;
      if (fit()) return "moved";
      center.removeAttribute("style");
      return "blocked";
    }
    for (const cell of [17, 16, 15, 14, 13, 12].filter((c) => c >= minCell)) {
      panel.style.setProperty("--cell", `${cell}px`);
      if (fit()) return "moved";
    }
    panel.classList.add("folded");
    panel.style.removeProperty("--cell"); // opened, the grid has its full size
    if (!fit()) center.removeAttribute("style"); // nowhere free: the usual place, folded
    this.liftUsedPanel();
    return "folded";
  }

  /**
   * The hand-end banner goes where it hides no seat: the free band nearest to just above the pot, as wide as
   * the gap between the seats there allows; it covers the pot and the board only when nothing else is free.
   */
  placeBanner() {
    const main = this.host.querySelector(".table-main");
    const banner = main?.querySelector(":scope > .banner");
    if (!banner) return;
    // a phone: the seats and the centre where layoutMobile put and measured them (or placeCenter moved the
    // centre to), so the banner is placed without reading the layout the seat writes made dirty
    const p = this.placed;
    this.bannerBox = null;
    const parts = p && p.seats && p.gen === this.seatGen ? this.knownParts(main) : null;
    const known = !!parts;
    const W = known ? p.W : main.clientWidth;
    const H = known ? p.H : main.clientHeight;
    if (!W || !H) return;
    let seats;
    let soft;
    let potTop;
    if (known) {
      seats = p.seats;
      soft = parts.filter((b) => b.r > b.l);
      // (the pot is the centre's first part)
      potTop = main.querySelector("[data-testid=pot]") && parts.length ? parts[0].t : null;
    } else {
      const origin = main.getBoundingClientRect();
      const rel = (e) => {
        const r = e.getBoundingClientRect();
        return { l: r.left - origin.left, r: r.right - origin.left, t: r.top - origin.top, b: r.bottom - origin.top };
      };
      seats = [...main.querySelectorAll(".seat")].map(rel);
      soft = [...main.querySelectorAll(".center > *")].map(rel).filter((b) => b.r > b.l);
      const pot = main.querySelector("[data-testid=pot]");
      potTop = pot ? rel(pot).t : null;
    }
    const maxW = Math.floor(Math.min(W - 8, 420));
    const GAP = 4;
    // the banner's size at a width limit depends on its content and the page's font classes only: measured
    // once per content and limit (a ready mark coming in re-renders the banner unchanged: no layout then)
    const sizeKey = `${document.body.className}|${banner.innerHTML}`;
    if (this.bannerSizes?.key !== sizeKey) this.bannerSizes = { key: sizeKey, byLimit: new Map() };
    const size = (limit) => {
      banner.style.width = "max-content";
      banner.style.maxWidth = `${limit}px`;
      const at = `${banner.className}|${limit}`; // (a cramped banner has a smaller font)
      let dim = this.bannerSizes.byLimit.get(at);
      if (!dim) {
        const r = banner.getBoundingClientRect();
        // +1: a width rounded down would wrap the text once more
        dim = { w: Math.min(limit, Math.ceil(r.width) + 1), h: Math.ceil(r.height) };
        this.bannerSizes.byLimit.set(at, dim);
      }
      return dim;
    };
    const natural = size(maxW);
    const prefer = (potTop ?? H / 2) - GAP - natural.h;
    const bottom = H - 32; // above the phase line
    const ys = [];
    for (let y = 4; y + natural.h <= bottom; y += 4) ys.push(y);
    ys.sort((a, b) => Math.abs(a - prefer) - Math.abs(b - prefer));
    const hits = (box, list) => list.some((o) => Math.min(box.r, o.r) - Math.max(box.l, o.l) > 0 && Math.min(box.b, o.b) - Math.max(box.t, o.t) > 0);
    const corridor = (y, h) => freeCorridor(seats, W, y, h, GAP);
    // 1st: its natural size, clear of the pot and the board; 2nd: narrower (more lines); 3rd: over the board
    const place = (narrower, avoidSoft) => {
      for (const y of ys) {
        let dim = natural;
        for (let k = 0; k < 3; k++) {
          const c = corridor(y, dim.h);
          if (!c) break;
          const room = c.r - c.l;
          if (room < dim.w) {
            if (!narrower || room < 140) break;
            dim = size(Math.floor(room));
            if (y + dim.h > bottom) break;
            continue;
          }
          const mid = Math.max(c.l + dim.w / 2, Math.min(c.r - dim.w / 2, W / 2));
          const box = { l: mid - dim.w / 2, r: mid + dim.w / 2, t: y, b: y + dim.h };
          if (hits(box, seats) || (avoidSoft && hits(box, soft))) break;
          return { ...box, w: dim.w };
        }
      }
      return null;
    };
    const box = place(false, true) ?? place(true, true) ?? place(false, false) ?? place(true, false);
    if (!box) {
      // nowhere free: the old place, above the pot, kept small
      banner.classList.add("cramped");
      const dim = size(maxW);
      banner.style.left = `${W / 2 - dim.w / 2}px`;
      banner.style.top = `${Math.max(4, prefer)}px`;
      this.keepBannerBox(banner, { l: W / 2 - dim.w / 2, r: W / 2 + dim.w / 2, t: Math.max(4, prefer), b: Math.max(4, prefer) + dim.h });
      return;
    }
    const dim = size(box.w);
    banner.style.width = `${box.w}px`;
    banner.style.left = `${box.l}px`;
    banner.style.top = `${box.t}px`;
    this.keepBannerBox(banner, { l: box.l, r: box.l + box.w, t: box.t, b: box.t + dim.h });
  }

  /** Where placeBanner put the banner, for placedClear (valid while the banner keeps that style). */
  keepBannerBox(banner, box) {
    this.bannerBox = { el: banner, gen: this.placed?.gen, style: banner.getAttribute("style"), box };
  }

  showdownEntry(id) {
    return (this.view.showdown ?? []).find((e) => e.id === id) ?? null;
  }

  marks(seat) {
    const v = this.view;
    const out = [];
    const korean = v.betting === "korean";
    // Korean-style betting calls the dealer "선"; the others show the D button
    if (seat.sun && korean) out.push(h("span", { class: "mark sun", title: "선(딜러)", "aria-label": "선" }, "선"));
    else if (seat.dealer) out.push(h("span", { class: "mark dealer", title: "딜러", "aria-label": "딜러" }, "D"));
    if (seat.sb) out.push(h("span", { class: "mark sb", "aria-label": "스몰 블라인드" }, "SB"));
    if (seat.bb) out.push(h("span", { class: "mark bb", "aria-label": "빅 블라인드" }, "BB"));
    if (seat.boss && korean) out.push(h("span", { class: "mark boss", title: "보스", "aria-label": "보스", role: "img" }, crownIcon(), "보스"));
    return out;
  }

  badges(seat) {
    const v = this.view;
    const out = [];
    if (seat.folded) out.push(h("span", { class: "badge die" }, v.betting === "korean" ? "다이" : "폴드"));
    if (seat.allIn) out.push(h("span", { class: "badge allin" }, "올인"));
    if (seat.away) out.push(h("span", { class: "badge away" }, "자리 비움"));
    if (seat.sittingOut) out.push(h("span", { class: "badge away", "data-testid": "sitting-out" }, "쉬는 중"));
    if (seat.status === "left") out.push(h("span", { class: "badge left" }, "나감"));
    if (seat.status === "eliminated") out.push(h("span", { class: "badge left" }, "탈락"));
    if (seat.status === "busted") out.push(h("span", { class: "badge left" }, "칩 없음"));
    if (!seat.folded && seat.lastAction && v.phase === "betting" && !(seat.allIn && seat.lastAction === "nl.allIn") && !["ante", "sb", "bb"].includes(seat.lastAction)) {
      const label = ACTION_LABEL[seat.lastAction] ?? seat.lastAction;
      out.push(h("span", { class: "badge last" }, label));
    }
    if (v.phase === "choice" && seat.inHand) out.push(h("span", { class: "badge " + (seat.choiceDone ? "ready" : "last") }, seat.choiceDone ? "선택 완료" : "고르는 중"));
    if (v.phase === "draw" && seat.inHand && !seat.folded) out.push(h("span", { class: "badge " + (seat.drawDone ? "ready" : "last") }, seat.drawDone ? "교환 완료" : "교환 중"));
    if ((seat.drawCounts ?? []).length && v.phase !== "draw") {
      out.push(h("span", { class: "badge last", title: "교환 장수" }, "교환 " + seat.drawCounts.join("·")));
    }
    if (v.mode === "sevenHiLo") {
      if (seat.declare) out.push(h("span", { class: "badge declare" }, SIDE_LABEL[seat.declare]));
      else if (v.phase === "declare" && seat.declared) out.push(h("span", { class: "badge ready" }, "선언 완료"));
    }
    if (v.phase === "handEnd" && seat.ready) out.push(h("span", { class: "badge ready" }, "준비"));
    return out;
  }

  /**
   * The cards to highlight for a showdown entry: the high five, or (hi-lo) the low five of a player who won
   * only the low side or declared low, or both sets for a scoop / both halves.
   */
  bestCards(sd) {
    if (!sd) return [];
    const sides = new Set((this.view.awards ?? []).filter((a) => a.to === sd.id).map((a) => a.side ?? "high"));
    const low = sd.lowBest ?? [];
    if (!low.length) return sd.best ?? [];
    const wonLow = sides.has("low") || sides.has("scoop");
    const wonHigh = sides.has("high") || sides.has("scoop");
    if (wonLow && wonHigh) return [...(sd.best ?? []), ...low];
    if (wonLow || (!wonHigh && sd.declare === "low")) return low;
    return sd.best ?? [];
  }

  /**
   * A seat's row of cards. Given the row on screen (`old`), that row is brought up to date and returned: a
   * card built from the same inputs (its key) stays as it is, so a card dealt builds and adds one card
   * instead of building the whole row and comparing it with the old one (issue #15: the 7 Poker streets).
   */
  seatCards(seat, n = 3, old = null) {
    const v = this.view;
    const sd = this.showdownEntry(seat.id);
    const bestIds = this.wonCards(sd);
    const winners = new Set((v.awards ?? []).map((a) => a.to));
    let lifted = false;
    const isBest = (c) => {
      const best = !isHidden(c) && bestIds.has(c.id) && winners.has(seat.id);
      lifted ||= best;
      return best;
    };
    const specs = []; // [key, build]: the key is everything the build reads
    const mark = (c, size) => {
      const best = isBest(c);
      return [JSON.stringify([c, size, best]), () => {
        const e = cardEl(c, { size });
        if (best) e.classList.add("best");
        return e;
      }];
    };
    let big = false;
    if (v.mode === "indian") {
      const large = n <= 3 ? "lg" : "md";
      if (seat.forehead) specs.push(mark(seat.forehead, large));
      else if (seat.hasForehead) specs.push([`?|${large}`, () => cardEl(null, { size: large, question: true, label: "이마 카드(안 보임)" })]);
      for (const c of seat.hole ?? []) specs.push(mark(c, "sm"));
    } else {
      const hole = seat.hole ?? [];
      const up = seat.up ?? [];
      big = !!seat.shown && hole.length + up.length <= 5;
      const mini = (c, kind) => {
        const best = isBest(c);
        return [JSON.stringify([c, kind, big, best]), () => {
          const e = miniCardEl(c, { big });
          if (best) e.classList.add("best");
          if (kind === "up") e.classList.add("up"); // 7 Poker open cards: what you play against, drawn larger
          else if (isHidden(c)) e.classList.add("stacked");
          return e;
        }];
      };
      for (const c of hole) specs.push(mini(c, "hole"));
      for (const c of up) specs.push(mini(c, "up"));
    }
    // the winning cards are raised (.card.best): the row keeps that much room above it, so a raised card
    // never covers the name and stack line over it
    const cls = "cards" + (v.mode === "indian" ? " indian" : "") + (lifted ? " lifted" : "");
    // what the last fan wrote goes first (fitSeatCards fans the row again): its classes, the line break
    // (morphKeyed drops it) and the cards' margins; a squeezed row's cards lost their bigger minis, so such a
    // row is built afresh (and merged into the old one by patchSeat)
    if (old && !(big && old.classList.contains("squeezed"))) {
      if (old.className !== cls) old.className = cls;
      for (const c of old.children) if (c.hasAttribute("style")) c.removeAttribute("style");
      morphKeyed(old, specs);
      return old;
    }
    const wrap = h("div", { class: cls });
    morphKeyed(wrap, specs);
    return wrap;
  }

  /**
   * Ids of a showdown entry's cards to mark as winning: its best five, and in Omaha Hi-Lo (entries carry
   * `lowBest`) only the half it won: the high five for a high award, the low five for a low award.
   */
  wonCards(sd) {
    return new Set(this.bestCards(sd).map((c) => c.id));
  }

  /** The hand label under a shown seat: high, and the low of a hi-lo game ("로우 없음" in Omaha Hi-Lo). */
  handLabel(sd) {
    const high = sd.rankName ?? sd.handName;
    if (sd.lowBest !== undefined) return `${high} / ${sd.lowName ? "로우 " + sd.lowName : "로우 없음"}`;
    return high + (sd.lowName ? ` / ${sd.lowName}` : "");
  }

  /**
   * A seat's box as slices, in display order: [name, key, build]. Each slice's key is everything its build
   * reads, so a seat whose view changed touches only the slices whose key changed (patchSeat); `size` says
   * whether the slice can change the seat's box (the ring sits outside it, absolutely placed). Whatever
   * these read must be in seatKey too (an unchanged seatKey skips the seat altogether).
   */
  seatSlices(seat, n) {
    const v = this.view;
    const sd = this.showdownEntry(seat.id);
    const winner = (v.awards ?? []).some((a) => a.to === seat.id);
    const korean = v.betting === "korean";
    const label = sd && v.phase === "handEnd" ? this.handLabel(sd) : null;
    const bet = seat.committedRound > 0 && v.phase === "betting" ? seat.committedRound : 0;
    const marksKey = `${korean && seat.sun ? "sun" : seat.dealer ? "d" : ""}|${!!seat.sb}|${!!seat.bb}|${korean && !!seat.boss}`;
    return [
      ["marks", marksKey, () => { const m = this.marks(seat); return m.length ? h("div", { class: "marks" }, m) : null; }],
      ["name", this.nm(seat.id), () => h("div", { class: "name" }, this.nm(seat.id))],
      ["stack", fmt(seat.stack), () => h("div", { class: "stack" }, fmt(seat.stack))],
      ["cards", JSON.stringify([seat.hole, seat.up, seat.forehead, seat.hasForehead, !!seat.shown, v.mode, n,
        winner && sd ? [...this.wonCards(sd)] : null]), (had) => this.seatCards(seat, n, had)],
      ["label", label ?? "", () => (label ? h("div", { class: "hand-label", title: label }, label) : null)],
      ["badges", JSON.stringify([seat.folded, seat.allIn, seat.away, seat.sittingOut, seat.status, seat.lastAction,
        v.phase, korean, seat.inHand, seat.choiceDone, seat.drawDone, seat.drawCounts, v.mode, seat.declare, seat.declared,
        seat.ready]), () => { const b = this.badges(seat); return b.length ? h("div", { class: "badges" }, b) : null; }],
      ["chip", String(bet), () => (bet ? h("div", { class: "bet-chip", "aria-label": `이번 라운드 ${bet}` }, fmt(bet)) : null)],
      ["ring", String(this.waitsFor(seat.id)), () => (this.waitsFor(seat.id) ? this.ring() : null), false],
    ];
  }

  /** The seat box's class list (to-act, folded, winner only colour it: style.css). */
  seatClass(seat, level) {
    const v = this.view;
    const cls = ["seat"];
    if (level >= 1) cls.push("compact");
    if (v.phase === "betting" && v.toAct === seat.id) cls.push("to-act");
    if (seat.folded || seat.status === "left" || seat.status === "eliminated" || seat.inHand === false) cls.push("folded");
    if (v.phase === "handEnd" && (v.awards ?? []).some((a) => a.to === seat.id)) cls.push("winner");
    if (level >= 2) cls.push("tiny");
    return cls.join(" ");
  }

  /** One seat's box. Whatever this reads must be in seatKey (an unchanged key keeps the old element). */
  renderSeat(seat, compact, n = 3) {
    return this.buildSeat(seat, compact ? 1 : 0, n).el;
  }

  /** A new seat box and the slices it was built from (layoutMobile's cache patches it from there). */
  buildSeat(seat, level, n) {
    const el = h("div", { class: this.seatClass(seat, level), "data-seat-id": seat.id, "data-seat": seat.seat, role: "group", "aria-label": `${this.nm(seat.id)} 자리` });
    const parts = new Map();
    for (const [name, key, build] of this.seatSlices(seat, n)) {
      const node = build();
      parts.set(name, { key, node });
      if (node) el.append(node);
    }
    return { el, parts };
  }

  /**
   * Bring a cached seat box up to date slice by slice: an unchanged slice is not touched, a changed text is
   * written in place, a changed slice is built and put in its place. Returns what changed: `size` (the box
   * may have another size: measure it again) and `cards` (the card row is new: fan it again).
   */
  patchSeat(entry, seat, level, n) {
    const el = entry.el;
    let size = false;
    let cards = false;
    const cls = this.seatClass(seat, level);
    if (el.className !== cls) {
      if (el.className.replace(COLOUR_ONLY, "") !== cls.replace(COLOUR_ONLY, "")) size = true;
      el.className = cls;
    }
    const aria = `${this.nm(seat.id)} 자리`;
    if (el.getAttribute("aria-label") !== aria) el.setAttribute("aria-label", aria);
    if (el.dataset.seat !== String(seat.seat)) el.dataset.seat = String(seat.seat);
    const nodes = [];
    for (const [name, key, build, sized = true] of this.seatSlices(seat, n)) {
      const part = entry.parts.get(name);
      if (part.key !== key) {
        if ((name === "name" || name === "stack") && part.node) {
          part.node.textContent = key; // text only
          if (sized) size = true;
        } else {
          const fresh = build(part.node); // (the card row is brought up to date in place)
          if (name !== "cards" && (part.node && fresh ? part.node.isEqualNode(fresh) : !part.node && !fresh)) {
            // the same node from another key (a folded seat's 다이 badge on a new street): kept as it is, the
            // seat keeps its size and place
            part.key = key;
            if (part.node) nodes.push(part.node);
            continue;
          }
          // a bet chip hangs outside the seat's box (absolutely placed): one taken away changes no size (a
          // new or changed one is measured with its seat, for placeChips)
          if (sized && !(name === "chip" && !fresh)) size = true;
          if (name === "cards") cards = true;
          // a card row is merged into the old one: a card dealt adds one card, the others stay (what the last
          // fan wrote into the row goes, so it is fanned like a new one). The others are replaced (the chip
          // carries where placeChips put it: a new one is placed afresh)
          part.node = name === "cards" && part.node && fresh ? morph(part.node, fresh) : fresh;
        }
        part.key = key;
      }
      if (part.node) nodes.push(part.node);
    }
    // (the ring: kept only while its seat keeps it; a new one is a fresh node)
    syncChildren(el, nodes);
    return { size, cards };
  }

  waitsFor(id) {
    const v = this.view;
    if (!v.deadlineAt) return false;
    if (v.phase === "betting") return v.toAct === id;
    if (["choice", "draw", "declare"].includes(v.phase)) return (v.pending ?? []).includes(id);
    // §5.6: a busted player has 15 s to take chips again (a timeout means 그만하기)
    if (v.phase === "rebuy") return [...(v.rebuyPending ?? []), ...(v.pending ?? [])].includes(id);
    return false;
  }

  ring() {
    if (!RING.svg) {
      const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
      svg.setAttribute("viewBox", "0 0 30 30");
      svg.setAttribute("class", "timer-ring");
      svg.setAttribute("aria-hidden", "true");
      svg.dataset.keep = "ring"; // morph keeps the ring on screen: the clock (tick) draws into it
      svg.innerHTML = `<circle class="bg" cx="15" cy="15" r="12"/><circle class="fg" cx="15" cy="15" r="12" stroke-dasharray="${RING_C}" stroke-dashoffset="0"/><text x="15" y="19" text-anchor="middle"></text>`;
      RING.svg = svg;
    }
    return RING.svg.cloneNode(true); // the HTML parser once, a copy per seat
  }

  phaseTotalMs() {
    const v = this.view;
    const t = (v.options?.turnSeconds ?? 20) * 1000;
    if (v.phase === "betting") {
      const s = (v.seats ?? []).find((x) => x.id === v.toAct);
      return s?.away ? 5000 : t;
    }
    if (["choice", "draw", "declare"].includes(v.phase)) return t + 10000;
    if (v.phase === "handEnd") return 4000;
    if (v.phase === "rebuy") return 15000;
    return t;
  }

  tick() {
    const v = this.view;
    if (!v || !v.deadlineAt) return;
    const total = Math.max(this.phaseTotalMs(), 1);
    const left = Math.min(total, Math.max(0, v.deadlineAt - serverClock.now()));
    // the arc moves with the number, once a second (the seconds still shown, as a fraction of the phase):
    // the ring is repainted once a second, not on every 250 ms tick
    const whole = Math.ceil(left / 1000);
    const frac = Math.max(0, Math.min(1, (whole * 1000) / total));
    const offset = String(RING_C * (1 - frac));
    const secs = String(whole);
    // only what changed is written: each write makes the browser repaint the ring
    this.host.querySelectorAll(".timer-ring").forEach((r) => {
      if (r.classList.contains("urgent") !== left < 5000) r.classList.toggle("urgent", left < 5000);
      const fg = r.querySelector(".fg");
      if (fg && fg.getAttribute("stroke-dashoffset") !== offset) fg.setAttribute("stroke-dashoffset", offset);
      const t = r.querySelector("text");
      if (t && t.textContent !== secs) t.textContent = secs;
    });
  }

  /** Everything centerSlices reads, as a string: the centre is rebuilt only when this changes. */
  centerKey() {
    const v = this.view;
    return JSON.stringify([v.phase, v.pots, v.potTotal, v.mode, v.board, v.awards, v.showdown, v.carryOver,
      (v.seats ?? []).length, this.hostW < 600, v.options, v.indianUsed, v.indianDeckLeft, !!this.usedOpen]);
  }

  /**
   * The centre as slices ([name, key, build], in order): a bet changes the pot, not the board, so the board's
   * cards are neither built nor touched. Whatever these read must be in centerKey.
   */
  centerSlices() {
    const v = this.view;
    // between hands (rebuy) the last pot is already paid out: no pot to show
    const between = v.phase === "rebuy";
    const pots = between ? [] : v.pots ?? [];
    const total = between ? 0 : v.phase === "handEnd" ? pots.reduce((a, p) => a + p.amount, 0) : v.potTotal ?? 0;
    const out = [
      ["pot", String(total), () => h("div", { class: "pot-main", "aria-label": `판돈 ${total}칩`, "data-testid": "pot" },
        h("small", {}, "판돈"), fmt(total))],
      ["sidePots", JSON.stringify(pots.length > 1 ? pots.map((p) => p.amount) : null), () => (pots.length > 1
        ? h("div", { class: "side-pots" }, pots.map((p, i) =>
          h("span", { class: "side-pot", "data-pot": i }, `${i === 0 ? "메인" : "사이드" + i} ${fmt(p.amount)}`)))
        : null)],
    ];
    if (v.mode === "holdem" || v.mode === "omaha") {
      const winners = new Set((v.awards ?? []).map((a) => a.to));
      const best = new Set();
      if (v.phase === "handEnd") for (const e of v.showdown ?? []) if (winners.has(e.id)) for (const id of this.wonCards(e)) best.add(id);
      const crowded = (v.seats ?? []).length >= 8 && (this.hostW ?? this.host.clientWidth) < 600;
      out.push(["board", JSON.stringify([v.board, [...best], crowded]), () => {
        // the board on screen is brought up to date in place: a card dealt replaces its empty slot, the cards
        // already there stay untouched (no new drawing built only to be compared with the old one)
        const had = this.centerMemo?.get("board")?.node;
        const board = had?.parentNode === this.sk?.center ? had : h("div", { class: "board", "aria-label": "공용 카드" });
        board.classList.toggle("small", crowded);
        const size = crowded ? "sm" : "md";
        for (let i = 0; i < 5; i++) {
          const card = (v.board ?? [])[i];
          const at = board.children[i] ?? null;
          let want;
          if (card) {
            if (at?.dataset.cardId === String(card.id) && at.classList.contains(`card-${size}`)) {
              at.classList.toggle("best", best.has(card.id));
              continue;
            }
            want = cardEl(card, { size });
            if (best.has(card.id)) want.classList.add("best");
          } else {
            if (at?.className === "slot") continue;
            want = h("div", { class: "slot" });
          }
          if (at) at.replaceWith(want);
          else board.append(want);
        }
        while (board.children.length > 5) board.lastElementChild.remove();
        return board;
      }]);
    }
    out.push(["carry", String(v.carryOver ?? ""), () => (v.carryOver ? h("div", { class: "carry" }, `이월 판돈 ${fmt(v.carryOver)}`) : null)]);
    if (v.mode === "indian") {
      out.push(["used", JSON.stringify([v.indianUsed, v.indianDeckLeft, v.options?.indianDeck, !!this.usedOpen]), () => this.renderUsedPanel()]);
    }
    return out;
  }

  renderUsedPanel() {
    const v = this.view;
    const d20 = (v.options?.indianDeck ?? "d20") === "d20";
    const used = new Set((v.indianUsed ?? []).map((c) => `${c.rank}${c.suit}`));
    const ranks = d20 ? [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] : [14, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13];
    const suits = d20 ? ["S", "H"] : ["S", "D", "H", "C"];
    const rt = (r) => ({ 1: "A", 14: "A", 11: "J", 12: "Q", 13: "K" }[r] ?? String(r));
    const sym = { S: "♠", D: "◆", H: "♥", C: "♣" };
    const table = h("table", { "aria-label": "사용된 카드" },
      h("tr", {}, h("th", {}, ""), ranks.map((r) => h("th", {}, rt(r)))),
      suits.map((s) => h("tr", {}, h("th", { class: "suit-" + s }, sym[s]),
        ranks.map((r) => h("td", { class: used.has(`${r}${s}`) ? "used" : "", "aria-label": used.has(`${r}${s}`) ? "사용됨" : "" })))));
    const title = `사용된 카드 ${used.size}장${v.indianDeckLeft != null ? ` · 덱 ${v.indianDeckLeft}장` : ""}`;
    // shown only when the grid has no room and is folded (placeCenter): opens it over the table
    const toggle = h("button", { type: "button", class: "used-toggle", "aria-expanded": String(!!this.usedOpen) },
      this.usedOpen ? "닫기" : "보기");
    const panel = whole(h("div", { class: "used-panel" + (this.usedOpen ? " open" : ""), "data-testid": "used-panel" },
      h("div", { class: "used-title" }, title, toggle), table));
    listen(toggle, "click", () => {
      this.usedOpen = !this.usedOpen;
      panel.classList.toggle("open", this.usedOpen);
      toggle.textContent = this.usedOpen ? "닫기" : "보기";
      toggle.setAttribute("aria-expanded", String(this.usedOpen));
      this.liftUsedPanel();
    });
    return panel;
  }

  /** The folded grid, opened by the player: over everything else, and inside the table area. */
  liftUsedPanel() {
    const center = this.host.querySelector(".table-main > .center");
    const panel = center?.querySelector(".used-panel");
    if (!panel) return;
    const open = panel.classList.contains("folded") && panel.classList.contains("open");
    center.style.zIndex = open ? "7" : "";
    center.style.translate = "";
    if (!open) return;
    const main = center.parentElement.getBoundingClientRect();
    const box = center.getBoundingClientRect();
    const over = Math.min(box.bottom - (main.bottom - 4), box.top - main.top - 4);
    if (over > 0) center.style.translate = `0 ${-over}px`;
  }

  renderBanner() {
    const v = this.view;
    if (v.phase !== "handEnd") return null;
    const awards = v.awards ?? [];
    const hr = v.houseRules;
    if (!awards.length && !v.carryOver && !hr?.noOpener) return null;
    const lines = [];
    const sd = v.showdown ?? [];
    const byTo = new Map();
    const whys = [];
    for (const a of this.sortedAwards()) {
      const cur = byTo.get(a.to) ?? { amount: 0, sides: new Set(), hands: [] };
      cur.amount += a.amount;
      if (a.side) cur.sides.add(a.side);
      // what won this pot, as decisively as needed ("A·10 투페어"), and why (the engine's sentence)
      const hand = a.hand && a.side === "low" ? `로우 ${a.hand}` : a.hand;
      if (hand && !cur.hands.includes(hand)) cur.hands.push(hand);
      if (a.why && !whys.some((w) => w.to === a.to && w.why === a.why)) whys.push({ to: a.to, why: a.why });
      byTo.set(a.to, cur);
    }
    for (const [to, info] of byTo) {
      const e = sd.find((x) => x.id === to);
      let name = e ? e.rankName ?? e.handName : null;
      if (e && e.lowName) {
        // hi-lo: name what the winner declared (스윙 = both)
        const high = e.rankName ?? e.handName;
        if (e.declare === "swing") name = `${high} / ${e.lowName}`;
        else if (e.lowBest !== undefined && e.declare == null) {
          // Omaha Hi-Lo (cards speak): name the halves this player won
          const parts = [];
          if (info.sides.has("high")) parts.push(high);
          if (info.sides.has("low")) parts.push(`로우 ${e.lowName}`);
          name = parts.join(" / ") || high;
        }
        else if (e.declare === "low" || (info.sides.has("low") && !info.sides.has("high"))) name = e.lowName;
      }
      if (info.hands.length) name = info.hands.join(" / ");
      lines.push(h("span", { class: "big" }, `${this.nm(to)} +${fmt(info.amount)}${name ? " · " + name : ""}`));
    }
    for (const w of whys) lines.push(h("span", { class: "why", "data-testid": "why" }, `${this.nm(w.to)}: ${withNames(w.why, this.names)}`));
    if (!sd.length && awards.length && v.mode !== "indian") {
      const shown = (v.seats ?? []).filter((s) => s.shown).map((s) => this.nm(s.id));
      lines.push(h("span", { "data-testid": "shown-note" }, shown.length ? `모두 다이했어요 · ${shown.join(", ")} 님이 카드를 보여 줬어요` : "모두 다이해서 카드를 공개하지 않아요"));
    }
    // 잭스 오어 베터 (docs/rules-extensions.md): nobody opened, or the opener's proof
    if (hr?.noOpener) {
      lines.push(h("span", { class: "big" }, v.carryOver ? `아무도 못 열었어요 · 판돈 ${fmt(v.carryOver)} 다음 판으로` : "아무도 못 열었어요 · 판돈을 나눠요"));
      if (v.carryOver) lines.push(h("span", {}, "같은 딜러가 다시 돌려요"));
    } else if (v.carryOver && !awards.length) lines.push(h("span", { class: "big" }, `동점! 판돈 ${fmt(v.carryOver)} 이월`));
    if (hr?.openerProof?.length) {
      lines.push(h("span", { class: "opener-proof", "data-testid": "opener-proof" }, `${this.nm(hr.opener)} 오프너 `, ...hr.openerProof.map((c) => miniCardEl(c))));
    }
    for (const p of v.penalties ?? []) lines.push(h("span", {}, `${this.nm(p.from)} 10 다이 벌칙 ${fmt(p.amount)}`));
    return h("div", { class: "banner", role: "status", "data-testid": "hand-result" }, lines);
  }

  sortedAwards() {
    // side pots first (the highest index), the main pot, then penalty shares (-1)
    return [...(this.view.awards ?? [])].sort((a, b) => {
      const ka = a.potIndex < 0 ? -1e9 : a.potIndex;
      const kb = b.potIndex < 0 ? -1e9 : b.potIndex;
      return kb - ka;
    });
  }

  /**
   * My area as slices, in display order: [name, key, build]. A slice with a key is built only when its key
   * changed (the key is everything its build reads); one without (null) is built on every render and merged
   * into the one on screen, because it shows what app.js decides (the seat bar) or is cheap.
   */
  meSlices() {
    const v = this.view;
    const me = v.me;
    if (!me) {
      const seatBar = this.cb.seatBar?.(v); // 자리 요청 (app.js): the server decides, the host approves
      return [
        ["watch", null, () => h("div", { class: "waiting-line" }, this.role === "spectator" ? "관전 중이에요. 비공개 카드는 보이지 않아요." : "지금은 관전 중이에요.")],
        ["seatBar", null, () => seatBar],
        ["react", null, () => (this.role === "spectator" && this.social.spectatorReactions ? h("div", { class: "me-line" }, h("span", { class: "spacer" }), this.reactButton()) : null)],
      ];
    }
    const seat = (v.seats ?? []).find((s) => s.id === me.id) ?? {};
    const waits = this.waitsFor(me.id);
    const lineKey = JSON.stringify([seat, me.id, this.nm(me.id), v.phase, v.betting, v.mode, waits, !!this.palette]);
    const hn = this.handNameText();
    const sd = this.showdownEntry(me.id);
    const cardsKey = JSON.stringify([me.hole, me.up, me.choice, me.forehead, me.chosen, me.drawPending, me.discarded,
      v.phase, v.mode, this.ui.discard, this.ui.open, [...(this.ui.drawSel ?? [])], this.settings.hintsHighlight, me.hint,
      sd, v.awards, !!seat.folded, this.legal("choose"), this.legal("draw"), v.options?.hints, window.innerWidth]);
    const sr = this.isMyTurn(v) ? "내 차례예요" : "";
    return [
      ["line", lineKey, () => {
        const line = h("div", { class: "me-line" },
          h("span", { class: "marks-inline" }, this.marks(seat)),
          h("span", { class: "name" }, this.nm(me.id)),
          h("span", { class: "stack", "data-testid": "my-stack" }, fmt(seat.stack) + "칩"),
          seat.committedRound > 0 && v.phase === "betting" ? h("span", { class: "mybet" }, `베팅 ${fmt(seat.committedRound)}`) : null,
          h("span", { class: "spacer" }),
          h("span", { class: "badges" }, this.badges(seat)),
          this.reactButton());
        if (waits) {
          const r = this.ring();
          r.style.position = "static";
          line.append(r);
        }
        return line;
      }],
      ["handName", hn, () => h("div", { class: "hand-name", "data-testid": "hand-name" }, hn)],
      ["cards", cardsKey, (had) => this.renderMyCards(seat, had)],
      this.controlsSlice(seat),
      ["seatBar", null, () => this.cb.seatBar?.(v) ?? null], // sitting out: 복귀 (app.js)
      ["sr", sr, () => h("div", { class: "sr-only", role: "status", "aria-live": "polite" }, sr)],
      ["tip", null, () => this.renderTip()],
    ];
  }

  /**
   * My controls as a slice of my area. While betting, the box stays and its own slices are kept apart (the
   * "누구 차례" line changes with every turn, the buttons only with my options): a turn passing among the
   * others rewrites one line, not my buttons. Otherwise the box is one slice, built when controlsKey changes.
   */
  controlsSlice(seat) {
    const inner = this.bettingSlices(seat);
    if (!inner) return ["controls", this.controlsKey(seat), () => { this.ctlBox = null; return this.renderControls(seat); }];
    return ["controls", null, () => {
      if (!this.ctlBox) {
        this.ctlBox = h("div", { class: "controls", "data-testid": "controls" });
        this.ctlBox.sliced = true; // (put in place of the old box, never merged into it)
        this.ctlMemo = new Map();
      }
      this.syncSlices(this.ctlBox, inner, this.ctlMemo);
      return this.ctlBox;
    }];
  }

  /** The betting branch of renderControls as slices ([name, key, build]); null when another branch applies. */
  bettingSlices(seat) {
    const v = this.view;
    const me = v.me;
    const lg = me.legalActions ?? [];
    if (v.phase !== "betting" || seat.status === "eliminated" || seat.status === "left") return null;
    if (!me.inHand && seat.status === "playing") return null;
    const pre = this.seatPart?.preAction;
    if (!lg.length && pre?.offered?.length) {
      const text = `${this.nm(v.toAct)} 님 차례 · 내 행동 미리 고르기`;
      return [
        ["line", text, () => h("div", { class: "instruction muted-line" }, text)],
        ["pre", JSON.stringify([pre, this.lockGen]), () => this.preActionButtons(pre)],
      ];
    }
    // house rule (docs/rules-extensions.md): say why the other buttons are grey while 491 binds this round
    const restriction = lg.length ? v.houseRules?.restriction ?? "" : "";
    const line = lg.length ? "" : seat.folded ? "이번 판은 다이했어요" : seat.allIn ? "올인했어요" : `${this.nm(v.toAct)} 님 차례`;
    const ui = this.ui;
    const key = JSON.stringify([lg, v.betting, this.hintType(), this.busy, this.lockGen, v.houseRules?.restriction, (v.currentBet ?? 0) === 0,
      ui.raiseOpen, ui.raiseTo, ui.raiseOpen ? [v.currentBet, v.potTotal, v.baseUnit, seat.stack, seat.committedRound, me.toCall, me.hint] : null,
      this.settings.hintsHighlight]);
    let panel = null; // (the raise panel comes with the buttons: one key for both)
    return [
      ["line", line, () => (line ? h("div", { class: "instruction muted-line" }, line) : null)],
      ["rule", restriction, () => (restriction ? h("div", { class: "instruction house-rule", "data-testid": "house-rule" }, restriction) : null)],
      ["buttons", key, () => {
        if (v.betting === "korean") return this.koreanButtons(lg);
        const [grid, raise] = this.nlButtons(lg);
        panel = raise ?? null;
        return grid;
      }],
      ["raise", key, () => panel],
    ];
  }

  /**
   * Everything renderControls reads, as a string (null: built on every render, as at hand end, where the
   * 쉬기 button comes from app.js): others acting before my turn do not rebuild my buttons.
   */
  controlsKey(seat) {
    const v = this.view;
    const me = v.me;
    if (v.phase === "handEnd") return null;
    const ui = this.ui;
    // (the pot and the bet to match show in the open raise panel only; the buttons say 벳 into no bet)
    return JSON.stringify([me, seat, v.phase, v.betting, v.toAct, this.nm(v.toAct), (v.currentBet ?? 0) === 0,
      ui.raiseOpen ? [v.currentBet, v.potTotal] : null, v.baseUnit,
      v.houseRules, v.options, v.streetName, v.mode, v.seats?.length, this.busy, this.lockGen, ui.raiseOpen, ui.raiseTo, ui.discard, ui.open,
      [...(ui.drawSel ?? [])], this.seatPart?.preAction ?? null, this.settings.hintsHighlight]);
  }

  /**
   * Bring `parent`'s children up to `slices` ([name, key, build], in order): a slice whose key is unchanged
   * keeps its node untouched (not built, not compared); a changed one is built and merged into the node it
   * replaces (morph keeps what is equal in it). `memo` (name -> {key, node}) remembers them across renders.
   */
  syncSlices(parent, slices, memo) {
    const nodes = [];
    const seen = new Set();
    for (const [name, key, build] of slices) {
      seen.add(name);
      const had = memo.get(name);
      let node;
      const mine = had?.node && had.node.parentNode === parent ? had.node : null;
      if (key != null && had && had.key === key && (had.node === null || mine)) node = had.node;
      else {
        node = build(mine) ?? null; // (a build may bring the node on screen up to date and return it)
        if (node && had?.node && had.node !== node && had.node.parentNode === parent && !node.sliced) node = morph(had.node, node);
        memo.set(name, { key, node });
      }
      if (node) nodes.push(node);
    }
    for (const name of [...memo.keys()]) if (!seen.has(name)) memo.delete(name);
    syncChildren(parent, nodes);
  }

  handNameText() {
    const v = this.view;
    const me = v.me;
    const sd = this.showdownEntry(me.id);
    if (sd && v.phase === "handEnd" && sd.lowBest !== undefined) return this.handLabel(sd);  // hi-lo
    if (sd && v.phase === "handEnd") return `${sd.rankName ?? sd.handName}${sd.lowName ? " / 로우 " + sd.lowName : ""}`;
    if (me.handName) return `지금: ${me.rankName ?? me.handName}${me.lowName ? " · 로우 " + me.lowName : ""}`;
    return "";
  }

  myCardList() {
    const v = this.view;
    const me = v.me;
    if (v.phase === "choice" && me.choice) return { hole: me.choice, up: [] };
    return { hole: me.hole ?? [], up: me.up ?? [] };
  }

  /**
   * My cards. Given my cards' row on screen (`old`), that row is brought up to date and returned: each card
   * is described first ([key, build], the key saying all the build reads) and only a card whose key changed
   * is built (a card's SVG copy) and merged in, so a view that deals me a card, or changes nothing about my
   * cards but the hand's name, no longer builds and compares all of them (issue #15).
   */
  renderMyCards(seat, old = null) {
    const v = this.view;
    const me = v.me;
    const sd = this.showdownEntry(me.id);
    const bestIds = new Set(v.phase === "handEnd" ? this.bestCards(sd).map((c) => c.id) : []);
    const specs = []; // [key, build]
    let first = null; // the first card's size
    let seps = 0;
    const card = (key, c, opts, then = null) => {
      first ??= opts.size;
      specs.push([key, () => {
        const e = cardEl(c, opts);
        then?.(e);
        return e;
      }]);
    };
    if (v.mode === "indian") {
      if (me.forehead === "?") card("?", null, { size: "lg", question: true });
      else if (me.forehead && typeof me.forehead === "object") card(JSON.stringify(["f", me.forehead]), me.forehead, { size: "lg", extraClass: "forehead" });
      for (const c of me.hole ?? []) card(JSON.stringify(["h", c]), c, { size: "lg" });
    } else {
      const { hole, up } = this.myCardList();
      const choosing = v.phase === "choice" && me.choice && !me.chosen && this.legal("choose");
      const drawLegal = v.phase === "draw" ? this.legal("draw") : null;
      const drawing = drawLegal && me.drawPending == null;
      const clash = v.mode === "badugi" && v.options?.hints ? this.badugiClash(hole) : new Set();
      const chosen = me.chosen ?? null;
      const ch = choosing ? this.hintFor("choose") : null;
      const dh = drawing ? this.hintFor("draw") : null;
      const size = v.phase === "choice" ? "xl" : "lg";
      hole.forEach((c) => {
        // what the card gets beyond cardEl, in this order: its classes, focusable, pressed, which pick it answers
        const cls = [];
        let pick = null;
        let pressed = null;
        if (up.length) cls.push("own-hidden"); // 7 Poker: only I see these
        if (!isHidden(c)) {
          if (bestIds.has(c.id)) cls.push("used-best");
          if (ch?.discardId === c.id) cls.push("hint-discard");
          if (ch?.openId === c.id) cls.push("hint-open");
          if (dh && dh.cardIds.includes(c.id)) cls.push("hint-draw");
          if (choosing) {
            cls.push("selectable");
            if (this.ui.discard === c.id) cls.push("discard");
            if (this.ui.open === c.id) cls.push("raised");
            pick = "choice";
          } else if (chosen) {
            if (chosen.discardId === c.id) cls.push("discard");
            if (chosen.openId === c.id) cls.push("raised");
          }
          if (drawing) {
            cls.push("selectable");
            pressed = this.ui.drawSel.has(c.id) ? "true" : "false";
            if (this.ui.drawSel.has(c.id)) cls.push("raised");
            pick = "draw";
          } else if (me.drawPending && me.drawPending.includes(c.id)) cls.push("raised");
          if (clash.has(c.id)) cls.push("clash");
        }
        card(JSON.stringify(["h", c, size, cls, pressed, pick]), c, { size }, (e) => {
          for (const k of cls) e.classList.add(k);
          if (pick) e.tabIndex = 0;
          if (pressed) e.setAttribute("aria-pressed", pressed);
          if (pick) {
            const go = pick === "choice" ? () => this.pickChoice(c.id) : () => this.pickDraw(c.id);
            listen(e, "click", go);
            listen(e, "keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); go(); } });
          }
        });
      });
      if (up.length) {
        seps = 1;
        specs.push(["sep", () => h("div", { class: "group-sep", "aria-hidden": "true" })]);
        up.forEach((c) => {
          // what the table sees: marked, so my hidden cards and my open cards never look alike
          const best = bestIds.has(c.id);
          card(JSON.stringify(["u", c, best]), c, { size: "lg", extraClass: "open-card" }, (e) => {
            e.append(h("span", { class: "open-tag", "aria-hidden": "true" }, "공개"));
            e.setAttribute("aria-label", `${e.getAttribute("aria-label") ?? ""} (공개)`);
            if (best) e.classList.add("used-best");
          });
        });
      }
    }
    const n = specs.length - seps;
    const size = first === "xl" ? 82 : 72;
    const avail = Math.min(window.innerWidth >= 1000 ? 780 : window.innerWidth, 820) - 24 - seps * 10;
    const overlap = n > 1 ? Math.min(6, Math.floor((avail - n * size) / (n - 1))) : 0;
    const discarded = me.discarded && v.phase !== "choice";
    // (the row with the discarded card's note under it is built afresh, and merged by syncSlices)
    const wrap = old && !discarded && old.classList.contains("my-cards") ? old
      : h("div", { class: "my-cards", "data-testid": "my-cards", "aria-label": "내 카드" });
    if (wrap.style.getPropertyValue("--overlap") !== `${overlap}px`) wrap.style.setProperty("--overlap", `${overlap}px`);
    morphKeyed(wrap, specs);
    if (seat.folded) wrap.style.opacity = "0.55";
    else if (wrap.style.opacity) wrap.style.removeProperty("opacity");
    if (discarded) {
      return h("div", {}, wrap, h("div", { class: "discarded-note" }, "버린 카드 ", miniCardEl(me.discarded)));
    }
    return wrap;
  }

  badugiClash(cards) {
    const out = new Set();
    const vis = cards.filter((c) => !isHidden(c));
    for (const a of vis) for (const b of vis) {
      if (a.id !== b.id && (a.rank === b.rank || a.suit === b.suit)) out.add(a.id);
    }
    return out;
  }

  pickChoice(id) {
    if (this.ui.discard === id) this.ui.discard = null;
    else if (this.ui.open === id) this.ui.open = null;
    else if (this.ui.discard == null) this.ui.discard = id;
    else this.ui.open = id;
    this.render();
  }

  drawLimit() {
    const lg = this.legal("draw");
    if (!lg) return 0;
    const sel = this.ui.drawSel;
    const hand = this.view.me.hole ?? [];
    if (lg.maxKeepingAce != null) {
      const keepsAce = hand.some((c) => !isHidden(c) && (c.rank === 14) && !sel.has(c.id));
      if (keepsAce) return lg.maxKeepingAce;
    }
    return lg.max ?? 5;
  }

  pickDraw(id) {
    const sel = this.ui.drawSel;
    if (sel.has(id)) sel.delete(id);
    else {
      sel.add(id);
      if (sel.size > this.drawLimit()) {
        sel.delete(id);
        this.cb.toast?.(`최대 ${this.drawLimit()}장까지 바꿀 수 있어요`);
      }
    }
    this.render();
  }

  renderControls(seat) {
    const v = this.view;
    const me = v.me;
    const box = h("div", { class: "controls", "data-testid": "controls" });
    const lg = me.legalActions ?? [];
    if (seat.status === "eliminated" || seat.status === "left") {
      box.append(h("div", { class: "waiting-line" }, seat.status === "left" ? "방을 나갔어요." : "탈락했어요. 끝까지 지켜볼 수 있어요."));
      return box;
    }
    if (!me.inHand && v.phase !== "rebuy" && seat.status === "playing") {
      // a seat that joined or sat out between hands: no buttons until it is dealt in
      box.append(h("div", { class: "waiting-line", "data-testid": "next-hand-line" },
        seat.sittingOut ? "쉬는 중이에요. 복귀하면 다음 판부터 참가해요." : "다음 판부터 참가해요."));
      return box;
    }
    if (v.phase === "choice") return this.choiceControls(box);
    if (v.phase === "draw") return this.drawControls(box);
    if (v.phase === "declare") return this.declareControls(box);
    if (v.phase === "handEnd") {
      // the winner of an uncalled pot may open their cards (one tap); nothing is shown unless they do
      const show = this.legal("show") ? h("button", { class: "act legal", "data-action": "show", disabled: this.busy,
        "aria-label": "내 카드 보여 주기", onclick: () => this.send({ type: "show" }) }, "카드 보여 주기") : null;
      if (this.legal("ready")) {
        const row = [h("button", { class: "act legal big", "data-action": "ready", disabled: this.busy, onclick: () => this.send({ type: "ready" }) }, "다음 판"),
          this.cb.sitOutButton?.(v), show].filter(Boolean);
        box.append(h("div", { class: `actions cols-${Math.max(2, row.length)}` }, ...row));
      }
      else {
        box.append(h("div", { class: "waiting-line" }, seat.ready ? "다음 판을 기다리는 중…" : "잠시 후 다음 판이 시작돼요"));
        if (show) box.append(h("div", { class: "actions cols-2" }, show));
      }
      return box;
    }
    if (v.phase === "rebuy") {
      if (this.legal("rebuy")) {
        box.append(h("div", { class: "instruction" }, `칩이 떨어졌어요. 시작 칩 ${fmt(v.options?.startingChips)}으로 다시 받을까요?${me.rebuysLeft != null ? ` (남은 횟수 ${me.rebuysLeft})` : ""}`));
        box.append(h("div", { class: "actions cols-2" },
          h("button", { class: "act legal", "data-action": "rebuy-no", onclick: () => this.send({ type: "rebuy", accept: false }) }, "그만하기"),
          h("button", { class: "act legal raise", "data-action": "rebuy-yes", onclick: () => this.send({ type: "rebuy", accept: true }) }, "칩 다시 받기")));
      } else box.append(h("div", { class: "waiting-line" }, "리바이 결정을 기다리는 중…"));
      return box;
    }
    const pre = this.seatPart?.preAction;
    if (v.phase === "betting" && !lg.length && pre?.offered?.length) {
      box.append(h("div", { class: "instruction muted-line" }, `${this.nm(v.toAct)} 님 차례 · 내 행동 미리 고르기`));
      box.append(this.preActionButtons(pre));
      return box;
    }
    if (v.phase === "betting") {
      if (v.betting === "korean") box.append(this.koreanButtons(lg));
      else box.append(...this.nlButtons(lg));
      // house rule (docs/rules-extensions.md): say why the other buttons are grey while 491 binds this round
      const restriction = v.houseRules?.restriction;
      if (restriction && lg.length) box.prepend(h("div", { class: "instruction house-rule", "data-testid": "house-rule" }, restriction));
      if (!lg.length) {
        box.prepend(h("div", { class: "instruction muted-line" }, seat.folded ? "이번 판은 다이했어요" : seat.allIn ? "올인했어요" : `${this.nm(v.toAct)} 님 차례`));
      }
      return box;
    }
    box.append(h("div", { class: "waiting-line" }, ""));
    return box;
  }

  // ------------------------------------------------------------------ table talk (reactions, chat)
  reactButton() {
    return h("button", { class: "react-open", type: "button", "data-testid": "react-open", "aria-label": "반응 보내기",
      "aria-expanded": this.palette ? "true" : "false", onclick: () => (this.palette ? this.closePalette() : this.openPalette()) }, "😀");
  }

  /** The palette lives outside the re-rendered table, so a view arriving while I type does not wipe it. */
  openPalette() {
    this.closePalette();
    this.palette = reactionPalette({
      chat: !!this.social.chat && !!this.view?.me,
      send: (m) => this.cb.onTalk?.(m),
      close: () => this.closePalette(),
    });
    document.body.append(this.palette);
    this.palette.querySelector("button")?.focus();
  }

  closePalette() {
    this.palette?.remove();
    this.palette = null;
  }

  /** A reaction or chat line of `from` (a player id; null: a spectator) over their seat for `ms`. */
  bubble(from, text, ms) {
    let anchor = null;
    if (from && from === this.mySeatId()) anchor = this.host.querySelector("[data-testid=me-area]");
    else if (from) anchor = this.host.querySelector(`.seat[data-seat-id="${CSS.escape(from)}"]`);
    return showBubble(anchor, text, ms, from);
  }

  /** 체크/다이 · 콜 · 아무거나 콜 · 삥/콜 toggles for my next turn (kept by the server, see protocol §2.6). */
  preActionButtons(pre) {
    const chosen = pre.chosen?.kind ?? null;
    const row = h("div", { class: `actions pre cols-${Math.min(4, pre.offered.length)}`, role: "group", "aria-label": "미리 고르기", "data-testid": "pre-actions" });
    for (const o of pre.offered) {
      const on = chosen === o.kind;
      const label = o.kind === "call" && o.amount ? `${o.label} ${fmt(o.amount)}` : o.label;
      row.append(h("button", {
        class: `act pre${on ? " on" : ""}`, type: "button", "data-preaction": o.kind, "aria-pressed": on ? "true" : "false",
        onclick: () => this.cb.onPreAction?.(on ? null : o.kind),
      }, h("span", { class: "tick", "aria-hidden": "true" }, on ? "✓" : ""), label));
    }
    return row;
  }

  hintFor(type) {
    if (this.settings.hintsHighlight === false) return null;
    const hint = this.view.me?.hint;
    if (!hint || hint.type !== type) return null;
    // only a sendable action is a usable hint (not a legalActions entry with its ranges)
    if (type === "choose" && (hint.discardId == null || hint.openId == null)) return null;
    if (type === "draw" && (!Array.isArray(hint.cardIds) || hint.max != null)) return null;
    return hint;
  }

  hintType() {
    if (this.settings.hintsHighlight === false) return null;
    return this.view.me?.hint?.type ?? null;
  }

  async confirmFold(action) {
    const canCheck = this.legal("k.check") || this.legal("nl.check");
    if (canCheck) {
      const ok = await this.cb.confirm("체크할 수 있는데 포기할까요?");
      if (!ok) return;
    }
    this.send(action);
  }

  koreanButtons(lg) {
    const grid = h("div", { class: "actions korean", role: "group", "aria-label": "베팅" });
    const hint = this.hintType();
    for (const type of KOREAN_ORDER) {
      const a = lg.find((x) => x.type === type);
      const label = ACTION_LABEL[type];
      const amount = a && a.amount > 0 ? `(${a.allIn ? "올인 " : ""}+${fmt(a.amount)}${a.capped ? " 맥스" : ""})` : a?.allIn ? "(올인)" : "";
      const ruled = !a && lg.length ? this.view.houseRules?.restriction : null;
      const cls = ["act"];
      if (a) cls.push("legal");
      if (type === "k.die") cls.push("fold");
      if (["k.ddadang", "k.quarter", "k.half", "k.full"].includes(type)) cls.push("raise");
      if (a && hint === type) cls.push("hint");
      if (ruled) cls.push("ruled");
      const aria = a ? `${label}${a.amount > 0 ? " " + a.amount + "칩" : ""}${a.allIn ? " 올인" : ""}${a.capped ? " 맥스 베팅 상한" : ""}`
        : ruled ? `${label} (${ruled})` : `${label} (지금은 할 수 없음)`;
      const btn = h("button", {
        class: cls.join(" "), "data-action": type, disabled: !a || this.busy, "aria-label": aria,
        title: ruled || (a?.capped ? "맥스 베팅 상한까지" : null),
        onclick: () => (type === "k.die" ? this.confirmFold({ type }) : this.send({ type })),
      }, label, amount ? h("small", {}, amount) : null);
      grid.append(btn);
    }
    return grid;
  }

  nlButtons(lg) {
    const v = this.view;
    const fold = lg.find((a) => a.type === "nl.fold");
    const check = lg.find((a) => a.type === "nl.check");
    const call = lg.find((a) => a.type === "nl.call");
    const raise = lg.find((a) => a.type === "nl.raise");
    const allIn = lg.find((a) => a.type === "nl.allIn");
    const hint = this.hintType();
    const mk = (type, label, sub, a, extra, onclick) => {
      const cls = ["act"];
      if (a) cls.push("legal");
      if (extra) cls.push(extra);
      if (a && hint === type) cls.push("hint");
      return h("button", { class: cls.join(" "), "data-action": type, disabled: !a || this.busy, "aria-label": a ? `${label}${sub ? " " + sub : ""}` : `${label} (지금은 할 수 없음)`, onclick }, label, sub ? h("small", {}, sub) : null);
    };
    const grid = h("div", { class: "actions nl", role: "group", "aria-label": "베팅" });
    grid.append(mk("nl.fold", "폴드", "", fold, "fold", () => this.confirmFold({ type: "nl.fold" })));
    if (call) grid.append(mk("nl.call", "콜", `(${call.allIn ? "올인 " : ""}+${fmt(call.amount)})`, call, "", () => this.send({ type: "nl.call" })));
    else grid.append(mk("nl.check", "체크", "", check, "", () => this.send({ type: "nl.check" })));
    const rlabel = raise?.isBet || (!raise && (v.currentBet ?? 0) === 0) ? "벳" : "레이즈";
    grid.append(mk("nl.raise", rlabel, raise ? `${fmt(raise.min)}~` : "", raise, "raise", () => { this.ui.raiseOpen = !this.ui.raiseOpen; this.render(); }));
    grid.append(mk("nl.allIn", "올인", allIn ? `(+${fmt(allIn.amount)})` : "", allIn, "raise", () => this.send({ type: "nl.allIn" })));
    const out = [grid];
    if (raise && this.ui.raiseOpen) out.push(this.raisePanel(raise, rlabel));
    return out;
  }

  raisePanel(raise, rlabel) {
    const v = this.view;
    const unit = Math.max(1, v.baseUnit ?? 1);
    const clamp = (x) => Math.max(raise.min, Math.min(raise.max, Math.round(x)));
    if (this.ui.raiseTo == null) {
      const hint = this.hintFor("nl.raise");
      this.ui.raiseTo = hint && Number.isInteger(hint.to) ? clamp(hint.to) : raise.min;
    }
    const toCall = v.me?.toCall ?? 0;
    const cur = v.currentBet ?? 0;
    const potAfterCall = (v.potTotal ?? 0) + toCall;
    const amountEl = h("span", { class: "amount", "data-testid": "raise-amount", "aria-live": "polite" });
    const slider = h("input", { type: "range", min: raise.min, max: raise.max, step: 1, value: this.ui.raiseTo, "aria-label": "레이즈 금액" });
    const setTo = (x) => {
      this.ui.raiseTo = clamp(x);
      slider.value = String(this.ui.raiseTo);
      // the log's words: "벳 20" into no bet, else the total "레이즈 20까지"
      amountEl.textContent = rlabel === "벳" ? `벳 ${fmt(this.ui.raiseTo)}` : `${rlabel} ${fmt(this.ui.raiseTo)}까지`;
    };
    listen(slider, "input", () => {
      // snap to the base unit, but keep min and max reachable
      const raw = Number(slider.value);
      const snapped = raw >= raise.max ? raise.max : raw <= raise.min ? raise.min : raise.min + Math.round((raw - raise.min) / unit) * unit;
      setTo(snapped);
    });
    setTo(this.ui.raiseTo);
    // the value in the button too: an equal panel then has equal handlers (morph keeps it)
    const q = (label, val, key) => h("button", { "data-quick": key, "data-to": val, onclick: () => setTo(val) }, label);
    // pot limit: the highest raise can be below everything I have — then it is "최대", not "올인"
    const mine = (v.seats ?? []).find((s) => s.id === v.me?.id);
    const allInTo = this.legal("nl.allIn")?.to ?? (mine ? mine.stack + (mine.committedRound ?? 0) : raise.max);
    const maxLabel = raise.max >= allInTo ? "올인" : "최대";
    return whole(h("div", { class: "raise-panel", "data-testid": "raise-panel" },
      h("div", { class: "quick" },
        q("최소", raise.min, "min"),
        q("½팟", cur + Math.floor(potAfterCall / 2), "half"),
        q("팟", cur + potAfterCall, "pot"),
        q(maxLabel, raise.max, "max")),
      h("div", { class: "steps" },
        h("button", { "aria-label": `${unit} 내리기`, "data-step": "-", onclick: () => setTo(this.ui.raiseTo - unit) }, "−"),
        slider,
        h("button", { "aria-label": `${unit} 올리기`, "data-step": "+", onclick: () => setTo(this.ui.raiseTo + unit) }, "+")),
      h("div", { class: "confirm-row" },
        h("button", { class: "act", onclick: () => { this.ui.raiseOpen = false; this.render(); } }, "취소"),
        h("button", { class: "act legal raise", "data-action": "raise-confirm", onclick: () => this.send({ type: "nl.raise", to: this.ui.raiseTo }) }, amountEl, h("small", {}, "확인")))));
  }

  choiceControls(box) {
    const v = this.view;
    const me = v.me;
    if (me.chosen || !this.legal("choose")) {
      box.append(h("div", { class: "waiting-line" }, me.chosen ? "골랐어요. 다른 사람을 기다리는 중…" : "초이스를 기다리는 중…"));
      return box;
    }
    const step = this.ui.discard == null ? "버릴 카드를 누르세요" : this.ui.open == null ? "보여 줄 카드를 누르세요" : "확인을 누르세요";
    box.append(h("div", { class: "instruction", "data-testid": "instruction" }, step));
    const hint = this.hintFor("choose");
    if (hint) {
      const cards = me.choice ?? [];
      const name = (id) => cardShort(cards.find((c) => c.id === id));
      box.append(h("div", { class: "hint-line", "data-testid": "hint-line" }, `추천: ${name(hint.discardId)} 버리고 ${name(hint.openId)} 보여 주기`));
    }
    box.append(h("div", { class: "actions cols-2" },
      h("button", { class: "act" + (this.ui.discard != null ? " legal" : ""), "data-action": "undo", disabled: this.ui.discard == null, onclick: () => { if (this.ui.open != null) this.ui.open = null; else this.ui.discard = null; this.render(); } }, "되돌리기"),
      h("button", { class: "act raise" + (this.ui.discard != null && this.ui.open != null ? " legal" : "") + (hint && hint.discardId === this.ui.discard && hint.openId === this.ui.open ? " hint" : ""), "data-action": "choose", disabled: this.ui.discard == null || this.ui.open == null || this.busy,
        onclick: () => this.send({ type: "choose", discardId: this.ui.discard, openId: this.ui.open }) }, "확인")));
    return box;
  }

  drawControls(box) {
    const v = this.view;
    const me = v.me;
    const lg = this.legal("draw");
    if (!lg || me.drawPending != null) {
      box.append(h("div", { class: "waiting-line" }, me.drawPending != null ? `${me.drawPending.length ? me.drawPending.length + "장 바꾸기" : "패스"} 제출. 다른 사람을 기다리는 중…` : "교환을 기다리는 중…"));
      return box;
    }
    const n = this.ui.drawSel.size;
    const drawName = v.mode === "badugi" ? v.streetName || "교환" : "교환";
    box.append(h("div", { class: "instruction", "data-testid": "instruction" }, `${drawName}: 바꿀 카드를 누르세요 (최대 ${this.drawLimit()}장)`));
    const hint = this.hintFor("draw");
    if (hint) {
      const ids = hint.cardIds ?? [];
      const cards = (me.hole ?? []).filter((c) => ids.includes(c.id)).map(cardShort);
      box.append(h("div", { class: "hint-line", "data-testid": "hint-line" }, ids.length ? `추천: ${ids.length}장 바꾸기 (${cards.join(" ")})` : "추천: 패스"));
    }
    box.append(h("div", { class: "actions cols-2" },
      h("button", { class: "act" + (n ? " legal" : ""), "data-action": "draw-clear", disabled: !n, onclick: () => { this.ui.drawSel = new Set(); this.render(); } }, "되돌리기"),
      h("button", { class: "act legal raise" + (hint && (hint.cardIds ?? []).length === n && (hint.cardIds ?? []).every((id) => this.ui.drawSel.has(id)) ? " hint" : ""), "data-action": "draw", disabled: this.busy,
        onclick: () => this.send({ type: "draw", cardIds: [...this.ui.drawSel] }) }, n ? `${n}장 바꾸기` : "패스")));
    return box;
  }

  declareControls(box) {
    const v = this.view;
    const me = v.me;
    const lg = this.legal("declare");
    if (!lg || me.declare) {
      box.append(h("div", { class: "waiting-line" }, me.declare ? `${SIDE_LABEL[me.declare]} 선언. 다른 사람을 기다리는 중…` : "선언을 기다리는 중…"));
      return box;
    }
    box.append(h("div", { class: "instruction" }, "하이·로우·스윙 중 하나를 고르세요"));
    const sides = lg.sides ?? ["high", "low", "swing"];
    const high = me.rankName ?? me.handName;
    const sub = {
      high: high ?? "",
      low: me.lowName ?? (high ? "로우 없음" : ""),
      swing: high ? `${high} + ${me.lowName ?? "로우 없음"}` : "",
    };
    const hint = this.view.me?.hint;
    box.append(h("div", { class: "actions cols-3" }, ["high", "low", "swing"].map((s) =>
      h("button", { class: "act big" + (sides.includes(s) ? " legal" : "") + (hint?.type === "declare" && hint.side === s ? " hint" : ""), "data-action": "declare-" + s, disabled: !sides.includes(s) || this.busy,
        onclick: () => this.send({ type: "declare", side: s }) }, SIDE_LABEL[s], sub[s] ? h("span", { class: "sub" }, sub[s]) : null))));
    return box;
  }

  renderTip() {
    if (this.settings.tips === false) return null;
    const v = this.view;
    if (!v.me || (v.handNo ?? 0) > 1) return null;
    let key = null;
    let text = null;
    if (v.phase === "choice" && !v.me.chosen) { key = "choice"; text = "4장 중 버릴 카드 1장(빨간 X)을 누르고, 남은 3장 중 모두에게 보여 줄 카드 1장을 누른 뒤 확인을 누르세요."; }
    else if (v.phase === "draw" && v.me.drawPending == null) { key = "draw"; text = v.mode === "badugi" ? "무늬나 숫자가 겹치는 카드(노란 테두리)를 바꾸면 좋아요. 바꿀 카드를 눌러 올리세요." : "바꿀 카드를 눌러 위로 올리세요. 아무것도 안 고르면 패스예요."; }
    else if (v.phase === "declare") { key = "declare"; text = "하이는 높은 족보, 로우는 낮은 패로 겨뤄요. 스윙은 양쪽 모두 이겨야 해요."; }
    else if (v.phase === "betting" && this.isMyTurn(v)) {
      if (v.betting === "korean") { key = "korean"; text = "삥 = 기본 단위만큼 걸기, 따당 = 앞사람 금액의 2배, 쿼터·하프·풀 = 판돈의 1/4·1/2·전부를 더 걸기. 회색 버튼은 지금 할 수 없어요."; }
      else { key = "nl"; text = "체크/콜로 따라가거나, 레이즈를 눌러 금액을 정한 뒤 확인을 누르세요."; }
    }
    if (!key || this.tipsSeen.has(key)) return null;
    // short phones show one line until asked (the table keeps its room); the text otherwise
    const tip = whole(h("div", { class: "tip" + (this.tipOpen ? " open" : ""), role: "note", "data-testid": "tip" },
      h("div", { class: "tip-text" }, text),
      h("div", { class: "row" },
        h("button", { class: "link tip-toggle", "aria-expanded": String(!!this.tipOpen), onclick: () => { this.tipOpen = !this.tipOpen; this.render(); } },
          this.tipOpen ? "도움말 접기" : "도움말 보기"),
        h("button", { class: "link", onclick: () => { this.tipsSeen.add(key); saveTipsSeen(this.tipsSeen); tip.remove(); this.render(); } }, "닫기"),
        h("button", { class: "link", onclick: () => { this.cb.disableTips?.(); this.settings = { ...this.settings, tips: false }; tip.remove(); this.render(); } }, "도움말 그만 보기"))));
    return tip;
  }

  renderSidePanel() {
    const v = this.view;
    const log = h("ol", { class: "log-list", "data-testid": "hand-log" },
      (v.publicLog ?? []).slice(-60).map((e) => h("li", {}, `#${e.handNo} ${withNames(e.text, this.names)}`)));
    const panel = h("aside", { class: "side-panel", "aria-label": "핸드 기록과 족보" },
      h("section", { class: "log" }, h("h3", {}, "핸드 기록 ",
        h("button", { class: "btn small ghost", type: "button", "data-testid": "open-past", onclick: () => this.cb.openHistory?.() }, "지난 판")), log),
      h("section", { class: "ranks" }, h("h3", {}, "족보"), this.cachedRanking()));
    queueMicrotask(() => { const s = panel.querySelector("section.log"); if (s) s.scrollTop = s.scrollHeight; });
    return panel;
  }

  /** Everything the side panel shows: it is rebuilt only when this changes. */
  sidePanelKey() {
    const v = this.view;
    return JSON.stringify([(v.publicLog ?? []).slice(-60), this.names, v.mode, v.options]);
  }

  cachedRanking() {
    const v = this.view;
    const key = `${v.mode}|${v.options?.indianCards}|${v.options?.indianDeck}|${v.options?.omahaHiLo}|${v.options?.badugiHigh}`;
    if (this.rankCache?.key !== key) this.rankCache = { key, node: rankingTable(v.mode, { compact: true, options: v.options }) };
    return this.rankCache.node;
  }

  // ------------------------------------------------------------------ animations
  animateAwards() {
    const v = this.view;
    const awards = this.sortedAwards();
    if (!awards.length) return;
    // where the pot is, read once the hand-end view is painted (a task posted from its frame runs after the
    // paint): the layout is clean then, so the read forces none inside the render
    requestAnimationFrame(() => setTimeout(() => this.flyAwards(v, awards), 0));
  }

  flyAwards(v, awards) {
    if (this.view?.handNo !== v.handNo || this.view.phase !== "handEnd") return;
    const pot = this.host.querySelector("[data-testid=pot]");
    if (!pot || typeof pot.getBoundingClientRect !== "function") return;
    const from = pot.getBoundingClientRect();
    awards.forEach((a, i) => {
      setTimeout(() => {
        if (this.view !== v) return;
        const target = a.to === this.mySeatId() ? this.host.querySelector("[data-testid=my-stack]") : this.host.querySelector(`.seat[data-seat-id="${CSS.escape(a.to)}"]`);
        if (!target) return;
        const to = target.getBoundingClientRect();
        const chip = h("div", { class: "flying-chip", "aria-hidden": "true" });
        chip.style.left = `${from.left + from.width / 2 - 11}px`;
        chip.style.top = `${from.top + from.height / 2 - 11}px`;
        document.body.append(chip);
        requestAnimationFrame(() => requestAnimationFrame(() => {
          chip.style.transform = `translate(${to.left + to.width / 2 - (from.left + from.width / 2)}px, ${to.top + to.height / 2 - (from.top + from.height / 2)}px)`;
          chip.style.opacity = "0.2";
        }));
        setTimeout(() => chip.remove(), 650);
        const sp = this.host.querySelector(`.side-pot[data-pot="${a.potIndex}"]`);
        if (sp) sp.style.opacity = "0.35";
      }, i * 650);
    });
  }
}
