"""Helpers of the room-server tests: a live uvicorn server in a thread, websocket clients that keep every
frame, the frame scanner and scripted players. (A uniquely named module, not ``conftest``, so importing it
never collides with another directory's conftest.)

The server runs in a thread of the test process so tests can read the truth (every committed state, by
version) and scan every frame each socket received for secrets that viewer must never get.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import uvicorn
import websockets

from pokerroom.server.app import ServerConfig, create_app
from pokerroom.server.room.rooms import Rooms
from pokerroom.server.wire.deltas import apply_delta


class LiveServer:
    """uvicorn serving ``create_app(config)`` in a daemon thread; records every committed state."""

    def __init__(self, config: ServerConfig) -> None:
        self.config = config
        self.app = create_app(config)
        self.port = 0  # uvicorn binds port 0; ``start`` reads back the port it got (no race with others)
        self.server = uvicorn.Server(uvicorn.Config(
            self.app, host="127.0.0.1", port=0, log_level="warning", ws_max_size=64 * 1024,
            lifespan="on", ws_ping_interval=None, ws_per_message_deflate=False))
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.history: dict[tuple[str, int], str] = {}
        self._parsed: dict[tuple[str, int], Any] = {}

    def start(self) -> LiveServer:
        self.thread.start()
        deadline = time.monotonic() + 15
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("server did not start")
            time.sleep(0.01)
        self.port = self.server.servers[0].sockets[0].getsockname()[1]
        # the stored rooms come back behind the start-up (room/startup.py); tests read the rooms directly
        while self.rooms.restorer.left:
            if time.monotonic() > deadline:
                raise RuntimeError("the stored rooms were not restored")
            time.sleep(0.01)
        self.rooms.on_commit = self._record
        return self

    def _record(self, room: Any, version: int, events: list[dict[str, Any]]) -> None:
        self.history[(room.code, version)] = self.rooms.engine.dump_state(room.state)

    @property
    def rooms(self) -> Rooms:
        rooms: Rooms = self.app.state.rooms
        return rooms

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def ws_url(self, code: str) -> str:
        return f"ws://127.0.0.1:{self.port}/ws/{code}"

    def _recorded(self, code: str, version: int) -> str:
        """The committed state at ``version``, as recorded. The server thread records a change (on_commit)
        right after writing its frames, which an idle socket now does at once (WsConnection's direct write),
        and after bumping ``room.version``: a client, or a test reading that version, may be a moment
        earlier."""
        key = (code, version)
        deadline = time.monotonic() + 5.0
        while key not in self.history and time.monotonic() < deadline:
            time.sleep(0.001)
        return self.history[key]

    def state_at(self, code: str, version: int) -> Any:
        key = (code, version)
        if key not in self._parsed:
            text = self._recorded(code, version)
            self._parsed[key] = json.loads(text[1:] if self.config.engine is None else text)
        return self._parsed[key]

    def view_at(self, code: str, version: int, viewer: str | None) -> Any:
        """The engine's own ``view(state, viewer)`` of the committed state at ``version`` (no hint)."""
        engine = self.rooms.engine
        return engine.view(engine.load_state(self._recorded(code, version)), viewer)

    def create_room(self, nickname: str = "방장", **options: Any) -> dict[str, Any]:
        r = httpx.post(f"{self.http}/api/rooms", json={"nickname": nickname, "options": options})
        assert r.status_code == 201, r.text
        data: dict[str, Any] = r.json()
        return data

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


class Client:
    """A websocket client that keeps every frame (for the scanner) and a queue to wait on."""

    def __init__(self, ws: Any, name: str) -> None:
        self.ws = ws
        self.name = name
        self.frames: list[dict[str, Any]] = []
        self.queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.player_id: str | None = None
        self.token: str | None = None
        self.closed_code: int | None = None
        self.held: tuple[int, dict[str, Any]] | None = None  # deltas mode: (version, view) rebuilt so far
        self.resyncs = 0
        self.resync_asked = False
        self.reader = asyncio.get_running_loop().create_task(self._read())

    @classmethod
    async def open(cls, url: str, name: str = "c", **kw: Any) -> Client:
        ws = await websockets.connect(url, max_size=2**22, ping_interval=None, **kw)
        return cls(ws, name)

    async def _read(self) -> None:
        try:
            async for raw in self.ws:
                assert isinstance(raw, str), "the server only sends text frames"
                data = json.loads(raw)
                self.frames.append(data)
                for msg in await self._whole(data):
                    await self.queue.put(msg)
        except websockets.ConnectionClosed:
            pass
        self.closed_code = self.ws.close_code
        await self.queue.put({"type": "_closed", "code": self.ws.close_code})

    async def _whole(self, data: dict[str, Any]) -> list[dict[str, Any]]:
        """What the test code reads: a ``viewDelta`` becomes the whole ``view`` it describes (a gap asks
        ``resync``), and the ``events`` and ``ack`` folded into a view frame are also queued as their own
        ``events`` (before the view) and ``ack`` messages, so tests read the same messages with deltas on or
        off. ``frames`` keeps what was really received."""
        out = [data]
        folded: list[dict[str, Any]] = []
        if data["type"] in ("view", "viewDelta") and "events" in data:  # a delta socket's events ride along
            folded = [{"type": "events", "version": data["version"], "events": data["events"]}]
        if data["type"] == "view":
            self.held = (data["version"], data["view"])
            self.resync_asked = False
        elif data["type"] == "viewDelta":
            if self.held is None or self.held[0] != data["base"]:
                if self.held is not None or not self.resync_asked:  # ask once, until a whole view comes
                    self.resyncs += 1
                    self.resync_asked = True
                    await self.send({"type": "resync"})
                self.held = None
                return folded  # the events still count: they are public and need no base
            self.held = (data["version"], apply_delta(self.held[1], data))
            whole = {"type": "view", "version": data["version"], "serverNow": data["serverNow"]}
            if "seat" in data:
                whole["seat"] = data["seat"]
            out = [{**whole, "view": self.held[1]}]
        if "ack" in data:
            out.append({"type": "ack", "clientMsgId": data["ack"], "version": data["version"]})
        return folded + out

    def views(self) -> list[dict[str, Any]]:
        """Every view message this client held, full or rebuilt from deltas, in order."""
        held: dict[str, Any] | None = None
        out = []
        for f in self.frames:
            if f["type"] == "view":
                held = f["view"]
            elif f["type"] == "viewDelta" and held is not None:
                held = apply_delta(held, f)
            else:
                continue
            out.append({"type": "view", "version": f["version"], "view": held})
        return out

    async def send(self, obj: Any) -> None:
        await self.ws.send(obj if isinstance(obj, str | bytes) else json.dumps(obj))

    async def expect(self, kind: str, timeout: float = 5.0,
                     pred: Callable[[dict[str, Any]], bool] | None = None) -> dict[str, Any]:
        end = time.monotonic() + timeout
        while True:
            left = end - time.monotonic()
            if left <= 0:
                raise AssertionError(f"{self.name}: no {kind!r} frame within {timeout}s")
            msg = await asyncio.wait_for(self.queue.get(), timeout=left)
            if msg["type"] == kind and (pred is None or pred(msg)):
                return msg
            if msg["type"] == "_closed" and kind != "_closed":
                raise AssertionError(f"{self.name}: closed ({msg['code']}) while waiting for {kind!r}")

    async def expect_each(self, kinds: list[str], timeout: float = 5.0) -> list[dict[str, Any]]:
        """One frame of each kind listed (a kind listed twice: two), in whatever order they arrive: frames
        caused by different sockets race, and ``expect`` one kind at a time would skip a later kind's frame
        that came first. Frames of other kinds are skipped."""
        want = list(kinds)
        got: list[dict[str, Any]] = []
        end = time.monotonic() + timeout
        while want:
            left = end - time.monotonic()
            if left <= 0:
                raise AssertionError(f"{self.name}: still no {want} frames within {timeout}s")
            try:
                msg = await asyncio.wait_for(self.queue.get(), timeout=left)
            except TimeoutError:
                raise AssertionError(f"{self.name}: still no {want} frames within {timeout}s") from None
            if msg["type"] in want:
                want.remove(msg["type"])
                got.append(msg)
            elif msg["type"] == "_closed":
                raise AssertionError(f"{self.name}: closed ({msg['code']}) while waiting for {want}")
        return got

    def drain(self) -> list[dict[str, Any]]:
        out = []
        while not self.queue.empty():
            out.append(self.queue.get_nowait())
        return out

    async def hello(self, **kw: Any) -> dict[str, Any]:
        await self.send({"type": "hello", **kw})
        welcome = await self.expect("welcome")
        self.player_id = welcome["playerId"]
        self.token = welcome.get("token", kw.get("token"))
        return welcome

    def last(self, kind: str) -> dict[str, Any] | None:
        for f in reversed(self.frames):
            if f["type"] == kind:
                return f
        return None

    async def close(self) -> None:
        await self.ws.close()
        await asyncio.wait_for(self.reader, 5)


def without_clock(msg: dict[str, Any]) -> dict[str, Any]:
    """A ``view`` message without ``serverNow`` (the send time), to compare what two snapshots show."""
    assert isinstance(msg.get("serverNow"), int), msg.get("type")
    return {k: v for k, v in msg.items() if k != "serverNow"}


async def join(server: LiveServer, code: str, name: str, **hello: Any) -> Client:
    c = await Client.open(server.ws_url(code), name)
    await c.hello(**hello)
    return c


# --- the frame scanner ---------------------------------------------------------------------------------

FORBIDDEN_KEYS = {"deck", "rng", "seed", "digest", "muck", "indian_deck"}


def objects_in(obj: Any) -> Iterator[dict[str, Any]]:
    """Every JSON object anywhere in a JSON value, the value itself included."""
    if isinstance(obj, dict):
        yield obj
        for value in obj.values():
            yield from objects_in(value)
    elif isinstance(obj, list):
        for value in obj:
            yield from objects_in(value)


def cards_in(obj: Any) -> set[tuple[int, str]]:
    """Every visible card (rank, suit) anywhere in a JSON value."""
    return {(o["rank"], o["suit"]) for o in objects_in(obj) if "rank" in o and "suit" in o}


def keys_in(obj: Any) -> set[str]:
    """Every key of every JSON object anywhere in a JSON value."""
    return {key for o in objects_in(obj) for key in o}


def scan_frames(server: LiveServer, code: str, client: Client, viewer: Callable[[int], str | None],
                secrets_for: Callable[[Any, str | None], set[tuple[int, str]]],
                tokens: tuple[str, ...] = ()) -> int:
    """Assert no frame leaked a secret to this client; returns the number of card-bearing frames checked.

    ``viewer(version)`` is whom the client was at that version (a player id, or None for a spectator);
    the forbidden set is computed from the server's true state at the frame's version.
    """
    checked = 0
    held: tuple[int, dict[str, Any]] | None = None  # the view this client holds (deltas rebuilt on it)
    for frame in client.frames:
        if frame["type"] == "view":
            held = (frame["version"], frame["view"])
        elif frame["type"] == "viewDelta":
            # a delta applies to the view the client holds, and the result must be exactly the engine's view
            # for this viewer at that version: then it carried nothing a full view would not carry
            assert held is not None, f"{client.name}: a viewDelta before any view"
            if held[0] == frame["base"]:
                held = (frame["version"], apply_delta(held[1], frame))
                truth = server.view_at(code, frame["version"], viewer(frame["version"]))
                rebuilt = dict(held[1])
                if isinstance(rebuilt.get("me"), dict) and "hint" in rebuilt["me"]:
                    rebuilt["me"] = {k: v for k, v in rebuilt["me"].items() if k != "hint"}
                assert rebuilt == truth, f"{client.name}: delta v{frame['base']}->v{frame['version']} differs"
            else:
                held = None  # a gap: the client asks resync and gets a full view
        text = json.dumps(frame, ensure_ascii=False)
        for token in tokens:
            if token != client.token:
                assert token not in text, f"{client.name} received another seat's token"
        assert not (keys_in(frame) & FORBIDDEN_KEYS), f"{client.name}: server-only key in {frame['type']}"
        cards = cards_in(frame)
        if frame["type"] in ("view", "viewDelta", "events", "result"):
            state = server.state_at(code, frame["version"])
            leaked = cards & secrets_for(state, viewer(frame["version"]))
            where = f"{frame['type']} v{frame['version']}"
            assert not leaked, f"{client.name} got hidden cards {leaked} in {where}"
            checked += bool(cards)
        elif frame["type"] == "history" and "replay" in frame:
            # every step of a replay against the true state at the change that ended the hand (a card
            # secret then — the deck, another's unshown cards — was secret at every step before)
            replay = frame["replay"]
            state = server.state_at(code, replay["version"])
            for step_view in replay_views(replay):
                leaked = cards_in(step_view) & secrets_for(state, viewer(replay["version"]))
                assert not leaked, f"{client.name} got hidden cards {leaked} in the replay of {replay['seq']}"
                checked += bool(cards_in(step_view))
        elif frame["type"] == "history":
            # each hand is checked against the true state at the change that ended it
            for hand in frame["hands"]:
                state = server.state_at(code, hand["version"])
                leaked = cards_in(hand) & secrets_for(state, viewer(hand["version"]))
                assert not leaked, f"{client.name} got hidden cards {leaked} in history hand {hand['handNo']}"
                checked += bool(cards_in(hand))
        else:
            assert not cards, f"{client.name}: cards in a {frame['type']} frame"
    return checked


def replay_views(replay: dict[str, Any]) -> list[dict[str, Any]]:
    """A replay's step views, whole: the first, then each delta applied to the one before (as the client)."""
    views = [replay["first"]]
    for delta in replay["deltas"]:
        views.append(apply_delta(views[-1], delta))
    return views


def real_secrets_for(state: dict[str, Any], viewer: str | None) -> set[tuple[int, str]]:
    """Truth for the real engine's state JSON (src/pokerroom/engine/state.py), poker.md §8.3."""
    out: set[tuple[int, str]] = set()

    def add(cards: Any) -> None:
        for c in cards or []:
            out.add((c["rank"], c["suit"]))

    for c in state.get("indian_deck") or []:
        out.add((c["rank"], c["suit"]))
    hand = state.get("hand")
    if not hand:
        return out
    add(hand.get("deck"))
    indian_end = state["options"]["mode"] == "indian" and hand["phase"] == "handEnd"
    used = {(c["rank"], c["suit"]) for c in state.get("indian_used") or []}
    for pid, hp in hand["players"].items():
        if pid != viewer:
            if not hp.get("shown") and not indian_end:
                add(hp.get("hole"))
            add(hp.get("choice"))
            if hp.get("discarded"):
                add([hp["discarded"]])
        fh = hp.get("forehead")
        if fh and not indian_end and (viewer is None or viewer == pid):
            out.add((fh["rank"], fh["suit"]))
    return out - used if indian_end else out


# --- scripted players ----------------------------------------------------------------------------------


def pick_action(view: dict[str, Any], rnd: Any, all_in: float = 0.2) -> dict[str, Any] | None:
    """A random legal action from ``view.me.legalActions`` (docs/view.md), biased to keep hands short.
    ``all_in`` is how often a no-limit player who neither raised nor folded shoves instead: a test that needs
    an all-in with cards to come (run it twice) raises it, since a table of ten random hands may see none."""
    me = view.get("me") or {}
    acts = me.get("legalActions") or []
    if not acts:
        return None
    by = {a["type"]: a for a in acts}
    if "ready" in by:
        return {"type": "ready"}
    if "choose" in by:
        a, b = rnd.sample(by["choose"]["cardIds"], 2)
        return {"type": "choose", "discardId": a, "openId": b}
    if "draw" in by:
        d = by["draw"]
        n = rnd.randint(d.get("min", 0), min(d.get("max", 0), 3))
        return {"type": "draw", "cardIds": rnd.sample(d["cardIds"], n)}
    if "declare" in by:
        return {"type": "declare", "side": rnd.choice(by["declare"]["sides"])}
    if "rebuy" in by:
        return {"type": "rebuy", "accept": rnd.random() < 0.7}
    if "runTwice" in by:
        return {"type": "runTwice", "agree": rnd.random() < 0.8}
    roll = rnd.random()
    for kind in ("nl.raise",):
        if kind in by and roll < 0.15:
            r = by[kind]
            return {"type": kind, "to": rnd.randint(r["min"], min(r["max"], r["min"] * 3))}
    korean_raises = [t for t in ("k.ping", "k.quarter", "k.half", "k.ddadang") if t in by]
    if korean_raises and roll < 0.25:
        return {"type": rnd.choice(korean_raises)}
    if roll < 0.33 and "nl.allIn" in by and rnd.random() < all_in:
        return {"type": "nl.allIn"}
    for kind in ("k.check", "nl.check", "k.call", "nl.call"):
        if kind in by and roll < 0.92:
            return {"type": kind}
    for kind in ("k.die", "nl.fold", "k.check", "nl.check", "k.call", "nl.call"):
        if kind in by:
            return {"type": kind}
    return {"type": acts[0]["type"]}


async def play_until_result(players: list[Client], rnd: Any, timeout: float = 60.0,
                            on_view: Callable[[Client, dict[str, Any]], Any] | None = None,
                            all_in: float = 0.2) -> dict[str, Any]:
    """Each player acts on every view offering it actions (:func:`pick_action`), until a ``result`` frame
    arrives."""
    result: dict[str, Any] = {}
    counter = 0

    async def run(c: Client) -> None:
        nonlocal counter
        acted = -1
        while not result:
            batch = [await c.queue.get(), *c.drain()]
            for msg in batch:
                if msg["type"] == "result":
                    result.update(msg)
                    return
                if msg["type"] == "_closed":
                    raise AssertionError(f"{c.name} closed: {msg}")
            views = [m for m in batch if m["type"] == "view"]
            if not views:
                continue
            newest = views[-1]  # act on the newest view only, like a person would
            if on_view is not None:
                on_view(c, newest)
            action = pick_action(newest["view"], rnd, all_in) if newest["version"] > acted else None
            if action is not None:
                acted = newest["version"]
                counter += 1
                await c.send({"type": "action", "clientMsgId": f"{c.name}-{counter}",
                              "version": newest["version"], "action": action})

    tasks = [asyncio.ensure_future(run(c)) for c in players]
    try:
        done, _ = await asyncio.wait(tasks, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
        for t in done:
            t.result()
        if not result:
            raise AssertionError("no result before the timeout")
    finally:
        for t in tasks:
            t.cancel()
    return result


# --- a table that plays safe moves (restart, seating and drain tests) -----------------------------------

SAFE = ("ready", "k.check", "nl.check", "k.call", "nl.call")


async def start_table(srv: Any, nicknames: tuple[str, ...] = ("가", "나", "다"), **options: Any
                      ) -> tuple[str, list[Client]]:
    """A room on ``srv`` (a :class:`LiveServer` or a ``pokerroom serve`` process: anything with
    ``create_room`` and ``ws_url``) with one player a nickname, the first the host; started, every player
    holding the first view. Clients are named a, b, c, ... in seat order."""
    room = srv.create_room(nicknames[0], **options)
    code = room["code"]
    players = [await join(srv, code, "a", token=room["token"])]
    players += [await join(srv, code, "abcdefghij"[i], nickname=nick)
                for i, nick in enumerate(nicknames[1:], 1)]
    await players[0].send({"type": "start"})
    for p in players:
        await p.expect("view")
    return code, players


def safe_action(view: dict[str, Any]) -> dict[str, Any] | None:
    """A move that never ends the game early: ready, check or call (None if none is offered)."""
    acts = {a["type"] for a in (view.get("me") or {}).get("legalActions") or []}
    return next(({"type": kind} for kind in SAFE if kind in acts), None)


def safe_actor(players: list[Client]) -> tuple[Client, int, dict[str, Any]] | None:
    """Whoever may make a safe move on the newest view any of them holds: (player, version, move)."""
    latest = [p.last("view") for p in players]
    version = max((v["version"] for v in latest if v), default=None)
    for p, v in zip(players, latest, strict=True):
        if v and v["version"] == version and (action := safe_action(v["view"])) is not None:
            return p, version, action
    return None


async def reply_to(p: Client, cmid: str, timeout: float = 30.0) -> dict[str, Any]:
    """The ``ack`` or ``error`` of ``cmid``, or ``_closed`` if the socket went first."""
    while True:
        msg = await asyncio.wait_for(p.queue.get(), timeout)
        if msg["type"] == "_closed" or (msg["type"] in ("ack", "error") and msg.get("clientMsgId") == cmid):
            return msg


async def safe_step(players: list[Client], cmid: str, timeout: float = 30.0
                    ) -> tuple[Client, dict[str, Any], dict[str, Any]]:
    """One safe move (``clientMsgId`` ``cmid``) by whoever may act on the newest view, acknowledged; returns
    when every player holds the change: (player, move, ack).

    A timeout (say the 4 s hand-end pause on a busy machine) may win the race: then the server answers
    ``stale_version`` and the move is decided again on the newer view."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        found = safe_actor(players)
        if found is None:
            await asyncio.sleep(0.05)
            continue
        p, version, action = found
        await p.send({"type": "action", "clientMsgId": cmid, "version": version, "action": action})
        reply = await reply_to(p, cmid, timeout)
        if reply["type"] != "ack":
            assert reply.get("code") == "stale_version", reply
            continue
        while any((q.last("view") or {}).get("version", -1) < reply["version"] for q in players):
            assert time.monotonic() < end, "a player never got the change"
            await asyncio.sleep(0.005)
        return p, action, reply
    raise AssertionError(f"nobody could make a safe move within {timeout}s")


async def rejoin(srv: Any, code: str, tokens: list[str]) -> list[tuple[Client, dict[str, Any]]]:
    """Every seat back by its token (clients r0, r1, ...), each with the view snapshot it got first."""
    back = []
    for i, token in enumerate(tokens):
        c = await Client.open(srv.ws_url(code), f"r{i}")
        await c.hello(token=token)
        back.append((c, await c.expect("view")))
    return back


async def play_safely_until(players: list[Client], done: Callable[[], bool], timeout: float = 60.0,
                            tag: str = "safe") -> None:
    """Safe moves (:func:`safe_step`) by whoever may act, until ``done()``; ``tag`` starts their
    clientMsgIds (a reused id is answered as a duplicate)."""
    end = time.monotonic() + timeout
    n = 0
    while not done():
        assert time.monotonic() < end, "condition not reached"
        n += 1
        await safe_step(players, f"{tag}{n}", timeout=end - time.monotonic())
