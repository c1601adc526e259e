"""AI seats in the bot: the level chosen with `/kokeshi new` plays and is shown beside the name, time-outs and
resignations hand seats to `normal`, decisions run in worker processes and are applied at most once, and
`/kokeshi hint` tells the player to move, privately, what `hard` would do."""

from __future__ import annotations

import asyncio
import contextlib
import functools
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

import games
from bot import create_bot
from cogs.thinking import Thinker, decide_match
from games.kokeshi.engine import policy
from i18n import format_number
from storage.records import StaleVersion
from tests import ai_work
from tests.botkit import answer, components, load_game, lobby_message, open_game, prompt_message, restart, texts

HOUR = 3600
# Searches in worker processes take longer than SimCord waits by default on a busy machine.
pytestmark = pytest.mark.simcord(settle_timeout=30)


def said(result) -> list[str]:
    return [m.content for m in [result.response, *result.followups] if m is not None and m.content]


class Recorder:
    """A decision function of the platform's table that notes the level it was asked for (run in a thread of this
    process, where Kokeshi decides on the tests' small budget)."""

    def __init__(self) -> None:
        self.levels: list[str] = []

    def __call__(self, key: str, state: str, seat: int, level: str, seed: int) -> str:
        self.levels.append(level)
        return decide_match(key, state, seat, level, seed)


def recording(world) -> Recorder:
    recorder = Recorder()
    world.bot.tables.thinker = Thinker(pool=ThreadPoolExecutor(1), match_work=recorder)
    return recorder


def gated_match(folder: str, key: str, state: str, seat: int, level: str, seed: int) -> str:
    """`decide_match` on the tests' small budget, once the test lets it go (`ai_work.gated`)."""
    engine = games.get(key).load(state).engine
    action, _gain = ai_work.gated(folder, level, seed, engine.to_json())
    return action


async def wait_for(path: Path) -> None:
    for _ in range(6000):
        if path.exists():
            return
        await asyncio.to_thread(path.parent.exists)  # a real pause, not simulated time
    raise AssertionError(f"{path.name} never appeared")


async def against_ai(world, players: int, ai: int, level: str):
    """`/kokeshi new` by aiko with every other seat the AI's: the table starts at once. (game id, its thread)."""
    created = await world.members[0].slash(world.channel, "kokeshi new", players=players, ai=ai, level=level)
    assert "has started" in said(created)[-1], said(created)
    record = (await world.store.games_in_channel(world.channel.id, statuses=("active",)))[-1]
    return record.id, next(t for t in world.channel.threads if t.id == record.thread_id)


async def sources(world, game_id: int) -> list[tuple[int, str]]:
    """(seat, source) of every decision of a game's log, as the store keeps them ("player", "timeout", "ai")."""
    return [
        (int(player), source) for _seq, player, _action, source, _at, _flags in await world.store._log_rows(game_id)
    ]


@pytest.mark.slow
async def test_the_level_chosen_with_new_plays_the_ai_seats_and_is_shown_beside_their_names(world):
    recorder = recording(world)
    game_id, thread = await against_ai(world, players=3, ai=2, level="hard")
    # The table's post in the channel names the AI seats with their level, and so does the thread's first post.
    posted = (await lobby_message(world, game_id)).content
    assert "AI 1 (AI, hard)" in posted and "AI 2 (AI, hard)" in posted, posted
    begins = thread.history()[0].content
    assert "**AI 1** (AI, hard)" in begins and "**AI 2** (AI, hard)" in begins, begins
    for _ in range(60):
        if len(recorder.levels) >= 3:
            break
        await answer(world, game_id, thread)
    assert len(recorder.levels) >= 3 and set(recorder.levels) == {"hard"}
    record = await world.store.get_game(game_id)
    robots = {s.seat for s in record.seats if s.ai}
    assert robots == {1, 2}
    assert all(source == "ai" for seat, source in await sources(world, game_id) if seat in robots)
    # The level stays with the game: its seats keep it, as a restarted bot reads them.
    assert {s.seat: s.ai_level for s in record.seats if s.ai} == {1: "hard", 2: "hard"}
    assert world.env.errors == []


@pytest.mark.slow
async def test_a_resigned_seat_and_a_timed_out_turn_are_played_by_normal(world):
    recorder = recording(world)
    game_id, thread = await open_game(world, players=2, timer=HOUR)
    game, _ = await load_game(world, game_id)
    late = game.prompt.player
    late_seat = (await world.store.get_game(game_id)).seat_named(late).seat
    await world.env.advance_time(HOUR + 1)
    logged = await sources(world, game_id)
    assert logged and all(entry == (late_seat, "timeout") for entry in logged)
    assert set(recorder.levels) <= {"normal"}
    timed_out = len(recorder.levels)

    quitter = world.member(late)
    result = await quitter.slash(thread, "kokeshi resign")
    assert said(result) == ["You resigned. Thanks for playing!"]
    for _ in range(40):
        if len(recorder.levels) > timed_out + 2:
            break
        await answer(world, game_id, thread)
    assert len(recorder.levels) > timed_out and set(recorder.levels) == {"normal"}
    seat = (await world.store.get_game(game_id)).seat_named(late)
    assert seat.ai and seat.resigned and seat.ai_level in (None, "normal")
    assert any(f"**{late}** resigned; the AI plays their seat" in t for t in texts(thread))
    assert world.env.errors == []


async def human_turn_ending_on_an_ai_choice(world, game_id: int, thread) -> tuple[int, str]:
    """Play the human's (seat 0's) choices until the next one ends their turn and the AI (seat 1) then has a real
    choice to make; returns (version, action) of that last choice, not yet played."""
    module = games.get("kokeshi")
    for _ in range(60):
        match, version, _record = await world.store.load_match(game_id)
        action = match.legal_actions(0)[0]
        probe = module.load(match.to_json())
        probe.apply(0, action)
        if probe.waiting() == (1,) and len(probe.prompts()[0].options) > 1:
            return version, action
        await answer(world, game_id, thread, action=action)
    raise AssertionError("no turn of the human ended on an AI choice")


@pytest.mark.slow
async def test_while_a_hard_decision_runs_in_a_worker_another_games_click_is_answered(world, tmp_path):
    tables = world.bot.tables
    tables.thinker = Thinker(pool=ThreadPoolExecutor(2))
    slow_id, slow_thread = await against_ai(world, players=2, ai=1, level="hard")
    fast_id, fast_thread = await open_game(world, players=2, joiners=1)
    # The human of the slow game plays until their next choice ends their turn on a real choice for the AI.
    version, action = await human_turn_ending_on_an_ai_choice(world, slow_id, slow_thread)
    # That choice is saved, and the AI's turn starts in a worker: its search waits for the test.
    played = await world.store.play_match(slow_id, version, 0, action)
    tables.thinker = Thinker(pool=ThreadPoolExecutor(2), match_work=functools.partial(gated_match, str(tmp_path)))
    slow_turn = asyncio.create_task(world.bot.matches._advance(played.record, played.match, []))
    await wait_for(tmp_path / "started")

    before = len(await world.store.match_events(fast_id))
    clicked = await answer(world, fast_id, fast_thread)
    assert clicked.acknowledged and len(await world.store.match_events(fast_id)) == before + 1
    # The other game's click was answered and saved while the AI's search was still going on.
    assert not slow_turn.done()
    assert (await world.store.load_match(slow_id))[0].waiting() == (1,)

    (tmp_path / "go").write_text("")
    await slow_turn
    assert (await sources(world, slow_id))[-1] == (1, "ai")
    assert world.env.errors == []


@pytest.mark.slow
async def test_an_ai_decision_computed_for_a_version_the_game_has_left_is_dropped(world, tmp_path):
    tables = world.bot.tables
    tables.thinker = Thinker(pool=ThreadPoolExecutor(1))
    game_id, thread = await against_ai(world, players=2, ai=1, level="hard")
    version, action = await human_turn_ending_on_an_ai_choice(world, game_id, thread)
    played = await world.store.play_match(game_id, version, 0, action)
    # This process starts the AI's turn; its first decision is still being searched when the bot is restarted.
    tables.thinker = Thinker(pool=ThreadPoolExecutor(1), match_work=functools.partial(gated_match, str(tmp_path)))
    old_turn = asyncio.create_task(world.bot.matches._advance(played.record, played.match, []))
    await wait_for(tmp_path / "started")
    asked_at = (await world.store.load_match(game_id))[1]
    # The restarted bot (its own thinker, on the same store) plays the AI's whole turn.
    tables.thinker = Thinker(pool=ThreadPoolExecutor(1))
    match, _version, record = await world.store.load_match(game_id)
    await world.bot.matches._advance(record, match, [])
    after = await sources(world, game_id)
    assert after[-1] == (1, "ai")
    match, version, _record = await world.store.load_match(game_id)
    assert match.waiting() == (0,) and version > asked_at

    # The old search ends: its answer was for a version the game has left, so nothing is applied twice.
    (tmp_path / "go").write_text("")
    with contextlib.suppress(StaleVersion):
        await old_turn
    assert await sources(world, game_id) == after
    assert world.env.errors == []


@pytest.mark.slow
async def test_an_ai_turn_cut_short_by_a_crash_is_finished_once_by_the_restarted_bot(world, db_path, monkeypatch):
    world.bot.tables.thinker = Thinker(pool=ThreadPoolExecutor(1))
    game_id, thread = await against_ai(world, players=2, ai=1, level="normal")
    version, action = await human_turn_ending_on_an_ai_choice(world, game_id, thread)
    store = world.store
    real_play = store.play_match
    ai_moves = []

    async def dies_on_the_second_ai_move(*args, **kwargs):
        if kwargs.get("source") == "ai":
            ai_moves.append(args)
            if len(ai_moves) == 2:
                raise SystemError("the bot process stops here")
        return await real_play(*args, **kwargs)

    played = await store.play_match(game_id, version, 0, action)
    with monkeypatch.context() as patched:
        patched.setattr(store, "play_match", dies_on_the_second_ai_move)
        with pytest.raises(SystemError):
            await world.bot.matches._advance(played.record, played.match, [])
    cut = await sources(world, game_id)
    assert cut[-1] == (1, "ai") and (await store.load_match(game_id))[0].waiting() == (1,)

    restarted = create_bot(db_path)
    restarted.tables.thinker = Thinker(pool=ThreadPoolExecutor(1))
    await restart(world, restarted)
    await world.env.advance_time(1)
    timers = restarted.get_cog("Timers")
    if timers is not None and timers.resuming is not None:
        await timers.resuming
    logged = await sources(world, game_id)
    assert logged[: len(cut)] == cut
    assert len(logged) > len(cut) and all(source == "ai" for _seat, source in logged[len(cut) :])
    assert (await world.store.load_match(game_id))[0].waiting() == (0,)
    # The human's turn is shown with a fresh prompt.
    assert any(world.members[0].mention in t for t in texts(thread)[-2:])
    assert world.env.errors == []


@pytest.mark.slow
async def test_hint_tells_the_player_to_move_privately_what_hard_would_do_and_why(world, monkeypatch):
    # A solo game is played at the platform's table: its hint asks Kokeshi's `advise` (here on the tests' small
    # budget, in a thread of this process), whose choice and gain are noted to check the words against.
    module = games.get("kokeshi")
    advised: list[tuple[str, str, float]] = []

    def advise(match, seat, level, seed):
        hint = policy(level, seed=seed, budget=ai_work.BUDGET).explain(match.engine)
        advised.append((level, str(hint.action), float(hint.gain)))
        return str(hint.action), float(hint.gain)

    monkeypatch.setattr(module, "advise", advise)
    world.bot.tables.thinker = Thinker(pool=ThreadPoolExecutor(1))
    aiko = world.members[0]
    solo = await aiko.slash(world.channel, "kokeshi solo")
    assert solo.acknowledged
    record = (await world.store.games_in_channel(world.channel.id))[-1]
    assert not record.named_log
    thread = next(t for t in world.channel.threads if t.id == record.thread_id)
    seen = buttons = 0
    for _ in range(40):
        match, version, _record = await world.store.load_match(record.id)
        (prompt,) = match.prompts()
        message = await prompt_message(world, record.id, thread)
        start = len(world.env.http_requests)
        result = await aiko.slash(thread, "kokeshi hint")
        [text] = said(result)
        assert result.ephemeral
        # The first answer is visible at once and says it is thinking; the choice replaces it.
        answers = [r.json.get("content", "") for r in world.env.http_requests[start:] if r.json and "content" in r.json]
        assert answers[0].startswith("🤔 Thinking… the hard AI") and answers[-1] == text
        if len(prompt.options) > 1:
            level, expected, gain = advised.pop()
            assert level == "hard" and not advised
        else:
            expected, gain = prompt.options[0].id, None
        option = next(o for o in prompt.options if o.id == expected)
        assert text.startswith(f"Hint for Kokeshi #{record.id} — the hard AI would choose: **")
        # The choice in the buttons' words, with what it does (the rules' preview, in the player's view), as its
        # button on the thread's message says it.
        label = module.label(match.view(0), option)
        assert f"**{label}**" in text, (label, text)
        shown = {c["custom_id"]: c.get("label") for c in components(message) if c.get("type") == 2}
        if f"mt:a:{record.id}:{version}:{expected}" in shown:
            assert shown[f"mt:a:{record.id}:{version}:{expected}"] == label
            buttons += 1
        if gain is not None:
            assert f"about {format_number(round(gain, 1))} points better off" in text
            seen += 1
        else:
            assert "It is the only choice you have." in text
        # Asking changes nothing.
        assert (await world.store.load_match(record.id))[1] == version
        await answer(world, record.id, thread, action=expected)
        if seen >= 3 and buttons:
            break
    assert seen >= 3 and buttons
    assert world.env.errors == []


async def test_hint_is_refused_in_challenges_rated_games_and_out_of_turn(world):
    world.bot.tables.thinker = Thinker()
    aiko, botan, chiyo = world.members[:3]
    game_id, thread = await open_game(world, players=3, ai=1)
    game, version = await load_game(world, game_id)
    mover = world.member(game.prompt.player)
    waiting = botan if mover is aiko else aiko
    # Out of turn in a rated game, the player is told hints are off there (Kokeshi's own table said whose turn it
    # was first).
    refused = said(await waiting.slash(thread, "kokeshi hint"))
    assert refused == ["Hints are off in rated games (games with two or more people)."]
    refused = said(await mover.slash(thread, "kokeshi hint"))
    assert refused == ["Hints are off in rated games (games with two or more people)."]
    # So is someone who does not play in it (Kokeshi's own table told them "You are not playing in this game.").
    refused = said(await chiyo.slash(thread, "kokeshi hint"))
    assert refused == ["Hints are off in rated games (games with two or more people)."]

    daily = await chiyo.slash(world.channel, "kokeshi daily")
    assert daily.acknowledged
    record = (await world.store.games_for_user(chiyo.user.id))[-1]
    assert record.challenge
    challenge_thread = next(t for t in world.channel.threads if t.id == record.thread_id)
    refused = said(await chiyo.slash(challenge_thread, "kokeshi hint"))
    assert refused == ["Hints are off in daily and weekly challenges: everyone plays those on their own."]
    assert (await load_game(world, game_id))[1] == version
    assert world.env.errors == []
