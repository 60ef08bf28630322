// The lobby: the create form (nickname, mode, options, the adult check) and joining by code or link; the
// options editor is shared with the host's 설정 바꾸기 dialog (app.js). `route` (app.js) opens the room.

import { tx } from "./i18n.js";
import { createRoom, saveToken } from "./net.js";
import { h, wholeItems } from "./dom.js";
import {
  MODES, OPTION_DEFS, defaultOptions, optionApplies, optionErrors, validateNickname, optionsToSend, modeName, indianName,
  setIndianName, resolvedBetting, maxPlayers, optionItems,
} from "./options.js";

const $ = (sel) => document.querySelector(sel);
const main = () => $("#main");

export function adultNotice() {
  return h("div", { class: "notice", role: "note" },
    h("strong", {}, tx("lobby.1")), h("br"),
    tx("lobby.2"));
}

/**
 * Whether this tab already confirmed the adult / virtual-chips notice for room `code` (the join form's check,
 * or the dialog before a seat request): a late joiner who checked it on the join form and then watched first
 * is not asked a second time when asking for a seat. Per tab and room (sessionStorage): a new room asks again.
 */
export function adultConfirmed(code) {
  try { return sessionStorage.getItem(`pokerroom:adult:${code}`) === "1"; } catch { return false; }
}

export function rememberAdult(code) {
  try { sessionStorage.setItem(`pokerroom:adult:${code}`, "1"); } catch { /* ignore */ }
}

export function adultCheck(id) {
  const input = h("input", { type: "checkbox", id, required: true });
  return [input, h("label", { class: "check", for: id }, input, h("span", {}, tx("lobby.3")))];
}

/**
 * The join form of a room opened by its link: nickname, the adult / virtual-chips check, 참가하기 or
 * 관전하기. `connect(hello)` opens the room's socket with the chosen hello.
 */
export function joinForm(code, info, error, connect) {
  const nick = h("input", { type: "text", id: "join-nick", maxlength: 12, autocomplete: "nickname", placeholder: tx("lobby.4") });
  try { nick.value = localStorage.getItem("pokerroom:nickname") ?? ""; } catch { /* ignore */ }
  const [adult, adultLabel] = adultCheck("join-adult");
  const errors = h("div", { class: "errors", role: "alert", "data-testid": "join-errors" }, error ?? "");
  const players = (info.players ?? []).filter((p) => p.status !== "left");
  const form = h("form", { class: "card-box", novalidate: true },
    h("h2", {}, tx("lobby.5", [modeName(info.options?.mode)])),
    h("p", { class: "opt-summary" }, wholeItems(optionItems(info.options))),
    h("p", {}, tx("lobby.6", [players.length, players.map((p) => p.nickname).join(", ") || tx("options.44"), info.phase === "playing" ? tx("lobby.28") : ""])),
    h("div", { class: "field" }, h("label", { for: "join-nick" }, tx("screens.45")), nick),
    adultNotice(),
    adultLabel,
    errors,
    h("div", { class: "row" }, h("button", { class: "btn primary", type: "submit", "data-testid": "join" }, tx("lobby.7")),
      h("button", { class: "btn", type: "button", "data-testid": "spectate", onclick: () => {
        if (adult.checked) rememberAdult(code); // checked, then chose to watch first: asked once only
        try { sessionStorage.setItem(`pokerroom:spectate:${code}`, "1"); } catch { /* ignore */ }
        connect({ spectate: true });
      } }, tx("lobby.8"))));
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const errs = [];
    const nErr = validateNickname(nick.value);
    if (nErr) errs.push(nErr);
    if (!adult.checked) errs.push(tx("lobby.9"));
    errors.replaceChildren(...errs.map((e) => h("div", {}, e)));
    if (errs.length) return;
    rememberAdult(code);
    try { localStorage.setItem("pokerroom:nickname", nick.value.trim()); } catch { /* ignore */ }
    connect({ nickname: nick.value.trim() });
  });
  return form;
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
export function optionsEditor(opts, errors, players = null) {
  let note = "";
  const optionsBox = h("div", {});
  const modeBox = h("div", { class: "mode-grid", role: "radiogroup", "aria-label": tx("lobby.10") });
  const nameChoice = h("div", { class: "field", "data-field": "indianName" });
  const modeError = h("div", { class: "field-error", role: "alert", "data-error-for": "mode" });
  // under the mode cards: the chosen mode's whole line (its card cuts the blurb on a phone) and seat limit
  const modeLine = h("div", { class: "help mode-line", "data-testid": "mode-line" });
  const moreBody = h("div", {});
  const more = h("details", { class: "more more-options" },
    h("summary", {}, tx("lobby.11"), h("small", {}, tx("lobby.12"))), moreBody);

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
    const resolved = { korean: tx("options.111"), noLimit: tx("options.24"), potLimit: tx("options.25") }[resolvedBetting({ ...opts, betting: "auto" })];
    const fields = [];
    // the few options people change first; every other one (new house rules too) behind 더 보기
    const shared = h("div", {});
    const modeSpecific = h("div", {});
    for (const def of OPTION_DEFS) {
      if (!optionApplies(def, opts)) continue;
      const d = def === bettingDef ? { ...def, choices: def.choices.map(([v, t]) => [v, v === "auto" ? tx("lobby.13", [resolved]) : t]) } : def;
      const field = segField(d, opts[def.key], (val) => {
        opts[def.key] = val;
        if (def.key === "endCondition") {
          if (val === "lastStanding") {
            opts.blindUpEvery = 10;
            opts.rebuy = "off";
            note = tx("lobby.14");
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
    const chosen = MODES.find((m) => m.key === opts.mode);
    modeLine.textContent = chosen ? tx("lobby.15", [modeName(chosen.key), chosen.blurb, maxPlayers(opts)]) : "";
    // the mode's own rules (로우 판정, 인디언 카드 수, 오마하 하이로우 ...) belong to choosing the mode: shown
    const own = modeSpecific.childElementCount ? [h("div", { class: "card-box mode-options", "data-testid": "mode-options" }, h("h2", {}, tx("lobby.16", [modeName(opts.mode)])), modeSpecific)] : [];
    optionsBox.replaceChildren(...own, ...fields);
    moreBody.replaceChildren(shared);
    showFieldErrors(optionsBox, liveErrs);
    showFieldErrors(moreBody, liveErrs);
    modeError.textContent = liveErrs.filter((e) => e.key === "mode").map((e) => e.text).join(" ");
    errors.replaceChildren(...live.map((e) => h("div", {}, e)));
    // the 이마 포커 display-name choice is offered with Indian poker
    nameChoice.hidden = opts.mode !== "indian";
    nameChoice.replaceChildren(h("span", { class: "label" }, tx("lobby.17")),
      h("div", { class: "seg", role: "radiogroup", "aria-label": tx("app.1") }, [tx("app.2"), tx("app.3")].map((n) => {
        const input = h("input", { type: "radio", name: "indian-display", value: n });
        input.checked = indianName() === n;
        input.addEventListener("change", () => { setIndianName(n); drawModes(); drawOptions(); });
        return h("label", {}, input, h("span", {}, n));
      })),
      h("span", { class: "help" }, tx("lobby.18")));
  };
  drawModes();
  drawOptions();
  return [h("div", { class: "field", "data-field": "mode" }, h("span", { class: "label" }, tx("lobby.10")), modeBox, modeLine, modeError), nameChoice, optionsBox, more];
}

export function renderLobby(route) {
  document.title = tx("app.21");
  $("#title").replaceChildren(tx("app.21"));
  $("#btn-log").hidden = true;
  const opts = defaultOptions();
  const nick = h("input", { type: "text", id: "create-nick", maxlength: 12, autocomplete: "nickname", placeholder: tx("lobby.19") });
  try { nick.value = localStorage.getItem("pokerroom:nickname") ?? ""; } catch { /* ignore */ }
  const [adult] = adultCheck("create-adult");
  const errors = h("div", { class: "errors", role: "alert", "data-testid": "create-errors" });
  const editor = optionsEditor(opts, errors);

  const createBtn = h("button", { class: "btn primary", type: "submit", "data-testid": "create-room" }, tx("lobby.20"));
  const [modeField, nameChoice, optionsBox, more] = editor;
  // nickname, mode, the main options and the adult check first; 더 보기 after; 방 만들기 stays on screen (sticky)
  const form = h("form", { class: "card-box create-form", novalidate: true },
    h("h2", {}, tx("lobby.21")),
    h("div", { class: "field", "data-field": "nickname" }, h("label", { for: "create-nick" }, tx("screens.45")), nick,
      h("div", { class: "field-error", role: "alert", "data-error-for": "nickname" })),
    modeField, nameChoice,
    optionsBox,
    adultNotice(),
    h("div", { class: "field", "data-field": "adult" },
      h("label", { class: "check", for: "create-adult" }, adult, h("span", {}, tx("lobby.3"))),
      h("div", { class: "field-error", role: "alert", "data-error-for": "adult" })),
    more,
    h("div", { class: "create-foot" }, errors, createBtn));
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const errs = [];
    const nErr = validateNickname(nick.value);
    if (nErr) errs.push({ key: "nickname", text: nErr });
    errs.push(...optionErrors(opts));
    if (!adult.checked) errs.push({ key: "adult", text: tx("lobby.9") });
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

  const codeInput = h("input", { type: "text", id: "join-code", placeholder: tx("lobby.22"), autocomplete: "off" });
  const joinErr = h("div", { class: "errors", role: "alert" });
  const joinForm = h("form", { class: "card-box", novalidate: true },
    h("h2", {}, tx("lobby.23")),
    h("div", { class: "field" }, h("label", { for: "join-code" }, tx("lobby.24")), codeInput),
    joinErr,
    h("button", { class: "btn", type: "submit", "data-testid": "go-room" }, tx("lobby.25")));
  joinForm.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const raw = codeInput.value.trim();
    const m = raw.match(/\/r\/([A-Za-z0-9_-]+)/) ?? raw.match(/^([A-Za-z0-9_-]+)$/);
    if (!m) { joinErr.textContent = tx("lobby.26"); return; }
    history.pushState({}, "", `/r/${m[1]}`);
    route();
  });

  main().replaceChildren(h("div", { class: "lobby" },
    h("h1", {}, tx("app.21")),
    h("p", { class: "tagline" }, tx("lobby.27")),
    form, joinForm));
}
