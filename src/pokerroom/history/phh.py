"""PHH export: no-limit hold'em and pot-limit Omaha hands as Poker Hand History TOML text.

No-limit Texas hold'em (``variant = "NT"``) and pot-limit Omaha (``"PO"``) in the TOML-based Poker Hand
History format (https://phh.readthedocs.io). Players are listed in position order from the seat after the
dealer, which is the engine's hand order (heads-up: the big blind, then the dealer, matching PHH's reversed
heads-up blinds). ``cbr`` amounts are "raise to" totals of the street.
"""

from __future__ import annotations

from pokerroom.cards import Card
from pokerroom.history.record import HandRecord, cards_of

PHH_VARIANTS = {("holdem", "noLimit"): "NT", ("omaha", "potLimit"): "PO"}


def _phh_cards(cards: list[Card]) -> str:
    return "".join(c.code for c in cards)


def _toml_str(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def to_phh(rec: HandRecord) -> str:
    """The hand as PHH TOML text. Only no-limit hold'em and pot-limit Omaha are representable."""
    variant = PHH_VARIANTS.get((rec.mode, rec.betting))
    if _house_options(rec):
        raise ValueError("PHH export does not write antes, a straddle or a second board yet")
    if rec.hi_lo:  # PHH's only Omaha Hi-Lo is fixed-limit ("FO/8"); "PO" would be scored high-only
        raise ValueError("PHH export supports NL hold'em and PL Omaha, not Omaha Hi-Lo")
    if variant is None:
        raise ValueError(f"PHH export supports NL hold'em and PL Omaha, not {rec.mode}/{rec.betting}")
    pos = {pid: i + 1 for i, pid in enumerate(rec.order)}
    n = len(rec.order)
    blinds = [0] * n
    for e in rec.events:
        if e.get("type") == "blind":
            blinds[pos[str(e["from"])] - 1] = int(e["amount"])
    sb = rec.small_blind if rec.small_blind is not None else max(1, rec.base_unit // 2)
    # PHH wants the *nominal* blinds (a short stack posting less is an all-in blind, handled by the stacks).
    if n == 2:
        nominal = [sb, rec.base_unit]
    else:
        nominal = [sb, rec.base_unit] + [0] * (n - 2)
    actions: list[str] = []
    for pid in rec.order:
        own = rec.own_cards.get(pid) or []
        actions.append(f"d dh p{pos[pid]} {_phh_cards(own) if own else '????'}")
    commit = {pid: 0 for pid in rec.order}
    for e in rec.events:
        if e.get("type") == "blind":
            commit[str(e["from"])] += int(e["amount"])
    top = max(commit.values()) if commit else 0
    last_aggressor: str | None = None
    street_had_aggression = False
    for e in rec.events:
        kind = e.get("type")
        if kind == "board":
            actions.append(f"d db {_phh_cards(cards_of(e.get('cards')))}")
            commit = {pid: 0 for pid in rec.order}
            top = 0
            street_had_aggression = False
            last_aggressor = None
        elif kind == "action":
            pid = str(e["player"])
            act = e.get("action") or {}
            t = act.get("type")
            moved = int(e.get("amount") or 0)
            p = f"p{pos[pid]}"
            if t == "nl.fold":
                actions.append(f"{p} f")
            elif t in ("nl.check", "nl.call"):
                actions.append(f"{p} cc")
            elif t in ("nl.raise", "nl.allIn"):
                to = commit[pid] + moved
                if to > top:
                    actions.append(f"{p} cbr {to}")
                    top = to
                    last_aggressor = pid
                    street_had_aggression = True
                else:
                    actions.append(f"{p} cc")
            commit[pid] += moved
    if rec.showdown:
        shown = {str(s["id"]): cards_of(s.get("cards")) for s in rec.showdown}
        start = pos[last_aggressor] - 1 if (last_aggressor and street_had_aggression) else 0
        ordered = [rec.order[(start + k) % n] for k in range(n)]
        for pid in ordered:
            if pid in shown:
                actions.append(f"p{pos[pid]} sm {_phh_cards(shown[pid])}")
    lines = [
        f"variant = {_toml_str(variant)}",
        "ante_trimming_status = true",
        f"antes = [{', '.join('0' for _ in range(n))}]",
        f"blinds_or_straddles = [{', '.join(str(b) for b in nominal)}]",
        f"min_bet = {rec.base_unit}",
        f"starting_stacks = [{', '.join(str(rec.starting_stacks[p]) for p in rec.order)}]",
        "actions = [",
        *[f"  {_toml_str(a)}," for a in actions],
        "]",
        f"players = [{', '.join(_toml_str(p) for p in rec.order)}]",
        f"finishing_stacks = [{', '.join(str(rec.finishing_stacks.get(p, 0)) for p in rec.order)}]",
        f"hand = {rec.hand_no}",
    ]
    return "\n".join(lines) + "\n"


def _house_options(rec: HandRecord) -> bool:
    """The hand used a hold'em house option (docs/rules-extensions.md) this export cannot write: an ante, a
    straddle, or run it twice."""
    return any(e.get("type") == "ante" or e.get("kind") == "straddle" or e.get("run") is not None
               for e in rec.events)


def export_phh(records: list[HandRecord]) -> dict[int, str]:
    """PHH text per hand number, for every exportable record."""
    return {r.hand_no: to_phh(r) for r in records
            if (r.mode, r.betting) in PHH_VARIANTS and not r.hi_lo and not _house_options(r)}
