// Room options of poker.md §2.2 with their defaults, Korean labels, and the lobby's own checks (the server
// checks again and its Korean message is shown too). Mode-specific options are shown only for their mode.

export const MODES = [
  { key: "holdem", name: "텍사스 홀덤", short: "홀덤", players: "2~10명", blurb: "개인 2장 + 공용 5장" },
  { key: "omaha", name: "오마하", short: "오마하", players: "2~10명", blurb: "개인 4장 중 정확히 2장" },
  { key: "sevenPoker", name: "7포커", short: "7포커", players: "2~6명", blurb: "한국식 초이스 세븐 스터드" },
  { key: "sevenHiLo", name: "7포커 하이로우", short: "하이로우", players: "2~6명", blurb: "하이/로우/스윙 선언" },
  { key: "badugi", name: "바둑이", short: "바둑이", players: "2~6명", blurb: "아침·점심·저녁 교환" },
  { key: "fiveDraw", name: "5카드 드로우", short: "드로우", players: "2~6명", blurb: "5장, 교환 1회" },
  { key: "indian", name: "인디언 포커", short: "인디언", players: "2~6명", blurb: "이마 카드, 남의 패만 보임" },
];

/** The Indian-poker display name chosen by the user (poker.md §12): "인디언 포커" or "이마 포커". */
export function indianName() {
  try {
    return localStorage.getItem("pokerroom:indianName") === "이마 포커" ? "이마 포커" : "인디언 포커";
  } catch {
    return "인디언 포커";
  }
}
export function setIndianName(name) {
  try { localStorage.setItem("pokerroom:indianName", name === "이마 포커" ? "이마 포커" : "인디언 포커"); } catch { /* private mode */ }
}

export function modeName(key, options = null) {
  if (key === "indian") return indianName();
  if (key === "omaha" && options?.omahaHiLo) return "오마하 하이로우";
  return MODES.find((m) => m.key === key)?.name ?? key;
}

// {key, label, choices [[value, text]], def, mode?, korean?, onlyIf?, help?, main?}: `main` options are the few
// people change, shown first on the create form with the chosen mode's own options (`mode`); every other
// option (a new shared house rule included) is folded behind "더 보기".
export const OPTION_DEFS = [
  { key: "betting", label: "베팅 방식", def: "auto", choices: [["auto", "모드 기본"], ["korean", "한국식 판돈"], ["noLimit", "노리밋"], ["potLimit", "팟리밋"]] },
  { key: "startingChips", label: "시작 칩", def: 1000, main: true, choices: [[500, "500"], [1000, "1,000"], [2000, "2,000"], [5000, "5,000"]] },
  { key: "baseUnit", label: "기본 단위", def: 10, main: true, choices: [[2, "2"], [10, "10"], [20, "20"], [50, "50"]], help: "한국식은 앤티(삥) 금액, 홀덤·오마하는 빅 블라인드" },
  { key: "koreanMaxRaise", label: "최대 레이즈(한국식)", def: "half", choices: [["half", "하프까지"], ["full", "풀까지"]], korean: true },
  { key: "endCondition", label: "끝내는 방법", def: "hands", main: true, choices: [["hands", "정해진 판 수"], ["lastStanding", "최후의 1인"]] },
  { key: "handLimit", label: "총 판 수", def: 20, main: true, choices: [[10, "10판"], [20, "20판"], [30, "30판"], [50, "50판"]], onlyIf: (o) => o.endCondition === "hands" },
  { key: "blindUpEvery", label: "기본 단위 2배 올리기", def: 0, choices: [[0, "안 올림"], [5, "5판마다"], [10, "10판마다"], [15, "15판마다"]] },
  { key: "rebuy", label: "리바이(칩 다시 받기)", def: "unlimited", choices: [["off", "없음"], ["limited", "횟수 제한"], ["unlimited", "무제한"]] },
  { key: "rebuyLimit", label: "리바이 횟수", def: 1, choices: [[1, "1회"], [2, "2회"], [3, "3회"]], onlyIf: (o) => o.rebuy === "limited" },
  { key: "turnSeconds", label: "행동 제한 시간", def: 20, choices: [[15, "15초"], [20, "20초"], [30, "30초"], [60, "60초"]] },
  { key: "timeBank", label: "타임뱅크", def: 0, choices: [[0, "없음"], [30, "30초"], [60, "60초"], [120, "120초"]], help: "제한 시간이 끝나면 각자 가진 여분 시간을 자동으로 써요. 다 쓰면 그때 시간 초과예요" },
  { key: "timeBankEvery", label: "타임뱅크 충전", def: 10, choices: [[0, "충전 안 함"], [5, "5판마다"], [10, "10판마다"], [20, "20판마다"]], onlyIf: (o) => Number(o.timeBank) > 0 },
  { key: "dealerRule", label: "다음 딜러(선)", def: "rotate", choices: [["rotate", "시계 방향 회전"], ["winner", "직전 승자"]] },
  { key: "hints", label: "족보 표시·추천 행동", def: true, choices: [[true, "켬"], [false, "끔"]] },
  { key: "hiLoLow", label: "로우 판정", def: "korean", mode: "sevenHiLo", choices: [["korean", "한국식 (최고 A-2-3-4-6)"], ["aceToFive", "A-5 (최고 A-2-3-4-5)"]] },
  { key: "hiLoQualifier", label: "로우 자격", def: "none", mode: "sevenHiLo", choices: [["none", "없음 (K탑까지)"], ["eight", "8탑 이하만"]] },
  { key: "omahaHiLo", label: "하이로우 (8 이하 로우)", def: false, mode: "omaha", choices: [[false, "끔 (하이만)"], [true, "켬 (하이·로우 반씩)"]], help: "개인 2장 + 공용 3장으로 8 이하 로우(A-5, 스트레이트·플러시 상관없음)를 만든 가장 낮은 패가 판돈 절반. 로우가 없으면 하이가 전부" },
  { key: "drawLimit", label: "교환 장수", def: "any", mode: "fiveDraw", choices: [["any", "0~5장"], ["three", "3장 (A 있으면 4장)"]] },
  { key: "indianCards", label: "카드 수", def: 1, mode: "indian", choices: [[1, "1장 (이마)"], [2, "2장 (이마 + 손)"]] },
  { key: "indianDeck", label: "덱", def: "d20", mode: "indian", choices: [["d20", "1~10 두 벌 (20장)"], ["d52", "52장"]] },
  { key: "indianFoldPenalty", label: "10 다이 벌칙", def: true, mode: "indian", choices: [[true, "켬"], [false, "끔"]], help: "덱 최고 숫자를 이마에 단 채 다이하면 기본 단위 ×10 벌칙" },
  { key: "indianTie", label: "동점일 때", def: "carry", mode: "indian", choices: [["carry", "다음 판으로 이월"], ["split", "나눠 갖기"]] },
  { key: "indianReshuffle", label: "덱 섞기", def: "whenEmpty", mode: "indian", choices: [["whenEmpty", "덱을 다 쓰면 (카드 기억)"], ["everyHand", "매 판"]] },
  // house rules (docs/rules-extensions.md), off by default
  { key: "rule491", label: "491 룰", def: false, modes: ["sevenPoker", "sevenHiLo"], korean: true, choices: [[false, "끔"], [true, "켬"]], help: "4구·5구에서 처음 거는 사람은 하프 또는 다이만 할 수 있어요" },
  { key: "badugiHigh", label: "하이 바둑이", def: false, mode: "badugi", choices: [[false, "끔 (낮은 패가 이김)"], [true, "켬 (높은 패가 이김)"]], help: "메이드·베이스는 같고, 같은 등급이면 높은 숫자가 이겨요 (A가 가장 높음)" },
  { key: "jacksOrBetter", label: "잭스 오어 베터", def: false, mode: "fiveDraw", choices: [[false, "끔"], [true, "켬"]], help: "J 원페어 이상이 있어야 첫 베팅을 열 수 있고, 아무도 못 열면 판돈을 두고 다시 돌려요" },
  { key: "ante", label: "앤티", def: "none", modes: ["holdem", "omaha"], choices: [["none", "없음"], ["everyone", "모두 앤티"], ["bigBlind", "빅 블라인드 앤티"]], help: "모두 앤티: 매 판 모두가 조금씩 내요. 빅 블라인드 앤티: 빅 블라인드 자리가 모두의 몫을 한 번에 내요" },
  { key: "antePercent", label: "앤티 크기", def: 100, modes: ["holdem", "omaha"], choices: [[10, "빅 블라인드의 10%"], [25, "25%"], [50, "50%"], [100, "100% (빅 블라인드만큼)"], [150, "150%"]], onlyIf: (o) => o.ante && o.ante !== "none", help: "모두 앤티는 10~25%, 빅 블라인드 앤티는 100%가 흔해요" },
  { key: "straddle", label: "스트래들", def: false, modes: ["holdem", "omaha"], choices: [[false, "끔"], [true, "켬"]], help: "4명 이상일 때 빅 블라인드 다음 사람이 빅 블라인드 2배를 먼저 걸고, 프리플랍에 마지막으로 행동해요" },
  { key: "runItTwice", label: "런 잇 트와이스", def: false, modes: ["holdem", "omaha"], choices: [[false, "끔"], [true, "켬"]], help: "리버 전에 모두 올인하면, 올인한 사람이 모두 동의할 때 남은 보드를 두 번 돌려 판돈을 반씩 나눠요" },
  { key: "betCap", label: "맥스 베팅 상한", def: 0, choices: [[0, "없음"], [10, "기본 ×10"], [20, "기본 ×20"], [50, "기본 ×50"], [100, "기본 ×100"]], help: "한 번에 콜 금액보다 더 걸 수 있는 칩의 상한 (넘는 하프·풀은 상한까지만)" },
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
  if (o.baseUnit * 20 > o.startingChips) errs.push({ key: "baseUnit", text: "시작 칩이 기본 단위의 20배 이상이어야 해요" });
  if (players != null && players > maxPlayers(o)) errs.push({ key: "mode", text: `이 모드는 최대 ${maxPlayers(o)}명까지 할 수 있어요` });
  return errs;
}

/** Korean validation messages, [] when fine. */
export function validateOptions(o, players = null) {
  return optionErrors(o, players).map((e) => e.text);
}

export function validateNickname(name) {
  const t = (name ?? "").trim();
  if (t.length < 1) return "닉네임을 입력해 주세요";
  if ([...t].length > 12) return "닉네임은 12자까지 쓸 수 있어요";
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
  if (!o) return "";
  const parts = [modeName(o.mode, o)];
  const bet = { korean: "한국식", noLimit: "노리밋", potLimit: "팟리밋" }[resolvedBetting(o)];
  parts.push(bet);
  parts.push(`시작 칩 ${Number(o.startingChips).toLocaleString("ko-KR")}`);
  parts.push(`기본 단위 ${o.baseUnit}`);
  parts.push(o.endCondition === "lastStanding" ? "최후의 1인" : `${o.handLimit}판`);
  if (o.blindUpEvery) parts.push(`${o.blindUpEvery}판마다 2배`);
  parts.push({ off: "리바이 없음", limited: `리바이 ${o.rebuyLimit}회`, unlimited: "리바이 무제한" }[o.rebuy] ?? "");
  parts.push(`${o.turnSeconds}초`);
  if (o.timeBank) parts.push(`타임뱅크 ${o.timeBank}초`);
  if (o.rule491 && ["sevenPoker", "sevenHiLo"].includes(o.mode) && resolvedBetting(o) === "korean") parts.push("491 룰");
  if (o.betCap) parts.push(`맥스 기본 ×${o.betCap}`);
  if (o.badugiHigh && o.mode === "badugi") parts.push("하이 바둑이");
  if (o.jacksOrBetter && o.mode === "fiveDraw") parts.push("잭스 오어 베터");
  if (["holdem", "omaha"].includes(o.mode)) {
    if (o.ante === "everyone") parts.push(`앤티 ${o.antePercent}%`);
    if (o.ante === "bigBlind") parts.push(`BB 앤티 ${o.antePercent}%`);
    if (o.straddle) parts.push("스트래들");
    if (o.runItTwice) parts.push("런 잇 트와이스");
  }
  return parts.filter(Boolean).join(" · ");
}
