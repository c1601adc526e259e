"""Turn timers on SimCord's virtual clock: reminders, time-outs, the AI taking over, restarts and DM notices."""

from __future__ import annotations

import logging
import random
import sys
from dataclasses import dataclass

import pytest

from bot import create_bot
from tests.botkit import (
    _seated,
    answer,
    components,
    custom_ids,
    load_game,
    open_game,
    play_to_end,
    prompt_message,
    texts,
)

HOUR = 3600


@dataclass(frozen=True)
class Logged:
    """One decision of a game's log: its place, the name of the seat that made it, the action and its source (a
    person's click 'player', 'timeout' or 'ai')."""

    seq: int
    player: str
    action: str
    source: str


async def logged(w, game_id: int, since: int = 0) -> list[Logged]:
    """The log of a game of Kokeshi at the platform's table after decision `since`, each decision with the name of
    its seat and its source as the store keeps them (its rows name the seats by number; no public call gives the
    source of a decision at the platform's table)."""
    names = {str(s.seat): s.name for s in (await w.store.get_game(game_id)).seats}
    rows = await w.store._log_rows(game_id)
    return [Logged(seq, names[player], action, source) for seq, player, action, source, *_ in rows if seq > since]


async def to_move(w, game_id: int) -> str:
    game, _ = await load_game(w, game_id)
    return game.prompt.player


async def seat(w, game_id: int, name: str):
    return (await w.store.get_game(game_id)).seat_named(name)


async def answer_until_turn_of(w, game_id: int, thread, name: str, rng: random.Random) -> None:
    """The other players answer their prompts until it is `name`'s turn."""
    while await to_move(w, game_id) != name:
        assert (await answer(w, game_id, thread, rng)).acknowledged


def reminders(thread) -> list:
    return [m for m in thread.history() if m.content.startswith("⏰")]


def timeouts(thread) -> list[str]:
    """The thread's notes of turns the AI played when their time ran out."""
    return [t for t in texts(thread) if "Time ran out" in t]


def timed_out(note: str, name: str) -> bool:
    """Whether a time-out note says the AI played `name`'s turn."""
    return f"Time ran out for **{name}**: the AI decided in their place." in note


async def test_reminders_come_at_half_and_ninety_percent_and_at_the_deadline_the_ai_plays_the_turn(world):
    game_id, thread = await open_game(world, players=2, timer=HOUR)
    mover = await to_move(world, game_id)
    other = next(m.user.name for m in world.members[:2] if m.user.name != mover)
    member = world.member(mover)
    assert {t.kind for t in await world.store.timers(game_id)} == {"reminder_half", "reminder_late", "deadline"}
    posted = len(texts(thread))

    await world.env.advance_time(1799)
    assert len(texts(thread)) == posted
    await world.env.advance_time(1)
    [half] = reminders(thread)
    assert member.mention in half.content and [u.id for u in half.mentions] == [member.id]
    assert "30 min left" in half.content

    await world.env.advance_time(1440)  # 3240 s: 90 % of the hour
    assert len(reminders(thread)) == 2
    late = reminders(thread)[-1]
    assert member.mention in late.content and [u.id for u in late.mentions] == [member.id]
    assert "6 min left" in late.content
    assert not timeouts(thread) and await logged(world, game_id) == []

    await world.env.advance_time(360)  # 3600 s: the deadline
    [note] = timeouts(thread)
    assert timed_out(note, mover)
    log = await logged(world, game_id)
    assert log and all(e.player == mover and e.source == "timeout" for e in log)
    assert await to_move(world, game_id) == other
    assert (await seat(world, game_id, mover)).expired == 1
    # The other player's turn has its own fresh timers.
    deadline = next(t for t in await world.store.timers(game_id) if t.kind == "deadline")
    assert deadline.due_at == world.env.now().timestamp() + HOUR
    assert world.env.errors == []


@pytest.mark.slow
async def test_a_player_acting_resets_their_expired_count_to_zero(world):
    rng = random.Random(5)
    game_id, thread = await open_game(world, players=2, timer=HOUR)
    mover = await to_move(world, game_id)
    await world.env.advance_time(HOUR)
    assert (await seat(world, game_id, mover)).expired == 1
    await answer_until_turn_of(world, game_id, thread, mover, rng)
    assert (await seat(world, game_id, mover)).expired == 1
    assert (await answer(world, game_id, thread, rng)).acknowledged
    assert (await seat(world, game_id, mover)).expired == 0
    assert [e.source for e in await logged(world, game_id)][-1] == "player"


@pytest.mark.slow
async def test_after_three_expired_turns_in_a_row_the_opponent_hands_the_seat_to_the_ai_and_the_game_can_be_finished(
    world,
):
    rng = random.Random(7)
    game_id, thread = await open_game(world, players=2, timer=HOUR)
    sleeper = await to_move(world, game_id)
    player = next(m.user.name for m in world.members[:2] if m.user.name != sleeper)
    for expired in (1, 2, 3):
        assert await to_move(world, game_id) == sleeper
        await world.env.advance_time(HOUR)
        assert (await seat(world, game_id, sleeper)).expired == expired
        assert await to_move(world, game_id) == player
        if expired < 3:
            assert not (await seat(world, game_id, sleeper)).ai
            await answer_until_turn_of(world, game_id, thread, sleeper, rng)

    # Another person is at the table, so they choose what happens to the seat: here, the AI plays it.
    assert not (await seat(world, game_id, sleeper)).ai
    asked = next(m for m in thread.history() if "turns in a row" in m.content)
    number = (await seat(world, game_id, sleeper)).seat
    chosen = await world.member(player).click(asked, custom_id=f"kk:c:{game_id}:{number}:ai")
    assert chosen.acknowledged
    assert (await seat(world, game_id, sleeper)).ai
    # The notes stay in the thread.
    notes = [n for n in timeouts(thread) if n not in asked.content]
    assert len(notes) == 3 and all(timed_out(n, sleeper) for n in notes)
    assert not any("for good" in n for n in notes)
    handed_at = (await logged(world, game_id))[-1].seq

    # From now on the AI answers the sleeper's turns at once, with no timer.
    turn_of_ai = False
    while not turn_of_ai:
        assert (await answer(world, game_id, thread, rng)).acknowledged
        assert await to_move(world, game_id) == player
        turn_of_ai = any(e.player == sleeper for e in await logged(world, game_id, since=handed_at))
    sleeper_moves = [e for e in await logged(world, game_id, since=handed_at) if e.player == sleeper]
    assert sleeper_moves and {e.source for e in sleeper_moves} == {"ai"}

    await play_to_end(world, game_id, thread, seed=8)
    assert (await world.store.get_game(game_id)).status == "finished"
    assert await world.store.timers(game_id) == []
    # Six reminders, all for the sleeper's three expired turns; none after the AI took the seat.
    sleeper_mention = world.member(sleeper).mention
    assert len(reminders(thread)) == 6 and all(sleeper_mention in m.content for m in reminders(thread))
    posted = len(texts(thread))
    await world.env.advance_time(2 * HOUR)
    assert len(texts(thread)) == posted
    assert world.env.errors == []


async def test_a_game_without_a_timer_has_no_timer_rows_and_nothing_happens_for_a_week(world, monkeypatch):
    # With nothing due, the loop looks again every IDLE_SECONDS (5 min). Each wake-up costs SimCord ~50 ms of real
    # time and advance_time must finish within the 5 s settle timeout, so look once a day here instead.
    monkeypatch.setattr(sys.modules[type(world.bot.get_cog("Timers")).__module__], "IDLE_SECONDS", 86400.0)
    game_id, thread = await open_game(world, players=2, timer=0)
    assert (await world.store.get_game(game_id)).turn_timer is None
    assert await world.store.timers(game_id) == [] and await world.store.next_timer() is None
    before = texts(thread)
    _, version = await load_game(world, game_id)

    await world.env.advance_time(7 * 86400)
    assert texts(thread) == before
    assert (await load_game(world, game_id))[1] == version and await logged(world, game_id) == []
    assert await world.store.timers(game_id) == []
    assert world.env.errors == []


@pytest.mark.slow
async def test_timers_survive_a_restart_and_the_new_bot_applies_the_timeout_exactly_once(world, db_path):
    game_id, thread = await open_game(world, players=2, timer=HOUR)
    mover = await to_move(world, game_id)
    other = next(m.user.name for m in world.members[:2] if m.user.name != mover)
    await world.env.advance_time(HOUR // 2)
    assert len(reminders(thread)) == 1

    old_bot = world.bot
    old_timers = old_bot.get_cog("Timers")
    # Not botkit.restart, which closes the old bot: the fixture closes both at the end.
    await world.env.restart_bot(create_bot(db_path))
    assert world.bot is not old_bot and not old_bot.is_closed()
    # SimCord leaves the old bot open but cancels the tasks it owned, so its timer loop cannot fire a second time.
    assert old_timers.task.done()
    assert {t.kind for t in await world.store.timers(game_id)} == {"reminder_late", "deadline"}

    await world.env.advance_time(HOUR // 2)
    assert len(reminders(thread)) == 2
    assert len(timeouts(thread)) == 1
    log = await logged(world, game_id)
    assert log and all(e.player == mover and e.source == "timeout" for e in log)
    assert await to_move(world, game_id) == other
    assert (await seat(world, game_id, mover)).expired == 1
    assert world.env.errors == []


async def test_notify_on_sends_a_dm_with_a_link_to_the_prompt_when_it_is_your_turn(world):
    rng = random.Random(11)
    game_id, thread = await open_game(world, players=2, timer=HOUR)
    mover = await to_move(world, game_id)
    waiting = next(m for m in world.members[:2] if m.user.name != mover)
    result = await waiting.slash(world.channel, "kokeshi notify on")
    assert result.ephemeral and "DM you" in result.response.content
    assert waiting.user.dm_channel.history() == []

    await answer_until_turn_of(world, game_id, thread, waiting.user.name, rng)
    prompt = await prompt_message(world, game_id, thread)
    link = f"https://discord.com/channels/{world.guild.id}/{thread.id}/{prompt.id}"
    dms = waiting.user.dm_channel.history()
    assert [m.content for m in dms] == [f"Your turn in Kokeshi #{game_id}: {link}"]
    # The mover did not ask for DMs.
    assert world.member(mover).user.dm_channel.history() == []


async def test_with_dms_closed_the_thread_mention_is_enough_and_the_game_goes_on(world, caplog):
    caplog.set_level(logging.INFO, logger="cogs.reach")
    rng = random.Random(13)
    game_id, thread = await open_game(world, players=2, timer=HOUR)
    mover = await to_move(world, game_id)
    waiting = next(m for m in world.members[:2] if m.user.name != mover)
    await waiting.slash(world.channel, "kokeshi notify on")
    world.env.inject_error(
        "POST",
        f"/channels/{waiting.user.dm_channel.id}/messages",
        status=403,
        code=50007,
        message="Cannot send messages to this user",
        times=None,
    )

    await answer_until_turn_of(world, game_id, thread, waiting.user.name, rng)
    prompt = await prompt_message(world, game_id, thread)
    assert waiting.mention in prompt.content and waiting.id in [u.id for u in prompt.mentions]
    assert waiting.user.dm_channel.history() == []
    assert any(f"could not DM user {waiting.id}" in r.getMessage() for r in caplog.records)
    assert {t.kind for t in await world.store.timers(game_id)} == {"reminder_half", "reminder_late", "deadline"}
    # They play on the prompt's menu; the private answer to their first click also tells them (once) that the turn
    # DMs stopped.
    member, options, version = await _seated(world, game_id)
    assert member is waiting
    action, group = rng.choice(options)
    [menu] = [c for c in components(prompt) if c.get("type") == 3]
    picked = await waiting.select(prompt, [f"g:{group}" if group else f"a:{action}"], custom_id=menu["custom_id"])
    said = [picked.response, *picked.followups]
    assert picked.ephemeral and any("I could not send you a DM" in m.content for m in said), said
    if group:
        [tile] = [m for m in said if f"mt:a:{game_id}:{version}:{action}" in custom_ids(m)]
        assert (await waiting.click(tile, custom_id=f"mt:a:{game_id}:{version}:{action}")).acknowledged
    assert (await load_game(world, game_id))[1] == version + 1
    assert world.env.errors == []


@pytest.mark.slow
async def test_reminders_and_timeouts_go_to_people_never_to_ai_seats(world):
    game_id, thread = await open_game(world, players=3, ai=1, timer=HOUR)
    people = world.members[:2]
    for _ in range(3):
        await world.env.advance_time(HOUR)
    log = await logged(world, game_id)
    assert any(e.player == "AI 1" for e in log)
    assert {e.source for e in log if e.player == "AI 1"} == {"ai"}
    assert {e.source for e in log if e.player != "AI 1"} == {"timeout"}
    assert len(reminders(thread)) == 6
    for message in reminders(thread):
        assert [u.id for u in message.mentions] in ([p.id for p in people[:1]], [p.id for p in people[1:]])
    notes = timeouts(thread)
    assert len(notes) == 3 and not any("AI 1" in n.split(": the AI decided")[0] for n in notes)
    assert world.env.errors == []


async def test_cancelling_a_game_clears_its_timers(world):
    game_id, thread = await open_game(world, players=2, timer=HOUR)
    assert len(await world.store.timers(game_id)) == 3
    cancelled = await world.members[0].slash(world.channel, "kokeshi cancel", game=game_id)
    assert "cancelled" in cancelled.response.content
    assert await world.store.timers(game_id) == []
    posted = len(texts(thread))
    await world.env.advance_time(2 * HOUR)
    assert len(texts(thread)) == posted and await logged(world, game_id) == []
    assert world.env.errors == []
