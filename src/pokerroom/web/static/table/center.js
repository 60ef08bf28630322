// The centre of the table: the pot, the side pots, the board (hold'em, Omaha), a carried-over pot and the
// Indian used-cards grid, drawn from centerInputs alone; on a phone, placeCenter moves it (or shrinks and
// folds the grid) to where it hides no seat.

import { tx } from "../i18n.js";
import { cardEl } from "../cards.js";
import { fmt } from "../labels.js";
import { listen, whole } from "../morph.js";
import { h } from "../dom.js";
import { enclose, freeCorridor, freeGaps, overlap, phaseBand } from "./geometry.js";
import { slice } from "./slices.js";
import { boardBest, wonCards } from "./view.js";

/** Everything the centre shows: its slices read nothing else (the key of the whole centre is this, serialised). */
export function centerInputs(t) {
  const v = t.view;
  return { phase: v.phase, pots: v.pots, potTotal: v.potTotal, mode: v.mode, board: v.board, awards: v.awards,
    board2: v.houseRules?.runItTwice?.board2 ?? [],
    showdown: v.showdown, carryOver: v.carryOver, seatCount: (v.seats ?? []).length, narrow: t.hostW < 600,
    options: v.options, indianUsed: v.indianUsed, indianDeckLeft: v.indianDeckLeft, usedOpen: !!t.usedOpen };
}

/** The board on screen (`had`) brought up to date in place: a card dealt replaces its empty slot, the cards
 * already there stay untouched (no new drawing built only to be compared with the old one). */
function board(b, had) {
  const el = had ?? h("div", { class: "board" });
  if (el.getAttribute("aria-label") !== (b.label ?? tx("center.1"))) el.setAttribute("aria-label", b.label ?? tx("center.1"));
  el.classList.toggle("small", b.crowded);
  el.classList.toggle("run", !!b.run); // run it twice: the boards are numbered (style.css)
  if (b.run) el.dataset.run = String(b.run);
  else delete el.dataset.run;
  const size = b.crowded ? "sm" : "md";
  const best = new Set(b.best);
  for (let i = 0; i < 5; i++) {
    const card = (b.board ?? [])[i];
    const at = el.children[i] ?? null;
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
    else el.append(want);
  }
  while (el.children.length > 5) el.lastElementChild.remove();
  return el;
}

/**
 * The centre as slices, in order: a bet changes the pot, not the board, so the board's cards are neither
 * built nor touched. ctx: {host, toggleUsed} (the used-cards grid's 보기/닫기).
 */
export function centerSlices(c, ctx) {
  // between hands (rebuy) the last pot is already paid out: no pot to show
  const between = c.phase === "rebuy";
  const pots = between ? [] : c.pots ?? [];
  const total = between ? null : c.phase === "handEnd" ? pots.reduce((a, p) => a + p.amount, 0) : c.potTotal ?? 0;
  const out = [
    // (no "판돈 0" between hands: nothing is in the middle)
    slice("pot", total, (amount) => (amount == null ? null
      : h("div", { class: "pot-main", "aria-label": tx("center.2", [amount]), "data-testid": "pot" }, h("small", {}, tx("center.3")), fmt(amount)))),
    slice("sidePots", pots.length > 1 ? pots.map((p) => p.amount) : null, (amounts) => (amounts
      ? h("div", { class: "side-pots" }, amounts.map((amount, i) =>
        h("span", { class: "side-pot", "data-pot": i }, `${i === 0 ? tx("center.4") : tx("center.5") + i} ${fmt(amount)}`)))
      : null)),
  ];
  if (c.mode === "holdem" || c.mode === "omaha") {
    const winners = new Set((c.awards ?? []).map((a) => a.to));
    const twice = (c.board2 ?? []).length > 0;
    const best = [new Set(), new Set()];
    if (c.phase === "handEnd") {
      for (const e of c.showdown ?? []) {
        if (!winners.has(e.id)) continue;
        if (!twice) for (const id of wonCards(c.awards, e)) best[0].add(id);
        else for (const k of [0, 1]) for (const id of boardBest(c.awards, e, k)) best[k].add(id);
      }
    }
    const crowded = c.seatCount >= 8 && c.narrow;
    // run it twice: both boards, numbered, one under the other (the second shares the cards dealt before it)
    out.push(slice("board", { board: c.board, best: [...best[0]], crowded, run: twice ? 1 : 0,
      label: twice ? tx("center.6") : null }, board));
    out.push(slice("board2", twice ? { board: c.board2, best: [...best[1]], crowded, run: 2, label: tx("center.7") } : null,
      (b, had) => (b ? board(b, had) : null)));
  }
  out.push(slice("carry", c.carryOver ?? "", (carry) => (carry ? h("div", { class: "carry" }, tx("center.8", [fmt(carry)])) : null)));
  if (c.mode === "indian") {
    out.push(slice("used", { used: c.indianUsed, left: c.indianDeckLeft, deck: c.options?.indianDeck, open: c.usedOpen },
      (u) => usedPanel(u, ctx)));
  }
  return out;
}

function usedPanel(u, ctx) {
  const d20 = (u.deck ?? "d20") === "d20";
  const used = new Set((u.used ?? []).map((c) => `${c.rank}${c.suit}`));
  const ranks = d20 ? [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] : [14, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13];
  const suits = d20 ? ["S", "H"] : ["S", "D", "H", "C"];
  const rt = (r) => ({ 1: "A", 14: "A", 11: "J", 12: "Q", 13: "K" }[r] ?? String(r));
  const sym = { S: "♠", D: "◆", H: "♥", C: "♣" };
  const table = h("table", { "aria-label": tx("center.9") },
    h("tr", {}, h("th", {}, ""), ranks.map((r) => h("th", {}, rt(r)))),
    suits.map((s) => h("tr", {}, h("th", { class: "suit-" + s }, sym[s]),
      ranks.map((r) => h("td", { class: used.has(`${r}${s}`) ? "used" : "", "aria-label": used.has(`${r}${s}`) ? tx("center.10") : "" })))));
  const title = tx("center.11", [used.size, u.left != null ? tx("center.13", [u.left]) : ""]);
  // shown only when the grid has no room and is folded (placeCenter): opens it over the table
  const toggle = h("button", { type: "button", class: "used-toggle", "aria-expanded": String(!!u.open) },
    u.open ? tx("me.13") : tx("center.12"));
  const panel = whole(h("div", { class: "used-panel" + (u.open ? " open" : ""), "data-testid": "used-panel" },
    h("div", { class: "used-title" }, title, toggle), table));
  listen(toggle, "click", () => {
    const open = ctx.toggleUsed();
    panel.classList.toggle("open", open);
    toggle.textContent = open ? tx("me.13") : tx("center.12");
    toggle.setAttribute("aria-expanded", String(open));
    liftUsedPanel(ctx.host);
  });
  return panel;
}

/** The folded grid, opened by the player: over everything else, and inside the table area. */
export function liftUsedPanel(host) {
  const center = host.querySelector(".table-main > .center");
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

/** What a centre's parts are remembered by (its content, the table's size, the used-cards grid's state). */
export function centreKey(t, p, panel) {
  return `${t.centerKeyShown}|${p.W}|${p.H}|${panel?.className}|${panel?.style.getPropertyValue("--cell")}`;
}

/**
 * The centre's parts (pot, side pots, board, grid) as boxes in the table's coordinates when known without a
 * layout: at the usual place as layoutMobile measured it, or where placeCenter moved it; else null.
 */
export function knownParts(t, main) {
  const p = t.placed;
  const center = main.querySelector(":scope > .center");
  if (!p || !center) return p ? [] : null;
  const panel = center.querySelector(".used-panel");
  const key = centreKey(t, p, panel);
  if (!center.hasAttribute("style")) return t.softCache?.key === key ? t.softCache.soft : null;
  const m = t.centerMoved;
  return m && m.key === key && m.gen === p.gen && m.style === center.getAttribute("style") ? m.parts : null;
}

/**
 * The centre (pot, side pots, board, Indian used-cards grid) goes where it hides no seat (nor its marks, bet
 * chip or timer): the free band between the side seats nearest to its usual place, with the grid's cells
 * shrunk to the band's width (not below `minCell` px) if need be. With no such band the grid folds into a
 * count the player can open. A wide screen's arc is held to it too (an Indian heads-up's tall forehead
 * seat reached down over the pot). Returns "none" (no centre), "usual", "moved", "folded" (Indian) or
 * "blocked" (no free band: the usual place).
 */
export function placeCenter(t, minCell = 12) {
  const main = t.host.querySelector(".table-main");
  const center = main?.querySelector(":scope > .center");
  if (!center) return "none";
  const panel = center.querySelector(".used-panel");
  center.removeAttribute("style");
  panel?.style.removeProperty("--cell");
  panel?.classList.remove("folded");
  // the usual place is free: known from what layoutMobile placed and the centre it measured, no layout
  const p = t.placed;
  t.centerMoved = null;
  const softOk = p && t.softCache?.key === centreKey(t, p, panel);
  if (softOk) {
    const soft = t.softCache.soft;
    const clear = !soft.some((b) => b.t < 0 || b.b > p.H - p.band - 4 || p.boxes.some((o) => overlap(b, o)));
    if (clear) return "usual";
  }
  // not free: where to move it is worked out from the placed seats too (no layout), when they are known
  const known = softOk && p.bare && p.gen === t.seatGen ? p : null;
  const W = known ? known.W : main.clientWidth;
  const H = known ? known.H : main.clientHeight;
  if (!W || !H) return "none";
  let origin = null; // read when first needed (not at all when the seats are known)
  const rel = (e) => {
    origin ??= main.getBoundingClientRect();
    const r = e.getBoundingClientRect();
    return { l: r.left - origin.left, r: r.right - origin.left, t: r.top - origin.top, b: r.bottom - origin.top };
  };
  const union = (list) => enclose(list.map(rel));
  const seatEls = known ? [] : [...main.querySelectorAll(".seat")];
  // each seat with its marks, bet chip and timer; failing that (no room), the seat boxes alone
  const full = known ? known.boxes
    : seatEls.map((s) => union([s, ...s.querySelectorAll(":scope > .bet-chip, :scope > .timer-ring, :scope > .marks")]));
  const bare = known ? known.bare : seatEls.map((s) => union([s, ...s.querySelectorAll(":scope > .marks")]));
  let seats = full;
  const hits = (box) => seats.some((o) => Math.min(box.r, o.r) - Math.max(box.l, o.l) > 0.5
    && Math.min(box.b, o.b) - Math.max(box.t, o.t) > 0.5);
  const bottom = H - (known ? known.band : phaseBand(main)) - 4; // above the phase line
  const parts = () => [...center.children].map(rel).filter((b) => b.r > b.l);
  // (known: the quick check above already found the usual place taken)
  if (!known && !parts().some((b) => hits(b) || b.t < 0 || b.b > bottom)) return "usual";
  const GAP = 4;
  // a phone's band between its side columns; a wide screen's every gap between seats (freeGaps)
  const corridors = (y, h) => (W >= 600 ? freeGaps(seats, W, y, h, GAP) : [freeCorridor(seats, W, y, h, GAP)]);
  const prefer = H * 0.58;
  Object.assign(center.style, { left: "0px", top: "0px", transform: "none" });
  // the centre's size (and its parts' boxes inside it) depends on its content, the grid's state and the
  // page's font classes: measured once per those, so a later render (or a taller try of the table) moves it
  // without a layout
  if (t.centerSizes?.key !== `${t.centerKeyShown}|${W}|${document.body.className}`) {
    t.centerSizes = { key: `${t.centerKeyShown}|${W}|${document.body.className}`, byState: new Map() };
  }
  const fit = () => {
    const state = `${panel?.className}|${panel?.style.getPropertyValue("--cell")}`;
    let dim = t.centerSizes.byState.get(state);
    if (!dim) {
      center.style.width = "max-content";
      const w = Math.ceil(Math.max(...[...center.children].map((e) => e.getBoundingClientRect().width)));
      center.style.width = `${w}px`;
      const o = center.getBoundingClientRect();
      const inner = [...center.children].map((e) => e.getBoundingClientRect()).filter((r) => r.width)
        .map((r) => ({ l: r.left - o.left, r: r.right - o.left, t: r.top - o.top, b: r.bottom - o.top }));
      dim = { w, h: Math.ceil(o.height), inner };
      t.centerSizes.byState.set(state, dim);
    } else center.style.width = `${dim.w}px`;
    const { w, h } = dim;
    // the free spot nearest to the usual one; off the middle line counts double
    let best = null;
    for (let y = 4; y + h <= bottom; y += 2) {
      for (const c of corridors(y, h)) {
        if (!c || c.r - c.l < w) continue;
        const x = Math.max(c.l, Math.min(c.r - w, W / 2 - w / 2));
        const cost = Math.abs(y + h / 2 - prefer) + 2 * Math.abs(x + w / 2 - W / 2);
        if (!best || cost < best.cost) best = { x, y, cost };
      }
    }
    if (!best) return false;
    center.style.left = `${best.x}px`;
    center.style.top = `${best.y}px`;
    if (p) {
      t.centerMoved = { key: centreKey(t, p, panel), gen: p.gen, style: center.getAttribute("style"),
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
  liftUsedPanel(t.host);
  return "folded";
}
