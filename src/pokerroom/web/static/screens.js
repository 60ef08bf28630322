// The room's screens around the table: the waiting room (invite link, members, 게임 시작), the result, and the
// seat controls between hands (자리 요청, 쉬기 / 복귀, the host's 수락 / 거절). Each takes the Room (app.js)
// it draws for and calls only its public methods (send, leave, openOptions ...).

import { fmt, netChips, withNames } from "./labels.js";
import { modeName, summarizeOptions, validateNickname } from "./options.js";
import { h } from "./dom.js";
import { confirmDialog, copyText, inviteQr, toast } from "./dialogs.js";
import { adultConfirmed, adultNotice, rememberAdult } from "./lobby.js";

const $ = (sel) => document.querySelector(sel);
const main = () => $("#main");

export function renderWaiting(room) {
  room.fetchLink();
  room.screen = "waiting";
  const l = room.lobby;
  const link = room.link ?? `${location.origin}/r/${room.code}`;
  const linkInput = h("input", { type: "text", readonly: true, value: link, "aria-label": "초대 링크", "data-testid": "invite-link" });
  const members = (l.players ?? []).filter((p) => p.status !== "left");
  const seated = members.filter((p) => p.status !== "left");
  const host = room.isHost();
  const count = seated.length;
  const limitMsg = count < (l.minPlayers ?? 2) ? `${l.minPlayers ?? 2}명 이상 모이면 시작할 수 있어요` : count > (l.maxPlayers ?? 10) ? `이 모드는 최대 ${l.maxPlayers}명까지 할 수 있어요` : "";
  const list = h("ul", { class: "seat-list", "data-testid": "members" }, members.map((p) => h("li", {},
    h("span", {}, p.nickname, p.bot ? " (봇)" : "", p.id === room.playerId ? " (나)" : ""),
    h("span", { class: "row" },
      h("small", {}, [p.host ? "방장" : "", p.connected ? "" : "연결 끊김"].filter(Boolean).join(" · ")),
      host && p.bot ? h("button", { class: "btn small", onclick: () => room.conn.send({ type: "removeBot", playerId: p.id }) }, "빼기") : null,
      host && !p.bot && p.id !== room.playerId ? kickButton(room, p) : null))));
  const box = h("div", { class: "lobby" },
    h("div", { class: "card-box" },
      h("h2", {}, `${modeName(l.options?.mode)} · 대기실`),
      h("p", { class: "opt-summary", "data-testid": "options-summary" }, summarizeOptions(l.options)),
      h("div", {}, "방 코드 ", h("span", { class: "code-big", "data-testid": "room-code" }, room.code)),
      h("div", { class: "share" }, linkInput,
        h("button", { class: "btn small", type: "button", "data-testid": "copy-link", onclick: async () => {
          if (await copyText(link)) toast("링크를 복사했어요", "info");
          else { linkInput.focus(); linkInput.select(); toast("복사하지 못했어요. 링크를 길게 눌러 복사해 주세요"); }
        } }, "복사"),
        typeof navigator.share === "function" ? h("button", { class: "btn small", type: "button", "data-testid": "share-link", onclick: async () => {
          try { await navigator.share({ title: "포커 방 초대", text: `포커 방에 들어와요 (방 코드 ${room.code})`, url: link }); } catch { /* closed the sheet */ }
        } }, "공유") : null),
      inviteQr(room.code)),
    h("div", { class: "card-box" },
      h("h2", {}, `참가자 ${count}명`, l.spectators ? h("small", { style: "color:var(--muted);font-weight:500" }, ` · 관전 ${l.spectators}명`) : null),
      list,
      host ? banList(room) : null,
      room.role === "spectator" ? h("p", { class: "tagline" }, "관전 중이에요. 게임이 시작되면 테이블이 보여요.") : null,
      host ? h("div", { class: "row" },
        h("button", { class: "btn", type: "button", "data-testid": "add-bot", onclick: () => room.conn.send({ type: "addBot" }) }, "봇 추가"),
        h("button", { class: "btn", type: "button", "data-testid": "edit-options", onclick: () => room.openOptions() }, "설정 바꾸기"),
        h("button", { class: "btn primary grow nowrap", type: "button", "data-testid": "start", disabled: !!limitMsg, onclick: () => room.conn.send({ type: "start" }) }, "게임 시작"))
        : room.role === "player" ? h("p", { class: "tagline" }, "방장이 게임을 시작하면 테이블이 열려요.") : null,
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
  const rows = (r?.ranking ?? []).map((e) => h("tr", { class: e.playerId === room.playerId ? "me-row" : "", "data-player": e.playerId },
    h("td", {}, `${e.rank}위`), h("td", {}, nm(e.playerId)), h("td", {}, fmt(e.score)),
    h("td", {}, fmt(e.finalChips)), h("td", { class: net(e) < 0 ? "net loss" : "net", "data-testid": "net" }, netChips(net(e))),
    h("td", {}, fmt(e.rebuys))));
  const stats = r?.stats ?? {};
  main().replaceChildren(h("div", { class: "result", "data-testid": "result" },
    h("h1", {}, "게임 결과"),
    h("p", { class: "summary" }, withNames(r?.summary ?? "", names)),
    h("table", {}, h("thead", {}, h("tr", {}, h("th", {}, "순위"), h("th", {}, "닉네임"), h("th", {}, "점수"), h("th", {}, "최종 칩"), h("th", {}, "손익"), h("th", {}, "리바이"))), h("tbody", {}, rows)),
    h("div", { class: "card-box" },
      h("div", {}, `총 ${fmt(stats.handsPlayed ?? 0)}판`),
      stats.biggestPot ? h("div", {}, `가장 큰 판돈: ${fmt(stats.biggestPot.amount)}칩 (${stats.biggestPot.handNo}판, ${(stats.biggestPot.winners ?? []).map(nm).join(", ")})`) : null,
      stats.bestHand ? h("div", {}, `최고 족보: ${stats.bestHand.handName} — ${nm(stats.bestHand.playerId)} (${stats.bestHand.handNo}판)`) : null),
    h("p", { class: "notice" }, "칩은 이 방 안에서만 쓰는 가상 칩이에요. 점수는 칩 수일 뿐 다른 곳으로 옮겨지지 않아요."),
    h("div", { class: "row" },
      host ? h("button", { class: "btn", type: "button", "data-testid": "edit-options", onclick: () => room.openOptions() }, "설정 바꾸기") : null,
      host ? h("button", { class: "btn primary grow", "data-testid": "again", onclick: () => room.conn.send({ type: "start" }) }, "한 판 더")
        : h("p", { class: "tagline grow" }, "방장이 '한 판 더'를 누르면 새 게임이 시작돼요."),
      h("button", { class: "btn", onclick: () => room.leave() }, "나가기"))));
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
      h("span", { class: "grow" }, v?.me?.inHand ? "다음 판부터 쉬어요. 칩은 그대로예요." : "칩은 그대로예요."),
      h("button", { class: "btn small primary", type: "button", "data-testid": "sit-in", onclick: () => room.sendSeat({ type: "sitIn" }) }, "복귀"));
  }
  const full = (v?.seats ?? []).length >= (room.lobby?.maxPlayers ?? 99);
  if (full) return h("div", { class: "seat-bar", "data-testid": "seat-bar" }, h("span", {}, "자리가 모두 찼어요. 다음 게임을 기다려 주세요."));
  const me = room.myMember();
  if (me?.asking) {
    return h("div", { class: "seat-bar", "data-testid": "seat-bar" },
      h("span", { "data-testid": "seat-asking" }, "자리를 요청했어요. 방장이 수락하면 다음 판부터 참가해요."));
  }
  if (room.role === "player") {
    return h("div", { class: "seat-bar", "data-testid": "seat-bar" },
      h("span", { class: "grow" }, "게임 중에도 자리에 앉을 수 있어요."),
      h("button", { class: "btn small primary", type: "button", "data-testid": "request-seat", onclick: () => room.sendSeat({ type: "requestSeat" }) }, "자리 요청"));
  }
  const nick = h("input", { type: "text", maxlength: 12, autocomplete: "nickname", placeholder: "닉네임", "aria-label": "내 닉네임", "data-testid": "seat-nick" });
  try { nick.value = localStorage.getItem("pokerroom:nickname") ?? ""; } catch { /* ignore */ }
  const form = h("form", { class: "seat-bar", novalidate: true, "data-testid": "seat-bar" }, nick,
    h("button", { class: "btn small primary", type: "submit", "data-testid": "request-seat" }, "자리 요청"));
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const err = validateNickname(nick.value);
    if (err) { toast(err); return; }
    // the same adult / virtual-chips confirmation as the join form, unless this tab gave it there already
    if (!adultConfirmed(room.code)) {
      if (!await confirmDialog("성인용 카드 게임이에요. 칩은 이 방에서만 쓰는 가상 칩이고, 실제 돈을 걸지 않아요.", "확인했어요")) return;
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
  return h("button", { class: "act legal", type: "button", "data-testid": "sit-out", onclick: () => room.sendSeat({ type: "sitOut" }) }, "쉬기");
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
    } }, out ? "복귀 (다음 판부터 참가)" : "자리 비움 (다음 판부터 쉬기)"),
    h("span", { class: "help" }, out ? "" : "이번 판은 끝까지 해요. 쉬는 동안 앤티·블라인드를 내지 않고 칩은 그대로예요."));
}

/** The host's prompt for pending seat requests: 수락 / 거절 for each asking member. */
export function renderSeatRequests(room, current) {
  document.querySelector("#seat-requests")?.remove();
  if (!room.isHost() || room.lobby?.phase !== "playing" || current !== room) return;
  const asking = (room.lobby.players ?? []).filter((p) => p.asking && p.status === "waiting");
  if (!asking.length) return;
  const answer = (id, accept) => room.conn?.send({ type: "answerSeat", playerId: id, accept });
  document.body.append(h("div", { id: "seat-requests", class: "seat-requests", role: "alertdialog", "aria-label": "자리 요청" },
    asking.map((p) => h("div", { class: "seat-request", "data-testid": "seat-request" },
      h("span", { class: "grow" }, h("b", {}, p.nickname), " 님이 자리를 요청했어요. 수락하면 다음 판부터 참가해요."),
      h("span", { class: "row" },
        h("button", { class: "btn small", type: "button", "data-testid": "seat-deny", onclick: () => answer(p.id, false) }, "거절"),
        h("button", { class: "btn small primary", type: "button", "data-testid": "seat-accept", onclick: () => answer(p.id, true) }, "수락"))))));
}

/** The host's 내보내기 for one member, with a confirmation. */
export function kickButton(room, p) {
  return h("button", { class: "btn small danger", type: "button", "data-testid": `kick-${p.id}`, onclick: async () => {
    const playing = room.lobby?.phase === "playing";
    const text = `${p.nickname} 님을 내보낼까요?${playing ? " 이번 게임의 남은 판은 자동으로 다이해요." : ""}`;
    if (await confirmDialog(text, "내보내기")) { room.conn.send({ type: "kick", playerId: p.id }); $("#dlg-settings").close(); }
  } }, "내보내기");
}

/** The host's 내보낸 사람 (the lobby's `bans`, sent to the host only): each with 다시 받기 (`unban`), which lets
 * that person join again by nickname. Hidden while nobody is banned; the same block in the waiting room and in
 * 설정 (app.js swaps it in place when a new lobby arrives). */
export function banList(room) {
  const bans = room.isHost() ? room.lobby?.bans ?? [] : [];
  return h("div", { class: "field", "data-testid": "ban-list", hidden: !bans.length },
    h("span", { class: "label" }, "내보낸 사람"),
    h("ul", { class: "seat-list" }, bans.map((b) => h("li", {}, h("span", {}, b.nickname),
      h("button", { class: "btn small", type: "button", "data-testid": `unban-${b.id}`, onclick: () => {
        if (room.conn.send({ type: "unban", playerId: b.id })) toast(`${b.nickname} 님이 다시 들어올 수 있어요`, "info");
        else toast("연결이 끊겨 보내지 못했어요. 다시 연결되면 눌러 주세요.");
      } }, "다시 받기")))));
}
