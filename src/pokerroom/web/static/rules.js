// "규칙 보기": a one-page summary per mode, the hand-ranking table with drawn examples, and the Korean betting
// terms (poker.md §9 초보자 도움). Text only — the engine decides everything during play.

import { miniCardEl } from "./cards.js";
import { modeName } from "./options.js";

const RANKS = { A: 14, K: 13, Q: 12, J: 11, T: 10 };
const SUIT_IDX = { S: 0, D: 1, H: 2, C: 3 };

function parse(codes, d20 = false) {
  return codes.split(" ").map((code) => {
    const suit = code.slice(-1).toUpperCase();
    const r = code.slice(0, -1).toUpperCase();
    let rank = RANKS[r] ?? Number(r);
    if (d20) {
      if (rank === 14) rank = 1;
      return { id: (suit === "S" ? 0 : 10) + rank - 1, rank, suit };
    }
    return { id: SUIT_IDX[suit] * 13 + rank - 2, rank, suit };
  });
}

const INTERNATIONAL = [
  ["스트레이트 플러시", "같은 무늬 연속 5장 (로열 포함)", "As Ks Qs Js Ts"],
  ["포카드", "같은 숫자 4장", "9s 9d 9h 9c Kd"],
  ["풀하우스", "트리플 + 페어", "Qs Qd Qh 5c 5d"],
  ["플러시", "같은 무늬 5장", "Ah Jh 8h 6h 2h"],
  ["스트레이트", "연속 5장 (A-2-3-4-5가 가장 낮음)", "9c 8d 7s 6h 5c"],
  ["트리플", "같은 숫자 3장", "7s 7d 7h Kc 2d"],
  ["투페어", "페어 2개", "Ks Kd 4h 4c 9s"],
  ["원페어", "같은 숫자 2장", "As Ad 9h 6c 3d"],
  ["하이카드", "아무 족보 없음", "Ks Jd 8h 5c 3d"],
];

const KOREAN = [
  ["로열 스트레이트 플러시", "같은 무늬 A-K-Q-J-10 (로티플)", "As Ks Qs Js Ts"],
  ["백 스트레이트 플러시", "같은 무늬 A-2-3-4-5", "Ad 2d 3d 4d 5d"],
  ["스트레이트 플러시", "같은 무늬 연속 5장", "9h 8h 7h 6h 5h"],
  ["포카드", "같은 숫자 4장", "9s 9d 9h 9c Kd"],
  ["풀하우스", "트리플 + 페어", "Qs Qd Qh 5c 5d"],
  ["플러시", "같은 무늬 5장", "Ac Jc 8c 6c 2c"],
  ["마운틴", "A-K-Q-J-10 스트레이트", "As Kd Qh Jc Ts"],
  ["백 스트레이트", "A-2-3-4-5 스트레이트", "Ah 2s 3d 4c 5h"],
  ["스트레이트", "연속 5장", "9c 8d 7s 6h 5c"],
  ["트리플", "같은 숫자 3장", "7s 7d 7h Kc 2d"],
  ["투페어", "페어 2개 (키커 없이 무늬로 비교)", "Ks Kd 4h 4c 9s"],
  ["원페어", "같은 숫자 2장 (같으면 무늬)", "As Ad 9h 6c 3d"],
  ["탑", "노페어, 가장 높은 카드", "Ks Jd 8h 5c 3d"],
];

const LOW = [
  ["6탑 (최고 로우)", "A-2-3-4-6, 스트레이트·플러시가 아니어야 함", "Ac 2d 3h 4s 6c"],
  ["7탑", "가장 높은 카드가 7", "As 3d 4h 5c 7s"],
  ["9탑", "높은 카드부터 비교해 낮을수록 좋음", "Ah 2c 3d 4s 9h"],
];

const OMAHA_LOW = [
  ["5탑 (휠, 최고 로우)", "A-2-3-4-5: 스트레이트·플러시여도 로우로는 최고", "As 2s 3s 4s 5s"],
  ["7탑", "높은 카드부터 비교해 낮을수록 좋음 (7-5-4-2-A)", "7c 5d 4h 2s Ac"],
  ["8탑 (가장 약한 로우)", "5장 모두 8 이하, 숫자가 겹치면 안 됨", "8d 7c 6h 5s 4d"],
];

const BADUGI = [
  ["골프", "A-2-3-4 메이드 (최강)", "As 2d 3h 4c"],
  ["세컨드", "A-2-3-5 메이드", "Ad 2s 3c 5h"],
  ["써드", "A-2-4-5 메이드", "Ah 2c 4d 5s"],
  ["메이드", "숫자·무늬가 모두 다른 4장 (낮을수록 좋음)", "2s 4d 7h 9c"],
  ["베이스", "겹치지 않는 3장", "As 4c 5d 5h"],
  ["투베이스", "겹치지 않는 2장", "3s 8s 4h 4d"],
  ["노베이스", "네 장이 모두 같은 무늬(또는 숫자)", "2c 5c 9c Kc"],
];

// 하이 바둑이 (docs/rules-extensions.md): same shapes, the highest wins, ace high
const BADUGI_HIGH = [
  ["A-K-Q-J 메이드", "숫자·무늬가 모두 다른 A-K-Q-J (최강)", "As Kd Qh Jc"],
  ["메이드", "숫자·무늬가 모두 다른 4장, 높은 숫자부터 비교해 높을수록 좋음", "Ks 9d 5h 2c"],
  ["베이스", "겹치지 않는 3장 (어떤 메이드에도 짐)", "As Ks Qh Jc"],
  ["투베이스", "겹치지 않는 2장", "Ah Kh Qs Qd"],
  ["노베이스", "네 장이 모두 같은 무늬(또는 숫자)", "2c 5c 9c Kc"],
];

const INDIAN1 = [
  ["10", "가장 높음 (20장 덱: 10 > 9 > … > 2 > A)", "Ts"],
  ["5", "숫자가 높은 사람이 이김, 무늬는 안 봄", "5h"],
  ["A", "20장 덱에서 가장 낮음", "As"],
];
const INDIAN2 = [
  ["10 페어", "페어 > 노페어, 페어끼리는 숫자", "Ts Th"],
  ["3 페어", "", "3s 3h"],
  ["10-9", "노페어: 높은 카드 → 낮은 카드", "Ts 9h"],
  ["5-2", "", "5h 2s"],
];

export function rankingRows(mode, options = {}) {
  if (mode === "sevenPoker") return [["하이", KOREAN]];
  if (mode === "sevenHiLo") return [["하이", KOREAN], ["로우", LOW]];
  if (mode === "omaha" && options?.omahaHiLo) return [["하이", INTERNATIONAL], ["로우 (8 이하)", OMAHA_LOW]];
  if (mode === "badugi") return options?.badugiHigh ? [["하이 바둑이", BADUGI_HIGH]] : [["바둑이", BADUGI]];
  if (mode === "indian") return [["인디언", (options?.indianCards ?? 1) === 2 ? INDIAN2 : INDIAN1]];
  return [["족보", INTERNATIONAL]];
}

export function rankingTable(mode, opts = {}) {
  const wrap = document.createElement("div");
  const d20 = mode === "indian" && (opts.options?.indianDeck ?? "d20") === "d20";
  for (const [title, rows] of rankingRows(mode, opts.options)) {
    const table = document.createElement("table");
    table.className = "rank-table";
    const cap = document.createElement("caption");
    cap.textContent = `${title} (높은 순)`;
    cap.style.textAlign = "left";
    cap.style.fontWeight = "700";
    table.append(cap);
    rows.forEach(([name, desc, ex], i) => {
      const tr = document.createElement("tr");
      const n = document.createElement("td");
      n.className = "rank-name";
      const b = document.createElement("b");
      b.textContent = `${i + 1}. ${name}`;
      n.append(b);
      const exTd = document.createElement("td");
      exTd.className = "rank-ex";
      const exDiv = document.createElement("div");
      exDiv.className = "ex";
      for (const c of parse(ex, d20)) exDiv.append(miniCardEl(c, { example: true, big: !opts.compact }));
      exTd.append(exDiv);
      if (!opts.compact) {
        // the description goes under the name, so on a phone the text keeps a readable width
        const d = document.createElement("div");
        d.className = "rank-desc";
        d.textContent = desc;
        n.append(d);
      }
      tr.append(n, exTd);
      table.append(tr);
    });
    wrap.append(table);
  }
  return wrap;
}

const SUMMARY = {
  holdem: [
    "각자 개인 카드 2장, 가운데 공용 카드 5장(플랍 3 · 턴 1 · 리버 1).",
    "딜러 다음 두 사람이 스몰·빅 블라인드를 내고 시작해요. 베팅은 프리플랍 · 플랍 · 턴 · 리버 4번.",
    "쇼다운: 개인 2장 + 공용 5장 중 아무 5장으로 가장 좋은 족보를 만들어요. 무늬로는 비교하지 않아요.",
  ],
  omaha: [
    "홀덤과 같지만 개인 카드가 4장이에요.",
    "쇼다운에서는 반드시 개인 카드 정확히 2장 + 공용 카드 정확히 3장을 써야 해요.",
    "기본 베팅은 팟리밋: 판돈만큼까지 올릴 수 있어요.",
  ],
  omahaHiLo: [
    "오마하 하이로우(옵션 '하이로우'): 판돈을 가장 높은 패(하이)와 가장 낮은 패(로우)가 반씩 나눠요. 선언은 없어요.",
    "로우도 개인 카드 정확히 2장 + 공용 카드 정확히 3장. 5장 모두 8 이하이고 숫자가 겹치지 않아야 해요(A는 1).",
    "로우에서는 스트레이트·플러시를 따지지 않아요: A-2-3-4-5(휠)가 최고 로우예요. 높은 카드부터 비교해 낮을수록 이겨요.",
    "공용 카드에 8 이하 숫자가 3가지 미만이거나 아무도 로우를 못 만들면 하이가 전부 가져가요.",
    "한 사람이 하이와 로우를 둘 다 이길 수 있어요. 로우가 같으면 로우 절반을 나눠요(쿼터). 홀수 칩은 하이 쪽에 가요.",
  ],
  sevenPoker: [
    "앤티를 내고 4장을 받아요. 1장을 버리고, 남은 3장 중 1장을 모두에게 보여 줘요(초이스).",
    "4구 · 5구 · 6구는 보이는 카드, 7구는 히든 카드. 4구부터 매번 베팅해요.",
    "7장 중 가장 좋은 5장으로 겨뤄요. 같은 족보면 무늬(♠ > ◆ > ♥ > ♣)로 정해요.",
    "보스(오픈 카드가 가장 좋은 사람)부터 행동해요.",
  ],
  sevenHiLo: [
    "7포커와 같이 진행하고, 마지막 베팅 후 하이 · 로우 · 스윙 중 하나를 동시에 선언해요.",
    "하이는 가장 높은 족보, 로우는 가장 낮은 패(최고 A-2-3-4-6)가 판돈의 반씩 가져가요.",
    "스윙은 하이와 로우 모두 이겨야 전부 가져가고, 하나라도 지면 아무것도 못 받아요.",
  ],
  badugi: [
    "앤티를 내고 4장을 받아요. 베팅 4번 사이에 아침 · 점심 · 저녁 세 번 카드를 바꿀 수 있어요.",
    "숫자도 무늬도 겹치지 않는 카드가 많을수록 좋고(메이드 > 베이스 > 투베이스), 같으면 낮은 숫자가 이겨요.",
    "0장 = 패스, 1~3장 = 커트, 4장 = 박스.",
  ],
  fiveDraw: [
    "앤티를 내고 5장을 받아요. 베팅 → 교환 1번 → 베팅 → 쇼다운.",
    "국제 족보로 겨뤄요(무늬 비교 없음).",
  ],
  indian: [
    "자기 카드는 이마에 붙여서 못 보고, 남의 카드만 봐요.",
    "1장 모드: 숫자가 높은 사람이 이겨요. 2장 모드: 이마 1장 + 손 1장, 페어가 노페어를 이겨요.",
    "10(덱의 최고 숫자)을 단 채 다이하면 기본 단위 ×10 벌칙을 낼 수 있어요(옵션).",
    "동점이면 판돈이 다음 판으로 이월돼요(옵션: 나눠 갖기). 사용된 카드는 왼쪽 아래 패널에 체크돼요.",
  ],
};

export const TERMS = [
  ["체크", "아무도 걸지 않았을 때 돈을 걸지 않고 넘기기."],
  ["삥", "아직 아무도 걸지 않았을 때 기본 단위만큼 걸기. 한 라운드 첫 베팅."],
  ["콜", "앞사람이 건 만큼 맞추기."],
  ["따당", "앞사람이 건 금액의 2배를 내기 (콜 금액 × 2)."],
  ["쿼터", "콜을 맞춘 뒤, 그때 판돈의 1/4을 더 걸기."],
  ["하프", "콜을 맞춘 뒤, 그때 판돈의 1/2을 더 걸기."],
  ["풀", "콜을 맞춘 뒤, 그때 판돈 전부를 더 걸기 (방 설정이 '풀까지'일 때)."],
  ["다이", "이번 판을 포기하기. 이미 낸 칩은 돌려받지 않아요."],
  ["올인", "가진 칩을 전부 걸기. 그 금액까지만 이길 수 있고, 넘는 부분은 사이드 팟이 돼요."],
  ["레이즈 규칙", "한 라운드에 올리기는 1인 1번. 체크나 콜을 한 뒤에는 같은 라운드에서 다시 올릴 수 없어요."],
];

export const NL_TERMS = [
  ["폴드", "이번 판 포기."],
  ["체크 / 콜", "낼 금액이 없으면 체크, 있으면 그만큼 맞추기."],
  ["벳 / 레이즈", "처음 거는 것이 벳, 더 올리는 것이 레이즈. 최소 레이즈는 직전에 올린 크기만큼."],
  ["노리밋 / 팟리밋", "노리밋은 가진 칩 전부까지, 팟리밋은 (판돈 + 콜 금액)만큼까지 더 올릴 수 있어요."],
];

/**
 * House rules of docs/rules-extensions.md: [option key, title, modes (null = every mode), lines]. The rules page
 * lists those of the mode and says whether this room has each one on.
 */
export const HOUSE_RULES = [
  ["rule491", "491 룰", ["sevenPoker", "sevenHiLo"], [
    "4구와 5구에서 아직 아무도 걸지 않았으면, 차례가 된 사람은 하프 또는 다이만 할 수 있어요(체크·삥·쿼터·풀 불가).",
    "누가 하프로 열면 그다음부터는 평소처럼 콜·따당·쿼터·하프(·풀)·다이를 할 수 있어요.",
    "하프가 가진 칩보다 크면 가진 칩 전부(올인)로 열어요. 6구·7구는 평소와 같아요.",
    "시간이 지나면 체크를 할 수 없으니 자동으로 다이해요.",
  ]],
  ["badugiHigh", "하이 바둑이", ["badugi"], [
    "진행은 바둑이와 같고, 쇼다운에서 높은 패가 이겨요. A가 가장 높고 2가 가장 낮아요.",
    "메이드(4장) > 베이스(3장) > 투베이스 > 노베이스는 그대로라, 5-4-3-2 메이드도 A 베이스를 이겨요.",
    "같은 등급이면 가장 높은 카드부터 차례로 비교해 높은 쪽이 이기고, 숫자가 모두 같으면 나눠 가져요(무늬는 안 봄).",
  ]],
  ["jacksOrBetter", "잭스 오어 베터", ["fiveDraw"], [
    "첫 베팅(교환 전)은 J 원페어 이상(J·Q·K·A 페어, 투페어, 트리플 이상)을 가진 사람만 열 수 있어요. 없으면 체크 또는 다이만.",
    "누가 열면 나머지는 패와 상관없이 콜·레이즈할 수 있어요. 교환 뒤 베팅에는 조건이 없어요.",
    "아무도 열지 않으면 카드를 공개하지 않고, 판돈은 그대로 다음 판으로 넘어가요. 같은 딜러가 다시 돌리고, 모두 앤티를 한 번 더 내요(판 수에 포함).",
    "연 사람(오프너)은 판이 끝나면 연 카드를 모두에게 보여 줘요. 교환 때 그 카드를 버렸어도 보여 줘요(스플릿 오프너). 조건이 없으면 서버가 여는 것을 막아서 벌칙은 없어요.",
    "마지막 판에서 아무도 열지 않으면 남은 사람끼리 판돈을 나눠요.",
  ]],
  ["ante", "앤티", ["holdem", "omaha"], [
    "모두 앤티: 블라인드를 낸 뒤 모두가 빅 블라인드의 정해진 %(10~150%, 내림, 최소 1칩)를 앤티로 내요. 앤티는 베팅이 아니라 바로 판돈으로 가요.",
    "빅 블라인드 앤티: 빅 블라인드 자리가 블라인드를 먼저 내고, 그다음 모두의 몫을 한 번에 앤티로 내요. 이 앤티는 메인 팟에 들어가 누구의 베팅과도 맞추지 않아요.",
    "칩이 모자라면 블라인드를 먼저 내고 남은 칩만큼 앤티를 내요(그러면 올인).",
  ]],
  ["straddle", "스트래들", ["holdem", "omaha"], [
    "4명 이상이면 빅 블라인드 다음 사람이 매 판 빅 블라인드의 2배를 먼저 걸어요(칩이 그보다 많을 때만).",
    "프리플랍에는 스트래들 다음 사람부터 행동하고, 스트래들한 사람이 마지막에 행동해요. 모두 콜만 하면 체크하거나 올릴 수 있어요.",
    "콜 금액은 스트래들만큼, 최소 레이즈는 스트래들의 2배까지예요. 플랍부터는 평소 순서예요.",
  ]],
  ["runItTwice", "런 잇 트와이스", ["holdem", "omaha"], [
    "리버 전에 더 베팅할 수 없게 되면(모두 올인), 남은 사람 모두에게 보드를 두 번 돌릴지 물어요. 답은 모두 답할 때까지 비밀이에요.",
    "모두 '두 번'이면 지금까지 나온 공용 카드는 같이 쓰고, 나머지를 두 번 돌려요. 한 명이라도 '한 번만'(시간 초과 포함)이면 한 번만 돌려요.",
    "판돈은 팟마다 반씩: 첫 번째 보드가 남는 1칩을 가져가고, 보드마다 따로 승자를 정해요(비기면 보통처럼 나눠요).",
  ]],
  ["timeBank", "타임뱅크", null, [
    "베팅 차례의 제한 시간이 끝나면 자기 타임뱅크를 자동으로 써요. 자리에 남은 초가 보이고, 쓰는 동안은 타이머가 노란색이에요.",
    "행동하면 실제로 쓴 만큼(시작한 초는 1초로) 빠지고 나머지는 다음에 써요. 다 써야 시간 초과가 되고, 연속 2번 시간 초과면 자리 비움이에요.",
    "정해진 판 수마다 모두 처음 초로 다시 채워요. 자리 비움인 사람의 5초 차례와 초이스·교환·선언에는 쓰지 않아요.",
  ]],
  ["betCap", "맥스 베팅 상한", null, [
    "한 번의 베팅·레이즈로 콜 금액보다 더 걸 수 있는 칩은 '기본 단위 × 설정값'까지예요(기본 단위가 오르면 같이 올라요).",
    "한국식: 하프·풀·따당이 상한을 넘으면 상한까지만 걸어요(버튼에 '맥스' 표시). 노리밋·팟리밋: 레이즈 최대가 상한으로 줄어요.",
    "한 라운드 합계가 아니라 한 번 거는 금액의 상한이라, 다음 사람이 다시 올릴 수 있어요. 가진 칩이 적으면 그만큼 올인할 수 있어요.",
  ]],
];

function houseRulesSection(mode, options) {
  const rules = HOUSE_RULES.filter(([, , modes]) => !modes || modes.includes(mode));
  if (!rules.length) return null;
  const box = document.createElement("div");
  box.className = "house-rules";
  box.dataset.testid = "house-rules";
  const h = document.createElement("h3");
  h.textContent = "하우스 룰 (방 설정)";
  box.append(h);
  for (const [key, title, , lines] of rules) {
    // the room's own setting is only stated when the page shows the room's mode
    const inRoom = options?.mode === mode;
    const on = inRoom && options[key] && options[key] !== "none"
      && !(key === "rule491" && options.betting && !["auto", "korean"].includes(options.betting));
    const b = document.createElement("p");
    const strong = document.createElement("b");
    strong.textContent = title;
    const detail = key === "betCap" ? ` (기본 단위 ×${options[key]})`
      : key === "timeBank" ? ` (${options.timeBank}초${options.timeBankEvery ? `, ${options.timeBankEvery}판마다 충전` : ""})`
      : key === "ante" ? ` (${options.ante === "bigBlind" ? "빅 블라인드 앤티" : "모두 앤티"}, 빅 블라인드의 ${options.antePercent}%)` : "";
    const state = !inRoom ? " — 방을 만들 때 켤 수 있어요" : on ? ` — 이 방: 켬${detail}` : " — 이 방: 끔";
    b.append(strong, document.createTextNode(state));
    box.append(b);
    const ul = document.createElement("ul");
    for (const line of lines) {
      const li = document.createElement("li");
      li.textContent = line;
      ul.append(li);
    }
    box.append(ul);
  }
  return box;
}

export function rulesContent(mode, options = {}) {
  const wrap = document.createElement("div");
  wrap.className = "rules";
  const h3 = document.createElement("h3");
  const hiLo = mode === "omaha" && !!options?.omahaHiLo;
  h3.textContent = modeName(mode, hiLo ? options : null);
  wrap.append(h3);
  const ul = document.createElement("ul");
  // Omaha: the hi-lo option is explained too, so a player can read it before choosing it in the lobby
  for (const line of [...(SUMMARY[mode] ?? []), ...(mode === "omaha" ? SUMMARY.omahaHiLo : [])]) {
    const li = document.createElement("li");
    li.textContent = line;
    ul.append(li);
  }
  wrap.append(ul);
  wrap.append(rankingTable(mode, { options }));
  const house = houseRulesSection(mode, options);
  if (house) wrap.append(house);
  const t = document.createElement("h3");
  t.textContent = "베팅 용어";
  wrap.append(t);
  const dl = document.createElement("dl");
  dl.className = "terms";
  for (const [term, text] of [...TERMS, ...NL_TERMS]) {
    const dt = document.createElement("dt");
    dt.textContent = term;
    const dd = document.createElement("dd");
    dd.textContent = text;
    dl.append(dt, dd);
  }
  wrap.append(dl);
  const note = document.createElement("p");
  note.className = "notice";
  note.textContent = "칩은 방 안에서만 쓰는 가상 칩이에요. 돈으로 바꾸거나 주고받을 수 없고, 방이 끝나면 사라져요.";
  wrap.append(note);
  return wrap;
}
