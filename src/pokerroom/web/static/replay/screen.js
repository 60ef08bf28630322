// The replayer's screen: a full-screen dialog holding the live table's own renderer (TableUI, fed one step's
// view at a time: the same regions draw a replay as a game), the step controls (처음 · 이전 · 재생 · 다음 and a
// step slider), the step's caption, and the hand's share link and PHH download. Nobody acts in a replay: the
// table's action bar is hidden (replay.css) and its callbacks do nothing.

import { tx } from "../i18n.js";
import { TableUI } from "../table.js";
import { h, useSheet } from "../dom.js";
import { copyText, toast } from "../dialogs.js";
import { caption, stepViews } from "./steps.js";
import { follow } from "./camera.js";

const PLAY_MS = 1400; // a step every 1.4 s: time to read what happened, a hand of 20 steps in half a minute

let dlg = null; // the dialog and its parts, made once
let cur = null; // the replay on screen: {views, steps, i, table, ctx, nm, timer, replay, opts}

function chrome() {
  if (dlg) return dlg;
  useSheet("replay");
  const title = h("h2", { id: "replay-title" });
  const sub = h("small", { class: "replay-sub" });
  const close = h("button", { class: "btn small ghost", type: "button", "data-testid": "replay-close" }, tx("me.13"));
  const host = h("div", { class: "table-host replay-table" });
  const note = h("p", { class: "replay-note", role: "status" });
  const text = h("div", { class: "replay-caption", role: "status", "aria-live": "polite", "data-testid": "replay-caption" });
  const count = h("span", { class: "replay-count", "data-testid": "replay-count" });
  const slider = h("input", { type: "range", min: 0, max: 0, value: 0, step: 1, class: "replay-slider", "aria-label": tx("replay_screen.1"), "data-testid": "replay-slider" });
  const button = (label, aria, testid, fn) => h("button", { class: "btn small", type: "button", "aria-label": aria, "data-testid": testid, onclick: fn }, label);
  const first = button(tx("replay_screen.2"), tx("app.23"), "replay-first", () => go(0));
  const prev = button(tx("replay_screen.3"), tx("replay_screen.4"), "replay-prev", () => go((cur?.i ?? 0) - 1));
  const play = button(tx("replay_screen.5"), tx("replay_screen.5"), "replay-play", () => toggle());
  const next = button(tx("replay_screen.6"), tx("replay_screen.7"), "replay-next", () => go((cur?.i ?? 0) + 1));
  const link = button(tx("replay_screen.8"), tx("replay_screen.9"), "replay-link", () => copyLink());
  const phh = button("PHH", tx("replay_screen.10"), "replay-phh", () => savePhh());
  slider.addEventListener("input", () => go(Number(slider.value)));
  // the shown hands' equity: open where there is room (a short phone folds it into one line)
  const odds = h("details", { class: "replay-equity", "data-testid": "replay-equity", hidden: true,
    open: window.innerHeight > 700 });
  const bar = h("div", { class: "replay-bar" },
    h("div", { class: "replay-line" }, text, count), odds,
    h("div", { class: "replay-controls" }, first, prev, play, next, slider));
  const el = h("dialog", { id: "dlg-replay", class: "replay", "aria-labelledby": "replay-title", "data-testid": "replay" },
    h("div", { class: "replay-head" }, h("div", { class: "replay-titles" }, title, sub), link, phh, close), host, note, bar);
  close.addEventListener("click", () => el.close());
  el.addEventListener("close", () => stop());
  // ← → step through (on the page: the focused control may have been one the dialog since hid)
  document.addEventListener("keydown", (ev) => {
    if (!cur || !el.open || ev.target === slider) return;
    if (ev.key === "ArrowRight") { ev.preventDefault(); go(cur.i + 1); }
    if (ev.key === "ArrowLeft") { ev.preventDefault(); go(cur.i - 1); }
  });
  document.body.append(el);
  dlg = { el, title, sub, host, note, text, count, odds, slider, first, prev, play, next, link, phh, bar, onClose: null };
  return dlg;
}

function stop() {
  clearInterval(cur?.timer);
  cur?.table?.destroy();
  cur = null;
  dlg.host.replaceChildren();
  const done = dlg.onClose;
  dlg.onClose = null;
  done?.();
}

/** The dialog on screen (already open: kept open, its content replaced; a close event fires later and would
 * take the new content with it). */
function open(titleText, subText, onClose) {
  const d = chrome();
  d.title.textContent = titleText;
  d.sub.textContent = subText ?? "";
  d.onClose = onClose ?? null;
  if (!d.el.open) d.el.showModal();
  return d;
}

/** The replayer, open, saying it is loading (or `text`: why it cannot show the hand). */
export function showNote(titleText, text, onClose) {
  const d = open(titleText, "", onClose);
  clearInterval(cur?.timer);
  cur?.table?.destroy();
  cur = null;
  d.host.replaceChildren();
  d.note.textContent = text;
  d.bar.hidden = d.link.hidden = d.phh.hidden = true;
}

/** Is the replayer on screen (waiting for a hand or showing one)? */
export function isOpen() { return !!dlg?.el.open; }

export function close() { if (dlg?.el.open) dlg.el.close(); }

/**
 * Show a replay: `opts` {title, sub, names: {id: nickname}, role ("player" | "spectator"), playerId, link (the
 * hand's share link, or null), fileName (of the PHH download), imported (every card shown), onClose}.
 */
export function showReplay(replay, opts) {
  const d = open(opts.title, opts.sub, opts.onClose);
  clearInterval(cur?.timer);
  cur?.table?.destroy();
  d.host.replaceChildren();
  d.note.textContent = "";
  d.bar.hidden = d.phh.hidden = false;
  d.el.classList.toggle("imported", !!opts.imported);
  const table = new TableUI(d.host, {
    onAction: () => {}, confirm: async () => false, onTurn: () => {}, toast: () => {},
    seatBar: () => null, sitOutButton: () => null, openHistory: () => {}, disableTips: () => {}, onTalk: () => {},
  });
  const names = opts.names ?? {};
  const ctx = { names, role: opts.role, playerId: opts.playerId, settings: { tips: false, hintsHighlight: false },
    busy: false, seat: null, social: {} };
  const views = stepViews(replay);
  cur = { views, steps: replay.steps ?? [], i: 0, table, ctx, nm: (id) => names[id] ?? id, timer: null, replay, opts };
  d.slider.max = String(Math.max(0, views.length - 1));
  d.link.hidden = !opts.link;
  d.phh.setAttribute("aria-disabled", replay.phh ? "false" : "true");
  d.phh.title = replay.phh ? "" : replay.phhWhy ?? "";
  go(0);
}

function go(i) {
  if (!cur || !cur.views.length) return;
  const n = cur.views.length;
  const at = Math.max(0, Math.min(n - 1, i));
  if (at !== i && cur.timer) toggle(); // the end: playing stops there
  cur.i = at;
  const view = cur.views[at];
  cur.table.update(view, cur.ctx);
  const d = dlg;
  // a short phone's table scrolls to what the step is about, once the table has placed its seats
  const step = cur.steps[at];
  const me = cur.ctx.role === "player" ? view.me?.id ?? null : null;
  requestAnimationFrame(() => { if (cur?.i === at) follow(d.host, step, me); });
  d.text.textContent = caption(cur.steps[at], view, cur.nm);
  d.count.textContent = `${view.streetName ? view.streetName + " · " : ""}${at + 1} / ${n}`;
  d.slider.value = String(at);
  d.slider.setAttribute("aria-valuetext", tx("replay_screen.11", [at + 1, d.text.textContent]));
  const shownFrom = cur.steps.findIndex((s) => s.type === "showdown");
  const equity = cur.replay.equity && shownFrom >= 0 && at >= shownFrom ? cur.replay.equity : null;
  d.odds.hidden = !equity;
  if (equity) d.odds.replaceChildren(...equityLines(equity, cur.nm));
  d.first.disabled = d.prev.disabled = at === 0;
  d.next.disabled = at === n - 1;
}

/**
 * The shown hands' equity on each street (the server's, from the showdown's cards: shown from the showdown
 * on): "프리플랍 → 플랍 → 턴 → 리버", then one line per hand; "≈" marks a sampled street, the rest are exact.
 */
function equityLines(equity, nm) {
  const pct = (x, exact) => `${exact ? "" : "≈"}${Math.round(x * 100)}%`;
  return [
    h("summary", {}, tx("replay_screen.12", [equity.streets.map((s) => s.street).join(" → ")])),
    ...equity.players.map((id, i) => h("div", {}, h("b", {}, nm(id)), " ",
      equity.streets.map((s) => pct(s.equity[i], s.exact)).join(" → "))),
  ];
}

function toggle() {
  if (!cur) return;
  const d = dlg;
  if (cur.timer) {
    clearInterval(cur.timer);
    cur.timer = null;
  } else {
    if (cur.i >= cur.views.length - 1) go(0); // from the end: play again from the deal
    cur.timer = setInterval(() => go(cur.i + 1), PLAY_MS);
  }
  d.play.textContent = cur.timer ? tx("replay_screen.13") : tx("replay_screen.5");
  d.play.setAttribute("aria-label", cur.timer ? tx("replay_screen.13") : tx("replay_screen.5"));
}

async function copyLink() {
  if (!cur?.opts.link) return;
  if (await copyText(cur.opts.link)) toast(tx("replay_screen.14"), "info");
  else toast(cur.opts.link, "info");
}

function savePhh() {
  const text = cur?.replay.phh;
  if (!text) { toast(cur?.replay.phhWhy ?? tx("replay_screen.15"), "info"); return; }
  const url = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
  const a = h("a", { href: url, download: cur.opts.fileName ?? "hand.phh", hidden: true });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 5000);
}
