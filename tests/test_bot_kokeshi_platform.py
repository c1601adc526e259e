"""How far Kokeshi plays at the platform's table (`/games`) through the game contract alone, as a player reads it.

Kokeshi keeps its own table (`/kokeshi`) and its own store path; here its `GameModule` is registered under a second
key, for these tests only, and played with `/games new` from the deal to the record: against an AI seat, and solo
against the automa. What the platform's table still lacks beside `/kokeshi`'s is listed in docs/architecture.md
("Kokeshi at the platform's table").
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field

import pytest

import games
from games.base import Match
from games.kokeshi import engine, vocab
from games.kokeshi.engine import policy
from games.kokeshi.module import Kokeshi, KokeshiMatch
from tests import ai_work
from tests.botkit import World, components, custom_ids, is_png
from tests.test_bot_matches import current_prompt, open_table, play_through, reply

# The second key Kokeshi is played under at the platform's table (the store keeps "kokeshi" for its own path).
KEY = "kokeshiplat"
# Discord's limits: a button's label, a menu option's label, a menu's options, a message's rows.
BUTTON, OPTION, MENU, ROWS = 80, 100, 25, 5


class PlatformKokeshiMatch(KokeshiMatch):
    game = KEY


class PlatformKokeshi(Kokeshi):
    key = KEY
    match_type = PlatformKokeshiMatch

    def decide(self, match: Match, seat: int, level: str, seed: int) -> str:
        # The searching levels on the small budget Kokeshi's own table has in the tests (`tests.ai_work`).
        assert isinstance(match, KokeshiMatch) and seat in match.waiting()
        budget = None if level == "easy" else ai_work.BUDGET
        return str(policy(level, seed=seed, budget=budget).choose(match.engine))


@pytest.fixture
def kokeshi_at_the_platform():
    """Kokeshi's module under `KEY`, registered for the test."""
    module = games.register(PlatformKokeshi())
    yield module
    games.unregister(KEY)


@dataclass
class Reader:
    """What a player reads on each message they answer, checked against Discord's limits and the match."""

    w: World
    game_id: int
    questions: dict[str, int] = field(default_factory=dict)
    pictures: int = 0

    async def __call__(self, message) -> None:
        assert len(message.components) <= ROWS, message.content
        parts = components(message)
        offered: dict[str, str] = {}
        for part in parts:
            if part.get("type") == 3:
                assert len(part["options"]) <= MENU
                for option in part["options"]:
                    assert len(option["label"]) <= OPTION
                    offered[option["value"]] = option["label"]
            elif part.get("custom_id", "").startswith("mt:a:"):
                assert len(part["label"]) <= BUTTON
                offered[part["custom_id"].split(":", 4)[4]] = part["label"]
        match, _version, record = await self.w.store.load_match(self.game_id)
        ai = {s.seat for s in record.seats if s.ai}
        seat = next(s for s in match.waiting() if s not in ai)
        # Every choice the rules give is offered (none lost past a menu's 25), each with a label of its own.
        assert sorted(offered) == sorted(match.legal_actions(seat)), message.content
        assert len(set(offered.values())) == len(offered), sorted(offered.values())
        question = re.findall(r"^\*\*(.+)\*\*$", message.content, re.M)[-1]
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
    world, kokeshi_at_the_platform
):
    w = world
    game_id, thread = await open_table(w, KEY, players=2, joiners=0, ai=1, level="easy")
    reader = Reader(w, game_id)
    decisions = await play_through(w, game_id, thread, random.Random(4), limit=400, look=reader)
    assert decisions > 30
    # Every kind of decision of a turn was asked, and the pictures were drawn.
    asked = {"Advance one of your kokeshi", "Choose a tile to buy", "Place the tiles you bought"}
    assert asked <= set(reader.questions)
    assert reader.pictures == 3
    record = await w.store.get_game(game_id)
    assert record.status == "finished"
    # The AI's turns are told in the thread, move by move, under its name.
    text = thread_text(thread)
    assert "AI 1's turn ends; aiko is next." in text and re.search(r"AI 1 buys a tile \(", text)
    assert_told_as_a_player_reads_it(thread, record)
    final = thread.history()[-1]
    assert "is over" in final.content and "The game is over. Winner:" in final.content
    assert is_png(await final.attachments[0].read())
    results = await w.store.results(game_id)
    # Each seat's score item by item, as Kokeshi counts it.
    assert len(results) == 2
    for result in results:
        assert set(result.details) == set(Kokeshi.stat_keys) - {"total"}
        assert result.total == sum(result.details.values())
    # Stats in Kokeshi's own words; Kokeshi's own boards know nothing of it.
    stats = await w.members[0].slash(w.channel, "games stats", game=KEY)
    scores = {f.name: f.value for f in reply(stats).embeds[0].fields}["Scores"]
    headings = {line.split(":")[0] for line in scores.split("\n")}
    assert "Total" in headings and headings <= {vocab.score_item(k) for k in Kokeshi.stat_keys}
    assert await w.store.leaderboard("wins", w.guild.id) == []


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
    # The automa's draws are told as they happen.
    assert re.search(r"The automa draws a tile \(", thread_text(thread))
    assert_told_as_a_player_reads_it(thread, record)
    final = thread.history()[-1]
    assert "is over" in final.content and re.search(r"Winner: (automa|aiko)\.", final.content)
    assert is_png(await final.attachments[0].read())
    (result,) = await w.store.results(game_id)
    assert result.user_id == w.members[0].user.id


async def test_each_choice_says_what_it_does_and_the_hint_names_one_of_them(world, kokeshi_at_the_platform):
    w = world
    game_id, thread = await open_table(w, KEY, players=2, joiners=0, ai=1, level="easy")
    prompt = await current_prompt(w, game_id, thread)
    await Reader(w, game_id)(prompt)
    # The starting tiles: every tile on every track, in one menu, each saying the height it goes to.
    (menu,) = [c for c in components(prompt) if c.get("type") == 3]
    labels = [o["label"] for o in menu["options"]]
    assert len(labels) == 10 and all("track · " in label and "→ height 1" in label for label in labels)
    hint = next(c for c in custom_ids(prompt) if c.startswith("mt:h:"))
    hinted = await w.members[0].click(prompt, custom_id=hint)
    assert hinted.ephemeral and "the hard AI would choose" in reply(hinted).content
    assert any(label in reply(hinted).content for label in labels)
    # With why: what Kokeshi's search expects the choice to gain over the others.
    assert re.search(r"about −?[\d.,]+ points better off", reply(hinted).content), reply(hinted).content


async def test_a_solo_turn_that_starts_offers_no_undo_of_the_turn_before(world, kokeshi_at_the_platform):
    w = world
    game_id, thread = await open_table(w, KEY, players=1, joiners=0)
    aiko = w.members[0]
    for _ in range(2):  # the two starting tiles: the second one ends the setup turn
        prompt = await current_prompt(w, game_id, thread)
        parts = components(prompt)
        if parts[0].get("type") == 3:
            await aiko.select(prompt, [parts[0]["options"][0]["value"]], custom_id=parts[0]["custom_id"])
        else:
            await aiko.click(prompt, custom_id=parts[0]["custom_id"])
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
    assert "(⏳ 1 idle turn left before the end is triggered)**" in prompt.content


async def test_the_question_is_quiet_while_the_end_is_far(world, kokeshi_at_the_platform):
    game_id, thread = await open_table(world, KEY, players=1, joiners=0)
    assert "idle turn" not in (await current_prompt(world, game_id, thread)).content


@pytest.mark.slow  # the AI plays both seats to the end
async def test_a_player_who_resigns_is_ranked_last_in_the_final_post_as_in_the_results(world, kokeshi_at_the_platform):
    w = world
    game_id, thread = await open_table(w, KEY, players=2, joiners=0, ai=1, level="easy")
    resigned = await w.members[0].slash(thread, "games resign")
    assert "You resigned" in reply(resigned).content
    assert (await w.store.get_game(game_id)).status == "finished"
    final = thread.history()[-1].content
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
    # The card's score items are Kokeshi's: its emoji in the text, its words in the picture's alt text; Kokeshi's
    # own daily board is another board.
    assert "Daily challenge" in card and all(vocab.SCORE_EMOJI[k] in card for k in ("tracks", "animals", "leads"))
    assert all(vocab.score_item(k) in alt for k in ("tracks", "animals", "leads"))
    board = await aiko.slash(w.channel, "games leaderboard", game=KEY, board="daily")
    assert f"<@{aiko.user.id}>" in reply(board).content
    kokeshi = await aiko.slash(w.channel, "kokeshi leaderboard", board="daily")
    assert f"<@{aiko.user.id}>" not in reply(kokeshi).content
