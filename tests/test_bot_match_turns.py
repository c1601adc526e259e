"""A turn at the other games' table, lived over days on SimCord's clock: the deadline the host chose, the reminders
before it (to the people still waiting, silent in their quiet hours, kept across a restart), and resigning."""

from __future__ import annotations

import datetime as dt
import random

import pytest

from bot import create_bot
from cogs.matches import hints_allowed
from tests.botkit import custom_ids, lobby_message, restart
from tests.games import tiny
from tests.test_bot_matches import current_prompt, open_table, play_through, reply

HOUR = 3600
DAY = 86400
ALL = ("lobby", "active", "finished", "cancelled")


def clock(w) -> float:
    return w.env.now().timestamp()


def stamp(at: float) -> str:
    return f"<t:{int(at)}:f> (<t:{int(at)}:R>)"


def reminders(thread) -> list:
    return [m for m in thread.history() if m.content.startswith("⏰")]


def timeouts(thread) -> list[str]:
    return [m.content for m in thread.history() if "Time ran out" in m.content]


def silent(message) -> bool:
    return message.flags.suppress_notifications


async def timers(w, game_id: int) -> dict[str, float]:
    return {t.kind: t.due_at for t in await w.store.timers(game_id)}


async def bid(w, member, game_id: int, thread) -> None:
    """`member` bids as the thread asks (privately while both bid, on the post when the game waits for them alone):
    the first card of their hand."""
    where = await current_prompt(w, game_id, thread)
    secret = [c for c in custom_ids(where) if c.startswith("mt:c:")]
    if secret:
        where = reply(await member.click(where, custom_id=secret[0]))
    chosen = await member.click(where, custom_id=next(c for c in custom_ids(where) if c.startswith("mt:a:")))
    assert chosen.acknowledged and not chosen.followups


# ---------------------------------------------------------------------- the deadline the host chooses


async def test_the_host_chooses_the_turns_deadline_and_the_lobby_and_the_prompt_say_it(world, bids):
    w = world
    game_id, thread = await open_table(w, "bids", players=2, joiners=1, deadline=2 * DAY)
    start = clock(w)
    record = await w.store.get_game(game_id)
    assert record.turn_timer == 2 * DAY
    assert "2 days per turn" in (await lobby_message(w, game_id)).content
    # Reminded at half the time and near its end, as Kokeshi's turns are.
    assert await timers(w, game_id) == {
        "reminder_half": start + DAY,
        "reminder_late": start + 1.8 * DAY,
        "deadline": start + 2 * DAY,
    }
    assert f"Decide by {stamp(start + 2 * DAY)}." in (await current_prompt(w, game_id, thread)).content
    assert w.env.errors == []


@pytest.mark.slow  # days of waiting through SimCord's clock
async def test_a_table_without_a_deadline_waits_for_its_people_as_long_as_they_take(world, bids):
    w = world
    game_id, thread = await open_table(w, "bids", players=2, joiners=1, deadline=0)
    record = await w.store.get_game(game_id)
    assert record.turn_timer is None and await w.store.timers(game_id) == []
    assert "no turn timer" in (await lobby_message(w, game_id)).content
    assert "Decide by" not in (await current_prompt(w, game_id, thread)).content
    await w.env.advance_time(2 * DAY)
    assert reminders(thread) == [] and timeouts(thread) == []
    assert (await w.store.get_game(game_id)).moves == record.moves
    assert w.env.errors == []


@pytest.mark.slow  # a whole game through SimCord
async def test_a_rematch_keeps_the_deadline_its_table_had(world, bids):
    w = world
    aiko = w.members[0]
    game_id, thread = await open_table(w, "bids", players=2, joiners=0, ai=1, deadline=7 * DAY)
    await play_through(w, game_id, thread, random.Random(2))
    final = thread.history()[-1]
    assert "is over" in final.content and await w.store.timers(game_id) == []
    again = await aiko.click(final, custom_id=next(c for c in custom_ids(final) if c.startswith("mt:r:")))
    assert "has started" in reply(again).content
    record = (await w.store.games_in_channel(w.channel.id, ALL))[-1]
    assert record.id != game_id and record.turn_timer == 7 * DAY
    assert (await timers(w, record.id))["deadline"] == clock(w) + 7 * DAY


# ---------------------------------------------------------------------- reminders


@pytest.mark.slow
async def test_reminders_ping_only_the_people_still_waiting_silently_in_their_quiet_hours(world, bids):
    w = world
    aiko, botan = w.members[:2]
    # SimCord's day starts at midnight UTC, midnight in Lisbon too in winter: inside botan's night.
    assert w.env.now() == dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
    quiet = await botan.slash(w.channel, "kokeshi notify quiet", hours="23:00-08:00", timezone="Europe/Lisbon")
    assert "Quiet hours 23:00-08:00" in reply(quiet).content
    game_id, thread = await open_table(w, "bids", players=2, joiners=1, deadline=HOUR)
    start = clock(w)
    morning = dt.datetime(2026, 1, 1, 8, tzinfo=dt.UTC).timestamp()
    # The reminders keep their times; the deadline, at 01:00 in botan's night, moves to its end.
    assert await timers(w, game_id) == {
        "reminder_half": start + HOUR / 2,
        "reminder_late": start + 0.9 * HOUR,
        "deadline": morning,
    }
    await w.env.advance_time(HOUR / 2 - 1)
    assert reminders(thread) == []
    await w.env.advance_time(1)
    # Half time: aiko is pinged aloud, botan silently, one post each; both are told how long they have.
    loud, hushed = reminders(thread)
    assert aiko.mention in loud.content and botan.mention not in loud.content and not silent(loud)
    assert botan.mention in hushed.content and aiko.mention not in hushed.content and silent(hushed)
    assert f"Bids #{game_id} is waiting for you" in loud.content and "You have 7 h 30 min left" in loud.content
    # Aiko bids: the late reminder is for botan alone, and the turn keeps its timers (carried to the new version).
    await bid(w, aiko, game_id, thread)
    version = (await w.store.get_game(game_id)).version
    assert {t.version for t in await w.store.timers(game_id)} == {version}
    await w.env.advance_time(0.4 * HOUR)
    [late] = reminders(thread)[2:]
    assert botan.mention in late.content and aiko.mention not in late.content and silent(late)
    # No reminder comes twice; at the morning the AI bids for botan, and the next turn has timers of its own.
    await w.env.advance_time(morning - clock(w) - 1)
    assert len(reminders(thread)) == 3 and timeouts(thread) == []
    await w.env.advance_time(1)
    assert timeouts(thread) == ["Time ran out for **botan**: the AI decided in their place."]
    record = await w.store.get_game(game_id)
    assert {t.version for t in await w.store.timers(game_id)} == {record.version}
    assert set(await timers(w, game_id)) == {"reminder_half", "reminder_late", "deadline"}
    assert await w.store.verify() == []
    assert w.env.errors == []


async def test_no_reminder_comes_once_the_turn_is_over(world, bids):
    w = world
    aiko, botan = w.members[:2]
    game_id, thread = await open_table(w, "bids", players=2, joiners=1, deadline=HOUR)
    first = (await w.store.get_game(game_id)).version
    await bid(w, aiko, game_id, thread)
    await bid(w, botan, game_id, thread)
    # The prize is decided: the first turn's timers went with it; the next turn's are new, a full hour from now.
    assert all(t.version > first + 1 for t in await w.store.timers(game_id))
    await w.env.advance_time(HOUR / 2 - 1)
    assert reminders(thread) == []
    assert w.env.errors == []


async def test_a_muted_game_reminds_only_the_people_who_did_not_mute_it(world, bids):
    w = world
    aiko, botan = w.members[:2]
    game_id, thread = await open_table(w, "bids", players=2, joiners=1, deadline=HOUR)
    muted = await botan.slash(thread, "kokeshi notify mute")
    assert muted.ephemeral and "muted" in reply(muted).content
    await w.env.advance_time(HOUR / 2)
    [half] = reminders(thread)
    assert aiko.mention in half.content and botan.mention not in half.content
    # Aiko bids: the late reminder would be botan's alone, and botan muted the game.
    await bid(w, aiko, game_id, thread)
    await w.env.advance_time(0.4 * HOUR)
    assert len(reminders(thread)) == 1
    assert w.env.errors == []


async def test_reminders_are_stored_so_a_restart_keeps_them(world, bids, db_path):
    w = world
    aiko, botan = w.members[:2]
    game_id, thread = await open_table(w, "bids", players=2, joiners=1, deadline=HOUR)
    await restart(w, create_bot(db_path))
    await w.env.advance_time(HOUR / 2)
    [half] = reminders(thread)
    assert aiko.mention in half.content and botan.mention in half.content
    assert w.env.errors == []


async def test_an_away_players_reminders_wait_for_their_return(world, bids):
    w = world
    botan = w.members[1]
    game_id, thread = await open_table(w, "bids", players=2, joiners=1, deadline=HOUR)
    before = await timers(w, game_id)
    went = await botan.slash(w.channel, "games away", duration="1d")
    assert "You are away until" in reply(went).content
    assert await timers(w, game_id) == {kind: at + DAY for kind, at in before.items()}
    await w.env.advance_time(HOUR)
    assert reminders(thread) == [] and timeouts(thread) == []
    assert w.env.errors == []


# ---------------------------------------------------------------------- resigning


@pytest.mark.slow  # a whole game through SimCord
async def test_a_player_who_resigns_hands_the_seat_to_the_ai_and_ranks_last(world, bids):
    w = world
    aiko, botan = w.members[:2]
    game_id, thread = await open_table(w, "bids", players=2, joiners=1)
    resigned = await botan.slash(thread, "games resign")
    assert resigned.ephemeral and "You resigned" in reply(resigned).content
    record = await w.store.get_game(game_id)
    seat = record.seat_of(botan.user.id)
    assert seat.ai and seat.resigned and seat.ai_level is None  # the table's default level plays it
    assert any("**botan** resigned; the AI plays their seat, and they rank last" in m.content for m in thread.history())
    # The AI bid for botan at once: the game waits for aiko alone, and still counts as rated (no hints).
    match, _version, record = await w.store.load_match(game_id)
    assert match.waiting() == (0,) and not hints_allowed(record)
    assert not any(c.startswith("mt:h:") for c in custom_ids(await current_prompt(w, game_id, thread)))
    decisions = await play_through(w, game_id, thread, random.Random(4))
    assert decisions == len(tiny.PRIZES)
    results = {r.user_id: r for r in await w.store.results(game_id)}
    assert results[botan.user.id].resigned and results[botan.user.id].rank == 2
    assert results[aiko.user.id].rank == 1
    # Once the game is over there is nothing left to resign; nothing changes.
    record = await w.store.get_game(game_id)
    over = await aiko.slash(thread, "games resign")
    assert over.ephemeral and "This game is over" in reply(over).content
    assert await w.store.get_game(game_id) == record
    assert await w.store.verify() == []
    assert w.env.errors == []


@pytest.mark.slow  # a whole game through SimCord
async def test_a_solo_game_resigned_is_played_out_by_the_ai_and_counts_as_lost(world):
    w = world
    aiko = w.members[0]
    game_id, thread = await open_table(w, "kohaku", players=1, joiners=0)
    resigned = await aiko.slash(thread, "games resign")
    assert resigned.ephemeral and "You resigned" in reply(resigned).content
    record = await w.store.get_game(game_id)
    assert record.status == "finished"
    said = "**aiko** resigned; the AI plays on to the end, and the game counts as lost"
    assert any(said in m.content for m in thread.history())
    # Told a round a post at the channel's rate, then the end.
    for _ in range(30):
        await w.env.advance_time(5)
    assert "the AI plays every seat" in thread.history()[-2].content
    assert "is over" in thread.history()[-1].content
    [result] = await w.store.results(game_id)
    assert result.resigned and result.rank == 2
    assert await w.store.timers(game_id) == [] and await w.store.verify() == []
    assert w.env.errors == []


async def test_resigning_is_refused_privately_outside_ones_own_game_in_progress_and_changes_nothing(world, bids):
    w = world
    aiko, botan, chika = w.members[:3]
    game_id, thread = await open_table(w, "bids", players=2, joiners=1)
    before = ((await w.store.load_match(game_id))[0].to_json(), await w.store.get_game(game_id))
    posts = len(thread.history())
    # Not in a game's thread; in it, but not seated.
    outside = await aiko.slash(w.channel, "games resign")
    assert outside.ephemeral and "Use this in the thread of a game" in reply(outside).content
    stranger = await chika.slash(thread, "games resign")
    assert stranger.ephemeral and "You are not playing in this game" in reply(stranger).content
    assert ((await w.store.load_match(game_id))[0].to_json(), await w.store.get_game(game_id)) == before
    assert len(thread.history()) == posts
    # Resigned once: a second time is refused, as are a choice among the private ones opened before, and an undo.
    prompt = await current_prompt(w, game_id, thread)
    private = reply(await botan.click(prompt, custom_id=next(c for c in custom_ids(prompt) if c.startswith("mt:c:"))))
    await botan.slash(thread, "games resign")
    after = (await w.store.load_match(game_id))[0].to_json()
    again = await botan.slash(thread, "games resign")
    assert again.ephemeral and "already resigned" in reply(again).content
    late = await botan.click(private, custom_id=next(c for c in custom_ids(private) if c.startswith("mt:a:")))
    assert reply(late).ephemeral and "already resigned" in reply(late).content
    undo = await botan.slash(thread, "games undo")
    assert undo.ephemeral and "already resigned" in reply(undo).content
    assert (await w.store.load_match(game_id))[0].to_json() == after
    assert w.env.errors == []


async def test_at_a_kohaku_deadline_the_ai_plays_the_whole_turn_left_and_the_next_turn_gets_new_timers(world):
    w = world
    game_id, thread = await open_table(w, "kohaku", players=2, joiners=0, ai=1, level="easy", deadline=HOUR)
    match, _version, _record = await w.store.load_match(game_id)
    turn = match.turn_key()
    start = clock(w)
    assert (await timers(w, game_id))["deadline"] == start + HOUR
    await w.env.advance_time(HOUR)
    # One note for the turn, however many steps of it the AI took; then the AI seat's turn, then aiko's again.
    assert len(timeouts(thread)) == 1
    match, version, _record = await w.store.load_match(game_id)
    assert match.turn_key() != turn and match.waiting() == (0,)
    assert {t.version for t in await w.store.timers(game_id)} == {version}
    assert (await timers(w, game_id))["deadline"] == clock(w) + HOUR
    assert await w.store.verify() == []
    assert w.env.errors == []
