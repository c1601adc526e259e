"""Limits: open games per user and per channel, replies that fit Discord, and no lobby nobody can see."""

from __future__ import annotations

import discord

from tests.botkit import load_game, open_game

APOLOGY = "Sorry, something went wrong"
EMBED_LIMITS = {"title": 256, "description": 4096}


def said(result) -> list[str]:
    return [m.content for m in [result.response, *result.followups] if m is not None and m.content]


def opened(result) -> bool:
    """`/kokeshi new` opened a lobby (its private answer says so)."""
    return result.ephemeral and any("is open" in text for text in said(result))


def check_payload_limits(env) -> int:
    """Every message the bot sent fits Discord's limits; returns how many were checked."""
    checked = 0
    for request in env.http_requests:
        body = request.json
        if not isinstance(body, dict):
            continue
        data = body.get("data") if isinstance(body.get("data"), dict) else body
        if "content" in data and data["content"] is not None:
            assert len(data["content"]) <= 2000, (request.path, len(data["content"]))
        embeds = data.get("embeds") or []
        assert len(embeds) <= 10
        for embed in embeds:
            total = 0
            for key, limit in EMBED_LIMITS.items():
                assert len(embed.get(key) or "") <= limit
                total += len(embed.get(key) or "")
            fields = embed.get("fields") or []
            assert len(fields) <= 25
            for f in fields:
                assert len(f["name"]) <= 256 and len(f["value"]) <= 1024
                total += len(f["name"]) + len(f["value"])
            total += len((embed.get("footer") or {}).get("text") or "")
            assert total <= 6000
        for choice in data.get("choices") or []:
            assert len(choice["name"]) <= 100 and len(str(choice["value"])) <= 100
        checked += 1
    return checked


async def test_replies_that_quote_over_long_input_fit_and_change_nothing(world):
    game_id, thread = await open_game(world, players=2)
    aiko = world.members[0]
    long = "x" * 6000
    _, version = await load_game(world, game_id)
    for name, options in (
        ("kokeshi table", {"player": long}),
        ("kokeshi play", {"choice": long}),
    ):
        for member in world.members[:2]:
            result = await member.slash(thread, name, **options)
            answers = said(result)
            assert answers and all(len(a) <= 2000 for a in answers), (name, [len(a) for a in answers])
            assert not any(APOLOGY in a for a in answers), (name, answers)
    refused = said(await aiko.slash(thread, "kokeshi table", player=long))
    assert refused[0].startswith("No player called") and "…" in refused[0]
    # The quote is cut short, so the reply still lists the players.
    assert "aiko" in refused[0] and "botan" in refused[0]
    assert (await load_game(world, game_id))[1] == version
    for value in ("", "x" * 200):
        await aiko.autocomplete(thread, "kokeshi play", "choice", value)
        await aiko.autocomplete(thread, "kokeshi table", "player", value)
    assert check_payload_limits(world.env) > 10
    assert world.env.errors == []


async def make_lobbies(w, count: int) -> None:
    """Lobbies opened before any limit existed (straight into the store)."""
    aiko = w.members[0]
    for _ in range(count):
        await w.store.create_game(
            guild_id=w.guild.id,
            channel_id=w.channel.id,
            host_id=aiko.id,
            host_name="aiko",
            players=4,
            side="basic",
            solo=False,
            turn_timer=3600,
            ai_seats=0,
        )


async def test_status_with_sixty_lobbies_lists_what_fits_and_says_how_many_more(world):
    await make_lobbies(world, 60)
    result = await world.members[0].slash(world.channel, "kokeshi status")
    [text] = said(result)
    assert result.ephemeral and len(text) <= 2000 and APOLOGY not in text
    lines = text.splitlines()
    shown = [line for line in lines if line.startswith("• ")]
    assert 10 <= len(shown) < 60
    assert all(line.endswith("players") for line in shown)
    assert f"…and {60 - len(shown)} more" in text
    assert check_payload_limits(world.env)


async def test_open_games_are_limited_per_user_and_per_channel_and_admins_change_the_limits(world):
    aiko, botan, chiyo, daichi = world.members
    for _ in range(5):
        created = await aiko.slash(world.channel, "kokeshi new")
        assert opened(created)
    refused = await aiko.slash(world.channel, "kokeshi new")
    assert refused.ephemeral and "5 open games" in refused.response.content
    refused = await aiko.slash(world.channel, "kokeshi solo")
    assert refused.ephemeral and "5 open games" in refused.response.content
    assert len(await world.store.games_in_channel(world.channel.id)) == 5

    # Only admins change the limits; a game that ends frees a place.
    denied = await aiko.slash(world.channel, "games settings limits", per_user=10)
    assert denied.ephemeral and "Manage Server" in denied.response.content
    admins = world.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    admin = world.guild.add_member(world.env.create_user("eiko"), roles=[admins])
    shown = await admin.slash(world.channel, "games settings limits")
    assert "5" in shown.response.content and "20" in shown.response.content
    changed = await admin.slash(world.channel, "games settings limits", per_user=7, per_channel=6)
    assert changed.ephemeral and "7" in changed.response.content and "6" in changed.response.content
    assert opened(await aiko.slash(world.channel, "kokeshi new"))
    # Six open games in the channel now: nobody opens a seventh here, but another channel is fine.
    refused = await botan.slash(world.channel, "kokeshi new")
    assert refused.ephemeral and "6 open games" in refused.response.content and "channel" in refused.response.content
    other = world.guild.create_text_channel("kokeshi-2")
    assert opened(await botan.slash(other, "kokeshi new"))
    lobby = (await world.store.games_in_channel(world.channel.id))[0]
    await aiko.slash(world.channel, "kokeshi cancel", game=lobby.id)
    assert opened(await chiyo.slash(world.channel, "kokeshi new"))
    # Joining counts too: a player at the limit is told so before taking one more seat.
    await admin.slash(world.channel, "games settings limits", per_user=1, per_channel=50)
    joined = await daichi.slash(world.channel, "kokeshi join", game=lobby.id + 1)
    assert joined.ephemeral and "You joined" in joined.response.content
    refused = await daichi.slash(world.channel, "kokeshi join", game=lobby.id + 2)
    assert refused.ephemeral and "1 open game" in refused.response.content
    bad = await admin.slash(world.channel, "games settings limits", per_user=0)
    assert bad.ephemeral and "at least 1" in bad.response.content
    assert world.env.errors == []


async def test_a_lobby_discord_refused_to_show_is_cancelled_and_the_host_told(world):
    aiko = world.members[0]
    world.env.inject_error("POST", f"/channels/{world.channel.id}/messages", status=500)
    result = await aiko.slash(world.channel, "kokeshi new")
    assert await world.store.open_lobbies(world.guild.id) == []
    [game] = await world.store.games_in_channel(world.channel.id, statuses=("cancelled",))
    answers = said(result)
    # "I could not post the table in this channel, so it is cancelled. A server admin can give me …"
    assert answers and "could not post" in answers[-1] and "cancelled" in answers[-1], answers
    # The next attempt works as usual.
    created = await aiko.slash(world.channel, "kokeshi new")
    assert opened(created) and len(await world.store.open_lobbies(world.guild.id)) == 1
    assert game.id < (await world.store.open_lobbies(world.guild.id))[0].id
