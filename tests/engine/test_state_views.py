"""``StateViews``: every viewer's view of one state with the public part built once is exactly ``view()``.

The server builds one change's views through one :class:`pokerroom.engine.StateViews` (the public part and
each seat variant built once, shared between the views). Secrecy rests on it being byte-for-byte the
whitelist ``view(state, viewer)`` for every viewer, whatever order the viewers ask in: replayed here on every
step of every golden game (all modes and house rules), the hidden Indian foreheads included.
"""

from __future__ import annotations

import importlib
import importlib.util
import itertools
from pathlib import Path
from typing import Any

import orjson
import pytest

from pokerroom.engine import StateViews, apply, on_timeout, setup, view

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("regen_golden", ROOT / "scripts" / "regen_golden.py")
assert _spec is not None and _spec.loader is not None
regen = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(regen)

GAMES = sorted(p.stem for p in (ROOT / "tests" / "golden").glob("*.jsonl"))


def _states(name: str) -> tuple[list[str], list[Any]]:
    data = regen.load_lines((ROOT / "tests" / "golden" / f"{name}.jsonl").read_text(encoding="utf-8"))
    ids = [f"p{i}" for i in range(data["players"])]
    state = setup(ids, data["options"], seed=data["seed"], now_ms=0)
    states = [state]
    for step in data["steps"][1:]:
        if step["actor"] == "*":
            state, _ = on_timeout(state, step["now"])
        else:
            state, _ = apply(state, step["actor"], step["action"], step["now"])
        states.append(state)
    return ids, states


def _hidden_slots(seat: dict[str, Any]) -> list[int]:
    return [c["slot"] for c in seat["hole"] if c.get("hidden")]


@pytest.mark.parametrize("name", GAMES)
def test_shared_views_are_exactly_the_whitelist_views(name: str) -> None:
    ids, states = _states(name)
    viewers: list[str | None] = [*ids, None, "stranger"]
    shared_seats = 0
    for state in states:
        want = {v: orjson.dumps(view(state, v)) for v in viewers}
        for order in (viewers, viewers[::-1]):
            views = StateViews(state)
            got = {v: views.of(v) for v in order}
            assert {v: orjson.dumps(got[v]) for v in viewers} == want
            assert views.of(ids[0]) is not got[ids[0]], "a fresh top-level dict per call"
        spectator = got[None]
        for seat in spectator["seats"]:
            assert _hidden_slots(seat) == list(range(len(_hidden_slots(seat)))), "slots numbered per seat"
        # a third player's seat, as two other players see it, is one object (built once)
        shared_seats += sum(a is b for a, b in zip(got[ids[0]]["seats"], got[ids[1]]["seats"], strict=True)
                            if a["id"] not in ids[:2])
    assert shared_seats > 0


@pytest.mark.parametrize("name", GAMES)
def test_views_built_from_the_previous_state_are_exactly_the_whitelist_views(name: str) -> None:
    """``StateViews(state, previous)`` reuses the previous state's seat dicts where a seat's inputs did not
    change: every view is still byte-for-byte ``view()``, on every step of every golden game (the viewers
    asking in a different order every other step, so both seat variants come first sometimes), and most
    unchanged seats are the very same objects as one step before."""
    ids, states = _states(name)
    viewers: list[str | None] = [*ids, None, "stranger"]
    previous: StateViews | None = None
    before: dict[str | None, dict[str, Any]] = {}
    reused = unchanged = 0
    for step, state in enumerate(states):
        views = StateViews(state, previous)
        order = viewers if step % 2 else viewers[::-1]
        got = {v: views.of(v) for v in order}
        for v in viewers:
            assert orjson.dumps(got[v]) == orjson.dumps(view(state, v)), (name, step, v)
            for old, new in zip(before.get(v, {}).get("seats", ()), got[v]["seats"], strict=False):
                if orjson.dumps(old) == orjson.dumps(new):
                    unchanged += 1
                    reused += old is new
        previous, before = views, got
    assert unchanged and reused > unchanged // 2, (reused, unchanged)


def test_previous_views_are_not_reused_when_a_seat_changed() -> None:
    """A seat whose stack changed between two states is a new dict with the new stack, while another seat
    that did not change is the previous state's very dict."""
    _ids, states = _states("holdem")
    for a, b in itertools.pairwise(states):
        stacks = [(s.id, s.stack) for s in a.seats], [(s.id, s.stack) for s in b.seats]
        if stacks[0] != stacks[1]:
            break
    else:  # pragma: no cover - a golden hold'em game moves chips
        raise AssertionError("no step changed a stack")
    first = StateViews(a)
    old = first.of(None)["seats"]
    new = StateViews(b, first).of(None)["seats"]
    moved = {pid for (pid, x), (_, y) in zip(*stacks, strict=True) if x != y}
    for o, n in zip(old, new, strict=True):
        if n["id"] in moved:
            assert o is not n and o["stack"] != n["stack"]
    assert any(o is n for o, n in zip(old, new, strict=True) if n["id"] not in moved)


def test_view_calls_share_nothing() -> None:
    """``view()`` itself stays a fresh dict per call: a caller may change it freely."""
    _ids, states = _states("holdem")
    a, b = view(states[3], None), view(states[3], None)
    assert a == b and a["seats"][0] is not b["seats"][0] and a["publicLog"] is not b["publicLog"]


def test_hint_names_are_evaluated_once_per_cards(monkeypatch: pytest.MonkeyPatch) -> None:
    """With hints on, a player's hand names are worked out once per set of cards (hole, up, choice, board),
    not on every change: the betting actions between two streets reuse them."""
    from pokerroom.engine.modes import rules_for

    names_module = importlib.import_module("pokerroom.engine.hint_names")

    ids, states = _states("holdem")
    assert states[0].options.hints
    mode = rules_for(states[0].options)
    calls: list[tuple[Any, ...]] = []
    real = type(mode).hint

    def counting(self: Any, hand: Any, pid: str) -> tuple[str | None, str | None]:
        p = hand.players[pid]
        calls.append((pid, tuple(p.hole), tuple(hand.board)))
        return real(self, hand, pid)

    monkeypatch.setattr(type(mode), "hint", counting)
    names_module.HINTS.clear()
    names = []
    for state in states:
        views = StateViews(state)
        names.append([(views.of(p)["me"] or {}).get("handName") for p in ids])
    assert calls, "hints were built"
    assert len(calls) == len(set(calls)), "the same cards were evaluated twice"
    names_module.HINTS.clear()
    monkeypatch.undo()
    assert names == [[(view(state, p)["me"] or {}).get("handName") for p in ids] for state in states]
