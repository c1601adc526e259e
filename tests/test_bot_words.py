"""What players read in Discord: status before the first round, the log and stats after a solo game, final scores."""

from __future__ import annotations

from engine import vocab
from tests.botkit import open_game, play_to_end


async def test_status_during_setup_says_setup_not_round_0(world):
    game_id, thread = await open_game(world, players=2)
    aiko = world.members[0]
    listed = await aiko.slash(world.channel, "kokeshi status")
    assert listed.ephemeral and "setup" in listed.response.content
    assert "round 0" not in listed.response.content
    detail = await aiko.slash(thread, "kokeshi status")
    assert f"Kokeshi #{game_id}" in detail.response.content and "setup" in detail.response.content
    assert "round 0" not in detail.response.content


async def test_after_a_solo_game_the_channel_log_shows_it_and_stats_have_no_multiplayer_zeros(world):
    aiko = world.members[0]
    await aiko.slash(world.channel, "kokeshi solo")
    record = (await world.store.games_in_channel(world.channel.id, statuses=("active",)))[0]
    thread = next(t for t in world.channel.threads if t.id == record.thread_id)
    await play_to_end(world, record.id, thread, seed=5)
    assert (await world.store.get_game(record.id)).status == "finished"

    final = thread.history()[-1].content
    scores = (await world.store.load_game(record.id))[0].scores()
    assert vocab.score_line(scores["aiko"]) in final
    for word in vocab.RETIRED_WORDS:
        assert word not in final.lower()

    log = await aiko.slash(world.channel, "kokeshi log", count=3)
    assert log.ephemeral
    last = (await world.store.log(record.id))[-1]
    assert f"`{last.seq:>3}`" in log.response.content
    assert "not in a game" not in log.response.content

    stats = await aiko.slash(world.channel, "kokeshi stats")
    fields = {f["name"]: f["value"] for f in stats.response.embeds[0].to_dict()["fields"]}
    assert "Solo" in fields and fields["Solo"].startswith("1 played")
    assert not {"Games", "Average score", "Rating"} & set(fields), fields
