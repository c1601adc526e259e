"""Kōhaku, a game of the platform's generic table, played whole through the sandbox page on a phone."""

from __future__ import annotations

import random
import re
import time

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, expect

from tests.browser.pagekit import (
    ANSWER_TIMEOUT,
    CONTROLS,
    Gone,
    channel_name,
    choose,
    command,
    menu_options,
    open_window,
    page_status,
    settled,
    shot,
    signature,
    swallowed,
    view_as,
    wait_for_change,
)

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

WAIT = ANSWER_TIMEOUT * 1000
PHONE = {"width": 390, "height": 844}
MESSAGES = "#channel-message-list article.channel-message"
OVER = re.compile(r"Kōhaku #\d+ is over")
# The buttons beside a decision's choices that help the player rather than decide.
AIDS = re.compile(r"\b(Hint|Undo|Since your last turn)\s*$")
# A place in the final scores, one item of their numbered list: "AI 1 — 134 points", "Aiko — 98 points — resigned".
PLACE = re.compile(r"^(.+?) — −?[\d,]+ points?(?: — resigned)?$")


def to_home(page: Page) -> None:
    """Back to #kokeshi with the link above a thread, when the page shows one (every page follows the last game)."""
    if channel_name(page) != "kokeshi":
        page.locator("#kokeshi-home").click()
        expect(page.locator("#channel-name")).to_have_text("kokeshi", timeout=WAIT)
        settled(page)


def slash_games_new(page: Page, **options: object) -> None:
    """`/games new` with Kōhaku and `options` (see `slash_games`)."""
    slash_games(page, "new", **options)


def slash_games(page: Page, name: str, **options: object) -> None:
    """`/games <name>` as a person types it on the page: the game chosen from the list the bot gives as soon as the
    field is focused, then each further option added from "+ more" and filled in."""
    box = page.locator("#channel-composer-input")
    box.click()
    box.type(f"/games {name}")
    page.locator(f"#command-picker-listbox [role=option][data-entry-key$=':games.{name}']").click()
    game = page.locator('input.command-option-input[data-option="game"]')
    expect(game).to_be_focused()
    # Nothing typed yet: the choices are there all the same, as on Discord.
    offered = page.locator("#command-suggestion-listbox [role=option]")
    expect(offered.filter(has_text="Kōhaku")).to_have_count(1, timeout=WAIT)
    offered.filter(has_text="Kōhaku").click()
    expect(game).to_have_value("kohaku")
    for name, value in options.items():
        page.locator(".command-ghost").click()
        page.locator(f'#command-suggestion-listbox [data-value="{name}"]').click()
        field = page.locator(f'input.command-option-input[data-option="{name}"]')
        field.fill(str(value))
        expect(field).to_have_value(str(value))
    page.keyboard.press("Escape")
    before = signature(page)
    # A send the page did not carry out (it was drawing its messages again) is made again, as a person would.
    for _ in range(3):
        page.locator("#send-message").click()
        for _ in range(300):
            if signature(page) != before:
                return
            if "not completed" in page_status(page):
                break
            page.wait_for_timeout(50)
    wait_for_change(page, before)


# The newest message with a choice to make (not only Hint, Undo or Since your last turn), as its id, its pictures and
# its words (a step of the same turn edits the same message); "over" once the final scores show.
_DECISION = """([after, controls, aids]) => {
    if (document.querySelector('#preview-app').getAttribute('aria-busy') !== 'false') return false;
    const shown = [...document.querySelectorAll('#channel-message-list article.channel-message')];
    if (shown.slice(-3).some(m => /Kōhaku #\\d+ is over/.test(m.innerText))) return 'over';
    const aid = new RegExp(aids);
    const live = shown.filter(m => [...m.querySelectorAll(controls)].some(c => !aid.test(c.innerText.trim()))).pop();
    if (!live) return false;
    const pictures = [...live.querySelectorAll('img')].map(p => p.getAttribute('src')).join(',');
    const words = live.querySelector('.message-content')?.innerText ?? '';
    const mark = [live.dataset.messageId, pictures, words].join('|');
    return mark !== after ? mark : false;
}"""


def next_decision(page: Page, after: str | None) -> str | None:
    """Wait until the page shows a decision other than `after`, ready to be made, or the final scores; returns the
    decision (`_DECISION`'s mark), or None at the end. A message the page draws in steps (its words, then its
    buttons) is taken once it has stopped changing."""
    arg = [after, CONTROLS, AIDS.pattern]
    for _ in range(50):
        found = page.wait_for_function(_DECISION, arg=arg, timeout=WAIT).json_value()
        if found == "over":
            return None
        page.wait_for_timeout(300)
        if page.evaluate(_DECISION, arg) == found:
            return found
    raise AssertionError("the decision shown kept changing")


def message_of(decision: str) -> str:
    """The message id of a decision `next_decision` returned."""
    return decision.split("|", 1)[0]


def swipe_to(page: Page, element) -> None:
    """Scroll the conversation as a finger does until `element`'s top meets the view's top."""
    page.evaluate(
        """element => {
            const timeline = document.getElementById('channel-timeline');
            timeline.dispatchEvent(new WheelEvent('wheel', { bubbles: true }));
            timeline.scrollTop += element.getBoundingClientRect().top - timeline.getBoundingClientRect().top;
        }""",
        element.element_handle(),
    )


def in_sight(page: Page, element, name: str) -> None:
    """`element` is in view (a screenshot of the page otherwise, for whoever reads the failure)."""
    try:
        expect(element).to_be_in_viewport(timeout=20_000)
    except AssertionError:
        shot(page, f"failed-kohaku-{name}")
        raise


def picture_of(message, name: str):
    """The picture of `message` whose file is named `name`, once it has loaded."""
    picture = message.locator(f"button.media-lightbox-trigger[aria-label*='{name}'] img.attachment-image")
    expect(picture).to_have_count(1, timeout=WAIT)
    picture.page.wait_for_function("p => p.complete && p.naturalWidth > 0", arg=picture.element_handle(), timeout=WAIT)
    return picture


def play_to_the_end(page: Page, number: str, rng: random.Random, shots: str = "", *, until: int = 0) -> int:
    """Make every decision of the thread's game through the page, each in sight when it comes, until its final
    scores show; returns how many. With `shots`, the first decision asked with a menu is kept as screenshots (the
    menu closed, then open). With `until`, stop once that many are made and a menu has been shown, the game going
    on."""
    messages = page.locator(MESSAGES)
    decisions, shown_menu, gone = 0, not shots, 0
    at = next_decision(page, None)
    while at is not None:
        prompt = page.locator(f'{MESSAGES}[data-message-id="{message_of(at)}"]')
        # The decision's own choices; its Hint, Undo and Since your last turn buttons are left alone.
        live = prompt.locator(CONTROLS).filter(has_not_text=AIDS)
        try:
            expect(live.first).to_be_attached(timeout=5_000)
        except AssertionError:
            # The decision left the page before its choices were reached (a loaded machine has seen a step's
            # message replaced, or made a record, as the turn moved on): the decision the page shows now is taken
            # instead, and rarely.
            gone += 1
            assert gone <= 5, "a decision kept leaving the page before it could be made"
            at = next_decision(page, None)
            continue
        try:
            in_sight(page, live.first, f"decision-{decisions}")
        except AssertionError:
            if live.count():
                raise  # on the page, and not in sight: the page did not bring the decision into view
            # Replaced meanwhile (a new turn's prompt is a new message): the decision the page shows now.
            gone += 1
            assert gone <= 5, "a decision kept leaving the page before it could be made"
            at = next_decision(page, None)
            continue
        if not shown_menu and live.first.get_attribute("role") == "combobox":
            picture_of(prompt, f"table-{number}")
            settled(page)
            shot(page, f"{shots}-decision")
            # Its menu opened with a tap: the choices readable on the phone.
            live.first.click()
            expect(menu_options(page, live.first).first).to_be_visible(timeout=10_000)
            shot(page, f"{shots}-decision-menu")
            page.keyboard.press("Escape")
            expect(menu_options(page, live.first).first).to_be_hidden(timeout=10_000)
            shown_menu = True
        count = live.count()
        if not count:
            # Its choices left the page meanwhile (the turn moved on): the decision the page shows now.
            gone += 1
            assert gone <= 5, "a decision kept leaving the page before it could be made"
            at = next_decision(page, None)
            continue
        if count > 1 and live.first.get_attribute("role") == "combobox":
            # A menu followed by more choices: the group chosen (a tile), marked in its menu, and the choices in it
            # (its spaces), privately; or a long list in several menus. One of those after the first.
            control = live.nth(1 + rng.randrange(count - 1))
        else:
            control = live.nth(rng.randrange(count))
        try:
            if control.get_attribute("role", timeout=5_000) == "combobox":
                # One of a menu's first few entries: each step down the list is a key press of its own.
                choose(page, control, rng, pick=rng.randrange(3))
            else:
                choose(page, control, rng)
        except (Gone, PlaywrightError):
            # The page drew the decision again between reading it and making its choice (its message replaced, or
            # its controls drawn anew): the decision is read again as the page shows it now.
            gone += 1
            assert gone <= 5, "a decision kept leaving the page before it could be made"
            at = next_decision(page, None)
            continue
        decisions += 1
        # Each decision may be read again a few times (a loaded page draws its message again under the finger).
        gone = 0
        assert decisions < 200, "the game did not end"
        if until and decisions >= until and shown_menu:
            return decisions
        at = next_decision(page, at)
    assert shown_menu, "no decision was asked with a menu"
    assert messages.filter(has_text=OVER).count() >= 1
    return decisions


@pytest.mark.journey
def test_kohaku_against_the_ai_is_played_resigned_and_rematched_on_a_phone(context, sandbox):
    started = time.monotonic()
    page = open_window(context, sandbox, **PHONE)
    view_as(page, "Aiko")
    to_home(page)
    messages = page.locator(MESSAGES)

    # A lobby: its buttons in sight on the phone; cancelled with its own button.
    slash_games_new(page, players=2)
    opened = messages.filter(has_text="Open: join with the button below.").last
    expect(opened).to_contain_text(re.compile(r"Kōhaku #\d+ — 1 of 2 seats"), timeout=WAIT)
    table = re.search(r"Kōhaku #(\d+)", opened.inner_text()).group(0)
    lobby = messages.filter(has_text=f"{table} — ").last
    for name in ("Join", "Leave", "Start", "Cancel"):
        expect(lobby.get_by_role("button", name=name)).to_be_in_viewport(timeout=10_000)
    settled(page)
    shot(page, "kohaku-phone-lobby")
    rng = random.Random(26)
    choose(page, lobby.get_by_role("button", name="Cancel"), rng)
    expect(lobby).to_contain_text("Cancelled.", timeout=WAIT)

    # Against one AI seat: the table is full and starts at once, and the page follows it into its thread.
    slash_games_new(page, players=2, ai=1)
    expect(page.locator("#channel-name")).to_have_text(re.compile(r"Kōhaku #\d+"), timeout=WAIT)
    number = re.search(r"#(\d+)", channel_name(page)).group(1)

    # Decisions through their buttons or menu, each in sight when it comes (the daily below plays a whole game),
    # then /games resign: the AI plays the seat to the final scores, as it plays its own.
    decisions = play_to_the_end(page, number, rng, shots="kohaku-phone", until=8)
    command(page, "games resign")
    expect(messages.filter(has_text="You resigned").last).to_be_visible(timeout=WAIT)
    final = messages.filter(has_text=OVER).last
    expect(final).to_be_attached(timeout=WAIT)
    # The places, best first, as a numbered list (Discord's Markdown, as the page draws it): the seat that resigned
    # last, whatever its points, and saying why.
    places = final.locator(".message-content ol > li").all_inner_texts()
    assert len(places) == 2 and all(PLACE.match(line) for line in places), final.inner_text()
    assert [PLACE.match(line).group(1) for line in places] == ["AI 1", "Aiko"], places
    assert places[1].endswith(" — resigned"), places
    record = picture_of(final, f"final-{number}")
    assert "final scores" in record.get_attribute("alt")
    settled(page)
    # The AI's rounds came a post each while the page kept its place: a person taps "jump to latest".
    latest = page.locator("#new-messages")
    if latest.is_visible():
        latest.click()
        settled(page)
    in_sight(page, final, "final")
    # Its top brought to the view's top (the rounds above it may fill the screen).
    swipe_to(page, final)
    settled(page)
    page.mouse.move(PHONE["width"] - 1, 40)  # no pointer over a picture: a phone has none
    shot(page, "kohaku-phone-final")
    swipe_to(page, record)
    expect(record).to_be_in_viewport(ratio=0.9)
    shot(page, "kohaku-phone-final-picture")
    # The same game again, from the final post: against the AI alone it starts at once, and the page follows it.
    again = final.get_by_role("button", name="Rematch")
    in_sight(page, again, "rematch")
    choose(page, again, rng)
    expect(page.locator("#channel-name")).to_have_text(re.compile(rf"Kōhaku #(?!{number}\b)\d+\b"), timeout=WAIT)
    rematch = next_decision(page, None)
    assert rematch is not None
    turn = page.locator(f'{MESSAGES}[data-message-id="{message_of(rematch)}"]')
    in_sight(page, turn.locator(CONTROLS).first, "rematch-turn")
    settled(page)
    shot(page, "kohaku-phone-rematch")
    # A person rarely has to make a click again; a loaded machine may take one now and then.
    assert swallowed(page) <= max(1, decisions // 20), swallowed(page)
    print(f"Kōhaku through the page: {decisions} decisions, then resigned, in {time.monotonic() - started:.0f} s")


@pytest.mark.journey
def test_a_kohaku_daily_is_played_to_its_end_on_a_phone(context, sandbox):
    started = time.monotonic()
    page = open_window(context, sandbox, **PHONE)
    view_as(page, "Botan")
    to_home(page)
    messages = page.locator(MESSAGES)
    # Today's challenge, solo against Danny on the seed everyone gets: the page follows it into its thread.
    slash_games(page, "challenge")
    expect(page.locator("#channel-name")).to_have_text(re.compile(r"Kōhaku #\d+"), timeout=WAIT)
    number = re.search(r"#(\d+)", channel_name(page)).group(1)
    # Every decision through its buttons or menu, each in sight when it comes, to the final scores.
    decisions = play_to_the_end(page, number, random.Random(27))
    assert decisions > 20
    final = messages.filter(has_text=OVER).last
    # Alone at the table, Botan's score without a place (a single line, not a list): how it stands against
    # Danny's levels is the game's own line.
    content = final.locator(".message-content").inner_text()
    assert re.search(r"^Botan — [\d,]+ points?$", content, re.M), content
    assert "Danny scored" in content, content
    expect(final).to_contain_text(re.compile(r"Daily challenge of .+: #1 of 1 so far"))
    picture_of(final, f"final-{number}")
    settled(page)
    in_sight(page, final, "daily-final")
    page.mouse.move(PHONE["width"] - 1, 40)
    shot(page, "kohaku-phone-daily-final")
    # Shared from its final post: the card, in the channel the challenge was played from, for everyone.
    share = final.get_by_role("button", name="Share")
    in_sight(page, share, "share")
    choose(page, share, random.Random(28))
    to_home(page)
    card = messages.filter(has_text="Daily challenge ·").last
    expect(card).to_contain_text("Kōhaku", timeout=WAIT)
    expect(card).to_contain_text("Same draws for everyone today")
    picture_of(card, f"kohaku-{number}-share")
    settled(page)
    in_sight(page, card, "share-card")
    shot(page, "kohaku-phone-share")
    print(f"Kōhaku's daily through the page: {decisions} decisions in {time.monotonic() - started:.0f} s")
