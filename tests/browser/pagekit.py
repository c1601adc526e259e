"""Drive the sandbox page the way a person does: type commands, click controls, pick who is viewing."""

from __future__ import annotations

import json
import os
import random
import re
import signal
import socket
import subprocess
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit
from weakref import WeakKeyDictionary

from playwright.sync_api import BrowserContext, Locator, Page, Request, expect
from playwright.sync_api import Error as PlaywrightError

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "tests" / "browser" / "artifacts"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PLAYERS = ("Aiko", "Botan", "Chiyo", "Daichi")
READY = re.compile(r"Kokeshi sandbox running: open (http://\S+)")
CONTROLS = (
    ".component-button:not([disabled]):not(.is-disabled):not([aria-disabled=true]), "
    "[role=combobox]:not([aria-disabled=true])"
)
# Whom a prompt asks: "Your turn: @Aiko." (or, on a prompt of Kokeshi's own table, "@Aiko — your turn").
MENTION = re.compile(r"Your turn: @(\w+)|@(\w+) —")
OVER = re.compile(r"Kokeshi #\d+ is over[!.]")
BUY = re.compile(r"^\W*Buy \d")
# The buttons beside a decision that make none: a random player leaves them alone.
AIDS = re.compile(r"^\W*(Hint|Undo|Since your last turn)\s*$")
# Per page: the clicks and menu picks it sent to the sandbox, and those it took without sending them.
_SENT: WeakKeyDictionary[Page, int] = WeakKeyDictionary()
_SWALLOWED: WeakKeyDictionary[Page, int] = WeakKeyDictionary()
# How long one answer of the bot may take to show before a test fails (the page polls the sandbox).
ANSWER_TIMEOUT = 60.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Sandbox:
    """`make run` without a token, as a person starts it, and what it printed.

    Its output is read all along, as a terminal would: a pipe nobody reads fills up, and the sandbox would then
    stop in the middle of a write.
    """

    process: subprocess.Popen
    url: str
    database: Path
    port: int
    output: list[str] = field(default_factory=list)  # up to the address
    later: list[str] = field(default_factory=list)  # after it
    reader: threading.Thread | None = None

    @classmethod
    def start(cls, database: Path, *, port: int | None = None, root: Path = ROOT, timeout: float = 300.0) -> Sandbox:
        """`make run` in `root` (this tree, or another version's for a side-by-side bench)."""
        port = port or free_port()
        env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "MAKEFLAGS", "MAKELEVEL")}
        env.update(DISCORD_TOKEN="", DATABASE_PATH=str(database), SANDBOX_PORT=str(port), PYTHONUNBUFFERED="1")
        process = subprocess.Popen(
            ["make", "--no-print-directory", "run"],
            cwd=root,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,
        )
        output: list[str] = []
        later: list[str] = []
        found: list[str] = []
        ready = threading.Event()

        def read() -> None:
            for line in process.stdout:
                (later if found else output).append(line.rstrip("\n"))
                if not found and (match := READY.search(line)):
                    found.append(match.group(1))
                    ready.set()
            ready.set()

        reader = threading.Thread(target=read, name="sandbox-output", daemon=True)
        reader.start()
        ready.wait(timeout)
        if not found:
            os.killpg(process.pid, signal.SIGKILL)
            reader.join(10)
            raise AssertionError("the sandbox did not start:\n" + "\n".join(output))
        return cls(process, found[0], database, port, output, later, reader)

    def restart(self) -> str:
        """Ctrl+C, then `make run` again on the same database and port, as a person restarts it; returns what the
        first run printed after its address."""
        rest = self.stop()
        again = Sandbox.start(self.database, port=self.port)
        self.process, self.url, self.output, self.later, self.reader = (
            again.process,
            again.url,
            again.output,
            again.later,
            again.reader,
        )
        return rest

    def stop(self) -> str:
        """Ctrl+C reaches the bot; returns what was printed after the address."""
        children = subprocess.run(
            ["pgrep", "-s", str(self.process.pid), "-f", r"^\S*python\S* bot.py"],
            capture_output=True,
            text=True,
            check=False,
        ).stdout.split()
        for pid in children:
            os.kill(int(pid), signal.SIGINT)
        try:
            self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
            raise AssertionError("the sandbox did not stop on Ctrl+C:\n" + "\n".join(self.later[-50:])) from None
        if self.reader is not None:
            self.reader.join(10)
        return "\n".join(self.later)


def open_window(context: BrowserContext, sandbox: Sandbox, *, width: int = 1280, height: int = 900) -> Page:
    """A new tab on the sandbox's page at this viewport, once it shows a viewer and a channel."""
    page = context.new_page()
    page.set_viewport_size({"width": width, "height": height})
    page.goto(sandbox.url)
    expect(page.locator("#viewer-picker")).to_be_visible()
    expect(page.locator("#channel-name")).not_to_be_empty()
    return page


def shot(page: Page, name: str) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path))
    return path


def command(page: Page, text: str, **options: object) -> None:
    """Type `/text`, pick it from the command list, fill `options` and send it."""
    box = page.locator("#channel-composer-input")
    box.click()
    box.type("/" + text)
    entry = "[role=option][data-entry-key$=':{}']".format(text.replace(" ", "."))
    page.locator("#command-picker-listbox " + entry).click()
    expect(page.locator(".command-chip")).to_be_visible()
    for name, value in options.items():
        page.locator(f'#command-suggestion-listbox [data-value="{name}"]').click()
        field = page.locator(f'input.command-option-input[data-option="{name}"]')
        field.fill(str(value))
        expect(field).to_have_value(str(value))
    page.keyboard.press("Escape")
    before = signature(page)
    page.locator("#send-message").click()
    try:
        wait_for_change(page, before)
    except AssertionError:
        shot(page, "failed-command")
        raise


def viewer(page: Page) -> str:
    return page.locator("#viewer-picker option:checked").inner_text().strip()


def view_as(page: Page, name: str) -> None:
    if viewer(page) == name:
        return
    page.locator("#viewer-picker").select_option(label=name)
    expect(page.locator("#viewer-picker option:checked")).to_have_text(name)
    # The page empties itself for the new viewer, then draws their messages and is ready again.
    settled(page)


def settled(page: Page) -> None:
    """Wait until the page shows messages and has finished drawing them (pictures included)."""
    page.wait_for_function(
        """() => document.querySelector('#preview-app').getAttribute('aria-busy') === 'false'
            && document.querySelector('#channel-message-list article.channel-message') !== null""",
        timeout=ANSWER_TIMEOUT * 1000,
    )


def channel_name(page: Page) -> str:
    return page.locator("#channel-name").inner_text().strip()


def message_texts(page: Page) -> list[str]:
    return page.locator("#channel-message-list article.channel-message").all_inner_texts()


def last_text(page: Page) -> str:
    texts = message_texts(page)
    return texts[-1] if texts else ""


def page_status(page: Page) -> str:
    """What the page's toolbar and connection panel say (the outcome of the last action), for failure reports."""
    return page.evaluate(
        """() => ['action-status', 'transport-status']
            .map(id => document.getElementById(id)?.innerText?.trim() ?? '').join(' | ')"""
    )


def signature(page: Page) -> str:
    """What the bot changes when it answers: how many messages, and the last ones' and the newest public one's
    words and controls (private replies may follow the live prompt; not the page's own marks, such as a control
    greyed out while a click is on its way)."""
    return page.evaluate(
        """() => {
            const list = document.querySelectorAll('#channel-message-list article.channel-message');
            const shown = Array.from(list);
            const open = shown.filter(m => !m.querySelector('.message-ephemeral-note')).slice(-1);
            const tail = [...shown.slice(-3), ...open].map(m => {
                const words = m.querySelector('.message-content')?.innerText ?? '';
                const controls = Array.from(m.querySelectorAll('.component-button, .select-trigger, img'))
                    .map(c => c.getAttribute('aria-label') || c.innerText || c.getAttribute('alt') || '');
                return words + '|' + controls.join(',');
            });
            return list.length + '|' + tail.join(' ~ ');
        }"""
    )


def wait_for_change(page: Page, before: str, timeout: float = ANSWER_TIMEOUT) -> float:
    """Wait until the page shows something new; returns the seconds it took."""
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        if signature(page) != before:
            return time.monotonic() - started
        # Each look reads the newest messages' words, which makes the page lay itself out: a few a second leave
        # the two cores to the sandbox and the page.
        page.wait_for_timeout(80)
    shot(page, "failed-wait")
    raise AssertionError(
        f"the page did not change within {timeout} s; its status: {page_status(page)}; it shows:\n{last_text(page)}"
    )


def to_act(page: Page) -> str | None:
    """The player the newest prompt mentions, as the page shows it (among the newest messages first: reading a
    long thread's every message at each decision would slow the game down as it grows)."""
    newest = page.evaluate(
        """() => Array.from(document.querySelectorAll('#channel-message-list article.channel-message'))
            .slice(-6).map(m => m.innerText)"""
    )
    for texts in (newest, None):
        for text in reversed(texts if texts is not None else message_texts(page)):
            found = [one or other for one, other in MENTION.findall(text) if (one or other) in PLAYERS]
            if found:
                return found[-1]
    return None


def whose_turn(page: Page) -> str:
    """The player the newest prompt mentions, once the page shows one (it is briefly empty while it draws a viewer's
    messages again)."""
    for _ in range(200):
        settled(page)
        who = to_act(page)
        if who is not None:
            return who
        page.wait_for_timeout(100)
    raise AssertionError(f"no prompt mentions a player; the page shows:\n{last_text(page)}")


def controls(page: Page) -> Locator:
    """The live controls: those of the newest message that has any (the prompt, or private track buttons)."""
    newest = page.locator("#channel-message-list article.channel-message").filter(has=page.locator(CONTROLS)).last
    return newest.locator(CONTROLS)


def watch_actions(context: BrowserContext) -> None:
    """Count, per page, the clicks and menu picks each page sends to the sandbox (its POSTs to `/api/action`)."""

    def seen(request: Request) -> None:
        if request.method != "POST" or urlsplit(request.url).path != "/api/action":
            return
        try:
            kind = json.loads(request.post_data or "{}").get("kind")
        except (ValueError, AttributeError):
            return
        if kind in ("click", "select"):
            page = request.frame.page
            _SENT[page] = _SENT.get(page, 0) + 1

    context.on("request", seen)


def actions_sent(page: Page) -> int:
    """How many clicks and menu picks this page has sent (once `watch_actions` watches its window)."""
    return _SENT.get(page, 0)


def swallowed(page: Page) -> int:
    """How many clicks or picks this page took without sending them, each made again as a person would."""
    return _SWALLOWED.get(page, 0)


def sent_since(page: Page, count: int, timeout: float = 10.0) -> bool:
    """Whether the page sends a click or pick beyond `count` within `timeout` seconds."""
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        if actions_sent(page) > count:
            return True
        page.wait_for_timeout(25)
    return False


class Gone(AssertionError):
    """The control to use left the page (its message was replaced as the game moved on) and did not come back."""


def choose(page: Page, control: Locator, rng: random.Random, pick: int | None = None) -> None:
    """Press a button, or open a menu and pick one of its options (the `pick`th, or one at random).

    As a person would: a click or pick the page took without sending it on (the page drew its messages again
    under the pointer, or was still busy with the last answer) is made again, and counted (`swallowed`); after
    three, the page is refreshed first, and after four it is loaded again. A control that is no longer on the page
    raises `Gone` (the caller reads the page again).
    """
    failure: Exception | None = None
    for attempt in range(6):
        try:
            control.wait_for(state="attached", timeout=10_000)
        except PlaywrightError:
            shot(page, "gone")
            raise Gone(f"the control left the page; the page shows:\n{last_text(page)}") from None
        if attempt == 3:
            # Still not sent: the page may be waiting for a state it was never published (seen once under a full
            # CI's load); a person presses Refresh, which publishes the latest state to the page.
            page.locator("#refresh").click()
            settled(page)
        if attempt == 4:
            # Still not sent after Refresh (seen once too): the page keeps an action it will not retry, or a state
            # it waits for; a person reloads it, which keeps who they view as and shows the newest messages.
            note_page_state(page)
            page.reload()
            expect(page.locator("#viewer-picker")).to_be_visible()
            settled(page)
        sent = actions_sent(page)
        made = menu = False
        try:
            if control.get_attribute("role") != "combobox":
                control.click()
            else:
                # A menu that did not open (the page drew its messages again meanwhile) is opened again.
                menu = True
                pick = pick_from_menu(page, control, rng, pick)
            made = True
            if sent_since(page, sent):
                # The page may draw the answer again with the menu still open: a person closes it.
                if menu and menu_options(page, control).first.is_visible():
                    page.keyboard.press("Escape")
                return
            failure = AssertionError("the page did not send it")
        except (PlaywrightError, AssertionError) as exc:
            failure = exc
            if actions_sent(page) > sent:
                return
        if made:
            _SWALLOWED[page] = swallowed(page) + 1
            note_swallowed(page, control, failure)
        page.wait_for_timeout(200)
    shot(page, "failed-choice")
    reason = str(failure).splitlines()[0] if failure is not None else ""
    raise AssertionError(f"could not make a choice (the page's status: {page_status(page)}): {reason}")


def note_swallowed(page: Page, control: Locator, failure: Exception | None) -> None:
    """Keep what the page showed when it took a click without sending it: a screenshot and a line of the log."""
    count = swallowed(page)
    try:
        state = control.evaluate("c => [c.tagName, c.getAttribute('aria-disabled'), c.isConnected].join(' ')")
    except PlaywrightError as exc:
        state = f"gone ({exc.message.splitlines()[0]})"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with (ARTIFACTS / "clicks.log").open("a") as log:
        reason = str(failure).splitlines()[0] if failure is not None else ""
        log.write(f"made again #{count}: control {state}; status {page_status(page)}; {reason}\n")
    if count <= 10:
        shot(page, f"swallowed-{count}")


def note_page_state(page: Page) -> None:
    """Keep, in the clicks log, what the page was waiting for when it would not send a click: its status lines
    and the page's own report of its pending work (the diagnostics panel's text)."""
    try:
        details = page.evaluate(
            """() => ['action-status', 'transport-status', 'diagnostics']
                .map(id => document.getElementById(id)?.innerText?.trim() ?? '-').join(' | ')"""
        )
    except PlaywrightError as exc:
        details = f"unreadable ({exc.message.splitlines()[0]})"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with (ARTIFACTS / "clicks.log").open("a") as log:
        log.write(f"reloaded the page: {details}\n")
    shot(page, "before-reload")


def pick_from_menu(page: Page, control: Locator, rng: random.Random, pick: int | None) -> int:
    """Open a menu and pick an option with the keyboard, as the page's menus allow (the page may redraw its
    messages under a pointer); returns the option's index, random unless given."""
    options = menu_options(page, control)
    control.focus(timeout=5000)
    if not options.first.is_visible():
        page.keyboard.press("Enter")
    expect(options.first).to_be_visible(timeout=3000)
    count = options.count()
    if count == 0:
        # The page drew its messages again between opening the menu and reading it: `choose` tries again.
        raise AssertionError("the menu closed before an option was picked")
    if pick is None:
        pick = rng.randrange(count)
    for _ in range(pick):
        page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")
    return pick


def menu_options(page: Page, control: Locator) -> Locator:
    """The options of a menu (shown while it is open)."""
    listbox = page.locator(f'[id="{control.get_attribute("aria-controls", timeout=5000)}"]')
    return listbox.locator("[role=option]")


def is_over(page: Page) -> bool:
    """The final scores are among the newest messages."""
    tail = page.evaluate(
        """() => Array.from(document.querySelectorAll('#channel-message-list article.channel-message'))
            .slice(-3).map(m => m.innerText)"""
    )
    return any(OVER.search(text) for text in tail)


def play_step(page: Page, rng: random.Random) -> float:
    """Make the current decision as the player whose turn it is; returns the click-to-answer time."""
    who = to_act(page)
    if who is not None:
        view_as(page, who)
    live = controls(page)
    # While the page is busy with the last answer it greys its controls out; a person waits for them (or for the
    # final scores, when the last answer ended the game).
    for _ in range(600):
        count = live.count()
        if count:
            break
        if is_over(page):
            return 0.0
        page.wait_for_timeout(50)
    else:
        shot(page, "failed-no-control")
        raise AssertionError(f"no control to play with; the page shows:\n{last_text(page)}")
    # The newest message's controls are the live prompt (or the private track buttons that answer a menu).
    # A player who buys when they can drains the bag, so the game ends in a reasonable number of decisions.
    labels = live.all_inner_texts()
    buying = [i for i, label in enumerate(labels) if BUY.search(label)]
    deciding = [i for i, label in enumerate(labels) if not AIDS.search(label)] or list(range(count))
    # Beside a group's own buttons (a tile's tracks, picked from the menu above them), a person takes a button: the
    # menu there already shows the group they picked.
    roles = live.evaluate_all("controls => controls.map(c => c.getAttribute('role'))")
    pressing = [i for i in deciding if roles[i] != "combobox"]
    deciding = pressing or deciding
    pick = rng.choice(buying or deciding)
    before = signature(page)
    choose(page, live.nth(pick), rng)
    return wait_for_change(page, before)


def every_click_reached_the_bot(page: Page, latencies: list[float]) -> None:
    """Each decision was sent to the sandbox and answered; a person rarely had to click twice."""
    with (ARTIFACTS / "clicks.log").open("a") as log:
        log.write(f"{len(latencies)} decisions, {actions_sent(page)} sent, {swallowed(page)} made twice\n")
    assert actions_sent(page) >= len(latencies)
    assert swallowed(page) <= len(latencies) // 20, f"{swallowed(page)} of {len(latencies)} clicks made twice"


def play_to_end(page: Page, rng: random.Random, *, limit: int = 800, every: int = 0, name: str = "") -> list[float]:
    """Play every decision through the page until the final picture shows; returns each answer's time."""
    latencies: list[float] = []
    for step in range(limit):
        if is_over(page):
            return latencies
        took = play_step(page, rng)
        if took:
            latencies.append(took)
        if every and name and step % every == 0:
            shot(page, f"{name}-{step:03d}")
    raise AssertionError(f"the game did not end within {limit} decisions")


def newest_picture_shown(page: Page, timeout: float = 30.0) -> int:
    """Wait until the newest picture in the page is loaded; returns its width in pixels."""
    started = time.monotonic()
    width = 0
    while time.monotonic() - started < timeout:
        width = page.evaluate(
            """() => {
                const pictures = document.querySelectorAll('#channel-message-list img.attachment-image');
                const last = pictures[pictures.length - 1];
                return last && last.complete ? last.naturalWidth : 0;
            }"""
        )
        if width:
            return width
        page.wait_for_timeout(250)
    shot(page, "failed-picture")
    raise AssertionError("the newest picture did not show")


def start_two_player_game(page: Page, host: str, guest: str) -> None:
    """`/kokeshi new players:2` as the host, Join as the guest, Start as the host: the page follows the game."""
    view_as(page, host)
    command(page, "kokeshi new", players=2)
    expect(page.locator("#channel-message-list").get_by_role("button", name="Join").last).to_be_visible()
    shot(page, "lobby")
    view_as(page, guest)
    before = signature(page)
    page.locator("#channel-message-list").get_by_role("button", name="Join").last.click()
    wait_for_change(page, before)
    view_as(page, host)
    page.locator("#channel-message-list").get_by_role("button", name="Start").last.click()
    expect(page.locator("#channel-name")).to_have_text(re.compile(r"Kokeshi #\d+"), timeout=30_000)
    expect(controls(page).first).to_be_visible(timeout=30_000)
