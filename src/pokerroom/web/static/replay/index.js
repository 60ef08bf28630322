// The replayer's ties to the room (app.js calls these): `history` answers (a page joins room.history, a replay
// goes on screen), the 지난 판 list's hooks (다시 보기, 더 보기, PHH 불러오기), the `/r/<code>?hand=<seq>` link,
// and the refusals that concern a replay being awaited. A hand is asked for once and kept (per seq and version).

import { tx } from "../i18n.js";
import { toast } from "../dialogs.js";
import { modeName } from "../options.js";
import { importPhh } from "./importer.js";
import { isOpen, showNote, showReplay } from "./screen.js";

const cache = new Map(); // `${code}:${seq}` -> replay (its version tells an amended hand apart)
let waiting = null; // {room, seq}: asked for, not yet answered
let retry = null; // a history_rate refusal's timer

/** The share link of hand `seq`: the room's invite link (the server's address, not this page's) + ?hand=. */
function handLink(room, seq) {
  const base = room.link ?? `${location.origin}/r/${room.code}`;
  return `${base}${base.includes("?") ? "&" : "?"}hand=${seq}`;
}

/** Keep the address bar on the hand shown (a reload or a shared address opens it), or back on the room. */
function address(room, seq) {
  const path = `/r/${room.code}${seq ? `?hand=${seq}` : ""}`;
  if (location.pathname + location.search !== path) history.replaceState(history.state, "", path);
}

function ask(room, seq) {
  clearTimeout(retry);
  waiting = { room, seq };
  if (!room.conn?.send({ type: "history", hand: seq })) {
    waiting = null;
    showNote(tx("replay_index.1", [seq]), tx("replay_index.2"));
  }
}

/** Open hand `seq` of the room in the replayer (from the list, or a link). */
export function open(room, seq) {
  const listed = (room.history ?? []).find((hand) => hand.seq === seq);
  const hit = cache.get(`${room.code}:${seq}`);
  address(room, seq);
  if (hit && (!listed || listed.version === hit.version)) { show(room, hit); return; }
  showNote(listed ? tx("history.17", [listed.handNo]) : tx("replay_index.3"), tx("history.25"), () => onClosed(room));
  ask(room, seq);
}

function onClosed(room) {
  waiting = null;
  clearTimeout(retry);
  if (room.conn) address(room, null);
}

function show(room, replay) {
  const mine = room.role === "player" && (replay.players ?? []).includes(room.playerId);
  const game = room.lobby?.gameNo != null && replay.gameNo !== room.lobby.gameNo ? tx("replay_index.4", [replay.gameNo]) : "";
  showReplay(replay, {
    title: tx("history.17", [replay.handNo]), sub: `${game}${modeName(replay.mode)}${mine ? "" : tx("replay_index.5")}`,
    names: room.names(), role: mine ? "player" : "spectator", playerId: mine ? room.playerId : null,
    link: handLink(room, replay.seq), fileName: `pokerroom-${room.code}-${replay.seq}.phh`, onClose: () => onClosed(room),
  });
}

/**
 * A `history` message: a replay goes on screen (if still awaited) and false is returned; a page joins
 * room.history (the newest page replaces it, an older one is appended) and true is returned (redraw the list).
 */
export function take(room, m) {
  if (m.replay) {
    cache.set(`${room.code}:${m.replay.seq}`, m.replay);
    if (waiting && waiting.room === room && waiting.seq === m.replay.seq && isOpen()) {
      waiting = null;
      show(room, m.replay);
    }
    return false;
  }
  const hands = m.hands ?? [];
  if (m.before == null) room.history = hands;
  else {
    const seen = new Set((room.history ?? []).map((hand) => hand.seq));
    room.history = [...(room.history ?? []), ...hands.filter((hand) => !seen.has(hand.seq))];
  }
  room.historyMore = !!m.more;
  return true;
}

/** A refusal while a replay is awaited: history_rate waits and asks again, no_such_hand says so. */
export function refused(m) {
  if (!waiting || !isOpen()) return false;
  const { room, seq } = waiting;
  if (m.code === "history_rate") {
    const wait = Math.max(1, m.retryAfter ?? 2);
    showNote(tx("replay_index.1", [seq]), tx("replay_index.6", [wait]), () => onClosed(room));
    retry = setTimeout(() => { if (isOpen()) ask(room, seq); }, wait * 1000);
    return true;
  }
  if (m.code === "no_such_hand") {
    waiting = null;
    showNote(tx("replay_index.1", [seq]), m.message, () => onClosed(room));
    return true;
  }
  return false;
}

/** The 지난 판 list's hooks (history.js pastHandsView). */
export function listHooks(room) {
  return {
    onReplay: (seq) => open(room, seq),
    more: !!room.historyMore,
    onMore: () => {
      const last = room.history?.[room.history.length - 1];
      if (last && !room.conn?.send({ type: "history", before: last.seq })) toast(tx("app.19"));
    },
    onImport: () => importPhh((replay) => showReplay(replay, {
      title: tx("replay_index.7"), sub: tx("replay_index.8", [modeName(replay.mode)]), names: replay.names ?? {},
      role: "spectator", playerId: null, link: null, fileName: "pokerroom-imported.phh", imported: true,
    })),
  };
}

let linked = null; // the room the address's hand was opened for (a second welcome must not open it again)

/** After joining: a `?hand=<seq>` address opens that hand (once per room the page enters). */
export function fromLink(room) {
  if (linked === room) return;
  linked = room;
  const seq = Number(new URLSearchParams(location.search).get("hand"));
  if (Number.isInteger(seq) && seq > 0) open(room, seq);
}
