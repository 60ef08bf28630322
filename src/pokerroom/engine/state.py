"""The full server-side game state (poker.md §8.1) as plain dataclasses, with JSON and a cheap copy.

Why it looks like this:
- ``apply`` must never mutate its input, so every action works on :meth:`State.clone`, a hand-written copy
  that duplicates every mutable container (cards are frozen values and are shared). It is much cheaper than
  ``copy.deepcopy`` or a JSON round trip, which matters for the benchmark and the property runs.
- The state must survive a restart mid-hand, rng included: :meth:`State.to_json` / :meth:`State.from_json`
  round-trip everything, and :func:`state_hash` (sha256 of canonical JSON) is what determinism tests compare.
- Betting objects (``Bettor``, ``BettingRound``, ``Pot``) belong to :mod:`pokerroom.betting`; they are kept as
  they are and serialised field by field, so new defaulted fields there need no change here.
- Everything secret (deck, rng, hole cards, choice discards) lives here and is only ever exposed through
  :mod:`pokerroom.engine.view`, which whitelists.
"""

from __future__ import annotations

import copy
import dataclasses
import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

from pokerroom.betting import BettingRound, Bettor, Pot
from pokerroom.cards import Card
from pokerroom.engine.options import Betting, PokerOptions
from pokerroom.rng import DealRng

JSON = dict[str, Any]


def cards_to_json(cards: list[Card]) -> list[JSON]:
    return [c.to_json() for c in cards]


def cards_from_json(data: list[JSON]) -> list[Card]:
    return [Card.from_json(c) for c in data]


def _card_or_none(data: JSON | None) -> Card | None:
    return None if data is None else Card.from_json(data)


@dataclass(slots=True)
class Seat:
    """A seated player across hands (§8.1 SeatState)."""

    id: str
    seat: int
    stack: int
    rebuys: int = 0
    status: str = "playing"  # playing | busted | eliminated | left
    away: bool = False
    timeouts_in_row: int = 0
    eliminated_at_hand: int | None = None
    stack_at_hand_start: int = 0
    rebuy_decided: bool = False  # phase=rebuy: answered (the pending list keeps the order)
    sitting_out: bool = False  # chose to sit out: not dealt in from the next hand (engine.seating)
    entry_due: bool = False  # joined or came back: blind modes post an entry big blind in the next hand
    joined_at_hand: int | None = None  # a late joiner: hands played before they sat down (None: from setup)
    # Chips given to the seat, kept only once the host changed the starting stack mid-game (engine.host):
    # None means "startingChips" (and "startingChips x rebuys"), so a game with one stack keeps its JSON.
    start_chips: int | None = None
    rebuy_chips: int | None = None
    # The time bank left in ms (engine.time_bank); None while the option is off (such games keep their JSON).
    bank_ms: int | None = None

    def clone(self) -> Seat:
        return Seat(self.id, self.seat, self.stack, self.rebuys, self.status, self.away, self.timeouts_in_row,
                    self.eliminated_at_hand, self.stack_at_hand_start, self.rebuy_decided, self.sitting_out,
                    self.entry_due, self.joined_at_hand, self.start_chips, self.rebuy_chips, self.bank_ms)

    def to_json(self) -> JSON:
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)
                if f.name not in _SEAT_OPTIONAL or getattr(self, f.name) is not None}

    @staticmethod
    def from_json(data: JSON) -> Seat:
        return Seat(**data)


#: Seat fields written only when set (older states, and games whose stack never changed, stay byte-identical)
_SEAT_OPTIONAL = frozenset({"start_chips", "rebuy_chips", "bank_ms"})


@dataclass(slots=True)
class HandPlayer:
    """One player's cards and simultaneous-phase choices in the current hand (betting lives in Bettor)."""

    id: str
    hole: list[Card] = field(default_factory=list)
    up: list[Card] = field(default_factory=list)
    forehead: Card | None = None
    choice: list[Card] | None = None
    chosen: list[int] | None = None  # [discardId, openId] sent, not yet applied
    discarded: Card | None = None  # the choice discard (owner-only)
    draw_pending: list[int] | None = None
    draw_counts: list[int] = field(default_factory=list)
    declare: str | None = None
    ready: bool = False
    shown: bool = False
    forced: str | None = None  # "ante" | "sb" | "bb": the forced bet shown as lastAction before acting

    def clone(self) -> HandPlayer:
        return HandPlayer(
            self.id, list(self.hole), list(self.up), self.forehead,
            None if self.choice is None else list(self.choice),
            None if self.chosen is None else list(self.chosen),
            self.discarded,
            None if self.draw_pending is None else list(self.draw_pending),
            list(self.draw_counts), self.declare, self.ready, self.shown, self.forced,
        )

    def to_json(self) -> JSON:
        return {
            "id": self.id,
            "hole": cards_to_json(self.hole),
            "up": cards_to_json(self.up),
            "forehead": None if self.forehead is None else self.forehead.to_json(),
            "choice": None if self.choice is None else cards_to_json(self.choice),
            "chosen": self.chosen,
            "discarded": None if self.discarded is None else self.discarded.to_json(),
            "draw_pending": self.draw_pending,
            "draw_counts": self.draw_counts,
            "declare": self.declare,
            "ready": self.ready,
            "shown": self.shown,
            "forced": self.forced,
        }

    @staticmethod
    def from_json(d: JSON) -> HandPlayer:
        return HandPlayer(
            id=d["id"],
            hole=cards_from_json(d["hole"]),
            up=cards_from_json(d["up"]),
            forehead=_card_or_none(d["forehead"]),
            choice=None if d["choice"] is None else cards_from_json(d["choice"]),
            chosen=d["chosen"],
            discarded=_card_or_none(d["discarded"]),
            draw_pending=d["draw_pending"],
            draw_counts=list(d["draw_counts"]),
            declare=d["declare"],
            ready=d["ready"],
            shown=d["shown"],
            forced=d["forced"],
        )


def _dc_to_json(obj: Any) -> JSON:
    return {f.name: copy.copy(getattr(obj, f.name)) for f in dataclasses.fields(obj)}


@dataclass
class Hand:
    """The current (or last finished) hand (§8.1 HandState)."""

    hand_no: int
    phase: str  # choice | betting | draw | declare | handEnd (and "deal" while running automatically)
    dealer_seat: int
    order: list[str]  # participants from the seat after the dealer
    players: dict[str, HandPlayer]
    bettors: dict[str, Bettor]
    deck: list[Card] = field(default_factory=list)
    muck: list[Card] = field(default_factory=list)
    board: list[Card] = field(default_factory=list)
    step: int = 0  # index of the next step of the mode's script
    street: int = -1  # betting round index (-1 before the first)
    rnd: BettingRound | None = None
    pots: list[Pot] = field(default_factory=list)
    dead: int = 0  # Indian carry-over in the main pot
    penalties: list[JSON] = field(default_factory=list)
    showdown: list[JSON] | None = None
    awards: list[JSON] | None = None
    winners: list[str] = field(default_factory=list)
    one_left: bool = False
    sb: str | None = None
    bb: str | None = None
    boss: str | None = None
    draw_no: int = -1
    deadline_at: int | None = None  # betting turn / handEnd deadline
    turn_of: str | None = None  # whose betting turn deadline_at measures
    phase_started_at: int = 0  # simultaneous phases: per-player deadlines count from here
    # 잭스 오어 베터 (docs/rules-extensions.md): who opened, the cards that qualified them (shown as proof at
    # the hand's end), and whether nobody opened (the pot carries and the same dealer deals again).
    # Serialised only when set, so states without the house rule keep their exact JSON.
    opener: str | None = None
    opener_cards: list[Card] = field(default_factory=list)
    no_opener: bool = False
    # Hold'em/Omaha house options (docs/rules-extensions.md), serialised only when used, like the above:
    # the antes posted this hand (a big-blind ante is dead money, also counted in ``dead``), who straddled,
    # and run it twice: each deciding player's answer (None: not yet), the outcome, how many board cards
    # both runs share, and the second run's own cards (``board`` is the first run).
    antes: dict[str, int] = field(default_factory=dict)
    straddler: str | None = None
    rit_votes: dict[str, bool | None] | None = None
    rit_agreed: bool | None = None
    rit_shared: int = 0
    board2: list[Card] = field(default_factory=list)
    # The time bank (engine.time_bank): when the player to act started spending it (the turn's own deadline,
    # moved by pauses like the deadline); None when nobody is. Serialised only when set.
    bank_from: int | None = None

    def clone(self) -> Hand:
        # Cards are frozen values and are shared. Pots are rebuilt (never mutated) by build_pots, penalty
        # dicts are only appended, showdown/awards are written once per hand: the lists are copied, the
        # entries shared.
        return Hand(
            self.hand_no, self.phase, self.dealer_seat, list(self.order),
            {k: p.clone() for k, p in self.players.items()},
            {k: b.clone() for k, b in self.bettors.items()},
            list(self.deck), list(self.muck), list(self.board), self.step, self.street,
            None if self.rnd is None else self.rnd.clone(),
            list(self.pots), self.dead, list(self.penalties), self.showdown, self.awards, list(self.winners),
            self.one_left, self.sb, self.bb, self.boss, self.draw_no, self.deadline_at, self.turn_of,
            self.phase_started_at, self.opener, list(self.opener_cards), self.no_opener,
            dict(self.antes), self.straddler, None if self.rit_votes is None else dict(self.rit_votes),
            self.rit_agreed, self.rit_shared, list(self.board2), self.bank_from,
        )

    def to_json(self) -> JSON:
        return {
            "hand_no": self.hand_no,
            "phase": self.phase,
            "dealer_seat": self.dealer_seat,
            "order": list(self.order),
            "players": {k: p.to_json() for k, p in self.players.items()},
            "bettors": {k: _dc_to_json(b) for k, b in self.bettors.items()},
            "deck": cards_to_json(self.deck),
            "muck": cards_to_json(self.muck),
            "board": cards_to_json(self.board),
            "step": self.step,
            "street": self.street,
            "rnd": None if self.rnd is None else _dc_to_json(self.rnd),
            "pots": [{"amount": p.amount, "eligible": list(p.eligible)} for p in self.pots],
            "dead": self.dead,
            "penalties": [dict(p) for p in self.penalties],
            "showdown": copy.deepcopy(self.showdown),
            "awards": copy.deepcopy(self.awards),
            "winners": list(self.winners),
            "one_left": self.one_left,
            "sb": self.sb,
            "bb": self.bb,
            "boss": self.boss,
            "draw_no": self.draw_no,
            "deadline_at": self.deadline_at,
            "turn_of": self.turn_of,
            "phase_started_at": self.phase_started_at,
            **({} if self.opener is None and not self.no_opener else {
                "opener": self.opener, "opener_cards": cards_to_json(self.opener_cards),
                "no_opener": self.no_opener}),
            **({"antes": dict(self.antes)} if self.antes else {}),
            **({"straddler": self.straddler} if self.straddler is not None else {}),
            **({} if self.rit_votes is None else {
                "rit_votes": dict(self.rit_votes), "rit_agreed": self.rit_agreed,
                "rit_shared": self.rit_shared, "board2": cards_to_json(self.board2)}),
            **({"bank_from": self.bank_from} if self.bank_from is not None else {}),
        }

    @staticmethod
    def from_json(d: JSON) -> Hand:
        return Hand(
            hand_no=d["hand_no"],
            phase=d["phase"],
            dealer_seat=d["dealer_seat"],
            order=list(d["order"]),
            players={k: HandPlayer.from_json(p) for k, p in d["players"].items()},
            bettors={k: Bettor(**b) for k, b in d["bettors"].items()},
            deck=cards_from_json(d["deck"]),
            muck=cards_from_json(d["muck"]),
            board=cards_from_json(d["board"]),
            step=d["step"],
            street=d["street"],
            rnd=None if d["rnd"] is None else BettingRound(**{**d["rnd"], "order": list(d["rnd"]["order"])}),
            pots=[Pot(p["amount"], list(p["eligible"])) for p in d["pots"]],
            dead=d["dead"],
            penalties=[dict(p) for p in d["penalties"]],
            showdown=copy.deepcopy(d["showdown"]),
            awards=copy.deepcopy(d["awards"]),
            winners=list(d["winners"]),
            one_left=d["one_left"],
            sb=d["sb"],
            bb=d["bb"],
            boss=d["boss"],
            draw_no=d["draw_no"],
            deadline_at=d["deadline_at"],
            turn_of=d["turn_of"],
            phase_started_at=d["phase_started_at"],
            opener=d.get("opener"),
            opener_cards=cards_from_json(d.get("opener_cards", [])),
            no_opener=d.get("no_opener", False),
            antes=dict(d.get("antes", {})),
            straddler=d.get("straddler"),
            rit_votes=None if d.get("rit_votes") is None else dict(d["rit_votes"]),
            rit_agreed=d.get("rit_agreed"),
            rit_shared=d.get("rit_shared", 0),
            board2=cards_from_json(d.get("board2", [])),
            bank_from=d.get("bank_from"),
        )


@dataclass
class State:
    """The whole game (§8.1 PokerState). Server-side only: never send it to a client, use ``view``."""

    options: PokerOptions
    betting: Betting
    rng: DealRng
    seats: list[Seat]
    base_unit: int
    first_dealer_seat: int
    level: int = 1
    hand: Hand | None = None
    hands_played: int = 0
    carry_over: int = 0
    indian_deck: list[Card] | None = None
    indian_used: list[Card] = field(default_factory=list)
    phase: str = "playing"  # playing | rebuy | finished
    rebuy_pending: list[str] = field(default_factory=list)
    rebuy_deadline_at: int | None = None
    last_winner: str | None = None
    elimination_seq: list[list[str]] = field(default_factory=list)
    public_log: list[JSON] = field(default_factory=list)
    end_reason: str | None = None
    biggest_pot: JSON | None = None  # {"handNo", "amount", "winners"}
    best_hand: JSON | None = None  # {"playerId", "handName", "handNo", "cards": [ids], "board": [ids]}
    # The host's changes waiting for the hand in play to end (engine.host); written only when set.
    next_options: PokerOptions | None = None  # new stakes (base unit, starting stack) from the next hand
    end_after_hand: bool = False  # the host ended the game: no hand after this one

    def clone(self) -> State:
        # The rng is shared: it only advances in pokerroom.engine.deal, which takes its own copy first
        # (deal.own_rng), so a draw on the clone never moves the original's stream. Options are frozen;
        # public log entries and the biggest_pot/best_hand records are never mutated, only replaced.
        return State(
            self.options, self.betting, self.rng, [s.clone() for s in self.seats], self.base_unit,
            self.first_dealer_seat, self.level, None if self.hand is None else self.hand.clone(),
            self.hands_played, self.carry_over, None if self.indian_deck is None else list(self.indian_deck),
            list(self.indian_used), self.phase, list(self.rebuy_pending), self.rebuy_deadline_at,
            self.last_winner, [list(g) for g in self.elimination_seq], list(self.public_log), self.end_reason,
            self.biggest_pot, self.best_hand, self.next_options, self.end_after_hand,
        )

    def seat_of(self, player_id: str) -> Seat | None:
        for s in self.seats:
            if s.id == player_id:
                return s
        return None

    def to_json(self) -> JSON:
        return {
            "options": self.options.to_json(),
            "betting": self.betting,
            "rng": self.rng.to_json(),
            "seats": [s.to_json() for s in self.seats],
            "base_unit": self.base_unit,
            "first_dealer_seat": self.first_dealer_seat,
            "level": self.level,
            "hand": None if self.hand is None else self.hand.to_json(),
            "hands_played": self.hands_played,
            "carry_over": self.carry_over,
            "indian_deck": None if self.indian_deck is None else cards_to_json(self.indian_deck),
            "indian_used": cards_to_json(self.indian_used),
            "phase": self.phase,
            "rebuy_pending": list(self.rebuy_pending),
            "rebuy_deadline_at": self.rebuy_deadline_at,
            "last_winner": self.last_winner,
            "elimination_seq": [list(g) for g in self.elimination_seq],
            "public_log": [dict(e) for e in self.public_log],  # flat entries: a copy each is a deep copy
            "end_reason": self.end_reason,
            "biggest_pot": copy.deepcopy(self.biggest_pot),
            "best_hand": copy.deepcopy(self.best_hand),
            **({} if self.next_options is None else {"next_options": self.next_options.to_json()}),
            **({"end_after_hand": True} if self.end_after_hand else {}),
        }

    @staticmethod
    def from_json(d: JSON) -> State:
        return State(
            options=PokerOptions.model_validate(d["options"]),
            betting=d["betting"],
            rng=DealRng.from_json(d["rng"]),
            seats=[Seat.from_json(s) for s in d["seats"]],
            base_unit=d["base_unit"],
            first_dealer_seat=d["first_dealer_seat"],
            level=d["level"],
            hand=None if d["hand"] is None else Hand.from_json(d["hand"]),
            hands_played=d["hands_played"],
            carry_over=d["carry_over"],
            indian_deck=None if d["indian_deck"] is None else cards_from_json(d["indian_deck"]),
            indian_used=cards_from_json(d["indian_used"]),
            phase=d["phase"],
            rebuy_pending=list(d["rebuy_pending"]),
            rebuy_deadline_at=d["rebuy_deadline_at"],
            last_winner=d["last_winner"],
            elimination_seq=[list(g) for g in d["elimination_seq"]],
            public_log=copy.deepcopy(d["public_log"]),
            end_reason=d["end_reason"],
            biggest_pot=copy.deepcopy(d["biggest_pot"]),
            best_hand=copy.deepcopy(d["best_hand"]),
            next_options=None if d.get("next_options") is None
            else PokerOptions.model_validate(d["next_options"]),
            end_after_hand=bool(d.get("end_after_hand", False)),
        )


def state_hash(state: State) -> str:
    """sha256 of the canonical JSON of the whole state (rng included): equal states, equal hashes."""
    text = json.dumps(state.to_json(), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
