// PHH 파일 불러오기: a .phh file from this device, sent to the server to be read (POST /api/phh, docs/protocol.md
// §1) and handed back as a replay with every known card shown. Nothing is stored; the file never leaves for
// anyone else.

import { tx } from "../i18n.js";
import { h } from "../dom.js";
import { toast } from "../dialogs.js";
import { serverMessage, wordView } from "../words.js";

const MAX_BYTES = 65536; // the server's bound: refused here first, without sending

/** Ask for a file, send it, and call `show(replay)` with the server's answer (a toast saying why if refused). */
export function importPhh(show) {
  const input = h("input", { type: "file", accept: ".phh,.toml,text/plain", hidden: true, "data-testid": "phh-file" });
  input.addEventListener("change", async () => {
    const file = input.files?.[0];
    input.remove();
    if (!file) return;
    if (file.size > MAX_BYTES) { toast(tx("replay_importer.1")); return; }
    try {
      const res = await fetch("/api/phh", { method: "POST", headers: { "content-type": "application/json" },
        body: JSON.stringify({ text: await file.text() }) });
      const data = await res.json().catch(() => ({}));
      if (!res.ok || !data.replay) { toast(serverMessage(data.error?.code, data.error?.message) ?? tx("replay_importer.2")); return; }
      show(wordView(data.replay));
    } catch {
      toast(tx("replay_importer.3"));
    }
  }, { once: true });
  document.body.append(input);
  input.click();
}
