// One render of the table: the skeleton that lives across renders, then each region brought up to date from
// its inputs (centre, banner, phase line, my area, side panel), then the phone placement (seats, centre,
// banner; the table grown on a short phone until nothing covers anything).

import { tx } from "../i18n.js";
import { PHASE_LABEL, fmt } from "../labels.js";
import { modeName } from "../options.js";
import { morph } from "../morph.js";
import { h } from "../dom.js";
import { placeBanner, renderBanner } from "./banner.js";
import { centerInputs, centerSlices, knownParts, placeCenter } from "./center.js";
import { fitAmounts } from "./controls.js";
import { placedClear, tableClear } from "./geometry.js";
import { chipsOffCentre, placeSeats } from "./layout.js";
import { meSlices } from "./me.js";
import { renderSidePanel, sideInputs } from "./side.js";
import { syncSlices } from "./slices.js";
import { tick } from "./timer.js";
import { houseRuleTags, mySeatId } from "./view.js";

/**
 * The parts of the table screen that live across renders (the screen, the table area, the felt, the seat
 * layer, the phase line): a render swaps only what changed instead of rebuilding the whole screen, so the
 * browser re-lays out the changed parts, not every node of the table.
 */
function skeleton(t) {
  const sk = t.sk;
  if (sk && sk.screen.parentNode === t.host) return sk;
  const screen = h("div", { class: "table-screen", "data-rotate": tx("render.4") }); // (said sideways: style.css)
  const main = h("div", { class: "table-main" });
  const seats = h("div", { class: "seats" });
  const phase = h("div", { class: "phase-line", "data-testid": "phase-line" });
  main.append(h("div", { class: "felt" }), seats, phase);
  screen.append(main);
  t.host.replaceChildren(screen);
  t.seatCache = new Map();
  t.centerKeyShown = null;
  t.sideKey = null;
  t.sk = { screen, main, seats, phase, center: null, banner: null, me: null, side: null };
  return t.sk;
}

function phaseText(v) {
  const handPart = v.handNo ? tx("render.1", [v.handNo, v.handLimit ? "/" + v.handLimit : ""]) : "";
  const street = v.streetName || PHASE_LABEL[v.phase] || "";
  return [modeName(v.mode, v.options), handPart, street, tx("render.2", [fmt(v.baseUnit)]), v.options?.blindUpEvery ? tx("render.3", [v.level ?? 1]) : "",
    ...houseRuleTags(v.houseRules)]
    .filter(Boolean).join(" · ");
}

/** Draw t.view. `wide`: the side panel's media query; ctx: the regions' handlers (table.js). */
export function render(t, ctx, wide) {
  const v = t.view;
  if (!v) return;
  t.keepY = window.scrollY; // placeTable keeps the reader's scroll position
  t.renders += 1;
  t.hostW = t.host.clientWidth; // read before any write: no forced layout
  t.vp = [window.innerWidth, window.innerHeight];
  // the seat layer's width does not depend on what a render writes (a phone's column layout): read now,
  // while the layout is clean, so the first forced layout is the one that measures the changed seats
  t.preW = t.sk?.seats?.isConnected && t.hostW < 600 ? t.sk.seats.clientWidth : null;
  const sk = skeleton(t);
  // (an attribute written with the value it has still makes the browser look at the styles again)
  if (sk.screen.dataset.phase !== v.phase) sk.screen.dataset.phase = v.phase;
  if (sk.screen.dataset.mode !== v.mode) sk.screen.dataset.mode = v.mode;
  // the centre (pot, board, used cards): built again only when its inputs changed, and then morphed into
  // the one on screen (the board's cards stay while the pot changes); what placeCenter wrote goes
  const center = centerInputs(t);
  const centerKey = JSON.stringify(center);
  if (!sk.center) {
    sk.center = h("div", { class: "center" });
    sk.main.insertBefore(sk.center, sk.phase);
    t.centerMemo = new Map();
  }
  // back to how a fresh build starts (placeCenter moves and folds it again from there)
  sk.center.removeAttribute("style");
  const usedPanel = sk.center.querySelector(".used-panel");
  usedPanel?.style.removeProperty("--cell");
  usedPanel?.classList.remove("folded");
  if (centerKey !== t.centerKeyShown) {
    syncSlices(sk.center, centerSlices(center, ctx), t.centerMemo);
    t.centerKeyShown = centerKey;
  }
  // the hand-end banner likewise (a ready mark coming in does not rebuild it); placeBanner places it again
  let banner = renderBanner(v, t.names);
  if (sk.banner && banner) {
    const kept = morph(sk.banner, banner);
    if (kept !== sk.banner) sk.banner.replaceWith(kept);
    banner = kept;
  } else {
    sk.banner?.remove();
    if (banner) sk.main.insertBefore(banner, sk.phase);
  }
  sk.banner = banner;
  const text = phaseText(v);
  if (sk.phase.textContent !== text) sk.phase.textContent = text;
  // my area, slice by slice: a slice whose inputs did not change (my cards while others act) is neither
  // built nor touched; the others are built and merged into the ones on screen
  if (!sk.me) {
    sk.me = h("div", { class: "me-area", "data-testid": "me-area" });
    sk.screen.append(sk.me);
    t.meMemo = new Map();
  }
  syncSlices(sk.me, meSlices(t, ctx), t.meMemo);
  fitAmounts(sk.me);
  // the side panel (log, rankings) shows on wide screens only (style.css): a phone neither builds it nor
  // rebuilds it per view; the media query's change draws it when the screen widens
  if (wide.matches) {
    const side = sideInputs(v, t.names);
    const sideKey = JSON.stringify(side);
    if (!sk.side || sideKey !== t.sideKey) {
      const panel = renderSidePanel(side, ctx, t);
      if (sk.side) sk.side.replaceWith(panel);
      else sk.screen.append(panel);
      sk.side = panel;
      t.sideKey = sideKey;
    }
  } else if (sk.side) {
    sk.side.remove();
    sk.side = null;
    t.sideKey = null;
  }
  placeTable(t, sk.seats);
  t.keepY = null;
  t.preW = null;
  revealMyTurn(t);
  tick(t.host, t.view);
}

/** After a resize: place the table again unless it is already placed for exactly this size. */
export function onResize(t) {
  const s = t.host.querySelector(".seats");
  const vp = [window.innerWidth, window.innerHeight];
  // the table placed for exactly this size (a render that grew the table or changed my area resizes
  // the host, and has placed everything for the new size already): nothing to do. The layout is clean
  // when observers run, so these reads cost nothing
  const p = t.placed;
  const same = p && s && t.vp && vp[0] === t.vp[0] && vp[1] === t.vp[1]
    && s.clientWidth === p.W && s.clientHeight === p.H;
  fitAmounts(t.host); // (a phone turned: the buttons' widths changed)
  t.vp = vp;
  if (s && !same) placeTable(t, s);
}

// at most this many steps of 24 px (576 px): ten seats in large text (큰 글씨) at 320×568 take up to 20
const GROWTH_STEPS = 24;

/**
 * Seats, centre and banner. On a short phone (700 px high or less) a full table may not fit above my cards and
 * the action bar (320×568 with six players): rather than let seats cover each other, the pot or my cards, the
 * table area grows (24 px at a time) until nothing covers anything, and the page scrolls vertically.
 * Scrolling is the lesser harm: everything stays readable and tappable, and my area sits right below the table.
 */
function placeTable(t, seats) {
  const main = seats.parentElement;
  const screen = main?.parentElement;
  const keepY = t.keepY ?? window.scrollY; // a re-render shrinks the page for a moment: keep the scroll
  main?.style.removeProperty("flex");
  screen?.style.removeProperty("height");
  t.grown = false;
  t.knownH = null;
  for (let k = 0; ; k++) {
    placeSeats(t, seats);
    if (placeCenter(t) === "moved" && main) chipsOffCentre(t, knownParts(t, main));
    placeBanner(t);
    // short phones only (as the CSS's max-height: 700px): a taller screen keeps my area always in view
    // (asked first: the sizes below are read only when needed, each read after a write forces a layout)
    const tall = (t.vp?.[1] ?? window.innerHeight) > 700;
    const W = !main || tall ? 0 : t.placed?.W ?? main.clientWidth;
    // what the table placed, when all of it is known: checked without reading the layout back
    const known = !main || tall || !W || W >= 600 || k >= GROWTH_STEPS ? null : placedTable(t, main);
    if (!main || tall || !W || W >= 600 || k >= GROWTH_STEPS || (known ? placedClear(known) : tableClear(main))) {
      t.knownH = null;
      // scrolled to the top, a page that shrank for a moment is still at the top (reading scrollY would
      // force a layout)
      if (keepY > 0 && window.scrollY !== keepY) window.scrollTo(0, keepY);
      return;
    }
    const H = known ? known.H : main.clientHeight;
    main.style.flex = `0 0 ${H + 24}px`;
    t.knownH = known ? H + 24 : null; // a flex item of a fixed basis: exactly that high
    t.grown = true;
    screen.style.height = "auto";
  }
}

/**
 * Everything placedClear checks, from what this render placed, or null when some of it is not known
 * (desktop, a centre lifted or moved by hand, a banner placed from an older layout).
 */
function placedTable(t, main) {
  const p = t.placed;
  if (!p?.seats || p.gen !== t.seatGen) return null;
  const parts = knownParts(t, main);
  if (!parts) return null;
  const banner = main.querySelector(":scope > .banner");
  if (banner && !(t.bannerBox?.el === banner && t.bannerBox.gen === p.gen
    && t.bannerBox.style === banner.getAttribute("style"))) return null;
  return { W: p.W, H: p.H, band: p.band, seats: p.seats, marks: p.marks, chips: p.chips, rings: p.rings, parts,
    banner: banner ? t.bannerBox.box : null };
}

/**
 * A table grown past the screen (placeTable) leaves my area below the fold: when my turn comes, scroll it
 * into view once (not on every render, so the player can scroll back up to read the table). Once per
 * decision: the check that closes a betting round and the draw that follows at once are two turns, and the
 * second may come with a table that grew. Not the hand's end: its "next hand" waits for nobody (the table
 * goes on by itself), and the result on the table is what to read then.
 */
function revealMyTurn(t) {
  const v = t.view;
  const me = mySeatId(v);
  const decides = me && v.phase !== "handEnd" && (v.pending ?? []).includes(me);
  const turn = decides ? `${v.handNo}|${v.phase}|${v.street}` : null;
  // only a grown table (or a short screen) can push my area below the fold: otherwise no read, no layout
  if (turn && turn !== t.wasMyTurn && (t.grown || (t.vp?.[1] ?? 0) <= 700)) {
    const area = t.host.querySelector("[data-testid=me-area]");
    const r = area?.getBoundingClientRect();
    if (r && r.bottom > window.innerHeight) area.scrollIntoView({ block: "end" });
  }
  t.wasMyTurn = turn;
}
