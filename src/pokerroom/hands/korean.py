"""Korean 7 Poker hands: the high ranking with suits (§6.2), the open-card boss ranking (§5.4.3, rulings
#3) and the hi-lo low (§6.3, rulings #1, #2).

A Korean high ``key`` is ``category << 22 | deciding ranks << 2 | deciding suit`` — exactly the §6.2 table
(e.g. a pair compares its rank, then the better suit of the pair, and never its kickers). Two hands from
one deal never share a card, so their keys always differ and no Korean pot is split.

Keys can only be equal for card sets that share cards (the same pair with other kickers). For those the
value compares a last tie-break, the card mask of the five cards used (see :mod:`pokerroom.hands._tables`),
computed lazily; so the order is strict over *all* distinct card sets, ``a == b`` only for the very same
cards, and the best five of seven is the one with the best kickers and suits, a deterministic ``cards``.

Why it is fast: each card's table entry is ``card mask << 35 | rank key << 12 | suit counter``, so one
sum of seven entries yields the rank multiset (→ category and ranks from a table built once), the suit
counts (→ flush test) and the card mask (→ the one deciding suit), all at once.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import Literal

from pokerroom.cards import Card, standard_deck
from pokerroom.hands import _tables as T
from pokerroom.hands.value import Details, HandValue

_BIT = T.CARD_BIT
_FS = T.FLUSH_SHIFT
_SPARSE = T.SPARSE
_TOPK = T.TOP_K
_TOPSUIT = T.TOP_SUIT
_MASK_SHIFT = 35
_RANK_PART = (1 << 23) - 1
#: per card: card mask << 35 | rank key << 12 | suit counter
_KK = tuple(T.CARD_BIT[i] << _MASK_SHIFT | T.CARD_KEY[i] for i in range(52))
_CARDS: tuple[Card, ...] = tuple(standard_deck())

#: hot tables per hand size: rank-key sum -> (key for each deciding suit 0..3, shift of that rank's nibble)
_KR: dict[int, dict[int, tuple[tuple[int, int, int, int], int]]] = {n: {} for n in range(1, 8)}
_KR7 = _KR[7]
_KR5 = _KR[5]
#: cold tables for the tie-break: rank-key sum -> (nibbles used whole, partially used nibbles)
_KT: dict[int, dict[int, tuple[int, tuple[tuple[int, int], ...]]]] = {n: {} for n in range(1, 8)}
#: flush suit's sparse rank mask -> (key without the suit, sparse mask of the five ranks used)
_KF: dict[int, T.FlushKorean] = {}


#: 7 cards: the hot info by the rank multiset's index in T.INDEX7 (a flat array beats a dict, see there)
_KH7: list[tuple[tuple[int, int, int, int], int]] = []
_IDX7 = T.INDEX7


def _load(n: int) -> None:
    """Fill the tables for ``n`` cards in place (idempotent; one thread builds, a concurrent caller waits).

    Each table is built aside and published with one ``update``, so a lookup on another thread never sees a
    half-filled table (it would take a missing key for an impossible hand)."""
    with T.BUILD_LOCK:
        if not _KF:
            _KF.update(T.flush_tables()[1])
        if not _KR[n]:
            hot: dict[int, tuple[tuple[int, int, int, int], int]] = {}
            cold: dict[int, tuple[int, tuple[tuple[int, int], ...]]] = {}
            for key, (base, full, partial, srank4) in T.rank_tables(n)[1].items():
                shift = _MASK_SHIFT + (srank4 if srank4 >= 0 else 0)
                bases = (base, base | 1, base | 2, base | 3) if srank4 >= 0 else (base, base, base, base)
                hot[key] = (bases, shift)
                cold[key] = (full, partial)
            _KT[n].update(cold)
            _KR[n].update(hot)  # last: the hot paths test this one
        if n == 7 and not _KH7:
            T.load_index7()
            _KH7.extend([_KR7[key] for key in T.ORDER7])


def _hot7(rank_sum: int) -> tuple[tuple[int, int, int, int], int]:
    """Slow path of the 7-card lookup: load the tables once."""
    _load(7)
    if rank_sum >= len(_IDX7):
        raise ValueError("not a valid hand (a rank more than four times)")
    return _KH7[_IDX7[rank_sum]]


def _lookup(n: int, key: int) -> tuple[tuple[int, int, int, int], int]:
    _load(n)
    try:
        return _KR[n][key]
    except KeyError:
        raise ValueError("not a valid hand (the same card twice, or a rank more than four times)") from None


def korean7(a: int, b: int, c: int, d: int, e: int, f: int, g: int) -> int:
    """Korean key of the best five of seven distinct card ids: larger is better, and two hands from one
    deal (no shared card) never have equal keys.

    >>> from pokerroom.cards import parse_cards
    >>> ids = [c.id for c in parse_cards("As 2d 3h 4c 5s 6d Kh")]
    >>> korean7(*ids) >> 22   # 백 스트레이트 beats the 6-high straight in the same cards
    5
    """
    x = _KK[a] + _KK[b] + _KK[c] + _KK[d] + _KK[e] + _KK[f] + _KK[g]
    st = _FS[x & 4095]
    if st < 0:
        try:
            bases, shift = _KH7[_IDX7[(x >> 12) & _RANK_PART]]
        except IndexError:
            bases, shift = _hot7((x >> 12) & _RANK_PART)
        return bases[_TOPSUIT[(x >> shift) & 15]]
    if not _KF:
        _load(7)
    return _KF[(x >> (_MASK_SHIFT + st)) & _SPARSE][0] | st


def korean_key_ids(ids: Sequence[int]) -> int:
    """Korean key of 1..7 card ids (fewer than five: pairs, trips and quads among what is there)."""
    n = len(ids)
    if n == 7:
        a, b, c, d, e, f, g = ids
        return korean7(a, b, c, d, e, f, g)
    if not 1 <= n <= 7:
        raise ValueError(f"a Korean hand has 1 to 7 cards, got {n}")
    x = 0
    for i in ids:
        x += _KK[i]
    st = _FS[x & 4095]
    if st < 0:
        try:
            bases, shift = _KR[n][(x >> 12) & _RANK_PART]
        except KeyError:
            bases, shift = _lookup(n, (x >> 12) & _RANK_PART)
        return bases[_TOPSUIT[(x >> shift) & 15]]
    if not _KF:
        _load(n)
    return _KF[(x >> (_MASK_SHIFT + st)) & _SPARSE][0] | st


def korean_cards_mask(ids: Sequence[int]) -> int:
    """The card mask of the five (or fewer) cards the Korean hand of ``ids`` uses: the last tie-break.

    Per used rank it takes that rank's best suits, which also picks the best kickers among equal keys.
    """
    n = len(ids)
    x = 0
    for i in ids:
        x += _KK[i]
    m = x >> _MASK_SHIFT
    st = _FS[x & 4095]
    if st >= 0:
        _load(n)
        return _KF[(m >> st) & _SPARSE][1] << st
    _load(n)
    try:
        full, partial = _KT[n][(x >> 12) & _RANK_PART]
    except KeyError:
        raise ValueError("not a valid hand") from None
    t = m & full
    for sh, cnt in partial:
        t |= _TOPK[cnt][(m >> sh) & 15] << sh
    return t


def _mask_cards(mask: int) -> tuple[Card, ...]:
    """Cards of a Korean card mask, best first."""
    out = []
    while mask:
        bit = mask.bit_length() - 1
        out.append(_CARDS[T.BIT_CARD[bit]])
        mask ^= 1 << bit
    return tuple(out)


class KoreanValue(HandValue):
    """Korean high value: the §6.2 key, then (lazily) the used cards' mask."""

    __slots__ = ()
    family = "korean"

    def _tiebreak(self) -> int:
        try:
            return self._tb
        except AttributeError:
            self._tb = tb = korean_cards_mask(self._source)
            return tb

    def _resolve(self) -> Details:
        category = self.key >> 22
        return T.KOREAN_NAMES[category], category, _mask_cards(self._tiebreak())


_new = object.__new__


def korean_high(cards: Sequence[Card]) -> HandValue:
    """Best five of up to seven cards by the Korean ranking with suits (§6.2).

    With fewer than five cards (the "current hand" hint) it ranks the pairs, trips and quads among them.
    ``category``: 0 탑, 1 원페어, 2 투페어, 3 트리플, 4 스트레이트, 5 백 스트레이트, 6 마운틴, 7 플러시,
    8 풀하우스, 9 포카드, 10 스트레이트 플러시, 11 백 스트레이트 플러시, 12 로열 스트레이트 플러시.

    >>> from pokerroom.cards import parse_cards
    >>> korean_high(parse_cards("7s 7c 2d 9h Jd")) > korean_high(parse_cards("7d 7h Ac Kc Qs"))
    True
    >>> korean_high(parse_cards("Ks Kd 5h 5c 2d")) < korean_high(parse_cards("Kh Kc 9s 9d 3d"))
    True
    >>> korean_high(parse_cards("Ac Ks Qs Js Ts 2d 3d")).name
    '마운틴'
    """
    value = _new(KoreanValue)
    if len(cards) == 7:
        c0, c1, c2, c3, c4, c5, c6 = cards
        a, b, c, d, e, f, g = c0.id, c1.id, c2.id, c3.id, c4.id, c5.id, c6.id
        x = _KK[a] + _KK[b] + _KK[c] + _KK[d] + _KK[e] + _KK[f] + _KK[g]
        if _FS[x & 4095] < 0:
            try:
                bases, shift = _KH7[_IDX7[(x >> 12) & _RANK_PART]]
            except IndexError:
                bases, shift = _hot7((x >> 12) & _RANK_PART)
            value.key = bases[_TOPSUIT[(x >> shift) & 15]]
        else:
            value.key = korean7(a, b, c, d, e, f, g)
        value._source = (a, b, c, d, e, f, g)
        return value
    if len(cards) == 5:
        c0, c1, c2, c3, c4 = cards
        a, b, c, d, e = c0.id, c1.id, c2.id, c3.id, c4.id
        x = _KK[a] + _KK[b] + _KK[c] + _KK[d] + _KK[e]
        if _FS[x & 4095] < 0:
            try:
                bases, shift = _KR5[(x >> 12) & _RANK_PART]
            except KeyError:
                bases, shift = _lookup(5, (x >> 12) & _RANK_PART)
            value.key = bases[_TOPSUIT[(x >> shift) & 15]]
            value._source = (a, b, c, d, e)
            return value
    ids = tuple([c.id for c in cards])
    value.key = korean_key_ids(ids)
    value._source = ids
    return value


def korean_open_rank(up_cards: Sequence[Card]) -> HandValue:
    """The boss ranking of 1..4 open cards (§5.4.3, rulings #3): 포카드 > 트리플 > 투페어 > 원페어 > 탑,
    no straights or flushes; equal ranks are decided by suit exactly as in §6.2, so it is never equal for
    two players' open cards. The first actor is the player with the highest value.

    >>> from pokerroom.cards import parse_cards
    >>> korean_open_rank(parse_cards("2c 2d")) > korean_open_rank(parse_cards("As Ks"))
    True
    >>> korean_open_rank(parse_cards("9s 3c")) > korean_open_rank(parse_cards("9d 8c"))  # 8 > 3 first
    False
    >>> korean_open_rank(parse_cards("9s 8d")) > korean_open_rank(parse_cards("9d 8s"))  # then the 9's suit
    True
    """
    if not 1 <= len(up_cards) <= 4:
        raise ValueError("the boss is decided by one to four open cards")
    ids = tuple([c.id for c in up_cards])
    value = _new(KoreanValue)
    value.key = korean_key_ids(ids)
    value._source = ids
    return value


# ------------------------------------------------------------------------------------------------- low

LowRule = Literal["korean", "aceToFive"]
LowQualifier = Literal["none", "eight"]

_LOW_RANK = tuple(1 if i % 13 == 12 else i % 13 + 2 for i in range(52))  # A counts 1
_RANK_LABEL = {1: "A", 10: "10", 11: "J", 12: "Q", 13: "K"}


def rank_label(low_rank: int) -> str:
    """Label of a rank on the ace-low scale (1 = A)."""
    return _RANK_LABEL.get(low_rank, str(low_rank))


_TMASK = (1 << T.T_BITS) - 1


class LowValue(HandValue):
    """A hi-lo low: ``key = (0xFFFFF - ranks from the top down) << 2 | suit of the top card``, then the
    card mask (so lows are strictly ordered over distinct card sets, like Korean highs)."""

    __slots__ = ()
    family = "low"

    def _resolve(self) -> Details:
        packed = 0xFFFFF - (self.key >> (T.T_BITS + 2))
        top = packed >> 16
        used = _mask_cards(self.key & _TMASK)
        cards = sorted(used, key=lambda c: (_LOW_RANK[c.id], _BIT[c.id]), reverse=True)
        return f"{rank_label(top)}탑", 14 - top, tuple(cards)


def korean_low(
    cards: Sequence[Card], rule: LowRule = "korean", qualifier: LowQualifier = "none"
) -> HandValue | None:
    """Best low of 5..7 cards (§6.3), or ``None`` when there is no low.

    Five different ranks, ace = 1, compared from the highest card down (lower wins), then the suit of the
    highest card (♠ best; rulings #2 applies it under ``aceToFive`` too). Under ``"korean"`` the five cards
    may not form a straight as a high hand — A-2-3-4-5 and A-K-Q-J-10 included (rulings #1) — nor a
    flush. ``qualifier="eight"`` requires an eight or lower on top. ``category`` = 14 - the top card, so a
    better low has a larger category.

    >>> from pokerroom.cards import parse_cards
    >>> seven = parse_cards("As 2d 3h 4c 5s 9d Kh")
    >>> korean_low(seven).name, korean_low(seven, rule="aceToFive").name
    ('9탑', '5탑')
    """
    if rule not in ("korean", "aceToFive") or qualifier not in ("none", "eight"):
        raise ValueError(f"unknown low rule {rule!r} / qualifier {qualifier!r}")
    key = _low_key([c.id for c in cards], rule == "korean", 8 if qualifier == "eight" else 13)
    if key < 0:
        return None
    value = _new(LowValue)
    value.key = key
    value._source = None
    return value


#: per ace-low rank 1..13: its rank index 0..12 in the A-high order (for straights and card bits)
_HIGH_INDEX = (0, 12, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11)
#: nibble of suit strengths -> the suits present, best first
_SUITS_DESC = tuple(tuple(b for b in (3, 2, 1, 0) if n >> b & 1) for n in range(16))


def _low_key(ids: Sequence[int], korean: bool, limit: int) -> int:
    """The best low's key, or -1.

    The best rank set is the lowest five distinct ranks unless (``korean``) they make a straight or can only
    be one suit; only then are the other five-rank sets tried, best first. Suits are then chosen for the
    largest key: the best suit everywhere, except that a flush under ``korean`` gives up the best suit of
    the least significant card that has another one (the top card last). This equals the exhaustive
    maximum over all five-card combinations (:func:`_low_key_exhaustive`, kept for the tests).
    """
    suits = [0] * 14
    for i in ids:
        suits[_LOW_RANK[i]] |= 1 << (3 - i // 13)
    ranks = [r for r in range(1, 14) if suits[r]]
    if len(ranks) < 5:
        return -1
    lowest = tuple(ranks[:5])
    chosen: tuple[int, ...] | None = lowest
    if korean and not _low_ranks_ok(lowest, suits):
        chosen = None
        for option in sorted(combinations(ranks, 5), key=lambda c: c[::-1]):
            if _low_ranks_ok(option, suits):
                chosen = option
                break
    if chosen is None or chosen[4] > limit:
        return -1
    picks = {r: _SUITS_DESC[suits[r]][0] for r in chosen}
    if korean and len(set(picks.values())) == 1:
        # all best suits agree: a flush. Give up the best suit of the least significant card that has
        # another suit, in the card-mask order (A highest), keeping the top card for last.
        top = chosen[4]
        for r in sorted(chosen, key=lambda r: (r == top, _HIGH_INDEX[r])):
            if len(_SUITS_DESC[suits[r]]) > 1:
                picks[r] = _SUITS_DESC[suits[r]][1]
                break
    mask = 0
    for r, strength in picks.items():
        mask |= 1 << (_HIGH_INDEX[r] * 4 + strength)
    return ((0xFFFFF - T.pack(chosen[::-1])) << 2 | picks[chosen[4]]) << T.T_BITS | mask


def _low_ranks_ok(ranks: tuple[int, ...], suits: list[int]) -> bool:
    """Under ``korean``: five ranks that are no straight (as a high hand) and not forced into one suit."""
    rmask = 0
    union = 0
    for r in ranks:
        rmask |= 1 << _HIGH_INDEX[r]
        union |= suits[r]
    return T.STRAIGHT_TOP[rmask] < 0 and union.bit_count() > 1


def _low_key_exhaustive(ids: Sequence[int], korean: bool, limit: int) -> int:
    """The largest low key over every five-card combination (the definition; slow)."""
    best = -1
    for combo in combinations(ids, 5):
        rmask = 0
        mask = 0
        suit_set = 0
        for i in combo:
            rmask |= 1 << (i % 13)
            mask |= _BIT[i]
            suit_set |= 1 << (i // 13)
        if rmask.bit_count() != 5:
            continue
        if korean and (T.STRAIGHT_TOP[rmask] >= 0 or suit_set.bit_count() == 1):
            continue
        lows = sorted([_LOW_RANK[i] for i in combo], reverse=True)
        if lows[0] > limit:
            continue
        top_card = max(combo, key=lambda i: _LOW_RANK[i])
        key = ((0xFFFFF - T.pack(lows)) << 2 | (3 - top_card // 13)) << T.T_BITS | mask
        best = max(best, key)
    return best
