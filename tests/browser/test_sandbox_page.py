"""Whole journeys through the sandbox page in Chromium, started exactly as `make run` starts it."""

from __future__ import annotations

import random
import re
from datetime import UTC, datetime, timedelta

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from tests.browser.pagekit import (
    ARTIFACTS,
    actions_sent,
    channel_name,
    command,
    controls,
    is_over,
    last_text,
    message_texts,
    newest_picture_shown,
    play_step,
    play_to_end,
    settled,
    shot,
    start_two_player_game,
    swallowed,
    to_act,
    view_as,
    viewer,
)

# One sandbox and one browser for the module: under `make test`'s two workers, all of it runs on one of them.
pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]


def open_window(context, sandbox, *, width: int = 1280, height: int = 900):
    page = context.new_page()
    page.set_viewport_size({"width": width, "height": height})
    page.goto(sandbox.url)
    expect(page.locator("#viewer-picker")).to_be_visible()
    expect(page.locator("#channel-name")).not_to_be_empty()
    return page


def back_to_channel(page) -> None:
    """Follow the link in a game's message back to #kokeshi, as a person would."""
    if channel_name(page) != "kokeshi":
        command(page, "kokeshi status")
        link = page.locator("#channel-message-list a", has_text="#kokeshi").last
        follow_link(page, link)
    assert channel_name(page) == "kokeshi"


def follow_link(page, link) -> None:
    """Links open in a new tab; the sandbox moves every open page, so this one follows too.

    A click that lands while the page redraws its messages opens nothing; as a person would, it is tried again.
    """
    for attempt in range(3):
        settled(page)
        try:
            with page.context.expect_page(timeout=10_000) as opened:
                link.click()
            break
        except PlaywrightError:
            shot(page, f"failed-link-{attempt}")
    else:
        raise AssertionError(f"the link opened no tab; the page shows:\n{last_text(page)}")
    tab = opened.value
    tab.wait_for_load_state()
    tab.close()
    page.wait_for_timeout(200)
    before = channel_name(page)
    deadline = 40
    while deadline and channel_name(page) == before:
        page.wait_for_timeout(250)
        deadline -= 1


def test_start_up_prints_no_false_warning_and_ends_with_the_address(sandbox):
    printed = [line for line in sandbox.output if line.strip()]
    assert printed[-1].startswith("Kokeshi sandbox running: open http://127.0.0.1:")
    assert not [line for line in printed if "WARNING" in line or "Traceback" in line], printed


def test_welcome_names_the_bot_and_says_what_to_type(context, sandbox):
    page = open_window(context, sandbox)
    assert channel_name(page) == "kokeshi"
    first = page.locator(
        "#channel-message-list article.channel-message", has_text="Welcome to the Kokeshi sandbox"
    ).first
    expect(first).to_contain_text("Kokeshi")
    expect(first).to_contain_text("/kokeshi new")
    expect(first.locator("header img")).to_be_visible()  # the bot's avatar
    assert "TestBot" not in first.inner_text()
    today = datetime.now(UTC)
    stamp = first.locator("time").get_attribute("datetime")
    assert abs(datetime.fromisoformat(stamp) - today) < timedelta(hours=1), stamp


def every_click_reached_the_bot(page, latencies: list[float]) -> None:
    """Each decision was sent to the sandbox and answered; a person rarely had to click twice."""
    with (ARTIFACTS / "clicks.log").open("a") as log:
        log.write(f"{len(latencies)} decisions, {actions_sent(page)} sent, {swallowed(page)} made twice\n")
    assert actions_sent(page) >= len(latencies)
    assert swallowed(page) <= len(latencies) // 20, f"{swallowed(page)} of {len(latencies)} clicks made twice"


@pytest.mark.journey
def test_a_two_player_game_is_played_to_the_end_in_the_page(context, sandbox):
    page = open_window(context, sandbox)
    rng = random.Random(2)
    # The page follows the game into its thread.
    start_two_player_game(page, "Aiko", "Botan")
    shot(page, "two-player-first-turn")
    latencies = play_to_end(page, rng, every=60, name="two-player")
    assert len(latencies) > 60
    every_click_reached_the_bot(page, latencies)
    final = next(text for text in reversed(message_texts(page)) if "is over!" in text)
    assert "Aiko" in final and "Botan" in final
    assert newest_picture_shown(page) == 1600
    shot(page, "two-player-final")
    phone = open_window(context, sandbox, width=390, height=844)
    newest_picture_shown(phone)
    shot(phone, "two-player-final-phone")


@pytest.mark.journey
def test_a_solo_game_is_played_to_the_end_in_the_page(context, sandbox):
    page = open_window(context, sandbox)
    back_to_channel(page)
    view_as(page, "Chiyo")
    command(page, "kokeshi solo")
    expect(page.locator("#channel-name")).to_have_text(re.compile(r"Kokeshi #\d+.*solo"), timeout=15_000)
    latencies = play_to_end(page, random.Random(3), every=40, name="solo")
    assert latencies
    every_click_reached_the_bot(page, latencies)
    assert "automa" in next(text for text in reversed(message_texts(page)) if "is over!" in text)
    assert newest_picture_shown(page) > 0
    shot(page, "solo-final")


@pytest.mark.journey
def test_daily_and_weekly_at_once_each_reachable_and_the_daily_finished(context, sandbox):
    page = open_window(context, sandbox)
    back_to_channel(page)
    view_as(page, "Daichi")
    command(page, "kokeshi daily")
    expect(page.locator("#channel-name")).to_have_text(re.compile(r"Kokeshi #\d+"), timeout=15_000)
    daily = channel_name(page)
    play_step(page, random.Random(4))
    back_to_channel(page)
    command(page, "kokeshi weekly")
    expect(page.locator("#channel-name")).not_to_have_text("kokeshi", timeout=15_000)
    weekly = channel_name(page)
    assert weekly != daily
    play_step(page, random.Random(5))
    # /kokeshi status lists both games with links that lead to each.
    rng = random.Random(6)
    for name in (weekly, daily):
        back_to_channel(page)
        command(page, "kokeshi status")
        link = page.locator("#channel-message-list a", has_text=name.split(" —")[0]).last
        follow_link(page, link)
        assert channel_name(page) == name
        shot(page, f"status-link-{name.split()[1]}")
        play_step(page, rng)
    # The daily challenge is played to its final scores and ranking.
    play_to_end(page, rng)
    assert is_over(page)
    assert newest_picture_shown(page) > 0
    shot(page, "daily-final")


@pytest.mark.journey
def test_a_reload_mid_game_shows_the_current_turn_for_every_viewer(context, sandbox):
    page = open_window(context, sandbox)
    back_to_channel(page)
    start_two_player_game(page, "Aiko", "Chiyo")
    rng = random.Random(7)
    for _ in range(12):
        play_step(page, rng)
    current = to_act(page)
    last = page.locator("#channel-message-list article.channel-message").last
    newest = last.get_attribute("data-message-id")
    page.reload()
    expect(page.locator("#channel-name")).to_have_text(re.compile(r"Kokeshi #\d+"))
    expect(last).to_be_in_viewport()
    # The newest message, or one the bot posted since (an answer may still have been coming in).
    assert int(last.get_attribute("data-message-id")) >= int(newest)
    for name in ("Chiyo", "Aiko", "Botan"):
        view_as(page, name)
        try:
            expect(last).to_be_in_viewport(timeout=15_000)
        except AssertionError:
            shot(page, f"failed-viewer-{name}")
            raise
    view_as(page, current)
    assert controls(page).count() > 0
    assert newest_picture_shown(page) > 0
    # The README's picture of the sandbox (docs/sandbox.png) is this one.
    shot(page, "sandbox")
    phone = open_window(context, sandbox, width=390, height=844)
    view_as(phone, current)
    expect(phone.locator("#channel-message-list article.channel-message").last).to_be_in_viewport()
    newest_picture_shown(phone)
    shot(phone, "sandbox-phone")


@pytest.mark.journey
def test_the_clock_survives_a_burst_of_commands(context, sandbox):
    page = open_window(context, sandbox)
    back_to_channel(page)
    view_as(page, "Botan")

    def newest_time():
        return datetime.fromisoformat(page.locator("#channel-message-list time").last.get_attribute("datetime"))

    for _ in range(25):
        command(page, "kokeshi status")
    burst_end = newest_time()
    page.wait_for_timeout(4000)
    command(page, "kokeshi help")
    assert newest_time() - burst_end >= timedelta(seconds=3), (burst_end, newest_time(), last_text(page))
    assert viewer(page) == "Botan"
