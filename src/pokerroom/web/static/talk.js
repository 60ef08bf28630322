// Table talk (docs/protocol.md §2.7): a reaction palette and short-lived bubbles over the sender's seat, and
// the host's switches for it. Every text is put in with textContent (never innerHTML): chat lines come from
// other people.

import { tx } from "./i18n.js";
import { toast } from "./dialogs.js";
import { h } from "./dom.js";

/** The reactions the server accepts (server/room/reactions.py REACTIONS), in palette order. */
export const REACTIONS = [
  ["nice", tx("talk.1")], ["hurry", tx("talk.2")], ["lol", tx("talk.3")], ["wow", tx("talk.4")], ["sorry", tx("talk.5")], ["gg", tx("talk.6")],
  ["thumbs", "👍"], ["clap", "👏"], ["fire", "🔥"], ["cry", "😭"], ["think", "🤔"], ["cool", "😎"],
];
export const CHAT_MAX = 40;

function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text != null) node.textContent = text;
  return node;
}

/**
 * The palette: reaction buttons (unless `reactions` is false: a spectator while the host allows their chat
 * but not their reactions), plus a text field when I may chat (a player: chat on; a spectator: 관전자 채팅 on).
 * send(msg) sends one client message; close() hides the palette.
 */
export function reactionPalette({ chat, reactions = true, send, close }) {
  const box = el("div", "react-palette");
  box.setAttribute("role", "dialog");
  box.setAttribute("aria-label", tx("talk.7"));
  box.dataset.testid = "react-palette";
  const grid = el("div", "react-grid");
  for (const [id, text] of REACTIONS) {
    const b = el("button", "react-btn", text);
    b.type = "button";
    b.dataset.reaction = id;
    b.addEventListener("click", () => { send({ type: "react", reaction: id }); close(); });
    grid.append(b);
  }
  if (reactions) box.append(grid);
  if (chat) {
    const form = el("form", "chat-form");
    const input = el("input", "chat-input");
    input.type = "text";
    input.maxLength = CHAT_MAX;
    input.placeholder = tx("talk.8", [CHAT_MAX]);
    input.setAttribute("aria-label", reactions ? tx("talk.9") : tx("talk.11"));
    input.dataset.testid = "chat-input";
    const go = el("button", "btn small", tx("talk.10"));
    go.type = "submit";
    form.append(input, go);
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      const text = input.value.trim().slice(0, CHAT_MAX);
      if (!text) return;
      send({ type: "chat", text });
      close();
    });
    box.append(form);
  }
  return box;
}

/**
 * A bubble with `text` over `anchor` (an element; null: the top middle of the screen) for `ms`. Bubbles live in
 * their own fixed layer, so the table re-rendering under them does not cut them short. `who`: a tag before the
 * text ("관전자": a spectator's line has no seat to stand over, so it says whose it is).
 */
export function showBubble(anchor, text, ms, from, who = null) {
  let layer = document.getElementById("bubble-layer");
  if (!layer) {
    layer = el("div", "bubble-layer");
    layer.id = "bubble-layer";
    layer.setAttribute("aria-live", "polite");
    document.body.append(layer);
  }
  const b = el("div", who ? "bubble tagged" : "bubble", who ? null : text);
  if (who) b.append(el("span", "who", who), document.createTextNode(" " + text)); // (read as "관전자 …")
  b.dataset.testid = "bubble";
  b.dataset.from = from ?? "";
  const r = anchor?.getBoundingClientRect();
  const x = r ? r.left + r.width / 2 : window.innerWidth / 2;
  const y = r ? Math.max(8, r.top + 4) : 64;
  b.style.left = `${Math.round(x)}px`;
  b.style.top = `${Math.round(y)}px`;
  // a newer bubble of the same sender replaces the older one
  for (const old of layer.querySelectorAll(".bubble")) if (old.dataset.from === b.dataset.from) old.remove();
  layer.append(b);
  const width = b.getBoundingClientRect().width; // (max-content up to 70vw: does not depend on `left`)
  b.style.left = `${Math.round(Math.max(4 + width / 2, Math.min(window.innerWidth - 4 - width / 2, x)))}px`;
  // never under the top bar: a seat in the top row gets its bubble over its own upper part instead
  const top = b.getBoundingClientRect().top;
  const minTop = (document.getElementById("topbar")?.getBoundingClientRect().bottom ?? 0) + 2;
  if (top < minTop) b.style.top = `${Math.round(y + minTop - top)}px`;
  setTimeout(() => b.remove(), Math.max(500, Math.min(10000, ms || 3000)));
  return b;
}

/** The host's table-talk switches in 설정: sent to the server, shown to everyone through `lobby` (`social`). */
export function hostTalkToggles(room) {
  const social = { chat: false, spectatorReactions: false, spectatorChat: false, ...(room?.lobby?.social ?? {}) };
  const toggle = (key, label, help) => {
    const input = h("input", { type: "checkbox", id: "social-" + key, "data-testid": "social-" + key });
    input.checked = !!social[key];
    input.addEventListener("change", () => {
      const next = { ...social, [key]: input.checked };
      const msg = { type: "social", chat: next.chat, spectatorReactions: next.spectatorReactions, spectatorChat: next.spectatorChat };
      if (!room?.conn?.send(msg)) {
        input.checked = !input.checked;
        toast(tx("screens.59"));
        return;
      }
      social[key] = input.checked;
    });
    return h("label", { class: "check", for: "social-" + key }, input, h("span", {}, label, h("div", { class: "help", style: "color:var(--muted);font-size:.85em" }, help)));
  };
  return [
    toggle("chat", tx("app.15"), tx("app.16")),
    toggle("spectatorReactions", tx("app.17"), tx("app.18")),
    toggle("spectatorChat", tx("talk.12"), tx("talk.13")),
  ];
}
