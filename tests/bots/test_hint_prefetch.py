"""A street priced for every live seat in one pass (:mod:`pokerroom.bots.hint_prefetch`,
:mod:`pokerroom.bots.street_views`): the same numbers, the same hints, each seat's spot read from its own
view, and other views asked for only where a street's estimate is missing."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from pokerroom import engine
from pokerroom.bots import Hints, decide, hint, hint_modes, montecarlo, recommend
from pokerroom.bots.street_views import street_spot
from pokerroom.cards import standard_deck
from pokerroom.engine.flow import pending


def _deals(seed: int) -> list[tuple[list[tuple[int, int]], tuple[int, ...], int]]:
    """Seeded random flop, turn and river spots of 1-6 holes; every third from two suits (flushes on most
    rows), some boards with three or four of a rank (aces among them)."""
    pick = random.Random(seed)
    out = []
    for case in range(400):
        cards = pick.sample(range(52) if case % 3 else list(range(26)), 16)
        board_n = pick.choice([3, 4, 5])
        if case % 7 == 0:  # trips or quads on the board, aces every other time
            rank = 12 if case % 14 == 0 else pick.randrange(13)
            rest = [c for c in cards if c % 13 != rank]
            board = ([rank + 13 * s for s in range(4)] + rest)[:board_n]
            cards = [c for c in rest if c not in board]
        else:
            board, cards = cards[:board_n], cards[board_n:]
        holes = [(cards[2 * i], cards[2 * i + 1]) for i in range(pick.randint(1, min(6, len(cards) // 2)))]
        out.append((holes, tuple(sorted(board)), pick.randint(1, 8)))
    return out


def test_one_pass_for_several_holes_gives_each_hole_its_own_estimate() -> None:
    """Bit for bit: a hole's numbers in a pass with others are those of its own pass (the same deals through
    its own unseen cards, the same float sums), on flushing decks and on boards of trips or quads."""
    checked = 0
    for holes, board, n_opp in _deals(3):
        together = hint.estimate_holes(holes, board, n_opp)
        for h, row in zip(holes, together, strict=True):
            assert row == hint._estimate(h, board, n_opp), (h, board, n_opp)
            assert len(row) == n_opp and all(0.0 <= x <= 1.0 for x in row)
            checked += 1
    assert checked > 1000


def test_remember_street_estimates_only_what_is_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    hint._EQUITY.clear()
    board = (3, 17, 30)
    seen: list[list[tuple[int, int]]] = []
    real = hint.estimate_holes

    def counting(holes: list[tuple[int, int]], *args: Any) -> list[list[float]]:
        seen.append(list(holes))
        return real(holes, *args)

    monkeypatch.setattr(hint, "estimate_holes", counting)
    assert hint.remember_street([(12, 25)], board, 3) == 0  # one alone: its own hint estimates it
    assert hint.remember_street([(12, 25), (0, 1), (40, 41)], board, 3) == 3
    assert all(hint.remembered(h, board, k) for h in [(25, 12), (0, 1), (41, 40)] for k in (1, 2, 3))
    assert hint.remember_street([(12, 25), (0, 1), (40, 41), (5, 6)], board, 3) == 0  # one missing
    assert hint.remember_street([(5, 6), (7, 8)], (3, 17, 30, 44, 9), 3) == 0  # the river is counted
    assert seen == [[(12, 25), (0, 1), (40, 41)]]


def _street_views(seed: int, mode: str, players: int) -> list[tuple[dict[str, Any], list[dict[str, Any]]]]:
    """(the deciding seat's view, every other seat's view of the same state) at each decision point of a
    seeded game played by ``easy`` bots."""
    ids = [f"p{i}" for i in range(players)]
    options = engine.PokerOptions.model_validate({"mode": mode, "hints": True})
    state = engine.setup(ids, options, seed=seed)
    out: list[tuple[dict[str, Any], list[dict[str, Any]]]] = []
    now = 0
    while len(out) < 120 and state.phase != "finished":
        actors = pending(state)
        if not actors:
            break
        pid = actors[0]
        view = engine.view(state, pid)
        out.append((view, [engine.view(state, p) for p in ids if p != pid]))
        now += 1000
        state, _ = engine.apply(state, pid, decide(view, "easy", seed=len(out)), now)
    return out


@pytest.mark.parametrize(("mode", "seed", "players"), [
    ("holdem", 5, 6), ("holdem", 21, 6), ("omaha", 5, 6), ("omaha", 8, 6),
    ("sevenPoker", 5, 5), ("sevenPoker", 9, 5), ("sevenHiLo", 5, 5),
])
def test_hints_given_the_other_seats_views_are_the_hints_without(
        mode: str, seed: int, players: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every decision of seeded games: the hint given the other seats' views is the hint a fresh process
    gives without them; every estimate the plain run made is, bit for bit, the one the shared run
    remembered; some street was priced for several seats in one pass; and the other views are asked for
    only where a street's estimate was missing."""
    points = _street_views(seed, mode, players)
    _forget()
    plain = [recommend(view) for view, _ in points]
    plain_estimates = {**hint._EQUITY, **hint_modes._EQUITY}
    _forget()
    passes: list[int] = []
    batched = ((hint, "estimate_holes"), (hint_modes, "omaha_street"), (hint_modes, "seven_street"))
    for module, name in batched:
        real = getattr(module, name)

        def counting(spots: Any, *args: Any, real: Any = real) -> Any:
            passes.append(len(spots))
            return real(spots, *args)

        monkeypatch.setattr(module, name, counting)
    hints = Hints()
    asked = 0
    for (view, others), want in zip(points, plain, strict=True):
        def give(others: list[dict[str, Any]] = others) -> list[dict[str, Any]]:
            nonlocal asked
            asked += 1
            return others

        assert hints.hint_with_others(view, give) == want
    shared_estimates = {**hint._EQUITY, **hint_modes._EQUITY}
    assert plain_estimates and all(shared_estimates[k] == v for k, v in plain_estimates.items())
    assert max(passes) > 1
    assert 0 < asked < sum(1 for view, _ in points if len(view.get("board") or []) >= 3
                           or len(view["me"].get("up") or []) >= 3)


def _forget() -> None:
    hint._EQUITY.clear()
    hint_modes._EQUITY.clear()


def test_one_omaha_pass_gives_each_hole_its_own_hero_equity() -> None:
    """Bit for bit: an Omaha hole's number in a pass with others is the bots' ``hero_equity`` of that hole
    alone from the hint's fixed deals, on every street, flushing decks included."""
    deck = standard_deck()
    pick = random.Random(2)
    checked = 0
    for case in range(300):
        board_n, count = pick.choice([3, 4, 5]), pick.randint(1, 5)
        cards = pick.sample(range(52) if case % 3 else list(range(26)) + pick.sample(range(26, 52), 26),
                            board_n + 4 * count)
        board, holes = cards[:board_n], [tuple(cards[board_n + 4 * i : board_n + 4 * i + 4])
                                         for i in range(count)]
        n_opp = pick.randint(1, 6)
        together = montecarlo.omaha_street(holes, board, n_opp, hint.fixed_deals, hint_modes.SAMPLES)
        for hole, got in zip(holes, together, strict=True):
            alone = montecarlo.hero_equity([[deck[c] for c in hole]] + [[] for _ in range(n_opp)],
                                           [deck[c] for c in board], "omaha", np.random.default_rng(0),
                                           hint_modes.SAMPLES, deals=hint.fixed_deals)
            assert got == alone, (hole, board, n_opp)
            checked += 1
    assert checked > 500


def test_one_seven_poker_pass_gives_each_spot_its_own_hero_equity() -> None:
    """Bit for bit: a 7 Poker spot's number in a pass with the street's other seats is the bots'
    ``hero_equity`` of that spot alone (five to seven cards, folded seats' open cards and each seat's own
    discarded card dead); spots of another shape are refused."""
    deck = standard_deck()
    pick = random.Random(3)
    checked = 0
    for case in range(200):
        count, size = pick.randint(2, 6), pick.choice([5, 6, 7])
        shown = size - 2 - (size == 7)
        cards = pick.sample(range(52) if case % 3 else list(range(26)) + pick.sample(range(26, 52), 26), 52)
        hands = [cards[i * size : (i + 1) * size] for i in range(count)]
        rest = cards[count * size :]
        folded, discards = rest[: pick.randint(0, 3)], rest[3 : 3 + count]
        spots = [([hands[h]] + [hands[o][:shown] for o in range(count) if o != h], [*folded, discards[h]])
                 for h in range(count)]
        if sum(7 - len(k) for k in spots[0][0]) > 52 - sum(map(len, spots[0][0])) - len(spots[0][1]):
            continue
        together = montecarlo.seven_street(spots, hint.fixed_deals, 96)
        for (known, dead), got in zip(spots, together, strict=True):
            alone = montecarlo.hero_equity([[deck[c] for c in k] for k in known], [], "sevenPoker",
                                           np.random.default_rng(0), 96, dead=[deck[c] for c in dead],
                                           deals=hint.fixed_deals)
            assert got == alone, (case, known, dead)
            checked += 1
    assert checked > 500
    with pytest.raises(ValueError):
        montecarlo.seven_street([([[1, 2, 3, 4, 5], [6, 7]], []), ([[8, 9, 10, 11, 12], [13]], [])],
                                hint.fixed_deals, 96)


def test_a_hint_without_a_street_to_price_asks_for_no_other_view() -> None:
    """Preflop, the river (counted) and a street priced already ask for no other view; a folded, all-in or
    out seat has no spot, nor does an Omaha Hi-Lo seat; the hints are the plain ones."""
    def never() -> list[dict[str, Any]]:
        raise AssertionError("other views were built")

    _forget()
    hints = Hints()
    for view, _ in _street_views(5, "holdem", 6)[:60]:
        if len(view.get("board") or []) in (0, 5):
            assert hints.hint_with_others(view, never) == recommend(view)
    points = [(v, o) for v, o in _street_views(21, "holdem", 6) if len(v.get("board") or []) == 3]
    hints.hint_with_others(points[0][0], lambda: points[0][1])
    assert hints.hint_with_others(points[0][0], never) == recommend(points[0][0])  # priced already
    folded = {"mode": "holdem", "board": [{"id": 1}, {"id": 2}, {"id": 3}],
              "me": {"id": "a", "hole": [{"id": 4}, {"id": 5}]},
              "seats": [{"id": "a", "inHand": True, "folded": True}, {"id": "b", "inHand": True},
                        {"id": "c", "inHand": True, "folded": True}, {"id": "d", "inHand": False},
                        {"id": "e", "inHand": True, "allIn": True}]}
    assert street_spot(folded) is None
    folded["seats"][0]["folded"] = False  # type: ignore[index]
    assert street_spot(folded) == ((4, 5), (1, 2, 3), 2)  # b and e (all in: still in the hand)
    folded["seats"][0]["allIn"] = True  # type: ignore[index]
    assert street_spot(folded) is None
    omaha = {**folded, "mode": "omaha", "seats": [*folded["seats"][1:2], {"id": "a", "inHand": True}],
             "me": {"id": "a", "hole": [{"id": i} for i in (4, 5, 6, 7)]},
             "board": [{"id": i} for i in (9, 1, 2, 3, 8)]}
    assert street_spot(omaha) == ((4, 5, 6, 7), (1, 2, 3, 8, 9), 1)  # (Omaha: the river too)
    omaha["options"] = {"omahaHiLo": True}
    assert street_spot(omaha) is None
