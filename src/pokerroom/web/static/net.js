// HTTP + websocket client of docs/protocol.md, with automatic reconnect (exponential backoff) and the seat
// token kept in localStorage under "pokerroom:<code>" so a reload reconnects to the same seat.
// It asks for view deltas (protocol §2.8) and hands the app whole `view` messages only.

import { tx } from "./i18n.js";
import { reactionText, serverMessage, wordBots, wordView } from "./words.js";
import { ViewTracker } from "./delta.js";

export function tokenKey(code) { return `pokerroom:${code}`; }
export function loadToken(code) { try { return localStorage.getItem(tokenKey(code)); } catch { return null; } }
export function saveToken(code, token) { try { localStorage.setItem(tokenKey(code), token); } catch { /* ignore */ } }
export function forgetToken(code) { try { localStorage.removeItem(tokenKey(code)); } catch { /* ignore */ } }

/**
 * The server's clock as seen from here. Deadlines (`view.deadlineAt`) are server epoch ms, and a phone's clock
 * can be minutes off, which would show a full or an empty timer ring. Every `view` and `pong` carries
 * `serverNow`; each sample is `serverNow - arrival time`, which is the true offset minus that message's
 * network delay, so the largest of the last few samples is the best estimate.
 */
export const serverClock = {
  samples: [],
  offset: 0,
  observe(serverNow, localNow = Date.now()) {
    if (typeof serverNow !== "number" || !Number.isFinite(serverNow)) return;
    this.samples.push(serverNow - localNow);
    if (this.samples.length > 8) this.samples.shift();
    this.offset = Math.max(...this.samples);
  },
  now() { return Date.now() + this.offset; },
};

async function jsonFetch(url, init) {
  let res;
  try {
    res = await fetch(url, init);
  } catch {
    throw Object.assign(new Error(tx("net.1")), { code: "network" });
  }
  let body = null;
  try { body = await res.json(); } catch { body = null; }
  if (!res.ok) {
    const err = body?.error ?? {};
    const msg = serverMessage(err.code, err.message) || (res.status === 404 ? tx("net.2") : tx("net.3", [res.status]));
    throw Object.assign(new Error(msg), { code: err.code ?? String(res.status), status: res.status });
  }
  return body;
}

export function createRoom(nickname, options) {
  return jsonFetch("/api/rooms", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ nickname, options }),
  });
}

export async function roomInfo(code) {
  const info = await jsonFetch(`/api/rooms/${encodeURIComponent(code)}`);
  wordBots(info?.players);
  return info;
}

/** Close codes of a server going away on purpose (docs/protocol.md §2): 4012 "reconnect, to any node, with your
 * seat token" (a node draining on SIGTERM), 1012 "service restart". The room lives on elsewhere. */
export const MOVING_CODES = [4012, 1012];

/**
 * One room connection. `hello` is {token} | {nickname} | {spectate: true}. Handlers:
 * onMessage(msg), onState(state: "connecting"|"checking"|"open"|"closed", detail), onFatal(code, message),
 * onMoving(code) (the server is going away: the connection reconnects by itself, soon).
 */
/** How long after a stale_version refusal a view that has not come is asked for (staleSeen). */
const STALE_RESYNC_MS = 1500;

/**
 * A socket the browser still calls open may be dead: a phone that slept or changed networks keeps it "open"
 * for minutes while nothing passes, and so does a node that stopped (paused, cut off) with the room's sockets
 * on it; its table stands still with a green dot. Every message heard is a sign of life. A ping goes out every
 * PING_MS and must be answered (the server answers pong; any message counts) within PONG_MS, a hundred times
 * what a loaded node takes; when the page comes back (shown again, online again), within PROBE_MS, and a
 * connection waiting out its back-off tries at once. An action nothing answers for ACK_MS (its ack takes
 * milliseconds) sends such a probe too, so the player who acts is not the one left waiting longest, and so
 * does the table's deadline passing with no new view (DEADLINE_GRACE_MS). Unanswered: the socket is dropped
 * and a new one made at once.
 */
const PING_MS = 20000;
const PONG_MS = 10000;
const PROBE_MS = 4000;
const ACK_MS = 3000;
/** How long after the table's deadline (`view.deadlineAt`) a view that has not come sends such a probe: the
 * server always moves the table at a deadline, so silence then says more than silence while people think. */
const DEADLINE_GRACE_MS = 1000;
/** How long a reroute's new socket has to be welcomed before it is given up, the old one with it (reroute). */
const ROUTE_MS = 5000;
/** After a reroute was given up, `route` is not followed for this long: the proxy may not reach that node,
 * and following it again would drop a working connection every ROUTE_MS. */
const ROUTE_PAUSE_MS = 60000;
/**
 * How long a socket may stay connecting before it is given up and another made: a node that stopped (paused,
 * cut off) behind a proxy leaves the handshake unanswered for as long as the proxy waits (an hour in
 * deploy/), and the browser itself never gives up on it. Doubled after each socket given up so (up to 8x),
 * until one is welcomed: on a network so slow that a handshake takes longer, a later one has the time.
 */
const CONNECT_MS = 10000;
/** A node whose socket was given up as silent (or never opened when asked for) is not asked for again, nor
 * followed to by `route`, for this long: a stopped node behind a proxy still accepts connections. */
const SUSPECT_MS = 60000;

export class RoomConnection {
  constructor(code, hello, handlers) {
    this.code = code;
    this.hello = hello;
    this.h = handlers;
    this.ws = null;
    this.attempt = 0;
    this.closedByUs = false;
    this.seq = 0;
    this.version = null;
    this.pingTimer = null;
    this.retryTimer = null;
    this.staleTimer = null;
    this.pending = new Map();
    this.views = new ViewTracker();
    this.heardAt = 0; // when the socket last said anything (a sign of life)
    this.probeTimer = null; // the one ping waiting for a sign of life (askAlive): on probeWs, due by probeBy
    this.probeWs = null;
    this.probeBy = 0;
    this.ackTimer = null; // an action waiting for one (awaitAnswer)
    this.deadlineTimer = null; // the table's deadline passing with no newer view (watchDeadline)
    this.ended = false; // left, refused for good, or the room closed: nothing reconnects
    this.node = null; // the node a proxy is asked for (`?node=`), once a `route` named the room's owner
    this.retiring = null; // the socket a reroute replaces, open and silent until the new one is welcomed
    this.routeTimer = null;
    this.routeAfter = 0; // `route` is ignored until then (a reroute given up: ROUTE_PAUSE_MS)
    this.connectsGivenUp = 0; // sockets given up while still connecting, since the last welcome (CONNECT_MS)
    this.asked = null; // the node this socket asked the proxy for (`?node=`), if any
    this.here = null; // the node this socket is on and the other live ones, as its node said (`node`)
    this.others = [];
    this.suspects = new Map(); // node -> until when it is not asked for (SUSPECT_MS)
    this.onBack = () => { if (document.visibilityState === "visible") this.probe(); };
    window.addEventListener("online", this.onBack);
    document.addEventListener("visibilitychange", this.onBack);
    this.connect();
  }

  url() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const node = this.node ? `?node=${encodeURIComponent(this.node)}` : "";
    return `${proto}//${location.host}/ws/${encodeURIComponent(this.code)}${node}`;
  }

  /** `quiet`: a reroute, whose old socket stays open meanwhile: nothing to tell the player. */
  connect(quiet = false) {
    if (!quiet) this.h.onState?.("connecting", this.attempt);
    let ws;
    try {
      ws = new WebSocket(this.url());
    } catch {
      this.scheduleRetry();
      return;
    }
    this.ws = ws;
    this.welcomed = false;
    this.checking = false;
    this.here = null;
    this.asked = this.node;
    setTimeout(() => {
      if (this.ws !== ws || ws.readyState !== WebSocket.CONNECTING) return;
      this.connectsGivenUp += 1;
      this.dropSilent(ws);
    }, CONNECT_MS * 2 ** Math.min(this.connectsGivenUp, 3));
    ws.onopen = () => {
      this.views.reset(); // a new socket starts with a whole view
      this.resyncAsked = false;
      ws.send(JSON.stringify({ type: "hello", ...this.hello, deltas: true }));
      this.heardAt = Date.now();
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.beat(ws), PING_MS);
    };
    ws.onmessage = (ev) => {
      this.heardAt = Date.now();
      if (this.checking) { // (awaitAnswer's question answered: nothing was wrong after all)
        this.checking = false;
        this.h.onState?.("open");
      }
      let msg;
      try { msg = JSON.parse(ev.data); } catch { return; }
      // refusals and notices reach the app already in the page's language (words.js)
      if (msg.type === "error" || msg.type === "notice") msg.message = serverMessage(msg.code, msg.message, msg.type === "notice");
      if (msg.type === "history" || msg.type === "result") wordView(msg); // past hands, replays, the result
      if (msg.type === "lobby") wordBots(msg.players);
      if (msg.type === "reaction") msg.text = reactionText(msg.reaction, msg.text);
      if (msg.type === "ledger") wordBots(msg.ledger?.rows);
      if (msg.type === "view" || msg.type === "viewDelta" || msg.type === "pong") serverClock.observe(msg.serverNow);
      if (msg.type === "view" || msg.type === "viewDelta") {
        // a delta socket's view frame carries the change's public `events` (no separate events frame):
        // handed on first, as the events frame came before the view, even when the delta is a gap
        if (msg.events !== undefined) this.h.onMessage?.({ type: "events", version: msg.version, events: msg.events });
        // a view frame may carry the `ack` of my action (delta sockets get no separate ack frame):
        // the app handles both at once and renders the table once
        if (msg.type === "view") this.resyncAsked = false;
        msg = this.views.take(msg);
        if (msg !== null) { wordView(msg.view); wordView(msg.seat); } // the engine's Korean, in English (words.js)
        if (msg === null) { // a gap: ask once for a whole view; deltas until it comes are dropped
          if (!this.resyncAsked) this.resyncAsked = this.send({ type: "resync" });
          return;
        }
        this.watchDeadline(ws, msg.view?.deadlineAt);
      }
      if (msg.type === "route") { this.reroute(msg.node); return; }
      if (msg.type === "node") {
        this.here = typeof msg.node === "string" ? msg.node : null;
        this.others = Array.isArray(msg.others) ? msg.others.filter((n) => typeof n === "string" && n) : [];
        return;
      }
      if (msg.type === "welcome") {
        this.attempt = 0;
        this.connectsGivenUp = 0;
        this.welcomed = true;
        this.retire();
        if (msg.token) {
          saveToken(this.code, msg.token);
          this.hello = { token: msg.token };
        }
        this.h.onState?.("open");
      }
      if (msg.type === "view" || msg.type === "ack" || msg.type === "welcome") {
        if (typeof msg.version === "number") this.version = Math.max(this.version ?? 0, msg.version);
      }
      // a join refusal ends a connection only before it is in the room: after `welcome` the same codes answer
      // a seat request (requestSeat) and are shown like any refusal
      // kicked / room closed for idleness / hello too late end the connection whenever they come
      if (msg.type === "error" && msg.code === "stale_version") this.staleSeen();
      if (msg.type === "error" && ((!this.welcomed && this.isFatal(msg.code)) || this.isTerminal(msg.code))) {
        this.closedByUs = true;
        this.ended = true;
        this.h.onFatal?.(msg.code, msg.message);
        try { ws.close(1000); } catch { /* ignore */ }
        return;
      }
      this.h.onMessage?.(msg);
    };
    ws.onclose = (ev) => {
      clearInterval(this.pingTimer);
      if (this.ws !== ws) return;
      this.ws = null;
      this.retire();
      if (this.closedByUs) { this.h.onState?.("closed", "left"); return; }
      if (ev.code === 4404) {
        this.ended = true;
        this.h.onState?.("closed", "room_closed");
        this.h.onFatal?.("room_closed", tx("net.4"));
        return;
      }
      if (MOVING_CODES.includes(ev.code)) {
        this.node = null; // that node is going away: any node, which routes us again if it must
        this.h.onMoving?.(ev.code);
        this.scheduleRetry(true);
        return;
      }
      this.scheduleRetry();
    };
    ws.onerror = () => { /* onclose follows */ };
  }

  isFatal(code) {
    return ["bad_token", "nickname_taken", "nickname_invalid", "room_full", "spectators_full", "too_many_tabs",
      "room_not_found", "server_full", "banned", "nickname_bot", "nickname_banned"].includes(code);
  }

  isTerminal(code) {
    return ["kicked", "room_closed", "hello_timeout"].includes(code);
  }

  /**
   * Reconnect after a pause that doubles per failed attempt (0.5 s .. 10 s, ±20 % jitter). `moving`: the server
   * closed on purpose (4012/1012) and every socket of that node comes back at once, so the first try waits a
   * random 0.15..1 s (full jitter spreads them over the other nodes); later tries back off as usual.
   */
  scheduleRetry(moving = false) {
    this.h.onState?.("closed", moving ? "moving" : "retry");
    const delay = moving && this.attempt === 0 ? 150 + Math.random() * 850
      : Math.min(10000, 500 * 2 ** Math.min(this.attempt, 5)) * (0.8 + Math.random() * 0.4);
    this.attempt += 1;
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => this.connect(), delay);
  }

  /** Every PING_MS on an open socket: a ping that must be answered within PONG_MS. */
  beat(ws) {
    if (this.ws === ws) this.askAlive(ws, PONG_MS);
  }

  /** The page came back (shown again, online again): is the socket alive? A waiting retry goes at once. */
  probe() {
    if (this.ended || this.closedByUs) return;
    const ws = this.ws;
    if (!ws) {
      clearTimeout(this.retryTimer);
      this.connect();
      return;
    }
    this.askAlive(ws, PROBE_MS); // (a socket still connecting: its own handshake decides)
  }

  /**
   * A ping on the open socket `ws`, which is given up (dropSilent) unless something is heard on it within `ms`.
   * One such question at a time: one already waiting whose answer is due sooner stays (a frame heard since it
   * was asked answers both), else the new one replaces it.
   */
  askAlive(ws, ms) {
    if (this.ws !== ws || ws.readyState !== WebSocket.OPEN) return;
    const asked = Date.now();
    ws.send(JSON.stringify({ type: "ping" }));
    if (this.probeWs === ws && this.probeBy <= asked + ms) return;
    clearTimeout(this.probeTimer);
    this.probeWs = ws;
    this.probeBy = asked + ms;
    this.probeTimer = setTimeout(() => {
      this.probeWs = null;
      if (this.ws === ws && this.heardAt < asked) this.dropSilent(ws);
    }, ms);
  }

  /**
   * A silent (or never opened) socket is given up (its close may never complete over a dead link) and a new one
   * made now, away from its node: that node may be the one that stopped. When the node said which one it was
   * and which others live (`node`), the new socket asks for one of those others at random (a proxy that
   * balances would send it to the stopped node again as often as not), and that node routes it again if it
   * must; otherwise to any node.
   */
  dropSilent(ws) {
    if (this.ws !== ws) return;
    this.ws = null;
    const stopped = this.here ?? this.asked; // (a socket that never heard `node`: the node it asked for)
    if (stopped) this.suspects.set(stopped, Date.now() + SUSPECT_MS);
    this.node = this.anotherNode();
    clearInterval(this.pingTimer);
    ws.onclose = null;
    ws.onmessage = null;
    try { ws.close(4000); } catch { /* ignore */ }
    this.h.onState?.("closed", "retry");
    this.connect();
  }

  /**
   * `route` (docs/protocol.md §2.2): this socket is relayed to the node that owns the room, and the proxy
   * routes `?node=<id>` to a node. A new socket asks for the owner; this one stays open (silent: the new one
   * starts from a whole view) until the new one is welcomed, so the others never see the seat go away, and
   * carries what is sent meanwhile (an action's ack then comes again on the new socket: pending actions are
   * re-sent on welcome). Later reconnects ask for that node too, until one going away (4012/1012) or a socket
   * given up as silent (dropSilent).
   */
  reroute(node) {
    const ws = this.ws;
    if (typeof node !== "string" || !node || node === this.node || !ws || this.retiring || this.ended) return;
    if (Date.now() < this.routeAfter || this.isSuspect(node)) return; // (a stopped owner whose lease stands)
    this.node = node;
    this.retiring = ws;
    ws.onmessage = null;
    ws.onclose = null;
    this.connect(true);
    const fresh = this.ws;
    clearTimeout(this.routeTimer);
    this.routeTimer = setTimeout(() => {
      // the new socket is stuck (neither welcomed nor closed): say so, make another the usual way (to any node),
      // and stay where that one lands for a while
      if (this.ws === fresh && this.retiring && !this.welcomed) {
        this.routeAfter = Date.now() + ROUTE_PAUSE_MS;
        this.retire();
        this.dropSilent(fresh);
      }
    }, ROUTE_MS);
  }

  /** A live node that no socket was given up on lately, at random; null when none is known (any node). */
  anotherNode() {
    const now = Date.now();
    const fine = this.others.filter((n) => !this.isSuspect(n, now));
    return fine.length ? fine[Math.floor(Math.random() * fine.length)] : null;
  }

  isSuspect(node, now = Date.now()) {
    return (this.suspects.get(node) ?? 0) > now;
  }

  /** The socket a reroute replaced: closed once the new one is welcomed, or has failed. */
  retire() {
    const ws = this.retiring;
    this.retiring = null;
    try { ws?.close(1000); } catch { /* ignore */ }
  }

  send(msg) {
    const ws = this.ws?.readyState === WebSocket.OPEN ? this.ws : this.retiring; // (a reroute's old socket)
    if (!ws || ws.readyState !== WebSocket.OPEN) return false;
    ws.send(JSON.stringify(msg));
    return true;
  }

  /**
   * A refusal said the table moved on (stale_version): the newer view is nearly always on its way (someone
   * acted first). If none has come a moment later, a frame was lost (between two servers while the room
   * changed hands) and nothing else would bring it: ask once for a whole view, as for a gap.
   */
  staleSeen() {
    const seen = this.version;
    clearTimeout(this.staleTimer);
    this.staleTimer = setTimeout(() => {
      if (this.version === seen && !this.resyncAsked) this.resyncAsked = this.send({ type: "resync" });
    }, STALE_RESYNC_MS);
  }

  sendAction(action) {
    this.seq += 1;
    const clientMsgId = `c-${Date.now().toString(36)}-${this.seq}`;
    const ok = this.send({ type: "action", clientMsgId, version: this.version ?? 0, action });
    if (ok) this.awaitAnswer();
    return ok ? clientMsgId : null;
  }

  /**
   * A view with a deadline: if no newer view has come DEADLINE_GRACE_MS after it (by the server's clock), ask
   * whether the socket is alive. A player whose link died while another was to act is found before their own
   * turn, which starts by that deadline, runs out on the node that serves the room.
   */
  watchDeadline(ws, deadlineAt) {
    clearTimeout(this.deadlineTimer);
    if (typeof deadlineAt !== "number" || !Number.isFinite(deadlineAt)) return;
    const wait = Math.max(0, deadlineAt - serverClock.now()) + DEADLINE_GRACE_MS;
    this.deadlineTimer = setTimeout(() => this.askAlive(ws, PROBE_MS), wait);
  }

  /** Something sent expects an answer at once: if nothing at all is heard for ACK_MS, ask whether the socket
   * is alive (askAlive, PROBE_MS) and say so ("checking", until anything is heard). On a dead one the action
   * goes again on the next socket (resendAction). */
  awaitAnswer() {
    const ws = this.ws;
    const sent = Date.now();
    clearTimeout(this.ackTimer);
    this.ackTimer = setTimeout(() => {
      if (this.heardAt >= sent || this.ws !== ws || ws.readyState !== WebSocket.OPEN) return;
      this.checking = true;
      this.h.onState?.("checking");
      this.askAlive(ws, PROBE_MS);
    }, ACK_MS);
  }

  /** Send an unacknowledged action again on a new socket, with its own id: the server applies it at most once
   * (a duplicate id gets its ack again; a changed table answers stale_version). */
  resendAction(clientMsgId, action, version) {
    return this.send({ type: "action", clientMsgId, version, action });
  }

  close() {
    this.closedByUs = true;
    this.ended = true;
    window.removeEventListener("online", this.onBack);
    document.removeEventListener("visibilitychange", this.onBack);
    clearTimeout(this.retryTimer);
    clearTimeout(this.staleTimer);
    clearTimeout(this.probeTimer);
    clearTimeout(this.ackTimer);
    clearTimeout(this.deadlineTimer);
    clearTimeout(this.routeTimer);
    clearInterval(this.pingTimer);
    this.retire();
    try { this.ws?.close(1000); } catch { /* ignore */ }
  }
}
