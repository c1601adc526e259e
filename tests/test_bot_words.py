"""What players read in Discord: status before the first round, the log and stats after a solo game, final scores."""

from __future__ import annotations

import pytest

from games.kokeshi import vocab
from tests.botkit import load_game, open_game, play_to_end


async def test_status_during_setup_says_setup_not_round_0(world):
    game_id, thread = await open_game(world, players=2)
    aiko = world.members[0]
    listed = await aiko.slash(world.channel, "kokeshi status")
    assert listed.ephemeral and "setup" in listed.response.content
    assert "round 0" not in listed.response.content
    detail = await aiko.slash(thread, "kokeshi status")
    assert f"Kokeshi #{game_id}" in detail.response.content and "setup" in detail.response.content
    assert "round 0" not in detail.response.content


@pytest.mark.slow
async def test_after_a_solo_game_the_channel_log_shows_it_and_stats_have_no_multiplayer_zeros(world):
    aiko = world.members[0]
    await aiko.slash(world.channel, "kokeshi solo")
    record = (await world.store.games_in_channel(world.channel.id, statuses=("active",)))[0]
    thread = next(t for t in world.channel.threads if t.id == record.thread_id)
    await play_to_end(world, record.id, thread, seed=5)
    assert (await world.store.get_game(record.id)).status == "finished"

    final = thread.history()[-1].content
    assert f"Kokeshi #{record.id} is over." in final
    # The player's score item by item (under the engine's name for the player's seat: the automa sits last).
    game, _version = await load_game(world, record.id)
    assert vocab.score_line(game.scores()[game.names[0]]) in final, final
    for word in vocab.RETIRED_WORDS:
        assert word not in final.lower()

    log = await aiko.slash(world.channel, "kokeshi log", count=3)
    assert log.ephemeral
    last, _seat, _action, _events = (await world.store.match_events(record.id))[-1]
    assert f"`{last:>3}`" in log.response.content
    assert "not in a game" not in log.response.content

    stats = await aiko.slash(world.channel, "kokeshi stats")
    fields = {f["name"]: f["value"] for f in stats.response.embeds[0].to_dict()["fields"]}
    assert "Solo" in fields and fields["Solo"].startswith("1 played")
    assert not {"Games", "Average score", "Rating"} & set(fields), fields


async def test_status_lists_every_game_of_the_player_everywhere_with_links(world):
    game_id, thread = await open_game(world, players=2)
    # A second server where aiko and botan play too.
    env = world.env
    other = env.create_guild("Other Club")
    channel = other.create_text_channel("games")
    there = [other.add_member(m.user) for m in world.members[:2]]
    aiko = world.members[0]
    elsewhere = await there[0].slash(channel, "kokeshi solo")
    assert elsewhere.acknowledged
    solo = (await world.store.games_in_channel(channel.id, statuses=("active",)))[0]
    listed = await aiko.slash(world.channel, "kokeshi status")
    text = listed.response.content
    assert f"<#{thread.id}>" in text and f"<#{solo.thread_id}>" in text
    assert "in Other Club" in text
    # In a game's thread: this game in detail, then the list of every game of the player, aiko's turns first (the
    # solo game's is hers; this one's may be hers or botan's), each with its link.
    detail = await aiko.slash(thread, "kokeshi status")
    text = detail.response.content
    game = await world.store.get_game(game_id)
    mine = game.seat_of(aiko.user.id).seat in (await world.store.load_match(game_id))[0].waiting()
    assert text.startswith(f"**Kokeshi #{game_id}** — basic side, setup\n"), text
    assert f"\n**Your games** · your turn in {2 if mine else 1}\n" in text, text
    assert f"<#{solo.thread_id}> in Other Club — **your turn**" in text
    assert (f"<#{thread.id}> — **your turn**" if mine else f"<#{thread.id}> — waiting for botan") in text, text
    if not mine:
        assert text.index(f"<#{solo.thread_id}>") < text.index(f"<#{thread.id}>")


async def test_a_command_that_needs_a_game_here_links_the_players_games_elsewhere(world):
    game_id, thread = await open_game(world, players=2)
    other = world.env.create_guild("Other Club")
    quiet = other.create_text_channel("quiet")
    aiko_there = other.add_member(world.members[0].user)
    text = (await aiko_there.slash(quiet, "kokeshi undo")).response.content
    assert "You are not in a game here" in text and f"Your games: <#{thread.id}>" in text
