"""Golden playthroughs (tests/golden/*.jsonl, made by scripts/regen_golden.py): replay the recorded actions
from the recorded seed and compare every event list and every viewer's view, step by step.

A failure here means what a client sees has changed: if that was intended, regenerate the files and review
the diff.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest

from pokerroom.engine import apply, on_timeout, setup, view

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("regen_golden", ROOT / "scripts" / "regen_golden.py")
assert _spec is not None and _spec.loader is not None
regen = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(regen)

MODES = ["holdem", "omaha", "sevenPoker", "sevenHiLo", "badugi", "fiveDraw", "indian", "omahaHiLo"]
#: House rules of docs/rules-extensions.md (one file each, see ``CASES`` in scripts/regen_golden.py).
HOUSE_RULES = ["rule491", "betCap", "badugiHigh", "jacksOrBetter", "bigBlindAnte", "runItTwice"]


def _views(state: Any, ids: list[str]) -> dict[str, Any]:
    out = {}
    for viewer in [*ids, None]:
        v = view(state, viewer)
        v.pop("publicLog")
        v.pop("options")
        out["spectator" if viewer is None else viewer] = json.loads(json.dumps(v))
    return out


@pytest.mark.parametrize("mode", MODES + HOUSE_RULES)
def test_golden_replay(mode: str) -> None:
    data = regen.load_lines((ROOT / "tests" / "golden" / f"{mode}.jsonl").read_text(encoding="utf-8"))
    ids = [f"p{i}" for i in range(data["players"])]
    state = setup(ids, data["options"], seed=data["seed"], now_ms=0)
    assert _views(state, ids) == data["steps"][0]["views"], "setup view differs"
    for i, step in enumerate(data["steps"][1:], start=1):
        if step["actor"] == "*":
            state, events = on_timeout(state, step["now"])
        else:
            state, events = apply(state, step["actor"], step["action"], step["now"])
        assert json.loads(json.dumps(events)) == step["events"], f"events differ at step {i}"
        got = _views(state, ids)
        for viewer, want in step["views"].items():
            assert got[viewer] == want, f"view of {viewer} differs at step {i}"
    assert json.loads(json.dumps(view(state, None)["publicLog"])) == data["finalLog"]
