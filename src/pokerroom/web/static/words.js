// The server's Korean, worded again in the page's language (docs/decisions/0048-english-switch.md).
//
// The engine writes a few things only as Korean text: hand names ("에이스·퀸 투페어", "K탑", "8 원페어, 잭·9
// 키커"), street names, why a pot was won, the public log's lines, the host's and pre-actions' notices. Their
// structured twins are not all on the wire (a log entry keeps only its text; adding fields to the engine's
// view would change the golden files), but every one of them comes from a small closed grammar (hands/names.py,
// engine/log.py, engine/verdict.py): the Korean side of i18n/*/server.js holds those sentences with {n} for
// what varies, so a line is matched against them and its parts are worded again, hand names inside included.
// Refusals are worded from their `code` alone (serverMessage). In Korean nothing here runs: text is shown as
// the server sent it.

import { LANG, tx } from "./i18n.js";
import KO from "./i18n/ko.js";

const HANGUL = /[\uAC00-\uD7A3\u3131-\u318E]/;
const esc = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

// a low's name: "9탑" (hands/names.py) reads "9-low" in English, where a high card's "K탑" is "K-high"; which
// one a "…탑" is, only where it stands says (a view's lowName, a low half's award, what follows " / 로우 ")
const LOW_KEY = "words.hand.lowTop";
let lowContext = false;

/** `text` worded as `words` does, every tight "…탑" in it named as a low ("9-low"). */
function lowWords(text) {
  const was = lowContext;
  lowContext = true;
  try { return words(text); } finally { lowContext = was; }
}

// every sentence of the server's grammar, longest literal first (so "빅 블라인드 앤티 {1}" wins over
// "빅 블라인드 {1}"), as [regex, key]; hand labels and words are handled by `hand` below
const SENTENCES = Object.keys(KO)
  .filter((k) => k.startsWith("words.") && KO[k].includes("{") && k !== LOW_KEY)
  .map((k) => [new RegExp("^" + KO[k].split(/\{\d\}/).map(esc).join("(.+?)") + "$"), k, KO[k].replace(/\{\d\}/g, "").length])
  .sort((a, b) => b[2] - a[2]);

const RANK_KEYS = new Set(["words.hand.ace", "words.hand.king", "words.hand.queen", "words.hand.jack"]);

// a whole string that is one of the catalog's own Korean words ("콜", "하이", "체크/다이", "플랍")
const EXACT = new Map();
for (const [k, v] of Object.entries(KO)) {
  if (k.startsWith("words.") && !k.startsWith("words.hand.") && !v.includes("{")) EXACT.set(v, k);
}
for (const [k, v] of Object.entries(KO)) if (!k.startsWith("words.hand.") && !v.includes("{") && !EXACT.has(v)) EXACT.set(v, k);

const LABELS = Object.keys(KO).filter((k) => k.startsWith("words.hand.") && !KO[k].includes("{") && !RANK_KEYS.has(k))
  .map((k) => [KO[k], k]).sort((a, b) => b[0].length - a[0].length);
// rank words of the international modes ("에이스", "킹"): the catalog's Korean side is the server's word
const RANK_WORD = new Map(["ace", "king", "queen", "jack"].map((r) => [KO[`words.hand.${r}`], `words.hand.${r}`]));

function ranks(text) {
  const parts = text.split("·");
  if (!parts.every((p) => RANK_WORD.has(p) || /^[0-9AKQJT][0-9AKQJT-]*$/.test(p))) return null;
  return parts.map((p) => (RANK_WORD.has(p) ? tx(RANK_WORD.get(p)) : p)).join("·");
}

/** A hand name of hands/names.py: [ranks] label, a tight "K탑", a suit in brackets; null if it is none. */
function hand(text) {
  const suit = /^(.*?)\(([♠◆♥♣])\)$/.exec(text);
  if (suit) { const inner = hand(suit[1]); return inner == null ? null : `${inner} (${suit[2]})`; }
  for (const [ko, key] of LABELS) {
    if (text === ko) return tx(key === "words.hand.top" ? "words.hand.highCard" : key); // "탑" alone: no pair
    const tight = key === "words.hand.top";
    const sep = tight ? "" : " ";
    if (text.endsWith(sep + ko)) {
      const r = ranks(text.slice(0, text.length - ko.length - sep.length));
      if (r != null) return tight ? (lowContext ? tx(LOW_KEY, [r]) : `${r}${tx(key)}`) : `${r} ${tx(key)}`;
    }
  }
  return ranks(text);
}

const SIDES = { 하이: "labels.19", 로우: "labels.20", 스윙: "labels.21" };

// the lines whose Korean grammar a template cannot say (particles that follow the sound, lists, optional parts)
const SPECIAL = [
  [/^([\d,]+) \(블라인드 (.+)\)$/, (m) => m[1] + tx("words.notice.blinds", [m[2]])], // the host's new stakes
  [/^(.+?)(?:이|가) (\S+)의 (.+?)(?:을|를) 이김$/, (m) => tx("words.beats", [tr(m[1]), m[2], tr(m[3])])],
  [/^(\S+) (체크|삥|콜|따당|쿼터|하프|풀|다이|폴드|레이즈|올인|벳)((?: [\d,]+)(?:까지)?)?( \(올인\))?( \(자동\))?$/, (m) => {
    const amount = (m[3] ?? "").trim();
    let act = m[2] === "벳" ? tx("words.log.bet", [amount]) : tx(EXACT.get(m[2]) ?? "labels.2");
    if (amount.endsWith("까지")) act = tx("words.log.raiseTo", [amount.slice(0, -2)]);
    else if (amount && m[2] !== "벳") act += ` ${amount}`;
    return `${m[1]} ${act}${m[4] ? tx("history.1") : ""}${m[5] ? tx("history.2") : ""}`;
  }],
  [/^(\S+) ([\d,]+)칩 획득(?:\(보드 (\d+)\))?(?:: (.*))?$/, (m) =>
    tx("words.log.award", [m[1], m[2]]) + (m[3] ? tx("words.log.awardBoard", [m[3]]) : "") + (m[4] ? `: ${tr(m[4])}` : "")],
  [/^쇼다운: (.*)$/, (m) => tx("words.log.showdown", [m[1].split(", ").map(showdownEntry).join(", ")])],
  [/^(\S+) 카드 공개: (.+?) \((.+)\)$/, (m) => `${tx("words.log.shown", [m[1], m[2]])} (${tr(m[3], true)})`], // shown, and named
  [/^(플랍|턴|리버): (.*)$/, (m) => `${tr(m[1])}: ${m[2]}`], // a board's cards under their street's name
  [/^([4-7]구): (.*)$/, (m) => `${tr(m[1])}: ${tr(m[2])}`], // a 7 Poker street's open cards, or 7구's hidden one
  [/^(아침|점심|저녁|교환): (.*)$/, (m) => `${tr(m[1])}: ${m[2].replace(/(\S+) (\d+)장/g, (_, p, n) => tx("words.log.cards", [p, n]))}`],
  [/^로우 (\S+탑)$/, (m) => lowWords(m[1])], // a low half's hand in a verdict ("로우 9탑, 혼자 로우를 선언해 …")
  [/^선언: (.*)$/, (m) => tx("words.log.declares", [m[1].replace(/ (하이|로우|스윙)(?=,|$)/g, (_, s) => ` ${tx(SIDES[s])}`)])],
];

function showdownEntry(entry) {
  const [main, second] = entry.split(" · 보드2 ");
  const one = (s) => {
    const [hi, low] = s.split(" / 로우 ");
    const sp = /^(\S+) (.+)$/.exec(hi);
    const head = sp && hand(sp[2]) != null ? `${sp[1]} ${hand(sp[2])}` : tr(hi);
    if (low == null) return head;
    return head + (low === "없음" ? tx("words.log.noLow") : tx("words.log.low", [lowWords(low)]));
  };
  return second == null ? one(main) : one(main) + tx("words.log.second", [one(`x ${second}`).slice(2)]);
}

function tr(text, top = false) {
  if (!text || !HANGUL.test(text)) return text;
  const named = hand(text);
  if (named != null) return top ? named[0].toUpperCase() + named.slice(1) : named; // "Ace high" alone
  if (EXACT.has(text)) return tx(EXACT.get(text));
  for (const [re, fn] of SPECIAL) { const m = re.exec(text); if (m) return fn(m); }
  for (const [re, key] of SENTENCES) {
    const m = re.exec(text);
    if (m) return tx(key, m.slice(1).map((part) => tr(part)));
  }
  for (const sep of [" · ", " / "]) { // "스트레이트 · 보드2 ...", a swing's "8 원페어 / 9탑" (its low after the slash)
    if (text.includes(sep)) return text.split(sep).map((part, i) => (sep === " / " && i ? lowWords(part) : tr(part))).join(sep);
  }
  return text;
}

/** `text` from the server in the page's language: as sent in Korean, worded again in English. */
export function words(text) {
  if (LANG === "ko" || text == null) return text;
  const out = tr(String(text), true);
  // a sentence starts with a capital, unless it starts with a player id ("p3 Call 10": names replace it)
  return /^p\d/.test(out) ? out : out.charAt(0).toUpperCase() + out.slice(1);
}

/**
 * A refusal or notice in the page's language: in Korean the server's words as sent. In English a sentence of
 * the server's grammar is worded again (it may carry a nickname); any other refusal is worded from its `code`
 * (the numbers of the Korean message, such as a minimum raise, fill the English one).
 */
export function serverMessage(code, message, notice = false) {
  if (LANG === "ko" || (message == null && !code)) return message;
  const said = message ? words(message) : "";
  if (said && (notice || !HANGUL.test(said))) return said;
  const key = `err.${code}`;
  if (code && key in KO) return tx(key, String(message ?? "").match(/\d[\d,]*/g) ?? []);
  return tx("err.other", [code ?? "?"]);
}

// the fields of views, past hands and replays that hold the server's Korean (engine/view.py, verdict.py, log.py,
// result.py); nicknames, chat and reactions are people's own words and never pass through here
const WORDED = new Set(["streetName", "rankName", "shownName", "handName", "lowName", "mineName", "hand", "why", "restriction", "text",
  "summary"]);

/**
 * Word a view (or a past hand, a replay, a pre-action notice) again in place, in English only. In place and
 * idempotent: a delta shares the unchanged parts of the view it came from, and English text passes through
 * words() untouched, so a part worded once is never worded twice.
 */
export function wordView(node) {
  if (LANG === "ko" || node == null || typeof node !== "object") return node;
  if (Array.isArray(node)) { for (const x of node) if (x && typeof x === "object") wordView(x); return node; }
  for (const [k, v] of Object.entries(node)) {
    if (typeof v === "string") {
      const low = k === "lowName" || (node.side === "low" && (k === "hand" || k === "why"));
      if (WORDED.has(k) && HANGUL.test(v)) node[k] = low ? lowWords(v) : words(v);
    }
    else if (v && typeof v === "object") wordView(v);
  }
  return node;
}

/**
 * The names the server gives bots ("봇 3": nicknames.py keeps people from taking them) in the page's language,
 * in a `lobby` message's players, a ledger's rows or a room's info; people's own nicknames are left as they are.
 */
export function wordBots(list) {
  if (LANG === "ko" || !Array.isArray(list)) return list;
  for (const p of list) {
    const m = p && typeof p.nickname === "string" ? /^봇 (\d+)$/.exec(p.nickname) : null;
    if (m) p.nickname = tx("words.bot", [m[1]]);
  }
  return list;
}

// the fixed reactions by their code (server/room/reactions.py; talk.js draws the same words on the palette)
const REACTION_KEY = { nice: "talk.1", hurry: "talk.2", lol: "talk.3", wow: "talk.4", sorry: "talk.5", gg: "talk.6" };

/** A reaction's words in the page's language, from its code (the emoji ones are the same in every language). */
export function reactionText(code, text) {
  return LANG === "ko" || !REACTION_KEY[code] ? text : tx(REACTION_KEY[code]);
}
