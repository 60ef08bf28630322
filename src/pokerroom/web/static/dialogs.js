// Small dialogs and notices every screen uses: a toast, copying to the clipboard, the invite QR code and the
// yes/no confirmation (the page's #dlg-confirm).

import { h } from "./dom.js";
import { qrSvg } from "./qr.js";

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

/** The invite link as a QR code drawn here (qr.js), for friends in the same room to scan. */
export function inviteQr(link) {
  let svg;
  try { svg = qrSvg(link, { label: "초대 링크 QR 코드" }); } catch { return null; }
  return h("div", { class: "qr-row", "data-testid": "invite-qr" },
    h("div", { class: "qr-box" }, svg),
    h("p", { class: "help" }, "옆에 있는 친구는 휴대폰 카메라로 이 QR 코드를 찍으면 바로 들어올 수 있어요."));
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
