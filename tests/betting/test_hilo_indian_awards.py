"""Hi-lo division (poker.md §6.6) and Indian ties and penalties (§6.5, §5.4.7)."""

from __future__ import annotations

from pokerroom.betting import Award, Pot, award_hilo, award_indian

ORDER = ["A", "B", "C", "D"]


def by_player(awards: list[Award]) -> dict[str, int]:
    out: dict[str, int] = {}
    for a in awards:
        out[a.to] = out.get(a.to, 0) + a.amount
    return out


def test_hilo_odd_chip_101_gives_51_high_50_low() -> None:
    pots = [Pot(101, ["A", "B"])]
    awards = award_hilo(pots, {"A": "high", "B": "low"}, {"A": 5, "B": 1}, {"A": None, "B": 3}, ORDER)
    assert awards == [Award(0, "A", 51, "high"), Award(0, "B", 50, "low")]


def test_spec_swing_failure_example() -> None:
    """§6.6: A high (full house), B low (7), C swing (flush + 8): C loses high → out; A and B halve."""
    pots = [Pot(300, ["A", "B", "C"])]
    high = {"A": 70, "B": 10, "C": 60}
    low = {"A": None, "B": 7, "C": 6}  # C's 8-low is even better than B's here: still out (lost high)
    awards = award_hilo(pots, {"A": "high", "B": "low", "C": "swing"}, high, low, ORDER)
    assert by_player(awards) == {"A": 150, "B": 150}


def test_swing_that_wins_both_scoops() -> None:
    pots = [Pot(300, ["A", "B", "C"])]
    awards = award_hilo(pots, {"A": "high", "B": "low", "C": "swing"},
                        {"A": 50, "B": 10, "C": 60}, {"A": None, "B": 5, "C": 6}, ORDER)
    assert awards == [Award(0, "C", 300, "scoop")]


def test_swing_without_a_low_is_out() -> None:
    pots = [Pot(200, ["A", "C"])]
    awards = award_hilo(pots, {"A": "low", "C": "swing"}, {"A": 1, "C": 99}, {"A": 3, "C": None}, ORDER)
    assert awards == [Award(0, "A", 200, "low")]


def test_no_low_declarer_high_takes_all() -> None:
    pots = [Pot(250, ["A", "B", "C"])]
    awards = award_hilo(pots, {"A": "high", "B": "high", "C": "high"},
                        {"A": 3, "B": 9, "C": 4}, {"A": 8, "B": None, "C": 9}, ORDER)
    assert awards == [Award(0, "B", 250, "high")]


def test_low_declarers_without_a_qualifying_low_leave_it_to_high() -> None:
    pots = [Pot(90, ["A", "B"])]
    awards = award_hilo(pots, {"A": "high", "B": "low"}, {"A": 3, "B": 9}, {"A": 8, "B": None}, ORDER)
    assert awards == [Award(0, "A", 90, "high")]


def test_only_low_declarers_take_all() -> None:
    pots = [Pot(90, ["A", "B"])]
    awards = award_hilo(pots, {"A": "low", "B": "low"}, {"A": 3, "B": 9}, {"A": 8, "B": 4}, ORDER)
    assert awards == [Award(0, "A", 90, "low")]


def test_two_failed_swings_then_everyone_competes_on_high() -> None:
    pots = [Pot(100, ["A", "B"])]
    awards = award_hilo(pots, {"A": "swing", "B": "swing"},
                        {"A": 9, "B": 5}, {"A": 1, "B": 7}, ORDER)
    assert awards == [Award(0, "A", 100, "high")]


def test_hilo_side_pots_are_settled_each_on_its_own() -> None:
    pots = [Pot(300, ["A", "B", "C"]), Pot(400, ["B", "C"])]
    declares = {"A": "low", "B": "high", "C": "high"}
    awards = award_hilo(pots, declares, {"A": 1, "B": 5, "C": 8}, {"A": 2, "B": None, "C": None}, ORDER)
    assert awards == [Award(1, "C", 400, "high"), Award(0, "C", 150, "high"), Award(0, "A", 150, "low")]


def test_indian_unique_winner_takes_pot_and_penalty() -> None:
    pots = [Pot(60, ["A", "B"])]
    awards, carried = award_indian(pots, {"A": 7, "B": 3}, ORDER, "carry", penalties=100, last_hand=False)
    assert carried == 0
    assert awards == [Award(0, "A", 60), Award(-1, "A", 100)]


def test_indian_tie_carry_carries_pot_and_penalties() -> None:
    pots = [Pot(60, ["A", "B", "C"])]
    strength = {"A": 7, "B": 7, "C": 2}
    awards, carried = award_indian(pots, strength, ORDER, "carry", penalties=100, last_hand=False)
    assert (awards, carried) == ([], 160)


def test_indian_carry_on_the_last_hand_splits() -> None:
    pots = [Pot(61, ["A", "B", "C"])]
    strength = {"A": 7, "B": 7, "C": 2}
    awards, carried = award_indian(pots, strength, ["B", "C", "A"], "carry", penalties=21, last_hand=True)
    assert carried == 0
    assert by_player(awards) == {"B": 31 + 11, "A": 30 + 10}
    assert [a.pot_index for a in awards] == [0, 0, -1, -1]


def test_indian_tie_split_and_penalty_split() -> None:
    pots = [Pot(60, ["A", "B", "C"])]
    strength = {"A": 7, "B": 7, "C": 2}
    awards, carried = award_indian(pots, strength, ORDER, "split", penalties=100, last_hand=False)
    assert carried == 0
    assert awards == [Award(0, "A", 30), Award(0, "B", 30), Award(-1, "A", 50), Award(-1, "B", 50)]


def test_indian_carried_pot_then_won_next_hand_via_dead() -> None:
    """§10: tie carried → next hand's winner takes the carried chips (the engine passes them as dead)."""
    from pokerroom.betting import build_pots

    pots = build_pots([("A", 10, False, False), ("B", 10, False, False)], ["A", "B"], dead=160)
    awards, carried = award_indian(pots, {"A": 1, "B": 9}, ORDER, "carry", penalties=0, last_hand=False)
    assert carried == 0 and awards == [Award(0, "B", 180)]


def test_indian_side_pot_tie_carries_only_that_pot() -> None:
    pots = [Pot(90, ["A", "B", "C"]), Pot(40, ["B", "C"])]
    awards, carried = award_indian(pots, {"A": 9, "B": 4, "C": 4}, ORDER, "carry", penalties=20,
                                   last_hand=False)
    assert carried == 40
    assert awards == [Award(0, "A", 90), Award(-1, "A", 20)]
