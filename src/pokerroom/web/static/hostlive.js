// The host runs the table live: the 방장 button and its menu (일시 정지 / 다시 시작, 판돈 바꾸기 from the next hand,
// 방장 넘기기, 게임 끝내기), and the "일시 정지" layer everyone sees over a paused table. It draws from the room's
// `lobby` (`paused`, `hostId`, members) and `view` (`baseUnit`, `nextStakes`, `endAfterHand`) and sends the
// host's messages of docs/protocol.md §2.9; the server checks each again.

import { h } from "./dom.js";
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
  document.head.append(h("link", { rel: "stylesheet", href: "/static/hostlive.css" }));
  btn = h("button", { class: "icon-btn", id: "btn-host", type: "button", "aria-label": "방장 메뉴", "data-testid": "host-menu", hidden: true }, "방장");
  btn.addEventListener("click", () => openMenu());
  $("#btn-rules")?.before(btn);
  const close = h("button", { class: "btn small ghost", type: "button" }, "닫기");
  const dlg = h("dialog", { id: "dlg-host", "aria-labelledby": "dlg-host-title" },
    h("div", { class: "dlg-head" }, h("h2", { id: "dlg-host-title" }, "방장 메뉴"), close),
    h("div", { class: "dlg-body", id: "host-body" }));
  close.addEventListener("click", () => dlg.close());
  document.body.append(dlg);
  return btn;
}

function send(msg) {
  if (current?.conn?.send(msg)) return true;
  toast("연결이 끊겨 보내지 못했어요. 다시 연결되면 눌러 주세요.");
  return false;
}

const playing = (room) => room?.lobby?.phase === "playing" && !!room.view && room.view.phase !== "finished";

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
  const who = paused.nickname ? `방장 ${paused.nickname} 님이 게임을 멈췄어요` : "방장이 게임을 멈췄어요";
  document.body.append(h("div", { id: "pause-layer", class: "pause-layer", role: "status", "aria-live": "polite", "data-testid": "pause-banner" },
    h("div", { class: "pause-box" },
      h("div", { class: "pause-title" }, "일시 정지"),
      h("div", { class: "pause-who" }, who),
      h("div", { class: "pause-help" }, "시간은 멈춰 있어요. 다시 시작하면 남은 시간부터 이어서 해요."),
      host ? h("button", { class: "btn primary", type: "button", "data-testid": "pause-resume", onclick: () => send({ type: "resume" }) }, "다시 시작") : null)));
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
  return section("일시 정지",
    h("p", { class: "help" }, paused ? "모두의 시간이 멈춰 있어요." : "모든 시간(차례, 다음 판, 봇)이 멈추고, 다시 시작하면 남은 시간부터 이어서 해요."),
    h("button", { class: `btn ${paused ? "primary" : ""} wide`, type: "button", "data-testid": paused ? "host-resume" : "host-pause", onclick: () => {
      if (send({ type: paused ? "resume" : "pause" })) $("#dlg-host").close();
    } }, paused ? "다시 시작" : "일시 정지"));
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
    h("div", { class: "field" }, h("span", { class: "label" }, "기본 단위"), picker("기본 단위", "baseUnit", base),
      h("span", { class: "help" }, "한국식은 앤티(삥), 홀덤·오마하는 빅 블라인드")),
    h("div", { class: "field" }, h("span", { class: "label" }, "시작 칩 (리바이·새로 앉는 사람)"), picker("시작 칩", "startingChips", stack)),
    errors,
    h("button", { class: "btn primary wide", type: "submit", "data-testid": "stakes-apply" }, "다음 판부터 적용"));
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const pick = (key) => Number(form.querySelector(`input[data-stake=${key}]:checked`)?.value);
    const baseUnit = pick("baseUnit");
    const startingChips = pick("startingChips");
    if (baseUnit * 20 > startingChips) {
      errors.textContent = `시작 칩은 기본 단위의 20배 이상이어야 해요(기본 단위 ${fmt(baseUnit)}이면 ${fmt(baseUnit * 20)}칩 이상)`;
      return;
    }
    if (send({ type: "setStakes", baseUnit, startingChips })) $("#dlg-host").close();
  });
  return section("판돈 바꾸기",
    h("p", { class: "help", "data-testid": "stakes-now" }, next
      ? `다음 판부터 기본 단위 ${fmt(next.baseUnit)} · 시작 칩 ${fmt(next.startingChips)} (이번 판은 ${fmt(v.baseUnit)})`
      : `지금 기본 단위 ${fmt(v.baseUnit)}. 이번 판은 그대로 하고 다음 판부터 바뀌어요.`),
    form);
}

function transferSection(room) {
  const others = (room.lobby?.players ?? []).filter((p) => !p.bot && p.id !== room.playerId && p.status !== "left" && p.connected);
  return section("방장 넘기기", others.length
    ? h("ul", { class: "seat-list", "data-testid": "transfer-list" }, others.map((p) => h("li", {}, h("span", {}, p.nickname),
      h("button", { class: "btn small", type: "button", "data-testid": `transfer-${p.id}`, onclick: async () => {
        if (await confirmDialog(`${p.nickname} 님에게 방장을 넘길까요? 되돌리려면 새 방장이 다시 넘겨 줘야 해요.`, "넘기기")) {
          if (send({ type: "transferHost", playerId: p.id })) $("#dlg-host").close();
        }
      } }, "넘기기"))))
    : h("p", { class: "help" }, "방장을 넘겨받을 수 있는 사람(접속 중인 다른 참가자)이 없어요."));
}

function endSection(room) {
  const ending = !!room.view?.endAfterHand;
  return section("게임 끝내기",
    h("p", { class: "help" }, ending ? "이번 판이 끝나면 결과가 나와요." : "지금 칩으로 순위를 매겨 결과를 보여 줘요. 판이 진행 중이면 그 판까지 하고 끝나요."),
    h("button", { class: "btn danger wide", type: "button", "data-testid": "host-end", disabled: ending, onclick: async () => {
      if (await confirmDialog("게임을 지금 끝낼까요? 진행 중인 판은 끝까지 하고, 지금 칩으로 순위를 매겨요.", "게임 끝내기")) {
        if (send({ type: "endGame" })) $("#dlg-host").close();
      }
    } }, ending ? "이번 판 뒤에 끝나요" : "게임 끝내기"));
}
