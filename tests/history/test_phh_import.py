"""PHH import and export: the 158 shared real hands import, export and replay to the same stacks; imported
hands replay as frames; files the replayer cannot read are refused in Korean.

pokerkit is the oracle only (tests/needs.py): it replays our exports, never runs in the product."""

from __future__ import annotations

from decimal import Decimal

import pytest

import needs
from pokerroom.history.frames import replay_frames
from pokerroom.history.phh import to_phh
from pokerroom.history.phh_import import PhhError, import_phh


def _oracle_stacks(text: str) -> list[Decimal]:
    """The finishing stacks pokerkit reaches replaying ``text`` (its own reading of PHH)."""
    pokerkit = needs.module("pokerkit")
    return [Decimal(str(s)) for s in list(pokerkit.HandHistory.loads(text))[-1].stacks]


def _stacks(text: str) -> list[Decimal]:
    """The finishing stacks this project's import reaches (in the file's own units)."""
    done = import_phh(text)
    scale = Decimal(int((done.record.phh or {})["scale"]))
    return [Decimal(done.record.finishing_stacks[p]) / scale for p in done.record.order]


def test_the_shared_hands_round_trip() -> None:
    """export(import(h)) replays to h's stacks, for every shared hand: in this project's own import and in
    pokerkit, whether exported with every card or for a spectator (hole cards ``??``, shown ones kept)."""
    files = sorted(needs.phh_hands().glob("*.phh"))
    counts = {"imported": 0, "exported": 0, "same stacks": 0}
    for path in files:
        text = path.read_text(encoding="utf-8")
        expected = _oracle_stacks(text)
        done = import_phh(text)
        counts["imported"] += 1
        assert done.stacks_agree is not False, path.name  # the file's own finishing_stacks, when it has them
        assert done.record.ledger_ok, path.name
        assert _stacks(text) == expected, path.name
        every = to_phh(done.record, names=done.names)
        spectator = to_phh(done.record, everyone=False, names=done.names)
        counts["exported"] += 1
        assert _oracle_stacks(every) == expected, f"{path.name}:\n{every}"
        assert _stacks(every) == expected and _stacks(spectator) == expected, f"{path.name}:\n{spectator}"
        assert "??" not in every.split("actions")[1] or "??" in text, path.name
        counts["same stacks"] += 1
    assert counts == {"imported": len(files), "exported": len(files), "same stacks": len(files)}
    assert len(files) == 158


def test_an_imported_hand_replays_with_every_known_card() -> None:
    done = import_phh(_DWAN)
    frames = replay_frames(done.record, None, everyone=True)
    first = frames[0]["view"]
    ivey, antonius, _dwan = first["seats"]
    assert [c["rank"] for c in ivey["hole"]] == [14, 2] and ivey["hole"][1]["suit"] == "D"
    assert all(c.get("hidden") for c in antonius["hole"])  # "????" in the file: unknown to anyone
    assert first["me"] is None and first["pots"][0]["amount"] == 1500  # the antes
    last = frames[-1]["view"]
    assert last["phase"] == "handEnd" and {a["to"] for a in last["awards"]} == {"p3"}
    assert [s["stack"] for s in last["seats"]] == [572100, 1997500, 1109500]  # as pokerkit has them
    assert any(e.get("rankName", "").endswith("스트레이트") for e in last["showdown"])
    assert done.names == {"p1": "Phil Ivey", "p2": "Patrik Antonius", "p3": "Tom Dwan"}


def test_a_loser_who_mucks_at_the_showdown_is_a_muck_not_a_fold() -> None:
    """``p2 sm`` with no cards after the river's last call: p2 threw the hand away at the showdown. The
    replay's table takes p2 out of the pot as a fold does but says it was a muck (``mucked``), so the
    banner does not say everyone folded to p1; nobody else is marked; and p1's award names the hand p1
    showed, as a showdown's would."""
    done = import_phh(_MUCK)
    last = replay_frames(done.record, None, everyone=True)[-1]["view"]
    by_id = {s["id"]: s for s in last["seats"]}
    assert by_id["p2"]["mucked"] and by_id["p2"]["folded"]
    assert by_id["p1"]["shown"] and not by_id["p1"]["mucked"] and not by_id["p1"]["folded"]
    assert not any(s["mucked"] for s in last["seats"] if s["id"] != "p2")
    assert [(a["to"], a["hand"]) for a in last["awards"]] == [("p1", "6 원페어")]  # what won the showdown
    assert [s["stack"] for s in last["seats"]] == [10300, 9700, 10000]
    # a pot won by a fold names no hand, even when the winner shows after it
    folded = import_phh(_MUCK.replace('"p2 cc",\n  "p1 sm 6d3d", "p2 sm"]', '"p2 f", "p1 sm 6d3d"]'))
    end = replay_frames(folded.record, None, everyone=True)[-1]["view"]
    assert [(a["to"], a["hand"]) for a in end["awards"]] == [("p1", None)]
    assert not any(s["mucked"] for s in end["seats"])


_MUCK = """variant = "NT"
antes = [0, 0, 0]
blinds_or_straddles = [50, 100, 0]
min_bet = 100
starting_stacks = [10000, 10000, 10000]
actions = ["d dh p1 6d3d", "d dh p2 ThKs", "d dh p3 5s2d", "p3 f", "p1 cbr 300", "p2 cc",
  "d db Qh6s9s", "p1 cc", "p2 cc", "d db 2h", "p1 cc", "p2 cc", "d db 8d", "p1 cc", "p2 cc",
  "p1 sm 6d3d", "p2 sm"]
"""


_DWAN = """variant = "NT"
ante_trimming_status = true
antes = [500, 500, 500]
blinds_or_straddles = [1000, 2000, 0]
min_bet = 2000
starting_stacks = [1125600, 2000000, 553500]
actions = ["d dh p1 Ac2d", "d dh p2 ????", "d dh p3 7h6h", "p3 cbr 7000", "p1 cbr 23000", "p2 f", "p3 cc",
  "d db Jc3d5c", "p1 cbr 35000", "p3 cc", "d db 4h", "p1 cbr 90000", "p3 cbr 232600", "p1 cbr 1067100",
  "p3 cc", "p1 sm Ac2d", "p3 sm 7h6h", "d db Jh"]
players = ["Phil Ivey", "Patrik Antonius", "Tom Dwan"]
"""

_BADUGI = """variant = "FB"
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
small_bet = 2
big_bet = 4
starting_stacks = [200, 200, 200]
actions = ["d dh p1 7s8c9hTd", "d dh p2 2c3dKhKs", "d dh p3 AhAdQsJc",
  "p3 cbr 4", "p1 f", "p2 cc",
  "p2 sd Ks", "p3 sd AdQsJc", "d dh p2 4s", "d dh p3 2h5c6d",
  "p2 cc", "p3 cbr 2", "p2 cc",
  "p2 sd", "p3 sd 6d", "d dh p3 7d",
  "p2 cbr 4", "p3 cc",
  "p2 sd", "p3 sd", "p2 cbr 4", "p3 cc", "p2 sm 2c3dKh4s", "p3 sm Ah2h5c7d"]
"""


def test_a_badugi_draw_hand_imports_and_exports() -> None:
    """FB (fixed-limit badugi): the draws (``sd`` then the new cards) replay, the project's badugi ranking
    decides, and the export replays in pokerkit to the same stacks."""
    done = import_phh(_BADUGI)
    rec = done.record
    assert rec.mode == "badugi" and [rec.finishing_stacks[p] for p in rec.order] == _oracle_stacks(_BADUGI)
    frames = replay_frames(rec, None, everyone=True)
    assert [f["step"]["type"] for f in frames].count("drawn") == 3
    out = to_phh(rec, names=done.names)
    assert "p3 sd AdQsJc" in out and _oracle_stacks(out) == _oracle_stacks(_BADUGI)


@pytest.mark.parametrize(("text", "says"), [
    ("variant = 'F7S'\nantes=[1,1]\nstarting_stacks=[10,10]\nactions=[]", "F7S"),
    ("this is = not [toml", "TOML"),
    ("variant = 'NT'\nantes=[0]\nblinds_or_straddles=[1]\nmin_bet=1\nstarting_stacks=[10]\n"
     "actions=[]", "2~10"),
    ("variant = 'NT'\nantes=[0,0]\nblinds_or_straddles=[1,2]\nmin_bet=2\nstarting_stacks=[10,10]\n"
     "actions=['d dh p1 AsAs', 'p9 f']", "없는 참가자"),
    ("variant = 'NT'\nantes=[0,0]\nblinds_or_straddles=[1,2]\nmin_bet=2\nstarting_stacks=[10,inf]\n"
     "actions=[]", "유한한"),
    ("variant = 'NT'\nantes=[0,0]\nblinds_or_straddles=[1,2]\nmin_bet=2\nstarting_stacks=[10,10]\n"
     "actions=['d dh p1 ????', 'd dh p2 ????', 'p2 cc', 'p1 cc', 'd db 2c3c4c', 'd db 5d', 'd db 9s']",
     "카드를 몰라"),
])
def test_files_it_cannot_replay_are_refused_in_korean(text: str, says: str) -> None:
    with pytest.raises(PhhError, match=says):
        import_phh(text)
