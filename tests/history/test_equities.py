"""Each shown hand's equity on every street of the replay: the project's odds, exact where the completions
are few, cross-checked against pokerkit's evaluator (the oracle) by enumerating the board's completions."""

from __future__ import annotations

import itertools
from fractions import Fraction

import needs
from pokerroom.cards import standard_deck
from pokerroom.history.equities import street_equity
from pokerroom.history.phh_import import import_phh


def _enumerated(holes: list[list[str]], board: list[str]) -> list[Fraction]:
    """Each hand's pot share over every completion of the board, by pokerkit's hand evaluation."""
    pokerkit = needs.module("pokerkit")
    used = {c for h in holes for c in h} | set(board)
    rest = [c.code for c in standard_deck() if c.code not in used]
    shares = [Fraction(0)] * len(holes)
    deals = 0
    for more in itertools.combinations(rest, 5 - len(board)):
        full = "".join(board) + "".join(more)
        values = [pokerkit.StandardHighHand.from_game("".join(h), full) for h in holes]
        best = max(values)
        winners = [i for i, v in enumerate(values) if v == best]
        for i in winners:
            shares[i] += Fraction(1, len(winners))
        deals += 1
    return [s / deals for s in shares]


def test_exact_streets_agree_with_the_oracle() -> None:
    rec = import_phh((needs.phh_hands() / "dwan-ivey-2009.phh").read_text(encoding="utf-8")).record
    got = street_equity(rec)
    assert got is not None and got["players"] == ["p1", "p3"]
    assert [s["street"] for s in got["streets"]] == ["프리플랍", "플랍", "턴", "리버"]
    assert [s["exact"] for s in got["streets"]] == [False, True, True, True]  # 1.7 M preflop boards: sampled
    holes = [["Ac", "2d"], ["7h", "6h"]]
    board = ["Jc", "3d", "5c", "4h", "Jh"]
    for street, count in zip(got["streets"][1:], (3, 4, 5), strict=True):
        want = _enumerated(holes, board[:count])
        assert street["equity"] == [round(float(x), 4) for x in want], street["street"]
    assert abs(got["streets"][0]["equity"][0] - 0.5) < 0.03  # A2o against 76s: about even
    assert street_equity(rec) == got  # seeded: the same hand always shows the same numbers


def test_only_shown_hands_of_board_games() -> None:
    rec = import_phh("""variant = "NT"
antes = [0, 0]
blinds_or_straddles = [1, 2]
min_bet = 2
starting_stacks = [100, 100]
actions = ["d dh p1 AsAd", "d dh p2 KsKd", "p2 cbr 6", "p1 f"]
""").record
    assert street_equity(rec) is None  # nobody was shown
