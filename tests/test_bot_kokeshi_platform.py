"""How far Kokeshi plays at the platform's table (`/games`) through the game contract alone, as a player reads it.

Kokeshi keeps its own table (`/kokeshi`) and its own store path; `/games new game:kokeshi` deals it through the contract
instead (its log by seat number), and these tests play such games from the deal to the record: against an AI seat, and
solo against the automa. What the platform's table still lacks beside `/kokeshi`'s is listed in docs/architecture.md
("Kokeshi at the platform's table").
"""

from __future__ import annotations

import random
import re
import secrets
import types
from dataclasses import dataclass, field

import pytest

import games
import i18n
from bot import create_bot
from cogs.limits import CHANNEL_MESSAGES, CHANNEL_SECONDS
from cogs.match_turns import bulleted
from cogs.matches import places_text, seat_names
from games.base import Match, Standing, Turn
from games.kokeshi import engine, vocab
from games.kokeshi import pictures as kokeshi_pictures
from games.kokeshi import records as kokeshi_records
from games.kokeshi.engine import policy
from games.kokeshi.module import Kokeshi, KokeshiMatch, named_view
from storage import GameReach
from tests import ai_work
from tests.botkit import World, components, custom_ids, is_png, message_in, restart
from tests.own_table import tile_tracks, track_view
from tests.test_bot_language import locales  # noqa: F401  (the fixture giving each person a language)
from tests.test_bot_matches import (
    choose,
    current_prompt,
    finished_match,
    menus_of_groups,
    open_table,
    play_through,
    reply,
)
from tests.test_bot_moved_games import own_table_lobby
from tests.test_bot_pacing import bursts

# Kokeshi's key: `/games new` deals it through the contract (its log by seat), beside `/kokeshi`'s own path.
KEY = "kokeshi"
# Discord's limits: a button's label, a menu option's label, a menu's options, a message's rows.
BUTTON, OPTION, MENU, ROWS = 80, 100, 25, 5
# What an idle turn is, said after the count (rules 4).
IDLE = " An idle turn: a kokeshi passes the top, with no tile taken from the offer and no recognition gained."


def _quick(module: Kokeshi, match: Match, seat: int, level: str, seed: int) -> str:
    """Kokeshi's `decide` on the small budget its own table has in the tests (`tests.ai_work`)."""
    assert isinstance(match, KokeshiMatch) and seat in match.waiting()
    budget = None if level == "easy" else ai_work.BUDGET
    return str(policy(level, seed=seed, budget=budget).choose(match.engine))


@pytest.fixture
def kokeshi_at_the_platform(monkeypatch):
    """Kokeshi's registered module, its AI seats deciding on the tests' small budget."""
    module = games.get(KEY)
    monkeypatch.setattr(module, "decide", types.MethodType(_quick, module))
    return module


@dataclass
class Reader:
    """What a player reads on each message they answer, checked against Discord's limits and the match."""

    w: World
    game_id: int
    questions: dict[str, int] = field(default_factory=dict)
    pictures: int = 0
    grouped: int = 0

    async def __call__(self, message) -> None:
        assert len(message.components) <= ROWS, message.content
        parts = components(message)
        offered: dict[str, str] = {}
        for part in parts:
            if part.get("type") == 3:
                assert len(part["options"]) <= MENU
                for option in part["options"]:
                    assert len(option["label"]) <= OPTION and len(option.get("description") or "") <= OPTION
                    offered[option["value"]] = option["label"]
            elif part.get("custom_id", "").startswith("mt:a:"):
                assert len(part["label"]) <= BUTTON
                offered[part["custom_id"].split(":", 4)[4]] = part["label"]
        match, _version, record = await self.w.store.load_match(self.game_id)
        ai = {s.seat for s in record.seats if s.ai}
        seat = next(s for s in match.waiting() if s not in ai)
        prompt = next(p for p in match.prompts() if p.seat == seat)
        if menus_of_groups(message):
            # In two steps: the tiles first, each once with words of its own; every choice is in one of them.
            assert sorted(offered) == sorted(f"g:{tile}" for tile in prompt.groups()), message.content
            assert all(o.group for o in prompt.options) and len(prompt.options) > len(offered)
            self.grouped += 1
        else:
            # Every choice the rules give is offered (none lost past a menu's 25).
            assert sorted(offered) == sorted(match.legal_actions(seat)), message.content
        # Each with a label of its own.
        assert len(set(offered.values())) == len(offered), sorted(offered.values())
        # The question: the bold line after whose turn it is (a new turn's post goes on with the others' turns).
        question = re.findall(r"^Your turn: .*\n\*\*(.+)\*\*$", message.content, re.M)[-1]
        self.questions[question] = self.questions.get(question, 0) + 1
        if question == "Advance one of your kokeshi":
            # Each kokeshi's label says where it lands, as /kokeshi's buttons do.
            assert all(" → " in label for label in offered.values()), offered
        if self.pictures < 3:  # the picture a player decides from
            assert is_png(await message.attachments[0].read())
            self.pictures += 1


def thread_text(thread) -> str:
    return "\n".join(m.content for m in thread.history())


def assert_told_as_a_player_reads_it(thread, record) -> None:
    """Every event worded (no code shown raw), the platform's names in place of the engine's, no seed."""
    text = thread_text(thread)
    assert not re.search(r"\bseat\d\b", text), "an engine seat name shows"
    assert not re.search(r"^\S+: [a-z_]+\.$", text, re.M), "an event without words"
    assert str(record.seed) not in text


@pytest.mark.slow  # a whole game through SimCord
async def test_kokeshi_against_an_ai_seat_is_played_at_the_platforms_table_to_its_record(
    world, kokeshi_at_the_platform, monkeypatch
):
    w = world
    # One deal every run: the kinds of decision checked below all come up in it (a random deal may skip one).
    monkeypatch.setattr(secrets, "randbits", random.Random(11).getrandbits)
    game_id, thread = await open_table(w, KEY, players=2, joiners=0, ai=1, level="easy")
    reader = Reader(w, game_id)
    decisions = await play_through(w, game_id, thread, random.Random(4), limit=400, look=reader)
    assert decisions > 30
    # Every kind of decision of a turn was asked, and the pictures were drawn.
    asked = {"Advance one of your kokeshi", "Choose a tile to buy", "Place the tiles you bought"}
    assert asked <= set(reader.questions)
    assert reader.pictures == 3
    assert reader.grouped >= 1  # the starting tiles at least: a tile first, then its track
    record = await w.store.get_game(game_id)
    assert record.status == "finished"
    # The AI's turns are kept in the thread under its name, move by move, as /kokeshi's records tell them.
    text = thread_text(thread)
    assert re.search(r"^\*\*AI 1\*\* · round \d+ · ", text, re.M) and re.search(r"^• .* → buys tile \d+ \(", text, re.M)
    assert_told_as_a_player_reads_it(thread, record)
    final = thread.history()[-1]
    assert "is over" in final.content and "The game is over. Winner:" in final.content
    assert is_png(await final.attachments[0].read())
    # The way back to where new games open, last; the picture says the places and totals to who cannot see it.
    assert final.content.endswith(f"New games and lobbies: <#{w.channel.id}>"), final.content
    # After a blank line: Markdown would carry the numbered list of places on over it, into the last place.
    assert re.search(r"^2\. .+ points?.*\n\nNew games and lobbies: ", final.content, re.M), final.content
    assert re.fullmatch(r"Kokeshi #\d+, final scores: .+ -?\d+, .+ -?\d+\.", final.attachments[0].description)
    # The daily digest names its round, as for a game at Kokeshi's own table.
    engine_state = (await w.store.load_match(game_id))[0].engine
    assert await w.bot.tables.stage_of(record) == vocab.round_name(engine_state.round_number) != "setup"
    results = await w.store.results(game_id)
    # Each seat's score item by item, as Kokeshi counts it.
    assert len(results) == 2
    for result in results:
        assert set(result.details) == set(Kokeshi.stat_keys) - {"total"}
        assert result.total == sum(result.details.values())
    # Stats in Kokeshi's own words; Kokeshi's boards count it, whichever table played it.
    stats = await w.members[0].slash(w.channel, "games stats", game=KEY)
    scores = {f.name: f.value for f in reply(stats).embeds[0].fields}["Scores"]
    headings = {line.split(":")[0] for line in scores.split("\n")}
    assert "Total" in headings and headings <= {vocab.score_item(k) for k in Kokeshi.stat_keys}
    (row,) = await w.store.leaderboard("wins", w.guild.id)
    assert (row.user_id, row.games) == (w.members[0].user.id, 1)


@pytest.mark.slow  # a whole game through SimCord
async def test_kokeshi_solo_against_the_automa_is_played_at_the_platforms_table_to_its_record(
    world, kokeshi_at_the_platform
):
    w = world
    game_id, thread = await open_table(w, KEY, players=1, joiners=0)
    reader = Reader(w, game_id)
    await play_through(w, game_id, thread, random.Random(8), limit=400, look=reader)
    record = await w.store.get_game(game_id)
    assert record.status == "finished" and record.solo
    # The automa's draws are told in the records of the turns they follow, as /kokeshi's records tell them.
    assert re.search(r"^• The automa: draws a tile \(", thread_text(thread), re.M)
    assert_told_as_a_player_reads_it(thread, record)
    final = thread.history()[-1]
    assert "is over" in final.content and re.search(r"Winner: (automa|aiko)\.", final.content)
    # The automa's score, item by item, under the player's, as /kokeshi's final post says it.
    automa = (await w.store.load_match(game_id))[0].standing().details["automa"]
    assert f"\nautoma — **{automa['total']}** points (" in final.content, final.content
    assert is_png(await final.attachments[0].read())
    # The results keep the automa's row past the seat, as /kokeshi's path does: the boards read them alike.
    result, row = sorted(await w.store.results(game_id), key=lambda r: r.seat)
    assert result.user_id == w.members[0].user.id
    assert (row.seat, row.name, row.user_id, row.ai, row.total) == (1, "automa", None, True, automa["total"])
    assert {result.rank, row.rank} == {1, 2}


async def test_each_choice_says_what_it_does_and_the_hint_names_one_of_them(world, kokeshi_at_the_platform):
    w = world
    game_id, thread = await open_table(w, KEY, players=2, joiners=0, ai=1, level="easy")
    prompt = await current_prompt(w, game_id, thread)
    await Reader(w, game_id)(prompt)
    # The starting tiles: each tile, then every track it may go on, each saying the height it goes to.
    (menu,) = menus_of_groups(prompt)
    labels = []
    for entry in menu["options"]:
        picked = reply(await w.members[0].select(prompt, [entry["value"]], custom_id=menu["custom_id"]))
        labels += [c["label"] for c in components(picked) if c["custom_id"].startswith("mt:a:")]
    assert len(labels) == 10 and all("track · " in label and "→ height 1" in label for label in labels)
    hint = next(c for c in custom_ids(prompt) if c.startswith("mt:h:"))
    hinted = await w.members[0].click(prompt, custom_id=hint)
    assert hinted.ephemeral and "the hard AI would choose" in reply(hinted).content
    assert any(label in reply(hinted).content for label in labels)
    # With why: what Kokeshi's search expects the choice to gain over the others.
    assert re.search(r"about −?[\d.,]+ points better off", reply(hinted).content), reply(hinted).content


@pytest.mark.slow
async def test_the_live_prompt_tells_the_turn_so_far_folded_as_kokeshis_own_prompt_does(world, kokeshi_at_the_platform):
    w = world
    game_id, thread = await open_table(w, KEY, players=1, joiners=0)
    aiko, rng = w.members[0], random.Random(2)
    module = games.get(KEY)
    checked = 0
    for _ in range(12):
        await choose(aiko, await current_prompt(w, game_id, thread), rng)
        match, _version, record = await w.store.load_match(game_id)
        decisions = await w.store.match_decisions(game_id)
        ends = [i for i, d in enumerate(decisions) if d.ends_turn]
        current = decisions[ends[-1] + 1 :] if ends else decisions
        events = [e for d in current for e in d.events]
        expected = bulleted(module.story_lines(match.view(None), events, seat_names(record)) or [])
        prompt = await current_prompt(w, game_id, thread)
        above = prompt.content.split("Your turn:")[0].strip()
        assert above.split("\n") == expected if expected else above == "", (above, expected)
        checked += bool(expected)
        # Not the narration's sentence an event.
        assert not set(above.split("\n")) & {module.narrate(e, seat_names(record)) for e in events}
    assert checked


@pytest.mark.slow
async def test_a_solo_turn_that_starts_offers_no_undo_of_the_turn_before(world, kokeshi_at_the_platform):
    w = world
    game_id, thread = await open_table(w, KEY, players=1, joiners=0)
    aiko = w.members[0]
    for _ in range(2):  # the two starting tiles: the second one ends the setup turn
        await choose(aiko, await current_prompt(w, game_id, thread), random.Random(0))
    prompt = await current_prompt(w, game_id, thread)
    assert "Advance one of your kokeshi" in prompt.content
    assert not [c for c in custom_ids(prompt) if c.startswith("mt:u:")]
    refused = await aiko.slash(thread, "games undo")
    assert refused.ephemeral and "not made a move yet this turn" in reply(refused).content


async def test_the_question_says_how_many_idle_turns_are_left_once_the_end_is_near(
    world, kokeshi_at_the_platform, monkeypatch
):
    # A limit of one idle turn: the end against stalling is one idle turn away from the start.
    monkeypatch.setattr(engine.game, "IDLE_LIMIT", 1)
    game_id, thread = await open_table(world, KEY, players=1, joiners=0)
    prompt = await current_prompt(world, game_id, thread)
    assert "(⏳ 1 idle turn left before the end is triggered) An idle turn:" in prompt.content


async def test_the_question_names_another_seat_whose_idle_turns_run_out_first(world, kokeshi_at_the_platform):
    # botan (seat 2) is one idle turn from the end against stalling while aiko decides: aiko's question names him.
    w = world
    game_id, thread = await open_table(w, KEY, players=2, joiners=1)
    match, version, record = await w.store.load_match(game_id)
    first = match.waiting()[0]
    other = 1 - first
    match.engine.idles[match.engine.names.index(match.name_of(other))] = engine.data.IDLE_LIMIT - 1
    view = match.view(first)
    (prompt,) = match.prompts()
    names = ["aiko", "botan"]
    asked = Kokeshi().question_named(view, prompt, names)
    assert asked.endswith(f"(⏳ {names[other]}: 1 idle turn left before the end is triggered)" + IDLE), asked
    # Without the names (`question`), the count of another seat is left to the picture, as before.
    assert "idle turn" not in Kokeshi().question(view, prompt)
    # Its own count nearest: said without a name.
    match.engine.idles = [engine.data.IDLE_LIMIT - 1] * 2
    assert (
        Kokeshi()
        .question_named(match.view(first), prompt, names)
        .endswith("(⏳ 1 idle turn left before the end is triggered)" + IDLE)
    )


async def test_the_thread_and_the_table_name_the_seat_whose_idle_turns_run_out(
    world, kokeshi_at_the_platform, monkeypatch
):
    # The other seat's count is the nearest to the end against stalling, whoever decides.
    from games.kokeshi import module as kokeshi_module

    def near(view, player):
        return ("seat2" if player == "seat1" else "seat1", 2)

    monkeypatch.setattr(kokeshi_module, "idle_warning", near)
    w = world
    game_id, thread = await open_table(w, KEY, players=2, joiners=1)
    match, _version, record = await w.store.load_match(game_id)
    deciding = match.waiting()[0]
    names = {s.seat: s.name for s in record.seats}
    said = f"(⏳ {names[1 - deciding]}: 2 idle turns left before the end is triggered)"
    prompt = await current_prompt(w, game_id, thread)
    assert f"{said}{IDLE}**" in prompt.content
    # The menu's placeholder asks it so too.
    (menu,) = menus_of_groups(prompt)
    assert said in menu["placeholder"] and len(menu["placeholder"]) <= 150
    member = next(m for m in w.members if m.user.name == names[deciding])
    table = reply(await member.slash(thread, "games table"))
    assert table.content.endswith(said + IDLE)


async def test_the_question_is_quiet_while_the_end_is_far(world, kokeshi_at_the_platform):
    game_id, thread = await open_table(world, KEY, players=1, joiners=0)
    assert "idle turn" not in (await current_prompt(world, game_id, thread)).content


async def test_the_final_places_say_the_automas_score_under_the_players(world, kokeshi_at_the_platform):
    w = world
    match = await finished_match(w, KEY, w.members[:1], seed=5)
    record = (await w.store.games_in_channel(w.channel.id, statuses=("finished",)))[-1]
    standing = match.standing()
    automa = standing.details["automa"]
    text = places_text(kokeshi_at_the_platform, record, standing)
    player, note, verdict = text.split("\n")
    assert player.startswith("**aiko** — ")
    assert note.startswith(f"automa — **{automa['total']}** points (") and vocab.score_line(automa) in note
    # Then whether the player beat the automa, as /kokeshi's final post says it.
    won = standing.details["ranking"][0] == 0
    assert verdict == ("You beat the automa! 🎉" if won else "The automa wins this time."), (verdict, standing)
    # A game without an opponent of its own adds nothing.
    two = Standing(True, (2, 1), ({"total": 3}, {"total": 5}), {"ranking": [1, 0]})
    assert kokeshi_at_the_platform.standing_notes(two, ["aiko", "botan"]) == []


@pytest.mark.slow
async def test_the_whole_table_is_shown_beside_the_choice_and_to_whoever_looks_on_and_one_workshop_alone(
    world,
    kokeshi_at_the_platform,
    locales,  # noqa: F811
):
    w = world
    aiko, botan, chiyo = w.members[:3]
    game_id, thread = await open_table(w, KEY, players=2, joiners=1)
    match = (await w.store.load_match(game_id))[0]
    deciding = next(m for m in (aiko, botan) if m.user.name == ("aiko", "botan")[match.waiting()[0]])
    mine = reply(await deciding.slash(thread, "games table"))
    files = [a.filename for a in mine.attachments]
    assert files == [f"{KEY}-{game_id}-turn.png", f"{KEY}-{game_id}-table-phone.png", f"{KEY}-{game_id}-table.png"]
    assert mine.attachments[1].description == (
        "Kokeshi for a phone: your workshop, the happiness board, the offer, the scores and every other workshop."
    )
    assert mine.attachments[2].description == "Kokeshi: the whole table, every workshop at once."
    for attachment in mine.attachments:
        assert is_png(await attachment.read())
    # Someone not seated: the whole table alone, in place of the table anyone sees.
    looked = reply(await chiyo.slash(w.channel, "games table", game=game_id))
    assert [a.filename for a in looked.attachments] == files[1:]
    # Another seat's workshop alone, large, as /kokeshi table player: draws it, in the caller's language.
    other = next(m for m in (aiko, botan) if m is not deciding)
    names = ["aiko", "botan"]
    theirs = reply(await deciding.slash(thread, "games table", player=other.user.name.upper()))
    seat = names.index(other.user.name)
    (board,) = theirs.attachments
    assert theirs.content == f"**{other.user.name}'s board in Kokeshi #{game_id}**"
    assert board.filename == f"{KEY}-{game_id}-workshop.png"
    assert board.description.startswith(f"{other.user.name}'s workshop in Kokeshi, alone and large: ")
    # The very picture `/kokeshi table player:` draws, from the table anyone sees (no seat's choices marked).
    public = named_view(match.view(None), names)
    assert await board.read() == kokeshi_pictures.board(public, other.user.name)
    assert kokeshi_at_the_platform.board_picture(match.view(None), names, seat).png == await board.read()
    # Their own name: their own workshop alone too, not their choice.
    own = reply(await deciding.slash(thread, "games table", player=deciding.user.name))
    assert [a.filename for a in own.attachments] == [f"{KEY}-{game_id}-workshop.png"]
    assert await own.attachments[0].read() == kokeshi_pictures.board(public, deciding.user.name)
    # In the caller's language: the post, the picture's alt text and its words.
    locales[chiyo.id] = "pt-BR"
    seen = reply(await chiyo.slash(w.channel, "games table", game=game_id, player="aiko"))
    assert seen.content == f"**Tabuleiro de aiko em Kokeshi #{game_id}**"
    assert seen.attachments[0].description.startswith("Oficina de aiko em Kokeshi, sozinha e grande: ")
    with i18n.using("pt_BR"):
        assert await seen.attachments[0].read() == kokeshi_pictures.board(public, "aiko")
    del locales[chiyo.id]
    # The seats are offered by name; a name that is not one is refused, naming the players.
    offered = await chiyo.autocomplete(w.channel, "games table", "player", "bo", game=game_id)
    assert [c["value"] for c in offered] == ["botan"]
    refused = await chiyo.slash(w.channel, "games table", game=game_id, player="daiki")
    assert refused.ephemeral and reply(refused).content == f"No player called 'daiki' in game #{game_id}: aiko, botan."
    # A game that draws no whole table shows the one picture, as before; nor a board alone: a seat named comes first.
    kohaku, kohaku_thread = await open_table(w, "kohaku", players=2, joiners=0, ai=1, level="easy")
    assert len(reply(await aiko.slash(kohaku_thread, "games table")).attachments) == 1
    named = reply(await aiko.slash(kohaku_thread, "games table", player="AI 1"))
    assert named.content.startswith(f"**The table of Kōhaku #{kohaku}**") and len(named.attachments) == 1


# The AI plays the game out while the resignation is answered: time enough for that on a loaded machine. The
# settlement waits in real time for the bot's timers due before its deadline (the round posts held back to the
# channel's rate), so no longer than that: the later ones wait for `advance_time`.
@pytest.mark.simcord(settle_timeout=20)
@pytest.mark.slow  # the AI plays both seats to the end
async def test_a_player_who_resigns_is_ranked_last_in_the_final_post_as_in_the_results(world, kokeshi_at_the_platform):
    w = world
    game_id, thread = await open_table(w, KEY, players=2, joiners=0, ai=1, level="easy")
    before = len(thread.history())
    resigned = await w.members[0].slash(thread, "games resign")
    assert "You resigned" in reply(resigned).content
    assert (await w.store.get_game(game_id)).status == "finished"
    # Nobody reads it turn by turn now: it is told one post a round, as /kokeshi tells it, at the channel's rate.
    for _ in range(30):
        await w.env.advance_time(CHANNEL_SECONDS)
    posted = thread.history()[before:]
    rounds = [m for m in posted if "the AI plays every seat" in m.content]
    match = (await w.store.load_match(game_id))[0]
    assert isinstance(match, KokeshiMatch) and len(rounds) >= match.engine.round_number - 1 >= 10
    assert all(not m.attachments and m.content.count("\n") >= 1 and len(m.content) <= 2000 for m in rounds)
    assert bursts(posted) <= CHANNEL_MESSAGES
    assert (await w.store.turn_posts(game_id)).shown_version == (await w.store.get_game(game_id)).version
    assert await w.store.timers(game_id) == []
    final = thread.history()[-1].content
    # Every round is told once, in order, the end's round too (whole or not), just before the end's post, as
    # /kokeshi's own table tells it: the end's post tells no turn of it again.
    told = [kokeshi_records.round_heading(n) for n in range(kokeshi_records.round_of(match.view(None)) + 1)]
    headings = [m.content.split("\n")[0] for m in rounds]
    assert headings == told, headings
    assert posted[-2] is rounds[-1] and final.startswith(f"**Kokeshi #{game_id} is over.**"), final
    assert re.search(r"^• (aiko|AI 1) [+−]\d+ → −?\d+", rounds[-1].content, re.M), rounds[-1].content
    # Whatever the scores, the seat that resigned is last, and the post says why.
    assert re.search(r"^1\. \*\*AI 1\*\* — ", final, re.M), final
    assert re.search(r"^2\. \*\*aiko\*\* — .* — resigned$", final, re.M), final
    ranks = {r.name: r.rank for r in await w.store.results(game_id)}
    assert ranks == {"AI 1": 1, "aiko": 2}


@pytest.mark.slow  # a whole game through SimCord
async def test_kokeshis_daily_at_the_platforms_table_is_ranked_and_shared_in_kokeshis_words(
    world, kokeshi_at_the_platform
):
    w = world
    aiko = w.members[0]
    started = await aiko.slash(w.channel, "games challenge", game=KEY, kind="daily")
    assert "has started" in reply(started).content
    record = (await w.store.games_in_channel(w.channel.id, statuses=("active",)))[-1]
    assert record.solo and record.challenge.startswith("daily:")
    thread = next(t for t in w.channel.threads if t.id == record.thread_id)
    await play_through(w, record.id, thread, random.Random(7), limit=400, look=Reader(w, record.id))
    final = thread.history()[-1]
    assert "Daily challenge of" in final.content and "#1 of 1" in final.content
    shared = await aiko.click(final, custom_id=next(c for c in custom_ids(final) if c.startswith("mt:p:")))
    assert shared.ephemeral and "Shared" in reply(shared).content
    posted = w.channel.history()[-1]
    card, alt = posted.content, posted.attachments[0].description
    # The card's score items are Kokeshi's: its emoji in the text, its words in the picture's alt text.
    assert "Daily challenge" in card and all(vocab.SCORE_EMOJI[k] in card for k in ("tracks", "animals", "leads"))
    assert all(vocab.score_item(k) in alt for k in ("tracks", "animals", "leads"))
    board = await aiko.slash(w.channel, "games leaderboard", game=KEY, board="daily")
    assert f"<@{aiko.user.id}>" in reply(board).content
    kokeshi = await aiko.slash(w.channel, "kokeshi leaderboard", board="daily")
    # Kokeshi's own daily board is the same board: the attempt counts whichever table it was played at.
    (shown,) = reply(kokeshi).embeds
    assert "aiko" in shown.description, shown.description


async def test_a_placement_is_chosen_tile_first_then_track_privately(world, kokeshi_at_the_platform):
    w = world
    aiko = w.members[0]
    game_id, thread = await open_table(w, KEY, players=1, joiners=0)
    prompt = await current_prompt(w, game_id, thread)
    match, version, _record = await w.store.load_match(game_id)
    (asked,) = match.prompts()
    module = games.get(KEY)
    view = match.view(0)
    # The thread asks the tile: two starting tiles, named in Kokeshi's words, each with the five tracks it may go on
    # said under it as /kokeshi's tile menu says them.
    (menu,) = menus_of_groups(prompt)
    assert menu["custom_id"] == f"mt:g:{game_id}:{version}"
    tiles = list(asked.groups())
    tracks = tile_tracks(match.engine.prompt)
    assert [(o["value"], o["label"], o["description"]) for o in menu["options"]] == [
        (f"g:{tile}", module.group_label(view, asked, tile), tracks[tile]) for tile in tiles
    ]
    assert all(vocab.either([vocab.kokeshi(k) for k in engine.KOKESHI]) in line for line in tracks.values())
    assert not [c for c in custom_ids(prompt) if c.startswith(("mt:a:", "mt:s:"))]
    # Picking one answers privately with its tracks, as buttons carrying the rules' own action ids.
    picked = await aiko.select(prompt, [f"g:{tiles[1]}"], custom_id=menu["custom_id"])
    private = reply(picked)
    assert picked.ephemeral and module.group_label(view, asked, tiles[1]) in private.content
    # Under the tile's name, the tracks it may go on, as the first step said them.
    assert private.content.endswith(
        f"\n{module.group_label(view, asked, tiles[1])}\n{tile_tracks(match.engine.prompt)[tiles[1]]}"
    )
    buttons = [c for c in components(private) if c["custom_id"].startswith("mt:a:")]
    tracks = [c["custom_id"] for c in buttons]
    assert tracks == [f"mt:a:{game_id}:{version}:{o.id}" for o in asked.groups()[tiles[1]]]
    # Each with the emoji of its kokeshi, as /kokeshi's track buttons have it.
    theirs = track_view(game_id, version, match.engine.prompt, tiles[1], match.engine).children
    assert [c["emoji"]["name"] for c in buttons] == [str(b.item.emoji) for b in theirs]
    assert [c["emoji"]["name"] for c in buttons] == [vocab.KOKESHI_EMOJI[k] for k in engine.KOKESHI]
    assert (await w.store.get_game(game_id)).moves == 0  # nothing is played by picking a tile
    chosen = await aiko.click(private, custom_id=tracks[2])
    assert chosen.acknowledged and private.content == "Your choice is in."
    logged = [(seat, action) for _seq, seat, action, _events in await w.store.match_events(game_id)]
    assert logged == [(0, asked.groups()[tiles[1]][2].id)]


async def test_a_stale_second_step_is_refused_privately_and_changes_nothing(world, kokeshi_at_the_platform):
    w = world
    aiko = w.members[0]
    game_id, thread = await open_table(w, KEY, players=1, joiners=0)
    prompt = await current_prompt(w, game_id, thread)
    (menu,) = menus_of_groups(prompt)
    tile = menu["options"][0]["value"]
    # The same tile opened twice: two private messages of the same version.
    first = reply(await aiko.select(prompt, [tile], custom_id=menu["custom_id"]))
    second = reply(await aiko.select(prompt, [tile], custom_id=menu["custom_id"]))
    assert first.id != second.id
    await aiko.click(first, custom_id=custom_ids(first)[-1])
    before = (await w.store.load_match(game_id))[0].to_json()
    moves = (await w.store.get_game(game_id)).moves
    late = await aiko.click(second, custom_id=custom_ids(second)[-1])
    assert reply(late).ephemeral and "no longer current" in reply(late).content
    # The turn goes on, and aiko has a choice to make now: the refusal brings its current prompt, privately, with
    # the picture and the choices of the version the game is at.
    version = (await w.store.get_game(game_id)).version
    assert "Here is your current one" in reply(late).content and reply(late).attachments
    copied = [c.split(":") for c in custom_ids(reply(late)) if c.startswith("mt:")]
    assert copied and all(parts[3] == str(version) for parts in copied), copied
    group_menu = menus_of_groups(second)[0]
    other = group_menu["options"][1]["value"]
    again = await aiko.select(second, [other], custom_id=group_menu["custom_id"])
    assert reply(again).ephemeral and "no longer current" in reply(again).content
    assert custom_ids(reply(again)) and "Here is your current one" in reply(again).content
    assert (await w.store.load_match(game_id))[0].to_json() == before
    assert (await w.store.get_game(game_id)).moves == moves
    # The copy's own choices play on.
    await choose(aiko, reply(again), random.Random(5))
    assert (await w.store.get_game(game_id)).moves == moves + 1


async def test_a_restart_between_the_two_steps_loses_neither(world, kokeshi_at_the_platform, db_path):
    w = world
    aiko = w.members[0]
    game_id, thread = await open_table(w, KEY, players=1, joiners=0)
    prompt = await current_prompt(w, game_id, thread)
    (menu,) = menus_of_groups(prompt)
    private = reply(await aiko.select(prompt, [menu["options"][0]["value"]], custom_id=menu["custom_id"]))
    await restart(w, create_bot(db_path))
    # The new process reads both steps back from their custom_ids: another tile, in place, then its track.
    group_menu = menus_of_groups(private)[0]
    other = group_menu["options"][1]["value"]
    switched = await aiko.select(private, [other], custom_id=group_menu["custom_id"])
    assert reply(switched).id == private.id
    tracks = [c for c in custom_ids(private) if c.startswith("mt:a:")]
    assert tracks and all(c.split(":")[5] == other.removeprefix("g:") for c in tracks)
    chosen = await aiko.click(private, custom_id=tracks[0])
    assert chosen.acknowledged and private.content == "Your choice is in."
    logged = [action for _seq, _seat, action, _events in await w.store.match_events(game_id)]
    assert logged == [tracks[0].split(":", 4)[4]]
    assert w.env.errors == []


# A finished turn's record, headed as /kokeshi heads it: who, the round, the points and where they came from.
HEADING = re.compile(r"^\*\*(aiko|AI 1)\*\* · (setup|round \d+) · [+−]\d+ → −?\d+ points?( \(.+\))?$")


async def test_a_finished_turn_is_kept_under_its_heading_over_the_own_board_and_the_next_ping_sums_up_the_others(
    world, kokeshi_at_the_platform
):
    w = world
    game_id, thread = await open_table(w, KEY, players=2, joiners=0, ai=1, level="easy")
    rng = random.Random(2)
    for _ in range(12):
        prompt = await current_prompt(w, game_id, thread)
        if "Since your last turn" in prompt.content:
            break
        await choose(w.members[0], prompt, rng)
    else:
        raise AssertionError("no turn of aiko's after one of the AI's")
    # The new turn's post: whose turn and the question first, then one line per other player since aiko's last
    # turn (their points and why), within a message.
    content = prompt.content
    assert len(content) <= 2000
    assert content.index("Your turn:") < content.index("**Since your last turn:**")
    since = content.split("**Since your last turn:**\n", 1)[1].split("\n")
    assert re.match(r"^• AI 1 [+−]\d+ → −?\d+", since[0]), content
    # Each finished turn kept as its record: the heading, then the game's narration, over the player's own board.
    records = [m for m in thread.history() if HEADING.match(m.content.split("\n")[0])]
    assert {HEADING.match(m.content.split("\n")[0]).group(1) for m in records} == {"aiko", "AI 1"}
    assert all(not custom_ids(m) and m.attachments for m in records)
    decisions = await w.store.match_decisions(game_id)
    ends = [d.seq for d in decisions if d.ends_turn]
    views = await w.store.match_views(game_id, [0, ends[0]])
    first = [d for d in decisions if d.seq <= ends[0]]
    turn = Turn(first[0].seat, tuple(e for d in first for e in d.events), views[0], views[ends[0]])
    module = games.get(KEY)
    names = ["aiko", "AI 1"]
    assert records[0].content.split("\n")[0] == module.turn_heading(turn, names)
    # Under it, the turn told as /kokeshi's record tells it: one line a move, routine folded in (not the narration,
    # one sentence an event).
    lines = module.turn_lines(turn, names)
    assert lines and records[0].content.split("\n")[1:] == [f"• {line}" for line in lines]
    narration = [module.narrate(e, names) for e in turn.events]
    assert not set(records[0].content.split("\n")) & set(narration)
    picture = await records[0].attachments[0].read()
    assert picture == module.turn_picture(turn, names)
    # Its alt text in Kokeshi's words, as /kokeshi's records say it; the live prompt's too.
    player = names[turn.seat]
    assert records[0].attachments[0].description == (
        f"Kokeshi #{game_id}: {player}'s workshop after their turn, what the turn changed marked, and the scores."
    )
    found = await w.store.get_message(game_id, "prompt")
    live = message_in(thread, found[1])
    if live.attachments and live.components:
        assert live.attachments[0].description.startswith(f"Kokeshi #{game_id}, "), live.attachments[0].description
        assert "decision: " in live.attachments[0].description
    assert_told_as_a_player_reads_it(thread, await w.store.get_game(game_id))


async def test_the_threads_first_post_says_the_game_begins_and_its_turn_order_with_the_ai_levels(
    world, kokeshi_at_the_platform, bids
):
    w = world
    aiko, botan = w.members[:2]
    game_id, thread = await open_table(w, KEY, players=3, joiners=1, ai=1, level="hard")
    match, _version, record = await w.store.load_match(game_id)
    first = thread.history()[0]
    # Every seat once, the AI with its level, starting with the one the game asks first (drawn by the engine).
    words = {s.seat: f"<@{s.user_id}>" if not s.ai else f"**{s.name}** (AI, hard)" for s in record.seats}
    head = f"**Kokeshi #{game_id} begins!** Turn order: "
    assert first.content.startswith(head) and first.content.endswith("."), first.content
    told = re.findall(r"<@\d+>|\*\*[^*]+\*\* \(AI, \w+\)", first.content[len(head) : -1])
    decided = await w.store.match_decisions(game_id)  # the AI, if it starts, has played already
    starts = decided[0].seat if decided else match.waiting()[0]
    assert sorted(told) == sorted(words.values()) and told[0] == words[starts], (told, starts)
    # Then round the table as they sat.
    seats = [next(n for n, w in words.items() if w == t) for t in told]
    assert all((b - a) % 3 == 1 for a, b in zip(seats, seats[1:], strict=False)), seats
    assert first.components == [] and not first.attachments
    # A game whose seats decide at once names its players in seat order; a solo game only begins.
    bids_id, bids_thread = await open_table(w, "bids", players=2, joiners=1)
    assert bids_thread.history()[0].content == f"**Bids #{bids_id} begins!** Players: <@{aiko.id}>, <@{botan.id}>."
    solo_id, solo_thread = await open_table(w, KEY, players=1, joiners=0)
    assert solo_thread.history()[0].content == f"**Kokeshi #{solo_id} begins!**"


async def test_kokeshi_play_takes_a_choice_written_in_full_and_its_list_narrows_by_the_move(
    world,
    kokeshi_at_the_platform,
    locales,  # noqa: F811
):
    w = world
    aiko = w.members[0]
    module = kokeshi_at_the_platform
    game_id, thread = await open_table(w, KEY, players=1, joiners=0)
    match, version, _record = await w.store.load_match(game_id)
    (prompt,) = match.prompts()
    view = match.view(0)
    # Typed a move's name ("princess track"), the list offers the moves of that name first, then those whose words
    # hold it elsewhere.
    name = module.menu_label(view, prompt.options[0]).split(" · ")[0].lower()
    offered = [c["value"] for c in await aiko.autocomplete(thread, "kokeshi play", "choice", name.upper())]
    named = [f"{version}:{o.id}" for o in prompt.options if name in module.menu_label(view, o).lower()]
    assert named and offered[: len(named)] == named, (name, offered)
    # Typed in words of its label out of order, a choice is still found.
    words = module.label(view, prompt.options[1]).split()
    shuffled = " ".join([words[-1], words[0]])
    offered = [c["value"] for c in await aiko.autocomplete(thread, "kokeshi play", "choice", shuffled)]
    assert f"{version}:{prompt.options[1].id}" in offered
    # A label written out in full, as a button shows it, is played without the list.
    option = prompt.options[3]
    played = await aiko.slash(thread, "kokeshi play", choice=f"  {module.label(view, option).upper()} ")
    assert reply(played).content == "Your choice is in."
    assert [(d.seat, d.action) for d in await w.store.match_decisions(game_id)] == [(0, option.id)]
    # In Portuguese, a label in English is understood too; something no choice reads is refused in the player's
    # language, saying what is asked, and changes nothing.
    locales[aiko.id] = "pt-BR"
    match, version, _record = await w.store.load_match(game_id)
    (prompt,) = match.prompts()
    view = match.view(0)
    refused = await aiko.slash(thread, "kokeshi play", choice="a tile on the moon")
    assert refused.ephemeral and "não é uma das suas opções agora" in reply(refused).content, reply(refused).content
    assert (await w.store.get_game(game_id)).version == version
    with i18n.using("en"):
        english = module.label(view, prompt.options[0])
    played = await aiko.slash(thread, "kokeshi play", choice=english)
    assert reply(played).ephemeral and (await w.store.get_game(game_id)).version > version
    assert (await w.store.match_decisions(game_id))[-1].action == prompt.options[0].id


@pytest.mark.slow
async def test_kokeshis_commands_answer_a_platform_game_of_kokeshi_through_the_platform(
    world, kokeshi_at_the_platform, monkeypatch
):
    """The `/kokeshi` names players know keep working on a game of Kokeshi played at the platform's table: each
    answers through the platform, privately, and changes what the platform's own command or button would."""
    monkeypatch.setattr(secrets, "randbits", random.Random(5).getrandbits)
    w = world
    aiko, botan = w.members[0], w.members[1]
    game_id, thread = await open_table(w, KEY, players=1, joiners=0)
    record = await w.store.get_game(game_id)
    assert record.log_seats and not record.named_log  # dealt through the contract: its log by seat
    # Status: the platform's, this game's line with its link first among the caller's games.
    status = await aiko.slash(thread, "kokeshi status")
    assert status.ephemeral and f"<#{thread.id}>" in reply(status).content and "your turn" in reply(status).content
    # The table: the platform's pictures, privately.
    table = await aiko.slash(thread, "kokeshi table")
    assert table.ephemeral and reply(table).attachments
    assert all([is_png(await a.read()) for a in reply(table).attachments])
    # Play by command: the autocomplete offers the choices, each with the game's version; one is played.
    match, version, _record = await w.store.load_match(game_id)
    offered = [c["value"] for c in await aiko.autocomplete(thread, "kokeshi play", "choice", "")]
    legal = match.legal_actions(0)
    assert offered and len(offered) == min(len(legal), 25)
    assert set(offered) <= {f"{version}:{a}" for a in legal}, offered
    played = await aiko.slash(thread, "kokeshi play", choice=offered[0])
    assert reply(played).content == "Your choice is in."
    after = await w.store.get_game(game_id)
    assert after.version > version
    # The same choice again is out of date, and changes nothing.
    stale = await aiko.slash(thread, "kokeshi play", choice=offered[0])
    assert "no longer current" in reply(stale).content
    assert (await w.store.get_game(game_id)).version == after.version
    # The log: the move just made, as the thread told it.
    told = await aiko.slash(thread, "kokeshi log")
    assert told.ephemeral and "is played at the `/games` table" not in reply(told).content
    assert (await w.store.match_decisions(game_id))[0].seq == 1 and "`" in reply(told).content
    # A hint: the strongest AI's choice, privately.
    hinted = await aiko.slash(thread, "kokeshi hint")
    assert f"Hint for Kokeshi #{game_id}" in reply(hinted).content
    # Cancelling the game in progress: its host may; it is over, unrated, and its thread says so.
    cancelled = await aiko.slash(thread, "kokeshi cancel")
    assert reply(cancelled).content == f"Kokeshi #{game_id} is cancelled."
    assert (await w.store.get_game(game_id)).status == "cancelled"
    assert thread.history()[-1].content.startswith("This game was cancelled by")
    # A lobby of Kokeshi at the platform: joined, left, joined again and started by `/kokeshi` in its channel.
    opened = await aiko.slash(w.channel, "games new", game=KEY, players=2)
    lobby = (await w.store.games_in_channel(w.channel.id))[-1]
    assert "is open" in reply(opened).content and lobby.status == "lobby" and not lobby.named_log
    joined = await botan.slash(w.channel, "kokeshi join")
    assert reply(joined).content == f"You joined Kokeshi #{lobby.id}."
    left = await botan.slash(w.channel, "kokeshi leave", game=lobby.id)
    assert reply(left).content == f"You left Kokeshi #{lobby.id}."
    assert (await w.store.get_game(lobby.id)).seat_of(botan.id) is None
    await botan.slash(w.channel, "kokeshi join", game=lobby.id)
    refused = await botan.slash(w.channel, "kokeshi cancel", game=lobby.id)
    assert "Only the host" in reply(refused).content and (await w.store.get_game(lobby.id)).status == "lobby"
    started = await aiko.slash(w.channel, "kokeshi start", game=lobby.id)
    pair = await w.store.get_game(lobby.id)
    assert reply(started).content == f"Kokeshi #{lobby.id} has started: <#{pair.thread_id}>."
    # Resigning: the AI takes the seat and the thread says so.
    pair_thread = next(t for t in w.channel.threads if t.id == pair.thread_id)
    resigned = await aiko.slash(pair_thread, "kokeshi resign")
    assert reply(resigned).content.startswith("You resigned.")
    seat = (await w.store.get_game(lobby.id)).seat_of(aiko.id)
    assert seat is not None and seat.resigned and seat.ai
    assert any("resigned" in m.content for m in pair_thread.history())
    # Another game played at the platform is pointed there, and nothing changes.
    other_id, other_thread = await open_table(w, "kohaku", players=2, joiners=0, ai=1, level="easy")
    before = (await w.store.get_game(other_id)).version
    pointed = await aiko.slash(other_thread, "kokeshi table")
    assert f"#{other_id} is played at the `/games` table" in reply(pointed).content
    assert (await w.store.get_game(other_id)).version == before
    # A lobby Kokeshi's own table left (`/kokeshi new` opened it there before it opened them at the platform's), not
    # moved yet (the next start moves it): `/kokeshi` says so and changes nothing; the caller's games are listed.
    own_id, _lobby = await own_table_lobby(w, players=2, ai=1)
    own = await w.store.get_game(own_id)
    assert own.named_log and own.status == "lobby"
    refused = await aiko.slash(w.channel, "kokeshi start", game=own.id)
    assert reply(refused).content == "This game is moving to the bot's new table: please try again in a minute."
    after = await w.store.get_game(own.id)
    assert after.status == "lobby" and after.version == own.version and after.named_log
    mine = reply(await aiko.slash(w.channel, "kokeshi status")).content
    assert f"<#{pair_thread.id}>: setup, botan's turn" in mine and f"<#{own.thread_id}>: lobby" in mine, mine


@pytest.mark.slow
async def test_kokeshi_status_tells_a_platform_game_in_its_thread_and_lists_its_round_an_away_player_and_a_pause(
    world, kokeshi_at_the_platform, monkeypatch
):
    """`/kokeshi status` tells a game of Kokeshi at the platform's table as it tells one at its own: in its list, the
    round, whose turn, that the player it waits for is away, and that it is paused; in the game's thread, the game
    in detail (side, round, whom it waits for and for what, time left, who is away, each score)."""
    monkeypatch.setattr(secrets, "randbits", random.Random(7).getrandbits)
    w = world
    aiko, botan = w.members[0], w.members[1]
    game_id, thread = await open_table(w, KEY, players=2, joiners=1)
    match, _version, record = await w.store.load_match(game_id)
    to_move = next(s for s in record.seats if s.seat == match.waiting()[0])
    mover, caller = (aiko, botan) if to_move.user_id == aiko.user.id else (botan, aiko)
    went = await mover.slash(w.channel, "games away", duration="2d")
    assert "You are away until <t:" in reply(went).content
    listed = reply(await caller.slash(w.channel, "kokeshi status")).content
    [line] = [line for line in listed.splitlines() if f"<#{thread.id}>" in line]
    # The round as Kokeshi's own table names it ("setup" before the first round).
    named = vocab.round_name(match.engine.round_number)
    assert f": {named}, {to_move.name}'s turn" in line, line
    away = await w.store.away(mover.user.id)
    assert f"💤 away until <t:{int(away.ends_at)}:f>" in line, line
    assert "paused" not in line
    # In the game's thread, the game in detail first, as Kokeshi's own table tells it, then the caller's games.
    here = reply(await caller.slash(thread, "kokeshi status")).content
    detail, listed_there = here.split("\n\n", 1)
    lines = detail.splitlines()
    assert lines[0] == f"**Kokeshi #{game_id}** — basic side, {named}", here
    assert lines[1].startswith(f"Waiting for **{to_move.name}**: place your two starting tiles"), here
    assert any(line.startswith("Time left for this turn: ") for line in lines), here
    assert f"💤 {to_move.name} is away until <t:{int(away.ends_at)}:f>" in detail, here
    assert sorted(line for line in lines if line.startswith("• ")) == sorted(
        f"• {s.name}: 0 points" for s in record.seats
    ), here
    assert listed_there.startswith("**Your games**") and f"<#{thread.id}>" in listed_there, here
    # Someone who plays no game asks there: the game alone.
    outsider = w.members[2]
    seen = reply(await outsider.slash(thread, "kokeshi status")).content
    assert seen == detail, seen
    # The mover sees their own turn, and no mark of their own absence.
    own = reply(await mover.slash(w.channel, "kokeshi status")).content
    [line] = [line for line in own.splitlines() if f"<#{thread.id}>" in line]
    assert "**your turn**" in line and "away" not in line, line
    # Paused (Discord refuses its thread, as after the bot was removed): the list says so.
    now = w.env.now().timestamp()
    await w.store.set_reach(GameReach(game_id, since=now, status=403, code=50001, unreachable_at=now))
    listed = reply(await caller.slash(w.channel, "kokeshi status")).content
    [line] = [line for line in listed.splitlines() if f"<#{thread.id}>" in line]
    assert f"⚠️ paused: I cannot post in its thread (`/kokeshi status game:{game_id}` says why)" in line, line


async def test_games_new_offers_kokeshi_with_its_side_clock_language_and_finish_rate(world, kokeshi_at_the_platform):
    w = world
    aiko = w.members[0]
    offered = await aiko.autocomplete(w.channel, "games new", "game", "")
    assert "kokeshi" in [c["value"] for c in offered]
    options = {"variant": "advanced side", "clock": "1h", "language": "pt_BR", "min_finish": 80}
    opened = await aiko.slash(w.channel, "games new", game=KEY, players=2, **options)
    assert opened.ephemeral
    record = (await w.store.games_in_channel(w.channel.id))[-1]
    assert (record.game, record.side, record.language, record.log_seats) == (KEY, "advanced", "pt_BR", True)
    assert record.settings["side"] == "advanced" and record.settings["min_finish"] == 80 and "clock" in record.settings
