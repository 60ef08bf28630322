// A replay as the server sends it (docs/protocol.md §2.4) turned into what the replayer shows: every step's
// whole view (the first, then each delta applied to the one before, as the live table does with viewDelta
// frames) and a Korean caption per step. No rule lives here: the views are the server's, per viewer.

import { tx } from "../i18n.js";
import { applyDelta } from "../delta.js";
import { stepText } from "../history.js";
import { signedFmt } from "../labels.js";

/** The step views of a replay, whole. */
export function stepViews(replay) {
  const views = replay.first ? [replay.first] : [];
  for (const d of replay.deltas ?? []) views.push(applyDelta(views[views.length - 1], d));
  return views;
}

/** What happened at this step, in Korean (`nm`: id -> nickname). `view`: the step's view (the result). */
export function caption(step, view, nm) {
  switch (step?.type) {
    case "deal":
      return view.phase === "choice" ? tx("replay_steps.1") : view.streetName ? tx("replay_steps.2", [view.streetName]) : tx("replay_steps.3");
    case "reveal": return tx("replay_steps.4");
    case "showdown": return tx("replay_steps.5");
    case "handEnd": {
      // each winner's net for the hand (the view's handNet, as the live banner and the ledger count it),
      // not the pot collected, which holds their own bet
      const won = new Map();
      for (const a of view.awards ?? []) won.set(a.to, (won.get(a.to) ?? 0) + a.amount);
      const net = (id, n) => view.handNet?.[id] ?? n;
      const who = [...won.entries()].map(([id, n]) => `${nm(id)} ${signedFmt(net(id, n))}`).join(", ");
      return who ? tx("replay_steps.6", [who]) : tx("replay_steps.7");
    }
    case "noOpener": return tx("replay_steps.8");
    default: return stepText(step ?? {}, nm) ?? "";
  }
}
