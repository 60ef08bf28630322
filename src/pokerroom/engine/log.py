"""Events and the public log (poker.md §8.3).

Rules:
- Every event is a public dict ``{"type": ..., ...}``: the same for every viewer, never a secret (no hidden
  card, no deck, no choice discard, no draw ids). Hidden cards reach their owner only through ``view``.
- Each event is also turned into one Korean line of the public log, which keeps the last 100 entries.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pokerroom.cards import Card
from pokerroom.engine.modes.community import Community
from pokerroom.engine.state import State

LOG_LIMIT = 100

_ACTION_WORDS: dict[str, str] = {
    "k.check": "체크", "k.ping": "삥", "k.call": "콜", "k.ddadang": "따당", "k.quarter": "쿼터",
    "k.half": "하프", "k.full": "풀", "k.die": "다이",
    "nl.fold": "폴드", "nl.check": "체크", "nl.call": "콜", "nl.raise": "레이즈", "nl.allIn": "올인",
}
_SIDE_WORDS = {"high": "하이", "low": "로우", "swing": "스윙"}
_ANTE_WORDS = {None: "앤티", "bigBlind": "빅 블라인드 앤티"}


def action_word(kind: str) -> str:
    return _ACTION_WORDS.get(kind, kind)


def _card(c: dict[str, Any]) -> str:
    return Card.from_json(c).label


def _board(e: dict[str, Any]) -> str:
    """Board cards under their street's name ("플랍: K♣ 2♥ 9◆", "턴: 7♠"), as a hand history reads; a board
    run twice gives its second run's cards under "두 번째 보드"."""
    cards = " ".join(_card(c) for c in e["cards"])
    if e.get("run") == 2:
        return f"두 번째 보드: {cards}"
    street = e.get("street", 0)  # the betting round it opens: 1 플랍, 2 턴, 3 리버 (the modes' own names)
    return f"{Community.street_names[street] if 0 < street < 4 else '공용 카드'}: {cards}"


def _street(e: dict[str, Any]) -> str:
    """A 7 Poker street's line: its open cards in dealing order ("5구: 민수 K♠, 지수 9◆"), or 7구's hidden
    one."""
    cards = ", ".join(f"{pid} {' '.join(_card(c) for c in up)}" for pid, up in e["up"].items())
    return f"{e['streetName']}: {cards or '히든 카드 한 장씩'}"


def _blind(e: dict[str, Any]) -> str:
    kind = {"sb": "스몰 블라인드", "bb": "빅 블라인드", "entry": "참가 빅 블라인드",
            "straddle": "스트래들"}[e["kind"]]
    return f"{e['from']} {kind} {e['amount']:,}"


def _action(e: dict[str, Any]) -> str:
    word = action_word(e["action"]["type"])
    amount = f" {e['amount']:,}" if e.get("amount") else ""
    if e["action"]["type"] == "nl.raise" and isinstance(e["action"].get("to"), int):
        # the words of the raise button: "벳 20" into no bet, else the total "레이즈 20까지"
        to = e["action"]["to"]
        word, amount = ("벳", f" {to:,}") if e.get("bet") else ("레이즈", f" {to:,}까지")
    suffix = " (올인)" if e.get("allIn") else ""
    auto = " (자동)" if e.get("auto") else ""
    return f"{e['player']} {word}{amount}{suffix}{auto}"


def _drawn(e: dict[str, Any]) -> str:
    names = ("아침", "점심", "저녁")
    label = names[e["drawNo"]] if e["drawNo"] < len(names) else "교환"
    return f"{label}: " + ", ".join(f"{pid} {n}장" for pid, n in e["counts"].items())


def _award(e: dict[str, Any]) -> str:
    why = f": {e['why']}" if e.get("why") else ""
    board = f"(보드 {e['board'] + 1})" if "board" in e else ""  # run it twice: which board won it
    return f"{e['to']} {e['amount']:,}칩 획득{board}{why}"


def _run_twice(e: dict[str, Any]) -> str:
    if e["agreed"]:
        return "런 잇 트와이스: 모두 동의해서 보드를 두 번 돌려요"
    no = [pid for pid, yes in e["votes"].items() if not yes]
    return f"런 잇 트와이스: {', '.join(no)} 거절, 한 번만 돌려요"


def _sit_out(e: dict[str, Any]) -> str:
    if e["sittingOut"]:
        return f"{e['player']} 쉬기 (다음 판부터 빠짐)"
    return f"{e['player']} 복귀 (다음 판부터 참가)"


#: an event type -> its line in the public log (a type not here has no line)
_LINES: dict[str, Callable[[dict[str, Any]], str]] = {
    "handStart": lambda e: f"{e['handNo']}번째 판 시작 (선: {e['dealer']}, 기본 단위 {e['baseUnit']:,})",
    "ante": lambda e: f"{e['from']} {_ANTE_WORDS[e.get('kind')]} {e['amount']:,}",
    "blind": _blind,
    "board": _board,
    "runTwiceOffer": lambda e: "올인: 남은 보드를 두 번 돌릴지(런 잇 트와이스) 정해요",
    "runTwice": _run_twice,
    "action": _action,
    "street": _street,
    "reveal": lambda e: "오픈 카드 공개: " + ", ".join(
        f"{pid} {_card(c)}" for pid, c in e["opens"].items()),
    "drawn": _drawn,
    "declares": lambda e: "선언: " + ", ".join(
        f"{pid} {_SIDE_WORDS[s]}" for pid, s in e["sides"].items()),
    "reshuffle": lambda e: ("버린 카드를 다시 섞었어요" if e["reason"] == "draw"
                            else "인디언 덱을 다시 섞었어요"),
    "uncalled": lambda e: f"{e['to']}에게 받지 않은 {e['amount']:,}칩 반환",
    "showdown": lambda e: "쇼다운: " + ", ".join(
        f"{x['id']} {_named(x)}{_low_words(x)}{_second_words(x)}" for x in e["entries"]),
    "award": _award,
    "shown": lambda e: f"{e['player']} 카드 공개: " + " ".join(_card(c) for c in e["cards"]) + (
        f" ({e['name']})" if e.get("name") else ""),
    "penalty": lambda e: f"{e['from']} 10 다이 벌칙 {e['amount']:,}",
    "carry": lambda e: f"동점: 판돈 {e['amount']:,}칩 다음 판으로 이월",
    "timeout": lambda e: f"{e['player']} 시간 초과",
    "away": lambda e: f"{e['player']} 자리 비움" if e["away"] else f"{e['player']} 돌아옴",
    "left": lambda e: f"{e['player']} 나감",
    "seatJoined": lambda e: f"{e['player']} 자리에 앉음 (다음 판부터 참가, 칩 {e['stack']:,})",
    "sitOut": _sit_out,
    "busted": lambda e: f"{e['player']} 칩 소진",
    "rebuy": lambda e: f"{e['player']} 리바이" if e["accept"] else f"{e['player']} 리바이 안 함",
    "eliminated": lambda e: f"{e['player']} 탈락",
    "blindUp": lambda e: f"기본 단위 {e['baseUnit']:,}로 상승 (레벨 {e['level']})",
    "gameEnd": lambda e: "게임 종료",
    "stakesSet": lambda e: _stakes("다음 판부터", e) if e["baseUnit"] is not None
    else "기본 단위와 시작 칩은 그대로예요",
    "stakesChanged": lambda e: _stakes("이번 판부터", e),
    "endAfterHand": lambda e: "방장이 게임을 마치기로 했어요",
    "timeBank": lambda e: f"{e['player']} 타임뱅크 사용 ({e['seconds']:,}초)",
    "timeBankUsed": lambda e: f"{e['player']} 타임뱅크 {e['seconds']:,}초 씀 (남은 {e['left']:,}초)",
    "timeBankRefill": lambda e: f"타임뱅크 충전: 모두 {e['seconds']:,}초",
    "clockPaused": lambda e: f"서버가 멈춰 있던 {e['seconds']:,}초는 남은 시간에서 빼지 않았어요",
}


def _stakes(when: str, e: dict[str, Any]) -> str:
    """The host's stakes (engine.host): "다음 판부터 기본 단위 20 · 시작 칩 2,000"."""
    return f"{when} 기본 단위 {e['baseUnit']:,} · 시작 칩 {e['startingChips']:,}"


def _named(entry: dict[str, Any]) -> str:
    """A shown hand as its seat names it: the ranked name ("A탑", "K 원페어", "에이스 하이"), where the
    category alone ("탑", "원페어") would not tell two hands of a showdown apart; an entry without a ranked
    name keeps its name."""
    return str(entry.get("rankName") or entry["handName"])


def _low_words(entry: dict[str, Any]) -> str:
    """Hi-lo entries (they carry ``lowBest``: 7 Poker hi-lo and Omaha Hi-Lo) also name the low."""
    if "lowBest" not in entry:
        return ""
    return f" / 로우 {entry['lowName']}" if entry["lowName"] else " / 로우 없음"


def _second_words(entry: dict[str, Any]) -> str:
    """Run it twice: the hand on the second board too ("민수 스트레이트 · 보드2 원페어")."""
    second = entry.get("second")
    return "" if second is None else f" · 보드2 {_named(second)}{_low_words(second)}"


def emit(state: State, events: list[dict[str, Any]], event: dict[str, Any]) -> None:
    """Record a public event and its log line."""
    events.append(event)
    line = _LINES.get(event["type"])
    if line is not None:
        text = line(event)
        hand_no = state.hand.hand_no if state.hand is not None else 0
        state.public_log.append({"handNo": hand_no, "type": event["type"], "text": text})
        if len(state.public_log) > LOG_LIMIT:
            del state.public_log[: len(state.public_log) - LOG_LIMIT]
