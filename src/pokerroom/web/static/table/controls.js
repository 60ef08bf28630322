// My controls: the betting buttons (Korean or no-limit with its raise panel), pre-actions, and the buttons of
// the other phases (초이스, 교환, 선언, 다음 판, 리바이), each drawn from controlInputs alone. ctx: {send,
// confirm, redraw, ui (my drafts, written by the handlers), onPreAction, sitOutButton, toast}.

import { tx } from "../i18n.js";
import { cardShort } from "../cards.js";
import { ACTION_LABEL, KOREAN_ORDER, SIDE_LABEL, fmt } from "../labels.js";
import { listen, whole } from "../morph.js";
import { h } from "../dom.js";
import { slice, syncSlices } from "./slices.js";
import { isHidden, nameOf } from "./view.js";

/** Everything my controls read: the memo key of the box (or of its betting slices) is this, serialised. */
export function controlInputs(t, seat) {
  const v = t.view;
  const ui = t.ui;
  return { me: v.me, seat, phase: v.phase, betting: v.betting, toAct: v.toAct, toActName: nameOf(t.names, v.toAct),
    noBet: (v.currentBet ?? 0) === 0, pot: ui.raiseOpen ? { currentBet: v.currentBet, potTotal: v.potTotal } : null,
    baseUnit: v.baseUnit, houseRules: v.houseRules, options: v.options, streetName: v.streetName, mode: v.mode,
    seatCount: v.seats?.length, busy: t.busy, lockGen: t.lockGen, raiseOpen: ui.raiseOpen, raiseTo: ui.raiseTo,
    discard: ui.discard, open: ui.open, drawSel: [...(ui.drawSel ?? [])], preAction: t.seatPart?.preAction ?? null,
    highlight: t.settings.hintsHighlight };
}

const legalIn = (me, type) => (me?.legalActions ?? []).find((a) => a.type === type) ?? null;

/** A hint I may be shown for `type` (only a sendable action: not a legalActions entry with its ranges). */
function hintFor(me, highlight, type) {
  if (highlight === false) return null;
  const hint = me?.hint;
  if (!hint || hint.type !== type) return null;
  if (type === "choose" && (hint.discardId == null || hint.openId == null)) return null;
  if (type === "draw" && (!Array.isArray(hint.cardIds) || hint.max != null)) return null;
  return hint;
}

/** How many cards I may draw with this selection (draw rules may allow more while I keep an ace). */
export function drawLimit(me, sel) {
  const lg = legalIn(me, "draw");
  if (!lg) return 0;
  const hand = me.hole ?? [];
  if (lg.maxKeepingAce != null) {
    const keepsAce = hand.some((c) => !isHidden(c) && (c.rank === 14) && !sel.has(c.id));
    if (keepsAce) return lg.maxKeepingAce;
  }
  return lg.max ?? 5;
}

/**
 * My controls as a slice of my area. While betting, the box stays and its own slices are kept apart (the
 * "누구 차례" line changes with every turn, the buttons only with my options): a turn passing among the
 * others rewrites one line, not my buttons. Otherwise the box is one slice, built when its inputs change
 * (at hand end on every render: the 쉬기 button comes from the app).
 */
export function controlsSlice(t, seat, ctx) {
  const c = controlInputs(t, seat);
  const inner = bettingSlices(c, ctx);
  if (!inner) return slice("controls", c, (k) => { t.ctlBox = null; return renderControls(k, ctx); }, true, c.phase === "handEnd");
  return slice("controls", null, () => {
    if (!t.ctlBox) {
      t.ctlBox = h("div", { class: "controls", "data-testid": "controls" });
      t.ctlBox.sliced = true; // (put in place of the old box, never merged into it)
      t.ctlMemo = new Map();
    }
    syncSlices(t.ctlBox, inner, t.ctlMemo);
    return t.ctlBox;
  });
}

/** The betting branch of renderControls as slices; null when another branch applies. */
function bettingSlices(c, ctx) {
  const { me, seat } = c;
  const lg = me.legalActions ?? [];
  if (c.phase !== "betting" || seat.status === "eliminated" || seat.status === "left") return null;
  if (!me.inHand && seat.status === "playing") return null;
  const pre = c.preAction;
  if (!lg.length && pre?.offered?.length) {
    const text = tx("controls.1", [c.toActName]);
    return [
      slice("line", text, (s) => h("div", { class: "instruction muted-line" }, s)),
      slice("pre", { pre, lockGen: c.lockGen, betting: c.betting }, (p) => preActionButtons(p.pre, p.betting, ctx)),
    ];
  }
  // house rule (docs/rules-extensions.md): say why the other buttons are grey while 491 binds this round
  const restriction = lg.length ? c.houseRules?.restriction ?? "" : "";
  const line = lg.length ? "" : seat.folded ? tx(c.betting === "korean" ? "controls.2" : "controls.64") : seat.allIn ? tx("controls.3") : tx("controls.4", [c.toActName]);
  // folded or all in, I have nothing left to press this hand: the buttons' room says so (spentOver)
  const spent = !lg.length && (seat.folded || seat.allIn) ? line : null;
  const b = { lg, spent, betting: c.betting, hintType: c.highlight === false ? null : me.hint?.type ?? null, busy: c.busy,
    lockGen: c.lockGen, restriction: c.houseRules?.restriction, noBet: c.noBet, raiseOpen: c.raiseOpen, raiseTo: c.raiseTo,
    panel: c.raiseOpen ? { currentBet: c.pot.currentBet, potTotal: c.pot.potTotal, baseUnit: c.baseUnit, stack: seat.stack,
      committedRound: seat.committedRound, toCall: me.toCall, hint: me.hint, seatId: seat.id } : null, highlight: c.highlight };
  let panel = null; // (the raise panel comes with the buttons: one key for both)
  return [
    slice("line", spent ? "" : line, (s) => (s ? h("div", { class: "instruction muted-line" }, s) : null)),
    slice("rule", restriction, (s) => (s ? h("div", { class: "instruction house-rule", "data-testid": "house-rule" }, s) : null)),
    slice("buttons", b, (k) => {
      if (k.betting === "korean") return spentOver(koreanButtons(k, ctx), k.spent);
      const [grid, raise] = nlButtons(k, ctx);
      panel = raise ?? null;
      return spentOver(grid, k.spent);
    }),
    slice("raise", b, () => panel),
  ];
}

/**
 * A folded or all-in seat's buttons (`line`: why nothing can be pressed, else null): the grid keeps its size,
 * so the table does not move when I fold and again at the next deal, but its eight dead buttons are not drawn
 * (style.css .actions.spent) and the line stands in their middle.
 */
function spentOver(grid, line) {
  if (!line) return grid;
  grid.classList.add("spent");
  grid.append(h("div", { class: "instruction muted-line spent-line" }, line));
  return grid;
}

function renderControls(c, ctx) {
  const { me, seat } = c;
  const box = h("div", { class: "controls", "data-testid": "controls" });
  const send = ctx.send;
  if (seat.status === "eliminated" || seat.status === "left") {
    box.append(h("div", { class: "waiting-line" }, seat.status === "left" ? tx("controls.5") : tx("controls.6")));
    return box;
  }
  if (!me.inHand && c.phase !== "rebuy" && seat.status === "playing") {
    // a seat that joined or sat out between hands: no buttons until it is dealt in
    box.append(h("div", { class: "waiting-line", "data-testid": "next-hand-line" },
      seat.sittingOut ? tx("controls.7") : tx("controls.8")));
    return box;
  }
  if (c.phase === "choice") return choiceControls(box, c, ctx);
  if (c.phase === "draw") return drawControls(box, c, ctx);
  if (c.phase === "declare") return declareControls(box, c, ctx);
  if (c.phase === "runTwice") return runTwiceControls(box, c, ctx);
  if (c.phase === "handEnd") {
    // the winner of an uncalled pot may open their cards (one tap); nothing is shown unless they do
    const show = legalIn(me, "show") ? h("button", { class: "act legal", "data-action": "show", disabled: c.busy,
      "aria-label": tx("controls.9"), onclick: () => send({ type: "show" }) }, tx("controls.10")) : null;
    if (legalIn(me, "ready")) {
      const row = [h("button", { class: "act legal big", "data-action": "ready", disabled: c.busy, onclick: () => send({ type: "ready" }) }, tx("labels.17")),
        ctx.sitOutButton(), show].filter(Boolean);
      box.append(h("div", { class: `actions cols-${Math.max(2, row.length)}` }, ...row));
    }
    else {
      box.append(h("div", { class: "waiting-line" }, seat.ready ? tx("controls.11") : tx("controls.12")));
      if (show) box.append(h("div", { class: "actions cols-2" }, show));
    }
    return box;
  }
  if (c.phase === "rebuy") {
    if (legalIn(me, "rebuy")) {
      box.append(h("div", { class: "instruction" }, tx("controls.13", [fmt(c.options?.startingChips), me.rebuysLeft != null ? tx("controls.62", [me.rebuysLeft]) : ""])));
      box.append(h("div", { class: "actions cols-2" },
        h("button", { class: "act legal", "data-action": "rebuy-no", onclick: () => send({ type: "rebuy", accept: false }) }, tx("controls.14")),
        h("button", { class: "act legal raise", "data-action": "rebuy-yes", onclick: () => send({ type: "rebuy", accept: true }) }, tx("controls.15"))));
    } else box.append(h("div", { class: "waiting-line" }, tx("controls.16")));
    return box;
  }
  box.append(h("div", { class: "waiting-line" }, ""));
  return box;
}

// the pre-actions by their kind (the server's `label` is its Korean word for the same kind); a no-limit or
// pot-limit table's fold button says 폴드, so its 체크/다이 is 체크/폴드
const PRE_LABEL = { checkFold: "words.pre.checkFold", call: "labels.4", callAny: "words.pre.callAny", pingCall: "words.pre.pingCall" };
const PRE_LABEL_NL = { ...PRE_LABEL, checkFold: "words.pre.checkFoldNl" };

/** 체크/다이 · 콜 · 아무거나 콜 · 삥/콜 toggles for my next turn (kept by the server, see protocol §2.6). */
function preActionButtons(pre, betting, ctx) {
  const labels = betting === "korean" ? PRE_LABEL : PRE_LABEL_NL;
  const chosen = pre.chosen?.kind ?? null;
  const row = h("div", { class: `actions pre cols-${Math.min(4, pre.offered.length)}`, role: "group", "aria-label": tx("controls.17"), "data-testid": "pre-actions" });
  for (const o of pre.offered) {
    const on = chosen === o.kind;
    const word = labels[o.kind] ? tx(labels[o.kind]) : o.label;
    const label = o.kind === "call" && o.amount ? `${word} ${fmt(o.amount)}` : word;
    row.append(h("button", {
      class: `act pre${on ? " on" : ""}`, type: "button", "data-preaction": o.kind, "aria-pressed": on ? "true" : "false",
      onclick: () => ctx.onPreAction(on ? null : o.kind),
    }, h("span", { class: "tick", "aria-hidden": "true" }, on ? "✓" : ""), label));
  }
  return row;
}

/** Folding when a check is free asks first (a question withdrawn with its decision answers no: table.js). */
async function confirmFold(lg, action, ctx) {
  const canCheck = lg.some((a) => a.type === "k.check" || a.type === "nl.check");
  if (canCheck) {
    const ok = await ctx.confirm(tx("controls.18"));
    if (!ok) return;
  }
  ctx.send(action);
}

function koreanButtons(b, ctx) {
  const lg = b.lg;
  const grid = h("div", { class: "actions korean", role: "group", "aria-label": tx("labels.22") });
  for (const type of KOREAN_ORDER) {
    const a = lg.find((x) => x.type === type);
    const label = ACTION_LABEL[type];
    const amount = a && a.amount > 0 ? `(${a.allIn ? tx("controls.19") : ""}+${fmt(a.amount)}${a.capped ? tx("controls.20") : ""})` : a?.allIn ? tx("controls.21") : "";
    const ruled = !a && lg.length ? b.restriction : null;
    const cls = ["act"];
    if (a) cls.push("legal");
    if (type === "k.die") cls.push("fold");
    if (["k.ddadang", "k.quarter", "k.half", "k.full"].includes(type)) cls.push("raise");
    if (a && b.hintType === type) cls.push("hint");
    if (ruled) cls.push("ruled");
    const aria = a ? `${label}${a.amount > 0 ? " " + a.amount + tx("controls.22") : ""}${a.allIn ? tx("controls.23") : ""}${a.capped ? tx("controls.24") : ""}`
      : ruled ? `${label} (${ruled})` : tx("controls.25", [label]);
    const btn = h("button", {
      class: cls.join(" "), "data-action": type, disabled: !a || b.busy, "aria-label": aria,
      title: ruled || (a?.capped ? tx("controls.26") : null),
      onclick: () => (type === "k.die" ? confirmFold(lg, { type }, ctx) : ctx.send({ type })),
    }, label, amount ? h("small", {}, amount) : null);
    grid.append(btn);
  }
  return grid;
}

function nlButtons(b, ctx) {
  const lg = b.lg;
  const fold = lg.find((a) => a.type === "nl.fold");
  const check = lg.find((a) => a.type === "nl.check");
  const call = lg.find((a) => a.type === "nl.call");
  const raise = lg.find((a) => a.type === "nl.raise");
  const allIn = lg.find((a) => a.type === "nl.allIn");
  const mk = (type, label, sub, a, extra, onclick) => {
    const cls = ["act"];
    if (a) cls.push("legal");
    if (extra) cls.push(extra);
    if (a && b.hintType === type) cls.push("hint");
    return h("button", { class: cls.join(" "), "data-action": type, disabled: !a || b.busy, "aria-label": a ? `${label}${sub ? " " + sub : ""}` : tx("controls.25", [label]), onclick }, label, sub ? h("small", {}, sub) : null);
  };
  const grid = h("div", { class: "actions nl", role: "group", "aria-label": tx("labels.22") });
  grid.append(mk("nl.fold", tx("labels.9"), "", fold, "fold", () => confirmFold(lg, { type: "nl.fold" }, ctx)));
  if (call) grid.append(mk("nl.call", tx("labels.4"), `(${call.allIn ? tx("controls.19") : ""}+${fmt(call.amount)})`, call, "", () => ctx.send({ type: "nl.call" })));
  else grid.append(mk("nl.check", tx("labels.2"), "", check, "", () => ctx.send({ type: "nl.check" })));
  const rlabel = raise?.isBet || (!raise && b.noBet) ? tx("controls.27") : tx("labels.10");
  grid.append(mk("nl.raise", rlabel, raise ? `${fmt(raise.min)}~` : "", raise, "raise", () => { ctx.ui.raiseOpen = !ctx.ui.raiseOpen; ctx.redraw(); }));
  grid.append(mk("nl.allIn", tx("labels.11"), allIn ? `(+${fmt(allIn.amount)})` : "", allIn, "raise", () => ctx.send({ type: "nl.allIn" })));
  const out = [grid];
  if (raise && b.raiseOpen) out.push(raisePanel(b, raise, rlabel, ctx));
  return out;
}

function raisePanel(b, raise, rlabel, ctx) {
  const p = b.panel;
  const ui = ctx.ui; // (the amount chosen is my draft: the handlers write it there)
  const unit = Math.max(1, p.baseUnit ?? 1);
  const clamp = (x) => Math.max(raise.min, Math.min(raise.max, Math.round(x)));
  if (b.raiseTo == null) {
    const hint = hintFor({ hint: p.hint }, b.highlight, "nl.raise");
    ui.raiseTo = hint && Number.isInteger(hint.to) ? clamp(hint.to) : raise.min;
  } else ui.raiseTo = b.raiseTo;
  const toCall = p.toCall ?? 0;
  const cur = p.currentBet ?? 0;
  const potAfterCall = (p.potTotal ?? 0) + toCall;
  const amountEl = h("span", { class: "amount", "data-testid": "raise-amount", "aria-live": "polite" });
  const slider = h("input", { type: "range", min: raise.min, max: raise.max, step: 1, value: ui.raiseTo, "aria-label": tx("controls.28") });
  const setTo = (x) => {
    ui.raiseTo = clamp(x);
    slider.value = String(ui.raiseTo);
    // the log's words: "벳 20" into no bet, else the total "레이즈 20까지"
    amountEl.textContent = rlabel === tx("controls.27") ? tx("controls.29", [fmt(ui.raiseTo)]) : tx("controls.30", [rlabel, fmt(ui.raiseTo)]);
  };
  listen(slider, "input", () => {
    // snap to the base unit, but keep min and max reachable
    const raw = Number(slider.value);
    const snapped = raw >= raise.max ? raise.max : raw <= raise.min ? raise.min : raise.min + Math.round((raw - raise.min) / unit) * unit;
    setTo(snapped);
  });
  setTo(ui.raiseTo);
  // the value in the button too: an equal panel then has equal handlers (morph keeps it)
  const q = (label, val, key) => h("button", { "data-quick": key, "data-to": val, onclick: () => setTo(val) }, label);
  // pot limit: the highest raise can be below everything I have — then it is "최대", not "올인"
  const allInTo = b.lg.find((a) => a.type === "nl.allIn")?.to ?? (p.seatId !== undefined ? p.stack + (p.committedRound ?? 0) : raise.max);
  const maxLabel = raise.max >= allInTo ? tx("labels.11") : tx("controls.31");
  return whole(h("div", { class: "raise-panel", "data-testid": "raise-panel" },
    h("div", { class: "quick" },
      q(tx("controls.32"), raise.min, "min"),
      q(tx("controls.33"), cur + Math.floor(potAfterCall / 2), "half"),
      q(tx("controls.34"), cur + potAfterCall, "pot"),
      q(maxLabel, raise.max, "max")),
    h("div", { class: "steps" },
      h("button", { "aria-label": tx("controls.35", [unit]), "data-step": "-", onclick: () => setTo(ui.raiseTo - unit) }, "−"),
      slider,
      h("button", { "aria-label": tx("controls.36", [unit]), "data-step": "+", onclick: () => setTo(ui.raiseTo + unit) }, "+")),
    h("div", { class: "confirm-row" },
      h("button", { class: "act", onclick: () => { ui.raiseOpen = false; ctx.redraw(); } }, tx("controls.37")),
      h("button", { class: "act legal raise", "data-action": "raise-confirm", onclick: () => ctx.send({ type: "nl.raise", to: ui.raiseTo }) }, amountEl, h("small", {}, tx("controls.38"))))));
}

function choiceControls(box, c, ctx) {
  const me = c.me;
  const ui = ctx.ui;
  if (me.chosen || !legalIn(me, "choose")) {
    box.append(h("div", { class: "waiting-line" }, me.chosen ? tx("controls.39") : tx("controls.40")));
    return box;
  }
  const step = c.discard == null ? tx("controls.41") : c.open == null ? tx("controls.42") : tx("controls.43");
  box.append(h("div", { class: "instruction", "data-testid": "instruction" }, step));
  const hint = hintFor(me, c.highlight, "choose");
  if (hint) {
    const cards = me.choice ?? [];
    const name = (id) => cardShort(cards.find((k) => k.id === id));
    box.append(h("div", { class: "hint-line", "data-testid": "hint-line" }, tx("controls.44", [name(hint.discardId), name(hint.openId)])));
  }
  box.append(h("div", { class: "actions cols-2" },
    h("button", { class: "act" + (c.discard != null ? " legal" : ""), "data-action": "undo", disabled: c.discard == null, onclick: () => { if (ui.open != null) ui.open = null; else ui.discard = null; ctx.redraw(); } }, tx("controls.45")),
    h("button", { class: "act raise" + (c.discard != null && c.open != null ? " legal" : "") + (hint && hint.discardId === c.discard && hint.openId === c.open ? " hint" : ""), "data-action": "choose", disabled: c.discard == null || c.open == null || c.busy,
      onclick: () => ctx.send({ type: "choose", discardId: ui.discard, openId: ui.open }) }, tx("controls.38"))));
  return box;
}

function drawControls(box, c, ctx) {
  const me = c.me;
  const ui = ctx.ui;
  const lg = legalIn(me, "draw");
  if (!lg || me.drawPending != null) {
    box.append(h("div", { class: "waiting-line" }, me.drawPending != null ? tx("controls.46", [me.drawPending.length ? me.drawPending.length + tx(me.drawPending.length === 1 ? "controls.65" : "controls.63") : tx("controls.52")]) : tx("controls.47")));
    return box;
  }
  const sel = new Set(c.drawSel);
  const n = sel.size;
  const drawName = c.mode === "badugi" ? c.streetName || tx("labels.15") : tx("labels.15");
  box.append(h("div", { class: "instruction", "data-testid": "instruction" }, tx("controls.48", [drawName, drawLimit(me, sel)])));
  const hint = hintFor(me, c.highlight, "draw");
  if (hint) {
    const ids = hint.cardIds ?? [];
    const cards = (me.hole ?? []).filter((k) => ids.includes(k.id)).map(cardShort);
    box.append(h("div", { class: "hint-line", "data-testid": "hint-line" }, ids.length ? tx("controls.49", [ids.length, cards.join(" ")]) : tx("controls.50")));
  }
  box.append(h("div", { class: "actions cols-2" },
    h("button", { class: "act" + (n ? " legal" : ""), "data-action": "draw-clear", disabled: !n, onclick: () => { ui.drawSel = new Set(); ctx.redraw(); } }, tx("controls.45")),
    h("button", { class: "act legal raise" + (hint && (hint.cardIds ?? []).length === n && (hint.cardIds ?? []).every((id) => sel.has(id)) ? " hint" : ""), "data-action": "draw", disabled: c.busy,
      onclick: () => ctx.send({ type: "draw", cardIds: [...ui.drawSel] }) }, n ? tx("controls.51", [n]) : tx("controls.52"))));
  return box;
}

function declareControls(box, c, ctx) {
  const me = c.me;
  const lg = legalIn(me, "declare");
  if (!lg || me.declare) {
    box.append(h("div", { class: "waiting-line" }, me.declare ? tx("controls.53", [SIDE_LABEL[me.declare]]) : tx("controls.54")));
    return box;
  }
  box.append(h("div", { class: "instruction" }, tx("controls.55")));
  const sides = lg.sides ?? ["high", "low", "swing"];
  const high = me.rankName ?? me.handName;
  // (a low's name never breaks inside: a third of a phone broke English "Q-low" as "Q-" / "low")
  const lowName = () => (me.lowName ? h("span", { class: "whole" }, me.lowName) : tx("controls.56"));
  const sub = {
    high: high ?? "",
    low: me.lowName || high ? lowName() : "",
    swing: high ? [`${high} + `, lowName()] : "",
  };
  const hint = me.hint;
  box.append(h("div", { class: "actions cols-3" }, ["high", "low", "swing"].map((s) =>
    h("button", { class: "act big" + (sides.includes(s) ? " legal" : "") + (hint?.type === "declare" && hint.side === s ? " hint" : ""), "data-action": "declare-" + s, disabled: !sides.includes(s) || c.busy,
      onclick: () => ctx.send({ type: "declare", side: s }) }, SIDE_LABEL[s], sub[s] ? h("span", { class: "sub" }, sub[s]) : null))));
  return box;
}

/** 런 잇 트와이스 (docs/rules-extensions.md): my secret yes/no; the answers are shown once all are in. */
function runTwiceControls(box, c, ctx) {
  if (!legalIn(c.me, "runTwice")) {
    const asked = c.seat.inHand && !c.seat.folded;
    box.append(h("div", { class: "waiting-line", "data-testid": "run-twice-wait" },
      asked ? tx("controls.57") : tx("controls.58")));
    return box;
  }
  box.append(h("div", { class: "instruction", "data-testid": "run-twice-ask" },
    tx("controls.59")));
  box.append(h("div", { class: "actions cols-2" },
    h("button", { class: "act legal big", "data-action": "runtwice-no", disabled: c.busy,
      onclick: () => ctx.send({ type: "runTwice", agree: false }) }, tx("controls.60")),
    h("button", { class: "act legal big raise", "data-action": "runtwice-yes", disabled: c.busy,
      onclick: () => ctx.send({ type: "runTwice", agree: true }) }, tx("controls.61"), h("span", { class: "sub" }, tx("labels.23")))));
  return box;
}

/**
 * Keep every amount under an action button whole (poker.md §9: 18 px or more, so it cannot shrink). An amount
 * too wide for its button breaks at its space ("(올인" over "+12,500)"); where a word is still too wide (a
 * quarter of a 320 px phone holds "(+1,000)" but not "(+12,500)"), the row's amounts lose their brackets, all
 * of them, so they look alike, and a word still too wide sets its letters closer. A number is never cut:
 * "+12,50" over "0)" reads as another number. Measured, so once per new row of buttons and again when the
 * screen's width changes (``data-fit``: the width it was fitted at; reading it forces no layout).
 */
export function fitAmounts(root) {
  const width = String(window.innerWidth);
  const over = (el) => el.scrollWidth > el.clientWidth;
  const wrapOver = (els) => {
    for (const el of els.filter(over)) if (el.textContent.includes(" ")) el.classList.add("wrap");
    return els.filter(over);
  };
  for (const row of root.querySelectorAll(".actions")) {
    if (row.dataset.fit === width) continue;
    row.dataset.fit = width;
    const amounts = [...row.querySelectorAll(".act small")];
    for (const el of amounts) {
      el.dataset.full ??= el.textContent;
      el.textContent = el.dataset.full;
      el.classList.remove("wrap", "tight");
    }
    if (!wrapOver(amounts).length) continue;
    for (const el of amounts) {
      el.classList.remove("wrap");
      el.textContent = el.dataset.full.replace(/^\((.*)\)$/, "$1");
    }
    for (const el of wrapOver(amounts)) el.classList.add("tight");
  }
}
