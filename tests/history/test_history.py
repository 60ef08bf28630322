"""Hand histories: the event ledger matches the views; PHH exports replay in pokerkit to the same stacks."""

from __future__ import annotations

from typing import Any

import pytest

import needs
from pokerroom import engine
from pokerroom.bots import decide
from pokerroom.engine.flow import pending
from pokerroom.history import HistoryRecorder, export_phh, summary, to_phh

pokerkit = needs.module("pokerkit")


def _play(mode: str, players: int, seed: int, hand_limit: int = 30, **extra: Any) -> HistoryRecorder:
    ids = [f"p{i}" for i in range(players)]
    state = engine.setup(ids, engine.PokerOptions.model_validate(
        {"mode": mode, "hints": False, "handLimit": hand_limit, "rebuy": "off", **extra}), seed=seed)
    rec = HistoryRecorder(ids, 1000)
    holder: dict[str, Any] = {"s": state}

    def view_of(pid: str | None) -> dict[str, Any]:
        return engine.view(holder["s"], pid)

    rec.begin(view_of)
    now, k = 0, 0
    while holder["s"].phase != "finished":
        actors = pending(holder["s"])
        if not actors:
            break
        pid = actors[0]
        action = decide(view_of(pid), "normal" if k % 3 == 0 else "easy", seed=k, samples=20)
        k += 1
        now += 1000
        holder["s"], events = engine.apply(holder["s"], pid, action, now)
        rec.observe(events, view_of)
    return rec


@pytest.mark.parametrize(("mode", "players", "seed"), [("holdem", 2, 5), ("holdem", 6, 8), ("omaha", 4, 2)])
def test_phh_export_replays_in_pokerkit_to_the_same_stacks(mode: str, players: int, seed: int) -> None:
    rec = _play(mode, players, seed)
    assert len(rec.hands) >= 10
    exports = export_phh(rec.hands)
    assert len(exports) == len(rec.hands)
    for record in rec.hands:
        assert record.ledger_ok, summary(record)
        history = pokerkit.HandHistory.loads(exports[record.hand_no])
        states = list(history)
        expected = [record.finishing_stacks[p] for p in record.order]
        assert list(states[-1].stacks) == expected, exports[record.hand_no]


def test_records_hold_own_cards_actions_and_showdown() -> None:
    rec = _play("sevenPoker", 3, 1, hand_limit=10)
    assert rec.hands
    for record in rec.hands:
        assert record.ledger_ok
        # hidden + open cards, as each owner saw them
        assert all(len(record.own_cards[p]) >= 3 for p in record.order)
        if record.showdown:
            assert all(len(entry["cards"]) == 7 for entry in record.showdown)
    with pytest.raises(ValueError):
        to_phh(rec.hands[0])  # 7 Poker is not representable in PHH


def test_a_late_joiner_is_recorded_with_the_stack_they_brought() -> None:
    """A seat joined between hands starts its ledger at startingChips (the seatJoined event)."""
    ids = ["p0", "p1", "p2"]
    state = engine.setup(ids, {"mode": "holdem", "hints": False, "handLimit": 10}, seed=3)
    rec = HistoryRecorder(ids, 1000)
    holder: dict[str, Any] = {"s": state}

    def view_of(pid: str | None) -> dict[str, Any]:
        return engine.view(holder["s"], pid)

    rec.begin(view_of)
    holder["s"], events = engine.join_seat(holder["s"], "late", 0)
    rec.observe(events, view_of)
    now = 0
    while len(rec.hands) < 3 and holder["s"].phase != "finished":
        pid = pending(holder["s"])[0]
        acts = {a["type"] for a in engine.legal_actions(holder["s"], pid)}
        action = next({"type": t} for t in ("ready", "nl.check", "nl.call", "nl.fold") if t in acts)
        now += 1000
        holder["s"], events = engine.apply(holder["s"], pid, action, now)
        rec.observe(events, view_of)
    first, second = rec.hands[0], rec.hands[1]
    assert "late" not in first.order and "late" in second.order
    assert second.starting_stacks["late"] == 1000
    assert all(h.ledger_ok for h in rec.hands)


def test_omaha_hi_lo_records_are_marked_and_not_exported_as_high_only_omaha() -> None:
    """PHH's "PO" is pot-limit Omaha *high*: an Omaha Hi-Lo hand exported as it would replay to other stacks,
    so the export refuses it (PHH has only a fixed-limit Omaha Hi-Lo)."""
    from pokerroom.history import HandRecord

    rec = _play("omaha", 3, 4, hand_limit=10, omahaHiLo=True)
    assert rec.hands and all(r.hi_lo and r.ledger_ok for r in rec.hands)
    assert any(a.get("side") == "low" for r in rec.hands for a in r.awards)
    again = HandRecord.from_json(rec.hands[0].to_json())
    assert again.hi_lo and again.to_json() == rec.hands[0].to_json()
    with pytest.raises(ValueError, match="오마하 하이로우"):  # the replay shows the reason in Korean
        to_phh(rec.hands[0])
    assert export_phh(rec.hands) == {}  # "every exportable record": none
    plain = _play("omaha", 2, 2, hand_limit=10)
    assert "hiLo" not in plain.hands[0].to_json() and not plain.hands[0].hi_lo


def test_hold_em_house_options_are_recorded_but_not_exported_to_phh() -> None:
    """Antes, straddles and run it twice (docs/rules-extensions.md): every hand's ledger of events still
    matches its stacks, a record's board is the first board (the second run stays in its events), and no
    such hand is exported to PHH, which this export does not write them to."""
    rec = _play("holdem", 5, 3, hand_limit=10, ante="bigBlind", straddle=True, runItTwice=True)
    assert len(rec.hands) >= 10
    for record in rec.hands:
        assert record.ledger_ok, summary(record)
        assert len(record.board) <= 5
        with pytest.raises(ValueError, match="앤티, 스트래들, 두 번 돌리기"):
            to_phh(record)
    assert export_phh(rec.hands) == {}


def test_a_hand_run_twice_records_its_first_board() -> None:
    ids = ["p0", "p1"]
    holder: dict[str, Any] = {"s": engine.setup(ids, {"mode": "holdem", "runItTwice": True}, seed=4)}

    def view_of(pid: str | None) -> dict[str, Any]:
        return engine.view(holder["s"], pid)

    rec = HistoryRecorder(ids, 1000)
    rec.begin(view_of)
    actions: list[dict[str, Any]] = [{"type": "nl.allIn"}, {"type": "nl.call"}]
    actions += [{"type": "runTwice", "agree": True}] * 2
    for k, action in enumerate(actions):
        pid = pending(holder["s"])[0]
        holder["s"], events = engine.apply(holder["s"], pid, action, k)
        rec.observe(events, view_of)
    (record,) = rec.hands
    assert record.ledger_ok and len(record.board) == 5
    second = [e for e in record.events if e.get("type") == "board" and e.get("run") == 2]
    assert [len(e["cards"]) for e in second] == [3, 1, 1]
    assert export_phh(rec.hands) == {}
