// The table screen (poker.md §9): draws one `view` (docs/view.md) and offers the actions of
// `view.me.legalActions`. No game rule lives here: amounts, limits and who acts all come from the view.
//
// This entry wires the parts in table/: a small state (state.js), one render (render.js) that brings each
// region up to date from its inputs (seats, centre, banner, my cards, controls, timer, side panel, phone
// layout), and the events (views from the app, the clock, resizes, the player's taps through `ctx`). The app
// talks to the table only through this class: update / schedule a view, lock / unlock while an action is on
// its way, show a talk bubble, destroy.

import { animateAwards } from "./table/banner.js";
import { listenForKeys } from "./table/keys.js";
import { bubble, closePalette, openPalette } from "./table/me.js";
import { onResize, render } from "./table/render.js";
import { createState, takeView } from "./table/state.js";
import { tick } from "./table/timer.js";
import { isMyTurn } from "./table/view.js";

export class TableUI {
  /**
   * host: element to draw into. callbacks: {onAction(action), confirm(text, yesLabel, signal) -> Promise<bool>,
   * onTurn(), toast, onPreAction, onTalk, disableTips, openHistory, seatBar(view), sitOutButton(view)}
   */
  constructor(host, callbacks) {
    const t = (this.t = createState(host));
    const cb = (this.cb = callbacks);
    // what the regions may do (they never reach back into this class)
    this.ctx = {
      host,
      get ui() { return t.ui; }, // my drafts (a new decision starts new ones)
      view: () => t.view,
      send: (action) => this.send(action),
      redraw: () => this.render(),
      // a question about this decision, withdrawn when the decision is gone (takeView: a new t.ui)
      confirm: (text) => {
        const ask = (t.ui.asking = new AbortController());
        return cb.confirm(text, undefined, ask.signal);
      },
      toast: (text) => cb.toast?.(text),
      onPreAction: (kind) => cb.onPreAction?.(kind),
      seatBar: () => cb.seatBar?.(t.view) ?? null,
      sitOutButton: () => cb.sitOutButton?.(t.view) ?? null,
      disableTips: () => cb.disableTips?.(),
      openHistory: () => cb.openHistory?.(),
      toggleUsed: () => (t.usedOpen = !t.usedOpen),
      togglePalette: () => (t.palette ? closePalette(t) : openPalette(t, cb.onTalk)),
    };
    this.timer = setInterval(() => tick(host, t.view), 250);
    this.stopKeys = listenForKeys(host);
    this.resizeObs = null;
    this.wide = window.matchMedia("(min-width: 1000px)"); // style.css: where the side panel shows
    this.onWide = () => { if (this.wide.matches) this.render(); };
    this.wide.addEventListener("change", this.onWide);
  }

  /** How many times the table was drawn (the tests count renders per frame). */
  get renders() { return this.t.renders; }

  destroy() {
    this.wide.removeEventListener("change", this.onWide);
    closePalette(this.t);
    clearInterval(this.timer);
    this.stopKeys();
    this.resizeObs?.disconnect();
  }

  /** ctx: {names: {id: nickname}, role, playerId, settings: {tips, hintsHighlight}, busy, seat, social} */
  update(view, ctx) {
    const t = this.t;
    takeView(t, view, ctx);
    this.render();
    const wasMyTurn = t.prev && isMyTurn(t.prev);
    if (view.me && isMyTurn(view) && !wasMyTurn) this.cb.onTurn?.();
    const enteringEnd = view.phase === "handEnd" && (!t.prev || t.prev.phase !== "handEnd" || t.prev.handNo !== view.handNo);
    if (enteringEnd) animateAwards(t);
  }

  /**
   * app.js hands every `view` message here. The first view of a frame is drawn at once (no added delay); more
   * views arriving before that frame is painted wait for the next frame, where only the newest is drawn: the
   * table renders at most once per animation frame, whatever the server sends (bots acting in a burst, a
   * reconnect). A hidden tab draws at once (no frames run there, and my turn must still sound).
   */
  schedule(view, ctx) {
    this.queued = [view, ctx];
    if (this.frameBusy && !document.hidden) return;
    this.flushQueued();
  }

  flushQueued() {
    const q = this.queued;
    this.queued = null;
    if (!q) { this.frameBusy = false; return; }
    this.frameBusy = true;
    const token = (this.frameToken = (this.frameToken ?? 0) + 1);
    this.update(q[0], q[1]);
    // this callback runs in the frame that paints the render above: anything queued since goes to the next one
    requestAnimationFrame(() => {
      if (token !== this.frameToken) return;
      if (this.queued) requestAnimationFrame(() => { if (token === this.frameToken) this.flushQueued(); });
      else this.frameBusy = false;
    });
  }

  render() {
    render(this.t, this.ctx, this.wide);
    if (this.t.view && !this.resizeObs && typeof ResizeObserver !== "undefined") {
      this.resizeObs = new ResizeObserver(() => onResize(this.t));
      this.resizeObs.observe(this.t.host);
    }
  }

  send(action) {
    if (this.t.busy) return;
    this.lock();
    this.cb.onAction(action);
  }

  /** An action is on its way: disable the controls until the answer (view / ack / error) comes. */
  lock() {
    const t = this.t;
    t.busy = true;
    t.host.querySelectorAll(".actions button, .raise-panel button").forEach((b) => { b.disabled = true; });
    // (written straight into the buttons, not through a render: the keyed slices that hold them must be
    // built again next time, or an unlocked turn would keep these disabled buttons)
    t.lockGen += 1;
    clearTimeout(this.unlockTimer);
    this.unlockTimer = setTimeout(() => this.unlock(), 6000);
  }

  /** The answer came (or never will): the controls are live again. */
  unlock() {
    if (!this.t.busy) return;
    this.t.busy = false;
    this.render();
  }

  /** A reaction or chat line of `from` (a player id; null: a spectator) over their seat for `ms`. */
  bubble(from, text, ms) { return bubble(this.t, from, text, ms); }
}
