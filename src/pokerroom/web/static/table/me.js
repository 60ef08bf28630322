// My area under the table: my line (marks, name, stack, bet, badges, the reaction button, my clock), my
// hand's name, my cards, my controls, the app's seat bar, a screen-reader line and the first-hand tips; for a
// spectator, what they watch and the seat bar. ctx: the table's handlers (table.js).

import { tx } from "../i18n.js";
import { fmt } from "../labels.js";
import { whole } from "../morph.js";
import { h } from "../dom.js";
import { reactionPalette, showBubble } from "../talk.js";
import { controlsSlice } from "./controls.js";
import { handNameText, myCardsInputs, renderMyCards } from "./mycards.js";
import { badgeInputs, badges, betInputs, markInputs, marks } from "./seats.js";
import { slice } from "./slices.js";
import { isBet, saveTipsSeen } from "./state.js";
import { ring } from "./timer.js";
import { bankInputs, bankPill } from "./bank.js";
import { isMyTurn, mySeatId, nameOf, waitsFor } from "./view.js";

/** My area as slices, in display order (a slice with null inputs is built on every render). */
export function meSlices(t, ctx) {
  const v = t.view;
  const me = v.me;
  if (!me) {
    const seatBar = ctx.seatBar(); // 자리 요청 (app.js): the server decides, the host approves
    const spectator = t.role === "spectator";
    return [
      slice("watch", null, () => h("div", { class: "waiting-line" }, spectator ? tx("me.1") : tx("me.2"))),
      slice("seatBar", null, () => seatBar),
      // (the 😀 button opens reactions, chat or both: whichever the host allows spectators)
      slice("react", null, () => (spectator && (t.social.spectatorReactions || t.social.spectatorChat) ? h("div", { class: "me-line" }, h("span", { class: "spacer" }), reactButton(!!t.palette, ctx)) : null)),
    ];
  }
  const seat = (v.seats ?? []).find((s) => s.id === me.id) ?? {};
  const line = { marks: markInputs(seat, v.betting), name: nameOf(t.names, me.id), stack: seat.stack, bank: bankInputs(seat),
    ...betInputs(seat, v), badges: badgeInputs(seat, v, isBet(t.bets, seat)),
    waits: waitsFor(v, me.id), palette: !!t.palette };
  const hn = handNameText(v);
  const sr = isMyTurn(v) ? tx("me.3") : "";
  return [
    slice("line", line, (l) => myLine(l, ctx)),
    slice("handName", hn, (text) => h("div", { class: "hand-name", "data-testid": "hand-name" }, text)),
    slice("cards", myCardsInputs(t, seat), (m, had) => renderMyCards(m, had, ctx)),
    controlsSlice(t, seat, ctx),
    slice("seatBar", null, () => ctx.seatBar()), // sitting out: 복귀 (app.js)
    slice("sr", sr, (text) => h("div", { class: "sr-only", role: "status", "aria-live": "polite" }, text)),
    slice("tip", null, () => renderTip(t, ctx)),
  ];
}

/**
 * My line: who I am and what I have on the left; my badges, 😀 and my turn's ring on the right, together
 * (`.me-right`). Where both do not fit (English at 320 px: "First", "1,000 chips", "Bet 1,000", two badges)
 * the right part goes under the left, whole, instead of past the screen's edge with my ring.
 */
function myLine(l, ctx) {
  const right = h("span", { class: "me-right" }, h("span", { class: "badges" }, badges(l.badges)), reactButton(l.palette, ctx));
  if (l.waits) {
    const r = ring();
    r.style.position = "static";
    right.append(r);
  }
  return h("div", { class: "me-line" },
    h("span", { class: "marks-inline" }, marks(l.marks)),
    h("span", { class: "name" }, l.name),
    h("span", { class: "stack", "data-testid": "my-stack" }, fmt(l.stack) + tx("controls.22")),
    bankPill(l.bank),
    l.bet ? h("span", { class: "mybet" }, tx("me.4", [fmt(l.bet)])) : null,
    l.ante ? h("span", { class: "mybet ante" }, tx("seats.21", [fmt(l.ante)])) : null,
    right);
}

// ------------------------------------------------------------------ table talk (reactions, chat)
function reactButton(open, ctx) {
  return h("button", { class: "react-open", type: "button", "data-testid": "react-open", "aria-label": tx("talk.7"),
    "aria-expanded": open ? "true" : "false", onclick: () => ctx.togglePalette() }, "😀");
}

/** The palette lives outside the re-rendered table, so a view arriving while I type does not wipe it. */
export function openPalette(t, onTalk) {
  closePalette(t);
  const spectator = !t.view?.me && t.role === "spectator";
  t.palette = reactionPalette({
    chat: spectator ? !!t.social.spectatorChat : !!t.social.chat && !!t.view?.me,
    reactions: !spectator || !!t.social.spectatorReactions,
    send: (m) => onTalk?.(m),
    close: () => closePalette(t),
  });
  document.body.append(t.palette);
  t.palette.querySelector("button")?.focus();
}

export function closePalette(t) {
  t.palette?.remove();
  t.palette = null;
}

/**
 * A reaction or chat line of `from` (a player id; null: a spectator) over their seat for `ms`; a spectator's
 * goes to the top of the table, tagged "관전자" so it is never read as a player's.
 */
export function bubble(t, from, text, ms) {
  let anchor = null;
  if (from && from === mySeatId(t.view)) anchor = t.host.querySelector("[data-testid=me-area]");
  else if (from) anchor = t.host.querySelector(`.seat[data-seat-id="${CSS.escape(from)}"]`);
  return showBubble(anchor, text, ms, from, from ? null : tx("me.15"));
}

// ------------------------------------------------------------------ first-hand tips
function renderTip(t, ctx) {
  if (t.settings.tips === false) return null;
  const v = t.view;
  if (!v.me || (v.handNo ?? 0) > 1) return null;
  let key = null;
  let text = null;
  // a tip for a decision that is mine to make (a folded seat makes no choice, draw or declaration)
  const mine = (type) => (v.me.legalActions ?? []).some((a) => a.type === type);
  if (v.phase === "choice" && mine("choose") && !v.me.chosen) { key = "choice"; text = tx("me.5"); }
  else if (v.phase === "draw" && mine("draw") && v.me.drawPending == null) { key = "draw"; text = v.mode === "badugi" ? tx("me.6") : tx("me.7"); }
  else if (v.phase === "declare" && mine("declare")) { key = "declare"; text = tx("me.8"); }
  else if (v.phase === "betting" && isMyTurn(v)) {
    if (v.betting === "korean") { key = "korean"; text = tx("me.9"); }
    else { key = "nl"; text = tx("me.10"); }
  }
  if (!key || t.tipsSeen.has(key)) return null;
  // short phones show one line until asked (the table keeps its room); the text otherwise
  const tip = whole(h("div", { class: "tip" + (t.tipOpen ? " open" : ""), role: "note", "data-testid": "tip" },
    h("div", { class: "tip-text" }, text),
    h("div", { class: "row" },
      h("button", { class: "link tip-toggle", "aria-expanded": String(!!t.tipOpen), onclick: () => { t.tipOpen = !t.tipOpen; ctx.redraw(); } },
        t.tipOpen ? tx("me.11") : tx("me.12")),
      h("button", { class: "link", onclick: () => { t.tipsSeen.add(key); saveTipsSeen(t.tipsSeen); tip.remove(); ctx.redraw(); } }, tx("me.13")),
      h("button", { class: "link", onclick: () => { ctx.disableTips(); t.settings = { ...t.settings, tips: false }; tip.remove(); ctx.redraw(); } }, tx("me.14")))));
  return tip;
}
