// A seat's row of cards on a phone: too wide for its seat, the cards overlap (fanned: each keeps the strip
// that shows its rank and suit), wrap onto two lines, or widen the seat. Fitting measures the layout, so a
// seat fanned once is remembered by what decides its fit (fanKey) and replayed without measuring.

import { h } from "../dom.js";

// classes that only colour a seat or a card (style.css: border colour, shadow, opacity, suit colour), not size it
export const COLOUR_ONLY = /(^|\s)(to-act|folded|winner|suit-\S+)(?=\s|$)/g;

/** A card drawn face down (a mini back or a full card back). */
function isBackEl(c) {
  return c.classList.contains("card-back") || c.classList.contains("stacked");
}

/**
 * Seats narrower than their row of cards: let the cards overlap (each still shows its rank and suit).
 * All seats are measured, then changed, then measured again, so the browser lays out twice in all rather than
 * twice per seat (this runs on every render of a phone table). Each card slides over the one before it only as
 * far as that one keeps its strip (a back: a sliver; a face: its rank and suit), so no card passes the row's
 * left edge; a row that still does not fit widens its seat (up to `cells[i]`, the seat's room in its row).
 */
export function fitSeatCards(els, cells = [], memo = null) {
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
