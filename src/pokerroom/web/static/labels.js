// Korean labels for actions, badges and phases. Display only: no rule lives here.

export const ACTION_LABEL = {
  "k.die": "다이", "k.check": "체크", "k.ping": "삥", "k.call": "콜", "k.ddadang": "따당",
  "k.quarter": "쿼터", "k.half": "하프", "k.full": "풀",
  "nl.fold": "폴드", "nl.check": "체크", "nl.call": "콜", "nl.raise": "레이즈", "nl.allIn": "올인",
  ante: "앤티", sb: "SB", bb: "BB", straddle: "스트래들",
  choose: "초이스", draw: "교환", declare: "선언", ready: "다음 판", rebuy: "리바이",
};

export const KOREAN_ORDER = ["k.die", "k.check", "k.ping", "k.call", "k.ddadang", "k.quarter", "k.half", "k.full"];

export const SIDE_LABEL = { high: "하이", low: "로우", swing: "스윙" };

export const PHASE_LABEL = {
  choice: "초이스", betting: "베팅", draw: "교환", declare: "선언", runTwice: "런 잇 트와이스", handEnd: "판 결과", rebuy: "리바이", finished: "게임 끝",
};

// one formatter for every number: toLocaleString builds a new one per call, which a throttled phone feels
// (every seat's stack and bet on every render)
const NUM = new Intl.NumberFormat("ko-KR");

export function fmt(n) {
  if (n == null || Number.isNaN(Number(n))) return "0";
  return NUM.format(Number(n));
}

export function chips(n) {
  return `${fmt(n)}칩`;
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
  return v ? `${signedFmt(v)}칩` : "0칩";
}

/** Replace player ids by nicknames in an engine-made Korean line (ids are whole words such as "p3"). */
export function withNames(text, names) {
  if (!text) return "";
  const ids = Object.keys(names).sort((a, b) => b.length - a.length);
  if (!ids.length) return text;
  const esc = ids.map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  const re = new RegExp(`(^|[^A-Za-z0-9_-])(${esc.join("|")})(?![A-Za-z0-9_-])`, "g");
  return text.replace(re, (m, pre, id) => pre + names[id]);
}
