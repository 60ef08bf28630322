"""Shared helpers for the engine tests: a seeded random player and invariant checks.

The random player draws only from ``legalActions`` (plus random timeouts, leaves and rebuy answers), with a
local ``random.Random`` so every run is reproducible from its seed.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Callable
from typing import Any

import orjson
import pytest

from pokerroom.cards import deck_for, parse_card, parse_cards
from pokerroom.engine import apply, deadline, join_seat, on_timeout, setup, state_hash, view
from pokerroom.engine.audit import card_locations, chips_accounted, chips_expected
from pokerroom.engine.state import State
from pokerroom.engine.view import legal_actions
from pokerroom.rejections import Rejected


def random_choice_action(rng: random.Random, entry: dict[str, Any]) -> dict[str, Any]:
    """A concrete wire action for one legalActions entry."""
    t = entry["type"]
    if t == "nl.raise":
        lo, hi = entry["min"], entry["max"]
        to = lo if rng.random() < 0.5 else rng.randint(lo, hi)
        return {"type": t, "to": to}
    if t == "choose":
        d, o = rng.sample(entry["cardIds"], 2)
        return {"type": "choose", "discardId": d, "openId": o}
    if t == "draw":
        k = rng.randint(0, entry["max"])
        return {"type": "draw", "cardIds": rng.sample(entry["cardIds"], k)}
    if t == "declare":
        return {"type": "declare", "side": rng.choice(entry["sides"])}
    if t == "rebuy":
        return {"type": "rebuy", "accept": rng.random() < 0.7}
    if t == "runTwice":
        return {"type": "runTwice", "agree": rng.random() < 0.8}
    return {"type": t}


def actors(state: State) -> list[tuple[str, list[dict[str, Any]]]]:
    out = []
    for s in state.seats:
        legal = legal_actions(state, s.id)
        if legal:
            out.append((s.id, legal))
    return out


_FULL = {kind: sorted(c.id for c in deck_for(kind)) for kind in ("d52", "d20")}


def check_cards(state: State) -> None:
    """Every card of the deck in use exactly once (ids are unique per deck)."""
    kind = state.options.indian_deck if state.options.mode == "indian" else "d52"
    seen = card_locations(state)
    ids = sorted(c.id for c, n in seen.items() for _ in range(n))
    if ids != _FULL[kind]:
        full = Counter(deck_for(kind))
        raise AssertionError(f"cards: extra={seen - full} missing={full - seen}")


def check_chips(state: State) -> None:
    assert chips_accounted(state) == chips_expected(state), (chips_accounted(state), chips_expected(state))


def secret_cards(state: State, viewer: str | None) -> set[tuple[int, str]]:
    """(rank, suit) of every card ``viewer`` must not see: others' unshown private cards, the deck, others'
    choice discards, and a forehead card for its owner or a spectator before the hand has ended."""
    hand = state.hand
    if hand is None:
        return set()
    bad: list[Any] = list(hand.deck)
    bad.extend(hand.muck)  # burns, draw discards, choice discards (my own discard is re-added below)
    done = hand.phase == "handEnd" or state.phase != "playing"
    for pid, p in hand.players.items():
        mine = pid == viewer
        if not mine and not p.shown:
            bad.extend(p.hole)
            if p.choice:
                bad.extend(p.choice)
        if p.forehead is not None and not (done and p.shown):
            if mine or viewer is None or viewer not in hand.players:
                bad.append(p.forehead)
    out = {(c.rank, c.suit) for c in bad}
    if done and hand.opener is not None:  # 잭스 오어 베터: the opener's proof is shown to everyone at the end
        out -= {(c.rank, c.suit) for c in hand.opener_cards}
    if viewer is not None and viewer in hand.players:
        mine_p = hand.players[viewer]
        if mine_p.discarded is not None:
            out.discard((mine_p.discarded.rank, mine_p.discarded.suit))
    return out


_CARD_RE = re.compile(rb'"rank":(\d+),"suit":"([SDHC])"')
_HIDDEN_RE = re.compile(rb'\{"hidden":true,"slot":\d+\}')


def visible_cards(x: Any) -> set[tuple[int, str]]:
    """(rank, suit) of every card dict in a JSON value (cards are always ``Card.to_json`` dicts); also checks
    that every hidden placeholder is exactly ``{"hidden": true, "slot": k}``."""
    text = orjson.dumps(x, option=orjson.OPT_NON_STR_KEYS)  # compact: no space after ':' or ','
    assert text.count(b'"hidden"') == len(_HIDDEN_RE.findall(text)), "hidden card with extra fields"
    return {(int(r), s.decode()) for r, s in _CARD_RE.findall(text)}


def check_no_leak(state: State, viewer: str | None, events: list[dict[str, Any]] | None = None) -> None:
    """The viewer's view holds no card the viewer may not see (and, given ``events``, the public events
    hold no card a spectator may not see)."""
    v = view(state, viewer)
    seen = visible_cards({k: val for k, val in v.items() if k != "publicLog"})
    leaked = secret_cards(state, viewer) & seen
    assert not leaked, f"leak to {viewer}: {leaked}"
    if events:
        check_events(state, events)


def check_events(state: State, events: list[dict[str, Any]]) -> None:
    leaked = secret_cards(state, None) & visible_cards(events)
    assert not leaked, f"event leak: {leaked}"


def play_random(
    seed: int,
    options: dict[str, Any],
    players: int,
    *,
    max_steps: int = 3000,
    p_timeout: float = 0.05,
    p_leave: float = 0.002,
    check: str = "all",
    p_join: float = 0.0,
    p_sit: float = 0.0,
    on_step: Callable[[State, list[dict[str, Any]]], None] | None = None,
) -> tuple[State, list[tuple[str, Any]]]:
    """Play one random game; returns the final state and the (player, action) script (``_now`` included).

    ``check``: ``"none"``; ``"all"`` (chips, cards, and every viewer's view after every step); ``"sample"``
    (chips and cards after every step, every viewer whenever the phase changes, one random viewer otherwise).
    ``p_join``: chance per step that a new player takes a seat (``join_seat``, script entry ``("+", ...)``);
    ``p_sit``: chance that a random seat sends ``sitOut`` / ``sitIn`` (refusals are skipped, not scripted).
    With both at 0 the random stream is exactly the one of earlier versions.
    ``on_step(state, events)``: called after every step with its new state and events (it draws nothing
    from the random stream).
    """
    rng = random.Random(seed)
    ids = [f"p{i}" for i in range(players)]
    state = setup(ids, options, seed=seed, now_ms=0)
    now = 0
    script: list[tuple[str, Any]] = []
    if check != "none":
        check_chips(state)
        check_cards(state)
        for viewer in [*ids, None]:
            check_no_leak(state, viewer)
    last_phase: tuple[str, str | None] = ("", None)
    for _step in range(max_steps):
        if state.phase == "finished":
            break
        now += 1000
        r = rng.random()
        events: list[dict[str, Any]]
        acting = actors(state)
        if r < p_leave and len(script) > 3:
            pid = rng.choice(ids)
            seat = state.seat_of(pid)
            assert seat is not None
            if seat.status == "left":
                continue
            state, events = apply(state, pid, {"type": "leave"}, now)
            script.append((pid, {"type": "leave", "_now": now}))
        elif r < p_leave + p_timeout + p_join + p_sit and r >= p_leave + p_timeout:
            if r < p_leave + p_timeout + p_join:
                pid = f"j{len(ids)}"
                try:
                    state, events = join_seat(state, pid, now)
                except Rejected:
                    continue
                ids.append(pid)
                script.append(("+", {"type": "join", "player": pid, "_now": now}))
            else:
                pid = rng.choice(ids)
                seat = state.seat_of(pid)
                assert seat is not None
                action = {"type": "sitIn" if seat.sitting_out else "sitOut"}
                try:
                    state, events = apply(state, pid, action, now)
                except Rejected:
                    continue
                script.append((pid, {**action, "_now": now}))
        elif r < p_leave + p_timeout or not acting:
            d = deadline(state)
            if d is None:
                raise AssertionError("nobody can act and no deadline")
            now = max(now, d)
            state, events = on_timeout(state, now)
            script.append(("*", {"type": "timeout", "_now": now}))
        else:
            pid, legal = rng.choice(acting)
            action = random_choice_action(rng, rng.choice(legal))
            state, events = apply(state, pid, action, now)
            script.append((pid, {**action, "_now": now}))
        if check != "none":
            check_chips(state)
            check_cards(state)
            phase_key = (state.phase, state.hand.phase if state.hand else None)
            check_events(state, events)
            if check == "all" or phase_key != last_phase:
                for viewer in [*ids, None]:
                    check_no_leak(state, viewer)
            else:
                check_no_leak(state, rng.choice([*ids, None]))
            last_phase = phase_key
        if on_step is not None:
            on_step(state, events)
    return state, script


# ---------------------------------------------------------------------------------------------------------
# rigging: put chosen cards where the next deals will find them, by swapping (so all cards stay unique)


def replay(seed: int, opts: dict[str, Any], players: int, script: list[tuple[str, Any]]) -> State:
    """A fresh ``setup`` with the same seed and options, then the script of :func:`play_random` (actions,
    timeouts, joins) applied at their recorded times."""
    state = setup([f"p{i}" for i in range(players)], opts, seed=seed)
    for pid, action in script:
        now = action["_now"]
        if action["type"] == "timeout":
            state, _ = on_timeout(state, now)
        elif action["type"] == "join":
            state, _ = join_seat(state, action["player"], now)
        else:
            state, _ = apply(state, pid, {k: v for k, v in action.items() if k != "_now"}, now)
    return state


def _slots(state: State) -> list[tuple[Any, Any]]:
    """Every (container, key) holding a card in the current hand."""
    hand = state.hand
    assert hand is not None
    out: list[tuple[Any, Any]] = [(hand.deck, i) for i in range(len(hand.deck))]
    out += [(hand.board, i) for i in range(len(hand.board))]
    out += [(hand.muck, i) for i in range(len(hand.muck))]
    for p in hand.players.values():
        for name in ("hole", "up", "choice"):
            lst = getattr(p, name)
            if lst:
                out += [(lst, i) for i in range(len(lst))]
        if p.forehead is not None:
            out.append((p, "forehead"))
    return out


def _get(slot: tuple[Any, Any]) -> Any:
    c, k = slot
    return getattr(c, k) if isinstance(k, str) else c[k]


def _set(slot: tuple[Any, Any], card: Any) -> None:
    c, k = slot
    if isinstance(k, str):
        setattr(c, k, card)
    else:
        c[k] = card


def place(state: State, target: tuple[Any, Any], card: Any) -> None:
    """Put ``card`` at ``target``, moving the card that was there to where ``card`` was."""
    here = next(s for s in _slots(state) if _get(s) == card)
    old = _get(target)
    _set(target, card)
    _set(here, old)


def C(text: str, deck: str = "d52") -> Any:
    """One card by its text (``C("As")``), for the tests that rig a hand."""
    return parse_card(text, deck)  # type: ignore[arg-type]


def cards(text: str) -> list[Any]:
    """Cards by their text (``cards("As Kd")``), for the tests that rig a hand."""
    return parse_cards(text)


def rig(state: State, *, deck: list[Any] | None = None, **cards: list[Any]) -> None:
    """``rig(state, deck=[...top cards...], p0=[...], p1=[...])``: players' current private cards (choice
    during 7 Poker's choice, else hole; Indian: forehead first) and the top of the deck."""
    hand = state.hand
    assert hand is not None
    for pid, want in cards.items():
        p = hand.players[pid]
        if p.forehead is not None:
            place(state, (p, "forehead"), want[0])
            want = want[1:]
        lst = p.choice if p.choice is not None else p.hole
        for i, c in enumerate(want):
            place(state, (lst, i), c)
    for i, c in enumerate(deck or []):
        place(state, (hand.deck, i), c)


class G:
    """A tiny driver of the engine tests: the state, a clock, and helpers to act and to expect refusals.
    (A short name: the tests write ``G(3, mode=...)`` hundreds of times.)"""

    def __init__(self, n: int, seed: int = 1, **opts: Any) -> None:
        self.ids = [f"p{i}" for i in range(n)]
        self.now = 0
        self.s: State = setup(self.ids, opts, seed=seed, now_ms=0)
        self.ev: list[dict[str, Any]] = []

    @property
    def hand(self) -> Any:
        return self.s.hand

    @property
    def order(self) -> list[str]:
        assert self.s.hand is not None and self.s.hand.rnd is not None
        return list(self.s.hand.rnd.order)

    @property
    def to_act(self) -> str | None:
        h = self.s.hand
        return None if h is None or h.rnd is None or h.phase != "betting" else h.rnd.to_act

    def do(self, pid: str, kind: str, **kw: Any) -> list[dict[str, Any]]:
        self.now += 100
        self.s, self.ev = apply(self.s, pid, {"type": kind, **kw}, self.now)
        return self.ev

    def bet(self, kind: str, **kw: Any) -> list[dict[str, Any]]:
        pid = self.to_act
        assert pid is not None, "nobody to act"
        return self.do(pid, kind, **kw)

    def refused(self, pid: str, kind: str, **kw: Any) -> Rejected:
        before = state_hash(self.s)
        with pytest.raises(Rejected) as info:
            apply(self.s, pid, {"type": kind, **kw}, self.now + 1)
        assert state_hash(self.s) == before
        return info.value

    def legal(self, pid: str) -> list[str]:
        """The seat's legal action types, in the order the view offers them."""
        return [a["type"] for a in view(self.s, pid)["me"]["legalActions"]]

    def view(self, pid: str | None) -> dict[str, Any]:
        return view(self.s, pid)

    def moved(self) -> int:
        return next(e["amount"] for e in self.ev if e["type"] == "action")

    def check_around(self) -> None:
        """Everyone checks (or calls) until this betting round is over."""
        street, hand_no = self.s.hand.street, self.s.hand.hand_no
        while self.to_act is not None and (self.s.hand.street, self.s.hand.hand_no) == (street, hand_no):
            legal = self.legal(self.to_act)
            kind = next(k for k in ("k.check", "nl.check", "k.call", "nl.call") if k in legal)
            self.bet(kind)

    def pass_draw(self) -> None:
        for pid in list(view(self.s, None)["pending"]):
            self.do(pid, "draw", cardIds=[])

    def ready_all(self) -> None:
        for pid in list(view(self.s, None)["pending"]):
            self.do(pid, "ready")

    def choose_all(self) -> None:
        """Every pending seat discards its first choice card and opens its second (7 Poker)."""
        for pid in list(view(self.s, None)["pending"]):
            ch = self.s.hand.players[pid].choice
            self.do(pid, "choose", discardId=ch[0].id, openId=ch[1].id)

    def street(self) -> int:
        assert self.s.hand is not None
        return self.s.hand.street


def seated(stacks: list[int], *, seed: int = 1, prepare: Callable[[State], None] | None = None,
           **opts: Any) -> G:
    """A first hand dealt with these stacks in seat order, seat ``k`` being ``p<k>``: the last seat deals, so
    with three or more players ``p0`` is the small blind, ``p1`` the big blind and ``p2`` the first seat
    after them (heads-up: ``p1`` deals and posts the small blind). Each seat's stack is written as the chips
    it was given (``start_chips``), so the chip audit still holds; ``prepare`` may change the seats before the
    hand is dealt (a player who left, an entry blind)."""
    from pokerroom.engine.flow import start_hand
    from pokerroom.engine.state import Seat

    g = G(len(stacks), seed=seed, **opts)
    state = g.s
    state.seats = [Seat(pid, k, stack, start_chips=stack)
                   for k, (pid, stack) in enumerate(zip(g.ids, stacks, strict=True))]
    state.first_dealer_seat = len(stacks) - 1
    state.hand = None
    state.public_log = []
    if prepare is not None:
        prepare(state)
    g.ev = []
    start_hand(state, 0, g.ev)
    for seat in state.seats:
        seat.stack = state.hand.bettors[seat.id].stack if state.hand is not None else seat.stack
    return g
