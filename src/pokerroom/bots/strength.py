"""Hand strength from a bot's point of view: equity against hands consistent with what it sees.

Why Monte Carlo everywhere: every mode hides something different (hold'em hole cards, 7 Poker hidden cards
behind open ones, draw hands behind exchange counts, one's own Indian forehead), but in each case the unseen
cards are uniformly distributed over the cards the bot cannot see. Dealing those at random and comparing
showdown values gives an unbiased equity without per-mode probability tables. The sample count is small
(a few hundred) because a decision needs a rough number quickly; ``rng`` comes from the bot's seed so the
estimate, and hence the decision, is reproducible.

Also here: the quick heuristics of the ``easy`` level and the choice/draw/low helpers shared by both levels.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache

import numpy as np
from numpy.typing import NDArray

from pokerroom.bots.montecarlo import Deals, hero_equity
from pokerroom.bots.situation import Situation
from pokerroom.cards import Card, d20_deck, standard_deck
from pokerroom.hands import evaluate_ids, omaha_low
from pokerroom.hands.batch import international_high_batch
from pokerroom.hands.omaha_low import low_ranks
from pokerroom.odds import sample_completions


def _low_rank(card: Card) -> int:
    """Ace counts 1 in lows and badugi."""
    return 1 if card.rank == 14 else card.rank


# --- badugi (§6.4) ------------------------------------------------------------------------------------------

def badugi_key(cards: Sequence[Card], high: bool = False) -> tuple[int, tuple[int, ...]]:
    """(k, ranks): larger tuples are better badugi hands. Low (§6.4): negated descending ace-low ranks;
    high (하이 바둑이, docs/rules-extensions.md): descending ace-high ranks."""
    if high:
        return _badugi_key(tuple((c.rank, c.suit) for c in cards), True)
    return _badugi_key(tuple(((1 if c.rank == 14 else c.rank), c.suit) for c in cards), False)


@lru_cache(maxsize=65536)
def _badugi_key(rs: tuple[tuple[int, str], ...], high: bool) -> tuple[int, tuple[int, ...]]:
    for k in range(min(4, len(rs)), 0, -1):
        best: tuple[int, ...] | None = None
        for combo in itertools.combinations(rs, k):
            ranks = {r for r, _ in combo}
            if len(ranks) == k and len({su for _, su in combo}) == k:
                cand = tuple(sorted(ranks, reverse=True)) if high else tuple(sorted(-r for r in ranks))
                if best is None or cand > best:
                    best = cand
        if best is not None:
            return (k, best)
    return (0, ())


def badugi_keep(cards: Sequence[Card], break_above: int = 13, high: bool = False) -> list[Card]:
    """Cards to keep: the best badugi subset, minus its weak cards.

    Low: minus any card ranked above ``break_above`` (ace = 1). High: the mirror, minus any card ranked
    below ``15 - break_above`` (13 keeps everything, 11 breaks off 2s and 3s).
    """
    best: tuple[int, tuple[int, ...]] = (0, ())
    keep: list[Card] = []
    for k in range(min(4, len(cards)), 0, -1):
        for combo in itertools.combinations(cards, k):
            if len({c.suit for c in combo}) == k and len({_low_rank(c) for c in combo}) == k:
                cand = badugi_key(combo, high)
                if cand > best:
                    best, keep = cand, list(combo)
        if keep:
            break
    if high:
        return [c for c in keep if c.rank >= 15 - break_above]
    return [c for c in keep if _low_rank(c) <= break_above]


def best_low(cards: Sequence[Card], ace_to_five: bool = False) -> tuple[int, ...] | None:
    """Descending ranks (A = 1) of the best low of five, or None; smaller tuples are better lows.

    Remembered by the cards' ranks and suits (a bound table): it tries every five of up to seven cards in
    Python, and a 7 Poker Hi-Lo hint asks for it two or three times per decision (the bet's low score, the
    declaration), which cost more than the rest of the hint."""
    key = (tuple(sorted([(c.rank, c.suit) for c in cards])), ace_to_five)
    hit = _BEST_LOW.get(key, _UNKNOWN)
    if hit is not _UNKNOWN:
        return hit  # type: ignore[return-value]
    best = _best_low(cards, ace_to_five)
    if len(_BEST_LOW) >= _BEST_LOW_KEPT:
        _BEST_LOW.clear()
    _BEST_LOW[key] = best
    return best


_UNKNOWN = object()
_BEST_LOW: dict[tuple[tuple[tuple[int, str], ...], bool], tuple[int, ...] | None] = {}
_BEST_LOW_KEPT = 16384


def _best_low(cards: Sequence[Card], ace_to_five: bool) -> tuple[int, ...] | None:
    best: tuple[int, ...] | None = None
    for combo in itertools.combinations(cards, 5):
        ranks = sorted((_low_rank(c) for c in combo), reverse=True)
        if len(set(ranks)) < 5:
            continue
        if not ace_to_five:
            if len({c.suit for c in combo}) == 1:
                continue
            asc = sorted(ranks)
            high_asc = sorted(c.rank for c in combo)
            low_run = asc == list(range(asc[0], asc[0] + 5))
            if low_run or high_asc == list(range(high_asc[0], high_asc[0] + 5)):
                continue
        cand = tuple(ranks)
        if best is None or cand < best:
            best = cand
    return best


def low_score(cards: Sequence[Card], ace_to_five: bool = False, qualifier8: bool = False) -> float:
    """Rough chance that my low wins its half (0..1): made lows by their top card, draws by low cards held."""
    low = best_low(cards, ace_to_five) if len(cards) >= 5 else None
    if low is not None:
        top = low[0]
        if qualifier8 and top > 8:
            return 0.05
        return {5: 0.97, 6: 0.92, 7: 0.82, 8: 0.66, 9: 0.48, 10: 0.3}.get(top, 0.12)
    distinct = {_low_rank(c) for c in cards if _low_rank(c) <= 8}
    left = 7 - len(cards)
    need = 5 - len(distinct)
    if need <= 0:
        return 0.5
    if need > left:
        return 0.0
    return max(0.0, 0.55 - 0.15 * need)


def omaha_low_score(hole: Sequence[Card], board: Sequence[Card]) -> float:
    """Rough chance that my Omaha Hi-Lo low (eight or better, two hole + three board) wins its half (0..1).

    A made low counts by its top card; before that, the two lowest distinct low hole ranks (ace = 1) say how
    good a low could become, A-2 best; a board already holding three high cards leaves no low to make.
    """
    if len(board) >= 3:
        made = omaha_low(list(hole), list(board))
        if made is not None:
            top = low_ranks(made.key)[0]
            return {5: 0.9, 6: 0.8, 7: 0.66, 8: 0.5}.get(top, 0.5)
        board_low = {_low_rank(c) for c in board if _low_rank(c) <= 8}
        if len(board) == 5 or len(board_low) + (5 - len(board)) < 3:
            return 0.0
    ranks = sorted({_low_rank(c) for c in hole if _low_rank(c) <= 8})
    if len(ranks) < 2:
        return 0.0
    a, b = ranks[0], ranks[1]
    score = 0.5 - 0.04 * (a - 1) - 0.03 * (b - 2)
    return max(0.05, min(0.5, score)) * (0.7 if len(board) >= 3 else 1.0)


# --- quick heuristics (easy level) --------------------------------------------------------------------------

def quick_strength(sit: Situation) -> float:
    """A crude 0..1 strength from the visible made hand only (no simulation): what a beginner sees."""
    mode = sit.mode
    if mode == "indian":
        seen = [o.forehead.rank for o in sit.opponents if o.forehead is not None]
        top = max(seen) if seen else 5
        deck_max = 14 if sit.options.get("indianDeck") == "d52" else 10
        mine = [c.rank for c in sit.hole]
        bonus = 0.1 * (mine[0] / deck_max) if mine else 0.0
        return max(0.05, min(0.95, 1.0 - top / deck_max + 0.15 + bonus))
    if mode == "badugi":
        if badugi_high(sit):
            k, ranks = badugi_key(sit.hole, True)
            top_bonus = (ranks[0] - 2) / 60 if ranks else 0.0  # a higher top card is better
        else:
            k, ranks = badugi_key(sit.hole)
            top = -ranks[0] if ranks else 13
            top_bonus = (13 - top) / 60
        return min(0.95, 0.12 + 0.18 * (k - 1) + (0.25 if k == 4 else 0.0) + top_bonus)
    cards = sit.hole + sit.up + sit.board
    counts = Counter(c.rank for c in cards)
    shape = sorted(counts.values(), reverse=True)
    high = max((c.rank for c in sit.hole + sit.up), default=2)
    if shape[0] >= 4:
        base = 0.95
    elif shape[0] == 3 and len(shape) > 1 and shape[1] >= 2:
        base = 0.9
    elif shape[0] == 3:
        base = 0.72
    elif shape[0] == 2 and len(shape) > 1 and shape[1] == 2:
        base = 0.6
    elif shape[0] == 2:
        pair_rank = max(r for r, n in counts.items() if n == 2)
        base = 0.38 + pair_rank / 60
    else:
        base = 0.12 + high / 70
    if _has_straight({c.rank for c in cards}):
        base = max(base, 0.78)
    suits = Counter(c.suit for c in cards)
    if suits and max(suits.values()) >= 5:
        base = max(base, 0.82)
        flush_suit = suits.most_common(1)[0][0]
        if _has_straight({c.rank for c in cards if c.suit == flush_suit}):
            base = 0.97
    return base


def _has_straight(ranks: set[int]) -> bool:
    """Five consecutive ranks among ``ranks`` (the ace also plays low: A-2-3-4-5)."""
    if 14 in ranks:
        ranks = ranks | {1}
    return any(all(r + k in ranks for k in range(5)) for r in range(1, 11))


# --- Monte Carlo equity (normal level) ----------------------------------------------------------------------

def _unseen(sit: Situation, extra_known: Sequence[Card] = ()) -> list[Card]:
    known = {c.id for c in sit.hole + sit.up + sit.board + sit.folded_up + list(extra_known)}
    if sit.discarded is not None:
        known.add(sit.discarded.id)
    for opp in sit.opponents:
        known |= {c.id for c in opp.up}
    return [c for c in _STANDARD_DECK if c.id not in known]


#: The 52 cards, made once (read only: a deck made per estimate cost a fifth of a badugi hint's miss).
_STANDARD_DECK = tuple(standard_deck())


def mc_equity(sit: Situation, rng: np.random.Generator, samples: int = 400, deals: Deals | None = None
              ) -> float:
    """My showdown equity against the opponents still in the hand, dealing what I cannot see (hold'em,
    Omaha and 7 Poker from ``deals`` when given: see :func:`.montecarlo.hero_equity`)."""
    n_opp = len(sit.opponents)
    if n_opp == 0:
        return 1.0
    mode = sit.mode
    if mode in ("holdem", "omaha"):
        players: list[list[Card]] = [list(sit.hole)] + [[] for _ in range(n_opp)]
        # Omaha Hi-Lo: the expected share of the pot under the cards-speak split, so low potential counts
        return hero_equity(players, sit.board, "holdem" if mode == "holdem" else "omaha", rng, samples,
                           omaha_hi_lo=mode == "omaha" and sit.options.get("omahaHiLo") is True, deals=deals)
    if mode in ("sevenPoker", "sevenHiLo"):
        mine = (sit.hole + sit.up)[:7]
        players = [mine] + [o.up[:7] for o in sit.opponents]
        dead = list(sit.folded_up)
        if sit.discarded is not None:
            dead.append(sit.discarded)
        # (sevenHiLo too: its high half is what the bot prices; _strength adds the low)
        return hero_equity(players, (), "sevenPoker", rng, samples, dead=dead, deals=deals)
    if mode == "fiveDraw":
        return _draw_equity(sit, rng, samples)
    if mode == "badugi":
        return _badugi_equity(sit, rng, samples)
    if mode == "indian":
        return _indian_equity(sit, rng, min(samples, 400))
    return quick_strength(sit)


#: Random fives an opponent is dealt the best of, by the cards they drew (see :func:`_draw_equity`).
_DRAW_BEST_OF = (3, 3, 3, 2, 1, 1)


def _draw_equity(sit: Situation, rng: np.random.Generator, samples: int) -> float:
    """Five-card draw: my five against random fives; opponents who kept more cards are dealt a better hand.

    After the draw an opponent is dealt the best of several random fives, by what the exchange says: three
    for one who kept two pair, trips or a pat hand (drew 0–2), two for one who kept a pair (drew 3), one for a
    player who drew four or five. Why: a player who drew three kept a pair, and a single random five holds
    no pair half the time, so one pair after the draw looked far better than it is (5카드 드로우 was the
    mode where ``normal`` beat ``easy`` least). Before the draw everyone holds a single random five.
    """
    unseen = np.array([c.id for c in _unseen(sit)], dtype=np.int64)
    n_opp = len(sit.opponents)
    mine = np.array([c.id for c in sit.hole[:5]], dtype=np.int64)
    if mine.size < 5:
        return quick_strength(sit)
    if sit.options.get("jacksOrBetter") is True:
        # 잭스 오어 베터: who opened is already known to hold jacks or better, and the round without an
        # opener is replayed, so the exchange says less; the best-of model made ``normal`` too timid here
        # (heads-up it lost to ``easy``: -1.02 chips/hand over 300 hands), the single random five does not.
        per = [1] * n_opp
    else:
        per = [_DRAW_BEST_OF[min(o.draw_counts[-1], 5)] if o.draw_counts else 1 for o in sit.opponents]
    while 5 * sum(per) > unseen.size and max(per) > 1:
        per[per.index(max(per))] -= 1  # not enough unseen cards for every extra five: fewer for the best
    take = 5 * sum(per)
    if take > unseen.size:
        per = [1] * n_opp
        take = 5 * n_opp
    rows = unseen[sample_completions(rng, unseen.size, take, samples)]
    my_value = int(evaluate_ids(mine.tolist()))
    best_opp = np.zeros(samples, dtype=np.int64)
    offset = 0
    for count in per:
        opp_best = np.zeros(samples, dtype=np.int64)
        for _ in range(count):
            opp_best = np.maximum(opp_best, international_high_batch(rows[:, offset : offset + 5]))
            offset += 5
        best_opp = np.maximum(best_opp, opp_best)
    win = (best_opp < my_value).mean()
    tie = (best_opp == my_value).mean()
    return float(win + tie / 2)


def badugi_high(sit: Situation) -> bool:
    """Whether this badugi room plays 하이 바둑이 (the option of docs/rules-extensions.md)."""
    return sit.mode == "badugi" and sit.options.get("badugiHigh") is True


_SUBSETS = [tuple(i for i in range(4) if mask >> i & 1) for mask in range(1, 16)]
_LOW_RANK = np.array([1 if c % 13 == 12 else c % 13 + 2 for c in range(52)], dtype=np.int64)
_HIGH_RANK = np.array([c % 13 + 2 for c in range(52)], dtype=np.int64)
_SUIT = np.arange(52, dtype=np.int64) // 13


def badugi_keys_np(cards: NDArray[np.int64],
                   high: bool = False) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """Vectorised §6.4 for rows of four card ids: (key, bitmask of the cards of the best badugi).

    ``key`` orders like :func:`badugi_key`: more cards first, then the lower descending ranks (``high``:
    the higher descending ranks, ace high). Every subset of the four cards is keyed at once (a row's 15
    subsets side by side, which of them are a badugi read from the six pairs' clashes), and the first
    subset with the best key wins.
    """
    ranks = (_HIGH_RANK if high else _LOW_RANK)[cards]
    suits = _SUIT[cards]
    # the pairs that may share a badugi (neither rank nor suit in common), as 6 bits -> valid subsets
    apart = (ranks[:, _PAIR_A] != ranks[:, _PAIR_B]) & (suits[:, _PAIR_A] != suits[:, _PAIR_B])
    valid = _VALID[apart @ _PAIR_BIT]
    # each subset's digits, best card first, empty places last (then 0): low, the lowest of 15 - rank;
    # high, the highest rank
    digits = np.concatenate([15 - ranks if not high else -ranks, np.full((len(cards), 1), 16)], axis=1)
    d = digits[:, _SUBSET_PLACES]
    p, q, r, t = d[:, :, 0], d[:, :, 1], d[:, :, 2], d[:, :, 3]
    # sorted by a network of five compare-exchanges (a sort of many four-long rows costs ten times more)
    p, q = np.minimum(p, q), np.maximum(p, q)
    r, t = np.minimum(r, t), np.maximum(r, t)
    p, r = np.minimum(p, r), np.maximum(p, r)
    q, t = np.minimum(q, t), np.maximum(q, t)
    q, r = np.minimum(q, r), np.maximum(q, r)
    key = _SUBSET_SIZE
    for x in (p, q, r, t):
        key = key * 16 + np.where(x == 16, 0, x if not high else -x)
    keys = np.where(valid, key, -1)
    first = keys.argmax(axis=1)
    return keys[np.arange(len(cards)), first], _SUBSET_MASK[first]


_PAIR_A = np.array([a for a, _b in itertools.combinations(range(4), 2)])
_PAIR_B = np.array([b for _a, b in itertools.combinations(range(4), 2)])
_PAIR_BIT = 1 << np.arange(6, dtype=np.int64)
#: by the 6 bits of the pairs that may share a badugi: which of the 15 subsets are a badugi
_VALID = np.array([[all(bits >> list(itertools.combinations(range(4), 2)).index(pair) & 1
                        for pair in itertools.combinations(pos, 2)) for pos in _SUBSETS]
                   for bits in range(64)], dtype=bool)
#: each subset's places in a row of four cards, padded with the fifth (empty) column
_SUBSET_PLACES = np.array([list(pos) + [4] * (4 - len(pos)) for pos in _SUBSETS])
_SUBSET_SIZE = np.array([len(pos) for pos in _SUBSETS], dtype=np.int64)
_SUBSET_MASK = np.array([sum(1 << i for i in pos) for pos in _SUBSETS], dtype=np.int64)


def _badugi_redraw(hands: NDArray[np.int64], fresh: NDArray[np.int64], break_above: int | NDArray[np.int64],
                   high: bool = False) -> NDArray[np.int64]:
    """Keep each row's best badugi (minus its weak cards, see :func:`badugi_keep`), replace the rest.
    ``break_above``: one bar, or one per row (a column)."""
    _, mask = badugi_keys_np(hands, high)
    weak_ok = _HIGH_RANK[hands] >= 15 - break_above if high else _LOW_RANK[hands] <= break_above
    keep = ((mask[:, None] >> np.arange(4)) & 1).astype(bool) & weak_ok
    return np.where(keep, hands, fresh)


def _badugi_equity(sit: Situation, rng: np.random.Generator, samples: int) -> float:
    """Badugi: play out the remaining draws for everyone, opponents consistent with their draw counts.

    An opponent who last exchanged ``d`` cards is dealt, of two random hands, the first that already holds a
    (4 - d)-card badugi, which is what keeping 4 - d cards usually means. Everyone then keeps their best
    badugi and draws to it for each draw left (I break a made hand above 10 only on the first draw).
    Vectorised over samples with numpy.
    """
    unseen = np.array([c.id for c in _unseen(sit)], dtype=np.int64)
    draws_left, need = badugi_plan(len(sit.opponents), sit.street, unseen.size)
    if need > unseen.size or len(sit.hole) != 4:
        return quick_strength(sit)
    rows = unseen[sample_completions(rng, unseen.size, need, samples)]
    mine = np.broadcast_to(np.array([c.id for c in sit.hole], dtype=np.int64), (samples, 4))
    wants = [4 - o.draw_counts[-1] if o.draw_counts else 1 for o in sit.opponents]
    return float(badugi_shares(mine, rows, wants, draws_left, badugi_high(sit)).mean())


def badugi_plan(n_opp: int, street: int, unseen: int) -> tuple[int, int]:
    """(draws played out, cards dealt per deal) of :func:`_badugi_equity` after betting round ``street``
    with ``unseen`` cards to deal from: each draw left (betting round s is followed by 3 - s exchanges)
    while the deck holds two hands per opponent and four fresh cards per player and draw."""
    draws_left = max(0, 3 - street)
    while draws_left and 8 * n_opp + 4 * draws_left * (n_opp + 1) > unseen:
        draws_left -= 1
    return draws_left, 8 * n_opp + 4 * draws_left * (n_opp + 1)


def badugi_shares(mine: NDArray[np.int64], rows: NDArray[np.int64], wants: Sequence[int], draws_left: int,
                  high: bool) -> NDArray[np.float64]:
    """My share of each deal (1 won, 0.5 tied, 0 lost) of :func:`_badugi_equity`'s model: ``mine`` my four
    cards per deal, ``rows`` each deal's cards (two random hands per opponent, then four fresh cards per
    player and draw), ``wants`` per opponent the badugi size a first hand must hold to be theirs.

    Why a function of rows: the hint's badugi table (``scripts/build_hint_tables.py``) runs the very same
    model over many hands at once, a row per hand and deal."""
    # Every hand of a step is valued in one pass (rows stacked: mine, then each opponent's): the per-row
    # work is the same, and a pass costs some hundred small numpy calls whatever its rows.
    samples, n = rows.shape[0], len(wants)
    firsts = np.concatenate([rows[:, 8 * i : 8 * i + 4] for i in range(n)])
    seconds = np.concatenate([rows[:, 8 * i + 4 : 8 * i + 8] for i in range(n)])
    want = np.repeat(list(wants), samples)
    ok = (badugi_keys_np(firsts, high)[0] >> 16) >= want
    hands = np.concatenate([mine, np.where(ok[:, None], firsts, seconds)])
    pos = 8 * n
    for d in range(draws_left):
        bars = np.full((hands.shape[0], 1), 13, dtype=np.int64)
        bars[:samples] = 10 if d == 0 and draws_left == 3 else 13
        fresh = np.concatenate([rows[:, pos + 4 * i : pos + 4 * i + 4] for i in range(n + 1)])
        pos += 4 * (n + 1)
        hands = _badugi_redraw(hands, fresh, bars, high)
    keys = badugi_keys_np(hands, high)[0].reshape(n + 1, samples)
    me, best = keys[0], np.max(keys[1:], axis=0)
    shares: NDArray[np.float64] = (me > best) + 0.5 * (me == best)
    return shares


#: The Indian decks (d20, d52), made once (read only: every hint and Indian bet asked for fresh ones).
_INDIAN_DECKS = (d20_deck(), standard_deck())


def indian_top_chance(sit: Situation) -> float:
    """Chance that my own (unseen) forehead is the deck's top card, from the cards I can see (§5.4.7).

    That is the chance a fold costs the 10-penalty, so folding is priced with it.
    """
    d52 = sit.options.get("indianDeck") == "d52"
    deck = _INDIAN_DECKS[d52]
    top = 14 if d52 else 10
    seen = {c.id for c in sit.indian_used + sit.hole}
    seen |= {o.forehead.id for o in sit.opponents if o.forehead is not None}
    unknown = [c for c in deck if c.id not in seen]
    if not unknown:
        return 0.0
    return sum(1 for c in unknown if c.rank == top) / len(unknown)


_AGGRESSIVE = frozenset({"k.ping", "k.quarter", "k.half", "k.full", "k.ddadang", "nl.raise", "nl.allIn"})
_CALLS = frozenset({"k.call", "nl.call"})


def indian_forehead_weights(sit: Situation, unknown: Sequence[Card]) -> NDArray[np.float64]:
    """Relative likelihood of each candidate for my own forehead, given how the others acted this round.

    Everyone else sees my forehead and bets more when it is low, so their betting is evidence about it: for
    each candidate card c, an opponent who bet or raised this round contributes a factor
    ``0.25 + P(a random unseen card beats c)`` and one who called ``0.6 + P(...)``. The constants keep the
    update gentle (bots bluff, people too); without any action the prior stays uniform.
    """
    ranks = np.array([c.rank for c in unknown], dtype=np.float64)
    n = len(unknown)
    above = np.array([(ranks > r).sum() / max(1, n - 1) for r in ranks])
    weights = np.ones(n)
    for opp in sit.opponents:
        if opp.last_action in _AGGRESSIVE:
            weights *= 0.25 + above
        elif opp.last_action in _CALLS:
            weights *= 0.6 + above
    total = weights.sum()
    return weights / total if total > 0 else np.full(n, 1.0 / n)


def _indian_equity(sit: Situation, rng: np.random.Generator, samples: int) -> float:
    """Indian: my forehead is unknown; it is one of the cards not visible to me (§5.4.7), weighted by what
    the others' betting says about it (:func:`indian_forehead_weights`)."""
    d52 = sit.options.get("indianDeck") == "d52"
    deck = standard_deck() if d52 else d20_deck()
    seen_ids = {c.id for c in sit.indian_used + sit.hole}
    for o in sit.opponents:
        if o.forehead is not None:
            seen_ids.add(o.forehead.id)
    unknown = [c for c in deck if c.id not in seen_ids]
    if not unknown:
        return 0.5
    two = int(sit.options.get("indianCards") or 1) == 2

    def value(forehead: Card, hand: Card | None) -> tuple[int, int, int]:
        if hand is None:
            return (0, forehead.rank, 0)
        hi, lo = max(forehead.rank, hand.rank), min(forehead.rank, hand.rank)
        return (1 if hi == lo else 0, hi, lo)

    my_hand = sit.hole[0] if (two and sit.hole) else None
    opp_need_hand = two and my_hand is not None
    weights = indian_forehead_weights(sit, unknown)
    picks = rng.choice(len(unknown), size=samples, p=weights)
    wins = 0.0
    for pick in picks.tolist():
        rest = rng.permutation(len(unknown) - 1)
        order = [pick] + [int(i) + (1 if i >= pick else 0) for i in rest.tolist()]
        mine = unknown[order[0]]
        me_v = value(mine, my_hand)
        best: tuple[int, int, int] = (-1, 0, 0)
        pos = 1
        for o in sit.opponents:
            fh = o.forehead
            if fh is None:
                if pos >= len(order):
                    break
                fh = unknown[int(order[pos])]
                pos += 1
            hand = None
            if opp_need_hand and pos < len(order):
                hand = unknown[int(order[pos])]
                pos += 1
            best = max(best, value(fh, hand if opp_need_hand else None))
        if me_v > best:
            wins += 1
        elif me_v == best:
            wins += 0.5
    return wins / samples


def high_value_rank(cards: Sequence[Card]) -> int:
    """Category (0 high card .. 8 straight flush) of the best international five among 5..7 cards."""
    if len(cards) < 5:
        counts = sorted(Counter(c.rank for c in cards).values(), reverse=True)
        if counts and counts[0] >= 3:
            return 3
        if len(counts) > 1 and counts[0] == 2 and counts[1] == 2:
            return 2
        return 1 if counts and counts[0] == 2 else 0
    return evaluate_ids([c.id for c in cards]) >> 20
