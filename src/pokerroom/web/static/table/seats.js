// The seats around the table: each seat's box (name, stack, cards, hand label, badges, bet chip, timer ring)
// drawn from its inputs (seatInputs) alone. A seat is a list of slices: a seat whose inputs changed rewrites
// only the slices whose own inputs changed (patchSeat); where the seats go is layout.js's job.

import { tx } from "../i18n.js";
import { cardEl, miniCardEl } from "../cards.js";
import { ACTION_LABEL, SIDE_LABEL, fmt } from "../labels.js";
import { morph, morphKeyed } from "../morph.js";
import { h, inlineSvg } from "../dom.js";
import { COLOUR_ONLY } from "./fan.js";
import { slice, syncChildren } from "./slices.js";
import { ring } from "./timer.js";
import { bankInputs, bankPill } from "./bank.js";
import { isBet } from "./state.js";
import { handLabel, isHidden, nameOf, showdownEntry, waitsFor, wonCards } from "./view.js";

/** §3 "보스" 왕관: a small crown drawn inline (no emoji font needed). */
function crownIcon() {
  return inlineSvg("crown", "0 0 16 12", '<path d="M1 3.5 4.5 7 8 1.5 11.5 7 15 3.5 13.6 11H2.4Z"/><circle cx="1" cy="3" r="1.2"/><circle cx="8" cy="1.2" r="1.2"/><circle cx="15" cy="3" r="1.2"/>');
}

/** What a seat's marks show: Korean-style betting calls the dealer "선"; the others show the D button. */
export function markInputs(seat, betting) {
  const korean = betting === "korean";
  return { lead: korean && seat.sun ? "sun" : seat.dealer ? "d" : "", sb: !!seat.sb, bb: !!seat.bb,
    straddle: !!seat.straddle, boss: korean && !!seat.boss };
}

export function marks(m) {
  const out = [];
  if (m.lead === "sun") out.push(h("span", { class: "mark sun", title: tx("seats.1"), "aria-label": tx("seats.2") }, tx("seats.2")));
  else if (m.lead === "d") out.push(h("span", { class: "mark dealer", title: tx("seats.3"), "aria-label": tx("seats.3") }, "D"));
  if (m.sb) out.push(h("span", { class: "mark sb", "aria-label": tx("seats.4") }, "SB"));
  if (m.bb) out.push(h("span", { class: "mark bb", "aria-label": tx("seats.5") }, "BB"));
  if (m.straddle) out.push(h("span", { class: "mark bb", title: tx("labels.13"), "aria-label": tx("labels.13") }, "STR"));
  if (m.boss) out.push(h("span", { class: "mark boss", title: tx("seats.6"), "aria-label": tx("seats.6"), role: "img" }, crownIcon(), tx("seats.6")));
  return out;
}

/** What a seat's badges read: the seat's state and the phase, betting style and mode of the view. */
export function badgeInputs(seat, v, bet = false) {
  return { folded: seat.folded, mucked: seat.mucked, allIn: seat.allIn, away: seat.away, sittingOut: seat.sittingOut, status: seat.status,
    lastAction: bet ? "nl.bet" : seat.lastAction, phase: v.phase, korean: v.betting === "korean", inHand: seat.inHand,
    choiceDone: seat.choiceDone, drawDone: seat.drawDone, drawCounts: seat.drawCounts, mode: v.mode,
    declare: seat.declare, declared: seat.declared, ready: seat.ready };
}

export function badges(b) {
  const out = [];
  if (b.mucked) out.push(h("span", { class: "badge die" }, tx("seats.24"))); // (a replayed hand's muck)
  else if (b.folded) out.push(h("span", { class: "badge die" }, b.korean ? tx("labels.1") : tx("labels.9")));
  if (b.allIn) out.push(h("span", { class: "badge allin" }, tx("labels.11")));
  if (b.away) out.push(h("span", { class: "badge away" }, tx("seats.7")));
  if (b.sittingOut) out.push(h("span", { class: "badge away", "data-testid": "sitting-out" }, tx("seats.8")));
  if (b.status === "left") out.push(h("span", { class: "badge left" }, tx("seats.9")));
  if (b.status === "eliminated") out.push(h("span", { class: "badge left" }, tx("seats.10")));
  if (b.status === "busted") out.push(h("span", { class: "badge left" }, tx("seats.11")));
  if (!b.folded && b.lastAction && b.phase === "betting" && !(b.allIn && b.lastAction === "nl.allIn") && !["ante", "sb", "bb", "straddle"].includes(b.lastAction)) {
    const label = ACTION_LABEL[b.lastAction] ?? b.lastAction;
    out.push(h("span", { class: "badge last" }, label));
  }
  if (b.phase === "choice" && b.inHand) out.push(h("span", { class: "badge " + (b.choiceDone ? "ready" : "last") }, b.choiceDone ? tx("seats.12") : tx("seats.13")));
  if (b.phase === "draw" && b.inHand && !b.folded) out.push(h("span", { class: "badge " + (b.drawDone ? "ready" : "last") }, b.drawDone ? tx("seats.14") : tx("seats.15")));
  if ((b.drawCounts ?? []).length && b.phase !== "draw") {
    out.push(h("span", { class: "badge last", title: tx("seats.16") }, tx("seats.17") + b.drawCounts.join("·")));
  }
  if (b.mode === "sevenHiLo") {
    if (b.declare) out.push(h("span", { class: "badge declare" }, SIDE_LABEL[b.declare]));
    else if (b.phase === "declare" && b.declared) out.push(h("span", { class: "badge ready" }, tx("seats.18")));
  }
  if (b.phase === "handEnd" && b.ready) out.push(h("span", { class: "badge ready" }, tx("seats.19")));
  return out;
}

/**
 * The chips a seat has in front of it while betting: its bet this round, and, before the flop of a game with
 * antes, the ante it posted (antes are not round bets: docs/view.md seat `ante`). {bet, ante}, zeros when
 * nothing shows.
 */
export function betInputs(seat, v) {
  const betting = v.phase === "betting";
  return { bet: seat.committedRound > 0 && betting ? seat.committedRound : 0,
    ante: betting && v.street === 0 && seat.ante > 0 ? seat.ante : 0 };
}

/** The bet chip: the round's bet, with the ante under it in smaller type ("앤티 10"), or the ante alone. */
export function betChip(c) {
  if (!c.bet && !c.ante) return null;
  const label = [c.bet ? tx("seats.20", [c.bet]) : null, c.ante ? tx("seats.21", [c.ante]) : null].filter(Boolean).join(", ");
  return h("div", { class: "bet-chip" + (c.bet ? "" : " ante-only"), "aria-label": label },
    c.bet ? fmt(c.bet) : null, c.ante ? h("small", { class: "ante" }, tx("seats.21", [fmt(c.ante)])) : null);
}

/**
 * Everything a seat's box shows: buildSeat and patchSeat read nothing else, so an equal serialisation means
 * the same element, with the same size, can stay on the table. `awards`: this seat's awards only.
 */
export function seatInputs(v, seat, n, names, bets = null) {
  const sd = showdownEntry(v, seat.id);
  const awards = (v.awards ?? []).filter((a) => a.to === seat.id);
  return { seat, n, name: nameOf(names, seat.id), phase: v.phase, street: v.street, toAct: v.toAct === seat.id, betting: v.betting,
    mode: v.mode, awards, sd, won: sd ? [...wonCards(awards, sd)] : null, waits: waitsFor(v, seat.id), bet: isBet(bets, seat),
    body: document.body.className };
}

/**
 * A seat's row of cards. Given the row on screen (`old`), that row is brought up to date and returned: a
 * card built from the same inputs (its key) stays as it is, so a card dealt builds and adds one card
 * instead of building the whole row and comparing it with the old one (the 7 Poker streets).
 */
function seatCards(c, old = null) {
  const bestIds = new Set(c.won ?? []); // (null unless this seat won: only a winner's cards are raised)
  let lifted = false;
  const isBest = (card) => {
    const best = !isHidden(card) && bestIds.has(card.id);
    lifted ||= best;
    return best;
  };
  const specs = []; // [key, build]: the key is everything the build reads
  const mark = (card, size) => {
    const best = isBest(card);
    return [JSON.stringify([card, size, best]), () => {
      const e = cardEl(card, { size });
      if (best) e.classList.add("best");
      return e;
    }];
  };
  let big = false;
  if (c.mode === "indian") {
    const large = c.n <= 3 ? "lg" : "md";
    if (c.forehead) specs.push(mark(c.forehead, large));
    else if (c.hasForehead) specs.push([`?|${large}`, () => cardEl(null, { size: large, question: true, label: tx("seats.22") })]);
    for (const card of c.hole ?? []) specs.push(mark(card, "sm"));
  } else {
    const hole = c.hole ?? [];
    const up = c.up ?? [];
    big = !!c.shown && hole.length + up.length <= 5;
    const mini = (card, kind) => {
      const best = isBest(card);
      return [JSON.stringify([card, kind, big, best]), () => {
        const e = miniCardEl(card, { big });
        if (best) e.classList.add("best");
        if (kind === "up") e.classList.add("up"); // 7 Poker open cards: what you play against, drawn larger
        else if (isHidden(card)) e.classList.add("stacked");
        return e;
      }];
    };
    for (const card of hole) specs.push(mini(card, "hole"));
    for (const card of up) specs.push(mini(card, "up"));
  }
  // the winning cards are raised (.card.best): the row keeps that much room above it, so a raised card
  // never covers the name and stack line over it
  const cls = "cards" + (c.mode === "indian" ? " indian" : "") + (lifted ? " lifted" : "");
  // what the last fan wrote goes first (fitSeatCards fans the row again): its classes, the line break
  // (morphKeyed drops it) and the cards' margins; a squeezed row's cards lost their bigger minis, so such a
  // row is built afresh (and merged into the old one by patchSeat)
  if (old && !(big && old.classList.contains("squeezed"))) {
    if (old.className !== cls) old.className = cls;
    for (const k of old.children) if (k.hasAttribute("style")) k.removeAttribute("style");
    morphKeyed(old, specs);
    return old;
  }
  const wrap = h("div", { class: cls });
  morphKeyed(wrap, specs);
  return wrap;
}

const HANGUL = /[\u1100-\u11ff\u3130-\u318f\uac00-\ud7a3]/; // (a syllable is about 1em wide)

/**
 * A seat's hand name. A hi-lo one ("K 투페어 / 로우 7탑") keeps its low whole and cuts only the high when a
 * narrow seat has no room for both: cut as one line, a long high hid the low, which is half of the pot. (One
 * line still: two would make the seats taller and push the hand-end banner over them.) A hand without a low
 * ("J 투페어 / 로우 없음") is the other way round: its high is all it plays for, so the high stays whole and the
 * "로우 없음" gives way (it read "J … / 로우 없음").
 */
function handLabelEl(text) {
  if (!text) return null;
  const at = text.indexOf(" / ");
  if (at < 0) return h("div", { class: "hand-label", title: text }, text);
  const low = text.slice(at + 3);
  const noLow = low === tx("controls.56"); // (no room kept for it: style.css cuts the label's end instead)
  // (room for " / " and the low: a Hangul syllable about 1em, a letter, digit or space about .65em; counted as
  // 1em each, an English low ("Low 7-high") took more than a small phone's seat and the high was cut to nothing)
  const lowW = [...low].reduce((w, ch) => w + (HANGUL.test(ch) ? 1 : 0.65), 1.5);
  const attrs = { class: noLow ? "hand-label split no-low" : "hand-label split", title: text,
    style: noLow ? null : `--low-w: ${lowW.toFixed(2)}em` };
  return h("div", attrs, h("span", { class: "part" }, text.slice(0, at)), " / ", h("span", { class: "part" }, low));
}

/**
 * A seat's box as slices, in display order, each from its own part of the seat's inputs; `sized` false: the
 * slice cannot change the seat's box (the ring sits outside it, absolutely placed).
 */
function seatSlices(inp) {
  const { seat, sd } = inp;
  const winner = inp.awards.length > 0;
  const label = inp.phase !== "handEnd" ? null : sd ? handLabel(sd, seat.declare) : seat.shownName ?? null;
  const chip = betInputs(seat, inp);
  return [
    slice("marks", markInputs(seat, inp.betting), (m) => { const k = marks(m); return k.length ? h("div", { class: "marks" }, k) : null; }),
    slice("name", inp.name, (name) => h("div", { class: "name" }, name)),
    slice("stack", fmt(seat.stack), (stack) => h("div", { class: "stack" }, stack)),
    slice("bank", bankInputs(seat), bankPill),
    slice("cards", { hole: seat.hole, up: seat.up, forehead: seat.forehead, hasForehead: seat.hasForehead, shown: !!seat.shown,
      mode: inp.mode, n: inp.n, won: winner && sd ? inp.won : null }, seatCards),
    slice("label", label ?? "", handLabelEl),
    slice("badges", badgeInputs(seat, inp, inp.bet), (b) => { const k = badges(b); return k.length ? h("div", { class: "badges" }, k) : null; }),
    slice("chip", chip, betChip),
    slice("ring", inp.waits, (waits) => (waits ? ring() : null), false),
  ];
}

/** The seat box's class list (to-act, folded, winner only colour it: style.css). */
function seatClass(inp, level) {
  const { seat } = inp;
  const cls = ["seat"];
  if (level >= 1) cls.push("compact");
  if (inp.phase === "betting" && inp.toAct) cls.push("to-act");
  if (seat.folded || seat.status === "left" || seat.status === "eliminated" || seat.inHand === false) cls.push("folded");
  if (inp.phase === "handEnd" && inp.awards.length) cls.push("winner");
  if (level >= 2) cls.push("tiny");
  return cls.join(" ");
}

/** A new seat box and the slices it was built from (layout.js's cache patches it from there). */
export function buildSeat(inp, level) {
  const { seat } = inp;
  const el = h("div", { class: seatClass(inp, level), "data-seat-id": seat.id, "data-seat": seat.seat, role: "group", "aria-label": tx("seats.23", [inp.name]) });
  const parts = new Map();
  for (const [name, key, build] of seatSlices(inp)) {
    const node = build();
    parts.set(name, { key, node });
    if (node) el.append(node);
  }
  return { el, parts };
}

/**
 * Bring a cached seat box up to date slice by slice: an unchanged slice is not touched, a changed text is
 * written in place, a changed slice is built and put in its place. Returns what changed: `size` (the box
 * may have another size: measure it again) and `cards` (the card row is new: fan it again).
 */
export function patchSeat(entry, inp, level) {
  const el = entry.el;
  let size = false;
  let cards = false;
  const cls = seatClass(inp, level);
  if (el.className !== cls) {
    if (el.className.replace(COLOUR_ONLY, "") !== cls.replace(COLOUR_ONLY, "")) size = true;
    el.className = cls;
  }
  const aria = tx("seats.23", [inp.name]);
  if (el.getAttribute("aria-label") !== aria) el.setAttribute("aria-label", aria);
  if (el.dataset.seat !== String(inp.seat.seat)) el.dataset.seat = String(inp.seat.seat);
  const nodes = [];
  for (const [name, key, build, sized, inputs] of seatSlices(inp)) {
    const part = entry.parts.get(name);
    if (part.key !== key) {
      if ((name === "name" || name === "stack") && part.node) {
        part.node.textContent = inputs; // text only
        if (sized) size = true;
      } else {
        const fresh = build(part.node); // (the card row is brought up to date in place)
        if (name !== "cards" && (part.node && fresh ? part.node.isEqualNode(fresh) : !part.node && !fresh)) {
          // the same node from another key (a folded seat's 다이 badge on a new street): kept as it is, the
          // seat keeps its size and place
          part.key = key;
          if (part.node) nodes.push(part.node);
          continue;
        }
        // a bet chip hangs outside the seat's box (absolutely placed): one taken away changes no size (a
        // new or changed one is measured with its seat, for placeChips)
        if (sized && !(name === "chip" && !fresh)) size = true;
        if (name === "cards") cards = true;
        // a card row is merged into the old one: a card dealt adds one card, the others stay (what the last
        // fan wrote into the row goes, so it is fanned like a new one). The others are replaced (the chip
        // carries where placeChips put it: a new one is placed afresh)
        part.node = name === "cards" && part.node && fresh ? morph(part.node, fresh) : fresh;
      }
      part.key = key;
    }
    if (part.node) nodes.push(part.node);
  }
  // (the ring: kept only while its seat keeps it; a new one is a fresh node)
  syncChildren(el, nodes);
  return { size, cards };
}
