// The table's state: what the app handed in with the last view, the player's drafts between views (a raise
// amount, the cards picked to discard, open or draw), and what the screen remembers across renders so a
// render changes only what changed (the skeleton, the regions' memos, the phone layout's measures). Regions
// read it; only the entry (table.js) and the handlers a region's ctx offers write the app's part.

/** Tips closed once stay closed: across renders, tables and reloads (this browser). */
const TIPS_KEY = "pokerroom:tipsSeen";
function loadTipsSeen() {
  try { return new Set(JSON.parse(localStorage.getItem(TIPS_KEY) ?? "[]")); } catch { return new Set(); }
}
export function saveTipsSeen(seen) {
  try { localStorage.setItem(TIPS_KEY, JSON.stringify([...seen])); } catch { /* private mode */ }
}

export function createState(host) {
  return {
    host,
    // from the app, with each view (update): the view and the one before, nicknames, settings, my role, my
    // seat's part of the message (pre-actions), the room's talk switches; busy: an action of mine is on its way
    view: null, prev: null, names: {}, settings: {}, role: null, seatPart: null, social: {}, busy: false,
    lockGen: 0, // bumped by each lock: the controls built while locked are not reused after it
    ui: { key: null }, // my drafts for this decision (takeView)
    tipsSeen: loadTipsSeen(), tipOpen: false, usedOpen: false, palette: null,
    renders: 0, wasMyTurn: null, bets: { key: null, ids: new Map() },
    // the screen across renders: the skeleton (render.js), each region's slice memo, the side panel's key
    sk: null, centerMemo: null, centerKeyShown: null, meMemo: null, ctlBox: null, ctlMemo: null, sideKey: null, rankCache: null,
    // the phone layout (layout.js, center.js, banner.js): sizes read at the start of a render, what was
    // placed where (`placed`, valid for seat generation `seatGen`), and measures kept per content and size
    keepY: null, hostW: 0, vp: null, preW: null, placed: null, seatGen: 0, grown: false, knownH: null,
    seatCache: new Map(), limitsCache: null, fanMemo: null,
    softCache: null, centerMoved: null, centerSizes: null, bannerBox: null, bannerSizes: null,
  };
}

/**
 * Take a view from the app. A new decision (another hand, phase, street, player to act or set of players
 * pending) starts fresh drafts; within one hand and phase the cards picked (choice, draw) are kept.
 */
export function takeView(t, view, ctx) {
  t.prev = t.view;
  t.view = view.phase === "rebuy" ? betweenHands(view) : view;
  t.names = ctx.names ?? {};
  t.settings = ctx.settings ?? {};
  t.role = ctx.role;
  t.busy = !!ctx.busy;
  t.seatPart = ctx.seat ?? null;
  t.social = ctx.social ?? {};
  view = t.view;
  noteBets(t.bets, t.prev, view);
  const key = [view.handNo, view.phase, view.street, view.toAct, (view.pending ?? []).join(",")].join("|");
  if (key !== t.ui.key) {
    t.ui.asking?.abort(); // a question about the decision that is gone (controls.js: folding when a check is free)
    const keepDraft = t.ui.key && t.ui.phase === view.phase && t.ui.handNo === view.handNo;
    t.ui = {
      key, phase: view.phase, handNo: view.handNo,
      raiseOpen: false, raiseTo: null,
      discard: keepDraft ? t.ui.discard : null,
      open: keepDraft ? t.ui.open : null,
      drawSel: keepDraft ? t.ui.drawSel : new Set(),
    };
  }
}

/**
 * The seats whose "nl.raise" this street opened it, a bet (poker.md §5.3: 벳, the first chips into a round
 * with nothing to call; the raise button already says 벳 then), as this table saw it happen: the view names
 * both "nl.raise", and the seat's badge read 레이즈 for every bet after the flop. `bets.ids`: id -> the bet's
 * amount (its committedRound), so a seat that raises again no longer matches; a new street forgets them. Only
 * a view whose one change of chips is that seat's counts: a bet this table did not see made alone (a reload,
 * a bet and a raise inside one view it skipped) keeps the word 레이즈.
 */
export function noteBets(bets, prev, v) {
  const key = `${v.handNo}|${v.street}`;
  if (bets.key !== key) {
    bets.key = key;
    bets.ids = new Map();
  }
  if (v.betting === "korean" || !prev || `${prev.handNo}|${prev.street}` !== key || (prev.currentBet ?? 0) !== 0) return;
  const was = new Map((prev.seats ?? []).map((s) => [s.id, s.committedRound ?? 0]));
  const moved = (v.seats ?? []).filter((s) => (was.get(s.id) ?? 0) !== (s.committedRound ?? 0));
  const [s] = moved;
  if (moved.length === 1 && s.lastAction === "nl.raise" && s.committedRound === v.currentBet) bets.ids.set(s.id, s.committedRound);
}

/** Did this seat's last action open the round (a bet: noteBets), not raise a bet? */
export function isBet(bets, seat) {
  return seat.lastAction === "nl.raise" && bets?.ids.get(seat.id) === seat.committedRound;
}

/**
 * The table while busted players decide on a rebuy: the finished hand is over (its banner was shown at hand
 * end), so nothing of it stays on the felt. The engine's view still carries that hand (its board, shown
 * cards, all-in marks, awards and my hand's name); drawn as they were, the rebuy screen looked like a hand
 * still on with "판돈 0" in the middle. Seats keep their stacks, the dealer button and their status (칩 없음).
 */
export function betweenHands(v) {
  const seat = (s) => ({ ...s, hole: [], up: [], holeCount: 0, shown: false, forehead: null, hasForehead: false,
    lastAction: null, committedRound: 0, allIn: false, folded: false, sb: false, bb: false, boss: false, sun: false });
  return {
    ...v, board: [], board2: [], pots: [], potTotal: 0, showdown: null, awards: null, handNet: null, penalties: [],
    seats: (v.seats ?? []).map(seat),
    me: v.me && { ...v.me, hole: [], up: [], choice: null, chosen: null, discarded: null, forehead: null,
      drawPending: null, declare: null, handName: null, rankName: null, lowName: null, hint: null },
  };
}
