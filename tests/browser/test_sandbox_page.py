"""Whole journeys through the sandbox page in Chromium, started exactly as `make run` starts it."""

from __future__ import annotations

import random
import re
from datetime import UTC, datetime, timedelta

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from tests.browser.pagekit import (
    ANSWER_TIMEOUT,
    ARTIFACTS,
    CONTROLS,
    PLAYERS,
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


def in_view(page) -> None:
    """Wait until the page is ready and shows the current turn's buttons, as a person reads it (for screenshots)."""
    settled(page)
    expect(controls(page).first).to_be_in_viewport(timeout=ANSWER_TIMEOUT * 1000)
    settled(page)


def back_to_channel(page) -> None:
    """Go back to #kokeshi the way a person would from a game's thread: "‹ #kokeshi" above the conversation."""
    if channel_name(page) != "kokeshi":
        back = page.locator("#kokeshi-home")
        expect(back).to_be_visible()
        follow_link(page, back)
    assert channel_name(page) == "kokeshi"


def follow_link(page, link) -> None:
    """A link to a channel or thread moves this page there, in place (the sandbox moves every open page).

    A click that lands while the page redraws its messages does nothing; as a person would, it is made again.
    """
    before = channel_name(page)
    tabs = len(page.context.pages)
    for attempt in range(3):
        settled(page)
        try:
            link.click(timeout=10_000)
            expect(page.locator("#channel-name")).not_to_have_text(before, timeout=10_000)
            break
        except (PlaywrightError, AssertionError):
            shot(page, f"failed-link-{attempt}")
    else:
        raise AssertionError(f"the link did not move the page; it shows:\n{last_text(page)}")
    settled(page)
    assert len(page.context.pages) == tabs, "a channel link opened a new tab"


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
    view_as(page, current)
    last = page.locator("#channel-message-list article.channel-message").last
    newest = last.get_attribute("data-message-id")
    page.reload()
    expect(page.locator("#channel-name")).to_have_text(re.compile(r"Kokeshi #\d+"))
    # The page opens again as the player it was viewing as.
    assert viewer(page) == current
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
    in_view(page)
    # The README's picture of the sandbox (docs/sandbox.png) is this one.
    shot(page, "sandbox")
    phone = open_window(context, sandbox, width=390, height=844)
    view_as(phone, current)
    expect(phone.locator("#channel-message-list article.channel-message").last).to_be_in_viewport()
    newest_picture_shown(phone)
    shot(phone, "sandbox-phone")
    phone.reload()
    expect(phone.locator("#channel-name")).to_have_text(re.compile(r"Kokeshi #\d+"))
    assert viewer(phone) == current
    settled(phone)
    expect(controls(phone).first).to_be_in_viewport()
    shot(phone, "reload-phone")


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


@pytest.mark.journey
def test_the_way_back_to_kokeshi_is_visible_in_every_thread_and_links_move_the_page_in_place(context, sandbox):
    page = open_window(context, sandbox)
    back_to_channel(page)
    view_as(page, "Chiyo")
    command(page, "kokeshi solo")
    expect(page.locator("#channel-name")).to_have_text(re.compile(r"Kokeshi #\d+.*solo"), timeout=15_000)
    game = channel_name(page)
    back = page.locator("#kokeshi-home")
    expect(back).to_be_visible()
    expect(back).to_have_text("‹ #kokeshi")
    expect(back).to_be_in_viewport()
    settled(page)
    shot(page, "way-back-desktop")
    # On a phone too, above the conversation.
    phone = open_window(context, sandbox, width=390, height=844)
    assert channel_name(phone) == game and viewer(phone) == "Chiyo"
    phone_back = phone.locator("#kokeshi-home")
    expect(phone_back).to_be_in_viewport()
    box, name = phone_back.bounding_box(), phone.locator("#channel-name").bounding_box()
    assert box["x"] + box["width"] <= name["x"] and box["height"] >= 24, (box, name)
    settled(phone)
    shot(phone, "way-back-phone")
    follow_link(phone, phone_back)
    assert channel_name(phone) == "kokeshi"
    expect(phone_back).to_be_hidden()
    # Every open page went along, in place.
    expect(page.locator("#channel-name")).to_have_text("kokeshi", timeout=15_000)
    expect(back).to_be_hidden()
    shot(phone, "way-back-done-phone")
    # The game's link in /kokeshi status takes the page back to the thread, in this tab.
    command(page, "kokeshi status")
    follow_link(page, page.locator("#channel-message-list a", has_text=game.split(" —")[0]).last)
    assert channel_name(page) == game


@pytest.mark.journey
def test_private_replies_never_push_the_live_prompts_buttons_out_of_sight(context, sandbox):
    page = open_window(context, sandbox)
    back_to_channel(page)
    view_as(page, "Botan")
    command(page, "kokeshi solo")
    expect(page.locator("#channel-name")).to_have_text(re.compile(r"Kokeshi #\d+.*solo"), timeout=15_000)
    rng = random.Random(12)
    for _ in range(4):
        play_step(page, rng)
    view_as(page, "Botan")
    hints = page.locator("#channel-message-list article.channel-message", has_text="Hint for Kokeshi")
    for count in (1, 2, 3):
        command(page, "kokeshi hint")
        expect(hints).to_have_count(count, timeout=ANSWER_TIMEOUT * 1000)
    settled(page)
    prompt = (
        page.locator("#channel-message-list > article.channel-message")
        .filter(has_not=page.locator(".message-ephemeral-note"))
        .last
    )
    buttons = prompt.locator(CONTROLS)
    expect(buttons.first).to_be_in_viewport()
    # The replies are shown, the newest just above the prompt, which stays last with its buttons.
    newest = hints.last
    expect(newest).to_be_in_viewport()
    assert newest.bounding_box()["y"] < prompt.bounding_box()["y"]
    assert page.evaluate(
        """() => {
            const list = document.getElementById('channel-message-list');
            const top = (item) => item.getBoundingClientRect().top;
            const shown = [...list.children].sort((a, b) => top(a) - top(b));
            return !shown[shown.length - 1].querySelector('.message-ephemeral-note');
        }"""
    )
    shot(page, "hint-next-to-prompt-desktop")
    phone = open_window(context, sandbox, width=390, height=844)
    assert viewer(phone) == "Botan"
    settled(phone)
    phone_prompt = (
        phone.locator("#channel-message-list > article.channel-message")
        .filter(has_not=phone.locator(".message-ephemeral-note"))
        .last
    )
    shot(phone, "hint-next-to-prompt-phone")
    expect(phone_prompt.locator(CONTROLS).first).to_be_in_viewport()
    phone_hints = phone.locator("#channel-message-list article.channel-message", has_text="Hint for Kokeshi")
    expect(phone_hints.last).to_be_in_viewport()
    # The buttons still answer.
    play_step(page, rng)


def private_reply(page, text: str) -> str:
    """Send `/text` and return the words of the private reply, once it is complete (not its time)."""
    command(page, text)
    newest = page.locator("#channel-message-list article.channel-message").last
    expect(newest.locator(".message-loading")).to_have_count(0, timeout=ANSWER_TIMEOUT * 1000)
    expect(newest.locator(".message-ephemeral-note")).to_have_count(1)
    return "\n".join(newest.locator(".message-content, .embed-card").all_inner_texts())


def public_texts(page) -> list[str]:
    """The words and buttons of every message everyone sees (not their times, which show on hover)."""
    return page.evaluate(
        """() => [...document.querySelectorAll('#channel-message-list article.channel-message')]
            .filter(m => !m.querySelector('.message-ephemeral-note'))
            .map(m => [...m.querySelectorAll('.message-content, .component-row')].map(e => e.innerText).join('|'))"""
    )


@pytest.mark.journey
def test_a_restart_on_the_same_file_keeps_the_world_and_the_open_page_goes_on(context, sandbox):
    """Last of the module: the sandbox is stopped and started again (Ctrl+C, `make run`) on the same database,
    with every game the other journeys left in it."""
    page = open_window(context, sandbox)
    back_to_channel(page)
    start_two_player_game(page, "Daichi", "Aiko")
    rng = random.Random(13)
    for _ in range(6):
        play_step(page, rng)
    game = channel_name(page)
    back_to_channel(page)
    said = {}
    for name in PLAYERS:
        view_as(page, name)
        said[name] = (private_reply(page, "kokeshi status"), private_reply(page, "kokeshi stats"))
    assert game.split(" —")[0] in said["Daichi"][0]
    follow_link(page, page.locator("#channel-message-list a", has_text=game.split(" —")[0]).last)
    who = to_act(page)
    view_as(page, who)
    shown = public_texts(page)
    address = page.url

    rest = sandbox.restart()
    assert "Sandbox stopped." in rest, rest
    assert any("world is back" in line for line in sandbox.output), sandbox.output
    # The page left open opens the same address again by itself, on the same thread, as the same player.
    page.wait_for_function("address => window.location.href !== address", arg=address, timeout=60_000)
    expect(page.locator("#channel-name")).to_have_text(game, timeout=30_000)
    settled(page)
    assert viewer(page) == who
    assert public_texts(page)[-len(shown) :] == shown
    newest_picture_shown(page)
    in_view(page)
    shot(page, "restart-desktop")
    phone = open_window(context, sandbox, width=390, height=844)
    assert channel_name(phone) == game and viewer(phone) == who
    newest_picture_shown(phone)
    in_view(phone)
    shot(phone, "restart-phone")
    phone.close()
    # Every game, stat and streak is back: each player's status and stats say what they said.
    back_to_channel(page)
    for name in PLAYERS:
        view_as(page, name)
        assert (private_reply(page, "kokeshi status"), private_reply(page, "kokeshi stats")) == said[name], name
    # And the game goes on through the page: its thread, its prompt's buttons.
    follow_link(page, page.locator("#channel-message-list a", has_text=game.split(" —")[0]).last)
    for _ in range(4):
        assert play_step(page, rng) > 0 or is_over(page)
    newest_picture_shown(page)
    in_view(page)
    shot(page, "restart-played-on")
