// Entry point: routing (/ → lobby, /r/{code} → room), settings, dialogs, and the room connection.
// The client holds no game rule: it shows the server's `lobby` / `view` / `result` and sends what the view offers.

import { RoomConnection, createRoom, roomInfo, loadToken, saveToken, forgetToken } from "./net.js";
import { TableUI } from "./table.js";
import { pastHandsView } from "./history.js";
import { rulesContent } from "./rules.js";
import { playSound, soundsForEvents, unlockAudio, vibrateTurn } from "./sound.js";
import { fmt, netChips, withNames } from "./labels.js";
import { qrSvg } from "./qr.js";
import {
  MODES, OPTION_DEFS, defaultOptions, optionApplies, optionErrors, validateOptions, validateNickname, optionsToSend,
  summarizeOptions, modeName, indianName, setIndianName, resolvedBetting, maxPlayers,
} from "./options.js";

// ------------------------------------------------------------------ small helpers
function h(tag, attrs = {}, ...kids) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v == null || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k === "style") node.style.cssText = v; // CSSOM: a style *attribute* would break the page's CSP
    else if (k.startsWith("on") && typeof v === "function") node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const kid of kids.flat()) {
    if (kid == null || kid === false) continue;
    node.appendChild(typeof kid === "string" || typeof kid === "number" ? document.createTextNode(String(kid)) : kid);
  }
  return node;
}

const $ = (sel) => document.querySelector(sel);
const main = () => $("#main");

export function toast(text, kind = "error") {
  document.querySelectorAll(".toast").forEach((t) => t.remove());
  const t = h("div", { class: `toast ${kind}`, role: kind === "error" ? "alert" : "status", "data-testid": "toast" }, text);
  document.body.append(t);
  setTimeout(() => t.remove(), 3800);
}

/**
 * Copy `text` to the clipboard. `navigator.clipboard` exists only in secure contexts (https or localhost), so
 * on a LAN address over plain http the link is copied through a hidden textarea and execCommand("copy").
 * Resolves true when the copy happened.
 */
export async function copyText(text) {
  if (navigator.clipboard?.writeText && window.isSecureContext) {
    try { await navigator.clipboard.writeText(text); return true; } catch { /* fall back below */ }
  }
  const ta = h("textarea", { class: "copy-buffer", readonly: true, "aria-hidden": "true", tabindex: "-1" });
  ta.value = text;
  document.body.append(ta);
  ta.select();
  ta.setSelectionRange(0, text.length);
  let ok = false;
  try { ok = document.execCommand("copy"); } catch { ok = false; }
  ta.remove();
  return ok;
}

/** The invite link as a QR code drawn here (qr.js), for friends in the same room to scan. */
function inviteQr(link) {
  let svg;
  try { svg = qrSvg(link, { label: "초대 링크 QR 코드" }); } catch { return null; }
  return h("div", { class: "qr-row", "data-testid": "invite-qr" },
    h("div", { class: "qr-box" }, svg),
    h("p", { class: "help" }, "옆에 있는 친구는 휴대폰 카메라로 이 QR 코드를 찍으면 바로 들어올 수 있어요."));
}

function confirmDialog(text, yesLabel = "네, 포기할게요") {
  const dlg = $("#dlg-confirm");
  $("#dlg-confirm-text").textContent = text;
  $("#dlg-confirm-yes").textContent = yesLabel;
  return new Promise((resolve) => {
    const done = (v) => { dlg.close(); yes.removeEventListener("click", onYes); no.removeEventListener("click", onNo); resolve(v); };
    const yes = $("#dlg-confirm-yes");
    const no = $("#dlg-confirm-no");
    const onYes = () => done(true);
    const onNo = () => done(false);
    yes.addEventListener("click", onYes);
    no.addEventListener("click", onNo);
    dlg.addEventListener("cancel", () => resolve(false), { once: true });
    dlg.showModal();
  });
}

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
  const nameSel = h("div", { class: "seg", role: "radiogroup", "aria-label": "인디언 포커 표시 이름" },
    ["인디언 포커", "이마 포커"].map((n) => {
      const input = h("input", { type: "radio", name: "indian-name", value: n });
      input.checked = indianName() === n;
      input.addEventListener("change", () => { setIndianName(n); room?.refresh(); });
      return h("label", {}, input, h("span", {}, n));
    }));
  body.replaceChildren(...[
    toggle("sound", "소리·진동", "내 차례(진동도), 베팅, 카드, 승리"),
    toggle("fourColour", "4색 덱", "♠ 검정 · ◆ 파랑 · ♥ 빨강 · ♣ 초록"),
    toggle("largeText", "큰 글씨"),
    toggle("tips", "첫 판 도움말 말풍선"),
    toggle("hintsHighlight", "추천 행동 강조", "방 설정에서 족보 표시가 켜져 있을 때"),
    h("div", { class: "field" }, h("span", { class: "label" }, "인디언 포커 표시 이름"), nameSel),
    ...(room?.isHost() ? hostTalkToggles() : []),
    room?.sitControl(),
    room ? kickField() : null,
    room ? h("div", { class: "field" }, h("button", { class: "btn danger", type: "button", "data-testid": "leave", onclick: async () => {
      if (await confirmDialog("방을 나갈까요? 게임 중이면 남은 판은 자동으로 다이해요.", "나가기")) room.leave();
    } }, "방 나가기")) : null,
  ].filter(Boolean)); // outside a room there is no 나가기 (replaceChildren would print "null")
}

/** The host's 내보내기 list (issue #12): every other human still in the room, with a confirmation. */
function kickField() {
  const others = room.kickable();
  if (!others.length) return null;
  return h("div", { class: "field", "data-testid": "kick-list" }, h("span", { class: "label" }, "참가자 내보내기"),
    h("ul", { class: "seat-list" }, others.map((p) => h("li", {}, h("span", {}, p.nickname), kickButton(p)))));
}

function kickButton(p) {
  return h("button", { class: "btn small danger", type: "button", "data-testid": `kick-${p.id}`, onclick: async () => {
    const playing = room.lobby?.phase === "playing";
    const text = `${p.nickname} 님을 내보낼까요?${playing ? " 이번 게임의 남은 판은 자동으로 다이해요." : ""}`;
    if (await confirmDialog(text, "내보내기")) { room.conn.send({ type: "kick", playerId: p.id }); $("#dlg-settings").close(); }
  } }, "내보내기");
}

/** The host's table-talk switches (protocol §2.7): sent to the server, shown to everyone through `lobby`. */
function hostTalkToggles() {
  const social = { chat: false, spectatorReactions: false, ...(room?.lobby?.social ?? {}) };
  const toggle = (key, label, help) => {
    const input = h("input", { type: "checkbox", id: "social-" + key, "data-testid": "social-" + key });
    input.checked = !!social[key];
    input.addEventListener("change", () => {
      const next = { ...social, [key]: input.checked };
      if (!room?.conn?.send({ type: "social", chat: next.chat, spectatorReactions: next.spectatorReactions })) {
        input.checked = !input.checked;
        toast("연결이 끊겨 보내지 못했어요. 다시 연결되면 눌러 주세요.");
        return;
      }
      social[key] = input.checked;
    });
    return h("label", { class: "check", for: "social-" + key }, input, h("span", {}, label, h("div", { class: "help", style: "color:var(--muted);font-size:.85em" }, help)));
  };
  return [
    toggle("chat", "채팅 허용 (방장)", "참가자가 40자까지 한마디를 보낼 수 있어요. 저장되지 않아요."),
    toggle("spectatorReactions", "관전자 반응 허용 (방장)", "관전자도 나이스!·ㅋㅋ 같은 반응을 보낼 수 있어요."),
  ];
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
    $("#log-body").replaceChildren(...(v?.publicLog ?? []).map((e) => h("li", {}, `#${e.handNo} ${withNames(e.text, room.names())}`)));
  } else {
    renderPast();
    if (room && !room.requestHistory()) $("#past-body").replaceChildren(h("p", { class: "past-empty" }, "연결이 끊겨 불러오지 못했어요. 다시 연결되면 눌러 주세요."));
  }
  if (!$("#dlg-log").open) $("#dlg-log").showModal();
}
function renderPast() {
  $("#past-body").replaceChildren(pastHandsView(room?.history ?? null, {
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
function adultNotice() {
  return h("div", { class: "notice", role: "note" },
    h("strong", {}, "성인용 카드 게임 · 가상 칩만 사용"), h("br"),
    "이 방의 칩은 방 안에서만 쓰는 가상 칩이에요. 돈을 걸거나, 칩을 돈으로 바꾸거나, 다른 사람에게 주고받을 수 없고, 방이 끝나면 사라져요.");
}

function adultCheck(id) {
  const input = h("input", { type: "checkbox", id, required: true });
  return [input, h("label", { class: "check", for: id }, input, h("span", {}, "성인용 카드 게임임을 확인했어요. 실제 돈을 걸지 않을게요."))];
}

function segField(def, value, onChange) {
  const name = "opt-" + def.key;
  const seg = h("div", { class: "seg", role: "radiogroup", "aria-label": def.label },
    def.choices.map(([val, text]) => {
      const input = h("input", { type: "radio", name, value: String(val), "data-opt": def.key });
      input.checked = val === value;
      input.addEventListener("change", () => onChange(val));
      return h("label", {}, input, h("span", {}, text));
    }));
  return h("div", { class: "field", "data-field": def.key }, h("span", { class: "label" }, def.label), seg, def.help ? h("span", { class: "help" }, def.help) : null,
    h("div", { class: "field-error", role: "alert", "data-error-for": def.key }));
}

/** Show each error under its field (`[data-error-for=key]` inside `root`); clears the others. */
function showFieldErrors(root, errs) {
  root.querySelectorAll("[data-error-for]").forEach((e) => { e.textContent = ""; });
  for (const { key, text } of errs) {
    const slot = root.querySelector(`[data-error-for="${key}"]`);
    if (slot) slot.textContent = slot.textContent ? `${slot.textContent} ${text}` : text;
  }
}

/**
 * The option controls of poker.md §2.2 for `opts`, which they edit in place: the mode grid, the 이마 포커 name
 * choice, then every option that applies to the mode. Shared by the create form and the host's 설정 바꾸기
 * dialog; `players` (when known) adds the seat-count check, and `errors` shows the live Korean validation.
 */
function optionsEditor(opts, errors, players = null) {
  let note = "";
  const optionsBox = h("div", {});
  const modeBox = h("div", { class: "mode-grid", role: "radiogroup", "aria-label": "게임 모드" });
  const nameChoice = h("div", { class: "field", "data-field": "indianName" });
  const modeError = h("div", { class: "field-error", role: "alert", "data-error-for": "mode" });
  const moreBody = h("div", {});
  const more = h("details", { class: "more more-options" },
    h("summary", {}, "더 보기", h("small", {}, " 베팅 방식·리바이·시간 등")), moreBody);

  const drawModes = () => {
    modeBox.replaceChildren(...MODES.map((m) => {
      const input = h("input", { type: "radio", name: "mode", value: m.key, "data-opt": "mode" });
      input.checked = opts.mode === m.key;
      input.addEventListener("change", () => { opts.mode = m.key; drawOptions(); });
      return h("label", {}, input, h("span", {}, h("b", {}, modeName(m.key)), h("small", {}, `${m.players} · ${m.blurb}`)));
    }));
  };
  const drawOptions = () => {
    const liveErrs = optionErrors(opts, players);
    const live = liveErrs.map((e) => e.text);
    const bettingDef = OPTION_DEFS.find((d) => d.key === "betting");
    const resolved = { korean: "한국식", noLimit: "노리밋", potLimit: "팟리밋" }[resolvedBetting({ ...opts, betting: "auto" })];
    const fields = [];
    // the few options people change first; every other one (new house rules too) behind 더 보기
    const shared = h("div", {});
    const modeSpecific = h("div", {});
    for (const def of OPTION_DEFS) {
      if (!optionApplies(def, opts)) continue;
      const d = def === bettingDef ? { ...def, choices: def.choices.map(([v, t]) => [v, v === "auto" ? `모드 기본 (${resolved})` : t]) } : def;
      const field = segField(d, opts[def.key], (val) => {
        opts[def.key] = val;
        if (def.key === "endCondition") {
          if (val === "lastStanding") {
            opts.blindUpEvery = 10;
            opts.rebuy = "off";
            note = "최후의 1인 방식에서는 10판마다 기본 단위 2배, 리바이 없음을 추천해서 바꿔 두었어요(바꿀 수 있어요).";
          } else note = "";
        }
        drawOptions();
      });
      if (def.main) fields.push(field);
      // a rule of one mode (로우 판정, 오마하 하이로우 ...) belongs to choosing it; house rules of several
      // modes (491 룰) and the rest are folded behind 더 보기 with the other options people rarely change
      else (def.mode ? modeSpecific : shared).append(field);
    }
    if (note) fields.push(h("div", { class: "notice", "data-testid": "recommend-note" }, note));
    fields.push(h("div", { class: "help", style: "color:var(--muted);font-size:.85em" }, `이 모드는 ${maxPlayers(opts)}명까지 할 수 있어요.`));
    // the mode's own rules (로우 판정, 인디언 카드 수, 오마하 하이로우 ...) belong to choosing the mode: shown
    const own = modeSpecific.childElementCount ? [h("div", { class: "card-box mode-options", "data-testid": "mode-options" }, h("h2", {}, `${modeName(opts.mode)} 설정`), modeSpecific)] : [];
    optionsBox.replaceChildren(...own, ...fields);
    moreBody.replaceChildren(shared);
    showFieldErrors(optionsBox, liveErrs);
    showFieldErrors(moreBody, liveErrs);
    modeError.textContent = liveErrs.filter((e) => e.key === "mode").map((e) => e.text).join(" ");
    errors.replaceChildren(...live.map((e) => h("div", {}, e)));
    // the 이마 포커 display-name choice is offered with Indian poker
    nameChoice.hidden = opts.mode !== "indian";
    nameChoice.replaceChildren(h("span", { class: "label" }, "표시 이름"),
      h("div", { class: "seg", role: "radiogroup", "aria-label": "인디언 포커 표시 이름" }, ["인디언 포커", "이마 포커"].map((n) => {
        const input = h("input", { type: "radio", name: "indian-display", value: n });
        input.checked = indianName() === n;
        input.addEventListener("change", () => { setIndianName(n); drawModes(); drawOptions(); });
        return h("label", {}, input, h("span", {}, n));
      })),
      h("span", { class: "help" }, "'인디언 포커'라는 이름이 불편하면 '이마 포커'로 보여 줄 수 있어요."));
  };
  drawModes();
  drawOptions();
  return [h("div", { class: "field", "data-field": "mode" }, h("span", { class: "label" }, "게임 모드"), modeBox, modeError), nameChoice, optionsBox, more];
}

function renderLobby() {
  document.title = "포커 방";
  $("#title").replaceChildren("포커 방");
  $("#btn-log").hidden = true;
  const opts = defaultOptions();
  const nick = h("input", { type: "text", id: "create-nick", maxlength: 12, autocomplete: "nickname", placeholder: "예: 민수" });
  try { nick.value = localStorage.getItem("pokerroom:nickname") ?? ""; } catch { /* ignore */ }
  const [adult] = adultCheck("create-adult");
  const errors = h("div", { class: "errors", role: "alert", "data-testid": "create-errors" });
  const editor = optionsEditor(opts, errors);

  const createBtn = h("button", { class: "btn primary", type: "submit", "data-testid": "create-room" }, "방 만들기");
  const [modeField, nameChoice, optionsBox, more] = editor;
  // nickname, mode, the main options and the adult check first; 더 보기 after; 방 만들기 stays on screen (sticky)
  const form = h("form", { class: "card-box create-form", novalidate: true },
    h("h2", {}, "새 방 만들기"),
    h("div", { class: "field", "data-field": "nickname" }, h("label", { for: "create-nick" }, "내 닉네임"), nick,
      h("div", { class: "field-error", role: "alert", "data-error-for": "nickname" })),
    modeField, nameChoice,
    optionsBox,
    adultNotice(),
    h("div", { class: "field", "data-field": "adult" },
      h("label", { class: "check", for: "create-adult" }, adult, h("span", {}, "성인용 카드 게임임을 확인했어요. 실제 돈을 걸지 않을게요.")),
      h("div", { class: "field-error", role: "alert", "data-error-for": "adult" })),
    more,
    h("div", { class: "create-foot" }, errors, createBtn));
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const errs = [];
    const nErr = validateNickname(nick.value);
    if (nErr) errs.push({ key: "nickname", text: nErr });
    errs.push(...optionErrors(opts));
    if (!adult.checked) errs.push({ key: "adult", text: "성인용 카드 게임 확인에 체크해 주세요" });
    showFieldErrors(form, errs);
    errors.replaceChildren(...errs.map((e) => h("div", {}, e.text)));
    if (errs.length) {
      // bring the first field in error into view (its message is right under it)
      const first = form.querySelector(`[data-field="${errs[0].key}"]`);
      first?.scrollIntoView({ block: "center" });
      return;
    }
    createBtn.disabled = true;
    try {
      const nickname = nick.value.trim();
      try { localStorage.setItem("pokerroom:nickname", nickname); } catch { /* ignore */ }
      const res = await createRoom(nickname, optionsToSend(opts));
      saveToken(res.code, res.token);
      history.pushState({}, "", `/r/${res.code}`);
      route();
    } catch (e) {
      errors.replaceChildren(h("div", {}, e.message));
      createBtn.disabled = false;
    }
  });

  const codeInput = h("input", { type: "text", id: "join-code", placeholder: "방 코드 또는 링크", autocomplete: "off" });
  const joinErr = h("div", { class: "errors", role: "alert" });
  const joinForm = h("form", { class: "card-box", novalidate: true },
    h("h2", {}, "링크·코드로 들어가기"),
    h("div", { class: "field" }, h("label", { for: "join-code" }, "방 코드"), codeInput),
    joinErr,
    h("button", { class: "btn", type: "submit", "data-testid": "go-room" }, "방으로 가기"));
  joinForm.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const raw = codeInput.value.trim();
    const m = raw.match(/\/r\/([A-Za-z0-9_-]+)/) ?? raw.match(/^([A-Za-z0-9_-]+)$/);
    if (!m) { joinErr.textContent = "방 코드를 확인해 주세요"; return; }
    history.pushState({}, "", `/r/${m[1]}`);
    route();
  });

  main().replaceChildren(h("div", { class: "lobby" },
    h("h1", {}, "포커 방"),
    h("p", { class: "tagline" }, "친구끼리 비공개 방을 열고 링크를 보내 함께 해요. 7가지 모드, 가상 칩만 사용."),
    form, joinForm));
}

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
    document.title = `포커 방 · ${this.code}`;
    $("#title").replaceChildren("포커 방", h("small", {}, this.code));
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
      main().replaceChildren(h("div", { class: "lobby" }, h("div", { class: "card-box" },
        h("h2", {}, "방에 들어갈 수 없어요"), h("p", {}, e.message), h("button", { class: "btn", onclick: () => { history.pushState({}, "", "/"); route(); } }, "처음으로"))));
      return;
    }
    const nick = h("input", { type: "text", id: "join-nick", maxlength: 12, autocomplete: "nickname", placeholder: "예: 지수" });
    try { nick.value = localStorage.getItem("pokerroom:nickname") ?? ""; } catch { /* ignore */ }
    const [adult] = adultCheck("join-adult");
    const errors = h("div", { class: "errors", role: "alert", "data-testid": "join-errors" }, error ?? "");
    const players = (info.players ?? []).filter((p) => p.status !== "left");
    const joinBtn = h("button", { class: "btn primary", type: "submit", "data-testid": "join" }, "참가하기");
    const form = h("form", { class: "card-box", novalidate: true },
      h("h2", {}, `${modeName(info.options?.mode)} 방`),
      h("p", { class: "opt-summary" }, summarizeOptions(info.options)),
      h("p", {}, `참가자 ${players.length}명: ${players.map((p) => p.nickname).join(", ") || "없음"}${info.phase === "playing" ? " · 게임 중이에요. 참가하면 방장에게 자리를 요청하고, 수락되면 다음 판부터 해요" : ""}`),
      h("div", { class: "field" }, h("label", { for: "join-nick" }, "내 닉네임"), nick),
      adultNotice(),
      h("label", { class: "check", for: "join-adult" }, adult, h("span", {}, "성인용 카드 게임임을 확인했어요. 실제 돈을 걸지 않을게요.")),
      errors,
      h("div", { class: "row" }, joinBtn,
        h("button", { class: "btn", type: "button", "data-testid": "spectate", onclick: () => {
          try { sessionStorage.setItem(`pokerroom:spectate:${this.code}`, "1"); } catch { /* ignore */ }
          this.connect({ spectate: true });
        } }, "관전하기")));
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      const errs = [];
      const nErr = validateNickname(nick.value);
      if (nErr) errs.push(nErr);
      if (!adult.checked) errs.push("성인용 카드 게임 확인에 체크해 주세요");
      errors.replaceChildren(...errs.map((e) => h("div", {}, e)));
      if (errs.length) return;
      try { localStorage.setItem("pokerroom:nickname", nick.value.trim()); } catch { /* ignore */ }
      this.connect({ nickname: nick.value.trim() });
    });
    main().replaceChildren(h("div", { class: "lobby" }, form));
  }

  connect(hello) {
    this.conn?.close();
    main().replaceChildren(h("div", { class: "lobby" }, h("p", { class: "tagline" }, "연결 중…")));
    this.conn = new RoomConnection(this.code, hello, {
      onMessage: (m) => this.onMessage(m),
      onState: (s, detail) => {
        if (s === "open") setConn("open", "연결됨");
        else if (s === "connecting" || detail === "moving") setConn("connecting", detail ? "다시 연결 중…" : "연결 중…");
        else setConn("closed", detail === "left" ? "나감" : "연결 끊김");
      },
      onFatal: (code, message) => {
        if (code === "bad_token" || code === "kicked") forgetToken(this.code);
        if (code === "room_closed") {
          main().replaceChildren(h("div", { class: "lobby" }, h("div", { class: "card-box" }, h("h2", {}, "방이 닫혔어요"),
            h("button", { class: "btn", onclick: () => { history.pushState({}, "", "/"); route(); } }, "처음으로"))));
          return;
        }
        this.showJoin(message || "들어갈 수 없어요");
      },
      onMoving: () => toast("서버를 옮기는 중… 다시 연결할게요", "info"),
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
        break;
      case "lobby": {
        const before = this.lobby?.options;
        this.lobby = m;
        this.onOptionsChanged(before, m.options);
        this.render();
        this.renderSeatRequests();
        break;
      }
      case "seatAnswer":
        if (m.playerId === this.playerId) {
          toast(m.accept ? "자리를 받았어요. 다음 판부터 참가해요" : "방장이 자리 요청을 거절했어요", m.accept ? "info" : "error");
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
        this.render();
        break;
      case "notice":
        toast(m.message, "info");
        break;
      case "events":
        eventSounds(m.events, this.role === "player" ? this.playerId : null);
        break;
      case "reaction":
      case "chat":
        this.table?.bubble(m.from ?? null, String(m.text ?? ""), m.showMs);
        break;
      case "history":
        this.history = m.hands ?? [];
        if ($("#dlg-log").open && logTab === "past") renderPast();
        break;
      case "error":
        if (this.optionsPending && OPTIONS_ERRORS.has(m.code)) {
          const { errors, save } = this.optionsPending;
          this.optionsPending = null;
          errors.replaceChildren(h("div", {}, m.message || "설정을 바꾸지 못했어요"));
          save.disabled = false;
          break;
        }
        if (this.prePending && !m.clientMsgId && ["stale_version", "preaction_unavailable"].includes(m.code)) {
          this.prePending = false;
          toast(m.code === "stale_version" ? "그사이 상황이 바뀌었어요. 다시 골라 주세요." : m.message, "info");
          break;
        }
        if (m.code === "stale_version" && this.onStale(m)) break;
        if (m.code !== "stale_version") toast(m.message || "요청이 거절됐어요");
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
    const save = h("button", { class: "btn primary grow", type: "submit", "data-testid": "save-options" }, "저장");
    const form = h("form", { novalidate: true, "data-testid": "options-form" },
      ...optionsEditor(opts, errors, players), h("div", { class: "options-save" }, errors, h("div", { class: "row" }, save)));
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      const errs = validateOptions(opts, players);
      errors.replaceChildren(...errs.map((e) => h("div", {}, e)));
      if (errs.length) return;
      const options = optionsToSend(opts);
      if (!this.conn?.send({ type: "setOptions", options })) {
        errors.replaceChildren(h("div", {}, "연결이 끊겨 보내지 못했어요. 다시 연결되면 눌러 주세요."));
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
      toast("다음 게임 설정을 바꿨어요", "info");
      return;
    }
    if (before && !pending && JSON.stringify(before) !== JSON.stringify(after)) {
      if ($("#dlg-options").open) $("#dlg-options").close();
      toast(`방장이 다음 게임 설정을 바꿨어요: ${summarizeOptions(after)}`, "info");
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
      toast("연결이 끊겨 보내지 못했어요. 다시 연결 중이에요.");
    }
  }

  /** Send an action; remember it so a stale_version refusal of a simultaneous decision can be re-sent. */
  sendAction(action, tries = 0) {
    const version = this.conn.version;
    const id = this.conn.sendAction(action);
    if (!id) {
      toast("연결이 끊겨 보내지 못했어요. 다시 연결 중이에요.");
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
   * 교환, 선언, 다음 판, 리바이) are re-sent on the newest view if it still offers them; a bet is decided again.
   */
  onStale(msg) {
    const p = this.pending;
    if (!p || (msg.clientMsgId && msg.clientMsgId !== p.id)) return false;
    const simultaneous = ["choose", "draw", "declare", "ready", "rebuy"].includes(p.action.type);
    if (!simultaneous || p.tries >= 3) {
      this.pending = null;
      toast("그사이 상황이 바뀌었어요. 다시 골라 주세요.", "info");
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
    const phase = this.phase();
    $("#btn-log").hidden = phase !== "playing" && phase !== "finished";
    if (phase === "playing") {
      if (this.screen !== "table" || !this.table) {
        this.table?.destroy();
        const host = h("div", { class: "table-host" });
        main().replaceChildren(host);
        this.table = new TableUI(host, {
          onAction: (a) => this.sendAction(a),
          onPreAction: (kind) => this.sendPreAction(kind),
          onTalk: (msg) => { if (!this.conn?.send(msg)) toast("연결이 끊겨 보내지 못했어요. 다시 연결 중이에요."); },
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

  renderWaiting() {
    this.fetchLink();
    this.screen = "waiting";
    const l = this.lobby;
    const link = this.link ?? `${location.origin}/r/${this.code}`;
    const linkInput = h("input", { type: "text", readonly: true, value: link, "aria-label": "초대 링크", "data-testid": "invite-link" });
    const members = (l.players ?? []).filter((p) => p.status !== "left");
    const seated = members.filter((p) => p.status !== "left");
    const host = this.isHost();
    const count = seated.length;
    const limitMsg = count < (l.minPlayers ?? 2) ? `${l.minPlayers ?? 2}명 이상 모이면 시작할 수 있어요` : count > (l.maxPlayers ?? 10) ? `이 모드는 최대 ${l.maxPlayers}명까지 할 수 있어요` : "";
    const list = h("ul", { class: "seat-list", "data-testid": "members" }, members.map((p) => h("li", {},
      h("span", {}, p.nickname, p.bot ? " (봇)" : "", p.id === this.playerId ? " (나)" : ""),
      h("span", { class: "row" },
        h("small", {}, [p.host ? "방장" : "", p.connected ? "" : "연결 끊김"].filter(Boolean).join(" · ")),
        host && p.bot ? h("button", { class: "btn small", onclick: () => this.conn.send({ type: "removeBot", playerId: p.id }) }, "빼기") : null,
        host && !p.bot && p.id !== this.playerId ? kickButton(p) : null))));
    const box = h("div", { class: "lobby" },
      h("div", { class: "card-box" },
        h("h2", {}, `${modeName(l.options?.mode)} · 대기실`),
        h("p", { class: "opt-summary", "data-testid": "options-summary" }, summarizeOptions(l.options)),
        h("div", {}, "방 코드 ", h("span", { class: "code-big", "data-testid": "room-code" }, this.code)),
        h("div", { class: "share" }, linkInput,
          h("button", { class: "btn small", type: "button", "data-testid": "copy-link", onclick: async () => {
            if (await copyText(link)) toast("링크를 복사했어요", "info");
            else { linkInput.focus(); linkInput.select(); toast("복사하지 못했어요. 링크를 길게 눌러 복사해 주세요"); }
          } }, "복사"),
          typeof navigator.share === "function" ? h("button", { class: "btn small", type: "button", "data-testid": "share-link", onclick: async () => {
            try { await navigator.share({ title: "포커 방 초대", text: `포커 방에 들어와요 (방 코드 ${this.code})`, url: link }); } catch { /* closed the sheet */ }
          } }, "공유") : null),
        inviteQr(link)),
      h("div", { class: "card-box" },
        h("h2", {}, `참가자 ${count}명`, l.spectators ? h("small", { style: "color:var(--muted);font-weight:500" }, ` · 관전 ${l.spectators}명`) : null),
        list,
        this.role === "spectator" ? h("p", { class: "tagline" }, "관전 중이에요. 게임이 시작되면 테이블이 보여요.") : null,
        host ? h("div", { class: "row" },
          h("button", { class: "btn", type: "button", "data-testid": "add-bot", onclick: () => this.conn.send({ type: "addBot" }) }, "봇 추가"),
          h("button", { class: "btn", type: "button", "data-testid": "edit-options", onclick: () => this.openOptions() }, "설정 바꾸기"),
          h("button", { class: "btn primary grow nowrap", type: "button", "data-testid": "start", disabled: !!limitMsg, onclick: () => this.conn.send({ type: "start" }) }, "게임 시작"))
          : this.role === "player" ? h("p", { class: "tagline" }, "방장이 게임을 시작하면 테이블이 열려요.") : null,
        limitMsg ? h("p", { class: "help", style: "color:var(--muted)" }, limitMsg) : null),
      adultNotice());
    main().replaceChildren(box);
  }

  renderResult() {
    this.screen = "result";
    const r = this.result ?? this.view?.result;
    const names = this.names();
    const nm = (id) => names[id] ?? id;
    const host = this.isHost();
    // 손익 (net) beside the final chips: what the game won or lost each player, never the score read as a gain
    const net = (e) => e.net ?? e.finalChips - (this.currentOptions().startingChips ?? 0) * (1 + (e.rebuys ?? 0));
    const rows = (r?.ranking ?? []).map((e) => h("tr", { class: e.playerId === this.playerId ? "me-row" : "", "data-player": e.playerId },
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
        host ? h("button", { class: "btn", type: "button", "data-testid": "edit-options", onclick: () => this.openOptions() }, "설정 바꾸기") : null,
        host ? h("button", { class: "btn primary grow", "data-testid": "again", onclick: () => this.conn.send({ type: "start" }) }, "한 판 더")
          : h("p", { class: "tagline grow" }, "방장이 '한 판 더'를 누르면 새 게임이 시작돼요."),
        h("button", { class: "btn", onclick: () => this.leave() }, "나가기"))));
  }

  // ------------------------------------------------------------------ seats between hands (issue #11)
  /** My member entry in the lobby (null for a spectator). */
  myMember() { return (this.lobby?.players ?? []).find((p) => p.id === this.playerId) ?? null; }

  /** My seat in the running game's view (null when I have none). */
  mySeat(v = this.view) { return (v?.seats ?? []).find((s) => s.id === this.playerId) ?? null; }

  /**
   * Under the table, for someone without a seat in the running game: 자리 요청 (a spectator gives a nickname),
   * or the request's state; for a player sitting out: 복귀. Null when there is nothing to offer.
   */
  seatBar(v) {
    if (this.lobby?.phase !== "playing" || v?.phase === "finished") return null;
    const seat = this.mySeat(v);
    if (seat) {
      if (!seat.sittingOut) return null;
      return h("div", { class: "seat-bar", "data-testid": "seat-bar" },
        h("span", { class: "grow" }, v?.me?.inHand ? "다음 판부터 쉬어요. 칩은 그대로예요." : "칩은 그대로예요."),
        h("button", { class: "btn small primary", type: "button", "data-testid": "sit-in", onclick: () => this.sendSeat({ type: "sitIn" }) }, "복귀"));
    }
    const full = (v?.seats ?? []).length >= (this.lobby?.maxPlayers ?? 99);
    if (full) return h("div", { class: "seat-bar", "data-testid": "seat-bar" }, h("span", {}, "자리가 모두 찼어요. 다음 게임을 기다려 주세요."));
    const me = this.myMember();
    if (me?.asking) {
      return h("div", { class: "seat-bar", "data-testid": "seat-bar" },
        h("span", { "data-testid": "seat-asking" }, "자리를 요청했어요. 방장이 수락하면 다음 판부터 참가해요."));
    }
    if (this.role === "player") {
      return h("div", { class: "seat-bar", "data-testid": "seat-bar" },
        h("span", { class: "grow" }, "게임 중에도 자리에 앉을 수 있어요."),
        h("button", { class: "btn small primary", type: "button", "data-testid": "request-seat", onclick: () => this.sendSeat({ type: "requestSeat" }) }, "자리 요청"));
    }
    const nick = h("input", { type: "text", maxlength: 12, autocomplete: "nickname", placeholder: "닉네임", "aria-label": "내 닉네임", "data-testid": "seat-nick" });
    try { nick.value = localStorage.getItem("pokerroom:nickname") ?? ""; } catch { /* ignore */ }
    const form = h("form", { class: "seat-bar", novalidate: true, "data-testid": "seat-bar" }, nick,
      h("button", { class: "btn small primary", type: "submit", "data-testid": "request-seat" }, "자리 요청"));
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const err = validateNickname(nick.value);
      if (err) { toast(err); return; }
      // the same adult / virtual-chips confirmation as the join form (a spectator never saw it)
      if (!await confirmDialog("성인용 카드 게임이에요. 칩은 이 방에서만 쓰는 가상 칩이고, 실제 돈을 걸지 않아요.", "확인했어요")) return;
      try { localStorage.setItem("pokerroom:nickname", nick.value.trim()); } catch { /* ignore */ }
      this.sendSeat({ type: "requestSeat", nickname: nick.value.trim() });
    });
    return form;
  }

  /** Between hands (handEnd), beside 다음 판: 쉬기 = sit out from the next hand. */
  sitOutButton(v) {
    const seat = this.mySeat(v);
    if (!seat || seat.sittingOut || seat.status !== "playing") return null;
    return h("button", { class: "act legal", type: "button", "data-testid": "sit-out", onclick: () => this.sendSeat({ type: "sitOut" }) }, "쉬기");
  }

  /** In 설정: 자리 비움 (sit out from the next hand) or 복귀, while I have a seat in a running game. */
  sitControl() {
    const seat = this.lobby?.phase === "playing" ? this.mySeat() : null;
    if (!seat || seat.status !== "playing") return null;
    const out = seat.sittingOut;
    return h("div", { class: "field" },
      h("button", { class: "btn", type: "button", "data-testid": out ? "settings-sit-in" : "settings-sit-out", onclick: () => {
        this.sendSeat({ type: out ? "sitIn" : "sitOut" });
        $("#dlg-settings").close();
      } }, out ? "복귀 (다음 판부터 참가)" : "자리 비움 (다음 판부터 쉬기)"),
      h("span", { class: "help" }, out ? "" : "이번 판은 끝까지 해요. 쉬는 동안 앤티·블라인드를 내지 않고 칩은 그대로예요."));
  }

  sendSeat(msg) {
    if (!this.conn?.send(msg)) { toast("연결이 끊겨 보내지 못했어요. 다시 연결되면 눌러 주세요."); return; }
    if (msg.type === "sitOut") toast("다음 판부터 쉬어요", "info");
    if (msg.type === "sitIn") toast("다음 판부터 다시 참가해요", "info");
  }

  /** The host's prompt for pending seat requests: 수락 / 거절 for each asking member. */
  renderSeatRequests() {
    document.querySelector("#seat-requests")?.remove();
    if (!this.isHost() || this.lobby?.phase !== "playing" || room !== this) return;
    const asking = (this.lobby.players ?? []).filter((p) => p.asking && p.status === "waiting");
    if (!asking.length) return;
    const answer = (id, accept) => this.conn?.send({ type: "answerSeat", playerId: id, accept });
    document.body.append(h("div", { id: "seat-requests", class: "seat-requests", role: "alertdialog", "aria-label": "자리 요청" },
      asking.map((p) => h("div", { class: "seat-request", "data-testid": "seat-request" },
        h("span", { class: "grow" }, h("b", {}, p.nickname), " 님이 자리를 요청했어요. 수락하면 다음 판부터 참가해요."),
        h("span", { class: "row" },
          h("button", { class: "btn small", type: "button", "data-testid": "seat-deny", onclick: () => answer(p.id, false) }, "거절"),
          h("button", { class: "btn small primary", type: "button", "data-testid": "seat-accept", onclick: () => answer(p.id, true) }, "수락"))))));
  }

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

function route() {
  const m = location.pathname.match(/^\/r\/([A-Za-z0-9_-]+)\/?$/);
  room?.conn?.close();
  room?.table?.destroy();
  document.querySelector("#seat-requests")?.remove();
  room = null;
  $("#conn").hidden = true;
  if (m) {
    room = new Room(m[1]);
    window.__room = room; // for debugging and tests
    room.start();
  } else {
    renderLobby();
  }
}

window.addEventListener("popstate", route);
setupChrome();
route();
