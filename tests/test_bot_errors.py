"""Bad input and missing permissions through Discord: a private reply that says what to do, and nothing changes."""

from __future__ import annotations

import logging
import random

import discord
import pytest

from storage import GameNotFound, StoreRefusal
from tests.botkit import answer, components, load_game, lobby_message, new_lobby, open_game, prompt_message

PERMISSIONS = {
    "send_messages": "Send Messages",
    "create_public_threads": "Create Public Threads",
    "send_messages_in_threads": "Send Messages in Threads",
    "attach_files": "Attach Files",
    "embed_links": "Embed Links",
}


# ---------------------------------------------------------------------- helpers


def private(result) -> str:
    """The text of the reply only the caller sees: the answer itself, or the follow-up of a deferred click."""
    assert result.acknowledged, result
    reply = result.followups[-1] if result.followups else result.response
    assert reply is not None and reply.ephemeral, result
    return reply.content


async def snapshot(w) -> tuple:
    """What a refusal must leave alone: every game's record and log, and every public message and thread."""
    games = []
    game_id = 1
    while True:
        try:
            record = await w.store.get_game(game_id)
        except GameNotFound:
            break
        games.append((record, await moves(w, game_id)))
        game_id += 1
    posts = []
    for channel in w.guild.channels.values():
        if not channel.is_thread:
            for where in (channel, *channel.threads):
                posts.append((where.id, [(m.id, m.content, len(m.components)) for m in where.history()]))
    return games, posts


async def moves(w, game_id: int) -> list[tuple[int, int, str]]:
    """(seq, seat, action) of every decision of a game at the platform's table; none before it is dealt."""
    try:
        return [(seq, seat, action) for seq, seat, action, _events in await w.store.match_events(game_id)]
    except StoreRefusal as refusal:
        assert refusal.code == "not_started", refusal
        return []


async def refused(w, attempt) -> str:
    """Run a slash command or click that must be refused; returns the private reply."""
    before = await snapshot(w)
    text = private(await attempt)
    assert await snapshot(w) == before, f"a refusal changed something: {text!r}"
    return text


async def turn(w, game_id: int):
    """The member to move, and the other seated member (a two-player game)."""
    game, _ = await load_game(w, game_id)
    mover = w.member(game.prompt.player)
    aiko, botan = w.members[:2]
    return mover, (botan if mover is aiko else aiko)


async def open_lobby(w, players: int = 2, joiners: int = 0):
    """`/kokeshi new` by aiko in #kokeshi, then `joiners` more members press Join; returns (game id, lobby)."""
    game_id, lobby, _created = await new_lobby(w, players=players)
    for member in w.members[1 : 1 + joiners]:
        assert "You joined" in private(await member.click(lobby, label="Join"))
    return game_id, lobby


async def choice_of(w, game_id: int, action: str | None = None) -> str:
    """What `/kokeshi play choice:` sends for an action of the current prompt (the first legal one by default)."""
    game, version = await load_game(w, game_id)
    return f"{version}:{action or game.legal_actions()[0]}"


async def at_first_advance(w):
    """A started two-player game whose setup is done: the prompt is to advance a kokeshi, with five buttons."""
    game_id, thread = await open_game(w, players=2)
    rng = random.Random(7)
    for _ in range(4):
        await answer(w, game_id, thread, rng)
    game, _ = await load_game(w, game_id)
    assert game.prompt.kind == "advance"
    return game_id, thread


def deny_bot(w, name: str, *permissions: str):
    """A text channel in which the bot lacks these permissions."""
    overwrite = discord.PermissionOverwrite(**dict.fromkeys(permissions, False))
    return w.guild.create_text_channel(name, overwrites={w.guild.me: overwrite})


# ---------------------------------------------------------------------- /kokeshi new


# A table of people, at Kokeshi's own table and at the platform's (`/games new`).
NEW_TABLES = {"kokeshi new": {"players": 2}, "games new": {"game": "kohaku", "players": 2}}


@pytest.mark.parametrize("command", list(NEW_TABLES))
@pytest.mark.parametrize("permission", list(PERMISSIONS))
async def test_a_new_game_is_refused_where_the_bot_lacks_a_permission(world, permission, command):
    channel = deny_bot(world, "no-" + permission.replace("_", "-"), permission)
    text = await refused(world, world.members[0].slash(channel, command, **NEW_TABLES[command]))
    assert f"I'm missing {PERMISSIONS[permission]}." in text
    assert "Ask a server admin" in text and "use another channel" in text
    with pytest.raises(GameNotFound):
        await world.store.get_game(1)
    assert channel.threads == [] and channel.history() == []


@pytest.mark.parametrize("command", list(NEW_TABLES))
async def test_the_permission_refusal_names_every_missing_permission(world, command):
    channel = deny_bot(world, "bare", "attach_files", "embed_links")
    text = await refused(world, world.members[0].slash(channel, command, **NEW_TABLES[command]))
    assert "I'm missing Attach Files and Embed Links." in text
    assert "Send Messages" not in text


async def test_a_new_game_inside_a_game_thread_is_refused_with_a_link_to_where_it_works(world):
    _, thread = await open_game(world, players=2)
    for command, options in (*NEW_TABLES.items(), ("kokeshi daily", {}), ("kokeshi solo", {})):
        text = await refused(world, world.members[2].slash(thread, command, **options))
        assert text == f"Games start in a text channel, not in a thread: use <#{world.channel.id}>.", command


@pytest.mark.parametrize(("players", "ai"), [(2, 2), (3, 3)])
async def test_a_new_game_with_no_seat_for_a_person_is_refused(world, players, ai):
    text = await refused(world, world.members[0].slash(world.channel, "kokeshi new", players=players, ai=ai))
    assert "At least one seat must be a person's" in text
    assert world.channel.threads == []


# ---------------------------------------------------------------------- join, leave, start, cancel


async def test_joining_where_no_lobby_is_open_is_refused(world):
    text = await refused(world, world.members[1].slash(world.channel, "kokeshi join"))
    assert "There is no open lobby in this channel" in text and "`/kokeshi new`" in text


async def test_joining_a_lobby_you_are_already_seated_in_is_refused(world):
    _, lobby = await open_lobby(world, joiners=1)
    aiko, botan = world.members[:2]
    for attempt in (aiko.slash(world.channel, "kokeshi join"), botan.click(lobby, label="Join")):
        text = await refused(world, attempt)
        assert "You are already seated at this table" in text


async def test_joining_a_full_lobby_is_refused(world):
    _, lobby = await open_lobby(world, players=2, joiners=1)
    chiyo = world.members[2]
    for attempt in (chiyo.click(lobby, label="Join"), chiyo.slash(world.channel, "kokeshi join", game=1)):
        text = await refused(world, attempt)
        assert "This game is full" in text
    assert [s.name for s in (await world.store.get_game(1)).seats] == ["aiko", "botan"]


async def test_joining_a_game_that_has_started_is_refused(world):
    game_id, thread = await open_game(world, players=2)
    chiyo = world.members[2]
    for attempt in (
        chiyo.slash(world.channel, "kokeshi join", game=game_id),
        chiyo.slash(thread, "kokeshi join"),  # in the game's own thread
    ):
        text = await refused(world, attempt)
        assert "This game has already started" in text


async def test_a_join_click_on_a_started_game_is_refused(world):
    game_id, lobby = await open_lobby(world, players=3, joiners=1)
    # The lobby message keeps its buttons if Discord fails the edit made at the start.
    world.env.inject_error("PATCH", f"/channels/{world.channel.id}/messages/{lobby.id}", times=None)
    started = private(await world.members[0].click(lobby, label="Start"))
    record = await world.store.get_game(game_id)
    assert record.status == "active" and record.thread_id is not None
    assert started == f"Kokeshi #{game_id} has started: <#{record.thread_id}>."
    text = await refused(world, world.members[2].click(lobby, label="Join"))
    assert "This game has already started" in text


async def test_leaving_a_lobby_you_are_not_seated_in_is_refused(world):
    _, lobby = await open_lobby(world, players=3, joiners=1)
    chiyo = world.members[2]
    assert "You are not seated at this table" in await refused(world, chiyo.click(lobby, label="Leave"))
    text = await refused(world, chiyo.slash(world.channel, "kokeshi leave"))
    assert "You are not in a game here" in text and "`/kokeshi new`" in text


async def test_the_host_cannot_leave_their_lobby(world):
    _, lobby = await open_lobby(world, joiners=1)
    aiko = world.members[0]
    for attempt in (aiko.click(lobby, label="Leave"), aiko.slash(world.channel, "kokeshi leave")):
        assert "The host cannot leave: cancel the table instead" in await refused(world, attempt)


async def test_leaving_a_started_game_is_refused(world):
    _, thread = await open_game(world, players=2)
    text = await refused(world, world.members[1].slash(thread, "kokeshi leave"))
    assert "This game has already started" in text


async def test_only_the_host_can_start_the_game(world):
    _, lobby = await open_lobby(world, joiners=1)
    botan = world.members[1]
    for attempt in (botan.click(lobby, label="Start"), botan.slash(world.channel, "kokeshi start")):
        assert "Only the host can start the game" in await refused(world, attempt)


async def test_starting_with_too_few_players_is_refused(world):
    _, lobby = await open_lobby(world, players=3)
    text = await refused(world, world.members[0].click(lobby, label="Start"))
    assert "Wait for at least one more player" in text and "AI players" in text


async def test_starting_a_game_that_has_started_is_refused(world):
    game_id, thread = await open_game(world, players=2)
    for channel in (world.channel, thread):
        text = await refused(world, world.members[0].slash(channel, "kokeshi start", game=game_id))
        assert "This game has already started" in text


async def test_cancelling_by_a_player_who_is_not_the_host_is_refused(world):
    game_id, lobby = await open_lobby(world, joiners=1)
    botan, chiyo = world.members[1:3]
    # The lobby's button and `/kokeshi cancel` say it alike.
    for attempt in (
        botan.click(lobby, label="Cancel"),
        botan.slash(world.channel, "kokeshi cancel"),
        chiyo.slash(world.channel, "kokeshi cancel", game=game_id),
    ):
        text = await refused(world, attempt)
        assert "Only the host (or someone with Manage Threads) can cancel this game" in text
    assert (await world.store.get_game(game_id)).status == "lobby"


async def test_a_member_with_manage_threads_may_cancel_a_platform_lobby_with_its_button(world):
    created = await world.members[0].slash(world.channel, "games new", game="kohaku", players=2)
    assert "is open" in private(created)
    game_id = (await world.store.games_in_channel(world.channel.id))[-1].id
    lobby = await lobby_message(world, game_id)
    moderators = world.guild.create_role("Moderators", permissions=discord.Permissions(manage_threads=True))
    moderator = world.guild.add_member(world.env.create_user("eiko"), roles=[moderators])
    # The refusal says who may: the host, or a moderator.
    refusal = private(await world.members[1].click(lobby, label="Cancel"))
    assert refusal == "Only the host (or someone with Manage Threads) can cancel this game.", refusal
    assert (await world.store.get_game(game_id)).status == "lobby"
    assert private(await moderator.click(lobby, label="Cancel")) == "The table is cancelled."
    assert (await world.store.get_game(game_id)).status == "cancelled"


async def test_a_member_with_manage_threads_may_cancel_a_lobby(world):
    game_id, lobby = await open_lobby(world)
    moderators = world.guild.create_role("Moderators", permissions=discord.Permissions(manage_threads=True))
    moderator = world.guild.add_member(world.env.create_user("eiko"), roles=[moderators])
    assert private(await moderator.slash(world.channel, "kokeshi cancel", game=game_id)) == "Kokeshi #1 is cancelled."
    assert (await world.store.get_game(game_id)).status == "cancelled"
    assert components(await lobby_message(world, game_id)) == []  # the lobby lost its buttons


async def test_after_the_host_cancels_the_games_buttons_say_it_was_cancelled(world):
    # Buttons that Discord failed to remove (or that a client still shows) must not revive the game.
    game_id, lobby = await open_lobby(world, joiners=1)
    world.env.inject_error("PATCH", f"/channels/{world.channel.id}/messages/{lobby.id}", times=None)
    aiko, botan = world.members[:2]
    started = private(await aiko.click(lobby, label="Start"))
    record = await world.store.get_game(game_id)
    assert started == f"Kokeshi #{game_id} has started: <#{record.thread_id}>."
    thread = next(t for t in world.channel.threads if t.id == record.thread_id)
    prompt = await prompt_message(world, game_id, thread)
    world.env.inject_error("PATCH", f"/channels/{thread.id}/messages/{prompt.id}", times=None)
    assert private(await aiko.slash(thread, "kokeshi cancel")) == f"Kokeshi #{game_id} is cancelled."
    assert (await world.store.get_game(game_id)).status == "cancelled"
    assert thread.history()[-1].content == f"This game was cancelled by {aiko.mention}."
    menu = components(prompt)[0]
    for member in (aiko, botan):
        text = await refused(world, member.select(prompt, [menu["options"][0]["value"]], custom_id=menu["custom_id"]))
        # The cancel moved the game's version on: the platform refuses the old menu as out of date (the thread's
        # last post says the game was cancelled).
        assert text == "That choice is no longer current: the game has moved on."
    # The platform's lobby says "already started" of any table that is no longer a lobby, a cancelled one too.
    assert "This game has already started" in await refused(world, world.members[2].click(lobby, label="Join"))
    assert await refused(world, aiko.slash(world.channel, "kokeshi cancel", game=game_id)) == "This game is over."


# ---------------------------------------------------------------------- playing by command


async def test_playing_when_not_in_any_game_is_refused(world):
    game_id, _thread = await open_game(world, players=2)
    daichi = world.members[3]
    text = await refused(world, daichi.slash(world.channel, "kokeshi play", choice=await choice_of(world, game_id)))
    assert "You are not in a game here" in text and "`/kokeshi new`" in text


async def test_playing_out_of_turn_is_refused(world):
    game_id, thread = await open_game(world, players=2)
    mover, other = await turn(world, game_id)
    choice = await choice_of(world, game_id)
    for where in (thread, world.channel):
        assert await refused(world, other.slash(where, "kokeshi play", choice=choice)) == (
            f"It's {mover.name}'s turn, not yours."
        )


async def test_a_choice_of_another_kind_of_prompt_is_refused(world):
    game_id, thread = await open_game(world, players=2)
    mover, _ = await turn(world, game_id)
    _, version = await load_game(world, game_id)
    text = await refused(world, mover.slash(thread, "kokeshi play", choice=f"{version}:advance:princess"))
    assert "is not one of your choices now" in text and "pick from the list" in text, text


async def test_placing_by_slash_command_works_and_an_illegal_placement_is_refused(world):
    game_id, thread = await open_game(world, players=2)
    mover, _ = await turn(world, game_id)
    game, version = await load_game(world, game_id)
    # The autocomplete of `play` offers every placement (Discord shows 25 at most; typing narrows them).
    offered = await mover.autocomplete(thread, "kokeshi play", "choice", "")
    legal = [f"{version}:{a}" for a in game.legal_actions()]
    assert [c["value"] for c in offered] == legal[:25] and len(legal) > 5
    tile, track = game.legal_actions()[0].split(":")[1:]
    # Typing narrows the list: what was typed as written first ("Princess track"), then choices with every word.
    wanted = f"{version}:place:{tile}:{track}"
    label = next(c["name"] for c in offered if c["value"] == wanted)
    narrowed = await mover.autocomplete(thread, "kokeshi play", "choice", label.upper())
    assert [c["value"] for c in narrowed] == [wanted]
    on_track = await mover.autocomplete(thread, "kokeshi play", "choice", f"{track} track")
    tiles = {a.split(":")[1] for a in game.legal_actions()}
    assert sorted(c["value"] for c in on_track) == sorted(f"{version}:place:{t}:{track}" for t in tiles)

    placed = await mover.slash(thread, "kokeshi play", choice=wanted)
    assert private(placed) == "Your choice is in."
    seat = (await world.store.get_game(game_id)).seat_of(mover.id).seat
    [entry] = await moves(world, game_id)
    assert entry[1:] == (seat, f"place:{tile}:{track}")

    # The second starting tile goes on another track: the used one is no longer offered...
    game, version = await load_game(world, game_id)
    offered = [c["value"] for c in await mover.autocomplete(thread, "kokeshi play", "choice", "")]
    assert offered == [f"{version}:{a}" for a in game.legal_actions()][:25]
    assert not [v for v in offered if v.endswith(f":{track}")]
    # ...and typing it anyway, or a tile the player does not have, is refused.
    other = next(a for a in game.legal_actions()).split(":")[1]
    for action in (f"place:{other}:{track}", f"place:zz99:{track}", f"place:{other}:daruma"):
        text = await refused(world, mover.slash(thread, "kokeshi play", choice=f"{version}:{action}"))
        assert "is not one of your choices now" in text, (action, text)
    assert await moves(world, game_id) == [entry]


async def test_advancing_by_slash_command_works_and_autocomplete_offers_only_legal_choices(world):
    game_id, thread = await at_first_advance(world)
    mover, _ = await turn(world, game_id)
    game, version = await load_game(world, game_id)
    choices = await mover.autocomplete(thread, "kokeshi play", "choice", "")
    assert [c["value"] for c in choices] == [f"{version}:{a}" for a in game.legal_actions()]
    # Typing narrows the list to the move of that name, though another kokeshi's label may say where it lands
    # beside a Samurai; typed what a move does, the list offers those that do it.
    samurai = await mover.autocomplete(thread, "kokeshi play", "choice", "sam")
    assert [c["value"] for c in samurai] == [f"{version}:advance:samurai"], samurai
    landing = choices[0]["name"].split(" → ")[1]
    does = await mover.autocomplete(thread, "kokeshi play", "choice", landing)
    assert does == [c for c in choices if landing in c["name"]] and does, (landing, does)

    text = await refused(world, mover.slash(thread, "kokeshi play", choice=f"{version}:advance:daruma"))
    assert "is not one of your choices now" in text and "pick from the list" in text, text

    made = len(await moves(world, game_id))
    assert private(await mover.slash(thread, "kokeshi play", choice=choices[0]["value"])) == "Your choice is in."
    seat = (await world.store.get_game(game_id)).seat_of(mover.id).seat
    log = await moves(world, game_id)
    assert log[made][1:] == (seat, choices[0]["value"].split(":", 1)[1])


async def test_autocomplete_offers_nothing_to_a_player_who_is_not_to_move(world):
    game_id, thread = await open_game(world, players=2)
    _, other = await turn(world, game_id)
    outsider = world.members[3]
    for member in (other, outsider):
        assert await member.autocomplete(thread, "kokeshi play", "choice", "") == []
        assert await member.autocomplete(thread, "kokeshi play", "choice", "samurai") == []


# ---------------------------------------------------------------------- table, log, undo, resign, `game`


async def test_the_board_of_an_unknown_player_is_refused(world):
    game_id, thread = await open_game(world, players=2)
    text = await refused(world, world.members[0].slash(thread, "kokeshi table", player="zed"))
    prefix = f"No player called 'zed' in game #{game_id}: "
    assert text.startswith(prefix) and sorted(text.removeprefix(prefix).rstrip(".").split(", ")) == ["aiko", "botan"]


async def test_the_log_of_a_game_without_moves_says_so(world):
    game_id, thread = await open_game(world, players=2)
    text = await refused(world, world.members[1].slash(thread, "kokeshi log"))
    assert text == f"Nothing has happened in Kokeshi #{game_id} yet."


async def test_undo_with_nothing_to_undo_is_refused(world):
    game_id, thread = await open_game(world, players=2)
    mover, _ = await turn(world, game_id)
    assert await refused(world, mover.slash(thread, "kokeshi undo")) == "You have not made a move yet this turn."


async def test_undo_by_a_player_who_is_not_to_move_is_refused(world):
    game_id, thread = await open_game(world, players=2)
    await answer(world, game_id, thread)  # the mover has something to take back, but only they may
    mover, other = await turn(world, game_id)
    text = await refused(world, other.slash(thread, "kokeshi undo"))
    # The platform's words: the other player has made no move this turn (it names nobody).
    assert text == "You have not made a move yet this turn."
    text = await refused(world, world.members[2].slash(thread, "kokeshi undo"))
    assert text == "You are not playing in this game."


async def test_resigning_without_a_seat_is_refused(world):
    game_id, thread = await open_game(world, players=2)
    chiyo = world.members[2]
    assert await refused(world, chiyo.slash(thread, "kokeshi resign")) == "You are not playing in this game."
    text = await refused(world, chiyo.slash(world.channel, "kokeshi resign"))
    assert "You are not in a game here" in text


async def test_resigning_from_a_lobby_is_refused(world):
    await open_lobby(world, joiners=1)
    text = await refused(world, world.members[1].slash(world.channel, "kokeshi resign"))
    assert "Only a game in progress can be resigned; leave or cancel a lobby instead" in text


async def test_resigning_twice_is_refused(world):
    game_id, thread = await open_game(world, players=2)
    botan = world.members[1]
    assert private(await botan.slash(thread, "kokeshi resign")) == "You resigned. Thanks for playing!"
    seat = (await world.store.get_game(game_id)).seat_of(botan.id)
    assert seat.ai and seat.resigned
    assert await refused(world, botan.slash(thread, "kokeshi resign")) == "You have already resigned from this game."


async def test_a_game_number_that_does_not_exist_or_is_in_another_server_is_refused(world):
    await open_game(world, players=2)
    other_guild = world.env.create_guild("Other Club")
    other_channel = other_guild.create_text_channel("kokeshi")
    eiko = other_guild.add_member(world.env.create_user("eiko"))
    created = await eiko.slash(other_channel, "kokeshi new", players=2)
    assert created.acknowledged and "is open" in private(created)
    elsewhere = (await world.store.games_in_channel(other_channel.id))[0].id
    aiko = world.members[0]
    for game_id in (elsewhere, 999):
        for command, options in (
            ("kokeshi table", {}),
            ("kokeshi table", {"player": "aiko"}),
            ("kokeshi hint", {}),
            ("kokeshi status", {}),
            ("kokeshi log", {}),
            ("kokeshi join", {}),
            ("kokeshi cancel", {}),
            ("kokeshi undo", {}),
            ("kokeshi resign", {}),
            ("kokeshi play", {"choice": "advance:princess"}),
        ):
            text = await refused(world, aiko.slash(world.channel, command, game=game_id, **options))
            assert text == f"There is no game #{game_id} in this server. `/kokeshi status` lists your games.", command
    assert (await world.store.get_game(elsewhere)).status == "lobby"


# ---------------------------------------------------------------------- buttons


async def test_a_click_by_a_member_who_is_not_seated_is_refused(world):
    game_id, thread = await at_first_advance(world)
    prompt = await prompt_message(world, game_id, thread)
    button = components(prompt)[0]["custom_id"]
    assert button.startswith(f"mt:a:{game_id}:")
    for outsider in world.members[2:]:
        assert await refused(world, outsider.click(prompt, custom_id=button)) == "You are not playing in this game."


async def test_a_click_by_a_seated_player_out_of_turn_names_whose_turn_it_is(world):
    game_id, thread = await at_first_advance(world)
    mover, other = await turn(world, game_id)
    prompt = await prompt_message(world, game_id, thread)
    assert f"Your turn: {mover.mention}." in prompt.content
    # Its choices' buttons (the others, as "since your last turn", are any seated player's to press).
    buttons = [c["custom_id"] for c in components(prompt) if c.get("custom_id", "").startswith(f"mt:a:{game_id}:")]
    assert len(buttons) > 1
    for button in buttons:
        text = await refused(world, other.click(prompt, custom_id=button))
        assert text == f"It's {mover.name}'s turn, not yours.", text


# ---------------------------------------------------------------------- surprises


async def test_an_unexpected_error_is_answered_with_an_apology_and_logged(world, monkeypatch, caplog):
    game_id, thread = await open_game(world, players=2)
    mover, _ = await turn(world, game_id)
    action = (await load_game(world, game_id))[0].legal_actions()[0]
    _, tile, track = action.split(":")

    async def wobble(*args, **kwargs):
        raise RuntimeError("the table wobbled")

    # Both ways of choosing at the platform's table play through `Matches.on_action`.
    monkeypatch.setattr(world.bot.matches, "on_action", wobble)
    with caplog.at_level(logging.ERROR, logger="cogs.tables"):
        for attempt in (
            mover.slash(thread, "kokeshi play", choice=action),
            answer(world, game_id, thread, action=action),  # the same through the menu
        ):
            text = await refused(world, attempt)
            assert text == "Sorry, something went wrong on my side. Nothing was lost; please try again."
    logged = [r for r in caplog.records if r.exc_info and isinstance(r.exc_info[1], RuntimeError)]
    assert len(logged) == 2 and all("unexpected error in game" in r.getMessage() for r in logged)
    assert world.env.errors == []


async def test_a_move_is_saved_and_the_player_told_when_the_bot_can_no_longer_post_in_the_thread(world):
    game_id, thread = await open_game(world, players=2)
    made = len(await moves(world, game_id))
    world.env.inject_error(
        "PATCH", f"/channels/{thread.id}/messages/*", status=403, code=50013, message="Missing Permissions", times=None
    )
    world.env.inject_error(
        "POST", f"/channels/{thread.id}/messages", status=403, code=50013, message="Missing Permissions", times=None
    )
    result = await answer(world, game_id, thread)
    assert len(await moves(world, game_id)) == made + 1
    warning = result.followups[-1]
    assert (
        warning.ephemeral and "Your move is saved" in warning.content and "Send Messages in Threads" in warning.content
    )


# ---------------------------------------------------------------------- refusals by code


def test_every_store_refusal_is_worded_from_its_code_in_every_language():
    import i18n
    from cogs.tables import refusal
    from storage import MATCH_REFUSALS, REFUSALS, StoreRefusal

    values = {"broken": {"game_id": 7, "reason": "x"}}
    apology = "Sorry, something went wrong on my side. Nothing was lost; please try again."
    for locale in ("en", "pt_BR"):
        with i18n.using(locale):
            codes = (*REFUSALS, *MATCH_REFUSALS)
            said = {code: refusal(StoreRefusal(code, **values.get(code, {}))) for code in codes}
            assert i18n._(apology) not in said.values(), said
    assert len(set(said.values())) == len(said)  # each code its own sentence
    with i18n.using("en"):
        assert refusal(StoreRefusal("full")) == "This game is full."
        assert refusal(StoreRefusal("a_code_without_words")) == apology


async def test_a_click_out_of_turn_at_the_platforms_table_is_refused_naming_whose_turn_it_is(world):
    from tests.test_bot_matches import choose, current_prompt, open_table

    game_id, thread = await open_table(world, "kohaku", players=2, joiners=1)
    match, version, record = await world.store.load_match(game_id)
    (mover,) = match.waiting()
    waiting = next(s for s in record.seats if s.seat == mover)
    other = next(m for m in world.members if m.id != waiting.user_id and record.seat_of(m.id) is not None)
    prompt = await current_prompt(world, game_id, thread)
    posts = [(m.id, m.content, len(m.components)) for m in thread.history()]
    text = private(await choose(other, prompt, random.Random(3)))
    assert text == f"It's {waiting.name}'s turn, not yours.", text
    # Nothing changed: the game's version, and what the thread shows.
    assert (await world.store.load_match(game_id))[1] == version
    assert [(m.id, m.content, len(m.components)) for m in thread.history()] == posts
