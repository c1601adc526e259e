"""`/games table` and `/games log`: a look at another game's table and story, privately, never a seat's secret."""

from __future__ import annotations

import random

import pytest

import games
from cogs.limits import FILE_BYTES, FILES, MESSAGE, fit_files
from cogs.match_looks import fit_log, narrated
from games.base import Event
from storage import MatchDecision
from tests.botkit import World, custom_ids, lobby_message
from tests.dbkit import named_log_game
from tests.games import tiny
from tests.test_bot_language import locales  # noqa: F401  (the fixture giving each person a language)
from tests.test_bot_match_since import bid
from tests.test_bot_matches import finished_match, open_table, reply


class Drawn:
    """The views a game's pictures were drawn from: ("decision", seat, view) or ("table", None, view)."""

    def __init__(self, monkeypatch, module) -> None:
        self.calls: list[tuple[str, int | None, dict]] = []
        decision, table = module.decision_picture, module.table_picture

        def decision_picture(view, names, seat, events=()):
            self.calls.append(("decision", seat, dict(view)))
            return decision(view, names, seat, events)

        def table_picture(view, names, events=()):
            self.calls.append(("table", None, dict(view)))
            return table(view, names, events)

        monkeypatch.setattr(module, "decision_picture", decision_picture)
        monkeypatch.setattr(module, "table_picture", table_picture)

    def last(self) -> tuple[str, int | None, dict]:
        return self.calls[-1]


async def unchanged(w: World, game_id: int):
    """What a look must leave as it is: the match, the record's version and the posts in the channel's threads."""
    record = await w.store.get_game(game_id)
    posts = sum(len(t.history()) for t in w.channel.threads) + len(w.channel.history())
    if record.seed is None:
        return record.version, record.status, len(record.seats), posts
    return (await w.store.load_match(game_id))[0].to_json(), record.version, posts


# ---------------------------------------------------------------------- /games table


async def test_the_deciding_seat_sees_its_own_choice_and_everyone_else_the_table_anyone_sees(world, bids, monkeypatch):
    w = world
    aiko, botan, chiyo = w.members[:3]
    game_id, thread = await open_table(w, "bids", players=2, joiners=1)
    drawn = Drawn(monkeypatch, bids)
    before = await unchanged(w, game_id)
    asked = await aiko.slash(thread, "games table")
    answer = reply(asked)
    assert asked.ephemeral and answer.content.startswith(f"**The table of Bids #{game_id}**")
    assert "**Your turn:** Your secret bid" in answer.content
    assert [a.description for a in answer.attachments] == [f"Your choice in Bids #{game_id}: Your secret bid"]
    match = (await w.store.load_match(game_id))[0]
    assert drawn.last() == ("decision", 0, match.view(0))
    # No buttons: a look, not a second place to choose from.
    assert custom_ids(answer) == []
    assert await unchanged(w, game_id) == before
    # Once aiko's bid is in, she decides nothing: the table as anyone sees it, her bid in no view drawn for botan.
    await bid(w, game_id, thread, aiko, random.Random(1))
    match = (await w.store.load_match(game_id))[0]
    mine = reply(await aiko.slash(thread, "games table"))
    assert drawn.last() == ("table", None, match.view(None)) and "Waiting for: **botan**" in mine.content
    assert [a.description for a in mine.attachments] == [f"The Bids table, move 1. Waiting for: {botan.user.name}."]
    reply(await botan.slash(thread, "games table"))
    kind, seat, seen = drawn.last()
    assert (kind, seat, seen) == ("decision", 1, match.view(1)) and seen["mine"] is None
    # Someone not seated, from the channel, by the game's number: the spectator's table.
    outsider = reply(await chiyo.slash(w.channel, "games table", game=game_id))
    assert drawn.last() == ("table", None, match.view(None)) and outsider.attachments
    assert "Your turn" not in outsider.content


async def test_without_a_game_or_thread_the_newest_of_the_callers_games_here_is_shown(world, bids):
    w = world
    aiko = w.members[0]
    older, _thread = await open_table(w, "bids", players=2, joiners=1)
    newer, _thread = await open_table(w, "kohaku", players=2, joiners=0, ai=1, level="easy")
    shown = reply(await aiko.slash(w.channel, "games table"))
    assert f"Kōhaku #{newer}" in shown.content
    # The option offers her games in progress here, newest first, by name or number.
    offered = await aiko.autocomplete(w.channel, "games table", "game", "")
    assert [c["value"] for c in offered] == [newer, older]
    assert [c["name"] for c in offered] == [f"Kōhaku #{newer}", f"Bids #{older}"]
    assert [c["value"] for c in await aiko.autocomplete(w.channel, "games log", "game", "bid")] == [older]
    assert [c["value"] for c in await aiko.autocomplete(w.channel, "games table", "game", str(older))] == [older]


async def test_a_look_at_no_game_another_servers_a_lobby_or_an_ended_game_is_refused_privately(world, bids):
    w = world
    aiko, botan, chiyo = w.members[:3]
    duel = await finished_match(w, "bids", [aiko, botan], seed=5)
    assert duel.is_over
    finished = (await w.store.games_for_user(aiko.user.id, ("finished",)))[-1].id
    elsewhere = await w.store.create_game(
        guild_id=w.guild.id + 1, channel_id=1, host_id=botan.user.id, host_name="botan", players=2, game="bids"
    )
    kokeshi = await w.store.create_game(
        guild_id=w.guild.id, channel_id=w.channel.id, host_id=aiko.user.id, host_name="aiko", players=2
    )
    created = await aiko.slash(w.channel, "games new", game="bids", players=2)
    assert "is open" in reply(created).content
    lobby = (await w.store.games_in_channel(w.channel.id))[-1].id
    cases = [
        (chiyo, {}, "You have no game in progress here. `/games status` lists your games"),
        (aiko, {"game": 999}, "There is no game #999 here."),
        (aiko, {"game": elsewhere}, f"There is no game #{elsewhere} here."),
        (aiko, {"game": kokeshi}, f"Kokeshi #{kokeshi} has not started yet."),
        (aiko, {"game": lobby}, f"Bids #{lobby} has not started yet."),
        (aiko, {"game": finished}, f"Bids #{finished} is over: `/games replay` steps through it."),
    ]
    before = [await unchanged(w, g) for g in (finished, elsewhere, kokeshi, lobby)]
    for member, options, said in cases:
        asked = await member.slash(w.channel, "games table", **options)
        assert asked.ephemeral and said in reply(asked).content, (options, reply(asked).content)
        assert not reply(asked).attachments
    assert [await unchanged(w, g) for g in (finished, elsewhere, kokeshi, lobby)] == before
    # The log says the same of a lobby, Kokeshi's included.
    for game_id in (kokeshi, lobby):
        assert "has not started yet" in reply(await aiko.slash(w.channel, "games log", game=game_id)).content
    assert w.env.errors == []


@pytest.mark.slow
async def test_a_kokeshi_game_of_its_own_table_is_looked_at_by_its_seating(world):
    w = world
    aiko, botan = w.members[:2]
    # Twelve decisions played at `/kokeshi`'s own table, as it wrote them: its log names the players.
    game_id = named_log_game(
        w.store.path, ["aiko", "botan"], seed=7, moves=12, policy=3, users=[aiko.user.id, botan.user.id],
        guild_id=w.guild.id, channel_id=w.channel.id,
    )  # fmt: skip
    match, _version, record = await w.store.load_match(game_id)
    assert record.named_log
    mover = next(s.name for s in record.seats if s.seat == match.waiting()[0])
    before = await unchanged(w, game_id)
    decider = {"aiko": aiko, "botan": botan}[mover]
    other = botan if decider is aiko else aiko
    # Without a game named, from the channel: her newest game here, Kokeshi's too.
    mine = reply(await decider.slash(w.channel, "games table"))
    assert mine.content.startswith(f"**The table of Kokeshi #{game_id}**") and "**Your turn:**" in mine.content
    assert mine.attachments and custom_ids(mine) == []
    theirs = reply(await other.slash(w.channel, "games table", game=game_id))
    assert f"Waiting for: **{mover}**" in theirs.content and theirs.attachments
    # The log: Kokeshi's narration of the moves its own table stored, under the players' names.
    told = reply(await other.slash(w.channel, "games log", game=game_id, count=50)).content
    names = ["aiko", "botan"]
    lines = narrated(games.get("kokeshi"), await w.store.match_decisions(game_id), names)
    assert len(lines) > 12 and told.endswith(f"`{lines[-1][0]:>3}` {lines[-1][1]}")
    assert told.startswith(f"📜 **Kokeshi #{game_id}: the last") and "aiko" in told and "botan" in told
    assert [c["value"] for c in await aiko.autocomplete(w.channel, "games log", "game", "")] == [game_id]
    assert await unchanged(w, game_id) == before  # only read
    assert w.env.errors == []


async def test_the_table_speaks_the_callers_language(world, bids, locales):  # noqa: F811
    w = world
    game_id, thread = await open_table(w, "bids", players=2, joiners=1)
    locales[w.members[1].id] = "pt-BR"
    answer = reply(await w.members[1].slash(thread, "games table"))
    assert f"A mesa de Bids #{game_id}" in answer.content and "**Sua vez:** Seu lance secreto" in answer.content
    assert answer.attachments[0].description == f"Sua escolha em Bids #{game_id}: Seu lance secreto"
    refused = reply(await w.members[1].slash(w.channel, "games table", game=999)).content
    assert "Não há partida #999 aqui" in refused, refused


# ---------------------------------------------------------------------- /games log


async def test_the_log_tells_the_last_steps_as_the_thread_did_and_no_waiting_bid(world, bids):
    w = world
    aiko, botan = w.members[:2]
    game_id, thread = await open_table(w, "bids", players=2, joiners=1)
    rng = random.Random(2)
    nothing = reply(await aiko.slash(thread, "games log"))
    assert f"Nothing has happened in Bids #{game_id} yet." in nothing.content
    # Two prizes decided, then botan's secret bid for the third waits.
    for member in (aiko, botan, aiko, botan, botan):
        await bid(w, game_id, thread, member, rng)
    decisions = await w.store.match_decisions(game_id)
    waiting = decisions[-1].action
    before = await unchanged(w, game_id)
    told = reply(await aiko.slash(thread, "games log"))
    lines = told.content.splitlines()
    assert lines[0] == f"📜 **Bids #{game_id}: the last 2 steps**"
    names = ["aiko", "botan"]
    steps = narrated(bids, decisions, names)
    expected = [f"`{seq:>3}` {line}" for seq, line in steps]
    assert lines[1:] == expected and len(expected) == 2
    # Every line is a sentence the thread posted; the waiting bid shows in no form.
    posted = "\n".join(m.content for m in thread.history())
    assert all(line in posted for _seq, line in steps)
    assert waiting not in told.content and "Bid " not in told.content
    assert await unchanged(w, game_id) == before
    # `count` keeps the newest.
    one = reply(await botan.slash(thread, "games log", count=1)).content.splitlines()
    assert one == [f"📜 **Bids #{game_id}: the last step**", expected[-1]]


async def test_a_finished_games_log_is_read_from_its_channel_by_number(world, bids):
    w = world
    aiko, botan, chiyo = w.members[:3]
    await finished_match(w, "bids", [aiko, botan], seed=5)
    game_id = (await w.store.games_for_user(aiko.user.id, ("finished",)))[-1].id
    told = reply(await chiyo.slash(w.channel, "games log", game=game_id, count=50))
    decisions = await w.store.match_decisions(game_id)
    assert told.ephemeral and len(told.content.splitlines()) == 1 + len(narrated(bids, decisions, ["aiko", "botan"]))


async def test_the_log_speaks_the_callers_language(world, bids, locales):  # noqa: F811
    w = world
    aiko, botan = w.members[:2]
    game_id, thread = await open_table(w, "bids", players=2, joiners=1)
    for member in (aiko, botan):
        await bid(w, game_id, thread, member, random.Random(3))
    locales[botan.id] = "pt-BR"
    told = reply(await botan.slash(thread, "games log")).content
    assert told.startswith(f"📜 **Bids #{game_id}: o último lance**"), told
    assert "leva o prêmio" in told or "Ninguém leva" in told


def test_a_long_log_keeps_the_newest_lines_within_one_message():
    lines = [f"`{n:>3}` Player {n % 4} placed a long tile name number {n}, scoring a lot." for n in range(60)]
    text = fit_log("head", lines)
    assert len(text) <= MESSAGE and text.startswith("head\n… ") and text.endswith(lines[-1])
    assert fit_log("head", lines[:3]) == "\n".join(["head", *lines[:3]])


def test_the_log_tells_only_what_the_games_narration_tells():
    events = (Event("bid", 1, {}), Event("bids_shown", -1, {"bids": [3, 1]}), Event("prize_won", 0, {"prize": 2}))
    decisions = [
        MatchDecision(3, 0, "bid:3", (Event("bid", 0, {}),), False),
        MatchDecision(4, 1, "bid:1", events, True),
    ]
    assert narrated(tiny.MODULE, decisions, ["aiko", "botan"]) == [(4, "aiko takes prize 2.")]


# ---------------------------------------------------------------------- joining within the limits


async def test_joining_past_the_servers_limit_per_person_is_refused_privately_and_seats_nobody(world, bids):
    w = world
    aiko, botan = w.members[:2]
    await w.store.set_guild_setting(w.guild.id, "open_per_user", "1")
    # Botan's own open table here is all this server allows him.
    assert "is open" in reply(await botan.slash(w.channel, "games new", game="kohaku", players=2)).content
    created = await aiko.slash(w.channel, "games new", game="bids", players=2)
    assert "is open" in reply(created).content
    record = (await w.store.games_in_channel(w.channel.id))[-1]
    lobby = await lobby_message(w, record.id)
    shown = lobby.content
    refused = await botan.click(lobby, label="Join")
    text = reply(refused).content
    assert refused.ephemeral and "You are already in 1 open game in this server" in text, text
    assert "`/games status`" in text
    after = await w.store.get_game(record.id)
    assert [s.user_id for s in after.seats] == [aiko.user.id]
    assert (await lobby_message(w, record.id)).content == shown
    # Below the limit, the same click seats him.
    await w.store.set_guild_setting(w.guild.id, "open_per_user", "2")
    assert "You joined" in reply(await botan.click(lobby, label="Join")).content


async def test_the_limit_refusal_reads_in_the_joiners_language(world, bids, locales):  # noqa: F811
    w = world
    aiko, botan = w.members[:2]
    await w.store.set_guild_setting(w.guild.id, "open_per_user", "1")
    await botan.slash(w.channel, "games new", game="kohaku", players=2)
    await aiko.slash(w.channel, "games new", game="bids", players=2)
    record = (await w.store.games_in_channel(w.channel.id))[-1]
    locales[botan.id] = "pt-BR"
    # The lobby speaks the server's language (English here); the refusal, botan's.
    refused = reply(await botan.click(await lobby_message(w, record.id), label="Join")).content
    assert "Você já está em 1 partida aberta neste servidor" in refused and "`/jogos situação`" in refused, refused


# ---------------------------------------------------------------------- /games rules and /games help


def said(result) -> list:
    """Every message of a reply, in order: the answer, then its follow-ups."""
    return [result.response, *result.followups]


async def test_the_rules_of_a_game_are_its_own_words_and_pictures_privately_as_its_own_command_shows_them(world):
    w = world
    aiko = w.members[0]
    asked = await aiko.slash(w.channel, "games rules", game="kokeshi")
    shown = said(asked)
    assert asked.ephemeral and shown and all(m.ephemeral for m in shown)
    assert shown[0].content.startswith("📖 **Kokeshi: the rules in brief**")
    assert "an idle turn" in shown[0].content and all(len(m.content) <= MESSAGE for m in shown)
    # The same pages and tile sheet as `/kokeshi rules`, within a message's files.
    own = reply(await aiko.slash(w.channel, "kokeshi rules"))
    pictures = [a for m in shown for a in m.attachments]
    assert [a.filename for a in pictures] == [a.filename for a in own.attachments]
    assert [a.description for a in pictures] == [a.description for a in own.attachments]
    assert 2 <= len(pictures) <= FILES and sum(a.size for a in pictures) <= FILE_BYTES
    assert [await a.read() for a in pictures] == [await a.read() for a in own.attachments]
    # What follows the heading is `/kokeshi rules`' paragraph.
    assert own.content in shown[0].content


async def test_a_game_without_rules_or_a_guide_of_its_own_says_so_politely(world, bids):
    w = world
    aiko = w.members[0]
    rules = reply(await aiko.slash(w.channel, "games rules", game="bids"))
    assert rules.ephemeral and "Sorry, there is no summary of Bids's rules here yet" in rules.content
    assert not rules.attachments
    helped = await aiko.slash(w.channel, "games help", game="bids")
    text = "\n".join(m.content for m in said(helped))
    assert text.startswith("Bids has no guide of its own here yet")
    assert "**Playing Bids here** `/games new` with Bids" in text and "`/games rules` the rules" in text
    unknown = reply(await aiko.slash(w.channel, "games rules", game="chess"))
    assert unknown.ephemeral and "There is no game called “chess”." in unknown.content


async def test_the_help_of_a_game_is_its_own_guide_then_how_the_platforms_table_plays_it(world):
    w = world
    aiko = w.members[0]
    helped = await aiko.slash(w.channel, "games help", game="kokeshi")
    pieces = [m.content for m in said(helped)]
    assert all(m.ephemeral for m in said(helped)) and all(len(p) <= MESSAGE for p in pieces)
    text = "\n".join(pieces)
    # Kokeshi's own guide, as `/kokeshi help` begins; then, as it is offered by `/games new` too, how it is played
    # at this table.
    assert text.startswith("**Kokeshi** — build tracks of tiles") and "`/kokeshi solo` plays against" in text
    assert "**Playing Kokeshi here** `/games new` with Kokeshi" in text
    kohaku = "\n".join(m.content for m in said(await aiko.slash(w.channel, "games help", game="kohaku")))
    assert "**Playing Kōhaku here** `/games new` with Kōhaku" in kohaku
    # Kōhaku's rules in brief, in its words, with no pictures of them.
    rules = reply(await aiko.slash(w.channel, "games rules", game="kohaku"))
    assert rules.content.startswith("📖 **Kōhaku: the rules in brief**\nBuild the finest koi pond.")
    assert "**Solo** after each of your turns, Danny" in rules.content and not rules.attachments
    # The option offers every game, Kokeshi's too.
    offered = [c["value"] for c in await aiko.autocomplete(w.channel, "games rules", "game", "")]
    assert offered[:2] == ["kokeshi", "kohaku"]
    assert [c["value"] for c in await aiko.autocomplete(w.channel, "games help", "game", "kō")] == ["kohaku"]


async def test_the_rules_and_help_speak_the_callers_language(world, locales):  # noqa: F811
    w = world
    aiko = w.members[0]
    locales[aiko.id] = "pt-BR"
    rules = said(await aiko.slash(w.channel, "games rules", game="kokeshi"))
    assert "é um turno ocioso" in rules[0].content
    helped = "\n".join(m.content for m in said(await aiko.slash(w.channel, "games help", game="kohaku")))
    assert "`/jogos novo` com Kōhaku" in helped


def test_a_message_holds_its_first_attachments_up_to_discords_count_and_size():
    assert fit_files([1, 2, 3]) == 3
    assert fit_files([1] * 12) == FILES
    assert fit_files([FILE_BYTES // 2, FILE_BYTES // 2, 1]) == 2
    assert fit_files([FILE_BYTES + 1, 1]) == 0
