"""The only door from the server to the rules engine.

Why: the server must call the engine's fixed interface (``PokerOptions``, ``player_range``, ``setup``,
``apply``, ``view``, ``deadline``, ``on_timeout``, ``result``, ``State.to_json/from_json``) and nothing else.
Putting those calls behind one small class keeps the rest of the server engine-agnostic (tests can drive
a stand-in engine) and keeps the import lazy, so the server package imports even before the engine does.
"""

from __future__ import annotations

import importlib
import re
from types import SimpleNamespace
from typing import Any, Protocol

import orjson

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
    """What the server needs from a rules engine."""

    def parse_options(self, raw: dict[str, Any]) -> Any: ...
    def options_json(self, options: Any) -> dict[str, Any]: ...
    def player_range(self, options: Any) -> tuple[int, int]: ...
    def setup(self, player_ids: list[str], options: Any, now_ms: int) -> Any: ...
    def apply(self, state: Any, player_id: str, action: dict[str, Any], now_ms: int
              ) -> tuple[Any, list[dict[str, Any]]]: ...
    def view(self, state: Any, viewer: str | None) -> dict[str, Any]: ...
    def join_seat(self, state: Any, player_id: str, now_ms: int) -> tuple[Any, list[dict[str, Any]]]: ...
    def deadline(self, state: Any) -> int | None: ...
    def on_timeout(self, state: Any, now_ms: int) -> tuple[Any, list[dict[str, Any]]]: ...
    def result(self, state: Any) -> dict[str, Any] | None: ...
    def dump_state(self, state: Any) -> str: ...
    def load_state(self, text: str) -> Any: ...


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
    """Adapter over :mod:`pokerroom.engine` (imported on first construction)."""

    def __init__(self) -> None:
        self._mod: Any = importlib.import_module("pokerroom.engine")
        self._state_cls: Any = getattr(self._mod, "State", None)
        self._views_cls: Any = getattr(self._mod, "StateViews", None)
        self._views: Any = None  # the StateViews of the state last viewed
        # id(options) -> (options, the seat dicts of the game's last StateViews): see ``view``
        self._chain: dict[int, tuple[Any, Any]] = {}

    def parse_options(self, raw: dict[str, Any]) -> Any:
        from pydantic import ValidationError

        cls = self._mod.PokerOptions
        try:
            if hasattr(cls, "from_json"):  # the engine words its own Korean reasons
                return cls.from_json(raw)
            return cls.model_validate(raw)
        except ValidationError as exc:
            raise OptionsError(korean_option_error([dict(e) for e in exc.errors()])) from None
        except (ValueError, TypeError, Rejected) as exc:
            raise OptionsError(getattr(exc, "message", None) or str(exc)) from None

    def options_json(self, options: Any) -> dict[str, Any]:
        out: dict[str, Any] = options.model_dump(mode="json", by_alias=True)
        return out

    def player_range(self, options: Any) -> tuple[int, int]:
        lo, hi = self._mod.player_range(options)
        return int(lo), int(hi)

    def setup(self, player_ids: list[str], options: Any, now_ms: int) -> Any:
        return self._mod.setup(player_ids, options, seed=None, now_ms=now_ms)

    def setup_with_events(self, player_ids: list[str], options: Any, now_ms: int
                          ) -> tuple[Any, list[dict[str, Any]] | None]:
        """``setup`` plus the first hand's public events (``None`` when the engine cannot give them)."""
        fn = getattr(self._mod, "setup_with_events", None)
        if fn is None:
            return self.setup(player_ids, options, now_ms), None
        state, events = fn(player_ids, options, seed=None, now_ms=now_ms)
        return state, list(events)

    def apply(self, state: Any, player_id: str, action: dict[str, Any], now_ms: int
              ) -> tuple[Any, list[dict[str, Any]]]:
        new_state, events = self._mod.apply(state, player_id, action, now_ms)
        return new_state, list(events)

    def view(self, state: Any, viewer: str | None) -> dict[str, Any]:
        """``viewer``'s view of ``state``. The views of one state share their public part (built once: a
        change is followed by one view per socket, the pre-action review's and the hand recorder's), so
        the caller may change the returned dict's own keys and its ``me``, nothing deeper. States are
        never changed in place (``apply`` returns a new one), so the state's identity is the cache key. The
        warm-up thread also calls this (``sample_views``): ``views`` is a local checked against ``state``, so
        a race can only cost a rebuild, never hand out another state's view."""
        if self._views_cls is None:
            out: dict[str, Any] = self._mod.view(state, viewer)
            return out
        views = self._views
        if views is None or views.state is not state:
            # the views of this game's previous state, found by its options object (every state of a
            # game shares it): unchanged seats are then the same dicts as there (``StateViews``)
            opts = getattr(state, "options", None)
            chain = self._chain.get(id(opts))
            previous = chain[1] if chain is not None and chain[0] is opts else None
            views = self._views = self._views_cls(state, previous)
            if len(self._chain) >= CHAINS_KEPT and id(opts) not in self._chain:
                self._chain.clear()
            # only what the next state's views read (its seat dicts and their inputs), not the state
            self._chain[id(opts)] = (opts, SimpleNamespace(_built=views._built, _own_built=views._own_built))
        result: dict[str, Any] = views.of(viewer)
        return result

    def join_seat(self, state: Any, player_id: str, now_ms: int) -> tuple[Any, list[dict[str, Any]]]:
        """A seat between hands (``pokerroom.engine.join_seat``): dealt in from the next hand."""
        new_state, events = self._mod.join_seat(state, player_id, now_ms)
        return new_state, list(events)

    def deadline(self, state: Any) -> int | None:
        value = self._mod.deadline(state)
        return None if value is None else int(value)

    def on_timeout(self, state: Any, now_ms: int) -> tuple[Any, list[dict[str, Any]]]:
        new_state, events = self._mod.on_timeout(state, now_ms)
        return new_state, list(events)

    def result(self, state: Any) -> dict[str, Any] | None:
        out: dict[str, Any] | None = self._mod.result(state)
        return out

    def sample_views(self) -> list[dict[str, Any]]:
        """A few real views per mode (the acting player's), to warm bot/hint caches before players come."""
        views: list[dict[str, Any]] = []
        for mode in getattr(self._mod, "MODES", ()):
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

    def dump_state(self, state: Any) -> str:
        data = state.to_json()
        if isinstance(data, str):
            return "s" + data
        return "j" + orjson.dumps(data, option=orjson.OPT_NON_STR_KEYS).decode()

    def load_state(self, text: str) -> Any:
        cls = self._state_cls
        if text[:1] == "s":
            return cls.from_json(text[1:])
        return cls.from_json(orjson.loads(text[1:]))


def engine_available() -> bool:
    """True once :mod:`pokerroom.engine` imports and offers the fixed interface."""
    try:
        mod = importlib.import_module("pokerroom.engine")
    except Exception:
        return False
    needed = ("PokerOptions", "player_range", "setup", "apply", "view", "deadline", "on_timeout", "result")
    return all(hasattr(mod, name) for name in needed)
