"""One seeded game of our engine, played with random actions, every hand mirrored in a fresh pokerkit state:
the play loop, the hand's start, and keeping pokerkit in step with our cards (burns, holes, board, draws,
showdown). The comparisons themselves are in ``betting`` (each decision) and ``showdown`` (each hand's end).

Apart from the package's other modules: this is the driver, which owns the state both engines share.
"""

from __future__ import annotations

import random
from typing import Any

from pokerkit import State as PkState

from pokerroom.engine import State, apply, setup, view

from . import betting, showdown
from .betting import RoundTrack
from .mirror import RESHUFFLE_WARNINGS, Variant, make_pk_state, pk_card, strict
from .report import Discrepancy, Stats


class Game:
    """One seeded game of our engine, every hand mirrored in pokerkit."""

    def __init__(self, variant: Variant, seed: int) -> None:
        self.variant = variant
        self.seed = seed
        self.rng = random.Random(f"{variant.name}/{seed}")
        rng = self.rng
        n = rng.choice([2, 3, 4, 5, 6, 6])
        # "short": 10-25 big blinds and fast blind increases (short forced bets, all-ins); "deep": long
        # pot-limit raise sequences; "normal" in between
        self.profile = rng.choice(["short", "normal", "deep"])
        chips = rng.choice({"short": [500, 1000], "normal": [1000, 2000], "deep": [2000, 5000]}[self.profile])
        units = {"short": (20, 50), "normal": (10, 20, 50), "deep": (2, 10)}[self.profile]
        unit = rng.choice([u for u in units if u * 20 <= chips])
        self.options = {
            "mode": variant.mode,
            "betting": variant.betting,
            "startingChips": chips,
            "baseUnit": unit,
            "endCondition": "hands",
            "handLimit": 50,
            "blindUpEvery": 5 if self.profile == "short" else rng.choice([0, 0, 5, 10]),
            "rebuy": rng.choice(["off", "unlimited", "unlimited", "limited"]),
            "dealerRule": rng.choice(["rotate", "winner"]),
            "hints": False,
        }
        if variant.hilo:
            self.options["omahaHiLo"] = True
        self.players = [f"p{i}" for i in range(n)]
        self.state: State = setup(self.players, self.options, seed=seed)
        self.log: list[tuple[str, dict[str, Any]]] = []
        self.views: dict[str | None, dict[str, Any]] = {}
        self.stats = Stats()
        # how players bet: "passive" checks/calls down (multiway showdowns, board-play splits), "wild" shoves
        self.style = rng.choice(["passive", "calm", "wild", "mixed"])
        # per hand
        self.hand_no = 0
        self.pk: PkState | None = None
        self.short_blind = False  # this hand starts with a short big blind: not mirrored (``short-blind``)
        self.order: list[str] = []
        self.index: dict[str, int] = {}
        self.burned = 0
        self.boarded = 0
        self.discards: dict[tuple[int, str], list[str]] = {}
        self.reshuffled = False
        self.round: RoundTrack | None = None
        self.unit = 0
        self.compared = True
        self.hand_actions: list[str] = []

    # ------------------------------------------------------------------------------------------------
    # plumbing

    def fail(self, message: str) -> Discrepancy:
        tail = "; ".join(self.hand_actions[-40:])
        return Discrepancy(
            f"[{self.variant.name} seed={self.seed} hand={self.hand_no} options={self.options} "
            f"players={self.players}] {message}\n  this hand: {tail}\n  replay: setup(players, options, "
            f"seed={self.seed}) then apply the {len(self.log)} logged actions (Game.log)"
        )

    def act(self, pid: str, action: dict[str, Any]) -> list[dict[str, Any]]:
        self.log.append((pid, action))
        self.state, events = apply(self.state, pid, action, 0)
        self.views.clear()
        if any(e["type"] == "reshuffle" for e in events) and not self.reshuffled:
            self.reshuffled = True
            self.stats.differences["reshuffle"] += 1
        return events

    def view(self, viewer: str | None) -> dict[str, Any]:
        """``view(state, viewer)``, computed once per state (``act`` forgets them)."""
        if viewer not in self.views:
            self.views[viewer] = view(self.state, viewer)
        return self.views[viewer]

    def public(self) -> dict[str, Any]:
        return self.view(None)

    def burn_cards(self) -> list[str]:
        """The cards our engine burnt this hand, in order: ``hand.muck`` of the state (the same list as the
        state JSON's ``hand.muck``; read directly because ``State.to_json`` copies the whole public log). In
        hold'em and Omaha nothing else goes to the muck."""
        hand = self.state.hand
        assert hand is not None
        return [pk_card(c.to_json()) for c in hand.muck]

    def hole(self, pid: str) -> list[str]:
        me = self.view(pid)["me"]
        return [pk_card(c) for c in me["hole"]]

    # ------------------------------------------------------------------------------------------------
    # the driver

    def play(self, max_hands: int) -> Stats:
        while self.stats.hands < max_hands:
            pub = self.public()
            if pub["handNo"] != self.hand_no:
                self.begin_hand(pub)
            if not self.compared and pub["awards"] is not None:
                if self.short_blind:
                    self.stats.hands += 1
                    self.compared = True
                else:
                    showdown.end_hand(self, pub)
            phase = pub["phase"]
            if phase == "finished":
                break
            if phase == "betting" and self.short_blind:
                betting.decide_short_blind(self, pub)
            elif phase == "betting":
                betting.decide(self, pub)
            elif phase == "draw":
                self.draw(pub)
            elif phase == "handEnd":
                for pid in pub["pending"]:
                    self.act(pid, {"type": "ready"})
            elif phase == "rebuy":
                for pid in pub["pending"]:
                    self.act(pid, {"type": "rebuy", "accept": self.rng.random() < 0.85})
            else:  # pragma: no cover - modes of this harness have no other phase
                raise self.fail(f"unexpected phase {phase!r}")
        return self.stats

    def begin_hand(self, pub: dict[str, Any]) -> None:
        if not self.compared:
            raise self.fail("a new hand started before the previous one ended")
        hand = self.state.hand
        assert hand is not None
        self.hand_no = pub["handNo"]
        self.order = list(hand.order)  # = state JSON hand.order (read directly, see burn_cards)
        self.index = {pid: i for i, pid in enumerate(self.order)}
        starts = {s.id: s.stack_at_hand_start for s in self.state.seats}
        stacks = [starts[pid] for pid in self.order]
        big_blind = 0 if len(stacks) == 2 else 1  # pokerkit's (and our) big blind poster
        self.short_blind = self.variant.community and stacks[big_blind] < pub["baseUnit"]
        if self.short_blind:
            self.stats.differences["short-blind"] += 1
            self.hand_no = pub["handNo"]
            self.unit = pub["baseUnit"]
            self.pk = None
            self.compared = False
            return
        self.pk = make_pk_state(self.variant, stacks, pub["baseUnit"])
        self.stats.heads_up += len(stacks) == 2
        self.stats.short_forced += any(st <= pub["baseUnit"] for st in stacks)
        self.burned = self.boarded = 0
        self.discards = {}
        self.reshuffled = False
        self.round = None
        self.unit = pub["baseUnit"]
        self.compared = False
        unit = pub["baseUnit"]
        self.hand_actions = [f"hand {self.hand_no}: order={self.order} stacks={stacks} unit={unit}"]
        for pid in self.order:
            self.hand_actions.append(f"{pid} hole {''.join(self.hole(pid))}")
        self.sync()

    # ------------------------------------------------------------------------------------------------
    # keeping pokerkit in step (cards, draws, showdown)

    def sync(self) -> None:
        """Run pokerkit's non-player steps with our cards until a player must act or the hand is settled.

        Also plays pokerkit's ``closed-betting`` check: when the others have folded or are all-in and the one
        player left who has chips has already matched the bet, §5.2/§5.3 end the round ("남은 라운드는
        베팅 없이 카드만 돌린다") while pokerkit still asks that player to act; the only action that changes
        nothing, a check, is then played in pokerkit.
        """
        pk = self.pk
        assert pk is not None
        allowed = RESHUFFLE_WARNINGS if self.reshuffled else ()
        pub = self.public()
        our_actor = pub["toAct"] if pub["phase"] == "betting" else None
        while True:
            actor = pk.actor_index
            if actor is not None:
                if self.order[actor] == our_actor or not self.closed_for(actor):
                    return  # a real decision (or a mismatch the caller reports)
                with strict():
                    pk.check_or_call()
                self.stats.differences["closed-betting"] += 1
                continue
            with strict(*allowed):
                if pk.can_burn_card():
                    muck = self.burn_cards()
                    if self.burned >= len(muck):
                        raise self.fail("pokerkit burns a card our engine has not burnt (round ended early?)")
                    pk.burn_card(muck[self.burned])
                    self.burned += 1
                elif pk.can_deal_hole():
                    i = pk.hole_dealee_index
                    assert i is not None
                    have = {repr(c) for c in pk.hole_cards[i]}
                    new = [c for c in self.hole(self.order[i]) if c not in have]
                    if not new:
                        raise self.fail(f"pokerkit deals {self.order[i]} a card our engine has not dealt")
                    pk.deal_hole(new[0], i)
                elif pk.can_deal_board():
                    count = pk.board_dealing_count
                    assert count is not None
                    board = [pk_card(c) for c in self.public()["board"]]
                    cards = board[self.boarded:self.boarded + count]
                    if len(cards) < count:
                        raise self.fail(f"pokerkit deals {count} board cards our engine has not dealt "
                                        f"(our board {board})")
                    pk.deal_board("".join(cards))
                    self.boarded += count
                elif pk.stand_patter_or_discarder_index is not None:
                    i = pk.stand_patter_or_discarder_index
                    key = (pk.street_index or 0, self.order[i])
                    if key not in self.discards:
                        return  # our draw phase has not been played yet (Game.draw records it, then syncs)
                    pk.stand_pat_or_discard("".join(self.discards[key]))
                elif pk.showdown_index is not None:
                    pk.show_or_muck_hole_cards(True)
                else:
                    return

    def closed_for(self, actor: int) -> bool:
        """pokerkit asks ``actor`` to act although nobody else can still bet and nothing is owed."""
        pk = self.pk
        assert pk is not None
        others = [j for j in range(len(self.order)) if j != actor and pk.statuses[j] and pk.stacks[j] > 0]
        return not others and pk.bets[actor] >= max(pk.bets)

    # ------------------------------------------------------------------------------------------------
    # draws

    def draw(self, pub: dict[str, Any]) -> None:
        rng = self.rng
        draw_no = len(next(s for s in pub["seats"] if s["id"] in pub["pending"])["drawCounts"])
        for pid in list(pub["pending"]):
            me = self.view(pid)["me"]
            entry = next(a for a in me["legalActions"] if a["type"] == "draw")
            cards = {c["id"]: pk_card(c) for c in me["hole"]}
            k = rng.choice([0, 0, 1, 1, 2, 2, 3, entry["max"]])
            k = max(entry["min"], min(k, entry["max"]))
            ids = rng.sample(entry["cardIds"], k)
            self.discards[(draw_no + 1, pid)] = [cards[c] for c in ids]  # pokerkit street = draw number + 1
            self.hand_actions.append(f"{pid} draws {[cards[c] for c in ids]}")
            self.act(pid, {"type": "draw", "cardIds": ids})
        self.sync()
