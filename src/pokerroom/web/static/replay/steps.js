// A replay as the server sends it (docs/protocol.md §2.4) turned into what the replayer shows: every step's
// whole view (the first, then each delta applied to the one before, as the live table does with viewDelta
// frames) and a Korean caption per step. No rule lives here: the views are the server's, per viewer.

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
      return view.phase === "choice" ? "카드 4장씩 받았어요 · 초이스" : view.streetName ? `카드를 받았어요 · ${view.streetName}` : "카드를 받았어요";
    case "reveal": return "오픈 카드를 한꺼번에 공개했어요";
    case "showdown": return "쇼다운 · 카드를 공개해요";
    case "handEnd": {
      // each winner's net for the hand (the view's handNet, as the live banner and the ledger count it),
      // not the pot collected, which holds their own bet
      const won = new Map();
      for (const a of view.awards ?? []) won.set(a.to, (won.get(a.to) ?? 0) + a.amount);
      const net = (id, n) => view.handNet?.[id] ?? n;
      const who = [...won.entries()].map(([id, n]) => `${nm(id)} ${signedFmt(net(id, n))}`).join(", ");
      return who ? `결과 · ${who}` : "결과";
    }
    case "noOpener": return "아무도 못 열었어요";
    default: return stepText(step ?? {}, nm) ?? "";
  }
}
