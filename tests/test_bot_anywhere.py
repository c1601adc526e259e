"""Playing anywhere: the app installs to a user as well as a server; solo games, challenges, stats, the leaderboard,
the rules, help and replays work in the player's DM with the bot, and multiplayer commands refuse there, saying
where they work."""

from __future__ import annotations

import random

import pytest

import games
from bot import create_bot
from games.kokeshi.engine import GreedyPolicy, policy
from tests import ai_work
from tests.botkit import message_in, restart, texts
from tests.test_bot_matches import choose, finished_match

GUILD, BOT_DM, PRIVATE_CHANNEL = 0, 1, 2
GUILD_INSTALL, USER_INSTALL = 0, 1


def synced(env) -> list[dict]:
    puts = [r for r in env.http_requests if r.method == "PUT" and r.path.endswith("/commands")]
    return puts[-1].json


def last(result):
    """The last private answer of a command (the first follow-up takes the place of "thinking…")."""
    return result.followups[-1] if result.followups else result.response


def shown(message) -> str:
    """Everything a message says: its content and its embeds."""
    return " ".join([message.content, *(str(e.to_dict()) for e in message.embeds)])


def reply(result) -> str:
    message = last(result)
    return message.content if message is not None else ""


async def test_both_groups_install_to_servers_and_users_and_answer_in_dms(world):
    roots = {c["name"]: c for c in synced(world.env)}
    for name in ("kokeshi", "games"):
        assert sorted(roots[name]["integration_types"]) == [GUILD_INSTALL, USER_INSTALL]
        assert sorted(roots[name]["contexts"]) == [GUILD, BOT_DM, PRIVATE_CHANNEL]
    user = world.members[0].user
    shown = user.available_commands()
    for command in ("kokeshi solo", "kokeshi daily", "kokeshi weekly", "kokeshi stats", "kokeshi leaderboard"):
        assert command in shown
    assert "games replay" in shown and "kokeshi rules" in shown and "kokeshi help" in shown


@pytest.fixture
def quick_hints(monkeypatch):
    """Kokeshi's hints at the platform's table on the tests' small budget, as its own table's are in the tests
    (`tests.ai_work`): the strongest level's full search is slow on a busy machine."""
    module = games.get("kokeshi")

    def advise(match, seat: int, level: str, seed: int) -> tuple[str, float | None]:
        assert seat in match.waiting()
        hint = policy(level, seed=seed, budget=None if level == "easy" else ai_work.BUDGET).explain(match.engine)
        return str(hint.action), float(hint.gain)

    monkeypatch.setattr(module, "advise", advise)
    return module


async def play_in_dm(w, user, game_id: int, seed: int = 0) -> int:
    """Answer every prompt of a game shown in the player's DM through its buttons and menus (the platform's: a
    button, an entry of a menu, or a tile from the groups' menu then its track on the private message it opens)."""
    rng = random.Random(seed)
    for count in range(3000):
        if (await w.store.get_game(game_id)).status != "active":
            return count
        found = await w.store.get_message(game_id, "prompt")
        assert found is not None and found[0] == user.dm_channel.id
        message = message_in(user.dm_channel, found[1])
        assert message.content.startswith("Your turn:") or "\nYour turn:" in message.content, message.content
        result = await choose(user, message, rng)
        assert result.acknowledged
    raise AssertionError("the game did not end")


async def played_in_store(w, game_id: int, seed: int = 3) -> int:
    """The game played to its end straight through the store (nothing is posted), the greedy policy deciding for the
    seat the game waits for; its id."""
    policy = GreedyPolicy(seed)
    while True:
        match, version, record = await w.store.load_match(game_id)
        if record.status != "active":
            return game_id
        await w.store.play_match(game_id, version, match.waiting()[0], str(policy.choose(match.engine)))


@pytest.mark.slow  # a whole game through SimCord
async def test_a_solo_game_is_played_in_the_dm_itself_to_its_final_message(world):
    user = world.members[0].user
    # Turn DMs asked for: a game in the DM still sends none, its prompt is that DM.
    assert "DM you" in reply(await user.slash("kokeshi notify on"))
    started = await user.slash("kokeshi solo")
    assert started.ephemeral and "Your solo game has started" in reply(started)
    [record] = await world.store.games_for_user(user.id)
    dm = user.dm_channel
    # No server and no thread: the DM is the game's place.
    assert record.guild_id is None and record.channel_id == dm.id == record.thread_id
    assert f"/channels/@me/{dm.id}" in reply(started)
    # Its start, then the first turn's prompt, the game's own buttons on it.
    shown = texts(dm)
    assert any(t.startswith(f"<@{user.id}> starts a solo game: **Kokeshi #{record.id}**") for t in shown), shown
    assert any(t.startswith(f"Your turn: <@{user.id}>.") for t in shown), shown
    # Nor does the daily digest list it.
    assert await world.bot.tables.digests.waiting(user.id) == []
    await play_in_dm(world, user, record.id)
    record = await world.store.get_game(record.id)
    assert record.status == "finished"
    # The final message, with its picture, is the DM's last.
    final = dm.history()[-1]
    assert f"**Kokeshi #{record.id} is over.**" in final.content and final.attachments
    # Against the automa: its score under the player's, and who won.
    assert "automa — **" in final.content, final.content
    assert "You beat the automa! 🎉" in final.content or "The automa wins this time." in final.content
    # Its Replay button opens the replay privately, in the DM.
    replay = await user.click(final, label="Replay")
    assert replay.ephemeral and replay.acknowledged
    # The game's own messages are in the DM: no separate DM about the player's turn.
    assert not any("Your turn in Kokeshi" in t for t in texts(dm))


@pytest.mark.slow  # a whole game through SimCord
@pytest.mark.parametrize("kind", ["daily", "weekly"])
async def test_the_challenges_start_in_the_dm(world, kind):
    user = world.members[1].user
    started = await user.slash(f"kokeshi {kind}")
    assert "has started" in reply(started), reply(started)
    [record] = await world.store.games_for_user(user.id)
    assert record.guild_id is None and record.challenge.startswith(kind)
    assert any(f"{kind} challenge" in t for t in texts(user.dm_channel))
    if kind == "daily":
        # Played to the end, its result is shared with the Share button, in the DM it was played in.
        await play_in_dm(world, user, record.id, seed=2)
        final = user.dm_channel.history()[-1]
        shared = await user.click(final, label="Share")
        assert shared.acknowledged
        assert user.dm_channel.history()[-1].id != final.id and user.dm_channel.history()[-1].attachments


@pytest.mark.slow  # a whole game, played through the store
async def test_stats_leaderboard_rules_help_and_replay_answer_privately_in_the_dm(world):
    user = world.members[0].user
    await user.slash("kokeshi solo")
    [record] = await world.store.games_for_user(user.id)
    await played_in_store(world, record.id, seed=3)
    assert (await world.store.get_game(record.id)).status == "finished"
    stats = await user.slash("kokeshi stats")
    assert stats.ephemeral
    embed = last(stats).embeds[0]
    rating = [f for f in embed.fields if f.name == "Rating"]
    assert all("this server" not in f.value for f in rating)
    board = await user.slash("kokeshi leaderboard")
    assert board.ephemeral and "the world" in shown(last(board)), shown(last(board))
    asked = await user.slash("kokeshi leaderboard", scope="server")
    assert "no server board here" in (asked.response.content + " ".join(m.content for m in asked.followups))
    rules = await user.slash("kokeshi rules")
    assert rules.ephemeral and last(rules).attachments
    helped = await user.slash("kokeshi help")
    assert helped.ephemeral and "Kokeshi" in helped.response.content
    # The whole help, in messages within Discord's limit: the last part says where Kokeshi plays.
    parts = [helped.response, *helped.followups]
    assert all(len(m.content) <= 2000 for m in parts)
    assert "**Anywhere**" in parts[-1].content and all(m.flags.ephemeral for m in parts)
    replay = await user.slash("games replay")
    assert replay.ephemeral and f"#{record.id}" in shown(last(replay)) + str(last(replay).components)


@pytest.mark.parametrize(
    ("command", "options"),
    [
        ("kokeshi new", {}),
        ("kokeshi join", {}),
        ("kokeshi leave", {}),
        ("kokeshi start", {}),
        ("games settings limits", {}),
        ("games settings away-days", {}),
        ("games rejoin", {}),
    ],
)
async def test_multiplayer_and_server_settings_refuse_privately_in_a_dm_saying_where_they_work(world, command, options):
    user = world.members[0].user
    before = len(user.dm_channel.history())
    refused = await user.slash(command, **options)
    assert refused.ephemeral
    assert f"`/{command}` works only in a server channel where Kokeshi is installed" in reply(refused)
    # Nothing changed: no game, no message in the DM.
    assert await world.store.games_for_user(user.id) == []
    assert len(user.dm_channel.history()) == before


async def test_the_same_commands_still_work_in_a_server(world):
    member = world.members[0]
    opened = await member.slash(world.channel, "kokeshi new")
    assert "is open" in reply(opened)
    [record] = await world.store.games_for_user(member.id)
    assert record.guild_id == world.guild.id


async def elsewhere(w):
    """A member in a server the bot is not in, as where only the player installed the app: the bot knows nothing
    of that server (SimCord adds the bot to every server, so the bot is made to forget it)."""
    other = w.env.create_guild("Elsewhere")
    channel = other.create_text_channel("general")
    member = other.add_member(w.members[0].user)
    w.bot._connection._remove_guild(w.bot.get_guild(other.id))
    assert w.bot.get_guild(other.id) is None
    return member, channel


@pytest.mark.parametrize("command", ["kokeshi solo", "kokeshi daily"])
async def test_from_a_server_without_the_bot_the_game_starts_in_the_dm_with_a_link(world, command):
    member, channel = await elsewhere(world)
    started = await member.slash(channel, command)
    assert started.ephemeral
    [record] = await world.store.games_for_user(member.id)
    dm = member.user.dm_channel
    assert record.guild_id is None and record.thread_id == dm.id
    assert f"so your game is in our DM: [Kokeshi #{record.id}](https://discord.com/channels/@me/{dm.id})" in reply(
        started
    )
    # Nothing posted in that server; the game is in the DM.
    assert channel.history() == []
    assert any(t.startswith(f"Your turn: <@{member.id}>.") for t in texts(dm)), texts(dm)


@pytest.mark.slow
async def test_another_games_stats_answer_privately_in_the_dm(world):
    user = world.members[0].user
    await finished_match(world, "kohaku", world.members[:1], seed=4)
    asked = await user.slash("games stats", game="kohaku")
    assert asked.ephemeral and "aiko at Kōhaku" in shown(last(asked))
    assert user.dm_channel.history() == []


async def test_from_a_server_without_the_bot_a_lobby_is_refused_and_stats_answer_privately(world):
    member, channel = await elsewhere(world)
    refused = await member.slash(channel, "kokeshi new")
    assert refused.ephemeral and "works only in a server channel where Kokeshi is installed" in reply(refused)
    stats = await member.slash(channel, "kokeshi stats")
    assert stats.ephemeral and last(stats).embeds
    assert await world.store.games_for_user(member.id) == []
    assert channel.history() == []


async def test_the_refusal_names_the_command_in_the_players_language(world):
    from cogs.anywhere import command_name

    assert command_name("kokeshi new", "pt-BR") == "kokeshi novo"
    assert command_name("kokeshi new", "en-US") == "kokeshi new"


@pytest.mark.slow  # a whole game through SimCord
async def test_a_game_in_the_dm_goes_on_after_a_restart_and_answers_its_commands_there(world, db_path):
    user = world.members[2].user
    await user.slash("kokeshi solo")
    [record] = await world.store.games_for_user(user.id)
    await restart(world, create_bot(db_path))
    # The bot no longer holds the DM channel: it finds it again and posts the game there to its end.
    status = await user.slash("kokeshi status")
    assert status.ephemeral and f"Kokeshi #{record.id}" in reply(status) and "your turn" in reply(status)
    table = await user.slash("kokeshi table")
    assert table.ephemeral and last(table).attachments
    await play_in_dm(world, user, record.id, seed=5)
    assert (await world.store.get_game(record.id)).status == "finished"
    assert f"**Kokeshi #{record.id} is over.**" in user.dm_channel.history()[-1].content


@pytest.mark.usefixtures("quick_hints")
@pytest.mark.slow
async def test_the_commands_about_a_game_in_the_dm_work_there(world):
    user = world.members[3].user
    await user.slash("kokeshi solo")
    [record] = await world.store.games_for_user(user.id)
    hint = await user.slash("kokeshi hint")
    assert hint.ephemeral and "Hint for Kokeshi" in reply(hint) + hint.response.content, reply(hint)
    away = await user.slash("games away", duration="1d")
    assert away.ephemeral and "away until" in reply(away), reply(away)
    assert "back" in reply(await user.slash("games back")).lower()
    cancelled = await user.slash("kokeshi cancel")
    assert f"Kokeshi #{record.id} is cancelled" in reply(cancelled)
    assert (await world.store.get_game(record.id)).status == "cancelled"
    assert "was cancelled" in user.dm_channel.history()[-1].content


async def test_a_server_game_named_in_the_dm_is_refused_there_saying_what_the_dm_knows(world):
    member = world.members[0]
    await member.slash(world.channel, "kokeshi new")
    [record] = await world.store.games_for_user(member.id)
    refused = await member.user.slash("kokeshi table", game=record.id)
    assert refused.ephemeral
    assert f"There is no game #{record.id} in our DM: here I know the games played in it." in reply(refused)
