// Small dialogs and notices every screen uses: a toast, copying to the clipboard, the invite QR code and the
// yes/no confirmation (the page's #dlg-confirm).

import { h } from "./dom.js";

const $ = (sel) => document.querySelector(sel);

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

/**
 * The room's invite link as a QR code, for friends in the same room to scan: an image the server draws from
 * the link it gives out (GET /api/rooms/{code}/qr.svg), so the code always says exactly that link. A code the
 * image cannot load for (the room just closed) leaves the row out.
 */
export function inviteQr(code) {
  const img = h("img", { src: `/api/rooms/${encodeURIComponent(code)}/qr.svg`, alt: "초대 링크 QR 코드", width: 124, height: 124 });
  const row = h("div", { class: "qr-row", "data-testid": "invite-qr" },
    h("div", { class: "qr-box" }, img),
    h("p", { class: "help" }, "옆에 있는 친구는 휴대폰 카메라로 이 QR 코드를 찍으면 바로 들어올 수 있어요."));
  img.addEventListener("error", () => row.remove(), { once: true });
  return row;
}

export function confirmDialog(text, yesLabel = "네, 포기할게요") {
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
