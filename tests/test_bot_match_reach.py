"""Every game within reach of a person who checks in twice a day: `/games status` lists the games of every kind,
most urgent first, with links; a contract game's turn sends the turn DM by Kokeshi's rules (asked for, silent in
quiet hours, never for a muted game, off once Discord refuses it); the daily digest lists contract games too."""

from __future__ import annotations

import datetime as dt
import random

import pytest

from tests.botkit import World, custom_ids, lobby_message, open_game
from tests.test_bot_matches import choose, current_prompt, open_table, reply
from tests.test_bot_timers import answer_until_turn_of

HOUR = 3600
UTC = dt.UTC


def said(result) -> str:
    return reply(result).content


def dms(member) -> list:
    channel = member.user.dm_channel
    return [] if channel is None else channel.history()


def pinged(w: World, message) -> list[int]:
    """Whom Discord notified of this message, as SimCord stored it."""
    return sorted(w.env.backend.get_message(message.channel.id, message.id).ping_user_ids)


async def kohaku_against_the_ai(w: World, member=None) -> tuple[int, object]:
    """A Kōhaku table of `member` (aiko) against an easy AI, started in #kokeshi: (game id, thread)."""
    member = member or w.members[0]
    created = await member.slash(w.channel, "games new", game="kohaku", players=2, ai=1, level="easy")
    assert "has started" in said(created), said(created)
    record = (await w.store.games_in_channel(w.channel.id, statuses=("active",)))[-1]
    return record.id, next(t for t in w.channel.threads if t.id == record.thread_id)


async def decide(w: World, member, game_id: int, thread, rng: random.Random):
    """`member` makes one of their choices where the thread asks it: privately behind the thread's private button,
    or on its own buttons. Returns the result of the first click (the private opening, when there is one)."""
    prompt = await current_prompt(w, game_id, thread)
    if custom_ids(prompt)[0].startswith("mt:c:"):
        opened = await member.click(prompt, custom_id=custom_ids(prompt)[0])
        private = next(m for m in (opened.response, *opened.followups) if m is not None and custom_ids(m))
        assert (await choose(member, private, rng)).acknowledged
        return opened
    chosen = await choose(member, prompt, rng)
    assert chosen.acknowledged
    return chosen


async def step(w: World, member, game_id: int, thread, rng: random.Random) -> bool:
    """`member` (seat 0) makes one choice on the thread's buttons: True when it led to a new turn of theirs."""
    before, _version, _record = await w.store.load_match(game_id)
    assert (await choose(member, await current_prompt(w, game_id, thread), rng)).acknowledged
    after, _version, _record = await w.store.load_match(game_id)
    return after.turn_key() != before.turn_key() and 0 in after.waiting()


def jump(w: World, thread, message) -> str:
    return f"https://discord.com/channels/{w.guild.id}/{thread.id}/{message.id}"


# ---------------------------------------------------------------------- /games status


@pytest.mark.usefixtures("bids")
async def test_status_lists_every_game_of_every_kind_most_urgent_first_with_links(world):
    w = world
    aiko, botan = w.members[:2]
    # Her turn at Kōhaku, due in 24 hours.
    kohaku, kohaku_thread = await kohaku_against_the_ai(w)
    await w.env.advance_time(HOUR)
    # Her turn at Kokeshi, due within the hour: sooner, so first.
    kokeshi, kokeshi_thread = await open_game(w, players=2, timer=HOUR)
    await answer_until_turn_of(w, kokeshi, kokeshi_thread, "aiko", random.Random(3))
    # Bids: she bid, botan has not.
    bids_id, bids_thread = await open_table(w, "bids", players=2, joiners=1)
    await decide(w, aiko, bids_id, bids_thread, random.Random(1))
    # A Kōhaku lobby of botan's she joined.
    await botan.slash(w.channel, "games new", game="kohaku", players=3)
    lobby_id = (await w.store.games_in_channel(w.channel.id, statuses=("lobby",)))[-1].id
    assert "You joined" in said(await aiko.click(await lobby_message(w, lobby_id), label="Join"))

    asked = await aiko.slash(w.channel, "games status")
    assert asked.ephemeral
    lines = said(asked).splitlines()
    assert lines[0] == "**Your games** · your turn in 2"
    deadlines = {t.game_id: t.due_at for g in (kohaku, kokeshi, bids_id) for t in await w.store.timers(g)}
    assert lines[1:] == [
        f"▶️ <#{kokeshi_thread.id}> — **your turn**, due <t:{int(deadlines[kokeshi])}:R>",
        f"▶️ <#{kohaku_thread.id}> — **your turn**, due <t:{int(deadlines[kohaku])}:R>",
        f"• <#{bids_thread.id}> — waiting for botan, <t:{int(deadlines[bids_id])}:R>",
        f"• **Kōhaku #{lobby_id}** · <#{w.channel.id}> — lobby, 2/3 seats",
    ], lines
    assert deadlines[kokeshi] < deadlines[kohaku]
    # botan's own list: his bid first (his turn), the lobby he hosts last; Kokeshi's game is his too.
    his = said(await botan.slash(w.channel, "games status")).splitlines()
    assert his[0] == "**Your games** · your turn in 1" and his[1].startswith(f"▶️ <#{bids_thread.id}>"), his
    assert his[-1].startswith(f"• **Kōhaku #{lobby_id}** · <#{w.channel.id}> — lobby") and len(his) == 4
    assert w.env.errors == []


async def test_status_marks_a_muted_game_and_says_when_there_is_none(world):
    w = world
    aiko, chiyo = w.members[0], w.members[2]
    assert "no game and no lobby" in said(await chiyo.slash(w.channel, "games status"))
    game_id, thread = await kohaku_against_the_ai(w)
    # Its number is offered where a game is muted, named by its game; Kokeshi's other commands do not offer it.
    offered = await aiko.autocomplete(w.channel, "kokeshi notify mute", "game", "")
    assert [(c["name"], c["value"]) for c in offered] == [(f"#{game_id} — Kōhaku, in progress", game_id)]
    assert await aiko.autocomplete(w.channel, "kokeshi hint", "game", "") == []
    muted = await aiko.slash(thread, "kokeshi notify mute")
    assert f"Kōhaku #{game_id} muted" in said(muted), said(muted)
    [line] = said(await aiko.slash(w.channel, "games status")).splitlines()[1:]
    assert line.startswith(f"▶️ <#{thread.id}>") and line.endswith(" · 🔕"), line
    assert f"Kōhaku #{game_id} unmuted" in said(await aiko.slash(w.channel, "kokeshi notify unmute", game=game_id))


async def test_status_in_the_dm_with_the_bot_names_the_server_of_each_game(world):
    w = world
    aiko = w.members[0]
    game_id, thread = await kohaku_against_the_ai(w)
    await aiko.user.slash("kokeshi solo")  # a Kokeshi game in our DM
    asked = await aiko.user.slash("games status")
    assert asked.ephemeral
    lines = said(asked).splitlines()
    assert lines[0] == "**Your games** · your turn in 2"
    assert any(line.startswith(f"▶️ <#{thread.id}> in Kokeshi Club — **your turn**") for line in lines), lines
    [solo] = [g for g in await w.store.games_for_user(aiko.id) if g.guild_id is None]
    assert any(f"[Kokeshi #{solo.id}](https://discord.com/channels/@me/" in line for line in lines), lines


# ---------------------------------------------------------------------- turn DMs


@pytest.mark.slow
async def test_a_kohaku_turn_sends_the_dm_asked_for_once_per_turn_and_none_to_others(world):
    w = world
    aiko, botan = w.members[:2]
    assert "DM you" in said(await aiko.slash(w.channel, "kokeshi notify on"))
    game_id, thread = await kohaku_against_the_ai(w)
    prompt = await current_prompt(w, game_id, thread)
    [dm] = dms(aiko)
    assert dm.content == f"Your turn in Kōhaku #{game_id}: {jump(w, thread, prompt)}"
    assert not dm.flags.suppress_notifications
    assert aiko.id in pinged(w, prompt)
    # Each step of her turn asks again in the thread, but only a new turn sends a DM.
    rng = random.Random(5)
    turns = 1
    for _ in range(8):
        turns += await step(w, aiko, game_id, thread, rng)
        assert len(dms(aiko)) == turns
    assert turns > 1
    # botan asked for nothing and sits at no table.
    assert dms(botan) == []
    assert w.env.errors == []


@pytest.mark.usefixtures("bids")
async def test_a_simultaneous_turn_dms_each_person_who_asked_and_not_the_one_who_did_not(world):
    w = world
    aiko, botan = w.members[:2]
    await aiko.slash(w.channel, "kokeshi notify on")
    game_id, thread = await open_table(w, "bids", players=2, joiners=1)
    first = await current_prompt(w, game_id, thread)
    assert [m.content for m in dms(aiko)] == [f"Your turn in Bids #{game_id}: {jump(w, thread, first)}"]
    assert dms(botan) == []
    # aiko bids: the turn waits for botan, no DM; botan bids: a new turn, a new DM for aiko alone.
    for member in (aiko, botan):
        await decide(w, member, game_id, thread, random.Random(2))
        assert len(dms(aiko)) == (1 if member is aiko else 2)
    second = await current_prompt(w, game_id, thread)
    assert second.id != first.id and dms(aiko)[-1].content.endswith(jump(w, thread, second))
    assert dms(botan) == []


async def test_inside_quiet_hours_the_kohaku_ping_and_dm_are_silent(world):
    w = world
    aiko = w.members[0]
    # SimCord's day starts at midnight UTC: inside 23:00-08:00 in Lisbon.
    await aiko.slash(w.channel, "kokeshi notify quiet", hours="23:00-08:00", timezone="Europe/Lisbon")
    await aiko.slash(w.channel, "kokeshi notify on")
    game_id, thread = await kohaku_against_the_ai(w)
    prompt = await current_prompt(w, game_id, thread)
    [dm] = dms(aiko)
    assert dm.content.startswith(f"Your turn in Kōhaku #{game_id}:")
    assert dm.flags.suppress_notifications and prompt.flags.suppress_notifications
    assert aiko.id in pinged(w, prompt)


@pytest.mark.slow
async def test_a_muted_kohaku_game_sends_no_dm_and_its_prompt_pings_nobody(world):
    w = world
    aiko = w.members[0]
    await aiko.slash(w.channel, "kokeshi notify on")
    game_id, thread = await kohaku_against_the_ai(w)
    assert len(dms(aiko)) == 1
    assert f"Kōhaku #{game_id} muted" in said(await aiko.slash(w.channel, "kokeshi notify mute", game=game_id))
    rng = random.Random(8)
    asked = sum([await step(w, aiko, game_id, thread, rng) for _ in range(10)])
    assert asked >= 1
    prompt = await current_prompt(w, game_id, thread)
    assert aiko.mention in prompt.content and pinged(w, prompt) == []
    assert len(dms(aiko)) == 1


@pytest.mark.usefixtures("bids")
async def test_dms_refused_by_discord_turn_the_dms_off_once_and_the_player_is_told_once(world):
    w = world
    aiko, botan = w.members[:2]
    await aiko.slash(w.channel, "kokeshi notify on")
    dm = w.env.backend.get_dm_channel(aiko.id)
    w.env.inject_error(
        "POST", f"/channels/{dm.id}/messages", status=403, code=50007, message="Cannot send messages to this user",
        times=None,
    )  # fmt: skip
    # botan hosts; aiko joins, and the first turn's DM to her is refused.
    await botan.slash(w.channel, "games new", game="bids", players=2)
    game_id = (await w.store.games_in_channel(w.channel.id))[-1].id
    assert "You joined" in said(await aiko.click(await lobby_message(w, game_id), label="Join"))
    assert "has started" in said(await botan.click(await lobby_message(w, game_id), label="Start"))
    record = await w.store.get_game(game_id)
    thread = next(t for t in w.channel.threads if t.id == record.thread_id)
    assert await w.store.user_setting(aiko.id, "notify") == "off"
    told = []
    for _ in range(2):  # two turns: both bid each time
        for member in (aiko, botan):
            result = await decide(w, member, game_id, thread, random.Random(4))
            replies = [m for m in (result.response, *result.followups) if m is not None]
            told.append((member.user.name, any("DMs are closed" in m.content for m in replies)))
    assert [who for who, yes in told if yes] == ["aiko"]
    refused = [r for r in w.env.http_requests if r.method == "POST" and r.path == f"/channels/{dm.id}/messages"]
    assert len(refused) == 1  # one refused DM, not one per turn
    # Her own choice again: `/kokeshi notify on` turns them back on.
    await aiko.slash(w.channel, "kokeshi notify on")
    assert await w.store.user_setting(aiko.id, "notify") == "on"


# ---------------------------------------------------------------------- the daily digest


async def test_the_daily_digest_lists_a_kohaku_game_with_its_link_and_time_left(world):
    w = world
    aiko = w.members[0]
    digest = await aiko.slash(w.channel, "kokeshi notify digest", time="08:00")
    assert "Daily digest at 08:00 (UTC)" in said(digest)
    game_id, thread = await kohaku_against_the_ai(w)
    assert dms(aiko) == []  # the digest instead of a DM at each turn
    prompt = await current_prompt(w, game_id, thread)
    due = dt.datetime(2026, 1, 1, 8, tzinfo=UTC).timestamp()
    await w.env.advance_time(due - w.env.now().timestamp())
    [sent] = dms(aiko)
    head, line = sent.content.splitlines()
    assert head == "📬 **Your turn in 1 game:**"
    assert line.startswith(f"• Kōhaku #{game_id}: {jump(w, thread, prompt)} — ") and line.endswith("left"), line
    assert w.env.errors == []
