// My cards under the table: drawn from myCardsInputs alone, each card described first ([key, build]) so only a
// card whose key changed is built; in 초이스 and 교환 the cards are tapped to pick (my drafts in t.ui).

import { tx } from "../i18n.js";
import { cardEl, miniCardEl } from "../cards.js";
import { listen, morphKeyed } from "../morph.js";
import { h } from "../dom.js";
import { drawLimit } from "./controls.js";
import { bestCards, handLabel, isHidden, legal, showdownEntry, wonCards } from "./view.js";

/** Everything renderMyCards reads (its memo key is this, serialised). */
export function myCardsInputs(t, seat) {
  const v = t.view;
  const me = v.me;
  const ui = t.ui;
  return { hole: me.hole, up: me.up, choice: me.choice, forehead: me.forehead, chosen: me.chosen, drawPending: me.drawPending,
    discarded: me.discarded, phase: v.phase, mode: v.mode, discard: ui.discard, open: ui.open, drawSel: [...(ui.drawSel ?? [])],
    highlight: t.settings.hintsHighlight, hint: me.hint, sd: showdownEntry(v, me.id), awards: v.awards, folded: !!seat.folded,
    choose: legal(v, "choose"), draw: legal(v, "draw"), hints: v.options?.hints };
}

/** The ids of my cards to raise at the hand's end: my best five; run twice, those of the boards I won on. */
function myBest(awards, sd) {
  const ids = bestCards(awards, sd).map((c) => c.id);
  if (!sd?.second) return ids;
  const won = wonCards(awards, sd);
  return won.size ? [...won] : ids;
}

/**
 * The text over my cards: my hand at showdown, or what I hold now. A 7 Poker Hi-Lo hand I declared 하이 or 로우
 * for is named by that side alone, as the seats' labels name the others': the other side competed for nothing.
 */
export function handNameText(v) {
  const me = v.me;
  const sd = showdownEntry(v, me.id);
  if (sd && v.phase === "handEnd" && (me.declare === "high" || me.declare === "low")) return handLabel(sd, me.declare);
  if (sd && v.phase === "handEnd" && (sd.lowBest !== undefined || sd.second)) return handLabel(sd); // hi-lo, two boards
  if (sd && v.phase === "handEnd") return `${sd.rankName ?? sd.handName}${sd.lowName ? tx("mycards.1") + sd.lowName : ""}`;
  if (me.handName) return tx("mycards.2", [me.rankName ?? me.handName, me.lowName ? tx("mycards.8") + me.lowName : ""]);
  return "";
}

function badugiClash(cards) {
  const out = new Set();
  const vis = cards.filter((c) => !isHidden(c));
  for (const a of vis) for (const b of vis) {
    if (a.id !== b.id && (a.rank === b.rank || a.suit === b.suit)) out.add(a.id);
  }
  return out;
}

const hintOf = (m, type) => {
  if (m.highlight === false) return null;
  const hint = m.hint;
  if (!hint || hint.type !== type) return null;
  if (type === "choose" && (hint.discardId == null || hint.openId == null)) return null;
  if (type === "draw" && (!Array.isArray(hint.cardIds) || hint.max != null)) return null;
  return hint;
};

/**
 * Tapping my cards (ctx: {ui, redraw, toast, view()}): in 초이스 the first pick is the card to discard, the
 * second the one to show; in 교환 a card is added to or taken from the cards to change, up to the limit.
 */
export function pickChoice(ctx, id) {
  const ui = ctx.ui;
  if (ui.discard === id) ui.discard = null;
  else if (ui.open === id) ui.open = null;
  else if (ui.discard == null) ui.discard = id;
  else ui.open = id;
  ctx.redraw();
}

export function pickDraw(ctx, id) {
  const sel = ctx.ui.drawSel;
  const me = ctx.view().me;
  if (sel.has(id)) sel.delete(id);
  else {
    sel.add(id);
    if (sel.size > drawLimit(me, sel)) {
      sel.delete(id);
      ctx.toast(tx("mycards.3", [drawLimit(me, sel)]));
    }
  }
  ctx.redraw();
}

/**
 * My cards. Given my cards' row on screen (`old`), that row is brought up to date and returned: only a card
 * whose key changed is built (a card's SVG copy) and merged in, so a view that deals me a card, or changes
 * nothing about my cards but the hand's name, does not build and compare all of them.
 */
export function renderMyCards(m, old, ctx) {
  const bestIds = new Set(m.phase === "handEnd" ? myBest(m.awards, m.sd) : []);
  const specs = []; // [key, build]
  let seps = 0;
  const card = (key, c, opts, then = null) => {
    specs.push([key, () => {
      const e = cardEl(c, opts);
      then?.(e);
      return e;
    }]);
  };
  if (m.mode === "indian") {
    if (m.forehead === "?") card("?", null, { size: "lg", question: true });
    else if (m.forehead && typeof m.forehead === "object") card(JSON.stringify(["f", m.forehead]), m.forehead, { size: "lg", extraClass: "forehead" });
    for (const c of m.hole ?? []) card(JSON.stringify(["h", c]), c, { size: "lg" });
  } else {
    const hole = m.phase === "choice" && m.choice ? m.choice : m.hole ?? [];
    const up = m.phase === "choice" && m.choice ? [] : m.up ?? [];
    const choosing = m.phase === "choice" && m.choice && !m.chosen && m.choose;
    const drawing = (m.phase === "draw" ? m.draw : null) && m.drawPending == null;
    // (a badugi hint for choosing draws: at the hand's end the raised best cards are what my hand is)
    const clash = m.mode === "badugi" && m.hints && m.phase !== "handEnd" ? badugiClash(hole) : new Set();
    const chosen = m.chosen ?? null;
    const ch = choosing ? hintOf(m, "choose") : null;
    const dh = drawing ? hintOf(m, "draw") : null;
    const drawSel = new Set(m.drawSel);
    const size = m.phase === "choice" ? "xl" : "lg";
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
          if (m.discard === c.id) cls.push("discard");
          if (m.open === c.id) cls.push("raised");
          pick = "choice";
        } else if (chosen) {
          if (chosen.discardId === c.id) cls.push("discard");
          if (chosen.openId === c.id) cls.push("raised");
        }
        if (drawing) {
          cls.push("selectable");
          pressed = drawSel.has(c.id) ? "true" : "false";
          if (drawSel.has(c.id)) cls.push("raised");
          pick = "draw";
        } else if (m.drawPending && m.drawPending.includes(c.id)) cls.push("raised");
        if (clash.has(c.id)) cls.push("clash");
      }
      card(JSON.stringify(["h", c, size, cls, pressed, pick]), c, { size }, (e) => {
        for (const k of cls) e.classList.add(k);
        if (pick) e.tabIndex = 0;
        if (pressed) e.setAttribute("aria-pressed", pressed);
        if (pick) {
          const go = pick === "choice" ? () => pickChoice(ctx, c.id) : () => pickDraw(ctx, c.id);
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
          e.append(h("span", { class: "open-tag", "aria-hidden": "true" }, tx("mycards.4")));
          e.setAttribute("aria-label", tx("mycards.5", [e.getAttribute("aria-label") ?? ""]));
          if (best) e.classList.add("used-best");
        });
      });
    }
  }
  const n = specs.length - seps;
  // the gap between two cards (style.css), negative (a fan) where the row is wider than its box: worked out by
  // the browser from the row's own width and the cards' own size, so a turned phone, a resized window or the
  // replay's smaller cards fan right without a new view; the row only says how many cards and separators
  const gaps = Math.max(n - 1 - seps, 1); // a separator's neighbours keep their own spacing
  const fan = `${n} ${gaps} ${seps * 10}px`;
  const discarded = m.discarded && m.phase !== "choice";
  // (the row with the discarded card's note under it is built afresh, and merged by syncSlices)
  const wrap = old && !discarded && old.classList.contains("my-cards") ? old
    : h("div", { class: "my-cards", "data-testid": "my-cards", "aria-label": tx("mycards.6") });
  if (wrap.dataset.fan !== fan) {
    wrap.dataset.fan = fan;
    wrap.style.setProperty("--n", String(n));
    wrap.style.setProperty("--gaps", String(gaps));
    wrap.style.setProperty("--seps-w", `${seps * 10}px`);
  }
  morphKeyed(wrap, specs);
  if (m.folded) wrap.style.opacity = "0.55";
  else if (wrap.style.opacity) wrap.style.removeProperty("opacity");
  if (discarded) {
    return h("div", {}, wrap, h("div", { class: "discarded-note" }, tx("mycards.7"), miniCardEl(m.discarded)));
  }
  return wrap;
}
