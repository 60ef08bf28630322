"""Betting decisions: check, bet, call, raise or fold, and how big, for both levels (see :mod:`.policy`).

Why one module: whether to put chips in and how many are one judgement here: the equity a bot needs, the
price it pays (:func:`range_equity`) and the caps on what a hand may cost (:data:`COMMIT_CAP`,
:data:`HAND_CAP`, the deep games' :func:`_deep_fraction`) all meet in :func:`bet`. docs/bots.md has the
figures these constants were tuned on.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from pokerroom.bots.actions import Action, Level, call_or_check, can_raise, check, fold
from pokerroom.bots.situation import Situation
from pokerroom.bots.strength import (
    indian_top_chance,
    low_score,
    mc_equity,
    omaha_low_score,
    quick_strength,
)


def _strength(sit: Situation, level: Level, rng: np.random.Generator, samples: int,
              equity: float | None = None) -> float:
    if level == "easy":
        return _quick_with_low(sit)
    # Omaha Hi-Lo: already the hi-lo pot share; ``equity``: the hint's estimate (:mod:`.hint`)
    eq = mc_equity(sit, rng, samples) if equity is None else equity
    if sit.mode == "badugi":
        # The Monte Carlo deals a player who stood pat a made badugi only about one time in five (the first of
        # two random hands that holds one); people stand pat with a badugi. Each pat opponent prices my
        # equity as a bettor does (see range_equity): without this two made badugis raised each other all-in.
        pat = sum(1 for o in sit.opponents if o.draw_counts and o.draw_counts[-1] == 0)
        if pat:
            eq = eq ** (1.0 + PAT_WEIGHT * pat / max(1, len(sit.opponents)))
    if sit.mode == "sevenHiLo":
        cards = sit.hole + sit.up
        a5 = sit.options.get("hiLoLow") == "aceToFive"
        low = low_score(cards, a5, sit.options.get("hiLoQualifier") == "eight")
        # A strong low wins half the pot on its own; a hand good both ways is worth more than either.
        eq = max(eq, 0.5 * eq + 0.5 * low, 0.6 * low)
    return eq


#: Wire types that bet or raise (blinds and antes are forced, not counted).
AGGRESSIVE = frozenset({"k.ping", "k.quarter", "k.half", "k.full", "k.ddadang", "nl.raise", "nl.allIn"})

#: Heads-up, ``normal`` bets a checked-to hand as a bluff this often, and raises first in with equity above
#: this share of the average (most better-than-even hands, as heads-up players do).
BLUFF = 0.05
HEADS_UP_OPEN = 1.1

#: Range-priced equity needed to raise again after being raised back (a raising war): only a near-lock.
WAR_NUTS = 0.95
#: Equity above which a bet or raise may put in more than :data:`COMMIT_CAP` of the stack. 0.85 let trips
#: after a draw (about 0.9 against random hands) bet whole stacks into each other at six players.
STRONG = 0.92

#: The same bar in the deep games (:func:`deep_game`): there equity against random hands saturates (two pair
#: after the draw, a made badugi, trips at 6구), and 0.92 let the second-best hand bet its stack.
DEEP_STRONG = 0.97

#: How much a badugi opponent standing pat lowers my equity (an exponent, as in :func:`range_equity`).
PAT_WEIGHT = 3.0

#: Betting rounds of the ante games that compound (the draw and stud games). With no-limit or pot-limit chips
#: these are the "deep" games: a pot bet on every round doubles the pot four times, so a stack of 100 antes is
#: in by the last round (six normal bots busted someone every 9.5–13 hands before these games were capped;
#: docs/bots.md).
BETTING_ROUNDS = {"sevenPoker": 4, "sevenHiLo": 4, "badugi": 4, "fiveDraw": 2}

#: How strongly a price shifts the equity needed (see :func:`range_equity`).
PRICE_WEIGHT = 4.0
COMMIT_WEIGHT = 1.5


def raises_this_round(sit: Situation) -> int:
    """How many live opponents bet or raised in this betting round (their ``lastAction`` this round)."""
    return sum(1 for o in sit.opponents if o.last_action in AGGRESSIVE)


def range_equity(strength: float, n_opp: int, amount: int, pot: int, stack: int, aggressors: int,
                 invested: int = 0) -> float:
    """My equity against the hands that would put in this bet, from my equity against random hands.

    Why: equity is measured against random hands, but a player who bets or raises holds a stronger hand than a
    random one, and the bigger the bet (against the pot, and against my stack: the call that puts a stack in)
    the stronger. Equity against ``n`` random hands is about ``e1 ** n`` for a per-opponent equity ``e1``;
    raising each aggressor's factor to the power ``1 + w`` (``w`` = price weight) gives
    ``strength ** (1 + w * aggressors / n)``. Without this the bots called every all-in with any pair: nine of
    them were all-in on hand 1 (docs/bots.md).

    ``invested`` (the chips I already put in this hand) makes the commitment the share of the hand's starting
    stack that will be in after the call: over several rounds each bet is a modest share of what is left,
    yet a player who keeps betting into a pot that outgrew the stacks holds a strong hand. ``aggressors`` may
    exceed ``n_opp`` by one: a raise over my own bet is a re-raise, a stronger range than a first bet.
    """
    if amount <= 0:
        return strength
    price = amount / (pot + amount)
    commit = min(1.0, (amount + invested) / max(1, stack + invested))
    k = min(aggressors, n_opp + 1)
    if k == 0:
        return strength  # blinds and antes are forced: they say nothing about the hand
    weight = (PRICE_WEIGHT * price + COMMIT_WEIGHT * commit) * k / max(1, n_opp)
    return float(strength ** (1.0 + weight))


def _quick_with_low(sit: Situation) -> float:
    """The easy level's made-hand strength, in Omaha Hi-Lo also what a low is worth (half the pot)."""
    base = quick_strength(sit)
    if sit.mode != "omaha" or sit.options.get("omahaHiLo") is not True:
        return base
    low = omaha_low_score(sit.hole, sit.board)
    return max(base, 0.5 * base + 0.5 * low, 0.6 * low)


def bet(sit: Situation, level: Level, rng: np.random.Generator, samples: int,
        equity: float | None = None) -> Action:
    """The betting decision; ``equity`` (``normal`` only): my equity when the caller has it already."""
    legal = sit.legal_types()
    korean = any(t.startswith("k.") for t in legal)
    strength = _strength(sit, level, rng, samples, equity)
    n_opp = max(1, len(sit.opponents))
    fair = 1.0 / (n_opp + 1)
    call = legal.get("k.call") or legal.get("nl.call")
    can_check = "k.check" in legal or "nl.check" in legal
    pot = max(sit.pot_total, 1)
    if not can_check and call is None and can_raise(legal):
        return _forced_opening(legal, strength / fair if level == "normal" else strength * 2)
    raises = raises_this_round(sit)
    if level == "easy":
        return _easy_bet(sit, legal, korean, strength, rng, call, can_check, pot, raises)
    # Indian poker has a single betting round, so nothing compounds: the old bar (0.85) stays there.
    strong_bar = 0.85 if sit.mode == "indian" else DEEP_STRONG if deep_game(sit, korean) else STRONG
    # Thresholds grow with the table: against many players an average share is small and noisy.
    bar = 1.0 + 0.04 * (n_opp - 1)
    if can_check:
        rel = strength / fair
        # Korean half-pot bets compound over five rounds: bet half only with a clearly better hand.
        if rel > (1.9 if korean else 1.5) * bar:
            return _raise(sit, legal, korean, big=True, strong=strength > strong_bar)
        if rel > 1.15 * bar or (n_opp == 1 and rng.random() < BLUFF):
            return _raise(sit, legal, korean, big=False)
        return check(legal)
    assert call is not None or "k.die" in legal or "nl.fold" in legal
    if call is None:
        return fold(legal)
    amount = int(call["amount"])
    # Folding is free except in Indian poker with the 10-penalty: there a fold costs the penalty with the
    # chance that my unseen forehead is the top card, so calling is worth that much more.
    fold_cost = 0.0
    if sit.mode == "indian" and sit.options.get("indianFoldPenalty", True):
        fold_cost = indian_top_chance(sit) * 10 * sit.base_unit
    pot_odds = max(0.0, amount - fold_cost) / (pot + amount) if amount else 0.0
    war = sit.my_last_action in AGGRESSIVE
    if deep_game(sit, korean):
        # Deep games: the range behind a bet grows with what the hand has cost me, and a raise over my own bet
        # is a re-raise (this is what folds a second-best hand to the last round's raise).
        eq = range_equity(strength, n_opp, amount, pot, sit.stack, raises + (1 if war else 0),
                          invested=sit.my_committed_total)
    else:
        eq = range_equity(strength, n_opp, amount, pot, sit.stack, raises)
    rel = eq / fair
    commit = amount / max(1, sit.stack)
    if can_raise(legal):
        # First in (over blinds or antes): a value raise; heads-up most better-than-even hands.
        if raises == 0 and rel > (HEADS_UP_OPEN if n_opp == 1 else 1.25 * bar):
            return _raise(sit, legal, korean, big=rel > 1.6 * bar, strong=eq > strong_bar)
        # Re-raising gets harder with every raise already made; beyond that only a near-certain winner.
        # When I already bet or raised this round and am raised back, that is a raising war: re-raise again
        # only with a near-certain winner against the raiser's range (two "strong" hands after a draw kept
        # raising each other all-in).
        nuts = WAR_NUTS if war else strong_bar
        steps = raises + (1 if war else 0)
        # In the deep games a raising war stops at my first re-raise: raised back, I call or fold. Equity
        # against random hands saturates there (two pair after the draw, any made badugi: 0.95+), so no
        # equity bar told a near-lock from the second-best hand, and both raised to the last chip.
        capped = war and deep_game(sit, korean)
        if raises > 0 and not capped and ((not war and rel > (1.7 + 0.5 * steps) * bar) or eq > nuts):
            big = rel > (2.1 + 0.5 * steps) * bar or eq > nuts
            return _raise(sit, legal, korean, big=big, strong=eq > nuts)
    if eq >= pot_odds * 1.05 or (amount <= max(1, sit.base_unit // 2) and rel > 0.8):
        return {"type": str(call["type"])}
    # A cheap call with an above-average hand: the chips to win later (implied odds) pay for it.
    if commit < 0.06 and rel > 1.05 * bar:
        return {"type": str(call["type"])}
    return fold(legal)


def deep_game(sit: Situation, korean: bool) -> bool:
    """A draw or stud game played with no-limit or pot-limit chips (see :data:`BETTING_ROUNDS`)."""
    return not korean and sit.mode in BETTING_ROUNDS


def _indian_low_table(sit: Situation) -> bool:
    """Indian poker: no forehead across the table is one of the deck's top two ranks (9–10 of the 20-card
    deck, K–A of the 52-card one), which is when a beginner bets."""
    top = 14 if sit.options.get("indianDeck") == "d52" else 10
    seen = [o.forehead.rank for o in sit.opponents if o.forehead is not None]
    return bool(seen) and max(seen) <= top - 2


def _easy_bet(sit: Situation, legal: dict[str, dict[str, Any]], korean: bool, s: float,
              rng: np.random.Generator,
              call: dict[str, Any] | None, can_check: bool, pot: int, raises: int) -> Action:
    """Loose and passive, like a beginner at a home game: small bets with decent hands, calls cheap prices
    with almost anything, calls big ones only with a real hand, and never starts a raising war.

    A beginner still gets careful when the call is a big part of the stack, which is what keeps a table of
    easy bots from going all-in together.
    """
    n_opp = max(1, len(sit.opponents))
    if sit.mode == "badugi":
        s -= 0.12  # quick_strength rates the common two-card badugi like a pair: a beginner wants three cards
    if can_check:
        if sit.mode == "indian" and n_opp > 1 and _indian_low_table(sit) and rng.random() < 0.8:
            # Indian poker is the game of betting into low foreheads: a beginner who sees no high card
            # across the table bets (and the others, seeing a low card on its forehead, call or fold).
            # Multiway only: heads-up one low card is no news, and betting into it there just pays `normal`
            # less (z fell from 2.4 to 1.6).
            return _raise(sit, legal, korean, big=False)
        if s > 0.5 and rng.random() < s - 0.1:
            return _raise(sit, legal, korean, big=False)
        if "k.ping" in legal and s > 0.35 and rng.random() < 0.5:
            return {"type": "k.ping"}  # the Korean beginner's favourite: one base unit to see who stays
        if (not korean and sit.mode not in ("holdem", "omaha", "indian") and "nl.raise" in legal
                and s > 0.35 and rng.random() < 0.5):
            # The same habit with no-limit/pot-limit chips in the ante games: the smallest bet.
            return {"type": "nl.raise", "to": int(legal["nl.raise"]["min"])}
        return check(legal)
    if call is None:
        return fold(legal)
    amount = int(call["amount"])
    price = amount / (pot + amount)
    commit = min(1.0, amount / max(1, sit.stack))
    # First in with a pair or two big cards in the hand (the beginner's "premium"): often a raise.
    # (Omaha's four cards hold a pair a third of the time: there only a good pair counts.)
    premium = s > (0.5 if sit.mode == "omaha" else 0.4) or (
        sit.mode == "holdem" and sit.street == 0 and all(c.rank >= 12 for c in sit.hole))
    if can_raise(legal) and ((s > 0.85 and raises < 2) or (premium and raises == 0)) and rng.random() < 0.8:
        return _raise(sit, legal, korean, big=False)
    cheap = amount <= 2 * sit.base_unit or price <= 0.12
    # Looser heads-up, tighter at a full table (people play fewer hands there too).
    loose = 0.75 if n_opp == 1 else max(0.06, 0.25 - 0.03 * n_opp)
    # What a beginner plays for a cheap price: any ace or pair; in Omaha (four cards pair up often) the better
    # pairs; in 5-card draw a pair.
    playable = {"omaha": 0.45, "fiveDraw": 0.38}.get(sit.mode, 0.31)
    if cheap and commit < 0.1 and (s > playable or rng.random() < loose):
        return {"type": str(call["type"])}
    need = 0.3 + 0.6 * price + 0.45 * commit
    if s > need or (commit < 0.1 and rng.random() < 0.05):
        return {"type": str(call["type"])}
    return fold(legal)


def _forced_opening(legal: dict[str, dict[str, Any]], rel: float) -> Action:
    """491/591 룰 (docs/rules-extensions.md): nobody has bet and only the opening size or 다이 is legal.

    Dying gives up the antes already in, so an average hand (``rel`` ≈ 1) still opens; only clearly weak
    hands die. ``rel`` is strength relative to a fair share (easy bots pass twice their quick strength).
    """
    opening = next((t for t in ("k.half", "k.quarter", "k.ping", "k.full") if t in legal), None)
    if opening is not None and rel >= 0.75:
        return {"type": opening}
    return fold(legal)


#: Share of the stack a bet or raise may put in unless the hand is very strong: people do not bet a third
#: of their chips on a hand they would fold to a raise.
COMMIT_CAP = 0.3
#: Share of the hand's starting stack that a hand may cost through the bot's own bets and raises unless it
#: is very strong (calls may still go further when the price is right).
HAND_CAP = 0.4


def _raise(sit: Situation, legal: dict[str, dict[str, Any]], korean: bool, big: bool,
           strong: bool = False) -> Action:
    """Korean: 하프 (big) or 삥/쿼터 (small), 따당 when that is what is left.

    NL/PL: about 70 % (big) or 40 % (small) of the pot after calling, clamped to the legal min/max.

    Unless ``strong``, a raise never puts in more than :data:`COMMIT_CAP` of the stack: the bot picks a
    smaller size, or calls/checks when even the smallest is too big. Why: in Korean betting half-pot raises
    grow the pot geometrically, and without a cap a medium hand committed whole stacks.
    """
    # Also over the whole hand: small raises on every street add up to a stack when the pot grows each round.
    hand_cap = HAND_CAP * (sit.stack + sit.my_committed_total) - sit.my_committed_total
    cap = sit.stack if strong else max(0.0, min(COMMIT_CAP * sit.stack, hand_cap))
    if korean:
        big_prefs = ["k.half", "k.quarter", "k.ddadang", "k.ping"]
        small_prefs = ["k.ping", "k.quarter", "k.ddadang", "k.half"]
        for t in big_prefs if big else small_prefs:
            if t in legal and int(legal[t].get("amount", 0)) <= cap:
                return {"type": t}
        return call_or_check(legal)
    rs = legal.get("nl.raise")
    if rs is None:
        if "nl.call" in legal:
            return {"type": "nl.call"}
        if "nl.allIn" in legal and strong:
            return {"type": "nl.allIn"}
        return call_or_check(legal)
    frac = 0.7 if big else 0.4
    if sit.mode not in ("holdem", "omaha", "indian"):
        # The draw and stud games have three to five betting rounds (hold'em has four, but most pots end
        # before the river): 70 % pot bets compounded over them put whole stacks in on one hand (seen in
        # NL draw). Indian has a single round, so nothing compounds there.
        frac = 0.5 if big else 0.3
    pot_after_call = sit.pot_total + sit.to_call
    if deep_game(sit, korean):
        frac = _deep_fraction(sit, frac, strong, pot_after_call)
    target = sit.current_bet + int(frac * pot_after_call)
    lo, hi = int(rs["min"]), int(rs["max"])
    target = max(lo, min(hi, target))
    limit = sit.committed_round + int(cap)
    if target > limit:
        if lo > limit:
            return call_or_check(legal)  # even the smallest raise commits too much
        target = limit
    return {"type": "nl.raise", "to": target}


#: Largest bet, as a share of the pot, before the last betting round of a deep game (big / small bets).
EARLY_FRAC = (0.33, 0.25)


def _deep_fraction(sit: Situation, frac: float, strong: bool, pot: int) -> float:
    """The pot fraction of a bet in a deep game: small before the last round, and, unless ``strong``, no
    bigger than lets the pot grow over the rounds left to :data:`HAND_CAP` of the stack.

    Why: people in these games rarely pot it before the last draw (or before 7구); they keep the big bets
    for when the hands are made. If both players bet ``f`` of the pot and call on each of the ``n`` rounds
    left, the pot grows by ``(1 + 2f) ** n`` and I put in half of the growth; solving that for the chips I
    may still put in gives the geometric fraction.
    """
    left = max(1, BETTING_ROUNDS[sit.mode] - sit.street)
    if left > 1:
        frac = min(frac, EARLY_FRAC[0] if frac >= 0.5 else EARLY_FRAC[1])
    if strong:
        return frac
    room = HAND_CAP * (sit.stack + sit.my_committed_total) - sit.my_committed_total
    if room <= 0:
        return 0.0
    geometric = (float((1.0 + 2.0 * room / max(1, pot)) ** (1.0 / left)) - 1.0) / 2.0
    return min(frac, geometric)
