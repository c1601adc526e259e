"""Profiles through Discord: how a player's games ended, and lobbies that ask for a minimum finish rate."""

from __future__ import annotations

import json

from tests.botkit import lobby_message, new_lobby
from tests.test_bot_matches import reply


async def ended_games(
    world, user_id: int, *, game: str = "kokeshi", finished: int = 0, resigned: int = 0, timed_out: int = 0
) -> None:
    """Games of `game` this user has ended: played to the end, resigned, or left to the AI once their turns ran
    out."""
    endings = [(0, 0)] * finished + [(1, 1)] * resigned + [(1, 0)] * timed_out
    async with world.store._tx() as db:
        row = await db.fetch_one("SELECT COALESCE(MAX(id), 0) AS n FROM games")
        first = max(int(row["n"]), 5000) + 1
        for i, (ai, quit_) in enumerate(endings):
            await db.execute(
                "INSERT INTO games (id, status, players, side, solo, created_at, updated_at, finished_at, game) "
                "VALUES (?, 'finished', 2, 'basic', 0, 0, 0, ?, ?)",
                (first + i, i, game),
            )
            await db.execute(
                "INSERT INTO results (game_id, seat, name, user_id, ai, resigned, rank, total, details, finished_at) "
                "VALUES (?, 0, 'someone', ?, ?, ?, 2, 20, ?, ?)",
                (first + i, user_id, ai, quit_, json.dumps({"animals": 5}), i),
            )


def _fields(embed) -> dict[str, str]:
    return {f["name"]: f["value"] for f in embed.to_dict().get("fields", [])}


async def test_stats_show_the_games_finished_resigned_and_timed_out(world):
    aiko = world.members[0]
    await ended_games(world, aiko.id, finished=3, resigned=1, timed_out=2)
    stats = await aiko.slash(world.channel, "kokeshi stats")
    assert stats.ephemeral
    ended = _fields(stats.response.embeds[0])["Games ended"]
    assert ended == "3 finished · 1 resigned · 2 timed out\nfinish rate 50%"


async def test_a_lobby_asking_for_a_finish_rate_shows_it_and_turns_away_a_joiner_below_it(world):
    host, quitter, regular, newcomer = world.members[:4]
    await ended_games(world, quitter.id, finished=1, resigned=1, timed_out=1)
    await ended_games(world, regular.id, finished=4, timed_out=1)
    game_id, lobby, _ = await new_lobby(world, host, players=4, min_finish=80)
    assert (await world.store.get_game(game_id)).settings["min_finish"] == 80
    assert "players who finish 80% of their games or more" in lobby.content, lobby.content
    before = lobby.content
    refused = await quitter.click(lobby, label="Join")
    assert refused.ephemeral
    assert reply(refused).content == (
        f"Kokeshi #{game_id} is for players who finish at least 80% of their games. You finished 1 of 3 (33%): "
        "1 resigned and 1 timed out. Finish a few more games, or join another lobby."
    )
    assert (await world.store.get_game(game_id)).seat_of(quitter.id) is None
    assert (await lobby_message(world, game_id)).content == before
    # 4 of 5 is 80%: enough. Someone with no game ended yet is welcome too.
    for member in (regular, newcomer):
        joined = await member.click(lobby, label="Join")
        assert "You joined" in reply(joined).content
    assert {s.user_id for s in (await world.store.get_game(game_id)).seats} == {host.id, regular.id, newcomer.id}
    # The slash command asks the same.
    again = await quitter.slash(world.channel, "kokeshi join", game=game_id)
    assert again.ephemeral and "at least 80% of their games" in (again.followups or [again.response])[-1].content


async def test_a_lobby_without_a_finish_rate_takes_anyone_and_says_nothing_of_it(world):
    host, quitter = world.members[:2]
    await ended_games(world, quitter.id, resigned=3)
    game_id, lobby, _ = await new_lobby(world, host, players=2)
    assert "finish" not in lobby.content
    assert "min_finish" not in (await world.store.get_game(game_id)).settings
    joined = await quitter.click(lobby, label="Join")
    assert "You joined" in reply(joined).content
    assert quitter.mention in (await lobby_message(world, game_id)).content
