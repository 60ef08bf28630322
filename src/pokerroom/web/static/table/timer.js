// The turn clock: a ring on the seat (or my line) the phase waits for, counting down to the view's
// `deadlineAt` by the server's clock. The ring is built once per seat; `tick` only writes what changed.

import { inlineSvg } from "../dom.js";
import { serverClock } from "../net.js";
import { bankTotalMs } from "./bank.js";

const RING_C = 2 * Math.PI * 12;

export function ring() {
  // morph keeps the ring on screen (data-keep): the clock (tick) draws into it
  return inlineSvg("timer-ring", "0 0 30 30", `<circle class="bg" cx="15" cy="15" r="12"/><circle class="fg" cx="15" cy="15" r="12" stroke-dasharray="${RING_C}" stroke-dashoffset="0"/><text x="15" y="19" text-anchor="middle"></text>`, { keep: "ring" });
}

/** How long the phase's clock runs in all (the ring shows what is left of it). */
function phaseTotalMs(v) {
  const t = (v.options?.turnSeconds ?? 20) * 1000;
  if (v.phase === "betting") {
    const bank = bankTotalMs(v); // the turn's own time is over: the ring counts the bank down
    if (bank) return bank;
    const s = (v.seats ?? []).find((x) => x.id === v.toAct);
    return s?.away ? 5000 : t;
  }
  if (["choice", "draw", "declare"].includes(v.phase)) return t + 10000;
  if (v.phase === "handEnd") return 4000;
  if (v.phase === "rebuy") return 15000;
  return t;
}

/** Bring every ring under `host` to the time left of view `v` (every 250 ms and after each render). */
export function tick(host, v) {
  if (!v || !v.deadlineAt) return;
  const total = Math.max(phaseTotalMs(v), 1);
  const left = Math.min(total, Math.max(0, v.deadlineAt - serverClock.now()));
  // the arc moves with the number, once a second (the seconds still shown, as a fraction of the phase):
  // the ring is repainted once a second, not on every 250 ms tick
  const whole = Math.ceil(left / 1000);
  const frac = Math.max(0, Math.min(1, (whole * 1000) / total));
  const offset = String(RING_C * (1 - frac));
  const secs = String(whole);
  const bank = bankTotalMs(v) > 0;
  // only what changed is written: each write makes the browser repaint the ring
  host.querySelectorAll(".timer-ring").forEach((r) => {
    if (r.classList.contains("urgent") !== left < 5000) r.classList.toggle("urgent", left < 5000);
    if (r.classList.contains("bank") !== bank) r.classList.toggle("bank", bank);
    const fg = r.querySelector(".fg");
    if (fg && fg.getAttribute("stroke-dashoffset") !== offset) fg.setAttribute("stroke-dashoffset", offset);
    const t = r.querySelector("text");
    if (t && t.textContent !== secs) t.textContent = secs;
  });
}
