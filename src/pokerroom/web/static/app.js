// Entry point: routing (/ → lobby, /r/{code} → room), settings, dialogs, and the room connection.
// The client holds no game rule: it shows the server's `lobby` / `view` / `result` and sends what the view offers.

import { languageField, tx } from "./i18n.js";
import { RoomConnection, roomInfo, loadToken, forgetToken } from "./net.js";
import { TableUI } from "./table.js";
import { isMyTurn } from "./table/view.js";
import { pastHandsView } from "./history.js";
import * as replay from "./replay/index.js";
import { rulesContent } from "./rules.js";
import { playSound, soundsForEvents, unlockAudio, vibrateTurn } from "./sound.js";
import { withNames } from "./labels.js";
import { h } from "./dom.js";
import { confirmDialog, dropToast, toast } from "./dialogs.js";
import { keepAwake } from "./wake.js";
import { joinForm, optionsEditor, renderLobby } from "./lobby.js";
import { ledgerChrome, showLedger } from "./ledger.js";
import * as screens from "./screens.js";
import * as hostLive from "./hostlive.js";
import { hostTalkToggles } from "./talk.js";
import {
  MODES, defaultOptions, validateOptions, optionsToSend, summarizeOptions, modeName, indianName, setIndianName,
} from "./options.js";

// ------------------------------------------------------------------ small helpers
const $ = (sel) => document.querySelector(sel);
const main = () => $("#main");

// ------------------------------------------------------------------ settings
const SETTINGS_KEY = "pokerroom:settings";
const settings = Object.assign(
  { sound: true, fourColour: false, largeText: false, tips: true, hintsHighlight: true },
  (() => { try { return JSON.parse(localStorage.getItem(SETTINGS_KEY) ?? "{}"); } catch { return {}; } })(),
);
function saveSettings() {
  try { localStorage.setItem(SETTINGS_KEY, JSON.stringify(settings)); } catch { /* ignore */ }
  applySettings();
}
function applySettings() {
  document.body.classList.toggle("four-colour", !!settings.fourColour);
  document.body.classList.toggle("large-text", !!settings.largeText);
}

function turnAlert() {
  if (!settings.sound) return;
  vibrateTurn(); // browsers refuse (and log) vibration before the user has touched the page: checked inside
  playSound("turn");
}
function eventSounds(events, myId) {
  if (!settings.sound) return;
  for (const kind of soundsForEvents(events, myId)) playSound(kind);
}
document.addEventListener("pointerdown", () => { if (settings.sound) unlockAudio(); }, { passive: true });

function renderSettings() {
  const body = $("#settings-body");
  const toggle = (key, label, help) => {
    const input = h("input", { type: "checkbox", id: "set-" + key });
    input.checked = !!settings[key];
    input.addEventListener("change", () => { settings[key] = input.checked; saveSettings(); room?.refresh(); });
    return h("label", { class: "check", for: "set-" + key }, input, h("span", {}, label, help ? h("div", { class: "help", style: "color:var(--muted);font-size:.85em" }, help) : null));
  };
  const nameSel = h("div", { class: "seg", role: "radiogroup", "aria-label": tx("app.1") },
    [tx("app.2"), tx("app.3")].map((n) => {
      const input = h("input", { type: "radio", name: "indian-name", value: n });
      input.checked = indianName() === n;
      input.addEventListener("change", () => { setIndianName(n); room?.refresh(); });
      return h("label", {}, input, h("span", {}, n));
    }));
  body.replaceChildren(...[
    toggle("sound", tx("app.4"), tx("app.5")),
    toggle("fourColour", tx("app.6"), tx("app.7")),
    toggle("largeText", tx("app.8")),
    toggle("tips", tx("app.9")),
    toggle("hintsHighlight", tx("app.10"), tx("app.11")),
    h("div", { class: "field" }, h("span", { class: "label" }, tx("app.1")), nameSel),
    languageField(),
    ...(room?.isHost() ? hostTalkToggles(room) : []),
    room?.sitControl(),
    room ? kickField() : null,
    room?.isHost() ? screens.banList(room) : null,
    room ? h("div", { class: "field" }, h("button", { class: "btn danger", type: "button", "data-testid": "leave", onclick: async () => {
      if (await confirmDialog(tx("app.12"), tx("screens.37"))) room.leave();
    } }, tx("app.13"))) : null,
  ].filter(Boolean)); // outside a room there is no 나가기 (replaceChildren would print "null")
}

/** The host's 내보내기 list (removing a griefer): every other human still in the room, with a confirmation. */
function kickField() {
  const others = room.kickable();
  if (!others.length) return null;
  return h("div", { class: "field", "data-testid": "kick-list" }, h("span", { class: "label" }, tx("app.14")),
    h("ul", { class: "seat-list" }, others.map((p) => h("li", {}, h("span", {}, p.nickname), screens.kickButton(room, p)))));
}


function openRules() {
  const sel = $("#rules-mode");
  const cur = room?.currentMode() ?? "sevenPoker";
  sel.replaceChildren(...MODES.map((m) => h("option", { value: m.key }, modeName(m.key))));
  sel.value = cur;
  const draw = () => $("#rules-body").replaceChildren(rulesContent(sel.value, room?.currentOptions() ?? {}));
  sel.onchange = draw;
  draw();
  $("#dlg-rules").showModal();
}

function setupChrome() {
  applySettings();
  document.querySelectorAll("dialog [data-close]").forEach((b) => b.addEventListener("click", () => b.closest("dialog").close()));
  $("#btn-rules").addEventListener("click", openRules);
  $("#btn-settings").addEventListener("click", () => { renderSettings(); $("#dlg-settings").showModal(); });
  $("#btn-log").addEventListener("click", () => openLog("log"));
  $("#tab-log").addEventListener("click", () => openLog("log"));
  $("#tab-past").addEventListener("click", () => openLog("past"));
  ledgerChrome(() => room);
}

// ------------------------------------------------------------------ 기록: 진행 기록 (public log) / 지난 판 (history)
let logTab = "log";
function openLog(tab) {
  logTab = tab;
  $("#tab-log").setAttribute("aria-selected", String(tab === "log"));
  $("#tab-past").setAttribute("aria-selected", String(tab === "past"));
  $("#log-body").hidden = tab !== "log";
  $("#past-body").hidden = tab !== "past";
  if (tab === "log") {
    const v = room?.view;
    $("#log-body").replaceChildren(...(v?.publicLog ?? []).map((e) => h("li", { "data-kind": e.type }, `#${e.handNo} ${withNames(e.text, room.names())}`)));
  } else {
    renderPast();
    if (room && !room.requestHistory()) $("#past-body").replaceChildren(h("p", { class: "past-empty" }, tx("app.19")));
  }
  if (!$("#dlg-log").open) $("#dlg-log").showModal();
  // the log reads down to the present: its newest line in view (as the wide screen's side panel shows it)
  if (tab === "log") for (const el of [$("#dlg-log .dlg-body"), $("#dlg-log")]) el.scrollTop = el.scrollHeight;
}
function renderPast() {
  $("#past-body").replaceChildren(pastHandsView(room?.history ?? null, { ...(room ? replay.listHooks(room) : {}),
    names: room?.names() ?? {}, myId: room?.role === "player" ? room.playerId : null, currentGame: room?.lobby?.gameNo ?? null,
  }));
}

function setConn(state, text) {
  const c = $("#conn");
  c.hidden = false;
  c.dataset.state = state;
  c.textContent = text;
}

// ------------------------------------------------------------------ lobby (create / join by code)
// ------------------------------------------------------------------ room
/** Refusals of `setOptions`, shown inside the 설정 바꾸기 dialog rather than as a toast. */
const OPTIONS_ERRORS = new Set(["bad_options", "too_many_players", "game_running", "not_host"]);

class Room {
  constructor(code) {
    this.code = code;
    this.conn = null;
    this.lobby = null;
    this.view = null;
    this.result = null;
    this.role = null;
    this.playerId = null;
    this.table = null;
    this.screen = null;
    this.info = null;
    this.history = null; // the last hands ({"type": "history"}), newest first; null until asked
    this.ledger = null; // the room's ledger ({"type": "ledger"}), once a game has been started here
  }

  /** Ask the server for the room's last hands; the answer arrives as a "history" message. */
  requestHistory() { return !!this.conn?.send({ type: "history" }); }

  names() {
    const out = {};
    for (const m of this.lobby?.players ?? []) out[m.id] = m.nickname;
    return out;
  }

  currentMode() { return this.view?.mode ?? this.lobby?.options?.mode ?? this.info?.options?.mode ?? null; }
  currentOptions() { return this.view?.options ?? this.lobby?.options ?? this.info?.options ?? {}; }

  async start() {
    document.title = tx("app.20", [this.code]);
    $("#title").replaceChildren(h("span", { class: "brand" }, tx("app.21")), h("small", { "data-testid": "room-code-title" }, this.code));
    const token = loadToken(this.code);
    let spectating = false;
    try { spectating = sessionStorage.getItem(`pokerroom:spectate:${this.code}`) === "1"; } catch { /* ignore */ }
    if (token) this.connect({ token });
    else if (spectating) this.connect({ spectate: true });
    else await this.showJoin();
  }

  async showJoin(error = null) {
    this.screen = "join";
    let info = null;
    try { info = await roomInfo(this.code); this.info = info; if (typeof info.link === "string") this.link = info.link; } catch (e) {
      goneCard(tx("app.22"), e.message, e.code === "room_not_found" ? [tx("app.41"), tx("app.43")] : null);
      return;
    }
    main().replaceChildren(h("div", { class: "lobby" }, joinForm(this.code, info, error, (hello) => this.connect(hello))));
  }

  connect(hello) {
    this.conn?.close();
    main().replaceChildren(h("div", { class: "lobby" }, h("p", { class: "tagline" }, tx("app.24"))));
    this.conn = new RoomConnection(this.code, hello, {
      onMessage: (m) => this.onMessage(m),
      onState: (s, detail) => {
        if (s === "open") setConn("open", tx("app.25"));
        else if (s === "checking") setConn("connecting", tx("app.44"));
        else if (s === "connecting" || detail === "moving") setConn("connecting", detail ? tx("app.26") : tx("app.24"));
        else setConn("closed", detail === "left" ? tx("seats.9") : tx("screens.7"));
      },
      onFatal: (code, message) => {
        if (code === "bad_token" || code === "kicked" || code === "banned") forgetToken(this.code);
        if (code === "room_closed") {
          goneCard(tx("net.4"), null, [tx("app.43")]);
          return;
        }
        this.showJoin(message || tx("app.27"));
      },
      onMoving: () => toast(tx("app.28"), "info"),
    });
  }

  onMessage(m) {
    switch (m.type) {
      case "welcome":
        this.role = m.role;
        this.playerId = m.playerId;
        this.resendPending();
        if (m.token) { try { sessionStorage.removeItem(`pokerroom:spectate:${this.code}`); } catch { /* ignore */ } }
        this.render();
        replay.fromLink(this); // /r/<code>?hand=<seq>: that hand's replay, as this member may see it
        break;
      case "lobby": {
        const before = this.lobby?.options;
        this.lobby = m;
        this.onOptionsChanged(before, m.options);
        this.render();
        document.querySelector("#dlg-settings [data-testid=ban-list]")?.replaceWith(screens.banList(this));
        this.renderSeatRequests();
        break;
      }
      case "seatAnswer":
        if (m.playerId === this.playerId) {
          toast(m.accept ? tx("app.29") : tx("app.30"), m.accept ? "info" : "error");
        }
        this.render();
        break;
      case "view":
        // my action's ack rides on its view (net.js): settle it first so the table renders once, unlocked
        if (m.ack !== undefined && this.pending && m.ack === this.pending.id) this.pending = null;
        this.view = m.view;
        this.seatPart = m.seat ?? null;
        this.preNotice(m);
        if (m.view?.result) this.result = m.view.result;
        this.render("view");
        if (this.pending?.retryOnView) {
          this.pending.retryOnView = false;
          this.retryPending();
        }
        break;
      case "ack":
        if (this.pending && m.clientMsgId === this.pending.id) {
          this.pending = null;
          this.table?.unlock();
        }
        break;
      case "result":
        this.result = m.result;
        dropToast("ending"); // ("the results come after this hand": they are here)
        this.render();
        break;
      case "ledger": // 장부 (protocol §2.10): the top bar's button and its dialog
        this.ledger = m.ledger;
        showLedger(this);
        break;
      case "notice": {
        const text = hostLive.noticeText(this, m); // (the host's own acts in the host's words)
        if (text) toast(text, "info", m.code);
        break;
      }
      case "events":
        eventSounds(m.events, this.role === "player" ? this.playerId : null);
        break;
      case "reaction":
      case "chat":
        this.table?.bubble(m.from ?? null, String(m.text ?? ""), m.showMs);
        break;
      case "history": // a page (kept in this.history) or a hand's replay (replay/index.js)
        if (replay.take(this, m) && $("#dlg-log").open && logTab === "past") renderPast();
        break;
      case "error":
        if (this.optionsPending && OPTIONS_ERRORS.has(m.code)) {
          const { errors, save } = this.optionsPending;
          this.optionsPending = null;
          errors.replaceChildren(h("div", {}, m.message || tx("app.31")));
          save.disabled = false;
          break;
        }
        if (this.prePending && !m.clientMsgId && ["stale_version", "preaction_unavailable"].includes(m.code)) {
          this.prePending = false;
          toast(m.code === "stale_version" ? tx("app.32") : m.message, "info");
          break;
        }
        // a hello answered "already joined": this socket is in the room (the page says hello once a socket;
        // one more came from a cluster node on its way to the room's owner), so a player is told nothing
        if (m.code === "already_hello") break;
        if (m.code === "stale_version" && this.onStale(m)) break;
        if (replay.refused(m)) break; // a replay being awaited: waits out history_rate, or says why
        if (m.code !== "stale_version") toast(m.message || tx("app.33"));
        if (this.pending && (!m.clientMsgId || m.clientMsgId === this.pending.id)) this.pending = null;
        this.table?.unlock();
        break;
      default:
        break;
    }
  }

  /** The host's 설정 바꾸기 dialog (lobby and result screens): the next game's options, sent as `setOptions`. */
  openOptions() {
    const l = this.lobby ?? {};
    const opts = { ...defaultOptions(), ...(l.options ?? {}) };
    const players = (l.players ?? []).filter((p) => p.status !== "left").length;
    const errors = h("div", { class: "errors", role: "alert", "data-testid": "options-errors" });
    const save = h("button", { class: "btn primary grow", type: "submit", "data-testid": "save-options" }, tx("app.34"));
    const form = h("form", { novalidate: true, "data-testid": "options-form" },
      ...optionsEditor(opts, errors, players), h("div", { class: "options-save" }, errors, h("div", { class: "row" }, save)));
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      const errs = validateOptions(opts, players);
      errors.replaceChildren(...errs.map((e) => h("div", {}, e)));
      if (errs.length) return;
      const options = optionsToSend(opts);
      if (!this.conn?.send({ type: "setOptions", options })) {
        errors.replaceChildren(h("div", {}, tx("screens.59")));
        return;
      }
      save.disabled = true;
      this.optionsPending = { errors, save, options };
    });
    this.optionsPending = null;
    $("#options-body").replaceChildren(form);
    if (!$("#dlg-options").open) $("#dlg-options").showModal();
  }

  /** A new `lobby`: close my pending 설정 바꾸기 once the server shows what I sent; tell others it changed. */
  onOptionsChanged(before, after) {
    if (!after) return;
    const pending = this.optionsPending;
    if (pending && Object.entries(pending.options).every(([k, v]) => after[k] === v)) {
      this.optionsPending = null;
      $("#dlg-options").close();
      toast(tx("app.35"), "info");
      return;
    }
    // mid-game only the host's stakes change them, announced by their own notice (hostlive.js)
    if (before && !pending && this.lobby?.phase !== "playing" && JSON.stringify(before) !== JSON.stringify(after)) {
      if ($("#dlg-options").open) $("#dlg-options").close();
      toast(tx("app.36", [summarizeOptions(after)]), "info");
    }
  }

  phase() {
    if (this.view?.phase === "finished" && this.lobby?.phase !== "playing") return "finished";
    if (this.lobby?.phase === "finished") return "finished";
    if (this.lobby?.phase === "playing" && this.view) return "playing";
    if (this.lobby?.phase === "lobby") return "lobby";
    return this.view ? "playing" : "lobby";
  }

  /** A pre-action of mine was cancelled by this change: say so (once; a reload does not repeat it). */
  preNotice(m) {
    const n = m.seat?.preAction?.notice;
    if (!n || n.version !== m.version || this.noticeShown === n.version) return;
    this.noticeShown = n.version;
    toast(n.text, "info");
  }

  /** Choose (or clear, kind null) my pre-action for my next turn; the server answers with my view. */
  sendPreAction(kind) {
    this.prePending = true;
    if (!this.conn?.send({ type: "preAction", kind, version: this.conn.version ?? 0 })) {
      this.prePending = false;
      toast(tx("app.37"));
    }
  }

  /** Send an action; remember it so a stale_version refusal of a simultaneous decision can be re-sent. */
  sendAction(action, tries = 0) {
    const version = this.conn.version;
    const id = this.conn.sendAction(action);
    if (!id) {
      toast(tx("app.37"));
      this.table?.unlock();
      this.pending = null;
      return;
    }
    this.pending = { id, action, version, tries, retryOnView: false, at: Date.now() };
    this.table?.lock();
  }

  /**
   * A new socket (a reconnect, say after the server moved: 4012): my action still waiting for its ack may not
   * have reached the server. Send it again with the same id on the fresh connection (at most once applied, see
   * net.js); an old one (> 15 s, the table has long been unlocked) is forgotten instead.
   */
  resendPending() {
    const p = this.pending;
    if (!p || !this.conn) return;
    if (Date.now() - p.at > 15000) { this.pending = null; return; }
    this.conn.resendAction(p.id, p.action, p.version);
  }

  /**
   * stale_version: another change landed first. Choices that do not depend on the others' moves (초이스,
   * 교환, 선언, 런 잇 트와이스, 다음 판, 리바이) are re-sent on the newest view if it still offers them; a bet is
   * decided again.
   */
  onStale(msg) {
    const p = this.pending;
    if (!p || (msg.clientMsgId && msg.clientMsgId !== p.id)) return false;
    const simultaneous = ["choose", "draw", "declare", "runTwice", "ready", "rebuy"].includes(p.action.type);
    if (!simultaneous || p.tries >= 3) {
      this.pending = null;
      toast(tx("app.32"), "info");
      return false;
    }
    this.staleRetries = (this.staleRetries ?? 0) + 1;
    if ((this.conn.version ?? 0) > p.version) this.retryPending();
    else p.retryOnView = true;
    return true;
  }

  retryPending() {
    const p = this.pending;
    if (!p) return;
    const offered = (this.view?.me?.legalActions ?? []).some((a) => a.type === p.action.type);
    if (!offered) { this.pending = null; return; }
    this.sendAction(p.action, p.tries + 1);
  }

  isHost() { return !!this.playerId && this.lobby?.hostId === this.playerId; }

  refresh() { this.render(); }

  /** why = "view": a new view from the server, drawn through the table's once-per-frame schedule. */
  render(why = "") {
    if (!this.lobby) return;
    hostLive.update(this); // the 방장 menu and the pause layer (hostlive.js)
    const phase = this.phase();
    keepAwake(phase === "playing");
    // my turn shows in the tab's title too: a player reading another tab (or the phone's app switcher) sees it
    const myTurn = phase === "playing" && !!this.view?.me && isMyTurn(this.view);
    document.title = tx(myTurn ? "app.40" : "app.20", [this.code]);
    $("#btn-log").hidden = phase !== "playing" && phase !== "finished";
    if (phase === "playing") {
      if (this.screen !== "table" || !this.table) {
        this.table?.destroy();
        const host = h("div", { class: "table-host" });
        main().replaceChildren(host);
        this.table = new TableUI(host, {
          onAction: (a) => this.sendAction(a),
          onPreAction: (kind) => this.sendPreAction(kind),
          onTalk: (msg) => { if (!this.conn?.send(msg)) toast(tx("app.37")); },
          confirm: confirmDialog,
          onTurn: turnAlert,
          toast: (t) => toast(t, "info"),
          disableTips: () => { settings.tips = false; saveSettings(); },
          openHistory: () => openLog("past"),
          seatBar: (v) => this.seatBar(v),
          sitOutButton: (v) => this.sitOutButton(v),
        });
        this.screen = "table";
      }
      this.prePending = false;
      const ctx = { names: this.names(), role: this.role, playerId: this.playerId, settings, busy: !!this.pending,
        seat: this.seatPart ?? null, social: this.lobby?.social ?? {} };
      if (why === "view") this.table.schedule(this.view, ctx);
      else this.table.update(this.view, ctx);
      return;
    }
    this.table?.destroy();
    this.table = null;
    if (phase === "finished") this.renderResult();
    else this.renderWaiting();
  }

  /** Humans the host may remove: everyone else still in the room (bots have 빼기 instead). */
  kickable() {
    if (!this.isHost()) return [];
    return (this.lobby?.players ?? []).filter((p) => !p.bot && p.id !== this.playerId && p.status !== "left");
  }

  /** The invite link comes from the server's configuration (`--public-url` / the LAN address), not from the
   * address this page happens to be open on (the host's own 127.0.0.1). */
  fetchLink() {
    if (this.linkAsked) return;
    this.linkAsked = true;
    roomInfo(this.code).then((info) => {
      if (typeof info?.link !== "string" || info.link === this.link) return;
      this.link = info.link;
      if (this.screen === "waiting" && room === this) this.render();
    }).catch(() => { this.linkAsked = false; });
  }

  // ------------------------------------------------------------------ seats between hands, host-approved
  // (docs/decisions/0005-seats-change-between-hands.md)
  /** My member entry in the lobby (null for a spectator). */
  myMember() { return (this.lobby?.players ?? []).find((p) => p.id === this.playerId) ?? null; }

  /** My seat in the running game's view (null when I have none). */
  mySeat(v = this.view) { return (v?.seats ?? []).find((s) => s.id === this.playerId) ?? null; }

  sendSeat(msg) {
    if (!this.conn?.send(msg)) { toast(tx("screens.59")); return; }
    if (msg.type === "sitOut") toast(tx("app.38"), "info");
    if (msg.type === "sitIn") toast(tx("app.39"), "info");
  }

  renderWaiting() { screens.renderWaiting(this); }
  renderResult() { screens.renderResult(this); }
  /** Under the table: 자리 요청 or 복귀 (screens.js); null when there is nothing to offer. */
  seatBar(v) { return screens.seatBar(this, v); }
  sitOutButton(v) { return screens.sitOutButton(this, v); }
  sitControl() { return screens.sitControl(this); }
  renderSeatRequests() { screens.renderSeatRequests(this, room); }

  leave() {
    document.querySelector("#seat-requests")?.remove();
    this.conn?.send({ type: "leave" });
    this.conn?.close();
    forgetToken(this.code);
    try { sessionStorage.removeItem(`pokerroom:spectate:${this.code}`); } catch { /* ignore */ }
    document.querySelectorAll("dialog[open]").forEach((d) => d.close());
    room = null;
    history.pushState({}, "", "/");
    route();
  }
}

let room = null;

/** A room that cannot be entered: why, and the way home. A room that is gone (`gone`: the lines that say what
 * became of it, its chips and history went with it, poker.md §12) offers a new room instead. */
function goneCard(title, message, gone) {
  const home = () => { history.pushState({}, "", "/"); route(); };
  main().replaceChildren(h("div", { class: "lobby" }, h("div", { class: "card-box", "data-testid": "cannot-enter" },
    h("h2", {}, title), message ? h("p", {}, message) : null, gone ? h("p", { class: "help" }, gone.join(" ")) : null,
    h("button", { class: gone ? "btn primary" : "btn", onclick: home }, tx(gone ? "app.42" : "app.23")))));
}

function route() {
  const m = location.pathname.match(/^\/r\/([A-Za-z0-9_-]+)\/?$/);
  room?.conn?.close();
  room?.table?.destroy();
  document.querySelector("#seat-requests")?.remove();
  room = null;
  hostLive.update(null);
  showLedger(null);
  $("#conn").hidden = true;
  if (m) {
    room = new Room(m[1]);
    window.__room = room; // for debugging and tests
    room.start();
  } else {
    renderLobby(route);
  }
}

window.addEventListener("popstate", route);
setupChrome();
route();
