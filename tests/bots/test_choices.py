"""7 Poker's choice (four cards: one thrown away, one shown): the ``normal`` bot's discard, which is also the
hint's "버림 추천", against the odds tool's equity of every discard (``tests/bots/data/choice_equities.json``,
built by ``scripts/build_choice_equities.py``)."""

from __future__ import annotations

import json
import statistics
from pathlib import Path
from typing import Any

import pytest

from pokerroom import engine
from pokerroom.bots import recommend
from pokerroom.cards import parse_card

DATA = Path(__file__).parent / "data" / "choice_equities.json"
SETS = json.loads(DATA.read_text(encoding="utf-8"))["sets"]


def choice_view(mode: str, codes: list[str]) -> dict[str, Any]:
    """A real choice view of the engine (three players, ``mode``), its four cards replaced by ``codes``."""
    state = engine.setup(["a", "b", "c"], engine.PokerOptions.model_validate({"mode": mode}), seed=1)
    view = engine.view(state, "a")
    cards = [parse_card(c).to_json() for c in codes]
    view["me"]["choice"] = cards
    view["me"]["legalActions"] = [{"type": "choose", "cardIds": [c["id"] for c in cards]}]
    return view


def discarded(mode: str, codes: list[str]) -> str:
    hint = recommend(choice_view(mode, codes))
    assert hint is not None and hint["type"] == "choose"
    return next(c for c in codes if parse_card(c).id == hint["discardId"])


def given_away(entry: dict[str, Any]) -> tuple[float, float]:
    """(the pot share a set's choices give away against the best discard, on average; how often the choice is
    a best one), in points of a pot."""
    losses = []
    for row in entry["hands"]:
        out = discarded(entry["mode"], row["hand"])
        losses.append(max(row["equity"]) - row["equity"][row["hand"].index(out)])
    return 100 * statistics.fmean(losses), sum(loss == 0 for loss in losses) / len(losses)


@pytest.mark.parametrize("entry", [s for s in SETS if s["mode"] == "sevenHiLo"],
                         ids=lambda s: f"against {s['opponents']}")
def test_the_hi_lo_choice_keeps_the_low_cards(entry: dict[str, Any]) -> None:
    """A high-only score threw low cards away to keep kings (2.3-3.0 points of a hi-lo pot a choice, a best
    discard about half the time); weighed for the low, the choice gives away under half a point."""
    lost, best = given_away(entry)
    assert lost < 0.5, f"{lost:.2f} points of a pot given away a choice"
    assert best >= 0.7, f"a best discard in {best:.0%} of the choices"


@pytest.mark.parametrize("entry", [s for s in SETS if s["mode"] == "sevenPoker"],
                         ids=lambda s: f"against {s['opponents']}")
def test_the_seven_poker_choice_stays_near_the_best(entry: dict[str, Any]) -> None:
    """With every straight draw worth the same and the ace only high, the choice gave away 0.38-0.44 points
    of a pot; three in a row are now worth more than three with gaps, and A-2-3 is a draw."""
    lost, best = given_away(entry)
    assert lost < 0.35, f"{lost:.2f} points of a pot given away a choice"
    assert best >= 0.7, f"a best discard in {best:.0%} of the choices"


@pytest.mark.parametrize(("hand", "out"), [
    (["5h", "4h", "8c", "3s"], "8c"),  # 3-4-5 kept: 35.5 points of the pot, 4-5-8: 29.8
    (["6s", "5s", "9c", "7c"], "9c"),  # 5-6-7 kept: 36.4, 6-7-9: 33.6
])
def test_three_in_a_row_are_kept_over_three_with_gaps(hand: list[str], out: str) -> None:
    assert discarded("sevenPoker", hand) == out


@pytest.mark.parametrize("mode", ["sevenPoker", "sevenHiLo"])
def test_the_ace_of_a_back_straight_draw_is_kept(mode: str) -> None:
    """A-2-3-5 draws to the back straight (A-2-3-4-5, §6.2) and, in hi-lo, to the best low; throwing the ace
    away gives up 5 points of a 7 Poker pot and 3 of a hi-lo one (the two or the five: within a point)."""
    assert discarded(mode, ["Ad", "2c", "3d", "5s"]) in ("2c", "5s")


@pytest.mark.parametrize(("hand", "out"), [
    (["Ah", "2c", "3c", "Kd"], "Kd"),  # 46 points of the pot against 29-31 for the others
    (["3h", "Qc", "9d", "5h"], "Qc"),  # 38 against 27-30
    (["Ks", "Ad", "2d", "9c"], "Ks"),  # 40 against 27-32
])
def test_the_hi_lo_choice_throws_the_high_card(hand: list[str], out: str) -> None:
    assert discarded("sevenHiLo", hand) == out
