"""Game-keyed storage on both backends: a database of the previous schema migrates, and two games never mix."""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Sequence
from typing import Any

import pytest

from games.kokeshi.engine import GreedyPolicy, new_game
from storage import Store, migrations, open_store, scope_of
from storage.community import board_step
from storage.logs import pack_log
from tests.dbkit import build_at, named_log_flags, sql

PREVIOUS = 9  # the schema before games were keyed
NOW = 1_700_000_000.0
FINISHED, ACTIVE, CHALLENGE = 1, 2, 3
GUILD = 7


def _build(database: str, statements: Sequence[tuple[str, Sequence[Any]]]) -> None:
    build_at(database, PREVIOUS, statements)


def _played(names: list[str], seed: int, moves: int | None = None) -> tuple[Any, list[tuple[str, str, int]]]:
    """A game dealt on `seed` and played (to its end, or for `moves` actions): the game and (player, action, flags)."""
    game = new_game(names, seed=seed)
    policy = GreedyPolicy()
    log = []
    while game.prompt is not None and (moves is None or len(log) < moves):
        player = game.prompt.player
        action = policy.choose(game)
        log.append((player, action, named_log_flags(game.apply(player, action))))
    return game, log


def _old_rows() -> tuple[list[tuple[str, Sequence[Any]]], Any]:
    """What a bot of schema 9 left: a finished game (users 1 and 2, an AI seat at level 'hard'), a game under way,
    a daily challenge attempt, and the ratings, totals, board steps and choice counts they gave."""
    rows: list[tuple[str, Sequence[Any]]] = []
    names = ["Ana", "Bo", "AI 1"]
    done, done_log = _played(names, seed=11)
    running, running_log = _played(["Ana", "Cy"], seed=12, moves=9)
    game = (
        "INSERT INTO games (id, guild_id, channel_id, host_id, status, players, side, solo, turn_timer, seed_text, "
        "rules, version, moves, snapshot, log, created_at, updated_at, finished_at, challenge) "
        "VALUES (?, ?, 70, 1, ?, ?, 'basic', 0, 86400, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
    )
    packed = pack_log([(i, p, a, "player", NOW, f) for i, (p, a, f) in enumerate(done_log, 1)], NOW)
    rows.append(
        (
            game,
            (FINISHED, GUILD, "finished", 3, "11", done.rules, len(done_log) + 1, len(done_log), None, packed, NOW)
            + (NOW, NOW, None),
        )
    )
    rows.append(
        (
            game,
            (ACTIVE, GUILD, "active", 2, "12", running.rules, len(running_log) + 1, len(running_log))
            + (running.to_json(), None, NOW, NOW, None, None),
        )
    )
    rows.append(
        (game, (CHALLENGE, GUILD, "cancelled", 1, None, 1, 1, 0, None, None, NOW, NOW, None, "daily:2026-11-20"))
    )
    seat = "INSERT INTO seats (game_id, seat, name, user_id, ai) VALUES (?, ?, ?, ?, ?)"
    rows += [
        (seat, (FINISHED, 0, "Ana", 1, 0)),
        (seat, (FINISHED, 1, "Bo", 2, 0)),
        (seat, (FINISHED, 2, "AI 1", None, 1)),
    ]
    rows += [(seat, (ACTIVE, 0, "Ana", 1, 0)), (seat, (ACTIVE, 1, "Cy", 4, 0)), (seat, (CHALLENGE, 0, "Di", 3, 0))]
    rows.append(("INSERT INTO meta (key, value) VALUES (?, ?)", (f"ai_level:{FINISHED}:2", "hard")))
    for seq, (player, action, flags) in enumerate(running_log, start=1):
        rows.append(
            (
                "INSERT INTO actions (game_id, seq, player, action, source, created_at, flags) "
                "VALUES (?, ?, ?, ?, 'player', ?, ?)",
                (ACTIVE, seq, player, action, NOW, flags),
            )
        )
    scores = done.scores()
    users = {"Ana": 1, "Bo": 2, "AI 1": None}
    for rank, name in enumerate(done.ranking(), start=1):
        s = scores[name]
        rows.append(
            (
                "INSERT INTO results (game_id, seat, name, user_id, ai, resigned, rank, total, in_play, tracks, "
                "quality, animals, leads, adjacency, finished_at) VALUES (?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (FINISHED, names.index(name), name, users[name], int(name == "AI 1"), rank, s.total, s.in_play)
                + (s.tracks, s.quality, s.animals, s.leads, s.adjacency, NOW),
            )
        )
    people = [n for n in done.ranking() if users[n] is not None]
    steps: dict[tuple[Any, ...], int] = {}

    def count(scope: str, board: str, first: float, second: float) -> None:
        a, b = board_step(board, first, second)
        for key in ((scope, board, 0, a, 0), (scope, board, 1, a, b)):
            steps[key] = steps.get(key, 0) + 1

    for scope in ("global", f"guild:{GUILD}"):
        for place, name in enumerate(people):
            uid, mu, sigma, won = users[name], 30.0 - 8 * place, 5.0, int(place == 0)
            rows.append(("INSERT INTO ratings VALUES (?, ?, ?, ?, 1, ?)", (scope, uid, mu, sigma, NOW)))
            rows.append(
                ("INSERT INTO rating_changes VALUES (?, ?, ?, 25, 8.3, ?, ?)", (FINISHED, scope, uid, mu, sigma))
            )
            total = scores[name].total
            rows.append(("INSERT INTO player_totals VALUES (?, 0, ?, 1, ?, ?, ?)", (scope, uid, won, total, NOW)))
            count(scope, "rating", mu, sigma)
            count(scope, "wins", won, 1)
            count(scope, "best", total, NOW)
        rows.append(("INSERT INTO board_counts VALUES (?, 'rating', 2)", (scope,)))
        rows.append(("INSERT INTO board_counts VALUES (?, 'multi', 2)", (scope,)))
        rows.append(("INSERT INTO kokeshi_choices (scope, user_id, princess, samurai) VALUES (?, 1, 5, 2)", (scope,)))
    rows += [("INSERT INTO board_steps VALUES (?, ?, ?, ?, ?, ?)", (*key, n)) for key, n in steps.items()]
    rows.append(
        (
            "INSERT INTO challenge_attempts (game_id, kind, key, user_id, guild_id, rated, started_at, score, won, "
            "finished_at) VALUES (?, 'daily', '2026-11-20', 3, ?, 1, ?, 61, 1, ?)",
            (CHALLENGE, GUILD, NOW, NOW),
        )
    )
    return rows, done


async def test_a_database_of_the_previous_schema_migrates_and_keeps_its_games_levels_results_and_boards(empty):
    rows, done = _old_rows()
    _build(empty, rows)
    store = await open_store(empty)
    try:
        assert await store.schema_version() == len(migrations())
        assert await store.verify() == []
        # Every stored game is Kokeshi, with no settings of its own; the AI level moved onto its seat.
        record = await store.get_game(FINISHED)
        assert (record.game, dict(record.settings)) == ("kokeshi", {})
        assert [s.ai_level for s in record.seats] == [None, None, "hard"]
        assert await store.meta(f"ai_level:{FINISHED}:2") is None
        # The score items moved into the results' details, item by item.
        results = await store.results(FINISHED)
        assert [r.name for r in results] == done.ranking()
        assert all({"total": r.total, **r.details} == done.scores()[r.name].to_dict() for r in results)
        # The game under way goes on, once its log names its seats by number.
        assert await store.to_seat_log(ACTIVE)
        match, version, _record = await store.load_match(ACTIVE)
        (seat,) = match.waiting()
        await store.play_match(ACTIVE, version, seat, match.legal_actions(seat)[0])
        assert (await store.get_game(ACTIVE)).moves == 10
        assert await store.verify() == []
        # Ratings, boards, stats and challenges are Kokeshi's, as they were.
        assert [(r.user_id, r.mu) for r in await store.ratings(scope_of(None))] == [(1, 30.0), (2, 22.0)]
        assert (await store.rating(scope_of(GUILD), 2)).mu == 22.0
        for guild in (None, GUILD):
            page, players = await store.leaderboard_page("rating", guild)
            assert [r.user_id for r in page] == [1, 2] and players == 2
            page, players = await store.leaderboard_page("wins", guild)
            assert [r.user_id for r in page] == [1, 2] and players == 2
            entry = await store.leaderboard_entry("best", guild, 2)
            best = sorted((done.scores()[n].total for n in ("Ana", "Bo")), reverse=True)
            assert entry is not None and entry.rank == 1 + best.index(done.scores()["Bo"].total)
        assert [r.user_id for r in await store.leaderboard("daily", None, "2026-11-20")] == [3]
        assert await store.streak(3, dt.date(2026, 11, 20)) == 1
        stats = await store.stats(1)
        assert stats.games == 1 and stats.favourite == "princess"
        assert stats.breakdown == {k: v for k, v in done.scores()["Ana"].to_dict().items() if k != "total"}
        # None of it is another game's.
        assert await store.ratings(scope_of(None, "other")) == []
        assert (await store.leaderboard_page("rating", None, game="other"))[1] == 0
        assert await store.leaderboard("daily", None, "2026-11-20", game="other") == []
        assert (await store.stats(1, game="other")).games == 0
    finally:
        await store.close()


# ---------------------------------------------------------------- two games in one database


@pytest.fixture
async def store(database):
    s = await open_store(database)
    yield s
    await s.close()


async def finished(store: Store, users: list[int], *, game: str, seed: int) -> int:
    """A game of this key between these users in guild 1, dealt and played to the end with random decisions through
    the store's contract path, as the platform's table plays every game."""
    game_id = await store.create_game(
        guild_id=1, channel_id=10, host_id=users[0], host_name=f"u{users[0]}", players=len(users), game=game,
    )  # fmt: skip
    for uid in users[1:]:
        await store.add_seat(game_id, uid, f"u{uid}")
    match, version = await store.start_match(game_id, seed)
    rng = random.Random(seed)
    while not match.is_over:
        seat = rng.choice(match.waiting())
        played = await store.play_match(game_id, version, seat, rng.choice(match.legal_actions(seat)))
        match, version = played.match, played.record.version
    return game_id


@pytest.fixture
def other(bids):
    """Bids, the contract suite's tiny game, registered as the other game."""
    return bids.key


@pytest.mark.slow
async def test_two_games_keep_their_own_ratings_boards_stats_and_challenges(store, other):
    await finished(store, [1, 2], game="kokeshi", seed=3)
    await finished(store, [1, 3], game=other, seed=4)
    await finished(store, [1, 3], game=other, seed=5)
    for guild in (None, 1):
        assert {r.user_id for r in await store.ratings(scope_of(guild))} == {1, 2}
        assert {r.user_id for r in await store.ratings(scope_of(guild, other))} == {1, 3}
        for board in ("rating", "wins", "best"):
            mine, players = await store.leaderboard_page(board, guild)
            theirs, others = await store.leaderboard_page(board, guild, game=other)
            assert {r.user_id for r in mine} == {1, 2} and players == 2
            assert {r.user_id for r in theirs} == {1, 3} and others == 2
    assert (await store.rating(scope_of(None), 1)).games == 1
    assert (await store.rating(scope_of(None, other), 1)).games == 2
    wins = await store.leaderboard_entry("wins", None, 1, game=other)
    assert wins is not None and wins.games == 2
    assert (await store.stats(1)).games == 1 and (await store.stats(1, game=other)).games == 2
    assert (await store.stats(2, game=other)).games == 0
    assert (await store.endings(1)).finished == 1 and (await store.endings(1, game=other)).finished == 2
    assert (await store.endings(2, game=other)).finish_rate is None
    # A challenge of each game: the first attempt at each is rated, and each game keeps its own streak.
    key = "2026-11-20"
    _, rated = await store.create_challenge(kind="daily", key=key, guild_id=1, channel_id=10, user_id=1, name="u1")
    _, rated_other = await store.create_challenge(
        kind="daily", key=key, guild_id=1, channel_id=10, user_id=1, name="u1", game="kohaku"
    )
    _, again = await store.create_challenge(kind="daily", key=key, guild_id=1, channel_id=10, user_id=1, name="u1")
    assert (rated, rated_other, again) == (True, True, False)
    assert len(await store.challenge_attempts(1, "daily", key)) == 2
    assert len(await store.challenge_attempts(1, "daily", key, game="kohaku")) == 1
    assert await store.streak(1, dt.date(2026, 11, 20), game="kohaku") == 1
    assert await store.streak(1, dt.date(2026, 11, 20), game="third") == 0


async def test_the_migration_leaves_every_scope_led_by_a_game_key(empty):
    rows, _ = _old_rows()
    _build(empty, rows)
    await (await open_store(empty)).close()
    for table in ("ratings", "rating_changes", "player_totals", "board_counts", "board_steps", "favourites"):
        scopes = {r[0] for r in sql(empty, f"SELECT DISTINCT scope FROM {table}")}
        assert scopes == {"kokeshi:global", f"kokeshi:guild:{GUILD}"}, table


async def test_verify_checks_a_finished_games_score_items_against_a_replay(store, database):
    game_id = await finished(store, [1, 2], game="kokeshi", seed=6)
    assert await store.verify() == []
    # The total is left as it was; only the items are changed.
    sql(database, """UPDATE results SET details = '{"animals": -1}' WHERE game_id = ? AND rank = 1""", (game_id,))
    assert await store.verify() == [(game_id, "the stored results differ from a replay")]
