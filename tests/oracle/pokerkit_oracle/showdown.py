"""The end of a mirrored hand compared: pokerkit settles the pots, and our final stacks, contested pots, their
winners and award amounts must match its result under the spec's odd-chip rule (§6.1) and, for Omaha Hi-Lo,
the rule's halves (docs/rules-extensions.md).

Apart from the game driver because the hand-end comparison is a job of its own (and the spec's split rule is
written out here independently of ``pokerroom.betting``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .mirror import strict

if TYPE_CHECKING:
    from .game import Game


def spec_split(amount: int, winners: list[str], order: list[str]) -> dict[str, int]:
    """§6.1 written out independently of ``pokerroom.betting``: equal shares, odd chips one at a time from the
    first winner after the dealer (``order`` starts at the seat after the dealer)."""
    seated = [pid for pid in order if pid in winners]
    share, odd = divmod(amount, len(seated))
    return {pid: share + (1 if k < odd else 0) for k, pid in enumerate(seated)}


def end_hand(game: Game, pub: dict[str, Any]) -> None:
    pk = game.pk
    assert pk is not None
    game.compared = True
    game.stats.hands += 1
    game.sync()
    if pk.actor_index is not None:
        raise game.fail(f"our hand ended; pokerkit still waits for {game.order[pk.actor_index]}")
    if pk.stand_patter_or_discarder_index is not None:
        raise game.fail("our hand ended; pokerkit still waits for a draw")
    if not (pk.can_kill_hand() or pk.can_push_chips()):
        raise game.fail("our hand ended but pokerkit is not settling the pots")
    dealt = (len(pub["board"]), len(game.burn_cards()))
    if game.variant.community and dealt != (game.boarded, game.burned):
        raise game.fail(f"our engine dealt (board, burnt) {dealt}; pokerkit needed "
                        f"{(game.boarded, game.burned)}")
    order = game.order
    live = [order[j] for j in range(len(order)) if pk.statuses[j]]
    pots = [(p.amount, [order[j] for j in p.player_indices]) for p in pk.pots]
    before = [s + b for s, b in zip(pk.stacks, pk.bets, strict=True)]
    hands = list(pk.get_up_hands(0, 0)) if len(live) > 1 else []
    lows = list(pk.get_up_hands(0, 1)) if len(live) > 1 and game.variant.hilo else []
    with strict():
        while pk.can_kill_hand():
            pk.kill_hand()
        while pk.can_push_chips():
            pk.push_chips()
    if pk.status:
        raise game.fail("pokerkit's hand did not terminate")
    actual = list(pk.stacks)
    seats = {s["id"]: s for s in pub["seats"]}
    ours_final = [seats[pid]["stack"] for pid in order]
    awards = pub["awards"]
    if any(s["allIn"] for s in pub["seats"] if s["id"] in game.index):
        game.stats.all_in_hands += 1
    if len(live) == 1:
        winner = live[0]
        if {a["to"] for a in awards} != {winner} or pub["showdown"]:
            raise game.fail(f"one player left: pokerkit's winner {winner}, our awards {awards}, "
                            f"our showdown {pub['showdown']}")
        if ours_final != actual:
            raise game.fail(f"final stacks ours={ours_final} pokerkit={actual}")
        game.stats.one_left += 1
        return
    game.stats.showdowns += 1
    ours_showdown = {e["id"] for e in pub["showdown"] or []}
    if ours_showdown != set(live):
        raise game.fail(f"showdown players ours={sorted(ours_showdown)} pokerkit={sorted(live)}")
    expected = list(before)
    pk_pots: list[tuple[int, list[str], dict[str, int]]] = []
    split = False
    no_low_pot = False
    for amount, eligible in pots:
        best = max(hands[game.index[p]] for p in eligible)
        winners = [p for p in eligible if hands[game.index[p]] == best]
        split = split or len(winners) > 1
        shares = spec_split(amount, winners, order)
        if game.variant.hilo:
            shares, pot_split, no_low = hilo_shares(game, amount, eligible, winners, lows)
            split = split or pot_split
            no_low_pot = no_low_pot or no_low
        for p, share in shares.items():
            expected[game.index[p]] += share
        if len(eligible) >= 2:
            pk_pots.append((amount, eligible, {p: n for p, n in shares.items() if n > 0}))
    if split:
        game.stats.split_pots += 1
    if sum(expected) != sum(actual):
        raise game.fail(f"chips not conserved in pokerkit's own result {actual} vs {expected}")
    if expected != actual and no_low_pot:
        game.stats.differences["side-pot-no-low"] += 1  # pokerkit's own result is not the rule here
    elif expected != actual:
        if not split or any(abs(e - a) >= len(pots) * len(order) for e, a in zip(expected, actual,
                                                                                  strict=True)):
            raise game.fail(f"pokerkit's result {actual} differs from its pots/winners {expected} "
                            "by more than odd chips")
        game.stats.odd_chip_adjusted += 1
        game.stats.differences["odd-chip"] += 1
    if ours_final != expected:
        shown = [(e["id"], e["handName"]) for e in pub["showdown"]]
        raise game.fail(f"final stacks ours={ours_final} pokerkit (§6.1 odd chips)={expected}; "
                        f"pokerkit pots={pk_pots} our pots={pub['pots']} awards={awards} "
                        f"board={pub['board']} showdown={shown}")
    ours_pots = [(i, p) for i, p in enumerate(pub["pots"]) if len(p["eligible"]) >= 2]
    if len(ours_pots) != len(pub["pots"]):
        game.stats.differences["pot-shape"] += 1
    if [(p["amount"], set(p["eligible"])) for _, p in ours_pots] != [(a, set(e)) for a, e, _ in pk_pots]:
        raise game.fail(f"contested pots ours={[p for _, p in ours_pots]} pokerkit={pk_pots}")
    if len(pk_pots) >= 2:
        game.stats.side_pots += 1
    for (index, pot), (_, _, want) in zip(ours_pots, pk_pots, strict=True):
        got: dict[str, int] = {}
        for a in awards:
            if a["potIndex"] == index:
                got[a["to"]] = got.get(a["to"], 0) + a["amount"]
        if got != want:
            raise game.fail(f"pot {index} {pot}: our awards {got}, from pokerkit's hands: {want}")


def hilo_shares(game: Game, amount: int, eligible: list[str], high_winners: list[str],
                lows: list[Any]) -> tuple[dict[str, int], bool, bool]:
    """Omaha Hi-Lo from pokerkit's own hands: (shares by the rule, a half was split, ``side-pot-no-low``).

    The rule (docs/rules-extensions.md): the high half (``ceil``) to the best high, the low half to the
    best eight-or-better low of *this pot's* players (odd chips per §6.1 within each half); no such low:
    the high takes the pot; the same players winning both halves split the whole pot evenly (pokerkit
    halves it first, so one of them may get two odd chips: within ``odd-chip``). pokerkit cuts a low
    half whenever anybody in the hand has a low and, in a pot none of whose players has one, gives it to
    that pot's players still holding a live hand ("no low" ties "no low"): the third value says that
    happened, and then only our result is checked against the rule (pokerkit's own result is not)."""
    order = game.order
    scored = [p for p in eligible if lows[game.index[p]] is not None]
    if not scored:
        no_low = any(v is not None for v in lows)
        return spec_split(amount, high_winners, order), len(high_winners) > 1, no_low
    best = max(lows[game.index[p]] for p in scored)
    low_winners = [p for p in scored if lows[game.index[p]] == best]
    half_low = amount // 2
    shares = dict.fromkeys(eligible, 0)
    if set(low_winners) == set(high_winners):  # identical hands both ways: one even split of the pot
        for p, n in spec_split(amount, high_winners, order).items():
            shares[p] += n
        return shares, True, False
    for p, n in spec_split(amount - half_low, high_winners, order).items():
        shares[p] += n
    for p, n in spec_split(half_low, low_winners, order).items():
        shares[p] += n
    # a halved pot counts as split: pokerkit mucks hands that cannot win anything before pushing, which
    # merges pots whose remaining players are the same, and halves the merged pot once (odd chips)
    return shares, True, False
