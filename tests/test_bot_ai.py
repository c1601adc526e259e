"""AI seats in the bot: the level chosen with `/kokeshi new` plays and is shown beside the name, time-outs and
resignations hand seats to `normal`, decisions run in worker processes and are applied at most once, and
`/kokeshi hint` tells the player to move, privately, what `hard` would do."""

from __future__ import annotations

import asyncio
import functools
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

import games
from bot import create_bot
from cogs.kokeshi_ai import KokeshiThinker
from cogs.tables import Tables
from games.kokeshi.engine import policy
from i18n import format_number
from tests import ai_work
from tests.botkit import answer, components, open_game, prompt_message, restart, texts

HOUR = 3600
# Searches in worker processes take longer than SimCord waits by default on a busy machine.
pytestmark = pytest.mark.simcord(settle_timeout=30)


def said(result) -> list[str]:
    return [m.content for m in [result.response, *result.followups] if m is not None and m.content]


class Recorder:
    """A decision function that notes the level it was asked for (run in a thread of this process)."""

    def __init__(self) -> None:
        self.levels: list[str] = []

    def __call__(self, level: str, seed: int, state: str, budget: int | None = None) -> tuple[str, float]:
        self.levels.append(level)
        return ai_work.quick(level, seed, state)


def recording(world) -> Recorder:
    recorder = Recorder()
    world.bot.tables.thinker = KokeshiThinker(work=recorder, pool=ThreadPoolExecutor(1))
    return recorder


class Declared(KokeshiThinker):
    """The bot's thinker, its wait declared to SimCord as outside input, so other work may settle meanwhile."""

    def __init__(self, env, work) -> None:
        super().__init__(work=work)
        self.env = env

    async def explain(self, level, seed, game, budget=None):
        return await self.env.external_wait(super().explain(level, seed, game, budget), reason="an AI decision")


async def wait_for(path: Path) -> None:
    for _ in range(6000):
        if path.exists():
            return
        await asyncio.to_thread(path.parent.exists)  # a real pause, not simulated time
    raise AssertionError(f"{path.name} never appeared")


@pytest.mark.slow
async def test_the_level_chosen_with_new_plays_the_ai_seats_and_is_shown_beside_their_names(world):
    recorder = recording(world)
    game_id, thread = await open_game(world, players=3, ai=2, level="hard")
    record = await world.store.get_game(game_id)
    lobby = world.bot.tables.lobby_embed(record)
    seats = lobby.fields[0].value
    assert "AI 1 (AI, hard)" in seats and "AI 2 (AI, hard)" in seats
    intro = next(t for t in texts(thread) if "begins!" in t)
    assert "**AI 1** (AI, hard)" in intro and "**AI 2** (AI, hard)" in intro
    for _ in range(60):
        if len(recorder.levels) >= 3:
            break
        await answer(world, game_id, thread)
    assert len(recorder.levels) >= 3 and set(recorder.levels) == {"hard"}
    assert all(e.source == "ai" for e in await world.store.log(game_id) if e.player.startswith("AI "))
    # The level stays with the game: a restarted bot reads it back.
    tables = Tables(world.bot)
    assert await tables.load_levels(record) == {1: "hard", 2: "hard"}
    status = said(await world.members[0].slash(thread, "kokeshi status"))[0]
    assert "AI 1 (AI, hard)" in status and "AI 2 (AI, hard)" in status
    assert world.env.errors == []


@pytest.mark.slow
async def test_a_resigned_seat_and_a_timed_out_turn_are_played_by_normal(world):
    recorder = recording(world)
    game_id, thread = await open_game(world, players=2, timer=HOUR)
    game, _ = await world.store.load_game(game_id)
    late = game.prompt.player
    await world.env.advance_time(HOUR + 1)
    log = await world.store.log(game_id)
    assert log and all(e.player == late and e.source == "timeout" for e in log)
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
    record = await world.store.get_game(game_id)
    assert world.bot.tables.label(record, late) == f"{late} (AI, normal)"
    status = said(await world.members[0].slash(thread, "kokeshi status"))[0]
    assert f"{late} (AI, normal)" in status
    assert world.env.errors == []


@pytest.mark.slow
async def test_while_a_hard_decision_runs_in_a_worker_another_games_click_is_answered(world, tmp_path):
    tables = world.bot.tables
    tables.thinker = KokeshiThinker(work=ai_work.quick)
    slow_id, slow_thread = await open_game(world, players=2, ai=1, level="hard")
    fast_id, fast_thread = await open_game(world, players=2, joiners=1)
    # The human of the slow game plays until their next choice ends their turn on a real choice for the AI.
    human = world.members[0].user.name
    for _ in range(40):
        game, version = await world.store.load_game(slow_id)
        probe = game.clone()
        action = probe.legal_actions()[0]
        probe.apply(human, action)
        if probe.prompt is not None and probe.prompt.player != human and len(probe.prompt.options) > 1:
            break
        await answer(world, slow_id, slow_thread, action=action)
    else:
        raise AssertionError("no turn of the human ended on an AI choice")
    # That choice is saved, and the AI's turn starts in the process pool: its search waits for the test.
    await world.store.apply(slow_id, version, human, action)
    tables.thinker = KokeshiThinker(work=functools.partial(ai_work.gated, str(tmp_path)))
    slow_turn = asyncio.create_task(tables.drive_ai(await world.store.get_game(slow_id)))
    await wait_for(tmp_path / "started")

    before = len(await world.store.log(fast_id))
    clicked = await answer(world, fast_id, fast_thread)
    assert clicked.acknowledged and len(await world.store.log(fast_id)) == before + 1
    # The other game's click was answered and saved while the AI's search was still going on.
    assert not slow_turn.done()
    assert (await world.store.load_game(slow_id))[0].prompt.player != human

    (tmp_path / "go").write_text("")
    await slow_turn
    assert (await world.store.log(slow_id))[-1].source == "ai"
    assert world.env.errors == []


async def human_turn_ending_on_an_ai_choice(world, game_id: int, thread) -> tuple[int, str, str]:
    """Play the human's choices until the next one ends their turn and the AI then has a real choice to make;
    returns (version, human, action) of that last choice, not yet played."""
    human = world.members[0].user.name
    for _ in range(60):
        game, version = await world.store.load_game(game_id)
        probe = game.clone()
        action = probe.legal_actions()[0]
        probe.apply(human, action)
        if probe.prompt is not None and probe.prompt.player != human and len(probe.prompt.options) > 1:
            return version, human, action
        await answer(world, game_id, thread, action=action)
    raise AssertionError("no turn of the human ended on an AI choice")


@pytest.mark.slow
async def test_an_ai_decision_computed_for_a_version_the_game_has_left_is_dropped(world, tmp_path):
    tables = world.bot.tables
    tables.thinker = KokeshiThinker(work=ai_work.quick)
    game_id, thread = await open_game(world, players=2, ai=1, level="hard")
    version, human, action = await human_turn_ending_on_an_ai_choice(world, game_id, thread)
    await world.store.apply(game_id, version, human, action)
    # This process starts the AI's turn; its first decision is still being searched when the bot is restarted.
    tables.thinker = KokeshiThinker(work=functools.partial(ai_work.gated, str(tmp_path)))
    old_turn = asyncio.create_task(tables.drive_ai(await world.store.get_game(game_id)))
    await wait_for(tmp_path / "started")
    asked_at = (await world.store.load_game(game_id))[1]
    # The restarted bot (a new Tables on the same store) plays the AI's whole turn.
    restarted = Tables(world.bot)
    restarted.thinker = KokeshiThinker(work=ai_work.quick)
    played = await restarted.drive_ai(await world.store.get_game(game_id))
    after = await world.store.log(game_id)
    assert played and after[-1].source == "ai"
    assert (await world.store.load_game(game_id))[0].prompt.player == human
    assert (await world.store.load_game(game_id))[1] > asked_at

    # The old search ends: its answer was for a version the game has left, so nothing is applied twice.
    (tmp_path / "go").write_text("")
    assert await old_turn == []
    assert await world.store.log(game_id) == after
    assert world.env.errors == []


@pytest.mark.slow
async def test_an_ai_turn_cut_short_by_a_crash_is_finished_once_by_the_restarted_bot(world, db_path, monkeypatch):
    world.bot.tables.thinker = KokeshiThinker(work=ai_work.quick)
    game_id, thread = await open_game(world, players=2, ai=1, level="normal")
    version, human, action = await human_turn_ending_on_an_ai_choice(world, game_id, thread)
    store = world.store
    real_apply = store.apply
    ai_moves = []

    async def dies_on_the_second_ai_move(*args, **kwargs):
        if kwargs.get("source") == "ai":
            ai_moves.append(args)
            if len(ai_moves) == 2:
                raise SystemError("the bot process stops here")
        return await real_apply(*args, **kwargs)

    await store.apply(game_id, version, human, action)
    monkeypatch.setattr(store, "apply", dies_on_the_second_ai_move)
    with pytest.raises(SystemError):
        await world.bot.tables.drive_ai(await store.get_game(game_id))
    monkeypatch.undo()
    cut = await store.log(game_id)
    game, _ = await store.load_game(game_id)
    assert cut[-1].source == "ai" and game.prompt.player != human

    restarted = create_bot(db_path)
    await restart(world, restarted)
    await world.env.advance_time(1)
    await restarted.tables._resuming
    log = await restarted.store.log(game_id)
    assert log[: len(cut)] == cut
    assert len(log) > len(cut) and all(e.source == "ai" for e in log[len(cut) :])
    assert (await restarted.store.load_game(game_id))[0].prompt.player == human
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
    world.bot.tables.thinker = KokeshiThinker(work=ai_work.quick, pool=ThreadPoolExecutor(1))
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
    world.bot.tables.thinker = KokeshiThinker(work=ai_work.quick)
    aiko, botan, chiyo = world.members[:3]
    game_id, thread = await open_game(world, players=3, ai=1)
    game, version = await world.store.load_game(game_id)
    mover = world.member(game.prompt.player)
    waiting = botan if mover is aiko else aiko
    refused = said(await waiting.slash(thread, "kokeshi hint"))
    assert refused == [f"It's {game.prompt.player}'s turn, not yours."]
    refused = said(await mover.slash(thread, "kokeshi hint"))
    assert refused == ["Hints are off in rated games (games with two or more people)."]
    refused = said(await chiyo.slash(thread, "kokeshi hint"))
    assert refused == ["You are not playing in this game."]

    daily = await chiyo.slash(world.channel, "kokeshi daily")
    assert daily.acknowledged
    record = (await world.store.games_for_user(chiyo.user.id))[-1]
    assert record.challenge
    challenge_thread = next(t for t in world.channel.threads if t.id == record.thread_id)
    refused = said(await chiyo.slash(challenge_thread, "kokeshi hint"))
    assert refused == ["Hints are off in daily and weekly challenges: everyone plays those on their own."]
    assert (await world.store.load_game(game_id))[1] == version
    assert world.env.errors == []
