// Labels for actions, badges and phases, in the page's language (i18n.js). Display only: no rule lives here.

import { tx } from "./i18n.js";

export const ACTION_LABEL = {
  "k.die": tx("labels.1"), "k.check": tx("labels.2"), "k.ping": tx("labels.3"), "k.call": tx("labels.4"), "k.ddadang": tx("labels.5"),
  "k.quarter": tx("labels.6"), "k.half": tx("labels.7"), "k.full": tx("labels.8"),
  "nl.fold": tx("labels.9"), "nl.check": tx("labels.2"), "nl.call": tx("labels.4"), "nl.raise": tx("labels.10"), "nl.bet": tx("controls.27"), "nl.allIn": tx("labels.11"),
  ante: tx("labels.12"), sb: "SB", bb: "BB", straddle: tx("labels.13"),
  choose: tx("labels.14"), draw: tx("labels.15"), declare: tx("labels.16"), ready: tx("labels.17"), rebuy: tx("labels.18"),
};

export const KOREAN_ORDER = ["k.die", "k.check", "k.ping", "k.call", "k.ddadang", "k.quarter", "k.half", "k.full"];

export const SIDE_LABEL = { high: tx("labels.19"), low: tx("labels.20"), swing: tx("labels.21") };

export const PHASE_LABEL = {
  choice: tx("labels.14"), betting: tx("labels.22"), draw: tx("labels.15"), declare: tx("labels.16"), runTwice: tx("labels.23"), handEnd: tx("labels.24"), rebuy: tx("labels.18"), finished: tx("labels.25"),
};

// one formatter for every number: toLocaleString builds a new one per call, which a throttled phone feels
// (every seat's stack and bet on every render)
const NUM = new Intl.NumberFormat("ko-KR");

export function fmt(n) {
  if (n == null || Number.isNaN(Number(n))) return "0";
  return NUM.format(Number(n));
}

export function chips(n) {
  return tx("labels.26", [fmt(n)]);
}

/** A gain or loss: "+94", "−94" (a real minus sign, as the server writes it), "±0". */
export function signedFmt(n) {
  const v = Number(n) || 0;
  if (v > 0) return `+${fmt(v)}`;
  if (v < 0) return `−${fmt(-v)}`;
  return "±0";
}

/** A gain or loss in chips: "+94칩", "−94칩" (a real minus sign), "0칩". */
export function netChips(n) {
  const v = Number(n) || 0;
  return v ? tx("labels.26", [signedFmt(v)]) : tx("labels.27");
}

/** The classes of a net's cell: green a gain, red a loss, the text's own colour a break-even (no win to read). */
export function netClass(n) {
  const v = Number(n) || 0;
  return v < 0 ? "net loss" : v > 0 ? "net" : "net even";
}

/** A gain or loss in a narrow column (the result table): "+94칩" in Korean, "+94" in English, whose header says chips. */
export function netShort(n) {
  const v = Number(n) || 0;
  return v ? tx("labels.net", [signedFmt(v)]) : tx("labels.27");
}

/** Replace player ids by nicknames in an engine-made line (ids are whole words such as "p3"). */
export function withNames(text, names) {
  if (!text) return "";
  const ids = Object.keys(names).sort((a, b) => b.length - a.length);
  if (!ids.length) return text;
  const esc = ids.map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  const re = new RegExp(`(^|[^A-Za-z0-9_-])(${esc.join("|")})(?![A-Za-z0-9_-])`, "g");
  return text.replace(re, (m, pre, id) => pre + names[id]);
}
