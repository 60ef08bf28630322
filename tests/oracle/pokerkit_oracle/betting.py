"""Each betting decision compared: the legal actions of our engine against pokerkit's (who acts, the call, the
raise bounds, the pot-limit cap of an all-in), out-of-range raises probed in both, the action picked and
played in both, and the harness's own record of the round for the documented raise differences.

Apart from the game driver because the decision checks are the bulk of the harness and read on their own;
they are functions of the :class:`~pokerkit_oracle.game.Game` they check.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pokerroom.engine import apply
from pokerroom.rejections import Rejected

from .mirror import ACTED_SHORT_ALL_IN, FREE_FOLD_WARNING, POINTLESS_RAISE, strict

if TYPE_CHECKING:
    from .game import Game


@dataclass
class RoundTrack:
    """One betting round as the harness sees it from pokerkit's bets: the bet to match, the last full raise
    size (a big blind at the start), the bet right after the last full raise, and the bet each player last
    acted at."""

    street: int | None
    current: int
    full_bet: int
    raise_size: int
    acted_at: dict[str, int] = field(default_factory=dict)


def decide(game: Game, pub: dict[str, Any]) -> None:
    pk = game.pk
    assert pk is not None
    pid = pub["toAct"]
    game.sync()
    if pk.actor_index is None:
        raise game.fail(f"our engine waits for {pid} to bet; pokerkit expects no action")
    if game.order[pk.actor_index] != pid:
        raise game.fail(f"our engine waits for {pid}; pokerkit for {game.order[pk.actor_index]}")
    compare_chips(game)
    legal = game.view(pid)["me"]["legalActions"]
    choices = check_legal(game, pid, legal)
    action = choose(game, choices)
    game.hand_actions.append(f"{pid} {action}")
    apply_pk(game, pid, action, legal)
    game.act(pid, action)
    game.stats.actions += 1


def decide_short_blind(game: Game, pub: dict[str, Any]) -> None:
    """A decision in a hand with a short big blind (``short-blind``): rulings.md 4 checked directly."""
    pid = pub["toAct"]
    legal = game.view(pid)["me"]["legalActions"]
    kinds = {a["type"]: a for a in legal}
    seat = next(s for s in pub["seats"] if s["id"] == pid)
    unit, committed, stack = game.unit, seat["committedRound"], seat["stack"]
    if pub["street"] == 0 and pub["currentBet"] < unit:
        raise game.fail(f"short big blind: the bet to match is {pub['currentBet']}, not the big blind "
                        f"{unit}")
    if pub["street"] == 0 and pub["currentBet"] == unit:  # nobody has raised yet
        call = kinds.get("nl.call")
        if committed < unit and (call is None or call["amount"] != min(unit - committed, stack)):
            raise game.fail(f"short big blind: {pid} must call up to the big blind {unit}: {legal}")
        bounds = kinds.get("nl.raise")
        if bounds is not None and bounds["min"] != min(2 * unit, committed + stack):
            raise game.fail(f"short big blind: the minimum raise is to {2 * unit}: {legal}")
    action = choose(game, legal)
    game.hand_actions.append(f"{pid} {action}")
    game.act(pid, action)
    game.stats.actions += 1


def raw_bettor(game: Game, pid: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """Our engine's bettor and round (state JSON), for failure messages only."""
    hand = game.state.to_json()["hand"]
    return hand["bettors"][pid], hand["rnd"]


def check_legal(game: Game, pid: str, legal: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Compare our legal actions with pokerkit's; return the ones both engines accept."""
    pk = game.pk
    assert pk is not None
    game.stats.legal_checks += 1
    kinds = {a["type"]: a for a in legal}
    i = game.index[pid]
    stack = pk.stacks[i]
    with strict():
        call = pk.checking_or_calling_amount
    if call is None:
        raise game.fail(f"pokerkit refuses check/call for {pid}")
    to_call = max(pk.bets) - pk.bets[i]
    if ("nl.check" in kinds) != (to_call == 0):
        raise game.fail(f"check offered={'nl.check' in kinds} but pokerkit's amount to call is {to_call}")
    if ("nl.call" in kinds) != (to_call > 0):
        raise game.fail(f"call offered={'nl.call' in kinds} but pokerkit's amount to call is {to_call}")
    ours_call = kinds.get("nl.call")
    if ours_call is not None and (ours_call["amount"], ours_call["allIn"]) != (call, call >= stack):
        raise game.fail(f"call ours={kinds['nl.call']} pokerkit amount={call} of stack {stack}")
    if "nl.fold" not in kinds:
        raise game.fail("nl.fold is always legal (§8.2) but is missing")
    with strict():
        pk_fold = pk.can_fold()
    if to_call > 0 and not pk_fold:
        raise game.fail("pokerkit refuses a fold facing a bet")
    choices = [a for a in legal if a["type"] != "nl.raise" and a["type"] != "nl.allIn"]
    with strict():
        lo = pk.min_completion_betting_or_raising_to_amount
        hi = pk.max_completion_betting_or_raising_to_amount
    pk_reason = None
    if lo is None:
        try:
            with strict():
                pk.verify_completion_betting_or_raising_to()
            pk_reason = "(no reason given)"
        except ValueError as exc:
            pk_reason = str(exc)
    ours_raise = kinds.get("nl.raise")
    all_in = kinds.get("nl.allIn")
    if all_in is not None and all_in["amount"] != stack:
        raise game.fail(f"nl.allIn amount {all_in['amount']} is not the stack {stack}")
    if ours_raise is None and pk_reason is None:
        if spec_locked(game, pid):
            game.stats.differences["incomplete-raise"] += 1
        else:
            bettor, rnd = raw_bettor(game, pid)
            raise game.fail(f"pokerkit lets {pid} raise (min {lo}) but our engine does not: "
                            f"bettor={bettor} round={rnd} harness={round_track(game)}")
    elif ours_raise is not None and pk_reason is not None:
        if POINTLESS_RAISE in pk_reason and nobody_can_answer(game, pid):
            game.stats.differences["pointless-raise"] += 1
        elif ACTED_SHORT_ALL_IN in pk_reason and full_raise_since_acted(game, pid):
            game.stats.differences["short-all-in-sum"] += 1
        else:
            bettor, rnd = raw_bettor(game, pid)
            raise game.fail(f"our engine lets {pid} raise {ours_raise} but pokerkit refuses: "
                            f"{pk_reason}; bettor={bettor} round={rnd} harness={round_track(game)}")
    elif ours_raise is not None:
        assert lo is not None and hi is not None
        if (ours_raise["min"], ours_raise["max"]) != (lo, hi):
            raise game.fail(f"raise bounds ours=({ours_raise['min']}, {ours_raise['max']}) "
                            f"pokerkit=({lo}, {hi})")
        all_in_to = pk.bets[i] + stack
        pk_all_in = lo <= all_in_to <= hi  # pokerkit's verify_completion_betting_or_raising_to bounds
        if (all_in is not None) != pk_all_in:
            raise game.fail(f"all-in raise to {all_in_to}: ours offers={all_in is not None} "
                            f"pokerkit accepts={pk_all_in}")
        choices.append(ours_raise)
        if all_in is not None:
            choices.append(all_in)
    if all_in is not None and stack <= to_call and all_in not in choices:
        choices.append(all_in)  # an all-in call for less: a call in pokerkit
    if all_in is not None and stack > to_call and ours_raise is None:
        raise game.fail("nl.allIn above the call offered without nl.raise")
    if game.rng.random() < 0.25:
        probe(game, pid, ours_raise, pk_reason, pk.bets[i] + stack)
    return choices


def probe(game: Game, pid: str, ours_raise: dict[str, Any] | None, pk_reason: str | None,
          all_in_to: int) -> None:
    """Send raises just outside the legal range: our engine must refuse them (``Rejected``)
    and pokerkit must refuse them too."""
    pk = game.pk
    assert pk is not None
    if ours_raise is not None:
        wrong = [ours_raise["min"] - 1, ours_raise["max"] + 1]
    elif pk_reason is not None:
        wrong = [all_in_to]  # no raise at all in either engine
    else:
        return  # a documented difference (incomplete-raise): pokerkit would accept
    for to in wrong:
        if to < 0:
            continue
        try:
            apply(game.state, pid, {"type": "nl.raise", "to": to}, 0)
        except Rejected:
            pass
        else:
            raise game.fail(f"our engine accepts {pid} nl.raise to {to} outside {ours_raise}")
        with strict():
            if pk.can_complete_bet_or_raise_to(to):
                raise game.fail(f"pokerkit accepts a raise to {to} our engine refuses ({ours_raise})")
        game.stats.probes += 1


def round_track(game: Game) -> RoundTrack:
    """The harness's own record of the current betting round (reset when pokerkit's street changes)."""
    pk = game.pk
    assert pk is not None
    if game.round is None or game.round.street != pk.street_index:
        top = max(pk.bets)
        game.round = RoundTrack(pk.street_index, top, top, game.unit)
    return game.round


def spec_locked(game: Game, pid: str) -> bool:
    """§5.3/§10, from the harness's own record of the round (not from our engine's state): the player
    acted, and since then (or since the last full raise, if later) the bet rose by less than one full
    raise, so they may only call or fold."""
    r = round_track(game)
    if pid not in r.acted_at:
        return False
    return r.current - max(r.acted_at[pid], r.full_bet) < r.raise_size


def full_raise_since_acted(game: Game, pid: str) -> bool:
    return pid in round_track(game).acted_at and not spec_locked(game, pid)


def nobody_can_answer(game: Game, pid: str) -> bool:
    """Every other player still in is all-in or cannot even call the current bet."""
    pk = game.pk
    assert pk is not None
    top = max(pk.bets)
    return all(
        not pk.statuses[j] or pk.stacks[j] + pk.bets[j] <= top
        for j in range(len(game.order)) if j != game.index[pid]
    )


def choose(game: Game, choices: list[dict[str, Any]]) -> dict[str, Any]:
    rng = game.rng
    kinds = {a["type"]: a for a in choices}
    shove, raise_, fold = {  # probabilities of shoving, raising, folding to a bet
        "passive": (0.01, 0.06, 0.05), "calm": (0.03, 0.3, 0.2), "wild": (0.2, 0.3, 0.2),
        "mixed": (0.08, 0.3, 0.2),
    }[game.style]
    r = rng.random()
    if "nl.allIn" in kinds and r < shove:
        return {"type": "nl.allIn"}
    r = rng.random()
    if "nl.raise" in kinds and r < raise_:
        lo, hi = kinds["nl.raise"]["min"], kinds["nl.raise"]["max"]
        pick = rng.random()
        to = lo if pick < 0.4 or lo == hi else hi if pick < 0.55 else rng.randint(lo, hi)
        if pick > 0.9:  # keep a few chips behind: after a fold they make a short stack for the blinds
            to = max(lo, hi - rng.randint(1, game.unit))
        return {"type": "nl.raise", "to": to}
    if "nl.call" in kinds:
        return {"type": "nl.fold"} if rng.random() < fold else {"type": "nl.call"}
    if "nl.check" in kinds:
        return {"type": "nl.check"} if rng.random() < 0.97 else {"type": "nl.fold"}
    return {"type": "nl.fold"}


def apply_pk(game: Game, pid: str, action: dict[str, Any], legal: list[dict[str, Any]]) -> None:
    pk = game.pk
    assert pk is not None
    i = game.index[pid]
    kind = action["type"]
    to_call = max(pk.bets) - pk.bets[i]
    track = round_track(game)
    try:
        with strict(*((FREE_FOLD_WARNING,) if to_call == 0 else ())):
            if kind == "nl.fold":
                pk.fold()
                if to_call == 0:
                    game.stats.differences["free-fold"] += 1
            elif kind in ("nl.check", "nl.call"):
                pk.check_or_call()
            elif kind == "nl.allIn":
                if pk.stacks[i] <= to_call:
                    pk.check_or_call()
                else:
                    pk.complete_bet_or_raise_to(pk.bets[i] + pk.stacks[i])
                    game.stats.raises += 1
            else:
                pk.complete_bet_or_raise_to(action["to"])
                game.stats.raises += 1
    except (ValueError, UserWarning) as exc:
        raise game.fail(f"pokerkit refuses {pid} {action} (ours offered {legal}): {exc}") from None
    bet = pk.bets[i] if pk.street_index == track.street else None
    if bet is not None and bet > track.current:  # a bet or raise (pokerkit may already have collected)
        if bet - track.current >= track.raise_size:
            track.raise_size = bet - track.current
            track.full_bet = bet
        track.current = bet
    track.acted_at[pid] = track.current


def compare_chips(game: Game) -> None:
    """At every betting decision: every stack, every bet of this round and the pot total agree.

    Only at decisions: when the forced bets leave one player alone with chips (everyone else all-in for
    less than the ante/blind), pokerkit returns the unmatched part as it collects the bets, while our
    engine plays no betting round and returns it with the single-eligible pot at the end (``pot-shape``);
    in that hand nobody ever decides, and the final stacks are compared.
    """
    pk = game.pk
    assert pk is not None
    seats = {s["id"]: s for s in game.public()["seats"]}
    ours = [(seats[pid]["stack"], seats[pid]["committedRound"]) for pid in game.order]
    theirs = list(zip(pk.stacks, pk.bets, strict=True))
    if ours != theirs:
        raise game.fail(f"(stack, round bet) ours={ours} pokerkit={theirs}")
    if game.public()["potTotal"] != pk.total_pot_amount:
        raise game.fail(f"potTotal ours={game.public()['potTotal']} pokerkit={pk.total_pot_amount}")
