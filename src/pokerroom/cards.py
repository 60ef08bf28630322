"""Cards and decks (poker.md §3, §8.1).

A card is an immutable value with a stable ``id`` inside its deck, because the view layer hides a secret
card by sending neither its rank/suit nor its id, and the id must therefore never be derivable from
anything public except the card itself.

Decks:
- ``standard_deck()``: 52 cards, ranks 2..14 (11=J, 12=Q, 13=K, 14=A), suits S, D, H, C;
  ``id = SUITS.index(suit) * 13 + (rank - 2)`` so ids are 0..51.
- ``d20_deck()``: the Indian-poker deck, ranks 1..10 (1 = A, the lowest) in S and H;
  ``id = (0 for S, 1 for H) * 10 + (rank - 1)`` so ids are 0..19.

>>> parse_cards("As Kd 10h 9c 2s")
[Card(id=12, rank=14, suit='S'), Card(id=24, rank=13, suit='D'), Card(id=34, rank=10, suit='H'), \
Card(id=46, rank=9, suit='C'), Card(id=0, rank=2, suit='S')]
>>> format_cards(parse_cards("th jH"))
'Th Jh'
>>> parse_card("Ah", deck="d20")
Card(id=10, rank=1, suit='H')
"""

from __future__ import annotations

import operator
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

Suit = Literal["S", "D", "H", "C"]
DeckKind = Literal["d52", "d20"]

#: Korean suit order, strongest first: ♠ > ◆ > ♥ > ♣ (§6.2). Also the id order of the standard deck.
SUITS: tuple[Suit, ...] = ("S", "D", "H", "C")
#: Strength of a suit for Korean tie-breaks: higher is better.
SUIT_STRENGTH: dict[str, int] = {"S": 4, "D": 3, "H": 2, "C": 1}
SUIT_SYMBOL: dict[str, str] = {"S": "♠", "D": "◆", "H": "♥", "C": "♣"}
SUIT_KOREAN: dict[str, str] = {"S": "스페이드", "D": "다이아몬드", "H": "하트", "C": "클로버"}

_RANK_CHARS: dict[str, int] = {
    "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9,
    "T": 10, "10": 10, "J": 11, "Q": 12, "K": 13, "A": 14,
}
_RANK_TEXT: dict[int, str] = {
    1: "A", 2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9",
    10: "T", 11: "J", 12: "Q", 13: "K", 14: "A",
}
_RANK_LABEL: dict[int, str] = {**_RANK_TEXT, 10: "10"}


@dataclass(frozen=True, slots=True)
class Card:
    """One card. ``rank`` 2..14 (14 = A) in the standard deck, 1..10 (1 = A) in the d20 deck."""

    id: int
    rank: int
    suit: Suit

    @property
    def code(self) -> str:
        """Compact code such as ``"As"`` or ``"Th"`` (parseable by :func:`parse_card`)."""
        return _RANK_TEXT[self.rank] + self.suit.lower()

    @property
    def label(self) -> str:
        """Human label such as ``"A♠"`` or ``"10♥"``."""
        return _RANK_LABEL[self.rank] + SUIT_SYMBOL[self.suit]

    def to_json(self) -> dict[str, int | str]:
        """The wire form of a *visible* card (§8.1): ``{"id", "rank", "suit"}``."""
        return {"id": self.id, "rank": self.rank, "suit": self.suit}

    @staticmethod
    def from_json(data: dict[str, object]) -> Card:
        rank = data["rank"]
        ident = data["id"]
        suit = data["suit"]
        if not isinstance(rank, int) or not isinstance(ident, int) or suit not in SUITS:
            raise ValueError(f"not a card: {data!r}")
        return Card(ident, rank, suit)

    def __str__(self) -> str:
        return self.code


def standard_card(rank: int, suit: Suit) -> Card:
    """The standard-deck card of this rank (2..14) and suit."""
    if not 2 <= rank <= 14 or suit not in SUITS:
        raise ValueError(f"no such card in the 52-card deck: rank={rank} suit={suit}")
    return Card(SUITS.index(suit) * 13 + (rank - 2), rank, suit)


def d20_card(rank: int, suit: Suit) -> Card:
    """The d20-deck card of this rank (1..10) and suit (S or H)."""
    if not 1 <= rank <= 10 or suit not in ("S", "H"):
        raise ValueError(f"no such card in the d20 deck: rank={rank} suit={suit}")
    return Card((0 if suit == "S" else 1) * 10 + (rank - 1), rank, suit)


def standard_deck() -> list[Card]:
    """The 52 cards in id order (a fresh list each call)."""
    return [standard_card(rank, suit) for suit in SUITS for rank in range(2, 15)]


def d20_deck() -> list[Card]:
    """The 20-card Indian deck (A..10 in ♠ and ♥) in id order."""
    return [d20_card(rank, suit) for suit in ("S", "H") for rank in range(1, 11)]


def deck_for(kind: DeckKind) -> list[Card]:
    """``standard_deck()`` for ``"d52"``, ``d20_deck()`` for ``"d20"``."""
    return d20_deck() if kind == "d20" else standard_deck()


def parse_card(text: str, deck: DeckKind = "d52") -> Card:
    """Parse ``"As"``, ``"10h"``, ``"Th"`` (any case). In the d20 deck ``A`` is rank 1."""
    t = text.strip()
    if len(t) < 2:
        raise ValueError(f"not a card: {text!r}")
    rank_text, suit_text = t[:-1].upper(), t[-1].upper()
    if rank_text not in _RANK_CHARS or suit_text not in SUITS:
        raise ValueError(f"not a card: {text!r}")
    rank = _RANK_CHARS[rank_text]
    if deck == "d20":
        return d20_card(1 if rank == 14 else rank, suit_text)
    return standard_card(rank, suit_text)


def parse_cards(text: str, deck: DeckKind = "d52") -> list[Card]:
    """Parse whitespace- or comma-separated cards: ``parse_cards("As Kd 10h")``."""
    return [parse_card(part, deck) for part in text.replace(",", " ").split()]


_CARD_ID = operator.attrgetter("id")


def card_ids(cards: Iterable[Card]) -> tuple[int, ...]:
    """The cards' ids, in order: a hashable key for what the cards are (within one deck).

    ``tuple(map(attrgetter("id"), ...))`` instead of a generator, and ids instead of the cards: the hint and
    bot caches key on this for every view, and a ``Card``'s dataclass ``__hash__`` runs in Python.

    >>> card_ids(parse_cards("As Kd"))
    (12, 24)
    """
    return tuple(map(_CARD_ID, cards))


def format_cards(cards: list[Card] | tuple[Card, ...]) -> str:
    """The inverse of :func:`parse_cards`: ``"As Kd Th"``."""
    return " ".join(card.code for card in cards)
