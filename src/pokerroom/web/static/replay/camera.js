// The replayer's camera: on a short phone the replayed table is taller than the room its dialog leaves it (it
// scrolls inside the dialog, decision 0007's rule: nothing covers anything), and each step is about one part
// of it. At 320×568 the hand's end showed the top seats while the result and my own winning cards lay under
// the controls. After each step the table scrolls, as little as it takes, to what that step is about.

/** Who a step is about (an id), by the field its kind names them with (docs/protocol.md §2.4). */
const ACTOR = { action: "player", shown: "player", mucked: "player", ante: "from", blind: "from", penalty: "from",
  uncalled: "to", award: "to" };

/** A step that ends the hand: its result banner, then my own cards. */
const RESULT = new Set(["showdown", "handEnd", "carry", "noOpener"]);

/** The elements a step is about, the most important first (missing ones are left out). */
function focusOf(host, step, me) {
  const q = (sel) => host.querySelector(sel);
  const seatOf = (id) => (id == null ? null
    : id === me ? q("[data-testid=me-area]") : q(`.seat[data-seat-id="${CSS.escape(String(id))}"]`));
  const type = step?.type;
  if (RESULT.has(type)) return [q(".banner"), seatOf(me), ...host.querySelectorAll(".seat.winner")];
  if (ACTOR[type]) return [seatOf(step[ACTOR[type]])];
  return [q(".board"), seatOf(me)]; // a deal, a draw, the declarations: the cards dealt
}

/**
 * Scroll `host` (the replay's table, scrolling inside the dialog) so that what `step` is about is in view: its
 * parts in order of importance, each taken while they still fit together (the first alone is put at the top
 * when it is taller than the window), by the least scroll that shows them. `me`: my seat's id in a player's
 * replay (null for a spectator's).
 */
export function follow(host, step, me) {
  const room = host.clientHeight;
  if (host.scrollHeight <= room + 1) return;
  const origin = host.getBoundingClientRect().top - host.scrollTop;
  const spans = focusOf(host, step, me).filter((e) => e && e.offsetParent !== null)
    .map((e) => e.getBoundingClientRect()).filter((r) => r.height > 0)
    .map((r) => [r.top - origin, r.bottom - origin]);
  if (!spans.length) return;
  let [top, bottom] = spans[0];
  for (const [t, b] of spans.slice(1)) {
    if (Math.max(bottom, b) - Math.min(top, t) <= room) [top, bottom] = [Math.min(top, t), Math.max(bottom, b)];
  }
  let at = host.scrollTop;
  if (bottom - top > room || top < at) at = top;
  else if (bottom > at + room) at = bottom - room;
  host.scrollTop = Math.max(0, Math.round(at));
}
