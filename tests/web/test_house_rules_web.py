"""House rules in the browser (docs/rules-extensions.md) on a 390×844 phone: the lobby offers each option only
for its modes, the rules page explains it, and a hand is played by clicking with the rule on — under 491 the
other Korean buttons are grey with the reason shown; under the bet cap the raise slider stops at the cap."""

from __future__ import annotations

import re
import sys
import time
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import webplay as wp
from webplay import MOBILE, shot

pytestmark = pytest.mark.browser

SMALL = {"width": 360, "height": 640}
RULE_491 = "491 룰: 4구·5구 첫 베팅은 하프 또는 다이만 할 수 있어요"


def shown(page: Any, key: str) -> bool:
    return bool(page.locator(f"[data-field={key}]").count())


def open_room(live_server: Any, open_page: Any, mode: str, n: int, **options: Any) -> tuple[list[Any], Any]:
    players = [open_page(f"hr-player{i}", MOBILE) for i in range(n)]
    spectator = open_page("hr-spectator", SMALL)
    code = wp.create_room_ui(players[0], live_server.http, "민수", mode, **options)
    for i in range(1, n):
        wp.join_ui(players[i], live_server.http, code, ["지수", "하늘"][i - 1])
    wp.spectate_ui(spectator, live_server.http, code)
    wp.wait_members(players[0], n)
    players[0].click("[data-testid=start]")
    for p in [*players, spectator]:
        wp.wait_table(p)
    return players, spectator


def click(page: Any, action: str) -> None:
    before = wp.version(page)
    page.click(f"[data-action='{action}']")
    end = time.monotonic() + 15
    while time.monotonic() < end and wp.version(page) <= before:
        page.wait_for_timeout(50)
    assert wp.version(page) > before, f"no new version after {action}"


def to_act(players: list[Any]) -> tuple[Any, dict[str, Any]] | None:
    for p in players:
        v = wp.view(p) or {}
        if v.get("phase") == "betting" and (v.get("me") or {}).get("legalActions"):
            return p, v
    return None


def test_lobby_offers_house_rules_only_for_their_modes_and_rules_page_explains(
        live_server: Any, open_page: Any) -> None:
    page = open_page("hr-lobby", MOBILE)
    page.goto(live_server.http + "/")
    assert shown(page, "rule491") and shown(page, "betCap")  # 7포커 (default mode, Korean betting)
    assert page.locator("input[data-opt=rule491]:checked").get_attribute("value") == "false"
    assert page.locator("input[data-opt=betCap]:checked").get_attribute("value") == "0"
    page.locator("[data-field=rule491]").scroll_into_view_if_needed()
    shot(page, "house-lobby-seven")
    wp.pick_option(page, "betting", "noLimit")
    assert not shown(page, "rule491")  # 491 is a Korean-betting rule
    wp.pick_option(page, "betting", "auto")
    assert not shown(page, "badugiHigh")
    for mode, has491 in (("sevenHiLo", True), ("holdem", False), ("badugi", False), ("indian", False)):
        wp.pick_option(page, "mode", mode)
        assert shown(page, "rule491") is has491, mode
        assert shown(page, "betCap"), mode
        assert shown(page, "badugiHigh") is (mode == "badugi"), mode
    page.click("#btn-rules")
    dlg = page.locator("#dlg-rules")
    page.select_option("#rules-mode", "sevenPoker")
    text = dlg.inner_text()
    assert "491 룰" in text and "하프 또는 다이만" in text and "맥스 베팅 상한" in text
    assert "하이 바둑이" not in text
    page.select_option("#rules-mode", "badugi")
    assert "하이 바둑이" in dlg.inner_text() and "491 룰" not in dlg.inner_text()
    page.select_option("#rules-mode", "holdem")
    assert "491 룰" not in dlg.inner_text() and "맥스 베팅 상한" in dlg.inner_text()
    dlg.locator("[data-testid=house-rules]").scroll_into_view_if_needed()
    shot(page, "house-rules-page")


def test_rule491_hand_on_a_phone(live_server: Any, open_page: Any) -> None:
    players, spectator = open_room(live_server, open_page, "sevenPoker", 2, rule491=True)
    for p in players:  # the choice, through the cards
        wp.act_once(p, {"no_bets": True})
    seen_streets: set[str] = set()
    halves = 0
    end = time.monotonic() + 90
    while time.monotonic() < end:
        v0 = wp.view(players[0]) or {}
        if v0.get("phase") in ("handEnd", "finished", "rebuy") or v0.get("handNo", 1) > 1:
            break
        turn = to_act(players)
        if turn is None:  # the choice only: a stale view turned fresh may be a 491 turn the default would die
            for p in players:
                wp.act_once(p, {"no_bets": True})
            players[0].wait_for_timeout(100)
            continue
        page, v = turn
        types = [a["type"] for a in v["me"]["legalActions"]]
        restriction = (v.get("houseRules") or {}).get("restriction")
        if restriction:
            assert types == ["k.half", "k.die"] and v["streetName"] in ("4구", "5구")
            line = page.locator("[data-testid=house-rule]")
            assert line.is_visible() and line.inner_text() == RULE_491
            for kind in ("k.check", "k.ping", "k.call", "k.ddadang", "k.quarter"):
                btn = page.locator(f"[data-action='{kind}']")
                assert btn.is_disabled() and "ruled" in (btn.get_attribute("class") or "")
                assert "491 룰" in (btn.get_attribute("aria-label") or "")
            assert page.locator("[data-action='k.half']").is_enabled()
            assert "491 룰" in page.locator("[data-testid=phase-line]").inner_text()
            if v["streetName"] not in seen_streets:
                shot(page, f"house-491-{v['streetName']}")
                seen_streets.add(v["streetName"])
                if v["streetName"] == "4구":
                    shot(spectator, "house-491-spectator-360")
            click(page, "k.half")
            halves += 1
        else:
            assert page.locator("[data-testid=house-rule]").count() == 0
            click(page, next(t for t in ("k.check", "k.call", "k.die") if t in types))
    assert seen_streets == {"4구", "5구"} and halves >= 2
    players[0].wait_for_timeout(300)
    shot(players[0], "house-491-end")


def test_bet_cap_hand_on_a_phone(live_server: Any, open_page: Any) -> None:
    players, _spectator = open_room(live_server, open_page, "holdem", 2, betCap=10)
    turn = None
    end = time.monotonic() + 15
    while turn is None and time.monotonic() < end:
        turn = to_act(players)
        players[0].wait_for_timeout(100)
    assert turn is not None
    page, v = turn
    assert "맥스 100" in page.locator("[data-testid=phase-line]").inner_text()
    raise_ = next(a for a in v["me"]["legalActions"] if a["type"] == "nl.raise")
    assert raise_["max"] == v["currentBet"] + 100
    page.click("[data-action='nl.raise']")
    page.wait_for_selector("[data-testid=raise-panel]")
    page.click("[data-quick=max]")
    # the amount shown is the cap ("레이즈 110까지": the button's wording since the log matches it)
    assert re.search(rf"(^|\D){raise_['max']}(\D|$)", page.locator("[data-testid=raise-amount]").inner_text())
    assert page.locator("[data-quick=max]").inner_text() == "최대"  # the cap, not the whole stack
    shot(page, "house-betcap-raise")
    before = wp.version(page)
    page.click("[data-action=raise-confirm]")
    page.wait_for_function("(b) => window.__room.conn.version > b", arg=before)
    final = wp.play_hand(players)
    assert final["phase"] in ("handEnd", "finished", "rebuy") or final["handNo"] > 1
    shot(players[0], "house-betcap-end")


def test_badugi_high_hand_on_a_phone(live_server: Any, open_page: Any) -> None:
    players, spectator = open_room(live_server, open_page, "badugi", 2, badugiHigh=True)
    p0 = players[0]
    assert "하이 바둑이" in p0.locator("[data-testid=phase-line]").inner_text()
    assert (wp.view(p0) or {})["houseRules"]["badugiHigh"] is True
    shot(p0, "house-badugi-high-start")
    final = wp.play_hand(players, [{"draw": 1}, {"draw": 0}])
    assert final["phase"] in ("handEnd", "finished", "rebuy") or final["handNo"] > 1
    if final["phase"] == "handEnd" and final["showdown"]:
        # the winner named by the server holds the highest badugi, by the rule text
        from pokerroom.cards import Card
        from pokerroom.hands import badugi_high

        values = {e["id"]: badugi_high([Card(c["id"], c["rank"], c["suit"]) for c in e["cards"]])
                  for e in final["showdown"]}
        best = max(values.values())
        assert {a["to"] for a in final["awards"]} == {pid for pid, v in values.items() if v == best}
    p0.wait_for_timeout(300)
    shot(p0, "house-badugi-high-end")
    shot(spectator, "house-badugi-high-spectator-360")


def test_jacks_or_better_hands_on_a_phone(live_server: Any, open_page: Any) -> None:
    """Play five-card draw with 잭스 오어 베터 until somebody opens and the hand ends (re-deals included)."""
    players, spectator = open_room(live_server, open_page, "fiveDraw", 2, jacksOrBetter=True)
    p0 = players[0]
    assert "잭스 오어 베터" in p0.locator("[data-testid=phase-line]").inner_text()
    saw = {"restricted": False, "noOpener": False, "proof": False}
    end = time.monotonic() + 120
    # the deals are random: the first opener may hold openers at once, so play on (more hands) until both a
    # restricted turn and an opener's proof were seen
    while time.monotonic() < end and not (saw["proof"] and saw["restricted"]):
        v0 = wp.view(p0) or {}
        hr = v0.get("houseRules") or {}
        if v0.get("phase") == "handEnd":
            if hr.get("noOpener") and not saw["noOpener"]:
                saw["noOpener"] = True
                assert "아무도 못 열었어요" in p0.locator("[data-testid=hand-result]").inner_text()
                shot(p0, "house-job-no-opener")
            if hr.get("openerProof") and not saw["proof"]:
                saw["proof"] = True
                shot(p0, "house-job-proof")
                shot(spectator, "house-job-proof-spectator-360")
                checked = 0
                for page in (*players, spectator):  # the proof is shown to everyone, the spectator too
                    # view and DOM read together: the 4-second hand end may move a slow page on meanwhile
                    phase, proof, cards = page.evaluate(
                        "() => { const v = window.__room.view; return [v.phase,"
                        " (v.houseRules || {}).openerProof,"
                        " document.querySelectorAll('[data-testid=opener-proof] .card').length]; }")
                    if phase == "handEnd" and proof:
                        assert cards == len(proof) >= 2
                        checked += 1
                assert checked >= 1
                if saw["restricted"]:
                    break
        turn = to_act(players)
        if turn is None:
            for p in players:
                if (wp.view(p) or {}).get("phase") in ("draw", "handEnd"):
                    wp.act_once(p, {"draw": 0, "no_bets": True})
            p0.wait_for_timeout(100)
            continue
        page, v = turn
        types = [a["type"] for a in v["me"]["legalActions"]]
        restriction = (v.get("houseRules") or {}).get("restriction")
        if restriction and "k.ping" not in types:
            saw["restricted"] = True
            assert types == ["k.check", "k.die"]
            assert page.locator("[data-testid=house-rule]").inner_text() == restriction
            btn = page.locator("[data-action='k.ping']")
            assert btn.is_disabled() and "잭스 오어 베터" in (btn.get_attribute("aria-label") or "")
            if not saw["noOpener"]:
                shot(page, "house-job-restricted")
            click(page, "k.check")
        elif "k.ping" in types and restriction:
            click(page, "k.ping")  # I hold openers: open
        else:
            click(page, next(t for t in ("k.check", "k.call", "k.die") if t in types))
    assert saw["restricted"] and saw["proof"], saw
