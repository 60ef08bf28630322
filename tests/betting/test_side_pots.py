"""Side pots from committed totals (poker.md §5.5), the uncalled return, and plain awards (§6.1, §6.6)."""

from __future__ import annotations

from pokerroom.betting import (
    Award,
    Bettor,
    Pot,
    apply_action,
    award_pots,
    build_pots,
    return_uncalled,
    split_amount,
    start_round,
)


def contributions(bettors: dict[str, Bettor]) -> list[tuple[str, int, bool, bool]]:
    return [(b.id, b.committed_total, b.folded, b.all_in) for b in bettors.values()]


def spec_example() -> dict[str, Bettor]:
    """§5.5: C bets 500 first, A calls all-in 100, B calls all-in 300 (played through the round API)."""
    b = {"A": Bettor("A", 100), "B": Bettor("B", 300), "C": Bettor("C", 1000)}
    rnd = start_round("noLimit", 10, "half", ["C", "A", "B"], b)
    apply_action(rnd, b, "C", {"type": "nl.raise", "to": 500})
    apply_action(rnd, b, "A", {"type": "nl.allIn"})
    result = apply_action(rnd, b, "B", {"type": "nl.allIn"})
    assert result.round_over and result.betting_closed
    return b


def test_spec_side_pots_and_return_of_200() -> None:
    b = spec_example()
    assert return_uncalled(b) == ("C", 200)
    assert (b["C"].stack, b["C"].committed_total, b["C"].committed_round) == (700, 300, 300)
    assert return_uncalled(b) is None
    pots = build_pots(contributions(b), ["A", "B", "C"])
    assert pots == [Pot(300, ["A", "B", "C"]), Pot(400, ["B", "C"])]


def test_spec_awards_a_best_then_better_of_b_c() -> None:
    pots = [Pot(300, ["A", "B", "C"]), Pot(400, ["B", "C"])]
    awards = award_pots(pots, {"A": 9, "B": 5, "C": 7}, ["A", "B", "C"])
    assert awards == [Award(1, "C", 400), Award(0, "A", 300)]  # side pot settled first
    awards = award_pots(pots, {"A": 9, "B": 8, "C": 7}, ["A", "B", "C"])
    assert sorted((a.to, a.amount) for a in awards) == [("A", 300), ("B", 400)]


def test_tied_side_pot_winners_only_share_their_pots() -> None:
    """Regression: A (main only) ties B; B beats C in the side pot: A gets 150 and nothing of the side."""
    pots = [Pot(300, ["A", "B", "C"]), Pot(400, ["B", "C"])]
    awards = award_pots(pots, {"A": 9, "B": 9, "C": 1}, ["A", "B", "C"])
    got = {(a.pot_index, a.to): a.amount for a in awards}
    assert got == {(0, "A"): 150, (0, "B"): 150, (1, "B"): 400}
    # B and C tie on top of the side pot, A wins the main alone.
    awards = award_pots(pots, {"A": 9, "B": 5, "C": 5}, ["C", "A", "B"])
    got = {(a.pot_index, a.to): a.amount for a in awards}
    assert got == {(1, "C"): 200, (1, "B"): 200, (0, "A"): 300}


def test_folded_chips_stay_in_their_level_and_folded_players_are_never_eligible() -> None:
    contrib = [("A", 100, False, True), ("B", 250, True, False), ("C", 300, False, False),
               ("D", 300, False, False)]
    pots = build_pots(contrib, ["D", "C", "B", "A"])
    assert pots == [Pot(400, ["D", "C", "A"]), Pot(150 + 200 + 200, ["D", "C"])]
    assert sum(p.amount for p in pots) == 950


def test_dead_chips_join_the_main_pot() -> None:
    contrib = [("A", 50, False, True), ("B", 80, False, False), ("C", 80, False, False)]
    pots = build_pots(contrib, ["A", "B", "C"], dead=35)
    assert pots == [Pot(150 + 35, ["A", "B", "C"]), Pot(60, ["B", "C"])]
    only_dead = build_pots([("A", 0, False, False), ("B", 0, True, False)], ["A", "B"], dead=20)
    assert only_dead == [Pot(20, ["A"])]


def test_equal_all_ins_make_one_level_and_everyone_all_in() -> None:
    contrib = [("A", 200, False, True), ("B", 200, False, True), ("C", 500, False, True)]
    pots = build_pots(contrib, ["C", "B", "A"])
    assert pots == [Pot(600, ["C", "B", "A"]), Pot(300, ["C"])]


def test_unmatched_folded_top_is_never_lost() -> None:
    """Without a return, a folded player's excess over everyone alive still lands in a pot."""
    contrib = [("A", 100, False, True), ("B", 400, True, False)]
    pots = build_pots(contrib, ["A", "B"])
    assert sum(p.amount for p in pots) == 500 and all(p.eligible == ["A"] for p in pots)


def test_return_uncalled_counts_folded_players() -> None:
    b = {"A": Bettor("A", 0, 0, 120, folded=True), "B": Bettor("B", 0, 300, 300), "C": Bettor("C", 0)}
    assert return_uncalled(b) == ("B", 180)
    assert (b["B"].stack, b["B"].committed_total, b["B"].committed_round) == (180, 120, 120)


def test_return_uncalled_ante_does_not_go_below_zero_round() -> None:
    b = [Bettor("A", 0, 0, 10), Bettor("B", 0, 0, 4, all_in=True)]
    assert return_uncalled(b) == ("A", 6)
    assert b[0].committed_round == 0 and b[0].stack == 6


def test_holdem_odd_chip_split_goes_from_the_seat_after_the_dealer() -> None:
    """§6.1: 25 split by two board-playing winners: 13 to the winner closest to the dealer's left."""
    order = ["S", "G", "U", "D"]  # seat after the dealer first
    assert split_amount(25, ["D", "G"], order) == {"G": 13, "D": 12}
    assert split_amount(100, ["D", "G", "S"], order) == {"S": 34, "G": 33, "D": 33}
    pots = [Pot(25, ["S", "G", "D"])]
    awards = award_pots(pots, {"S": 1, "G": 5, "D": 5}, order)
    assert awards == [Award(0, "G", 13), Award(0, "D", 12)]


def test_single_eligible_pot_goes_without_showdown() -> None:
    awards = award_pots([Pot(70, ["A"])], {}, ["A"])
    assert awards == [Award(0, "A", 70)]


def test_a_folded_top_is_not_paid_back_and_its_chips_go_to_the_live_pot() -> None:
    """SB posted 5 and folded with nothing owed; the BB is all-in for 1: the 4 nobody called stay in the pot
    as dead money (§5.5 "다이한 사람의 칩은 ... 팟에 남는다"), so the BB, the only live player, wins all 6."""
    b = {"SB": Bettor("SB", 195, 5, 5, folded=True), "BB": Bettor("BB", 0, 1, 1, all_in=True)}
    assert return_uncalled(b) is None
    assert b["SB"].stack == 195 and b["SB"].committed_total == 5
    pots = build_pots([(x.id, x.committed_total, x.folded, x.all_in) for x in b.values()], ["SB", "BB"])
    assert sum(p.amount for p in pots) == 6 and all(p.eligible == ["BB"] for p in pots)
