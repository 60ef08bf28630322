"""The cheap hints outside hold'em (:mod:`pokerroom.bots.hint_modes`, :mod:`pokerroom.bots.hint_tables`):
their equities agree with the slow ones they replace, their advice is sensible in every mode, and each
decision point costs one estimate at most (docs/decisions/0046-hints-nearly-free.md)."""

from __future__ import annotations

import copy
import math
from typing import Any

import numpy as np
import pytest

from pokerroom.bots import hint_modes, policy, recommend
from pokerroom.bots.hint_tables import omaha_class, omaha_preflop, seven_start
from pokerroom.bots.situation import situation
from pokerroom.bots.strength import _draw_equity, _indian_equity
from pokerroom.cards import d20_deck, standard_deck
from pokerroom.odds import equity

from .test_mc_exact import _points

DECK = standard_deck()
FOLDS = {"nl.fold", "k.die"}
RAISES = {"nl.raise", "nl.allIn", "k.ping", "k.quarter", "k.half", "k.full", "k.ddadang"}


def _point(options: dict[str, Any], facing: bool, players: int = 6) -> dict[str, Any]:
    """A decision point of a seeded game. ``facing``: I may fold, call a bet or raise, and the bet is made a
    big raise (the price half the pot or more, the bettor's last action a raise); else I may open the
    betting."""
    for view in _points(options, players):
        legal = {a["type"]: a for a in view["me"]["legalActions"]}
        call = legal.get("nl.call") or legal.get("k.call")
        if facing and (call is None or not FOLDS & set(legal) or not RAISES & set(legal)):
            continue
        live = [s for s in view["seats"] if s["id"] != view["me"]["id"] and s.get("inHand")
                and not s.get("folded")]
        # not facing: nobody raised yet (blinds or antes at most) and two or more others in the hand (heads-up
        # a hint bluffs now and then)
        if not facing and not (RAISES & set(legal) and len(live) >= 2
                               and not any(s.get("lastAction") in RAISES for s in live)):
            continue
        view = copy.deepcopy(view)
        if facing:
            pot = int(view["potTotal"])
            for a in view["me"]["legalActions"]:
                if a["type"] in ("nl.call", "k.call"):
                    a["amount"] = max(int(a["amount"]), pot // 2)
                    view["me"]["toCall"] = a["amount"]
            live = [s for s in view["seats"] if s["id"] != view["me"]["id"] and s.get("inHand")
                    and not s.get("folded")]
            live[0]["lastAction"] = "nl.raise" if "nl.call" in legal else "k.half"
        return view
    raise AssertionError(f"no such point in {options}")


def _with_cards(view: dict[str, Any], cards: list[int]) -> dict[str, Any]:
    """The view with my cards replaced by ``cards`` (as many hidden and open as I hold there)."""
    out = copy.deepcopy(view)
    hidden, shown = len(out["me"]["hole"]), len(out["me"]["up"])
    hole, up = cards[:hidden], cards[hidden : hidden + shown]
    assert len(hole) + len(up) == hidden + shown
    out["me"]["hole"] = [DECK[c].to_json() for c in hole]
    out["me"]["up"] = [DECK[c].to_json() for c in up]
    for seat in out["seats"]:
        if seat["id"] == out["me"]["id"]:
            seat["up"] = [DECK[c].to_json() for c in up]
        else:  # no card of mine shows elsewhere
            seat["up"] = [c for c in seat.get("up") or [] if c.get("id") not in set(cards)]
    return out


#: (options, strong cards, weak cards); ids are ♠ 0-12, ◆ 13-25, ♥ 26-38, ♣ 39-51 from the deuce up. 7 Poker:
#: four aces and three kings / 2 6 7 9 10 Q K of three suits, as many of them as the point holds.
SEVEN = ([12, 38, 25, 51, 11, 37, 24], [0, 18, 46, 4, 21, 36, 50])
HANDS: list[tuple[dict[str, Any], list[int], list[int]]] = [
    ({"mode": "holdem"}, [12, 38], [5, 26]),
    ({"mode": "omaha"}, [12, 38, 11, 37], [0, 18, 33, 43]),
    ({"mode": "sevenPoker"}, *SEVEN),
    ({"mode": "sevenPoker", "betting": "noLimit"}, *SEVEN),
    ({"mode": "sevenHiLo"}, *SEVEN),
    ({"mode": "badugi"}, [12, 13, 27, 41], [11, 24, 10, 23]),
    ({"mode": "fiveDraw"}, [12, 25, 38, 51, 11], [0, 15, 31, 46, 9]),
]


@pytest.mark.parametrize(("options", "strong", "weak"), HANDS)
def test_the_hint_folds_trash_to_a_big_raise_and_bets_a_monster(
        options: dict[str, Any], strong: list[int], weak: list[int]) -> None:
    view = _point(options, facing=True)
    big = recommend(_with_cards(view, strong))
    small = recommend(_with_cards(view, weak))
    assert big is not None and big["type"] not in FOLDS, (options, big)
    assert small is not None and small["type"] in FOLDS, (options, small)
    view = _point(options, facing=False)
    big = recommend(_with_cards(view, strong))
    small = recommend(_with_cards(view, weak))
    assert big is not None and big["type"] in RAISES, (options, big)
    assert small is not None and small["type"] not in RAISES, (options, small)


def _foreheads(view: dict[str, Any], cards: list[int]) -> dict[str, Any]:
    """The view with the others' foreheads set to these cards of the 20-card deck (A-10 ♠, then ♥)."""
    out = copy.deepcopy(view)
    d20 = d20_deck()
    others = [s for s in out["seats"] if s["id"] != out["me"]["id"] and s.get("inHand")]
    for seat, card in zip(others, cards, strict=False):
        seat["forehead"] = d20[card].to_json()
    out["indianUsed"] = []
    return out


def test_indian_folds_against_the_top_cards_and_raises_against_low_ones() -> None:
    low, top = [0, 10, 1, 11, 2], [9, 19, 0, 1, 2]  # aces and deuces first / both tens first
    options = {"mode": "indian", "indianFoldPenalty": False}
    view = _point(options, facing=True)
    facing_top, facing_low = recommend(_foreheads(view, top)), recommend(_foreheads(view, low))
    assert facing_top is not None and facing_top["type"] in FOLDS, facing_top
    assert facing_low is not None and facing_low["type"] not in FOLDS, facing_low
    opening = recommend(_foreheads(_point(options, facing=False), low))
    assert opening is not None and opening["type"] in RAISES, opening


@pytest.mark.parametrize("cards", [1, 2])
def test_indian_equity_is_the_bots_model_exactly(cards: int) -> None:
    """The exact sum equals the bots' Monte Carlo of the same model within its sampling error."""
    for view in _points({"mode": "indian", "indianCards": cards}, 4)[:12]:
        sit = situation(view)
        if sit is None or not sit.opponents:
            continue
        got = hint_modes.indian_equity(sit)
        want = _indian_equity(sit, np.random.default_rng(1), 20_000)
        assert abs(got - want) < 0.02, (got, want)


def test_five_draw_equity_is_the_bots_model() -> None:
    for view in _points({"mode": "fiveDraw"}, 5):
        sit = situation(view)
        if sit is None or len(sit.hole) != 5 or not sit.opponents:
            continue
        got = hint_modes.five_draw_equity(sit)
        want = _draw_equity(sit, np.random.default_rng(2), 20_000)
        # The table leaves my own five in the deck: a few hundredths mostly, up to a tenth where my pair of
        # aces leaves the opponents' best of three fives fewer aces to pair
        assert got is not None and abs(got - want) < 0.1, (got, want)


@pytest.mark.parametrize(("hole", "n_opp"), [((12, 38, 11, 37), 1), ((0, 13, 26, 39), 1),
                                             ((12, 25, 11, 24), 5), ((3, 4, 30, 45), 3)])
def test_the_omaha_table_is_the_tools_equity(hole: tuple[int, ...], n_opp: int) -> None:
    got = omaha_preflop(hole, n_opp)
    want = equity([[DECK[c] for c in hole]] + [[] for _ in range(n_opp)], [], mode="omaha", samples=20_000,
                  seed=1, categories=False).equity[0]
    se = math.sqrt(want * (1 - want) / 1024) + math.sqrt(want * (1 - want) / 20_000) + 1 / 510
    assert got is not None and abs(got - want) < 4 * se, (got, want)


@pytest.mark.parametrize(("hand", "n_opp"), [((12, 38, 25), 1), ((12, 38, 25), 4), ((0, 18, 46), 3),
                                             ((12, 11, 10, 9), 2), ((0, 13, 5, 31), 5)])
def test_the_seven_poker_tables_are_the_tools_equity(hand: tuple[int, ...], n_opp: int) -> None:
    """Three or four cards of mine against random seven-card hands (512 deals per class in the table)."""
    got = seven_start(hand, n_opp)
    want = equity([[DECK[c] for c in hand]] + [[] for _ in range(n_opp)], [], mode="sevenPoker",
                  samples=20_000, seed=1, categories=False).equity[0]
    se = math.sqrt(want * (1 - want) / 512) + math.sqrt(want * (1 - want) / 20_000) + 1 / 510
    assert got is not None and abs(got - want) < 4 * se, (got, want)


def test_omaha_classes_forget_only_the_suits_names() -> None:
    assert omaha_class((12, 25, 11, 24)) == omaha_class((38, 51, 37, 50))  # A♠A♦K♠K♦ ~ A♥A♣K♥K♣
    assert omaha_class((12, 25, 11, 24)) != omaha_class((12, 25, 24, 37))  # double-suited vs single


@pytest.mark.parametrize("options", [{"mode": "omaha"}, {"mode": "sevenPoker"}, {"mode": "badugi"},
                                     {"mode": "sevenHiLo"}])
def test_one_estimate_per_spot(options: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    """A decision point seen again (a reconnect, another seat's change) estimates nothing new."""
    hint_modes._EQUITY.clear()
    policy._HINTS.clear()
    calls: list[int] = []
    real = hint_modes.mc_equity

    def counting(*args: Any, **kwargs: Any) -> float:
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(hint_modes, "mc_equity", counting)
    views = [v for v in _points(options, 4) if recommend(v) is not None]
    first = len(calls)
    again = [recommend(v) for v in views]
    assert len(calls) == first and again == [recommend(v) for v in views]


def test_a_choice_or_a_draw_is_remembered_by_its_cards(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same cards, the same hint, without a second digest of the view."""
    policy._BY_CARDS.clear()
    views = [v for v in _points({"mode": "badugi"}, 4) + _points({"mode": "sevenPoker"}, 4)
             if v["me"]["legalActions"][0]["type"] in ("choose", "draw")]
    assert views
    first = [recommend(v) for v in views]
    monkeypatch.setattr(policy, "situation", lambda view: pytest.fail("digested again"))
    assert [recommend(v) for v in views] == first


def test_a_hint_holds_only_an_action() -> None:
    """A hint is an action of mine: it names no card but those the action itself names from my hand."""
    for options in ({"mode": "indian"}, {"mode": "omaha"}, {"mode": "fiveDraw"}, {"mode": "sevenHiLo"}):
        for view in _points(options, 4):
            got = recommend(view)
            if got is None:
                continue
            assert set(got) <= {"type", "to", "cardIds", "discardId", "openId", "side", "agree", "accept"}
            mine = {c["id"] for c in (view["me"].get("choice") or []) + view["me"]["hole"]}
            named = set(got.get("cardIds", [])) | {got[k] for k in ("discardId", "openId") if k in got}
            assert named <= mine


def test_the_plain_forehead_weights_are_the_bots_weights() -> None:
    from pokerroom.bots.strength import indian_forehead_weights

    for view in _points({"mode": "indian"}, 5) + _points({"mode": "indian", "indianDeck": "d52"}, 4):
        sit = situation(view)
        if sit is None:
            continue
        deck = d20_deck() if sit.options.get("indianDeck") != "d52" else DECK
        seen = {c.id for c in sit.indian_used + sit.hole}
        seen |= {o.forehead.id for o in sit.opponents if o.forehead}
        unknown = [c for c in deck if c.id not in seen]
        for opp in sit.opponents[:2]:  # a bettor and a caller, whatever they did
            opp.last_action = "nl.raise" if opp is sit.opponents[0] else "nl.call"
        assert np.allclose(hint_modes._forehead_weights(sit, unknown), indian_forehead_weights(sit, unknown))
