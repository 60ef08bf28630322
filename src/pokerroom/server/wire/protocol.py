"""Wire messages (docs/protocol.md): strict client-message models and server-message builders.

Why strict: a message is untrusted input from a browser. Every client message is a pydantic v2 model with
``extra="forbid"`` and strict types, behind a discriminated union on ``type``, so an extra field, a float
where an int belongs, a negative or huge amount, or an unknown action type is refused with a typed error
*before* anything reaches a room. Server messages are plain dicts built here (hot path, no validation
needed) so their shape lives next to the client's.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

import orjson
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    TypeAdapter,
    ValidationError,
    field_validator,
    model_validator,
)

MAX_AMOUNT = 1_000_000_000

Amount = Annotated[int, Field(strict=True, ge=0, le=MAX_AMOUNT)]
CardId = Annotated[int, Field(strict=True, ge=0, le=255)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


# --- actions (poker.md §8.2); the engine decides legality, we only decide shape ------------------------

SimpleType = Literal[
    "k.check", "k.ping", "k.call", "k.ddadang", "k.quarter", "k.half", "k.full", "k.die",
    "nl.fold", "nl.check", "nl.call", "nl.allIn", "ready", "show",
]


class SimpleAction(_Strict):
    type: SimpleType


class RaiseAction(_Strict):
    type: Literal["nl.raise"]
    to: Amount


class ChooseAction(_Strict):
    type: Literal["choose"]
    discardId: CardId
    openId: CardId


class DrawAction(_Strict):
    type: Literal["draw"]
    cardIds: Annotated[list[CardId], Field(max_length=5)]

    @field_validator("cardIds")
    @classmethod
    def _distinct(cls, value: list[int]) -> list[int]:
        if len(set(value)) != len(value):
            raise ValueError("같은 카드를 두 번 고를 수 없어요")
        return value


class DeclareAction(_Strict):
    type: Literal["declare"]
    side: Literal["high", "low", "swing"]


class RebuyAction(_Strict):
    type: Literal["rebuy"]
    accept: bool


class RunTwiceAction(_Strict):
    type: Literal["runTwice"]
    agree: bool


Action = Annotated[
    SimpleAction | RaiseAction | ChooseAction | DrawAction | DeclareAction | RebuyAction | RunTwiceAction,
    Field(discriminator="type"),
]

# --- client -> server --------------------------------------------------------------------------------


class Hello(_Strict):
    type: Literal["hello"]
    token: Annotated[str, Field(min_length=1, max_length=128)] | None = None
    nickname: Annotated[str, Field(min_length=1, max_length=64)] | None = None
    spectate: Literal[True] | None = None
    deltas: bool = False  # receive viewDelta frames after the first full view (docs/protocol.md §2.8)

    @model_validator(mode="after")
    def _exactly_one(self) -> Hello:
        given = [x for x in (self.token, self.nickname, self.spectate) if x is not None]
        if len(given) != 1:
            raise ValueError("token, nickname, spectate 중 하나만 보내 주세요")
        return self


class ActionMsg(_Strict):
    type: Literal["action"]
    clientMsgId: Annotated[str, Field(min_length=1, max_length=64)]
    version: Annotated[int, Field(strict=True, ge=0, le=MAX_AMOUNT)]
    action: Action


class Start(_Strict):
    type: Literal["start"]


#: how a bot plays: the levels of ``pokerroom.bots`` (docs/bots.md "Levels")
BotLevelName = Literal["easy", "normal"]


class AddBot(_Strict):
    type: Literal["addBot"]
    nickname: Annotated[str, Field(min_length=1, max_length=64)] | None = None
    level: BotLevelName = "easy"


class RemoveBot(_Strict):
    type: Literal["removeBot"]
    playerId: Annotated[str, Field(min_length=1, max_length=16)]


class BotLevel(_Strict):
    type: Literal["botLevel"]
    playerId: Annotated[str, Field(min_length=1, max_length=16)]
    level: BotLevelName


class SetOptions(_Strict):
    """Host only, between games: the options of the next ``start`` (validated like room creation)."""

    type: Literal["setOptions"]
    options: dict[str, Any]


class Leave(_Strict):
    type: Literal["leave"]


class RequestSeat(_Strict):
    """Ask for a seat in the running game (a waiting player; a spectator gives a nickname and becomes a
    member with a seat token). The host answers with ``answerSeat``; an accepted seat plays from the next
    hand."""

    type: Literal["requestSeat"]
    nickname: Annotated[str, Field(min_length=1, max_length=64)] | None = None


class AnswerSeat(_Strict):
    """Host only: accept or refuse a pending seat request."""

    type: Literal["answerSeat"]
    playerId: Annotated[str, Field(min_length=1, max_length=16)]
    accept: bool


class SitOut(_Strict):
    """Sit out from the next hand on (자리 비움); chips stay, no antes or blinds."""

    type: Literal["sitOut"]


class SitIn(_Strict):
    """Come back from sitting out: dealt in again from the next hand."""

    type: Literal["sitIn"]


SEAT_MESSAGES = (RequestSeat, AnswerSeat, SitOut, SitIn)


class Ping(_Strict):
    type: Literal["ping"]


HandSeq = Annotated[int, Field(strict=True, ge=1, le=MAX_AMOUNT)]


class History(_Strict):
    """The room's past hands (docs/protocol.md §2.4): the newest page, the page older than hand ``before``,
    or the replay of hand ``hand`` (a hand's ``seq``, as the pages give it)."""

    type: Literal["history"]
    before: HandSeq | None = None
    hand: HandSeq | None = None


class Kick(_Strict):
    """Host only: remove a human player (between hands; mid-hand the seat auto-dies, §5.8)."""

    type: Literal["kick"]
    playerId: Annotated[str, Field(min_length=1, max_length=16)]


class Unban(_Strict):
    """Host only: lift the ban of a member kicked earlier (``playerId`` from the host's ``lobby.bans``)."""

    type: Literal["unban"]
    playerId: Annotated[str, Field(min_length=1, max_length=16)]


class Resync(_Strict):
    """A deltas client lost track (a ``viewDelta`` based on a version it does not hold): send a full view."""

    type: Literal["resync"]


class PreActionMsg(_Strict):
    """My pre-action for my next betting turn (``kind: null`` clears it); ``version`` is the view I chose on,
    so a choice made on a view that has since changed (a raise in flight) is refused, never misapplied."""

    type: Literal["preAction"]
    kind: Literal["checkFold", "call", "callAny", "pingCall"] | None
    version: Annotated[int, Field(strict=True, ge=0, le=MAX_AMOUNT)]


ReactionId = Literal["nice", "hurry", "lol", "wow", "sorry", "gg", "thumbs", "clap", "fire", "cry", "think",
                     "cool"]


class React(_Strict):
    """A fixed reaction (server/room/reactions.py ``REACTIONS``), shown over my seat for a few seconds."""

    type: Literal["react"]
    reaction: ReactionId


class Chat(_Strict):
    """Free text, only while the host has chat on (spectators: 관전자 채팅); cleaned, cut to 40 characters."""

    type: Literal["chat"]
    text: Annotated[str, Field(min_length=1, max_length=200)]


class SocialMsg(_Strict):
    """Host only, any time: table-talk settings of the room."""

    type: Literal["social"]
    chat: bool
    spectatorReactions: bool
    spectatorChat: bool = False  # (a client from before 관전자 채팅 leaves it off)


# --- the host runs the table live (server/room/hostlive.py, docs/protocol.md §2.10) ---------------------


class PauseGame(_Strict):
    """Host only, during a game: stop every clock (turn, hand end, rebuy, bots) until ``resume``."""

    type: Literal["pause"]


class ResumeGame(_Strict):
    """Host only, while paused: every clock goes on with the time it had."""

    type: Literal["resume"]


class SetStakes(_Strict):
    """Host only, during a game: the base unit (ante, or big blind) and the starting stack (rebuys,
    newcomers) from the next hand, checked like the lobby's options."""

    type: Literal["setStakes"]
    baseUnit: Annotated[int, Field(strict=True, ge=1, le=MAX_AMOUNT)]
    startingChips: Annotated[int, Field(strict=True, ge=1, le=MAX_AMOUNT)]


class EndGame(_Strict):
    """Host only, during a game: end it with the normal result (now between hands, else after this hand)."""

    type: Literal["endGame"]


class TransferHost(_Strict):
    """Host only: make another connected human member the host."""

    type: Literal["transferHost"]
    playerId: Annotated[str, Field(min_length=1, max_length=16)]


HOST_LIVE_MESSAGES = (PauseGame, ResumeGame, SetStakes, EndGame, TransferHost)

ClientMessage = Annotated[
    Hello | ActionMsg | Start | AddBot | RemoveBot | BotLevel | SetOptions | Leave | Ping | History
    | RequestSeat | AnswerSeat | SitOut | SitIn | PreActionMsg | React | Chat | SocialMsg | Resync | Kick
    | Unban | PauseGame | ResumeGame | SetStakes | EndGame | TransferHost,
    Field(discriminator="type"),
]
CLIENT_TYPES = frozenset({"hello", "action", "start", "addBot", "removeBot", "botLevel", "setOptions",
                          "leave", "ping", "history", "requestSeat", "answerSeat", "sitOut", "sitIn",
                          "preAction", "react", "chat", "social", "resync", "kick", "unban", "pause",
                          "resume", "setStakes", "endGame", "transferHost"})
_CLIENT_ADAPTER: TypeAdapter[ClientMessage] = TypeAdapter(ClientMessage)


class ProtocolError(Exception):
    """A refusal the server itself makes (not the rules): stable ``code``, Korean ``message``."""

    def __init__(self, code: str, message: str, status: int = 400, retry_after: int | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
        self.retry_after = retry_after  # whole seconds to wait, for a refusal that a wait cures


# Korean texts of the server's own refusals; codes are documented in docs/protocol.md §2.3.
MESSAGES: dict[str, str] = {
    "bad_json": "메시지를 읽을 수 없어요(JSON 형식이 아니에요)",
    "binary_frame": "글자(텍스트) 메시지만 보낼 수 있어요",
    "too_large": "메시지가 너무 커요",
    "bad_message": "메시지 형식이 올바르지 않아요",
    "unknown_type": "알 수 없는 메시지 종류예요",
    "hello_first": "먼저 입장(hello)해 주세요",
    "already_hello": "이미 입장했어요",
    "bad_token": "입장 정보가 맞지 않아요. 새로 참가해 주세요",
    "nickname_taken": "이미 쓰고 있는 닉네임이에요",
    "nickname_invalid": "닉네임은 1~12자로 정해 주세요",
    "room_full": "방이 가득 찼어요",
    "spectators_full": "관전 인원이 가득 찼어요",
    "too_many_tabs": "같은 자리로 너무 많은 창이 열려 있어요",
    "not_host": "방장만 할 수 있어요",
    "spectator": "관전 중에는 행동할 수 없어요",
    "not_seated": "다음 게임부터 참가할 수 있어요",
    "stale_version": "화면이 최신이 아니에요. 다시 골라 주세요",
    "no_game": "진행 중인 게임이 없어요",
    "game_running": "게임이 진행 중이에요",
    "player_count": "인원이 맞지 않아 시작할 수 없어요",
    "no_such_bot": "그런 봇이 없어요",
    "room_not_found": "방을 찾을 수 없어요",
    "too_many_rooms": "지금은 방을 더 만들 수 없어요. 잠시 후 다시 해 주세요",
    "server_full": "서버가 가득 찼어요. 잠시 후 다시 해 주세요",
    "server_moving": "이 서버가 잠시 내려가요. 잠시 후 다시 해 주세요",
    "bad_options": "옵션이 올바르지 않아요",
    "too_many_players": "이 모드에는 지금 인원이 너무 많아요",
    "internal": "서버에서 문제가 생겼어요. 다시 해 주세요",
    "too_deep": "메시지가 너무 깊게 중첩돼 있어요",
    "too_slow": "요청이 너무 느리게 도착했어요. 다시 해 주세요",
    "hello_timeout": "입장(hello)이 너무 늦어 연결을 끊었어요. 다시 들어와 주세요",
    "too_many_rooms_here": "이 주소에서 방을 너무 많이 만들었어요. 잠시 후 다시 해 주세요",
    "history_rate": "지난 판 기록은 잠시 후 다시 볼 수 있어요",
    "no_such_hand": "그 판의 기록이 없어요. 이 방에서 끝난 판만 다시 볼 수 있어요",
    "bad_phh": "PHH 파일을 읽을 수 없어요",
    "hello_rate": "입장을 너무 자주 했어요. 잠시 후 다시 해 주세요",
    "connect_rate": "연결을 너무 자주 새로 열었어요. 잠시 후 다시 해 주세요",
    "too_many_connections": "이 주소에서 연 연결이 너무 많아요. 다른 창을 닫고 다시 해 주세요",
    "store_unavailable": "저장소가 잠시 응답하지 않아요. 잠시 후 다시 해 주세요",
    "store_retrying": "저장소가 잠시 응답하지 않아 게임이 멈춰 있어요. 잠시 후 다시 이어서 진행해요",
    "room_closed": "플레이어가 아무도 없어 방을 닫았어요",
    "kicked": "방장이 나를 방에서 내보냈어요",
    "not_kickable": "내보낼 수 없는 참가자예요",
    "no_such_ban": "내보낸 사람 목록에 없는 참가자예요",
    "nickname_confusable": "다른 참가자와 헷갈리는 닉네임이에요. 다른 닉네임을 골라 주세요",
    "nickname_bot": "봇과 헷갈리는 닉네임('(봇)'으로 끝나는 이름)은 쓸 수 없어요. 다른 닉네임을 골라 주세요",
    "nickname_banned": "방장이 내보낸 참가자의 닉네임이에요. 다른 닉네임을 골라 주세요",
    "banned": "방장이 이 방에서 내보내서 다시 들어올 수 없어요",
    "preaction_unavailable": "지금은 그 행동을 예약할 수 없어요",
    "too_fast": "조금 천천히 보내 주세요",
    "chat_off": "방장이 채팅을 켜지 않았어요",
    "reactions_off": "관전 중에는 방장이 허용해야 반응을 보낼 수 있어요",
    "chat_empty": "보낼 내용이 없어요",
    "nickname_needed": "자리를 요청하려면 닉네임을 정해 주세요",
    "already_seated": "이미 이번 게임의 자리에 앉아 있어요",
    "no_such_request": "그런 자리 요청이 없어요",
    "table_full": "자리가 모두 찼어요",
    "paused": "게임이 일시 정지 중이에요. 방장이 다시 시작하면 이어서 할 수 있어요",
    "already_paused": "이미 일시 정지했어요",
    "not_paused": "일시 정지 중이 아니에요",
    "not_transferable": "방장은 접속 중인 다른 참가자(봇 제외)에게만 넘길 수 있어요",
}


def error(code: str, message: str | None = None, status: int = 400) -> ProtocolError:
    """A :class:`ProtocolError` with the standard Korean text for ``code``."""
    return ProtocolError(code, message or MESSAGES[code], status)


MAX_DEPTH = 32  # client JSON is shallow (options nest 2 levels); deeper nesting is refused, never walked


def depth_ok(value: Any, limit: int = MAX_DEPTH) -> bool:
    """Is ``value`` nested at most ``limit`` levels? Iterative, so it never recurses itself: a 3 KB message
    of 1,500 nested arrays must get a Korean error, not a ``RecursionError`` deeper in."""
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if depth > limit:
            return False
        if isinstance(item, dict):
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, depth + 1) for v in item)
    return True


def _field_path(err: Any) -> str:
    return ".".join(str(p) for p in err.get("loc", ()) if not isinstance(p, int))


def parse_client_message(text: str) -> ClientMessage:
    """Parse one text frame into a client message or raise a typed :class:`ProtocolError`.

    JSON is decoded first so malformed JSON, a non-object and an unknown ``type`` each get their own code.
    """
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise error("bad_json") from None
    return client_message_from(data)


def client_message_from(data: Any) -> ClientMessage:
    """A client message from its JSON already decoded, with the checks and typed errors of
    :func:`parse_client_message` (a cluster node relays a message decoded, so its owner reads JSON once)."""
    if not isinstance(data, dict):
        raise error("bad_message", "메시지는 JSON 객체여야 해요")
    if not depth_ok(data):
        raise error("too_deep")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in CLIENT_TYPES:
        raise error("unknown_type")
    try:
        return _CLIENT_ADAPTER.validate_python(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = _field_path(first)
        raise error("bad_message", f"메시지 형식이 올바르지 않아요({where})" if where else None) from None


#: Actions of the simultaneous decisions (docs/protocol.md §2.1): each seat answers for itself and the order
#: of the answers changes nothing (``ready`` at a hand's end, a rebuy answer, the choice, draw and declare
#: phases). Such an action is accepted against an older version as long as only actions of this set were
#: applied since that version (``Room.settled_version``) and the engine still finds it legal for the seat
#: (the run-it-twice yes/no too: every answer is secret until all are in, so their order changes nothing);
#: before, six ``ready``s raced for one version at every hand's end (5+4+3+2+1 refusals, each a parse, an
#: error frame and a resend: more ``stale_version`` refusals than accepted actions under load, issue 13).
COMMUTING_ACTIONS = frozenset({"ready", "rebuy", "choose", "draw", "declare", "runTwice"})


def commutes(action: dict[str, Any] | None) -> bool:
    """Is ``action`` (an engine wire dict; None: a change without one) one of :data:`COMMUTING_ACTIONS`?"""
    return action is not None and action.get("type") in COMMUTING_ACTIONS


def action_dict(msg: ActionMsg) -> dict[str, Any]:
    """The engine's wire dict of a validated action."""
    return msg.action.model_dump()


# --- server -> client --------------------------------------------------------------------------------


def dumps(obj: object) -> str:
    """Compact JSON through orjson: encoding views was the largest single cost of a change (issue 13), and
    orjson does it several times faster than the standard library. UTF-8, so Korean text is no longer
    ``\\uXXXX``-escaped (smaller frames). Non-string keys are written as strings, as ``json`` did."""
    return orjson.dumps(obj, option=orjson.OPT_NON_STR_KEYS).decode()


def error_msg(code: str, message: str, client_msg_id: str | None = None,
              retry_after: int | None = None) -> dict[str, Any]:
    """``retryAfter`` (whole seconds) only on a refusal that waiting cures (a rate)."""
    msg: dict[str, Any] = {"type": "error", "code": code, "message": message, "clientMsgId": client_msg_id}
    if retry_after is not None:
        msg["retryAfter"] = retry_after
    return msg


def ack_msg(client_msg_id: str, version: int) -> dict[str, Any]:
    return {"type": "ack", "clientMsgId": client_msg_id, "version": version}


def view_msg(version: int, view: dict[str, Any], server_now: int,
             seat: dict[str, Any] | None = None) -> dict[str, Any]:
    """``serverNow`` (the server's epoch ms when sending) lets a client whose clock is off still count down to
    ``view.deadlineAt``, which is in server time. ``view`` stays the last key (see :class:`SharedEncoder`).

    ``seat``: what the *room* (not the engine) keeps for this player's seat — the pre-action (docs/protocol.md
    §2.6) — beside the engine's view, so ``view`` stays exactly ``engine.view(state, viewer)``."""
    if seat is None:
        return {"type": "view", "version": version, "serverNow": server_now, "view": view}
    return {"type": "view", "version": version, "serverNow": server_now, "seat": seat, "view": view}


def events_msg(version: int, events: list[dict[str, Any]]) -> dict[str, Any]:
    return {"type": "events", "version": version, "events": events}


def result_msg(version: int, result: dict[str, Any]) -> dict[str, Any]:
    return {"type": "result", "version": version, "result": result}


def ledger_msg(version: int, ledger: dict[str, Any]) -> dict[str, Any]:
    """The room's ledger (docs/protocol.md §2.9): public, the same frame for every connection."""
    return {"type": "ledger", "version": version, "ledger": ledger}


def welcome_msg(
    code: str, role: str, player_id: str | None, version: int, token: str | None = None
) -> dict[str, Any]:
    msg: dict[str, Any] = {"type": "welcome", "code": code, "role": role, "playerId": player_id,
                           "version": version}
    if token is not None:
        msg["token"] = token
    return msg


def seat_answer_msg(player_id: str, accept: bool) -> dict[str, Any]:
    """To the asking player's sockets: the host's answer to their seat request."""
    return {"type": "seatAnswer", "playerId": player_id, "accept": accept}


def history_msg(hands: list[dict[str, Any]], before: int | None = None, more: bool = False) -> dict[str, Any]:
    """A page of past hands, newest first: the newest (``before`` None) or those older than ``before``;
    ``more``: older hands remain (ask with ``before`` = the last hand's ``seq``)."""
    return {"type": "history", "hands": hands, "before": before, "more": more}


def replay_msg(replay: dict[str, Any]) -> dict[str, Any]:
    """One hand's replay (``server/wire/replays.py``), to the one who asked (a ``history`` answer too: the
    same rates and byte budget)."""
    return {"type": "history", "replay": replay}


def notice_msg(code: str, message: str) -> dict[str, Any]:
    """Something every connection of the room should know (a kick, the store being away): Korean text."""
    return {"type": "notice", "code": code, "message": message}


def pong_msg(server_now: int) -> dict[str, Any]:
    return {"type": "pong", "serverNow": server_now}


def route_msg(node: str) -> dict[str, Any]:
    """A cluster node that relays this socket names the room's owner, for a proxy that routes ``?node=``."""
    return {"type": "route", "node": node}


def node_msg(node: str, others: list[str]) -> dict[str, Any]:
    """A cluster node names itself and the other live nodes to a new socket, for a proxy that routes
    ``?node=``: a client that finds this node stopped can ask for another instead of trying it again."""
    return {"type": "node", "node": node, "others": others}


class SharedEncoder:
    """Encodes the views of one change, serialising the parts every viewer shares only once.

    Why: ``publicLog`` (up to 100 entries) is about half of a view and identical for every viewer, and
    encoding views is one of the largest costs of a change. The result is byte-for-byte the JSON that
    ``dumps(view_msg(...))`` gives with ``publicLog`` as the view's last key.
    """

    SHARED = "publicLog"

    def __init__(self) -> None:
        self._value: Any = None
        self._text: str | None = None

    def view_text(self, version: int, view: dict[str, Any], server_now: int,
                  seat: dict[str, Any] | None = None) -> str:
        if self.SHARED not in view or len(view) < 2:
            return dumps(view_msg(version, view, server_now, seat))
        rest = dict(view)
        value = rest.pop(self.SHARED)
        if self._text is None or (value is not self._value and value != self._value):
            self._value, self._text = value, dumps(value)
        # ends with the closing braces of view and message
        head = dumps(view_msg(version, rest, server_now, seat))
        return f'{head[:-2]},"{self.SHARED}":{self._text}}}}}'

