"""Contract games in the store on both backends: Bids and Kōhaku dealt, played to the end, reloaded and verified."""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import random
from collections.abc import Sequence

import pytest

import games
from games.base import Match
from service.play import Refused
from storage import (
    ChallengeRecord,
    GameReach,
    ScoreItem,
    StaleVersion,
    Store,
    StoreRefusal,
    open_store,
    scope_of,
)
from storage.matches import MatchPlayed, seat_ranks
from tests import dbkit
from tests.dbkit import Clock, named_log_game, sql

GUILD = 1
SEED = 0xC0FFEE_5EED_1234_ABCD_9876_0F0F_4242_7777


@pytest.fixture
async def store(database):
    s = await open_store(database, clock=Clock(tick=1.0))
    yield s
    await s.close()


async def lobby(store: Store, game: str, players: int, settings: dict | None = None, host: int = 100) -> int:
    """A contract game's lobby with `players` people seated."""
    game_id = await store.create_game(
        guild_id=GUILD,
        channel_id=10,
        host_id=host,
        host_name=f"P{host}",
        players=players,
        game=game,
        settings=settings,
        solo=players == 1,
    )
    for i in range(1, players):
        await store.add_seat(game_id, host + i, f"P{host + i}")
    return game_id


def _row(database: str, game_id: int) -> tuple:
    return sql(database, "SELECT version, moves, snapshot, status FROM games WHERE id = ?", (game_id,))[0]


def _saved(database: str, game_id: int) -> tuple:
    """The game's version, moves and snapshot, how many log rows it has, and its last one's player and action."""
    return sql(
        database,
        "SELECT g.version, g.moves, g.snapshot, (SELECT COUNT(*) FROM actions WHERE game_id = g.id), a.player, "
        "a.action FROM games g LEFT JOIN actions a ON a.game_id = g.id AND a.seq = g.moves WHERE g.id = ?",
        (game_id,),
    )[0]


def _logged(database: str, game_id: int) -> list[tuple]:
    return sql(database, "SELECT seq, player, action, source FROM actions WHERE game_id = ? ORDER BY seq", (game_id,))


async def play_out(
    store: Store,
    database: str,
    game_id: int,
    seed: int,
    rng: random.Random,
    stop: int | None = None,
    done: Sequence[tuple[int, str]] = (),
) -> tuple[Match, list[tuple[int, str]], MatchPlayed | None]:
    """Play random legal decisions (all of them, or up to `stop` of them), checking each one saved; returns the match
    as the test replayed it beside the store (after the decisions `done` before), the new decisions and the last
    decision's `MatchPlayed`."""
    match, version, record = await store.load_match(game_id)
    module = games.get(record.game)
    mirror = module.replay(dict(record.settings), seed, len(record.seats), done)
    assert match.to_json() == mirror.to_json()
    played: MatchPlayed | None = None
    decisions: list[tuple[int, str]] = []
    while not match.is_over and (stop is None or len(decisions) < stop):
        seat = rng.choice(match.waiting())
        action = rng.choice(match.legal_actions(seat))
        played = await store.play_match(game_id, version, seat, action, source=rng.choice(("button", "ai")))
        events = mirror.apply(seat, action)
        decisions.append((seat, action))
        assert played.outcome.events == tuple(events)
        assert played.match.to_json() == mirror.to_json()
        assert played.record.version == version + 1
        assert played.record.moves == len(done) + len(decisions)
        # Every decision is saved as it is made: its log row (the seat's number as the player) and the snapshot.
        if not mirror.is_over:
            moves = len(done) + len(decisions)
            assert _saved(database, game_id) == (version + 1, moves, mirror.to_json(), moves, str(seat), action)
            assert played.results == [] and played.record.status == "active"
        match, version = played.match, played.record.version
        # The copy handed out is private: changing it changes nothing in the store.
        if len(decisions) == 1 and not match.is_over:
            other = rng.choice(match.waiting())
            match.apply(other, match.legal_actions(other)[0])
            match, version, _ = await store.load_match(game_id)
            assert match.to_json() == mirror.to_json()
    return mirror, decisions, played


async def test_bids_is_dealt_played_to_the_end_and_reloaded_cold(store, database, bids):
    game_id = await lobby(store, "bids", 3)
    record = await store.get_game(game_id)
    assert record.game == "bids" and record.players == 3 and not record.solo and record.settings == {}
    match, version = await store.start_match(game_id, SEED)
    assert version == (await store.get_game(game_id)).version == store.held_version(game_id) and match.seats == 3
    # The seed is kept in the game's row, and nowhere in the log.
    assert sql(database, "SELECT seed_text, status, rules FROM games WHERE id = ?", (game_id,)) == [
        (str(SEED), "active", 1)
    ]
    with pytest.raises(StoreRefusal) as refused:
        await store.start_match(game_id, SEED)
    assert refused.value.code == "not_lobby"

    rng = random.Random(5)
    mirror, decisions, last = await play_out(store, database, game_id, SEED, rng, stop=4)
    # A cold store (another process) replays the log and goes on from there.
    other = await open_store(database, clock=Clock(tick=1.0))
    try:
        cold, version, record = await other.load_match(game_id)
        assert cold.to_json() == mirror.to_json() and record.version == version
        assert [(seat, action) for _, seat, action, _ in await other.match_events(game_id)] == decisions
        mirror, more, last = await play_out(other, database, game_id, SEED, rng, done=decisions)
    finally:
        await other.close()
    decisions += more
    assert last is not None and last.record.status == "finished" and last.outcome.standing is not None
    assert mirror.is_over and len(last.results) == 3
    assert sql(database, "SELECT COUNT(*) FROM actions WHERE game_id = ?", (game_id,)) == [(0,)]  # packed

    # The first store held an older version: it replays the packed log.
    again, version, record = await store.load_match(game_id)
    assert again.to_json() == mirror.to_json() and record.status == "finished" and record.moves == len(decisions)
    events = await store.match_events(game_id)
    assert [(seat, action) for _, seat, action, _ in events] == decisions
    assert [seq for seq, *_ in events] == list(range(1, len(decisions) + 1))
    assert [seq for seq, *_ in await store.match_events(game_id, since=5)] == list(range(6, len(decisions) + 1))
    replay = bids.deal({}, SEED, 3)
    assert [tuple(replay.apply(seat, action)) for _, seat, action, _ in events] == [e for *_, e in events]

    # One result per seat, from the standing: place, total and the score details.
    standing = mirror.standing()
    results = await store.results(game_id)
    assert results == last.results
    assert sorted((r.seat, r.rank, r.total, dict(r.details)) for r in results) == [
        (s, standing.places[s], standing.scores[s]["total"], {}) for s in range(3)
    ]
    assert [r.user_id for r in sorted(results, key=lambda r: r.seat)] == [100, 101, 102]
    with pytest.raises(StoreRefusal) as refused:
        await store.play_match(game_id, version, 0, "bid:1")
    assert refused.value.code == "not_active"
    assert await store.verify() == []


async def test_a_stale_or_refused_decision_writes_nothing(store, database, bids):
    game_id = await lobby(store, "bids", 2)
    match, version = await store.start_match(game_id, SEED)
    played = await store.play_match(game_id, version, 0, "bid:2")
    before = (_row(database, game_id), _logged(database, game_id))
    with pytest.raises(StaleVersion):
        await store.play_match(game_id, version, 1, "bid:2")
    for seat, action, code in ((0, "bid:3", "not_your_turn"), (1, "bid:9", "illegal"), (5, "bid:1", "unknown_seat")):
        with pytest.raises(Refused) as refused:
            await store.play_match(game_id, played.record.version, seat, action)
        assert refused.value.code == code
    assert (_row(database, game_id), _logged(database, game_id)) == before
    # The held match is still the saved one: the next decision goes through, from this store and a cold one.
    held, version, _ = await store.load_match(game_id)
    assert held.to_json() == played.match.to_json() and version == played.record.version
    other = await open_store(database, clock=Clock(tick=1.0))
    try:
        assert (await other.load_match(game_id))[0].to_json() == played.match.to_json()
    finally:
        await other.close()
    after = await store.play_match(game_id, version, 1, "bid:4", source="timeout")
    assert after.outcome.turn_changed and after.outcome.waiting == (0, 1)
    assert _logged(database, game_id) == [(1, "0", "bid:2", "player"), (2, "1", "bid:4", "timeout")]
    assert sql(database, "SELECT flags FROM actions WHERE game_id = ? ORDER BY seq", (game_id,)) == [(0,), (3,)]
    with pytest.raises(ValueError):
        await store.play_match(game_id, after.record.version, 0, "bid:1", source="clicked")
    assert await store.verify() == []


@pytest.mark.slow
async def test_kohaku_two_players_and_solo_end_with_results_ratings_and_boards_of_their_own(store, database):
    kokeshi = await store.create_game(guild_id=GUILD, channel_id=10, host_id=100, host_name="Ana", players=2)
    await store.add_seat(kokeshi, 101, "Bo")
    await store.start_match(kokeshi, 3)
    await dbkit.play_out(store, kokeshi, seed=2)
    kokeshi_results = await store.results(kokeshi)
    kokeshi_board = await store.leaderboard("wins", GUILD)

    duel = await lobby(store, "kohaku", 2, {"goals": True}, host=200)
    assert (await store.get_game(duel)).settings == {"goals": True}
    await store.start_match(duel, SEED)
    mirror, decisions, last = await play_out(store, database, duel, SEED, random.Random(8))
    assert last is not None and last.record.status == "finished" and mirror.is_over

    solo = await lobby(store, "kohaku", 1, host=300)
    record = await store.get_game(solo)
    assert record.solo and record.players == 1 and record.settings == {"goals": False}
    await store.start_match(solo, SEED + 1)
    solo_mirror, _, solo_last = await play_out(store, database, solo, SEED + 1, random.Random(9))
    assert solo_last is not None and solo_last.record.status == "finished"

    for game_id, played in ((duel, mirror), (solo, solo_mirror)):
        standing = played.standing()
        assert sorted((r.seat, r.rank, r.total, dict(r.details)) for r in await store.results(game_id)) == [
            (s, standing.places[s], score["total"], {k: v for k, v in score.items() if k != "total"})
            for s, score in enumerate(standing.scores)
        ]
        assert (await store.get_game(game_id)).finished_at is not None
        assert await store.timers(game_id) == []

    # Boards, ratings and stats are the game's own: Kōhaku's never show Kokeshi's players, nor the other way.
    standing = mirror.standing()
    wins = await store.leaderboard("wins", GUILD, game="kohaku")
    assert {row.user_id: (row.value, row.games) for row in wins} == {
        200 + s: (int(place == 1), 1) for s, place in enumerate(standing.places)
    }
    assert {r.user_id for r in await store.ratings(scope_of(GUILD, "kohaku"))} == {200, 201}
    assert {r.user_id for r in await store.ratings(scope_of(None, "kohaku"))} == {200, 201}
    solo_board = await store.leaderboard("solo", GUILD, game="kohaku")
    assert [(row.user_id, row.value) for row in solo_board] == [(300, solo_mirror.standing().scores[0]["total"])]
    assert await store.leaderboard("wins", GUILD) == kokeshi_board
    assert {row.user_id for row in kokeshi_board} == {100, 101}
    assert {r.user_id for r in await store.ratings(scope_of(GUILD))} == {100, 101}
    assert await store.results(kokeshi) == kokeshi_results
    stats = await store.stats(200, GUILD, game="kohaku")
    assert stats.games == 1 and stats.best == standing.scores[0]["total"]
    assert (await store.stats(200, GUILD)).games == 0
    assert (await store.stats(300, GUILD, game="kohaku")).solo_games == 1
    assert (await store.stats(100, GUILD)).games == 1 and (await store.stats(100, GUILD, game="kohaku")).games == 0
    # The goal card a person kept is their favourite at Kōhaku (a card the AI kept for them counts for nobody);
    # Kokeshi's favourites stay Kokeshi's.
    kept = {seat: action[2:] for seat, action in decisions if action.startswith("g:")}
    assert sorted(kept) == [0, 1]
    for seat, card in kept.items():
        assert (await store.stats(200 + seat, GUILD, game="kohaku")).favourite in (card, None)
    assert (await store.stats(100, GUILD, game="kohaku")).favourite is None
    assert (await store.stats(100, GUILD)).favourite in games.get("kokeshi").favourite_items

    # A cold store loads both finished matches from their packed logs, and the whole database verifies.
    other = await open_store(database, clock=Clock(tick=1.0))
    try:
        assert (await other.load_match(duel))[0].to_json() == mirror.to_json()
        assert (await other.load_match(solo))[0].to_json() == solo_mirror.to_json()
        assert await other.verify() == []
    finally:
        await other.close()


async def test_the_contract_only_reads_a_kokeshi_game_whose_log_names_its_players(store, database):
    kokeshi = named_log_game(database, ["Ana", "Bo"], seed=3)
    # Read by its seating; dealing, playing and undoing wait until it is moved to seat numbers (`to_seat_log`).
    assert (await store.load_match(kokeshi))[1] == (await store.get_game(kokeshi)).version
    assert await store.match_events(kokeshi) == []
    for attempt in (
        store.play_match(kokeshi, 1, 0, "x"),
        store.undo_match(kokeshi, 0),
        store.start_match(kokeshi, 1),
    ):
        with pytest.raises(StoreRefusal) as refused:
            await attempt
        assert refused.value.code == "other_game"
    assert (await store.load_match(kokeshi))[1] == (await store.get_game(kokeshi)).version
    assert await store.verify() == []


async def test_a_persons_games_of_every_kind_at_a_glance(store, database, bids):
    kokeshi = named_log_game(database, ["Ana", "Bo"], seed=3)  # stored by an older version: its log by name
    dealt, _version, _record = await store.load_match(kokeshi)
    mover = {0: 100, 1: 101}[dealt.waiting()[0]]
    table = await lobby(store, "bids", 2)
    match, version = await store.start_match(table, SEED)
    due = await store.set_match_deadline(table, version, 2_000_000.0)
    await store.set_message(table, "prompt", 77, 88)
    open_lobby = await store.create_game(
        guild_id=GUILD, channel_id=10, host_id=100, host_name="Ana", players=2, game="bids"
    )
    other = await lobby(store, "bids", 2, host=300)  # not Ana's
    glances = await store.glances(100)
    assert [g.record.id for g in glances] == [kokeshi, table, open_lobby] and other not in (kokeshi, table)
    by_id = {g.record.id: g for g in glances}
    assert by_id[kokeshi].waiting == (mover,)
    assert by_id[table].waiting == (100, 101)
    assert (by_id[table].deadline, by_id[table].prompt, by_id[table].unreachable_at) == (due, (77, 88), None)
    assert by_id[open_lobby].waiting == () and by_id[open_lobby].deadline is None
    # Ana bids: the table waits for Bo alone; Discord refuses its posts long enough to be marked unreachable.
    await store.play_match(table, version, 0, match.legal_actions(0)[0])
    await store.set_reach(GameReach(table, since=1.0, unreachable_at=2.0))
    [_k, after, _l] = await store.glances(100)
    assert after.waiting == (101,) and after.unreachable_at == 2.0
    assert [g.record.id for g in await store.glances(100, ("active",))] == [kokeshi, table]
    assert await store.glances(999) == []
    # The ping settings of several people in one read; someone who set nothing has none.
    await store.set_user_setting(100, "notify", "on")
    await store.set_user_setting(101, "quiet", "23:00-08:00 Europe/Lisbon")
    await store.set_user_setting(101, "unrelated", "x")
    await store.set_muted_games(101, {table})
    assert await store.ping_settings([101, 100, 999]) == {
        100: {"notify": "on"},
        101: {"quiet": "23:00-08:00 Europe/Lisbon", "muted": str(table)},
        999: {},
    }


async def test_a_contract_lobby_is_checked_against_its_game(store, database, bids):
    before = sql(database, "SELECT COUNT(*) FROM games")
    for kwargs, code in (
        ({"game": "bids", "players": 4}, "bad_players"),
        ({"game": "bids", "players": 1, "solo": True}, "bad_players"),
        ({"game": "kohaku", "players": 5}, "bad_players"),
        ({"game": "kohaku", "players": 2, "settings": {"goals": "yes"}}, "bad_settings"),
        ({"game": "kohaku", "players": 2, "settings": {"board": 3}}, "bad_settings"),
        ({"game": "bids", "players": 2, "settings": {"goals": True}}, "bad_settings"),
        ({"game": "nosuchgame", "players": 2}, "unknown_game"),
    ):
        with pytest.raises(StoreRefusal) as refused:
            await store.create_game(guild_id=GUILD, channel_id=10, host_id=100, host_name="Ana", **kwargs)
        assert refused.value.code == code, kwargs
    assert sql(database, "SELECT COUNT(*) FROM games") == before
    # Counts Kokeshi never allows are a contract game's own; a bank clock stays the platform's.
    wide = await store.create_game(
        guild_id=GUILD, channel_id=10, host_id=100, host_name="Ana", players=3, game="bids", settings={"clock": "1d"}
    )
    assert (await store.get_game(wide)).settings == {"clock": "1d"}
    with pytest.raises(StoreRefusal) as refused:
        await store.start_match(wide, SEED)
    assert refused.value.code == "too_few"
    await store.add_seat(wide, 101, "Bo")
    match, _ = await store.start_match(wide, SEED)  # two of three seats: Bids is played by two
    assert match.seats == 2
    assert json.loads(sql(database, "SELECT settings FROM games WHERE id = ?", (wide,))[0][0]) == {"clock": "1d"}
    waiting = await lobby(store, "bids", 2, host=500)
    with pytest.raises(StoreRefusal) as refused:
        await store.load_match(waiting)
    assert refused.value.code == "not_started"
    # Settings the game no longer takes (stored before it checked them) are refused at the deal; nothing changes.
    sql(database, "UPDATE games SET settings = '{\"speed\":1}' WHERE id = ?", (waiting,))
    with pytest.raises(StoreRefusal) as refused:
        await store.start_match(waiting, SEED)
    assert refused.value.code == "bad_settings"
    assert sql(database, "SELECT status, seed_text FROM games WHERE id = ?", (waiting,)) == [("lobby", None)]


async def test_verify_finds_a_contract_game_whose_snapshot_or_log_was_changed(store, database, bids):
    game_id = await lobby(store, "bids", 2)
    _, version = await store.start_match(game_id, SEED)
    await store.play_match(game_id, version, 0, "bid:1")
    sql(database, "UPDATE games SET snapshot = '{}' WHERE id = ?", (game_id,))
    assert await store.verify() == [(game_id, "the snapshot differs from a replay of the log")]
    # A cold load repairs the snapshot from the log.
    other = await open_store(database, clock=Clock(tick=1.0))
    try:
        await other.load_match(game_id)
        assert await other.verify() == []
    finally:
        await other.close()
    sql(database, "UPDATE actions SET action = 'bid:9' WHERE game_id = ?", (game_id,))
    problems = await store.verify()
    assert len(problems) == 1 and problems[0][1].startswith("the log no longer replays")


def test_a_resignation_ranks_after_every_seat_that_played_on():
    from games.base import Standing

    standing = Standing(True, (1, 2, 2), ({"total": 9}, {"total": 5}, {"total": 5}))
    assert seat_ranks(standing, [False, False, False]) == [1, 2, 2]
    assert seat_ranks(standing, [True, False, False]) == [3, 1, 1]
    assert seat_ranks(Standing(True, (1,), ({"total": 9},)), [True]) == [2]


async def test_two_decisions_on_the_same_version_save_one(store, database, bids):
    game_id = await lobby(store, "bids", 2)
    _, version = await store.start_match(game_id, SEED)
    outcomes = await asyncio.gather(
        store.play_match(game_id, version, 0, "bid:1"),
        store.play_match(game_id, version, 1, "bid:2"),
        return_exceptions=True,
    )
    saved = [o for o in outcomes if isinstance(o, MatchPlayed)]
    assert len(saved) == 1 and isinstance(next(o for o in outcomes if o not in saved), StaleVersion)
    assert _saved(database, game_id)[:4] == (version + 1, 1, saved[0].match.to_json(), 1)


@pytest.mark.slow
async def test_a_kohaku_challenge_ends_with_its_attempt_scored_and_no_solo_board(store, database):
    game_id, rated = await store.create_challenge(
        kind="daily", key="2026-11-20", guild_id=GUILD, channel_id=10, user_id=400, name="Ana", game="kohaku"
    )
    record = await store.get_game(game_id)
    assert rated and record.solo and record.challenge == "daily:2026-11-20"
    seed = store.challenge_seed(record.challenge)
    await store.start_match(game_id, seed)
    mirror, _, last = await play_out(store, database, game_id, seed, random.Random(4))
    assert last is not None and last.record.status == "finished"
    standing = mirror.standing()
    assert sql(database, "SELECT score, won FROM challenge_attempts WHERE game_id = ?", (game_id,)) == [
        (standing.scores[0]["total"], int(standing.places[0] == 1))
    ]
    board = await store.leaderboard("daily", GUILD, "2026-11-20", game="kohaku")
    assert [(row.user_id, row.value) for row in board] == [(400, standing.scores[0]["total"])]
    assert await store.leaderboard("solo", GUILD, game="kohaku") == []
    assert await store.leaderboard("daily", GUILD, "2026-11-20") == []
    assert await store.verify() == []


async def _finished(store: Store, game_id: int, seed: int, rng: random.Random) -> Match:
    """A game dealt on `seed` and played to its end by random decisions: the match as it ended."""
    match, version = await store.start_match(game_id, seed)
    while not match.is_over:
        seat = rng.choice(match.waiting())
        played = await store.play_match(game_id, version, seat, rng.choice(match.legal_actions(seat)))
        match, version = played.match, played.record.version
    assert played.record.status == "finished"
    return match


def _figures(scores: Sequence[dict], keys: Sequence[str]) -> dict[str, ScoreItem]:
    """Each score item's average and best over these score details, read the way a score sheet reads."""
    return {
        key: ScoreItem(sum(s.get(key, 0) for s in scores) / len(scores), max(s.get(key, 0) for s in scores))
        for key in keys
    }


@pytest.mark.slow
async def test_a_players_stats_at_a_game_count_its_finished_games_items_ratings_and_challenges(store, database, bids):
    day = dt.datetime(2026, 11, 20, 12, tzinfo=dt.UTC)
    kokeshi = await store.create_game(guild_id=GUILD, channel_id=10, host_id=500, host_name="Ana", players=2)
    await store.add_seat(kokeshi, 501, "Bo")
    await store.start_match(kokeshi, 3)
    await dbkit.play_out(store, kokeshi, seed=2)
    # Ana (500) plays two games of Bids and two of Kōhaku: a duel and the daily challenge (a solo game); she
    # starts this week's challenge and leaves it unfinished.
    rng = random.Random(12)
    bids_games = [await _finished(store, await lobby(store, "bids", 2, host=500), n, rng) for n in (1, 2)]
    duel = await _finished(store, await lobby(store, "kohaku", 2, host=500), SEED, rng)
    daily, _ = await store.create_challenge(
        kind="daily", key="2026-11-20", guild_id=GUILD, channel_id=10, user_id=500, name="Ana", game="kohaku"
    )
    challenge = await _finished(store, daily, store.challenge_seed("daily:2026-11-20"), rng)
    await store.create_challenge(
        kind="weekly", key="2026-W47", guild_id=GUILD, channel_id=10, user_id=500, name="Ana", game="kohaku"
    )
    before = sql(database, "SELECT COUNT(*) FROM results") + sql(database, "SELECT COUNT(*) FROM ratings")

    kohaku = games.get("kohaku")
    stats = await store.game_stats(500, kohaku.stat_keys, day, game="kohaku", guild_id=GUILD)
    ended = [duel.standing(), challenge.standing()]
    assert (stats.games, stats.solo_games, stats.wins) == (2, 1, sum(s.places[0] == 1 for s in ended))
    assert stats.win_rate == stats.wins / 2
    assert stats.items == _figures([s.scores[0] for s in ended], kohaku.stat_keys)
    assert list(stats.items) == list(kohaku.stat_keys)
    assert stats.items["total"].best == max(s.scores[0]["total"] for s in ended)
    # Rated by the one game played with another person, in the world and in the server, as the boards rate it.
    assert stats.world == await store.rating(scope_of(None, "kohaku"), 500) and stats.world.games == 1
    assert stats.server == await store.rating(scope_of(GUILD, "kohaku"), 500)
    assert stats.challenges == {
        "daily": ChallengeRecord(1, 1, int(ended[1].places[0] == 1), ended[1].scores[0]["total"], 1),
        "weekly": ChallengeRecord(1, 0, 0, None, 1),
    }
    # Streaks as they stand on a later day: the day after still counts the run, two days after it is over.
    later = await store.game_stats(500, kohaku.stat_keys, day + dt.timedelta(days=1), game="kohaku")
    assert later.challenges["daily"].streak == 1 and later.server is None
    later = await store.game_stats(500, kohaku.stat_keys, day + dt.timedelta(days=2), game="kohaku")
    assert later.challenges["daily"].streak == 0 and later.challenges["weekly"].streak == 1

    # Bids is counted apart, and Kokeshi apart from both.
    stats = await store.game_stats(500, bids.stat_keys, day, game="bids")
    assert (stats.games, stats.solo_games) == (2, 0) and not stats.empty
    assert stats.wins == sum(m.standing().places[0] == 1 for m in bids_games)
    assert stats.items == _figures([m.standing().scores[0] for m in bids_games], ["total"])
    assert stats.challenges == {"daily": ChallengeRecord(), "weekly": ChallengeRecord()}
    mine = [r for r in await store.results(kokeshi) if r.user_id == 500]
    stats = await store.game_stats(500, games.get("kokeshi").stat_keys, day, game="kokeshi")
    assert (stats.games, stats.items["total"].best) == (1, mine[0].total)
    assert (await store.stats(500)).games == 1
    # Someone who played none of it has nothing to show; reading stats wrote nothing.
    assert (await store.game_stats(501, kohaku.stat_keys, day, game="kohaku")).games == 1
    nobody = await store.game_stats(999, kohaku.stat_keys, day, game="kohaku")
    assert nobody.empty and nobody.items == {} and nobody.world.games == 0
    assert sql(database, "SELECT COUNT(*) FROM results") + sql(database, "SELECT COUNT(*) FROM ratings") == before


async def test_undo_takes_back_a_secret_choice_but_never_past_a_turn_or_a_time_out(store, database, bids):
    game_id = await lobby(store, "bids", 2)
    match, version = await store.start_match(game_id, 42)
    dealt = match.to_json()
    played = await store.play_match(game_id, version, 0, match.legal_actions(0)[0])
    # Seat 1 has made no decision: nothing of its to take back; seat 0's secret bid comes back, the deal as it was.
    with pytest.raises(StoreRefusal) as nothing:
        await store.undo_match(game_id, 1)
    assert nothing.value.code == "undo_nothing"
    undone, after = await store.undo_match(game_id, 0)
    assert undone.to_json() == dealt and after == played.record.version + 1
    assert _row(database, game_id)[:2] == (after, 0)
    # A cold store replays the log to the same match.
    cold = await open_store(database)
    try:
        assert (await cold.load_match(game_id))[0].to_json() == dealt
    finally:
        await cold.close()
    # The bid that ends the round (and draws the next prize) cannot be taken back, by either seat.
    first = await store.play_match(game_id, after, 0, undone.legal_actions(0)[0])
    second = await store.play_match(game_id, first.record.version, 1, first.match.legal_actions(1)[0])
    for seat in (0, 1):
        with pytest.raises(StoreRefusal) as refused:
            await store.undo_match(game_id, seat)
        assert refused.value.code in ("undo_nothing", "undo_drew")
    # A decision the AI made when the time ran out stays.
    timed = await store.play_match(
        game_id, second.record.version, 0, second.match.legal_actions(0)[0], source="timeout"
    )
    with pytest.raises(StoreRefusal) as refused:
        await store.undo_match(game_id, 0)
    assert refused.value.code == "undo_timed_out"
    assert _row(database, game_id)[0] == timed.record.version
    assert await store.verify() == []


async def test_each_decision_says_whether_it_ended_a_turn_hot_cold_and_after_an_undo(store, database):
    # Kōhaku: a turn is several decisions, so some end a turn and some do not.
    game_id = await lobby(store, "kohaku", 2)
    await store.start_match(game_id, SEED)
    mirror, decisions, _last = await play_out(store, database, game_id, SEED, random.Random(9), stop=13)
    module = games.get("kohaku")
    replay = module.deal({"goals": False}, SEED, 2)
    expected = []
    for seat, action in decisions:
        before = replay.turn_key()
        replay.apply(seat, action)
        expected.append(replay.turn_key() != before)
    assert True in expected and False in expected
    hot = await store.match_decisions(game_id)
    assert [(d.seat, d.action) for d in hot] == decisions and [d.ends_turn for d in hot] == expected
    assert [d.events for d in hot] == [e for *_, e in await store.match_events(game_id)]
    other = await open_store(database, clock=Clock(tick=1.0))
    try:
        assert await other.match_decisions(game_id) == hot  # replayed cold, the same
        # Public views after chosen decisions, from a replay of the deal: the table as anyone saw it then.
        views = await other.match_views(game_id, [0, 3, len(decisions)])
        again = module.deal({"goals": False}, SEED, 2)
        assert views[0] == again.view(None)
        for seat, action in decisions[:3]:
            again.apply(seat, action)
        assert views[3] == again.view(None) and views[len(decisions)] == mirror.view(None)
    finally:
        await other.close()
    # An undo within a turn drops the decision's mark with it.
    assert not hot[-1].ends_turn, "the 13th decision is within a turn (and a person's)"
    await store.undo_match(game_id, hot[-1].seat)
    assert await store.match_decisions(game_id) == hot[:-1]


async def test_a_challenge_is_dealt_for_everyone_under_the_rules_of_its_first_attempt(store, database):
    # The day a new version of the rules ships, the day's challenge keeps the deal everyone else got.
    kohaku = games.get("kohaku")
    assert len(kohaku.rules_versions) >= 2
    older = kohaku.rules_versions[0]
    first, _ = await store.create_challenge(
        kind="daily", key="2026-11-21", guild_id=GUILD, channel_id=10, user_id=400, name="Ana", game="kohaku"
    )
    seed = store.challenge_seed("daily:2026-11-21")
    await store.start_match(first, seed)
    # (as if that attempt had been dealt under the older rules, before the new ones shipped)
    dealt = kohaku.deal({"goals": False}, seed, 1, older)
    sql(database, "UPDATE games SET rules = ?, snapshot = ? WHERE id = ?", (older, dealt.to_json(), first))
    store._matches.clear()
    second, rated = await store.create_challenge(
        kind="daily", key="2026-11-21", guild_id=GUILD, channel_id=10, user_id=401, name="Bia", game="kohaku"
    )
    match, _version = await store.start_match(second, seed)
    assert rated and match.rules == older
    assert match.view(None) == dealt.view(None)
    # Another day's challenge, with no attempt before it, gets the current rules.
    third, _ = await store.create_challenge(
        kind="daily", key="2026-11-22", guild_id=GUILD, channel_id=10, user_id=401, name="Bia", game="kohaku"
    )
    fresh, _version = await store.start_match(third, store.challenge_seed("daily:2026-11-22"))
    assert fresh.rules == kohaku.current_rules
    assert await store.verify() == []


async def test_a_kokeshi_challenge_keeps_the_rules_of_its_first_attempt_too(store, database):
    kokeshi = games.get("kokeshi")
    older = kokeshi.rules_versions[-2]
    first, _ = await store.create_challenge(
        kind="daily", key="2026-11-21", guild_id=GUILD, channel_id=10, user_id=400, name="Ana"
    )
    seed = store.challenge_seed("daily:2026-11-21")
    await store.start_match(first, seed)
    record = await store.get_game(first)
    dealt = kokeshi.deal({"side": record.side}, seed, 1, older)
    sql(database, "UPDATE games SET rules = ?, snapshot = ? WHERE id = ?", (older, dealt.to_json(), first))
    store._matches.clear()
    second, _ = await store.create_challenge(
        kind="daily", key="2026-11-21", guild_id=GUILD, channel_id=10, user_id=401, name="Bia"
    )
    match, _version = await store.start_match(second, seed)
    assert match.rules == older != kokeshi.current_rules
    assert match.view(None) == dealt.view(None)
    assert await store.verify() == []
