"""Replays: a finished game stepped through privately from its final message, its animation, and the refusals."""

from __future__ import annotations

import io
import json

import pytest
from PIL import Image
from simcord.results import ResponseMessage

from bot import create_bot
from cogs.match_replay import film as match_film
from cogs.match_replay import split_turns
from cogs.replay import MENU_NEAR, MENU_TURNS, menu_turns
from games.kokeshi.engine import GreedyPolicy
from games.kokeshi.pictures.replay import MAX_BYTES
from tests.botkit import attachments, components, custom_ids, open_game, play_to_end, restart
from tests.test_bot_language import locales  # noqa: F401  (the fixture giving each person a language)

# The animation is drawn in a worker (a thread here) for several seconds while the bot waits on it.
pytestmark = pytest.mark.simcord(settle_timeout=60)


@pytest.fixture
async def finished(world):
    """A 2-player game played to its end through the buttons: (game id, its thread)."""
    game_id, thread = await open_game(world, players=2)
    await play_to_end(world, game_id, thread, seed=5)
    assert (await world.store.get_game(game_id)).status == "finished"
    return game_id, thread


async def finished_in_store(w, seed: int = 3) -> int:
    """A 2-player game opened through Discord and played to its end straight through the store (quick: nothing is
    posted in its thread); its id."""
    game_id, _thread = await open_game(w, players=2)
    return await played_in_store(w, game_id, seed)


async def played_in_store(w, game_id: int, seed: int = 3) -> int:
    """The game played to its end straight through the store, its seats' decisions by seat number (nothing is
    posted in its thread); its id."""
    policy = GreedyPolicy(seed)
    match, version, _record = await w.store.load_match(game_id)
    while not match.is_over:
        (seat,) = match.waiting()
        played = await w.store.play_match(game_id, version, seat, policy.choose(match.engine))
        match, version = played.match, played.record.version
    return game_id


def now_shown(world, message) -> ResponseMessage:
    """A private message as it stands now (the viewer is edited in place)."""
    return ResponseMessage(world.env, world.env.backend.get_message(message.channel_id, message.id))


def reply(result) -> ResponseMessage:
    """The private answer to an interaction: its last follow-up, or the "thinking…" message it replaced."""
    return result.followups[-1] if result.followups else result.response


def button(message, op: str) -> dict:
    return next(c for c in components(message) if c.get("custom_id", "").endswith(f":{op}"))


def records(thread) -> list:
    """The thread's turn records: the messages with a turn's picture, oldest first."""
    return [m for m in thread.history() if any(name.startswith("turn-") for name in attachments(m))]


async def picture(message) -> bytes:
    return await message.attachments[0].read()


@pytest.mark.slow
async def test_a_replay_opened_from_the_final_message_steps_through_every_turn_as_the_thread_showed_it(world, finished):
    game_id, thread = finished
    final = thread.history()[-1]
    assert "is over" in final.content and custom_ids(final) == [f"mt:r:{game_id}", f"kk:r:{game_id}:0:open"]
    told = records(thread)
    # Someone who did not play, but reads the channel, may watch it too; privately.
    watcher = world.members[2]
    opened = await watcher.click(final, custom_id=f"kk:r:{game_id}:0:open")
    assert opened.acknowledged and opened.ephemeral
    viewer = reply(opened)
    assert viewer.ephemeral
    # Every turn but the last has its record in the thread; the last is told in the final message.
    count = len(split_turns(await world.store.match_decisions(game_id)))
    assert count == len(told) + 1
    assert f"turn 1 of {count}" in viewer.content
    assert [bool(button(viewer, op).get("disabled")) for op in ("first", "prev", "next", "last")] == [
        True,
        True,
        False,
        False,
    ]
    menu = next(c for c in components(viewer) if c["type"] == 3)
    assert len(menu["options"]) == min(count, MENU_TURNS) and menu["options"][0].get("default")
    assert menu["options"][-1]["value"] == str(count)
    # Next, to the end: each turn shows the thread's own record, words and picture, byte for byte.
    for turn in range(1, count + 1):
        viewer = now_shown(world, viewer)
        assert f"turn {turn} of {count}" in viewer.content
        # Its picture is the whole table after the turn (the thread's record showed the player's workshop).
        assert attachments(viewer) == [f"kokeshi-{game_id}-replay-{turn}.png"]
        if turn <= len(told):
            assert viewer.content.split("\n", 1)[1] == told[turn - 1].content
        else:  # the last turn ends with the final places, as the final message does
            places = final.content[final.content.index("\n1. **") :].split("\nNew games")[0].rstrip()
            assert places in viewer.content, (places, viewer.content)
        if turn < count:
            stepped = await watcher.click(viewer, custom_id=button(viewer, "next")["custom_id"])
            assert stepped.acknowledged and stepped.followups == []
    assert button(viewer, "next").get("disabled") and button(viewer, "last").get("disabled")
    # Back to the start, and from the menu to a turn in the middle.
    await watcher.click(viewer, custom_id=button(viewer, "first")["custom_id"])
    assert f"turn 1 of {count}" in now_shown(world, viewer).content
    await watcher.click(now_shown(world, viewer), custom_id=button(now_shown(world, viewer), "last")["custom_id"])
    assert f"turn {count} of {count}" in now_shown(world, viewer).content
    await watcher.click(now_shown(world, viewer), custom_id=button(now_shown(world, viewer), "prev")["custom_id"])
    assert f"turn {count - 1} of {count}" in now_shown(world, viewer).content
    viewer = now_shown(world, viewer)
    menu = next(c for c in components(viewer) if c["type"] == 3)
    middle = menu["options"][len(menu["options"]) // 2]["value"]
    await watcher.select(viewer, [middle], custom_id=menu["custom_id"])
    assert f"turn {middle} of {count}" in now_shown(world, viewer).content
    # Nothing was posted for everyone, and the game did not change.
    assert thread.history()[-1].id == final.id
    assert world.env.errors == []


@pytest.mark.slow
async def test_the_whole_game_animated_is_a_looping_gif_one_frame_per_turn_under_8_mib(world):
    game_id = await finished_in_store(world)
    turns = len(split_turns(await world.store.match_decisions(game_id)))
    opened = await world.members[0].slash(world.channel, "games replay", game=game_id)
    viewer = reply(opened)
    film = await world.members[0].click(viewer, custom_id=button(viewer, "film")["custom_id"])
    assert film.ephemeral
    sent = reply(film)
    assert attachments(sent) == [f"kokeshi-{game_id}-replay.gif"]
    data = await picture(sent)
    assert len(data) < MAX_BYTES
    with Image.open(io.BytesIO(data)) as img:
        assert img.format == "GIF" and img.is_animated
        assert img.n_frames == turns and img.info.get("loop") == 0
        assert img.width == 600
    # Asked again, the same file, from memory.
    again = await world.members[0].click(viewer, custom_id=button(viewer, "film")["custom_id"])
    assert await picture(reply(again)) == data


@pytest.mark.slow
async def test_what_reaches_the_animation_worker_is_public_views_only(world):
    game_id = await finished_in_store(world)
    # At the platform's table the animation is drawn from the game's film: a spectator's view after every turn.
    filmed = await match_film(world.store, await world.store.get_game(game_id))
    assert len(filmed.steps) == len(split_turns(await world.store.match_decisions(game_id)))
    row = await world.store._one(
        "SELECT COALESCE(seed_text, CAST(seed AS TEXT)) AS seed FROM games WHERE id = ?", (game_id,)
    )
    seed = row["seed"]
    assert seed and len(seed) > 6
    for view, _names, events in filmed.steps:
        sent = json.dumps([view, [e.to_dict() for e in events]])
        assert '"seed"' not in sent and '"rng"' not in sent
        assert isinstance(view["bag"], int)  # how many tiles are left, never which or in what order
    assert seed not in json.dumps([view for view, _names, _events in filmed.steps])


@pytest.mark.slow
async def test_games_replay_defaults_to_your_last_finished_game_and_offers_it(world):
    game_id = await finished_in_store(world)
    opened = await world.members[1].slash(world.channel, "games replay")
    assert opened.ephemeral and f"Replay of Kokeshi #{game_id}" in reply(opened).content
    offered = await world.members[1].autocomplete(world.channel, "games replay", "game", "")
    assert [c["value"] for c in offered] == [game_id]


async def test_a_replay_of_a_game_that_does_not_exist_or_is_not_over_is_refused_privately_and_changes_nothing(world):
    game_id, thread = await open_game(world, players=2)
    before = (len(thread.history()), (await world.store.get_game(game_id)).version)
    missing = await world.members[0].slash(world.channel, "games replay", game=9999)
    assert missing.ephemeral
    assert "There is no game #9999 in this server" in reply(missing).content
    going = await world.members[0].slash(thread, "games replay", game=game_id)
    assert going.ephemeral and "is not over" in reply(going).content
    nothing = await world.members[0].slash(world.channel, "games replay")
    assert "no finished game" in reply(nothing).content
    assert (len(thread.history()), (await world.store.get_game(game_id)).version) == before
    assert world.env.errors == []


@pytest.mark.slow
async def test_a_replay_viewer_opened_before_a_restart_still_steps_after_it(world, db_path):
    game_id = await finished_in_store(world)
    viewer = reply(await world.members[0].slash(world.channel, "games replay", game=game_id))
    assert "turn 1 of" in viewer.content
    await restart(world, create_bot(db_path))
    stepped = await world.members[0].click(viewer, custom_id=button(viewer, "next")["custom_id"])
    assert stepped.acknowledged and "turn 2 of" in now_shown(world, viewer).content
    assert world.env.errors == []


@pytest.mark.parametrize("count", [1, 7, 25, 26, 48, 64, 130])
def test_the_turn_menu_offers_the_turns_around_the_one_shown_and_the_whole_game_spread_out(count):
    for shown in sorted({s for s in (1, 2, count // 2, count - 1, count) if 1 <= s <= count}):
        offered = menu_turns(shown, count)
        assert offered == sorted(set(offered)) and len(offered) == min(count, MENU_TURNS)
        assert offered[0] == 1 and offered[-1] == count and shown in offered
        # The turns next to the one shown are all there; the others at most a few turns apart.
        near = sorted(range(1, count + 1), key=lambda t: (abs(t - shown), t))[:MENU_NEAR]
        assert set(near) <= set(offered)
        gaps = [b - a for a, b in zip(offered, offered[1:], strict=False)]
        assert max(gaps, default=1) <= count // (MENU_TURNS - MENU_NEAR - 1) + 1


@pytest.mark.slow
async def test_the_viewer_speaks_the_language_of_the_person_watching(world, locales):  # noqa: F811
    game_id = await finished_in_store(world)
    locales[world.members[1].id] = "pt-BR"
    viewer = reply(await world.members[1].slash(world.channel, "games replay", game=game_id))
    assert viewer.content.startswith(f"🎬 **Replay de Kokeshi #{game_id}** · jogada 1 de ")
    labels = [c.get("label") for c in components(viewer) if c["type"] == 2]
    assert labels == ["Primeira", "Anterior", "Próxima", "Última", "A partida inteira, animada"]
    refused = reply(await world.members[1].slash(world.channel, "games replay", game=9999))
    assert refused.content.startswith("Não há")


@pytest.mark.slow
async def test_todays_challenge_is_replayed_by_its_player_and_by_others_only_once_the_day_is_over(world):
    aiko, botan = world.members[:2]
    await aiko.slash(world.channel, "kokeshi daily")
    record = (await world.store.games_in_channel(world.channel.id, statuses=("active",)))[-1]
    assert record.challenge and record.challenge.startswith("daily:")
    await played_in_store(world, record.id)
    mine = reply(await aiko.slash(world.channel, "games replay", game=record.id))
    assert f"Replay of Kokeshi #{record.id}" in mine.content
    # Everyone plays today's draws: someone who has not played must not see them in another's game.
    theirs = reply(await botan.slash(world.channel, "games replay", game=record.id))
    assert "challenge still being played" in theirs.content and not components(theirs)
    await world.env.advance_time(86400)
    tomorrow = reply(await botan.slash(world.channel, "games replay", game=record.id))
    assert f"Replay of Kokeshi #{record.id}" in tomorrow.content
