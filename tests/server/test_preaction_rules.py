"""The pure part of pre-actions (server/room/preactions.py): what is offered, when a choice is cancelled,
and what it turns into on my turn — always one of my legal actions, or nothing."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from pokerroom.server.room import preactions as pre

TYPES = ["k.check", "k.ping", "k.call", "k.ddadang", "k.half", "k.die", "nl.fold", "nl.check", "nl.call",
         "nl.raise", "nl.allIn"]


def _view(*, to_act: str = "b", bet: int = 20, to_call: int = 10, betting: str = "noLimit", street: int = 0,
          hand_no: int = 1, legal: list[str] | None = None, folded: bool = False, phase: str = "betting"
          ) -> dict[str, Any]:
    seat = {"id": "a", "inHand": True, "folded": folded, "allIn": False, "status": "playing", "stack": 500}
    return {"phase": phase, "betting": betting, "handNo": hand_no, "street": street, "currentBet": bet,
            "baseUnit": 10, "toAct": to_act, "seats": [seat, {"id": "b"}],
            "me": {"id": "a", "toCall": to_call, "legalActions": [{"type": t} for t in legal or []]}}


def test_offered() -> None:
    assert [o["kind"] for o in pre.offered(_view())] == ["checkFold", "call", "callAny"]
    assert [o["kind"] for o in pre.offered(_view(to_call=0, bet=0, betting="korean"))] == [
        "checkFold", "callAny", "pingCall"]
    assert pre.offered(_view(to_act="a")) == []  # my own turn: I simply act
    assert pre.offered(_view(folded=True)) == []
    assert pre.offered(_view(phase="draw")) == []
    assert pre.choose(_view(), "pingCall") is None


def test_check_fold_is_worded_as_the_tables_fold_button() -> None:
    """체크/다이 at a Korean table (its button says 다이), 체크/폴드 at a no-limit or pot-limit one
    (its button says 폴드, §9): in what is offered, in what I chose and in the notice that cancels it."""
    for betting, word in (("korean", "체크/다이"), ("noLimit", "체크/폴드"), ("potLimit", "체크/폴드")):
        view = _view(betting=betting)
        assert pre.offered(view)[0] == {"kind": "checkFold", "label": word}
        book = pre.PreActions()
        chosen = pre.choose(view, "checkFold")
        assert chosen is not None
        book.chosen["a"] = chosen
        part = pre.seat_part(view, book, "a")
        assert part is not None and part["preAction"]["chosen"]["label"] == word
        assert pre.review(book, {"a": _view(betting=betting, street=1)}, 3) == []
        assert book.notices["a"]["text"] == f"베팅 라운드가 끝나서 '{word}' 예약이 취소됐어요"


def test_cancellation_rules() -> None:
    book = pre.PreActions()
    chosen = pre.choose(_view(), "call")
    assert chosen is not None
    book.chosen["a"] = chosen
    assert pre.review(book, {"a": _view(bet=20)}, 5) == [] and "a" in book.chosen  # nothing changed
    assert pre.review(book, {"a": _view(bet=40)}, 6) == []
    assert "a" not in book.chosen and book.notices["a"]["version"] == 6
    any_call = pre.choose(_view(), "callAny")
    assert any_call is not None
    book.chosen["a"] = any_call
    assert pre.review(book, {"a": _view(bet=80)}, 7) == [] and "a" in book.chosen  # call any survives raises
    assert pre.review(book, {"a": _view(street=1, bet=0)}, 8) == [] and "a" not in book.chosen
    assert "라운드" in book.notices["a"]["text"]
    book.chosen["a"] = any_call
    book.notices.clear()
    assert pre.review(book, {"a": _view(folded=True)}, 9) == [] and not book.notices  # dropped silently


@given(st.sampled_from(pre.KINDS), st.sets(st.sampled_from(TYPES)), st.booleans())
def test_fires_only_legal_actions(kind: str, legal: set[str], korean: bool) -> None:
    chosen = pre.PreAction(kind, 1, 0, 0 if kind == "pingCall" else 20, 10)
    view = _view(to_act="a", legal=sorted(legal), betting="korean" if korean else "noLimit")
    action = pre.resolve(chosen, view)
    assert action is None or action["type"] in legal
    if action is not None:
        assert action["type"] not in ("k.ddadang", "k.half", "nl.raise", "nl.allIn")  # never raises for me
    if kind == "checkFold" and action is not None:
        assert action["type"] in ("k.check", "nl.check", "k.die", "nl.fold")
    if kind in ("call", "callAny") and action is not None:
        assert action["type"] in ("k.call", "nl.call", "k.check", "nl.check")


@given(st.sampled_from(pre.KINDS), st.integers(0, 200), st.integers(0, 3), st.integers(1, 3))
def test_stored_form_round_trips(kind: str, bet: int, street: int, hand_no: int) -> None:
    book = pre.PreActions({"p1": pre.PreAction(kind, hand_no, street, bet, bet // 2)},
                          {"p2": {"text": "취소", "version": 3}})
    assert pre.PreActions.from_json(book.to_json()) == book
