"""Discord's refusals are never hammered: back-off, unreachable games, servers that remove the bot, closed DMs.

SimCord answers as Discord would only when told to: these tests inject the errors Discord returns (403 Missing
Access / Missing Permissions, 404 Unknown Channel, 160005 Thread Locked, 50083 archived thread, 50007 closed DMs)
and count, at SimCord's transport, every request Discord refused over simulated days.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import pytest
from simcord.backend import serializers
from simcord.backend.errors import BackendError

from cogs.refusals import (
    FIRST_RETRY,
    MAX_RETRY,
    UNREACHABLE_AFTER,
    UNREACHABLE_RETRY,
    Refusal,
    attempts_within,
    becomes_unreachable,
    classify,
    refused,
    retry_delay,
)
from storage import GameReach
from tests.botkit import _seated, answer, components, custom_ids, load_game, open_game, prompt_message, restart

HOUR = 3600.0
DAY = 24 * HOUR


@dataclass(frozen=True)
class Refused:
    method: str
    path: str
    status: int
    code: int
    at: float


@pytest.fixture
def refusals(world, monkeypatch) -> list[Refused]:
    """Every request Discord (SimCord) refused from now on, as seen at the transport."""
    import simcord.http.router as router

    seen: list[Refused] = []
    real = router.dispatch

    def dispatch(backend, method, path, **kwargs):
        try:
            return real(backend, method, path, **kwargs)
        except BackendError as exc:
            seen.append(Refused(method, path, exc.status, exc.code, backend.clock.now().timestamp()))
            raise

    monkeypatch.setattr(router, "dispatch", dispatch)
    return seen


def refuse(w, method: str, path: str, status: int, code: int, message: str) -> None:
    """From now on Discord refuses these requests (until the fault is lifted)."""
    w.env.backend.faults.append(
        {"method": method, "path": path, "status": status, "code": code, "message": message, "times": None}
    )


def said(result) -> str:
    """Everything the bot answered privately to one interaction."""
    return "\n".join(m.content for m in [result.response, *result.followups] if m is not None and m.content)


async def answer_told(w, game_id: int, thread, rng: random.Random) -> str:
    """As `answer`, through the platform's buttons or menus (a tile's group, then its button on the private message
    that opens): everything the player was told privately on the way (a notice may follow the private message)."""
    member, options, version = await _seated(w, game_id)
    action = rng.choice([o for o, _group in options])
    group = dict(options)[action]
    message = await prompt_message(w, game_id, thread)
    button = f"mt:a:{game_id}:{version}:{action}"
    menus = [c for c in components(message) if c.get("type") == 3]
    if not menus:
        return said(await member.click(message, custom_id=button))
    offered = {o["value"]: m for m in menus for o in m["options"]}
    wanted = next(v for v in (f"g:{group}" if group else "", f"a:{action}", action) if v in offered)
    picked = await member.select(message, [wanted], custom_id=offered[wanted]["custom_id"])
    told = said(picked)
    if wanted.startswith("g:"):
        private = next(m for m in [picked.response, *picked.followups] if m is not None and button in custom_ids(m))
        told += "\n" + said(await member.click(private, custom_id=button))
    return told


def lift(w) -> None:
    w.env.backend.faults.clear()


async def wait(w, seconds: float, step: float = HOUR) -> None:
    """Let simulated time pass in steps (each step settles the bot's timers)."""
    while seconds > 0:
        await w.env.advance_time(min(step, seconds))
        seconds -= step


async def stuck_game(w, status: int, code: int, message: str):
    """A two-player game with a 24 h timer whose thread then refuses the bot's posts (and edits, unless only Send
    Messages was taken away); the mover finishes their turn, so the next player's prompt cannot be posted."""
    game_id, thread = await open_game(w, players=2, timer=int(DAY))
    for method in ("POST",) if code == 50013 else ("POST", "PATCH", "DELETE"):
        refuse(w, method, f"/channels/{thread.id}/messages*", status, code, message)
    rng = random.Random(1)
    game, version = await load_game(w, game_id)
    mover = game.prompt.player
    while game.prompt.player == mover:
        # By command: the thread's prompt cannot be edited any more, its buttons are out of date.
        choice = f"{version}:{rng.choice(game.legal_actions())}"
        result = await w.member(mover).slash(w.channel, "kokeshi play", choice=choice)
        assert result.acknowledged
        game, version = await load_game(w, game_id)
    return game_id, thread, result


# ---------------------------------------------------------------------- the policy, on its own


def test_a_refused_game_is_tried_after_a_minute_then_twice_as_late_up_to_an_hour():
    reach = refused(None, 7, now=1000.0, status=403, code=50013)
    delays = []
    for _ in range(9):
        delays.append(retry_delay(reach))
        reach = refused(reach, 7, now=1000.0, status=403, code=50013)
    assert delays == [60, 120, 240, 480, 960, 1920, 3600, 3600, 3600]
    assert (FIRST_RETRY, MAX_RETRY) == (60, 3600)


def test_after_a_day_of_refusals_a_game_is_unreachable_and_tried_every_six_hours():
    reach = refused(None, 7, now=0.0, status=403, code=50013)
    assert not becomes_unreachable(reach, UNREACHABLE_AFTER - 1)
    assert becomes_unreachable(reach, UNREACHABLE_AFTER)
    marked = GameReach(7, since=0.0, refusals=30, status=403, code=50013, unreachable_at=UNREACHABLE_AFTER)
    assert not becomes_unreachable(marked, 2 * UNREACHABLE_AFTER)  # marked once
    assert retry_delay(marked) == UNREACHABLE_RETRY == 6 * HOUR
    # A deleted channel does not come back: unreachable at once.
    assert becomes_unreachable(refused(None, 7, now=5.0, status=404, code=10003), 5.0)


def test_each_refusal_is_understood_for_what_it_is():
    assert classify(403, 50001) is Refusal.FORBIDDEN  # Missing Access
    assert classify(403, 50013) is Refusal.FORBIDDEN  # Missing Permissions
    assert classify(404, 10003) is Refusal.GONE  # Unknown Channel
    assert classify(400, 160005) is Refusal.LOCKED and classify(403, 160005) is Refusal.LOCKED
    assert classify(400, 50083) is Refusal.ARCHIVED
    assert classify(403, 50007) is Refusal.DM_CLOSED
    assert classify(500, 0) is Refusal.TRANSIENT and classify(429, 0) is Refusal.TRANSIENT


def test_a_failure_whose_cause_is_unknown_keeps_the_last_known_refusal():
    reach = refused(None, 7, now=0.0, status=404, code=10003)
    again = refused(reach, 7, now=5.0, status=0, code=0)
    assert (again.refusals, again.status, again.code) == (2, 404, 10003)
    assert refused(again, 7, now=9.0, status=403, code=50013).code == 50013


def test_a_game_refused_for_54_hours_is_tried_34_times():
    # The first post, then 60 s doubling to an hour for a day, then every 6 hours.
    assert attempts_within(54 * HOUR) == 34


# ---------------------------------------------------------------------- through Discord


@pytest.mark.parametrize(
    ("status", "code", "message"),
    [(403, 50013, "Missing Permissions"), (403, 50001, "Missing Access"), (403, 160005, "Thread is locked")],
)
@pytest.mark.slow
async def test_a_thread_that_refuses_every_post_is_not_hammered_and_its_host_is_told_once(
    world, refusals, status, code, message
):
    game_id, thread, result = await stuck_game(world, status, code, message)
    # The move is saved, the player told; the game's turn clock stops while nobody can see its prompt.
    assert "Your move is saved" in said(result)
    assert {t.kind for t in await world.store.timers(game_id)} == {"repost"}
    start = world.env.now().timestamp()
    await wait(world, 54 * HOUR)
    here = [r for r in refusals if r.at >= start and f"/channels/{thread.id}/" in r.path]
    # Before: one refused post a minute, forever (3,187 in 54 hours after a removal). Now: the back-off.
    assert 25 <= len(here) <= attempts_within(54 * HOUR) + 2, len(here)
    reach = await world.store.reach(game_id)
    assert reach.unreachable_at is not None and reach.unreachable_at - reach.since >= DAY
    assert reach.told_at is not None and (reach.status, reach.code) == (status, code)
    # Told once, in the channel the game was opened in (the bot can still post there), mentioning the host.
    aiko = world.members[0]
    told = [m for m in world.channel.history() if "your game is paused" in m.content]
    assert len(told) == 1 and aiko.mention in told[0].content and aiko.id in [u.id for u in told[0].mentions]
    expected = {
        50013: "Send Messages in Threads",
        50001: "View Channel",
        160005: "is locked. Unlocking it lets the game go on",
    }[code]
    assert expected in told[0].content and "Nothing is lost" in told[0].content
    # `status` says so, in the game's thread and in the list of the caller's games.
    assert expected in said(await aiko.slash(world.channel, "kokeshi status", game=game_id))
    assert "paused" in said(await aiko.slash(world.channel, "kokeshi status"))
    assert world.env.errors == []


@pytest.mark.slow
async def test_a_permission_given_back_resumes_the_game_at_once_with_fresh_timers(world, refusals):
    game_id, thread, _ = await stuck_game(world, 403, 50013, "Missing Permissions")
    await wait(world, 30 * HOUR)
    assert (await world.store.reach(game_id)).unreachable_at is not None
    old = await prompt_message(world, game_id, thread)
    # An admin fixes the channel's permissions: Discord announces the change, and the game is tried at once.
    lift(world)
    world.env.backend.announce_channel_update(world.channel.id)
    await world.env.advance_time(10)
    assert await world.store.reach(game_id) is None
    prompt = await prompt_message(world, game_id, thread)
    game, _ = await load_game(world, game_id)
    assert prompt.id != old.id and world.member(game.prompt.player).mention in prompt.content
    timers = {t.kind: t.due_at for t in await world.store.timers(game_id)}
    assert set(timers) == {"reminder_half", "reminder_late", "deadline"}
    # A full day from the moment it was shown again (a few seconds after the change was announced).
    assert world.env.now().timestamp() - 10 <= timers["deadline"] - DAY <= world.env.now().timestamp()
    assert world.env.errors == []


@pytest.mark.slow
async def test_a_later_back_off_attempt_notices_a_fix_without_any_event(world, refusals):
    game_id, thread, _ = await stuck_game(world, 403, 50013, "Missing Permissions")
    await wait(world, 3 * HOUR)
    lift(world)  # e.g. a role given to the bot (an event the bot does not receive without the members intent)
    await wait(world, HOUR + 60)
    assert await world.store.reach(game_id) is None
    assert {t.kind for t in await world.store.timers(game_id)} == {"reminder_half", "reminder_late", "deadline"}


@pytest.mark.slow
async def test_using_a_command_of_a_stuck_game_tries_it_again_at_once(world, refusals):
    game_id, thread, _ = await stuck_game(world, 403, 50013, "Missing Permissions")
    await wait(world, 2 * DAY)
    lift(world)
    game, version = await load_game(world, game_id)
    mover = world.member(game.prompt.player)
    played = await mover.slash(world.channel, "kokeshi play", choice=f"{version}:{game.legal_actions()[0]}")
    assert played.acknowledged
    assert await world.store.reach(game_id) is None
    assert (await world.store.turn_posts(game_id)).shown_version == (await world.store.get_game(game_id)).version


async def test_an_archived_thread_is_woken_and_the_post_made(world, refusals):
    game_id, thread = await open_game(world, players=2)
    # Discord refuses the prompt's edit once with 50083 (the thread fell asleep); the bot unarchives it and edits.
    world.env.backend.faults.append(
        {
            "method": "PATCH",
            "path": f"/channels/{thread.id}/messages/*",
            "status": 400,
            "code": 50083,
            "message": "Thread is archived",
            "times": 1,
        }
    )
    result = await answer(world, game_id, thread, random.Random(2))
    assert result.acknowledged and not result.followups
    assert [r.code for r in refusals] == [50083]
    assert any(r.method == "PATCH" and r.path == f"/channels/{thread.id}" for r in world.env.http_requests)
    assert await world.store.reach(game_id) is None
    assert (await world.store.turn_posts(game_id)).shown_version == (await world.store.get_game(game_id)).version


async def test_a_deleted_channel_makes_the_game_unreachable_at_once_and_a_command_elsewhere_moves_it(world, refusals):
    game_id, thread = await open_game(world, players=2)
    aiko = world.members[0]
    world.env.backend.delete_channel(thread.id)
    world.env.backend.delete_channel(world.channel.id)
    await world.env.settle()
    reach = await world.store.reach(game_id)
    assert reach is not None and reach.unreachable_at is not None and reach.code == 10003
    # The host learns by DM (there is no channel left to say it in).
    dm = world.env.backend.dm_channels.get(aiko.id)
    assert dm is not None
    told = [m for m in aiko.user.dm_channel.history() if "was deleted" in m.content]
    assert len(told) == 1 and f"game:{game_id}" in told[0].content
    # Nothing more is tried on its own for hours: no channel, nothing to post in.
    before = len(refusals)
    await wait(world, 5 * HOUR)
    assert len(refusals) == before
    # A command about the game from another channel moves it there, in a new thread.
    elsewhere = world.guild.create_text_channel("kokeshi-2")
    status = await aiko.slash(elsewhere, "kokeshi status", game=game_id)
    assert status.acknowledged
    record = await world.store.get_game(game_id)
    assert record.channel_id == elsewhere.id and await world.store.reach(game_id) is None
    new = next(t for t in elsewhere.threads if t.id == record.thread_id)
    game, _ = await load_game(world, game_id)
    assert world.member(game.prompt.player).mention in (await prompt_message(world, game_id, new)).content


# ---------------------------------------------------------------------- removed from a server


def remove_bot(w):
    """The server removes the bot: GUILD_DELETE, and from then on its channels answer 403 Missing Access."""
    backend = w.env.backend
    guild = backend.guilds[w.guild.id]
    saved = (
        guild,
        {c: backend.channels[c] for c in [*guild.channel_ids, *guild.thread_ids] if c in backend.channels},
        {c: backend.messages[c] for c in [*guild.channel_ids, *guild.thread_ids] if c in backend.messages},
    )
    backend.remove_guild(w.guild.id)
    refuse(w, "*", "/channels/*", 403, 50001, "Missing Access")
    return saved


def add_bot_back(w, saved) -> None:
    """The server adds the bot again: its channels come back and Discord sends GUILD_CREATE."""
    lift(w)
    backend = w.env.backend
    guild, channels, messages = saved
    backend.guilds[guild.id] = guild
    backend.channels.update(channels)
    backend.messages.update(messages)
    payload = dict(serializers.guild_create_payload(backend, guild))
    payload.pop("unavailable", None)  # as Discord sends it for a server that adds the bot
    backend.emit("GUILD_CREATE", payload)


@pytest.mark.slow
async def test_two_failures_noted_for_one_refusal_keep_its_code(world, refusals):
    # The thread's deletion and the channel's each report a failure of the same game, in either order: the game's
    # reach keeps Discord's code whichever reports last.
    game_id, _thread = await open_game(world, players=2)
    reach = world.bot.matches.reach
    record = await world.store.get_game(game_id)
    reach.note_code(game_id, 404, 10003)  # the new thread could not be made
    await reach.channel_gone(record)
    await reach.failed(record)  # the new thread's failure, reported last
    stored = await world.store.reach(game_id)
    assert stored is not None and (stored.refusals, stored.code) == (2, 10003)


async def test_a_server_that_removes_the_bot_pauses_its_games_and_gets_no_request(world, refusals):
    game_id, thread = await open_game(world, players=2, timer=int(HOUR))
    saved = remove_bot(world)
    await world.env.settle()
    assert await world.store.timers(game_id) == []
    start = len(world.env.http_requests)
    await wait(world, 54 * HOUR)
    assert refusals == [] and len(world.env.http_requests) == start
    game, _ = await load_game(world, game_id)
    assert game.prompt is not None and await world.store.match_decisions(game_id) == []  # no time-out played a turn

    # Added back: the game goes on where it stopped, its turn with a full hour again.
    add_bot_back(world, saved)
    await world.env.advance_time(1)
    timers = {t.kind: t.due_at for t in await world.store.timers(game_id)}
    assert set(timers) == {"reminder_half", "reminder_late", "deadline"}
    assert timers["deadline"] >= world.env.now().timestamp() + HOUR - 2
    assert (await answer(world, game_id, thread, random.Random(4))).acknowledged
    assert world.env.errors == []


@pytest.mark.slow
async def test_a_bot_restarted_after_its_removal_still_sends_nothing_there(world, refusals, db_path):
    from bot import create_bot

    game_id, thread = await open_game(world, players=2, timer=int(HOUR))
    saved = remove_bot(world)
    await world.env.settle()
    await restart(world, create_bot(db_path))
    await wait(world, 6 * HOUR)
    assert refusals == []
    add_bot_back(world, saved)
    await world.env.advance_time(1)
    assert {t.kind for t in await world.store.timers(game_id)} == {"reminder_half", "reminder_late", "deadline"}


# ---------------------------------------------------------------------- closed DMs


@pytest.mark.slow
async def test_closed_dms_turn_the_dms_off_once_and_the_player_is_told_the_next_time(world, refusals):
    aiko, botan = world.members[:2]
    for member in (aiko, botan):
        await member.slash(world.channel, "kokeshi notify on")
    game_id, thread = await open_game(world, players=2)
    # botan's DMs are closed to the bot: Discord answers 50007 to any DM.
    dm = world.env.backend.get_dm_channel(botan.id)
    refuse(world, "POST", f"/channels/{dm.id}/messages", 403, 50007, "Cannot send messages to this user")
    rng = random.Random(3)
    notices = []
    for _ in range(12):
        game, _version = await load_game(world, game_id)
        told = await answer_told(world, game_id, thread, rng)
        notices.append((game.prompt.player, "DMs are closed" in told))
    # botan learns it once, privately, with their next click after the refused DM.
    assert [who for who, told in notices if told] == ["botan"]
    closed = [r for r in refusals if r.code == 50007]
    assert len(closed) == 1  # one refused DM, not one per turn
    assert await world.store.user_setting(botan.id, "notify") == "off"
    fetches = [r for r in world.env.http_requests if r.method == "GET" and r.path.startswith("/users/")]
    assert fetches == []  # no user fetched to send a DM
    assert "DMs are closed" not in said(await botan.slash(world.channel, "kokeshi help"))
    # `/kokeshi notify on` turns them back on.
    await botan.slash(world.channel, "kokeshi notify on")
    assert await world.store.user_setting(botan.id, "notify") == "on"
