"""The hint's hold'em equity (:mod:`pokerroom.bots.hint`): within its sampling error of the equity tool's
exact (or large-sample) answer, a pure function of the cards it can see, and computed once per spot."""

from __future__ import annotations

import math
from typing import Any

import pytest

from pokerroom.bots import hint
from pokerroom.bots.situation import situation
from pokerroom.cards import standard_deck
from pokerroom.odds import equity

from .test_mc_exact import _points

DECK = standard_deck()


@pytest.mark.parametrize(("hole", "board", "n_opp"), [
    ((12, 25), (), 1), ((12, 11), (), 3), ((0, 14), (), 5),
    ((12, 25), (3, 17, 30), 2), ((40, 41), (39, 42, 7, 20), 1), ((5, 6), (7, 8, 33, 46, 20), 4),
])
def test_equity_within_error_of_the_tool(hole: tuple[int, int], board: tuple[int, ...], n_opp: int) -> None:
    hint._EQUITY.clear()
    got = hint._estimate(hole, board, n_opp)
    assert len(got) == n_opp
    players = [[DECK[c] for c in hole]] + [[] for _ in range(n_opp)]
    want = equity(players, [DECK[c] for c in board], samples=200_000, seed=1, categories=False).equity[0]
    se = math.sqrt(want * (1 - want) / hint.SAMPLES) + 0.005
    assert abs(got[-1] - want) < 4.5 * se
    assert got == hint._estimate(hole, board, n_opp)  # the same cards, the same deals


def test_one_estimate_per_spot_and_smaller_fields_come_free(monkeypatch: pytest.MonkeyPatch) -> None:
    hint._EQUITY.clear()
    calls: list[int] = []
    real = hint._estimate

    def counting(*args: Any) -> list[float]:
        calls.append(1)
        return real(*args)

    monkeypatch.setattr(hint, "_estimate", counting)
    views = [v for v in _points({"mode": "holdem"}, 6) if v["board"]]
    sit = situation(views[0])
    assert sit is not None
    first = hint.hint_equity(sit)
    assert first is not None and hint.hint_equity(sit) == first and len(calls) == 1
    for k in range(1, len(sit.opponents)):  # every smaller field of the same cards is known already
        sit.opponents = sit.opponents[:k]
        assert hint.hint_equity(sit) is not None
    assert len(calls) == 1


def test_preflop_classes_share_one_estimate() -> None:
    hint._EQUITY.clear()
    views = _points({"mode": "holdem"}, 6)
    sit = situation(views[0])
    assert sit is not None and not sit.board
    a = hint.hint_equity(sit)
    # the same class in other suits (suits permuted): the very same number
    ranks = [c.rank for c in sit.hole]
    suited = sit.hole[0].suit == sit.hole[1].suit
    clubs, hearts = [DECK[39 + r - 2] for r in ranks], [DECK[26 + r - 2] for r in ranks]
    other = clubs if suited else [clubs[0], hearts[1]]
    sit.hole = other
    assert hint.hint_equity(sit) == a


def test_the_post_flop_path_gives_the_general_estimate_bit_for_bit() -> None:
    """One hole after the flop is read from the board's own rows and keys (``_estimate``); the numbers are
    those of the general pass (``_estimate_many``) on the same deals, flushes and ties included."""
    import random

    rnd = random.Random(7)
    for _ in range(300):
        cards = rnd.sample(range(52), 7)
        hole, board = (cards[0], cards[1]), tuple(cards[2 : 2 + rnd.choice((3, 4, 5))])
        n_opp = rnd.randint(1, 9)
        assert hint._estimate(hole, board, n_opp) == hint._estimate_many([hole], board, n_opp)[0]
    flush_board = (0, 1, 2, 3)  # four of a suit: flushes in most deals, mine and theirs
    assert hint._estimate((4, 20), flush_board, 5) == hint._estimate_many([(4, 20)], flush_board, 5)[0]


def _exact_river(hole: tuple[int, int], board: tuple[int, ...]) -> tuple[int, int]:
    """(hands I beat, hands I tie) of the 990 an opponent may hold, by evaluating every one of them."""
    from pokerroom.hands import evaluate7_ids

    mine = evaluate7_ids([*hole, *board])
    unseen = [c for c in range(52) if c not in hole and c not in board]
    wins = ties = 0
    for i, x in enumerate(unseen):
        for y in unseen[i + 1 :]:
            theirs = evaluate7_ids([x, y, *board])
            wins += mine > theirs
            ties += mine == theirs
    return wins, ties


def test_the_river_is_counted_exactly_against_one_opponent() -> None:
    """On the river one opponent's equity is the share of the 990 hands I beat plus half those I tie: the
    board's table (flushes, boards of four of a suit, ties on the board) against a full evaluation."""
    import random

    rnd = random.Random(11)
    spots = [((4, 20), (0, 1, 2, 3, 30)), ((12, 25), (0, 13, 26, 39, 5)), ((5, 6), (7, 8, 9, 10, 11))]
    for _ in range(6):
        cards = rnd.sample(range(52), 7)
        spots.append(((cards[0], cards[1]), tuple(sorted(cards[2:]))))
    for hole, board in spots:
        hint._RIVERS.clear()
        wins, ties = _exact_river(hole, board)
        got = hint._river(hole, board, 1)
        assert got == pytest.approx([(wins + ties / 2) / 990], abs=1e-12), (hole, board)


@pytest.mark.parametrize(("hole", "board", "n_opp"), [
    ((12, 25), (3, 17, 30, 44, 9), 2), ((40, 41), (39, 42, 7, 20, 50), 3), ((5, 6), (7, 8, 33, 46, 20), 5),
])
def test_the_river_against_several_opponents_is_close_to_the_tool(
        hole: tuple[int, int], board: tuple[int, ...], n_opp: int) -> None:
    """Several opponents are taken as independent (their card removal left out): within two points of the
    equity tool's large-sample answer, where the sampled estimate's error is about four."""
    got = hint._river(hole, board, n_opp)
    players = [[DECK[c] for c in hole]] + [[] for _ in range(n_opp)]
    want = equity(players, [DECK[c] for c in board], samples=200_000, seed=1, categories=False).equity[0]
    assert abs(got[-1] - want) < 0.02
    assert got[0] == hint._river(hole, board, 1)[0]  # the first of the fields is one opponent's


def test_a_river_hint_is_counted_not_sampled(monkeypatch: pytest.MonkeyPatch) -> None:
    hint._EQUITY.clear()

    def sampled(*_args: Any) -> list[float]:
        raise AssertionError("the river is counted")

    monkeypatch.setattr(hint, "_estimate", sampled)
    views = [v for v in _points({"mode": "holdem"}, 6) if len(v["board"]) == 5]
    sit = situation(views[0])
    assert sit is not None and sit.opponents
    want = hint._river((sit.hole[0].id, sit.hole[1].id), tuple(sorted(c.id for c in sit.board)),
                       len(sit.opponents))
    assert hint.hint_equity(sit) == want[-1]


def test_a_board_of_three_or_four_aces_gets_its_estimate() -> None:
    """A runout that would make a fifth ace has a rank key past the board index's end: such a flop or turn
    once made the hint fail (an IndexError, so no hint); those runouts are never dealt, and any row stands
    for them."""
    hint._EQUITY.clear()
    got = hint._estimate((0, 14), (12, 25, 38), 3)
    assert len(got) == 3 and 0.0 < got[-1] < got[0] < 1.0
    got = hint._estimate((0, 14), (12, 25, 38, 51), 2)  # four aces on the board: a chop at best
    assert len(got) == 2 and 0.0 < got[0] <= 0.5
