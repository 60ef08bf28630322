"""The hold'em house options on the table (docs/rules-extensions.md), on fixture views made by the engine
(tests/web/fixtures/make_fixtures.py): the straddle and the antes in the seats' bet chips, the run-it-twice
question and its buttons, both boards at the hand's end with each board's winning cards, at 390×844 and
320×568 (screenshots in artifacts/screenshots/house-blinds-*.png); and the lobby offering the options for
hold'em and Omaha only.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import webplay as wp
from webplay import MOBILE, harness, shot

pytestmark = pytest.mark.browser

SMALL = {"width": 320, "height": 568}
PHONES = [("390", MOBILE), ("320", SMALL)]


def chip(page: Any, pid: str) -> tuple[str, str]:
    """(the bet, the ante) a seat's bet chip shows; "" for either that is not there."""
    out: tuple[str, str] = tuple(page.locator(f".seat[data-seat-id={pid}] .bet-chip").evaluate(
        "e => [[...e.childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent).join(''),"
        " e.querySelector('.ante')?.textContent ?? '']"))
    return out


def overlaps(page: Any, a: str, b: str) -> bool:
    """Whether an element of ``a`` overlaps another element of ``b`` (by more than a pixel each way)."""
    return bool(page.evaluate("""([a, b]) => {
      const els = (s) => [...document.querySelectorAll(s)];
      const hit = (x, y) => Math.min(x.right, y.right) - Math.max(x.left, y.left) > 1
        && Math.min(x.bottom, y.bottom) - Math.max(x.top, y.top) > 1;
      return els(a).some((e) => els(b).some((f) => e !== f
        && hit(e.getBoundingClientRect(), f.getBoundingClientRect())));
    }""", [a, b]))


@pytest.mark.parametrize(("tag", "viewport"), PHONES)
def test_straddle_and_big_blind_ante_in_the_seats(static_page: Any, tag: str,
                                                  viewport: dict[str, int]) -> None:
    page = harness(static_page, "holdem_straddle_ante", viewport)
    straddler = page.locator(".seat[data-seat-id=p3]")
    assert straddler.locator(".mark", has_text="STR").count() == 1
    assert straddler.locator(".bet-chip").inner_text().strip() == "20"
    assert chip(page, "p2") == ("10", "앤티 10")
    label = page.locator(".seat[data-seat-id=p2] .bet-chip").get_attribute("aria-label")
    assert label == "이번 라운드 10, 앤티 10"
    phase = page.locator("[data-testid=phase-line]").inner_text()
    assert "BB 앤티 10" in phase and "스트래들 20" in phase
    assert page.locator("[data-testid=pot]").get_attribute("aria-label") == "판돈 45칩"
    # I act first after the straddle: call 20, a raise from 40
    assert "20" in page.locator("[data-action='nl.call']").inner_text()
    assert not overlaps(page, ".seat", ".seat")
    shot(page, f"house-blinds-straddle-{tag}")


def test_antes_of_everyone_show_beside_the_bets(static_page: Any) -> None:
    page = harness(static_page, "holdem_antes", SMALL)
    chips = {pid: chip(page, pid) for pid in ("p1", "p2", "p4")}
    assert chips == {"p1": ("5", "앤티 2"), "p2": ("10", "앤티 2"), "p4": ("", "앤티 2")}
    assert "앤티 2" in page.locator("[data-testid=me-area] .me-line").inner_text()
    shot(page, "house-blinds-antes-320")


@pytest.mark.parametrize(("tag", "viewport"), PHONES)
def test_run_it_twice_question(static_page: Any, tag: str, viewport: dict[str, int]) -> None:
    page = harness(static_page, "holdem_run_twice_ask", viewport)
    assert "런 잇 트와이스" in page.locator("[data-testid=phase-line]").inner_text()
    assert "두 번 돌릴까요" in page.locator("[data-testid=run-twice-ask]").inner_text()
    yes, no = page.locator("[data-action=runtwice-yes]"), page.locator("[data-action=runtwice-no]")
    for button in (yes, no):  # (short phones: 52 px big buttons, style.css)
        box = button.bounding_box()
        assert box and box["height"] >= (56 if viewport["height"] > 700 else 52)
    shot(page, f"house-blinds-run-twice-ask-{tag}")
    yes.click()
    assert page.evaluate("() => window.sent") == [{"type": "runTwice", "agree": True}]


@pytest.mark.parametrize(("tag", "viewport"), PHONES)
def test_run_it_twice_both_boards_and_their_winners(static_page: Any, tag: str,
                                                     viewport: dict[str, int]) -> None:
    page = harness(static_page, "holdem_run_twice", viewport)
    v = wp.load("holdem_run_twice")
    boards = page.locator(".center .board")
    assert boards.count() == 2
    assert [boards.nth(k).get_attribute("aria-label") for k in (0, 1)] == ["첫 번째 보드", "두 번째 보드"]
    first = [int(x) for x in boards.nth(0).locator("[data-card-id]").evaluate_all(
        "els => els.map((e) => e.dataset.cardId)")]
    second = [int(x) for x in boards.nth(1).locator("[data-card-id]").evaluate_all(
        "els => els.map((e) => e.dataset.cardId)")]
    assert first == [c["id"] for c in v["board"]]
    assert second == [c["id"] for c in v["houseRules"]["runItTwice"]["board2"]]
    # each board marks the cards that won it: p2's flush on the first, p3's queens on the second
    entries = {e["id"]: e for e in v["showdown"]}
    for k, cards, winner in ((0, first, entries["p2"]), (1, second, entries["p3"]["second"])):
        best = boards.nth(k).locator(".card.best").evaluate_all(
            "els => els.map((e) => Number(e.dataset.cardId))")
        assert sorted(best) == sorted(c["id"] for c in winner["best"] if c["id"] in cards)
    banner = page.locator("[data-testid=hand-result]").inner_text()
    assert "보드1 에이스 플러시" in banner and "보드2 퀸 트리플" in banner
    assert not overlaps(page, ".center .board", ".seat") and not overlaps(page, ".center .board", ".banner")
    shot(page, f"house-blinds-run-twice-{tag}")
    # a short phone grows the table and scrolls to my area (render.js placeTable): the top of it too
    page.evaluate("() => window.scrollTo(0, 0)")
    shot(page, f"house-blinds-run-twice-{tag}-top")


def test_lobby_offers_the_options_for_holdem_and_omaha_only(live_server: Any, open_page: Any) -> None:
    page = open_page("hb-lobby", MOBILE)
    page.goto(live_server.http + "/")
    for mode, offered in (("sevenPoker", False), ("holdem", True), ("omaha", True), ("badugi", False)):
        wp.pick_option(page, "mode", mode)
        for key in ("ante", "straddle", "runItTwice"):
            assert bool(page.locator(f"[data-field={key}]").count()) is offered, (mode, key)
    wp.pick_option(page, "mode", "holdem")
    assert not page.locator("[data-field=antePercent]").count()  # only with an ante
    wp.pick_option(page, "ante", "bigBlind")
    assert page.locator("input[data-opt=antePercent]:checked").get_attribute("value") == "100"
    page.locator("[data-field=runItTwice]").scroll_into_view_if_needed()
    shot(page, "house-blinds-lobby")
