"""Bot-vs-bot games through the real engine, with invariant checks on every step.

Why it exists: it is the end-to-end test bench of the rules engine and the bots at once. Every action goes
through ``engine.apply`` exactly as the server would send it, each bot sees only ``engine.view(state, me)``,
and after every step the full state is checked for chip conservation (stacks + chips in the middle + carried
pot = starting chips + rebuys) and card conservation (no card twice; every card of a 52-card deck accounted
for). A failed check raises :class:`InvariantError` with the step that broke it.

Results are per hand: each seat's chip change from the start of a hand to its end (rebuys are not winnings),
so a bot's mean result per hand gets a normal-approximation 95 % confidence interval. The deal itself is
checked too: the category of each player's *starting* cards is counted next to its exact probability, a
cheap test that the shuffle is fair (starting cards are not biased by anyone's decisions, unlike showdowns).
"""

from __future__ import annotations

import math
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from pokerroom import engine
from pokerroom.bots import decide
from pokerroom.bots.actions import Level, action_is_listed
from pokerroom.cards import Card
from pokerroom.hands import evaluate_ids
from pokerroom.hands.batch import INTERNATIONAL_CATEGORY_NAMES
from pokerroom.history import HandRecord, HistoryRecorder
from pokerroom.tools.playstats import AGGRESSIVE, VOLUNTARY, PlayStats

SIMULTANEOUS = ("choice", "draw", "declare")


class InvariantError(AssertionError):
    """An engine invariant failed during a simulation."""


@dataclass
class SimConfig:
    mode: str = "holdem"
    players: int = 2
    hands: int = 100
    bots: tuple[str, ...] = ("normal", "easy")
    seed: int = 0
    samples: int = 200  # Monte Carlo samples per ``normal`` decision
    options: dict[str, Any] = field(default_factory=dict)
    check: bool = True
    min_decisions: int = 0  # keep playing past ``hands`` until this many bot decisions were made
    record: bool = False  # keep a HandRecord of every finished hand (pokerroom.history)


@dataclass
class SimResult:
    config: SimConfig
    seats: list[str]  # player ids in seat-creation order
    levels: dict[str, str]  # player id -> bot level
    deltas: dict[str, list[int]]  # player id -> chip change of every hand they played
    hands: int
    decisions: int
    checks: int
    seconds: float
    categories: Counter[str]
    category_total: int
    games: int
    histories: list[HandRecord] = field(default_factory=list)
    play: PlayStats = field(default_factory=PlayStats)

    @property
    def hands_per_second(self) -> float:
        return self.hands / self.seconds if self.seconds > 0 else float("inf")

    def level_deltas(self) -> dict[str, list[int]]:
        """Per bot level, every per-hand chip change of every seat with that level."""
        out: dict[str, list[int]] = {}
        for pid, values in self.deltas.items():
            out.setdefault(self.levels[pid], []).extend(values)
        return out


def mean_ci(values: Sequence[float]) -> tuple[float, float]:
    """(mean, half-width of the normal-approximation 95 % interval)."""
    n = len(values)
    if n == 0:
        return 0.0, 0.0
    mean = sum(values) / n
    if n < 2:
        return mean, float("inf")
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, 1.96 * math.sqrt(var / n)


def paired_margin(result: SimResult, better: str, worse: str) -> tuple[float, float, float]:
    """Per hand, (mean of ``better`` seats' total − ``worse`` seats' total) / 2, its 95 % half-width, and z.

    Hands are the independent units, so the difference is computed hand by hand: in a heads-up match this is
    simply the better bot's result per hand, whose sign is the question.
    """
    per_hand: list[float] = []
    by_level = {pid: lvl for pid, lvl in result.levels.items()}
    n = min(len(v) for v in result.deltas.values()) if result.deltas else 0
    for i in range(n):
        a = sum(result.deltas[p][i] for p in result.deltas if by_level[p] == better)
        b = sum(result.deltas[p][i] for p in result.deltas if by_level[p] == worse)
        per_hand.append((a - b) / 2)
    mean, half = mean_ci(per_hand)
    z = mean / (half / 1.96) if half not in (0.0, float("inf")) else 0.0
    return mean, half, z


# --- invariants ---------------------------------------------------------------------------------------------

def _hand_cards(state: Any) -> list[Card]:
    hand = state.hand
    cards: list[Card] = list(hand.deck) + list(hand.muck) + list(hand.board)
    for p in hand.players.values():
        cards += list(p.hole) + list(p.up)
        if p.choice:
            cards += list(p.choice)
        if p.forehead is not None:
            cards.append(p.forehead)
    return cards


def check_invariants(state: Any, expected_chips: int) -> None:
    """Chip and card conservation on the full state (the simulator may look; bots never do)."""
    stacks = sum(s.stack for s in state.seats)
    hand = state.hand
    middle = 0
    if hand is not None and hand.phase != "handEnd":
        live = {pid: b for pid, b in hand.bettors.items()}
        middle = sum(b.committed_total for b in live.values()) + hand.dead
        middle += sum(int(p["amount"]) for p in hand.penalties)  # Indian 10-fold penalties, not yet paid out
        # Seat stacks may lag the bettors' during a hand; count the bettors' stacks for participants.
        stacks = sum(s.stack for s in state.seats if s.id not in live) + sum(b.stack for b in live.values())
    total = stacks + middle + state.carry_over
    if total != expected_chips:
        raise InvariantError(f"chips not conserved: {total} != {expected_chips} (phase {state.phase}, "
                             f"hand phase {None if hand is None else hand.phase})")
    if hand is None:
        return
    cards = _hand_cards(state)
    ids = [c.id for c in cards]
    if len(set(ids)) != len(ids):
        raise InvariantError(f"a card appears twice in hand {hand.hand_no}")
    if state.options.mode != "indian" and hand.phase != "handEnd" and len(ids) != 52:
        raise InvariantError(f"52 cards expected, found {len(ids)} in hand {hand.hand_no}")


def _expected_chips(state: Any) -> int:
    start = int(state.options.starting_chips)
    return start * len(state.seats) + start * sum(int(s.rebuys) for s in state.seats)


# --- starting-card categories (deal fairness) ---------------------------------------------------------------

def _pattern(cards: Sequence[Card]) -> str:
    shape = tuple(sorted(Counter(c.rank for c in cards).values(), reverse=True))
    return {
        (1, 1, 1, 1): "노페어", (2, 1, 1): "원페어", (2, 2): "투페어", (3, 1): "트리플", (4,): "포카드",
    }.get(shape, str(shape))


def start_category(mode: str, cards: Sequence[Card]) -> str | None:
    """Category of a player's starting private cards (see :data:`EXACT_START`)."""
    if mode == "holdem" and len(cards) == 2:
        a, b = cards
        return "포켓 페어" if a.rank == b.rank else "수딧" if a.suit == b.suit else "오프수트"
    if mode in ("omaha", "sevenPoker", "sevenHiLo", "badugi") and len(cards) == 4:
        return _pattern(cards)
    if mode == "fiveDraw" and len(cards) == 5:
        return INTERNATIONAL_CATEGORY_NAMES[evaluate_ids([c.id for c in cards]) >> 20]
    if mode == "indian" and len(cards) >= 1:
        return f"이마 {cards[0].rank}"
    return None


def _four_card_pattern_probs() -> dict[str, float]:
    total = math.comb(52, 4)
    counts = {
        "포카드": 13,
        "트리플": 13 * 4 * 12 * 4,
        "투페어": math.comb(13, 2) * 6 * 6,
        "원페어": 13 * 6 * math.comb(12, 2) * 16,
        "노페어": math.comb(13, 4) * 4 ** 4,
    }
    return {k: v / total for k, v in counts.items()}


_FIVE = {
    "스트레이트 플러시": 40, "포카드": 624, "풀하우스": 3744, "플러시": 5108, "스트레이트": 10200,
    "트리플": 54912, "투페어": 123552, "원페어": 1098240, "하이카드": 1302540,
}


def exact_start_probabilities(mode: str, options: dict[str, Any]) -> dict[str, float]:
    """Exact probabilities of :func:`start_category` under a fair shuffle."""
    if mode == "holdem":
        return {"포켓 페어": 3 / 51, "수딧": 12 / 51, "오프수트": 36 / 51}
    if mode in ("omaha", "sevenPoker", "sevenHiLo", "badugi"):
        return _four_card_pattern_probs()
    if mode == "fiveDraw":
        return {k: v / math.comb(52, 5) for k, v in _FIVE.items()}
    if mode == "indian":
        if options.get("indianDeck") == "d52":
            return {f"이마 {r}": 1 / 13 for r in range(2, 15)}
        return {f"이마 {r}": 1 / 10 for r in range(1, 11)}
    return {}


# --- the match loop -----------------------------------------------------------------------------------------

Progress = Callable[[int, int], None]


Decide = Callable[..., dict[str, Any]]


def run_match(config: SimConfig, progress: Progress | None = None,
              on_step: Callable[[Any, list[dict[str, Any]]], None] | None = None,
              policy: Decide | None = None) -> SimResult:
    """Play ``config.hands`` hands: games of ``handLimit`` 50, a new game whenever one ends.

    A bust ends the game and a fresh one starts (so every recorded hand is played by every seat and the
    per-hand results line up); hints are off because bots never read ``handName``. Both defaults can be
    overridden through ``config.options``. ``policy`` replaces :func:`pokerroom.bots.decide` (same signature),
    so ``benchmarks/bots.py`` can play an older policy through the same loop.
    """
    choose = decide if policy is None else policy
    ids = [f"p{i + 1}" for i in range(config.players)]
    levels = {pid: config.bots[i % len(config.bots)] for i, pid in enumerate(ids)}
    deltas: dict[str, list[int]] = {pid: [] for pid in ids}
    categories: Counter[str] = Counter()
    cat_total = 0
    decisions = checks = hands = games = 0
    histories: list[HandRecord] = []
    start = time.perf_counter()
    now = 0
    holder: dict[str, Any] = {}  # the current state, for the history recorder's view callback
    play = PlayStats()
    vpip: set[str] = set()  # this hand's seats that put chips in voluntarily in the first betting round
    pfr: set[str] = set()
    fold0: set[str] = set()  # ... and those who folded in it
    all_in = False

    def view_of(pid: str | None) -> dict[str, Any]:
        return engine.view(holder["state"], pid)

    def more() -> bool:
        return hands < config.hands or decisions < config.min_decisions

    while more():
        opts = {"mode": config.mode, "handLimit": 50, "rebuy": "off", "hints": False, **config.options}
        state = engine.setup(ids, engine.PokerOptions.model_validate(opts), seed=config.seed * 1000 + games,
                             now_ms=now)
        games += 1
        seen_hand = 0
        counted_end = 0
        recorder: HistoryRecorder | None = None
        holder["state"] = state
        if config.record:
            recorder = HistoryRecorder(ids, int(state.options.starting_chips))
            recorder.begin(view_of)
        while state.phase != "finished" and more():
            hand = state.hand
            if hand is not None and hand.hand_no != seen_hand and hand.phase != "handEnd":
                seen_hand = hand.hand_no
                vpip, pfr, fold0, all_in = set(), set(), set(), False
                for player in hand.players.values():
                    if player.forehead is not None:
                        cards = [player.forehead]
                    else:
                        cards = player.choice or player.hole
                    cat = start_category(config.mode, [c for c in cards if c is not None])
                    if cat is not None:
                        categories[cat] += 1
                        cat_total += 1
            if hand is not None and hand.phase == "handEnd" and counted_end != hand.hand_no:
                counted_end = hand.hand_no
                for pid in hand.order:
                    seat = state.seat_of(pid)
                    assert seat is not None
                    deltas[pid].append(seat.stack - seat.stack_at_hand_start)
                hands += 1
                _count_hand(play, state, levels, vpip, pfr, fold0, all_in)
                if progress:
                    progress(hands, config.hands)
                if not more():
                    break
                if any(s.stack == 0 for s in state.seats):
                    play.games_busted += 1
                    break  # a bust: start a fresh game so every hand is played by every seat
            actors = _actors(state)
            if not actors:
                now += 60_000
                state, events = engine.on_timeout(state, now)
                holder["state"] = state
                if recorder is not None:
                    recorder.observe(events, view_of)
                if on_step:
                    on_step(state, events)
                continue
            for pid in actors:
                v = engine.view(state, pid)
                if not (v.get("me") or {}).get("legalActions"):
                    continue
                legal = v["me"]["legalActions"]
                action = choose(v, level=levels[pid], seed=f"{config.seed}:{decisions}",  # type: ignore[arg-type]
                                samples=config.samples)
                decisions += 1
                if config.check and not action_is_listed(action, legal):
                    raise InvariantError(f"{pid} ({levels[pid]}) chose an unlisted action {action!r}")
                if v.get("phase") == "betting" and v.get("street") == 0:
                    if action["type"] in VOLUNTARY:
                        vpip.add(pid)
                    if action["type"] in AGGRESSIVE:
                        pfr.add(pid)
                    if action["type"] in ("k.die", "nl.fold"):
                        fold0.add(pid)
                now += 1000
                state, events = engine.apply(state, pid, action, now)
                holder["state"] = state
                if state.hand is not None and not all_in:
                    all_in = any(b.all_in for b in state.hand.bettors.values())
                if recorder is not None:
                    recorder.observe(events, view_of)
                if on_step:
                    on_step(state, events)
                if config.check:
                    check_invariants(state, _expected_chips(state))
                    checks += 1
        if recorder is not None:
            for record in recorder.hands:
                if config.check and not record.ledger_ok:
                    raise InvariantError(f"hand {record.hand_no}: the event ledger {record.ledger} does not "
                                         f"end at the viewed stacks {record.finishing_stacks}")
            histories.extend(recorder.hands)
    return SimResult(config, ids, levels, deltas, hands, decisions, checks, time.perf_counter() - start,
                     categories, cat_total, games, histories, play)


def _count_hand(play: PlayStats, state: Any, levels: dict[str, str], vpip: set[str], pfr: set[str],
                fold0: set[str], all_in: bool) -> None:
    """Add one finished hand to ``play`` (the simulator reads the full state; bots never do)."""
    hand = state.hand
    play.hands += 1
    all_in = all_in or any(b.all_in for b in hand.bettors.values())
    play.all_in_hands += all_in
    if hand.hand_no == 1:
        play.first_hands += 1
        play.first_hand_all_ins += all_in
    for pid in hand.order:
        stats = play.level(levels[pid])
        stats.seat_hands += 1
        stats.vpip += pid in vpip
        stats.pfr += pid in pfr
        stats.stay += pid not in fold0  # did not fold in the first betting round


def _actors(state: Any) -> list[str]:
    """Who the engine waits for (the view's ``pending``: toAct while betting, everyone undecided otherwise).

    ``engine.pending`` is what the view's field is built from; calling it directly saves a full
    spectator view per step.
    """
    try:
        from pokerroom.engine import pending
    except ImportError:  # pragma: no cover - fall back to the documented view field
        pub = engine.view(state, None)
        return [str(p) for p in pub.get("pending") or []]
    return [str(p) for p in pending(state)]


def level_names(levels: str) -> tuple[Level, ...]:
    out: list[Level] = []
    for name in levels.split(","):
        name = name.strip()
        if name not in ("easy", "normal"):
            raise ValueError(f"unknown bot level {name!r} (easy or normal)")
        out.append(name)  # type: ignore[arg-type]
    return tuple(out)
