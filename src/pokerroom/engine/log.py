"""Events and the public log (poker.md §8.3).

Rules:
- Every event is a public dict ``{"type": ..., ...}``: the same for every viewer, never a secret (no hidden
  card, no deck, no choice discard, no draw ids). Hidden cards reach their owner only through ``view``.
- Each event is also turned into one Korean line of the public log, which keeps the last 100 entries.
"""

from __future__ import annotations

from typing import Any

from pokerroom.cards import Card
from pokerroom.engine.state import State

LOG_LIMIT = 100

_ACTION_WORDS: dict[str, str] = {
    "k.check": "체크", "k.ping": "삥", "k.call": "콜", "k.ddadang": "따당", "k.quarter": "쿼터",
    "k.half": "하프", "k.full": "풀", "k.die": "다이",
    "nl.fold": "폴드", "nl.check": "체크", "nl.call": "콜", "nl.raise": "레이즈", "nl.allIn": "올인",
}
_SIDE_WORDS = {"high": "하이", "low": "로우", "swing": "스윙"}


def action_word(kind: str) -> str:
    return _ACTION_WORDS.get(kind, kind)


def _card(c: dict[str, Any]) -> str:
    return Card.from_json(c).label


def _text(e: dict[str, Any]) -> str | None:
    t = e["type"]
    if t == "handStart":
        return f"{e['handNo']}번째 판 시작 (선: {e['dealer']}, 기본 단위 {e['baseUnit']:,})"
    if t == "ante":
        return f"{e['from']} 앤티 {e['amount']:,}"
    if t == "blind":
        kind = {"sb": "스몰 블라인드", "bb": "빅 블라인드", "entry": "참가 빅 블라인드"}[e["kind"]]
        return f"{e['from']} {kind} {e['amount']:,}"
    if t == "board":
        return "공용 카드: " + " ".join(_card(c) for c in e["cards"])
    if t == "action":
        word = action_word(e["action"]["type"])
        amount = f" {e['amount']:,}" if e.get("amount") else ""
        if e["action"]["type"] == "nl.raise" and isinstance(e["action"].get("to"), int):
            # the words of the raise button: "벳 20" into no bet, else the total "레이즈 20까지"
            to = e["action"]["to"]
            word, amount = ("벳", f" {to:,}") if e.get("bet") else ("레이즈", f" {to:,}까지")
        suffix = " (올인)" if e.get("allIn") else ""
        auto = " (자동)" if e.get("auto") else ""
        return f"{e['player']} {word}{amount}{suffix}{auto}"
    if t == "reveal":
        return "오픈 카드 공개: " + ", ".join(f"{pid} {_card(c)}" for pid, c in e["opens"].items())
    if t == "drawn":
        names = ("아침", "점심", "저녁")
        label = names[e["drawNo"]] if e["drawNo"] < len(names) else "교환"
        return f"{label}: " + ", ".join(f"{pid} {n}장" for pid, n in e["counts"].items())
    if t == "declares":
        return "선언: " + ", ".join(f"{pid} {_SIDE_WORDS[s]}" for pid, s in e["sides"].items())
    if t == "reshuffle":
        return "버린 카드를 다시 섞었어요" if e["reason"] == "draw" else "인디언 덱을 다시 섞었어요"
    if t == "uncalled":
        return f"{e['to']}에게 받지 않은 {e['amount']:,}칩 반환"
    if t == "showdown":
        return "쇼다운: " + ", ".join(f"{x['id']} {x['handName']}{_low_words(x)}" for x in e["entries"])
    if t == "award":
        why = f": {e['why']}" if e.get("why") else ""
        return f"{e['to']} {e['amount']:,}칩 획득{why}"
    if t == "shown":
        return f"{e['player']} 카드 공개: " + " ".join(_card(c) for c in e["cards"])
    if t == "penalty":
        return f"{e['from']} 10 다이 벌칙 {e['amount']:,}"
    if t == "carry":
        return f"동점: 판돈 {e['amount']:,}칩 다음 판으로 이월"
    if t == "timeout":
        return f"{e['player']} 시간 초과"
    if t == "away":
        return f"{e['player']} 자리 비움" if e["away"] else f"{e['player']} 돌아옴"
    if t == "left":
        return f"{e['player']} 나감"
    if t == "seatJoined":
        return f"{e['player']} 자리에 앉음 (다음 판부터 참가, 칩 {e['stack']:,})"
    if t == "sitOut":
        if e["sittingOut"]:
            return f"{e['player']} 쉬기 (다음 판부터 빠짐)"
        return f"{e['player']} 복귀 (다음 판부터 참가)"
    if t == "busted":
        return f"{e['player']} 칩 소진"
    if t == "rebuy":
        return f"{e['player']} 리바이" if e["accept"] else f"{e['player']} 리바이 안 함"
    if t == "eliminated":
        return f"{e['player']} 탈락"
    if t == "blindUp":
        return f"기본 단위 {e['baseUnit']:,}로 상승 (레벨 {e['level']})"
    if t == "gameEnd":
        return "게임 종료"
    return None


def _low_words(entry: dict[str, Any]) -> str:
    """Hi-lo entries (they carry ``lowBest``: 7 Poker hi-lo and Omaha Hi-Lo) also name the low."""
    if "lowBest" not in entry:
        return ""
    return f" / 로우 {entry['lowName']}" if entry["lowName"] else " / 로우 없음"


def emit(state: State, events: list[dict[str, Any]], event: dict[str, Any]) -> None:
    """Record a public event and its log line."""
    events.append(event)
    text = _text(event)
    if text is not None:
        hand_no = state.hand.hand_no if state.hand is not None else 0
        state.public_log.append({"handNo": hand_no, "type": event["type"], "text": text})
        if len(state.public_log) > LOG_LIMIT:
            del state.public_log[: len(state.public_log) - LOG_LIMIT]
