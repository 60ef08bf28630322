"""The only door from the server to the rules engine.

Why: the server must call the engine's fixed interface (``PokerOptions``, ``player_range``, ``setup``,
``apply``, ``view``, ``deadline``, ``on_timeout``, ``resume_clock``, ``result``, ``accounts``,
``State.to_json/from_json``) and nothing else.
Putting those calls behind one small class keeps the engine's calls in one place, typed (the engine is
imported statically, so mypy checks the seam), and lets a test hand the room a scripted engine of the same
shape where it needs one.
"""

from __future__ import annotations

import re
from types import SimpleNamespace
from typing import Any, Protocol, cast

import orjson
from pydantic import ValidationError

from pokerroom import engine
from pokerroom.engine import PokerOptions, State, StateViews
from pokerroom.rejections import Rejected

#: games whose last seat dicts are kept (one entry per game in play, ~15 KB; all are forgotten at once
#: when full, which costs each game one rebuild of its seats)
CHAINS_KEPT = 1024
_HANGUL = re.compile("[\uac00-\ud7a3]")


class OptionsError(Exception):
    """Options refused; ``message`` is the Korean reason (poker.md §2.2)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class GameEngine(Protocol):
    """What the server needs from a rules engine, in the engine's own types. :class:`PokerEngine` is the one
    the server runs; a test may hand the room a scripted engine of this shape where it needs one."""

    def parse_options(self, raw: dict[str, Any]) -> PokerOptions: ...
    def options_json(self, options: PokerOptions) -> dict[str, Any]: ...
    def player_range(self, options: PokerOptions) -> tuple[int, int]: ...
    def setup(self, player_ids: list[str], options: PokerOptions, now_ms: int) -> State: ...
    def setup_with_events(self, player_ids: list[str], options: PokerOptions, now_ms: int
                          ) -> tuple[State, list[dict[str, Any]] | None]: ...
    def apply(self, state: State, player_id: str, action: dict[str, Any], now_ms: int
              ) -> tuple[State, list[dict[str, Any]]]: ...
    def view(self, state: State, viewer: str | None) -> dict[str, Any]: ...
    def join_seat(self, state: State, player_id: str, now_ms: int) -> tuple[State, list[dict[str, Any]]]: ...
    def change_stakes(self, state: State, options: PokerOptions, now_ms: int
                      ) -> tuple[State, list[dict[str, Any]]]: ...
    def end_early(self, state: State, now_ms: int) -> tuple[State, list[dict[str, Any]]]: ...
    def shift_clock(self, state: State, delta_ms: int) -> State: ...
    def deadline(self, state: State) -> int | None: ...
    def on_timeout(self, state: State, now_ms: int) -> tuple[State, list[dict[str, Any]]]: ...
    def resume_clock(self, state: State, paused_ms: int) -> tuple[State, list[dict[str, Any]]]: ...
    def result(self, state: State) -> dict[str, Any] | None: ...
    def accounts(self, state: State) -> dict[str, Any]: ...
    def sample_views(self) -> list[dict[str, Any]]: ...
    def dump_state(self, state: State) -> str: ...
    def load_state(self, text: str) -> State: ...


def korean_option_error(errors: list[dict[str, Any]]) -> str:
    """The first validation error as a Korean sentence (the engine words its own; pydantic's are English)."""
    if not errors:
        return "옵션이 올바르지 않아요"
    first = errors[0]
    msg = str(first.get("msg", ""))
    for prefix in ("Value error, ", "Assertion failed, "):
        if msg.startswith(prefix):
            msg = msg[len(prefix):]
    if _HANGUL.search(msg):
        return msg
    where = ".".join(str(p) for p in first.get("loc", ()))
    return f"옵션 '{where}' 값이 올바르지 않아요" if where else "옵션이 올바르지 않아요"


class PokerEngine:
    """The server's engine: :mod:`pokerroom.engine` in the :class:`GameEngine` shape, with a view cache."""

    def __init__(self) -> None:
        self._views: StateViews | None = None  # the StateViews of the state last viewed
        # id(options) -> (options, the seat dicts of the game's last StateViews): see ``view``
        self._chain: dict[int, tuple[PokerOptions, StateViews]] = {}

    def parse_options(self, raw: dict[str, Any]) -> PokerOptions:
        try:
            return engine.PokerOptions.from_json(raw)  # the engine words its own Korean reasons
        except ValidationError as exc:
            raise OptionsError(korean_option_error([dict(e) for e in exc.errors()])) from None
        except Rejected as exc:
            raise OptionsError(exc.message or str(exc)) from None
        except (ValueError, TypeError) as exc:
            raise OptionsError(str(exc)) from None

    def options_json(self, options: PokerOptions) -> dict[str, Any]:
        out: dict[str, Any] = options.model_dump(mode="json", by_alias=True)
        return out

    def player_range(self, options: PokerOptions) -> tuple[int, int]:
        lo, hi = engine.player_range(options)
        return int(lo), int(hi)

    def setup(self, player_ids: list[str], options: PokerOptions, now_ms: int) -> State:
        return engine.setup(player_ids, options, seed=None, now_ms=now_ms)

    def setup_with_events(self, player_ids: list[str], options: PokerOptions, now_ms: int
                          ) -> tuple[State, list[dict[str, Any]] | None]:
        """``setup`` plus the first hand's public events."""
        state, events = engine.setup_with_events(player_ids, options, seed=None, now_ms=now_ms)
        return state, list(events)

    def apply(self, state: State, player_id: str, action: dict[str, Any], now_ms: int
              ) -> tuple[State, list[dict[str, Any]]]:
        new_state, events = engine.apply(state, player_id, action, now_ms)
        return new_state, list(events)

    def view(self, state: State, viewer: str | None) -> dict[str, Any]:
        """``viewer``'s view of ``state``. The views of one state share their public part (built once: a
        change is followed by one view per socket, the pre-action review's and the hand recorder's), so
        the caller may change the returned dict's own keys and its ``me``, nothing deeper. States are
        never changed in place (``apply`` returns a new one), so the state's identity is the cache key. The
        warm-up thread also calls this (``sample_views``): ``views`` is a local checked against ``state``, so
        a race can only cost a rebuild, never hand out another state's view."""
        views = self._views
        if views is None or views.state is not state:
            # the views of this game's previous state, found by its options object (every state of a
            # game shares it): unchanged seats are then the same dicts as there (``StateViews``)
            opts = state.options
            chain = self._chain.get(id(opts))
            previous = chain[1] if chain is not None and chain[0] is opts else None
            views = self._views = engine.StateViews(state, previous)
            if len(self._chain) >= CHAINS_KEPT and id(opts) not in self._chain:
                self._chain.clear()
            # only what the next state's views read (its seat dicts and their inputs), not the state
            # (the two tables ``StateViews`` reads from its ``previous``), not the state itself
            self._chain[id(opts)] = (opts, cast(StateViews, SimpleNamespace(
                _built=views._built, _own_built=views._own_built)))
        return views.of(viewer)

    def join_seat(self, state: State, player_id: str, now_ms: int) -> tuple[State, list[dict[str, Any]]]:
        """A seat between hands (``pokerroom.engine.join_seat``): dealt in from the next hand."""
        new_state, events = engine.join_seat(state, player_id, now_ms)
        return new_state, list(events)

    def change_stakes(self, state: State, options: PokerOptions, now_ms: int
                      ) -> tuple[State, list[dict[str, Any]]]:
        """The host's new base unit / starting stack, from the next hand (``engine.change_stakes``)."""
        new_state, events = engine.change_stakes(state, options, now_ms)
        return new_state, list(events)

    def end_early(self, state: State, now_ms: int) -> tuple[State, list[dict[str, Any]]]:
        """The host ends the game: now between hands, else after the hand in play (``engine.end_early``)."""
        new_state, events = engine.end_early(state, now_ms)
        return new_state, list(events)

    def shift_clock(self, state: State, delta_ms: int) -> State:
        """Every pending deadline ``delta_ms`` later: a pause's length (``engine.shift_clock``)."""
        return engine.shift_clock(state, delta_ms)

    def deadline(self, state: State) -> int | None:
        value = engine.deadline(state)
        return None if value is None else int(value)

    def on_timeout(self, state: State, now_ms: int) -> tuple[State, list[dict[str, Any]]]:
        new_state, events = engine.on_timeout(state, now_ms)
        return new_state, list(events)

    def resume_clock(self, state: State, paused_ms: int) -> tuple[State, list[dict[str, Any]]]:
        """The pending deadline moved ``paused_ms`` later (time nobody ran the room is not charged)."""
        new_state, events = engine.resume_clock(state, paused_ms)
        return new_state, list(events)

    def result(self, state: State) -> dict[str, Any] | None:
        return engine.result(state)

    def accounts(self, state: State) -> dict[str, Any]:
        """The game's accounts for the room's ledger (``pokerroom.engine.accounts``): ``seats`` (each seat's
        buy-in, rebuys, settled stack and net), ``unowned`` (a carried pot), ``handsPlayed`` and ``running``
        (a hand's chips are in the middle: the stacks are those from before it)."""
        return engine.game_accounts(state)

    def sample_views(self) -> list[dict[str, Any]]:
        """A few real views per mode (the acting player's), to warm bot/hint caches before players come; it
        fills the engine's table of hand names first (:func:`pokerroom.engine.warm_hint_names`)."""
        engine.warm_hint_names()
        views: list[dict[str, Any]] = []
        for mode in engine.MODES:
            state = self.setup(["w1", "w2", "w3"], self.parse_options({"mode": mode}), 0)
            for _ in range(6):
                ids = ("w1", "w2", "w3")
                actor = next((p for p in ids if self.view(state, p)["me"]["legalActions"]), None)
                if actor is None:
                    break
                view = self.view(state, actor)
                views.append(view)
                acts = view["me"]["legalActions"]
                safe = [a for a in acts if a["type"] in ("k.call", "nl.call", "k.check", "nl.check", "ready")]
                if not safe:
                    break
                state, _ = self.apply(state, actor, {"type": safe[0]["type"]}, 0)
        return views

    def dump_state(self, state: State) -> str:
        return "j" + orjson.dumps(state.to_json(), option=orjson.OPT_NON_STR_KEYS).decode()

    def load_state(self, text: str) -> State:
        return engine.State.from_json(orjson.loads(text[1:]))


def engine_available() -> bool:
    """Always true: the server imports :mod:`pokerroom.engine` statically, so an engine that does not import
    fails the server's own import (loudly) instead of reporting itself unavailable. Kept for callers that
    still ask."""
    return True
