// Phone geometry: boxes ({l, r, t, b} in px of the table area) and the questions the placement asks of them
// (do two overlap, where is the free band between the side columns, where does a bet chip go, is the table
// clear). Pure arithmetic except where a function says it reads or writes the layout.

/**
 * The band at the bottom of a phone's table that the phase line takes (style.css .phase-line: 10 px from the
 * bottom, one line high, as wide as its text): no seat goes into it, or the line is written over the seat's
 * badges ("선택 완료" under "7포커 하이로우 · 1/20판"). This is its normal size; large text makes it taller,
 * so the placement reads it (phaseBand).
 */
export const PHASE_LINE = 32;

/**
 * The phase line's band in the table `main`, read from the layout: the line's height, its distance from the
 * bottom and a pixel of air between it and what sits above (never less than PHASE_LINE); `none` where no line
 * is laid out (PHASE_LINE; the seats' placement asks for null, so as not to remember it).
 */
export function phaseBand(main, none = PHASE_LINE) {
  const line = main?.querySelector(":scope > .phase-line");
  if (!line?.offsetHeight) return none;
  return Math.max(PHASE_LINE, Math.ceil(line.offsetHeight + (parseFloat(getComputedStyle(line).bottom) || 0)) + 1);
}

export function overlap(a, b) {
  return Math.min(a.r, b.r) - Math.max(a.l, b.l) > 0.5 && Math.min(a.b, b.b) - Math.max(a.t, b.t) > 0.5;
}

/** The smallest box holding all of `boxes` (one at least). */
export function enclose(boxes) {
  return boxes.reduce((a, c) => ({
    l: Math.min(a.l, c.l), r: Math.max(a.r, c.r), t: Math.min(a.t, c.t), b: Math.max(a.b, c.b) }));
}

/** Do any two of these boxes ({l, r, t, b}) overlap? */
export function boxesOverlap(boxes) {
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i];
      const b = boxes[j];
      if (Math.min(a.r, b.r) - Math.max(a.l, b.l) > 0.5 && Math.min(a.b, b.b) - Math.max(a.t, b.t) > 0.5) return true;
    }
  }
  return false;
}

/**
 * The free width between the left and right seat columns beside the band [y, y + h] of a table W wide
 * (boxes {l, r, t, b}), less `gap` on each side; null when a seat sits across the middle of that band.
 */
export function freeCorridor(seats, W, y, h, gap) {
  let l = 0;
  let r = W;
  for (const o of seats) {
    if (Math.min(y + h, o.b) - Math.max(y, o.t) <= 0) continue;
    if (o.r <= W / 2) l = Math.max(l, o.r);
    else if (o.l >= W / 2) r = Math.min(r, o.l);
    else return null;
  }
  return { l: l + gap, r: r - gap };
}

/**
 * Every free width of the band [y, y + h] of a table W wide between the seats (boxes {l, r, t, b}) that reach
 * into it, less `gap` on each side, left to right. Why beside freeCorridor: a wide screen's felt has room on
 * both sides of a seat across the middle (an Indian heads-up's tall forehead seat on a laptop 610 px tall left
 * the pot no band under it), where a phone's has none.
 */
export function freeGaps(seats, W, y, h, gap) {
  const taken = seats.filter((o) => Math.min(y + h, o.b) - Math.max(y, o.t) > 0).sort((a, b) => a.l - b.l);
  const out = [];
  let x = 0;
  for (const o of taken) {
    if (o.l > x) out.push({ l: x + gap, r: o.l - gap });
    x = Math.max(x, o.r);
  }
  if (x < W) out.push({ l: x + gap, r: W - gap });
  return out;
}

/**
 * Seats still on each other after every try of the arc moved apart up and down: the upper of two seats that
 * overlap goes up, the lower down, each as far as the table's edges (`top`, `bottom`) and the seats above or
 * below it allow. Why: on a laptop's short window (1,280×610, a 1,280×720 screen less the browser's bars) the
 * two side seats of a table of nine or ten stacked a few pixels into each other, with room to spare above
 * and below them. boxes: {l, r, t, b}; returns each seat's vertical shift in px (0: kept).
 */
export function unstack(boxes, top, bottom, gap) {
  const b = boxes.map((x) => ({ ...x }));
  const across = (p, q) => Math.min(p.r, q.r) - Math.max(p.l, q.l) > 0.5;
  // how far seat k may move (dir -1 up, +1 down) before the edge or a seat beyond it, its partner aside
  const room = (k, dir, partner) => {
    let free = dir < 0 ? b[k].t - top : bottom - b[k].b;
    for (let o = 0; o < b.length; o++) {
      if (o === k || o === partner || !across(b[o], b[k])) continue;
      if (dir < 0 && b[o].b <= b[k].t + 0.5) free = Math.min(free, b[k].t - b[o].b - gap);
      if (dir > 0 && b[o].t >= b[k].b - 0.5) free = Math.min(free, b[o].t - b[k].b - gap);
    }
    return Math.max(0, free);
  };
  const shift = (k, dy) => { b[k].t += dy; b[k].b += dy; };
  for (let round = 0; round < 4; round++) {
    let moved = false;
    for (let i = 0; i < b.length; i++) {
      for (let j = i + 1; j < b.length; j++) {
        if (!overlap(b[i], b[j])) continue;
        const [u, d] = b[i].t + b[i].b <= b[j].t + b[j].b ? [i, j] : [j, i];
        const need = b[u].b - b[d].t + gap;
        const up = room(u, -1, d);
        const down = room(d, 1, u);
        if (up + down < need) continue;
        const su = Math.max(need - down, Math.min(up, need / 2));
        shift(u, -su);
        shift(d, need - su);
        moved = true;
      }
    }
    if (!moved) break;
  }
  return b.map((x, k) => x.t - boxes[k].t);
}

/** The timer ring sits on a seat's top-right corner; near the screen edge it moves in over the seat. */
export function keepRingInside(el, right, W) {
  const ring = el.querySelector(":scope > .timer-ring");
  if (!ring || ring.style.top) return; // (placed under or inside its seat: layout.js placeRings)
  const overhang = 10; // .timer-ring { right: -10px }
  const room = Math.max(0, Math.floor(W - 1 - right));
  const want = room < overhang ? `${-room}px` : ""; // a kept seat may have been nearer the edge before
  if (ring.style.right !== want) ring.style.right = want; // (an unchanged seat is not written to)
}

/**
 * Mobile: each seat's bet chip goes where it covers no other seat (nor another chip): below the seat, else
 * beside it towards the middle (unless that hides the pot or board, `soft`), else over the bottom edge of its
 * own seat. items: layoutMobile's seats ({el, group, x, y, w, h}, centres in px), boxes: their boxes
 * ({l, r, t, b}, marks included). Returns each seat's chip box (null: no chip).
 */
export function placeChips(items, boxes, soft, W, bottom) {
  const placed = [];
  const out = items.map(() => null);
  items.forEach((it, k) => {
    const chip = it.el.querySelector(":scope > .bet-chip");
    if (!chip || !it.m.chip) return;
    const c = chipSpot(it, k, boxes, soft, W, bottom, placed, false);
    placed.push(c);
    out[k] = c;
    putChip(it, chip, c);
  });
  return out;
}

/**
 * Where seat `k`'s chip goes: the first of its places (below the seat, slid towards the middle; beside it,
 * for a side seat) inside the table above `bottom`, clear of the other seats (`boxes`), of `taken` (chips
 * placed, rings) and of the centre (`soft`); else, unless the centre stands where it is (`fixed`), one the
 * centre can go down under; else over its own seat's bottom edge, which covers no one else.
 */
export function chipSpot(it, k, boxes, soft, W, bottom, taken, fixed) {
  const GAP = 2;
  const free = (c) => c.l >= 0 && c.r <= W && c.t >= 0 && c.b <= bottom
    && !boxes.some((o, m) => m !== k && overlap(c, o)) && !taken.some((o) => overlap(c, o));
  const cw = it.m.chip.w; // measured with the seat (layoutMobile): no layout forced per chip
  const ch = it.m.chip.h;
  const b = boxes[k];
  const at = (cx, cy) => ({ l: cx - cw / 2, r: cx + cw / 2, t: cy - ch / 2, b: cy + ch / 2, cx, cy });
  const below = b.b + GAP + ch / 2;
  const toMid = it.x < W / 2 ? 1 : -1;
  const cands = [at(it.x, below)];
  // below, slid towards the middle (a top-row seat over a side column)
  for (let d = 8; d <= it.w / 2 + cw / 2; d += 8) cands.push(at(it.x + toMid * d, below));
  if (it.group !== "top") {
    const side = toMid > 0 ? b.r + GAP + cw / 2 : b.l - GAP - cw / 2;
    for (const c of [at(side, b.b - ch / 2), at(side, it.y), at(side, b.t + ch / 2)]) {
      if (!soft.some((o) => overlap(c, o))) cands.push(c);
    }
  }
  // over its own seat's bottom edge (covers no one else), in the corner that leaves more of the seat's
  // badges (last action, 올인: on that edge) in view, towards the middle when both do as well
  const L = it.x - it.w / 2;
  const hidden = (x) => (it.m.badges ? Math.max(0, Math.min(x + cw / 2, L + it.m.badges.r) - Math.max(x - cw / 2, L + it.m.badges.l)) : 0);
  const inside = at([toMid, -toMid].map((s) => it.x + s * Math.max(0, it.w / 2 - (it.m.border ?? 2) - cw / 2))
    .reduce((a, x) => (hidden(x) < hidden(a) ? x : a)), b.b - 2 - ch / 2);
  // never over the pot or the board either: where the centre has room to go down under the chip
  // (placeCenter moves it), else over its own seat, where it hid the seat's last action and 올인
  return cands.find((x) => free(x) && !soft.some((o) => overlap(x, o)))
    ?? (fixed ? null : cands.find((x) => free(x) && centreGoesUnder(x, soft, bottom, [...boxes, ...taken]))) ?? inside;
}

/** Seat `it`'s chip element shown at box `c` (written only when it moved: a seat that did not change is not
 * touched). */
export function putChip(it, chip, c) {
  const border = it.m.border;
  const left = `${c.cx - (it.x - it.w / 2) - border}px`;
  const top = `${c.cy - (it.y - it.h / 2) - border}px`;
  if (chip.placedAt !== `${left}|${top}`) {
    Object.assign(chip.style, { left, top, bottom: "auto", transform: "translate(-50%, -50%)", zIndex: "1" });
    chip.placedAt = `${left}|${top}`;
  }
}

/**
 * The centre's parts (`soft`, their boxes) moved `dy` straight down, if they then end above `bottom` (the phase
 * line) clear of every box in `taken`; else null. (A chip under its seat, placeChips, and the hand-end banner
 * above the centre, banner.js lowerCentre, ask where the centre could go.)
 */
export function movedCentre(soft, dy, bottom, taken) {
  const moved = soft.map((o) => ({ ...o, t: o.t + dy, b: o.b + dy }));
  return moved.every((o) => o.b <= bottom && !taken.some((x) => overlap(o, x))) ? moved : null;
}

/**
 * Can the centre at its usual place (`soft`) go straight down until it is under this chip's box, above
 * `bottom` and clear of every box in `taken` (seats, chips placed)? placeCenter then finds that place (or a
 * nearer one).
 */
function centreGoesUnder(c, soft, bottom, taken) {
  if (!soft.length) return true;
  const down = c.b + 4 - Math.min(...soft.map((o) => o.t));
  return down <= 0 || movedCentre(soft, down, bottom - 4, taken) !== null;
}

/**
 * Does nothing on the table cover anything it must not (mobile)? No two seats overlap; every seat with its
 * marks, bet chip and timer ring stays inside the table area, each seat above the phase line's band; no chip,
 * ring or mark covers another seat or the centre (pot, side pots, board); the centre covers no seat; the
 * hand-end banner covers neither.
 */
export function tableClear(main) {
  const o = main.getBoundingClientRect();
  const W = main.clientWidth;
  const H = main.clientHeight;
  const rect = (e) => {
    const r = e.getBoundingClientRect();
    return { l: r.left - o.left, r: r.right - o.left, t: r.top - o.top, b: r.bottom - o.top };
  };
  const seatEls = [...main.querySelectorAll(".seat")];
  const seats = seatEls.map(rect);
  if (boxesOverlap(seats)) return false;
  const inside = (b) => b.l >= -0.5 && b.r <= W + 0.5 && b.t >= -0.5 && b.b <= H + 0.5;
  const parts = [...main.querySelectorAll(".center > *")].map(rect).filter((b) => b.r > b.l);
  const banner = main.querySelector(":scope > .banner");
  const band = phaseBand(main);
  for (const [k, s] of seatEls.entries()) {
    if (!inside(seats[k]) || seats[k].b > H - band + 0.5) return false;
    for (const e of s.querySelectorAll(":scope > .bet-chip, :scope > .timer-ring, .marks .mark")) {
      const b = rect(e);
      if (!(b.r > b.l)) continue;
      if (!inside(b) || seats.some((x, m) => m !== k && overlap(b, x)) || parts.some((x) => overlap(b, x))) return false;
    }
  }
  if (parts.some((b) => !inside(b) || seats.some((x) => overlap(b, x)))) return false;
  return !banner || ![...seats, ...parts].some((x) => overlap(rect(banner), x));
}

/**
 * tableClear from what the table placed (layoutMobile's seats, marks, chips and rings, the centre's parts,
 * the banner's box): the same checks, with no layout read. k: {W, H, band, seats, marks, chips, rings, parts,
 * banner}.
 */
export function placedClear(k) {
  if (boxesOverlap(k.seats)) return false;
  const inside = (b) => b.l >= -0.5 && b.r <= k.W + 0.5 && b.t >= -0.5 && b.b <= k.H + 0.5;
  const parts = k.parts.filter((b) => b.r > b.l);
  for (const [i, s] of k.seats.entries()) {
    if (!inside(s) || s.b > k.H - k.band + 0.5) return false;
    for (const b of [k.chips[i], k.rings[i], k.marks[i]]) {
      if (!b || !(b.r > b.l)) continue;
      if (!inside(b) || k.seats.some((x, m) => m !== i && overlap(b, x)) || parts.some((x) => overlap(b, x))) return false;
    }
  }
  if (parts.some((b) => !inside(b) || k.seats.some((x) => overlap(b, x)))) return false;
  return !k.banner || ![...k.seats, ...parts].some((x) => overlap(k.banner, x));
}

/**
 * Seat centres in % of the table for `n` opponents (mobile: rows; desktop: an arc of `span` degrees centred on
 * the top, a whole circle for a spectator), clockwise from my left. Each slot is [x, y, group] with group
 * "left" | "top" | "right" | "bottom" (mobile) or "arc" (desktop).
 */
export function seatSlots(n, full, W, span = 256) {
  if (W >= 600) {
    const out = [];
    for (let i = 0; i < n; i++) {
      const theta = full ? (360 / n) * i : n === 1 ? 180 : 180 - span / 2 + ((i + 0.5) * span) / n;
      const rad = (theta * Math.PI) / 180;
      out.push([50 - 42 * Math.sin(rad), 50 + 40 * Math.cos(rad), "arc"]);
    }
    return out;
  }
  const out = [];
  let rest = n;
  if (full && n >= 2) { rest = n - 1; }
  const s = rest <= 2 ? 0 : rest <= 6 ? 1 : 2;
  const t = rest - 2 * s;
  const sideY = s === 1 ? [40] : [64, 37];
  for (let k = 0; k < s; k++) out.push([11, sideY[k], "left"]);
  const xs = t === 1 ? [50] : t === 2 ? [30, 70] : Array.from({ length: t }, (_, i) => ((i + 0.5) * 100) / t);
  for (const x of xs) out.push([x, 12, "top"]);
  for (let k = s - 1; k >= 0; k--) out.push([89, sideY[k], "right"]);
  if (full && n >= 2) out.unshift([50, 86, "bottom"]);
  return out;
}
