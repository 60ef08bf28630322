"""Decisions about cards, not chips: 7 Poker's discard-and-open choice, draw exchanges, hi-lo declaration.

Why apart from the betting (:mod:`.bets`): these phases ask which cards to keep, show or play for, from the
bot's own cards only; none of them weighs a price. ``normal`` declares hi-lo by its Monte Carlo equity.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np

from pokerroom.bots.actions import Action, Level
from pokerroom.bots.situation import Situation
from pokerroom.bots.strength import (
    badugi_high,
    badugi_keep,
    best_low,
    high_value_rank,
    low_score,
    mc_equity,
)
from pokerroom.cards import Card

# --- 7 Poker choice -----------------------------------------------------------------------------------------

#: Three different ranks kept, by the distance from the lowest to the highest (an ace high or low, whichever
#: is closer): in a row, one gap, two gaps. The fewer the gaps, the more straights complete them.
STRAIGHT_DRAW = {2: 1.5, 3: 1.0, 4: 0.5}
#: 7 Poker Hi-Lo's choice, weighed for the low as well (see :func:`_kept_score`): three different low ranks
#: (ace low, 8 or under) kept, two kept, a pair kept, and what each unpaired card above 7 costs per rank.
HILO_THREE_LOWS = 8.0
HILO_TWO_LOWS = 1.0
HILO_PAIR = 2.0
HILO_HIGH_CARD = 0.5


def _kept_score(kept: tuple[Card, ...], hilo: bool) -> float:
    """How good three kept cards of a 7 Poker choice are (higher is better): made sets, a flush or straight
    draw (the back straight's A-2-3 included: A-2-3-4-5 is a straight, §6.2; three in a row worth more than
    three with gaps), then the ranks.

    Why the hi-lo weights: checked against the odds tool's equity of each of the four discards (random
    opponents to the showdown), a high-only score gave away 2-3 points of a hi-lo pot per choice and
    picked a best discard about half the time: it threw low cards away to keep kings. Three low ranks are
    worth most of a hi-lo hand, a pair much less than in 7 Poker, and a high card costs more the higher it
    is; so weighted, the choice gives away about 0.2 points and picks a best discard four times in five
    (``tests/bots/test_choices.py``; docs/decisions/0065-seven-poker-choice-weighed-for-the-low.md)."""
    ranks = Counter(c.rank for c in kept)
    shape = sorted(ranks.values(), reverse=True)
    score = sum(c.rank for c in kept) / 100
    if shape[0] == 3:
        score += 10
    elif shape[0] == 2:
        score += (HILO_PAIR if hilo else 5) + max(r for r, n in ranks.items() if n == 2) / 14
    if len({c.suit for c in kept}) == 1:
        score += 2
    high = sorted(ranks)
    low = sorted(1 if r == 14 else r for r in ranks)
    if len(ranks) == 3:
        score += STRAIGHT_DRAW.get(min(high[-1] - high[0], low[-1] - low[0]), 0.0)
    if hilo:
        lows = sum(1 for r in low if r <= 8)
        score += HILO_THREE_LOWS if lows == 3 else HILO_TWO_LOWS if lows == 2 else 0.0
        score -= HILO_HIGH_CARD * sum(r - 7 for r, n in ranks.items() if n == 1 and 7 < r < 14)
    return score


def choose(sit: Situation, level: Level, rng: np.random.Generator) -> Action:
    cards = sit.hole
    hilo = sit.mode == "sevenHiLo"
    if level == "easy":
        # Throw the lowest card, show a random one of the rest that is not part of a pair.
        order = sorted(cards, key=lambda c: (c.rank, c.suit))
        discard = order[0]
        rest = [c for c in cards if c.id != discard.id]
        counts = Counter(c.rank for c in rest)
        singles = [c for c in rest if counts[c.rank] == 1] or rest
        show = singles[int(rng.integers(len(singles)))]
        return {"type": "choose", "discardId": discard.id, "openId": show.id}
    best: tuple[float, int, int] | None = None
    for discard in cards:
        kept = tuple(c for c in cards if c.id != discard.id)
        base = _kept_score(kept, hilo)
        counts = Counter(c.rank for c in kept)
        for show in kept:
            # Hide made pairs; otherwise show the card that tells the least (a middling single).
            hidden_bonus = 0.6 if counts[show.rank] == 1 else 0.0
            score = base + hidden_bonus - abs(show.rank - 8) / 100
            cand = (score, -discard.id, -show.id)
            if best is None or cand > best:
                best = cand
    assert best is not None
    return {"type": "choose", "discardId": -best[1], "openId": -best[2]}


# --- draws --------------------------------------------------------------------------------------------------

def _five_keep(cards: list[Card], level: Level) -> list[Card]:
    counts = Counter(c.rank for c in cards)
    shape = sorted(counts.values(), reverse=True)
    suits = Counter(c.suit for c in cards)
    ranks = sorted({c.rank for c in cards})
    straight = len(ranks) == 5 and (ranks[-1] - ranks[0] == 4 or ranks == [2, 3, 4, 5, 14])
    if shape[0] >= 4 or (shape[0] == 3 and shape[1] == 2) or max(suits.values()) == 5 or straight:
        return list(cards)
    if shape[0] >= 2:
        return [c for c in cards if counts[c.rank] >= 2]
    if level == "normal":
        suit, n = suits.most_common(1)[0]
        if n == 4:
            return [c for c in cards if c.suit == suit]
        for lo in range(2, 12):
            window = [c for c in cards if lo <= c.rank <= lo + 3]
            if len({c.rank for c in window}) == 4:
                return window
        high = sorted(cards, key=lambda c: c.rank, reverse=True)
        return [c for c in high[:2] if c.rank >= 11] or high[:1]
    return sorted(cards, key=lambda c: c.rank, reverse=True)[:2]


def draw(sit: Situation, spec: dict[str, Any], level: Level) -> Action:
    ids = [int(i) for i in spec.get("cardIds", [])]
    hand = [c for c in sit.hole if c.id in ids] or list(sit.hole)
    lo, hi = int(spec.get("min", 0)), int(spec.get("max", len(hand)))
    ace_max = spec.get("maxKeepingAce")
    if sit.mode == "badugi":
        draws_done = len(sit.my_draw_counts)
        # normal breaks a rough made hand (Q or K high) only at the first of the three exchanges
        break_above = 13 if level == "easy" or draws_done >= 1 else 11
        keep = badugi_keep(hand, break_above, high=badugi_high(sit))
    else:
        keep = _five_keep(hand, level)
    discard = [c for c in hand if c not in keep]
    limit = hi
    if ace_max is not None and any(c.rank == 14 for c in keep):
        limit = max(hi, int(ace_max))
    if len(discard) > limit:
        # Keep the best of the would-be discards (highest for high hands, lowest for badugi).
        badugi = sit.mode == "badugi" and not badugi_high(sit)
        discard.sort(key=lambda c: (1 if c.rank == 14 else c.rank) if badugi else -c.rank, reverse=True)
        discard = discard[:limit]
        kept_after = [c for c in hand if c not in discard]
        if ace_max is not None and len(discard) > hi and not any(c.rank == 14 for c in kept_after):
            discard = discard[:hi]
    if len(discard) < lo:
        extra = [c for c in hand if c not in discard][: lo - len(discard)]
        discard += extra
    return {"type": "draw", "cardIds": [c.id for c in discard]}


# --- hi-lo declaration -------------------------------------------------------------------------------------

def declare(sit: Situation, level: Level, rng: np.random.Generator, samples: int,
            equity: float | None = None) -> Action:
    """High, low or swing; ``equity``: the high equity when the caller has it (a hint), else a Monte Carlo."""
    legal = sit.legal_types()["declare"]
    sides = list(legal.get("sides", ["high", "low", "swing"]))
    cards = sit.hole + sit.up
    a5 = sit.options.get("hiLoLow") == "aceToFive"
    q8 = sit.options.get("hiLoQualifier") == "eight"
    low = low_score(cards, a5, q8)
    has_low = best_low(cards, a5) is not None and low > 0.05
    if level == "easy":
        side = "low" if has_low and low >= 0.66 and high_value_rank(cards) <= 1 else "high"
    else:
        high = mc_equity(sit, rng, samples) if equity is None else equity
        if high > 0.85 and low > 0.85 and "swing" in sides:
            side = "swing"
        elif has_low and low > high:
            side = "low"
        else:
            side = "high"
    if side not in sides:
        side = sides[0]
    return {"type": "declare", "side": side}
