"""PHH export: a hand as Poker Hand History TOML text (https://phh.readthedocs.io), where PHH can say it.

What PHH can say is a variant code and its betting structure. The room's games that match one exactly:
no-limit Texas hold'em (``NT``) and pot-limit Omaha, high only (``PO``). PHH has no code for the rest
(docs/decisions/0044-hand-replayer.md): its draws are deuce-to-seven lowball (``N2L1D``, ``F2L3D``), not
the room's high five-card draw; its badugi (``FB``) is fixed-limit, while the room's badugi bets Korean
style, no-limit or pot-limit; its only Omaha Hi-Lo is fixed-limit; nothing is pot-limit hold'em, Korean
betting, 7 Poker with its choice, or Indian poker. A hand imported from a PHH file (``phh_import``) is
written back in its own variant, with its own forced bets and decimals.

Players are listed in position order from the seat after the dealer, which is the engine's hand order
(heads-up: the big blind, then the dealer, matching PHH's reversed heads-up blinds). ``cbr`` amounts are
"raise to" totals of the street. A hand exported for one viewer (``everyone=False``) holds only the cards
that viewer saw: their own, the board, and what was shown; everyone else's hole cards are ``??``.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from pokerroom.cards import Card
from pokerroom.history.record import HandRecord, cards_of

PHH_VARIANTS = {("holdem", "noLimit"): "NT", ("omaha", "potLimit"): "PO"}
_HOLE = {"holdem": 2, "omaha": 4, "badugi": 4}


def phh_variant(rec: HandRecord) -> str | None:
    """The PHH variant code this hand can be written in, or None (see the module docstring)."""
    if rec.phh is not None:
        return str(rec.phh.get("variant"))
    if rec.hi_lo or any(e.get("type") == "blind" and e.get("kind") == "entry" for e in rec.events):
        return None  # Omaha Hi-Lo; a newcomer's entry blind (PHH reads it as a straddle: another order)
    if _house_options(rec):
        return None
    return PHH_VARIANTS.get((rec.mode, rec.betting))


def why_not(rec: HandRecord) -> str:
    """Why this hand cannot be written as PHH (Korean, for the replay's export button)."""
    if rec.hi_lo:
        return "PHH의 오마하 하이로우는 리밋 베팅뿐이라 이 판을 적을 수 없어요"
    if any(e.get("type") == "blind" and e.get("kind") == "entry" for e in rec.events):
        return "새로 앉은 자리의 빅 블라인드는 PHH로 적을 수 없어요"
    if _house_options(rec):
        return "앤티, 스트래들, 두 번 돌리기(런 잇 트와이스)가 있는 판은 아직 PHH로 적을 수 없어요"
    return "PHH에는 이 게임(모드와 베팅 방식)을 적는 방법이 없어요. 노리밋 홀덤과 팟리밋 오마하만 돼요"


def _cards(cards: list[Card]) -> str:
    return "".join(c.code for c in cards)


def _toml_str(value: str) -> str:
    escaped = value.replace("\\", "\\\\").replace('"', '\\"')
    return '"' + "".join(ch if ch.isprintable() else f"\\u{ord(ch):04x}" for ch in escaped) + '"'


class _Writer:
    """One record's PHH lines; amounts divided by the record's scale (an imported file's decimals)."""

    def __init__(self, rec: HandRecord, viewer: str | None, everyone: bool) -> None:
        self.rec = rec
        self.scale = int((rec.phh or {}).get("scale") or 1)
        self.pos = {pid: i + 1 for i, pid in enumerate(rec.order)}
        self.viewer = viewer
        self.everyone = everyone
        end = next((i for i, e in enumerate(rec.events) if e.get("type") == "handEnd"), len(rec.events))
        self.after = {str(e["player"]): cards_of(e.get("cards")) for e in rec.events[end:]
                      if e.get("type") == "shown"}  # shown once the hand was over: public
        self.lines: list[str] = []

    def num(self, value: int) -> str:
        if self.scale == 1:
            return str(value)
        exact = Decimal(value) / Decimal(self.scale)
        return str(int(exact)) if exact == exact.to_integral_value() else format(exact.normalize(), "f")

    def dealt(self, pid: str) -> str:
        """The hole cards dealt to ``pid`` as this export may tell them (``??`` for each unknown one)."""
        rec = self.rec
        steps = rec.own_steps.get(pid)
        count = sum(int(e.get("count") or 0) for e in rec.events
                    if e.get("type") == "dealt" and e.get("to") == pid and e.get("target") == "hole")
        count = count or (len(steps[0][1]) if steps else 0) or _HOLE.get(rec.mode, 2)
        known: list[Card] = []
        if self.everyone or pid == self.viewer:
            known = steps[0][1] if steps else list(rec.own_cards.get(pid) or [])
        elif pid in self.after:
            known = self.after[pid]
        known = known[:count]
        return _cards(known) + "??" * (count - len(known))

    def forced(self) -> tuple[list[int], list[int]]:
        """Antes and blinds by position, as PHH states them (heads-up: in reversed order)."""
        rec, n = self.rec, len(self.rec.order)
        if rec.phh is not None:
            return list(rec.phh.get("antes") or [0] * n), list(rec.phh.get("blinds") or [0] * n)
        antes = [0] * n
        for e in rec.events:
            if e.get("type") == "ante":
                antes[self.pos[str(e["from"])] - 1] = int(e["amount"])
        if n == 2:
            antes.reverse()
        sb = rec.small_blind if rec.small_blind is not None else max(1, rec.base_unit // 2)
        # the *nominal* blinds (a short stack posting less is an all-in blind, handled by the stacks)
        return antes, [sb, rec.base_unit] + [0] * (n - 2)


def _showdown_order(rec: HandRecord, last_aggressor: str | None) -> list[str]:
    """Who shows first at the end: the last street's last aggressor, else the first player in order."""
    n = len(rec.order)
    start = rec.order.index(last_aggressor) if last_aggressor in rec.order else 0
    return [rec.order[(start + k) % n] for k in range(n)]


def to_phh(rec: HandRecord, *, viewer: str | None = None, everyone: bool = True,
           names: Mapping[str, str] | None = None) -> str:
    """The hand as PHH TOML text (``ValueError`` when PHH cannot express it: :func:`why_not`). ``everyone``:
    every player's cards, as recorded (the simulator's export); else only what ``viewer`` (a player id, or
    None: a spectator) saw. ``names``: the players' names by id (default: the ids)."""
    variant = phh_variant(rec)
    if variant is None:
        raise ValueError(why_not(rec))
    w = _Writer(rec, viewer, everyone)
    antes, blinds = w.forced()
    actions = [f"d dh p{w.pos[pid]} {w.dealt(pid)}" for pid in rec.order]
    commit = {pid: 0 for pid in rec.order}
    for e in rec.events:
        if e.get("type") == "blind":
            commit[str(e["from"])] += int(e["amount"])
    top = max(commit.values(), default=0)
    aggressor: str | None = None
    explicit = any(e.get("type") in ("shown", "mucked") for e in rec.events[:_end(rec)])
    for e in rec.events[:_end(rec)]:
        kind = e.get("type")
        if kind == "roundEnd":  # a new street (a board, a draw) bets from nothing
            commit = {pid: 0 for pid in rec.order}
            top = 0
        elif kind == "board":
            actions.append(f"d db {_cards(cards_of(e.get('cards')))}")
            aggressor = None  # the showdown starts with the last street's aggressor, if it had one
        elif kind == "action":
            pid = str(e["player"])
            t = (e.get("action") or {}).get("type")
            moved = int(e.get("amount") or 0)
            to = commit[pid] + moved
            if t == "nl.fold":
                actions.append(f"p{w.pos[pid]} f")
            elif t in ("nl.raise", "nl.allIn") and to > top:
                actions.append(f"p{w.pos[pid]} cbr {w.num(to)}")
                top, aggressor = to, pid
            else:
                actions.append(f"p{w.pos[pid]} cc")
            commit[pid] = to
        elif kind == "drew" and isinstance(e.get("cards"), list):  # an imported draw: its discards
            gone = e["cards"]
            known = cards_of(gone) if (w.everyone or e["player"] == viewer) else []
            actions.append(f"p{w.pos[str(e['player'])]} sd {_cards(known) + '??' * (len(gone) - len(known))}"
                           .rstrip())
        elif kind == "drawn" and rec.phh is not None:
            actions += _replacements(rec, w, e)
            aggressor = None
        elif kind == "shown":
            actions.append(f"p{w.pos[str(e['player'])]} sm {_cards(cards_of(e.get('cards')))}")
        elif kind == "mucked":
            actions.append(f"p{w.pos[str(e['player'])]} sm")
    if rec.showdown and not explicit:
        shown = {str(s["id"]): cards_of(s.get("cards")) for s in rec.showdown}
        actions += [f"p{w.pos[pid]} sm {_cards(shown[pid])}" for pid in _showdown_order(rec, aggressor)
                    if pid in shown]
    return _text(rec, w, variant, antes, blinds, actions, names)


def _end(rec: HandRecord) -> int:
    return next((i for i, e in enumerate(rec.events) if e.get("type") == "handEnd"), len(rec.events))


def _replacements(rec: HandRecord, w: _Writer, drawn: dict[str, Any]) -> list[str]:
    """An imported draw's new cards: each drawing player's hand after it, less the cards they kept."""
    index = rec.events.index(drawn)
    out = []
    for pid, n in (drawn.get("counts") or {}).items():
        if not n:
            continue
        steps = rec.own_steps.get(str(pid)) or []
        before = next((cs for i, cs in reversed(steps) if i < index), [])
        after = next((cs for i, cs in steps if i == index), [])
        new = [c for c in after if c not in before][: int(n)] if (w.everyone or pid == w.viewer) else []
        out.append(f"d dh p{w.pos[str(pid)]} {_cards(new) + '??' * (int(n) - len(new))}")
    return out


def _text(rec: HandRecord, w: _Writer, variant: str, antes: list[int], blinds: list[int], actions: list[str],
          names: Mapping[str, str] | None) -> str:
    phh = rec.phh or {}
    bets = [f"{k} = {w.num(int(phh[k]))}" for k in ("small_bet", "big_bet") if k in phh]
    if not bets:
        bets = [f"min_bet = {w.num(int(phh.get('min_bet') or rec.base_unit))}"]
    trimming = phh.get("anteTrimming", True) is not False
    label = names or {}
    hand = phh.get("hand")
    lines = [
        f"variant = {_toml_str(variant)}",
        f"ante_trimming_status = {'true' if trimming else 'false'}",
        f"antes = [{', '.join(w.num(a) for a in antes)}]",
        f"blinds_or_straddles = [{', '.join(w.num(b) for b in blinds)}]",
        *bets,
        f"starting_stacks = [{', '.join(w.num(rec.starting_stacks[p]) for p in rec.order)}]",
        "actions = [",
        *[f"  {_toml_str(a)}," for a in actions],
        "]",
        f"players = [{', '.join(_toml_str(label.get(p, p)) for p in rec.order)}]",
        f"finishing_stacks = [{', '.join(w.num(rec.finishing_stacks.get(p, 0)) for p in rec.order)}]",
        f"hand = {_toml_str(hand) if isinstance(hand, str) else rec.hand_no}",
    ]
    return "\n".join(lines) + "\n"


def _house_options(rec: HandRecord) -> bool:
    """A hand played here with a hold'em house option (docs/rules-extensions.md) this export does not write
    yet: an ante (the engine posts it after the blinds, PHH before them), a straddle (PHH would need it among
    the blinds, in its own order of play) or run it twice (one board in PHH). An imported hand keeps its
    file's own antes (``rec.phh``) and is written back as it came."""
    return any(e.get("type") == "ante" or e.get("kind") == "straddle" or e.get("run") is not None
               for e in rec.events)


def export_phh(records: list[HandRecord]) -> dict[int, str]:
    """PHH text per hand number, for every exportable record (every player's cards)."""
    return {r.hand_no: to_phh(r) for r in records if phh_variant(r) is not None}
