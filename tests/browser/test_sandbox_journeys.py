"""A daily challenge's whole life in the sandbox page: played to its end against the automa, shared in the channel,
replayed turn by turn."""

from __future__ import annotations

import random
import re

import pytest
from playwright.sync_api import expect

from tests.browser.pagekit import (
    ANSWER_TIMEOUT,
    OVER,
    channel_name,
    choose,
    command,
    every_click_reached_the_bot,
    newest_picture_shown,
    open_window,
    play_to_end,
    settled,
    shot,
    view_as,
)

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

WAIT = ANSWER_TIMEOUT * 1000
PHONE = {"width": 390, "height": 844}
MESSAGES = "#channel-message-list article.channel-message"
# A turn record's first line, as the thread and the replay show it: who, which round, the points won and the total.
RECORD = re.compile(r"^.+ · .+ · [+−]?[\d,]+ → −?[\d,]+ points?\b", re.M)


def picture_of(message, name: str):
    """The picture of `message` whose file is named `name`, once it has loaded."""
    picture = message.locator(f"button.media-lightbox-trigger[aria-label*='{name}'] img.attachment-image")
    expect(picture).to_have_count(1, timeout=WAIT)
    picture.page.wait_for_function("p => p.complete && p.naturalWidth > 0", arg=picture.element_handle(), timeout=WAIT)
    return picture


def follow(page, link) -> None:
    """Follow a link to a channel or thread: the page moves there, in place."""
    before = channel_name(page)
    settled(page)
    link.click()
    expect(page.locator("#channel-name")).not_to_have_text(before, timeout=WAIT)
    settled(page)


def in_sight(page, element, name: str) -> None:
    """`element` is in view (a screenshot of the page otherwise, for whoever reads the failure)."""
    try:
        expect(element).to_be_in_viewport(timeout=10_000)
    except AssertionError:
        shot(page, f"failed-{name}")
        raise


def swipe_to(page, element) -> None:
    """Scroll the conversation as a finger does (the page then leaves the view to the person) until `element`'s
    top meets the view's top."""
    page.evaluate(
        """element => {
            const timeline = document.getElementById('channel-timeline');
            timeline.dispatchEvent(new WheelEvent('wheel', { bubbles: true }));
            timeline.scrollTop += element.getBoundingClientRect().top - timeline.getBoundingClientRect().top;
        }""",
        element.element_handle(),
    )


@pytest.mark.journey
def test_a_daily_is_played_shared_in_the_channel_and_replayed_turn_by_turn(context, sandbox):
    page = open_window(context, sandbox)
    assert channel_name(page) == "kokeshi"
    view_as(page, "Aiko")
    command(page, "kokeshi daily")
    expect(page.locator("#channel-name")).to_have_text(re.compile(r"Kokeshi #\d+"), timeout=WAIT)
    game = channel_name(page)
    number = re.search(r"#(\d+)", game).group(1)
    rng = random.Random(25)
    latencies = play_to_end(page, rng, every=40, name="daily")
    assert len(latencies) > 20
    every_click_reached_the_bot(page, latencies)
    messages = page.locator(MESSAGES)
    final = messages.filter(has_text=OVER).last
    # Read once the page has drawn its places (it may draw the message in steps).
    expect(final).to_contain_text(re.compile(r"@?Aiko — −?[\d,]+ points?"), timeout=WAIT)
    score = re.search(r"@?Aiko — (−?[\d,]+) points?", final.inner_text()).group(1)
    # A game against the automa ends by saying who won.
    expect(final).to_contain_text(re.compile(r"You beat the automa|The automa wins"))
    assert newest_picture_shown(page) > 0
    shot(page, "daily-final")

    # Share: the card is posted in #kokeshi, for everyone, and the player is told where.
    choose(page, final.get_by_role("button", name="Share"), rng)
    told = messages.filter(has_text="Shared").last
    expect(told.locator(".message-ephemeral-note")).to_have_count(1, timeout=WAIT)
    follow(page, told.locator("a").last)
    assert channel_name(page) == "kokeshi"
    card = messages.filter(has_text="Daily challenge").last
    expect(card).to_contain_text(f"@Aiko: {score} point")
    expect(card.locator(".message-ephemeral-note")).to_have_count(0)
    drawn = picture_of(card, f"kokeshi-{number}-share")
    assert "Daily challenge" in drawn.get_attribute("alt")
    expect(card).to_be_in_viewport()
    expect(drawn).to_be_in_viewport()
    shot(page, "journey-share-card")
    phone = open_window(context, sandbox, **PHONE)
    assert channel_name(phone) == "kokeshi"
    phone_card = phone.locator(MESSAGES).filter(has_text="Daily challenge").last
    picture_of(phone_card, f"kokeshi-{number}-share")
    settled(phone)
    expect(phone_card).to_be_in_viewport()
    shot(phone, "journey-share-card-phone")
    phone.close()

    # Back in the game's thread (its summary under the challenge's first message), the Replay button.
    follow(page, messages.locator(".thread-summary", has_text=game).last)
    assert channel_name(page) == game
    final = messages.filter(has_text=OVER).last
    choose(page, final.get_by_role("button", name="Replay"), rng)
    viewer = messages.filter(has_text=f"Replay of Kokeshi #{number}").last
    expect(viewer).to_contain_text(re.compile(r"turn 1 of \d+"), timeout=WAIT)
    expect(viewer.locator(".message-ephemeral-note")).to_have_count(1)
    count = int(re.search(r"turn 1 of (\d+)", viewer.inner_text()).group(1))
    assert count > 10
    buttons = {name: viewer.get_by_role("button", name=name) for name in ("First", "Previous", "Next", "Last")}
    # Every turn in order with Next, each with its record and its picture, to the last, where Next stops.
    for turn in range(1, count + 1):
        if turn > 1:
            choose(page, buttons["Next"], rng)
        expect(viewer).to_contain_text(f"turn {turn} of {count}", timeout=WAIT)
        assert RECORD.search(viewer.locator(".message-content").inner_text()), viewer.inner_text()
        picture_of(viewer, f"kokeshi-{number}-replay-{turn}")
        in_sight(page, buttons["Next"], f"replay-{turn}")
        if turn in (1, count // 2):
            shot(page, f"journey-replay-{turn}")
    expect(buttons["Next"]).to_be_disabled()
    expect(buttons["Last"]).to_be_disabled()
    shot(page, "journey-replay-last")
    # First goes back to the start, Last to the end again in one step; Previous and Next stay usable on the phone.
    choose(page, buttons["First"], rng)
    expect(viewer).to_contain_text(f"turn 1 of {count}", timeout=WAIT)
    expect(buttons["Previous"]).to_be_disabled()
    choose(page, buttons["Last"], rng)
    expect(viewer).to_contain_text(f"turn {count} of {count}", timeout=WAIT)
    expect(buttons["Next"]).to_be_disabled()
    choose(page, buttons["First"], rng)
    expect(viewer).to_contain_text(f"turn 1 of {count}", timeout=WAIT)
    phone = open_window(context, sandbox, **PHONE)
    phone_viewer = phone.locator(MESSAGES).filter(has_text=f"Replay of Kokeshi #{number}").last
    picture_of(phone_viewer, f"kokeshi-{number}-replay-1")
    settled(phone)
    phone_next = phone_viewer.get_by_role("button", name="Next")
    in_sight(phone, phone_next, "replay-phone")
    shot(phone, "journey-replay-phone")
    # A few turns on with the thumb: the buttons stay where they were, the record and the picture change.
    for turn in (2, 3):
        choose(phone, phone_next, rng)
        expect(phone_viewer).to_contain_text(f"turn {turn} of {count}", timeout=WAIT)
        assert RECORD.search(phone_viewer.locator(".message-content").inner_text()), phone_viewer.inner_text()
        picture = picture_of(phone_viewer, f"kokeshi-{number}-replay-{turn}")
        in_sight(phone, phone_next, f"replay-phone-{turn}")
    shot(phone, "journey-replay-phone-3")
    # Its picture, one swipe further down.
    swipe_to(phone, picture)
    expect(picture).to_be_in_viewport(ratio=0.5)
    shot(phone, "journey-replay-phone-3-picture")
