// My area under the table: my line (marks, name, stack, bet, badges, the reaction button, my clock), my
// hand's name, my cards, my controls, the app's seat bar, a screen-reader line and the first-hand tips; for a
// spectator, what they watch and the seat bar. ctx: the table's handlers (table.js).

import { fmt } from "../labels.js";
import { whole } from "../morph.js";
import { h } from "../dom.js";
import { reactionPalette, showBubble } from "../talk.js";
import { controlsSlice } from "./controls.js";
import { handNameText, myCardsInputs, renderMyCards } from "./mycards.js";
import { badgeInputs, badges, betInputs, markInputs, marks } from "./seats.js";
import { slice } from "./slices.js";
import { saveTipsSeen } from "./state.js";
import { ring } from "./timer.js";
import { bankInputs, bankPill } from "./bank.js";
import { isMyTurn, mySeatId, nameOf, waitsFor } from "./view.js";

/** My area as slices, in display order (a slice with null inputs is built on every render). */
export function meSlices(t, ctx) {
  const v = t.view;
  const me = v.me;
  if (!me) {
    const seatBar = ctx.seatBar(); // 자리 요청 (app.js): the server decides, the host approves
    const spectator = t.role === "spectator";
    return [
      slice("watch", null, () => h("div", { class: "waiting-line" }, spectator ? "관전 중이에요. 비공개 카드는 보이지 않아요." : "지금은 관전 중이에요.")),
      slice("seatBar", null, () => seatBar),
      // (the 😀 button opens reactions, chat or both: whichever the host allows spectators)
      slice("react", null, () => (spectator && (t.social.spectatorReactions || t.social.spectatorChat) ? h("div", { class: "me-line" }, h("span", { class: "spacer" }), reactButton(!!t.palette, ctx)) : null)),
    ];
  }
  const seat = (v.seats ?? []).find((s) => s.id === me.id) ?? {};
  const line = { marks: markInputs(seat, v.betting), name: nameOf(t.names, me.id), stack: seat.stack, bank: bankInputs(seat),
    ...betInputs(seat, v), badges: badgeInputs(seat, v),
    waits: waitsFor(v, me.id), palette: !!t.palette };
  const hn = handNameText(v);
  const sr = isMyTurn(v) ? "내 차례예요" : "";
  return [
    slice("line", line, (l) => myLine(l, ctx)),
    slice("handName", hn, (text) => h("div", { class: "hand-name", "data-testid": "hand-name" }, text)),
    slice("cards", myCardsInputs(t, seat), (m, had) => renderMyCards(m, had, ctx)),
    controlsSlice(t, seat, ctx),
    slice("seatBar", null, () => ctx.seatBar()), // sitting out: 복귀 (app.js)
    slice("sr", sr, (text) => h("div", { class: "sr-only", role: "status", "aria-live": "polite" }, text)),
    slice("tip", null, () => renderTip(t, ctx)),
  ];
}

function myLine(l, ctx) {
  const line = h("div", { class: "me-line" },
    h("span", { class: "marks-inline" }, marks(l.marks)),
    h("span", { class: "name" }, l.name),
    h("span", { class: "stack", "data-testid": "my-stack" }, fmt(l.stack) + "칩"),
    bankPill(l.bank),
    l.bet ? h("span", { class: "mybet" }, `베팅 ${fmt(l.bet)}`) : null,
    l.ante ? h("span", { class: "mybet ante" }, `앤티 ${fmt(l.ante)}`) : null,
    h("span", { class: "spacer" }),
    h("span", { class: "badges" }, badges(l.badges)),
    reactButton(l.palette, ctx));
  if (l.waits) {
    const r = ring();
    r.style.position = "static";
    line.append(r);
  }
  return line;
}

// ------------------------------------------------------------------ table talk (reactions, chat)
function reactButton(open, ctx) {
  return h("button", { class: "react-open", type: "button", "data-testid": "react-open", "aria-label": "반응 보내기",
    "aria-expanded": open ? "true" : "false", onclick: () => ctx.togglePalette() }, "😀");
}

/** The palette lives outside the re-rendered table, so a view arriving while I type does not wipe it. */
export function openPalette(t, onTalk) {
  closePalette(t);
  const spectator = !t.view?.me && t.role === "spectator";
  t.palette = reactionPalette({
    chat: spectator ? !!t.social.spectatorChat : !!t.social.chat && !!t.view?.me,
    reactions: !spectator || !!t.social.spectatorReactions,
    send: (m) => onTalk?.(m),
    close: () => closePalette(t),
  });
  document.body.append(t.palette);
  t.palette.querySelector("button")?.focus();
}

export function closePalette(t) {
  t.palette?.remove();
  t.palette = null;
}

/**
 * A reaction or chat line of `from` (a player id; null: a spectator) over their seat for `ms`; a spectator's
 * goes to the top of the table, tagged "관전자" so it is never read as a player's.
 */
export function bubble(t, from, text, ms) {
  let anchor = null;
  if (from && from === mySeatId(t.view)) anchor = t.host.querySelector("[data-testid=me-area]");
  else if (from) anchor = t.host.querySelector(`.seat[data-seat-id="${CSS.escape(from)}"]`);
  return showBubble(anchor, text, ms, from, from ? null : "관전자");
}

// ------------------------------------------------------------------ first-hand tips
function renderTip(t, ctx) {
  if (t.settings.tips === false) return null;
  const v = t.view;
  if (!v.me || (v.handNo ?? 0) > 1) return null;
  let key = null;
  let text = null;
  if (v.phase === "choice" && !v.me.chosen) { key = "choice"; text = "4장 중 버릴 카드 1장(빨간 X)을 누르고, 남은 3장 중 모두에게 보여 줄 카드 1장을 누른 뒤 확인을 누르세요."; }
  else if (v.phase === "draw" && v.me.drawPending == null) { key = "draw"; text = v.mode === "badugi" ? "무늬나 숫자가 겹치는 카드(노란 테두리)를 바꾸면 좋아요. 바꿀 카드를 눌러 올리세요." : "바꿀 카드를 눌러 위로 올리세요. 아무것도 안 고르면 패스예요."; }
  else if (v.phase === "declare") { key = "declare"; text = "하이는 높은 족보, 로우는 낮은 패로 겨뤄요. 스윙은 양쪽 모두 이겨야 해요."; }
  else if (v.phase === "betting" && isMyTurn(v)) {
    if (v.betting === "korean") { key = "korean"; text = "삥 = 기본 단위만큼 걸기, 따당 = 앞사람 금액의 2배, 쿼터·하프·풀 = 판돈의 1/4·1/2·전부를 더 걸기. 회색 버튼은 지금 할 수 없어요."; }
    else { key = "nl"; text = "체크/콜로 따라가거나, 레이즈를 눌러 금액을 정한 뒤 확인을 누르세요."; }
  }
  if (!key || t.tipsSeen.has(key)) return null;
  // short phones show one line until asked (the table keeps its room); the text otherwise
  const tip = whole(h("div", { class: "tip" + (t.tipOpen ? " open" : ""), role: "note", "data-testid": "tip" },
    h("div", { class: "tip-text" }, text),
    h("div", { class: "row" },
      h("button", { class: "link tip-toggle", "aria-expanded": String(!!t.tipOpen), onclick: () => { t.tipOpen = !t.tipOpen; ctx.redraw(); } },
        t.tipOpen ? "도움말 접기" : "도움말 보기"),
      h("button", { class: "link", onclick: () => { t.tipsSeen.add(key); saveTipsSeen(t.tipsSeen); tip.remove(); ctx.redraw(); } }, "닫기"),
      h("button", { class: "link", onclick: () => { ctx.disableTips(); t.settings = { ...t.settings, tips: false }; tip.remove(); ctx.redraw(); } }, "도움말 그만 보기"))));
  return tip;
}
