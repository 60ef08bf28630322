"""The hand names a view shows with hints on ("지금: 투페어", the ranked "K 투페어", a low's), remembered.

Why a module of its own: with hints on, every change rebuilds every player's view, and naming a hand (its
value, then its best five cards for the ranked name) cost more than the rest of the view; these tables keep
the names by the cards (:data:`HINTS`) and by the value (:data:`NAMES`), and :func:`warm_hint_names` fills
the second at start-up. ``engine/view.py`` reads :func:`hint_names` and :func:`indian_name`.
"""

from __future__ import annotations

from itertools import permutations
from typing import Any

import numpy as np

from pokerroom.cards import card_ids, standard_deck
from pokerroom.engine.modes import Indian, ModeRules
from pokerroom.engine.state import Hand
from pokerroom.hands import international_high, korean_high, ranked_name
from pokerroom.hands.batch import korean_high_batch
from pokerroom.hands.international import class_representatives

#: (rules object, ids of hole, up, choice, board) -> (handName, lowName, rankName); see :func:`hint_names`
HINTS: dict[tuple[Any, ...], tuple[str | None, str | None, str | None]] = {}
HINTS_KEPT = 8192


def hint_names(mode: Any, hand: Hand, pid: str) -> tuple[str | None, str | None, str | None]:
    """The hint names of ``pid``'s cards, remembered by the cards.

    Why: with hints on, every change rebuilt every player's hint (two hand evaluations and a ranked name
    each), although a player's cards change a few times per hand. The names are a pure function of the rules
    object (one per options) and the cards the modes read (``hint_values``: hole, up, choice, board), so
    they are cached by exactly those; the table is cleared when it reaches ``HINTS_KEPT`` entries. The
    cards are keyed by id (a card's id fixes its rank and suit within the rules' deck): hashing a
    ``Card`` runs its dataclass ``__hash__`` in Python, seven times per call, and most calls are hits. A
    miss evaluates the hand once: ``ModeRules.hint`` is the names of ``hint_values`` (a mode that
    overrides ``hint`` is asked both, as before)."""
    hp = hand.players[pid]
    choice = None if hp.choice is None else card_ids(hp.choice)
    key = (mode, card_ids(hp.hole), card_ids(hp.up), choice, card_ids(hand.board))
    hit = HINTS.get(key)
    if hit is None:
        high, low = mode.hint_values(hand, pid)
        high_names = value_names(high)
        if type(mode).hint is ModeRules.hint:
            hand_name, low_name = high_names[0], value_names(low)[0]
        else:
            hand_name, low_name = mode.hint(hand, pid)
        hit = (hand_name, low_name, high_names[1])
        if len(HINTS) >= HINTS_KEPT:
            HINTS.clear()
        HINTS[key] = hit
    return hit


def shown_name(mode: Any, hand: Hand, pid: str) -> str | None:
    """The name of cards shown after everyone else folded: what no showdown entry names, read as their
    owner's hint reads them (the ranked name, "에이스 원페어"; None for what makes nothing yet, two unpaired
    hold'em cards before the flop). For the seat's ``shownName`` and the ``shown`` event's ``name``."""
    hand_name, _, rank_name = hint_names(mode, hand, pid)
    return rank_name or hand_name


def value_names(value: Any) -> tuple[str | None, str | None]:
    """(name, ranked name) of a hand value, remembered by its family and key (None: no value).

    Why: a name is read from the value's used cards (a 7-card or Omaha value finds its best five again, a
    few dozen evaluations in Python), and a player's cards change at every street, so a miss of
    :data:`HINTS` cost more than the evaluation. Both names are a function of the key alone (the key
    orders hands, so it holds the category and the deciding ranks and suit a name is made of;
    ``tests/engine/test_hint_names.py`` checks every family against fresh values). By family, not type: an
    Omaha high value is of hold'em's family and scale, so it is named from the same entries (those
    :func:`warm_hint_names` puts in)."""
    if value is None:
        return (None, None)
    key = (value.family, value.key)
    hit = NAMES.get(key)
    if hit is None:
        hit = (str(value.name), ranked_name(value))
        if len(NAMES) >= NAMES_KEPT:
            NAMES.clear()
        NAMES[key] = hit
    return hit


#: :func:`value_names` by (value family, key); cleared when full. Larger than the other tables: an entry is
#: two short strings, and every international class (7,462) is put in at start-up (:func:`warm_hint_names`)
NAMES: dict[tuple[str, int], tuple[str | None, str | None]] = {}
NAMES_KEPT = 1 << 16


def warm_hint_names() -> int:
    """Put the names of every hand class of five or more cards into :data:`NAMES`, international (hold'em,
    Omaha, five-card draw: 7,462) and Korean high (7 Poker: 10,608); returns how many entries there are.

    Why: a name is worded from the hand's best five cards, a search that cost more than the rest of a view's
    hint, and with hints on each street brings most seats a value not named yet; the server calls this once,
    in its warm-up thread (about half a second), so no room pays such a miss. A Korean key also holds the
    deciding card's suit, so its classes are the international ones in every relabelling of the four suits
    (the batch evaluator finds one hand of each key among them)."""
    reps = list(class_representatives())
    for ids in reps:
        value_names(international_high([_DECK[i] for i in ids]))
    base = np.array(reps, dtype=np.int64)
    relabelled = np.concatenate([np.array(perm)[base // 13] * 13 + base % 13
                                 for perm in permutations(range(4))]).astype(np.uint8)
    _keys, first = np.unique(korean_high_batch(relabelled), return_index=True)
    for ids in relabelled[first].tolist():
        value_names(korean_high([_DECK[i] for i in ids]))
    return len(NAMES)


_DECK = standard_deck()


def indian_name(mode: Indian, hand: Hand, pid: str) -> str:
    """The name of ``pid``'s Indian hand at its end, remembered (in :data:`HINTS`) by the forehead and hole
    it is made of: every view of the hand's end asked for it again, an evaluation per seat and change."""
    hp = hand.players[pid]
    assert hp.forehead is not None
    key = (mode, "indian", hp.forehead.id, card_ids(hp.hole))
    hit = HINTS.get(key)
    if hit is None:
        name = str(mode.evaluate(hand, pid).high.name)
        hit = (name, None, name)
        if len(HINTS) >= HINTS_KEPT:
            HINTS.clear()
        HINTS[key] = hit
    return str(hit[0])
