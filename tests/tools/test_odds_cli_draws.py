"""The odds command for five-card draw, badugi and Indian poker: the numbers it prints against exhaustive
enumeration written out by hand (nested loops over every card that can come, scalar evaluators)."""

from __future__ import annotations

import itertools

import pytest

from pokerroom.cards import d20_deck, parse_cards
from pokerroom.hands import badugi4, evaluate_ids, indian
from pokerroom.tools import odds_cli

from .test_cli import _row, _run


def _equity_of_first(values: list[list[int]]) -> float:
    total = 0.0
    for row in values:
        best = max(row)
        total += 1.0 / row.count(best) if row[0] == best else 0.0
    return 100 * total / len(values)


def test_five_card_draw(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["odds", "9s8s7s6d", "KcKdQh2c", "--mode", "fiveDraw", "--no-progress"]
    code, out = _run(odds_cli, argv, capsys)
    assert code == 0 and "exact enumeration" in out
    mine, theirs = parse_cards("9s 8s 7s 6d"), parse_cards("Kc Kd Qh 2c")
    unseen = [c for c in range(52) if c not in {x.id for x in mine + theirs}]
    rows = [[evaluate_ids([*(x.id for x in mine), a]), evaluate_ids([*(x.id for x in theirs), b])]
            for a, b in itertools.permutations(unseen, 2)]
    assert _row(out, "9♠ 8♠ 7♠ 6◆")[2] == pytest.approx(_equity_of_first(rows), abs=0.006)
    outs = sum(1 for a in unseen if evaluate_ids([*(x.id for x in mine), a]) >> 20 > 0)
    assert f"Outs: {outs} of {len(unseen)}" in out


def test_badugi_one_draw(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = _run(odds_cli, ["odds", "As2d3h", "KsQdJh", "--mode", "badugi", "--no-progress"], capsys)
    assert code == 0 and "exact enumeration" in out
    mine, theirs = parse_cards("As 2d 3h"), parse_cards("Ks Qd Jh")
    unseen = [c for c in range(52) if c not in {x.id for x in mine + theirs}]
    rows = [[badugi4(*(x.id for x in mine), a), badugi4(*(x.id for x in theirs), b)]
            for a, b in itertools.permutations(unseen, 2)]
    assert _row(out, "A♠ 2◆ 3♥")[2] == pytest.approx(_equity_of_first(rows), abs=0.006)
    made = sum(1 for a in unseen if badugi4(*(x.id for x in mine), a) >> 13 == 4)
    assert _row(out, "메이드")[0] == pytest.approx(100 * made / len(unseen), abs=0.006)


@pytest.mark.parametrize("cards", [1, 2])
def test_indian(cards: int, capsys: pytest.CaptureFixture[str]) -> None:
    me = "7s" if cards == 2 else "random"
    code, out = _run(odds_cli, ["odds", me, "5s", "9h", "--mode", "indian", "--cards", str(cards),
                                "--no-progress"], capsys)
    assert code == 0 and "exact enumeration" in out
    deck = {c.code: c for c in d20_deck()}
    mine = [deck["7s"]] if cards == 2 else []
    seen = [deck["5s"], deck["9h"]]
    unseen = [c for c in d20_deck() if c not in mine + seen]
    rows = []
    for deal in itertools.permutations(unseen, 1 + (2 if cards == 2 else 0)):
        hands = [[*mine, deal[0]]] + [[s, deal[i + 1]] if cards == 2 else [s] for i, s in enumerate(seen)]
        rows.append([indian(h).key for h in hands])
    label = "7♠" if cards == 2 else "(random)"
    assert _row(out, label)[2] == pytest.approx(_equity_of_first(rows), abs=0.006)


def test_draw_modes_refuse_a_board(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = _run(odds_cli, ["odds", "As2d3h", "random", "--mode", "badugi", "--board", "4c",
                                "--no-progress"], capsys)
    assert code == 2 and "no board" in out
