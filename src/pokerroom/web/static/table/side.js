// The side panel of a wide screen (style.css: 1000 px and up): the public hand log and the hand rankings,
// drawn from sideInputs alone; a phone neither builds it nor rebuilds it per view.

import { tx } from "../i18n.js";
import { withNames } from "../labels.js";
import { rankingTable } from "../rules.js";
import { h } from "../dom.js";

/** Everything the side panel shows (it is rebuilt only when this, serialised, changes). */
export function sideInputs(v, names) {
  return { log: (v.publicLog ?? []).slice(-60), names, mode: v.mode, options: v.options };
}

/** The rankings of a mode and its options, built once per those (rules.js draws a long table) and kept in `t`. */
function ranking(t, mode, options) {
  const key = `${mode}|${options?.indianCards}|${options?.indianDeck}|${options?.omahaHiLo}|${options?.badugiHigh}`;
  if (t.rankCache?.key !== key) t.rankCache = { key, node: rankingTable(mode, { compact: true, options }) };
  return t.rankCache.node;
}

/** ctx: {openHistory} (지난 판, app.js); t: the table state (its rankings cache). */
export function renderSidePanel(s, ctx, t) {
  const log = h("ol", { class: "log-list", "data-testid": "hand-log" },
    s.log.map((e) => h("li", { "data-kind": e.type }, `#${e.handNo} ${withNames(e.text, s.names)}`)));
  const panel = h("aside", { class: "side-panel", "aria-label": tx("side.1") },
    h("section", { class: "log" }, h("h3", {}, tx("side.2"),
      h("button", { class: "btn small ghost", type: "button", "data-testid": "open-past", onclick: () => ctx.openHistory() }, tx("side.3"))), log),
    h("section", { class: "ranks" }, h("h3", {}, tx("side.4")), ranking(t, s.mode, s.options)));
  // the lines scroll to the newest, under their heading (its 지난 판 is a wide screen's only way to past hands)
  queueMicrotask(() => { log.scrollTop = log.scrollHeight; });
  return panel;
}
