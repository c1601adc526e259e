"""A game read back from its thread: a record of every finished turn, and pings that say what happened since."""

from __future__ import annotations

import re

from cogs.narration import escape, split_turns
from tests.botkit import open_game, play_to_end


def records(thread, game_id: int) -> list:
    return [m for m in thread.history() if any(f"kokeshi-{game_id}-turn-" in a.filename for a in m.attachments)]


async def test_every_finished_turn_leaves_a_record_with_its_purchases_placements_and_picture(world):
    game_id, thread = await open_game(world, players=3)
    await play_to_end(world, game_id, thread, seed=11)
    turns, unfinished = split_turns(await world.store.log(game_id))
    assert not unfinished
    posted = records(thread, game_id)
    assert len(posted) == len(turns) > 20
    for turn, message in zip(turns, posted, strict=True):
        player = turn[0].player
        assert message.content.startswith(f"**{escape(player)}** · ")
        assert re.search(r" · [+-]\d+ → -?\d+ points?", message.content.splitlines()[0])
        for event in (e for entry in turn for e in entry.events):
            if event.kind in ("tile_bought", "tile_placed", "quality_bought"):
                assert escape(event.text)[len(escape(player)) :] in message.content, (event.text, message.content)
    # The final picture comes after the last record; nothing else was lost in between.
    assert "is over!" in thread.history()[-1].content


async def test_each_your_turn_ping_lists_the_turns_since_that_players_last_one(world):
    game_id, thread = await open_game(world, players=3)
    await play_to_end(world, game_id, thread, seed=12)
    posts = [r.json for r in world.env.http_requests if r.method == "POST" and r.path.endswith(f"{thread.id}/messages")]
    pings = [p for p in posts if p and "since your last turn" in p.get("content", "")]
    assert len(pings) > 20
    names = [m.user.name for m in world.members[:3]]
    for body in pings:
        content = body["content"]
        first = content.splitlines()[0]
        pinged = next(n for n in names if first.startswith(f"<@{world.member(n).id}> — since your last turn: "))
        since = first
        assert content.splitlines()[1].startswith("**Your turn:** ")
        others = [n for n in names if n != pinged]
        # Both other players had a turn since (in setup, those who already placed their tiles).
        assert any(re.search(rf"\b{o} [+-]\d+", since) for o in others), since
        assert len(since) < 400, "short enough for a lock screen"


def test_the_since_line_stays_short_however_long_the_turns_were():
    from cogs.narration import MAX_SINCE_CHARS, since_last_turn

    long_turn = "Chiyo +12: " + "; ".join(["buys a tile (blue: Fisherman or Samurai) for the Fisherman track"] * 6)
    line = since_last_turn([long_turn] * 5)
    assert len(line) < MAX_SINCE_CHARS + 60, line
    assert line.count("Chiyo") >= 1 and "earlier turn" in line and "…" in line
    short = since_last_turn(["Aiko +3: climbs", "Botan +0"])
    assert short == "since your last turn: Aiko +3: climbs · Botan +0"
