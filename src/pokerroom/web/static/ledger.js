// 장부: the room's ledger (docs/protocol.md §2.10) — every player's buy-ins, rebuys, chips and net over the
// room's games, for players and spectators alike — and its CSV download. The CSV is built here, in the
// browser, from the very frame the dialog shows (a Blob, no HTTP route): the file says exactly what the screen
// says, and it works on any node of a cluster, through the socket that already reaches the room.

import { tx } from "./i18n.js";
import { fmt, netClass, netShort } from "./labels.js";
import { h, wholeItems } from "./dom.js";

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
  const netCell = (n, extra = {}) => h("td", { class: netClass(n), ...extra }, netShort(n));
  const body = rows.map((r) => h("tr", { class: r.id === myId ? "me-row" : "", "data-player": r.id, "data-testid": "ledger-row" },
    h("td", { class: "who" }, r.nickname, r.id === myId ? h("small", {}, tx("screens.5")) : null),
    h("td", { "data-col": "buyIn" }, fmt(r.buyIn)),
    h("td", { "data-col": "rebuys" }, r.rebuys ? tx("ledger.1", [r.rebuys]) : "0", r.rebuys ? h("small", { class: "sub" }, fmt(r.rebuyChips)) : null),
    h("td", { "data-col": "stack" }, r.stack == null ? "—" : fmt(r.stack),
      led.games > 1 && r.closed ? h("small", { class: "sub" }, tx("ledger.2", [fmt(r.closed)])) : null),
    netCell(r.net, { "data-col": "net", "data-testid": "ledger-net" })));
  const total = h("tr", { class: "total", "data-testid": "ledger-total" },
    h("td", { class: "who" }, tx("ledger.3")), h("td", {}, fmt(sum("buyIn"))),
    h("td", {}, sum("rebuys") ? tx("ledger.1", [sum("rebuys")]) : "0", sum("rebuys") ? h("small", { class: "sub" }, fmt(sum("rebuyChips"))) : null),
    h("td", {}, fmt(sum("stack"))), netCell(sum("net"), { "data-testid": "ledger-net-total" }));
  return h("div", { class: "ledger", "data-testid": "ledger" },
    h("p", { class: "help", "data-testid": "ledger-scope" },
      wholeItems([tx("ledger.4", [fmt(led.games)]), ...(led.handsPlayed ? [tx("ledger.5", [fmt(led.handsPlayed)])] : [])], "chunk")),
    led.running ? h("p", { class: "help muted" }, tx("ledger.6")) : null,
    h("div", { class: "ledger-scroll" }, h("table", {},
      h("thead", {}, h("tr", {}, h("th", {}, tx("screens.27")), h("th", {}, tx("ledger.7")), h("th", {}, tx("labels.18")), h("th", {}, tx("ledger.8")), h("th", {}, tx("screens.30")))),
      h("tbody", {}, body), h("tfoot", {}, total))),
    led.unowned ? h("p", { class: "help", "data-testid": "ledger-unowned" }, tx("ledger.9", [fmt(led.unowned)])) : null,
    h("p", { class: "help" }, tx("ledger.10"), led.games > 1 ? tx("ledger.11") : "",
      led.unowned ? tx("ledger.12") : tx("ledger.13")),
    h("p", { class: "notice" }, tx("ledger.14")),
    h("div", { class: "row" }, h("button", { class: "btn", type: "button", "data-testid": "ledger-csv", onclick: onDownload }, tx("ledger.15"))));
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
  const head = [tx("screens.27"), tx("ledger.16"), tx("ledger.7"), tx("options.47"), tx("ledger.17"), tx("ledger.18"), tx("ledger.8"), tx("screens.30")];
  const rows = led.rows ?? [];
  const lines = [head, ...rows.map((r) => [r.nickname, r.games, r.buyIn, r.rebuys, r.rebuyChips, r.closed, r.stack ?? "", r.net])];
  if (led.unowned) lines.push([tx("ledger.19"), "", "", "", "", "", led.unowned, ""]);
  const sum = (key) => rows.reduce((a, r) => a + (r[key] ?? 0), 0);
  lines.push([tx("ledger.3"), "", sum("buyIn"), sum("rebuys"), sum("rebuyChips"), sum("closed"), sum("stack") + (led.unowned ?? 0), sum("net")]);
  return "\ufeff" + lines.map((l) => l.map(cell).join(",")).join("\r\n") + "\r\n";
}

export function downloadLedger(led, code) {
  const url = URL.createObjectURL(new Blob([ledgerCsv(led)], { type: "text/csv;charset=utf-8" }));
  const a = h("a", { href: url, download: tx("ledger.20", [code]), hidden: true });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
