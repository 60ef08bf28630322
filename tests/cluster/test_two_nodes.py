"""Two in-process nodes on one Redis prefix and one database: a player on one node acts on a room owned by
the other through the relay, and a room whose owner stops is taken over with every socket re-attached."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
from cluster_inproc import FAST, start_node
from server_helpers import (
    Client,
    play_until_result,
    real_secrets_for,
    reply_to,
    safe_action,
    safe_actor,
    scan_frames,
)

from pokerroom.cluster import messages as M


def _rooms(srv: Any) -> set[str]:
    return set(srv.rooms.rooms)


@contextlib.contextmanager
def _nodes(tmp_path: Path, prefix: str, database: str, **kw: Any) -> Iterator[tuple[Any, Any]]:
    """Nodes A and B on the test's Redis prefix and database, stopped after the test (B first)."""
    a = start_node("A", database, prefix, tmp_path, **kw)
    try:
        b = start_node("B", database, prefix, tmp_path, **kw)
        try:
            yield a, b
        finally:
            b.stop()
    finally:
        a.stop()


def test_relayed_player_acts_on_a_room_owned_by_the_other_node(tmp_path: Path, prefix: str,
                                                              database: str) -> None:
    with _nodes(tmp_path, prefix, database) as (a, b):
        made = a.create_room("방장", mode="holdem", hints=False, handLimit=10)
        code = made["code"]
        assert _rooms(a) == {code} and _rooms(b) == set()  # created where it was asked, A owns it
        info = httpx.get(f"{b.http}/api/rooms/{code}").json()  # B answers for A's room
        assert info["code"] == code and info["players"][0]["nickname"] == "방장"

        async def main() -> dict[str, Any]:
            host = await Client.open(a.ws_url(code), "host")
            await host.hello(token=made["token"])
            guest = await Client.open(b.ws_url(code), "guest")  # on B: relayed to A
            welcome = await guest.hello(nickname="손님")
            assert welcome["role"] == "player" and welcome["token"]
            spectator = await Client.open(b.ws_url(code), "spec")
            await spectator.hello(spectate=True)
            await host.send({"type": "start"})
            result = await play_until_result([host, guest], random.Random(7), timeout=60)
            assert _rooms(b) == set()  # still A's room: every action of the guest crossed the relay
            assert any(f["type"] == "ack" or f.get("ack") for f in guest.frames)
            await spectator.expect("result", timeout=10)
            if not any(f["type"] == "result" for f in guest.frames):  # play_until_result may have read it
                await guest.expect("result", timeout=10)
            # the frame scanner, across nodes: what reached B's sockets is exactly what each may see
            tokens = (made["token"], guest.token or "")
            assert scan_frames(a, code, spectator, lambda v: None, real_secrets_for, tokens) > 0
            assert scan_frames(a, code, guest, lambda v: guest.player_id, real_secrets_for, tokens) > 0
            for c in (host, guest, spectator):
                await c.close()
            return result

        result = asyncio.run(main())
        assert result["type"] == "result"


def test_takeover_when_the_owner_stops_renewing(tmp_path: Path, prefix: str, database: str) -> None:
    """A's lease runs out (its renewals stop): B takes the room over from PostgreSQL and the sockets on B
    get a fresh welcome and view; play goes on against B."""
    with _nodes(tmp_path, prefix, database) as (a, b):
        made = a.create_room("방장", mode="holdem", hints=False, handLimit=10)
        code = made["code"]
        old_token = a.config.topology.leases.owned[code].token

        async def main() -> float:
            host = await Client.open(b.ws_url(code), "host")
            await host.hello(token=made["token"])
            guest = await Client.open(b.ws_url(code), "guest")
            await guest.hello(nickname="손님")
            await host.send({"type": "start"})
            view = await host.expect("view")
            version = view["version"]
            # A stops renewing (as if frozen): its renewal thread stops
            t0 = time.monotonic()
            node_a = a.config.topology
            asyncio.run_coroutine_threadsafe(_stop_renewing(node_a), node_a.loop).result(5)
            welcome = await host.expect("welcome", timeout=10)
            moved = time.monotonic() - t0
            assert welcome["playerId"] == made["playerId"]
            fresh = await host.expect("view", timeout=5)
            assert fresh["version"] >= version
            assert code in _rooms(b)
            # A, made to believe it still owns the room with its old lease (a write stalled across the
            # takeover, before B's "moved" reached it), writes: PostgreSQL refuses the old token, A drops it
            stale = _stale_write(a, code, old_token)
            refused = asyncio.run_coroutine_threadsafe(stale, a.config.topology.loop).result(10)
            assert refused == "cluster_unavailable"
            assert code not in _rooms(a)
            # play goes on against B (the deadlines and the deal came back from PostgreSQL)
            result = await play_until_result([host, guest], random.Random(3), timeout=40)
            assert result["type"] == "result"
            for c in (host, guest):
                await c.close()
            return moved

        moved = asyncio.run(main())
        print(f"takeover: renewals stopped -> fresh welcome on B in {moved:.2f} s (TTL 2 s)")
        assert moved < 2.0 + 2.0


def test_an_action_decided_before_a_takeover_is_applied_after_the_clock_resume(tmp_path: Path, prefix: str,
                                                                              database: str) -> None:
    """The new owner gives back the time the room had no owner as a change of its own (a clock resume, one
    version more) before any socket sees the room. An action decided on the view before the move (the web
    client sends an unanswered one again on its new socket) is still applied, not refused as stale: only the
    deadline moved. One decided before any other change stays stale."""
    with _nodes(tmp_path, prefix, database) as (a, b):
        made = a.create_room("방장", mode="holdem", hints=False, handLimit=10)
        code = made["code"]

        async def main() -> None:
            host = await Client.open(b.ws_url(code), "host")
            await host.hello(token=made["token"])
            guest = await Client.open(b.ws_url(code), "guest")
            await guest.hello(nickname="손님")
            await host.send({"type": "start"})
            await host.expect("view")
            await guest.expect("view")
            picked = safe_actor([host, guest])
            assert picked is not None
            actor, before, move = picked
            other = guest if actor is host else host
            node_a = a.config.topology
            asyncio.run_coroutine_threadsafe(_stop_renewing(node_a), node_a.loop).result(5)
            await actor.expect("welcome", timeout=10)
            fresh = await actor.expect("view", timeout=5)
            assert fresh["version"] == before + 1  # the resume: the deadline moved, nothing else
            assert fresh["view"]["deadlineAt"] > actor.views()[0]["view"]["deadlineAt"]
            await actor.send({"type": "action", "clientMsgId": "decided-before", "version": before,
                              "action": move})
            ack = await reply_to(actor, "decided-before", timeout=10)
            assert ack["type"] == "ack" and ack["version"] == before + 2, ack
            # the other player's move decided on the same old view now meets a real change: stale
            while (seen := other.last("view")) is None or seen["version"] < before + 2:
                await other.expect("view", timeout=5)
            later = safe_action(seen["view"])  # (heads-up: the big blind's check)
            assert later is not None, seen["view"]
            await other.send({"type": "action", "clientMsgId": "too-old", "version": before, "action": later})
            refused = await reply_to(other, "too-old", timeout=10)
            assert refused["type"] == "error" and refused["code"] == "stale_version", refused
            for c in (host, guest):
                await c.close()

        asyncio.run(main())


def test_a_hello_to_a_dead_owner_is_answered_once_the_room_moves(tmp_path: Path, prefix: str,
                                                                  database: str) -> None:
    """A socket reaches the survivor B right after the room's owner A died, while A's lease still stands: its
    hello goes to A, where nobody answers it. Once the lease runs out and B takes the room over, the hello is
    answered there, well before the hello deadline (10 s) would close the socket."""
    with _nodes(tmp_path, prefix, database) as (a, b):
        made = a.create_room("방장", mode="holdem", hints=False, handLimit=10)
        code = made["code"]
        node_a = a.config.topology
        asyncio.run_coroutine_threadsafe(_die(node_a), node_a.loop).result(5)

        async def main() -> float:
            t0 = time.monotonic()
            host = await Client.open(b.ws_url(code), "host")
            await host.send({"type": "hello", "token": made["token"]})
            welcome = await host.expect("welcome", timeout=8)
            answered = time.monotonic() - t0
            assert welcome["playerId"] == made["playerId"]
            await host.expect("lobby", timeout=5)
            assert code in _rooms(b)
            await host.close()
            return answered

        answered = asyncio.run(main())
        print(f"hello to a dead owner answered by the survivor in {answered:.2f} s (TTL 2 s)")
        assert answered < 2.0 + 4.0


def test_the_hello_deadline_waits_for_a_moving_room_not_for_a_silent_client(tmp_path: Path, prefix: str,
                                                                         database: str) -> None:
    """A hello deadline (0.8 s here) shorter than the room's move (its dead owner's lease runs 2 s): the
    socket that said hello is answered by the survivor, never sent ``hello_timeout`` (which the web client
    takes as the end); a socket on the same node that says nothing is still closed at its deadline (4408),
    and so is one whose hello was refused (a bad seat token) and that then stays silent."""
    limits = dataclasses.replace(FAST, hello_timeout_s=0.8)
    with _nodes(tmp_path, prefix, database, limits=limits) as (a, b):
        made = a.create_room("방장", mode="holdem", hints=False, handLimit=10)
        code = made["code"]
        node_a = a.config.topology
        asyncio.run_coroutine_threadsafe(_die(node_a), node_a.loop).result(5)

        async def main() -> float:
            t0 = time.monotonic()
            host = await Client.open(b.ws_url(code), "host")
            silent = await Client.open(b.ws_url(code), "silent")
            await host.send({"type": "hello", "token": made["token"]})
            closed = await silent.expect("_closed", timeout=5)
            assert closed["code"] == 4408
            assert silent.last("error")["code"] == "hello_timeout"  # type: ignore[index]
            assert time.monotonic() - t0 < 2.0, "the silent socket waited for the room too"
            welcome = await host.expect("welcome", timeout=8)
            answered = time.monotonic() - t0
            assert welcome["playerId"] == made["playerId"]
            assert not [f for f in host.frames if f["type"] == "error"], host.frames
            refused = await Client.open(b.ws_url(code), "refused")
            await refused.send({"type": "hello", "token": "x" * 32})
            assert (await refused.expect("error", timeout=5))["code"] == "bad_token"
            closed = await refused.expect("_closed", timeout=5)
            assert closed["code"] == 4408
            await host.close()
            return answered

        answered = asyncio.run(main())
        print(f"hello to a dead owner answered after {answered:.2f} s, past the 0.8 s hello deadline")
        assert answered > 0.8


async def _stop_renewing(node: Any) -> None:
    node._keeper.set()  # the lease renewal thread stops


async def _die(node: Any) -> None:
    """As a killed process: no renewal, no scan, no relay; its leases stay in Redis until their TTL."""
    node._keeper.set()
    for task in node._tasks:
        task.cancel()
    await node.relay.close()


async def _stale_write(srv: Any, code: str, token: int) -> str | None:
    from pokerroom.cluster.lease import Lease
    from pokerroom.server.wire import protocol as P

    node, rooms = srv.config.topology, srv.rooms
    node.leases.owned[code] = Lease(code, token, float("inf"))  # what a stalled node still believes
    if code not in rooms.rooms:  # B's "moved" already made A let it go: take the stale copy back
        rooms.adopt(rooms.store.load(code))
    room = rooms.rooms[code]
    async with room.lock:
        try:
            await rooms.save(room)
        except P.ProtocolError as exc:
            return exc.code
    return None


def test_frames_a_failed_publish_may_have_lost_are_made_good_by_a_whole_view(tmp_path: Path, prefix: str,
                                                                            database: str) -> None:
    """A's publish to B failed after Redis may have taken it (the frames are dropped, never sent twice): the
    guest on B gets a whole view of now, with no change in the room, instead of waiting on an old table for
    a change that may be its own turn's to make."""
    with _nodes(tmp_path, prefix, database) as (a, b):
        made = a.create_room("방장", mode="holdem", hints=False, handLimit=10)
        code = made["code"]

        async def main() -> None:
            host = await Client.open(a.ws_url(code), "host")
            await host.hello(token=made["token"])
            guest = await Client.open(b.ws_url(code), "guest")  # on B: relayed to A
            await guest.hello(nickname="손님")
            await host.send({"type": "start"})
            first = await guest.expect("view")
            await asyncio.sleep(0.3)
            guest.drain()
            room = a.rooms.get(code)
            assert room is not None and room.version == first["version"]
            remote = a.config.topology.remote
            (origin, cid), = [k for k, c in remote.conns.items() if c.player_id == guest.player_id]

            async def lose() -> None:
                remote.frames_lost(origin, [M.Frame(cid, '{"type":"viewDelta"}'), M.Frame(cid, "{}")])

            asyncio.run_coroutine_threadsafe(lose(), a.config.topology.loop).result(5)
            again = await guest.expect("view", timeout=5)
            assert again["version"] == room.version == first["version"]  # a whole view of now; nothing moved
            assert again["view"]["toAct"] == first["view"]["toAct"]
            await asyncio.sleep(0.3)
            assert [f["type"] for f in guest.drain()] == []  # one view for the two lost frames
            for c in (host, guest):
                await c.close()

        asyncio.run(main())
