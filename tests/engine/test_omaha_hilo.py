"""Omaha Hi-Lo (``omahaHiLo``, docs/rules-extensions.md) through the engine: the option, the showdown split
(cards speak), quartered lows, a pot without a low, side pots, the views, the log and the hint."""

from __future__ import annotations

from typing import Any

import pytest
from engine_support import cards, check_cards, check_chips, rig

from pokerroom.engine import PokerOptions, apply, setup, view
from pokerroom.engine.state import State
from pokerroom.rejections import Rejected


def _game(n: int, seed: int = 1, **opts: Any) -> State:
    return setup([f"p{i}" for i in range(n)], {"mode": "omaha", "omahaHiLo": True, **opts}, seed=seed)


def _three_way(**holes: str) -> tuple[State, str, str, str]:
    """Three players of ``_game(3)``: the small blind, the big blind and the button (``hand.order``), each
    hole (by ``sb``, ``bb``, ``btn``) rigged and the board 2c 5d 8h | Kc | Ks (burns in between)."""
    s = _game(3)
    hand = s.hand
    assert hand is not None
    sb, bb, btn = hand.order
    seat = {"sb": sb, "bb": bb, "btn": btn}
    rig(s, deck=cards("9s 2c 5d 8h Js Kc Qs Ks"), **{seat[role]: cards(hole) for role, hole in holes.items()})
    return s, sb, bb, btn


def _play_down(state: State) -> State:
    """Everybody calls or checks until the hand ends."""
    now = 0
    while state.hand is not None and state.hand.phase == "betting":
        assert state.hand.rnd is not None and state.hand.rnd.to_act is not None
        pid = state.hand.rnd.to_act
        kinds = {a["type"] for a in view(state, pid)["me"]["legalActions"]}
        now += 100
        state, _ = apply(state, pid, {"type": "nl.check" if "nl.check" in kinds else "nl.call"}, now)
    return state


def _awards(state: State) -> list[tuple[str, int, str]]:
    return sorted((a["to"], a["amount"], a["side"]) for a in view(state, None)["awards"])


def test_option_is_a_switch_off_by_default_and_ignored_outside_omaha() -> None:
    assert PokerOptions().omaha_hi_lo is False
    assert PokerOptions.from_json({"mode": "omaha", "omahaHiLo": True}).to_json()["omahaHiLo"] is True
    with pytest.raises(Rejected, match="옵션 값이 올바르지 않아요: omahaHiLo"):
        PokerOptions.from_json({"mode": "omaha", "omahaHiLo": "yes"})
    # holdem with the switch on is plain holdem: no low anywhere
    s = setup(["a", "b"], {"mode": "holdem", "omahaHiLo": True}, seed=2)
    s = _play_down(s)
    shown = view(s, None)["showdown"]
    assert shown and all("lowName" not in e and "lowBest" not in e for e in shown)
    assert all(a["side"] is None for a in view(s, None)["awards"])


def test_high_and_low_split_the_pot_with_the_odd_chip_to_the_high() -> None:
    # board 2c 5d 8h | Kc | Ks (burns in between); btn: the only low (A-3: 8-5-3-2-A), bb: kings full
    s, sb, bb, btn = _three_way(btn="Ah 3s Td Tc", bb="Kh Kd 9c 9h", sb="Jh Jc Qh 6s")
    s = _play_down(s)
    assert _awards(s) == sorted([(bb, 15, "high"), (btn, 15, "low")])
    entry = {e["id"]: e for e in view(s, None)["showdown"]}
    assert entry[btn]["lowName"] == "8탑" and [c["rank"] for c in entry[btn]["lowBest"]] == [8, 5, 3, 2, 14]
    assert entry[bb]["lowName"] is None and entry[bb]["lowBest"] is None
    # both halves are explained: the only low says why it took the low half alone
    whys = {a["side"]: a["why"] for a in view(s, None)["awards"]}
    assert whys["low"] == "로우 8탑, 로우를 만든 사람이 혼자라 로우 몫을 가져감"
    assert whys["high"] and whys["high"].endswith("이김")
    log = [x["text"] for x in view(s, None)["publicLog"] if x["type"] == "showdown"]
    assert log and "/ 로우 8탑" in log[-1] and "/ 로우 없음" in log[-1]
    check_chips(s)
    check_cards(s)
    # an odd pot: the small blind folds its 5, the others put in 10 each: 25
    s, sb, bb, btn = _three_way(btn="Ah 3s Td Tc", bb="Kh Kd 9c 9h", sb="Jh Jc Qh 6s")
    s, _ = apply(s, btn, {"type": "nl.call"}, 100)
    s, _ = apply(s, sb, {"type": "nl.fold"}, 200)
    s = _play_down(s)
    assert _awards(s) == sorted([(bb, 13, "high"), (btn, 12, "low")])  # 25: ceil to the high


def test_no_low_on_the_board_the_high_scoops() -> None:
    s = _game(2)
    hand = s.hand
    assert hand is not None
    p, q = hand.order
    rig(s, deck=cards("9s 2c Qd 8h Js Kc Qs Ks"), **{p: cards("Ah 3s 4d 5c"), q: cards("Kh Kd 9c 9h")})
    s = _play_down(s)
    assert _awards(s) == [(q, 20, "high")]
    assert all(e["lowName"] is None for e in view(s, None)["showdown"])


def test_a_tied_low_is_quartered() -> None:
    # board 2c 5d 8h Kc Ks: btn and sb both make 8-5-3-2-A; bb's kings full take the high
    s, sb, bb, btn = _three_way(btn="Ah 3s Td Tc", sb="Ad 3c Jh Jc", bb="Kh Kd 9c 9h")
    s = _play_down(s)
    # pot 30: high 15 to bb, low 15 shared: 8 to the first after the dealer (sb), 7 to btn
    assert _awards(s) == sorted([(bb, 15, "high"), (sb, 8, "low"), (btn, 7, "low")])


def test_one_player_wins_both_halves() -> None:
    s = _game(2)
    hand = s.hand
    assert hand is not None
    p, q = hand.order
    rig(s, deck=cards("9s 3c 4d 5h Js Kc Qs Qd"), **{p: cards("As 2d Tc Th"), q: cards("Kh Kd 9c 8c")})
    s = _play_down(s)  # p: wheel straight (high) and wheel (low)
    assert _awards(s) == sorted([(p, 10, "high"), (p, 10, "low")])
    assert next(e for e in view(s, None)["showdown"] if e["id"] == p)["lowName"] == "5탑"


def test_side_pot_without_a_low_goes_to_its_high() -> None:
    """The short stack makes the only low; the side pot between the two others (no low) goes wholly to the
    better high (pokerkit would still cut it: ``side-pot-no-low``)."""
    s = _game(3, seed=4, betting="noLimit")
    hand = s.hand
    assert hand is not None
    sb, bb, btn = hand.order
    hand.bettors[btn].stack += hand.bettors[sb].stack - 45  # the small blind keeps 45 behind its 5
    hand.bettors[sb].stack = 45
    rig(s, deck=cards("9s 2c 5d 8h Js Kc Qs Ks"),
        **{sb: cards("Ah 3s Td Tc"), bb: cards("Kh Kd 9c 9h"), btn: cards("Qh Qd Jc Jh")})
    s, _ = apply(s, btn, {"type": "nl.raise", "to": 100}, 100)
    s, _ = apply(s, sb, {"type": "nl.allIn"}, 200)
    s, _ = apply(s, bb, {"type": "nl.call"}, 300)
    s = _play_down(s)
    got = view(s, None)
    pots = got["pots"]
    assert pots[0]["amount"] == 150 and pots[1]["amount"] == 100
    by_pot = {(a["potIndex"], a["to"], a["side"]): a["amount"] for a in got["awards"]}
    assert by_pot == {(0, bb, "high"): 75, (0, sb, "low"): 75, (1, bb, "high"): 100}
    check_chips(s)


def test_hint_names_the_low_and_views_hide_what_they_must() -> None:
    s = _game(2, hints=True)
    hand = s.hand
    assert hand is not None
    p, q = hand.order
    rig(s, deck=cards("9s 2c 5d 8h Js Kc Qs Ks"), **{p: cards("Ah 3s Td Tc"), q: cards("Kh Kd 9c 9h")})
    assert view(s, p)["me"]["lowName"] is None  # preflop: no low yet
    s, _ = apply(s, q, {"type": "nl.call"}, 100)  # heads-up: the dealer (small blind) acts first
    s, _ = apply(s, p, {"type": "nl.check"}, 200)
    assert view(s, p)["me"]["lowName"] == "8탑"
    assert view(s, q)["me"]["lowName"] is None
    assert view(s, None)["me"] is None
