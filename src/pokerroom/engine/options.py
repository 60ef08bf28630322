"""Room options (poker.md §2.2) and the player range of each mode (§2.1).

Rules:
- Every option has a fixed set of choices (Literal types) and the spec's default.
- ``baseUnit * 20 > startingChips`` is refused: a stack must hold at least twenty base units.
- ``omahaHiLo`` (Omaha Hi-Lo, eight or better; docs/rules-extensions.md) only matters in ``omaha``;
- ``hiLo*`` only matter in ``sevenHiLo``, ``drawLimit`` only in ``fiveDraw``, ``indian*`` only in ``indian``;
  elsewhere they are accepted and ignored (the engine never reads them).
- House rules of docs/rules-extensions.md, all off by default: ``rule491`` (491/591 룰) only matters in
  ``sevenPoker``/``sevenHiLo`` with Korean betting, ``betCap`` (맥스 베팅 상한, a multiple of the current base
  unit) in every mode and betting system, ``badugiHigh`` (하이 바둑이) only in ``badugi``, ``jacksOrBetter``
  (잭스 오어 베터) only in ``fiveDraw``; ``ante``/``antePercent`` (앤티, 빅 블라인드 앤티), ``straddle``
  (스트래들) and ``runItTwice`` (런 잇 트와이스) only in ``holdem``/``omaha``, any betting system;
  like the other mode-specific options they are accepted and ignored
  where they do not apply (:func:`rule491_applies`, :func:`ante_kind`).
- ``timeBank`` (타임뱅크, seconds; 0 = off, the default) and ``timeBankEvery`` (refilled every N hands; 0 =
  never): extra seconds a betting turn spends before it times out, every mode (engine.time_bank).
- ``betting="auto"`` resolves to the mode's default: holdem → noLimit, omaha → potLimit, indian → noLimit,
  everything else → korean (:func:`resolved_betting`).
- The player range is 2..10 for holdem/omaha, 2..10 for Indian with one card from the 52-card deck, 2..6
  otherwise.

Errors are Korean because the lobby shows them as they are. JSON uses camelCase; Python code may populate by
field name too.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, TypeVar

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationError, model_validator

from pokerroom.rejections import Rejected

Mode = Literal["holdem", "omaha", "sevenPoker", "sevenHiLo", "badugi", "fiveDraw", "indian"]
BettingChoice = Literal["auto", "korean", "noLimit", "potLimit"]
Betting = Literal["korean", "noLimit", "potLimit"]

MODES: tuple[Mode, ...] = ("holdem", "omaha", "sevenPoker", "sevenHiLo", "badugi", "fiveDraw", "indian")

#: Korean display names (§2.1).
MODE_NAMES: dict[str, str] = {
    "holdem": "텍사스 홀덤",
    "omaha": "오마하",
    "sevenPoker": "7포커",
    "sevenHiLo": "7포커 하이로우",
    "badugi": "바둑이",
    "fiveDraw": "5카드 드로우",
    "indian": "인디언 포커",
}


def _exact_int(value: Any) -> Any:
    """A number option must be a JSON integer: 5.0, "5" and true are refused (pydantic's Literal would
    accept 5.0 and true because they compare equal to 5 and 1)."""
    if type(value) is not int:
        raise ValueError("integer expected")
    return value


def _exact_bool(value: Any) -> Any:
    """A switch must be a JSON boolean: "yes", 1 and null are refused."""
    if type(value) is not bool:
        raise ValueError("boolean expected")
    return value


_T = TypeVar("_T")
IntChoice = Annotated[_T, BeforeValidator(_exact_int)]
Switch = Annotated[bool, BeforeValidator(_exact_bool)]


class PokerOptions(BaseModel):
    """§2.2 as a frozen pydantic model. Unknown keys are refused so a typo never silently falls back."""

    model_config = ConfigDict(populate_by_name=True, frozen=True, extra="forbid", strict=False)

    mode: Mode = "sevenPoker"
    betting: BettingChoice = "auto"
    starting_chips: IntChoice[Literal[500, 1000, 2000, 5000]] = Field(1000, alias="startingChips")
    base_unit: IntChoice[Literal[2, 10, 20, 50]] = Field(10, alias="baseUnit")
    korean_max_raise: Literal["half", "full"] = Field("half", alias="koreanMaxRaise")
    end_condition: Literal["hands", "lastStanding"] = Field("hands", alias="endCondition")
    hand_limit: IntChoice[Literal[10, 20, 30, 50]] = Field(20, alias="handLimit")
    blind_up_every: IntChoice[Literal[0, 5, 10, 15]] = Field(0, alias="blindUpEvery")
    rebuy: Literal["off", "limited", "unlimited"] = "unlimited"
    rebuy_limit: IntChoice[Literal[1, 2, 3]] = Field(1, alias="rebuyLimit")
    turn_seconds: IntChoice[Literal[15, 20, 30, 60]] = Field(20, alias="turnSeconds")
    dealer_rule: Literal["rotate", "winner"] = Field("rotate", alias="dealerRule")
    hints: Switch = True
    hi_lo_low: Literal["korean", "aceToFive"] = Field("korean", alias="hiLoLow")
    hi_lo_qualifier: Literal["none", "eight"] = Field("none", alias="hiLoQualifier")
    draw_limit: Literal["any", "three"] = Field("any", alias="drawLimit")
    indian_cards: IntChoice[Literal[1, 2]] = Field(1, alias="indianCards")
    indian_deck: Literal["d20", "d52"] = Field("d20", alias="indianDeck")
    indian_fold_penalty: Switch = Field(True, alias="indianFoldPenalty")
    indian_tie: Literal["carry", "split"] = Field("carry", alias="indianTie")
    indian_reshuffle: Literal["whenEmpty", "everyHand"] = Field("whenEmpty", alias="indianReshuffle")
    omaha_hi_lo: Switch = Field(False, alias="omahaHiLo")
    rule491: Switch = Field(False, alias="rule491")
    bet_cap: IntChoice[Literal[0, 10, 20, 50, 100]] = Field(0, alias="betCap")
    badugi_high: Switch = Field(False, alias="badugiHigh")
    jacks_or_better: Switch = Field(False, alias="jacksOrBetter")
    ante: Literal["none", "everyone", "bigBlind"] = "none"
    ante_percent: IntChoice[Literal[10, 25, 50, 100, 150]] = Field(100, alias="antePercent")
    straddle: Switch = False
    run_it_twice: Switch = Field(False, alias="runItTwice")
    time_bank: IntChoice[Literal[0, 30, 60, 120]] = Field(0, alias="timeBank")
    time_bank_every: IntChoice[Literal[0, 5, 10, 20]] = Field(10, alias="timeBankEvery")

    @model_validator(mode="after")
    def _check_base_unit(self) -> PokerOptions:
        if self.base_unit * 20 > self.starting_chips:
            raise ValueError(
                f"시작 칩은 기본 단위의 20배 이상이어야 해요(기본 단위 {self.base_unit}이면 "
                f"{self.base_unit * 20:,}칩 이상)"
            )
        return self

    def to_json(self) -> dict[str, Any]:
        """camelCase, JSON-ready."""
        return self.model_dump(by_alias=True)

    @classmethod
    def from_json(cls, data: dict[str, Any] | None) -> PokerOptions:
        """Validate wire options; raises :class:`Rejected` ("bad_options") with a Korean reason."""
        try:
            return cls.model_validate(data or {})
        except ValidationError as exc:
            raise Rejected("bad_options", _korean_error(exc)) from None


#: Korean refusals of the house-rule options, named for what the player can pick (docs/rules-extensions.md).
_HOUSE_RULE_ERRORS: dict[str, str] = {
    "rule491": "491 룰(rule491)은 켬(true) 또는 끔(false)만 고를 수 있어요",
    "betCap": "맥스 베팅 상한(betCap)은 0(없음), 10, 20, 50, 100(기본 단위의 배수) 중에서 골라 주세요",
    "badugiHigh": "하이 바둑이(badugiHigh)는 켬(true) 또는 끔(false)만 고를 수 있어요",
    "jacksOrBetter": "잭스 오어 베터(jacksOrBetter)는 켬(true) 또는 끔(false)만 고를 수 있어요",
    "ante": "앤티(ante)는 none(없음), everyone(모두 앤티), bigBlind(빅 블라인드 앤티) 중에서 골라 주세요",
    "antePercent": "앤티 크기(antePercent)는 빅 블라인드의 10, 25, 50, 100, 150(%) 중에서 골라 주세요",
    "straddle": "스트래들(straddle)은 켬(true) 또는 끔(false)만 고를 수 있어요",
    "runItTwice": "런 잇 트와이스(runItTwice)는 켬(true) 또는 끔(false)만 고를 수 있어요",
    "timeBank": "타임뱅크(timeBank)는 0(없음), 30, 60, 120(초) 중에서 골라 주세요",
    "timeBankEvery": "타임뱅크 충전(timeBankEvery)은 0(충전 없음), 5, 10, 20(판마다) 중에서 골라 주세요",
}


def _korean_error(exc: ValidationError) -> str:
    first = exc.errors()[0]
    msg = str(first.get("msg", ""))
    if "시작 칩" in msg:
        return msg.removeprefix("Value error, ")
    loc = ".".join(str(p) for p in first.get("loc", ()))
    if first.get("type") == "extra_forbidden":
        return f"알 수 없는 옵션이에요: {loc}"
    if loc in _HOUSE_RULE_ERRORS:
        return _HOUSE_RULE_ERRORS[loc]
    return f"옵션 값이 올바르지 않아요: {loc}"


def resolved_betting(options: PokerOptions) -> Betting:
    """``auto`` → the mode's own system (§2.2)."""
    if options.betting != "auto":
        return options.betting
    if options.mode == "omaha":
        return "potLimit"
    if options.mode in ("holdem", "indian"):
        return "noLimit"
    return "korean"


def player_range(options: PokerOptions) -> tuple[int, int]:
    """(min, max) players for these options (§2.1, §2.2)."""
    if options.mode in ("holdem", "omaha"):
        return (2, 10)
    if options.mode == "indian" and options.indian_cards == 1 and options.indian_deck == "d52":
        return (2, 10)
    return (2, 6)


def omaha_hi_lo(options: PokerOptions) -> bool:
    """Omaha Hi-Lo, eight or better: the option on, in ``omaha`` (ignored elsewhere like ``hiLo*``)."""
    return options.mode == "omaha" and options.omaha_hi_lo


def uses_blinds(options: PokerOptions) -> bool:
    """Blinds only in the community-card modes, whatever the betting system (§2.1)."""
    return options.mode in ("holdem", "omaha")


def rule491_applies(options: PokerOptions) -> bool:
    """491/591 룰 binds only Korean betting in the 7 Poker modes (its 4구/5구 are stud streets)."""
    return (options.rule491 and options.mode in ("sevenPoker", "sevenHiLo")
            and resolved_betting(options) == "korean")


#: The 491/591 rule's streets: 4구 and 5구, the first two stud betting rounds.
RULE491_STREETS: tuple[int, ...] = (0, 1)


def jacks_or_better_applies(options: PokerOptions) -> bool:
    """잭스 오어 베터 is an opening requirement of five-card draw only (any betting system)."""
    return options.jacks_or_better and options.mode == "fiveDraw"


# ---------------------------------------------------------------------------------------------------------
# Hold'em and Omaha house options (docs/rules-extensions.md): the blind games only, any betting system.


def ante_kind(options: PokerOptions) -> Literal["everyone", "bigBlind"] | None:
    """Which ante a blind game posts (None: none). Ante modes already ante ``baseUnit`` (§5.1 step 4), so the
    option means nothing there and is ignored like ``hiLo*`` outside hi-lo."""
    if options.ante == "none" or not uses_blinds(options):
        return None
    return options.ante


def ante_amount(options: PokerOptions, base_unit: int) -> int:
    """The ante in chips at the current big blind: ``antePercent`` of it, rounded down, at least 1 chip (so
    it follows the blind levels like the blinds do)."""
    return max(1, base_unit * options.ante_percent // 100)


def straddle_applies(options: PokerOptions) -> bool:
    """스트래들: the seat after the big blind posts twice the big blind in every hand of four or more."""
    return options.straddle and uses_blinds(options)


#: The straddle in big blinds (a live blind raise: the usual "UTG straddle" of home games).
STRADDLE_BLINDS = 2


def run_it_twice_applies(options: PokerOptions) -> bool:
    """런 잇 트와이스: offered when betting is closed before the river in a blind game."""
    return options.run_it_twice and uses_blinds(options)
