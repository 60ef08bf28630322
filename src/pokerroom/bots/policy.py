"""Bot decisions for every phase, mode and betting system, from the bot's own view only.

Levels:
- ``easy``: a friendly beginner. It reads only its visible made hand (:func:`quick_strength`), checks and
  calls a lot, bets small, rarely raises and never bluffs big. Always legal, always sensible sizes.
- ``normal``: estimates its equity by Monte Carlo against hands consistent with what it sees
  (:func:`mc_equity`), compares it with the pot odds, value-bets strong hands with Korean sizing (쿼터/하프/
  따당) or pot fractions in NL/PL, folds when the price is wrong, and makes sensible choices, draws and
  hi-lo declarations.

Why a per-decision rng derived from ``seed`` + a fingerprint of the view: the same view and seed must give the
same decision (replays, tests, hints that do not flicker), while different spots still get independent
randomness. Nothing but the view is read, so a bot cannot cheat even by accident.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from typing import Any, Literal

import numpy as np

from pokerroom.bots.situation import Situation, situation
from pokerroom.bots.strength import (
    badugi_keep,
    best_low,
    high_value_rank,
    indian_top_chance,
    low_score,
    mc_equity,
    omaha_low_score,
    quick_strength,
)
from pokerroom.cards import Card

Level = Literal["easy", "normal"]
Action = dict[str, Any]

DEFAULT_SAMPLES = 300


def decision_rng(sit: Situation, seed: int | str | None) -> np.random.Generator:
    """The generator for one decision: SHA-256 of (seed, fingerprint of what the bot sees) seeds PCG64.

    Never :mod:`random`, never wall-clock entropy: the stream is a pure function of seed and view.
    """
    digest = hashlib.sha256(str(seed).encode() + b"|" + sit.fingerprint()).digest()
    return np.random.Generator(np.random.PCG64(int.from_bytes(digest, "big")))


def decide(view: dict[str, Any], level: Level = "easy", seed: int | str | None = 0,
           samples: int | None = None) -> Action:
    """The bot's action among ``view["me"]["legalActions"]``. Raises ``ValueError`` when there is none."""
    sit = situation(view)
    if sit is None or not sit.legal:
        raise ValueError("nothing to decide: not seated or no legal action")
    rng = decision_rng(sit, seed)
    n = samples if samples is not None else DEFAULT_SAMPLES
    legal = sit.legal_types()
    if not legal:
        raise ValueError("nothing to decide: only optional actions")
    if "choose" in legal:
        return _choose(sit, level, rng)
    if "draw" in legal:
        return _draw(sit, legal["draw"], level)
    if "declare" in legal:
        return _declare(sit, level, rng, n)
    if "ready" in legal:
        return {"type": "ready"}
    if "rebuy" in legal:
        return {"type": "rebuy", "accept": True}
    return _bet(sit, level, rng, n)


def recommend(view: dict[str, Any]) -> Action | None:
    """The hint: what a ``normal`` bot would do here (seed 0), or ``None`` when there is nothing to do."""
    sit = situation(view)
    if sit is None or not sit.legal:
        return None
    legal = sit.legal_types()
    if set(legal) <= {"ready", "rebuy"}:  # (also: nothing but an optional show)
        return None
    return decide(view, "normal", seed=0, samples=200)


# --- betting ------------------------------------------------------------------------------------------------

def _strength(sit: Situation, level: Level, rng: np.random.Generator, samples: int) -> float:
    if level == "easy":
        return _quick_with_low(sit)
    eq = mc_equity(sit, rng, samples)  # Omaha Hi-Lo: already the hi-lo pot share
    if sit.mode == "sevenHiLo":
        cards = sit.hole + sit.up
        a5 = sit.options.get("hiLoLow") == "aceToFive"
        low = low_score(cards, a5, sit.options.get("hiLoQualifier") == "eight")
        # A strong low wins half the pot on its own; a hand good both ways is worth more than either.
        eq = max(eq, 0.5 * eq + 0.5 * low, 0.6 * low)
    return eq


def _quick_with_low(sit: Situation) -> float:
    """The easy level's made-hand strength, in Omaha Hi-Lo also what a low is worth (half the pot)."""
    base = quick_strength(sit)
    if sit.mode != "omaha" or sit.options.get("omahaHiLo") is not True:
        return base
    low = omaha_low_score(sit.hole, sit.board)
    return max(base, 0.5 * base + 0.5 * low, 0.6 * low)


def _bet(sit: Situation, level: Level, rng: np.random.Generator, samples: int) -> Action:
    legal = sit.legal_types()
    korean = any(t.startswith("k.") for t in legal)
    strength = _strength(sit, level, rng, samples)
    n_opp = max(1, len(sit.opponents))
    fair = 1.0 / (n_opp + 1)
    call = legal.get("k.call") or legal.get("nl.call")
    can_check = "k.check" in legal or "nl.check" in legal
    pot = max(sit.pot_total, 1)
    if level == "easy":
        return _easy_bet(sit, legal, korean, strength, rng, call, can_check, pot)
    rel = strength / fair  # 1.0 = an average share of the pot
    if can_check:
        if rel > 1.4:
            return _raise(sit, legal, korean, big=True)
        if rel > 1.1 or (n_opp == 1 and rng.random() < 0.05):
            return _raise(sit, legal, korean, big=False)
        return _check(legal)
    assert call is not None or "k.die" in legal or "nl.fold" in legal
    amount = int(call["amount"]) if call else 0
    if call is None:
        return _fold(legal)
    # Folding is free except in Indian poker with the 10-penalty: there a fold costs the penalty with the
    # chance that my unseen forehead is the top card, so calling is worth that much more.
    fold_cost = 0.0
    if sit.mode == "indian" and sit.options.get("indianFoldPenalty", True):
        fold_cost = indian_top_chance(sit) * 10 * sit.base_unit
    pot_odds = max(0.0, amount - fold_cost) / (pot + amount) if amount else 0.0
    if rel > 1.6 and _can_raise(legal):
        return _raise(sit, legal, korean, big=rel > 1.8)
    if strength >= pot_odds * 1.05 or amount <= max(1, sit.base_unit // 2):
        return {"type": str(call["type"])}
    return _fold(legal)


def _easy_bet(sit: Situation, legal: dict[str, dict[str, Any]], korean: bool, s: float,
              rng: np.random.Generator,
              call: dict[str, Any] | None, can_check: bool, pot: int) -> Action:
    """Loose and passive: small bets with decent hands, calls most reasonable prices, folds big ones."""
    if can_check:
        if s > 0.5 and rng.random() < s:
            return _raise(sit, legal, korean, big=False)
        return _check(legal)
    if call is None:
        return _fold(legal)
    amount = int(call["amount"])
    if s > 0.85 and _can_raise(legal) and rng.random() < 0.5:
        return _raise(sit, legal, korean, big=False)
    if amount <= pot * 0.6 or s > 0.35 or rng.random() < 0.4:
        return {"type": str(call["type"])}
    return _fold(legal)


def _check(legal: dict[str, dict[str, Any]]) -> Action:
    return {"type": "k.check"} if "k.check" in legal else {"type": "nl.check"}


def _fold(legal: dict[str, dict[str, Any]]) -> Action:
    if "k.check" in legal or "nl.check" in legal:
        return _check(legal)
    return {"type": "k.die"} if "k.die" in legal else {"type": "nl.fold"}


def _can_raise(legal: dict[str, dict[str, Any]]) -> bool:
    return any(t in legal for t in ("k.ddadang", "k.quarter", "k.half", "k.full", "k.ping", "nl.raise"))


def _raise(sit: Situation, legal: dict[str, dict[str, Any]], korean: bool, big: bool) -> Action:
    """Korean: 하프 (big) or 쿼터/삥 (small), 따당 when that is what is left.

    NL/PL: about 70 % (big) or 40 % (small) of the pot after calling, clamped to the legal min/max.
    """
    if korean:
        big_prefs = ["k.half", "k.ddadang", "k.quarter", "k.ping"]
        small_prefs = ["k.quarter", "k.ping", "k.ddadang", "k.half"]
        prefs = big_prefs if big else small_prefs
        for t in prefs:
            if t in legal:
                return {"type": t}
        call = legal.get("k.call")
        return {"type": "k.call"} if call else _fold(legal)
    rs = legal.get("nl.raise")
    if rs is None:
        if "nl.call" in legal:
            return {"type": "nl.call"}
        if "nl.allIn" in legal and big:
            return {"type": "nl.allIn"}
        return _fold(legal)
    frac = 0.7 if big else 0.4
    pot_after_call = sit.pot_total + sit.to_call
    target = sit.current_bet + int(frac * pot_after_call)
    lo, hi = int(rs["min"]), int(rs["max"])
    return {"type": "nl.raise", "to": max(lo, min(hi, target))}


# --- 7 Poker choice -----------------------------------------------------------------------------------------

def _kept_score(kept: tuple[Card, ...], hilo: bool) -> float:
    ranks = Counter(c.rank for c in kept)
    shape = sorted(ranks.values(), reverse=True)
    score = sum(c.rank for c in kept) / 100
    if shape[0] == 3:
        score += 10
    elif shape[0] == 2:
        score += 5 + max(r for r, n in ranks.items() if n == 2) / 14
    if len({c.suit for c in kept}) == 1:
        score += 2
    rs = sorted(set(c.rank for c in kept))
    if len(rs) == 3 and rs[-1] - rs[0] <= 4:
        score += 1.5
    if hilo:
        lows = {1 if c.rank == 14 else c.rank for c in kept}
        if len(lows) == 3 and max(lows) <= 8:
            score += 4 - max(lows) / 4
    return score


def _choose(sit: Situation, level: Level, rng: np.random.Generator) -> Action:
    cards = sit.hole
    hilo = sit.mode == "sevenHiLo"
    if level == "easy":
        # Throw the lowest card, show a random one of the rest that is not part of a pair.
        order = sorted(cards, key=lambda c: (c.rank, c.suit))
        discard = order[0]
        rest = [c for c in cards if c.id != discard.id]
        counts = Counter(c.rank for c in rest)
        singles = [c for c in rest if counts[c.rank] == 1] or rest
        show = singles[int(rng.integers(len(singles)))]
        return {"type": "choose", "discardId": discard.id, "openId": show.id}
    best: tuple[float, int, int] | None = None
    for discard in cards:
        kept = tuple(c for c in cards if c.id != discard.id)
        base = _kept_score(kept, hilo)
        counts = Counter(c.rank for c in kept)
        for show in kept:
            # Hide made pairs; otherwise show the card that tells the least (a middling single).
            hidden_bonus = 0.6 if counts[show.rank] == 1 else 0.0
            score = base + hidden_bonus - abs(show.rank - 8) / 100
            cand = (score, -discard.id, -show.id)
            if best is None or cand > best:
                best = cand
    assert best is not None
    return {"type": "choose", "discardId": -best[1], "openId": -best[2]}


# --- draws --------------------------------------------------------------------------------------------------

def _five_keep(cards: list[Card], level: Level) -> list[Card]:
    counts = Counter(c.rank for c in cards)
    shape = sorted(counts.values(), reverse=True)
    suits = Counter(c.suit for c in cards)
    ranks = sorted({c.rank for c in cards})
    straight = len(ranks) == 5 and (ranks[-1] - ranks[0] == 4 or ranks == [2, 3, 4, 5, 14])
    if shape[0] >= 4 or (shape[0] == 3 and shape[1] == 2) or max(suits.values()) == 5 or straight:
        return list(cards)
    if shape[0] >= 2:
        return [c for c in cards if counts[c.rank] >= 2]
    if level == "normal":
        suit, n = suits.most_common(1)[0]
        if n == 4:
            return [c for c in cards if c.suit == suit]
        for lo in range(2, 12):
            window = [c for c in cards if lo <= c.rank <= lo + 3]
            if len({c.rank for c in window}) == 4:
                return window
        high = sorted(cards, key=lambda c: c.rank, reverse=True)
        return [c for c in high[:2] if c.rank >= 11] or high[:1]
    return sorted(cards, key=lambda c: c.rank, reverse=True)[:2]


def _draw(sit: Situation, spec: dict[str, Any], level: Level) -> Action:
    ids = [int(i) for i in spec.get("cardIds", [])]
    hand = [c for c in sit.hole if c.id in ids] or list(sit.hole)
    lo, hi = int(spec.get("min", 0)), int(spec.get("max", len(hand)))
    ace_max = spec.get("maxKeepingAce")
    if sit.mode == "badugi":
        draws_done = len(sit.my_draw_counts)
        # normal breaks a rough made hand (Q or K high) only at the first of the three exchanges
        break_above = 13 if level == "easy" or draws_done >= 1 else 11
        keep = badugi_keep(hand, break_above)
    else:
        keep = _five_keep(hand, level)
    discard = [c for c in hand if c not in keep]
    limit = hi
    if ace_max is not None and any(c.rank == 14 for c in keep):
        limit = max(hi, int(ace_max))
    if len(discard) > limit:
        # Keep the best of the would-be discards (highest for high hands, lowest for badugi).
        badugi = sit.mode == "badugi"
        discard.sort(key=lambda c: (1 if c.rank == 14 else c.rank) if badugi else -c.rank, reverse=True)
        discard = discard[:limit]
        kept_after = [c for c in hand if c not in discard]
        if ace_max is not None and len(discard) > hi and not any(c.rank == 14 for c in kept_after):
            discard = discard[:hi]
    if len(discard) < lo:
        extra = [c for c in hand if c not in discard][: lo - len(discard)]
        discard += extra
    return {"type": "draw", "cardIds": [c.id for c in discard]}


# --- hi-lo declaration -------------------------------------------------------------------------------------

def _declare(sit: Situation, level: Level, rng: np.random.Generator, samples: int) -> Action:
    legal = sit.legal_types()["declare"]
    sides = list(legal.get("sides", ["high", "low", "swing"]))
    cards = sit.hole + sit.up
    a5 = sit.options.get("hiLoLow") == "aceToFive"
    q8 = sit.options.get("hiLoQualifier") == "eight"
    low = low_score(cards, a5, q8)
    has_low = best_low(cards, a5) is not None and low > 0.05
    if level == "easy":
        side = "low" if has_low and low >= 0.66 and high_value_rank(cards) <= 1 else "high"
    else:
        high = mc_equity(sit, rng, samples)
        if high > 0.85 and low > 0.85 and "swing" in sides:
            side = "swing"
        elif has_low and low > high:
            side = "low"
        else:
            side = "high"
    if side not in sides:
        side = sides[0]
    return {"type": "declare", "side": side}


def action_is_listed(action: Action, legal: list[dict[str, Any]]) -> bool:
    """Whether ``action`` is one of ``legalActions`` as docs/view.md describes them (sizes and ids included).

    The engine validates again; this lets a caller (tests, the simulator, the server's hint) catch a bot that
    would rely on the engine to refuse it.
    """
    entry = next((a for a in legal if a.get("type") == action.get("type")), None)
    if entry is None:
        return False
    kind = action["type"]
    if kind == "nl.raise":
        to = action.get("to")
        return isinstance(to, int) and int(entry["min"]) <= to <= int(entry["max"])
    if kind == "choose":
        ids = set(entry.get("cardIds", []))
        d, o = action.get("discardId"), action.get("openId")
        return d in ids and o in ids and d != o
    if kind == "draw":
        drawn = action.get("cardIds")
        hand = list(entry.get("cardIds", []))
        if not isinstance(drawn, list) or len(set(drawn)) != len(drawn) or not set(drawn) <= set(hand):
            return False
        hi = int(entry.get("max", len(hand)))
        if len(drawn) > hi:
            ace_max = entry.get("maxKeepingAce")
            aces = {c for c in hand if c % 13 == 12}
            return ace_max is not None and len(drawn) <= int(ace_max) and bool(aces - set(drawn))
        return len(drawn) >= int(entry.get("min", 0))
    if kind == "declare":
        return action.get("side") in entry.get("sides", [])
    if kind == "rebuy":
        return action.get("accept") in entry.get("accept", [True, False])
    return set(action) == {"type"}
