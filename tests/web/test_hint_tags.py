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


#: The hint's tag over a card ("버림 추천": 18 px above the card, 17 px high) against the hand's name above
#: the cards ("지금: K탑"): how far the tag reaches into the name's line.
TAG_OVER_NAME = r"""() => {
  const name = document.querySelector('.me-area .hand-name').getBoundingClientRect();
  const tagged = [...document.querySelectorAll('.my-cards .card.hint-discard, .my-cards .card.hint-open')];
  return Math.max(...tagged.map((c) => name.bottom - (c.getBoundingClientRect().top - 18)));
}"""


@pytest.mark.parametrize("phone", PHONES, ids=lambda p: f"{p['width']}x{p['height']}")
def test_the_choice_hints_tags_leave_the_hand_name_readable(static_page: Any, phone: dict[str, int]) -> None:
    """On a short phone my cards sit 10 px under the hand's name, and the tags reached 8 px into it."""
    page = harness(static_page, "seven_choice", phone)
    view = load("seven_choice")
    ids = [c["id"] for c in view["me"]["choice"]]
    view["me"]["hint"] = {"type": "choose", "discardId": ids[2], "openId": ids[0]}
    render(page, view)
    assert page.locator(".my-cards .card.hint-discard").count() == 1
    assert page.evaluate(TAG_OVER_NAME) <= 2  # (the name's line has that much room under its letters)
    shot(page, f"hint-tags-{phone['width']}")


@pytest.mark.parametrize("phone", PHONES, ids=lambda p: f"{p['width']}x{p['height']}")
def test_a_raised_card_leaves_the_hand_name_readable(static_page: Any, phone: dict[str, int]) -> None:
    """A card picked to be exchanged rises 16 px; its "교환 추천" tag rose with it 15 px into my hand's name.
    Picked, it needs no tag: the tag goes; the other recommended card keeps its own."""
    page = harness(static_page, "badugi_draw", phone)
    page.locator(".my-cards .card.hint-draw").first.click()
    assert page.locator(".my-cards .card.raised.hint-draw").count() == 1
    tagged = r"""() => {
      const name = document.querySelector('.me-area .hand-name').getBoundingClientRect();
      return [...document.querySelectorAll('.my-cards .card.hint-draw')]
        .filter((c) => getComputedStyle(c, '::before').display !== 'none')
        .map((c) => name.bottom - (c.getBoundingClientRect().top - 18));
    }"""
    reach = page.evaluate(tagged)
    assert len(reach) == 1 and reach[0] <= 2
