"""The hint's equity in the modes other than hold'em: exact where it is small, tables where the odds are a
function of few things, and otherwise a small Monte Carlo remembered by exactly what it depends on.

Why: a hint is what a ``normal`` bot would do, and the bot's equity is a Monte Carlo of 200-400 deals from a
generator seeded per decision (recorded bot decisions depend on that stream). Every decision point of every
human seat needs a hint, and that Monte Carlo cost more than the rest of an action (Badugi: three times
more). A hint owes nobody that stream; it owes a sensible number from what its seat can see, at a small
fraction of an action's cost (docs/decisions/0046-hints-nearly-free.md). So, per mode:

- Indian: exact. My forehead is one of the cards I cannot see, weighted by how the others bet
  (:func:`pokerroom.bots.strength.indian_forehead_weights`); every other forehead is in sight, so each
  candidate wins, ties or loses outright (with two cards, each opponent's hidden hand card is averaged over
  the unseen cards, one opponent at a time).
- Five-card draw: my five against the best of 1-3 random fives per opponent (the bots' model), from the
  exact distribution of a random five's value (:func:`_five_cdf`: the 7,462 classes counted once per
  process), opponents taken as independent.
- Omaha, 7 Poker (and Hi-Lo), Badugi: the bots' own Monte Carlo with :data:`SAMPLES` deals from a
  generator set from the key, remembered by a key of exactly the inputs of that Monte Carlo (Omaha before
  the flop: the suit-isomorphic class of the four cards; Badugi: the badugi the hand keeps, since the rest
  is thrown anyway), so a seat that acts again on the same cards, or any seat with the same class, finds it.

Nothing here reads more than the :class:`~pokerroom.bots.situation.Situation` (the seat's own view).
"""

from __future__ import annotations

import bisect
import hashlib
import itertools
import math
import threading
from collections.abc import Callable
from functools import lru_cache

import numpy as np

from pokerroom.bots.hint import hint_rng
from pokerroom.bots.hint_tables import omaha_class, omaha_preflop
from pokerroom.bots.situation import Situation
from pokerroom.bots.strength import badugi_high, badugi_key, indian_forehead_weights, mc_equity
from pokerroom.cards import Card, d20_deck, standard_deck
from pokerroom.hands import evaluate_ids

#: Deals of a hint's Monte Carlo on a miss (the bots use 200-400): a standard error of about 0.05, well
#: inside the margins of the betting rules (they compare equity with bars 15 % or more apart).
SAMPLES = 96
_KEPT = 8192
_EQUITY: dict[tuple[object, ...], float] = {}
_LOCK = threading.Lock()


def mode_equity(sit: Situation) -> float | None:
    """My equity for a betting or declaring hint outside hold'em (``None``: not a case covered here)."""
    if not sit.opponents:
        return 1.0
    mode = sit.mode
    if mode == "indian":
        return indian_equity(sit)
    if mode == "fiveDraw":
        return five_draw_equity(sit)
    if mode == "omaha" and not sit.board and sit.options.get("omahaHiLo") is not True:
        pre = omaha_preflop([c.id for c in sit.hole], len(sit.opponents))
        if pre is not None:
            return pre
    key = _key(sit)
    if key is None:
        return None
    eq = _EQUITY.get(key)
    if eq is None:
        digest = hashlib.blake2b(repr(key).encode(), digest_size=32).digest()
        eq = mc_equity(sit, hint_rng(digest), SAMPLES)
        with _LOCK:
            if len(_EQUITY) >= _KEPT:
                _EQUITY.clear()
            _EQUITY[key] = eq
    return eq


def _key(sit: Situation) -> tuple[object, ...] | None:
    """Exactly what :func:`pokerroom.bots.strength.mc_equity` reads in these modes (up to a relabelling of
    suits before the Omaha flop, and the cards a badugi throws away anyway)."""
    mode, n_opp = sit.mode, len(sit.opponents)
    if mode == "omaha":
        hilo = sit.options.get("omahaHiLo") is True
        if not sit.board:
            return (mode, hilo, n_opp, omaha_class([c.id for c in sit.hole]))
        board = tuple(sorted(c.id for c in sit.board))
        return (mode, hilo, n_opp, tuple(sorted(c.id for c in sit.hole)), board)
    if mode in ("sevenPoker", "sevenHiLo"):
        dead = sorted(c.id for c in sit.folded_up)
        if sit.discarded is not None:
            dead.append(sit.discarded.id)
        mine = tuple(c.id for c in (sit.hole + sit.up)[:7])
        # (the order of the opponents decides nothing: their open cards are only removed from the deck)
        theirs = tuple(sorted(tuple(c.id for c in o.up[:7]) for o in sit.opponents))
        return (mode, tuple(sorted(mine)), theirs, tuple(sorted(dead)))
    if mode == "badugi":
        if len(sit.hole) != 4:
            return None
        high = badugi_high(sit)
        wants = tuple(sorted(o.draw_counts[-1] if o.draw_counts else -1 for o in sit.opponents))
        # the badugi my hand keeps and which of its cards the first draw breaks (above 10) decide my side
        return (mode, high, sit.street, wants, badugi_key(sit.hole, high), _breaks(sit.hole, high))
    return None


def _breaks(hole: list[Card], high: bool) -> tuple[int, ...]:
    """The ranks of my badugi above the first draw's bar, which the Monte Carlo throws at that draw."""
    ranks = badugi_key(hole, high)[1]
    return tuple(r for r in ranks if (-r if not high else 15 - r) > 10)


# --- Indian (§5.4.7) ----------------------------------------------------------------------------------------

def indian_equity(sit: Situation) -> float:
    """My share of the pot, exactly, over the candidates for my forehead (weighted by the others' betting)."""
    deck = _DECKS[sit.options.get("indianDeck") == "d52"]
    seen = {c.id for c in sit.indian_used + sit.hole}
    seen.update(o.forehead.id for o in sit.opponents if o.forehead is not None)
    unknown = [c for c in deck if c.id not in seen]
    if not unknown:
        return 0.5
    two = int(sit.options.get("indianCards") or 1) == 2
    my_hand = sit.hole[0] if (two and sit.hole) else None
    weights = indian_forehead_weights(sit, unknown).tolist()
    shown = [o.forehead for o in sit.opponents if o.forehead is not None]
    hidden = len(sit.opponents) - len(shown)
    if my_hand is None:
        # one card: the foreheads in sight decide; an opponent without one (none in a dealt hand) holds one
        # of the other unseen cards
        best = max((_indian_value(f, None) for f in shown), default=None)
        ranks = sorted(c.rank for c in unknown)
        total = 0.0
        for mine, w in zip(unknown, weights, strict=True):
            me = _indian_value(mine, None)
            share = 1.0 if best is None or me > best else 0.5 if me == best else 0.0
            if hidden and share:
                below = bisect.bisect_left(ranks, mine.rank)
                level = bisect.bisect_right(ranks, mine.rank) - below - 1  # (not my own card)
                share *= ((below + 0.5 * level) / max(1, len(unknown) - 1)) ** hidden
            total += w * share
        return total
    # two cards: each opponent's hand card is one of the cards I cannot see, averaged one opponent at a time;
    # an opponent's values over every unseen card, sorted, count what beats a candidate of mine
    per_opp = []
    for f in shown:
        values = [_indian_value(f, h) for h in unknown]
        per_opp.append((values, sorted(values)))
    n = max(1, len(unknown) - 1)
    total = 0.0
    for i, (mine, w) in enumerate(zip(unknown, weights, strict=True)):
        me = _indian_value(mine, my_hand)
        share = 1.0
        for values, order in per_opp:
            own = values[i]  # the candidate itself is not their hand card
            below = bisect.bisect_left(order, me) - (own < me)
            level = bisect.bisect_right(order, me) - bisect.bisect_left(order, me) - (own == me)
            share *= (below + 0.5 * level) / n
        total += w * share * (0.5 ** hidden)
    return total


#: The Indian decks (d20, d52), made once: a deck of fresh cards per hint cost a fifth of the hint.
_DECKS = (d20_deck(), standard_deck())


def _indian_value(forehead: Card, hand: Card | None) -> tuple[int, int, int]:
    """The bots' Indian hand value (:func:`pokerroom.bots.strength._indian_equity`): pair, high, low."""
    if hand is None:
        return (0, forehead.rank, 0)
    hi, lo = max(forehead.rank, hand.rank), min(forehead.rank, hand.rank)
    return (1 if hi == lo else 0, hi, lo)


# --- five-card draw ----------------------------------------------------------------------------------------

def five_draw_equity(sit: Situation) -> float | None:
    """My five against each opponent's best of 1-3 random fives (how many: what their draw says, as in
    :func:`pokerroom.bots.strength._draw_equity`), from the exact distribution of a random five."""
    from pokerroom.bots.strength import _DRAW_BEST_OF

    if len(sit.hole) < 5:
        return None
    value = evaluate_ids([c.id for c in sit.hole[:5]])
    below, level = _five_cdf()(value)
    if sit.options.get("jacksOrBetter") is True:
        per = [1] * len(sit.opponents)
    else:
        per = [_DRAW_BEST_OF[min(o.draw_counts[-1], 5)] if o.draw_counts else 1 for o in sit.opponents]
    # P(every opponent's best is below mine), P(none above mine): the rest ties with the best
    lt = math.prod(below ** k for k in per)
    le = math.prod((below + level) ** k for k in per)
    return lt + 0.5 * (le - lt)


_CDF_LOCK = threading.Lock()


@lru_cache(maxsize=1)
def _five_cdf() -> Callable[[int], tuple[float, float]]:
    """value -> (share of random fives below it, share equal to it), counted exactly: every multiset of five
    ranks (at most four of each), its non-flush suits and, five distinct ranks, its four flushes."""
    with _CDF_LOCK:
        counts: dict[int, int] = {}
        for ranks in itertools.combinations_with_replacement(range(13), 5):
            mult = [ranks.count(r) for r in set(ranks)]
            if max(mult) > 4:
                continue
            ways = math.prod(math.comb(4, m) for m in mult)
            used: dict[int, int] = {}
            ids = []
            for r in ranks:
                suit = used.get(r, 0)
                used[r] = suit + 1
                ids.append(suit * 13 + r)
            if len(set(ranks)) == 5:
                ids[-1] = 13 + ranks[-1]  # not all one suit
                ways -= 4
                flush = evaluate_ids([r for r in ranks])
                counts[flush] = counts.get(flush, 0) + 4
            v = evaluate_ids(ids)
            counts[v] = counts.get(v, 0) + ways
        total = sum(counts.values())
        values = np.array(sorted(counts), dtype=np.int64)
        freq = np.array([counts[v] for v in values.tolist()], dtype=np.float64) / total
        below = np.concatenate([[0.0], np.cumsum(freq)[:-1]])
        table = {int(v): (float(b), float(f)) for v, b, f in zip(values, below, freq, strict=True)}

    def lookup(value: int) -> tuple[float, float]:
        hit = table.get(value)
        if hit is not None:
            return hit
        at = int(np.searchsorted(values, value))
        return (float(below[at]) if at < len(below) else 1.0, 0.0)

    return lookup
