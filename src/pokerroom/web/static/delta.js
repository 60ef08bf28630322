// View deltas (docs/protocol.md §2.8): the client half of pokerroom/server/wire/deltas.py `apply_delta`.
// A socket that said `"deltas": true` in hello gets one whole `view`, then `viewDelta` frames against the
// version it holds; `ViewTracker` turns them back into whole `view` messages, so the app never sees a delta.

/** The view a delta describes, from its base view (the base is not modified; unchanged parts are shared). */
export function applyDelta(base, d) {
  const view = { ...base };
  for (const key of d.del ?? []) delete view[key];
  Object.assign(view, d.set ?? {});
  if (d.seats || d.seatsSet) {
    const seats = [...view.seats];
    for (const [i, seat] of Object.entries(d.seats ?? {})) seats[Number(i)] = seat;
    // only the changed fields of a seat (same keys): merged into a copy of the held seat
    for (const [i, fields] of Object.entries(d.seatsSet ?? {})) seats[Number(i)] = { ...seats[Number(i)], ...fields };
    view.seats = seats;
  }
  if (d.me) {
    const me = { ...view.me };
    for (const key of d.me.del ?? []) delete me[key];
    Object.assign(me, d.me.set ?? {});
    view.me = me;
  }
  if (d.log) view.publicLog = [...(view.publicLog ?? []).slice(d.log.drop), ...d.log.add];
  return view;
}

/** Holds the newest view of one socket. `take(msg)` returns the whole `view` message to hand on, or null
 * when a delta does not apply to what is held (a gap: the caller asks `resync`, the answer is a whole view). */
export class ViewTracker {
  constructor() { this.version = null; this.view = null; }

  reset() { this.version = null; this.view = null; }

  take(msg) {
    if (msg.type === "view") {
      this.version = msg.version;
      this.view = msg.view;
      return msg;
    }
    if (this.view === null || msg.base !== this.version) { this.reset(); return null; }
    this.view = applyDelta(this.view, msg);
    this.version = msg.version;
    const out = { type: "view", version: msg.version, serverNow: msg.serverNow, view: this.view };
    if (msg.seat !== undefined) out.seat = msg.seat; // the room's per-seat part travels whole (§2.6)
    if (msg.ack !== undefined) out.ack = msg.ack;
    return out;
  }
}
