// Small dialogs and notices every screen uses: a toast, copying to the clipboard, the invite QR code and the
// yes/no confirmation (the page's #dlg-confirm).

import { tx } from "./i18n.js";
import { h } from "./dom.js";

const $ = (sel) => document.querySelector(sel);

/**
 * A short notice for 3.8 s. A popover, shown in the top layer: an open modal dialog (the replayer, the log,
 * the options) puts the page under its backdrop, and a toast of the page hid behind it ("링크를 복사했어요"
 * in the replayer was never seen). At a table it sits under the top bar (style.css), where it hides the top
 * seats for a moment instead of the cards and buttons of the player it speaks to.
 */
export function toast(text, kind = "error", code = null) {
  document.querySelectorAll(".toast").forEach((t) => t.remove());
  const t = h("div", { class: `toast ${kind}`, role: kind === "error" ? "alert" : "status", "data-testid": "toast", "data-code": code, popover: "manual" }, text);
  // inside the open modal dialog if there is one: the rest of the page is inert under it (no tap, no selecting
  // the link a failed copy shows)
  const modal = [...document.querySelectorAll("dialog[open]")].filter((d) => d.matches(":modal")).pop();
  (modal ?? document.body).append(t);
  t.showPopover?.();
  // the host's seat requests (a game under way: at a table) sit under the top bar too: the toast goes below
  // them, not over 수락
  const asks = modal ? null : document.getElementById("seat-requests");
  if (asks) t.style.top = `${asks.getBoundingClientRect().bottom + 6}px`;
  setTimeout(() => t.remove(), 3800);
}

/** Take away the toast of a server notice (`code`) that what just happened made untrue. */
export function dropToast(code) {
  document.querySelectorAll(`.toast[data-code="${CSS.escape(code)}"]`).forEach((t) => t.remove());
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

/**
 * The room's invite link as a QR code, for friends in the same room to scan: an image the server draws from
 * the link it gives out (GET /api/rooms/{code}/qr.svg), so the code always says exactly that link. A code the
 * image cannot load for (the room just closed) leaves the row out.
 */
export function inviteQr(code) {
  const img = h("img", { src: `/api/rooms/${encodeURIComponent(code)}/qr.svg`, alt: tx("dialogs.1"), width: 124, height: 124 });
  const row = h("div", { class: "qr-row", "data-testid": "invite-qr" },
    h("div", { class: "qr-box" }, img),
    h("p", { class: "help" }, tx("dialogs.2")));
  img.addEventListener("error", () => row.remove(), { once: true });
  return row;
}

/**
 * Ask yes or no. `signal` (an AbortSignal) withdraws the question: the dialog closes and the answer is no. The
 * table withdraws a question about a decision that is gone (my turn timed out, the hand ended): a "yes" tapped
 * later would be sent at whatever decision is mine by then.
 */
export function confirmDialog(text, yesLabel = tx("dialogs.3"), signal = null) {
  const dlg = $("#dlg-confirm");
  $("#dlg-confirm-text").textContent = text;
  $("#dlg-confirm-yes").textContent = yesLabel;
  return new Promise((resolve) => {
    const yes = $("#dlg-confirm-yes");
    const no = $("#dlg-confirm-no");
    const onYes = () => done(true);
    const onNo = () => done(false);
    const onCancel = () => done(false);
    const done = (v) => {
      dlg.close();
      yes.removeEventListener("click", onYes);
      no.removeEventListener("click", onNo);
      dlg.removeEventListener("cancel", onCancel);
      signal?.removeEventListener("abort", onCancel);
      resolve(v);
    };
    if (signal?.aborted) { resolve(false); return; }
    yes.addEventListener("click", onYes);
    no.addEventListener("click", onNo);
    dlg.addEventListener("cancel", onCancel);
    signal?.addEventListener("abort", onCancel);
    dlg.showModal();
  });
}
