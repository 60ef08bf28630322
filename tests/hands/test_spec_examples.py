"""Every evaluator item of poker.md §10, the §6 examples, and hard cases, with exact expected outcomes."""

from __future__ import annotations

import itertools

import pytest

from pokerroom.cards import Card, DeckKind, parse_cards
from pokerroom.hands import (
    HandValue,
    badugi,
    indian,
    international_high,
    korean_high,
    korean_low,
    korean_open_rank,
    omaha_high,
)


def C(text: str, deck: DeckKind = "d52") -> list[Card]:
    return parse_cards(text, deck)


def codes(value: HandValue) -> set[str]:
    return {card.code for card in value.cards}


# ------------------------------------------------------------------------------ §6.1 international


def test_holdem_kicker_example_6_1() -> None:
    board = "Ks Kd 7c 4h 2s"
    a = international_high(C("Ac 3d " + board))
    b = international_high(C("Qh Jh " + board))
    assert a.name == b.name == "원페어"
    assert a > b and b < a and a != b


def test_holdem_board_play_splits_6_1() -> None:
    board = "9s 9h 8d 8c As"
    a = international_high(C("2c 3d " + board))
    b = international_high(C("Kc Qd " + board))
    assert a == b and hash(a) == hash(b)
    assert a.name == "투페어"
    assert codes(a) == {"9s", "9h", "8d", "8c", "As"}


def test_wheel_is_the_lowest_straight_and_six_high_beats_it() -> None:
    wheel = international_high(C("As 2d 3h 4c 5s"))
    six = international_high(C("2d 3h 4c 5s 6c"))
    assert wheel.name == six.name == "스트레이트"
    assert six > wheel
    assert wheel > international_high(C("Ks Kd Kh 2c 3d"))  # still a straight above trips
    # with a six as well, the best is the six-high straight
    both = international_high(C("As 2d 3h 4c 5s 6c Kd"))
    assert both == six
    assert codes(both) == {"2d", "3h", "4c", "5s", "6c"}


def test_no_wrap_around_straight() -> None:
    assert international_high(C("Ks As 2d 3h 4c")).name == "하이카드"


def test_steel_wheel_and_royal() -> None:
    steel = international_high(C("As 2s 3s 4s 5s Kd Qd"))
    assert steel.name == "스트레이트 플러시"
    assert steel < international_high(C("2s 3s 4s 5s 6s"))
    assert steel > international_high(C("9c 9d 9h 9s Ac"))  # beats quads
    royal = international_high(C("As Ks Qs Js Ts 2d 3c"))
    assert royal.name == "로열 스트레이트 플러시"
    assert royal.category == 8 and royal > steel


def test_three_pairs_in_seven_cards_take_the_best_kicker() -> None:
    a = international_high(C("Ks Kd 9h 9c 5s 5d 2c"))
    assert a.name == "투페어"
    assert codes(a) == {"Ks", "Kd", "9h", "9c", "5s"}
    assert a == international_high(C("Kh Kc 9s 9d 5h 4c 2d"))  # the 5 kicker either way
    assert a < international_high(C("Kh Kc 9s 9d 6h 4c 2d"))


def test_seven_card_flush_with_a_straight_flush_inside() -> None:
    a = international_high(C("2h 3h 4h 5h 6h Kh Ah"))
    assert a.name == "스트레이트 플러시"
    assert codes(a) == {"2h", "3h", "4h", "5h", "6h"}
    flush = international_high(C("2h 3h 4h 5h 7h Kh 6c"))
    assert flush.name == "플러시"
    assert codes(flush) == {"Kh", "7h", "5h", "4h", "3h"}


def test_two_trips_make_a_full_house_and_full_house_order() -> None:
    a = international_high(C("9s 9d 9h 4c 4s 4d 2c"))
    assert a.name == "풀하우스"
    assert a > international_high(C("8s 8d 8h Ac As Kd 2d"))
    assert codes(a) == {"9s", "9d", "9h", "4s", "4d"}  # the pair from the lower trips, best suits shown
    # same trips: the pair decides (ranks only, so the suits of these two hands do not matter)
    assert international_high(C("9s 9d 9h 4c 4s")) < international_high(C("9s 9d 9h 5c 5s"))
    assert international_high(C("Ts Td Th 2c 2s")) > international_high(C("9s 9d 9h Ac As"))


def test_quads_compare_kicker() -> None:
    assert international_high(C("7s 7d 7h 7c As")) > international_high(C("7s 7d 7h 7c Ks"))


def test_international_category_and_five_six_cards() -> None:
    names = {
        "As Ks Qs Js 9s": ("플러시", 5),
        "As Ad Ah Ks Kd": ("풀하우스", 6),
        "As Ad Ah Kc 2d": ("트리플", 3),
        "As Ad 3h Kc 2d": ("원페어", 1),
        "As 7d 3h Kc 2d": ("하이카드", 0),
        "As 7d 3h Kc 2d 7c": ("원페어", 1),
    }
    for text, (name, category) in names.items():
        value = international_high(C(text))
        assert (value.name, value.category) == (name, category), text
    # fewer than five cards: the pre-flop hint ranks what is there
    pocket = international_high(C("9s 9d"))
    assert pocket.name == "원페어" and pocket > international_high(C("As Kd"))
    assert international_high(C("As Kd Qh 2c")).name == "하이카드"
    assert international_high(C("As Ad Ah 2c")).name == "트리플"
    assert set(international_high(C("As Ad Ah 2c")).cards) == set(C("As Ad Ah 2c"))
    with pytest.raises(ValueError):
        international_high([])
    with pytest.raises(ValueError):
        international_high(C("As Kd Qh 2c 3c 4c 5c 6c"))


# ---------------------------------------------------------------------------------------- Omaha


def test_omaha_one_spade_in_the_hole_is_no_flush_5_4_2() -> None:
    value = omaha_high(C("As Kh Qd Jc"), C("2s 5s 8s 9s 3d"))
    assert value.name != "플러시"
    assert value.name == "하이카드"
    assert omaha_high(C("As Kh Qd Jc"), C("2s 5s 8s 9s Ts")).name == "스트레이트"  # Q J + 8 9 T... no: Q J T
    assert international_high(C("As Kh 2s 5s 8s 9s 3d")).name == "플러시"  # hold'em would make it


def test_omaha_two_spades_in_the_hole_make_the_flush_5_4_2() -> None:
    value = omaha_high(C("As Ah Ks Qd"), C("2s 5s 8s 9s 3d"))
    assert value.name == "플러시"
    assert codes(value) == {"As", "Ks", "9s", "8s", "5s"}


def test_omaha_board_flush_with_one_suited_hole_card_and_exact_counts() -> None:
    # board is a full spade flush; a single spade in the hole cannot use it
    value = omaha_high(C("As Kd 7c 2h"), C("3s 6s 9s Js Qs"))
    assert value.name == "하이카드"
    assert codes(value) == {"As", "Kd", "Qs", "Js", "9s"}
    # quads on board: only three of them may be used
    assert omaha_high(C("2c 3d 4h 5c"), C("9s 9d 9h 9c Ks")).name == "트리플"
    assert omaha_high(C("Kc 3d 4h 5c"), C("9s 9d 9h 9c Ks")).name == "트리플"  # K9 two pair is less
    assert omaha_high(C("Kc Kd 4h 5c"), C("9s 9d 9h 9c Ks")).name == "풀하우스"
    # three board cards
    assert omaha_high(C("As Ad 2c 3d"), C("Ac Kd Ks")).name == "풀하우스"
    with pytest.raises(ValueError):
        omaha_high(C("As Ad 2c"), C("Ac Kd Ks"))


# -------------------------------------------------------------------------------- §6.2 Korean high


def test_korean_ranking_order_10() -> None:
    mountain = korean_high(C("As Kd Qh Jc Td"))
    back = korean_high(C("As 2d 3h 4c 5d"))
    k_top = korean_high(C("Ks Qd Jh Tc 9d"))
    assert (mountain.name, back.name, k_top.name) == ("마운틴", "백 스트레이트", "스트레이트")
    assert mountain > back > k_top
    royal = korean_high(C("Ac Kc Qc Jc Tc"))
    back_sf = korean_high(C("Ac 2c 3c 4c 5c"))
    k_sf = korean_high(C("Ks Qs Js Ts 9s"))
    quads = korean_high(C("As Ad Ah Ac Ks"))
    assert royal.name == "로열 스트레이트 플러시"
    assert back_sf.name == "백 스트레이트 플러시"
    assert k_sf.name == "스트레이트 플러시"
    assert royal > back_sf > k_sf > quads
    order = [
        "As Ad Ah Ac Ks",  # 포카드
        "As Ad Ah Kc Ks",  # 풀하우스
        "2s 4s 6s 8s Ts",  # 플러시
        "As Kd Qh Jc Td",  # 마운틴
        "As 2d 3h 4c 5d",  # 백 스트레이트
        "6s 5d 4h 3c 2d",  # 6탑 스트레이트
        "2s 2d 2h 9c Kd",  # 트리플
        "3s 3d 2h 2c 4d",  # 투페어
        "2s 2d 3h 4c 6d",  # 원페어
        "As Kd Qh Jc 9d",  # 탑
    ]
    values = [korean_high(C(t)) for t in order]
    assert all(a > b for a, b in itertools.pairwise(values))
    assert [v.category for v in values] == [9, 8, 7, 6, 5, 4, 3, 2, 1, 0]
    assert values[-1].name == "탑"


def test_korean_suit_ties_10() -> None:
    a = korean_high(C("7s 7c 2d 3h 4c"))
    b = korean_high(C("7d 7h Ah Kc Qs"))
    assert a > b  # ♠ beats ◆ — kickers are not looked at
    # K-5 vs K-9: the lower pair decides, suits and kickers do not
    k5 = korean_high(C("Ks Kd 5s 5d Ac"))
    k9 = korean_high(C("Kh Kc 9h 9c 2d"))
    assert k9 > k5
    assert (k5.name, k9.name) == ("투페어", "투페어")


def test_korean_examples_6_2() -> None:
    assert korean_high(C("Ac Kd Qh Js Ts")) > korean_high(C("As 2d 3h 4c 5s"))  # 예2: 마운틴 > 백
    # equal straights: the top card's suit
    assert korean_high(C("9s 8c 7c 6c 5c")) > korean_high(C("9d 8s 7s 6s 5d"))
    assert korean_high(C("As 2c 3c 4c 5c")) > korean_high(C("Ad 2s 3s 4s 5s"))  # 백: the ace's suit
    # equal flush ranks: the flush suit
    assert korean_high(C("As Js 8s 5s 3s")) > korean_high(C("Ad Jd 8d 5d 3d"))
    # flush ranks first
    assert korean_high(C("Ac Jc 9c 5c 3c")) > korean_high(C("As Js 8s 5s 3s"))
    # high card: ranks first, then the top card's suit
    assert korean_high(C("Ac Jd 9h 5s 3s")) > korean_high(C("As Jc 8d 5d 3d"))
    assert korean_high(C("As Jc 8h 5c 3c")) > korean_high(C("Ad Js 8s 5s 3d"))
    # pair: rank, then the better suit of the pair, no kickers
    assert korean_high(C("7s 7c 2d 3h 4c")) > korean_high(C("7d 7h Ac Kc Qd"))
    assert korean_high(C("8c 8h 2d 3h 4c")) > korean_high(C("7d 7s Ac Kc Qd"))
    # two pair: high pair suit decides after both ranks
    assert korean_high(C("Ks Kc 5h 5c 2d")) > korean_high(C("Kd Kh 5s 5d Ac"))


def test_korean_seven_cards_pick_back_straight_over_six_high() -> None:
    value = korean_high(C("As 2d 3h 4c 5s 6d Kh"))
    assert value.name == "백 스트레이트"
    assert codes(value) == {"As", "2d", "3h", "4c", "5s"}
    assert value > korean_high(C("Ks Qd Jh Tc 9c 2d 2h"))
    sf = korean_high(C("Ah 2h 3h 4h 5h 6h 9c"))
    assert sf.name == "백 스트레이트 플러시"
    assert codes(sf) == {"Ah", "2h", "3h", "4h", "5h"}


def test_korean_three_pairs_use_top_two_and_best_suits() -> None:
    value = korean_high(C("Ks Kd 9h 9c 5s 5d 2c"))
    assert value.name == "투페어"
    assert codes(value) == {"Ks", "Kd", "9h", "9c", "5s"}


def test_korean_mountain_suit_is_the_aces() -> None:
    value = korean_high(C("Ac As Kd Qh Jc Td 2c"))
    assert value.name == "마운틴"
    assert "As" in codes(value)
    assert value > korean_high(C("Ad Ks Qs Js Ts 3c 4d"))


def test_korean_flush_beats_mountain_and_royal_in_seven() -> None:
    assert korean_high(C("2h 4h 6h 8h Th 3c 5d")) > korean_high(C("As Kd Qh Jc Td 2c 3d"))
    royal = korean_high(C("Ad Kd Qd Jd Td 9d 2c"))
    assert royal.name == "로열 스트레이트 플러시"
    assert codes(royal) == {"Ad", "Kd", "Qd", "Jd", "Td"}


def test_korean_never_ties_between_hands_of_one_deal() -> None:
    # same ranks everywhere, only suits differ: still one winner
    a = korean_high(C("As Kd 9h 5c 3c"))
    b = korean_high(C("Ad Ks 9s 5d 3d"))
    assert a != b and a > b
    # identical cards are equal, in any order
    assert korean_high(C("As Kd 9h 5c 3c")) == korean_high(C("3c 5c 9h Kd As"))


def test_korean_same_key_shared_cards_break_by_kickers() -> None:
    # the same pair with other kickers: not one deal, but still strictly ordered (best kicker wins)
    a = korean_high(C("7s 7c Ad 3h 4c"))
    b = korean_high(C("7s 7c Kd 3h 4c"))
    assert a.key == b.key and a != b and a > b and hash(a) == hash(b)


def test_korean_fewer_than_five_cards_hint() -> None:
    assert korean_high(C("7s 7c")).name == "원페어"
    assert korean_high(C("7s 7c 7d")).name == "트리플"
    assert korean_high(C("7s 7c 9d 9h")).name == "투페어"
    assert korean_high(C("7s 7c 7d 7h")).name == "포카드"
    assert korean_high(C("As 2s 3s 4s")).name == "탑"
    assert korean_high(C("As")).cards == tuple(C("As"))
    assert korean_high(C("2s 3s 4s 5s 6s 9d")).name == "스트레이트 플러시"


# ------------------------------------------------------------------------------------ §5.4.3 boss


def test_open_rank_boss_10() -> None:
    pair = korean_open_rank(C("2c 2d"))
    top = korean_open_rank(C("As Kd"))
    assert pair > top  # a pair acts before a high card
    assert korean_open_rank(C("9s 9c")) > korean_open_rank(C("9d 9h"))  # same rank: suit
    order = [
        korean_open_rank(C("5s 5d 5h 5c")),
        korean_open_rank(C("As Ad Ah 2c")),
        korean_open_rank(C("3s 3d 2h 2c")),
        korean_open_rank(C("Ks Kd Ah Qc")),
        korean_open_rank(C("As Kd Qh Jc")),
    ]
    assert all(a > b for a, b in itertools.pairwise(order))
    assert [v.name for v in order] == ["포카드", "트리플", "투페어", "원페어", "탑"]
    # straights and flushes are not looked at
    assert korean_open_rank(C("5s 4s 3s 2s")) < korean_open_rank(C("6c 4d 3h 2c"))
    # rulings #3: high cards from the top down, then the top card's suit
    assert korean_open_rank(C("As 3d")) < korean_open_rank(C("Ad 4c"))
    assert korean_open_rank(C("As 4d")) > korean_open_rank(C("Ad 4c"))
    for n in (0, 5):
        with pytest.raises(ValueError):
            korean_open_rank(C("As Kd Qh Jc Td 9s")[:n])


def test_open_rank_never_equal_across_players() -> None:
    from itertools import combinations

    from pokerroom.cards import standard_deck

    deck = standard_deck()
    # every pair of disjoint two-card open sets over a 16-card slice of the deck
    sample = deck[::3][:16]
    hands = list(combinations(sample, 2))
    for x, y in combinations(hands, 2):
        if set(x) & set(y):
            continue
        assert korean_open_rank(list(x)) != korean_open_rank(list(y))


# --------------------------------------------------------------------------------------- §6.3 low


def test_hilo_low_example_10() -> None:
    seven = C("As 2d 3h 4c 5s 9d Kh")
    low = korean_low(seven)
    assert low is not None and low.name == "9탑"
    assert codes(low) == {"As", "2d", "3h", "4c", "9d"}
    low5 = korean_low(seven, rule="aceToFive")
    assert low5 is not None and low5.name == "5탑"
    assert codes(low5) == {"As", "2d", "3h", "4c", "5s"}


def test_korean_low_best_is_a_2_3_4_6_and_ordering() -> None:
    best = korean_low(C("As 2d 3h 4c 6s Kd Qh"))
    assert best is not None and best.name == "6탑"
    worse = korean_low(C("As 2d 3h 5c 6s Kd Qh"))
    assert worse is not None and best > worse
    # same ranks: the top card's suit, ♠ first (rulings #2 for aceToFive too)
    for rule in ("korean", "aceToFive"):
        x = korean_low(C("As 2d 3h 4c 7s"), rule=rule)
        y = korean_low(C("Ad 2s 3c 4h 7d"), rule=rule)
        assert x is not None and y is not None and x > y and x != y


def test_korean_low_excludes_straights_flushes_and_the_mountain() -> None:
    assert korean_low(C("As 2d 3h 4c 5s")) is None  # back straight
    assert korean_low(C("As Kd Qh Jc Ts")) is None  # mountain (rulings #1)
    assert korean_low(C("2s 4s 6s 8s Ts")) is None  # flush
    assert korean_low(C("2s 4s 6s 8s Td"), rule="korean") is not None
    mountain = korean_low(C("As Kd Qh Jc Ts"), rule="aceToFive")
    assert mountain is not None and mountain.name == "K탑"
    # a straight in seven cards is avoided by choosing other cards
    low = korean_low(C("2s 3d 4h 5c 6s 8d Kh"))
    assert low is not None and low.name == "8탑"
    assert codes(low) == {"2s", "3d", "4h", "5c", "8d"}
    # a flush is avoided by choosing another suit of the same rank
    low = korean_low(C("As 2s 3s 4s 7s 7d Kh"))
    assert low is not None and low.name == "7탑" and "7d" in codes(low)


def test_korean_low_needs_five_ranks_and_qualifier() -> None:
    assert korean_low(C("As Ad 2h 2c 3s 3d 4h")) is None
    nine = C("As 2d 3h 4c 9s Kd Kh")
    assert korean_low(nine) is not None
    assert korean_low(nine, qualifier="eight") is None
    eight = korean_low(C("As 2d 3h 4c 8s Kd Kh"), qualifier="eight")
    assert eight is not None and eight.name == "8탑"
    with pytest.raises(ValueError):
        korean_low(nine, rule="deuceToSeven")  # type: ignore[arg-type]


# ------------------------------------------------------------------------------------- §6.4 badugi


def test_badugi_examples_6_4_and_10() -> None:
    a = badugi(C("2s 3d 7h 8c"))
    b = badugi(C("As 2d 3h 3c"))
    c = badugi(C("2h 4c 7d 8s"))
    assert (a.name, b.name, c.name) == ("8 메이드", "3 베이스", "8 메이드")
    assert a > b  # made beats base
    assert a > c  # 8 = 8, 7 = 7, 3 < 4
    assert badugi(C("As 4c 5d 6h")).name == "6 메이드"
    assert badugi(C("As 4c 5d 5h")).name == "5 베이스"
    assert badugi(C("2s 3d 7h 8c")) == badugi(C("2d 3s 7c 8h"))  # same ranks split
    assert a.category == 4 and b.category == 3


def test_badugi_named_hands_and_grades() -> None:
    golf = badugi(C("As 2d 3h 4c"))
    second = badugi(C("As 2d 3h 5c"))
    third = badugi(C("As 2d 4h 5c"))
    assert (golf.name, second.name, third.name) == ("골프", "세컨드", "써드")
    assert golf > second > third > badugi(C("As 3d 4h 5c"))
    king_made = badugi(C("Ks Qd Jh Tc"))
    assert king_made.name == "K 메이드"
    assert king_made > badugi(C("As 2d 3h 3c"))  # any made beats any base
    two_base = badugi(C("As 2s 3d 4d"))
    assert two_base.name == "투베이스" and two_base.category == 2
    assert badugi(C("As 2d 3h 3c")) > two_base
    no_base = badugi(C("As 2s 5s 9s"))
    assert no_base.name == "노베이스" and codes(no_base) == {"As"}
    assert badugi(C("7s 7d 7h 7c")).name == "노베이스"
    assert two_base > no_base
    assert badugi(C("10s Jd Qh Kc")).name == "K 메이드"


def test_badugi_duplicates_of_rank_and_suit_use_the_lowest_subset() -> None:
    # A♠ shares a suit with 2♠, 2♦ shares a rank with 2♠: best three is A♠ 2♦ 3♥ (3 base), not 2♠ ...
    value = badugi(C("As 2s 2d 3h"))
    assert value.name == "3 베이스"
    assert codes(value) == {"As", "2d", "3h"}
    # two conflicts crossing: 4♠ 4♦ 5♠ 5♦ -> best two-card badugi is 4-5 of different suits
    value = badugi(C("4s 4d 5s 5d"))
    assert value.name == "투베이스"
    assert {c.rank for c in value.cards} == {4, 5}
    assert badugi(C("4s 4d 5s 5d")) == badugi(C("4h 4c 5h 5c"))
    # choosing the lower of two three-card subsets
    assert badugi(C("Ks As 2d 3h")).name == "3 베이스"
    assert badugi(C("Ks As 2d 3h")) == badugi(C("Qc Ac 2d 3h"))


# ------------------------------------------------------------------------------------- §6.5 indian


def test_indian_one_card() -> None:
    d20 = [indian(C(t, deck="d20")) for t in ("As", "2s", "5h", "10h")]
    assert all(a < b for a, b in itertools.pairwise(d20))
    assert indian(C("7s", deck="d20")) == indian(C("7h", deck="d20"))  # suits never matter: a tie
    d52 = [indian(C(t), deck="d52") for t in ("2s", "9d", "Kh", "Ac")]
    assert all(a < b for a, b in itertools.pairwise(d52))
    assert indian(C("Ah", deck="d20")).name == "A"


def test_indian_two_cards() -> None:
    pair = indian(C("3s 3h", deck="d20"))
    assert pair.name == "3 페어" and pair.category == 1
    assert pair > indian(C("10s 9h", deck="d20"))
    assert indian(C("4s 4h", deck="d20")) > pair
    assert indian(C("10s 2h", deck="d20")) > indian(C("9s 8h", deck="d20"))
    assert indian(C("10s 3h", deck="d20")) > indian(C("10h 2s", deck="d20"))
    assert indian(C("10s 3h", deck="d20")) == indian(C("3s 10h", deck="d20"))
    assert indian(C("As Ah"), deck="d52") > indian(C("Ks Kh"), deck="d52")
    with pytest.raises(ValueError):
        indian(C("Ks"), deck="d20")
    with pytest.raises(ValueError):
        indian(C("2s 3s 4s", deck="d20"))


# ---------------------------------------------------------------------------------------- HandValue


def test_families_do_not_compare_and_json() -> None:
    high = international_high(C("As Kd Qh Jc 9d"))
    kor = korean_high(C("As Kd Qh Jc 9d"))
    assert high != kor
    with pytest.raises(TypeError):
        _ = high < kor
    data = kor.to_json()
    assert data["name"] == "탑" and len(data["cards"]) == 5  # type: ignore[arg-type]
    assert "탑" in repr(kor)
    assert len({high, international_high(C("Ad Ks Qc Jh 9s"))}) == 1


def test_values_survive_copy_and_pickle() -> None:
    import copy
    import pickle

    low = korean_low(C("As 2d 3h 4c 9s Kd Qh"))
    assert low is not None
    values: list[HandValue] = [
        international_high(C("As Kd Qh 2c 3d 9s Th")),
        korean_high(C("As Kd Qh 2c 3d 9s Th")),
        low,
        badugi(C("As 2d 3h 4c")),
        indian(C("10s", deck="d20")),
        omaha_high(C("As Kd Qh 2c"), C("3d 9s Th")),
    ]
    for value in values:
        for clone in (copy.deepcopy(value), pickle.loads(pickle.dumps(value))):
            assert clone == value and hash(clone) == hash(value)
            assert clone.name == value.name and clone.cards == value.cards
