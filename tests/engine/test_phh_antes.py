"""Real hands with antes (tests/engine/data/phh_antes, PHH) replayed through the engine with the ante option.

Why: the antes must move chips exactly as in real play. Each hand is set up as PHH describes it (the
players in PHH order from the small blind, which is the engine's order from the seat after the dealer; the
starting stacks; the big blind as the base unit; the ante as ``ante`` and ``antePercent``), the recorded
hole and board cards are rigged into the deck, every recorded action is sent, and the final stacks must be
the PHH's ``finishing_stacks`` (and pokerkit's, the test oracle, which replays the same file; the one hand
without ``finishing_stacks`` is checked against pokerkit alone). A control replays each hand without the ante
option: most hands must then end differently (or become illegal), so the match is the ante's doing.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest
from engine_support import place

import needs
from pokerroom.cards import Card, parse_card, standard_deck
from pokerroom.engine import State, apply, setup, view
from pokerroom.engine.flow import start_hand
from pokerroom.engine.state import Seat
from pokerroom.rejections import Rejected

DATA = Path(__file__).with_name("data") / "phh_antes"
HANDS = sorted(DATA.glob("*.phh"))
VARIANTS = {"NT": ("holdem", "noLimit"), "PO": ("omaha", "potLimit")}


def _cards(text: str) -> list[Card]:
    return [parse_card(text[i:i + 2]) for i in range(0, len(text), 2)]


def ante_options(hand: dict[str, Any]) -> dict[str, Any]:
    """How the PHH fields read as our options: antes of all players alike are ``everyone``; an ante in the
    second position alone (the big blind) is ``bigBlind``; the size as a percent of the big blind."""
    antes, big_blind = hand["antes"], hand["blinds_or_straddles"][1]
    if len(set(antes)) == 1:
        kind, amount = "everyone", antes[0]
    else:
        assert [a for k, a in enumerate(antes) if k != 1] == [0] * (len(antes) - 1), antes
        kind, amount = "bigBlind", antes[1]
    percent, rest = divmod(amount * 100, big_blind)
    assert rest == 0, "an ante that is not a whole percent of the big blind"
    return {"ante": kind, "antePercent": percent}


def replay(hand: dict[str, Any], *, with_ante: bool = True) -> State:
    """The PHH hand played by the engine (see the module docstring); ``with_ante=False`` is the control."""
    stacks = [int(x) for x in hand["starting_stacks"]]
    n = len(stacks)
    assert n >= 3, "heads-up PHH orders its blinds the other way round"
    mode, betting = VARIANTS[hand["variant"]]
    ids = [f"p{k + 1}" for k in range(n)]
    opts = {"mode": mode, "betting": betting, **(ante_options(hand) if with_ante else {})}
    state = setup(ids, opts, seed=1)
    state.seats = [Seat(pid, k, st, start_chips=st)
                   for k, (pid, st) in enumerate(zip(ids, stacks, strict=True))]
    state.first_dealer_seat = n - 1
    state.base_unit = hand["blinds_or_straddles"][1]
    assert hand["blinds_or_straddles"][0] == state.base_unit // 2 and hand["min_bet"] == state.base_unit
    state.hand = None
    start_hand(state, 0, [])
    live = state.hand
    assert live is not None and live.order == ids
    holes: dict[str, list[Card]] = {}
    board: list[Card] = []
    for line in hand["actions"]:
        words = line.split()
        if words[:2] == ["d", "dh"] and "?" not in words[3]:
            holes[words[2]] = _cards(words[3])
        elif words[:2] == ["d", "db"]:
            board += _cards(words[2])
    for pid, cards in holes.items():
        for k, card in enumerate(cards):
            place(state, (live.players[pid].hole, k), card)
    spare = iter(c for c in standard_deck() if c not in board and all(c not in h for h in holes.values()))
    top = [next(spare), *board[:3], next(spare), *board[3:4], next(spare), *board[4:5]]
    for k, card in enumerate(top):
        place(state, (live.deck, k), card)
    for line in hand["actions"]:
        words = line.split()
        if words[0] == "d" or words[1] in ("sm", "sd"):
            continue  # dealt cards are rigged above; shown hands are shown by the engine
        pid, kind = words[0], words[1]
        legal = {a["type"]: a for a in view(state, pid)["me"]["legalActions"]}
        if kind == "f":
            action: dict[str, Any] = {"type": "nl.fold"}
        elif kind == "cc":
            action = {"type": "nl.check" if "nl.check" in legal else "nl.call"}
        else:
            assert kind == "cbr", line
            to = int(words[2])
            shove = legal.get("nl.allIn")
            action = {"type": "nl.allIn"} if shove and shove["to"] == to else {"type": "nl.raise", "to": to}
        state, _ = apply(state, pid, action, 0)
    return state


def ended(state: State) -> bool:
    return state.hand is not None and state.hand.phase == "handEnd"


def final(state: State) -> list[int]:
    return [s.stack for s in sorted(state.seats, key=lambda s: s.seat)]


def pokerkit_final(path: Path) -> list[int]:
    pokerkit = needs.module("pokerkit")
    states = list(pokerkit.HandHistory.loads(path.read_text(encoding="utf-8")))
    return [int(x) for x in states[-1].stacks]


def test_the_ante_hands_are_the_expected_nineteen() -> None:
    hands = {p.name: tomllib.loads(p.read_text(encoding="utf-8")) for p in HANDS}
    kinds = sorted(ante_options(h)["ante"] + f"/{h['variant']}/{ante_options(h)['antePercent']}"
                   for h in hands.values())
    assert len(hands) == 19
    assert kinds == ["bigBlind/NT/150"] * 11 + ["bigBlind/PO/100"] * 7 + ["everyone/NT/25"]


@pytest.mark.parametrize("path", HANDS, ids=[p.stem for p in HANDS])
def test_phh_hand_with_antes_replays_to_its_final_stacks(path: Path) -> None:
    hand = tomllib.loads(path.read_text(encoding="utf-8"))
    state = replay(hand)
    assert ended(state)
    got = final(state)
    if "finishing_stacks" in hand:
        assert got == [int(x) for x in hand["finishing_stacks"]]
    assert got == pokerkit_final(path)
    assert sum(got) == sum(int(x) for x in hand["starting_stacks"])


def test_without_the_ante_option_most_hands_end_elsewhere() -> None:
    """The control: without the ante most hands end with other stacks, or do not end (a recorded all-in is
    no longer one), or meet an action the pot limit no longer allows; the others are hands where the
    antes come back to whoever paid them."""
    differ = 0
    for path in HANDS:
        hand = tomllib.loads(path.read_text(encoding="utf-8"))
        want = [int(x) for x in hand.get("finishing_stacks") or pokerkit_final(path)]
        try:
            state = replay(hand, with_ante=False)
        except Rejected:
            differ += 1
            continue
        differ += not ended(state) or final(state) != want
    assert differ == 15
