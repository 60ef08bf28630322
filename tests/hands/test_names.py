"""Ranked hand names: "K 투페어" / "A 플러시" / "K탑" / "10 트리플" in the Korean modes, "킹 투페어, 에이스
키커" in the international ones, and the words that say which hand won and why — for every evaluator
(docs/decisions/0006-hands-named-and-explained.md)."""

from __future__ import annotations

import pytest

from pokerroom.cards import parse_cards
from pokerroom.hands import (
    badugi,
    indian,
    international_high,
    korean_high,
    korean_low,
    omaha_high,
    ranked_name,
    versus,
)
from pokerroom.hands.names import object_, subject


def kh(text: str) -> str:
    return ranked_name(korean_high(parse_cards(text)))


def ih(text: str) -> str:
    return ranked_name(international_high(parse_cards(text)))


@pytest.mark.parametrize(("cards", "name"), [
    ("Ks Qd 5h 3c 2d 8s 9c", "K탑"),
    ("10s 8d 5h 3c 2d", "10탑"),
    ("7s 7c 2d 9h Jd", "7 원페어"),
    ("Ks Kd 5h 5c 2d 9s 7c", "K 투페어"),
    ("Ks Kd 5h 5c 9d 9s 7c", "K 투페어"),  # three pairs: the top two
    ("10s 10d 10h 3c 2d", "10 트리플"),
    ("9s 8d 7h 6c 5d 2s 2c", "9 스트레이트"),
    ("As 2d 3h 4c 5d", "백 스트레이트"),
    ("As Kd Qh Jc 10d", "마운틴"),
    ("As Qs 5s 3s 2s Kd Kh", "A 플러시"),
    ("Qs Qd Qh 3c 3d", "Q 풀하우스"),
    ("4s 4d 4h 4c Ad", "4 포카드"),
    ("9s 8s 7s 6s 5s", "9 스트레이트 플러시"),
    ("As 2s 3s 4s 5s", "백 스트레이트 플러시"),
    ("As Ks Qs Js 10s", "로열 스트레이트 플러시"),
    ("Ks 7d 2c", "K탑"),  # the hint before five cards
    ("Js Jd 4c", "J 원페어"),
])
def test_korean_high_names_carry_the_deciding_rank(cards: str, name: str) -> None:
    assert kh(cards) == name


@pytest.mark.parametrize(("cards", "name"), [
    ("As Jd 9h 6c 3d 2s 4h", "에이스 하이"),
    ("Ks Kd 7c 4h 2s Ac 3d", "킹 원페어"),
    ("Ks Kd 7c 7h 2s Ac 3d", "킹 투페어"),
    ("7s 7d 7c 4h 2s", "7 트리플"),
    ("As 2d 3h 4c 5d 9s Kd", "5 스트레이트"),  # the wheel is five-high
    ("10s Jd Qh Kc Ad", "에이스 스트레이트"),
    ("Qs 9s 5s 3s 2s", "퀸 플러시"),
    ("Js Jd Jh 3c 3d", "잭 풀하우스"),
    ("4s 4d 4h 4c Ad", "4 포카드"),
    ("9s 8s 7s 6s 5s", "9 스트레이트 플러시"),
    ("As Ks Qs Js 10s", "로열 스트레이트 플러시"),
    ("Ks Kd", "킹 원페어"),  # a pocket pair before the flop
])
def test_international_names_spell_the_rank(cards: str, name: str) -> None:
    assert ih(cards) == name


def test_omaha_names_use_two_hole_and_three_board_cards() -> None:
    value = omaha_high(parse_cards("As Kh Qd Jc"), parse_cards("2s 5s 8s 9s Th"))
    assert ranked_name(value) == "퀸 스트레이트"
    value = omaha_high(parse_cards("As Ad 7h 2c"), parse_cards("Ks Kd 9h 4c 3s"))
    assert ranked_name(value) == "에이스 투페어"


@pytest.mark.parametrize(("cards", "rule", "name"), [
    ("As 2d 3h 4c 5s 9d Kh", "korean", "9탑"),
    ("As 2d 3h 4c 5s 9d Kh", "aceToFive", "5탑"),
    ("As 2d 3h 4c 6s Qd Kh", "korean", "6탑"),
    ("10s Jd Qh Kc 9s 8d 7h", "korean", "Q탑"),  # 7-8-9-10-J is a straight
])
def test_low_names(cards: str, rule: str, name: str) -> None:
    value = korean_low(parse_cards(cards), rule=rule)  # type: ignore[arg-type]
    assert value is not None
    assert ranked_name(value) == name


@pytest.mark.parametrize(("cards", "name"), [
    ("As 2d 3h 4c", "골프"),
    ("As 2d 3h 5c", "세컨드"),
    ("As 2d 4h 5c", "써드"),
    ("2s 3d 7h 8c", "8 메이드"),
    ("As 2d 3h 3c", "3 베이스"),
    ("2s 3s 7h 8h", "7 투베이스"),
    ("2s 5s 9s Ks", "2 노베이스"),
    ("Ks Kd Kh Kc", "K 노베이스"),
])
def test_badugi_names(cards: str, name: str) -> None:
    assert ranked_name(badugi(parse_cards(cards))) == name


@pytest.mark.parametrize(("cards", "deck", "name"), [
    ("10s 9h", "d20", "10-9"),
    ("3s 3h", "d20", "3 페어"),
    ("Ah", "d20", "A"),
    ("Ks", "d52", "K"),
])
def test_indian_names_are_ranked_already(cards: str, deck: str, name: str) -> None:
    assert ranked_name(indian(parse_cards(cards, deck=deck), deck=deck)) == name  # type: ignore[arg-type]


def vs(a: object, b: object) -> tuple[str, str]:
    assert a > b  # type: ignore[operator]
    return versus(a, b)  # type: ignore[arg-type]


def test_versus_names_what_decided() -> None:
    K = korean_high
    P = parse_cards
    # the issue's own example: the first pair decides, so the short names say it
    assert vs(K(P("As Ad 10h 10c 3d")), K(P("10s 10d 9h 9c 2d"))) == ("A 투페어", "10 투페어")
    # the same top pair: the second pair is named
    assert vs(K(P("As Ad 10h 10c 3d")), K(P("Ah Ac 9h 9c 2d"))) == ("A·10 투페어", "A·9 투페어")
    # same ranks: the suit decides (§6.2, no kickers)
    assert vs(K(P("7s 7c 2d 9h Jd")), K(P("7d 7h Ac Kc Qs"))) == ("7 원페어(♠)", "7 원페어(◆)")
    assert vs(K(P("Ks Jd 8h 5c 3d")), K(P("Kd Jh 8c 5h 3s"))) == ("K탑(♠)", "K탑(◆)")
    assert vs(K(P("Kd Qd 8c 5h 3s")), K(P("Kh Jd 8s 5c 3d"))) == ("K·Q탑", "K·J탑")
    # different classes: the class names
    assert vs(K(P("As Kd Qh Jc 10d")), K(P("As 2d 3h 4c 5d"))) == ("마운틴", "백 스트레이트")
    # international: the kicker
    board = "Ks Kd 7c 7h 2s"
    a, b = international_high(P("Ac 3d " + board)), international_high(P("Qh Jh " + board))
    assert vs(a, b) == ("킹 투페어, 에이스 키커", "킹 투페어, 퀸 키커")
    board = "Ks Kd 7c 4h 2s"
    a, b = international_high(P("Ac Qd " + board)), international_high(P("As Jh " + board))
    assert vs(a, b) == ("킹 원페어, 에이스·퀸 키커", "킹 원페어, 에이스·잭 키커")
    a, b = international_high(P("As 9s 5s 3s 2s")), international_high(P("Ah 8h 7h 3h 2h"))
    assert vs(a, b) == ("에이스·9 플러시", "에이스·8 플러시")
    # lows: lower wins, from the top card down
    lo = korean_low
    la, lb = lo(P("As 2d 3h 4c 7s 9d Kh")), lo(P("Ad 2h 3c 5s 7d Qd Kh"))
    assert la is not None and lb is not None
    assert vs(la, lb) == ("7·4탑", "7·5탑")
    # badugi: the ranks from the top
    assert vs(badugi(P("2s 3d 5h 8c")), badugi(P("2s 4d 5h 8c"))) == ("8·5·3 메이드", "8·5·4 메이드")
    assert vs(badugi(P("2s 3d 7h 8c")), badugi(P("As 2d 3h 3c"))) == ("8 메이드", "3 베이스")


def test_particles_follow_the_last_sound() -> None:
    assert subject("A·10 투페어") == "A·10 투페어가"
    assert object_("10·9 투페어") == "10·9 투페어를"
    assert subject("10 트리플") == "10 트리플이"
    assert subject("K탑") == "K탑이"
    assert object_("마운틴") == "마운틴을"
    assert object_("7 원페어(♠)") == "7 원페어(♠)를"
    assert subject("3") == "3이" and subject("9") == "9가" and subject("K") == "K가"
