"""Differential play: ``pokerroom.engine`` against pokerkit as an oracle (NL/PL hold'em, Omaha, badugi, draw).

One *game* is a seeded ``setup`` of our engine with random options, played with random actions until a number
of hands have been compared (or the game ends). Every hand is mirrored in a fresh ``pokerkit.State``:

* **Seats.** pokerkit player ``i`` is ``hand.order[i]`` of our engine: the seat after the dealer first, the
  dealer last. That is pokerkit's own convention (player 0 is the small blind, the last player the button), so
  the action order needs no translation. Heads-up is the one blind exception and pokerkit handles it the same
  way as §5.1 step 4: with two players pokerkit makes player 0 (our ``order[0]``, the non-dealer) post the
  *big* blind and player 1 (the dealer) the small one, the dealer acts first preflop and last afterwards
  (§5.3).
* **Stacks and forced bets.** Starting stacks are our ``stack_at_hand_start`` (state JSON), the blinds
  ``(max(1, baseUnit // 2), baseUnit)`` of the hand (so blind increases are followed), antes ``baseUnit`` for
  the draw games (§2.1: with NL/PL betting the non-community modes keep the ante). A stack below a forced bet
  posts it all and is all-in in both engines (§5.1 step 4: pokerkit's "effective" blind/ante is the same min).
* **Cards.** Nothing is shuffled by pokerkit: every hole card is read from the owner's own ``view``
  (``me.hole``), board cards from the public view, burn cards from the state JSON (``hand.muck``), and dealt
  to pokerkit to the same player, so both engines evaluate the same hands. Draw discards are the ones we sent
  to our engine; the replacements are read back from the owner's view.
* **Actions.** At every decision the legal actions are compared (who acts, call amount, whether a raise is
  possible, its min/max ``to``, the pot-limit cap of ``nl.allIn``), then one of *our* ``legalActions`` is
  picked at random and applied to both; raises just outside the range are sent too and must be refused by
  both. Stacks, round bets and the pot total are compared at every decision.
* **Hand end.** Final stacks, contested pots (amount and eligible players), the winners of every contested pot
  and the per-pot award amounts are compared.

Known semantic differences, each handled explicitly (``DIFFERENCES`` lists them for the report):

``odd-chip``
    §6.1 hands the odd chips of a split pot out one at a time from the first winner after the dealer; pokerkit
    gives the whole remainder to the first winner in player order. With two winners they agree; with three or
    more and a remainder of 2+ they do not. The harness recomputes pokerkit's result with the §6.1 rule from
    pokerkit's own pots and winners, and checks that pokerkit's actual result differs only by that remainder.
``incomplete-raise``
    §5.3/§10: a player who already acted and then faces an incomplete all-in raise may only call or fold,
    "even if a full raise happened before" (A bets 100, B raises to 300, C all-in 350: A and B call/fold).
    pokerkit reopens the betting for anyone who has not acted since the last *full* raise (A above), and also
    when a short all-in bet is the first bet of a street (pokerkit then counts that short bet as the street's
    raise size). When our engine refuses the raise for exactly this reason and pokerkit allows it, the harness
    accepts the difference (only call/fold are then played, which both engines accept).
``short-all-in-sum``
    pokerkit adds consecutive short all-ins and, once they make a full raise, starts a new sum; a player who
    acted since then is locked by the *new* sum alone even if the total raise since their own action is a full
    raise. Our engine (and §5.3 "several short all-ins can add up to one full raise") looks at the whole
    increase since the player's last action. When pokerkit refuses a raise our engine allows for that reason,
    the raise is not played in that spot.
``pointless-raise``
    pokerkit refuses a raise when every other player still in is all-in or cannot even call the current bet;
    §8.2 has no such rule and our engine offers the raise (the excess always comes back uncalled). The raise
    is not played in that spot.
``free-fold``
    §8.2: ``nl.fold`` is always allowed (the UI only asks for confirmation when checking is free). pokerkit's
    tournament mode refuses such a fold, its cash-game mode warns; the mirror runs in cash-game mode (one
    run-out, no rake) and accepts exactly that warning.
``closed-betting``
    §5.2 (and §5.3 "라운드 종료 조건은 5.2와 같다"): when at most one player can still act and that player has
    matched the bet, the remaining cards are dealt without betting. pokerkit still asks that last player to
    act in a new street (e.g. the flop opener folds, the other opponents are all-in). The harness plays the
    only neutral action, a check, in pokerkit for them.
``pot-shape``
    pokerkit returns a bet nobody could match when the bets are collected; our engine returns the unmatched
    part of a *betting* round at round end (§5.5) but keeps chips that never faced a round (e.g. a small blind
    above a big blind that is all-in for less) as a pot with a single eligible player, which goes back to its
    owner unseen (§5.5 "자격자가 1명뿐인 팟"). Only pots with two or more eligible players are compared
    one to one; single-eligible pots are covered by the final stacks. When everybody else folds, pokerkit
    leaves the winner's own bet out of the pot; those hands compare the winner and the final stacks.
``short-blind``
    rulings.md 4: a big blind all-in for less than a full blind leaves the full big blind as the amount to
    call, and the minimum raise at twice the big blind. pokerkit rules the other way: its amount to call is
    the largest bet actually posted (``max(bets)``: the short big blind, or the small blind when the big blind
    is even shorter) and its minimum raise that plus one big blind. pokerkit has no setting for the ruling, so
    a hand that starts with a short big blind is not mirrored: it is played in our engine alone and every
    preflop decision is checked against the ruling written out here (call up to one big blind, minimum raise
    to two, while nobody has raised). A short *small* blind needs nothing: both engines keep the big blind as
    the amount to call, and those hands are mirrored as usual.
``side-pot-no-low`` (Omaha Hi-Lo)
    pokerkit cuts every pot into a high and a low half as soon as anybody in the hand has a low; in a side
    pot none of whose players has one it gives the "low" half to that pot's players still holding a live
    hand ("no low" ties "no low"), where the rule gives the high the whole pot. The harness recomputes every
    pot by the rule from pokerkit's own pots and hands (``hilo_shares``) and checks our result against that;
    pokerkit's own final stacks are then not compared. Everything else of Omaha Hi-Lo (high and low winners,
    the halves, quartered lows, odd chips per §6.1) is compared like the high-only games; a halved pot counts
    as split for ``odd-chip``, because pokerkit mucks hands that cannot win before it pushes, merging pots
    whose remaining players are the same, and halves the merged pot once.
``reshuffle``
    when a draw runs the deck out, §5.4.5 reshuffles earlier discards; pokerkit would have reshuffled its own
    way and warns that the card we deal is "not recommended" (and that it is "returning reserved cards").
    Those warnings are accepted only in a hand where our engine announced a ``reshuffle``.

Everything pokerkit does is run with warnings turned into errors, so any other warning is a failure.

(The harness is a package, one module a job: ``mirror`` builds pokerkit's side of a hand, ``game`` plays our
engine and keeps pokerkit in step, ``betting`` compares each decision, ``showdown`` each hand's end, and
``report`` holds what a run counts and raises. ``python -m pokerkit_oracle`` from tests/oracle hunts with
other seeds.)
"""

from __future__ import annotations

from collections.abc import Callable

from .game import Game
from .mirror import VARIANTS, Variant, make_pk_state, pk_card, strict
from .report import DIFFERENCES, Discrepancy, Stats
from .showdown import spec_split

__all__ = [
    "DIFFERENCES", "VARIANTS", "Discrepancy", "Game", "Stats", "Variant", "hunt", "make_pk_state", "pk_card",
    "run", "spec_split", "strict",
]


def run(variant: Variant, seeds: range, hands_per_game: int,
        on_game: Callable[[Game], None] | None = None) -> Stats:
    """Play ``len(seeds)`` games of ``variant``; raises :class:`Discrepancy` at the first disagreement."""
    total = Stats()
    for seed in seeds:
        game = Game(variant, seed)
        total.add(game.play(hands_per_game))
        if on_game is not None:
            on_game(game)
    return total


def hunt(variant: Variant, seeds: range, hands_per_game: int) -> tuple[list[str], Stats]:
    """Like :func:`run` but collects every discrepancy (one per game) instead of stopping at the first."""
    found = []
    total = Stats()
    for seed in seeds:
        game = Game(variant, seed)
        try:
            game.play(hands_per_game)
        except Discrepancy as exc:
            found.append(str(exc))
        total.add(game.stats)
    return found, total
