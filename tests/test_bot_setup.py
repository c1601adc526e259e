"""How the bot is built: minimal intents, commands synced only when they change, prompts sized for Discord."""

from __future__ import annotations

import discord

from bot import create_bot
from games.kokeshi.engine import CURRENT_RULES, KOKESHI, Prompt
from games.kokeshi.engine.data import TILE_BY_ID
from games.kokeshi.engine.options import PLACES
from tests.botkit import components, lobby_message, message_in, new_lobby, open_game, restart
from tests.own_table import MAX_SELECT, prompt_view, tile_choices, track_view


def _syncs(env) -> int:
    return sum(1 for r in env.http_requests if r.method == "PUT" and r.path.endswith("/commands"))


async def test_the_bot_asks_only_for_the_guilds_intent(world):
    assert world.bot.intents == discord.Intents(guilds=True)
    assert not world.bot.intents.message_content and not world.bot.intents.members


async def test_commands_are_synced_on_the_first_start_and_not_again_unless_they_change(world, db_path):
    assert _syncs(world.env) == 1
    await restart(world, create_bot(db_path))
    assert _syncs(world.env) == 1
    await world.store.set_meta("command_hash", "an older command set")
    await restart(world, create_bot(db_path))
    assert _syncs(world.env) == 2
    assert await world.store.meta("command_hash") == world.bot.command_hash()


async def test_the_lobby_message_shows_who_has_joined(world):
    aiko, botan = world.members[:2]
    game_id, lobby, _ = await new_lobby(world, players=3)
    assert f"**Kokeshi #{game_id}** — 1 of 3 seats" in lobby.content and botan.mention not in lobby.content
    await botan.click(lobby, label="Join")
    lobby = await lobby_message(world, game_id)
    # The seats taken out of the seats there are, and who sits in them; the lobby is still open.
    assert f"**Kokeshi #{game_id}** — 2 of 3 seats" in lobby.content, lobby.content
    assert aiko.mention in lobby.content and botan.mention in lobby.content
    assert "Open: join with the button below." in lobby.content and components(lobby)


async def test_a_started_lobby_loses_its_buttons_and_says_so(world):
    game_id, _ = await open_game(world, players=2)
    record = await world.store.get_game(game_id)
    found = await world.store.get_message(game_id, "lobby")
    lobby = message_in(world.channel, found[1])
    assert lobby.components == [] and record.status == "active"
    assert "Started: the game is played in its thread." in lobby.content, lobby.content


def _prompt(count: int) -> Prompt:
    options = []
    for i in range(count):
        tile = f"n{i // len(KOKESHI) + 1:02d}"
        kokeshi = KOKESHI[i % len(KOKESHI)]
        options.append(PLACES[CURRENT_RULES][TILE_BY_ID[tile]][KOKESHI.index(kokeshi)])
    return Prompt("aiko", "place", tuple(options))


def _kinds(view: discord.ui.View) -> list[str]:
    return [item.to_component_dict()["custom_id"].split(":")[1] for item in view.children]


def test_up_to_five_options_are_buttons_up_to_25_a_menu_and_more_a_tile_then_track_choice():
    assert _kinds(prompt_view(7, 3, _prompt(5))) == ["a"] * 5
    menu = prompt_view(7, 3, _prompt(MAX_SELECT))
    assert _kinds(menu) == ["s"] and len(menu.children[0].item.options) == MAX_SELECT
    many = _prompt(30)
    assert _kinds(prompt_view(7, 3, many)) == ["t"]
    assert [tile for tile, _ in tile_choices(many)] == [f"n{i:02d}" for i in range(1, 7)]
    tracks = track_view(7, 3, many, "n02")
    assert [b.to_component_dict()["custom_id"] for b in tracks.children] == [f"kk:a:7:3:place:n02:{k}" for k in KOKESHI]


def test_every_custom_id_fits_discords_limit():
    longest = max((o for o in _prompt(30).options), key=lambda o: len(o.id))
    button = prompt_view(10**12, 10**9, Prompt("aiko", "place", (longest,))).children[0]
    assert len(button.to_component_dict()["custom_id"]) <= 100
