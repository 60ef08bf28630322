"""International high hands (§6.1): hold'em, five-card draw, and Omaha (§5.4.2).

The fast core works on card ids (``pokerroom.cards`` ids, 0..51) and returns a plain ``int`` value where
larger is better: ``category << 20`` plus the deciding ranks. Suits never break ties (§6.1), so two hands
with equal values split the pot.

Why it is fast: see :mod:`pokerroom.hands._tables`. A 7-card evaluation is seven tuple indexings, one
sum, a flush test by table and one flat-array lookup; only flushes (about 3 % of 7-card hands) take a
second lookup on the flush suit's ranks. Results are only defined for valid hands (distinct cards).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations, combinations_with_replacement

from pokerroom.cards import Card, standard_deck
from pokerroom.hands import _tables as T
from pokerroom.hands import omaha_table as _OT
from pokerroom.hands.value import Details, HandValue

_KEY = T.CARD_KEY
_BIT = T.CARD_BIT
_RK = T.CARD_RANK_KEY
_FS = T.FLUSH_SHIFT
_SPARSE = T.SPARSE
_CARDS: tuple[Card, ...] = tuple(standard_deck())
# Omaha tables (filled in place on first use)
_HK = _OT.HK
_BK = _OT.BK
_OGATE = _OT.FLUSH_GATE
_OSHIFT = _OT.FLUSH_SHIFT
_OHOLE = _OT.HOLE_INDEX
_OBOARD = _OT.BOARD_OFFSET
_OBOARD5 = _OT.BOARD_OFFSET[5]
_OTAB = _OT.TABLE
_OTAB5 = _OT.TABLE[5]
_OFHOLE = _OT.FLUSH_HOLE
_OFBOARD = _OT.FLUSH_BOARD
_OFTAB = _OT.FLUSH_TABLE
_OVALUES = _OT.VALUES

# Filled on first use (see _load); the hot paths catch the KeyError of an empty table once.
_R5: dict[int, int] = {}
_R6: dict[int, int] = {}
_FL: dict[int, int] = {}
_BY_SIZE = {5: _R5, 6: _R6}
#: 7 cards: value of each rank multiset, by the index in T.INDEX7 (values interned: 7,462 int objects)
_V7: list[int] = []
_IDX7 = T.INDEX7


def _load() -> None:
    """Fill the module's tables in place (idempotent; one thread builds, a concurrent caller waits)."""
    with T.BUILD_LOCK:
        if not _FL:
            _FL.update(T.flush_tables()[0])
        for n, table in _BY_SIZE.items():
            if not table:
                table.update(T.rank_tables(n)[0])
        if not _V7:
            T.load_index7()
            intl = T.rank_tables(7)[0]
            interned: dict[int, int] = {}
            _V7.extend([interned.setdefault(intl[key], intl[key]) for key in T.ORDER7])


def _value7(rank_sum: int) -> int:
    """Slow path of the 7-card lookup: load the tables once."""
    _load()
    if rank_sum >= len(_IDX7):
        raise ValueError("not a valid hand (a rank more than four times)")
    return _V7[_IDX7[rank_sum]]


def _missing(table: dict[int, int], key: int) -> int:
    """Slow path of a failed lookup: load the tables once; a key still missing is an impossible hand."""
    _load()
    try:
        return table[key]
    except KeyError:
        raise ValueError("not a valid hand (the same card twice, or a rank more than four times)") from None


def evaluate7(a: int, b: int, c: int, d: int, e: int, f: int, g: int) -> int:
    """Value of the best five of seven distinct card ids (larger is better; equal values split).

    >>> from pokerroom.cards import parse_cards
    >>> ids = [c.id for c in parse_cards("As Ks Qs Js Ts 2d 3c")]
    >>> evaluate7(*ids) >> 20   # category 8: straight flush
    8
    """
    k = _KEY[a] + _KEY[b] + _KEY[c] + _KEY[d] + _KEY[e] + _KEY[f] + _KEY[g]
    st = _FS[k & 4095]
    if st < 0:
        try:
            return _V7[_IDX7[k >> 12]]
        except IndexError:
            return _value7(k >> 12)
    m = _BIT[a] | _BIT[b] | _BIT[c] | _BIT[d] | _BIT[e] | _BIT[f] | _BIT[g]
    try:
        return _FL[(m >> st) & _SPARSE]
    except KeyError:
        return _missing(_FL, (m >> st) & _SPARSE)


def evaluate7_ids(ids: Sequence[int]) -> int:
    """:func:`evaluate7` taking a sequence of seven ids.

    The body repeats :func:`evaluate7` on purpose: this is the hot path of the public 7-card call, and a
    delegating ``evaluate7(*ids)`` adds a call and an argument splat to every evaluation.
    """
    a, b, c, d, e, f, g = ids
    k = _KEY[a] + _KEY[b] + _KEY[c] + _KEY[d] + _KEY[e] + _KEY[f] + _KEY[g]
    st = _FS[k & 4095]
    if st < 0:
        try:
            return _V7[_IDX7[k >> 12]]
        except IndexError:
            return _value7(k >> 12)
    m = _BIT[a] | _BIT[b] | _BIT[c] | _BIT[d] | _BIT[e] | _BIT[f] | _BIT[g]
    try:
        return _FL[(m >> st) & _SPARSE]
    except KeyError:
        return _missing(_FL, (m >> st) & _SPARSE)


def evaluate5(a: int, b: int, c: int, d: int, e: int) -> int:
    """Value of exactly five card ids."""
    k = _KEY[a] + _KEY[b] + _KEY[c] + _KEY[d] + _KEY[e]
    st = _FS[k & 4095]
    if st < 0:
        try:
            return _R5[k >> 12]
        except KeyError:
            return _missing(_R5, k >> 12)
    m = _BIT[a] | _BIT[b] | _BIT[c] | _BIT[d] | _BIT[e]
    try:
        return _FL[(m >> st) & _SPARSE]
    except KeyError:
        return _missing(_FL, (m >> st) & _SPARSE)


def evaluate_ids(ids: Sequence[int]) -> int:
    """Value of the best five of 5..7 card ids (1..4 ids: the pairs, trips and quads among them)."""
    n = len(ids)
    if n == 7:
        return evaluate7_ids(ids)
    if n == 5:
        a, b, c, d, e = ids
        return evaluate5(a, b, c, d, e)
    if n < 5:
        return _small(ids)
    if n != 6:
        raise ValueError(f"an international high hand has 1 to 7 cards, got {n}")
    k = 0
    m = 0
    for i in ids:
        k += _KEY[i]
        m |= _BIT[i]
    st = _FS[k & 4095]
    if st < 0:
        try:
            return _R6[k >> 12]
        except KeyError:
            return _missing(_R6, k >> 12)
    try:
        return _FL[(m >> st) & _SPARSE]
    except KeyError:
        return _missing(_FL, (m >> st) & _SPARSE)


_SMALL: dict[int, dict[int, int]] = {}


def _small(ids: Sequence[int]) -> int:
    """1..4 cards (a hint before the board is out): pairs, two pair, trips, quads and high cards only."""
    n = len(ids)
    if n < 1:
        raise ValueError("an international high hand has 1 to 7 cards, got 0")
    table = _SMALL.get(n)
    if table is None:
        table = _SMALL[n] = T.rank_tables(n)[0]
    key = 0
    for i in ids:
        key += _RK[i]
    try:
        return table[key]
    except KeyError:
        raise ValueError("not a valid hand (a rank more than four times)") from None


def omaha_ids(hole: Sequence[int], board: Sequence[int]) -> int:
    """Best value using exactly two of the four hole ids and exactly three of the 3..5 board ids.

    One read of a table of every (hole rank multiset, board rank multiset) pair, and a second read of the
    flush table when the board's 3+ suit has two hole cards (:mod:`pokerroom.hands.omaha_table`).
    """
    if len(hole) != 4 or not 3 <= len(board) <= 5:
        raise ValueError("Omaha needs four hole cards and three to five board cards")
    a, b, c, d = hole
    hk = _HK[a] + _HK[b] + _HK[c] + _HK[d]
    bk = 0
    for x in board:
        bk += _BK[x]
    try:
        best = _OTAB[len(board)][_OBOARD[len(board)][bk >> 12] + _OHOLE[hk >> 12]]
        if hk & _OGATE[bk & 4095]:
            sh = _OSHIFT[bk & 4095]
            hm = ((1 << a | 1 << b | 1 << c | 1 << d) >> sh) & 8191
            bm = 0
            for x in board:
                bm |= 1 << x
            f = _OFTAB[_OFBOARD[(bm >> sh) & 8191] + _OFHOLE[hm]]
            if f > best:
                best = f
        return _OVALUES[best]
    except IndexError:
        if _OT.NP:
            raise ValueError("not a valid Omaha hand") from None
        _OT.load()
        return omaha_ids(hole, board)


def class_representatives() -> Iterator[tuple[int, ...]]:
    """One five-card hand (card ids) of each of the 7,462 international hand classes: every multiset of five
    ranks (no rank five times) in mixed suits, and every five distinct ranks once more in one suit.

    Why: a table keyed by the value (a class's names, say) can be filled for every class at start-up
    instead of on first sight, where a miss costs a best-five search; two hands of one class share a value.
    """
    for ranks in combinations_with_replacement(range(13), 5):
        if any(ranks.count(r) > 4 for r in ranks):
            continue
        # the card in place i (ranks sorted) in suit i % 4: a rank's copies take different suits, and five
        # places never share one
        yield tuple((i % 4) * 13 + r for i, r in enumerate(ranks))
        if len(set(ranks)) == 5:
            yield tuple(ranks)  # all spades: the flush (or straight flush) of these ranks


# ------------------------------------------------------------------------------------------ public API


def intl_name(value: int) -> str:
    """Korean name of an international value: 스트레이트 플러시 with an ace on top is the royal one."""
    category = value >> 20
    if category == T.STRAIGHT_FLUSH and (value >> 16) & 15 == 12:
        return T.ROYAL_NAME
    return T.INTL_NAMES[category]


def _order(ids: Sequence[int]) -> tuple[Card, ...]:
    return tuple(_CARDS[i] for i in sorted(ids, key=lambda i: _BIT[i], reverse=True))


def _pick(value: int, combos: Sequence[tuple[int, ...]]) -> tuple[Card, ...]:
    """Among five-card combinations worth ``value``, the one with the best cards (a stable choice)."""
    best: tuple[int, ...] | None = None
    best_mask = -1
    for combo in combos:
        if evaluate5(*combo) == value:
            mask = _BIT[combo[0]] | _BIT[combo[1]] | _BIT[combo[2]] | _BIT[combo[3]] | _BIT[combo[4]]
            if mask > best_mask:
                best, best_mask = combo, mask
    return _order(best) if best is not None else ()


class HighValue(HandValue):
    """International high value; the key is complete (suits never break ties)."""

    __slots__ = ()
    family = "high"

    def _resolve(self) -> Details:
        value = self.key
        source = self._source
        if len(source) < 5:
            return intl_name(value), value >> 20, _order(source)
        return intl_name(value), value >> 20, _pick(value, list(combinations(source, 5)))


class OmahaValue(HighValue):
    """An Omaha high value (same family and scale as hold'em); its source is (hole ids, board ids)."""

    __slots__ = ()

    def _resolve(self) -> Details:
        value = self.key
        hole, board = self._source
        combos = [h + b for h in combinations(hole, 2) for b in combinations(board, 3)]
        return intl_name(value), value >> 20, _pick(value, combos)


_new = object.__new__


def international_high(cards: Sequence[Card]) -> HandValue:
    """Best five of 5..7 cards by the international ranking (§6.1): no suits, the wheel is the lowest
    straight, no wrap-around. ``category``: 0 하이카드 ... 8 스트레이트 플러시.

    One to four cards are accepted for the "current hand" hint before the board is out (e.g. a pocket
    pair is "원페어"): they rank pairs, two pair, trips and quads among what is there.

    >>> from pokerroom.cards import parse_cards
    >>> board = "Ks Kd 7c 4h 2s"
    >>> a = international_high(parse_cards("Ac 3d " + board))
    >>> b = international_high(parse_cards("Qh Jh " + board))
    >>> a > b, a.name
    (True, '원페어')
    >>> international_high(parse_cards("9s 9h 8d 8c As 2c 3d")) == international_high(
    ...     parse_cards("9s 9h 8d 8c As 4c 5d"))
    True
    """
    n = len(cards)
    if n == 7:
        c0, c1, c2, c3, c4, c5, c6 = cards
        a, b, c, d, e, f, g = c0.id, c1.id, c2.id, c3.id, c4.id, c5.id, c6.id
        k = _KEY[a] + _KEY[b] + _KEY[c] + _KEY[d] + _KEY[e] + _KEY[f] + _KEY[g]
        st = _FS[k & 4095]
        value = _new(HighValue)
        if st < 0:
            try:
                value.key = _V7[_IDX7[k >> 12]]
            except IndexError:
                value.key = _value7(k >> 12)
        else:
            value.key = evaluate7(a, b, c, d, e, f, g)
        value._source = (a, b, c, d, e, f, g)
        return value
    value = _new(HighValue)
    if n == 5:
        c0, c1, c2, c3, c4 = cards
        a, b, c, d, e = c0.id, c1.id, c2.id, c3.id, c4.id
        ids: tuple[int, ...] = (a, b, c, d, e)
        value.key = evaluate5(a, b, c, d, e)
    else:
        ids = tuple([c.id for c in cards])
        value.key = evaluate_ids(ids)
    value._source = ids
    return value


def omaha_high(hole: Sequence[Card], board: Sequence[Card]) -> HandValue:
    """Omaha high (§5.4.2): exactly two of the four hole cards and exactly three board cards.

    The body inlines :func:`omaha_ids` for the river (4 + 5 cards), the showdown's case: this is the public
    call the benchmarks measure against phevaluator's C evaluator.

    >>> from pokerroom.cards import parse_cards
    >>> omaha_high(parse_cards("As Kh Qd Jc"), parse_cards("2s 5s 8s 9s Th")).name  # one ♠ in the hole
    '스트레이트'
    """
    try:
        h0, h1, h2, h3 = hole
        b0, b1, b2, b3, b4 = board
    except ValueError:  # before the river (or not an Omaha hand: omaha_ids says so)
        ho = tuple([c.id for c in hole])
        bo = tuple([c.id for c in board])
        value = _new(OmahaValue)
        value.key = omaha_ids(ho, bo)
        value._source = (ho, bo)
        return value
    a, b, c, d = h0.id, h1.id, h2.id, h3.id
    e, f, g, h, i = b0.id, b1.id, b2.id, b3.id, b4.id
    hk = _HK[a] + _HK[b] + _HK[c] + _HK[d]
    bk = _BK[e] + _BK[f] + _BK[g] + _BK[h] + _BK[i]
    value = _new(OmahaValue)
    try:
        best = _OTAB5[_OBOARD5[bk >> 12] + _OHOLE[hk >> 12]]
        if hk & _OGATE[bk & 4095]:
            sh = _OSHIFT[bk & 4095]
            fl = _OFTAB[_OFBOARD[((1 << e | 1 << f | 1 << g | 1 << h | 1 << i) >> sh) & 8191]
                        + _OFHOLE[((1 << a | 1 << b | 1 << c | 1 << d) >> sh) & 8191]]
            if fl > best:
                best = fl
        value.key = _OVALUES[best]
    except IndexError:
        value.key = omaha_ids((a, b, c, d), (e, f, g, h, i))
    value._source = ((a, b, c, d), (e, f, g, h, i))
    return value
