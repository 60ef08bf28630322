// Room options of poker.md §2.2 with their defaults, Korean labels, and the lobby's own checks (the server
// checks again and its Korean message is shown too). Mode-specific options are shown only for their mode.

import { tx } from "./i18n.js";

export const MODES = [
  { key: "holdem", name: tx("options.1"), short: tx("options.2"), players: tx("options.3"), blurb: tx("options.4") },
  { key: "omaha", name: tx("options.5"), short: tx("options.5"), players: tx("options.3"), blurb: tx("options.6") },
  { key: "sevenPoker", name: tx("options.7"), short: tx("options.7"), players: tx("options.8"), blurb: tx("options.9") },
  { key: "sevenHiLo", name: tx("options.10"), short: tx("options.11"), players: tx("options.8"), blurb: tx("options.12") },
  { key: "badugi", name: tx("options.13"), short: tx("options.13"), players: tx("options.8"), blurb: tx("options.14") },
  { key: "fiveDraw", name: tx("options.15"), short: tx("options.16"), players: tx("options.8"), blurb: tx("options.17") },
  { key: "indian", name: tx("app.2"), short: tx("options.18"), players: tx("options.8"), blurb: tx("options.19") },
];

/**
 * The Indian-poker display name chosen by the user (poker.md §12): "인디언 포커" or "이마 포커", worded in the
 * page's language. The stored value stays the Korean name, so a choice made before the English switch (or in
 * the other language) keeps meaning the same thing.
 */
const FOREHEAD = "이마 포커";
export function indianName() {
  try {
    return localStorage.getItem("pokerroom:indianName") === FOREHEAD ? tx("app.3") : tx("app.2");
  } catch {
    return tx("app.2");
  }
}
export function setIndianName(name) {
  try { localStorage.setItem("pokerroom:indianName", name === tx("app.3") ? FOREHEAD : "인디언 포커"); } catch { /* private mode */ }
}

export function modeName(key, options = null) {
  if (key === "indian") return indianName();
  if (key === "omaha" && options?.omahaHiLo) return tx("options.20");
  return MODES.find((m) => m.key === key)?.name ?? key;
}

// {key, label, choices [[value, text]], def, mode?, korean?, onlyIf?, help?, main?}: `main` options are the few
// people change, shown first on the create form with the chosen mode's own options (`mode`); every other
// option (a new shared house rule included) is folded behind "더 보기".
export const OPTION_DEFS = [
  { key: "betting", label: tx("options.21"), def: "auto", choices: [["auto", tx("options.22")], ["korean", tx("options.23")], ["noLimit", tx("options.24")], ["potLimit", tx("options.25")]] },
  { key: "startingChips", label: tx("hostlive.12"), def: 1000, main: true, choices: [[500, "500"], [1000, "1,000"], [2000, "2,000"], [5000, "5,000"]] },
  { key: "baseUnit", label: tx("hostlive.9"), def: 10, main: true, choices: [[2, "2"], [10, "10"], [20, "20"], [50, "50"]], help: tx("options.26") },
  { key: "koreanMaxRaise", label: tx("options.27"), def: "half", choices: [["half", tx("options.28")], ["full", tx("options.29")]], korean: true },
  { key: "endCondition", label: tx("options.30"), def: "hands", main: true, choices: [["hands", tx("options.31")], ["lastStanding", tx("options.32")]] },
  { key: "handLimit", label: tx("options.33"), def: 20, main: true, choices: [[10, tx("options.34")], [20, tx("options.35")], [30, tx("options.36")], [50, tx("options.37")]], onlyIf: (o) => o.endCondition === "hands" },
  { key: "blindUpEvery", label: tx("options.38"), def: 0, choices: [[0, tx("options.39")], [5, tx("options.40")], [10, tx("options.41")], [15, tx("options.42")]] },
  { key: "rebuy", label: tx("options.43"), def: "unlimited", choices: [["off", tx("options.44")], ["limited", tx("options.45")], ["unlimited", tx("options.46")]] },
  { key: "rebuyLimit", label: tx("options.47"), def: 1, choices: [[1, tx("options.48")], [2, tx("options.49")], [3, tx("options.50")]], onlyIf: (o) => o.rebuy === "limited" },
  { key: "turnSeconds", label: tx("options.51"), def: 20, choices: [[15, tx("options.52")], [20, tx("options.53")], [30, tx("options.54")], [60, tx("options.55")]] },
  { key: "timeBank", label: tx("options.123"), def: 0, choices: [[0, tx("options.44")], [30, tx("options.54")], [60, tx("options.55")], [120, tx("options.124")]], help: tx("options.125") },
  { key: "timeBankEvery", label: tx("options.126"), def: 10, choices: [[0, tx("options.127")], [5, tx("options.40")], [10, tx("options.41")], [20, tx("options.128")]], onlyIf: (o) => Number(o.timeBank) > 0 },
  { key: "dealerRule", label: tx("options.56"), def: "rotate", choices: [["rotate", tx("options.57")], ["winner", tx("options.58")]] },
  { key: "hints", label: tx("options.59"), def: true, choices: [[true, tx("options.60")], [false, tx("options.61")]] },
  { key: "hiLoLow", label: tx("options.62"), def: "korean", mode: "sevenHiLo", choices: [["korean", tx("options.63")], ["aceToFive", tx("options.64")]] },
  { key: "hiLoQualifier", label: tx("options.65"), def: "none", mode: "sevenHiLo", choices: [["none", tx("options.66")], ["eight", tx("options.67")]] },
  { key: "omahaHiLo", label: tx("options.68"), def: false, mode: "omaha", choices: [[false, tx("options.69")], [true, tx("options.70")]], help: tx("options.71") },
  { key: "drawLimit", label: tx("seats.16"), def: "any", mode: "fiveDraw", choices: [["any", tx("options.72")], ["three", tx("options.73")]] },
  { key: "indianCards", label: tx("options.74"), def: 1, mode: "indian", choices: [[1, tx("options.75")], [2, tx("options.76")]] },
  { key: "indianDeck", label: tx("options.77"), def: "d20", mode: "indian", choices: [["d20", tx("options.78")], ["d52", tx("options.79")]] },
  { key: "indianFoldPenalty", label: tx("options.80"), def: true, mode: "indian", choices: [[true, tx("options.60")], [false, tx("options.61")]], help: tx("options.81") },
  { key: "indianTie", label: tx("options.82"), def: "carry", mode: "indian", choices: [["carry", tx("options.83")], ["split", tx("options.84")]] },
  { key: "indianReshuffle", label: tx("options.85"), def: "whenEmpty", mode: "indian", choices: [["whenEmpty", tx("options.86")], ["everyHand", tx("options.87")]] },
  // house rules (docs/rules-extensions.md), off by default
  { key: "rule491", label: tx("view.2"), def: false, modes: ["sevenPoker", "sevenHiLo"], korean: true, choices: [[false, tx("options.61")], [true, tx("options.60")]], help: tx("options.88") },
  { key: "badugiHigh", label: tx("view.4"), def: false, mode: "badugi", choices: [[false, tx("options.89")], [true, tx("options.90")]], help: tx("options.91") },
  { key: "jacksOrBetter", label: tx("view.5"), def: false, mode: "fiveDraw", choices: [[false, tx("options.61")], [true, tx("options.60")]], help: tx("options.92") },
  { key: "ante", label: tx("labels.12"), def: "none", modes: ["holdem", "omaha"], choices: [["none", tx("options.44")], ["everyone", tx("options.93")], ["bigBlind", tx("options.94")]], help: tx("options.95") },
  { key: "antePercent", label: tx("options.96"), def: 100, modes: ["holdem", "omaha"], choices: [[10, tx("options.97")], [25, "25%"], [50, "50%"], [100, tx("options.98")], [150, "150%"]], onlyIf: (o) => o.ante && o.ante !== "none", help: tx("options.99") },
  { key: "straddle", label: tx("labels.13"), def: false, modes: ["holdem", "omaha"], choices: [[false, tx("options.61")], [true, tx("options.60")]], help: tx("options.100") },
  { key: "runItTwice", label: tx("labels.23"), def: false, modes: ["holdem", "omaha"], choices: [[false, tx("options.61")], [true, tx("options.60")]], help: tx("options.101") },
  { key: "betCap", label: tx("options.102"), def: 0, choices: [[0, tx("options.44")], [10, tx("options.103")], [20, tx("options.104")], [50, tx("options.105")], [100, tx("options.106")]], help: tx("options.107") },
];

export const MODE_LIMIT = { holdem: 10, omaha: 10, sevenPoker: 6, sevenHiLo: 6, badugi: 6, fiveDraw: 6, indian: 6 };

export function defaultOptions() {
  const o = { mode: "sevenPoker" };
  for (const d of OPTION_DEFS) o[d.key] = d.def;
  return o;
}

export function resolvedBetting(o) {
  if (o.betting && o.betting !== "auto") return o.betting;
  return { holdem: "noLimit", omaha: "potLimit", indian: "noLimit" }[o.mode] ?? "korean";
}

export function maxPlayers(o) {
  if (o.mode === "indian") return o.indianCards === 1 && o.indianDeck === "d52" ? 10 : 6;
  return MODE_LIMIT[o.mode] ?? 10;
}

/** Does an option belong to this mode (`mode`: one mode, `modes`: several, neither: every mode)? */
export function forMode(def, mode) {
  if (def.mode && def.mode !== mode) return false;
  if (def.modes && !def.modes.includes(mode)) return false;
  return true;
}

/** Is this option shown (and sent) for these options? */
export function optionApplies(def, o) {
  if (!forMode(def, o.mode)) return false;
  if (def.korean && resolvedBetting(o) !== "korean") return false;
  if (def.onlyIf && !def.onlyIf(o)) return false;
  return true;
}

/** Korean validation messages with the field each belongs to ({key, text}), [] when fine. */
export function optionErrors(o, players = null) {
  const errs = [];
  if (o.baseUnit * 20 > o.startingChips) errs.push({ key: "baseUnit", text: tx("options.108") });
  if (players != null && players > maxPlayers(o)) errs.push({ key: "mode", text: tx("screens.3", [maxPlayers(o)]) });
  return errs;
}

/** Korean validation messages, [] when fine. */
export function validateOptions(o, players = null) {
  return optionErrors(o, players).map((e) => e.text);
}

export function validateNickname(name) {
  const t = (name ?? "").trim();
  if (t.length < 1) return tx("options.109");
  if ([...t].length > 12) return tx("options.110");
  return null;
}

/** The options actually sent: mode-specific keys only for their mode. */
export function optionsToSend(o) {
  const out = { mode: o.mode };
  for (const d of OPTION_DEFS) {
    if (!forMode(d, o.mode)) continue;
    out[d.key] = o[d.key];
  }
  return out;
}

export function summarizeOptions(o) {
  return optionItems(o).join(" · ");
}

/** The items of summarizeOptions (lobby.js draws them with dom.js's wholeItems). */
export function optionItems(o) {
  if (!o) return [];
  const parts = [modeName(o.mode, o)];
  const bet = { korean: tx("options.111"), noLimit: tx("options.24"), potLimit: tx("options.25") }[resolvedBetting(o)];
  parts.push(bet);
  parts.push(tx("options.112", [Number(o.startingChips).toLocaleString("ko-KR")]));
  parts.push(tx("options.113", [o.baseUnit]));
  parts.push(o.endCondition === "lastStanding" ? tx("options.32") : tx("options.114", [o.handLimit]));
  if (o.blindUpEvery) parts.push(tx("options.115", [o.blindUpEvery]));
  parts.push({ off: tx("options.116"), limited: tx(o.rebuyLimit === 1 ? "options.130" : "options.117", [o.rebuyLimit]), unlimited: tx("options.118") }[o.rebuy] ?? "");
  parts.push(tx("options.119", [o.turnSeconds]));
  if (o.timeBank) parts.push(tx("options.129", [o.timeBank]));
  if (o.rule491 && ["sevenPoker", "sevenHiLo"].includes(o.mode) && resolvedBetting(o) === "korean") parts.push(tx("view.2"));
  if (o.betCap) parts.push(tx("options.120", [o.betCap]));
  if (o.badugiHigh && o.mode === "badugi") parts.push(tx("view.4"));
  if (o.jacksOrBetter && o.mode === "fiveDraw") parts.push(tx("view.5"));
  if (["holdem", "omaha"].includes(o.mode)) {
    if (o.ante === "everyone") parts.push(tx("options.121", [o.antePercent]));
    if (o.ante === "bigBlind") parts.push(tx("options.122", [o.antePercent]));
    if (o.straddle) parts.push(tx("labels.13"));
    if (o.runItTwice) parts.push(tx("labels.23"));
  }
  return parts.filter(Boolean);
}
