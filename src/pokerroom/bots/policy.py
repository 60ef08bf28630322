"""Bot decisions for every phase, mode and betting system, from the bot's own view only.

Levels:
- ``easy``: a friendly beginner. It reads only its visible made hand (:func:`.strength.quick_strength`),
  checks and calls cheap prices a lot, raises first in with a pair or two big cards, bets small, never starts
  a raising war and gets careful when a call is a big part of its stack. Always legal, always sensible sizes.
- ``normal``: estimates its equity by Monte Carlo against hands consistent with what it sees
  (:func:`.strength.mc_equity`), prices the bettor's range (:func:`.bets.range_equity`: a bigger bet, a
  bigger share of my stack, more raisers mean a stronger hand against me) against the pot odds, raises first
  in with better than average hands and re-raises only with much better ones, value-bets with Korean sizing
  (삥/쿼터/하프) or pot fractions in NL/PL, folds when the price is wrong, and makes sensible choices, draws
  and hi-lo declarations.
- Both: a bet never puts in more than :data:`.bets.COMMIT_CAP` of the stack unless the hand is very strong.
  In the draw and stud games with no-limit/pot-limit chips (:func:`.bets.deep_game`) bets stay small until
  the last round and the pot may only grow to :data:`.bets.HAND_CAP` of the stack
  (:func:`.bets._deep_fraction`); ``normal`` stops a raising war at its first re-raise there and prices a
  call by what the whole hand will have cost. docs/bots.md has the figures (all-in rate, hands per game,
  VPIP/PFR) and their target bands.

Why a per-decision rng derived from ``seed`` + a fingerprint of the view: the same view and seed must give the
same decision (replays, tests, hints that do not flicker), while different spots still get independent
randomness. Nothing but the view is read, so a bot cannot cheat even by accident.

Where things are: this module is the entry (:func:`decide`, :func:`recommend` and its cache, the
per-decision generator, the dispatch by phase); the betting decisions are in :mod:`.bets`, the card
decisions (7 Poker choice, draws, hi-lo declaration) in :mod:`.choices`, what an action is and the legality
check in :mod:`.actions`, equity estimates in :mod:`.strength`.
"""

from __future__ import annotations

import hashlib
from typing import Any, cast

import numpy as np

from pokerroom.bots.actions import Action, Level
from pokerroom.bots.bets import bet
from pokerroom.bots.choices import choose, declare, draw
from pokerroom.bots.hint import hint_equity, hint_rng
from pokerroom.bots.hint_modes import mode_equity
from pokerroom.bots.situation import Situation, situation

DEFAULT_SAMPLES = 300


def decision_rng(sit: Situation, seed: int | str | None, fingerprint: bytes | None = None
                 ) -> np.random.Generator:
    """The generator for one decision: SHA-256 of (seed, fingerprint of what the bot sees) seeds PCG64.

    Never :mod:`random`, never wall-clock entropy: the stream is a pure function of seed and view.
    ``fingerprint``: ``sit.fingerprint()`` when the caller has it already.
    """
    fp = sit.fingerprint() if fingerprint is None else fingerprint
    return _generator(hashlib.sha256(str(seed).encode() + b"|" + fp).digest())


def _generator(digest: bytes) -> np.random.Generator:
    """``Generator(PCG64(int.from_bytes(digest, "big")))``, the same generator for a third of the cost.

    Why: numpy turns an integer seed into 32-bit words in a Python loop before it hashes them; handing it
    the same words as an array (least significant first, as it splits integers) skips that. Numpy drops an
    integer's leading zero words, so a digest that starts with one (one in 2**32) takes the integer path.
    """
    if digest[:4] == b"\0\0\0\0":
        return np.random.Generator(np.random.PCG64(int.from_bytes(digest, "big")))
    words = np.frombuffer(digest[::-1], dtype="<u4").astype(np.uint32)
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence(words)))


def decide(view: dict[str, Any], level: Level = "easy", seed: int | str | None = 0,
           samples: int | None = None) -> Action:
    """The bot's action among ``view["me"]["legalActions"]``. Raises ``ValueError`` when there is none."""
    return _decide(situation(view), level, seed, samples)


def _decide(sit: Situation | None, level: Level, seed: int | str | None, samples: int | None,
            fingerprint: bytes | None = None, rng: np.random.Generator | None = None,
            equity: float | None = None) -> Action:
    """:func:`decide` on the digest of the view (read once: :func:`recommend` has it already); a hint
    passes its own generator and equity (:mod:`.hint`)."""
    if sit is None or not sit.legal:
        raise ValueError("nothing to decide: not seated or no legal action")
    if rng is None:
        rng = decision_rng(sit, seed, fingerprint)
    n = samples if samples is not None else DEFAULT_SAMPLES
    legal = sit.legal_types()
    if not legal:
        raise ValueError("nothing to decide: only optional actions")
    if "choose" in legal:
        return choose(sit, level, rng)
    if "draw" in legal:
        return draw(sit, legal["draw"], level)
    if "declare" in legal:
        return declare(sit, level, rng, n, equity)
    if "runTwice" in legal:  # 런 잇 트와이스: the same equity, less swing; bots, like most people, say yes
        return {"type": "runTwice", "agree": True}
    if "ready" in legal:
        return {"type": "ready"}
    if "rebuy" in legal:
        return {"type": "rebuy", "accept": True}
    return bet(sit, level, rng, n, equity)


def recommend(view: dict[str, Any]) -> Action | None:
    """The hint: what a ``normal`` bot would do here (seed 0), or ``None`` when there is nothing to do."""
    me = view.get("me")
    acts = me.get("legalActions") if isinstance(me, dict) else None
    if not isinstance(acts, list) or all(isinstance(a, dict) and a.get("type") in _NO_HINT for a in acts):
        return None  # (cheaply, before the digest: between hands every seat's view offers only ``ready``)
    key = _card_key(view, me, acts)  # type: ignore[arg-type]
    if key is not None:
        hit = _BY_CARDS.get(key)
        if hit is not None:
            return {k: list(v) if isinstance(v, list) else v for k, v in hit.items()}
    sit = situation(view)
    if sit is None or not sit.legal:
        return None
    legal = sit.legal_types()
    if set(legal) <= _NO_HINT:  # (also: nothing but an optional show)
        return None
    if "declare" in legal or not _NOT_BETTING.intersection(legal):
        # a betting (or hi-lo declaring) decision: the equity from the hint's own tables and caches (hold'em:
        # :mod:`.hint`, the other modes: :mod:`.hint_modes`), and the decision point's own generator, which
        # only a heads-up bluff draws from, so its fingerprint (a SHA-256 of the whole digest, a third of a
        # cheap hint's cost) is taken only then; nothing is remembered by the fingerprint either: without a
        # Monte Carlo the decision costs less than the key
        equity = hint_equity(sit) if sit.mode == "holdem" else mode_equity(sit)
        if equity is not None:
            rng = cast(np.random.Generator, _LazyRng(sit))
            return _decide(sit, "normal", seed=0, samples=200, rng=rng, equity=equity)
    if key is not None:
        # a choice or a draw: no random number, no Monte Carlo (see :func:`_card_key`), so no fingerprint
        made = _decide(sit, "normal", seed=0, samples=200, rng=cast(np.random.Generator, _LazyRng(sit)))
        if len(_BY_CARDS) >= _HINTS_KEPT:
            _BY_CARDS.clear()
        _BY_CARDS[key] = made
        return {k: list(v) if isinstance(v, list) else v for k, v in made.items()}
    # The hint is a pure function of the digest (seed 0, 200 samples), so a decision point seen before (a
    # new version that changed nothing this seat can see: another seat's simultaneous choice or
    # declaration, a seat's connection) reuses its hint instead of running the Monte Carlo again.
    fp = sit.fingerprint()
    hint = _HINTS.get(fp)
    if hint is None:
        hint = _decide(sit, "normal", seed=0, samples=200, fingerprint=fp)
        if len(_HINTS) >= _HINTS_KEPT:
            _HINTS.clear()
        _HINTS[fp] = hint
    # a copy: the caller puts it into a view, which others may change
    return {k: list(v) if isinstance(v, list) else v for k, v in hint.items()}


def _card_key(view: dict[str, Any], me: dict[str, Any], acts: list[Any]) -> tuple[object, ...] | None:
    """For a 7 Poker choice or a draw: everything ``normal``'s decision reads (the cards, the mode, the offer;
    a badugi draw also how many draws I made and which badugi is played), read straight from the view; else
    ``None``. Why: these decisions draw no random number and price nothing, so the same cards get the same
    hint, and a whole table's simultaneous choices (one per seat, each its own decision point) skip the
    digest and its fingerprint, which cost more than the decision."""
    act = acts[0] if len(acts) == 1 else None  # (a choice or a draw is offered alone: betting is not)
    if not isinstance(act, dict):
        return None
    kind = act.get("type")
    mode = view.get("mode")
    if kind == "choose":
        return ("choose", mode, _ids(me.get("choice") or me.get("hole")))
    if kind != "draw":
        return None
    options = view.get("options")
    high = isinstance(options, dict) and options.get("badugiHigh") is True
    done = None
    if mode == "badugi":
        my_id = me.get("id")
        seats = view.get("seats") or ()
        mine = next((s for s in seats if isinstance(s, dict) and s.get("id") == my_id), None)
        done = len((mine or {}).get("drawCounts") or ())
    try:
        offer = repr(sorted(act.items()))
    except TypeError:
        return None
    return ("draw", mode, high, _ids(me.get("hole")), offer, done)


def _ids(cards: Any) -> tuple[object, ...]:
    """The ids of a list of wire cards (a placeholder or an odd entry: its repr, so it still keys)."""
    if not isinstance(cards, list):
        return ()
    return tuple(c.get("id") if isinstance(c, dict) else repr(c) for c in cards)


class _LazyRng:
    """The generator of a hold'em hint (:func:`.hint.hint_rng` of the fingerprint), made at its first draw.

    Why: a betting decision with its equity given draws at most once (the heads-up bluff of
    :func:`.bets.bet`), and most hints never do; the stream, when drawn, is the very same."""

    def __init__(self, sit: Situation) -> None:
        self._sit = sit
        self._gen: np.random.Generator | None = None

    def random(self) -> float:
        if self._gen is None:
            self._gen = hint_rng(self._sit.fingerprint())
        return float(self._gen.random())


#: Hints by the fingerprint of their decision point (see :func:`recommend`); cleared when full.
_HINTS: dict[bytes, Action] = {}
#: Choice and draw hints by :func:`_card_key`; cleared when full.
_BY_CARDS: dict[tuple[object, ...], Action] = {}
_HINTS_KEPT = 4096


#: Decisions :func:`_decide` takes before (instead of) a betting decision.
_NOT_BETTING = frozenset({"choose", "draw", "declare", "ready", "rebuy", "runTwice"})
#: Decisions that get no hint: readiness, a rebuy, the optional show, the run-it-twice yes/no (a taste, not
#: a better or worse play).
_NO_HINT = frozenset({"ready", "rebuy", "show", "runTwice"})
