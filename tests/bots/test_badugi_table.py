"""The badugi hint table (``bots/data/badugi_draws.npz``, read by ``bots/hint_tables.py``): every spot a
game's badugi hints meet is in it, each entry is what the bots' badugi model says on its class's hand (the
file is what ``scripts/build_hint_tables.py`` makes), and a hint reads it instead of running a Monte Carlo.
"""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from pokerroom.bots import hint_modes, policy, recommend
from pokerroom.bots.hint_tables import BADUGI_DRAWS, badugi_class_key, badugi_spot_key, badugi_table
from pokerroom.bots.situation import situation
from pokerroom.bots.strength import badugi_key
from pokerroom.cards import standard_deck

from .test_mc_exact import _points

DECK = standard_deck()
ROOT = Path(__file__).resolve().parents[2]


def _script() -> Any:
    path = ROOT / "scripts" / "build_hint_tables.py"
    spec = importlib.util.spec_from_file_location("build_hint_tables", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("build_hint_tables", module)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("options", [{"mode": "badugi"}, {"mode": "badugi", "badugiHigh": True}])
def test_every_betting_spot_of_a_game_is_read_from_the_table(options: dict[str, Any],
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    def no_monte_carlo(*_args: Any) -> float:
        raise AssertionError("a badugi betting hint ran a Monte Carlo")

    monkeypatch.setattr(hint_modes, "mc_equity", no_monte_carlo)
    hint_modes._EQUITY.clear()
    policy._HINTS.clear()
    betting = 0
    for players in (2, 4, 6):
        for view in _points(options, players, seed=players):
            sit = situation(view)
            assert sit is not None
            kinds = set(sit.legal_types())
            if kinds & policy._NOT_BETTING or not sit.opponents:
                continue
            key = hint_modes._key(sit)
            assert key is not None and badugi_table(*key[1:]) is not None, key  # type: ignore[arg-type]
            assert recommend(view) is not None
            betting += 1
    assert betting >= 20


def test_each_entry_is_the_models_answer_on_its_class_hand() -> None:
    """Entries recomputed with the script's own deals match the file; each class's hand is of its class."""
    script = _script()
    orders = script.badugi_orders(128, 46)
    spots = script.badugi_spots()
    pick = random.Random(5)
    with np.load(BADUGI_DRAWS) as data:
        for side, high in (("low", False), ("high", True)):
            classes = data[f"classes_{side}"].tolist()
            hands = data[f"hands_{side}"].astype(np.int64)
            equity = data[f"equity_{side}"]
            assert [badugi_spot_key(r) for r in data["spots"].tolist()] == spots
            for row, hand in zip(classes, hands.tolist(), strict=True):
                size, ranks = badugi_key([DECK[c] for c in hand], high)
                assert badugi_class_key(row)[:2] == (size, ranks[:1])
                assert badugi_class_key(row)[2] == hint_modes._breaks([DECK[c] for c in hand], high)
            for col in pick.sample(range(len(spots)), 6):
                street, wants = spots[col]
                got = script.badugi_column(hands, orders, street, wants, high)
                assert got.tolist() == equity[:, col].tolist(), (side, street, wants)


def test_a_better_badugi_is_worth_more() -> None:
    """Sanity of the whole table: before the first draw against three opponents, a four-card badugi topped by
    a 4 is worth clearly more than one topped by a 10, which is worth more than the best three-card hand,
    itself worth clearly more than a three-card hand topped by a 10 (low badugi; the entries are 128-deal
    estimates, so only clear steps are asserted)."""
    spot = (0, (-1, -1, -1))
    four = {r: badugi_table(False, *spot, 4, (-r,), ()) for r in (4, 10)}
    three = {r: badugi_table(False, *spot, 3, (-r,), ()) for r in (3, 10)}
    assert None not in four.values() and None not in three.values()
    assert four[4] > four[10] + 0.1  # type: ignore[operator]
    assert four[10] > three[3] > three[10] + 0.2  # type: ignore[operator]
