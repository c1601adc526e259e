"""A finished game replayed in the sandbox page: the Replay button, then stepping through the turns privately."""

from __future__ import annotations

import random
import re

import pytest
from playwright.sync_api import expect

from tests.browser.pagekit import (
    ANSWER_TIMEOUT,
    channel_name,
    choose,
    command,
    open_window,
    play_to_end,
    settled,
    shot,
    view_as,
)

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

WAIT = ANSWER_TIMEOUT * 1000


@pytest.mark.journey
def test_a_finished_game_is_stepped_through_to_its_last_turn_from_the_replay_button(context, sandbox):
    page = open_window(context, sandbox)
    assert channel_name(page) == "kokeshi"
    view_as(page, "Aiko")
    command(page, "kokeshi solo")
    expect(page.locator("#channel-name")).to_have_text(re.compile(r"Kokeshi #\d+.*solo"), timeout=15_000)
    play_to_end(page, random.Random(5))
    messages = page.locator("#channel-message-list article.channel-message")
    final = messages.filter(has_text="is over").last
    final.get_by_role("button", name="Replay").click()
    viewer = messages.filter(has_text="Replay of Kokeshi").last
    expect(viewer).to_contain_text(re.compile(r"turn 1 of \d+"), timeout=WAIT)
    expect(viewer.locator(".message-ephemeral-note")).to_have_count(1)
    count = int(re.search(r"turn 1 of (\d+)", viewer.inner_text())[1])
    assert count > 10
    shot(page, "replay-first-turn")
    # Each step as a person takes it: once the page has drawn the last one (its buttons are then the new turn's),
    # and a click the page took without sending it is made again.
    rng = random.Random(6)
    for turn in (2, 3):
        settled(page)
        choose(page, viewer.get_by_role("button", name="Next"), rng)
        expect(viewer).to_contain_text(f"turn {turn} of {count}", timeout=WAIT)
    settled(page)
    choose(page, viewer.get_by_role("button", name="Last"), rng)
    expect(viewer).to_contain_text(f"turn {count} of {count}", timeout=WAIT)
    expect(viewer.get_by_role("button", name="Next")).to_be_disabled()
    shot(page, "replay-last-turn")
    phone = open_window(context, sandbox, width=390, height=844)
    shot(phone, "replay-phone")
