// 장부: the room's ledger (docs/protocol.md §2.10) — every player's buy-ins, rebuys, chips and net over the
// room's games, for players and spectators alike — and its CSV download. The CSV is built here, in the
// browser, from the very frame the dialog shows (a Blob, no HTTP route): the file says exactly what the screen
// says, and it works on any node of a cluster, through the socket that already reaches the room.

import { fmt, netChips } from "./labels.js";
import { h } from "./dom.js";

const $ = (sel) => document.querySelector(sel);

/** Wire the top bar's 장부 button and dialog; `getRoom()` is the room on screen (app.js), or null. */
export function ledgerChrome(getRoom) {
  $("#btn-ledger").addEventListener("click", () => {
    const room = getRoom();
    if (!room?.ledger) return;
    drawLedger(room);
    $("#dlg-ledger").showModal();
  });
}

/** A new ledger frame (or a new room, or none): show the button once there is a ledger, redraw an open dialog. */
export function showLedger(room) {
  $("#btn-ledger").hidden = !room?.ledger;
  if (!room?.ledger) { if ($("#dlg-ledger").open) $("#dlg-ledger").close(); return; }
  if ($("#dlg-ledger").open) drawLedger(room);
}

function drawLedger(room) {
  const myId = room.role === "player" ? room.playerId : null;
  $("#ledger-body").replaceChildren(ledgerView(room.ledger, myId, () => downloadLedger(room.ledger, room.code)));
}

/** The ledger as a table, with its totals and what the figures mean. */
export function ledgerView(led, myId, onDownload) {
  const rows = led.rows ?? [];
  const sum = (key) => rows.reduce((a, r) => a + (r[key] ?? 0), 0);
  const netCell = (n, extra = {}) => h("td", { class: n < 0 ? "net loss" : "net", ...extra }, netChips(n));
  const body = rows.map((r) => h("tr", { class: r.id === myId ? "me-row" : "", "data-player": r.id, "data-testid": "ledger-row" },
    h("td", { class: "who" }, r.nickname, r.id === myId ? h("small", {}, " (나)") : null),
    h("td", { "data-col": "buyIn" }, fmt(r.buyIn)),
    h("td", { "data-col": "rebuys" }, r.rebuys ? `${r.rebuys}회` : "0", r.rebuys ? h("small", { class: "sub" }, fmt(r.rebuyChips)) : null),
    h("td", { "data-col": "stack" }, r.stack == null ? "—" : fmt(r.stack),
      led.games > 1 && r.closed ? h("small", { class: "sub" }, `지난 게임 ${fmt(r.closed)}`) : null),
    netCell(r.net, { "data-col": "net", "data-testid": "ledger-net" })));
  const total = h("tr", { class: "total", "data-testid": "ledger-total" },
    h("td", { class: "who" }, "합계"), h("td", {}, fmt(sum("buyIn"))),
    h("td", {}, sum("rebuys") ? `${sum("rebuys")}회` : "0", sum("rebuys") ? h("small", { class: "sub" }, fmt(sum("rebuyChips"))) : null),
    h("td", {}, fmt(sum("stack"))), netCell(sum("net"), { "data-testid": "ledger-net-total" }));
  return h("div", { class: "ledger", "data-testid": "ledger" },
    h("p", { class: "help", "data-testid": "ledger-scope" }, h("span", { class: "chunk" }, `이 방의 게임 ${fmt(led.games)}개 합계`),
      led.handsPlayed ? h("span", { class: "chunk" }, ` · 이번 게임 ${fmt(led.handsPlayed)}판까지`) : null),
    led.running ? h("p", { class: "help muted" }, "지금 하는 판의 칩은 판이 끝나면 반영돼요.") : null,
    h("div", { class: "ledger-scroll" }, h("table", {},
      h("thead", {}, h("tr", {}, h("th", {}, "닉네임"), h("th", {}, "바이인"), h("th", {}, "리바이"), h("th", {}, "지금 칩"), h("th", {}, "손익"))),
      h("tbody", {}, body), h("tfoot", {}, total))),
    led.unowned ? h("p", { class: "help", "data-testid": "ledger-unowned" }, `이월 판돈 ${fmt(led.unowned)}칩은 아직 주인이 없어요 (다음 판 승자에게 가요).`) : null,
    h("p", { class: "help" }, "손익 = 지금 칩 − 바이인 − 리바이로 받은 칩", led.games > 1 ? " + 지난 게임에서 끝낸 칩" : "",
      led.unowned ? ". 이월 판돈까지 더하면 0이에요." : ". 모두 더하면 0이에요."),
    h("p", { class: "notice" }, "칩은 이 방에서만 쓰는 가상 칩이에요. 돈으로 바꾸거나 정산하는 데 쓰지 않아요. 방이 닫히면 장부도 사라져요."),
    h("div", { class: "row" }, h("button", { class: "btn", type: "button", "data-testid": "ledger-csv", onclick: onDownload }, "CSV로 내려받기")));
}

/** A text cell as a spreadsheet reads it safely: quoted when needed; a nickname that looks like a formula is
 * prefixed with ' so no spreadsheet runs it. */
function cell(v) {
  if (typeof v === "number") return String(v);
  let s = String(v ?? "");
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

/** The ledger as CSV (UTF-8 with a BOM, CRLF): one row per player, then the totals (손익 sums to 0). */
export function ledgerCsv(led) {
  const head = ["닉네임", "게임 수", "바이인", "리바이 횟수", "리바이 칩", "지난 게임에서 끝낸 칩", "지금 칩", "손익"];
  const rows = led.rows ?? [];
  const lines = [head, ...rows.map((r) => [r.nickname, r.games, r.buyIn, r.rebuys, r.rebuyChips, r.closed, r.stack ?? "", r.net])];
  if (led.unowned) lines.push(["이월 판돈", "", "", "", "", "", led.unowned, ""]);
  const sum = (key) => rows.reduce((a, r) => a + (r[key] ?? 0), 0);
  lines.push(["합계", "", sum("buyIn"), sum("rebuys"), sum("rebuyChips"), sum("closed"), sum("stack") + (led.unowned ?? 0), sum("net")]);
  return "\ufeff" + lines.map((l) => l.map(cell).join(",")).join("\r\n") + "\r\n";
}

export function downloadLedger(led, code) {
  const url = URL.createObjectURL(new Blob([ledgerCsv(led)], { type: "text/csv;charset=utf-8" }));
  const a = h("a", { href: url, download: `장부-${code}.csv`, hidden: true });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
