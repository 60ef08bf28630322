// "지난 판": the room's past hands as the server sent them ({"type": "history"}, docs/protocol.md §2.4), a page
// at a time, each with its 다시 보기 (the replayer, replay/). Display only: every card here is one the server
// allowed this viewer (public cards, the showdown, and `mine` — my own cards of that hand, null for spectators).

import { tx } from "./i18n.js";
import { miniCardEl, cardShort } from "./cards.js";
import { ACTION_LABEL, SIDE_LABEL, fmt } from "./labels.js";
import { modeName } from "./options.js";
import { h } from "./dom.js";

const cardsEl = (cards) => h("span", { class: "ph-cards" }, (cards ?? []).map((c) => miniCardEl(c, { big: true })));

const signed = (n) => (n > 0 ? "+" : n < 0 ? "−" : "±") + fmt(Math.abs(n));

/** The name the table gave a showdown hand, ranks included ("J 원페어"), and its low and declaration. */
const shownName = (e) => [e.rankName ?? e.handName, e.lowName ? tx("banner.2", [e.lowName]) : null, e.declare ? SIDE_LABEL[e.declare] : null]
  .filter(Boolean).join(" · ");

// a board's street by the betting round it opens (the event's `street`): "플랍 K♣ 2♥ 9◆", "턴 7♠"
const BOARD_STREET = { 1: "words.street.flop", 2: "words.street.turn", 3: "words.street.river" };

/** One Korean line per public step of the hand (null for steps shown elsewhere). `names`: the hand's ranked
 * names of cards shown after it ({id: name}). */
export function stepText(e, nm, names = {}) {
  switch (e.type) {
    case "ante": return `${nm(e.from)} ${e.kind === "bigBlind" ? tx("view.6") : tx("labels.12")} ${fmt(e.amount)}`;
    case "blind": return `${nm(e.from)} ${{ sb: "SB", straddle: tx("labels.13") }[e.kind] ?? "BB"} ${fmt(e.amount)}`;
    case "action": {
      // a no-limit raise in the log's words (engine/log.py): "벳 20" into no bet (the event's `bet`), else the
      // total it raised to, "레이즈 60까지" (its chips moved would be 50 for a seat that had 10 in already)
      const type = e.action?.type;
      const to = e.action?.to;
      const said = type === "nl.raise" && e.bet ? tx("words.log.bet", [fmt(e.amount)])
        : type === "nl.raise" && Number.isInteger(to) ? tx("words.log.raiseTo", [fmt(to)])
          : `${ACTION_LABEL[type] ?? type ?? ""}${e.amount ? ` ${fmt(e.amount)}` : ""}`;
      return `${nm(e.player)} ${said}${e.allIn && type !== "nl.allIn" ? tx("history.1") : ""}${e.auto ? tx("history.2") : ""}`;
    }
    case "board": return `${e.run === 2 ? tx("center.7") : tx(BOARD_STREET[e.street] ?? "history.3")} ${(e.cards ?? []).map(cardShort).join(" ")}`;
    case "street": { // a 7 Poker street's open cards (7구: its hidden one), as the log says it (engine/log.py)
      const up = Object.entries(e.up ?? {}).map(([id, cs]) => `${nm(id)} ${cs.map(cardShort).join(" ")}`).join(", ");
      return `${e.streetName}: ${up || tx("words.log.hidden")}`;
    }
    case "uncalled": return tx("history.4", [nm(e.to), fmt(e.amount)]);
    case "drawn": return tx("history.5", [Object.entries(e.counts ?? {}).map(([id, n]) => tx("history.28", [nm(id), n])).join(", ")]);
    case "declares": return tx("history.6", [Object.entries(e.sides ?? {}).map(([id, s]) => `${nm(id)} ${SIDE_LABEL[s] ?? s}`).join(", ")]);
    case "penalty": return tx("history.7", [nm(e.from), fmt(e.amount)]);
    case "award": return tx("history.8", [nm(e.to), fmt(e.amount), e.board != null ? tx("history.29", [e.board + 1]) : "", e.hand ? ` · ${e.hand}` : "", e.side && e.side !== "high" ? ` (${SIDE_LABEL[e.side] ?? e.side})` : ""]);
    case "carry": return tx("history.9", [fmt(e.amount)]);
    case "shown": return tx("history.10", [nm(e.player), (e.cards ?? []).map(cardShort).join(" "), names[e.player] ? ` · ${names[e.player]}` : ""]);
    case "mucked": return tx("history.11", [nm(e.player)]);
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
    ? tx("history.12", [nm(id), fmt(amt)]) : tx("history.13", [nm(id), signed(net(id))]))).join(", ");
  const head = h("div", { class: "ph-head" },
    h("b", {}, tx("history.30", [hand.handNo])), // (a hand's number: "6판", "Hand 6"; options.114 is a count)
    hand.gameNo !== currentGame ? h("small", {}, tx("history.14", [hand.gameNo])) : null,
    h("small", {}, modeName(hand.mode)),
    h("span", { class: "ph-win", "data-testid": "past-winners" }, winners ? tx("history.15", [winners]) : tx("history.16")),
    onReplay && hand.seq ? h("button", { class: "btn small ph-replay", type: "button", "data-testid": "replay-open",
      "aria-label": tx("history.17", [hand.handNo]), onclick: () => onReplay(hand.seq) }, tx("history.18")) : null);
  const rows = [];
  if (hand.board?.length) rows.push(row(tx("history.3"), cardsEl(hand.board)));
  const opens = Object.entries(hand.open ?? {});
  if (opens.length && !(hand.showdown ?? []).length) {
    rows.push(row(tx("history.19"), ...opens.map(([id, cards]) => h("span", { class: "ph-row" }, h("span", { class: "ph-who" }, nm(id)), cardsEl(cards)))));
  }
  if (hand.mine?.length) {
    const delta = (hand.finishingStacks?.[myId] ?? 0) - (hand.startingStacks?.[myId] ?? 0);
    rows.push(h("div", { "data-testid": "past-mine" }, row(tx("mycards.6"), cardsEl(hand.mine),
      hand.mineName ? h("span", { "data-testid": "past-mine-name" }, hand.mineName) : null, h("small", {}, tx("labels.26", [signed(delta)])))));
  }
  // my showdown row when 내 카드 above holds the very same cards (its name and my net too): not listed twice
  const mineIds = new Set((hand.mine ?? []).map((c) => c.id));
  const repeatsMine = (e) => e.id === myId && e.cards?.length === mineIds.size && e.cards.every((c) => mineIds.has(c.id));
  const sd = hand.showdown ?? [];
  const shown = sd.filter((e) => !repeatsMine(e));
  if (shown.length) {
    rows.push(h("div", { "data-testid": "past-showdown" }, shown.map((e) => row(e.id === myId ? tx("history.20") : nm(e.id), cardsEl(e.cards), h("span", {}, shownName(e))))));
  } else if (!sd.length) {
    rows.push(row(tx("history.21"), h("span", {}, tx("history.22"))));
  }
  const lines = (hand.actions ?? []).map((e) => stepText(e, nm, hand.shownNames)).filter(Boolean);
  const details = h("details", {}, h("summary", {}, tx("history.23", [lines.length])), h("ol", { class: "log-list" }, lines.map((t) => h("li", {}, t))));
  return h("li", { class: "past-hand", "data-testid": "past-hand", "data-hand-no": hand.handNo, "data-seq": hand.seq }, head, ...rows, details);
}

/**
 * The "지난 판" panel: hands newest first (as sent), a page at a time; or a Korean note when there is none
 * yet. Hooks (replay/index.js): onReplay(seq), onMore() for the next older page (`more`), onImport() for a
 * PHH file.
 */
export function pastHandsView(hands, { names = {}, myId = null, currentGame = null, onReplay = null, onMore = null, more = false, onImport = null } = {}) {
  const tools = onImport ? h("div", { class: "past-tools" },
    h("button", { class: "btn small", type: "button", "data-testid": "phh-import", onclick: onImport }, tx("history.24"))) : null;
  if (hands == null) return h("div", {}, tools, h("p", { class: "past-empty" }, tx("history.25")));
  if (!hands.length) return h("div", {}, tools, h("p", { class: "past-empty" }, tx("history.26")));
  return h("div", {}, tools,
    h("p", { class: "help", style: "color:var(--muted);font-size:.85em;margin:0 0 8px" }, tx("history.27", [hands.length])),
    h("ol", { class: "past-list" }, hands.map((hand) => handItem(hand, names, myId, currentGame, onReplay))),
    more && onMore ? h("button", { class: "btn wide past-more", type: "button", "data-testid": "past-more", onclick: onMore }, tx("lobby.11")) : null);
}
