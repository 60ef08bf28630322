// "지난 판": the room's past hands as the server sent them ({"type": "history"}, docs/protocol.md §2.4), a page
// at a time, each with its 다시 보기 (the replayer, replay/). Display only: every card here is one the server
// allowed this viewer (public cards, the showdown, and `mine` — my own cards of that hand, null for spectators).

import { miniCardEl, cardShort } from "./cards.js";
import { ACTION_LABEL, SIDE_LABEL, fmt } from "./labels.js";
import { modeName } from "./options.js";
import { h } from "./dom.js";

const cardsEl = (cards) => h("span", { class: "ph-cards" }, (cards ?? []).map((c) => miniCardEl(c, { big: true })));

const signed = (n) => (n > 0 ? "+" : n < 0 ? "−" : "±") + fmt(Math.abs(n));

/** The name the table gave a showdown hand, ranks included ("J 원페어"), and its low and declaration. */
const shownName = (e) => [e.rankName ?? e.handName, e.lowName ? `로우 ${e.lowName}` : null, e.declare ? SIDE_LABEL[e.declare] : null]
  .filter(Boolean).join(" · ");

/** One Korean line per public step of the hand (null for steps shown elsewhere). `names`: the hand's ranked
 * names of cards shown after it ({id: name}). */
export function stepText(e, nm, names = {}) {
  switch (e.type) {
    case "ante": return `${nm(e.from)} ${e.kind === "bigBlind" ? "BB 앤티" : "앤티"} ${fmt(e.amount)}`;
    case "blind": return `${nm(e.from)} ${{ sb: "SB", straddle: "스트래들" }[e.kind] ?? "BB"} ${fmt(e.amount)}`;
    case "action": {
      const label = ACTION_LABEL[e.action?.type] ?? e.action?.type ?? "";
      const amount = e.amount ? ` ${fmt(e.amount)}` : "";
      return `${nm(e.player)} ${label}${amount}${e.allIn && e.action?.type !== "nl.allIn" ? " (올인)" : ""}${e.auto ? " (자동)" : ""}`;
    }
    case "board": return `${e.run === 2 ? "두 번째 보드" : "보드"} ${(e.cards ?? []).map(cardShort).join(" ")}`;
    case "uncalled": return `${nm(e.to)} ${fmt(e.amount)} 돌려받음`;
    case "drawn": return `교환: ${Object.entries(e.counts ?? {}).map(([id, n]) => `${nm(id)} ${n}장`).join(", ")}`;
    case "declares": return `선언: ${Object.entries(e.sides ?? {}).map(([id, s]) => `${nm(id)} ${SIDE_LABEL[s] ?? s}`).join(", ")}`;
    case "penalty": return `${nm(e.from)} 벌칙 ${fmt(e.amount)}`;
    case "award": return `${nm(e.to)} ${fmt(e.amount)}칩 가져감${e.board != null ? ` (보드${e.board + 1})` : ""}${e.hand ? ` · ${e.hand}` : ""}${e.side && e.side !== "high" ? ` (${SIDE_LABEL[e.side] ?? e.side})` : ""}`;
    case "carry": return `비김 — ${fmt(e.amount)}칩 다음 판으로`;
    case "shown": return `${nm(e.player)} 카드 공개 ${(e.cards ?? []).map(cardShort).join(" ")}${names[e.player] ? ` · ${names[e.player]}` : ""}`;
    case "mucked": return `${nm(e.player)} 카드 덮음`;
    default: return null;
  }
}

function row(label, ...content) {
  return h("div", { class: "ph-row" }, h("span", { class: "ph-label" }, label), ...content);
}

function handItem(hand, names, myId, currentGame, onReplay) {
  const nm = (id) => names[id] ?? id;
  const won = new Map();
  for (const a of hand.awards ?? []) won.set(a.to, (won.get(a.to) ?? 0) + a.amount);
  // each winner's net for the hand (stack after less stack before: the banner's handNet), not the pot
  // collected, which holds their own bet; an old record without stacks says what was collected
  const net = (id) => (hand.finishingStacks?.[id] != null && hand.startingStacks?.[id] != null
    ? hand.finishingStacks[id] - hand.startingStacks[id] : null);
  const winners = [...won.entries()].map(([id, amt]) => (net(id) == null
    ? `${nm(id)} ${fmt(amt)}칩 가져감` : `${nm(id)} ${signed(net(id))}칩`)).join(", ");
  const head = h("div", { class: "ph-head" },
    h("b", {}, `${hand.handNo}판`),
    hand.gameNo !== currentGame ? h("small", {}, `${hand.gameNo}번째 게임`) : null,
    h("small", {}, modeName(hand.mode)),
    h("span", { class: "ph-win", "data-testid": "past-winners" }, winners ? `승리: ${winners}` : "승자 없음"),
    onReplay && hand.seq ? h("button", { class: "btn small ph-replay", type: "button", "data-testid": "replay-open",
      "aria-label": `${hand.handNo}판 다시 보기`, onclick: () => onReplay(hand.seq) }, "다시 보기") : null);
  const rows = [];
  if (hand.board?.length) rows.push(row("보드", cardsEl(hand.board)));
  const opens = Object.entries(hand.open ?? {});
  if (opens.length && !(hand.showdown ?? []).length) {
    rows.push(row("오픈", ...opens.map(([id, cards]) => h("span", { class: "ph-row" }, h("span", { class: "ph-who" }, nm(id)), cardsEl(cards)))));
  }
  if (hand.mine?.length) {
    const delta = (hand.finishingStacks?.[myId] ?? 0) - (hand.startingStacks?.[myId] ?? 0);
    rows.push(h("div", { "data-testid": "past-mine" }, row("내 카드", cardsEl(hand.mine),
      hand.mineName ? h("span", { "data-testid": "past-mine-name" }, hand.mineName) : null, h("small", {}, `${signed(delta)}칩`))));
  }
  const sd = hand.showdown ?? [];
  if (sd.length) {
    rows.push(h("div", { "data-testid": "past-showdown" }, sd.map((e) => row(e.id === myId ? "나" : nm(e.id), cardsEl(e.cards), h("span", {}, shownName(e))))));
  } else {
    rows.push(row("쇼다운", h("span", {}, "없음 (한 명만 남았어요)")));
  }
  const lines = (hand.actions ?? []).map((e) => stepText(e, nm, hand.shownNames)).filter(Boolean);
  const details = h("details", {}, h("summary", {}, `진행 보기 (${lines.length})`), h("ol", { class: "log-list" }, lines.map((t) => h("li", {}, t))));
  return h("li", { class: "past-hand", "data-testid": "past-hand", "data-hand-no": hand.handNo, "data-seq": hand.seq }, head, ...rows, details);
}

/**
 * The "지난 판" panel: hands newest first (as sent), a page at a time; or a Korean note when there is none
 * yet. Hooks (replay/index.js): onReplay(seq), onMore() for the next older page (`more`), onImport() for a
 * PHH file.
 */
export function pastHandsView(hands, { names = {}, myId = null, currentGame = null, onReplay = null, onMore = null, more = false, onImport = null } = {}) {
  const tools = onImport ? h("div", { class: "past-tools" },
    h("button", { class: "btn small", type: "button", "data-testid": "phh-import", onclick: onImport }, "PHH 파일 불러오기")) : null;
  if (hands == null) return h("div", {}, tools, h("p", { class: "past-empty" }, "불러오는 중…"));
  if (!hands.length) return h("div", {}, tools, h("p", { class: "past-empty" }, "아직 끝난 판이 없어요"));
  return h("div", {}, tools,
    h("p", { class: "help", style: "color:var(--muted);font-size:.85em;margin:0 0 8px" }, `${hands.length}판 (최신 판부터, 이 방의 모든 판)`),
    h("ol", { class: "past-list" }, hands.map((hand) => handItem(hand, names, myId, currentGame, onReplay))),
    more && onMore ? h("button", { class: "btn wide past-more", type: "button", "data-testid": "past-more", onclick: onMore }, "더 보기") : null);
}
