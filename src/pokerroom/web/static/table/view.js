// Reading a `view` (docs/view.md): small pure questions every region asks of it (whose turn, which cards won,
// who the clock waits for). No DOM, no state of the table: the same view gives the same answers.

import { tx } from "../i18n.js";
import { fmt } from "../labels.js";

export function isHidden(c) { return !c || c.hidden || c.rank == null; }

/** A player's nickname (`names`: id -> nickname), the id itself when unknown. */
export function nameOf(names, id) { return names[id] ?? id ?? ""; }

/** The legal action of this type offered to me, or null. */
export function legal(v, type) { return (v.me?.legalActions ?? []).find((a) => a.type === type) ?? null; }

export function isMyTurn(v) {
  const me = v.me;
  if (!me) return false;
  return (me.legalActions ?? []).some((a) => a.type !== "ready" && a.type !== "show");
}

export function mySeatId(v) { return v.me?.id ?? null; }

export function showdownEntry(v, id) {
  return (v.showdown ?? []).find((e) => e.id === id) ?? null;
}

/**
 * The cards to highlight for a showdown entry: the high five, or (hi-lo) the low five of a player who won
 * only the low side or declared low, or both sets for a scoop / both halves. `awards`: the hand's awards (only
 * those to `sd.id` are read).
 */
export function bestCards(awards, sd) {
  if (!sd) return [];
  const sides = new Set((awards ?? []).filter((a) => a.to === sd.id).map((a) => a.side ?? "high"));
  const low = sd.lowBest ?? [];
  if (!low.length) return sd.best ?? [];
  const wonLow = sides.has("low") || sides.has("scoop");
  const wonHigh = sides.has("high") || sides.has("scoop");
  if (wonLow && wonHigh) return [...(sd.best ?? []), ...low];
  if (wonLow || (!wonHigh && sd.declare === "low")) return low;
  return sd.best ?? [];
}

/**
 * Ids of a showdown entry's cards to mark as winning: its best five, and in Omaha Hi-Lo (entries carry
 * `lowBest`) only the half it won: the high five for a high award, the low five for a low award. A hand run
 * twice (awards carry `board`, the entry its second-board hand under `second`): the cards of each board it
 * won something on.
 */
export function wonCards(awards, sd) {
  if (!sd?.second) return new Set(bestCards(awards, sd).map((c) => c.id));
  return new Set([...boardBest(awards, sd, 0), ...boardBest(awards, sd, 1)]);
}

/** Run it twice: the ids of `sd`'s winning cards on board `k` (0 or 1), [] when it won nothing there. */
export function boardBest(awards, sd, k) {
  const mine = (awards ?? []).filter((a) => (a.board ?? 0) === k && a.to === sd.id);
  if (!mine.length) return [];
  const entry = k === 1 && sd.second ? { ...sd.second, id: sd.id } : sd;
  return bestCards(mine, entry).map((c) => c.id);
}

/**
 * The hand label under a shown seat: high, and the low of a hi-lo game ("로우 없음" in Omaha Hi-Lo); a board run
 * twice names the hand on each ("1: 에이스 플러시 · 2: 킹 원페어"). A 7 Poker Hi-Lo seat that declared one side
 * (`side`, the seat's `declare`) names only that side's hand: the other competes for nothing, and a phone's
 * seat has room for one name whole ("7 원… / 로우 J탑" where 하이 was declared).
 */
export function handLabel(sd, side = null) {
  if (sd.second) return `1: ${handLabel({ ...sd, second: null })} · 2: ${handLabel(sd.second)}`;
  const high = sd.rankName ?? sd.handName;
  if (side === "high" && high) return high;
  if (side === "low" && sd.lowName) return tx("view.1") + sd.lowName;
  if (sd.lowBest !== undefined) return `${high} / ${sd.lowName ? tx("view.1") + sd.lowName : tx("controls.56")}`;
  return high + (sd.lowName ? ` / ${sd.lowName}` : "");
}

/** Does the clock of this phase run for player `id` (their timer ring shows)? */
export function waitsFor(v, id) {
  if (!v.deadlineAt) return false;
  if (v.phase === "betting") return v.toAct === id;
  if (["choice", "draw", "declare", "runTwice"].includes(v.phase)) return (v.pending ?? []).includes(id);
  // §5.6: a busted player has 15 s to take chips again (a timeout means 그만하기)
  if (v.phase === "rebuy") return [...(v.rebuyPending ?? []), ...(v.pending ?? [])].includes(id);
  return false;
}

/** The awards in the order they are told: side pots first (the highest index), the main pot, then penalty shares (-1). */
export function sortedAwards(v) {
  return [...(v.awards ?? [])].sort((a, b) => {
    const ka = a.potIndex < 0 ? -1e9 : a.potIndex;
    const kb = b.potIndex < 0 ? -1e9 : b.potIndex;
    return kb - ka;
  });
}

/** Short tags of the house rules in force for the phase line (docs/rules-extensions.md). */
export function houseRuleTags(hr) {
  if (!hr) return [];
  const out = [];
  if (hr.rule491) out.push(tx("view.2"));
  if (hr.betCap) out.push(tx("view.3", [fmt(hr.betCap)]));
  if (hr.badugiHigh) out.push(tx("view.4"));
  if (hr.jacksOrBetter) out.push(tx("view.5"));
  if (hr.ante) out.push(`${hr.ante.kind === "bigBlind" ? tx("view.6") : tx("labels.12")} ${fmt(hr.ante.amount)}`);
  if (hr.straddle) out.push(tx("view.7", [fmt(hr.straddle)]));
  if (hr.runItTwice && !hr.runItTwice.deciding) out.push(tx("labels.23")); // (deciding: the street says it)
  return out;
}

/** The seats clockwise from my left (all of them, from the first, for a spectator: `full`). */
export function seatOrderForDisplay(v) {
  const seats = [...(v.seats ?? [])].sort((a, b) => a.seat - b.seat);
  const myId = mySeatId(v);
  const idx = seats.findIndex((s) => s.id === myId);
  if (idx < 0) return { others: seats, full: true };
  return { others: [...seats.slice(idx + 1), ...seats.slice(0, idx)], full: false };
}
