"""The plain data of one betting round, and the Korean refusal messages of this package.

Rules of this module:

* Everything here is a plain, mutable dataclass the caller owns (the engine deep-copies its state before an
  action, so mutating in place is safe). Amounts are ``int`` chips only; no floats anywhere.
* ``committed_round`` counts what a bettor put in during *this* round (posted blinds included, antes
  excluded); ``committed_total`` counts the whole hand (antes and blinds included). ``pot`` (§5.2) is
  ``sum(committed_total) + dead``.
* A bettor "can act" when it has not folded, is not all-in and still has chips. Only bettors named in the
  round's ``order`` are ever asked to act.
* The ``bettors`` argument of every function may be a mapping ``id -> Bettor`` or any iterable of
  :class:`Bettor`; the objects themselves are mutated, so either form works for the caller.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Literal, TypeAlias

BettingSystem: TypeAlias = Literal["korean", "noLimit", "potLimit"]
KoreanMaxRaise: TypeAlias = Literal["half", "full"]


@dataclass
class Bettor:
    """One player's betting situation in this hand (the engine keeps one per hand player)."""

    id: str
    stack: int
    committed_round: int = 0
    committed_total: int = 0
    folded: bool = False
    all_in: bool = False
    acted: bool = False
    raised: bool = False
    locked: bool = False
    acted_at_bet: int = 0
    last_action: str | None = None

    def clone(self) -> Bettor:
        """A copy (every field is immutable, so this is a full copy); written out so it stays cheap."""
        return Bettor(self.id, self.stack, self.committed_round, self.committed_total, self.folded,
                      self.all_in, self.acted, self.raised, self.locked, self.acted_at_bet, self.last_action)


@dataclass
class BettingRound:
    """One betting round: whose turn it is and the numbers the §5.2/§5.3 formulas need."""

    system: BettingSystem
    base_unit: int
    korean_max_raise: KoreanMaxRaise
    order: list[str]
    to_act: str | None
    current_bet: int
    last_raise_size: int
    opened: bool
    dead: int = 0
    #: NL/PL (addition to the contract, defaulted): ``current_bet`` right after the last *full* raise, or at
    #: round start. An incomplete all-in reopens betting for a bettor who already acted only when
    #: ``current_bet - max(acted_at_bet, full_bet) >= last_raise_size`` (poker.md §5.3 and its §10 case).
    full_bet: int = 0
    #: House rule (docs/rules-extensions.md, "491/591 룰"): while nobody has bet this round (``opened`` is
    #: false), the only wire type besides die that may open it, e.g. ``"k.half"``; None = no restriction.
    opening_only: str | None = None
    #: House rule "맥스 베팅 상한": the most chips one bet or raise may add above the amount to call
    #: (0 = no cap). Korean sizes above it shrink to it; NL/PL ``to`` may not exceed ``current_bet + cap``.
    bet_cap: int = 0
    #: House rule "잭스 오어 베터": while the round is unopened only these bettors may put chips in (the
    #: others may check or fold/die); None = anybody may open.
    may_open: list[str] | None = None

    def clone(self) -> BettingRound:
        """A copy with its own ``order`` list (the only mutable field)."""
        return BettingRound(self.system, self.base_unit, self.korean_max_raise, list(self.order), self.to_act,
                            self.current_bet, self.last_raise_size, self.opened, self.dead, self.full_bet,
                            self.opening_only, self.bet_cap,
                            None if self.may_open is None else list(self.may_open))


@dataclass
class ActionResult:
    """What one applied action did, so the engine can emit events and decide the next step."""

    moved: int
    all_in: bool
    round_over: bool
    one_left: bool
    betting_closed: bool


Bettors: TypeAlias = Mapping[str, Bettor] | Iterable[Bettor]


def as_table(bettors: Bettors) -> dict[str, Bettor]:
    """Normalise the caller's collection to ``id -> Bettor`` (same objects, so mutations are shared)."""
    if type(bettors) is dict:
        return bettors  # already ``id -> Bettor`` (the engine's case): no copy on the hot path
    if isinstance(bettors, Mapping):
        return {b.id: b for b in bettors.values()}
    return {b.id: b for b in bettors}


def can_act(b: Bettor) -> bool:
    """A bettor who may still be asked for a decision in a betting round."""
    return not b.folded and not b.all_in and b.stack > 0


# Refusals of this package that poker.md §8.2 does not word itself, in the same voice.
NOT_IN_HAND = ("not_in_hand", "이번 판에 참가하고 있지 않아요")
ALREADY_ALL_IN = ("already_all_in", "이미 올인했어요")
BAD_ACTION = ("bad_action", "행동 형식이 올바르지 않아요")
UNKNOWN_ACTION = ("unknown_action", "알 수 없는 행동이에요")
WRONG_SYSTEM = ("wrong_betting_system", "이 방의 베팅 방식에서는 쓸 수 없는 행동이에요")
NOTHING_TO_CALL = ("nothing_to_call", "콜할 금액이 없어요(체크할 수 있어요)")
CANNOT_PING = ("cannot_ping", "이미 누가 걸어서 삥을 할 수 없어요")
CANNOT_DDADANG = ("cannot_ddadang", "따당은 앞사람이 건 금액이 있을 때만 할 수 있어요")
FULL_NOT_ALLOWED = ("full_not_allowed", "풀 베팅은 이 방에서 허용되지 않아요(하프까지 가능)")
SHORT_TO_RAISE = ("short_to_raise", "칩이 모자라서 더 올릴 수 없어요(콜 또는 다이만 가능)")
NO_ONE_TO_RAISE = ("no_one_to_raise", "더 받을 수 있는 사람이 없어서 올릴 수 없어요(콜 또는 다이만 가능)")
BAD_AMOUNT = ("bad_amount", "레이즈 금액(to)은 0 이상의 정수로 보내 주세요")
NO_CHIPS = ("no_chips", "남은 칩이 없어요")
RULE_491 = ("rule_491", "491 룰: 4구·5구 첫 베팅은 하프 또는 다이만 할 수 있어요")
NO_OPENERS = ("no_openers", "잭스 오어 베터: J 원페어 이상이 있어야 첫 베팅을 열 수 있어요")


def min_bet_message(amount: int) -> tuple[str, str]:
    """("raise_too_small", "최소 벳은 10이에요"): the first bet of a round has its own word (§5.3)."""
    return ("raise_too_small", f"최소 벳은 {amount:,}이에요")


def pot_limit_message(amount: int) -> tuple[str, str]:
    """("pot_limit_exceeded", "팟리밋 최대 레이즈는 160이에요"), also used to refuse a too-big PL all-in."""
    return ("pot_limit_exceeded", f"팟리밋 최대 레이즈는 {amount:,}이에요")


def stack_limit_message(amount: int) -> tuple[str, str]:
    """("raise_too_large", "가진 칩으로는 최대 300까지 올릴 수 있어요")."""
    return ("raise_too_large", f"가진 칩으로는 최대 {amount:,}까지 올릴 수 있어요")


def bet_cap_message(amount: int) -> tuple[str, str]:
    """("bet_cap_exceeded", "맥스 베팅 상한 때문에 최대 160까지만 올릴 수 있어요")."""
    return ("bet_cap_exceeded", f"맥스 베팅 상한 때문에 최대 {amount:,}까지만 올릴 수 있어요")
