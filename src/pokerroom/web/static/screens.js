// The room's screens around the table: the waiting room (invite link, members, 게임 시작), the result, and the
// seat controls between hands (자리 요청, 쉬기 / 복귀, the host's 수락 / 거절). Each takes the Room (app.js)
// it draws for and calls only its public methods (send, leave, openOptions ...).

import { tx } from "./i18n.js";
import { fmt, netClass, netShort, withNames } from "./labels.js";
import { modeName, optionItems, validateNickname } from "./options.js";
import { h, wholeItems } from "./dom.js";
import { confirmDialog, copyText, inviteQr, toast } from "./dialogs.js";
import { adultConfirmed, adultNotice, rememberAdult } from "./lobby.js";

const $ = (sel) => document.querySelector(sel);
const main = () => $("#main");

/** The host's choice of how a bot plays (docs/bots.md "Levels": 쉬움 a loose beginner, 보통 tight and
 * aggressive), between games like adding it; the others read it beside the bot's name. */
function botLevel(room, p) {
  const level = p.level === "normal" ? "normal" : "easy";
  return h("span", { class: "seg bot-level", role: "group", "aria-label": tx("screens.66", [p.nickname]), "data-testid": "bot-level" },
    [["easy", tx("screens.64")], ["normal", tx("screens.65")]].map(([value, label]) => h("button", {
      class: `btn small${value === level ? " on" : ""}`, type: "button", "data-level": value, "aria-pressed": value === level ? "true" : "false",
      onclick: () => { if (value !== level) room.conn.send({ type: "botLevel", playerId: p.id, level: value }); },
    }, label)));
}

export function renderWaiting(room) {
  room.fetchLink();
  room.screen = "waiting";
  const l = room.lobby;
  const link = room.link ?? `${location.origin}/r/${room.code}`;
  const linkInput = h("input", { type: "text", readonly: true, value: link, "aria-label": tx("screens.1"), "data-testid": "invite-link" });
  const members = (l.players ?? []).filter((p) => p.status !== "left");
  const seated = members.filter((p) => p.status !== "left");
  const host = room.isHost();
  const count = seated.length;
  const limitMsg = count < (l.minPlayers ?? 2) ? tx("screens.2", [l.minPlayers ?? 2]) : count > (l.maxPlayers ?? 10) ? tx("screens.3", [l.maxPlayers]) : "";
  const list = h("ul", { class: "seat-list", "data-testid": "members" }, members.map((p) => h("li", { class: host && p.bot ? "host-bot" : null },
    // a bot: its level beside its name, or for the host the level's own buttons (only a bot has them)
    h("span", {}, p.nickname, p.bot && !host ? tx(p.level === "normal" ? "screens.63" : "screens.62") : "", p.id === room.playerId ? tx("screens.5") : ""),
    h("span", { class: "row" },
      h("small", {}, [p.host ? tx("screens.6") : "", p.connected ? "" : tx("screens.7")].filter(Boolean).join(" · ")),
      host && p.bot ? botLevel(room, p) : null,
      host && p.bot ? h("button", { class: "btn small", onclick: () => room.conn.send({ type: "removeBot", playerId: p.id }) }, tx("screens.8")) : null,
      host && !p.bot && p.id !== room.playerId ? kickButton(room, p) : null))));
  const box = h("div", { class: "lobby" },
    h("div", { class: "card-box" },
      h("h2", {}, tx("screens.9", [modeName(l.options?.mode)])),
      h("p", { class: "opt-summary", "data-testid": "options-summary" }, wholeItems(optionItems(l.options))),
      h("div", {}, tx("screens.10"), h("span", { class: "code-big", "data-testid": "room-code" }, room.code)),
      h("div", { class: "share" }, linkInput,
        h("button", { class: "btn small", type: "button", "data-testid": "copy-link", onclick: async () => {
          if (await copyText(link)) toast(tx("screens.11"), "info");
          else { linkInput.focus(); linkInput.select(); toast(tx("screens.12")); }
        } }, tx("screens.13")),
        typeof navigator.share === "function" ? h("button", { class: "btn small", type: "button", "data-testid": "share-link", onclick: async () => {
          try { await navigator.share({ title: tx("screens.14"), text: tx("screens.15", [room.code]), url: link }); } catch { /* closed the sheet */ }
        } }, tx("screens.16")) : null),
      inviteQr(room.code)),
    h("div", { class: "card-box" },
      h("h2", {}, tx("screens.17", [count]), l.spectators ? h("small", { style: "color:var(--muted);font-weight:500" }, tx("screens.18", [l.spectators])) : null),
      list,
      host ? banList(room) : null,
      room.role === "spectator" ? h("p", { class: "tagline" }, tx("screens.19")) : null,
      host ? h("div", { class: "row" },
        h("button", { class: "btn", type: "button", "data-testid": "add-bot", onclick: () => room.conn.send({ type: "addBot" }) }, tx("screens.20")),
        h("button", { class: "btn", type: "button", "data-testid": "edit-options", onclick: () => room.openOptions() }, tx("screens.21")),
        h("button", { class: "btn primary grow nowrap", type: "button", "data-testid": "start", disabled: !!limitMsg, onclick: () => room.conn.send({ type: "start" }) }, tx("screens.22")))
        : room.role === "player" ? h("p", { class: "tagline" }, tx("screens.23")) : null,
      limitMsg ? h("p", { class: "help", style: "color:var(--muted)" }, limitMsg) : null),
    adultNotice());
  main().replaceChildren(box);
}

export function renderResult(room) {
  room.screen = "result";
  const r = room.result ?? room.view?.result;
  const names = room.names();
  const nm = (id) => names[id] ?? id;
  const host = room.isHost();
  // 손익 (net) beside the final chips: what the game won or lost each player, never the score read as a gain
  const net = (e) => e.net ?? e.finalChips - (room.currentOptions().startingChips ?? 0) * (1 + (e.rebuys ?? 0));
  const ranking = r?.ranking ?? [];
  // 점수 only where it is not the final chips (a game by hands without a rebuy scores each player their chips;
  // a last-standing game scores places), 리바이 only where someone rebought: else two columns that repeat
  // another or say 0 for all (and push a large-text table sideways on a small phone)
  const scored = ranking.some((e) => e.score !== e.finalChips);
  const rebought = ranking.some((e) => (e.rebuys ?? 0) > 0);
  const cols = [["rank", tx("screens.26"), (e) => tx("screens.24", [e.rank])], ["name", tx("screens.27"), (e) => nm(e.playerId)],
    scored ? ["score", tx("screens.28"), (e) => fmt(e.score)] : null, ["chips", tx("screens.29"), (e) => fmt(e.finalChips)],
    ["net", tx("screens.30"), (e) => netShort(net(e))], rebought ? ["rebuys", tx("labels.18"), (e) => fmt(e.rebuys)] : null]
    .filter(Boolean);
  const rows = ranking.map((e) => h("tr", { class: e.playerId === room.playerId ? "me-row" : "", "data-player": e.playerId },
    ...cols.map(([col, , cell]) => h("td", col === "net" ? { class: netClass(net(e)), "data-testid": "net", "data-col": col } : { "data-col": col }, cell(e)))));
  const stats = r?.stats ?? {};
  main().replaceChildren(h("div", { class: "result", "data-testid": "result" },
    h("h1", {}, tx("screens.25")),
    h("p", { class: "summary" }, withNames(r?.summary ?? "", names)),
    // (in a box of its own that scrolls sideways where six columns are wider than the screen: large text at 320 px)
    h("div", { class: "result-scroll" }, h("table", {}, h("thead", {}, h("tr", {}, ...cols.map(([col, title]) => h("th", { "data-col": col }, title)))), h("tbody", {}, rows))),
    h("div", { class: "card-box" },
      h("div", {}, tx("screens.31", [fmt(stats.handsPlayed ?? 0)])),
      stats.biggestPot ? h("div", {}, tx("screens.32", [fmt(stats.biggestPot.amount), stats.biggestPot.handNo, (stats.biggestPot.winners ?? []).map(nm).join(", ")])) : null,
      stats.bestHand ? h("div", {}, tx("screens.33", [stats.bestHand.handName, nm(stats.bestHand.playerId), stats.bestHand.handNo])) : null),
    h("p", { class: "notice" }, tx("screens.34")),
    h("div", { class: "row" },
      host ? h("button", { class: "btn", type: "button", "data-testid": "edit-options", onclick: () => room.openOptions() }, tx("screens.21")) : null,
      host ? h("button", { class: "btn primary grow nowrap", "data-testid": "again", onclick: () => room.conn.send({ type: "start" }) }, tx("screens.35"))
        : h("p", { class: "tagline grow" }, tx("screens.36")),
      h("button", { class: "btn", onclick: () => room.leave() }, tx("screens.37")))));
}

/**
 * Under the table, for someone without a seat in the running game: 자리 요청 (a spectator gives a nickname),
 * or the request's state; for a player sitting out: 복귀. Null when there is nothing to offer.
 */
export function seatBar(room, v) {
  if (room.lobby?.phase !== "playing" || v?.phase === "finished") return null;
  const seat = room.mySeat(v);
  if (seat) {
    if (!seat.sittingOut) return null;
    return h("div", { class: "seat-bar", "data-testid": "seat-bar" },
      h("span", { class: "grow" }, v?.me?.inHand ? tx("screens.38") : tx("screens.39")),
      h("button", { class: "btn small primary", type: "button", "data-testid": "sit-in", onclick: () => room.sendSeat({ type: "sitIn" }) }, tx("screens.40")));
  }
  const full = (v?.seats ?? []).length >= (room.lobby?.maxPlayers ?? 99);
  if (full) return h("div", { class: "seat-bar", "data-testid": "seat-bar" }, h("span", {}, tx("screens.41")));
  const me = room.myMember();
  if (me?.asking) {
    return h("div", { class: "seat-bar", "data-testid": "seat-bar" },
      h("span", { "data-testid": "seat-asking" }, tx("screens.42")));
  }
  if (room.role === "player") {
    return h("div", { class: "seat-bar", "data-testid": "seat-bar" },
      h("span", { class: "grow" }, tx("screens.43")),
      h("button", { class: "btn small primary", type: "button", "data-testid": "request-seat", onclick: () => room.sendSeat({ type: "requestSeat" }) }, tx("screens.44")));
  }
  const nick = h("input", { type: "text", maxlength: 12, autocomplete: "nickname", placeholder: tx("screens.27"), "aria-label": tx("screens.45"), "data-testid": "seat-nick" });
  try { nick.value = localStorage.getItem("pokerroom:nickname") ?? ""; } catch { /* ignore */ }
  const form = h("form", { class: "seat-bar", novalidate: true, "data-testid": "seat-bar" }, nick,
    h("button", { class: "btn small primary", type: "submit", "data-testid": "request-seat" }, tx("screens.44")));
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const err = validateNickname(nick.value);
    if (err) { toast(err); return; }
    // the same adult / virtual-chips confirmation as the join form, unless this tab gave it there already
    if (!adultConfirmed(room.code)) {
      if (!await confirmDialog(tx("screens.46"), tx("screens.47"))) return;
      rememberAdult(room.code);
    }
    try { localStorage.setItem("pokerroom:nickname", nick.value.trim()); } catch { /* ignore */ }
    room.sendSeat({ type: "requestSeat", nickname: nick.value.trim() });
  });
  return form;
}

/** Between hands (handEnd), beside 다음 판: 쉬기 = sit out from the next hand. */
export function sitOutButton(room, v) {
  const seat = room.mySeat(v);
  if (!seat || seat.sittingOut || seat.status !== "playing") return null;
  return h("button", { class: "act legal", type: "button", "data-testid": "sit-out", onclick: () => room.sendSeat({ type: "sitOut" }) }, tx("screens.48"));
}

/** In 설정: 자리 비움 (sit out from the next hand) or 복귀, while I have a seat in a running game. */
export function sitControl(room) {
  const seat = room.lobby?.phase === "playing" ? room.mySeat() : null;
  if (!seat || seat.status !== "playing") return null;
  const out = seat.sittingOut;
  return h("div", { class: "field" },
    h("button", { class: "btn", type: "button", "data-testid": out ? "settings-sit-in" : "settings-sit-out", onclick: () => {
      room.sendSeat({ type: out ? "sitIn" : "sitOut" });
      $("#dlg-settings").close();
    } }, out ? tx("screens.49") : tx("screens.50")),
    h("span", { class: "help" }, out ? "" : tx("screens.51")));
}

/** The host's prompt for pending seat requests: 수락 / 거절 for each asking member. */
export function renderSeatRequests(room, current) {
  document.querySelector("#seat-requests")?.remove();
  if (!room.isHost() || room.lobby?.phase !== "playing" || current !== room) return;
  const asking = (room.lobby.players ?? []).filter((p) => p.asking && p.status === "waiting");
  if (!asking.length) return;
  const answer = (id, accept) => room.conn?.send({ type: "answerSeat", playerId: id, accept });
  document.body.append(h("div", { id: "seat-requests", class: "seat-requests", role: "alertdialog", "aria-label": tx("screens.44") },
    asking.map((p) => h("div", { class: "seat-request", "data-testid": "seat-request" },
      h("span", { class: "grow" }, h("b", {}, p.nickname), tx("screens.52")),
      h("span", { class: "row" },
        h("button", { class: "btn small", type: "button", "data-testid": "seat-deny", onclick: () => answer(p.id, false) }, tx("screens.53")),
        h("button", { class: "btn small primary", type: "button", "data-testid": "seat-accept", onclick: () => answer(p.id, true) }, tx("screens.54")))))));
}

/** The host's 내보내기 for one member, with a confirmation. */
export function kickButton(room, p) {
  return h("button", { class: "btn small danger", type: "button", "data-testid": `kick-${p.id}`, onclick: async () => {
    const playing = room.lobby?.phase === "playing";
    const text = tx("screens.55", [p.nickname, playing ? tx("screens.61") : ""]);
    if (await confirmDialog(text, tx("screens.56"))) { room.conn.send({ type: "kick", playerId: p.id }); $("#dlg-settings").close(); }
  } }, tx("screens.56"));
}

/** The host's 내보낸 사람 (the lobby's `bans`, sent to the host only): each with 다시 받기 (`unban`), which lets
 * that person join again by nickname. Hidden while nobody is banned; the same block in the waiting room and in
 * 설정 (app.js swaps it in place when a new lobby arrives). */
export function banList(room) {
  const bans = room.isHost() ? room.lobby?.bans ?? [] : [];
  return h("div", { class: "field", "data-testid": "ban-list", hidden: !bans.length },
    h("span", { class: "label" }, tx("screens.57")),
    h("ul", { class: "seat-list" }, bans.map((b) => h("li", {}, h("span", {}, b.nickname),
      h("button", { class: "btn small", type: "button", "data-testid": `unban-${b.id}`, onclick: () => {
        if (room.conn.send({ type: "unban", playerId: b.id })) toast(tx("screens.58", [b.nickname]), "info");
        else toast(tx("screens.59"));
      } }, tx("screens.60"))))));
}
