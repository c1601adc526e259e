"""Another game through the platform only: Bids (simultaneous secret bids) and Kōhaku from lobby to leaderboard."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

import games
import i18n
from bot import create_bot
from cogs.match_boards import stats_fields
from tests.botkit import World, components, custom_ids, lobby_message, message_in, restart
from tests.games import tiny


def reply(result):
    return result.followups[-1] if result.followups else result.response


async def open_table(w: World, game: str, players: int, joiners: int, **options):
    """`/games new` by aiko, `joiners` others join, aiko starts: (game id, thread)."""
    aiko = w.members[0]
    created = await aiko.slash(w.channel, "games new", game=game, players=players, **options)
    record = (await w.store.games_in_channel(w.channel.id))[-1]
    assert record.game == game
    if joiners:
        assert created.ephemeral and "is open" in reply(created).content, reply(created).content
        lobby = await lobby_message(w, record.id)
        for member in w.members[1 : 1 + joiners]:
            joined = await member.click(lobby, label="Join")
            assert "You joined" in reply(joined).content
        started = await aiko.click(lobby, label="Start")
        assert "has started" in reply(started).content, reply(started).content
    else:  # every other seat the AI's: the table starts at once
        assert created.ephemeral and "has started" in reply(created).content, reply(created).content
    record = await w.store.get_game(record.id)
    assert record.status == "active"
    thread = next(t for t in w.channel.threads if t.id == record.thread_id)
    return record.id, thread


async def current_prompt(w: World, game_id: int, thread):
    found = await w.store.get_message(game_id, "prompt")
    assert found is not None
    return message_in(thread, found[1])


def menus_of_groups(message) -> list[dict]:
    """The first step's menus of a choice in two steps (groups, and choices in none)."""
    return [c for c in components(message) if c.get("custom_id", "").startswith("mt:g:")]


async def choose(member, message, rng: random.Random):
    """A random one of the message's choices: a button, or an entry of its menu; in two steps, a random entry of
    the groups' menu, then (a group) one of its choices, on the private message it opened."""
    parts = [c for c in components(message) if c.get("custom_id", "").startswith(("mt:a:", "mt:s:"))]
    groups = menus_of_groups(message)
    if groups and not parts:
        value = rng.choice([o["value"] for o in groups[0]["options"]])
        picked = await member.select(message, [value], custom_id=groups[0]["custom_id"])
        if value.startswith("a:"):
            return picked
        message = reply(picked)
        assert message.ephemeral and menus_of_groups(message), message.content
        parts = [c for c in components(message) if c.get("custom_id", "").startswith(("mt:a:", "mt:s:"))]
    assert parts, message.content
    if parts[0].get("type") == 3:
        values = [o["value"] for o in parts[0]["options"]]
        return await member.select(message, [rng.choice(values)], custom_id=parts[0]["custom_id"])
    return await member.click(message, custom_id=rng.choice(parts)["custom_id"])


async def play_through(
    w: World,
    game_id: int,
    thread,
    rng: random.Random,
    limit: int = 200,
    look: Callable[[Any], Awaitable[None]] | None = None,
    *,
    to_end: bool = True,
) -> int:
    """Every person seated answers what the thread asks (privately when it asks so) until the game is over; `look`
    is shown each message a person answers, before the answer. Not `to_end`: `limit` decisions are made, or fewer
    when the game ends first."""
    by_id = {m.user.id: m for m in w.members}
    for decisions in range(limit):
        record = await w.store.get_game(game_id)
        if record.status != "active":
            return decisions
        prompt = await current_prompt(w, game_id, thread)
        ids = custom_ids(prompt)
        assert ids, prompt.content
        match, _version, _record = await w.store.load_match(game_id)
        waiting = [s for s in record.seats if not s.ai and s.seat in match.waiting()]
        assert waiting, "the thread asks, but no person is waiting"
        seat = waiting[0]
        member = by_id[seat.user_id]
        if ids[0].startswith("mt:c:"):
            # Secret choices: opened privately, answered on the private message.
            opened = await member.click(prompt, custom_id=ids[0])
            private = reply(opened)
            assert opened.ephemeral and private.attachments, private
            if look is not None:
                await look(private)
            chosen = await choose(member, private, rng)
        else:
            if look is not None:
                await look(prompt)
            chosen = await choose(member, prompt, rng)
        assert chosen.acknowledged
        assert not chosen.followups or not chosen.ephemeral or "not" not in reply(chosen).content.lower()
    if not to_end:
        return limit
    raise AssertionError("the game did not end")


@pytest.mark.slow  # a whole game through SimCord
async def test_bids_is_played_from_the_lobby_to_the_leaderboard(world, bids):
    w = world
    game_id, thread = await open_table(w, "bids", players=2, joiners=1)
    first = await current_prompt(w, game_id, thread)
    # Both seats bid at once and in secret: one private button (and what happened since one's last turn, privately),
    # never the bids themselves in the thread; a game of two people offers no hint.
    assert [c["custom_id"].split(":")[:2] for c in components(first)] == [["mt", "c"], ["mt", "w"]]
    assert "privately" in first.content
    decisions = await play_through(w, game_id, thread, random.Random(1))
    assert decisions == 2 * len(tiny.PRIZES)
    final = thread.history()[-1]
    assert "is over" in final.content and final.attachments
    results = await w.store.results(game_id)
    assert len(results) == 2
    # Every bid stays out of the thread until the prize is decided; the seed never shows.
    record = await w.store.get_game(game_id)
    shown = "\n".join(m.content for m in thread.history())
    assert str(record.seed) not in shown
    board = await w.members[0].slash(w.channel, "games leaderboard", game="bids")
    text = reply(board).content
    assert "Bids" in text and text.count("<@") == 2
    rated = reply(await w.members[0].slash(w.channel, "games leaderboard", game="bids", board="rating")).content
    assert "rating" in rated and rated.count("<@") == 2
    # Kokeshi's boards know nothing of it.
    assert await w.store.leaderboard("wins", w.guild.id) == []


class ManyBids(tiny.Bids):
    game = "manybids"


class ManyBidsModule(tiny.BidsModule):
    """Bids with forty cards in each hand: more choices than one menu holds."""

    key = "manybids"
    name = "Many bids"

    def deal(self, options, seed, seats, rules=None):
        match = super().deal(options, seed, seats, rules)
        match.s["hands"] = [list(range(1, 41)) for _ in range(seats)]
        return ManyBids(match.s)

    def load(self, text):
        return ManyBids(super().load(text).s)


async def test_more_choices_than_a_menu_holds_are_offered_in_several_menus(world):
    w = world
    games.register(ManyBidsModule())
    try:
        game_id, thread = await open_table(w, "manybids", players=2, joiners=1)
        prompt = await current_prompt(w, game_id, thread)
        opened = await w.members[0].click(prompt, custom_id=custom_ids(prompt)[0])
        private = reply(opened)
        menus = [c for c in components(private) if c.get("type") == 3]
        version = (await w.store.get_game(game_id)).version
        # Every card, in the hand's order, 25 to a menu; each menu says which part of the choices it holds.
        assert [m["custom_id"] for m in menus] == [f"mt:s:{game_id}:{version}", f"mt:s:{game_id}:{version}:1"]
        assert [len(m["options"]) for m in menus] == [25, 15]
        assert [o["value"] for m in menus for o in m["options"]] == [f"bid:{n}" for n in range(1, 41)]
        assert [m["placeholder"] for m in menus] == ["Your secret bid · 1–25/40", "Your secret bid · 26–40/40"]
        chosen = await w.members[0].select(private, ["bid:33"], custom_id=menus[1]["custom_id"])
        assert chosen.acknowledged
        logged = [(seat, action) for _seq, seat, action, _events in await w.store.match_events(game_id)]
        assert logged == [(0, "bid:33")]
    finally:
        games.unregister("manybids")


class GroupedBids(tiny.Bids):
    """Bids with twelve cards in each hand: the 1 on its own, the others in two groups, low and high."""

    game = "groupedbids"

    def prompts(self):
        return tuple(
            dataclasses.replace(
                prompt,
                options=tuple(
                    dataclasses.replace(o, group="" if o.code[1] == 1 else "low" if o.code[1] <= 6 else "high")
                    for o in prompt.options
                ),
            )
            for prompt in super().prompts()
        )


class GroupedBidsModule(tiny.BidsModule):
    key = "groupedbids"
    name = "Grouped bids"

    def deal(self, options, seed, seats, rules=None):
        match = super().deal(options, seed, seats, rules)
        match.s["hands"] = [list(range(1, 13)) for _ in range(seats)]
        return GroupedBids(match.s)

    def load(self, text):
        return GroupedBids(super().load(text).s)

    def group_label(self, view, prompt, group):
        return {"low": "Low cards", "high": "High cards"}[group]


@pytest.fixture
def grouped_bids():
    module = games.register(GroupedBidsModule())
    yield module
    games.unregister(module.key)


def entries(menu) -> list[tuple[str, str, str | None, bool]]:
    return [(o["value"], o["label"], o.get("description"), o.get("default", False)) for o in menu["options"]]


async def test_a_secret_choice_in_groups_is_made_group_first_on_the_private_message(world, grouped_bids):
    w = world
    aiko, botan = w.members[:2]
    game_id, thread = await open_table(w, "groupedbids", players=2, joiners=1)
    prompt = await current_prompt(w, game_id, thread)
    opened = await aiko.click(prompt, custom_id=custom_ids(prompt)[0])
    private = reply(opened)
    version = (await w.store.get_game(game_id)).version
    # The first step: the card in no group, then each group where its first card stands, saying how many it holds.
    (menu,) = components(private)
    assert menu["custom_id"] == f"mt:g:{game_id}:{version}"
    assert entries(menu) == [
        ("a:bid:1", "Bid 1", None, False),
        ("g:low", "Low cards", "5 choices", False),
        ("g:high", "High cards", "6 choices", False),
    ]
    # A group shows its cards in place of the first step (the picture kept), the group marked; nothing is played.
    high = await aiko.select(private, ["g:high"], custom_id=menu["custom_id"])
    assert reply(high).id == private.id and not high.followups
    assert private.attachments and "High cards" in private.content
    first, second = components(private)
    assert [e[0] for e in entries(first) if e[3]] == ["g:high"]
    assert second["custom_id"] == f"mt:s:{game_id}:{version}"
    assert [o["value"] for o in second["options"]] == [f"bid:{n}" for n in range(7, 13)]
    # Another group, from the same menu; its five cards are buttons.
    await aiko.select(private, ["g:low"], custom_id=first["custom_id"])
    assert [c for c in custom_ids(private) if c.startswith("mt:a:")] == [
        f"mt:a:{game_id}:{version}:bid:{n}" for n in range(2, 7)
    ]
    assert await w.store.match_events(game_id) == []
    chosen = await aiko.click(private, custom_id=f"mt:a:{game_id}:{version}:bid:4")
    assert chosen.acknowledged and private.content == "Your choice is in." and components(private) == []
    # Botan, the one seat left, is asked in the thread; the card in no group is played from the first step at once.
    prompt = await current_prompt(w, game_id, thread)
    menu = components(prompt)[0]
    played = await botan.select(prompt, ["a:bid:1"], custom_id=menu["custom_id"])
    assert played.acknowledged and not played.followups
    logged = [(seat, action) for _seq, seat, action, _events in await w.store.match_events(game_id)]
    assert logged == [(0, "bid:4"), (1, "bid:1")]


async def test_a_group_of_another_version_or_picked_by_someone_not_seated_is_refused_privately(world, grouped_bids):
    w = world
    aiko, botan, chiyo = w.members[:3]
    game_id, thread = await open_table(w, "groupedbids", players=2, joiners=1)
    prompt = await current_prompt(w, game_id, thread)
    private = reply(await aiko.click(prompt, custom_id=custom_ids(prompt)[0]))
    menu = components(private)[0]
    # Botan bids: the match moves on to another version, and aiko's menu is stale.
    await choose(botan, reply(await botan.click(prompt, custom_id=custom_ids(prompt)[0])), random.Random(2))
    before = (await w.store.load_match(game_id))[0].to_json()
    stale = await aiko.select(private, ["g:low"], custom_id=menu["custom_id"])
    assert "no longer current" in reply(stale).content and reply(stale).ephemeral
    assert components(private) == [menu]  # the private message is left as it was
    # Aiko is still asked: the refusal brings the prompt the game asks now, for its current version.
    version = (await w.store.get_game(game_id)).version
    copied = [c.split(":") for c in custom_ids(reply(stale))]
    assert copied and all(parts[3] == str(version) for parts in copied if parts[0] == "mt"), copied
    assert (await w.store.load_match(game_id))[0].to_json() == before
    # Aiko, the one seat left, is asked in the thread now: someone not seated who picks a group there is refused.
    post = await current_prompt(w, game_id, thread)
    outsider = await chiyo.select(post, ["g:high"], custom_id=menus_of_groups(post)[0]["custom_id"])
    assert outsider.ephemeral and "not playing" in reply(outsider).content
    assert (await w.store.load_match(game_id))[0].to_json() == before


async def test_a_stale_or_foreign_click_is_refused_privately_and_changes_nothing(world, bids):
    w = world
    game_id, thread = await open_table(w, "bids", players=2, joiners=1)
    prompt = await current_prompt(w, game_id, thread)
    before = (await w.store.load_match(game_id))[0].to_json()
    outsider = await w.members[2].click(prompt, custom_id=custom_ids(prompt)[0])
    assert outsider.ephemeral and "not playing" in reply(outsider).content
    assert (await w.store.load_match(game_id))[0].to_json() == before


@pytest.mark.slow  # a whole game through SimCord
async def test_kohaku_against_an_ai_seat_is_played_to_its_end(world):
    w = world
    game_id, thread = await open_table(w, "kohaku", players=2, joiners=0, ai=1, level="easy")
    # Against the AI alone, a hint is offered: privately, the hard AI's choice among the prompt's own.
    prompt = await current_prompt(w, game_id, thread)
    hint_id = next(c for c in custom_ids(prompt) if c.startswith("mt:h:"))
    before = (await w.store.load_match(game_id))[0].to_json()
    hinted = await w.members[0].click(prompt, custom_id=hint_id)
    assert hinted.ephemeral and "the hard AI would choose" in reply(hinted).content
    labels = [o["label"] for c in components(prompt) for o in c.get("options", [])]
    assert any(label in reply(hinted).content for label in labels)
    assert "points better off at the end of the game" in reply(hinted).content  # and why, by its own measure
    assert (await w.store.load_match(game_id))[0].to_json() == before
    decisions = await play_through(w, game_id, thread, random.Random(3), limit=400)
    assert decisions > 5
    final = thread.history()[-1]
    assert "is over" in final.content and final.attachments
    assert len(await w.store.results(game_id)) == 2


async def test_kokeshi_opens_at_the_platforms_table_by_either_command(world):
    created = await world.members[0].slash(world.channel, "games new", game="kokeshi", players=2)
    assert "Your Kokeshi table #1 is open" in reply(created).content
    # `/kokeshi new` opens its lobby at the platform's table too (it used to open one at Kokeshi's own table).
    opened = await world.members[1].slash(world.channel, "kokeshi new", players=2)
    assert "Your Kokeshi table #2 is open" in reply(opened).content
    first, second = await world.store.games_in_channel(world.channel.id)
    assert (first.game, first.log_seats, second.game, second.log_seats) == ("kokeshi", True, "kokeshi", True)
    assert not first.named_log and not second.named_log


async def test_a_table_goes_on_after_a_restart_with_the_same_buttons(world, bids, db_path):
    w = world
    game_id, thread = await open_table(w, "bids", players=2, joiners=1)
    prompt = await current_prompt(w, game_id, thread)
    await restart(w, create_bot(db_path))
    # The start-up catches Kokeshi's threads up and resumes its AI turns: another game's table is left as it is.
    assert (await current_prompt(w, game_id, thread)).id == prompt.id
    decisions = await play_through(w, game_id, thread, random.Random(5))
    assert decisions == 2 * len(tiny.PRIZES)
    assert (await w.store.get_game(game_id)).status == "finished"


@pytest.mark.slow  # a whole game through SimCord
async def test_the_kohaku_daily_is_played_against_danny_and_ranked_on_its_own_board(world):
    w = world
    aiko, botan = w.members[:2]
    started = await aiko.slash(w.channel, "games challenge", game="kohaku", kind="daily")
    assert started.ephemeral and "has started" in reply(started).content, reply(started).content
    record = (await w.store.games_in_channel(w.channel.id, statuses=("active",)))[-1]
    assert record.game == "kohaku" and record.solo and record.challenge.startswith("daily:")
    thread = next(t for t in w.channel.threads if t.id == record.thread_id)
    await play_through(w, record.id, thread, random.Random(7), limit=400)
    final = thread.history()[-1]
    assert "is over" in final.content and "Daily challenge of" in final.content and "#1 of 1" in final.content
    # The same deal for the next player: the same seed, and a second line on the board.
    again = await botan.slash(w.channel, "games challenge", game="kohaku", kind="daily")
    assert "has started" in reply(again).content
    second = (await w.store.games_in_channel(w.channel.id, statuses=("active",)))[-1]
    assert second.id != record.id
    first_deal = (await w.store.load_match(second.id))[0].view(None)["board"]
    assert (
        first_deal
        == games.get("kohaku").deal({"goals": False}, w.store.challenge_seed(record.challenge), 1).view(None)["board"]
    )
    board = await aiko.slash(w.channel, "games leaderboard", game="kohaku", board="daily")
    assert "daily challenge" in reply(board).content and f"<@{aiko.user.id}>" in reply(board).content
    # Kokeshi's daily board is another board.
    kokeshi = await aiko.slash(w.channel, "kokeshi leaderboard", board="daily")
    assert f"<@{aiko.user.id}>" not in reply(kokeshi).content
    # The attempt counts in the player's stats at the game: its score, and a run of one day.
    score = (await w.store.results(record.id))[0].total
    challenges = fields_of(await aiko.slash(w.channel, "games stats", game="kohaku"))["Challenges"]
    assert challenges.startswith("daily: 1 attempt, ") and f"best {score:,} · streak 1 day" in challenges


async def finished_match(w: World, game: str, members, seed: int):
    """A game of `game` between these members, dealt on `seed` and played to its end by random choices straight
    through the store (no thread): its last match."""
    host = members[0]
    game_id = await w.store.create_game(
        guild_id=w.guild.id,
        channel_id=w.channel.id,
        host_id=host.user.id,
        host_name=host.user.name,
        players=len(members),
        solo=len(members) == 1,
        game=game,
    )
    for member in members[1:]:
        await w.store.add_seat(game_id, member.user.id, member.user.name)
    match, version = await w.store.start_match(game_id, seed)
    rng = random.Random(seed)
    while not match.is_over:
        seat = rng.choice(match.waiting())
        played = await w.store.play_match(game_id, version, seat, rng.choice(match.legal_actions(seat)))
        match, version = played.match, played.record.version
    return match


def fields_of(result) -> dict[str, str]:
    return {f.name: f.value for f in reply(result).embeds[0].fields}


@pytest.mark.slow
async def test_a_players_stats_at_another_game_answer_privately_in_the_games_own_words(world, bids):
    w = world
    aiko, botan, chiyo = w.members[:3]
    duel = (await finished_match(w, "bids", [aiko, botan], seed=5)).standing()
    solo = (await finished_match(w, "kohaku", [aiko], seed=6)).standing()
    asked = await aiko.slash(w.channel, "games stats", game="bids")
    assert asked.ephemeral and reply(asked).embeds[0].title == "aiko at Bids"
    won, total = duel.places[0] == 1, duel.scores[0]["total"]
    rate = "100%" if won else "0%"
    assert fields_of(asked) == {
        "Games": f"1 played · {int(won)} won ({rate})",
        "Rating": fields_of(asked)["Rating"],
        "Scores": f"Points: average {total}.0 · best {total}",
        # How the player's games of it ended, in `/kokeshi stats`' words.
        "Games ended": "1 finished · 0 resigned · 0 timed out\nfinish rate 100%",
    }
    # Rated in this server and in the world, as the game's rating board rates.
    assert fields_of(asked)["Rating"].startswith("this server ") and "\nworld " in fields_of(asked)["Rating"]
    # Someone else's, by the user option: botan's own game of it.
    theirs = await aiko.slash(w.channel, "games stats", game="bids", user=botan)
    assert reply(theirs).embeds[0].title == "botan at Bids"
    assert (
        fields_of(theirs)["Scores"] == f"Points: average {duel.scores[1]['total']}.0 · best {duel.scores[1]['total']}"
    )
    # Kōhaku's score items in Kōhaku's words; a solo game is counted, and rates nobody.
    kohaku = await aiko.slash(w.channel, "games stats", game="kohaku")
    shown = fields_of(kohaku)
    assert shown["Games"].startswith("1 played, 1 of them solo") and "Rating" not in shown
    assert f"Total: average {solo.scores[0]['total']}.0" in shown["Scores"] and "Frogs: average" in shown["Scores"]
    # The game as typed is offered like the other commands' games.
    offered = await aiko.autocomplete(w.channel, "games stats", "game", "kō")
    assert [c["value"] for c in offered] == ["kohaku"]


async def test_stats_of_an_unknown_game_or_a_player_without_games_say_so_and_change_nothing(world, bids):
    w = world
    aiko, _botan, chiyo = w.members[:3]
    await finished_match(w, "bids", w.members[:2], seed=5)
    rows = await w.store.results_for_user(aiko.user.id)
    for game, who, said in (
        ("chess", None, "There is no game called “chess”."),
        ("bids", chiyo, "chiyo has no finished game of Bids yet"),
        ("kohaku", None, "aiko has no finished game of Kōhaku yet"),
        ("kokeshi", None, "aiko has no finished game of Kokeshi yet"),
    ):
        options = {"game": game} if who is None else {"game": game, "user": who}
        asked = await aiko.slash(w.channel, "games stats", **options)
        assert asked.ephemeral and said in reply(asked).content, reply(asked).content
        assert not reply(asked).embeds
    assert await w.store.results_for_user(aiko.user.id) == rows
    assert w.channel.history() == []


def test_the_stats_read_in_portuguese_with_the_games_own_words():
    from games.kohaku.model import SCORE_KEYS
    from storage import ChallengeRecord, GameStats, Rating, ScoreItem

    figures = {key: ScoreItem(2.5, 4) for key in SCORE_KEYS} | {"goal": ScoreItem(0.0, 0)}
    found = GameStats(
        games=3,
        wins=1,
        solo_games=2,
        items=figures,
        world=Rating(1, games=1),
        server=None,
        challenges={"daily": ChallengeRecord(2, 2, 1, 61, 2), "weekly": ChallengeRecord()},
    )
    with i18n.using("pt_BR"):
        fields = dict(stats_fields(games.get("kohaku"), found))
    assert fields["Partidas"] == "3 jogadas, 2 delas solo · 1 vencidas (33%)"
    assert fields["Desafios"] == "diário: 2 tentativas, 1 vencidas · melhor 61 · sequência de 2 dias"
    lines = fields["Pontos"].split("\n")
    # Every item, in the game's words, but the one never scored (no goal card was played).
    assert "Sapos: média 2,5 · melhor 4" in lines and len(lines) == len(SCORE_KEYS) - 1
    assert fields["Nível de habilidade"].startswith("no mundo ")


def test_the_stats_name_a_games_favourite_in_its_own_words_and_only_where_it_keeps_one(bids):
    from storage import GameStats, Rating

    found = GameStats(
        games=2,
        wins=1,
        solo_games=0,
        items={},
        world=Rating(1),
        server=None,
        challenges={},
        favourite="frogs_and_turtles",
    )
    kohaku = games.get("kohaku")
    assert dict(stats_fields(kohaku, found))["Favourite goal card"] == "Frogs and turtles"
    with i18n.using("pt_BR"):
        assert dict(stats_fields(kohaku, found))["Carta de objetivo favorita"] == "Sapos e tartarugas"
    # Before a favourite is counted, or at a game that keeps none, there is no such field.
    plain = GameStats(games=2, wins=1, solo_games=0, items={}, world=Rating(1), server=None, challenges={})
    assert [name for name, _ in stats_fields(kohaku, plain)] == ["Games"]
    assert [name for name, _ in stats_fields(bids, plain)] == ["Games"]


@pytest.mark.slow
async def test_a_person_who_lets_the_time_run_out_is_played_for_and_the_game_goes_on(world, bids):
    w = world
    game_id, thread = await open_table(w, "bids", players=2, joiners=1)
    prompt = await current_prompt(w, game_id, thread)
    assert "Decide by <t:" in prompt.content
    timers = await w.store.timers(game_id)
    assert [t.kind for t in timers] == ["reminder_half", "reminder_late", "deadline"]
    before = (await w.store.get_game(game_id)).moves
    # A second before the deadline nothing happens; at it, the AI bids for both and the next prize is asked.
    await w.env.advance_time(24 * 3600 - 1)
    assert (await w.store.get_game(game_id)).moves == before
    await w.env.advance_time(1)
    record = await w.store.get_game(game_id)
    assert record.moves == before + 2
    assert any("Time ran out" in m.content for m in thread.history())
    assert (await current_prompt(w, game_id, thread)).id != prompt.id
    # The new turn has reminders and a deadline of its own, for the new version.
    timers = await w.store.timers(game_id)
    assert [(t.kind, t.version) for t in timers] == [
        ("reminder_half", record.version),
        ("reminder_late", record.version),
        ("deadline", record.version),
    ]


async def test_a_choice_by_command_in_the_thread(world):
    w = world
    game_id, thread = await open_table(w, "kohaku", players=2, joiners=0, ai=1, level="easy")
    aiko, botan = w.members[:2]
    offered = await aiko.autocomplete(thread, "games play", "choice", "")
    match, _version, _record = await w.store.load_match(game_id)
    assert sorted(o["value"] for o in offered) == sorted(match.legal_actions(0))[:25]
    # Typing narrows the choices; someone not seated is offered none and is refused.
    narrowed = await aiko.autocomplete(thread, "games play", "choice", offered[0]["name"][:12])
    assert 0 < len(narrowed) <= len(offered)
    assert await botan.autocomplete(thread, "games play", "choice", "") == []
    refused = await botan.slash(thread, "games play", choice=offered[0]["value"])
    assert "not playing" in reply(refused).content
    before = (await w.store.get_game(game_id)).moves
    played = await aiko.slash(thread, "games play", choice=offered[0]["value"])
    assert "Your choice is in" in reply(played).content
    # Aiko's choice is logged as hers (the AI may have played on after it).
    logged = [(seat, action) for _seq, seat, action, _events in await w.store.match_events(game_id, since=before)]
    assert logged[0] == (0, offered[0]["value"])
    # Elsewhere than a game's thread, it says where it works.
    elsewhere = await aiko.slash(w.channel, "games play", choice="x")
    assert "thread" in reply(elsewhere).content


async def test_kokeshis_commands_in_another_games_thread_are_refused_privately(world):
    w = world
    game_id, thread = await open_table(w, "kohaku", players=2, joiners=0, ai=1, level="easy")
    before = (await w.store.load_match(game_id))[0].to_json()
    for command in ("kokeshi table", "kokeshi hint", "kokeshi undo", "kokeshi status"):
        said = await w.members[0].slash(thread, command)
        assert said.ephemeral, command
        text = reply(said).content
        assert "something went wrong" not in text, (command, text)
    assert (await w.store.load_match(game_id))[0].to_json() == before
    assert w.env.errors == []


@pytest.mark.slow
async def test_a_choice_is_taken_back_within_the_turn_and_never_past_it(world):
    w = world
    game_id, thread = await open_table(w, "kohaku", players=2, joiners=0, ai=1, level="easy")
    aiko = w.members[0]
    rng = random.Random(11)
    for _ in range(20):  # play on until a post offers to take the last choice back (a turn of several steps)
        post = await current_prompt(w, game_id, thread)
        undo = [c for c in custom_ids(post) if c.startswith("mt:u:")]
        if undo:
            break
        await choose(aiko, post, rng)
    assert undo, "no step of a turn offered an undo"
    before = await w.store.get_game(game_id)
    last = (await w.store.match_events(game_id))[-1]
    taken = await aiko.click(post, custom_id=undo[0])
    assert taken.ephemeral and "taken back" in reply(taken).content
    after = await w.store.get_game(game_id)
    assert after.moves == before.moves - 1 and after.version == before.version + 1
    assert (await w.store.match_events(game_id))[-1][0] < last[0]
    assert any("took back" in m.content for m in thread.history())
    # The step before is asked again on the same live prompt, edited in place: its buttons are of the new version,
    # none of the old one is left to click.
    again = await current_prompt(w, game_id, thread)
    assert again.id == post.id and f":{after.version}" in "".join(custom_ids(again))
    assert not any(f":{before.version}:" in c for c in custom_ids(again))
    # Once the turn is over (the AI played since), there is nothing of aiko's to take back.
    while (await w.store.match_events(game_id))[-1][1] == 0:
        await choose(aiko, await current_prompt(w, game_id, thread), rng)
    refused = await aiko.slash(thread, "games undo")
    assert refused.ephemeral and "not made a move yet this turn" in reply(refused).content


class FollowedPlaces:
    """A `Places` that notes which channels the bot shows to the person at the keyboard."""

    def __init__(self) -> None:
        self.followed: list[int] = []

    def link(self, channel_id: int, label: str) -> str:
        return f"<#{channel_id}>"

    def follow(self, channel_id: int) -> None:
        self.followed.append(channel_id)


async def test_a_started_table_shows_its_thread_to_the_person_where_the_bot_can(world, bids):
    # The sandbox's page follows a game into its thread as it does for Kokeshi; on Discord, following does nothing.
    places = world.bot.places = FollowedPlaces()
    _game_id, thread = await open_table(world, "bids", players=2, joiners=1)
    assert places.followed == [thread.id]
    _game_id, solo = await open_table(world, "kohaku", players=1, joiners=0)
    assert places.followed == [thread.id, solo.id]


async def test_a_thread_discord_refuses_cancels_the_table_with_a_private_reason(world, bids):
    w = world
    # Discord refuses to open threads in the channel (the bot lacks Create Public Threads there).
    w.env.backend.faults.append(
        {
            "method": "POST",
            "path": f"/channels/{w.channel.id}/messages/*/threads",
            "status": 403,
            "code": 50013,
            "message": "Missing Permissions",
            "times": None,
        }
    )
    created = await w.members[0].slash(w.channel, "games new", game="kohaku", players=1)
    assert created.ephemeral and "could not create the game's thread" in reply(created).content
    record = (await w.store.games_in_channel(w.channel.id, statuses=("lobby", "active", "cancelled")))[-1]
    assert record.status == "cancelled" and w.channel.threads == []
    assert w.env.errors == []


async def test_the_stats_at_another_game_say_how_its_games_ended_apart_from_kokeshis(world, bids):
    from tests.test_bot_profiles import ended_games

    w = world
    aiko = w.members[0]
    await ended_games(w, aiko.user.id, game="bids", finished=3, resigned=1, timed_out=2)
    await ended_games(w, aiko.user.id, finished=4)  # Kokeshi's: not counted at Bids
    asked = await aiko.slash(w.channel, "games stats", game="bids")
    assert fields_of(asked)["Games ended"] == "3 finished · 1 resigned · 2 timed out\nfinish rate 50%"
    # The same words as `/kokeshi stats`, which counts Kokeshi's alone.
    kokeshi = await aiko.slash(w.channel, "kokeshi stats")
    assert fields_of(kokeshi)["Games ended"] == "4 finished · 0 resigned · 0 timed out\nfinish rate 100%"


def test_how_the_games_ended_reads_in_portuguese():
    from storage import Endings, GameStats, Rating

    found = GameStats(
        games=6, wins=1, solo_games=0, items={}, world=Rating(1), server=None, challenges={}, endings=Endings(3, 1, 2)
    )
    with i18n.using("pt_BR"):
        fields = dict(stats_fields(games.get("kohaku"), found))
    assert fields["Partidas encerradas"] == (
        "3 terminadas · 1 com desistência · 2 por tempo esgotado\ntaxa de conclusão 50%"
    )


# The AI plays the game out while the resignations are answered; the round posts held back to the channel's rate
# wait for `advance_time` past the settlement's deadline (see tests/test_bot_pacing.py).
@pytest.mark.simcord(settle_timeout=20)
@pytest.mark.slow
async def test_a_kohaku_game_the_ai_plays_out_is_told_a_round_a_post_and_its_end_tells_no_turn_again(world):
    from cogs.limits import CHANNEL_MESSAGES, CHANNEL_SECONDS
    from tests.test_bot_pacing import bursts

    w = world
    aiko, botan = w.members[:2]
    game_id, thread = await open_table(w, "kohaku", players=2, joiners=1)
    before = len(thread.history())
    for person in (aiko, botan):
        assert "You resigned" in reply(await person.slash(thread, "games resign")).content
    assert (await w.store.get_game(game_id)).status == "finished"
    for _ in range(30):
        await w.env.advance_time(CHANNEL_SECONDS)
    posted = thread.history()[before:]
    rounds = [m for m in posted if "the AI plays every seat" in m.content]
    headings = [m.content.split("\n")[0] for m in rounds]
    # Each seat once round the table a post, in order, the last round included, just before the end's post.
    assert headings == [f"**Round {n}** · the AI plays every seat" for n in range(1, len(rounds) + 1)], headings
    assert len(rounds) >= 10
    assert all(not m.attachments and len(m.content) <= 2000 for m in rounds)
    # A line a turn: both seats' in a round, the first round's turns before the game was left to the AI told
    # already as the turns' own records.
    assert [len(m.content.split("\n")) for m in rounds[1:-1]] == [3] * (len(rounds) - 2), [m.content for m in rounds]
    assert len(rounds[0].content.split("\n")) in (2, 3) and len(rounds[-1].content.split("\n")) in (2, 3)
    assert all(line.startswith(("• aiko took", "• botan took")) for m in rounds for line in m.content.split("\n")[1:])
    assert bursts(posted) <= CHANNEL_MESSAGES
    final = posted[-1].content
    assert posted[-2] is rounds[-1] and final.startswith(f"**Kōhaku #{game_id} is over.**"), final
    assert "earlier line" not in final
    with i18n.using("pt_BR"):
        from games.kohaku import words

        assert words.round_heading(3) == "**Rodada 3** · a IA joga em todos os lugares"
