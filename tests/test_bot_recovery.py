"""A game never gets stuck: timers act only on their turn, and crashes, failed posts and deleted threads heal."""

from __future__ import annotations

import asyncio
import logging
import random
import signal
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

import pytest

from bot import create_bot
from games.kokeshi.engine import GreedyPolicy
from tests.botkit import answer, custom_ids, load_game, open_game, prompt_message, restart, texts

HOUR = 3600
ROOT = Path(__file__).resolve().parent.parent


async def to_move(w, game_id: int) -> str:
    game, _ = await load_game(w, game_id)
    return game.prompt.player


async def finish_turn(w, game_id: int, thread, rng: random.Random) -> None:
    """The player to move answers until someone else is to move."""
    mover = await to_move(w, game_id)
    while await to_move(w, game_id) == mover:
        assert (await answer(w, game_id, thread, rng)).acknowledged


class Logged(NamedTuple):
    player: str
    action: str
    source: str


async def log_of(w, game_id: int) -> list[Logged]:
    """Every decision logged of a game at the platform's table (its log by seat), by its seat's name."""
    record = await w.store.get_game(game_id)
    names = {str(s.seat): s.name for s in record.seats}
    rows = await w.store._all("SELECT player, action, source FROM actions WHERE game_id = ? ORDER BY seq", (game_id,))
    return [Logged(names.get(r["player"], r["player"]), r["action"], r["source"]) for r in rows]


async def seat_of(w, game_id: int, name: str) -> int:
    return (await w.store.get_game(game_id)).seat_named(name).seat


def versioned(custom_id: str) -> bool:
    """Whether a component's custom id carries the version it answers (a hint or "since" button does not)."""
    return custom_id.split(":")[1] in ("a", "s", "g", "u", "c")


def deadline_of(timers):
    return next(t for t in timers if t.kind == "deadline")


def timeouts(thread) -> list[str]:
    return [t for t in texts(thread) if "time ran out" in t.lower()]


async def test_a_deadline_for_a_turn_already_played_never_plays_the_next_players_turn(world):
    game_id, thread = await open_game(world, players=2, timer=HOUR)
    first = await to_move(world, game_id)
    old = deadline_of(await world.store.timers(game_id))
    await finish_turn(world, game_id, thread, random.Random(1))
    second = await to_move(world, game_id)
    assert second != first
    _, version = await load_game(world, game_id)
    # The old turn's deadline fires late (another process, or a loop that read it before the move).
    await world.bot.matches.fire(game_id, "deadline", old.version)
    assert (await load_game(world, game_id))[1] == version
    assert await to_move(world, game_id) == second
    assert all(e.source != "timeout" for e in await log_of(world, game_id))
    assert not timeouts(thread)
    # The second player's own deadline is still there, untouched.
    current = deadline_of(await world.store.timers(game_id))
    assert current.version != old.version and current.due_at > world.env.now().timestamp()
    assert world.env.errors == []


async def test_a_deadline_fired_twice_plays_the_turn_once(world):
    game_id, thread = await open_game(world, players=2, timer=HOUR)
    mover = await to_move(world, game_id)
    deadline = deadline_of(await world.store.timers(game_id))
    tables = world.bot.matches
    # Two loops (or two processes) firing the same row at once, and once more afterwards.
    await asyncio.gather(
        tables.fire(game_id, "deadline", deadline.version), tables.fire(game_id, "deadline", deadline.version)
    )
    await tables.fire(game_id, "deadline", deadline.version)
    log = await log_of(world, game_id)
    assert log and all(e.player == mover and e.source == "timeout" for e in log)
    assert await to_move(world, game_id) != mover
    assert (await world.store.get_game(game_id)).seat_named(mover).expired == 1
    assert len(timeouts(thread)) == 1
    assert world.env.errors == []


@pytest.mark.slow
async def test_a_time_out_that_fails_midway_is_finished_by_the_next_bot(world, db_path, monkeypatch, caplog):
    game_id, thread = await open_game(world, players=2, timer=HOUR)
    mover = await to_move(world, game_id)
    store = world.store
    real_play = store.play_match
    calls = []

    async def crash_on_second(game_id_, version, seat, action, *, source="button", **options):
        if source == "timeout":
            calls.append(action)
            if len(calls) == 2:
                raise RuntimeError("the process dies here")
        return await real_play(game_id_, version, seat, action, source=source, **options)

    # Make sure the mover's turn has at least two decisions, so the time-out stops halfway.
    game, _ = await load_game(world, game_id)
    probe = game.clone()
    steps = 0
    while probe.prompt is not None and probe.prompt.player == mover:
        probe.apply(mover, GreedyPolicy(0).choose(probe))
        steps += 1
    assert steps >= 2
    monkeypatch.setattr(store, "play_match", crash_on_second)
    with caplog.at_level(logging.ERROR):
        await world.env.advance_time(HOUR)
    half = await log_of(world, game_id)
    assert len(half) == 1 and half[0].source == "timeout"
    assert await to_move(world, game_id) == mover
    # The deadline survives the failure, so the game has a way to continue.
    assert any(t.kind == "deadline" for t in await store.timers(game_id))

    monkeypatch.undo()
    await restart(world, create_bot(db_path))
    await world.env.advance_time(120)
    log = await log_of(world, game_id)
    assert len(log) == steps and all(e.player == mover and e.source == "timeout" for e in log)
    assert await to_move(world, game_id) != mover
    assert (await world.store.get_game(game_id)).seat_named(mover).expired == 1
    assert deadline_of(await world.store.timers(game_id)).due_at >= world.env.now().timestamp() + HOUR - 120
    prompt = await prompt_message(world, game_id, thread)
    assert world.member(await to_move(world, game_id)).mention in prompt.content


async def test_a_move_saved_but_never_posted_is_posted_on_start_up_with_a_fresh_timer(world, db_path):
    game_id, thread = await open_game(world, players=2, timer=HOUR)
    mover = await to_move(world, game_id)
    old_prompt = await prompt_message(world, game_id, thread)
    old_deadline = deadline_of(await world.store.timers(game_id))
    await world.env.advance_time(HOUR // 2)
    # The bot commits the whole turn and dies before posting anything.
    game, version = await load_game(world, game_id)
    seat = await seat_of(world, game_id, mover)
    while game.prompt.player == mover:
        await world.store.play_match(game_id, version, seat, GreedyPolicy(version).choose(game))
        game, version = await load_game(world, game_id)
    other = game.prompt.player

    await restart(world, create_bot(db_path))
    prompt = await prompt_message(world, game_id, thread)
    assert prompt.id != old_prompt.id and world.member(other).mention in prompt.content
    assert custom_ids(prompt) and all(c.split(":")[3] == str(version) for c in custom_ids(prompt) if versioned(c))
    # The old prompt became the record of the mover's turn (the platform's threads keep one a turn), buttons gone.
    assert not custom_ids(next(m for m in thread.history() if m.id == old_prompt.id))
    timers = await world.store.timers(game_id)
    deadline = deadline_of(timers)
    assert deadline.version != old_deadline.version
    assert deadline.due_at == world.env.now().timestamp() + HOUR
    assert {t.kind for t in timers} == {"reminder_half", "reminder_late", "deadline"}
    # The next player does not inherit the previous deadline: nothing happens at the old one.
    await world.env.advance_time(HOUR // 2 + 60)
    assert not timeouts(thread) and await to_move(world, game_id) == other
    assert world.env.errors == []


@pytest.mark.parametrize(
    ("status", "times"),
    # A permission removed and restored; one server error (SimCord answers each request once: no retries).
    [(403, 1), (500, 1)],
)
async def test_a_failed_prompt_post_keeps_the_old_buttons_and_the_prompt_is_posted_later(
    world, monkeypatch, status, times
):
    game_id, thread = await open_game(world, players=2, timer=HOUR)
    rng = random.Random(3)
    mover = await to_move(world, game_id)
    # Everything the thread shows goes out through the reach.
    tables = world.bot.tables.reach
    real_send = tables.send

    async def fail_the_prompt(record, channel, content, **kwargs):
        if "view" in kwargs:
            monkeypatch.setattr(tables, "send", real_send)
            # What env.inject_error adds (which the bot's own tasks may not call).
            fault = {"method": "POST", "path": f"/channels/{thread.id}/messages", "status": status, "code": 0}
            world.env.backend.faults.append({**fault, "message": "injected", "times": times})
        return await real_send(record, channel, content, **kwargs)

    # Play up to the mover's last decision of the turn, then fail the next player's new prompt once.
    game, _ = await load_game(world, game_id)
    while True:
        probe = game.clone()
        action = rng.choice(game.legal_actions())
        probe.apply(mover, action)
        if probe.prompt.player != mover:
            break
        await answer(world, game_id, thread, action=action)
        game, _ = await load_game(world, game_id)
    old = await prompt_message(world, game_id, thread)
    monkeypatch.setattr(tables, "send", fail_the_prompt)
    result = await answer(world, game_id, thread, action=action)
    assert result.acknowledged
    assert await to_move(world, game_id) != mover
    # The move is saved and a retry is due; the old prompt stays the live one the store knows (at the platform's
    # table it already became the record of the mover's turn, as its records are edited in before the new prompt).
    assert (await prompt_message(world, game_id, thread)).id == old.id
    assert old.id in [m.id for m in thread.history()]
    assert {t.kind for t in await world.store.timers(game_id)} >= {"repost"}

    await world.env.advance_time(61)
    prompt = await prompt_message(world, game_id, thread)
    other = await to_move(world, game_id)
    assert prompt.id != old.id and world.member(other).mention in prompt.content and custom_ids(prompt)
    assert not custom_ids(next(m for m in thread.history() if m.id == old.id))
    assert {t.kind for t in await world.store.timers(game_id)} == {"reminder_half", "reminder_late", "deadline"}
    assert (await answer(world, game_id, thread, rng)).acknowledged


async def test_a_deleted_thread_gets_a_new_one_with_the_prompt_and_the_player_is_told(world, monkeypatch):
    # The bot missed the deletion (it was offline, say): the player's next command finds the thread gone.
    game_id, thread = await open_game(world, players=2, timer=HOUR)
    mover = await to_move(world, game_id)
    member = world.member(mover)
    backend = world.env.backend
    real_emit = backend.emit
    monkeypatch.setattr(
        backend, "emit", lambda event, payload: None if event == "THREAD_DELETE" else real_emit(event, payload)
    )
    backend.delete_channel(thread.id)
    monkeypatch.setattr(backend, "emit", real_emit)
    game, version = await load_game(world, game_id)
    action = game.legal_actions()[0]
    assert game.prompt.kind == "setup", game.prompt.kind
    result = await member.slash(world.channel, "kokeshi play", choice=f"{version}:{action}", game=game_id)
    record = await world.store.get_game(game_id)
    assert record.thread_id != thread.id
    new = next(t for t in world.channel.threads if t.id == record.thread_id)
    prompt = await prompt_message(world, game_id, new)
    to = await to_move(world, game_id)
    assert world.member(to).mention in prompt.content and custom_ids(prompt)
    assert any("was deleted" in m.content for m in world.channel.history())
    said = " ".join(m.content for m in [result.response, *result.followups] if m is not None and m.content)
    assert "deleted" in said and "Done." not in said.replace("deleted", "")
    assert {t.kind for t in await world.store.timers(game_id)} >= {"deadline"}
    assert world.env.errors == []


async def test_a_thread_deleted_while_the_bot_watches_is_replaced_at_once_and_the_channel_told(world):
    game_id, thread = await open_game(world, players=2, timer=HOUR)
    mover = await to_move(world, game_id)
    world.env.backend.delete_channel(thread.id)
    await world.env.settle()
    record = await world.store.get_game(game_id)
    assert record.thread_id != thread.id
    new = next(t for t in world.channel.threads if t.id == record.thread_id)
    prompt = await prompt_message(world, game_id, new)
    assert world.member(mover).mention in prompt.content and custom_ids(prompt)
    told = [m for m in world.channel.history() if "was deleted" in m.content]
    assert len(told) == 1 and "Nothing was lost" in told[0].content
    # The player's next command goes to the new thread, and the game goes on.
    game, version = await load_game(world, game_id)
    action = game.legal_actions()[0]
    result = await world.member(mover).slash(world.channel, "kokeshi play", choice=f"{version}:{action}", game=game_id)
    said = " ".join(m.content for m in [result.response, *result.followups] if m is not None and m.content)
    assert "Your choice is in" in said
    assert (await world.store.get_game(game_id)).thread_id == new.id
    assert len([m for m in world.channel.history() if "was deleted" in m.content]) == 1
    assert {t.kind for t in await world.store.timers(game_id)} >= {"deadline"}
    assert world.env.errors == []


# The child runs the real bot in SimCord, starts a timed game and lets its deadline fire; the AI's second step of
# the time-out (`Store.play_match`, source "timeout") kills the process with SIGKILL (after the first step was
# committed).
CHILD = """
import asyncio, os, signal, sys
from bot import create_bot
from simcord.env import Env
from tests.botkit import NAMES, World, open_game

async def main(path):
    env = Env(create_bot(path))
    await env.start()
    with env.time_context():
        guild = env.create_guild("Kokeshi Club")
        channel = guild.create_text_channel("kokeshi")
        members = [guild.add_member(env.create_user(n)) for n in NAMES]
        w = World(env, guild, channel, members)
        game_id, _ = await open_game(w, players=2, timer=3600)
        store = w.store
        real_play = store.play_match
        steps = []

        async def play_match(game_id_, version, seat, action, *, source="button", **options):
            if source == "timeout":
                steps.append(action)
                if len(steps) == 2:
                    print("KILL", game_id_, flush=True)
                    os.kill(os.getpid(), signal.SIGKILL)
            return await real_play(game_id_, version, seat, action, source=source, **options)

        store.play_match = play_match
        await env.advance_time(3600)
        print("NOT KILLED", flush=True)

asyncio.run(main(sys.argv[1]))
"""


@pytest.mark.slow
async def test_sigkill_in_the_middle_of_a_time_out_leaves_a_game_the_next_bot_finishes(world, tmp_path):
    # The test's own bot is replaced by one started on the database the child left behind.
    db_path = str(tmp_path / "killed.sqlite3")
    # In a thread, so this process's event loop (and its database thread) keeps running meanwhile.
    child = await asyncio.to_thread(
        subprocess.run, [sys.executable, "-c", CHILD, db_path], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    output = child.stdout + child.stderr
    assert child.returncode == -signal.SIGKILL, output
    game_id = int(output.split("KILL")[1].split()[0])
    await restart(world, create_bot(db_path))
    store = world.store
    half = await log_of(world, game_id)
    assert len(half) == 1 and half[0].source == "timeout"
    mover = half[0].player
    assert any(t.kind == "deadline" for t in await store.timers(game_id))

    await world.env.advance_time(HOUR + 120)
    log = await log_of(world, game_id)
    assert len(log) >= 2 and all(e.player == mover and e.source == "timeout" for e in log)
    game, _ = await load_game(world, game_id)
    assert game.prompt.player != mover
    assert (await world.store.get_game(game_id)).seat_named(mover).expired == 1
    # The next player's turn has its own deadline.
    assert any(t.kind == "deadline" and t.due_at > world.env.now().timestamp() for t in await store.timers(game_id))
