// The time bank on a seat (docs/decisions/0047-time-bank.md): the whole seconds of extra time a player has
// left, on their seat and on my line, only in a room with the time bank on (the view then gives every seat
// `timeBank` and `timeBankInUse`). While a turn spends it the pill turns yellow and the turn's ring counts
// the bank down (timer.js): the view's `deadlineAt` is then where the bank runs out.

import { tx } from "../i18n.js";
import { h, inlineSvg } from "../dom.js";

/** A small stopwatch drawn inline (no emoji font needed on the phone). */
function watchIcon() {
  return inlineSvg("watch", "0 0 12 12", '<circle cx="6" cy="7" r="4.2" fill="none" stroke="currentColor" stroke-width="1.5"/><path d="M6 7V4.6M4.6 1h2.8" stroke="currentColor" stroke-width="1.5" stroke-linecap="round"/>');
}

/** What a seat's bank shows (null: the room has no time bank). */
export function bankInputs(seat) {
  if (typeof seat?.timeBank !== "number") return null;
  return { left: seat.timeBank, on: !!seat.timeBankInUse };
}

/** The pill: "⏱ 30" (30 seconds of bank left), yellow while this turn spends it. */
export function bankPill(b) {
  if (!b) return null;
  const label = tx("bank.1", [b.left, b.on ? tx("bank.2") : ""]);
  return h("span", { class: "bank" + (b.on ? " on" : ""), "data-testid": "time-bank", title: label, "aria-label": label, role: "img" },
    watchIcon(), String(b.left));
}

/** The bank's length in ms when the betting turn of view `v` is spending it (the ring's whole), else 0. */
export function bankTotalMs(v) {
  if (v.phase !== "betting") return 0;
  const s = (v.seats ?? []).find((x) => x.id === v.toAct);
  return s?.timeBankInUse ? Math.max(1, s.timeBank) * 1000 : 0;
}
