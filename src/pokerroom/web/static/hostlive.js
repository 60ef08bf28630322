// The host runs the table live: the 방장 button and its menu (일시 정지 / 다시 시작, 판돈 바꾸기 from the next hand,
// 방장 넘기기, 게임 끝내기), and the "일시 정지" layer everyone sees over a paused table. It draws from the room's
// `lobby` (`paused`, `hostId`, members) and `view` (`baseUnit`, `nextStakes`, `endAfterHand`) and sends the
// host's messages of docs/protocol.md §2.9; the server checks each again.

import { tx } from "./i18n.js";
import { h, useSheet } from "./dom.js";
import { confirmDialog, toast } from "./dialogs.js";
import { fmt } from "./labels.js";
import { OPTION_DEFS } from "./options.js";

const $ = (sel) => document.querySelector(sel);
const choicesOf = (key) => OPTION_DEFS.find((d) => d.key === key)?.choices ?? [];

let current = null; // the Room the chrome draws for
let shown = ""; // what the pause layer and the button show now (redrawn only when it changes)

/** The 방장 button beside 설정, the menu dialog and the pause layer's stylesheet, made once. */
function chrome() {
  let btn = $("#btn-host");
  if (btn) return btn;
  useSheet("hostlive");
  btn = h("button", { class: "icon-btn", id: "btn-host", type: "button", "aria-label": tx("hostlive.1"), "data-testid": "host-menu", hidden: true }, tx("screens.6"));
  btn.addEventListener("click", () => openMenu());
  $("#btn-rules")?.before(btn);
  const close = h("button", { class: "btn small ghost", type: "button" }, tx("me.13"));
  const dlg = h("dialog", { id: "dlg-host", "aria-labelledby": "dlg-host-title" },
    h("div", { class: "dlg-head" }, h("h2", { id: "dlg-host-title" }, tx("hostlive.1")), close),
    h("div", { class: "dlg-body", id: "host-body" }));
  close.addEventListener("click", () => dlg.close());
  document.body.append(dlg);
  return btn;
}

function send(msg) {
  if (current?.conn?.send(msg)) return true;
  toast(tx("screens.59"));
  return false;
}

const playing = (room) => room?.lobby?.phase === "playing" && !!room.view && room.view.phase !== "finished";

/** The host's own notices, worded to the host ("게임을 마쳤어요", not "방장이 게임을 마쳤어요"): only the host
 * can pause, resume or end, so a host who hears of one did it. */
const OWN_NOTICE = { resumed: "hostlive.27", ending: "hostlive.28", ended: "hostlive.29" };

/**
 * A `notice` as this page tells it (a toast), or null for none: a pause is said by the pause layer itself
 * (who stopped the game, in the same words), and the host is told of their own acts in their own words.
 */
export function noticeText(room, m) {
  if (m.code === "paused" && playing(room)) return null;
  const own = OWN_NOTICE[m.code];
  return own && room?.isHost() ? tx(own) : m.message;
}

/** Called on every render of the room (and with null when it is gone): cheap unless something changed. */
export function update(room) {
  current = room;
  const btn = chrome();
  const host = !!room?.isHost();
  if (btn.hidden === host) btn.hidden = !host;
  const paused = playing(room) ? room.lobby.paused ?? null : null;
  const key = paused ? `${paused.nickname}|${host}` : "";
  if (key !== shown) {
    shown = key;
    drawPause(paused, host);
  }
  if (!host && $("#dlg-host")?.open) $("#dlg-host").close(); // no longer the host (handed on)
}

/** The layer over a paused table: what stopped and who stopped it; the host may go on from here. */
function drawPause(paused, host) {
  document.body.classList.toggle("game-paused", !!paused); // the turn rings stop (hostlive.css)
  $("#pause-layer")?.remove();
  if (!paused) return;
  const who = paused.nickname ? tx("hostlive.2", [paused.nickname]) : tx("hostlive.3");
  document.body.append(h("div", { id: "pause-layer", class: "pause-layer", role: "status", "aria-live": "polite", "data-testid": "pause-banner" },
    h("div", { class: "pause-box" },
      h("div", { class: "pause-title" }, tx("hostlive.4")),
      h("div", { class: "pause-who" }, who),
      h("div", { class: "pause-help" }, tx("hostlive.5")),
      host ? h("button", { class: "btn primary", type: "button", "data-testid": "pause-resume", onclick: () => send({ type: "resume" }) }, tx("hostlive.6")) : null)));
}

function openMenu() {
  drawMenu();
  const dlg = $("#dlg-host");
  if (!dlg.open) dlg.showModal();
}

function section(title, ...body) {
  return h("section", { class: "host-section" }, h("h3", {}, title), ...body);
}

/** The menu's contents for the room as it is now (a game in play gets every section). */
function drawMenu() {
  const room = current;
  if (!room) return;
  const game = playing(room);
  $("#host-body").replaceChildren(...[
    game ? pauseSection(room) : null,
    game ? stakesSection(room) : null,
    transferSection(room),
    game ? endSection(room) : null,
  ].filter(Boolean));
}

function pauseSection(room) {
  const paused = !!room.lobby?.paused;
  return section(tx("hostlive.4"),
    h("p", { class: "help" }, paused ? tx("hostlive.7") : tx("hostlive.8")),
    h("button", { class: `btn ${paused ? "primary" : ""} wide`, type: "button", "data-testid": paused ? "host-resume" : "host-pause", onclick: () => {
      if (send({ type: paused ? "resume" : "pause" })) $("#dlg-host").close();
    } }, paused ? tx("hostlive.6") : tx("hostlive.4")));
}

function picker(name, key, value) {
  return h("div", { class: "seg", role: "radiogroup", "aria-label": name }, choicesOf(key).map(([v, text]) => {
    const input = h("input", { type: "radio", name: `host-${key}`, value: String(v), "data-stake": key });
    input.checked = v === value;
    return h("label", {}, input, h("span", {}, text));
  }));
}

function stakesSection(room) {
  const v = room.view ?? {};
  const next = v.nextStakes ?? null;
  const base = next?.baseUnit ?? v.baseUnit ?? room.lobby?.options?.baseUnit ?? 10;
  const stack = next?.startingChips ?? v.options?.startingChips ?? room.lobby?.options?.startingChips ?? 1000;
  const errors = h("div", { class: "errors", role: "alert", "data-testid": "stakes-errors" });
  const form = h("form", { class: "host-stakes", novalidate: true, "data-testid": "stakes-form" },
    h("div", { class: "field" }, h("span", { class: "label" }, tx("hostlive.9")), picker(tx("hostlive.9"), "baseUnit", base),
      h("span", { class: "help" }, tx("hostlive.10"))),
    h("div", { class: "field" }, h("span", { class: "label" }, tx("hostlive.11")), picker(tx("hostlive.12"), "startingChips", stack)),
    errors,
    h("button", { class: "btn primary wide", type: "submit", "data-testid": "stakes-apply" }, tx("hostlive.13")));
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const pick = (key) => Number(form.querySelector(`input[data-stake=${key}]:checked`)?.value);
    const baseUnit = pick("baseUnit");
    const startingChips = pick("startingChips");
    if (baseUnit * 20 > startingChips) {
      errors.textContent = tx("hostlive.14", [fmt(baseUnit), fmt(baseUnit * 20)]);
      return;
    }
    if (send({ type: "setStakes", baseUnit, startingChips })) $("#dlg-host").close();
  });
  return section(tx("hostlive.15"),
    h("p", { class: "help", "data-testid": "stakes-now" }, next
      ? tx("hostlive.16", [fmt(next.baseUnit), fmt(next.startingChips), fmt(v.baseUnit)])
      : tx("hostlive.17", [fmt(v.baseUnit)])),
    form);
}

function transferSection(room) {
  const others = (room.lobby?.players ?? []).filter((p) => !p.bot && p.id !== room.playerId && p.status !== "left" && p.connected);
  return section(tx("hostlive.18"), others.length
    ? h("ul", { class: "seat-list", "data-testid": "transfer-list" }, others.map((p) => h("li", {}, h("span", {}, p.nickname),
      h("button", { class: "btn small", type: "button", "data-testid": `transfer-${p.id}`, onclick: async () => {
        if (await confirmDialog(tx("hostlive.19", [p.nickname]), tx("hostlive.20"))) {
          if (send({ type: "transferHost", playerId: p.id })) $("#dlg-host").close();
        }
      } }, tx("hostlive.20")))))
    : h("p", { class: "help" }, tx("hostlive.21")));
}

function endSection(room) {
  const ending = !!room.view?.endAfterHand;
  return section(tx("hostlive.22"),
    h("p", { class: "help" }, ending ? tx("hostlive.23") : tx("hostlive.24")),
    h("button", { class: "btn danger wide", type: "button", "data-testid": "host-end", disabled: ending, onclick: async () => {
      if (await confirmDialog(tx("hostlive.25"), tx("hostlive.22"))) {
        if (send({ type: "endGame" })) $("#dlg-host").close();
      }
    } }, ending ? tx("hostlive.26") : tx("hostlive.22")));
}
