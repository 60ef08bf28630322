"""pokerkit's side of a mirrored hand: the variants, our cards in pokerkit's notation, a pokerkit ``State``
for one hand (streets, forced bets, memoised hand types) and the strict-warnings context it runs in.

Apart from the game driver so that everything that knows pokerkit's own API for setting a hand up is in one
place (the tests build pokerkit states with it directly too).
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from pokerkit import (
    Automation,
    BadugiHand,
    BettingStructure,
    Card,
    Deck,
    Hand,
    Mode,
    OmahaEightOrBetterLowHand,
    OmahaHoldemHand,
    Opening,
    StandardHighHand,
    Street,
)
from pokerkit import State as PkState

RANK_CHARS = {2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9", 10: "T", 11: "J", 12: "Q",
              13: "K", 14: "A"}

PK_AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.RUNOUT_COUNT_SELECTION,
    Automation.CHIPS_PULLING,
)  # burning, hole/board dealing, showdown, hand killing and pushing are driven by the harness

FREE_FOLD_WARNING = "There is no reason for this player to fold"
RESHUFFLE_WARNINGS = ("is not recommended to be dealt", "Returning reserved")
POINTLESS_RAISE = "There is no reason to complete, bet, or raise"
ACTED_SHORT_ALL_IN = "already acted and hence cannot raise in face of a non-full all-in"


@dataclass(frozen=True)
class Variant:
    name: str
    mode: str  # holdem | omaha | badugi | fiveDraw
    betting: str  # noLimit | potLimit
    hilo: bool = False  # Omaha Hi-Lo, eight or better (``omahaHiLo``)

    @property
    def community(self) -> bool:
        return self.mode in ("holdem", "omaha")


VARIANTS: dict[str, Variant] = {
    v.name: v
    for v in (
        Variant("holdem-nl", "holdem", "noLimit"),
        Variant("holdem-pl", "holdem", "potLimit"),
        Variant("omaha-pl", "omaha", "potLimit"),
        Variant("omaha-nl", "omaha", "noLimit"),
        Variant("badugi-nl", "badugi", "noLimit"),
        Variant("badugi-pl", "badugi", "potLimit"),
        Variant("fivedraw-nl", "fiveDraw", "noLimit"),
        Variant("fivedraw-pl", "fiveDraw", "potLimit"),
        Variant("omaha-hilo-pl", "omaha", "potLimit", hilo=True),  # last: the other variants keep their seeds
    )
}



def pk_card(card: dict[str, Any]) -> str:
    """``{"rank": 14, "suit": "S"}`` -> ``"As"``."""
    return RANK_CHARS[card["rank"]] + card["suit"].lower()



@contextmanager
def strict(*allowed: str) -> Iterator[None]:
    """Run pokerkit with every warning an error, except the messages in ``allowed``."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for text in allowed:
            warnings.filterwarnings("ignore", message=f".*{text}.*")
        yield


def _streets(variant: Variant, unit: int) -> tuple[Street, ...]:
    def street(burn: bool, holes: int, board: int, draw: bool) -> Street:
        return Street(burn, (False,) * holes, board, draw, Opening.POSITION, unit, None)

    if variant.community:
        holes = 4 if variant.mode == "omaha" else 2
        return (street(False, holes, 0, False), street(True, 0, 3, False), street(True, 0, 1, False),
                street(True, 0, 1, False))
    if variant.mode == "badugi":
        return (street(False, 4, 0, False), street(False, 0, 0, True), street(False, 0, 0, True),
                street(False, 0, 0, True))
    return (street(False, 5, 0, False), street(False, 0, 0, True))


def memoised(base: type[Hand]) -> type[Hand]:
    """``base`` with ``from_game`` memoised per (hole, board): pokerkit evaluates the same hand many times per
    showdown (showing, hand killing, pushing), and its Omaha evaluation dominates the run time otherwise. The
    values are pokerkit's own; only repeated work is saved."""
    memo: dict[tuple[tuple[Card, ...], tuple[Card, ...]], Hand] = {}

    def from_game(cls: type[Hand], hole_cards: Any, board_cards: Any = ()) -> Hand:
        key = (tuple(Card.clean(hole_cards)), tuple(Card.clean(board_cards)))
        hand = memo.get(key)
        if hand is None:
            hand = memo[key] = base.from_game.__func__(cls, key[0], key[1])  # type: ignore[attr-defined]
        return hand

    return type(f"Memo{base.__name__}", (base,), {"from_game": classmethod(from_game), "memo": memo})


HAND_TYPES: dict[str, type[Hand]] = {
    "holdem": memoised(StandardHighHand),
    "omaha": memoised(OmahaHoldemHand),
    "badugi": memoised(BadugiHand),
    "fiveDraw": memoised(StandardHighHand),
}
OMAHA_LOW = memoised(OmahaEightOrBetterLowHand)


def make_pk_state(variant: Variant, stacks: list[int], unit: int) -> PkState:
    """A pokerkit state for one hand, players in our ``hand.order``."""
    structure = BettingStructure.NO_LIMIT if variant.betting == "noLimit" else BettingStructure.POT_LIMIT
    hand_type = HAND_TYPES[variant.mode]
    hand_type.memo.clear()  # type: ignore[attr-defined]
    hand_types: tuple[type[Hand], ...] = (hand_type,)
    if variant.hilo:
        OMAHA_LOW.memo.clear()  # type: ignore[attr-defined]
        hand_types = (hand_type, OMAHA_LOW)
    if variant.community:
        antes, blinds = 0, (max(1, unit // 2), unit)
    else:
        antes, blinds = unit, 0
    with strict():
        return PkState(
            PK_AUTOMATIONS, Deck.STANDARD, hand_types, _streets(variant, unit), structure, True, antes,
            blinds, 0, tuple(stacks), len(stacks), mode=Mode.CASH_GAME,
        )
