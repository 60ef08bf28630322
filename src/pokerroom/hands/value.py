"""``HandValue``: the one result type of every evaluator.

Why a small class around an integer key: the betting layer awards pots by comparing strengths it knows
nothing about (``award_pots(pots, strength, order)``), so every evaluator hands back something totally
ordered where ``a > b`` means *a wins* — for high hands, lows and badugi alike — and ``a == b`` means a
split. Each evaluator encodes "better" as a larger integer ``key``.

Why so little is done up front: evaluation is hot (odds, bots, simulations) while names and used cards are
read once per showdown. A value is created without running ``__init__`` (:func:`make`), holds only its
key and its source cards, and resolves ``name``, ``category`` and ``cards`` on first access.

Korean hands have a second, lazy level: ``key`` is the §6.2 comparison (category, deciding ranks, deciding
suit), which already separates any two hands that can meet in one deal; only when two keys are equal (the
two card sets share cards) is a card-mask tie-break computed, so ``==`` still means "the same five cards".
"""

from __future__ import annotations

from typing import Any, ClassVar

from pokerroom.cards import Card

Details = tuple[str, int, tuple[Card, ...]]

_new = object.__new__


class HandValue:
    """A hand's strength. ``a > b``: a beats b. ``a == b``: a split tie. Hashable consistently with ``==``.

    ``key`` is the raw integer (larger is better) within ``family``; ``name`` is the Korean hand name,
    ``category`` a small int for statistics (larger is a better class of hand within the family), ``cards``
    the cards that make the hand. Values of different families (e.g. a low and a high) do not compare.
    """

    __slots__ = ("_info", "_source", "_tb", "key")
    family: ClassVar[str] = "abstract"

    key: int
    _source: Any
    _info: Details
    _tb: int

    # -- resolved lazily by each family
    def _resolve(self) -> Details:  # pragma: no cover - overridden
        raise NotImplementedError

    def _tiebreak(self) -> int:
        """A further comparison for equal keys; families whose key is complete return 0."""
        return 0

    def _details(self) -> Details:
        try:
            return self._info
        except AttributeError:
            self._info = info = self._resolve()
            return info

    @property
    def name(self) -> str:
        """The Korean hand name, e.g. ``"풀하우스"``, ``"9탑"``, ``"7 메이드"``."""
        return self._details()[0]

    @property
    def category(self) -> int:
        """Class of hand, larger is better within the family (e.g. 0 = high card ... 8 = straight flush)."""
        return self._details()[1]

    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards used (five for poker hands, the badugi subset, the Indian cards)."""
        return self._details()[2]

    def _cmp(self, other: object) -> int | None:
        """-1 / 0 / 1, or None when ``other`` is not a HandValue."""
        if not isinstance(other, HandValue):
            return None
        if other.family != self.family:
            raise TypeError(f"cannot compare a {self.family} hand with a {other.family} hand")
        if self.key != other.key:
            return -1 if self.key < other.key else 1
        a, b = self._tiebreak(), other._tiebreak()
        return (a > b) - (a < b)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, HandValue):
            return NotImplemented
        if other.family != self.family or self.key != other.key:
            return False
        return self._tiebreak() == other._tiebreak()

    def __hash__(self) -> int:
        return hash(self.key)

    def __lt__(self, other: HandValue) -> bool:
        c = self._cmp(other)
        return NotImplemented if c is None else c < 0

    def __le__(self, other: HandValue) -> bool:
        c = self._cmp(other)
        return NotImplemented if c is None else c <= 0

    def __gt__(self, other: HandValue) -> bool:
        c = self._cmp(other)
        return NotImplemented if c is None else c > 0

    def __ge__(self, other: HandValue) -> bool:
        c = self._cmp(other)
        return NotImplemented if c is None else c >= 0

    def __repr__(self) -> str:
        cards = " ".join(card.code for card in self.cards)
        return f"HandValue({self.family}, {self.name!r}, [{cards}])"

    def to_json(self) -> dict[str, object]:
        """A JSON-ready summary for showdown views: name, category and the cards used."""
        return {"name": self.name, "category": self.category, "cards": [c.to_json() for c in self.cards]}


def make(cls: type[HandValue], key: int, source: Any) -> HandValue:
    """Create a value without calling ``__init__`` (several times cheaper; evaluators inline this)."""
    value = _new(cls)
    value.key = key
    value._source = source
    return value
