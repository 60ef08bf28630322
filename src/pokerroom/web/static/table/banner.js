// The hand-end banner: who won what and why, drawn from the view and the nicknames; placeBanner puts it
// where it hides no seat; flyAwards sends the chips from the pot to the winners once it is painted.
// The figure beside a name is what the hand won or lost that player (the view's handNet, the server's own
// computation: the ledger and the result add up the same figures), never the pot they collected, which
// includes their own bet; the pot follows in smaller type.

import { tx } from "../i18n.js";
import { miniCardEl } from "../cards.js";
import { fmt, signedFmt, withNames } from "../labels.js";
import { h } from "../dom.js";
import { centreKey, knownParts } from "./center.js";
import { PHASE_LINE, freeCorridor, movedCentre } from "./geometry.js";
import { mySeatId, nameOf, sortedAwards } from "./view.js";

/**
 * What an award took from the pot. An Indian 10-fold penalty (potIndex −1) goes to the winner apart from the
 * pot (poker.md §5.4.7) and has its own line: counted in, "판돈 190" stood beside the centre's "판돈 90".
 */
const fromPot = (a) => (a.potIndex === -1 ? 0 : a.amount);

export function renderBanner(v, names) {
  if (v.phase !== "handEnd") return null;
  const nm = (id) => nameOf(names, id);
  const awards = v.awards ?? [];
  const hr = v.houseRules;
  if (!awards.length && !v.carryOver && !hr?.noOpener) return null;
  const lines = [];
  const sd = v.showdown ?? [];
  const byTo = new Map();
  const whys = [];
  for (const a of sortedAwards(v)) {
    const cur = byTo.get(a.to) ?? { amount: 0, sides: new Set(), hands: [] };
    cur.amount += fromPot(a);
    if (a.side) cur.sides.add(a.side);
    // what won this pot, as decisively as needed ("A·10 투페어"), and why (the engine's sentence); run it
    // twice: on which board ("보드2 킹 트리플")
    const run = a.board != null ? tx("banner.1", [a.board + 1]) : "";
    const hand = a.hand ? run + (a.side === "low" ? tx("banner.2", [a.hand]) : a.hand) : a.hand;
    if (hand && !cur.hands.includes(hand)) cur.hands.push(hand);
    const why = a.why ? run + a.why : a.why;
    if (why && !whys.some((w) => w.to === a.to && w.why === why)) whys.push({ to: a.to, why });
    byTo.set(a.to, cur);
  }
  const nets = v.handNet ?? {};
  const total = awards.reduce((a, x) => a + fromPot(x), 0);
  // what this player collected, against everything paid out: "판돈 150", or "판돈 150 중 75" for a share
  const potText = (amount) => (amount === total ? tx("banner.3", [fmt(total)]) : tx("banner.4", [fmt(total), fmt(amount)]));
  for (const [to, info] of byTo) {
    const e = sd.find((x) => x.id === to);
    let name = e ? e.rankName ?? e.handName : null;
    if (e && e.lowName) {
      // hi-lo: name what the winner declared (스윙 = both)
      const high = e.rankName ?? e.handName;
      if (e.declare === "swing") name = `${high} / ${e.lowName}`;
      else if (e.lowBest !== undefined && e.declare == null) {
        // Omaha Hi-Lo (cards speak): name the halves this player won
        const parts = [];
        if (info.sides.has("high")) parts.push(high);
        if (info.sides.has("low")) parts.push(tx("banner.2", [e.lowName]));
        name = parts.join(" / ") || high;
      }
      else if (e.declare === "low" || (info.sides.has("low") && !info.sides.has("high"))) name = e.lowName;
    }
    if (info.hands.length) name = info.hands.join(" / ");
    lines.push(h("span", { class: "big", "data-testid": "winner-line" },
      h("span", { "data-testid": "hand-net", "data-player": to }, `${nm(to)} ${signedFmt(nets[to] ?? 0)}`),
      name ? ` · ${name}` : "", " ", h("small", { class: "pot-share" }, potText(info.amount))));
  }
  // the same reason for several winners (a split pot) is one line: "민수, 지수: …"
  const byWhy = new Map();
  for (const w of whys) byWhy.set(w.why, [...(byWhy.get(w.why) ?? []), nm(w.to)]);
  for (const [why, who] of byWhy) lines.push(h("span", { class: "why", "data-testid": "why" }, `${who.join(", ")}: ${withNames(why, names)}`));
  if (!sd.length && awards.length && v.mode !== "indian") {
    const shown = (v.seats ?? []).filter((s) => s.shown).map((s) => nm(s.id));
    // an imported hand whose loser threw their cards away at the showdown: nobody folded to the winner
    const mucked = (v.seats ?? []).filter((s) => s.mucked).map((s) => nm(s.id));
    const korean = v.betting === "korean"; // (a no-limit table's fold is 폴드, as on its button and badges)
    const note = mucked.length
      ? (shown.length ? tx("banner.17", [shown.join(", "), mucked.join(", ")]) : tx("banner.16", [mucked.join(", ")]))
      : shown.length ? shownNote(v, korean, nm) : tx(korean ? "banner.6" : "banner.15");
    lines.push(h("span", { "data-testid": "shown-note" }, note));
  }
  // 잭스 오어 베터 (docs/rules-extensions.md): nobody opened, or the opener's proof
  if (hr?.noOpener) {
    lines.push(h("span", { class: "big" }, v.carryOver ? tx("banner.7", [fmt(v.carryOver)]) : tx("banner.8")));
    if (v.carryOver) lines.push(h("span", {}, tx("banner.9")));
  } else if (v.carryOver && !awards.length) lines.push(h("span", { class: "big" }, tx("banner.10", [fmt(v.carryOver)])));
  if (hr?.openerProof?.length) {
    lines.push(h("span", { class: "opener-proof", "data-testid": "opener-proof" }, tx("banner.11", [nm(hr.opener)]), ...hr.openerProof.map((c) => miniCardEl(c))));
  }
  for (const p of v.penalties ?? []) lines.push(h("span", {}, tx("banner.12", [nm(p.from), fmt(p.amount)])));
  // my own loss when I am not among the winners: the ledger lists everyone's
  const me = mySeatId(v);
  if (me && !byTo.has(me) && nets[me]) {
    lines.push(h("span", { class: nets[me] < 0 ? "my-net loss" : "my-net", "data-testid": "my-net" },
      h("span", { "data-testid": "hand-net", "data-player": me }, tx("banner.13", [signedFmt(nets[me])]))));
  }
  return h("div", { class: "banner", role: "status", "data-testid": "hand-result" }, lines);
}

/**
 * "모두 다이했어요 · 민수 님이 카드를 보여 줬어요: 에이스 원페어": who showed after everyone else folded, and
 * what the cards make (each seat's `shownName`), since no showdown line names them.
 */
function shownNote(v, korean, nm) {
  const seats = (v.seats ?? []).filter((s) => s.shown);
  const who = seats.map((s) => nm(s.id)).join(", ");
  if (!seats.every((s) => s.shownName)) return tx(korean ? "banner.5" : "banner.14", [who]);
  const hands = seats.length === 1 ? seats[0].shownName : seats.map((s) => `${nm(s.id)} ${s.shownName}`).join(", ");
  return tx(korean ? "banner.18" : "banner.19", [who, hands]);
}

/**
 * The hand-end banner goes where it hides no seat: the free band nearest to just above the pot, as wide as
 * the gap between the seats there allows; it covers the pot and the board only when nothing else is free.
 */
export function placeBanner(t) {
  const main = t.host.querySelector(".table-main");
  const banner = main?.querySelector(":scope > .banner");
  if (!banner) {
    if (main) showUnder(main);
    return;
  }
  // a phone: the seats and the centre where layoutMobile put and measured them (or placeCenter moved the
  // centre to), so the banner is placed without reading the layout the seat writes made dirty
  const p = t.placed;
  t.bannerBox = null;
  const parts = p && p.seats && p.gen === t.seatGen ? knownParts(t, main) : null;
  const known = !!parts;
  const W = known ? p.W : main.clientWidth;
  const H = known ? p.H : main.clientHeight;
  if (!W || !H) return;
  let seats;
  let marks; // (a seat's marks sit astride its top edge, outside its box: the banner keeps off them too)
  let soft;
  let potTop;
  if (known) {
    seats = p.seats;
    marks = (p.marks ?? []).filter(Boolean);
    soft = parts.filter((b) => b.r > b.l);
    // (the pot is the centre's first part)
    potTop = main.querySelector("[data-testid=pot]") && parts.length ? parts[0].t : null;
  } else {
    const origin = main.getBoundingClientRect();
    const rel = (e) => {
      const r = e.getBoundingClientRect();
      return { l: r.left - origin.left, r: r.right - origin.left, t: r.top - origin.top, b: r.bottom - origin.top };
    };
    seats = [...main.querySelectorAll(".seat")].map(rel);
    marks = [...main.querySelectorAll(".seat > .marks")].map(rel).filter((b) => b.r > b.l);
    soft = [...main.querySelectorAll(".center > *")].map(rel).filter((b) => b.r > b.l);
    const pot = main.querySelector("[data-testid=pot]");
    potTop = pot ? rel(pot).t : null;
  }
  const maxW = Math.floor(Math.min(W - 8, 420));
  const GAP = 4;
  // the banner's size at a width limit depends on its content and the page's font classes only: measured
  // once per content and limit (a ready mark coming in re-renders the banner unchanged: no layout then)
  const sizeKey = `${document.body.className}|${banner.innerHTML}`;
  if (t.bannerSizes?.key !== sizeKey) t.bannerSizes = { key: sizeKey, byLimit: new Map() };
  const size = (limit) => {
    banner.style.width = "max-content";
    banner.style.maxWidth = `${limit}px`;
    const at = `${banner.className}|${limit}`; // (a cramped banner has a smaller font)
    let dim = t.bannerSizes.byLimit.get(at);
    if (!dim) {
      const r = banner.getBoundingClientRect();
      // +1: a width rounded down would wrap the text once more
      dim = { w: Math.min(limit, Math.ceil(r.width) + 1), h: Math.ceil(r.height) };
      t.bannerSizes.byLimit.set(at, dim);
    }
    return dim;
  };
  const natural = size(maxW);
  const prefer = (potTop ?? H / 2) - GAP - natural.h;
  const band = t.placed?.band ?? PHASE_LINE;
  const bottom = H - band;
  const ys = [];
  for (let y = 4; y + natural.h <= bottom; y += 4) ys.push(y);
  ys.sort((a, b) => Math.abs(a - prefer) - Math.abs(b - prefer));
  const hits = (box, list) => list.some((o) => Math.min(box.r, o.r) - Math.max(box.l, o.l) > 0 && Math.min(box.b, o.b) - Math.max(box.t, o.t) > 0);
  const corridor = (y, h) => freeCorridor(seats, W, y, h, GAP);
  // 1st: its natural size, clear of the pot and the board; 2nd: narrower (more lines); 3rd: above the centre
  // moved down (lowerCentre); 4th: over the board
  const place = (narrower, avoid) => {
    for (const y of ys) {
      let dim = natural;
      for (let k = 0; k < 3; k++) {
        const c = corridor(y, dim.h);
        if (!c) break;
        const room = c.r - c.l;
        if (room < dim.w) {
          if (!narrower || room < 140) break;
          dim = size(Math.floor(room));
          if (y + dim.h > bottom) break;
          continue;
        }
        const mid = Math.max(c.l + dim.w / 2, Math.min(c.r - dim.w / 2, W / 2));
        const box = { l: mid - dim.w / 2, r: mid + dim.w / 2, t: y, b: y + dim.h };
        if (hits(box, seats) || hits(box, marks) || hits(box, avoid)) break;
        return { ...box, w: dim.w };
      }
    }
    return null;
  };
  const clear = place(false, soft) ?? place(true, soft)
    ?? (known ? lowerCentre(t, main, soft, p.boxes, H - band - 4, (moved) => place(false, moved) ?? place(true, moved)) : null);
  const box = clear ?? place(false, []) ?? place(true, []);
  if (clear) showUnder(main);
  else requestAnimationFrame(() => hideUnder(main, banner)); // (read next frame, not inside this render)
  if (!box) {
    // nowhere free: the old place, above the pot, kept small
    banner.classList.add("cramped");
    const dim = size(maxW);
    banner.style.left = `${W / 2 - dim.w / 2}px`;
    banner.style.top = `${Math.max(4, prefer)}px`;
    keepBannerBox(t, banner, { l: W / 2 - dim.w / 2, r: W / 2 + dim.w / 2, t: Math.max(4, prefer), b: Math.max(4, prefer) + dim.h });
    return;
  }
  const dim = size(box.w);
  banner.style.width = `${box.w}px`;
  banner.style.left = `${box.l}px`;
  banner.style.top = `${box.t}px`;
  keepBannerBox(t, banner, { l: box.l, r: box.l + box.w, t: box.t, b: box.t + dim.h });
}

/**
 * The last resort put the banner over the centre: what of it the banner covers, besides the board's cards,
 * is not drawn while it is there (the pot, side pots, a carried pot, Indian poker's used-cards grid), where
 * their edges showed around the banner, cut ("사용된 카드 4…" on both sides of it at 360×740). The banner says
 * the pot itself; showUnder draws them again once the banner is gone or placed clear of them.
 */
function hideUnder(main, banner) {
  if (!banner.isConnected) return;
  const b = banner.getBoundingClientRect();
  for (const e of main.querySelectorAll(".center > :not(.board)")) {
    const r = e.getBoundingClientRect();
    const over = Math.min(r.right, b.right) > Math.max(r.left, b.left) && Math.min(r.bottom, b.bottom) > Math.max(r.top, b.top);
    e.classList.toggle("under-banner", over);
  }
}

function showUnder(main) {
  for (const e of main.querySelectorAll(".center > .under-banner")) e.classList.remove("under-banner");
}

/**
 * Where the banner fits nowhere clear of the pot and the board (a tall phone's table does not grow, render.js
 * placeTable; a short one's grows less): the centre goes down towards the phase line, 8 px at a time, until
 * the banner fits above it (`tryPlace` of the moved parts), the centre clear of every seat, its marks, chip
 * and ring (`seats`). Returns the banner's box, or null when no such move frees a place (the banner then
 * covers the centre, as before). The move is kept as placeCenter keeps its own (`t.centerMoved`), so the
 * table's checks read the parts where they are.
 */
function lowerCentre(t, main, soft, seats, bottom, tryPlace) {
  const center = main.querySelector(":scope > .center");
  if (!center || !soft.length) return null;
  const low = Math.max(...soft.map((b) => b.b));
  for (let dy = 8; low + dy <= bottom; dy += 8) {
    const moved = movedCentre(soft, dy, bottom, seats);
    if (!moved) continue;
    const box = tryPlace(moved);
    if (!box) continue;
    // its usual place (the style sheet's) or where placeCenter put it, dy lower
    if (center.style.top) center.style.top = `${parseFloat(center.style.top) + dy}px`;
    else center.style.transform = `translate(-50%, calc(-50% + ${dy}px))`;
    const p = t.placed;
    t.centerMoved = { key: centreKey(t, p, center.querySelector(".used-panel")), gen: p.gen,
      style: center.getAttribute("style"), parts: moved };
    return box;
  }
  return null;
}

/** Where placeBanner put the banner, for placedClear (valid while the banner keeps that style). */
function keepBannerBox(t, banner, box) {
  t.bannerBox = { el: banner, gen: t.placed?.gen, style: banner.getAttribute("style"), box };
}

/** A hand just ended: once its view is painted, the pot's chips fly to the winners (t.view: the newest view). */
export function animateAwards(t) {
  const v = t.view;
  const awards = sortedAwards(v);
  if (!awards.length) return;
  // where the pot is, read once the hand-end view is painted (a task posted from its frame runs after the
  // paint): the layout is clean then, so the read forces none inside the render
  requestAnimationFrame(() => setTimeout(() => flyAwards(t, v, awards), 0));
}

function flyAwards(t, v, awards) {
  if (t.view?.handNo !== v.handNo || t.view.phase !== "handEnd") return;
  const host = t.host;
  const pot = host.querySelector("[data-testid=pot]");
  if (!pot || typeof pot.getBoundingClientRect !== "function") return;
  const from = pot.getBoundingClientRect();
  awards.forEach((a, i) => {
    setTimeout(() => {
      if (t.view !== v) return;
      const target = a.to === mySeatId(t.view) ? host.querySelector("[data-testid=my-stack]") : host.querySelector(`.seat[data-seat-id="${CSS.escape(a.to)}"]`);
      if (!target) return;
      const to = target.getBoundingClientRect();
      const chip = h("div", { class: "flying-chip", "aria-hidden": "true" });
      chip.style.left = `${from.left + from.width / 2 - 11}px`;
      chip.style.top = `${from.top + from.height / 2 - 11}px`;
      document.body.append(chip);
      requestAnimationFrame(() => requestAnimationFrame(() => {
        chip.style.transform = `translate(${to.left + to.width / 2 - (from.left + from.width / 2)}px, ${to.top + to.height / 2 - (from.top + from.height / 2)}px)`;
        chip.style.opacity = "0.2";
      }));
      setTimeout(() => chip.remove(), 650);
      const sp = host.querySelector(`.side-pot[data-pot="${a.potIndex}"]`);
      if (sp) sp.style.opacity = "0.35";
    }, i * 650);
  });
}
