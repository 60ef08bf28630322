"""The poker rules engine (poker.md §2, §4–§8): pure and deterministic.

No I/O, no clock, no global randomness: every random draw comes from the state's DealRng.

Public API::

    PokerOptions, player_range(options)
    setup(player_ids, options, seed=None, now_ms=0) -> State
    setup_with_events(player_ids, options, seed=None, now_ms=0) -> (State, events)   # hand 1's events too
    apply(state, player_id, action, now_ms) -> (State, events)      # raises Rejected; input never mutated
    join_seat(state, player_id, now_ms) -> (State, events)          # a seat between hands (late joiner)
    change_stakes(state, options, now_ms) -> (State, events)        # the host's stakes from the next hand
    end_early(state, now_ms) -> (State, events)                     # the host ends the game (§6.7 result)
    shift_clock(state, delta_ms) -> State                            # every deadline later (a pause)
    view(state, viewer_id | None) -> dict                            # docs/view.md
    StateViews(state).of(viewer_id | None) -> dict                   # the same, public part built once
    deadline(state) -> int | None;  on_timeout(state, now_ms) -> (State, events)
    resume_clock(state, paused_ms) -> (State, events)               # the pending deadline moved later
    result(state) -> dict | None
    game_accounts(state) -> dict                                     # each seat's buy-ins, stack, net
    pending(state) -> list[str]                                      # who the current phase waits for
    legal_actions(state, player_id) -> list[dict]                    # the view's me.legalActions
    State.to_json() / State.from_json(); state_hash(state)

Module map: ``options`` (§2.2), ``state`` (dataclasses, JSON, clone), ``actions`` (wire parsing),
``deal`` (decks), ``modes/`` (per-family scripts and evaluation), ``flow`` (hand lifecycle table),
``game`` (setup/apply), ``host`` (the host's stakes, early end, pauses), ``timeouts`` (§8.5),
``view`` (§8.3), ``result`` (§8.6), ``accounts`` (nets per hand and per game), ``log`` (events and public
log), ``audit`` (invariants); the hold'em/Omaha house options of docs/rules-extensions.md: ``house_blinds``
(antes, the straddle), ``run_twice`` (the decision and the second board), ``house_view`` (their view keys).
"""

from __future__ import annotations

from pokerroom.engine.accounts import game_accounts
from pokerroom.engine.common import pending
from pokerroom.engine.game import apply, setup, setup_with_events
from pokerroom.engine.hint_names import warm_hint_names
from pokerroom.engine.host import change_stakes, end_early, shift_clock
from pokerroom.engine.options import MODE_NAMES, MODES, PokerOptions, player_range, resolved_betting
from pokerroom.engine.result import result
from pokerroom.engine.seating import join_seat
from pokerroom.engine.state import State, state_hash
from pokerroom.engine.timeouts import deadline, on_timeout, resume_clock
from pokerroom.engine.view import StateViews, legal_actions, view

__all__ = [
    "MODES",
    "MODE_NAMES",
    "PokerOptions",
    "State",
    "StateViews",
    "apply",
    "change_stakes",
    "deadline",
    "end_early",
    "game_accounts",
    "join_seat",
    "legal_actions",
    "on_timeout",
    "pending",
    "player_range",
    "resolved_betting",
    "result",
    "resume_clock",
    "setup",
    "setup_with_events",
    "shift_clock",
    "state_hash",
    "view",
    "warm_hint_names",
]
