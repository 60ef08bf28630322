"""Show: the winner of an uncalled pot may open their cards during handEnd — a pure engine action
(docs/decisions/0030-show-or-muck.md).
Nothing is revealed unless they do (poker.md §3 step 6); showdown hands are open anyway and cannot be mucked
(§8.3: "쇼다운에 간 사람의 전체 카드 공개"); Indian hands are all revealed, so there is nothing to show."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from engine_support import check_no_leak, rig, secret_cards, visible_cards

from pokerroom.cards import parse_cards
from pokerroom.engine import apply, setup, view
from pokerroom.engine.state import State
from pokerroom.engine.view import legal_actions
from pokerroom.rejections import Rejected

IDS = ["a", "b", "c"]


def _fold_to_one(mode: str, seed: int, **options: object) -> State:
    state = setup(IDS, {"mode": mode, **options}, seed=seed)
    for _ in range(40):
        pub = view(state, None)
        if pub["phase"] == "handEnd":
            return state
        for pid in IDS:
            types = {a["type"] for a in legal_actions(state, pid)}
            if "choose" in types:
                ids = next(a for a in legal_actions(state, pid) if a["type"] == "choose")["cardIds"]
                state, _ = apply(state, pid, {"type": "choose", "discardId": ids[0], "openId": ids[1]}, 0)
                break
            fold = next((t for t in ("k.die", "nl.fold") if t in types), None)
            if fold is not None:
                state, _ = apply(state, pid, {"type": fold}, 0)
                break
    raise AssertionError("no hand end")


@pytest.mark.parametrize("mode", ["holdem", "omaha", "sevenPoker", "badugi", "fiveDraw"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_uncalled_winner_may_show_and_nothing_leaks_before(mode: str, seed: int) -> None:
    state = _fold_to_one(mode, seed)
    pub = view(state, None)
    assert pub["showdown"] == []
    winner = pub["awards"][0]["to"]
    others = [p for p in IDS if p != winner]
    assert {"type": "show"} in legal_actions(state, winner)
    assert all({"type": "show"} not in legal_actions(state, p) for p in others)
    hole = {(c.rank, c.suit) for c in state.hand.players[winner].hole}  # type: ignore[union-attr]
    # not shown: nobody but the winner sees a hole card of theirs
    for viewer in [None, *others]:
        check_no_leak(state, viewer)
        assert not hole & visible_cards({k: v for k, v in view(state, viewer).items() if k != "publicLog"})
    shown_state, events = apply(state, winner, {"type": "show"}, 0)
    assert state.hand.players[winner].shown is False  # type: ignore[union-attr]  # pure: input unchanged
    assert [e["type"] for e in events] == ["shown"]
    assert {(c["rank"], c["suit"]) for c in events[0]["cards"]} >= hole
    for viewer in [None, *others]:
        v = view(shown_state, viewer)
        seat = next(s for s in v["seats"] if s["id"] == winner)
        assert seat["shown"] is True
        assert {(c["rank"], c["suit"]) for c in seat["hole"]} == hole
        check_no_leak(shown_state, viewer)  # only the winner's own cards became public
        assert not secret_cards(shown_state, viewer) & visible_cards(events)
    assert {"type": "show"} not in legal_actions(shown_state, winner)
    with pytest.raises(Rejected) as twice:
        apply(shown_state, winner, {"type": "show"}, 0)
    assert twice.value.code == "cannot_show"
    with pytest.raises(Rejected) as loser:
        apply(state, others[0], {"type": "show"}, 0)
    assert loser.value.code == "cannot_show"
    assert "카드 공개" in view(shown_state, None)["publicLog"][-1]["text"]


@pytest.mark.parametrize("hints", [True, False])
def test_a_shown_hand_is_named_on_its_seat_for_everyone(hints: bool) -> None:
    """After everyone folded, the winner's shown cards are named on their seat ("에이스 원페어") for every
    viewer, hints on or off: no showdown entry names them. Before the show no seat carries a name."""
    state = _fold_to_one("holdem", 1, hints=hints)
    winner = view(state, None)["awards"][0]["to"]
    rig(state, **{winner: parse_cards("Ac Ad")})
    assert state.hand is not None and state.hand.board == []
    for viewer in [None, *IDS]:
        assert all("shownName" not in seat for seat in view(state, viewer)["seats"])
    shown_state, events = apply(state, winner, {"type": "show"}, 0)
    for viewer in [None, *IDS]:
        seats = {seat["id"]: seat for seat in view(shown_state, viewer)["seats"]}
        assert seats[winner]["shownName"] == "에이스 원페어"
        assert all("shownName" not in seat for pid, seat in seats.items() if pid != winner)
    # and the log's line names them too
    assert events[0]["name"] == "에이스 원페어"
    line = view(shown_state, None)["publicLog"][-1]["text"]
    assert line.startswith(f"{winner} 카드 공개: ") and line.endswith(" (에이스 원페어)"), line


def test_show_only_at_hand_end() -> None:
    state = setup(IDS, {"mode": "holdem"}, seed=5)
    actor = view(state, None)["toAct"]
    assert all(a["type"] != "show" for a in legal_actions(state, actor))
    with pytest.raises(Rejected) as exc:
        apply(state, actor, {"type": "show"}, 0)
    assert exc.value.code == "wrong_phase"


def test_indian_offers_no_show() -> None:
    state = _fold_to_one("indian", 3)
    assert all(a["type"] != "show" for pid in IDS for a in legal_actions(state, pid))
