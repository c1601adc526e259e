"""Whole journeys through the sandbox page in Chromium, started exactly as `make run` starts it."""

from __future__ import annotations

import random
import re
import sqlite3
import time
from contextlib import closing
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from PIL import Image
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

import games.kokeshi.vocab as vocab
from games.kokeshi.engine import PROMPT_KINDS, Game, load_game
from tests.browser.pagekit import (
    AIDS,
    ANSWER_TIMEOUT,
    ARTIFACTS,
    BUY,
    CONTROLS,
    PLAYERS,
    channel_name,
    choose,
    command,
    controls,
    every_click_reached_the_bot,
    is_over,
    last_text,
    menu_options,
    newest_picture_shown,
    open_window,
    play_step,
    settled,
    shot,
    signature,
    start_two_player_game,
    to_act,
    view_as,
    viewer,
    wait_for_change,
    whose_turn,
)

# One sandbox and one browser for the module: under `make test`'s two workers, all of it runs on one of them.
pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]


# The rules pages in a reply, found by their files' names (the pictures' alt text is their description).
RULES_SHEETS = "button.media-lightbox-trigger[aria-label*='kokeshi-rules'] img.attachment-image"


def in_view(page) -> None:
    """Wait until the page is ready and shows the current turn's buttons, as a person reads it (for screenshots).

    The page keeps the live prompt's end in sight: with five buttons above a tall decision picture (SimCord draws a
    message's buttons above its picture), the first button may sit just above the fold, the last one in view."""
    settled(page)
    try:
        expect(controls(page).last).to_be_in_viewport(timeout=ANSWER_TIMEOUT * 1000)
    except AssertionError:
        shot(page, "failed-in-view")
        raise
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


@pytest.mark.journey
def test_a_two_player_game_is_played_turn_after_turn_by_both_players_in_the_page(context, sandbox):
    """Both seats of one page, each decision made as the player it names (the page switches who it views as), for
    a few rounds: every click reaches the bot. A game played to its end in the page is the daily journey's
    (`test_sandbox_journeys.py`); the end of a game of people is the bot tests' (`tests/test_bot_games.py`)."""
    page = open_window(context, sandbox)
    rng = random.Random(2)
    # The page follows the game into its thread.
    start_two_player_game(page, "Aiko", "Botan")
    shot(page, "two-player-first-turn")
    latencies: list[float] = []
    players: set[str] = set()
    for step in range(30):
        latencies.append(play_step(page, rng))
        # Whom the page viewed as to make it (`play_step` switches to the player the prompt names).
        players.add(viewer(page))
        if step % 10 == 0:
            shot(page, f"two-player-{step:03d}")
    assert players == {"Aiko", "Botan"}
    every_click_reached_the_bot(page, latencies)
    assert not is_over(page)
    assert newest_picture_shown(page) > 0
    in_view(page)
    shot(page, "two-player-turn")
    phone = open_window(context, sandbox, width=390, height=844)
    newest_picture_shown(phone)
    shot(phone, "two-player-turn-phone")


@pytest.mark.journey
def test_daily_and_weekly_at_once_each_reachable(context, sandbox):
    """Both challenges open at once, each a turn in; a daily played to its end is the journeys' (the share and the
    replay follow it there)."""
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


@pytest.mark.journey
def test_a_reload_mid_game_shows_the_current_turn_for_every_viewer(context, sandbox):
    page = open_window(context, sandbox)
    back_to_channel(page)
    start_two_player_game(page, "Aiko", "Chiyo")
    rng = random.Random(7)
    for _ in range(12):
        play_step(page, rng)
    current = whose_turn(page)
    view_as(page, current)
    last = page.locator("#channel-message-list article.channel-message").last
    newest = last.get_attribute("data-message-id")
    page.reload()
    expect(page.locator("#channel-name")).to_have_text(re.compile(r"Kokeshi #\d+"))
    # The page opens again as the player it was viewing as.
    assert viewer(page) == current
    expect(last).to_be_in_viewport(timeout=ANSWER_TIMEOUT * 1000)
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
    # The picture of docs/sandbox.md (docs/sandbox.png) is this one.
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
    # So does its link in /games status, the list of every game, asked from the channel.
    follow_link(page, back)
    assert channel_name(page) == "kokeshi"
    command(page, "games status")
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
    """The words and buttons of every message everyone sees (not their times, which show on hover, nor how long
    is left until a deadline, which the page counts down: "Decide by Nov 30, 11:16 AM (in 24 hours)")."""
    texts = page.evaluate(
        """() => [...document.querySelectorAll('#channel-message-list article.channel-message')]
            .filter(m => !m.querySelector('.message-ephemeral-note'))
            .map(m => [...m.querySelectorAll('.message-content, .component-row')].map(e => e.innerText).join('|'))"""
    )
    return [re.sub(r"(Decide by [^(\n]*) \([^)\n]*\)", r"\1", text) for text in texts]


# ------------------------------------------------------------------ a phone player's every decision, looked at

# The words that lead towards a kind of decision not met yet, in a choice's label: a tile with two sides (a side
# to choose), a side or tile that moves a kokeshi to the left, to the right or any (which kokeshi), a disc on an
# animal track (which animal track), a second purchase in one turn or one for any track (tiles to place), an empty
# space (a tile to buy). The rarest first.
LEADS_TO = (
    ("animal", re.compile(r"disc on an animal track", re.I)),
    ("kokeshi", re.compile(r"kokeshi to the (left|right)|any kokeshi", re.I)),
    ("place", re.compile(r"buy a tile for (any|this) track", re.I)),
    ("effect", re.compile(r"tile: (?!quality)[^→]* or ", re.I)),
    ("buy", re.compile(r"empty space: buy", re.I)),
)
# A turn record's first line: who, when, the points won and the total; and one where points were won or lost.
RECORD = r"^(?:{}) · .+ · [+−]?\d+ → −?[\d,]+ points?".format("|".join(PLAYERS))
SCORED_RECORD = r"^(?:{}) · .+ · [+−][\d,]*[1-9][\d,]* → −?[\d,]+ points?".format("|".join(PLAYERS))
SINCE = "Since your last turn:"
# Points won or lost, in a ping's line ("Daichi +4 → 9: …", not "Daichi +0 → −3: …").
MOVED = re.compile(r"[+−][\d,]*[1-9][\d,]* →")
PHONE = {"width": 390, "height": 844}


def kind_asked(words: str) -> str:
    """The kind of decision a prompt asks, from its question (each kind's question, as the engine words it)."""
    found = [kind for kind in PROMPT_KINDS if vocab.question(kind).lower() in words.lower()]
    assert len(found) == 1, (found, words)
    return found[0]


def steer(labels: list[str], missing: set[str], rng: random.Random) -> int:
    """The choice a player curious about the decisions they have not met yet makes: one whose label leads towards
    one of them (a side that does nothing never does), else a purchase, else an empty space now and then."""
    for kind, words in LEADS_TO:
        if kind in missing:
            leading = [i for i, label in enumerate(labels) if words.search(label) and "does nothing" not in label]
            if leading:
                return rng.choice(leading)
    buying = [i for i, label in enumerate(labels) if BUY.search(label)]
    if buying:
        return rng.choice(buying)
    empty = [i for i, label in enumerate(labels) if "empty space: buy" in label]
    return rng.choice(empty) if empty and rng.random() < 0.5 else rng.randrange(len(labels))


def game_now(sandbox, game_id: int, kind: str, player: str) -> Game | None:
    """The game as the sandbox has stored it (its whole state, future draws included: for the test's eyes only),
    once it is at the prompt the page shows; None when it is not within a few seconds (the page still shows a
    prompt the game has moved past: it draws the bot's answer in steps, and the record may show before the new
    prompt)."""
    for _ in range(60):
        with closing(sqlite3.connect(f"file:{sandbox.database}?mode=ro", uri=True, timeout=10)) as db:
            row = db.execute("SELECT snapshot FROM games WHERE id = ?", (game_id,)).fetchone()
            seats = dict(db.execute("SELECT seat, name FROM seats WHERE game_id = ?", (game_id,)).fetchall())
        game = load_game(row[0]) if row and row[0] else None
        if game is not None:
            # At the platform's table the engine names its players by seat ("seat1"): by their names here.
            named = {f"seat{seat + 1}": name for seat, name in seats.items()}
            game.names = [named.get(n, n) for n in game.names]
            game.seating = [named.get(n, n) for n in game.seating]
        if game is not None and game.prompt is not None and (game.prompt.kind, game.prompt.player) == (kind, player):
            return game
        time.sleep(0.05)
    return None


def route(game: Game, missing: set[str], rng: random.Random, tries: int = 300, depth: int = 80) -> list[str]:
    """A short run of choices from `game` that meets every kind of decision in `missing`: the shortest of a few
    hundred tried on copies of the game (purchases preferred, so that tiles come into play), or [] if none did."""
    best: list[str] = []
    for _ in range(tries):
        copy, choices, need = game.clone(), [], set(missing)
        while copy.prompt is not None:
            need.discard(copy.prompt.kind)
            if not need or len(choices) >= (len(best) - 1 if best else depth):
                break
            legal = copy.legal_actions()
            buying = [a for a in legal if a.startswith("market:")]
            choice = rng.choice(buying if buying and rng.random() < 0.7 else legal)
            choices.append(choice)
            copy.apply(copy.prompt.player, choice)
        if not need and (not best or len(choices) < len(best)):
            best = choices
    return best


def control_for(page, live, game: Game, action: str) -> tuple[object, int | None, bool]:
    """The control that makes `action`, for a menu the option's place in it, and whether it makes the whole action
    (not only its tile's choice): the bot lays buttons out in the order of the engine's options, and a menu line
    carries its action (or, in a menu of tiles to place, the tile; the tracks follow as buttons)."""
    live = live.filter(has_not_text=AIDS)  # the buttons beside a decision that make none
    first = live.first
    tile = ":".join(action.split(":")[:2]) + ":"
    placements = [o.id for o in game.prompt.options if o.id.startswith(tile)]
    if first.get_attribute("role") == "combobox":
        if live.count() == 1 + len(placements) > 2:
            # The platform's second step, privately: the tiles' menu again, then the chosen tile's tracks as buttons.
            return live.nth(1 + placements.index(action)), None, True
        options = menu_options(page, first)
        # A menu the page is drawing again has no options for a moment: read it once they are back.
        expect(options.first).to_be_attached(timeout=ANSWER_TIMEOUT * 1000)
        values = options.evaluate_all("options => options.map(o => o.dataset.value)")
        # A menu line carries its action, or the tile it places (the platform's: "a:" an action, "g:" a tile).
        for value, whole in ((action, True), (f"a:{action}", True), (action.split(":")[1], False)):
            for shown in (value, f"g:{value}" if not whole else value):
                if shown in values:
                    return first, values.index(shown), whole
        raise AssertionError(f"{action} is not in the menu: {values}")
    options = [o.id for o in game.prompt.options]
    if live.count() != len(options):  # the tracks for the tile chosen in the menu, as buttons of a private reply
        options = [o for o in options if o.startswith(":".join(action.split(":")[:2]) + ":")]
    assert live.count() == len(options), (live.all_inner_texts(), options)
    return live.nth(options.index(action)), None, True


def public_prompt(page):
    """The live prompt: the newest message everyone sees with controls."""
    return (
        page.locator("#channel-message-list article.channel-message")
        .filter(has_not=page.locator(".message-ephemeral-note"))
        .filter(has=page.locator(".component-row"))
        .last
    )


def rest(page) -> None:
    """The pointer away from the messages: a phone shows no hover toolbar over them."""
    page.mouse.move(PHONE["width"] - 1, 40)


def scroll_to(page, element, edge: str = "top") -> None:
    """Scroll the conversation as a person does with a finger, until `element`'s top (or bottom) meets the view's
    top (or bottom), as far as the conversation goes."""
    page.evaluate(
        """([element, edge]) => {
            const timeline = document.getElementById('channel-timeline');
            timeline.dispatchEvent(new WheelEvent('wheel', { bubbles: true }));
            const view = timeline.getBoundingClientRect();
            const box = element.getBoundingClientRect();
            timeline.scrollTop += edge === 'top' ? box.top - view.top : box.bottom - view.bottom;
        }""",
        [element.element_handle(), edge],
    )
    rest(page)
    page.wait_for_timeout(100)


def picture_loaded(picture) -> None:
    expect(picture).to_be_visible(timeout=ANSWER_TIMEOUT * 1000)
    picture.page.wait_for_function(
        "p => p.complete && p.naturalWidth > 0", arg=picture.element_handle(), timeout=ANSWER_TIMEOUT * 1000
    )


def look_at_message(page, message, name: str, picture: bool = True) -> list[Path]:
    """Screenshots of a message as a phone shows it: from its top (words and controls), then (with `picture`) its
    picture from the top, one short scroll further."""
    settled(page)
    drawn = message.locator("img.attachment-image").last
    picture_loaded(drawn)
    scroll_to(page, message)
    expect(message.locator(".message-content")).to_be_in_viewport()
    shots = [shot(page, f"phone-{name}")]
    if not picture:
        return shots
    picture = drawn
    scroll_to(page, picture)
    expect(picture).to_be_in_viewport()
    shots.append(shot(page, f"phone-{name}-picture"))
    return shots


def newest_record(page, lines: int = 3, scored: bool = True):
    """The newest turn record among the newest messages with a story of at least `lines` lines (and, if `scored`,
    points won or lost), if any."""
    index = page.evaluate(
        """([pattern, lines]) => {
            const record = new RegExp(pattern, 'm');
            const shown = [...document.querySelectorAll('#channel-message-list article.channel-message')];
            for (let i = shown.length - 1; i >= Math.max(0, shown.length - 6); i -= 1) {
                const words = shown[i].querySelector('.message-content')?.innerText ?? '';
                if (record.test(words) && (words.match(/•/g) || []).length >= lines) return i;
            }
            return -1;
        }""",
        [SCORED_RECORD if scored else RECORD, lines],
    )
    return page.locator("#channel-message-list article.channel-message").nth(index) if index >= 0 else None


def open_menu(page, menu):
    """Open a menu as a person does with the keyboard (the page may redraw under a pointer); its options."""
    options = menu_options(page, menu)
    for _ in range(3):
        menu.focus(timeout=5000)
        if not options.first.is_visible():
            page.keyboard.press("Enter")
        try:
            expect(options.first).to_be_visible(timeout=2000)
            return options
        except AssertionError:
            page.wait_for_timeout(200)
    shot(page, "failed-menu")
    raise AssertionError(f"the menu did not open; the page shows:\n{last_text(page)}")


@pytest.mark.journey
def test_a_phone_player_sees_every_decision_a_record_a_ping_and_the_rules_sheet(context, sandbox):
    """At 390×844, a two-player game played by both seats until every kind of decision the engine can ask
    (`engine.PROMPT_KINDS`) has been met, each kept as screenshots with its controls and its picture; a turn record,
    a "since your last turn" ping (a solo game has none: the automa plays within the player's turn) and the
    `/kokeshi rules` phone sheet too.

    The rarer kinds (which animal track, which kokeshi, tiles to place) are reached on purpose: the test reads the
    game the sandbox stored (its deal included) and clicks, in the page, the shortest way to them it found on copies
    of the game. Without one, it chooses as a curious player would: the labels that lead to a kind not met yet.
    Artefacts: tests/browser/artifacts/phone-*.png."""
    page = open_window(context, sandbox, **PHONE)
    back_to_channel(page)
    start_two_player_game(page, "Chiyo", "Daichi")
    rng = random.Random(23)
    met: dict[str, list[Path]] = {}
    looked: dict[str, list[Path]] = {}
    decisions = turns = behind = 0
    game_id = int(re.search(r"#(\d+)", channel_name(page)).group(1))
    plan: list[str] = []
    routes: list[int] = []  # the length of each way found
    while len(met) < len(PROMPT_KINDS) or "record" not in looked or "since" not in looked:
        assert not is_over(page), f"the game ended with {sorted(set(PROMPT_KINDS) - set(met))} not met"
        assert decisions < 150, f"{sorted(set(PROMPT_KINDS) - set(met))}, {sorted(looked)}: {decisions} decisions"
        # The player the prompt names, once the page shows it (it may be drawing its messages again). The buttons
        # beside the decision that make none (Undo, Since your last turn) are left alone.
        live = controls(page).filter(has_not_text=AIDS)
        expect(live.first).to_be_visible(timeout=ANSWER_TIMEOUT * 1000)
        who = to_act(page)
        assert who is not None, last_text(page)
        view_as(page, who)
        expect(live.first).to_be_visible(timeout=ANSWER_TIMEOUT * 1000)
        prompt = public_prompt(page)
        words = prompt.locator(".message-content").inner_text()
        kind = kind_asked(words)
        # The ping names no one before their first turn: the placements of starting tiles come first.
        assert kind != "setup" or SINCE not in words, words
        if kind not in met:
            met[kind] = look_at_message(page, prompt, kind)
            # The prompt's controls are under its words, above its picture: they begin in sight with its top (a
            # prompt of many buttons, a placement's tracks, runs on below the screen's edge).
            scroll_to(page, prompt)
            expect(live.first).to_be_in_viewport()
        turns += "Your turn: " in words
        missing = set(PROMPT_KINDS) - set(met)
        # A ping and a record from the first rounds proper, once both players have had a turn past the starting
        # tiles: a ping whose points moved and a record that tells a story and scored (any, once all kinds are met).
        if (
            "since" not in looked
            and turns > 4
            and SINCE in words
            and (MOVED.search(words.split(SINCE, 1)[1]) or not missing)
        ):
            looked["since"] = look_at_message(page, prompt, "since-last-turn", picture=False)
        if "record" not in looked and turns > 4:
            found = newest_record(page, scored=bool(missing))
            if found is not None:
                looked["record"] = look_at_message(page, found, "record")
        menu = live.first.get_attribute("role") == "combobox"
        if menu and kind not in looked:
            open_menu(page, live.first)
            looked[kind] = [shot(page, f"phone-{kind}-menu")]
            page.keyboard.press("Escape")
        if not missing:
            plan = []
        else:
            game = game_now(sandbox, game_id, kind, who)
            if game is None:
                # The page has not drawn the bot's whole answer yet: read it again once it has.
                behind += 1
                assert behind < 20, f"the page kept showing a prompt the game had moved past ({kind} for {who})"
                page.wait_for_timeout(500)
                continue
            if not plan or plan[0] not in game.legal_actions():
                plan = route(game, missing, rng)
                routes.append(len(plan))
        if plan:
            control, pick, whole = control_for(page, live, game, plan[0])
            if whole:
                plan.pop(0)
        else:
            # Every kind met (or no short way to those left): a player curious about the others goes on.
            labels = menu_options(page, live.first).all_text_contents() if menu else live.all_inner_texts()
            pick = steer(labels, missing, rng)
            control, pick = (live.first, pick) if menu else (live.nth(pick), None)
        before = signature(page)
        choose(page, control, rng, pick)
        wait_for_change(page, before)
        decisions += 1
    # The rules, as a phone shows them: the reply with its portrait pages, then each page opened with a tap, where
    # it fills the screen's width with no zooming.
    command(page, "kokeshi rules")
    reply = page.locator("#channel-message-list article.channel-message").filter(has=page.locator(RULES_SHEETS)).last
    sheets = reply.locator(RULES_SHEETS)
    expect(sheets).to_have_count(3)
    for picture in reply.locator("img.attachment-image").all():
        scroll_to(page, picture)
        picture_loaded(picture)
    scroll_to(page, reply)
    rest(page)
    looked["rules"] = [shot(page, "phone-rules")]
    lightbox = page.locator("dialog.media-lightbox")
    for number in range(1, 4):
        # A picture is named by its file; its alt text says which page it is.
        sheet = reply.locator(RULES_SHEETS.replace("kokeshi-rules", f"kokeshi-rules-{number}"))
        expect(sheet).to_have_attribute("alt", f"The rules of Kokeshi, page {number} of 3.")
        assert sheet.evaluate("p => p.naturalHeight > p.naturalWidth")
        scroll_to(page, sheet)
        rest(page)
        page.wait_for_timeout(200)
        looked["rules"].append(shot(page, f"phone-rules-{number}"))
        sheet.click()
        opened = lightbox.locator("img.media-lightbox-image")
        picture_loaded(opened)
        rest(page)
        page.wait_for_timeout(200)
        looked["rules"].append(shot(page, f"phone-rules-page-{number}"))
        # Fitted to the viewer, the page takes its whole width (it is not shrunk to fit the height) and is seen
        # whole, without zooming or scrolling.
        fitted = lightbox.locator(".media-lightbox-frame").evaluate(
            """frame => {
                const box = frame.querySelector('.media-lightbox-image').getBoundingClientRect();
                const view = frame.getBoundingClientRect();
                return [box.width, frame.clientWidth, box.top - view.top, view.bottom - box.bottom];
            }"""
        )
        width, room, above, below = fitted
        assert abs(width - room) <= 1 and above >= 0 and below >= 0, (number, fitted)
        lightbox.get_by_role("button", name="Close image preview").click()
        expect(lightbox).to_be_hidden()
    # Every kind of decision was met and kept, with its controls and its picture.
    assert set(met) == set(PROMPT_KINDS), sorted(met)
    for path in [p for paths in (*met.values(), *looked.values()) for p in paths]:
        with Image.open(path) as img:
            assert img.size == (PHONE["width"], PHONE["height"]), (path, img.size)
    with (ARTIFACTS / "phone.log").open("a") as log:
        log.write(f"{decisions} decisions (ways found: {routes}); met in this order: {', '.join(met)}\n")


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
