// Where the seats go. Desktop: an arc. Phone: rows at the top and columns at the sides, seats getting
// narrower (and their cards fanned) until no two overlap; a seat whose inputs did not change keeps its element
// and its measured size (t.seatCache), so only new or changed seats are measured, in one batch of reads, then
// the positions of all are written (no forced layout per seat).

import { placeCenter } from "./center.js";
import { fitSeatCards } from "./fan.js";
import { PHASE_LINE, boxesOverlap, chipSpot, enclose, keepRingInside, overlap, phaseBand, placeChips, putChip, seatSlots, unstack } from "./geometry.js";
import { buildSeat, patchSeat, seatInputs } from "./seats.js";
import { syncChildren } from "./slices.js";
import { seatOrderForDisplay } from "./view.js";

const GAP = 4;

export function placeSeats(t, container) {
  const v = t.view;
  const { others, full } = seatOrderForDisplay(v);
  const n = others.length;
  t.placed = null;
  if (!n) { container.replaceChildren(); return; }
  const W = t.preW || container.clientWidth || 390;
  if (W >= 600) {
    const H = container.clientHeight || 480;
    t.seatCache = new Map();
    // a crowded arc (a laptop's table of seven or more) spreads round the felt's bottom, empty on a wide screen
    // (my own seat is below the table), from the first deal, so the seats keep their places from phase to
    // phase; then, where seats still overlap (a hand's end, every hand shown), they take denser forms first
    // (same places) and spread further last
    const base = n >= 7 ? 1 : 0;
    const span = n >= 7 ? 312 : 256;
    let items = [];
    for (const [level, arc] of [[base, span], [2, span], [2, span + 24]]) {
      const slots = seatSlots(n, full, W, arc);
      const els = others.map((seat) => buildSeat(seatInputs(v, seat, n, t.names, t.bets), level).el);
      container.replaceChildren(...els);
      // every seat read, then written, then read again: two layouts a try, not two a seat
      const widths = els.map((el) => Math.ceil(el.getBoundingClientRect().width) || 112);
      els.forEach((el, i) => { el.style.width = `${widths[i]}px`; });
      items = els.map((el, i) => {
        // (the D / SB / BB marks stick out above the seat: that strip is the seat's too)
        const marks = el.querySelector(":scope > .marks")?.getBoundingClientRect();
        const up = marks?.height ? Math.max(0, Math.ceil(el.getBoundingClientRect().top - marks.top)) : 0;
        const [px, py] = slots[i];
        return { el, w: widths[i], h: el.offsetHeight || 90, up, px, py, group: py < 30 ? "top" : px < 50 ? "left" : "right" };
      });
      for (const it of items) {
        it.x = Math.max(it.w / 2 + 2, Math.min(W - it.w / 2 - 2, (W * it.px) / 100));
        it.y = Math.max(it.h / 2 + 8, Math.min(H - it.h / 2 - 36, (H * it.py) / 100));
        it.el.style.left = `${it.x}px`;
        keepRingInside(it.el, it.x + it.w / 2, W);
        it.el.style.top = `${it.y}px`;
      }
      if (!boxesOverlap(items.map(arcBox))) break;
    }
    // still on each other (a short window): apart up and down, where the felt has room
    unstack(items.map(arcBox), 2, H - 36, GAP).forEach((dy, i) => {
      if (dy) { items[i].y += dy; items[i].el.style.top = `${items[i].y}px`; }
    });
    arcChips(items, W, H - phaseBand(container.parentElement) - 4);
    return;
  }
  const slots = seatSlots(n, full, W);
  // mobile: seats get narrower (and their mini cards overlap) until no two seats overlap, whatever the phase
  // shows in them, and (Indian) the used-cards grid has room
  const manyUp = n >= 3 && v.mode !== "indian" && (v.seats ?? []).some((x) => (x.up ?? []).length >= 3);
  const first = n >= 8 ? 2 : n >= 5 || manyUp ? 1 : 0;
  const gen = (t.seatGen = (t.seatGen ?? 0) + 1);
  const inputs = others.map((seat) => seatInputs(v, seat, n, t.names, t.bets));
  for (let level = first; level <= 2; level++) {
    const boxes = layoutMobile(t, container, inputs, slots, level, W, gen);
    // (a side column stacked under the top row into the phase line's band: narrower seats may not need to)
    const low = boxes.some((b) => b.b > t.placed.H - t.placed.band + 0.5);
    if (level === 2 || (!boxesOverlap(boxes) && !low && !["folded", "blocked"].includes(placeCenter(t, 14)))) break;
  }
  for (const [k, e] of t.seatCache) if (e.gen !== gen) t.seatCache.delete(k);
}

/**
 * Each seat's cached entry for this density `level` and its cell width: a new seat is built, a changed one
 * patched slice by slice. A slice that can change the box's size drops what the last layout wrote (its
 * position and width: a shrink-to-fit box is measured where a new one would be), so it is measured like a
 * new one; new cards are fanned again (their row is new, the seat's limits go). A turn passing (colour,
 * timer ring) changes no size: the seat keeps its measure and its place.
 */
function seatEntries(t, inputs, slots, level, W, gen) {
  const tops = slots.filter((sl) => sl[2] === "top").length;
  return inputs.map((inp, i) => {
    const [px, py, group] = slots[i];
    const cell = group === "top" ? Math.floor(W / Math.max(tops, 1)) - GAP : Math.floor(W / 2) - 2 * GAP;
    const key = `${JSON.stringify(inp)}|${level}|${cell}`;
    const slot = `${inp.seat.id}|${level}`;
    let entry = t.seatCache.get(slot);
    const base = `${cell}|${document.body.className}`;
    if (!entry || entry.base !== base) {
      const { el, parts } = buildSeat(inp, level);
      entry = { key, base, el, parts, m: null, fitted: false, pos: null };
      t.seatCache.set(slot, entry);
    } else if (entry.key !== key) {
      const { size, cards } = patchSeat(entry, inp, level);
      entry.key = key;
      const st = entry.el.style;
      if (cards) {
        entry.fitted = false;
        st.removeProperty("max-width");
        st.removeProperty("min-width");
      }
      if (size || cards) {
        entry.m = null;
        entry.pos = null;
        st.removeProperty("left");
        st.removeProperty("top");
        st.removeProperty("width");
      }
    }
    entry.gen = gen;
    return { el: entry.el, entry, group, px, py, cell };
  });
}

/**
 * The new and changed seats measured: their width limits (read once per class list), their cards fanned,
 * then their width, height, marks and chip read in one go. Returns their widths (written later, with the
 * centre measured in the same layout).
 */
function measureSeats(t, fresh, W) {
  // a seat's CSS width limits depend on its classes and the screen only: read once per class list (a
  // getComputedStyle after the writes above would recalculate the style of the whole page)
  const vpKey = `${W}|${t.vp?.join("x")}`;
  if (t.limitsCache?.vp !== vpKey) t.limitsCache = { vp: vpKey, byClass: new Map() };
  const byClass = t.limitsCache.byClass;
  // (a seat measured again whose cards did not change keeps its width limits and fanned row)
  const unfit = fresh.filter(({ entry }) => !entry.fitted);
  const limits = unfit.map(({ el }) => {
    let lim = byClass.get(el.className);
    if (!lim) {
      const cs = getComputedStyle(el);
      lim = [parseFloat(cs.maxWidth), parseFloat(cs.minWidth)];
      byClass.set(el.className, lim);
    }
    return lim;
  });
  unfit.forEach(({ el, cell }, i) => {
    const [maxW, minW] = limits[i];
    if (!(maxW <= cell)) el.style.maxWidth = `${cell}px`;
    if (minW > cell) el.style.minWidth = `${cell}px`;
  });
  if (t.fanMemo?.vp !== vpKey) t.fanMemo = { vp: vpKey, map: new Map() };
  fitSeatCards(unfit.map(({ el }) => el), unfit.map(({ cell }) => cell), t.fanMemo.map);
  for (const { entry } of unfit) entry.fitted = true;
  // keep the measured width: placed near the right edge, a shrink-to-fit box would get narrower (and taller).
  // Everything about the new seats is read in one go (their width, height, marks and chip, the table's
  // height, the centre), before the width is written: one layout for all of it (a box given the width it
  // already has keeps its height)
  const widths = fresh.map(({ el }) => Math.ceil(el.getBoundingClientRect().width) || 112);
  fresh.forEach(({ el, entry }, i) => {
    // the D / SB / BB marks stick out above the seat: that strip belongs to the seat too
    const mk = el.querySelector(":scope > .marks");
    const box = el.getBoundingClientRect();
    const mr = mk?.getBoundingClientRect();
    const up = mr ? Math.max(0, Math.ceil(box.top - mr.top)) : 0;
    // a crowded marks row (D, SB, BB over a tiny seat) can stick out sideways too: its overhang, centred
    const side = mr ? Math.max(0, Math.ceil(Math.max(box.left - mr.left, mr.right - box.right))) : 0;
    // the marks row's box relative to the seat's (tableClear checks it without reading the layout)
    const mkBox = mr && mr.width ? { l: mr.left - box.left, r: mr.right - box.left, t: mr.top - box.top, b: mr.bottom - box.top } : null;
    // the marks themselves (the row is as wide as the seat): what a timer ring in a corner must leave alone
    const ms = mk ? [...mk.children].map((e) => e.getBoundingClientRect()).filter((r) => r.width) : [];
    const pips = ms.length ? { l: Math.min(...ms.map((r) => r.left)) - box.left, r: Math.max(...ms.map((r) => r.right)) - box.left,
      t: Math.min(...ms.map((r) => r.top)) - box.top, b: Math.max(...ms.map((r) => r.bottom)) - box.top } : null;
    entry.m = { w: widths[i], h: el.offsetHeight || 90, up, side, border: el.clientTop, mk: mkBox, pips, ...chipAndBadges(el, box) };
  });
  return widths;
}

/**
 * The centre at its usual place, as boxes in the seat layer's coordinates (t.softCache, for the chips and
 * placeCenter): measured once per centre content and table size; on a table grown taller (placeTable) it is
 * only lower, by 58 % of the growth (.center { top: 58% } in style.css), so it is moved, not measured.
 */
function softCentre(t, container, W, H) {
  const center = container.parentElement?.querySelector(":scope > .center");
  const panel = center?.querySelector(".used-panel");
  // (the used-cards grid as the previous density level's try left it: folded or shrunk, or as built)
  const softKey = () => `${t.centerKeyShown}|${W}|${H}|${panel?.className}|${panel?.style.getPropertyValue("--cell")}`;
  const softBase = () => `${t.centerKeyShown}|${W}|${panel?.className}|${panel?.style.getPropertyValue("--cell")}`;
  const measure = () => {
    const origin = container.getBoundingClientRect();
    const soft = [...(center?.children ?? [])].map((e) => e.getBoundingClientRect()).filter((r) => r.width)
      .map((r) => ({ l: r.left - origin.left, r: r.right - origin.left, t: r.top - origin.top, b: r.bottom - origin.top }));
    t.softCache = { key: softKey(), base: softBase(), H, soft };
  };
  const shift = () => {
    const c = t.softCache;
    if (!c || c.base !== softBase() || c.H === H || center?.hasAttribute("style")) return false;
    const dy = 0.58 * (H - c.H);
    t.softCache = { key: softKey(), base: c.base, H, soft: c.soft.map((b) => ({ ...b, t: b.t + dy, b: b.b + dy })) };
    return true;
  };
  return {
    // the centre at its usual place (no style of its own) is measured with the seats, in the same layout
    early() { if (t.softCache?.key !== softKey() && !center?.hasAttribute("style") && !shift()) measure(); },
    // before the chips: back at its usual place if it was not measured there
    late() {
      if (t.softCache?.key !== softKey()) {
        center?.removeAttribute("style");
        if (!shift()) measure();
      }
    },
  };
}

/** A column of side seats: from the top row down, each seat below the one above it; pushed past the bottom,
 * the column moves up again as far as the row above allows. */
function stackColumn(col, top, box, bottomLimit) {
  let floor = -Infinity;
  for (const it of col) {
    const b = box(it);
    for (const o of top) {
      const ob = box(o);
      if (Math.min(b.r, ob.r) - Math.max(b.l, ob.l) > 0) floor = Math.max(floor, ob.b + GAP);
    }
    if (b.t < floor) it.y = floor + it.h / 2 + it.up;
    floor = it.y + it.h / 2 + GAP;
  }
  const last = col[col.length - 1];
  if (last && last.y + last.h / 2 > bottomLimit) {
    let shift = last.y + last.h / 2 - bottomLimit;
    for (let k = col.length - 1; k >= 0 && shift > 0; k--) {
      const it = col[k];
      const above = k > 0 ? col[k - 1].y + col[k - 1].h / 2 + GAP : Math.max(8, ...top.filter((o) => {
        const b = box(it); const ob = box(o); return Math.min(b.r, ob.r) - Math.max(b.l, ob.l) > 0;
      }).map((o) => box(o).b + GAP));
      const room = it.y - it.h / 2 - it.up - above;
      const d = Math.min(shift, Math.max(0, room));
      for (let m = k; m < col.length; m++) col[m].y -= d;
      shift -= d;
    }
  }
}

/**
 * Where each seat's timer ring goes. It must cover no other seat, nor the name and stack of the player whose
 * turn it is (the very numbers the table waits on). The usual place is the seat's top-right corner
 * (.timer-ring: 30 px, top -12, right -10, pulled in at the screen's edge by keepRingInside); a compact seat,
 * whose name and stack share its first line, reaching its right edge, has the ring's centre just outside its
 * corner instead, right or, towards the middle of the table, left. When that corner would reach over a
 * neighbour (a ten-seat table's tight rows) or the seat's marks, the ring goes right under its seat (under its
 * bet chip, if that is there: `chips`, placed first), centred, if nothing is there (no seat, chip, pot or
 * board: `soft`; inside the table: `bottom`); with no room there, half under its seat's bottom-right corner
 * where the gap below the seat takes 6 or 12 px of it (the last card's rank and suit stay in view: a 7 Poker
 * seat's newest open card), else astride its right edge (right of that card's rank and suit) or its left one
 * (over the hidden cards a 7 Poker row starts with); only with no room anywhere does it go into its seat's
 * bottom corner, over the last action's badge or card, never the first line. Computed from the positions, so a kept seat
 * ends where a fresh one would. Returns each ring's box (null: inside its seat).
 */
function placeRings(items, boxes, W, soft, bottom, chips) {
  const rings = items.map(() => null);
  const put = (ring, style) => {
    for (const k of ["top", "right", "bottom", "left"]) {
      const want = style[k] ?? "";
      if (ring.style[k] !== want) ring.style[k] = want; // (an unchanged ring is not written to)
    }
  };
  items.forEach((it, k) => {
    const ring = it.el.querySelector(":scope > .timer-ring");
    if (!ring) return;
    const border = it.m.border ?? 2;
    const L = it.x - it.w / 2;
    const R = it.x + it.w / 2;
    const T = it.y - it.h / 2;
    const p = it.m.pips;
    const mk = p ? { l: L + p.l, r: L + p.r, t: T + p.t, b: T + p.b } : null;
    const clear = (b) => b.l >= 0 && b.r <= W && b.t >= 0 && b.b <= bottom && !boxes.some((o, m) => m !== k && overlap(b, o))
      && !(mk && overlap(b, mk)) && !chips.some((c) => c && overlap(b, c)) && !soft.some((o) => overlap(b, o));
    const at = (b) => ({ top: `${b.t - T - border}px`, left: `${b.l - L - border}px`, right: "auto" });
    const around = (cx, cy) => ({ l: cx - 15, r: cx + 15, t: cy - 15, b: cy + 15 });
    const compact = it.el.classList.contains("compact");
    // (the centre 6 px out of the corner: a name or stack at the padding's edge stays out of the circle)
    const corners = compact ? [around(R + 6, T - 6), around(L - 6, T - 6)] : [];
    if (it.x > W / 2) corners.reverse(); // towards the middle first
    // right under the seat, or under its bet chip when the chip is there
    const chip = chips[k];
    const below = chip && chip.t >= it.y + it.h / 2 ? chip.b : it.y + it.h / 2;
    const under = { l: it.x - 15, r: it.x + 15, t: below + 2, b: below + 32 };
    const edge = R - border + Math.min(10, Math.max(0, Math.floor(W - 1 - R)));
    const usual = { l: edge - 30, r: edge, t: T + border - 12, b: T + border + 18 };
    // a seat at the table's top edge: its ring comes down onto the table, where it poked out above it (and
    // placeTable grew the table, 24 px at a time, for a ring that did not move)
    const drop = Math.max(0, -usual.t);
    usual.t += drop;
    usual.b += drop;
    const corner = corners.find(clear);
    if (!compact && !boxes.some((o, m) => m !== k && overlap(usual, o))) {
      rings[k] = usual;
      if (drop) {
        put(ring, at(usual));
      } else if (ring.style.top) {
        put(ring, {});
        keepRingInside(it.el, R, W);
      }
    } else if (corner) {
      rings[k] = corner;
      put(ring, at(corner));
    } else if (clear(under)) {
      rings[k] = under;
      put(ring, at(under));
    } else {
      // no room: half under its bottom-right corner where the gap below the seat allows (over the lower part
      // of the last card, whose rank and suit stay in view), else astride its right edge, right of the last
      // card's rank and suit, or its left one, over the hidden cards a 7 Poker row starts with; else inside
      // the bottom-right corner
      const B = it.y + it.h / 2;
      const low = [...[12, 6].map((d) => ({ l: R - border - 30, r: R - border, t: B + d - 30, b: B + d })),
        { l: R - 21, r: R + 9, t: B - 30, b: B }, { l: L - 9, r: L + 21, t: B - 30, b: B }].find(clear);
      if (low) {
        rings[k] = low;
        put(ring, at(low));
      } else put(ring, { top: "auto", bottom: "2px", right: "2px" });
    }
  });
  return rings;
}

/** A seat's box on the wide screen's arc ({l, r, t, b}), from its centre and size, its marks included. */
const arcBox = (it) => ({ l: it.x - it.w / 2, r: it.x + it.w / 2, t: it.y - it.h / 2 - it.up, b: it.y + it.h / 2 });

/**
 * The wide screen's bet chips, each where it covers no other seat (placeChips, as on a phone): a chip under its
 * seat lay on the seat below in a crowded arc's side. Measured here (the arc's seats are built afresh each
 * render); the centre moves clear of the chips afterwards (placeCenter), so none is kept off it here.
 */
function arcChips(items, W, bottom) {
  for (const it of items) it.m = { border: it.el.clientTop, ...chipAndBadges(it.el, it.el.getBoundingClientRect()) };
  placeChips(items, items.map(arcBox), [], W, bottom);
}

/**
 * What placeChips reads of a seat, measured (`box`: the seat's own rectangle): its bet chip's size, and the
 * badges' span (last action, 올인) relative to the seat's left edge, where a chip with no room outside goes
 * over the seat's bottom edge; null for either that is not there.
 */
function chipAndBadges(el, box) {
  const chip = el.querySelector(":scope > .bet-chip")?.getBoundingClientRect();
  const bs = [...el.querySelectorAll(".badge")].map((e) => e.getBoundingClientRect()).filter((r) => r.width);
  return { chip: chip ? { w: Math.ceil(chip.width), h: Math.ceil(chip.height) } : null,
    badges: bs.length ? { l: Math.min(...bs.map((r) => r.left)) - box.left, r: Math.max(...bs.map((r) => r.right)) - box.left } : null };
}

/** One try of the mobile layout at a density level (0 normal, 1 compact, 2 tiny); returns the seat boxes. */
function layoutMobile(t, container, inputs, slots, level, W, gen) {
  const made = seatEntries(t, inputs, slots, level, W, gen);
  syncChildren(container, made.map(({ el }) => el));
  // every step below reads all new seats, then writes them: one layout per step instead of one per seat
  const fresh = made.filter(({ entry }) => !entry.m);
  const widths = measureSeats(t, fresh, W);
  // (placeTable grows the table by a known height: no read, no layout, for the new height)
  const H = t.knownH ?? (container.clientHeight || 480);
  // the phase line's band depends on the page's font classes only (large text): read once per class list
  if (t.bandCache?.key !== document.body.className) {
    const read = phaseBand(container.parentElement, null);
    t.bandCache = read === null ? null : { key: document.body.className, band: read };
  }
  const band = t.bandCache?.band ?? PHASE_LINE;
  const soft = softCentre(t, container, W, H);
  soft.early();
  fresh.forEach(({ el }, i) => { el.style.width = `${widths[i]}px`; });
  const items = made.map(({ el, entry, group, px, py }) => ({ el, entry, group, px, py, w: entry.m.w, h: entry.m.h, up: entry.m.up, m: entry.m }));
  const bottomLimit = H - band;
  for (const it of items) {
    it.x = Math.max(it.w / 2 + 2, Math.min(W - it.w / 2 - 2, (W * it.px) / 100));
    it.y = Math.max(it.h / 2 + Math.max(8, it.up + 2), Math.min(bottomLimit - it.h / 2, (H * it.py) / 100));
  }
  const box = (it) => ({ l: it.x - it.w / 2, r: it.x + it.w / 2, t: it.y - it.h / 2 - it.up, b: it.y + it.h / 2 });
  const top = items.filter((it) => it.group === "top");
  for (const side of ["left", "right"]) stackColumn(items.filter((it) => it.group === side).sort((a, b) => a.y - b.y), top, box, bottomLimit);
  for (const it of items) {
    // written only when it moved: a seat that did not change is not touched at all
    const pos = `${it.x}|${it.y}`;
    if (it.entry.pos !== pos) {
      it.el.style.left = `${it.x}px`;
      it.el.style.top = `${it.y}px`;
      it.entry.pos = pos;
    }
    keepRingInside(it.el, it.x + it.w / 2, W);
  }
  const boxes = items.map(box);
  // the centre at its usual place: a ring or a chip beside a seat must not hide the pot or the board
  soft.late();
  const chips = placeChips(items, boxes, t.softCache.soft, W, bottomLimit);
  const rings = placeRings(items, boxes, W, t.softCache.soft, bottomLimit, chips);
  // what each seat covers (its box with marks, chip and timer ring), for placeCenter without a layout
  const marked = boxes.map((b, k) => (items[k].m.side ? { ...b, l: b.l - items[k].m.side, r: b.r + items[k].m.side } : b));
  // the seats' own boxes (no marks, chip or ring), as placeBanner would measure them
  const seatBoxes = items.map((it) => ({ l: it.x - it.w / 2, r: it.x + it.w / 2, t: it.y - it.h / 2, b: it.y + it.h / 2 }));
  const marks = items.map((it, k) => (it.m.mk ? { l: seatBoxes[k].l + it.m.mk.l, r: seatBoxes[k].l + it.m.mk.r,
    t: seatBoxes[k].t + it.m.mk.t, b: seatBoxes[k].t + it.m.mk.b } : null));
  t.placed = { W, H, band, gen, seats: seatBoxes, marks, chips, rings, bare: marked, items, chipBoxes: boxes,
    boxes: marked.map((b, k) => covered(b, chips[k], rings[k])) };
  return boxes;
}

/** What a seat covers: its box (`b`, marks included) with its chip and ring boxes (null: none). */
const covered = (b, chip, ring) => enclose([b, chip, ring].filter(Boolean));

/**
 * After placeCenter: a bet chip the centre now covers goes to its seat's first place clear of the centre as it
 * stands (`parts`: its boxes), of the other seats, chips and rings, else over its own seat's bottom edge.
 * Why: the chips are placed against the centre's usual place; when a seat takes that place the centre moves,
 * and with no spot clear of the chips left it moves over one (a 7 Poker side seat's bet sat under the pot at
 * 360×740 with the tips open, its amount unreadable). The pot stays where it went; the chip, small, moves.
 */
export function chipsOffCentre(t, parts) {
  const p = t.placed;
  if (!p?.items || !parts?.length) return;
  p.items.forEach((it, k) => {
    const chip = p.chips[k];
    if (!chip || !parts.some((o) => overlap(chip, o))) return;
    const taken = [...p.chips.filter((c, m) => c && m !== k), ...p.rings.filter(Boolean), ...parts];
    const c = chipSpot(it, k, p.chipBoxes, parts, p.W, p.H - p.band, taken, true);
    putChip(it, it.el.querySelector(":scope > .bet-chip"), c);
    p.chips[k] = c;
    p.boxes[k] = covered(p.bare[k], c, p.rings[k]);
  });
}
