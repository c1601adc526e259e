"""A fair clock on SimCord's virtual clock: time banks, time away not charged, the opponents' choice after a third
expired turn (each answer, and none), rejoin, restarts in between, and refusals that change nothing."""

from __future__ import annotations

import random
import sqlite3

import pytest

from bot import create_bot
from cogs.clock import CHOICE_SECONDS
from tests.botkit import (
    answer,
    components,
    lobby_message,
    message_in,
    new_lobby,
    open_game,
    play_to_end,
    prompt_message,
    restart,
    texts,
)
from tests.test_bot_refusals import lift, refuse, wait
from tests.test_bot_replay import played_in_store
from tests.test_bot_timers import answer_until_turn_of, logged, seat, timed_out, timeouts, to_move

HOUR = 3600
MINUTE = 60
# The "1h" bank: one hour, ten minutes more after each turn, at most two hours.
BANK, STEP, CAP = HOUR, 10 * MINUTE, 2 * HOUR


def clock(w) -> float:
    return w.env.now().timestamp()


def reply(result) -> str:
    message = result.followups[-1] if result.followups else result.response
    return message.content


async def deadline(w, game_id: int) -> float:
    return next(t.due_at for t in await w.store.timers(game_id) if t.kind == "deadline")


async def bank_table(w, clock_key: str = "1h") -> tuple[int, object, str, str]:
    """A 2-player game on a bank, started: (game id, thread, the player to move, the other player)."""
    game_id, lobby, _ = await new_lobby(w, players=2, clock=clock_key)
    assert "time bank: 1 h, +10 min after each turn, at most 2 h" in lobby.content
    assert "You joined" in (await w.members[1].click(lobby, label="Join")).response.content
    assert (await w.members[0].click(lobby, label="Start")).acknowledged
    record = await w.store.get_game(game_id)
    thread = next(t for t in w.channel.threads if t.id == record.thread_id)
    mover = await to_move(w, game_id)
    other = next(m.user.name for m in w.members[:2] if m.user.name != mover)
    return game_id, thread, mover, other


async def play_turn(w, game_id: int, thread, name: str, rng: random.Random) -> None:
    """`name` plays their whole turn (every decision of it), at once."""
    assert await to_move(w, game_id) == name
    while await to_move(w, game_id) == name:
        assert (await answer(w, game_id, thread, rng)).acknowledged


async def three_expired(w, **options) -> tuple[int, object, str, str]:
    """A 2-player game with a 1-hour timer whose first player let three turns in a row run out."""
    rng = random.Random(7)
    game_id, thread = await open_game(w, players=2, timer=HOUR, **options)
    sleeper = await to_move(w, game_id)
    player = next(m.user.name for m in w.members[:2] if m.user.name != sleeper)
    for expired in (1, 2, 3):
        await w.env.advance_time(HOUR)
        assert (await seat(w, game_id, sleeper)).expired == expired
        if expired < 3:
            await answer_until_turn_of(w, game_id, thread, sleeper, rng)
    return game_id, thread, sleeper, player


def asked(thread):
    return next(m for m in thread.history() if "what now?" in m.content)


# ---------------------------------------------------------------------- the bank


@pytest.mark.slow
async def test_a_bank_running_out_lets_the_ai_play_that_turn_and_the_time_is_added_after_it(world):
    game_id, thread, mover, _other = await bank_table(world)
    start = clock(world)
    assert await deadline(world, game_id) == start + BANK
    assert "1 h left in your bank" in (await prompt_message(world, game_id, thread)).content

    await world.env.advance_time(BANK - 1)
    assert not timeouts(thread)
    await world.env.advance_time(1)
    [note] = timeouts(thread)
    assert timed_out(note, mover)
    assert {e.source for e in await logged(world, game_id)} == {"timeout"}
    # All of it was used; the ten minutes of a turn come after it.
    assert (await world.store.banks(game_id))[mover] == STEP
    assert (await seat(world, game_id, mover)).expired == 1
    assert await world.store.verify() == []
    assert world.env.errors == []


@pytest.mark.slow
async def test_the_time_a_turn_takes_comes_off_the_bank_the_step_is_added_and_the_bank_stops_at_its_cap(world):
    rng = random.Random(3)
    game_id, thread, mover, other = await bank_table(world)
    await world.env.advance_time(20 * MINUTE)
    await play_turn(world, game_id, thread, mover, rng)
    assert (await world.store.banks(game_id))[mover] == BANK - 20 * MINUTE + STEP
    await play_turn(world, game_id, thread, other, rng)
    assert (await world.store.banks(game_id))[other] == BANK + STEP
    # The next turn runs on what is left: 50 minutes, and the prompt says so.
    assert await deadline(world, game_id) == clock(world) + 50 * MINUTE
    assert "50 min left in your bank" in (await prompt_message(world, game_id, thread)).content
    # `/kokeshi status` (the platform's) tells each player what is left in their own bank on the game's line.
    status = reply(await world.member(mover).slash(thread, "kokeshi status"))
    assert "⏳ 50 min in your bank" in next(t for t in status.splitlines() if f"<#{thread.id}>" in t)
    theirs = reply(await world.member(other).slash(thread, "kokeshi status"))
    assert "⏳ 1 h 10 min in your bank" in next(t for t in theirs.splitlines() if f"<#{thread.id}>" in t)

    seen = []
    for _ in range(7):
        await play_turn(world, game_id, thread, mover, rng)
        seen.append((await world.store.banks(game_id))[mover])
        await play_turn(world, game_id, thread, other, rng)
    assert seen == [min(CAP, 50 * MINUTE + STEP * k) for k in range(1, 8)]
    assert seen[-1] == CAP and (await world.store.banks(game_id))[other] == CAP
    assert await deadline(world, game_id) == clock(world) + CAP
    assert world.env.errors == []
    # Kokeshi's own table's status showed every player's bank ("⏳ Time banks: aiko 50 min · botan 1 h 10 min"):
    # the mover could see what the other had left. Checked last, so that the banks above are checked whatever
    # this says.
    assert f"{other} 1 h 10 min" in status, status


async def test_time_away_is_not_charged_to_the_bank(world):
    rng = random.Random(4)
    game_id, thread, mover, _other = await bank_table(world)
    start = clock(world)
    await world.env.advance_time(10 * MINUTE)
    went = await world.member(mover).slash(world.channel, "games away", duration="2h")
    assert went.acknowledged and "away" in reply(went).lower()
    assert await deadline(world, game_id) == start + BANK + 2 * HOUR
    # Back at start + 2 h 10 min; plays ten minutes later: twenty minutes of the bank were used, not two hours.
    await world.env.advance_time(2 * HOUR + 10 * MINUTE)
    assert not timeouts(thread)
    await play_turn(world, game_id, thread, mover, rng)
    assert (await world.store.banks(game_id))[mover] == BANK - 20 * MINUTE + STEP
    assert world.env.errors == []


@pytest.mark.slow
async def test_the_bank_survives_restarts_between_turns_and_in_the_middle_of_one(world, db_path):
    rng = random.Random(5)
    game_id, thread, mover, other = await bank_table(world)
    await world.env.advance_time(20 * MINUTE)
    await play_turn(world, game_id, thread, mover, rng)
    banks = await world.store.banks(game_id)
    await restart(world, create_bot(db_path))
    assert await world.store.banks(game_id) == banks
    await play_turn(world, game_id, thread, other, rng)
    turn_began = clock(world)
    assert await deadline(world, game_id) == turn_began + 50 * MINUTE

    await world.env.advance_time(15 * MINUTE)
    await restart(world, create_bot(db_path))
    assert await deadline(world, game_id) == turn_began + 50 * MINUTE
    assert await world.store.bank_left(game_id, mover) == 35 * MINUTE
    await world.env.advance_time(35 * MINUTE)
    assert len(timeouts(thread)) == 1 and (await world.store.banks(game_id))[mover] == STEP
    assert await world.store.verify() == []
    assert world.env.errors == []


async def test_verify_reports_a_bank_past_its_cap(world, db_path):
    game_id, thread, mover, _other = await bank_table(world)
    assert await world.store.verify() == []
    with sqlite3.connect(db_path) as db:
        db.execute("UPDATE clocks SET bank = ? WHERE game_id = ?", (3 * CAP, game_id))
    problems = await world.store.verify()
    assert problems and all(g == 0 and "time banks" in p for g, p in problems)


# ---------------------------------------------------------------------- the opponents' choice


@pytest.mark.slow
async def test_after_a_third_expired_turn_the_opponent_chooses_to_wait_with_buttons_that_survive_a_restart(
    world, db_path
):
    game_id, thread, sleeper, player = await three_expired(world)
    question = asked(thread)
    assert world.member(player).mention in question.content and world.member(player).id in [
        u.id for u in question.mentions
    ]
    assert not (await seat(world, game_id, sleeper)).ai
    number = (await seat(world, game_id, sleeper)).seat
    await restart(world, create_bot(db_path))

    # The player whose seat it is cannot answer, nor can someone from outside the table.
    for member in (world.member(sleeper), world.members[2]):
        refused = await member.click(question, custom_id=f"kk:c:{game_id}:{number}:end")
        assert refused.ephemeral and "Only the other players" in reply(refused)
    assert (await world.store.get_game(game_id)).status == "active"

    waited = await world.member(player).click(question, custom_id=f"kk:c:{game_id}:{number}:wait")
    assert waited.ephemeral and f"{sleeper} keeps their seat" in reply(waited)
    held = await seat(world, game_id, sleeper)
    assert not held.ai and held.expired == 0
    assert any("chose to wait" in t for t in texts(thread))
    assert components(message_in(thread, question.id)) == []
    # Decided once: the buttons are gone, and an answer that comes after changes nothing.
    late = world.bot.tables.clocks
    assert (await world.store.seat_choice(game_id, sleeper)).answer == "wait"
    assert not await world.store.answer_choice(game_id, sleeper, "ai")
    assert late is not None and not (await seat(world, game_id, sleeper)).ai
    assert world.env.errors == []


@pytest.mark.slow
async def test_the_opponent_may_end_the_game_unrated(world):
    game_id, thread, sleeper, player = await three_expired(world)
    number = (await seat(world, game_id, sleeper)).seat
    ended = await world.member(player).click(asked(thread), custom_id=f"kk:c:{game_id}:{number}:end")
    assert "unrated" in reply(ended)
    assert (await world.store.get_game(game_id)).status == "cancelled"
    assert await world.store.results(game_id) == [] and await world.store.timers(game_id) == []
    for member in world.members[:2]:
        assert (await world.store.endings(member.id)).played == 0
    assert any("unrated" in t for t in texts(thread))
    assert world.env.errors == []


@pytest.mark.slow
async def test_without_an_answer_in_a_day_the_ai_plays_the_seat(world):
    game_id, thread, sleeper, player = await three_expired(world)
    # The opponent is away, so nobody answers (and their own turn waits for them meanwhile).
    assert (await world.member(player).slash(world.channel, "games away", duration="2d")).acknowledged
    await world.env.advance_time(CHOICE_SECONDS - 1)
    assert not (await seat(world, game_id, sleeper)).ai
    await world.env.advance_time(1)
    assert (await seat(world, game_id, sleeper)).ai
    assert (await world.store.seat_choice(game_id, sleeper)).answer == "none"
    assert any("Nobody chose in time" in t for t in texts(thread))
    assert components(message_in(thread, asked(thread).id)) == []
    assert world.env.errors == []


@pytest.mark.slow
async def test_a_player_who_plays_again_before_anyone_answers_is_back_and_there_is_nothing_to_choose(world):
    rng = random.Random(13)
    game_id, thread, sleeper, player = await three_expired(world)
    question = asked(thread)
    number = (await seat(world, game_id, sleeper)).seat
    await answer_until_turn_of(world, game_id, thread, sleeper, rng)
    await play_turn(world, game_id, thread, sleeper, rng)
    assert (await seat(world, game_id, sleeper)).expired == 0
    late = await world.member(player).click(question, custom_id=f"kk:c:{game_id}:{number}:ai")
    assert late.ephemeral and "nothing to choose" in reply(late)
    assert not (await seat(world, game_id, sleeper)).ai
    assert (await world.store.seat_choice(game_id, sleeper)).answer == "back"
    assert components(message_in(thread, question.id)) == []
    assert world.env.errors == []


async def test_with_no_other_person_at_the_table_nobody_is_asked_and_the_ai_takes_the_seat_as_before(world):
    # The whole of such a game would then be played by the AI here, so the choice itself is looked at. With every
    # other seat the AI's, the table starts at once.
    started = await world.members[0].slash(world.channel, "kokeshi new", players=2, ai=1)
    assert "has started" in reply(started)
    record = (await world.store.games_in_channel(world.channel.id))[-1]
    game_id = record.id
    thread = next(t for t in world.channel.threads if t.id == record.thread_id)
    host = record.seat_of(world.members[0].id)
    clocks = world.bot.matches.clocks
    assert clocks.opponents(record, host) == []
    before = texts(thread)
    assert not await clocks.expired(record, host, await world.bot.matches.reach.game_channel(record), 3)
    assert texts(thread) == before and await world.store.seat_choice(game_id, host.name) is None
    # With a second person at the table, they are the ones asked.
    game_id, thread = await open_game(world, players=3, ai=1)
    record = await world.store.get_game(game_id)
    host = record.seat_of(world.members[0].id)
    assert [s.user_id for s in clocks.opponents(record, host)] == [world.members[1].id]


# ---------------------------------------------------------------------- rejoin


@pytest.mark.slow  # a whole game through SimCord
async def test_a_player_whose_seat_the_ai_took_rejoins_plays_their_next_turn_and_finishes_the_game(world):
    rng = random.Random(9)
    game_id, thread, sleeper, player = await three_expired(world)
    number = (await seat(world, game_id, sleeper)).seat
    await world.member(player).click(asked(thread), custom_id=f"kk:c:{game_id}:{number}:ai")
    assert (await seat(world, game_id, sleeper)).ai

    back = await world.member(sleeper).slash(world.channel, "games rejoin")
    assert back.ephemeral and "Welcome back" in reply(back)
    held = await seat(world, game_id, sleeper)
    assert not held.ai and held.expired == 0
    assert any("is back" in t for t in texts(thread))
    # From their next turn the prompt is theirs, with its timer.
    await answer_until_turn_of(world, game_id, thread, sleeper, rng)
    prompt = await prompt_message(world, game_id, thread)
    assert world.member(sleeper).mention in prompt.content
    assert await deadline(world, game_id) == clock(world) + HOUR
    await play_to_end(world, game_id, thread, seed=10)
    [mine] = [r for r in await world.store.results(game_id) if r.name == sleeper]
    assert not mine.ai
    endings = await world.store.endings(world.member(sleeper).id)
    assert endings.finished == 1 and endings.timed_out == 0
    assert world.env.errors == []


@pytest.mark.slow  # three turns timed out, then the game finished
async def test_rejoin_refuses_privately_and_changes_nothing_when_there_is_no_seat_to_take_back(world):
    game_id, thread, sleeper, player = await three_expired(world)
    outsider = world.members[2]

    async def refused(member, why: str, **options) -> None:
        before = (await world.store.get_game(game_id)).seats
        result = await member.slash(world.channel, "games rejoin", **options)
        assert result.ephemeral and why in reply(result), reply(result)
        assert (await world.store.get_game(game_id)).seats == before

    await refused(outsider, "You did not play in Kokeshi", game=game_id)
    await refused(outsider, "There is no game #999", game=999)
    await refused(world.member(sleeper), "You still hold your seat", game=game_id)
    await refused(world.member(sleeper), "nothing to rejoin")

    # A resignation is final.
    assert (await world.member(player).slash(thread, "kokeshi resign")).acknowledged
    await refused(world.member(player), "You resigned", game=game_id)

    # A finished game cannot be rejoined (finished straight through the store: how it ends is not what is checked).
    await played_in_store(world, game_id, seed=12)
    assert (await world.store.get_game(game_id)).status == "finished"
    await refused(world.member(sleeper), "is over", game=game_id)
    assert world.env.errors == []


async def test_the_lobby_of_a_fixed_timer_game_says_its_timer_as_before(world):
    _game_id, lobby, _ = await new_lobby(world, players=2, timer=HOUR)
    assert "1 h per turn" in lobby.content
    assert "bank" not in (await lobby_message(world, _game_id)).content


async def test_a_turn_whose_clock_starts_again_after_refused_posts_charges_nothing_for_the_time_before(world):
    game_id, thread, mover, other = await bank_table(world)
    # Discord refuses the thread's new posts: the mover's turn is saved, the next one cannot be shown.
    refuse(world, "POST", f"/channels/{thread.id}/messages*", 403, 50013, "Missing Permissions")
    await play_turn(world, game_id, thread, mover, random.Random(6))
    assert await to_move(world, game_id) == other
    assert {t.kind for t in await world.store.timers(game_id)} == {"repost"}
    await wait(world, 35 * MINUTE)  # past where its first reminder would have been
    assert timeouts(thread) == []
    # Discord takes the game's posts again: the turn is shown, and its clock starts again from then.
    lift(world)
    world.env.backend.announce_channel_update(world.channel.id)
    await world.env.advance_time(10)
    assert await world.store.reach(game_id) is None
    assert BANK - 10 <= await world.store.bank_left(game_id, other) <= BANK
    assert clock(world) + BANK - 10 <= await deadline(world, game_id) <= clock(world) + BANK
    assert world.member(other).mention in (await prompt_message(world, game_id, thread)).content
    assert await world.store.verify() == []
    assert world.env.errors == []
