"""Ranked Korean hand names, as Korean poker apps show them, and the words that say why one hand won.

``HandValue.name`` is the class of hand ("투페어", "탑"). Players read a hand by its deciding card as well:
"K 투페어", "A 플러시", "K탑", "10 트리플" in the Korean modes (§6.2: 7 Poker, hi-lo), and "킹 투페어",
"에이스 하이" in the international ones (§6.1: hold'em, Omaha, five-card draw), where a kicker can decide
("킹 투페어, 에이스 키커"). Lows read "9탑", badugi "8 메이드", "7 투베이스".

- :func:`ranked_name` gives the short ranked name of one value (the hint, a seat at the showdown).
- :func:`versus` gives the two names that show what decided between a winner and a loser: the short names
  when they already differ, else as many deciding ranks as it takes ("A·10 투페어" vs "A·9 투페어"), then the
  kickers (international) or the deciding suit (Korean, lows: "7 원페어(♠)").
- :func:`subject` / :func:`object_` add the Korean particle (이/가, 을/를) that fits the word's last sound.

Everything is derived from the value's ``category`` and its used ``cards``, never from the evaluators'
internal key layouts, so a family these functions do not know simply keeps its plain ``name``.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from pokerroom.cards import SUIT_STRENGTH, SUIT_SYMBOL, Card
from pokerroom.hands import _tables as T
from pokerroom.hands.korean import rank_label
from pokerroom.hands.value import HandValue

__all__ = ["NameParts", "object_", "parts", "ranked_name", "subject", "versus"]

#: international modes: ranks spelled as players say them ("킹 투페어, 에이스 키커")
_INTL_WORDS = {14: "에이스", 13: "킹", 12: "퀸", 11: "잭"}
#: Korean modes: ranks as the card shows them ("K 투페어", "A 플러시")
_LETTERS = {14: "A", 13: "K", 12: "Q", 11: "J"}

# international categories (T.INTL_NAMES order)
_I_HIGH, _I_PAIR, _I_TWO, _I_TRIPS, _I_STRAIGHT, _I_FLUSH, _I_FULL, _I_QUADS, _I_SF = range(9)


@dataclass(frozen=True)
class NameParts:
    """What a hand name is made of: ``label`` (the class word), the deciding ``ranks`` in the order they are
    compared, the ``kickers`` after them (international only), the deciding ``suit`` (Korean and lows) and
    the ``words`` used for ranks. ``fixed`` is a name that carries no rank (마운틴, 골프, 로열 ...)."""

    family: str
    category: int
    label: str
    ranks: tuple[int, ...]
    kickers: tuple[int, ...] = ()
    suit: str | None = None
    words: str = "letters"  # "letters" (K, A), "intl" (킹, 에이스) or "low" (A = 1)
    fixed: str | None = None
    tight: bool = False  # "K탑" is written without a space


def _word(rank: int, words: str) -> str:
    if words == "low":
        return rank_label(rank)
    table = _INTL_WORDS if words == "intl" else _LETTERS
    return table.get(rank, str(rank))


def _groups(cards: tuple[Card, ...]) -> list[int]:
    """Ranks ordered by how many times they appear, then by rank (pairs before kickers), each once."""
    counts = Counter(c.rank for c in cards)
    return sorted(counts, key=lambda r: (counts[r], r), reverse=True)


def _straight_top(cards: tuple[Card, ...]) -> int:
    ranks = {c.rank for c in cards}
    return 5 if ranks == {14, 2, 3, 4, 5} else max(ranks)


def _best_suit(cards: list[Card] | tuple[Card, ...]) -> str | None:
    return max((c.suit for c in cards), key=lambda s: SUIT_STRENGTH[s], default=None)


def _intl(value: HandValue) -> NameParts:
    cat = value.category
    cards = value.cards
    label = T.INTL_NAMES[cat] if 0 <= cat < len(T.INTL_NAMES) else value.name
    order = _groups(cards)
    if cat in (_I_STRAIGHT, _I_SF):
        top = _straight_top(cards)
        fixed = T.ROYAL_NAME if cat == _I_SF and top == 14 else None
        return NameParts("high", cat, label, (top,), words="intl", fixed=fixed)
    if cat in (_I_HIGH, _I_FLUSH):
        return NameParts("high", cat, "하이" if cat == _I_HIGH else label, tuple(order), words="intl")
    if cat in (_I_TWO, _I_FULL):
        return NameParts("high", cat, label, tuple(order[:2]), tuple(order[2:]), words="intl")
    return NameParts("high", cat, label, tuple(order[:1]), tuple(order[1:]), words="intl")


def _korean(value: HandValue) -> NameParts:
    cat = value.category
    cards = value.cards
    label = T.KOREAN_NAMES[cat] if 0 <= cat < len(T.KOREAN_NAMES) else value.name
    order = _groups(cards)
    if cat == T.K_TOP:
        highest = [c for c in cards if c.rank == order[0]]
        return NameParts("korean", cat, label, tuple(order), suit=_best_suit(highest), tight=True)
    if cat in (T.K_PAIR, T.K_TWO_PAIR):
        n = 1 if cat == T.K_PAIR else 2
        deciding = [c for c in cards if c.rank == order[0]]
        return NameParts("korean", cat, label, tuple(order[:n]), suit=_best_suit(deciding))
    if cat in (T.K_TRIPS, T.K_FULL_HOUSE, T.K_QUADS):
        return NameParts("korean", cat, label, tuple(order[:1]))
    if cat == T.K_FLUSH:
        return NameParts("korean", cat, label, tuple(order), suit=_best_suit(cards))
    # straights and straight flushes: the top card, then its suit (백: the ace's)
    top = _straight_top(cards)
    suit_of = 14 if cat in (T.K_BACK, T.K_BACK_STRAIGHT_FLUSH) else top
    suit = _best_suit([c for c in cards if c.rank == suit_of])
    fixed = label if cat in (T.K_BACK, T.K_MOUNTAIN, T.K_BACK_STRAIGHT_FLUSH, T.K_ROYAL) else None
    return NameParts("korean", cat, label, (top,), suit=suit, fixed=fixed)


def _low_rank(card: Card) -> int:
    return 1 if card.rank == 14 else card.rank


def _low(value: HandValue) -> NameParts:
    cards = sorted(value.cards, key=_low_rank, reverse=True)
    ranks = tuple(_low_rank(c) for c in cards)
    return NameParts("low", value.category, "탑", ranks, suit=cards[0].suit if cards else None, words="low",
                     tight=True)


_BADUGI_LABELS = {4: "메이드", 3: "베이스", 2: "투베이스", 1: "노베이스"}
_BADUGI_NAMED = ("골프", "세컨드", "써드")


def _badugi(value: HandValue) -> NameParts:
    ranks = tuple(sorted((_low_rank(c) for c in value.cards), reverse=True))
    fixed = value.name if value.name in _BADUGI_NAMED else None
    return NameParts("badugi", value.category, _BADUGI_LABELS.get(value.category, value.name), ranks,
                     words="low", fixed=fixed)


def parts(value: HandValue) -> NameParts | None:
    """The parts of ``value``'s name, or None for a family without ranked names (Indian names are ranked
    already: "10-9", "3 페어")."""
    family = value.family
    if family == "high":
        return _intl(value)
    if family == "korean":
        return _korean(value)
    if family == "low":
        return _low(value)
    if family == "omahaLow":  # eight or better: suits never decide (equal lows split)
        p = _low(value)
        return NameParts("omahaLow", p.category, p.label, p.ranks, words="low", tight=True)
    if family == "badugi":
        return _badugi(value)
    return None


def _join(p: NameParts, ranks: tuple[int, ...]) -> str:
    text = "·".join(_word(r, p.words) for r in ranks)
    return f"{text}{p.label}" if p.tight else f"{text} {p.label}"


def _short(p: NameParts) -> str:
    if p.fixed is not None:
        return p.fixed
    return _join(p, p.ranks[:1])


def ranked_name(value: HandValue) -> str:
    """The short ranked name: "K 투페어", "A 플러시", "K탑", "10 트리플"; "킹 투페어", "에이스 하이";
    "9탑" (low); "8 메이드", "7 투베이스" (badugi); Indian names as they are ("10-9", "3 페어").

    >>> from pokerroom.cards import parse_cards
    >>> from pokerroom.hands import korean_high, international_high
    >>> ranked_name(korean_high(parse_cards("Ks Kd 5h 5c 2d 9s 7c")))
    'K 투페어'
    >>> ranked_name(international_high(parse_cards("As Jd 9h 6c 3d 2s 4h")))
    '에이스 하이'
    """
    p = parts(value)
    return value.name if p is None else _short(p)


def versus(winner: HandValue, loser: HandValue) -> tuple[str, str]:
    """The names of two hands of one family that show what decided between them.

    >>> from pokerroom.cards import parse_cards
    >>> from pokerroom.hands import international_high, korean_high
    >>> board = "Ks Kd 7c 7h 2s"
    >>> a, b = parse_cards("Ac 3d " + board), parse_cards("Qh Jh " + board)
    >>> versus(international_high(a), international_high(b))
    ('킹 투페어, 에이스 키커', '킹 투페어, 퀸 키커')
    >>> versus(korean_high(parse_cards("As Ad 10h 10c 3d")), korean_high(parse_cards("10s 10d 9h 9c 2d")))
    ('A 투페어', '10 투페어')
    >>> versus(korean_high(parse_cards("As Ad 10h 10c 3d")), korean_high(parse_cards("Ah Ac 9h 9c 2d")))
    ('A·10 투페어', 'A·9 투페어')
    """
    a, b = parts(winner), parts(loser)
    if a is None or b is None or a.family != b.family or a.category != b.category:
        return ranked_name(winner), ranked_name(loser)
    sa, sb = _short(a), _short(b)
    if sa != sb or a.fixed is not None:
        if sa == sb and a.suit != b.suit and a.suit and b.suit:
            return f"{sa}({SUIT_SYMBOL[a.suit]})", f"{sb}({SUIT_SYMBOL[b.suit]})"
        return sa, sb
    for i, (x, y) in enumerate(zip(a.ranks, b.ranks, strict=False)):
        if x != y:
            return _join(a, a.ranks[: i + 1]), _join(b, b.ranks[: i + 1])
    for j, (x, y) in enumerate(zip(a.kickers, b.kickers, strict=False)):
        if x != y:
            ka = "·".join(_word(r, a.words) for r in a.kickers[: j + 1])
            kb = "·".join(_word(r, b.words) for r in b.kickers[: j + 1])
            return f"{sa}, {ka} 키커", f"{sb}, {kb} 키커"
    if a.suit and b.suit and a.suit != b.suit:
        return f"{sa}({SUIT_SYMBOL[a.suit]})", f"{sb}({SUIT_SYMBOL[b.suit]})"
    return sa, sb


# ------------------------------------------------------------------------------------------- particles

#: the last sound of a digit or a letter as Koreans read it: does it end in a consonant (받침)?
_FINAL_CONSONANT = {
    "0": True, "1": True, "2": False, "3": True, "4": False, "5": False, "6": True, "7": True, "8": True,
    "9": False, "A": False, "J": False, "Q": False, "K": False,
}


def _has_final(word: str) -> bool:
    text = word.rstrip()
    if text.endswith(")") and "(" in text:
        text = text[: text.rindex("(")].rstrip()
    if not text:
        return False
    ch = text[-1]
    if "가" <= ch <= "힣":
        return (ord(ch) - 0xAC00) % 28 != 0
    return _FINAL_CONSONANT.get(ch.upper(), False)


def subject(word: str) -> str:
    """``word`` with the subject particle: "트리플이", "투페어가", "K탑이"."""
    return word + ("이" if _has_final(word) else "가")


def object_(word: str) -> str:
    """``word`` with the object particle: "트리플을", "투페어를", "7 원페어(♠)를"."""
    return word + ("을" if _has_final(word) else "를")
