"""PHH import: a Poker Hand History file, read with ``tomllib`` and replayed into a :class:`HandRecord`.

Why a step model of its own rather than the engine: a PHH hand is a real hand from anywhere — antes of any
shape, fractional stacks, dealt cards that are fixed, players the engine never seated — which the engine
(seated players, its own deck and forced bets) cannot be made to play. The model here is the small part of
poker a written hand needs: it applies the file's actions exactly as written (who acts and how much is in
the file; this model does not judge legality), keeps the chips — forced bets, calls, bets raised *to* an
amount, uncalled bets returned at the end of a round — and settles the pots with the project's own pot and
award rules (:mod:`pokerroom.betting`) and hand evaluators (:mod:`pokerroom.hands`). Its output is a record
in the engine's event shapes, so the replay draws an imported hand like any hand of the room.

Variants read: ``NT``/``FT`` (hold'em), ``PO`` and ``FO/8`` (Omaha, hi-lo), ``FB`` (badugi): those the
table can draw and the evaluators can judge. Amounts with decimals are kept exactly, as integers of
``1/scale`` (``phh["scale"]``); the replay divides them back for display and export.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any

from pokerroom import hands as ev
from pokerroom.betting.awards import Award, award_hilo_cards_speak, award_pots
from pokerroom.betting.pots import Pot, build_pots
from pokerroom.cards import Card, parse_card
from pokerroom.hands import ranked_name
from pokerroom.history.record import HandRecord

#: PHH variant -> (mode, betting, hi-lo)
VARIANTS: dict[str, tuple[str, str, bool]] = {
    "NT": ("holdem", "noLimit", False), "FT": ("holdem", "fixedLimit", False),
    "PO": ("omaha", "potLimit", False), "FO/8": ("omaha", "fixedLimit", True),
    "FB": ("badugi", "fixedLimit", False),
}
MAX_BYTES = 65_536
MAX_PLAYERS = 10  # the table's seats
MAX_ACTIONS = 250  # a real hand needs far fewer (the shared hands: 31 at most); each costs a replay step
MAX_SCALE_DIGITS = 4
_STREETS = {"holdem": ("프리플랍", "플랍", "턴", "리버"), "omaha": ("프리플랍", "플랍", "턴", "리버"),
            "badugi": ("1차 베팅", "2차 베팅", "3차 베팅", "4차 베팅")}


class PhhError(ValueError):
    """A file this import cannot read or replay; the message is Korean, for the player who chose it."""


@dataclass
class _Player:
    id: str
    stack: int
    total: int = 0  # chips put into the pots' levels (antes too, unless they are dead money)
    street: int = 0  # chips bet this round
    folded: bool = False
    all_in: bool = False
    hole: list[Card | None] = field(default_factory=list)


def _decimal(value: Any, what: str) -> Decimal:
    if isinstance(value, bool) or not isinstance(value, int | Decimal | str):
        raise PhhError(f"{what} 값이 숫자가 아니에요")
    try:
        out = Decimal(value)
    except InvalidOperation:
        raise PhhError(f"{what} 값이 숫자가 아니에요") from None
    if not out.is_finite() or out < 0 or out > Decimal(10) ** 15:
        raise PhhError(f"{what} 값은 0 이상의 유한한 수여야 해요")
    return out


def _numbers(data: Mapping[str, Any], key: str, n: int) -> list[Decimal]:
    raw = data.get(key)
    if not isinstance(raw, list) or len(raw) != n:
        raise PhhError(f"{key} 는 참가자 수({n})만큼의 숫자 목록이어야 해요")
    return [_decimal(x, key) for x in raw]


def _cards(text: str) -> list[Card | None]:
    """``"AsKd"`` -> cards; ``"??"`` is an unknown card (None)."""
    if len(text) % 2:
        raise PhhError(f"카드를 읽을 수 없어요: {text[:20]}")
    out: list[Card | None] = []
    for i in range(0, len(text), 2):
        part = text[i:i + 2]
        if part == "??":
            out.append(None)
            continue
        try:
            out.append(parse_card(part))
        except ValueError:
            raise PhhError(f"카드를 읽을 수 없어요: {part}") from None
    return out


def _name(value: Any, i: int) -> str:
    text = "".join(ch for ch in str(value) if ch.isprintable()).strip()[:24]
    return text or f"p{i + 1}"


@dataclass
class _Parsed:
    variant: str
    mode: str
    betting: str
    hi_lo: bool
    scale: int
    antes: list[int]
    blinds: list[int]
    stacks: list[int]
    actions: list[list[str]]
    names: list[str]
    trimming: bool
    hand: Any
    finishing: list[int] | None
    fixed: dict[str, int]


def _scale(values: Sequence[Decimal]) -> int:
    for digits in range(MAX_SCALE_DIGITS + 1):
        scale: int = 10 ** digits
        if all((v * scale) == (v * scale).to_integral_value() for v in values):
            return scale
    raise PhhError(f"칩 금액은 소수점 {MAX_SCALE_DIGITS}자리까지만 읽을 수 있어요")


def parse(text: str) -> _Parsed:
    """Read a PHH file's fields (``tomllib``; decimals kept exact) and check what the replay needs."""
    if len(text.encode("utf-8", "surrogatepass")) > MAX_BYTES:
        raise PhhError("PHH 파일이 너무 커요 (64KB까지)")
    try:
        data = tomllib.loads(text, parse_float=Decimal)
    except (tomllib.TOMLDecodeError, UnicodeError, ValueError) as exc:
        raise PhhError(f"PHH(TOML) 형식이 아니에요: {str(exc)[:80]}") from None
    variant = data.get("variant")
    if not isinstance(variant, str) or variant not in VARIANTS:
        known = ", ".join(VARIANTS)
        raise PhhError(f"이 PHH 변형({str(variant)[:10]})은 불러올 수 없어요. 읽을 수 있는 변형: {known}")
    mode, betting, hi_lo = VARIANTS[variant]
    stacks_raw = data.get("starting_stacks")
    n = len(stacks_raw) if isinstance(stacks_raw, list) else 0
    if not 2 <= n <= MAX_PLAYERS:
        raise PhhError(f"참가자는 2~{MAX_PLAYERS}명이어야 해요")
    stacks = _numbers(data, "starting_stacks", n)
    antes = _numbers(data, "antes", n)
    blinds = _numbers(data, "blinds_or_straddles", n) if "blinds_or_straddles" in data else [Decimal(0)] * n
    fixed = {k: _decimal(data[k], k) for k in ("min_bet", "small_bet", "big_bet") if k in data}
    actions_raw = data.get("actions")
    if not isinstance(actions_raw, list) or not all(isinstance(a, str) for a in actions_raw):
        raise PhhError("actions 는 글자 목록이어야 해요")
    if len(actions_raw) > MAX_ACTIONS:
        raise PhhError("행동이 너무 많아요")
    actions = [a.split("#", 1)[0].split() for a in actions_raw]
    actions = [a for a in actions if a]
    amounts = [_decimal(a[2], "cbr") for a in actions if len(a) == 3 and a[1] == "cbr"]
    finishing = _numbers(data, "finishing_stacks", n) if "finishing_stacks" in data else None
    scale = _scale([*stacks, *antes, *blinds, *fixed.values(), *amounts, *(finishing or [])])
    names_raw = data.get("players")
    names = [_name(x, i) for i, x in enumerate(names_raw)] if isinstance(names_raw, list) and \
        len(names_raw) == n else [f"p{i + 1}" for i in range(n)]
    if any(s <= 0 for s in stacks):
        raise PhhError("시작 칩은 0보다 커야 해요")
    return _Parsed(variant, mode, betting, hi_lo, scale, [int(a * scale) for a in antes],
                   [int(b * scale) for b in blinds], [int(s * scale) for s in stacks], actions, names,
                   data.get("ante_trimming_status") is True, data.get("hand"),
                   None if finishing is None else [int(f * scale) for f in finishing],
                   {k: int(v * scale) for k, v in fixed.items()})


class _Replay:
    """The parsed hand played action by action into a record (events in the engine's shapes)."""

    def __init__(self, p: _Parsed) -> None:
        self.p = p
        n = len(p.stacks)
        self.ids = [f"p{i + 1}" for i in range(n)]
        self.players = {pid: _Player(pid, p.stacks[i]) for i, pid in enumerate(self.ids)}
        self.dead = 0  # antes that are dead money (``ante_trimming_status = false``: pokerkit's rule)
        self.board: list[Card] = []
        self.street = 0
        self.round_open = False
        self.draws: dict[str, int] | None = None  # counts of the draw under way
        self.draw_no = 0
        self.ended = False
        self.mucked: list[str] = []  # who threw their hand away at the showdown (``sm`` with no cards)
        base = p.blinds[1] or p.fixed.get("min_bet") or p.fixed.get("small_bet") or 0
        options: dict[str, Any] = {"mode": p.mode, "betting": p.betting, "baseUnit": base, "hints": True}
        if p.hi_lo:
            options["omahaHiLo"] = True
        self.rec = HandRecord(
            hand_no=p.hand if isinstance(p.hand, int) and not isinstance(p.hand, bool) and p.hand > 0 else 1,
            mode=p.mode, betting=p.betting, base_unit=base, small_blind=p.blinds[0] if p.blinds[0] else None,
            dealer=self.ids[-1], order=list(self.ids),
            starting_stacks=dict(zip(self.ids, p.stacks, strict=True)),
            hi_lo=p.hi_lo, options=options,
            phh={"variant": p.variant, "scale": p.scale, "names": p.names, "anteTrimming": p.trimming,
                 "antes": p.antes, "blinds": p.blinds, **p.fixed,
                 **({"hand": p.hand[:40]} if isinstance(p.hand, str) else {})},
        )
        self.rec.ledger = dict(self.rec.starting_stacks)

    # --- events -------------------------------------------------------------------------------------------

    def emit(self, event: dict[str, Any]) -> int:
        self.rec.events.append(event)
        kind = event["type"]
        if kind in ("ante", "blind"):
            self.rec.ledger[event["from"]] -= event["amount"]
        elif kind == "action":
            self.rec.ledger[event["player"]] -= event["amount"]
        elif kind in ("uncalled", "award"):
            self.rec.ledger[event["to"]] += event["amount"]
        return len(self.rec.events) - 1

    def _pay(self, pl: _Player, amount: int, dead: bool = False) -> int:
        paid = min(amount, pl.stack)
        pl.stack -= paid
        if dead:
            self.dead += paid
        else:
            pl.total += paid
        pl.all_in = pl.stack == 0
        return paid

    def _own(self, pid: str, index: int) -> None:
        known = [c for c in self.players[pid].hole if c is not None]
        steps = self.rec.own_steps.setdefault(pid, [])
        if not steps or steps[-1][1] != known:
            steps.append((index, known))

    # --- the hand -----------------------------------------------------------------------------------------

    def forced(self) -> None:
        p, n = self.p, len(self.ids)
        self.emit({"type": "handStart", "handNo": self.rec.hand_no, "dealer": self.ids[-1],
                   "dealerSeat": n - 1,
                   "baseUnit": self.rec.base_unit, "players": list(self.ids)})
        for i, pid in enumerate(self.ids):
            ante = p.antes[(1 - i) if n == 2 else i]  # heads-up: antes and blinds are reversed (PHH)
            if ante:
                pl = self.players[pid]
                paid = self._pay(pl, ante, dead=not p.trimming)
                self.emit({"type": "ante", "from": pid, "amount": paid, "allIn": pl.all_in})
        for i, pid in enumerate(self.ids):
            blind = p.blinds[(1 - i) if n == 2 else i]
            if blind:
                pl = self.players[pid]
                paid = self._pay(pl, blind)
                pl.street += paid
                kind = "sb" if (i == 1 if n == 2 else i == 0) else "bb"
                self.emit({"type": "blind", "from": pid, "kind": kind, "amount": paid, "allIn": pl.all_in})
        self.round_open = True

    def pots(self) -> list[Pot]:
        contributions = [(pl.id, pl.total, pl.folded, pl.all_in) for pl in self.players.values()]
        return build_pots(contributions, self.ids, self.dead)

    def close_round(self) -> None:
        """The betting round ends: the uncalled part of the top bet goes back, the pots are rebuilt."""
        if not self.round_open:
            return
        self.round_open = False
        bets = sorted((pl.street for pl in self.players.values()), reverse=True)
        top = next((pl for pl in self.players.values() if pl.street == bets[0]), None)
        if top is not None and len(bets) > 1 and bets[0] > bets[1]:
            back = bets[0] - bets[1]
            top.stack += back
            top.total -= back
            top.street -= back
            top.all_in = top.stack == 0
            self.emit({"type": "uncalled", "to": top.id, "amount": back})
        for pl in self.players.values():
            pl.street = 0
        pots = [{"amount": pot.amount, "eligible": list(pot.eligible)} for pot in self.pots()]
        self.emit({"type": "roundEnd", "street": self.street, "pots": pots})

    def open_round(self, first: str) -> None:
        if self.round_open:
            return
        self.round_open = True
        names = _STREETS[self.p.mode]
        self.emit({"type": "roundStart", "street": self.street,
                   "streetName": names[self.street] if self.street < len(names) else "", "toAct": first,
                   "boss": None})

    def finish_draw(self) -> None:
        if self.draws is None:
            return
        index = self.emit({"type": "drawn", "counts": dict(self.draws), "drawNo": self.draw_no})
        for pid in self.draws:
            self._own(pid, index)
        self.draws = None
        self.draw_no += 1
        self.street += 1

    def deal_hole(self, pid: str, cards: list[Card | None]) -> None:
        pl = self.players[pid]
        if self.draws is not None:  # the replacements of a draw: dealt face down, counted in ``drawn``
            pl.hole.extend(cards)
            return
        pl.hole.extend(cards)
        index = self.emit({"type": "dealt", "to": pid, "count": len(cards), "target": "hole"})
        self._own(pid, index)

    def deal_board(self, cards: list[Card | None]) -> None:
        if any(c is None for c in cards):
            raise PhhError("공용 카드는 모두 알려져 있어야 해요")
        self.close_round()
        self.street += 1
        known = [c for c in cards if c is not None]
        self.board.extend(known)
        self.emit({"type": "burn"})
        self.emit({"type": "board", "cards": [c.to_json() for c in known], "street": self.street})

    def bet(self, pid: str, verb: str, arg: str | None) -> None:
        pl = self.players[pid]
        if pl.folded:
            raise PhhError(f"{pid} 는 이미 폴드했어요")
        self.finish_draw()
        self.open_round(pid)
        top = max(q.street for q in self.players.values())
        if verb == "f":
            pl.folded = True
            self.emit({"type": "action", "player": pid, "action": {"type": "nl.fold"}, "amount": 0,
                       "allIn": False, "auto": False})
            return
        if verb == "cc":
            paid = self._pay(pl, top - pl.street)
            pl.street += paid
            kind = "nl.check" if paid == 0 else "nl.allIn" if pl.all_in else "nl.call"
            self.emit({"type": "action", "player": pid, "action": {"type": kind}, "amount": paid,
                       "allIn": pl.all_in, "auto": False})
            return
        if arg is None:
            raise PhhError(f"{pid} cbr 에 금액이 없어요")
        to = int(_decimal(arg, "cbr") * self.p.scale)
        if to <= pl.street:
            raise PhhError(f"{pid} cbr {arg}: 이미 낸 금액보다 커야 해요")
        paid = self._pay(pl, to - pl.street)
        pl.street += paid
        action: dict[str, Any] = {"type": "nl.allIn"} if pl.all_in else {"type": "nl.raise", "to": pl.street}
        event = {"type": "action", "player": pid, "action": action, "amount": paid, "allIn": pl.all_in,
                 "auto": False}
        if not pl.all_in:
            event["bet"] = top == 0
        self.emit(event)

    def discard(self, pid: str, arg: str | None) -> None:
        self.close_round()
        pl = self.players[pid]
        gone = _cards(arg) if arg else []
        for card in gone:
            match = next((i for i, c in enumerate(pl.hole) if c == card), None)
            if match is None:
                raise PhhError(f"{pid} 는 버린 카드를 갖고 있지 않아요")
            pl.hole.pop(match)
        if self.draws is None:
            self.draws = {}
        self.draws[pid] = len(gone)
        # the discards ride on the event (a file has no secret from its reader): the export's ``sd``
        cards = [{"hidden": True, "slot": k} if c is None else c.to_json() for k, c in enumerate(gone)]
        self.emit({"type": "drew", "player": pid, "auto": False, "cards": cards})

    def show(self, pid: str, arg: str | None) -> None:
        self.finish_draw()
        self.close_round()
        pl = self.players[pid]
        if not arg:
            pl.folded = True  # a muck: out of every pot
            self.mucked.append(pid)
            self.emit({"type": "mucked", "player": pid})
            return
        cards = _cards(arg)
        if any(c is None for c in cards):
            raise PhhError(f"{pid} 가 보여 준 카드가 모두 알려져 있어야 해요")
        pl.hole = list(cards)
        self.emit({"type": "shown", "player": pid, "cards": [c.to_json() for c in cards if c is not None]})

    def run(self) -> HandRecord:
        self.forced()
        for parts in self.p.actions:
            who, verb = parts[0], parts[1] if len(parts) > 1 else ""
            arg = parts[2] if len(parts) > 2 else None
            if who == "d" and verb == "dh" and arg is not None and len(parts) == 4:
                self.deal_hole(self._pid(arg), _cards(parts[3]))
            elif who == "d" and verb == "db" and arg is not None:
                self.deal_board(_cards(arg))
            elif who.startswith("p") and verb in ("f", "cc", "cbr"):
                self.bet(self._pid(who), verb, arg)
            elif who.startswith("p") and verb == "sd":
                self.discard(self._pid(who), arg)
            elif who.startswith("p") and verb == "sm":
                self.show(self._pid(who), arg)
            else:
                raise PhhError(f"읽을 수 없는 행동이에요: {' '.join(parts)[:40]}")
        self.finish_draw()
        self.close_round()
        self.settle()
        return self.rec

    def _pid(self, text: str) -> str:
        if text not in self.players:
            raise PhhError(f"없는 참가자예요: {text[:8]}")
        return text

    # --- the end ------------------------------------------------------------------------------------------

    def _values(self, pid: str) -> tuple[Any, Any]:
        hole = [c for c in self.players[pid].hole if c is not None]
        if len(hole) != len(self.players[pid].hole) or not hole:
            raise PhhError(f"{pid} 의 카드를 몰라 쇼다운을 판정할 수 없어요")
        mode = self.p.mode
        try:
            if mode == "badugi":
                return ev.badugi(hole), None
            if mode == "omaha":
                low = ev.omaha_low(hole, self.board) if self.p.hi_lo else None
                return ev.omaha_high(hole, self.board), low
            return ev.international_high([*hole, *self.board]), None
        except ValueError:
            raise PhhError(f"{pid} 의 카드로 족보를 만들 수 없어요 (보드가 모자라요)") from None

    def _won_by_showing(self, alive: list[str]) -> dict[str, Any]:
        """The high value of the one player left when the others mucked at the showdown and that player's
        cards are known (shown): their hand is what won the pot there, so the award names it as a
        showdown's would; nothing when the pot was won by a fold or the cards are unknown."""
        if len(alive) != 1 or not self.mucked:
            return {}
        try:
            return {alive[0]: self._values(alive[0])[0]}
        except PhhError:
            return {}

    def settle(self) -> None:
        """Pots to the best hands (or to the last player left), with the project's award rules."""
        alive = [pid for pid in self.ids if not self.players[pid].folded]
        pots = self.pots()
        high: dict[str, Any] = {}
        low: dict[str, Any] = {}
        entries: list[dict[str, Any]] = []
        if len(alive) > 1:
            for pid in alive:
                high[pid], low[pid] = self._values(pid)
                entry: dict[str, Any] = {
                    "id": pid, "cards": [c.to_json() for c in self.players[pid].hole if c is not None],
                    "best": [c.to_json() for c in high[pid].cards], "handName": str(high[pid].name),
                    "rankName": ranked_name(high[pid])}
                if self.p.hi_lo:
                    entry["lowName"] = None if low[pid] is None else str(low[pid].name)
                    entry["lowBest"] = None if low[pid] is None else [c.to_json() for c in low[pid].cards]
                entries.append(entry)
            self.rec.showdown = entries
            self.emit({"type": "showdown", "entries": entries})
        awards: list[Award] = (award_hilo_cards_speak(pots, high, low, self.ids) if self.p.hi_lo and entries
                               else award_pots(pots, high, self.ids))
        shown = self._won_by_showing(alive)
        for a in awards:
            value = (low if a.side == "low" else high).get(a.to, shown.get(a.to))
            self.players[a.to].stack += a.amount
            self.emit({"type": "award", "potIndex": a.pot_index, "to": a.to, "amount": a.amount,
                       "side": a.side or "high", "hand": None if value is None else ranked_name(value),
                       "why": None})
        winners = list(dict.fromkeys(a.to for a in awards))
        self.emit({"type": "handEnd", "handNo": self.rec.hand_no, "winners": winners,
                   "oneLeft": len(alive) == 1})
        rec = self.rec
        rec.pots = [{"amount": pot.amount, "eligible": list(pot.eligible)} for pot in pots]
        rec.awards = [e for e in rec.events if e["type"] == "award"]
        rec.winners = winners
        rec.board = list(self.board)
        rec.finishing_stacks = {pid: self.players[pid].stack for pid in self.ids}
        rec.own_cards = {pid: [c for c in self.players[pid].hole if c is not None] for pid in self.ids}


@dataclass(frozen=True)
class Imported:
    """An imported hand: its record, the players' names (by id) and whether its file's own finishing
    stacks (when it has them) are the ones this replay reached."""

    record: HandRecord
    names: dict[str, str]
    stacks_agree: bool | None


def import_phh(text: str) -> Imported:
    """Read and replay one PHH hand (``PhhError``, in Korean, when it cannot be)."""
    parsed = parse(text)
    rec = _Replay(parsed).run()
    agree = None
    if parsed.finishing is not None:
        agree = [rec.finishing_stacks[pid] for pid in rec.order] == parsed.finishing
    return Imported(rec, dict(zip(rec.order, parsed.names, strict=True)), agree)
