"""Names are shown literally and ping nobody: a nickname with @everyone, a masked link or formatting is just text."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import pytest

from tests.botkit import World, answer, load_game, open_game

HOUR = 3600
PINGER = "@everyone @here"
LINKER = "[gift](https://x.y) **b** ||s||"
# What must never reach Discord unescaped: it would render as a link, bold or a spoiler.
RAW = ("[gift](https://x.y)", "**b**", "||s||")
# The linker's nickname as the bot shows it: escaped.
ESCAPED = "\\[gift\\](https\\://x.y) \\*\\*b\\*\\* \\|\\|s\\|\\|"


@dataclass
class NickWorld(World):
    """Members known by their nicknames, which is what the bot seats them as."""

    nicks: dict = field(default_factory=dict)

    def member(self, name: str):
        return self.nicks[name]


@pytest.fixture
async def tricky(simcord_env) -> World:
    env = simcord_env
    guild = env.create_guild("Kokeshi Club")
    channel = guild.create_text_channel("kokeshi")
    guild.create_role("Players", mentionable=True)
    members = [
        guild.add_member(env.create_user("aiko"), nick=LINKER),
        guild.add_member(env.create_user("botan"), nick=PINGER),
    ]
    return NickWorld(env, guild, channel, members, dict(zip((LINKER, PINGER), members, strict=True)))


def payloads(env) -> list[dict]:
    """The JSON body of every message the bot sent, posted, edited or answered with."""
    found = []
    for request in env.http_requests:
        body = request.json
        if not isinstance(body, dict):
            continue
        data = body.get("data") if isinstance(body.get("data"), dict) else body
        if "content" in data or "embeds" in data:
            found.append(data)
    return found


def rendered(data: dict) -> str:
    """The text a payload shows: content and every embed text."""
    parts = [data.get("content") or ""]
    for embed in data.get("embeds") or []:
        parts += [embed.get("title") or "", embed.get("description") or ""]
        parts += [f"{f.get('name')}\n{f.get('value')}" for f in embed.get("fields") or []]
        parts.append((embed.get("footer") or {}).get("text") or "")
    return "\n".join(parts)


def literal_and_quiet(sent: list[dict]) -> str:
    """Every payload allows no @everyone or role ping and shows no name's Markdown raw; returns their texts."""
    for data in sent:
        allowed = data.get("allowed_mentions")
        assert allowed is not None, data
        assert "everyone" not in allowed.get("parse", []) and "roles" not in allowed.get("parse", []), data
        assert not allowed.get("roles"), data
        text = rendered(data)
        for raw in RAW:
            assert raw not in text, text
    return "\n".join(rendered(d) for d in sent)


async def play_a_whole_game_with_timeouts(w: World) -> int:
    game_id, thread = await open_game(w, players=2, timer=HOUR)
    rng = random.Random(2)
    aiko, botan = w.members
    answers = 0
    while True:
        game, _ = await load_game(w, game_id)
        if game.prompt is None:
            return game_id
        if answers % 12 == 0:
            # Now and then let a turn run out (reminders and time-out notes name the player too) and look around.
            await w.env.advance_time(HOUR)
            for member in (aiko, botan):
                await member.slash(w.channel, "kokeshi status")
            await botan.slash(thread, "kokeshi status")
            await botan.slash(thread, "kokeshi log", count=50)
            await aiko.slash(thread, "kokeshi table", player=PINGER)
            await aiko.slash(thread, "kokeshi table", player=LINKER + "?")
        game, _ = await load_game(w, game_id)
        if game.prompt is None:
            return game_id
        assert (await answer(w, game_id, thread, rng)).acknowledged
        answers += 1


@pytest.mark.slow
async def test_a_whole_game_never_allows_everyone_or_role_pings_and_shows_names_literally(tricky):
    w = tricky
    game_id = await play_a_whole_game_with_timeouts(w)
    assert (await w.store.get_game(game_id)).status == "finished"
    await w.members[0].slash(w.channel, "kokeshi stats")
    await w.members[0].slash(w.channel, "kokeshi leaderboard")
    sent = payloads(w.env)
    assert len(sent) > 50
    texts = literal_and_quiet(sent)
    # The names do appear, escaped: narration, time-out notes, status and the log all name the players.
    assert ESCAPED in texts
    assert "Time ran out for" in texts  # the platform's time-out note, which names the late player
    # Nobody but the prompted players was ever pinged: every allowed user is a player.
    players = {str(m.id) for m in w.members}
    for data in sent:
        assert set(map(str, data["allowed_mentions"].get("users", []))) <= players


@pytest.mark.slow
@pytest.mark.simcord(settle_timeout=60)  # once both resign, the AI plays every seat to the end on one answer
async def test_at_the_platforms_table_names_are_shown_literally_in_every_post_and_reply(tricky):
    """A Kōhaku table of the same two players: its prompts, records, narration, "since your last turn", the log and
    the end (both resign) name them escaped, and nothing pings anyone but a player."""
    from concurrent.futures import ThreadPoolExecutor

    from cogs import thinking
    from tests.test_bot_matches import choose, current_prompt, open_table

    w = tricky

    def quick(key: str, state: str, seat: int, level: str, seed: int) -> str:
        return thinking.decide_match(key, state, seat, "easy", seed)

    # The seats the AI takes once both resign play the rest of the game at once, at the quickest level.
    w.bot.tables.thinker = thinking.Thinker(pool=ThreadPoolExecutor(1), match_work=quick)
    game_id, thread = await open_table(w, "kohaku", players=2, joiners=1)
    rng = random.Random(5)
    by_user = {m.id: m for m in w.members}
    for step in range(16):
        match, _version, record = await w.store.load_match(game_id)
        seat = next(s for s in record.seats if s.seat == match.waiting()[0])
        member = by_user[seat.user_id]
        prompt = await current_prompt(w, game_id, thread)
        if step % 5 == 4:
            await member.click(prompt, custom_id=f"mt:w:{game_id}")
            await member.slash(thread, "games log", count=20)
        await choose(member, prompt, rng)
    for member in w.members:
        await member.slash(thread, "games resign")
    assert (await w.store.get_game(game_id)).status == "finished"
    sent = payloads(w.env)
    assert len(sent) > 20
    assert ESCAPED in literal_and_quiet(sent)
