"""The hint's tags over my cards ("버림 추천", "오픈 추천") leave my hand's name above the cards ("지금: K탑")
readable on every phone (390×844, 360×740 and 320×568)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from crowd_views import render
from test_button_amounts import PHONES
from webplay import harness, load, shot

pytestmark = pytest.mark.browser


#: The hint's tags over the cards ("버림 추천", above the card's top edge, 17 px high) against the hand's name
#: above the cards ("지금: K탑"): how far each shown tag reaches into the name's line.
TAGS_OVER_NAME = r"""() => {
  const name = document.querySelector('.me-area .hand-name').getBoundingClientRect();
  const tagged = '.my-cards .card.hint-discard, .my-cards .card.hint-open, .my-cards .card.hint-draw';
  return [...document.querySelectorAll(tagged)]
    .map((c) => [c.getBoundingClientRect().top, getComputedStyle(c, '::before')])
    .filter(([, tag]) => tag.display !== 'none')
    .map(([top, tag]) => name.bottom - (top + parseFloat(tag.top)));
}"""


@pytest.mark.parametrize("phone", PHONES, ids=lambda p: f"{p['width']}x{p['height']}")
def test_the_choice_hints_tags_leave_the_hand_name_readable(static_page: Any, phone: dict[str, int]) -> None:
    """On a short phone my cards sit 10 px under the hand's name, and the tags reached 8 px into it; there
    they now overlap the cards' top edge instead (moving the cards down pushed the buttons off the screen)."""
    page = harness(static_page, "seven_choice", phone)
    view = load("seven_choice")
    ids = [c["id"] for c in view["me"]["choice"]]
    view["me"]["hint"] = {"type": "choose", "discardId": ids[2], "openId": ids[0]}
    render(page, view)
    assert page.locator(".my-cards .card.hint-discard").count() == 1
    reach = page.evaluate(TAGS_OVER_NAME)
    assert len(reach) == 2 and max(reach) <= 2  # (the name's line has that much room under its letters)
    shot(page, f"hint-tags-{phone['width']}")


@pytest.mark.parametrize("phone", PHONES, ids=lambda p: f"{p['width']}x{p['height']}")
def test_a_raised_card_leaves_the_hand_name_readable(static_page: Any, phone: dict[str, int]) -> None:
    """A card picked to be exchanged rises 16 px; its "교환 추천" tag rose with it 15 px into my hand's name.
    Picked, it needs no tag: the tag goes; the other recommended card keeps its own."""
    page = harness(static_page, "badugi_draw", phone)
    page.locator(".my-cards .card.hint-draw").first.click()
    assert page.locator(".my-cards .card.raised.hint-draw").count() == 1
    reach = page.evaluate(TAGS_OVER_NAME)
    assert len(reach) == 1 and reach[0] <= 2
