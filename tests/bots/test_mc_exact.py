"""The bots' Monte Carlo gives exactly the numbers (and so the decisions and hints) it gave before it was
vectorised (hints at <= 1 ms of server CPU per action; docs/decisions/0019-hints-exact-and-cached.md).

Why a recorded file: the speed-up deals the same samples from the same per-decision random stream and
evaluates them with exact evaluators, so every equity must be bit-identical, not merely close. The file
``data/mc_golden.json`` was written by the code before the change (``python tests/bots/test_mc_exact.py``
rewrites it: only do that on purpose, when bot decisions are meant to change). It holds, for seeded
multi-player games of every mode, each decision point's equity as ``normal`` sees it (hint samples and bot
samples), the hint, and ``normal``/``easy`` decisions at two bot seeds.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from pokerroom import engine
from pokerroom.bots import decide, recommend
from pokerroom.bots.policy import decision_rng
from pokerroom.bots.situation import situation
from pokerroom.bots.strength import mc_equity

GOLDEN = Path(__file__).parent / "data" / "mc_golden.json"

#: (name, options, players): multiway tables, where the Monte Carlo deals the most cards.
TABLES: list[tuple[str, dict[str, Any], int]] = [
    ("holdem", {"mode": "holdem"}, 6),
    ("holdem-korean", {"mode": "holdem", "betting": "korean"}, 4),
    ("omaha", {"mode": "omaha", "betting": "potLimit"}, 6),
    ("omaha-hilo", {"mode": "omaha", "omahaHiLo": True}, 4),
    ("sevenPoker", {"mode": "sevenPoker"}, 5),
    ("sevenPoker-nl", {"mode": "sevenPoker", "betting": "noLimit"}, 3),
    ("sevenHiLo", {"mode": "sevenHiLo", "hiLoLow": "aceToFive", "hiLoQualifier": "eight"}, 4),
    ("badugi", {"mode": "badugi"}, 5),
    ("fiveDraw", {"mode": "fiveDraw"}, 5),
    ("indian", {"mode": "indian"}, 4),
]
POINTS = 30


def _points(options: dict[str, Any], players: int, seed: int = 11) -> list[dict[str, Any]]:
    """Views at decision points of a seeded game played by ``easy`` bots (no Monte Carlo drives the game,
    so the same views come up whatever the Monte Carlo's speed-ups)."""
    from pokerroom.engine.flow import pending

    ids = [f"p{i}" for i in range(players)]
    state = engine.setup(ids, engine.PokerOptions.model_validate({**options, "hints": False}), seed=seed)
    out: list[dict[str, Any]] = []
    now = 0
    while len(out) < POINTS and state.phase != "finished":
        actors = pending(state)
        if not actors:
            break
        pid = actors[0]
        v = engine.view(state, pid)
        kinds = {a["type"] for a in v["me"]["legalActions"]}
        if kinds - {"ready", "rebuy", "show"}:
            out.append(v)
        now += 1000
        state, _ = engine.apply(state, pid, decide(v, "easy", seed=len(out)), now)
    return out


def _record(view: dict[str, Any]) -> dict[str, Any]:
    sit = situation(view)
    assert sit is not None
    return {
        "equity200": repr(mc_equity(sit, decision_rng(sit, 0), 200)),
        "equity60": repr(mc_equity(sit, decision_rng(sit, 3), 60)),
        "hint": recommend(view),
        "normal": [decide(view, "normal", seed=s, samples=60) for s in (1, 7)],
        "easy": [decide(view, "easy", seed=s) for s in (1, 7)],
    }


def _all() -> dict[str, list[dict[str, Any]]]:
    return {name: [_record(v) for v in _points(opts, n)] for name, opts, n in TABLES}


@pytest.mark.parametrize("name", [t[0] for t in TABLES])
def test_equities_hints_and_decisions_are_unchanged(name: str) -> None:
    golden = json.loads(GOLDEN.read_text())[name]
    opts, players = next((o, n) for t, o, n in TABLES if t == name)
    got = [_record(v) for v in _points(opts, players)]
    assert len(got) == len(golden) >= 10
    for i, (new, old) in enumerate(zip(got, golden, strict=True)):
        assert new == old, f"{name} point {i}: {new} != {old}"


if __name__ == "__main__":
    GOLDEN.write_text(json.dumps(_all(), indent=0, sort_keys=True) + "\n")
    print(f"wrote {GOLDEN}", file=sys.stderr)


@pytest.mark.parametrize("mode", ["holdem", "omaha", "sevenPoker"])
def test_hero_equity_is_the_tools_equity_bit_for_bit(mode: str) -> None:
    """Random tables of 2..9 players (hold'em, Omaha) or 2..7 (7 Poker, with open cards and dead cards),
    every street: the vectorised pass returns exactly the tool's ``equity[0]`` from the same generator."""
    import random

    import numpy as np

    from pokerroom.bots.montecarlo import hero_equity
    from pokerroom.cards import standard_deck
    from pokerroom.odds import equity

    pick = random.Random(5)
    deck = standard_deck()
    hole_n = {"holdem": 2, "omaha": 4, "sevenPoker": 7}[mode]
    for case in range(60):
        players = pick.randint(2, 7 if mode == "sevenPoker" else 9)
        cards = pick.sample(deck, 52)
        if mode == "sevenPoker":
            shown = pick.randint(3, 7)
            known = [cards[:shown]]
            known += [cards[7 * i : 7 * i + pick.randint(0, shown - 2)] for i in range(1, players)]
            board: list[Any] = []
            dead = cards[49 : 49 + pick.randint(0, 3)]
        else:
            known = [cards[:hole_n]] + [[] for _ in range(players - 1)]
            board = cards[40 : 40 + pick.choice([0, 3, 4, 5])]
            dead = []
        samples = pick.choice([1, 2, 60, 200, 333])
        want = equity(known, board, mode=mode, dead=dead, samples=samples,  # type: ignore[arg-type]
                      rng=np.random.Generator(np.random.PCG64(case)), exact=False, categories=False).equity[0]
        got = hero_equity(known, board, mode, np.random.Generator(np.random.PCG64(case)),  # type: ignore[arg-type]
                          samples, dead=dead)
        assert got == want, (mode, case, players, len(board), samples)


def test_share_of_first_is_the_tools_tally_bit_for_bit() -> None:
    """Player 0's share from (players, deals) values equals the tool's tally (:class:`Accumulator`), ties of
    every size included: summed term by term in Python up to six players, as numpy sums so few terms, and
    left to numpy from seven (numpy sums eight or more terms pairwise, which rounds differently)."""
    import numpy as np

    from pokerroom.bots.montecarlo import _share_of_first
    from pokerroom.odds.showdown import Accumulator

    rng = np.random.default_rng(3)
    for case in range(3000):
        players, deals = 2 + case % 9, int(rng.integers(1, 300))
        values = rng.integers(0, 1 + case % 5, size=(deals, players))
        acc = Accumulator(players, korean=False, categories=False)
        acc.add(values)
        want = float(acc.fractions()[2][0])
        assert _share_of_first(np.ascontiguousarray(values.T)) == want, (case, players, deals)


def test_a_decision_point_seen_before_reuses_its_hint(monkeypatch: pytest.MonkeyPatch) -> None:
    """The hint is a function of the digest only: a view whose digest was hinted before (another seat's
    change this seat cannot see) gets the same hint without a second Monte Carlo, as an independent copy.
    (A betting hint's equity is remembered by what it depends on, :mod:`pokerroom.bots.hint_modes`; the
    decision itself costs less than a fingerprint and is made again.)"""
    import copy

    from pokerroom.bots import hint_modes, policy

    view = next(v for v in _points({"mode": "sevenPoker"}, 5)
                if v["me"].get("legalActions") and v["me"]["legalActions"][0]["type"].startswith("k.")
                and len(v["me"]["hole"]) + len(v["me"]["up"]) >= 5)  # (before: a table, no Monte Carlo)
    policy._HINTS.clear()
    hint_modes._EQUITY.clear()
    runs: list[int] = []
    real = hint_modes.mc_equity

    def counting(*args: Any, **kwargs: Any) -> Any:
        runs.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(hint_modes, "mc_equity", counting)
    first = recommend(view)
    other = copy.deepcopy(view)
    other["deadlineAt"] = (other.get("deadlineAt") or 0) + 5000  # not in the digest
    assert first is not None and recommend(other) == first and len(runs) == 1
    first["type"] = "changed by a caller"
    assert recommend(view) != first and len(runs) == 1
    hint_modes._EQUITY.clear()
    assert recommend(view) == recommend(other) and len(runs) == 2


def test_a_holdem_hint_is_the_same_with_and_without_its_shortcut() -> None:
    """The hold'em betting hint skips the fingerprint unless it bluffs heads-up: every hint is what the
    bot's own path gives with the hint's equity and generator."""
    from pokerroom.bots import hint, policy
    from pokerroom.bots.situation import situation

    for opts, players in (({"mode": "holdem"}, 6), ({"mode": "holdem"}, 2),
                          ({"mode": "holdem", "betting": "korean"}, 4)):
        for view in _points(opts, players):
            got = recommend(view)
            sit = situation(view)
            if got is None or sit is None or policy._NOT_BETTING.intersection(sit.legal_types()):
                continue
            fp = sit.fingerprint()
            want = policy._decide(sit, "normal", 0, 200, fp, hint.hint_rng(fp), hint.hint_equity(sit))
            assert got == want


@pytest.mark.parametrize("mode", ["omaha", "sevenPoker"])
def test_the_shared_sum_passes_value_every_hand_as_the_batch_evaluators_do(mode: str) -> None:
    """Omaha and 7 Poker value a deal's hands from sums shared by its players (the board once per deal, the
    known cards once per player); every value equals the public batch evaluator's for that player's cards,
    partial hands, flush-heavy decks and runouts of 0-2 board cards included."""
    import random

    import numpy as np

    from pokerroom.bots.montecarlo import _korean_values, _omaha_values
    from pokerroom.hands.batch import korean_high_batch, omaha_high_batch

    pick = random.Random(11)
    for case in range(150):
        # every other case from two suits only: flushes on most rows
        deck = pick.sample(range(52) if case % 2 else list(range(13)) + list(range(39, 52)), 26)
        rest = [c for c in range(52) if c not in deck]
        deck += pick.sample(rest, len(rest))
        players = pick.randint(2, 6 if mode == "omaha" else 5)
        if mode == "omaha":
            board = deck[: pick.choice([3, 4, 5])]
            known = [deck[len(board) : len(board) + 4]] + [[] for _ in range(players - 1)]
            groups = [5 - len(board)] + [4 - len(k) for k in known]
        else:
            board, known, at = [], [], 0
            for p in range(players):
                k = pick.randint(3, 7) if p == 0 else pick.randint(0, 4)
                known.append(deck[at : at + k])
                at += k
            groups = [0] + [7 - len(k) for k in known]
        used = board + [c for k in known for c in k]
        unseen = np.array(sorted(set(range(52)) - set(used)), dtype=np.int64)
        deals = np.array([pick.sample(range(unseen.size), sum(groups)) for _ in range(40)], dtype=np.intp)
        cards = unseen[deals]
        want, at = [], groups[0]
        for p, k in enumerate(known):
            hands = np.concatenate([np.tile(np.array(k, dtype=np.int64), (40, 1)),
                                    cards[:, at : at + groups[p + 1]]], axis=1)
            at += groups[p + 1]
            if mode == "omaha":
                boards = np.concatenate([np.tile(np.array(board, dtype=np.int64), (40, 1)),
                                         cards[:, : groups[0]]], axis=1)
                want.append(omaha_high_batch(hands, boards).tolist())
            else:
                want.append(korean_high_batch(hands).tolist())
        got = (_omaha_values(unseen, deals, board, known, groups) if mode == "omaha"
               else _korean_values(unseen, deals, known, groups))
        assert got.tolist() == want, (mode, case)
