"""Where only the player installed the app: a group DM, and a server the bot is not in. Discord lets the app answer
the interaction there and nothing more (no message in the channel, no thread, at most five follow-ups), so every
command allowed there answers through the interaction alone, the games it starts wait in the player's DM with the
bot, and the multiplayer commands refuse privately, saying where they work.

SimCord sends every interaction as if from a guild or from the bot's DM, with no installation owners; here the
interaction is the one Discord sends from those places: context 2 (a private channel) with the group DM as its
channel, or context 0 from a guild the bot is not in, both authorized by the user's install only.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import discord
import pytest
import simcord.interactions
from simcord.backend import serializers

from tests.test_bot_anywhere import elsewhere, last, played_in_store, quick_hints, shown  # noqa: F401  (a fixture)
from tests.test_bot_matches import finished_match, open_table, play_through

GROUP_DM_TYPE = 3
PRIVATE_CHANNEL = 2
USER_INSTALL = "1"
GROUP_DM_ID = 990_000_000_000_000_001
# What Discord gives an app in a channel it was not added to: attaching files and embedding links in its answers.
PRIVATE_PERMISSIONS = discord.Permissions(attach_files=True, embed_links=True, mention_everyone=True).value
# Discord's limit of follow-ups to one interaction of a user-installed app.
FOLLOWUPS = 5
ALLOWED = (
    "kokeshi solo", "kokeshi daily", "kokeshi weekly", "kokeshi stats", "kokeshi leaderboard", "games replay",
    "kokeshi rules", "kokeshi help", "games status",
)  # fmt: skip
MULTIPLAYER = (
    ("kokeshi new", {}), ("kokeshi join", {}), ("kokeshi leave", {}), ("kokeshi start", {}),
    ("games new", {"game": "kohaku"}), ("games settings limits", {}),
    ("games rejoin", {}),
)  # fmt: skip


@dataclass
class Place:
    """Where the player uses a command: `slash`, `autocomplete` and `click` reach the bot as Discord sends them from
    there."""

    kind: str
    world: Any
    user: Any  # the SimCord user
    actor: Any  # who invokes: the user (a group DM) or their member of the other server
    channel_id: int
    guild_id: int | None
    channel: Any = None  # the server's channel, to read what it holds
    here: bool = field(default=False)

    async def slash(self, name: str, **options: Any):
        with self.inside():
            if self.channel is None:
                return await self.actor.slash(name, **options)
            return await self.actor.slash(self.channel, name, **options)

    async def autocomplete(self, name: str, option: str, value: str, **filled: Any) -> list[dict[str, Any]]:
        with self.inside():
            if self.channel is None:
                return await self.actor.autocomplete(name, option, value, **filled)
            return await self.actor.autocomplete(self.channel, name, option, value, **filled)

    async def click(self, message, **how: Any):
        with self.inside():
            return await self.actor.click(message, **how)

    @contextlib.contextmanager
    def inside(self) -> Iterator[None]:
        self.here = True
        try:
            yield
        finally:
            self.here = False

    def reshape(self, payload: dict[str, Any], user_id: int) -> None:
        """The interaction as Discord sends it from this place."""
        if not self.here or user_id != self.user.id:
            return
        payload["authorizing_integration_owners"] = {USER_INSTALL: str(self.user.id)}
        payload["app_permissions"] = str(PRIVATE_PERMISSIONS)
        if self.kind == "group DM":
            backend = self.world.env.backend
            friend = self.world.members[1].user
            payload["context"] = PRIVATE_CHANNEL
            payload["channel_id"] = str(GROUP_DM_ID)
            payload["channel"] = {
                "id": str(GROUP_DM_ID),
                "type": GROUP_DM_TYPE,
                "name": "game night",
                "icon": None,
                "owner_id": str(friend.id),
                "recipients": [serializers.user_payload(backend.get_user(u.id)) for u in (self.user, friend)],
            }

    def touched(self, request) -> bool:
        """Whether a request of the bot's reaches into this place (its channel, its server, or any thread)."""
        marks = [str(self.channel_id)] + ([str(self.guild_id)] if self.guild_id is not None else [])
        return any(mark in request.path for mark in marks) or "/threads" in request.path


@pytest.fixture(params=["group DM", "server without the bot"])
async def place(request, world, monkeypatch) -> Place:
    user = world.members[0].user
    if request.param == "group DM":
        found = Place("group DM", world, user, user, GROUP_DM_ID, None)
    else:
        member, channel = await elsewhere(world)
        found = Place("server without the bot", world, user, member, channel.id, member.guild.id, channel)
    original = simcord.interactions.base_payload

    def base_payload(backend, **given):
        record, payload = original(backend, **given)
        found.reshape(payload, given["user_id"])
        return record, payload

    monkeypatch.setattr(simcord.interactions, "base_payload", base_payload)
    return found


@contextlib.contextmanager
def only_the_interaction(place: Place) -> Iterator[None]:
    """What the bot does inside the block reaches nothing of the place but the interaction's own answers."""
    env = place.world.env
    before = len(env.http_requests)
    yield
    made = env.http_requests[before:]
    reached = [f"{r.method} {r.path}" for r in made if place.touched(r)]
    assert reached == [], f"the bot reached into the {place.kind}: {reached}"
    if place.channel is not None:
        assert place.channel.history() == []


def private_answer(result) -> str:
    """The command's whole answer: acknowledged, seen only by the player, within the follow-ups Discord allows."""
    assert result.acknowledged
    assert result.ephemeral
    assert len(result.followups) <= FOLLOWUPS
    return " ".join(shown(m) for m in [result.response, *result.followups] if m is not None)


@pytest.mark.parametrize("kind", ["solo", "daily", "weekly"])
async def test_a_game_started_there_waits_in_our_dm_and_the_place_gets_only_the_answer(place, kind):
    world, user = place.world, place.user
    with only_the_interaction(place):
        started = await place.slash(f"kokeshi {kind}")
        said = private_answer(started)
    [record] = await world.store.games_for_user(user.id)
    dm = user.dm_channel
    assert record.guild_id is None and record.thread_id == dm.id == record.channel_id
    assert f"so your game is in our DM: [Kokeshi #{record.id}](https://discord.com/channels/@me/{dm.id})" in said
    # The game itself is in the DM: its start, and the prompt of the first turn.
    assert dm.history() and any(m.content.startswith(f"Your turn: <@{user.id}>.") for m in dm.history()), [
        m.content for m in dm.history()
    ]


async def test_another_games_challenge_started_there_waits_in_our_dm_too(place):
    world, user = place.world, place.user
    with only_the_interaction(place):
        started = await place.slash("games challenge", game="kohaku", kind="daily")
        said = private_answer(started)
    [record] = await world.store.games_for_user(user.id)
    dm = user.dm_channel
    assert record.guild_id is None and record.thread_id == dm.id == record.channel_id and not record.named_log
    assert f"so your game is in our DM: [Kōhaku #{record.id}](https://discord.com/channels/@me/{dm.id})" in said
    assert any("your turn" in m.content.lower() for m in dm.history())


async def test_stats_and_the_world_leaderboard_answer_there_privately(place):
    with only_the_interaction(place):
        stats = await place.slash("kokeshi stats")
        private_answer(stats)
        # No server's rating where the bot is in no server.
        assert last(stats).embeds and "this server" not in shown(last(stats))
        board = await place.slash("kokeshi leaderboard")
        assert "the world" in private_answer(board)
        server = await place.slash("kokeshi leaderboard", scope="server")
        assert "no server board here" in private_answer(server)


@pytest.mark.usefixtures("bids")
async def test_another_games_board_there_is_the_worlds(place):
    """Not the board of a server the bot is not in (it has none): the world's, as in our DM."""
    world = place.world
    game_id, thread = await open_table(world, "bids", players=2, joiners=1)
    await play_through(world, game_id, thread, random.Random(2))
    with only_the_interaction(place):
        board = private_answer(await place.slash("games leaderboard", game="bids"))
    assert "Bids" in board and board.count("<@") == 2, board


@pytest.mark.usefixtures("bids")
async def test_another_games_stats_answer_there_privately_with_the_worlds_rating_alone(place):
    world = place.world
    await finished_match(world, "bids", world.members[:2], seed=5)
    with only_the_interaction(place):
        asked = await place.slash("games stats", game="bids")
        said = private_answer(asked)
    assert "aiko at Bids" in said
    rating = {f.name: f.value for f in last(asked).embeds[0].fields}["Rating"]
    assert rating.startswith("world ") and "this server" not in rating


async def test_the_rules_answer_there_with_their_picture(place):
    with only_the_interaction(place):
        rules = await place.slash("kokeshi rules")
        private_answer(rules)
        assert last(rules).attachments


async def test_the_whole_help_answers_there_within_the_follow_ups_allowed(place):
    with only_the_interaction(place):
        helped = await place.slash("kokeshi help")
        said = private_answer(helped)
    assert "**Anywhere**" in said


@pytest.mark.slow  # a whole game stepped through, turn by turn, inside one answer
async def test_a_replay_opens_there_and_steps_to_the_end_inside_the_answer(place):
    world, user = place.world, place.user
    await user.slash("kokeshi solo")  # in our DM
    [record] = await world.store.games_for_user(user.id)
    await played_in_store(world, record.id, seed=4)
    assert (await world.store.get_game(record.id)).status == "finished"
    with only_the_interaction(place):
        replay = await place.slash("games replay", game=record.id)
        said = private_answer(replay)
        assert f"#{record.id}" in said + str(last(replay).components)
        viewer = last(replay)
        stepped = await place.click(viewer, label="Next")
        assert stepped.acknowledged
        ended = await place.click(viewer, label="Last")
        assert ended.acknowledged


@pytest.mark.usefixtures("quick_hints")
@pytest.mark.slow
async def test_the_commands_about_a_game_in_our_dm_reach_it_from_there(place):
    """A game started there lives in our DM: asked about from there, it is the one found, and answered about."""
    world, user = place.world, place.user
    await place.slash("kokeshi solo")
    [record] = await world.store.games_for_user(user.id)
    with only_the_interaction(place):
        status = private_answer(await place.slash("kokeshi status"))
        assert f"Kokeshi #{record.id}" in status and "your turn" in status
        table = await place.slash("kokeshi table")
        assert f"The table of Kokeshi #{record.id}" in private_answer(table) and last(table).attachments
        assert f"The table of Kokeshi #{record.id}" in private_answer(
            await place.slash("kokeshi table", game=record.id)
        )
        assert f"Hint for Kokeshi #{record.id}" in private_answer(await place.slash("kokeshi hint"))
        assert f"Nothing has happened in Kokeshi #{record.id} yet." in private_answer(await place.slash("kokeshi log"))
        assert f"Kokeshi #{record.id} muted" in private_answer(await place.slash("kokeshi notify mute"))
        offered = await place.autocomplete("kokeshi table", "game", "")
        assert [c["value"] for c in offered] == [record.id]


async def test_every_game_of_every_kind_is_listed_there_with_links_and_its_server(place):
    """`/games status` lists the games of every server and of our DM, privately, touching nothing of the place."""
    world, user = place.world, place.user
    aiko = world.members[0]
    await place.slash("kokeshi solo")  # waits in our DM
    await aiko.slash(world.channel, "games new", game="kohaku", players=2, ai=1, level="easy")
    kohaku = next(g for g in await world.store.games_for_user(user.id) if g.game == "kohaku")
    with only_the_interaction(place):
        said = private_answer(await place.slash("games status"))
    assert said.startswith("**Your games** · your turn in 2"), said
    assert f"<#{kohaku.thread_id}> in Kokeshi Club — **your turn**" in said
    assert "](https://discord.com/channels/@me/" in said and "Kokeshi #" in said


async def test_a_server_game_or_lobby_is_out_of_reach_from_there_and_the_refusal_says_what_is_within(place):
    world, user = place.world, place.user
    aiko, botan = world.members[0], world.members[1]
    await aiko.slash(world.channel, "kokeshi new")
    await botan.slash(world.channel, "kokeshi new")
    server_games = {g.id for m in (aiko, botan) for g in await world.store.games_for_user(m.id)}
    mine = next(g.id for g in await world.store.games_for_user(aiko.id))
    with only_the_interaction(place):
        refused = private_answer(await place.slash("kokeshi table", game=mine))
        assert f"Here I know only the games played in our DM, and #{mine} is not one of them." in refused
        none = private_answer(await place.slash("kokeshi hint"))
        assert "You have no game in our DM. `/kokeshi solo`, `/kokeshi daily` or `/kokeshi weekly` starts one" in none
        # Nor does the game option offer another server's game or lobby.
        offered = {c["value"] for c in await place.autocomplete("kokeshi table", "game", "")}
        assert offered.isdisjoint(server_games), offered
    assert user.dm_channel.history() == []


@pytest.mark.parametrize(("command", "options"), MULTIPLAYER)
async def test_multiplayer_commands_refuse_there_privately_saying_where_they_work(place, command, options):
    world, user = place.world, place.user
    with only_the_interaction(place):
        refused = await place.slash(command, **options)
        said = private_answer(refused)
    assert f"`/{command}` works only in a server channel where Kokeshi is installed" in said
    assert await world.store.games_for_user(user.id) == []
    assert user.dm_channel.history() == []


@pytest.mark.slow
async def test_every_allowed_command_reaches_the_bot_as_from_that_place(place):
    """The reshaped interaction is what the bot reads: a user install, and the group DM or the other server."""
    seen: list[discord.Interaction] = []
    bot = place.world.bot

    async def note(interaction: discord.Interaction) -> None:
        seen.append(interaction)

    bot.add_listener(note, "on_interaction")
    try:
        for command in ALLOWED:
            await place.slash(command)
    finally:
        bot.remove_listener(note, "on_interaction")
    assert len(seen) == len(ALLOWED)
    for interaction in seen:
        assert interaction.is_user_integration() and not interaction.is_guild_integration()
        if place.kind == "group DM":
            assert interaction.context.private_channel and isinstance(interaction.channel, discord.GroupChannel)
            assert interaction.guild_id is None
        else:
            assert interaction.context.guild and interaction.guild_id == place.guild_id
            assert bot.get_guild(place.guild_id) is None
