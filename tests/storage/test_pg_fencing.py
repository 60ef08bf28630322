"""Fencing between two nodes on one PostgreSQL: two stores, two connections, real concurrency.

The old owner keeps writing while the new owner claims the room: every batch the old owner committed was
committed before the claim returned, none after, and the log holds exactly the committed ones. A takeover
is "claim, then load": what the new owner loads is final, since the old owner can add nothing more.
"""

from __future__ import annotations

import threading
import time

import pytest

from pokerroom.server.storage import Fenced, LogRow
from pokerroom.server.storage.postgres import PgStore
from services import fresh_database

pytestmark = pytest.mark.timeout(120)


def test_a_claim_cuts_the_old_owner_off_between_two_of_its_batches() -> None:
    with fresh_database("fence") as url:
        old, new = PgStore(url), PgStore(url)
        try:
            old.save("R", {"owner": "old"}, "s", 0, 0, fence=1)
            outcomes: list[tuple[int, float, bool]] = []  # (version, started, committed)
            stop = threading.Event()

            def keep_writing() -> None:
                version = 0
                while not stop.is_set():
                    version += 1
                    started = time.monotonic()
                    row = LogRow(version, "action", "p1", f"c{version}", {"type": "k.call"}, version)
                    try:
                        old.apply_batch([old.prepare_log("R", row, fence=1)])
                        outcomes.append((version, started, True))
                    except Fenced as exc:
                        assert exc.codes == frozenset({"R"})
                        outcomes.append((version, started, False))

            writer = threading.Thread(target=keep_writing)
            writer.start()
            time.sleep(0.5)
            assert new.claim("R", 2)
            claimed = time.monotonic()
            taken = new.load("R")  # takeover: claim, then load
            time.sleep(0.3)
            stop.set()
            writer.join(30)

            committed = [v for v, _, ok in outcomes if ok]
            refused = [v for v, _, ok in outcomes if not ok]
            assert committed and refused, "the old owner wrote both before and after the claim"
            assert max(committed) < min(refused), "once refused, never committed again"
            assert all(started < claimed for _, started, ok in outcomes if ok)
            assert [r.version for r in new.log("R")] == committed
            assert taken is not None and taken.fence == 2
            assert [r.version for r in taken.replay] == committed, "the load after the claim is final"
            new.apply_batch([new.prepare_log("R", LogRow(max(committed) + 1, "timeout", None, None, None, 0),
                                             fence=2)])
        finally:
            old.close()
            new.close()


def test_racing_claims_leave_the_highest_token() -> None:
    with fresh_database("fence") as url:
        stores = [PgStore(url) for _ in range(4)]
        try:
            stores[0].save("R", {}, "s", 0, 0, fence=1)
            wins: list[int] = []
            barrier = threading.Barrier(len(stores))

            def race(store: PgStore, tokens: range) -> None:
                barrier.wait()
                for token in tokens:
                    if store.claim("R", token):
                        wins.append(token)

            threads = [threading.Thread(target=race, args=(store, range(2 + i, 200, len(stores))))
                       for i, store in enumerate(stores)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(60)
            loaded = stores[0].load("R")
            assert loaded is not None and loaded.fence == 199 and 199 in wins
            assert len(wins) == len(set(wins)), "a token wins at most once"
        finally:
            for store in stores:
                store.close()
