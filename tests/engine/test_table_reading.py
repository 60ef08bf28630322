"""Reading the table, engine side: ranked names in the view, what won each pot and why (awards and log), the
hi-lo low five, the raise wording of the log, no paid-out pot during a rebuy, the net result
(docs/decisions/0006-hands-named-and-explained.md)."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest
from engine_support import actors, check_chips, rig

from pokerroom.cards import Card, parse_cards
from pokerroom.engine import apply, deadline, on_timeout, setup, view
from pokerroom.engine.result import result
from pokerroom.engine.state import State
from pokerroom.hands import korean_low


def _passive(legal: list[dict[str, Any]]) -> dict[str, Any]:
    kinds = {a["type"]: a for a in legal}
    for t in ("nl.check", "k.check", "nl.call", "k.call"):
        if t in kinds:
            return {"type": t}
    if "choose" in kinds:
        ids = kinds["choose"]["cardIds"]
        return {"type": "choose", "discardId": ids[0], "openId": ids[1]}
    if "declare" in kinds:
        return {"type": "declare", "side": "swing"}
    if "draw" in kinds:
        return {"type": "draw", "cardIds": []}
    if "ready" in kinds:
        return {"type": "ready"}
    if "rebuy" in kinds:
        return {"type": "rebuy", "accept": True}
    return {"type": legal[0]["type"]}


def _finish_hand(state: State, now: int = 0) -> tuple[State, list[dict[str, Any]]]:
    events: list[dict[str, Any]] = []
    hand_no = state.hand.hand_no if state.hand else 0
    while state.hand is not None and state.hand.hand_no == hand_no and state.hand.phase != "handEnd":
        pid, legal = actors(state)[0]
        now += 100
        state, ev = apply(state, pid, _passive(legal), now)
        events += ev
    return state, events


def test_holdem_showdown_names_the_kicker_that_won() -> None:
    s = setup(["a", "b"], {"mode": "holdem"}, seed=5)
    assert s.hand is not None
    c = parse_cards
    rig(s, a=c("Ac 3d"), b=c("Qh Jh"), deck=c("9d Ks Kd 7c 8d 7h 6d 2s"))
    s, events = _finish_hand(s)
    v = view(s, "a")
    entries = {e["id"]: e for e in v["showdown"]}
    assert entries["a"]["handName"] == "투페어"  # the class, as before
    assert entries["a"]["rankName"] == "킹 투페어"
    (award,) = v["awards"]
    assert award["to"] == "a"
    assert award["hand"] == "킹 투페어, 에이스 키커"
    assert award["why"] == "킹 투페어, 에이스 키커가 b의 킹 투페어, 퀸 키커를 이김"
    texts = [e["text"] for e in v["publicLog"] if e["type"] == "award"]
    assert texts[-1] == f"a {award['amount']:,}칩 획득: {award['why']}"
    assert any(e["type"] == "award" and e["why"] == award["why"] for e in events)


def test_holdem_split_pot_says_it_was_a_tie() -> None:
    s = setup(["a", "b"], {"mode": "holdem"}, seed=5)
    c = parse_cards
    rig(s, a=c("2c 3d"), b=c("2h 3h"), deck=c("9d As Ks Qc 8d Jd 6d 10s"))
    s, _ = _finish_hand(s)
    awards = view(s, None)["awards"]
    assert {a["to"] for a in awards} == {"a", "b"}
    assert all(a["why"] == "에이스 스트레이트 동점으로 나눔" for a in awards)


def test_seven_poker_hint_and_showdown_carry_the_ranked_korean_name() -> None:
    for seed in range(40):
        s = setup(["a", "b", "c"], {"mode": "sevenPoker"}, seed=seed)
        s, _ = _finish_hand(s)
        v = view(s, "a")
        if not v["showdown"]:
            continue
        for e in v["showdown"]:
            assert e["rankName"].endswith(e["handName"])  # "K 투페어", "K탑", "마운틴"
        top = [a for a in v["awards"] if a["why"]]
        assert top and "의 " in top[0]["why"] and top[0]["why"].endswith("이김")
        break
    else:  # pragma: no cover
        pytest.fail("no showdown in 40 hands")
    s = setup(["a", "b"], {"mode": "sevenPoker"}, seed=1)
    rig(s, a=parse_cards("Ks Kd 5h 9c"), b=parse_cards("2s 3d 7h 8c"))
    me = view(s, "a")["me"]
    assert me["handName"] == "원페어" and me["rankName"] == "K 원페어"


def test_the_logs_showdown_line_names_each_hand_as_its_seat_does() -> None:
    """Two high cards read "a 에이스 하이, b 킹 하이" in the log, not "a 하이카드, b 하이카드" (nor a 7 Poker
    "탑, 탑"): the line names each shown hand by its ranked name, the one its seat shows."""
    s = setup(["a", "b"], {"mode": "holdem"}, seed=5)
    c = parse_cards
    rig(s, a=c("Ac 3d"), b=c("Kh Jh"), deck=c("5c 9d 8s 6c 5d 4d 5h 2h"))
    s, _ = _finish_hand(s)
    lines = [e["text"] for e in view(s, None)["publicLog"] if e["type"] == "showdown"]
    assert lines == ["쇼다운: a 에이스 하이, b 킹 하이"], lines
    seen = 0
    for seed in range(40):
        s = setup(["a", "b", "c"], {"mode": "sevenPoker"}, seed=seed)
        s, _ = _finish_hand(s)
        v = view(s, None)
        if v["showdown"]:
            (line,) = [e["text"] for e in v["publicLog"] if e["type"] == "showdown"]
            assert line == "쇼다운: " + ", ".join(f"{e['id']} {e['rankName']}" for e in v["showdown"])
            seen += 1
    assert seen >= 5, seen


@pytest.mark.parametrize("mode", ["sevenPoker", "sevenHiLo"])
def test_a_seven_poker_log_marks_each_street_with_its_open_cards(mode: str) -> None:
    """Read alone, a 7 Poker log ran "p0 체크, p2 체크, p1 체크, p2 삥 10": one street's bets into the
    next's. Each street now opens with its line, the open cards just dealt in dealing order ("5구: p1 2♥, p0
    Q♥"), 7구 with its hidden card; the event carries no hidden card."""
    s = setup(["a", "b", "c"], {"mode": mode}, seed=3)
    s, events = _finish_hand(s)
    streets = [e for e in events if e["type"] == "street"]
    assert [e["streetName"] for e in streets] == ["4구", "5구", "6구", "7구"]
    dealt = [e for e in events if e["type"] == "dealt" and e["target"] == "up"]
    assert [(pid, c) for e in streets for pid, cards in e["up"].items() for c in cards] == [
        (e["to"], e["faceUp"]) for e in dealt]
    assert streets[-1]["up"] == {}
    log = [e for e in view(s, None)["publicLog"] if e["handNo"] == 1]
    texts = [e["text"] for e in log]
    at = [texts.index(t) for t in texts if t[:3] in ("4구:", "5구:", "6구:", "7구:")]
    assert len(at) == 4 and at == sorted(at)
    assert texts[at[-1]] == "7구: 히든 카드 한 장씩"
    hand = s.hand
    assert hand is not None
    card = {c.to_json()["id"]: c for p in hand.players.values() for c in p.up}
    first = streets[0]["up"]
    assert texts[at[0]] == "4구: " + ", ".join(f"{pid} {card[c[0]['id']].label}" for pid, c in first.items())
    assert all(c[0]["id"] in card for e in streets for c in e["up"].values())  # open cards, nothing else
    # between two street lines, only that street's bets (a line per action, the round's own)
    rounds = [texts[a + 1:b] for a, b in itertools.pairwise(at)]
    assert all(rnd and all(e.split()[0] in ("a", "b", "c") for e in rnd) for rnd in rounds), rounds


@pytest.mark.parametrize("mode", ["holdem", "omaha"])
def test_a_boards_log_lines_name_their_street(mode: str) -> None:
    """"플랍: K♣ 2♥ 9◆", "턴: 7♠", "리버: 3◆", as a hand history reads, where every board line said
    "공용 카드" and the turn could be told from the river only by counting."""
    s = setup(["a", "b"], {"mode": mode}, seed=4)
    s, _ = _finish_hand(s)
    hand = s.hand
    assert hand is not None and len(hand.board) == 5
    lines = [e["text"] for e in view(s, None)["publicLog"] if e["type"] == "board"]
    b = [c.label for c in hand.board]
    assert lines == [f"플랍: {b[0]} {b[1]} {b[2]}", f"턴: {b[3]}", f"리버: {b[4]}"], lines


def test_hi_lo_showdown_carries_the_low_five() -> None:
    found = 0
    for seed in range(60):
        s = setup(["a", "b", "c"], {"mode": "sevenHiLo"}, seed=seed)
        s, _ = _finish_hand(s)
        v = view(s, None)
        for e in v["showdown"] or []:
            cards = [Card.from_json(x) for x in e["cards"]]
            low = korean_low(cards)
            if e["lowName"] is None:
                assert e["lowBest"] is None
                continue
            assert low is not None
            assert [x["id"] for x in e["lowBest"]] == [x.id for x in low.cards]
            assert len(e["lowBest"]) == 5
            found += 1
    assert found >= 5


def test_log_raise_wording_matches_the_button() -> None:
    s = setup(["a", "b", "c"], {"mode": "holdem"}, seed=3)
    assert s.hand is not None and s.hand.rnd is not None
    pid = s.hand.rnd.to_act
    assert pid is not None
    raise_entry = next(x for x in view(s, pid)["me"]["legalActions"] if x["type"] == "nl.raise")
    assert raise_entry["isBet"] is False
    s, _ = apply(s, pid, {"type": "nl.raise", "to": raise_entry["min"]}, 100)
    line = view(s, None)["publicLog"][-1]["text"]
    assert line == f"{pid} 레이즈 {raise_entry['min']}까지"
    # a bet into nothing reads as the button does: "벳 20"
    s, _ = _finish_round_to_flop(s)
    assert s.hand is not None and s.hand.rnd is not None and s.hand.rnd.current_bet == 0
    pid = s.hand.rnd.to_act
    assert pid is not None
    bet = next(x for x in view(s, pid)["me"]["legalActions"] if x["type"] == "nl.raise")
    assert bet["isBet"] is True
    s, _ = apply(s, pid, {"type": "nl.raise", "to": bet["min"]}, 900)
    assert view(s, None)["publicLog"][-1]["text"] == f"{pid} 벳 {bet['min']}"


def _finish_round_to_flop(s: State) -> tuple[State, None]:
    now = 200
    while s.hand is not None and s.hand.street == 0:
        pid, legal = actors(s)[0]
        now += 100
        s, _ = apply(s, pid, _passive(legal), now)
    return s, None


def test_rebuy_phase_view_shows_no_paid_out_pot() -> None:
    rng = random.Random(7)
    seen = 0
    for seed in range(20):
        s = setup(["a", "b"], {"mode": "holdem", "rebuy": "unlimited"}, seed=seed)
        now = 0
        for _ in range(400):
            if s.phase == "rebuy":
                for who in (None, "a", "b"):
                    v = view(s, who)
                    assert v["pots"] == [] and v["potTotal"] == 0
                seen += 1
                break
            acting = actors(s)
            if not acting:
                due = deadline(s)
                assert due is not None
                now = max(now, due)
                s, _ = on_timeout(s, now)
                continue
            pid, legal = acting[0]
            kinds = {a["type"]: a for a in legal}
            act = {"type": "nl.allIn"} if "nl.allIn" in kinds else (
                {"type": "nl.call"} if "nl.call" in kinds else _passive(legal))
            now += 100
            s, _ = apply(s, pid, act if rng.random() < 0.9 else _passive(legal), now)
        if seen >= 3:
            break
    assert seen >= 3


def test_result_has_each_players_net_chips() -> None:
    s = setup(["a", "b", "c"], {"mode": "holdem", "rebuy": "unlimited"}, seed=2)
    rig(s, a=parse_cards("Ac Ad"), b=parse_cards("2c 7d"), c=parse_cards("3h 8s"),
        deck=parse_cards("9d As Ks 2d 4d 7c 5d 9s"))
    assert s.hand is not None and s.hand.rnd is not None
    now = 0
    while s.phase == "playing" and s.hand.phase != "handEnd":
        pid, legal = actors(s)[0]
        kinds = {a["type"] for a in legal}
        act = {"type": "nl.raise", "to": 30} if pid == "a" and s.hand.street == 0 and "nl.raise" in kinds \
            and s.hand.rnd is not None and s.hand.rnd.current_bet < 30 else _passive(legal)
        now += 100
        s, _ = apply(s, pid, act, now)
    # the others leave after the first hand: the game ends at once ("noOpponents")
    s, _ = apply(s, "b", {"type": "leave"}, now + 100)
    s, _ = apply(s, "c", {"type": "leave"}, now + 200)
    while s.phase != "finished":
        due = deadline(s)
        assert due is not None
        s, _ = on_timeout(s, due)
    check_chips(s)
    r = result(s)
    assert r is not None
    rows = {x["playerId"]: x for x in r["ranking"]}
    for pid, row in rows.items():
        assert row["net"] == row["finalChips"] - 1000 * (1 + row["rebuys"]), pid
    assert sum(row["net"] for row in rows.values()) == 0
    assert rows["a"]["net"] > 0 and rows["b"]["net"] < 0
    # "score" stays what §6.7 ranks by (final chips − rebuys); net is the gain or loss beside it
    assert rows["b"]["score"] == rows["b"]["finalChips"] > 0


def _declared_hand(seed: int, sides: dict[str, str]) -> dict[str, Any]:
    """A 7 Poker Hi-Lo hand of a, b, c played passively to its end, each declaring ``sides[pid]``."""
    s = setup(["a", "b", "c"], {"mode": "sevenHiLo"}, seed=seed)
    now = 0
    while s.hand is not None and s.hand.phase != "handEnd":
        pid, legal = actors(s)[0]
        kinds = {x["type"]: x for x in legal}
        now += 100
        act = ({"type": "declare", "side": sides[pid]} if "declare" in kinds else _passive(legal))
        s, _ = apply(s, pid, act, now)
    return view(s, None)


def test_hi_lo_explains_the_low_winner_too() -> None:
    """a and c declare high, b alone low: the low half is explained as well as the high one (before, the low
    award had no sentence and the banner named only the high winner)."""
    v = _declared_hand(0, {"a": "high", "b": "low", "c": "high"})
    whys = {(x["side"], x["to"]): x["why"] for x in v["awards"]}
    assert whys[("high", "a")] == "6 원페어가 c의 A탑을 이김"
    assert whys[("low", "b")] == "로우 9탑, 혼자 로우를 선언해 로우 몫을 가져감"
    logged = [e["text"] for e in v["publicLog"] if e["type"] == "award"]
    assert logged[-1] == f"b {v['awards'][1]['amount']:,}칩 획득: {whys[('low', 'b')]}"
    # the mirror: two lows and one high; the lone high is explained
    v = _declared_hand(0, {"a": "low", "b": "high", "c": "low"})
    high = next(x for x in v["awards"] if x["side"] == "high")
    assert high["to"] == "b" and high["why"] == f"{high['hand']}, 혼자 하이를 선언해 하이 몫을 가져감"
    low = next(x for x in v["awards"] if x["side"] == "low")
    assert low["why"] and low["why"].endswith("이김")


def test_a_low_that_beats_a_low_is_called_a_low_in_its_sentence() -> None:
    """A low is named as a high card is ("8탑"); the log's line has no side, so "8탑이 a의 J탑을 이김" read as
    the lower high card winning. Both are called lows, in the award and in the log."""
    v = _declared_hand(0, {"a": "low", "b": "high", "c": "low"})
    low = next(x for x in v["awards"] if x["side"] == "low")
    assert (low["to"], low["hand"]) == ("c", "8탑")
    assert low["why"] == "로우 8탑이 a의 로우 J탑을 이김"
    logged = [e["text"] for e in v["publicLog"] if e["type"] == "award"]
    assert logged[-1] == f"c {low['amount']:,}칩 획득: 로우 8탑이 a의 로우 J탑을 이김"
